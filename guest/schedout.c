// SPDX-License-Identifier: GPL-2.0
/*
 * schedout kernel|user-other|user-fifo CARD COUNT: how close to its time a
 * scheduled MIDI message leaves. COUNT note ons, one every 10 ms, go to
 * device 0 of the rawmidi test driver (1 Mbaud, so that a byte takes 10 us
 * on the wire; 16-byte FIFO), whose transmit log gives the time each byte
 * left (its last bit):
 *   kernel:     framed output (protocol 2.0.6, CLOCK_MONOTONIC): all the
 *               frames are written at once, ahead, with their times, and
 *               the writer waits in DRAIN while they go out;
 *   kernel-sleep: the same, but the writer sleeps until 100 ms after the
 *               last frame's time before its DRAIN: nobody waits on the
 *               output while the frames go out;
 *   user-other: what applications do today: clock_nanosleep(TIMER_ABSTIME)
 *               to each time, then write() the bytes, at SCHED_OTHER;
 *   user-fifo:  the same at SCHED_FIFO 20 (as started by guest/rt.c), which
 *               needs real-time privileges;
 *   seq-queue:  the ALSA sequencer: the note ons scheduled ahead, all at
 *               once, on a real-time queue (its default timer, snd-hrtimer)
 *               to the test driver's sequencer port (snd-seq-midi);
 *   realtime-byte: framed output with frames queued ahead (the note ons of
 *               the kernel path, each 5 ms after its time, and one a second
 *               after the last), written at once; the measured messages are
 *               MIDI clock bytes, one at each time, written then by the
 *               thread (it sleeps to the time, as user-fifo) as frames of
 *               type NOW, which go ahead of the queue. A frame of type NOW
 *               is due when it is written: its lateness counts from the
 *               write() call, not from the time the thread slept to;
 *   floor:      no message: the test driver's own input hrtimer, armed for
 *               each time (absolute, CLOCK_MONOTONIC, as framed output's
 *               release timer), and the time its callback ran. No release
 *               path can beat that; this one also has no byte to send.
 * Prints, in microseconds, (log time of the first byte - scheduled time)
 * as "n min median p99 max" and SAMPLES. Exits with 3 if the kernel has
 * no framed output.
 *
 * CARD as HOST:GADGET (all paths but floor) sends through USB MIDI
 * instead: to device 0 of card HOST, snd-usb-audio's card of the MIDI
 * gadget on dummy_hcd, whose own card GADGET stamps each arrival with
 * framed input (CLOCK_MONOTONIC); the time of a message is its arrival.
 * CARD as ump:HOST:GADGET (paths kernel, user-other, user-fifo) does the
 * same with MIDI 2.0: 64-bit MIDI 2.0 note ons to the UMP endpoint of
 * snd-usb-audio's card HOST of the MIDI 2.0 gadget (f_midi2, set up by
 * guest/ump-gadget.sh), received at the endpoint of the gadget's card
 * GADGET; framed output there is one packet a frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "common.h"
#include "seq.h"
#include "sentlog.h"

#define PERIOD_NS	10000000LL

/*
 * PARAMS_EXT of the kernel paths (the only ioctl that frames an output;
 * ENOTTY where the kernel has none): framed output on CLOCK_MONOTONIC
 */
static const struct snd_rawmidi_params framed_out = {
	.stream = SNDRV_RAWMIDI_STREAM_OUTPUT, .buffer_size = 65536,
	.avail_min = 1, .no_active_sensing = 1,
	.mode = SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC,
};

/*
 * UMP: what arrived at the gadget's endpoint, one word at a time with the
 * stamp of its frame (a kernel that frames by packet gives a packet a
 * frame, an older one cuts each transfer every 16 bytes), until @max
 * words or nothing for a second: usb_log()'s bytes, four at a time.
 */
static int ump_log(int fd, uint32_t *word, long long *ns, int max)
{
	struct miditest_tx *log = calloc(4 * max, sizeof(*log));
	unsigned char b[4];
	int n, i, k;

	if (!log)
		return -1;
	n = usb_log(fd, log, 4 * max) / 4;
	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++)
			b[k] = log[4 * i + k].byte;
		memcpy(&word[i], b, 4);
		ns[i] = log[4 * i].time_ns;
	}
	free(log);
	return n;
}

/* UMP: MIDI 2.0 note on @i, channel i % 16, key i & 0x7f, in 2 words */
static void ump_note(uint32_t *w, int i)
{
	w[0] = 0x40900000 | (i % 16) << 16 | (i & 0x7f) << 8;
	w[1] = 0x80000000;
}

