// SPDX-License-Identifier: GPL-2.0
/*
 * drainlat drain|close DEVICE COUNT: COUNT times, write a 3-byte note on
 * to the rawmidi output DEVICE and time what follows on CLOCK_MONOTONIC:
 * the SNDRV_RAWMIDI_IOCTL_DRAIN ioctl, or close() (which drains too).
 * Prints "n min median p99 max" in microseconds.
 *
 * drainlat sysex DEVICE BYTES: five times, write a SysEx message of BYTES
 * bytes and DRAIN it; prints "wakeups MIN MEDIAN MAX drain_us MEDIAN": how
 * often the drainer slept and was woken in DRAIN (its voluntary context
 * switches, getrusage()), and how long DRAIN took.
 *
 * drainlat twice DEVICE COUNT: COUNT times, open DEVICE, write a 3-byte
 * note on, DRAIN, DRAIN again and close(); prints "drain MEDIAN second
 * MEDIAN close MEDIAN" in microseconds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sound/asound.h>

#include "common.h"

static long voluntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_nvcsw;
}

static int sysex(const char *dev, int bytes)
{
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long wakes[5], us[5], t0;
	unsigned char *msg;
	long before;
	int fd, i;

	if (bytes < 2 || bytes > 65536)
		return fprintf(stderr, "BYTES must be 2..65536\n"), 2;
	msg = malloc(bytes);
	fd = open(dev, O_WRONLY);
	if (!msg || fd < 0)
		return perror(dev), 1;
	for (i = 0; i < bytes; i++)
		msg[i] = i & 0x7f;
	msg[0] = 0xf0;
	msg[bytes - 1] = 0xf7;
	for (i = 0; i < 5; i++) {
		if (write(fd, msg, bytes) != bytes)
			return perror("write"), 1;
		before = voluntary_switches();
		t0 = now_ns();
		if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream))
			return perror("DRAIN"), 1;
		us[i] = (now_ns() - t0) / 1000;
		wakes[i] = voluntary_switches() - before;
	}
	close(fd);
	qsort(wakes, 5, sizeof(*wakes), cmp_ll);
	qsort(us, 5, sizeof(*us), cmp_ll);
	printf("wakeups %lld %lld %lld drain_us %lld\n", wakes[0], wakes[2], wakes[4], us[2]);
	return 0;
}

static int twice(const char *dev, int n)
{
	static const unsigned char note_on[3] = { 0x90, 0x3c, 0x64 };
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long *t[3], t0;
	int fd, i, k;

	if (n < 1 || n > 1000)
		return fprintf(stderr, "COUNT must be 1..1000\n"), 2;
	for (k = 0; k < 3; k++) {
		t[k] = calloc(n, sizeof(**t));
		if (!t[k])
			return 1;
	}
	for (i = 0; i < n; i++) {
		fd = open(dev, O_WRONLY);
		if (fd < 0)
			return perror(dev), 1;
		if (write(fd, note_on, sizeof(note_on)) != sizeof(note_on))
			return perror("write"), 1;
		for (k = 0; k < 2; k++) {
			t0 = now_ns();
			if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream))
				return perror("DRAIN"), 1;
			t[k][i] = now_ns() - t0;
		}
		t0 = now_ns();
		close(fd);
		t[2][i] = now_ns() - t0;
	}
	for (k = 0; k < 3; k++)
		qsort(t[k], n, sizeof(**t), cmp_ll);
	printf("drain %lld second %lld close %lld\n",
	       t[0][n / 2] / 1000, t[1][n / 2] / 1000, t[2][n / 2] / 1000);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned char note_on[3] = { 0x90, 0x3c, 0x64 };
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long *lat, t0;
	int fd = -1, i, n, use_close;

	if (argc == 4 && !strcmp(argv[1], "sysex"))
		return sysex(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "twice"))
		return twice(argv[2], atoi(argv[3]));
	if (argc != 4 || (strcmp(argv[1], "drain") && strcmp(argv[1], "close")))
		return fprintf(stderr, "usage: drainlat drain|close|twice DEVICE COUNT, drainlat sysex DEVICE BYTES\n"), 2;
	use_close = !strcmp(argv[1], "close");
	n = atoi(argv[3]);
	if (n < 1 || n > 100000)
		return fprintf(stderr, "COUNT must be 1..100000\n"), 2;
	lat = calloc(n, sizeof(*lat));
	if (!lat)
		return 1;
	for (i = 0; i < n; i++) {
		if (fd < 0)
			fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			return perror(argv[2]), 1;
		if (write(fd, note_on, sizeof(note_on)) != sizeof(note_on))
			return perror("write"), 1;
		t0 = now_ns();
		if (use_close) {
			close(fd);
			fd = -1;
		} else if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream)) {
			return perror("DRAIN"), 1;
		}
		lat[i] = now_ns() - t0;
	}
	qsort(lat, n, sizeof(*lat), cmp_ll);
	print_dist(lat, n, 1e3);
	return 0;
}
