// SPDX-License-Identifier: GPL-2.0
/*
 * ustwrite CARD PROTOCOL FIRST: the patched alsa-lib's framed output, as
 * TAP results numbered from FIRST (the caller prints the plan), against
 * device 0 of the rawmidi test driver (card CARD), whose transmit log
 * says when each byte left. PROTOCOL is the kernel's rawmidi protocol
 * (mtctl pversion): from 2.0.6 on, framed output must work: timestamped
 * writes leave at their times (the bounds of the kernel's selftest), the
 * status counters and the current setup read back what was set, bad
 * arguments get -EINVAL and a clock the output lacks -ENOTSUP; below it
 * every new call must fail with -ENOTSUP and change nothing, and the old
 * calls keep working. Nine results either way.
 */
#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <alsa/asoundlib.h>

#include "mtlog.h"

/* the kernel's PARAMS (its header and alsa-lib's clash: a copy) */
struct raw_params {
	int stream;
	size_t buffer_size;
	size_t avail_min;
	unsigned int no_active_sensing: 1;
	unsigned int mode;
	unsigned char reserved[12];
};
#define RAW_IOCTL_PARAMS	_IOWR('W', 0x10, struct raw_params)
/* from 2.0.6: PARAMS that refuses what it does not take, the only one
 * that frames an output (PARAMS ignores an output's mode); ENOTTY before */
#define RAW_IOCTL_PARAMS_EXT	_IOWR('W', 0x12, struct raw_params)
#define RAW_MODE_FRAMED		(1 | 2 << 3)	/* TSTAMP, CLOCK_MONOTONIC */

static int tap_n;
static int failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("# line %d: %s: ", __LINE__, #cond);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed = 1;						\
	}								\
} while (0)

static void result(const char *name)
{
	printf("%sok %d - %s\n", failed ? "not " : "", tap_n++, name);
	failed = 0;
	fflush(stdout);
}

static char device[32];

static snd_rawmidi_t *open_out(void)
{
	snd_rawmidi_t *out = NULL;
	int err;

	mt_reset();
	err = snd_rawmidi_open(NULL, &out, device, 0);
	CHECK(err == 0, "open %s: %s", device, snd_strerror(err));
	return err ? NULL : out;
}

/* PARAMS: buffer @size; framed on @clock, or plain for SND_RAWMIDI_CLOCK_NONE */
static int set_params(snd_rawmidi_t *out, size_t size, snd_rawmidi_clock_t clock)
{
	snd_rawmidi_params_t *p;
	int err;

	snd_rawmidi_params_alloca(&p);
	snd_rawmidi_params_current(out, p);
	snd_rawmidi_params_set_buffer_size(out, p, size);
	err = snd_rawmidi_params_set_read_mode(out, p, clock ? SND_RAWMIDI_READ_TSTAMP :
					      SND_RAWMIDI_READ_STANDARD);
	if (!err)
		err = snd_rawmidi_params_set_clock_type(out, p, clock);
	if (!err)
		err = snd_rawmidi_params(out, p);
	return err;
}

static struct timespec ts_of(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	return ts;
}

static long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int out_fd(snd_rawmidi_t *out)
{
	struct pollfd pfd;

	return snd_rawmidi_poll_descriptors(out, &pfd, 1) == 1 ? pfd.fd : -1;
}

/* Ten 3-byte messages 10 ms apart, written at once, each at its time. */
static void at_times(clockid_t clockid, snd_rawmidi_clock_t clock)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	long long t0, when[10], slack = 0, offset = 0;
	unsigned char data[30];
	int i, err;

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	err = set_params(out, 4096, clock);
	CHECK(err == 0, "framed output: %s", snd_strerror(err));
	t0 = clock_ns(clockid) + 50000000LL;
	for (i = 0; i < 10 && !err; i++) {
		unsigned char msg[3] = { 0x90, 0x30 + i, 0x40 };
		struct timespec ts = ts_of(t0 + i * 10000000LL);

		memcpy(data + 3 * i, msg, 3);
		err = snd_rawmidi_twrite(out, &ts, msg, 3);
		CHECK(err == 3, "twrite %d: %d", i, err);
		err = err == 3 ? 0 : err;
	}
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) > 0, "nothing pending before its time");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(clock_ns(clockid) >= t0 + 90000000LL, "drain returned before the last time");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 0, "pending after drain: %u",
	      snd_rawmidi_status_get_frames_pending(st));
	CHECK(snd_rawmidi_status_get_frames_dropped(st) == 0, "dropped");
	printf("# sent at most %u us late\n", snd_rawmidi_status_get_late_max_us(st));
	/* the driver logs CLOCK_MONOTONIC */
	if (clockid != CLOCK_MONOTONIC)
		offset = mt_monotonic_minus(clockid, &slack);
	for (i = 0; i < 10; i++)
		when[i] = t0 + offset + i * 10000000LL;
	CHECK(mt_check_times(when, data, 10, 3, slack, MT_MEDIAN_NS) == 0, "timing");
	snd_rawmidi_close(out);
}

