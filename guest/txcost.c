// SPDX-License-Identifier: GPL-2.0
/*
 * txcost timed|now CARD RUNS: the CPU cost of rawmidi output, in ns per
 * byte, plain against framed, RUNS runs of each taken in turn (plain
 * first in every other pair), so that both see the same phases of the
 * machine. Each run sends COUNT 3-byte note ons to device 0 of the rawmidi
 * test driver at an unlimited line rate (every byte leaves within the
 * trigger that hands it over, so the wire costs nothing):
 *   timed, path bytes:   plain output as applications time it today:
 *                        sleep until each message's time (clock_nanosleep,
 *                        TIMER_ABSTIME), then write() its 3 bytes; one
 *                        message every PERIOD;
 *   timed, path framing: framed output (protocol 2.0.6): all the frames
 *                        written ahead in one write(), each released at
 *                        its time by the stream's timer; the same times;
 *   now, paths bytes-now and framing-now: no timing, the data path alone:
 *                        one write() per message, frames due at once.
 * In the now runs everything runs in the writer's system calls, whose CPU
 * time is the cost. In the timed runs frames leave from a timer
 * interrupt, which no task is charged for: there the cost is the CPU time
 * taken from a SCHED_IDLE soaker thread on every CPU, busy all the time
 * it gets. The kernel must have CONFIG_IRQ_TIME_ACCOUNTING, so that
 * interrupts are not charged to the soaker they interrupt. The soakers'
 * CPU time missing over the run, less what went missing over an idle
 * window of the same length just before and just after it (timer ticks,
 * kernel threads; the mean of the two), is the cost.
 * Prints for each path "PATH name", then "n min median p99 max" in ns per
 * byte and SAMPLES; then "RATIO r (quartiles q1-q3)", over the pairs of
 * framed / plain. One pair first warms up and is not counted. A kernel without framed output gets the plain path and
 * "NOFRAMING".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"
#include "mtlog.h"

/* rawmidi protocol 2.0.6, where the headers are older (stable trees) */
#ifndef SNDRV_RAWMIDI_IOCTL_PARAMS_EXT
#define SNDRV_RAWMIDI_IOCTL_PARAMS_EXT	_IOWR('W', 0x12, struct snd_rawmidi_params)
#endif

#define COUNT		2000
#define MSG_LEN		3
#define PERIOD_NS	200000LL	/* 15000 bytes/s: five MIDI wires */
#define MAX_CPUS	8
/* the run's window: the last message plus this (TCG runs late) */
#define WINDOW_NS	100000000LL

static pthread_t soakers[MAX_CPUS];
static volatile int soakers_ready;
static int ncpu;

static void *soak(void *arg)
{
	struct sched_param idle = { 0 };

	if (pin_to_cpu((long)arg) || sched_setscheduler(0, SCHED_IDLE, &idle)) {
		perror("soaker");
		exit(1);
	}
	__atomic_add_fetch(&soakers_ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		;
	return NULL;
}

/* The CPU time of all the soakers. */
static long long soaked_ns(void)
{
	struct timespec ts;
	long long sum = 0;
	clockid_t clock;
	int i;

	for (i = 0; i < ncpu; i++) {
		if (pthread_getcpuclockid(soakers[i], &clock) ||
		    clock_gettime(clock, &ts)) {
			perror("soaker CPU time");
			exit(1);
		}
		sum += ts.tv_sec * 1000000000LL + ts.tv_nsec;
	}
	return sum;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };
	int e;

	while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
		if (e != EINTR) {
			fprintf(stderr, "clock_nanosleep: %s\n", strerror(e));
			exit(1);
		}
}

/* The CPU time the soakers did not get over an idle window of @len ns. */
static long long idle_loss(long long len)
{
	long long t0 = now_ns(), s0 = soaked_ns();

	sleep_until(t0 + len);
	return ncpu * (now_ns() - t0) - (soaked_ns() - s0);
}

/* Open the output, framed or not; -1 if the kernel has no framed output. */
static int open_output(const char *dev, int framed)
{
	struct snd_rawmidi_params params = {
		.stream = SNDRV_RAWMIDI_STREAM_OUTPUT, .buffer_size = 65536,
		.avail_min = 1, .no_active_sensing = 1,
		.mode = framed ? SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP |
				 SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC : 0,
	};
	int fd = open(dev, O_WRONLY);

	if (fd < 0) {
		perror(dev);
		exit(1);
	}
	/* only PARAMS_EXT frames an output; a kernel without it: ENOTTY */
	if (framed && ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS_EXT, &params)) {
		if (errno == ENOTTY) {
			close(fd);
			return -1;
		}
		perror("PARAMS_EXT, framed");
		exit(1);
	}
	if (!framed && ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params)) {
		perror(dev);
		exit(1);
	}
	return fd;
}

static void frame(struct snd_rawmidi_framing_tstamp *f, int i, long long when)
{
	memset(f, 0, sizeof(*f));
	f->length = MSG_LEN;
	f->data[0] = 0x90;
	f->data[1] = i & 0x7f;
	f->data[2] = 0x40;
	f->tv_sec = when / 1000000000LL;
	f->tv_nsec = when % 1000000000LL;
}

static struct miditest_tx tx_log[MSG_LEN * COUNT + 16];

/*
 * Every message left, whole and in order; timed (@t0 not 0), each first
 * byte at or after its time and the last byte within the measured window.
 */
