// SPDX-License-Identifier: GPL-2.0
/*
 * schedout kernel|user-other|user-fifo CARD COUNT: how close to its time a
 * scheduled MIDI message leaves. COUNT note ons, one every 10 ms, go to
 * device 0 of the rawmidi test driver (1 Mbaud, so that a byte takes 10 us
 * on the wire; 16-byte FIFO), whose transmit log gives the time each byte
 * left (its last bit):
 *   kernel:     framed output (protocol 2.0.6, CLOCK_MONOTONIC): all the
 *               frames are written at once, ahead, with their times;
 *   user-other: what applications do today: clock_nanosleep(TIMER_ABSTIME)
 *               to each time, then write() the bytes, at SCHED_OTHER;
 *   user-fifo:  the same at SCHED_FIFO 20 (as started by guest/rt.c), which
 *               needs real-time privileges.
 * Prints, in microseconds, (log time of the first byte - scheduled time)
 * as "n min median p99 max" and SAMPLES. Exits with 3 if the kernel has
 * no framed output.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"
#include "mtlog.h"

#define PERIOD_NS	10000000LL

int main(int argc, char **argv)
{
	struct sched_param other = { 0 };
	struct miditest_tx *log;
	long long *when, *err, t0;
	int card, count, fd, i, n, e, stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	char path[32];

	if (argc != 4 || (strcmp(argv[1], "kernel") && strcmp(argv[1], "user-other") &&
			  strcmp(argv[1], "user-fifo")))
		return fprintf(stderr, "usage: schedout kernel|user-other|user-fifo CARD COUNT\n"), 2;
	card = atoi(argv[2]);
	count = atoi(argv[3]);
	if (count < 2 || count > 2000)
		return fprintf(stderr, "COUNT must be 2..2000\n"), 2;
	when = calloc(count, sizeof(*when));
	err = calloc(count, sizeof(*err));
	log = calloc(3 * count + 16, sizeof(*log));
	if (!when || !err || !log)
		return 1;
	if (!strcmp(argv[1], "user-other") && sched_setscheduler(0, SCHED_OTHER, &other))
		return perror("SCHED_OTHER"), 1;
	if (mt_set("baud", "1000000") || mt_set("fifo", "16"))
		return perror("miditest"), 1;
	snprintf(path, sizeof(path), "/dev/snd/midiC%dD0", card);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return perror(path), 1;
	mt_log(log, 3 * count + 16);	/* forget earlier output */
	t0 = now_ns() + 50000000LL;
	for (i = 0; i < count; i++)
		when[i] = t0 + i * PERIOD_NS;

	if (!strcmp(argv[1], "kernel")) {
		struct snd_rawmidi_params params = {
			.stream = SNDRV_RAWMIDI_STREAM_OUTPUT, .buffer_size = 65536,
			.avail_min = 1, .no_active_sensing = 1,
			.mode = SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP |
				SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC,
		};
		struct snd_rawmidi_framing_tstamp *f = calloc(count, sizeof(*f));
		int pversion = SNDRV_PROTOCOL_VERSION(2, 0, 6);

		if (!f || ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &pversion) ||
		    ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params))
			return perror("framed output"), 1;
		/* a kernel without framed output takes a lone byte */
		if (write(fd, "\xfe", 1) == 1)
			return fprintf(stderr, "no framed output in this kernel\n"), 3;
		for (i = 0; i < count; i++) {
			f[i].length = 3;
			f[i].data[0] = 0x90;
			f[i].data[1] = i & 0x7f;
			f[i].data[2] = 0x40;
			f[i].tv_sec = when[i] / 1000000000LL;
			f[i].tv_nsec = when[i] % 1000000000LL;
		}
		if (write(fd, f, count * sizeof(*f)) != (ssize_t)(count * sizeof(*f)))
			return perror("write frames"), 1;
	} else {
		for (i = 0; i < count; i++) {
			unsigned char msg[3] = { 0x90, i & 0x7f, 0x40 };
			struct timespec ts = {
				.tv_sec = when[i] / 1000000000LL,
				.tv_nsec = when[i] % 1000000000LL,
			};

			while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
				if (e != EINTR)
					return fprintf(stderr, "clock_nanosleep: %s\n", strerror(e)), 1;
			if (write(fd, msg, 3) != 3)
				return perror("write"), 1;
		}
	}
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream))
		return perror("drain"), 1;
	close(fd);
	n = mt_log(log, 3 * count + 16);
	if (n != 3 * count)
		return fprintf(stderr, "%d bytes logged, %d sent\n", n, 3 * count), 1;
	for (i = 0; i < count; i++) {
		if (log[3 * i].byte != 0x90 || log[3 * i + 1].byte != (i & 0x7f))
			return fprintf(stderr, "message %d left as %02x %02x, not 90 %02x\n",
				       i, log[3 * i].byte, log[3 * i + 1].byte, i & 0x7f), 1;
		err[i] = (long long)log[3 * i].time_ns - when[i];
	}
	qsort(err, count, sizeof(*err), cmp_ll);
	print_dist(err, count, 1e3);
	return 0;
}