/*
 * how late, pending and dropped; the status reports how late and dropped
 * once, as xruns, and a mode switch starts them afresh
 */
static void counters(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	struct miditest_tx log[16];
	struct timespec past, later;
	int i;

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	past = ts_of(now_ns() - 100000000LL);
	later = ts_of(now_ns() + 10000000000LL);
	CHECK(snd_rawmidi_twrite(out, NULL, "\xc0\x01", 2) == 2, "twrite at once");
	for (i = 0; i < 2; i++)
		CHECK(snd_rawmidi_twrite(out, &past, "\xc0\x02", 2) == 2, "twrite late");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_late_max_us(st) >= 100000 &&
	      snd_rawmidi_status_get_late_max_us(st) < 10000000,
	      "late %u us, want 100 ms or a little more", snd_rawmidi_status_get_late_max_us(st));
	for (i = 0; i < 3; i++)
		CHECK(snd_rawmidi_twrite(out, &later, "\xc0\x03", 2) == 2, "twrite later");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 3, "pending %u, want 3",
	      snd_rawmidi_status_get_frames_pending(st));
	CHECK(snd_rawmidi_drop(out) == 0, "drop");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 0, "pending after drop");
	CHECK(snd_rawmidi_status_get_frames_dropped(st) == 3, "dropped %u, want 3",
	      snd_rawmidi_status_get_frames_dropped(st));
	CHECK(snd_rawmidi_status_get_late_max_us(st) == 0, "late reported twice");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_dropped(st) == 0, "dropped reported twice");
	CHECK(mt_log(log, 16) == 6, "bytes sent: not the 3 messages due");
	/* switching framing off and on again starts the counters afresh */
	CHECK(snd_rawmidi_twrite(out, &past, "\xc0\x04", 2) == 2, "twrite late");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(snd_rawmidi_twrite(out, &later, "\xc0\x05", 2) == 2, "twrite later");
	CHECK(snd_rawmidi_drop(out) == 0, "drop");
	CHECK(mt_log(log, 16) == 2, "bytes sent: not the message due");
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_NONE) == 0, "params");
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "params");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_late_max_us(st) == 0 &&
	      snd_rawmidi_status_get_frames_dropped(st) == 0,
	      "a mode switch did not reset the counters");
	snd_rawmidi_close(out);
}

/*
 * snd_rawmidi_params_current(): what PARAMS set, and (2.0.6) what the
 * kernel reported after it (SETUP); a copy, not asked again: a change
 * made behind alsa-lib's back on its own file is not seen.
 */
