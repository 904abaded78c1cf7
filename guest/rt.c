// SPDX-License-Identifier: GPL-2.0
/*
 * rt PRIO CMD [ARG...]: run CMD at SCHED_FIFO priority PRIO.
 * rt -p PRIO PID: move PID to SCHED_FIFO priority PRIO.
 * (Debian's static busybox has no chrt.)
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sched_param sp;
	int pid = 0;

	if (argc >= 4 && !strcmp(argv[1], "-p")) {
		sp.sched_priority = atoi(argv[2]);
		pid = atoi(argv[3]);
	} else if (argc >= 3) {
		sp.sched_priority = atoi(argv[1]);
	} else {
		fprintf(stderr, "usage: rt PRIO CMD [ARG...] | rt -p PRIO PID\n");
		return 2;
	}
	if (sched_setscheduler(pid, SCHED_FIFO, &sp))
		return perror("sched_setscheduler"), 1;
	if (pid)
		return 0;
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
