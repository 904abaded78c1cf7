// SPDX-License-Identifier: GPL-2.0
/*
 * drainlat DEVICE COUNT: COUNT times, write 3 bytes (a note on) to the
 * rawmidi output DEVICE and time the SNDRV_RAWMIDI_IOCTL_DRAIN that follows,
 * on CLOCK_MONOTONIC. Prints n, min, median, p99 and max in microseconds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const unsigned char note_on[3] = { 0x90, 0x3c, 0x64 };
	int stream = SNDRV_RAWMIDI_STREAM_OUTPUT;
	long long *lat, t0;
	int fd, i, n;

	if (argc != 3)
		return fprintf(stderr, "usage: drainlat DEVICE COUNT\n"), 2;
	n = atoi(argv[2]);
	if (n < 1 || n > 100000)
		return fprintf(stderr, "COUNT must be 1..100000\n"), 2;
	lat = calloc(n, sizeof(*lat));
	fd = open(argv[1], O_WRONLY);
	if (fd < 0 || !lat)
		return perror(argv[1]), 1;
	for (i = 0; i < n; i++) {
		if (write(fd, note_on, sizeof(note_on)) != sizeof(note_on))
			return perror("write"), 1;
		t0 = now_ns();
		if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_DRAIN, &stream))
			return perror("DRAIN"), 1;
		lat[i] = now_ns() - t0;
	}
	close(fd);
	qsort(lat, n, sizeof(*lat), cmp_ll);
	printf("n=%d min=%.1f median=%.1f p99=%.1f max=%.1f (us)\n", n,
	       lat[0] / 1e3, lat[n / 2] / 1e3, lat[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1e3,
	       lat[n - 1] / 1e3);
	return 0;
}