static void current(int v206)
{
	snd_rawmidi_t *out = open_out(), *in = NULL;
	snd_rawmidi_params_t *p;
	struct raw_params raw = { .stream = 0 /* output */, .buffer_size = 2048, .avail_min = 32 };
	snd_rawmidi_clock_t clock = v206 ? SND_RAWMIDI_CLOCK_MONOTONIC : SND_RAWMIDI_CLOCK_NONE;

	snd_rawmidi_params_alloca(&p);
	if (!out)
		return;
	snd_rawmidi_params_current(out, p);
	snd_rawmidi_params_set_buffer_size(out, p, 1024);
	snd_rawmidi_params_set_avail_min(out, p, 64);
	snd_rawmidi_params_set_no_active_sensing(out, p, 1);
	if (v206) {
		CHECK(snd_rawmidi_params_set_read_mode(out, p, SND_RAWMIDI_READ_TSTAMP) == 0, "mode");
		CHECK(snd_rawmidi_params_set_clock_type(out, p, clock) == 0, "clock");
	}
	CHECK(snd_rawmidi_params(out, p) == 0, "params");
	memset(p, 0, snd_rawmidi_params_sizeof());
	CHECK(snd_rawmidi_params_current(out, p) == 0, "params_current");
	CHECK(snd_rawmidi_params_get_buffer_size(p) == 1024, "buffer %zu",
	      snd_rawmidi_params_get_buffer_size(p));
	CHECK(snd_rawmidi_params_get_avail_min(p) == 64, "avail_min %zu",
	      snd_rawmidi_params_get_avail_min(p));
	CHECK(snd_rawmidi_params_get_no_active_sensing(p) == 1, "no_active_sensing");
	CHECK(snd_rawmidi_params_get_read_mode(p) ==
	      (v206 ? SND_RAWMIDI_READ_TSTAMP : SND_RAWMIDI_READ_STANDARD), "read mode");
	CHECK(snd_rawmidi_params_get_clock_type(p) == clock, "clock %d",
	      snd_rawmidi_params_get_clock_type(p));
	/*
	 * behind alsa-lib's back: plain, 2048 bytes (PARAMS_EXT: PARAMS
	 * would leave the output framed; before 2.0.6, PARAMS); the copy stays
	 */
	CHECK(ioctl(out_fd(out), v206 ? RAW_IOCTL_PARAMS_EXT : RAW_IOCTL_PARAMS, &raw) == 0,
	      "raw PARAMS%s: %s", v206 ? "_EXT" : "", strerror(errno));
	CHECK(snd_rawmidi_params_current(out, p) == 0, "params_current");
	CHECK(snd_rawmidi_params_get_buffer_size(p) == 1024 &&
	      snd_rawmidi_params_get_avail_min(p) == 64 &&
	      snd_rawmidi_params_get_read_mode(p) ==
	      (v206 ? SND_RAWMIDI_READ_TSTAMP : SND_RAWMIDI_READ_STANDARD),
	      "not the cached copy: buffer %zu", snd_rawmidi_params_get_buffer_size(p));
	snd_rawmidi_close(out);
	/*
	 * Where the copy comes from: the open's PARAMS passes
	 * no_active_sensing 1; SETUP reports 0 for an input, which sends
	 * nothing at close.
	 */
	CHECK(snd_rawmidi_open(&in, NULL, device, SND_RAWMIDI_NONBLOCK) == 0, "open input");
	if (!in)
		return;
	snd_rawmidi_params_current(in, p);
	CHECK(snd_rawmidi_params_get_no_active_sensing(p) == !v206,
	      "input no_active_sensing %d: not %s", snd_rawmidi_params_get_no_active_sensing(p),
	      v206 ? "what SETUP reported" : "what the open passed");
	snd_rawmidi_close(in);
}

/*
 * 40 bytes at one time: cut into frames, all sent in order, on time,
 * also through a buffer that holds fewer frames
 */
static void long_message(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	unsigned char msg[40];
	struct timespec ts;
	long long when;
	int i;

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	msg[0] = 0xf0;
	for (i = 1; i < 39; i++)
		msg[i] = i;
	msg[39] = 0xf7;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	when = now_ns() + 30000000LL;
	ts = ts_of(when);
	CHECK(snd_rawmidi_twrite(out, &ts, msg, sizeof(msg)) == sizeof(msg), "twrite");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 3, "pending %u, want 3 frames",
	      snd_rawmidi_status_get_frames_pending(st));
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(mt_check_times(&when, msg, 1, sizeof(msg), 0, 0) == 0, "sent");
	/*
	 * A buffer of two frames: the kernel takes no write larger than the
	 * buffer, so alsa-lib writes two frames at a time, waiting for room.
	 */
	CHECK(set_params(out, 64, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "64-byte buffer");
	when = now_ns() + 30000000LL;
	ts = ts_of(when);
	CHECK(snd_rawmidi_twrite(out, &ts, msg, sizeof(msg)) == sizeof(msg),
	      "twrite of 3 frames into a buffer of 2");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(mt_check_times(&when, msg, 1, sizeof(msg), 0, 0) == 0, "sent");
	snd_rawmidi_close(out);
}

/*
 * A params container of an input, with framing on @clock, given to the
 * output: snd_rawmidi_params() must refuse it with -ENOTSUP where the
 * output lacks that framing or clock, and change nothing.
 */
static void input_params_on_output(snd_rawmidi_t *out, snd_rawmidi_clock_t clock)
{
	snd_rawmidi_t *in = NULL;
	snd_rawmidi_params_t *p;
	int err;

	snd_rawmidi_params_alloca(&p);
	CHECK(snd_rawmidi_open(&in, NULL, device, SND_RAWMIDI_NONBLOCK) == 0, "open input");
	if (!in)
		return;
	snd_rawmidi_params_current(in, p);
	CHECK(snd_rawmidi_params_set_read_mode(in, p, SND_RAWMIDI_READ_TSTAMP) == 0 &&
	      snd_rawmidi_params_set_clock_type(in, p, clock) == 0, "framed input params");
	snd_rawmidi_close(in);
	err = snd_rawmidi_params(out, p);
	CHECK(err == -ENOTSUP, "params of a framed input on the output: %d", err);
	snd_rawmidi_params_current(out, p);
	CHECK(snd_rawmidi_params_get_clock_type(p) != clock, "output clock changed");
}

