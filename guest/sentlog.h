/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When scheduled messages got there, for the bench's output_sched_err
 * programs (guest/schedout.c, guest/libremidi-sched.cpp bench): the rawmidi
 * test driver's transmit log (mtlog.h), or, through USB MIDI, what arrives
 * at the MIDI gadget's own card, stamped by its framed input, as such a log.
 */
#ifndef GUEST_SENTLOG_H
#define GUEST_SENTLOG_H

#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>

#include "mtlog.h"

#ifdef __cplusplus
/*
 * C++ (guest/libremidi-sched.cpp) has alsa-lib's headers too, through
 * libremidi's, which declare types of the uapi's names: there the uapi and
 * the USB functions are in a namespace (what the uapi includes first, so
 * that it stays global), whose C initializers leave fields to zero.
 */
#include <asm/byteorder.h>
#include <endian.h>
#include <linux/types.h>
#include <time.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
namespace uapi {
#endif
#include <sound/asound.h>
/* rawmidi protocol 2.0.6, where the headers are older (stable trees; C++: the host's) */
#ifndef SNDRV_RAWMIDI_IOCTL_PARAMS_EXT
#define SNDRV_RAWMIDI_MODE_FRAMING_UMP_PACKET	(2<<0)
#define SNDRV_RAWMIDI_IOCTL_PARAMS_EXT	_IOWR('W', 0x12, struct snd_rawmidi_params)
#endif
#ifndef SNDRV_RAWMIDI_FRAME_TYPE_NOW
#define SNDRV_RAWMIDI_FRAME_TYPE_NOW	1
#endif

/*
 * USB: the gadget's card @gadget as framed input (CLOCK_MONOTONIC),
 * started, with nothing old in it. Returns the open input, or -1.
 */
static inline int usb_in_open(int gadget, int ump)
{
	struct snd_rawmidi_params params = {
		.stream = SNDRV_RAWMIDI_STREAM_INPUT, .buffer_size = 262144,
		.avail_min = 1,
		.mode = SNDRV_RAWMIDI_MODE_FRAMING_UMP_PACKET | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC,
	};
	int pversion = SNDRV_PROTOCOL_VERSION(2, 0, 2), fd, packets = 0;
	struct pollfd pfd;
	char path[32], old[4096];

	snprintf(path, sizeof(path), "/dev/snd/%sC%dD0", ump ? "ump" : "midi", gadget);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return perror(path), -1;
	/*
	 * UMP: a whole packet a frame, where the kernel has it (PARAMS_EXT;
	 * ENOTTY without). Otherwise, and for bytes, frames of up to 16
	 * bytes, which PARAMS gives callers of 2.0.2 on every kernel.
	 */
	if (ump) {
		packets = !ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS_EXT, &params);
		if (!packets && errno != ENOTTY)
			return perror(path), -1;
	}
	params.mode = SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP | SNDRV_RAWMIDI_MODE_CLOCK_MONOTONIC;
	if (!packets && (ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &pversion) ||
			 ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params)))
		return perror(path), -1;
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 0) > 0 && read(fd, old, sizeof(old)) > 0)
		;
	return fd;
}

/*
 * USB: what arrived at the gadget, as a transmit log: each byte with the
 * stamp of its frame, until @max bytes or nothing for a second.
 */
static inline int usb_log(int fd, struct miditest_tx *log, int max)
{
	struct snd_rawmidi_framing_tstamp f[64];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = 0, i, j;
	ssize_t r;

	while (n < max && poll(&pfd, 1, 1000) > 0) {
		r = read(fd, f, sizeof(f));
		if (r < 0 && errno == EAGAIN)
			continue;
		if (r <= 0 || r % sizeof(f[0]))
			break;
		for (i = 0; i < r / (int)sizeof(f[0]); i++)
			for (j = 0; j < f[i].length && j < 16 && n < max; j++) {
				log[n].byte = f[i].data[j];
				log[n++].time_ns = f[i].tv_sec * 1000000000ULL + f[i].tv_nsec;
			}
	}
	return n;
}

#ifdef __cplusplus
}
#pragma GCC diagnostic pop
using uapi::usb_in_open;
using uapi::usb_log;
#endif

/*
 * The lateness of @count note ons scheduled at @when[i] (ns), message i
 * being 0x90 (0x90 | i % 16 if @channels), i & 0x7f, velocity: @err[i] =
 * the logged time of its first byte - @when[i], from the @n bytes of @log.
 * Returns 0, or -1 (said on stderr) if other bytes were logged.
 */
static inline int sched_errs(const struct miditest_tx *log, int n, const long long *when,
			     int count, int channels, long long *err)
{
	int i;

	if (n != 3 * count)
		return fprintf(stderr, "%d bytes logged, %d sent\n", n, 3 * count), -1;
	for (i = 0; i < count; i++) {
		unsigned char status = channels ? 0x90 | (i % 16) : 0x90;

		if (log[3 * i].byte != status || log[3 * i + 1].byte != (i & 0x7f))
			return fprintf(stderr, "message %d left as %02x %02x, not %02x %02x\n",
				       i, log[3 * i].byte, log[3 * i + 1].byte, status,
				       i & 0x7f), -1;
		err[i] = (long long)log[3 * i].time_ns - when[i];
	}
	return 0;
}

#endif
