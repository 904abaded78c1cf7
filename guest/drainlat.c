// SPDX-License-Identifier: GPL-2.0
/*
 * drainlat drain|close DEVICE COUNT: COUNT times, write a 3-byte note on
 * to the rawmidi output DEVICE and time what follows on CLOCK_MONOTONIC:
 * the SNDRV_RAWMIDI_IOCTL_DRAIN ioctl, or close() (which drains too).
 * Prints "n min median p99 max" in microseconds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"

int main(int argc, char **argv)
{
	static const unsigned char note_on[3] = { 0x90, 0x3c, 0x64 };
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long *lat, t0;
	int fd = -1, i, n, use_close;

	if (argc != 4 || (strcmp(argv[1], "drain") && strcmp(argv[1], "close")))
		return fprintf(stderr, "usage: drainlat drain|close DEVICE COUNT\n"), 2;
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