/* bad arguments: -EINVAL; a clock the output lacks: -ENOTSUP; nothing sent */
static void invalid(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_params_t *p;
	struct timespec ts;
	struct miditest_tx log[4];

	snd_rawmidi_params_alloca(&p);
	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_NONE) == 0, "plain output");
	CHECK(snd_rawmidi_twrite(out, NULL, "\xf8", 1) == -EINVAL, "twrite on a plain output");
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	ts.tv_sec = 1;
	ts.tv_nsec = 1000000000L;
	CHECK(snd_rawmidi_twrite(out, &ts, "\xf8", 1) == -EINVAL, "tv_nsec 1e9");
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	CHECK(snd_rawmidi_twrite(out, &ts, "\xf8", 1) == -EINVAL, "tv_sec -1");
	snd_rawmidi_params_current(out, p);
	CHECK(snd_rawmidi_params_set_clock_type(out, p, SND_RAWMIDI_CLOCK_MONOTONIC_RAW) == -ENOTSUP,
	      "monotonic raw on output");
	CHECK(snd_rawmidi_params_set_clock_type(out, p, 8) == -EINVAL, "clock 8");
	CHECK(snd_rawmidi_params_get_clock_type(p) == SND_RAWMIDI_CLOCK_MONOTONIC, "clock changed");
	input_params_on_output(out, SND_RAWMIDI_CLOCK_MONOTONIC_RAW);
	CHECK(snd_rawmidi_twrite(out, NULL, "\xf8", 0) == 0, "empty twrite");
	usleep(20000);
	CHECK(mt_log(log, 4) == 0, "bytes were sent");
	snd_rawmidi_close(out);
}

/*
 * below 2.0.6: every new call fails with -ENOTSUP and changes nothing;
 * the kernel refuses framed output too: PARAMS_EXT gets ENOTTY, and
 * PARAMS ignores an output's mode (a lone byte still goes out)
 */
static void refused_setters(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_params_t *p;
	struct raw_params raw = { .stream = 0 /* output */, .buffer_size = 4096,
				  .avail_min = 1, .no_active_sensing = 1,
				  .mode = RAW_MODE_FRAMED };

	snd_rawmidi_params_alloca(&p);
	if (!out)
		return;
	snd_rawmidi_params_current(out, p);
	CHECK(snd_rawmidi_params_set_read_mode(out, p, SND_RAWMIDI_READ_TSTAMP) == -ENOTSUP,
	      "read mode");
	CHECK(snd_rawmidi_params_get_read_mode(p) == SND_RAWMIDI_READ_STANDARD, "params changed");
	CHECK(snd_rawmidi_params(out, p) == 0, "params");
	input_params_on_output(out, SND_RAWMIDI_CLOCK_MONOTONIC);
	errno = 0;
	CHECK(ioctl(out_fd(out), RAW_IOCTL_PARAMS_EXT, &raw) == -1 && errno == ENOTTY,
	      "raw PARAMS_EXT, framed: %s, not ENOTTY", strerror(errno));
	CHECK(ioctl(out_fd(out), RAW_IOCTL_PARAMS, &raw) == 0, "raw PARAMS, framed: %s",
	      strerror(errno));
	CHECK(write(out_fd(out), "\xfe", 1) == 1, "a lone byte after PARAMS: %s",
	      strerror(errno));
	snd_rawmidi_close(out);
}

static void refused_clock(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_params_t *p;

	snd_rawmidi_params_alloca(&p);
	if (!out)
		return;
	snd_rawmidi_params_current(out, p);
	CHECK(snd_rawmidi_params_set_clock_type(out, p, SND_RAWMIDI_CLOCK_MONOTONIC) == -ENOTSUP,
	      "monotonic");
	CHECK(snd_rawmidi_params_set_clock_type(out, p, SND_RAWMIDI_CLOCK_REALTIME) == -ENOTSUP,
	      "realtime");
	CHECK(snd_rawmidi_params_set_clock_type(out, p, SND_RAWMIDI_CLOCK_MONOTONIC_RAW) == -ENOTSUP,
	      "monotonic raw");
	CHECK(snd_rawmidi_params_get_read_mode(p) == SND_RAWMIDI_READ_STANDARD &&
	      snd_rawmidi_params_get_clock_type(p) == SND_RAWMIDI_CLOCK_NONE, "params changed");
	CHECK(snd_rawmidi_params(out, p) == 0, "params");
	snd_rawmidi_close(out);
}