static void check_log(long long t0, long long end)
{
	struct miditest_tx *log = tx_log;
	int n = mt_log(log, MSG_LEN * COUNT + 16), i;

	if (n != MSG_LEN * COUNT) {
		fprintf(stderr, "%d bytes left, %d sent\n", n, MSG_LEN * COUNT);
		exit(1);
	}
	for (i = 0; i < COUNT; i++)
		if (log[3 * i].byte != 0x90 || log[3 * i + 1].byte != (i & 0x7f)) {
			fprintf(stderr, "message %d left as %02x %02x\n", i,
				log[3 * i].byte, log[3 * i + 1].byte);
			exit(1);
		}
	for (i = 0; t0 && i < COUNT; i++)
		if ((long long)log[3 * i].time_ns < t0 + i * PERIOD_NS) {
			fprintf(stderr, "message %d left before its time\n", i);
			exit(1);
		}
	if (t0 && (long long)log[MSG_LEN * COUNT - 1].time_ns > end) {
		fprintf(stderr, "the last byte left after the window\n");
		exit(1);
	}
}

static void write_all(int fd, const void *buf, size_t len)
{
	ssize_t w = write(fd, buf, len);

	if (w < 0) {
		perror("write");
		exit(1);
	}
	if ((size_t)w != len) {
		fprintf(stderr, "write: %zd of %zu bytes\n", w, len);
		exit(1);
	}
}

/* One run: the cost in ns per byte. */
static double run(int framed, int now, const char *dev)
{
	static struct snd_rawmidi_framing_tstamp frames[COUNT];
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long t0 = 0, w0, s0, loss, cpu0, len = COUNT * PERIOD_NS + WINDOW_NS;
	double used;
	int fd, i;

	fd = open_output(dev, framed);
	if (fd < 0) {
		fprintf(stderr, "framed output went away\n");
		exit(1);
	}
	mt_log(tx_log, MSG_LEN * COUNT + 16);	/* forget earlier output */
	if (now) {
		static unsigned char msgs[COUNT][MSG_LEN];

		/* both paths' data made before the clock starts */
		for (i = 0; i < COUNT; i++) {
			frame(&frames[i], i, 0);
			memcpy(msgs[i], frames[i].data, MSG_LEN);
		}
		cpu0 = thread_cpu_ns();
		for (i = 0; i < COUNT; i++)
			if (framed)
				write_all(fd, &frames[i], sizeof(frames[i]));
			else
				write_all(fd, msgs[i], MSG_LEN);
		used = thread_cpu_ns() - cpu0;
	} else {
		loss = idle_loss(len);
		t0 = now_ns() + 1000000LL;
		for (i = 0; framed && i < COUNT; i++)
			frame(&frames[i], i, t0 + i * PERIOD_NS);
		sleep_until(t0);
		w0 = now_ns();
		s0 = soaked_ns();
		if (framed)
			write_all(fd, frames, sizeof(frames));
		for (i = 0; !framed && i < COUNT; i++) {
			unsigned char msg[MSG_LEN] = { 0x90, i & 0x7f, 0x40 };

			sleep_until(t0 + i * PERIOD_NS);
			write_all(fd, msg, MSG_LEN);
		}
		sleep_until(t0 + len);
		used = ncpu * (now_ns() - w0) - (soaked_ns() - s0);
		loss = (loss + idle_loss(len)) / 2;
		used -= loss;
	}
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream)) {
		perror("drain");
		exit(1);
	}
	close(fd);
	check_log(t0, t0 + len);
	return used / (MSG_LEN * COUNT);
}

static void print_path(const char *name, double *cost, int runs)
{
	qsort(cost, runs, sizeof(cost[0]), cmp_d);
	printf("PATH %s\n", name);
	print_dist_d(cost, runs);
}

int main(int argc, char **argv)
{
	double plain[64], framed[64], ratio[64];
	int runs, now, have_framing, fd, i;
	char dev[32];

	if (argc != 4 || (strcmp(argv[1], "timed") && strcmp(argv[1], "now")))
		return fprintf(stderr, "usage: txcost timed|now CARD RUNS\n"), 2;
	now = !strcmp(argv[1], "now");
	snprintf(dev, sizeof(dev), "/dev/snd/midiC%dD0", atoi(argv[2]));
	runs = atoi(argv[3]);
	if (runs < 1 || runs > 64)
		return fprintf(stderr, "RUNS must be 1..64\n"), 2;
	if (mt_set("baud", "0") || mt_set("fifo", "16"))
		return perror("miditest"), 1;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > MAX_CPUS)
		return fprintf(stderr, "%d CPUs\n", ncpu), 1;
	fd = open_output(dev, 1);
	have_framing = fd >= 0;
	if (have_framing)
		close(fd);
	for (i = 0; !now && i < ncpu; i++)
		if (pthread_create(&soakers[i], NULL, soak, (void *)(long)i))
			return perror("pthread_create"), 1;
	while (!now && soakers_ready < ncpu)
		usleep(1000);
	/* pair -1 warms up and is not counted */
	for (i = -1; i < runs; i++) {
		double p, f = 0;

		if (have_framing && i % 2)
			f = run(1, now, dev);
		p = run(0, now, dev);
		if (have_framing && !(i % 2))
			f = run(1, now, dev);
		if (i < 0)
			continue;
		plain[i] = p;
		framed[i] = f;
		ratio[i] = f / p;
	}
	print_path(now ? "bytes-now" : "bytes", plain, runs);
	if (!have_framing)
		return printf("NOFRAMING\n"), 0;
	print_path(now ? "framing-now" : "framing", framed, runs);
	qsort(ratio, runs, sizeof(ratio[0]), cmp_d);
	printf("RATIO %.2f (quartiles %.2f-%.2f)\n", ratio[runs / 2], ratio[runs / 4],
	       ratio[(3 * runs) / 4]);
	return 0;
}
