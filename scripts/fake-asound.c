// SPDX-License-Identifier: GPL-2.0
/*
 * fake-asound.c: a stand-in libasound.so.2 for testing libremidi's ALSA raw
 * MIDI output (userspace/libremidi) on a machine without sound: libremidi
 * loads libasound with dlopen(), so LD_LIBRARY_PATH picks this one. It has
 * what libremidi's wrapper looks up for raw MIDI and UMP, with the
 * prototypes of the patched alsa-lib, and logs the calls that matter to
 * the file $FAKE_ASOUND_LOG, a line each:
 *   open NAME MODE | close | params MODE CLOCK BUFFER_SIZE
 *   write HEX...               (a plain write)
 *   twrite SEC.NSEC HEX...     (snd_rawmidi_twrite(); 0.0: no time stamp)
 *   uwrite, utwrite            (the same for UMP, 32-bit words)
 * $FAKE_ASOUND_FRAMED=1: the "kernel" has framed output; otherwise the
 * output framing setter says -ENOTSUP, as the patched alsa-lib does below
 * rawmidi protocol 2.0.6. Built with -DNO_TWRITE: a libasound without
 * snd_rawmidi_twrite() and snd_ump_twrite() (alsa-lib 1.2.16 and older).
 * Outputs only; no device is touched.
 */
#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fake_params {
	size_t buffer_size;
	int mode, clock, no_active_sensing;
};