static void refused_twrite(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	struct miditest_tx log[4];
	struct timespec ts = ts_of(now_ns() + 10000000LL);

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_NONE) == 0, "plain output");
	CHECK(snd_rawmidi_twrite(out, &ts, "\x90\x3c\x40", 3) == -ENOTSUP, "twrite");
	CHECK(snd_rawmidi_twrite(out, NULL, "\x90\x3c\x40", 3) == -ENOTSUP, "twrite at once");
	ts.tv_nsec = 1000000000L;
	CHECK(snd_rawmidi_twrite(out, &ts, "\x90\x3c\x40", 3) == -ENOTSUP, "twrite, bad time");
	CHECK(snd_rawmidi_twrite(out, NULL, "", 0) == -ENOTSUP, "twrite of nothing");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_avail(st) == 4096, "bytes queued: avail %zu",
	      snd_rawmidi_status_get_avail(st));
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 0 &&
	      snd_rawmidi_status_get_late_max_us(st) == 0 &&
	      snd_rawmidi_status_get_frames_dropped(st) == 0, "counters not zero");
	usleep(30000);
	CHECK(mt_log(log, 4) == 0, "bytes were sent");
	snd_rawmidi_close(out);
}

/*
 * snd_rawmidi_twritev(): ten messages in one call, each at its time; bad
 * input refused with nothing written; a non-blocking stream takes the
 * messages that fit, whole, and says how many
 */
