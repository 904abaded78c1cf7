// SPDX-License-Identifier: GPL-2.0
/*
 * schedout-alsa CARD COUNT: schedout's "kernel" path (guest/schedout.c)
 * through the patched alsa-lib instead of raw ioctls: COUNT note ons, one
 * every 10 ms, written at once ahead with snd_rawmidi_twrite() on
 * CLOCK_MONOTONIC to device 0 of the rawmidi test driver (1 Mbaud,
 * 16-byte FIFO). Prints, in microseconds, (log time of the first byte -
 * scheduled time) as "n min median p99 max" and SAMPLES, as schedout
 * does. Exits with 3 if there is no framed output (-ENOTSUP).
 */
#include <alsa/asoundlib.h>

#include "mtlog.h"

#define PERIOD_NS	10000000LL

int main(int argc, char **argv)
{
	snd_rawmidi_t *out;
	snd_rawmidi_params_t *params;
	struct miditest_tx *log;
	long long *when, *err, t0;
	char device[32];
	int count, i, n, e;

	if (argc != 3)
		return fprintf(stderr, "usage: schedout-alsa CARD COUNT\n"), 2;
	count = atoi(argv[2]);
	if (count < 2 || count > 2000)
		return fprintf(stderr, "COUNT must be 2..2000\n"), 2;
	when = calloc(count, sizeof(*when));
	err = calloc(count, sizeof(*err));
	log = calloc(3 * count + 16, sizeof(*log));
	if (!when || !err || !log)
		return 1;
	if (mt_set("baud", "1000000") || mt_set("fifo", "16"))
		return perror("miditest"), 1;
	snprintf(device, sizeof(device), "hw:%d,0", atoi(argv[1]));
	e = snd_rawmidi_open(NULL, &out, device, 0);
	if (e < 0)
		return fprintf(stderr, "%s: %s\n", device, snd_strerror(e)), 1;
	snd_rawmidi_params_alloca(&params);
	snd_rawmidi_params_current(out, params);
	snd_rawmidi_params_set_buffer_size(out, params, 65536);
	snd_rawmidi_params_set_avail_min(out, params, 1);
	snd_rawmidi_params_set_no_active_sensing(out, params, 1);
	e = snd_rawmidi_params_set_read_mode(out, params, SND_RAWMIDI_READ_TSTAMP);
	if (e == -ENOTSUP)
		return fprintf(stderr, "no framed output: %s\n", snd_strerror(e)), 3;
	if (!e)
		e = snd_rawmidi_params_set_clock_type(out, params, SND_RAWMIDI_CLOCK_MONOTONIC);
	if (!e)
		e = snd_rawmidi_params(out, params);
	if (e)
		return fprintf(stderr, "framed output: %s\n", snd_strerror(e)), 1;
	mt_log(log, 3 * count + 16);	/* forget earlier output */
	t0 = now_ns() + 50000000LL;
	for (i = 0; i < count; i++) {
		unsigned char msg[3] = { 0x90, i & 0x7f, 0x40 };
		struct timespec ts;

		when[i] = t0 + i * PERIOD_NS;
		ts.tv_sec = when[i] / 1000000000LL;
		ts.tv_nsec = when[i] % 1000000000LL;
		e = snd_rawmidi_twrite(out, &ts, msg, 3);
		if (e != 3)
			return fprintf(stderr, "twrite: %s\n", snd_strerror(e)), 1;
	}
	e = snd_rawmidi_drain(out);
	if (e)
		return fprintf(stderr, "drain: %s\n", snd_strerror(e)), 1;
	snd_rawmidi_close(out);
	n = mt_log(log, 3 * count + 16);
	if (n != 3 * count)
		return fprintf(stderr, "%d bytes logged, %d sent\n", n, 3 * count), 1;
	for (i = 0; i < count; i++) {
		if (log[3 * i].byte != 0x90 || log[3 * i + 1].byte != (i & 0x7f))
			return fprintf(stderr, "message %d out of order\n", i), 1;
		err[i] = (long long)log[3 * i].time_ns - when[i];
	}
	qsort(err, count, sizeof(*err), cmp_ll);
	print_dist(err, count, 1e3);
	return 0;
}
