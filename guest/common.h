/* SPDX-License-Identifier: GPL-2.0 */
/* What the guest's measuring programs share. */
#ifndef GUEST_COMMON_H
#define GUEST_COMMON_H

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* A schedule record of the rawmidi test driver (sound/drivers/miditest.c). */
struct miditest_chunk {
	uint64_t time_ns;	/* CLOCK_MONOTONIC time of the first injection */
	uint32_t period_ns;	/* between repetitions, if count > 1 */
	uint16_t count;		/* number of injections */
	uint8_t len;		/* bytes in data, 1 to 16 */
	uint8_t reserved;
	uint8_t data[16];
};

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static inline int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* CPU time of the calling thread, in ns. */
static inline long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#ifdef CPU_SET
/* Pin the calling thread to @cpu (in programs built with _GNU_SOURCE). */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}
#endif

/*
 * The index of the nearest-rank @p-th percentile of @n sorted values: the
 * smallest value that at least @p % of them do not exceed. For p99 that is
 * the maximum while n < 100 (and the second largest at n = 100): the
 * bench's table labels such rows.
 */
static inline int rank_index(int n, int p)
{
	return (n * p + 99) / 100 - 1;
}

/*
 * Print @n sorted values, each divided by @div: "n min median p99 max" on
 * one line, for the table, then all of them on a "SAMPLES" line, for the
 * distribution plots.
 */
static inline void print_dist(const long long *v, int n, double div)
{
	int i;

	printf("%d %.1f %.1f %.1f %.1f\nSAMPLES", n, v[0] / div, v[n / 2] / div,
	       v[rank_index(n, 99)] / div, v[n - 1] / div);
	for (i = 0; i < n; i++)
		printf(" %.1f", v[i] / div);
	printf("\n");
}

/* print_dist() for @n sorted doubles, printed as they are. */
static inline void print_dist_d(const double *v, int n)
{
	int i;

	printf("%d %.1f %.1f %.1f %.1f\nSAMPLES", n, v[0], v[n / 2],
	       v[rank_index(n, 99)], v[n - 1]);
	for (i = 0; i < n; i++)
		printf(" %.1f", v[i]);
	printf("\n");
}

#endif
