// SPDX-License-Identifier: GPL-2.0
/*
 * mtctl: the rawmidi test driver and the rawmidi protocol version, for the
 * user-space tests' shell scripts (guest/userspace.sh).
 *   mtctl pversion DEV      print the kernel's rawmidi protocol: 2.0.N
 *   mtctl reset             the kselftest fixture's settings, an empty log
 *   mtctl inject DELAY_MS PERIOD_MS COUNT HEX...
 *                           inject the bytes into input 0 COUNT times,
 *                           the first DELAY_MS from now; wait until done,
 *                           print each injection's CLOCK_MONOTONIC ns
 *   mtctl sent              print how many bytes the transmit log holds
 *                           (and empty it)
 *   mtctl log               print the transmit log, "NS HEX" a byte a line
 *                           (and empty it)
 *   mtctl check LEN [queued] stdin: one message a line, "NS HEX..." (LEN
 *                           bytes, sent at CLOCK_MONOTONIC NS); check the
 *                           transmit log against them (mtlog.h bounds;
 *                           queued: sent at once, no bound on the median)
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#include "mtlog.h"

static int inject(int argc, char **argv)
{
	struct miditest_chunk c = { 0 };
	uint64_t done[64];
	int fd, i, n, want;

	if (argc < 6)
		return 2;
	c.time_ns = now_ns() + atoll(argv[2]) * 1000000LL;
	c.period_ns = atoi(argv[3]) * 1000000;
	c.count = atoi(argv[4]);
	for (i = 5; i < argc && c.len < 16; i++)
		c.data[c.len++] = strtoul(argv[i], NULL, 16);
	if (c.count < 1 || c.count > 64 || !c.len)
		return 2;
	fd = open(MT_DBG "inject", O_WRONLY);
	if (fd < 0 || write(fd, &c, sizeof(c)) != sizeof(c))
		return perror("inject"), 1;
	close(fd);
	want = c.count * sizeof(done[0]);
	for (i = 0; i < 10000; i++) {	/* 10 s */
		fd = open(MT_DBG "injected", O_RDONLY);
		if (fd < 0)
			return perror("injected"), 1;
		n = read(fd, done, want);
		close(fd);
		if (n == want)
			break;
		usleep(1000);
	}
	if (n != want)
		return fprintf(stderr, "injection timed out\n"), 1;
	for (i = 0; i < c.count; i++)
		printf("%llu\n", (unsigned long long)done[i]);
	return 0;
}

/* @queued: sent at once, no bound on the median (mt_check_times()) */
static int check(int len, int queued)
{
	long long when[2000];
	unsigned char data[2000 * 16];
	char line[256];
	int n = 0;

	if (len < 1 || len > 16)
		return 2;
	while (n < 2000 && fgets(line, sizeof(line), stdin)) {
		char *p = line, *end;
		int i;

		when[n] = strtoll(p, &end, 10);
		if (end == p)
			continue;
		for (i = 0, p = end; i < len; i++, p = end) {
			data[n * len + i] = strtoul(p, &end, 16);
			if (end == p)
				return fprintf(stderr, "line %d: %d bytes, not %d\n", n + 1, i, len), 2;
		}
		n++;
	}
	if (!n)
		return fprintf(stderr, "no message\n"), 2;
	return mt_check_times(when, data, n, len, 0, queued ? 0 : MT_MEDIAN_NS) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pversion")) {
		int fd = open(argv[2], O_RDONLY | O_NONBLOCK), v;

		if (fd < 0 || ioctl(fd, SNDRV_RAWMIDI_IOCTL_PVERSION, &v))
			return perror(argv[2]), 1;
		printf("%d.%d.%d\n", SNDRV_PROTOCOL_MAJOR(v), SNDRV_PROTOCOL_MINOR(v),
		       SNDRV_PROTOCOL_MICRO(v));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "reset"))
		return mt_reset() ? perror("miditest"), 1 : 0;
	if (argc >= 2 && !strcmp(argv[1], "inject"))
		return inject(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "sent")) {
		static struct miditest_tx log[8192];

		printf("%d\n", mt_log(log, 8192));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "log")) {
		static struct miditest_tx log[8192];
		int i, n = mt_log(log, 8192);

		for (i = 0; i < n; i++)
			printf("%llu %02X\n", (unsigned long long)log[i].time_ns, log[i].byte);
		return n < 0;
	}
	if ((argc == 3 || (argc == 4 && !strcmp(argv[3], "queued"))) &&
	    !strcmp(argv[1], "check"))
		return check(atoi(argv[2]), argc == 4);
	fprintf(stderr, "usage: see guest/mtctl.c\n");
	return 2;
}