/* floor: the test driver's injection times against their schedule. */
static int floor_errs(long long *when, long long *err, int count)
{
	struct miditest_chunk chunk = {
		.time_ns = when[0], .period_ns = PERIOD_NS, .count = count,
		.len = 1, .data = { 0xf8 },
	};
	struct timespec end = {
		.tv_sec = (when[count - 1] + 100000000LL) / 1000000000LL,
		.tv_nsec = (when[count - 1] + 100000000LL) % 1000000000LL,
	};
	uint64_t *injected = calloc(count, sizeof(*injected));
	int fd, i;

	fd = open(MT_DBG "inject", O_WRONLY);
	if (!injected || fd < 0 || write(fd, &chunk, sizeof(chunk)) != sizeof(chunk))
		return perror("inject"), -1;
	close(fd);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL))
		;
	fd = open(MT_DBG "injected", O_RDONLY);
	if (fd < 0 || read(fd, injected, count * sizeof(*injected)) !=
		      (ssize_t)(count * sizeof(*injected)))
		return perror("injected"), -1;
	close(fd);
	for (i = 0; i < count; i++)
		err[i] = (long long)injected[i] - when[i];
	return 0;
}

/*
 * seq-queue: a client with a port subscribed to port 0 of the sequencer
 * client of @card, and a running real-time queue, all set up before the
 * times are chosen (subscribing waits for RCU grace periods, which the
 * load slows down). The queue starts at time 0 within the write() that
 * starts it, and counts from there (*@q0: CLOCK_MONOTONIC at its time 0).
 * Returns the open sequencer, or -1.
 */
static int seq_setup(int card, int count, struct snd_seq_addr *me_addr,
		     struct snd_seq_addr *dest, int *qid, long long *q0)
{
	struct snd_seq_client_pool pool = { .output_pool = count + 16 };
	struct snd_seq_port_info port = { 0 };
	struct snd_seq_queue_info queue = { 0 };
	struct snd_seq_port_subscribe sub = { 0 };
	struct snd_seq_queue_status st = { 0 };
	long long before, after;
	int fd, me, dst;

	fd = open("/dev/snd/seq", O_RDWR);
	if (fd < 0 || ioctl(fd, SNDRV_SEQ_IOCTL_CLIENT_ID, &me))
		return perror("seq"), -1;
	dst = seq_card_client(fd, card);
	if (dst < 0)
		return fprintf(stderr, "no sequencer client for card %d\n", card), -1;
	pool.client = me;
	port.addr.client = me;
	strcpy(port.name, "schedout");
	port.capability = SNDRV_SEQ_PORT_CAP_READ | SNDRV_SEQ_PORT_CAP_SUBS_READ;
	port.type = SNDRV_SEQ_PORT_TYPE_APPLICATION;
	strcpy(queue.name, "schedout");
	if (ioctl(fd, SNDRV_SEQ_IOCTL_SET_CLIENT_POOL, &pool) ||
	    ioctl(fd, SNDRV_SEQ_IOCTL_CREATE_PORT, &port) ||
	    ioctl(fd, SNDRV_SEQ_IOCTL_CREATE_QUEUE, &queue))
		return perror("pool/port/queue"), -1;
	sub.sender = port.addr;
	sub.dest.client = dst;
	sub.dest.port = 0;
	if (ioctl(fd, SNDRV_SEQ_IOCTL_SUBSCRIBE_PORT, &sub))
		return perror("subscribe"), -1;
	/* the write starts the queue at time 0 before it returns */
	if (seq_start_queue(fd, port.addr, queue.queue))
		return perror("start queue"), -1;
	/*
	 * Where time 0 fell: the queue's time now (its status, interpolated
	 * from its timer's last report, or from its start) between two
	 * readings of CLOCK_MONOTONIC. Not the middle of the starting write:
	 * it took 0.1 to 4.3 ms in one boot of the test kernel, and the
	 * queue starts near its end (2.1 ms after the middle of the 4.3 ms).
	 */
	st.queue = queue.queue;
	before = now_ns();
	if (ioctl(fd, SNDRV_SEQ_IOCTL_GET_QUEUE_STATUS, &st) || !st.running)
		return perror("queue status"), -1;
	after = now_ns();
	*q0 = (before + after) / 2 - ((long long)st.time.tv_sec * 1000000000LL + st.time.tv_nsec);
	*me_addr = port.addr;
	*dest = sub.dest;
	*qid = queue.queue;
	return fd;
}

