// SPDX-License-Identifier: GPL-2.0
/*
 * tstamperr DEVICE DEBUGFS_DIR COUNT PERIOD_US: have the rawmidi test
 * driver inject COUNT one-byte chunks, PERIOD_US apart, on the input of
 * DEVICE (its debugfs directory DEBUGFS_DIR), read them as framed input
 * stamped on CLOCK_MONOTONIC, and print the stamp minus the driver's
 * logged injection time as "n min median p99 max" in microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
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
	struct snd_rawmidi_params params = {
		.stream = SNDRV_RAWMIDI_STREAM_INPUT,
		.buffer_size = 65536,
		.avail_min = 1,
		.mode = SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC,
	};
	struct miditest_chunk chunk = { .len = 1, .data = { 0xf8 } };
	struct snd_rawmidi_framing_tstamp frame;
	int pversion = SNDRV_PROTOCOL_VERSION(2, 0, 2);
	struct pollfd pfd = { .events = POLLIN };
	long long *err;
	uint64_t *injected;
	char path[256];
	int fd, cfd, n, got = 0;

	if (argc != 5)
		return fprintf(stderr, "usage: tstamperr DEVICE DEBUGFS_DIR COUNT PERIOD_US\n"), 2;
	n = atoi(argv[3]);
	if (n < 1 || n > 2000)
		return fprintf(stderr, "COUNT must be 1..2000\n"), 2;
	chunk.count = n;
	chunk.period_ns = atoi(argv[4]) * 1000;
	err = calloc(n, sizeof(*err));
	injected = calloc(n, sizeof(*injected));
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0 || !err || !injected)
		return perror(argv[1]), 1;
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &pversion) ||
	    ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params))
		return perror("framing"), 1;
	pfd.fd = fd;
	poll(&pfd, 1, 0);	/* starts the input */

	chunk.time_ns = now_ns() + 10000000LL;
	snprintf(path, sizeof(path), "%s/inject", argv[2]);
	cfd = open(path, O_WRONLY);
	if (cfd < 0 || write(cfd, &chunk, sizeof(chunk)) != sizeof(chunk))
		return perror(path), 1;
	close(cfd);

	while (got < n) {
		ssize_t r = read(fd, &frame, sizeof(frame));

		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 5000) <= 0)
				return fprintf(stderr, "timeout after %d frames\n", got), 1;
			continue;
		}
		if (r != sizeof(frame))
			return perror("read"), 1;
		err[got++] = frame.tv_sec * 1000000000LL + frame.tv_nsec;
	}
	snprintf(path, sizeof(path), "%s/injected", argv[2]);
	cfd = open(path, O_RDONLY);
	if (cfd < 0 || read(cfd, injected, n * sizeof(*injected)) != (ssize_t)(n * sizeof(*injected)))
		return perror(path), 1;
	for (got = 0; got < n; got++)
		err[got] -= (long long)injected[got];
	qsort(err, n, sizeof(*err), cmp_ll);
	print_dist(err, n, 1e3);
	return 0;
}
