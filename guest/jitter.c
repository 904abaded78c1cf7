// SPDX-License-Identifier: GPL-2.0
/*
 * jitter raw|seq|seq-latency CARD COUNT: the seed experiment. The rawmidi test driver
 * (device 0 of CARD) sends a note on every 100 ms and a note off 50 ms
 * after each, COUNT note ons in all. The recorder takes the time of each
 * note on
 *   raw: from framed rawmidi input (CLOCK_MONOTONIC, stamped at receive);
 *   seq: from a sequencer event with a timestamping subscription on a
 *        real-time queue, as arecordmidi records it;
 * and prints |delta - 100 ms| between consecutive note ons as
 * "n min median p99 max" in microseconds.
 * seq-latency records as seq does, but prints how long after its injection
 * each note on reached the recorder (read() returned it): the delivery
 * delay, which time stamps taken at receive time do not show.
 *
 * CARD as HOST:GADGET takes the notes through USB MIDI instead: a thread
 * of this program (at the program's priority) writes each note on, then
 * its note off, to the MIDI gadget's card GADGET at those times, and the
 * recorder takes them from snd-usb-audio's card HOST, whose input path
 * (URB completion to snd_rawmidi_receive()) they cross. A thread that
 * sleeps wakes late now and then, so the jitter is taken against the
 * times the writes began: |(on[i] - on[i-1]) - (sent[i] - sent[i-1])|;
 * seq-latency's delay is the time read() returned it minus sent[i].
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"
#include "seq.h"

#define PERIOD_NS	100000000LL

static long long first_on_ns;	/* when the first note on is injected */
static int latency;		/* record arrival delays, not time stamps */
static int gadget = -1;		/* USB: the MIDI gadget's card, which sends */
static long long *sent;		/* USB: when each note on's write() began */

struct sender {
	int fd;			/* the gadget's rawmidi output */
	int count;
	long long t0;
};

/* USB: each note on and note off written to the gadget at its time. */
static void *send_notes(void *arg)
{
	struct sender *s = arg;
	unsigned char msg[3] = { 0x90, 0x3c, 0x64 };
	struct timespec ts;
	long long t;
	int i;

	for (i = 0; i < 2 * s->count; i++) {
		t = s->t0 + i * (PERIOD_NS / 2);
		ts.tv_sec = t / 1000000000LL;
		ts.tv_nsec = t % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		msg[0] = i & 1 ? 0x80 : 0x90;
		msg[2] = i & 1 ? 0x00 : 0x64;
		if (!(i & 1))
			sent[i / 2] = now_ns();
		if (write(s->fd, msg, sizeof(msg)) != sizeof(msg)) {
			perror("gadget write");
			break;
		}
	}
	return NULL;
}

/* USB: start the gadget's sender thread, its first note on 200 ms ahead. */
static int send_from_gadget(int count)
{
	static struct sender s;
	pthread_t th;
	char path[32];

	snprintf(path, sizeof(path), "/dev/snd/midiC%dD0", gadget);
	s.fd = open(path, O_WRONLY);
	if (s.fd < 0)
		return -1;
	s.count = count;
	s.t0 = now_ns() + 200000000LL;
	first_on_ns = s.t0;
	if (pthread_create(&th, NULL, send_notes, &s))
		return -1;
	return pthread_detach(th) ? -1 : 0;
}

/* Schedule COUNT note on/off pairs on device 0 of the test driver. */
static int schedule(int count)
{
	struct miditest_chunk *c = calloc(2 * count, sizeof(*c));
	long long t0 = now_ns() + 200000000LL;
	int i, fd, ok;

	if (gadget >= 0)
		return send_from_gadget(count);
	first_on_ns = t0;
	if (!c)
		return -1;
	for (i = 0; i < 2 * count; i++) {
		c[i].time_ns = t0 + i * (PERIOD_NS / 2);
		c[i].count = 1;
		c[i].len = 3;
		c[i].data[0] = i & 1 ? 0x80 : 0x90;
		c[i].data[1] = 0x3c;
		c[i].data[2] = i & 1 ? 0x00 : 0x64;
	}
	fd = open("/sys/kernel/debug/miditest/midi0/inject", O_WRONLY);
	/* the previous run's last note off may still be pending: EBUSY */
	for (i = 0; i < 100; i++) {
		ok = fd >= 0 && write(fd, c, 2 * count * sizeof(*c)) ==
				(ssize_t)(2 * count * sizeof(*c));
		if (ok || errno != EBUSY)
			break;
		usleep(10000);
	}
	if (fd >= 0)
		close(fd);
	free(c);
	return ok ? 0 : -1;
}

