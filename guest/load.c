// SPDX-License-Identifier: GPL-2.0
/*
 * load SECONDS [KIND]: the benchmark's load, for SECONDS (or until killed),
 * each kind with a hackbench-style scheduler load beside it: 8 pairs of
 * SCHED_OTHER processes passing 100-byte messages through pipes.
 *
 *   hog        (the default) one SCHED_FIFO 10 busy loop per CPU, below the
 *              measuring programs and above every SCHED_OTHER task: it
 *              saturates the machine, so that on PREEMPT_RT it measures
 *              the kernel's bandwidth control more than anything else
 *   audio      an audio engine on a desktop: per CPU one SCHED_FIFO 20
 *              thread (PipeWire's data thread through RTKit) woken every
 *              21333 us (1024 frames at 48 kHz) that computes for half of
 *              the period, the CPUs out of phase
 *   audio-pro  the same at SCHED_FIFO 88, a tuned studio system's engine
 *   other      one SCHED_OTHER busy loop per CPU: a busy machine without
 *              real-time load (a build, a browser)
 *
 * It creates its threads and sets their priorities; it changes nothing else.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "common.h"

#define AUDIO_PERIOD_NS	21333000LL	/* 1024 frames at 48 kHz */
#define AUDIO_BUSY_NS	(AUDIO_PERIOD_NS / 2)

/* pin to @cpu, at SCHED_FIFO @prio, or as it is for @prio 0 */
static void on_cpu(int cpu, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	pin_to_cpu(cpu);
	if (prio && sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("SCHED_FIFO");
}

static void hog(int cpu, int prio, time_t end)
{
	on_cpu(cpu, prio);
	while (time(NULL) < end)
		;
	_exit(0);
}

/*
 * One audio thread: wakes at the start of each period (shifted by @phase),
 * computes until half of it has passed, sleeps until the next one. A period
 * it started late is cut short: it never computes past its half.
 */
static void audio(int cpu, int prio, long long phase, time_t end)
{
	struct timespec ts;
	long long t;

	on_cpu(cpu, prio);
	t = (now_ns() / AUDIO_PERIOD_NS + 1) * AUDIO_PERIOD_NS + phase;
	while (time(NULL) < end) {
		ts.tv_sec = t / 1000000000LL;
		ts.tv_nsec = t % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (now_ns() < t + AUDIO_BUSY_NS)
			;
		t += AUDIO_PERIOD_NS;
	}
	_exit(0);
}

static void pingpong(time_t end)
{
	int ab[2], ba[2];
	char msg[100] = { 0 };

	if (pipe(ab) || pipe(ba))
		_exit(1);
	if (fork() == 0) {
		while (read(ab[0], msg, sizeof(msg)) > 0 && time(NULL) < end)
			if (write(ba[1], msg, sizeof(msg)) < 0)
				break;
		_exit(0);
	}
	while (time(NULL) < end)
		if (write(ab[1], msg, sizeof(msg)) < 0 || read(ba[0], msg, sizeof(msg)) < 0)
			break;
	_exit(0);
}

static void stop(int sig)
{
	kill(0, SIGKILL);
}

int main(int argc, char **argv)
{
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), i, prio = 0, hog_prio = 10;
	const char *kind = argc > 2 ? argv[2] : "hog";
	time_t end;

	if (argc < 2 || argc > 3)
		return fprintf(stderr, "usage: load SECONDS [hog|audio|audio-pro|other]\n"), 2;
	if (!strcmp(kind, "audio"))
		prio = 20;
	else if (!strcmp(kind, "audio-pro"))
		prio = 88;
	else if (!strcmp(kind, "other"))
		hog_prio = 0;
	else if (strcmp(kind, "hog"))
		return fprintf(stderr, "load: unknown kind %s\n", kind), 2;
	end = time(NULL) + atoi(argv[1]);
	/* the pipe load runs at normal priority, whatever started it */
	if (sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 }))
		perror("SCHED_OTHER");
	/* SIGTERM to this process ends the whole load: it leads its group. */
	setpgid(0, 0);
	signal(SIGTERM, stop);
	for (i = 0; i < 8; i++)
		if (fork() == 0)
			pingpong(end);
	for (i = 0; i < cpus; i++) {
		if (fork())
			continue;
		if (prio)
			audio(i, prio, i * AUDIO_PERIOD_NS / cpus, end);
		hog(i, hog_prio, end);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