static void vector(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	snd_rawmidi_tmsg_t m[10];
	unsigned char notes[10][3], sx[40];
	struct miditest_tx log[4];
	long long t0, when[10];
	int i;

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	t0 = now_ns() + 50000000LL;
	for (i = 0; i < 10; i++) {
		notes[i][0] = 0x90;
		notes[i][1] = 0x30 + i;
		notes[i][2] = 0x40;
		when[i] = t0 + i * 10000000LL;
		m[i] = (snd_rawmidi_tmsg_t){ .tstamp = ts_of(when[i]), .buffer = notes[i], .size = 3 };
	}
	/* a message without bytes, or a bad time, in the middle: nothing */
	m[5].size = 0;
	CHECK(snd_rawmidi_twritev(out, m, 10) == -EINVAL, "a message without bytes");
	m[5].size = 3;
	m[5].tstamp.tv_nsec = 1000000000L;
	CHECK(snd_rawmidi_twritev(out, m, 10) == -EINVAL, "tv_nsec 1e9");
	m[5].tstamp = ts_of(when[5]);
	CHECK(snd_rawmidi_status(out, st) == 0 && snd_rawmidi_status_get_avail(st) == 4096,
	      "something was queued");
	CHECK(snd_rawmidi_twritev(out, m, 10) == 10, "twritev of 10");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(mt_check_times(when, &notes[0][0], 10, 3, 0, MT_MEDIAN_NS) == 0, "timing");

	/*
	 * Room for 4 frames, non-blocking: two notes (a frame each) and a
	 * 40-byte SysEx (3 frames) due in a second: the notes go in one
	 * write(), the SysEx finds no room and is not written at all
	 */
	CHECK(set_params(out, 128, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "a 4-frame buffer");
	CHECK(snd_rawmidi_nonblock(out, 1) == 0, "non-blocking");
	sx[0] = 0xf0;
	for (i = 1; i < 39; i++)
		sx[i] = i;
	sx[39] = 0xf7;
	t0 = now_ns() + 1000000000LL;
	m[0] = (snd_rawmidi_tmsg_t){ .tstamp = ts_of(t0), .buffer = notes[0], .size = 3 };
	m[1] = (snd_rawmidi_tmsg_t){ .tstamp = ts_of(t0), .buffer = notes[1], .size = 3 };
	m[2] = (snd_rawmidi_tmsg_t){ .tstamp = ts_of(t0), .buffer = sx, .size = sizeof(sx) };
	{
		/* 5 frames: more than the buffer holds, refused whole */
		unsigned char big[80] = { 0xf0, [79] = 0xf7 };
		snd_rawmidi_tmsg_t b = { .tstamp = ts_of(t0), .buffer = big, .size = sizeof(big) };

		CHECK(snd_rawmidi_twritev(out, &b, 1) == -EINVAL, "a message larger than the buffer");
	}
	CHECK(snd_rawmidi_twritev(out, m, 3) == 2, "two of three queued");
	CHECK(snd_rawmidi_twritev(out, m + 2, 1) == -EAGAIN, "the SysEx without room");
	CHECK(snd_rawmidi_status(out, st) == 0 && snd_rawmidi_status_get_frames_pending(st) == 2,
	      "pending %u, not 2", snd_rawmidi_status_get_frames_pending(st));
	CHECK(snd_rawmidi_drop(out) == 0, "drop");
	CHECK(mt_log(log, 4) == 0, "bytes were sent before their time");
	snd_rawmidi_close(out);
}

/*
 * snd_rawmidi_write_now(): a clock byte written while a note waits a
 * second ahead leaves at once; whole messages with running status across
 * two frames leave with the status byte again where the second starts;
 * bytes that are not whole messages, a SysEx over 16 bytes or more frames
 * than the kernel holds get -EINVAL, with nothing sent
 */
static void now(void)
{
	static const unsigned char rs[] = {
		0x90, 0x3c, 0x40, 0x3d, 0x40, 0x3d, 0x40, 0x3d, 0x40,
		0x3d, 0x40, 0x3d, 0x40, 0x3d, 0x40, 0x3d, 0x40,
	};
	static const unsigned char rs_sent[] = {
		0x90, 0x3c, 0x40, 0x3d, 0x40, 0x3d, 0x40, 0x3d, 0x40,
		0x3d, 0x40, 0x3d, 0x40, 0x3d, 0x40, 0x90, 0x3d, 0x40,
	};
	unsigned char sx[17] = { 0xf0, [16] = 0xf7 }, nine[9 * 3];
	snd_rawmidi_t *out = open_out();
	struct miditest_tx log[32];
	struct timespec ts;
	long long t;
	int i, n;

	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	ts = ts_of(now_ns() + 1000000000LL);
	CHECK(snd_rawmidi_twrite(out, &ts, "\x90\x3c\x40", 3) == 3, "a note a second ahead");
	t = now_ns();
	CHECK(snd_rawmidi_write_now(out, "\xf8", 1) == 1, "write_now of a clock byte");
	usleep(50000);
	n = mt_log(log, 32);
	CHECK(n == 1 && log[0].byte == 0xf8, "%d bytes sent, not the clock byte alone", n);
	CHECK(n < 1 || (long long)log[0].time_ns - t < 50000000LL, "the clock byte left %lld us late",
	      ((long long)log[0].time_ns - t) / 1000);
	CHECK(snd_rawmidi_write_now(out, rs, sizeof(rs)) == sizeof(rs), "running status, 17 bytes");
	usleep(50000);
	n = mt_log(log, 32);
	CHECK(n == sizeof(rs_sent), "%d bytes sent, not %zu", n, sizeof(rs_sent));
	for (i = 0; i < n && i < (int)sizeof(rs_sent); i++)
		CHECK(log[i].byte == rs_sent[i], "byte %d: %#x, not %#x", i, log[i].byte, rs_sent[i]);
	CHECK(snd_rawmidi_write_now(out, "\x90\x3c", 2) == -EINVAL, "a message cut short");
	CHECK(snd_rawmidi_write_now(out, "\x3c\x40", 2) == -EINVAL, "data without a status");
	CHECK(snd_rawmidi_write_now(out, "\xf0\x01", 2) == -EINVAL, "a SysEx without its end");
	CHECK(snd_rawmidi_write_now(out, sx, sizeof(sx)) == -EINVAL, "a SysEx of 17 bytes");
	/* nine SysEx of 3 bytes: five a frame, two frames */
	for (i = 0; i < 9; i++) {
		nine[3 * i] = 0xf0;
		nine[3 * i + 1] = 0x7d;
		nine[3 * i + 2] = 0xf7;
	}
	CHECK(snd_rawmidi_write_now(out, nine, sizeof(nine)) == sizeof(nine), "nine short SysEx");
	usleep(50000);
	CHECK(mt_log(log, 32) == (int)sizeof(nine), "the nine SysEx were not sent");
	{
		unsigned char many[9 * 16];

		for (i = 0; i < 9; i++) {
			memset(many + 16 * i, 0x01, 16);
			many[16 * i] = 0xf0;
			many[16 * i + 15] = 0xf7;
		}
		CHECK(snd_rawmidi_write_now(out, many, sizeof(many)) == -EINVAL,
		      "nine frames of messages");
	}
	usleep(30000);
	CHECK(mt_log(log, 32) == 0, "bytes of a refused write were sent");
	CHECK(snd_rawmidi_drop(out) == 0, "drop");
	snd_rawmidi_close(out);
}

/*
 * snd_rawmidi_tx_report(): three notes, one 50 ms in the past, and a clock
 * byte written with snd_rawmidi_write_now() are written and sent; the
 * late note counts at least 50 ms; a status call between two reports
 * changes neither; the latest frame sent is the last note, after its time
 */
static void report(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_tx_report_t *r, *again;
	snd_rawmidi_status_t *st;
	snd_rawmidi_tmsg_t m[3];
	struct timespec sent, due;
	long long t0 = now_ns();
	int i;

	snd_rawmidi_tx_report_alloca(&r);
	snd_rawmidi_tx_report_alloca(&again);
	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	CHECK(snd_rawmidi_tx_report(out, r) == -EINVAL, "report of a plain output");
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_MONOTONIC) == 0, "framed output");
	for (i = 0; i < 3; i++)
		m[i] = (snd_rawmidi_tmsg_t){
			.tstamp = ts_of(i ? t0 + i * 100000000LL : t0 - 50000000LL),
			.buffer = "\x90\x3c\x40", .size = 3,
		};
	CHECK(snd_rawmidi_twritev(out, m, 3) == 3, "twritev");
	CHECK(snd_rawmidi_write_now(out, "\xf8", 1) == 1, "write_now");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(snd_rawmidi_tx_report(out, r) == 0, "report");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_tx_report(out, again) == 0, "report again");
	CHECK(!memcmp(r, again, snd_rawmidi_tx_report_sizeof()), "the report changed");
	CHECK(snd_rawmidi_tx_report_get_frames_written(r) == 4 &&
	      snd_rawmidi_tx_report_get_frames_sent(r) == 4 &&
	      snd_rawmidi_tx_report_get_frames_dropped(r) == 0, "written %llu sent %llu dropped %llu",
	      (unsigned long long)snd_rawmidi_tx_report_get_frames_written(r),
	      (unsigned long long)snd_rawmidi_tx_report_get_frames_sent(r),
	      (unsigned long long)snd_rawmidi_tx_report_get_frames_dropped(r));
	CHECK(snd_rawmidi_tx_report_get_late_max_ns(r) >= 50000000ULL &&
	      snd_rawmidi_tx_report_get_late_sum_ns(r) >= snd_rawmidi_tx_report_get_late_max_ns(r),
	      "late at most %llu ns, %llu in all",
	      (unsigned long long)snd_rawmidi_tx_report_get_late_max_ns(r),
	      (unsigned long long)snd_rawmidi_tx_report_get_late_sum_ns(r));
	snd_rawmidi_tx_report_get_last_sent(r, &sent);
	snd_rawmidi_tx_report_get_last_due(r, &due);
	CHECK(due.tv_sec == m[2].tstamp.tv_sec && due.tv_nsec == m[2].tstamp.tv_nsec,
	      "the latest frame sent is not the last note");
	CHECK(sent.tv_sec * 1000000000LL + sent.tv_nsec >= t0 + 200000000LL,
	      "the last note was sent before its time");
	snd_rawmidi_close(out);
}

