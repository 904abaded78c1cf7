// SPDX-License-Identifier: GPL-2.0
/*
 * tread PORT NBYTES: read NBYTES from an ALSA rawmidi input through
 * alsa-lib's framing support (SND_RAWMIDI_READ_TSTAMP + snd_rawmidi_tread())
 * and print one line per read: "<sec>.<nsec> <hex bytes>".
 * Exits 0 when NBYTES arrived, 1 on error or after 5 s without data.
 */
#include <alsa/asoundlib.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	snd_rawmidi_t *in;
	snd_rawmidi_params_t *params;
	struct pollfd pfd;
	int want, got = 0, err;

	if (argc != 3)
		return fprintf(stderr, "usage: tread PORT NBYTES\n"), 2;
	want = atoi(argv[2]);
	err = snd_rawmidi_open(&in, NULL, argv[1], SND_RAWMIDI_NONBLOCK);
	if (err < 0)
		return fprintf(stderr, "open %s: %s\n", argv[1], snd_strerror(err)), 1;
	snd_rawmidi_params_alloca(&params);
	snd_rawmidi_params_current(in, params);
	err = snd_rawmidi_params_set_read_mode(in, params, SND_RAWMIDI_READ_TSTAMP);
	if (!err)
		err = snd_rawmidi_params_set_clock_type(in, params, SND_RAWMIDI_CLOCK_MONOTONIC);
	if (!err)
		err = snd_rawmidi_params(in, params);
	if (err < 0)
		return fprintf(stderr, "params: %s\n", snd_strerror(err)), 1;
	printf("ready\n");
	fflush(stdout);

	snd_rawmidi_poll_descriptors(in, &pfd, 1);
	while (got < want) {
		unsigned char buf[64];
		struct timespec ts;
		ssize_t n;

		/*
		 * alsa-lib reads several frames at once and hands them out one
		 * timestamp at a time: poll only when it has nothing left.
		 */
		n = snd_rawmidi_tread(in, &ts, buf, sizeof(buf));
		if (n == -EAGAIN) {
			if (poll(&pfd, 1, 5000) <= 0)
				return fprintf(stderr, "timeout after %d bytes\n", got), 1;
			continue;
		}
		if (n < 0)
			return fprintf(stderr, "tread: %s\n", snd_strerror(n)), 1;
		printf("%lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
		for (ssize_t i = 0; i < n; i++)
			printf(" %02X", buf[i]);
		printf("\n");
		got += n;
	}
	snd_rawmidi_close(in);
	return 0;
}