/* seq-queue: note on @i for CLOCK_MONOTONIC @when[i], on the queue. */
static int seq_send(int fd, const struct snd_seq_addr *me, const struct snd_seq_addr *dest,
		    int qid, long long q0, const long long *when, int count)
{
	struct snd_seq_event ev;
	long long t;
	int i;

	for (i = 0; i < count; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = SNDRV_SEQ_EVENT_NOTEON;
		ev.flags = SNDRV_SEQ_TIME_STAMP_REAL | SNDRV_SEQ_TIME_MODE_ABS;
		ev.queue = qid;
		t = when[i] - q0;
		ev.time.time.tv_sec = t / 1000000000LL;
		ev.time.time.tv_nsec = t % 1000000000LL;
		ev.source = *me;
		ev.dest = *dest;
		/* a channel of its own: no running status on the wire */
		ev.data.note.channel = i % 16;
		ev.data.note.note = i & 0x7f;
		ev.data.note.velocity = 0x40;
		if (write(fd, &ev, sizeof(ev)) != sizeof(ev))
			return perror("schedule"), -1;
	}
	return 0;
}

/*
 * realtime-byte: the frames queued ahead, then a clock byte of type NOW at
 * each of @when, from this thread, and a wait until the last note has
 * left. Returns 0, -1 on an error, or 3 if the kernel has no framed output.
 */
static int realtime_bytes(int fd, const long long *when, long long *written, int count)
{
	struct snd_rawmidi_params params = framed_out;
	struct snd_rawmidi_framing_tstamp *f = calloc(count + 1, sizeof(*f));
	struct snd_rawmidi_framing_tstamp clock = {
		.frame_type = SNDRV_RAWMIDI_FRAME_TYPE_NOW, .length = 1, .data = { 0xf8 },
	};
	struct timespec ts_end;
	long long t;
	int i, e;

	if (!f)
		return perror("framed output"), -1;
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS_EXT, &params)) {
		if (errno == ENOTTY)
			return fprintf(stderr, "no framed output in this kernel\n"), 3;
		return perror("framed output"), -1;
	}
	for (i = 0; i <= count; i++) {
		t = i < count ? when[i] + PERIOD_NS / 2 : when[count - 1] + 1000000000LL;
		f[i].length = 3;
		f[i].data[0] = 0x90;
		f[i].data[1] = i & 0x7f;
		f[i].data[2] = 0x40;
		f[i].tv_sec = t / 1000000000LL;
		f[i].tv_nsec = t % 1000000000LL;
	}
	if (write(fd, f, (count + 1) * sizeof(*f)) != (ssize_t)((count + 1) * sizeof(*f)))
		return perror("write frames"), -1;
	free(f);
	for (i = 0; i < count; i++) {
		struct timespec ts = {
			.tv_sec = when[i] / 1000000000LL,
			.tv_nsec = when[i] % 1000000000LL,
		};

		while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
			if (e != EINTR)
				return fprintf(stderr, "clock_nanosleep: %s\n", strerror(e)), -1;
		written[i] = now_ns();
		if (write(fd, &clock, sizeof(clock)) != sizeof(clock))
			return perror("write clock"), -1;
	}
	t = when[count - 1] + 100000000LL;
	ts_end.tv_sec = t / 1000000000LL;
	ts_end.tv_nsec = t % 1000000000LL;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts_end, NULL))
		;
	return 0;
}

/*
 * realtime-byte: the clock bytes in the transmit log, against the moments
 * they were written; the notes between them must have left whole, in
 * order.
 */
static int realtime_errs(const struct miditest_tx *log, int n, const long long *written,
			 int count, long long *err)
{
	int i, clocks = 0, notes = 0;

	for (i = 0; i < n; i++) {
		if (log[i].byte == 0xf8) {
			if (clocks < count)
				err[clocks] = (long long)log[i].time_ns - written[clocks];
			clocks++;
			continue;
		}
		if (log[i].byte != (notes % 3 ? (notes % 3 == 1 ? (notes / 3) & 0x7f : 0x40) : 0x90))
			return fprintf(stderr, "note byte %d is %#x\n", notes, log[i].byte), -1;
		notes++;
	}
	if (clocks != count || notes != 3 * count)
		return fprintf(stderr, "%d clock bytes and %d note bytes left, not %d and %d\n",
			       clocks, notes, count, 3 * count), -1;
	return 0;
}

