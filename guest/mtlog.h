/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-space tests' view of the rawmidi test driver (snd-miditest):
 * its transmit log, and the check that scheduled messages left at their
 * times, with the bounds of the kernel's framed-output selftest
 * (tools/testing/selftests/alsa/rawmidi-framed-test.c, framed_output_at_times):
 * no message's first byte before its time, none 50 ms or more after it,
 * the median under 5 ms.
 */
#ifndef GUEST_MTLOG_H
#define GUEST_MTLOG_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define MT_DBG		"/sys/kernel/debug/miditest/midi0/"
#define MT_LATE_NS	50000000LL	/* no message this late */
#define MT_MEDIAN_NS	5000000LL	/* the median below this */

/* A transmit log record of the test driver (sound/drivers/miditest.c). */
struct miditest_tx {
	uint64_t time_ns;	/* CLOCK_MONOTONIC time the byte left */
	uint8_t byte;
	uint8_t reserved[7];
};

static inline int mt_set(const char *name, const char *val)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), MT_DBG "%s", name);
	fd = open(path, O_WRONLY);
	ok = fd >= 0 && write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Read (and consume) up to @max records of the transmit log. */
static inline int mt_log(struct miditest_tx *log, int max)
{
	int fd = open(MT_DBG "tx_log", O_RDONLY), n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n < max && (r = read(fd, log + n, (max - n) * sizeof(*log))) > 0)
		n += r / sizeof(*log);
	close(fd);
	return n;
}

/* The kselftest fixture's device: 31250 baud, 16-byte FIFO, no loopback,
 * an empty log. The output must be closed. */
static inline int mt_reset(void)
{
	static struct miditest_tx old[1024];

	if (mt_set("baud", "31250") || mt_set("fifo", "16") || mt_set("loopback", "0"))
		return -1;
	while (mt_log(old, 1024) > 0)
		;
	return 0;
}

/*
 * Check the transmit log against @n messages of @len bytes @data[i] each,
 * scheduled at CLOCK_MONOTONIC @when[i] (ns): every byte logged in order,
 * each message's first byte no earlier than its time (less @slack), none
 * MT_LATE_NS late, and the median below @median_ns (0: no bound on the
 * median, for messages sent at once, which queue behind each other on
 * the wire, and for a single message: one sample is no median, and a
 * bound on it would be a timer that fails whenever the test process is
 * preempted once; MT_LATE_NS still holds). Prints "# " diagnostics;
 * returns 0 if all hold.
 */
static inline int mt_check_times(const long long *when, const unsigned char *data,
				 int n, int len, long long slack, long long median_ns)
{
	/* (casts: C++ includes this too) */
	struct miditest_tx *log = (struct miditest_tx *)calloc(n * len + 16, sizeof(*log));
	long long *err = (long long *)calloc(n, sizeof(*err));
	long long *sorted = (long long *)calloc(n, sizeof(*err));
	int i, got, bad = 0;

	if (!log || !err || !sorted)
		return -1;
	got = mt_log(log, n * len + 16);
	if (got != n * len) {
		printf("# %d bytes left the device, %d were sent\n", got, n * len);
		bad = 1;
		goto out;
	}
	for (i = 0; i < n * len; i++) {
		if (log[i].byte != data[i]) {
			printf("# byte %d is %02x, not %02x\n", i, log[i].byte, data[i]);
			bad = 1;
			goto out;
		}
	}
	printf("# first bytes after their time stamps (us):");
	for (i = 0; i < n; i++) {
		err[i] = (long long)log[i * len].time_ns - when[i];
		if (i < 20)
			printf(" %lld", err[i] / 1000);
	}
	printf("%s\n", n > 20 ? " ..." : "");
	for (i = 0; i < n; i++) {
		if (err[i] + slack < 0) {
			printf("# message %d left %lld us early\n", i, -err[i] / 1000);
			bad = 1;
		}
		if (err[i] >= MT_LATE_NS) {
			printf("# message %d left behind, %lld us late\n", i, err[i] / 1000);
			bad = 1;
		}
	}
	memcpy(sorted, err, n * sizeof(*err));
	qsort(sorted, n, sizeof(*sorted), cmp_ll);
	if (median_ns && sorted[n / 2] >= median_ns) {
		printf("# median %lld us late (bound %lld us)\n", sorted[n / 2] / 1000,
		       median_ns / 1000);
		bad = 1;
	}
out:
	free(log);
	free(err);
	free(sorted);
	return bad;
}

/* CLOCK_MONOTONIC minus @clock, from the closest of a few reads of @clock
 * between two reads of CLOCK_MONOTONIC; *uncertainty gets half the gap. */
static inline long long mt_monotonic_minus(clockid_t clock, long long *uncertainty)
{
	long long a, t, b, best = -1, offset = 0;
	struct timespec ts;
	int i;

	for (i = 0; i < 8; i++) {
		a = now_ns();
		clock_gettime(clock, &ts);
		t = ts.tv_sec * 1000000000LL + ts.tv_nsec;
		b = now_ns();
		if (best < 0 || b - a < best) {
			best = b - a;
			offset = a + (b - a) / 2 - t;
		}
	}
	*uncertainty = best / 2 + 1;
	return offset;
}

#endif