struct _snd_rawmidi {
	struct fake_params p;
	int sync;
};

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	const char *path = getenv("FAKE_ASOUND_LOG");
	FILE *f;
	va_list ap;

	if (!path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void log_bytes(FILE *f, const void *buf, size_t size)
{
	for (size_t i = 0; i < size; i++)
		fprintf(f, " %02x", ((const unsigned char *)buf)[i]);
	fprintf(f, "\n");
}

static void log_data(const char *what, const void *buf, size_t size)
{
	const char *path = getenv("FAKE_ASOUND_LOG");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s", what);
	log_bytes(f, buf, size);
	fclose(f);
}

const char *snd_strerror(int errnum)
{
	return strerror(errnum < 0 ? -errnum : errnum);
}

int snd_rawmidi_open(snd_rawmidi_t **in, snd_rawmidi_t **out, const char *name, int mode)
{
	snd_rawmidi_t *r = calloc(1, sizeof(*r));

	if (!r || in)
		return free(r), -ENOENT;	/* outputs only */
	r->p.buffer_size = 4096;
	r->p.no_active_sensing = 1;
	r->sync = !!(mode & SND_RAWMIDI_SYNC);
	*out = r;
	logf_("open %s %s\n", name, r->sync ? "SYNC" : mode & SND_RAWMIDI_NONBLOCK ? "NONBLOCK" : "0");
	return 0;
}

int snd_rawmidi_close(snd_rawmidi_t *r)
{
	free(r);
	logf_("close\n");
	return 0;
}

size_t snd_rawmidi_params_sizeof(void) { return sizeof(struct fake_params); }

int snd_rawmidi_params_current(snd_rawmidi_t *r, snd_rawmidi_params_t *params)
{
	memcpy(params, &r->p, sizeof(r->p));
	return 0;
}

int snd_rawmidi_params(snd_rawmidi_t *r, snd_rawmidi_params_t *params)
{
	memcpy(&r->p, params, sizeof(r->p));
	logf_("params %s %s %zu\n", r->p.mode == SND_RAWMIDI_READ_TSTAMP ? "TSTAMP" : "STANDARD",
	      r->p.clock == SND_RAWMIDI_CLOCK_MONOTONIC ? "MONOTONIC" :
	      r->p.clock ? "OTHER" : "NONE", r->p.buffer_size);
	return 0;
}

size_t snd_rawmidi_params_get_buffer_size(const snd_rawmidi_params_t *params)
{
	return ((const struct fake_params *)params)->buffer_size;
}

int snd_rawmidi_params_set_buffer_size(snd_rawmidi_t *r, snd_rawmidi_params_t *params, size_t val)
{
	(void)r;
	((struct fake_params *)params)->buffer_size = val;
	return 0;
}

int snd_rawmidi_params_set_read_mode(const snd_rawmidi_t *r, snd_rawmidi_params_t *params,
				     snd_rawmidi_read_mode_t val)
{
	const char *framed = getenv("FAKE_ASOUND_FRAMED");

	(void)r;
	if (val == SND_RAWMIDI_READ_TSTAMP && !(framed && !strcmp(framed, "1")))
		return -ENOTSUP;
	((struct fake_params *)params)->mode = val;
	return 0;
}

int snd_rawmidi_params_set_clock_type(const snd_rawmidi_t *r, snd_rawmidi_params_t *params,
				      snd_rawmidi_clock_t val)
{
	(void)r;
	((struct fake_params *)params)->clock = val;
	return 0;
}

int snd_rawmidi_params_set_no_active_sensing(snd_rawmidi_t *r, snd_rawmidi_params_t *params, int val)
{
	(void)r;
	((struct fake_params *)params)->no_active_sensing = val;
	return 0;
}

ssize_t snd_rawmidi_write(snd_rawmidi_t *r, const void *buffer, size_t size)
{
	if (r->p.mode == SND_RAWMIDI_READ_TSTAMP) {
		logf_("error: plain write on a framed stream\n");
		return -EINVAL;
	}
	log_data("write", buffer, size);
	return size;
}

#ifndef NO_TWRITE
ssize_t snd_rawmidi_twrite(snd_rawmidi_t *r, const struct timespec *tstamp, const void *buffer,
			   size_t size)
{
	char what[64];

	if (r->p.mode != SND_RAWMIDI_READ_TSTAMP)
		return -EINVAL;
	if (size == 0)
		return 0;
	snprintf(what, sizeof(what), "twrite %lld.%09ld", tstamp ? (long long)tstamp->tv_sec : 0LL,
		 tstamp ? tstamp->tv_nsec : 0L);
	log_data(what, buffer, size);
	return size;
}
#endif

/* what libremidi's wrapper also looks up, unused by its output */
const char *snd_rawmidi_info_get_name(const snd_rawmidi_info_t *info) { (void)info; return "fake"; }
const char *snd_rawmidi_info_get_subdevice_name(const snd_rawmidi_info_t *info) { (void)info; return "fake"; }
unsigned int snd_rawmidi_info_get_subdevices_count(const snd_rawmidi_info_t *info) { (void)info; return 1; }
void snd_rawmidi_info_set_device(snd_rawmidi_info_t *info, unsigned int val) { (void)info; (void)val; }
void snd_rawmidi_info_set_stream(snd_rawmidi_info_t *info, snd_rawmidi_stream_t val) { (void)info; (void)val; }
void snd_rawmidi_info_set_subdevice(snd_rawmidi_info_t *info, unsigned int val) { (void)info; (void)val; }
size_t snd_rawmidi_info_sizeof(void) { return 64; }
int snd_rawmidi_poll_descriptors(snd_rawmidi_t *r, struct pollfd *pfds, unsigned int space)
{ (void)r; (void)pfds; (void)space; return 0; }
int snd_rawmidi_poll_descriptors_count(snd_rawmidi_t *r) { (void)r; return 0; }
int snd_rawmidi_poll_descriptors_revents(snd_rawmidi_t *r, struct pollfd *pfds, unsigned int nfds,
					 unsigned short *revent)
{ (void)r; (void)pfds; (void)nfds; *revent = 0; return 0; }
ssize_t snd_rawmidi_read(snd_rawmidi_t *r, void *buffer, size_t size)
{ (void)r; (void)buffer; (void)size; return -EAGAIN; }
ssize_t snd_rawmidi_tread(snd_rawmidi_t *r, struct timespec *tstamp, void *buffer, size_t size)
{ (void)r; (void)tstamp; (void)buffer; (void)size; return -EAGAIN; }
/* the queue is always empty: every byte of the buffer is free */
int snd_rawmidi_status(snd_rawmidi_t *r, snd_rawmidi_status_t *status)
{
	memset(status, 0, 64);
	memcpy(status, &r->p.buffer_size, sizeof(r->p.buffer_size));
	return 0;
}
size_t snd_rawmidi_status_get_avail(const snd_rawmidi_status_t *status)
{
	size_t avail;

	memcpy(&avail, status, sizeof(avail));
	return avail;
}
int snd_rawmidi_drain(snd_rawmidi_t *r) { (void)r; logf_("drain\n"); return 0; }
size_t snd_rawmidi_status_sizeof(void) { return 64; }

/*
 * UMP endpoints: an output over a fake rawmidi stream. Logs
 *   uwrite WORD...                  (snd_ump_write())
 *   utwrite SEC.NSEC WORD...        (snd_ump_twrite(); 0.0: no time stamp)
 */
struct _snd_ump {
	snd_rawmidi_t *rawmidi;
};

static void log_words(const char *what, const void *buf, size_t size)
{
	const char *path = getenv("FAKE_ASOUND_LOG");
	const uint32_t *w = buf;
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s", what);
	for (size_t i = 0; i < size / 4; i++)
		fprintf(f, " %08x", (unsigned int)w[i]);
	fprintf(f, "\n");
	fclose(f);
}

int snd_ump_open(snd_ump_t **inputp, snd_ump_t **outputp, const char *name, int mode)
{
	snd_ump_t *u = calloc(1, sizeof(*u));
	int err;

	if (!u || inputp)
		return free(u), -ENOENT;	/* outputs only */
	err = snd_rawmidi_open(NULL, &u->rawmidi, name, mode);
	if (err < 0)
		return free(u), err;
	*outputp = u;
	return 0;
}

int snd_ump_close(snd_ump_t *ump)
{
	snd_rawmidi_close(ump->rawmidi);
	free(ump);
	return 0;
}

snd_rawmidi_t *snd_ump_rawmidi(snd_ump_t *ump) { return ump->rawmidi; }
int snd_ump_rawmidi_params(snd_ump_t *ump, snd_rawmidi_params_t *params)
{ return snd_rawmidi_params(ump->rawmidi, params); }
int snd_ump_rawmidi_params_current(snd_ump_t *ump, snd_rawmidi_params_t *params)
{ return snd_rawmidi_params_current(ump->rawmidi, params); }

ssize_t snd_ump_write(snd_ump_t *ump, const void *buffer, size_t size)
{
	if (ump->rawmidi->p.mode == SND_RAWMIDI_READ_TSTAMP) {
		logf_("error: plain write on a framed stream\n");
		return -EINVAL;
	}
	log_words("uwrite", buffer, size);
	return size;
}

#ifndef NO_TWRITE
ssize_t snd_ump_twrite(snd_ump_t *ump, const struct timespec *tstamp, const void *buffer,
		       size_t size)
{
	char what[64];

	if (ump->rawmidi->p.mode != SND_RAWMIDI_READ_TSTAMP || size % 4)
		return -EINVAL;
	if (size == 0)
		return 0;
	snprintf(what, sizeof(what), "utwrite %lld.%09ld", tstamp ? (long long)tstamp->tv_sec : 0LL,
		 tstamp ? tstamp->tv_nsec : 0L);
	log_words(what, buffer, size);
	return size;
}
#endif

ssize_t snd_ump_read(snd_ump_t *ump, void *buffer, size_t size)
{ (void)ump; (void)buffer; (void)size; return -EAGAIN; }
ssize_t snd_ump_tread(snd_ump_t *ump, struct timespec *tstamp, void *buffer, size_t size)
{ (void)ump; (void)tstamp; (void)buffer; (void)size; return -EAGAIN; }
int snd_ump_poll_descriptors_count(snd_ump_t *ump) { (void)ump; return 0; }
int snd_ump_poll_descriptors(snd_ump_t *ump, struct pollfd *pfds, unsigned int space)
{ (void)ump; (void)pfds; (void)space; return 0; }
int snd_ump_poll_descriptors_revents(snd_ump_t *ump, struct pollfd *pfds, unsigned int nfds,
				     unsigned short *revents)
{ (void)ump; (void)pfds; (void)nfds; *revents = 0; return 0; }

/* endpoint and block information: looked up by libremidi's wrapper, unused here */
#define EP_GET(type, name) \
	type snd_ump_endpoint_info_get_##name(const snd_ump_endpoint_info_t *info) { (void)info; return 0; }
#define BLK_GET(type, name) \
	type snd_ump_block_info_get_##name(const snd_ump_block_info_t *info) { (void)info; return 0; }
int snd_ump_endpoint_info(snd_ump_t *ump, snd_ump_endpoint_info_t *info) { (void)ump; (void)info; return -ENXIO; }
size_t snd_ump_endpoint_info_sizeof(void) { return 512; }
EP_GET(int, card)
EP_GET(int, device)
EP_GET(unsigned int, flags)
EP_GET(unsigned int, protocol_caps)
EP_GET(unsigned int, protocol)
EP_GET(unsigned int, num_blocks)
EP_GET(unsigned int, version)
EP_GET(unsigned int, manufacturer_id)
EP_GET(unsigned int, family_id)
EP_GET(unsigned int, model_id)
EP_GET(const unsigned char *, sw_revision)
EP_GET(const char *, name)
EP_GET(const char *, product_id)
int snd_ump_block_info(snd_ump_t *ump, snd_ump_block_info_t *info) { (void)ump; (void)info; return -ENXIO; }
size_t snd_ump_block_info_sizeof(void) { return 512; }
void snd_ump_block_info_set_block_id(snd_ump_block_info_t *info, unsigned int id) { (void)info; (void)id; }
BLK_GET(unsigned int, block_id)
BLK_GET(unsigned int, active)
BLK_GET(unsigned int, flags)
BLK_GET(unsigned int, direction)
BLK_GET(unsigned int, first_group)
BLK_GET(unsigned int, num_groups)
BLK_GET(unsigned int, midi_ci_version)
BLK_GET(unsigned int, sysex8_streams)
BLK_GET(unsigned int, ui_hint)
BLK_GET(const char *, name)