static int print_errs(long long *err, int count)
{
	qsort(err, count, sizeof(*err), cmp_ll);
	print_dist(err, count, 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	struct sched_param other = { 0 };
	struct miditest_tx *log;
	long long *when, *err, t0, q0 = 0;
	struct snd_seq_addr me, dest;
	struct timespec end;
	int qid = 0;
	int seq = argc == 4 && !strcmp(argv[1], "seq-queue");
	int card, count, fd = -1, i, n, e, stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	int gadget = -1, usb_fd = -1, ump = 0;
	char path[32], *colon, *spec = argv[2];

	if (argc != 4 || (strcmp(argv[1], "kernel") && strcmp(argv[1], "kernel-sleep") &&
			  strcmp(argv[1], "user-other") && strcmp(argv[1], "realtime-byte") &&
			  strcmp(argv[1], "user-fifo") && strcmp(argv[1], "seq-queue") &&
			  strcmp(argv[1], "floor")))
		return fprintf(stderr, "usage: schedout kernel|kernel-sleep|realtime-byte|user-other|user-fifo|seq-queue|floor CARD|HOST:GADGET|ump:HOST:GADGET COUNT\n"), 2;
	if (!strncmp(spec, "ump:", 4)) {
		ump = 1;
		spec += 4;
	}
	card = atoi(spec);
	colon = strchr(spec, ':');
	if (colon)
		gadget = atoi(colon + 1);
	if (gadget >= 0 && (!strcmp(argv[1], "floor") || !strcmp(argv[1], "realtime-byte")))
		return fprintf(stderr, "floor and realtime-byte are the test driver's: no HOST:GADGET\n"), 2;
	if (ump && (gadget < 0 || seq || !strcmp(argv[1], "floor") ||
		    !strcmp(argv[1], "kernel-sleep")))
		return fprintf(stderr, "ump: HOST:GADGET, paths kernel, user-other, user-fifo\n"), 2;
	count = atoi(argv[3]);
	if (count < 2 || count > 2000)
		return fprintf(stderr, "COUNT must be 2..2000\n"), 2;
	when = calloc(count, sizeof(*when));
	err = calloc(count, sizeof(*err));
	log = calloc(4 * count + 16, sizeof(*log));	/* realtime-byte: 4 bytes each */
	if (!when || !err || !log)
		return 1;
	if (!strcmp(argv[1], "user-other") && sched_setscheduler(0, SCHED_OTHER, &other))
		return perror("SCHED_OTHER"), 1;
	if (gadget >= 0) {
		usb_fd = usb_in_open(gadget, ump);
		if (usb_fd < 0)
			return 1;
	} else if (mt_set("baud", "1000000") || mt_set("fifo", "16")) {
		return perror("miditest"), 1;
	}
	if (seq) {
		fd = seq_setup(card, count, &me, &dest, &qid, &q0);
		if (fd < 0)
			return 1;
	}
	if (gadget < 0)
		mt_log(log, 3 * count + 16);	/* forget earlier output */
	t0 = now_ns() + 50000000LL;
	for (i = 0; i < count; i++)
		when[i] = t0 + i * PERIOD_NS;
	if (!strcmp(argv[1], "floor")) {
		if (floor_errs(when, err, count))
			return 1;
		goto print;
	}
	if (seq) {
		if (seq_send(fd, &me, &dest, qid, q0, when, count))
			return 1;
		end.tv_sec = (when[count - 1] + 100000000LL) / 1000000000LL;
		end.tv_nsec = (when[count - 1] + 100000000LL) % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL))
			;
		/*
		 * Close at SCHED_OTHER, as the kselftest's sequencer fixture
		 * does: snd_timer_close() busy-waits for a running callback.
		 */
		sched_setscheduler(0, SCHED_OTHER, &other);
		close(fd);
		goto check;
	}
	snprintf(path, sizeof(path), "/dev/snd/%sC%dD0", ump ? "ump" : "midi", card);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return perror(path), 1;

	if (!strcmp(argv[1], "realtime-byte")) {
		long long *written = calloc(count, sizeof(*written));

		if (!written)
			return 1;
		e = realtime_bytes(fd, when, written, count);
		if (e)
			return e < 0 ? 1 : e;
		/* the frame a second ahead is not waited for */
		if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DROP, &stream))
			return perror("drop"), 1;
		close(fd);
		n = mt_log(log, 4 * count + 16);
		return realtime_errs(log, n, written, count, err) ? 1 : print_errs(err, count);
	}

	if (ump && !strcmp(argv[1], "kernel")) {
		struct snd_rawmidi_params params = framed_out;
		struct snd_rawmidi_framing_tstamp *f = calloc(count, sizeof(*f));

		/* a UMP output is framed by packet */
		params.mode = SNDRV_RAWMIDI_MODE_FRAMING_UMP_PACKET | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC;
		if (!f)
			return perror("framed output"), 1;
		if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS_EXT, &params)) {
			if (errno == ENOTTY)
				return fprintf(stderr, "no framed UMP output in this kernel\n"), 3;
			return perror("framed UMP output"), 1;
		}
		for (i = 0; i < count; i++) {
			f[i].length = 8;
			ump_note((uint32_t *)f[i].data, i);
			f[i].tv_sec = when[i] / 1000000000LL;
			f[i].tv_nsec = when[i] % 1000000000LL;
		}
		if (write(fd, f, count * sizeof(*f)) != (ssize_t)(count * sizeof(*f)))
			return perror("write frames"), 1;
	} else if (ump) {
		for (i = 0; i < count; i++) {
			uint32_t w[2];
			struct timespec ts = {
				.tv_sec = when[i] / 1000000000LL,
				.tv_nsec = when[i] % 1000000000LL,
			};

			ump_note(w, i);
			while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
				if (e != EINTR)
					return fprintf(stderr, "clock_nanosleep: %s\n", strerror(e)), 1;
			if (write(fd, w, sizeof(w)) != sizeof(w))
				return perror("write"), 1;
		}
	} else if (!strcmp(argv[1], "kernel") || !strcmp(argv[1], "kernel-sleep")) {
		struct snd_rawmidi_params params = framed_out;
		struct snd_rawmidi_framing_tstamp *f = calloc(count, sizeof(*f));

		if (!f)
			return perror("framed output"), 1;
		if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS_EXT, &params)) {
			if (errno == ENOTTY)
				return fprintf(stderr, "no framed output in this kernel\n"), 3;
			return perror("framed output"), 1;
		}
		for (i = 0; i < count; i++) {
			f[i].length = 3;
			f[i].data[0] = 0x90;
			f[i].data[1] = i & 0x7f;
			f[i].data[2] = 0x40;
			f[i].tv_sec = when[i] / 1000000000LL;
			f[i].tv_nsec = when[i] % 1000000000LL;
		}
		if (write(fd, f, count * sizeof(*f)) != (ssize_t)(count * sizeof(*f)))
			return perror("write frames"), 1;
	} else {
		for (i = 0; i < count; i++) {
			unsigned char msg[3] = { 0x90, i & 0x7f, 0x40 };
			struct timespec ts = {
				.tv_sec = when[i] / 1000000000LL,
				.tv_nsec = when[i] % 1000000000LL,
			};

			while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
				if (e != EINTR)
					return fprintf(stderr, "clock_nanosleep: %s\n", strerror(e)), 1;
			if (write(fd, msg, 3) != 3)
				return perror("write"), 1;
		}
	}
	if (!strcmp(argv[1], "kernel-sleep")) {
		end.tv_sec = (when[count - 1] + 100000000LL) / 1000000000LL;
		end.tv_nsec = (when[count - 1] + 100000000LL) % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL))
			;
	}
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream))
		return perror("drain"), 1;
	close(fd);
check:
	if (ump) {
		uint32_t *word = calloc(2 * count + 16, sizeof(*word)), w[2];
		long long *ns = calloc(2 * count + 16, sizeof(*ns));

		if (!word || !ns)
			return 1;
		n = ump_log(usb_fd, word, ns, 2 * count + 16);
		if (n != 2 * count)
			return fprintf(stderr, "%d words arrived, %d sent\n", n, 2 * count), 1;
		for (i = 0; i < count; i++) {
			ump_note(w, i);
			if (word[2 * i] != w[0] || word[2 * i + 1] != w[1])
				return fprintf(stderr, "packet %d arrived as %08x %08x, not %08x %08x\n",
					       i, word[2 * i], word[2 * i + 1], w[0], w[1]), 1;
			err[i] = ns[2 * i] - when[i];
		}
		goto print;
	}
	n = gadget >= 0 ? usb_log(usb_fd, log, 3 * count + 16) : mt_log(log, 3 * count + 16);
	if (sched_errs(log, n, when, count, seq, err))
		return 1;
print:
	return print_errs(err, count);
}