/* below 2.0.6: snd_rawmidi_tx_report() fails with -ENOTSUP */
static void refused_report(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_tx_report_t *r;

	snd_rawmidi_tx_report_alloca(&r);
	if (!out)
		return;
	CHECK(snd_rawmidi_tx_report(out, r) == -ENOTSUP, "tx_report");
	snd_rawmidi_close(out);
}

/* below 2.0.6: snd_rawmidi_write_now() fails with -ENOTSUP, nothing sent */
static void refused_now(void)
{
	snd_rawmidi_t *out = open_out();
	struct miditest_tx log[4];

	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_NONE) == 0, "plain output");
	CHECK(snd_rawmidi_write_now(out, "\xf8", 1) == -ENOTSUP, "write_now");
	usleep(30000);
	CHECK(mt_log(log, 4) == 0, "bytes were sent");
	snd_rawmidi_close(out);
}

/* below 2.0.6: snd_rawmidi_twritev() fails with -ENOTSUP, nothing sent */
static void refused_twritev(void)
{
	snd_rawmidi_t *out = open_out();
	struct miditest_tx log[4];
	snd_rawmidi_tmsg_t m = { .buffer = "\x90\x3c\x40", .size = 3 };

	if (!out)
		return;
	CHECK(set_params(out, 4096, SND_RAWMIDI_CLOCK_NONE) == 0, "plain output");
	CHECK(snd_rawmidi_twritev(out, &m, 1) == -ENOTSUP, "twritev");
	usleep(30000);
	CHECK(mt_log(log, 4) == 0, "bytes were sent");
	snd_rawmidi_close(out);
}

