// SPDX-License-Identifier: GPL-2.0
/*
 * wakelat FROM TO N: how long a thread on CPU TO, blocked in read() on a
 * pipe, takes to run after a thread on CPU FROM writes to it, in us: N
 * writes 10 ms apart (plus 0-999 us, so that the writes fall at every
 * phase of the timer tick), printed as "n min median p99 max" and
 * SAMPLES. Both threads keep the caller's policy (the bench runs it under
 * rt 20). Nothing rawmidi: this measures the rig, the cost of waking an
 * idle vCPU from another, which every cross-CPU wake-up in the other rows
 * pays (rt-tests' pmqtest and ptsematest keep each pair on one CPU).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "common.h"

static int fds[2], n;
static long long *lat;

static void *reader(void *arg)
{
	long long sent;
	int i;

	if (pin_to_cpu(*(int *)arg))
		exit(1);
	for (i = 0; i < n; i++) {
		if (read(fds[0], &sent, sizeof(sent)) != sizeof(sent))
			exit(1);
		lat[i] = now_ns() - sent;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int from, to, i;
	pthread_t t;

	if (argc != 4 || (n = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: wakelat FROM_CPU TO_CPU N\n");
		return 2;
	}
	from = atoi(argv[1]);
	to = atoi(argv[2]);
	lat = calloc(n, sizeof(*lat));
	if (!lat || pipe(fds) || pin_to_cpu(from) || pthread_create(&t, NULL, reader, &to)) {
		perror("wakelat");
		return 1;
	}
	usleep(100000);	/* the reader is on its CPU and blocked */
	srand(1);
	for (i = 0; i < n; i++) {
		struct timespec gap = { 0, 10000000 + (rand() % 1000) * 1000 };
		long long sent;

		nanosleep(&gap, NULL);
		sent = now_ns();
		if (write(fds[1], &sent, sizeof(sent)) != sizeof(sent))
			return perror("write"), 1;
	}
	pthread_join(t, NULL);
	qsort(lat, n, sizeof(*lat), cmp_ll);
	print_dist(lat, n, 1000.0);
	return 0;
}
