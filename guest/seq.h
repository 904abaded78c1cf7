/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs that use the ALSA sequencer share: finding the
 * sequencer client of a card, and starting a queue.
 */
#ifndef GUEST_SEQ_H
#define GUEST_SEQ_H

#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sound/asound.h>
#include <sound/asequencer.h>

/* The sequencer client that snd-seq-midi made for @card, or -1. */
static inline int seq_card_client(int fd, int card)
{
	struct snd_seq_client_info ci = { .client = -1 };

	while (!ioctl(fd, SNDRV_SEQ_IOCTL_QUERY_NEXT_CLIENT, &ci))
		if (ci.type == KERNEL_CLIENT && ci.card == card)
			return ci.client;
	return -1;
}

/*
 * Start @queue at once: a START event from @src to the system timer port,
 * which the write() handles before it returns. Returns 0, or -1.
 */
static inline int seq_start_queue(int fd, struct snd_seq_addr src, int queue)
{
	struct snd_seq_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = SNDRV_SEQ_EVENT_START;
	ev.queue = SNDRV_SEQ_QUEUE_DIRECT;
	ev.source = src;
	ev.dest.client = SNDRV_SEQ_CLIENT_SYSTEM;
	ev.dest.port = SNDRV_SEQ_PORT_SYSTEM_TIMER;
	ev.data.queue.queue = queue;
	return write(fd, &ev, sizeof(ev)) == sizeof(ev) ? 0 : -1;
}

#endif
