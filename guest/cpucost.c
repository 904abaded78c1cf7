// SPDX-License-Identifier: GPL-2.0
/*
 * cpucost MODE DEVICE DEBUGFS_DIR RUNS: the CPU cost of rawmidi input, in
 * ns per byte, read plainly (MODE "bytes") or framed (MODE "framing").
 *
 * Each run has the rawmidi test driver inject 3-byte messages every
 * 100 us (30000 bytes/s, ten times a MIDI wire) for 0.2 s, reads them
 * all, and adds the time the core spent in snd_rawmidi_receive() (the
 * driver's rx_ns) to the CPU time of this reading thread. Prints
 * "n min median p99 max" of RUNS runs, in ns per byte; the receive and
 * read shares of the median run go to stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"

#define MSGS	2000
#define MSG_LEN	3
#define PERIOD	100000	/* ns */

static long long read_u64(const char *dir, const char *name)
{
	char path[256], text[32] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, text, sizeof(text) - 1) <= 0) {
		perror(path);
		exit(1);
	}
	close(fd);
	return atoll(text);
}

/* One run: returns the cost in ns per byte, and its two shares. */
static double run(int framing, const char *dev, const char *dir,
		  long long *rx_ns, long long *read_ns)
{
	struct snd_rawmidi_params params = {
		.stream = SNDRV_RAWMIDI_STREAM_INPUT,
		.buffer_size = 65536,
		.avail_min = 1,
		.mode = framing ? SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP |
				  SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC : 0,
	};
	struct miditest_chunk chunk = {
		.period_ns = PERIOD, .count = MSGS, .len = MSG_LEN,
		.data = { 0x90, 0x3c, 0x64 },
	};
	int pversion = SNDRV_PROTOCOL_VERSION(2, 0, 2);
	struct pollfd pfd = { .events = POLLIN };
	struct snd_rawmidi_framing_tstamp frames[128];
	long long got = 0, cpu0;
	char path[256];
	int fd, cfd, i;

	fd = open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0 || ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &pversion) ||
	    ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params)) {
		perror(dev);
		exit(1);
	}
	pfd.fd = fd;
	poll(&pfd, 1, 0);	/* starts the input */

	snprintf(path, sizeof(path), "%s/inject", dir);
	cfd = open(path, O_WRONLY);
	for (i = 0; cfd >= 0; i++) {
		chunk.time_ns = now_ns() + 5000000LL;
		if (write(cfd, &chunk, sizeof(chunk)) == sizeof(chunk))
			break;
		if (errno != EBUSY || i == 100) {	/* the last run's timer ends */
			close(cfd);
			cfd = -1;
		}
		usleep(1000);
	}
	if (cfd < 0) {
		perror(path);
		exit(1);
	}
	close(cfd);
	cpu0 = thread_cpu_ns();
	while (got < MSGS * MSG_LEN) {
		ssize_t r = read(fd, frames, sizeof(frames));

		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 5000) <= 0) {
				fprintf(stderr, "timeout after %lld bytes\n", got);
				exit(1);
			}
			continue;
		}
		if (r <= 0 || (framing && r % sizeof(frames[0]))) {
			perror("read");
			exit(1);
		}
		if (!framing)
			got += r;
		for (i = 0; framing && i < r / (int)sizeof(frames[0]); i++)
			got += frames[i].length;
	}
	*read_ns = thread_cpu_ns() - cpu0;
	close(fd);
	if (got != MSGS * MSG_LEN || read_u64(dir, "rx_bytes") != got) {
		fprintf(stderr, "read %lld bytes, the driver handed %lld to the core\n",
			got, read_u64(dir, "rx_bytes"));
		exit(1);
	}
	*rx_ns = read_u64(dir, "rx_ns");
	return (double)(*rx_ns + *read_ns) / got;
}

int main(int argc, char **argv)
{
	long long rx[64], rd[64];
	double cost[64], sorted[64];
	int framing, runs, i, med = 0;

	if (argc != 5 || (strcmp(argv[1], "bytes") && strcmp(argv[1], "framing")))
		return fprintf(stderr, "usage: cpucost bytes|framing DEVICE DEBUGFS_DIR RUNS\n"), 2;
	framing = !strcmp(argv[1], "framing");
	runs = atoi(argv[4]);
	if (runs < 1 || runs > 64)
		return fprintf(stderr, "RUNS must be 1..64\n"), 2;
	for (i = 0; i < runs; i++) {
		cost[i] = run(framing, argv[2], argv[3], &rx[i], &rd[i]);
		sorted[i] = cost[i];
	}
	qsort(sorted, runs, sizeof(sorted[0]), cmp_d);
	for (i = 0; i < runs; i++)
		if (cost[i] == sorted[runs / 2])
			med = i;
	fprintf(stderr, "cpucost %s: median run %.1f ns/byte = receive %.1f + read %.1f\n",
		argv[1], cost[med], (double)rx[med] / (MSGS * MSG_LEN),
		(double)rd[med] / (MSGS * MSG_LEN));
	print_dist_d(sorted, runs);
	return 0;
}
