/* SPDX-License-Identifier: GPL-2.0 */
/* What the guest's measuring programs share. */
#ifndef GUEST_COMMON_H
#define GUEST_COMMON_H

#include <stdint.h>
#include <time.h>

/* A schedule record of the rawmidi test driver (sound/drivers/miditest.c). */
struct miditest_chunk {
	uint64_t time_ns;	/* CLOCK_MONOTONIC time of the first injection */
	uint32_t period_ns;	/* between repetitions, if count > 1 */
	uint16_t count;		/* number of injections */
	uint8_t len;		/* bytes in data, 1 to 16 */
	uint8_t reserved;
	uint8_t data[16];
};

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
