// SPDX-License-Identifier: GPL-2.0
/*
 * altswitch: a host that selects an interface's alternate settings over
 * and over while the gadget writes, for the stop path of f_midi and
 * f_midi2 (guest/usbtest.sh). Through usbfs, on an interface no driver
 * holds (the caller unbinds snd-usb-audio first):
 *
 *   altswitch DEV IFNUM ALTS COUNT OUT KIND
 *
 * DEV the host side's /dev/bus/usb/BBB/DDD, IFNUM the MIDIStreaming
 * interface, ALTS the settings to cycle through ("0" or "0,1"), COUNT the
 * number of SET_INTERFACE requests. Meanwhile a child writes to OUT, the
 * gadget's own rawmidi device: note on/off as MIDI 1.0 bytes (KIND
 * "midi") or as UMP packets (KIND "ump"), without blocking, so that
 * requests are queued on the gadget's EP-in at every switch (nobody reads
 * them on the host). Prints how many requests were made and failed;
 * exits 1 on an error of its own. What it checks is what the kernel
 * reports meanwhile (KASAN, lockdep), and that the gadget still sends
 * afterwards, which the caller checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/usbdevice_fs.h>

static int writer(const char *path, int ump)
{
	const uint8_t midi[6] = { 0x90, 0x3c, 0x40, 0x80, 0x3c, 0x00 };
	const uint32_t packets[2] = { 0x20903c40, 0x20803c00 };
	struct timespec pause = { 0, 200000 };
	int fd = open(path, O_WRONLY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "# %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = ump ? write(fd, packets, sizeof(packets)) :
				  write(fd, midi, sizeof(midi));

		if (n > 0)
			continue;
		if (n < 0 && errno != EAGAIN && errno != ENODEV &&
		    errno != EIO) {
			fprintf(stderr, "# write: %s\n", strerror(errno));
			return -1;
		}
		/* the buffer is full: let the gadget take some */
		nanosleep(&pause, NULL);
	}
}

int main(int argc, char **argv)
{
	struct usbdevfs_setinterface si;
	int fd, ifnum, count, nalts = 0, alts[8], i, status, errors = 0;
	char *list, *tok;
	pid_t child;

	if (argc != 7) {
		fprintf(stderr, "usage: %s DEV IFNUM ALTS COUNT OUT midi|ump\n",
			argv[0]);
		return 2;
	}
	ifnum = atoi(argv[2]);
	count = atoi(argv[4]);
	list = strdup(argv[3]);
	for (tok = strtok(list, ","); tok && nalts < 8; tok = strtok(NULL, ","))
		alts[nalts++] = atoi(tok);
	if (!nalts || count <= 0)
		return 2;

	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "# %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ioctl(fd, USBDEVFS_CLAIMINTERFACE, &ifnum) < 0) {
		fprintf(stderr, "# claim interface %d: %s\n", ifnum,
			strerror(errno));
		return 1;
	}

	child = fork();
	if (child < 0)
		return 1;
	if (child == 0)
		_exit(writer(argv[5], !strcmp(argv[6], "ump")) < 0);

	/* let the writer fill the EP-in's requests first */
	usleep(100000);
	for (i = 0; i < count; i++) {
		si.interface = ifnum;
		si.altsetting = alts[i % nalts];
		if (ioctl(fd, USBDEVFS_SETINTERFACE, &si) < 0) {
			fprintf(stderr, "# SET_INTERFACE %d alt %d: %s\n",
				ifnum, si.altsetting, strerror(errno));
			errors++;
		}
		usleep(2000 + (i % 5) * 700);
	}

	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	/* back to the first setting, as a driver would find it */
	si.interface = ifnum;
	si.altsetting = alts[0];
	ioctl(fd, USBDEVFS_SETINTERFACE, &si);
	ioctl(fd, USBDEVFS_RELEASEINTERFACE, &ifnum);
	close(fd);
	printf("# %d SET_INTERFACE requests, %d failed\n", count, errors);
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		fprintf(stderr, "# the writer failed\n");
		return 1;
	}
	return errors ? 1 : 0;
}
