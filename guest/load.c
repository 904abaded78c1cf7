// SPDX-License-Identifier: GPL-2.0
/*
 * load SECONDS: the benchmark's load, for SECONDS (or until killed):
 * one SCHED_FIFO priority 10 busy loop per CPU (below the measuring
 * programs, which run at a higher RT priority, above every kworker), and a
 * hackbench-style scheduler load: 8 pairs of SCHED_OTHER processes passing
 * 100-byte messages through pipes.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static void hog(int cpu, time_t end)
{
	struct sched_param sp = { .sched_priority = 10 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("SCHED_FIFO");
	while (time(NULL) < end)
		;
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
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), i;
	time_t end;

	if (argc != 2)
		return fprintf(stderr, "usage: load SECONDS\n"), 2;
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
	for (i = 0; i < cpus; i++)
		if (fork() == 0)
			hog(i, end);
	while (wait(NULL) > 0)
		;
	return 0;
}
