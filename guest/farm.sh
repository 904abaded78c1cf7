#!/bin/busybox sh
# farm.sh: the guest's run=farm (guest/init starts it before it loads
# anything): the alsa kselftests as installed by the kselftest Makefile,
# run by their run_kselftest.sh as a CI farm runs them, with no module
# loaded and debugfs not mounted. Only the board's MIDI UART is bound,
# as a farm's board setup binds its devices (its port cannot be probed).
umount /sys/kernel/debug 2>/dev/null
# What udev or mdev would make and devtmpfs does not: runner.sh appends
# each program's output to /dev/stdout (without the link, to a file).
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
echo "=== GUEST START $(uname -r) ($(uname -v)) run=farm"
modprobe snd-serial-u16550 port=0x2f8 irq=3 speed=38400 adaptor=0 ||
	echo "modprobe snd-serial-u16550 failed"
echo "=== BEGIN alsa (run_kselftest.sh)"
start=$(cut -d ' ' -f 1 /proc/uptime)
# (and after each program, as a TAP comment, how long it ran)
{ /kselftest/run_kselftest.sh -c alsa 2>&1; echo $? > /tmp/farm.rc; } |
	awk 'function now(  up, u) { getline up < "/proc/uptime"; close("/proc/uptime")
			split(up, u, " "); return u[1] }
	     { print; fflush() }
	     /^# selftests: / { t0 = now() }
	     /^(not )?ok [0-9]+ selftests: / { p = $0; sub(/^[^:]*: [^:]*: /, "", p); sub(/ .*/, "", p)
			printf "# farm: %s ran %.0f s\n", p, now() - t0; fflush() }'
rc=$(cat /tmp/farm.rc)
echo "=== END alsa ($(awk -v s="$start" '{ printf "%.0f", $1 - s }' /proc/uptime) s) rc=$rc"
echo "=== MODULES"
cut -d ' ' -f 1 /proc/modules
echo "=== TAINT $(cat /proc/sys/kernel/tainted)"
echo "=== GUEST DONE"
sync
reboot -f