/* Note on times from framed rawmidi input. */
static int record_raw(int card, long long *on, int count)
{
	struct snd_rawmidi_params params = {
		.stream = SNDRV_RAWMIDI_STREAM_INPUT, .buffer_size = 4096, .avail_min = 1,
		.mode = SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC,
	};
	int pversion = SNDRV_PROTOCOL_VERSION(2, 0, 2), n = 0, fd;
	struct snd_rawmidi_framing_tstamp f;
	struct pollfd pfd = { .events = POLLIN };
	char path[32];

	snprintf(path, sizeof(path), "/dev/snd/midiC%dD0", card);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0 || ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &pversion) ||
	    ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params))
		return perror(path), -1;
	pfd.fd = fd;
	poll(&pfd, 1, 0);
	if (schedule(count))
		return perror("inject"), -1;
	while (n < count) {
		ssize_t r = read(fd, &f, sizeof(f));

		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 5000) <= 0)
				return fprintf(stderr, "raw: timeout\n"), -1;
			continue;
		}
		if (r != sizeof(f))
			return perror("read"), -1;
		if (f.data[0] == 0x90)	/* each injection is one frame */
			on[n++] = f.tv_sec * 1000000000LL + f.tv_nsec;
	}
	close(fd);
	return 0;
}

/* Note on times from the sequencer, as a real-time queue stamps them. */
static int record_seq(int card, long long *on, int count)
{
	struct snd_seq_port_info port = { 0 };
	struct snd_seq_queue_info queue = { 0 };
	struct snd_seq_port_subscribe sub = { 0 };
	struct snd_seq_event evs[16];
	struct pollfd pfd = { .events = POLLIN };
	int fd, me, src, n = 0;

	fd = open("/dev/snd/seq", O_RDWR | O_NONBLOCK);
	if (fd < 0 || ioctl(fd, SNDRV_SEQ_IOCTL_CLIENT_ID, &me))
		return perror("seq"), -1;
	src = seq_card_client(fd, card);
	if (src < 0)
		return fprintf(stderr, "no sequencer client for card %d (snd-seq-midi)\n", card), -1;
	port.addr.client = me;
	strcpy(port.name, "jitter");
	port.capability = SNDRV_SEQ_PORT_CAP_WRITE | SNDRV_SEQ_PORT_CAP_SUBS_WRITE;
	port.type = SNDRV_SEQ_PORT_TYPE_APPLICATION;
	strcpy(queue.name, "jitter");
	if (ioctl(fd, SNDRV_SEQ_IOCTL_CREATE_PORT, &port) ||
	    ioctl(fd, SNDRV_SEQ_IOCTL_CREATE_QUEUE, &queue))
		return perror("port/queue"), -1;
	sub.sender.client = src;
	sub.sender.port = 0;
	sub.dest = port.addr;
	sub.queue = queue.queue;
	sub.flags = SNDRV_SEQ_PORT_SUBS_TIMESTAMP | SNDRV_SEQ_PORT_SUBS_TIME_REAL;
	if (ioctl(fd, SNDRV_SEQ_IOCTL_SUBSCRIBE_PORT, &sub))
		return perror("subscribe"), -1;
	if (seq_start_queue(fd, port.addr, queue.queue))
		return perror("start queue"), -1;
	if (schedule(count))
		return perror("inject"), -1;
	pfd.fd = fd;
	while (n < count) {
		ssize_t r = read(fd, evs, sizeof(evs));
		int i;

		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 5000) <= 0)
				return fprintf(stderr, "seq: timeout after %d\n", n), -1;
			continue;
		}
		if (r < 0)
			return perror("read"), -1;
		for (i = 0; i < (int)(r / sizeof(evs[0])) && n < count; i++) {
			if (evs[i].type != SNDRV_SEQ_EVENT_NOTEON)
				continue;
			if (latency)
				on[n] = now_ns() - (gadget >= 0 ? sent[n] :
						    first_on_ns + n * PERIOD_NS);
			else
				on[n] = evs[i].time.time.tv_sec * 1000000000LL +
					evs[i].time.time.tv_nsec;
			n++;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long long *on, *err;
	int card, count, i, n;
	char *colon;

	latency = argc == 4 && !strcmp(argv[1], "seq-latency");
	if (argc != 4 || (strcmp(argv[1], "raw") && strcmp(argv[1], "seq") && !latency))
		return fprintf(stderr, "usage: jitter raw|seq|seq-latency CARD|HOST:GADGET COUNT\n"), 2;
	card = atoi(argv[2]);
	colon = strchr(argv[2], ':');
	if (colon)
		gadget = atoi(colon + 1);
	count = atoi(argv[3]);
	if (count < 3 || count > 2000)
		return fprintf(stderr, "COUNT must be 3..2000\n"), 2;
	on = calloc(count, sizeof(*on));
	err = calloc(count, sizeof(*err));
	sent = calloc(count, sizeof(*sent));
	if (!on || !err || !sent)
		return 1;
	if ((!strcmp(argv[1], "raw") ? record_raw : record_seq)(card, on, count))
		return 1;
	if (latency)
		for (n = 0; n < count; n++)
			err[n] = on[n];
	else if (gadget >= 0)
		for (i = 1, n = 0; i < count; i++, n++)
			err[n] = llabs(on[i] - on[i - 1] - (sent[i] - sent[i - 1]));
	else
		for (i = 1, n = 0; i < count; i++, n++)
			err[n] = llabs(on[i] - on[i - 1] - PERIOD_NS);
	qsort(err, n, sizeof(*err), cmp_ll);
	print_dist(err, n, 1e3);
	return 0;
}