/* the counters of an output without framing: zero */
static void zero_counters(void)
{
	snd_rawmidi_t *out = open_out();
	snd_rawmidi_status_t *st;
	struct miditest_tx log[16];

	snd_rawmidi_status_alloca(&st);
	if (!out)
		return;
	CHECK(snd_rawmidi_write(out, "\xc0\x01\xc0\x02", 4) == 4, "write");
	CHECK(snd_rawmidi_drop(out) == 0, "drop");
	CHECK(snd_rawmidi_status(out, st) == 0, "status");
	CHECK(snd_rawmidi_status_get_frames_pending(st) == 0 &&
	      snd_rawmidi_status_get_late_max_us(st) == 0 &&
	      snd_rawmidi_status_get_frames_dropped(st) == 0, "counters not zero");
	usleep(20000);
	mt_log(log, 16);
	snd_rawmidi_close(out);
}

/* the old calls keep working: plain bytes, timestamped input */
static void old_calls(void)
{
	snd_rawmidi_t *out = open_out(), *in = NULL;
	snd_rawmidi_params_t *p;
	long long when;

	snd_rawmidi_params_alloca(&p);
	if (!out)
		return;
	when = now_ns();
	CHECK(snd_rawmidi_write(out, "\x90\x3c\x40", 3) == 3, "write");
	CHECK(snd_rawmidi_drain(out) == 0, "drain");
	CHECK(mt_check_times(&when, (const unsigned char *)"\x90\x3c\x40", 1, 3, 0, 0) == 0, "sent");
	snd_rawmidi_close(out);
	CHECK(snd_rawmidi_open(&in, NULL, device, SND_RAWMIDI_NONBLOCK) == 0, "open input");
	if (!in)
		return;
	snd_rawmidi_params_current(in, p);
	CHECK(snd_rawmidi_params_set_read_mode(in, p, SND_RAWMIDI_READ_TSTAMP) == 0,
	      "timestamped input");
	CHECK(snd_rawmidi_params_set_clock_type(in, p, SND_RAWMIDI_CLOCK_MONOTONIC_RAW) == 0,
	      "monotonic raw on input");
	CHECK(snd_rawmidi_params(in, p) == 0, "params");
	snd_rawmidi_close(in);
}

int main(int argc, char **argv)
{
	int v206;

	if (argc != 4)
		return fprintf(stderr, "usage: ustwrite CARD PROTOCOL FIRST\n"), 2;
	snprintf(device, sizeof(device), "hw:%d,0", atoi(argv[1]));
	v206 = strcmp(argv[2], "2.0.6") >= 0 && strlen(argv[2]) == 5;
	tap_n = atoi(argv[3]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (v206) {
		at_times(CLOCK_MONOTONIC, SND_RAWMIDI_CLOCK_MONOTONIC);
		result("twrite: 10 messages leave at their CLOCK_MONOTONIC times");
		at_times(CLOCK_REALTIME, SND_RAWMIDI_CLOCK_REALTIME);
		result("twrite: 10 messages leave at their CLOCK_REALTIME times");
		counters();
		result("status: frames pending, dropped and how late, reported once, reset by a mode switch");
		current(1);
		result("params_current: what the kernel reported after PARAMS (SETUP), a copy");
		long_message();
		result("twrite: 40 bytes at one time, cut into frames, on time, also through a 2-frame buffer");
		invalid();
		result("twrite and clock: bad arguments get -EINVAL, monotonic raw on output -ENOTSUP (setter and params), nothing sent");
		vector();
		result("twritev: 10 messages in one call leave at their times; bad input, a message larger than the buffer or no room: nothing of it written");
		now();
		result("write_now: a clock byte ahead of a note queued a second ahead; running status across frames; not whole messages or too many frames: -EINVAL, nothing sent");
		report();
		result("tx_report: frames written, sent, how late, the latest sent; a status call resets nothing");
	} else {
		refused_setters();
		result("protocol < 2.0.6: set_read_mode and params refuse output framing with -ENOTSUP (the kernel: PARAMS_EXT ENOTTY, PARAMS ignores it)");
		refused_clock();
		result("protocol < 2.0.6: set_clock_type refuses an output clock with -ENOTSUP");
		refused_twrite();
		result("protocol < 2.0.6: twrite fails with -ENOTSUP, nothing queued or sent");
		current(0);
		result("protocol < 2.0.6: params_current is the cached copy");
		zero_counters();
		result("protocol < 2.0.6: status counters read zero");
		old_calls();
		result("protocol < 2.0.6: plain write and timestamped input still work");
		refused_twritev();
		result("protocol < 2.0.6: twritev fails with -ENOTSUP, nothing sent");
		refused_now();
		result("protocol < 2.0.6: write_now fails with -ENOTSUP, nothing sent");
		refused_report();
		result("protocol < 2.0.6: tx_report fails with -ENOTSUP");
	}
	return 0;
}
