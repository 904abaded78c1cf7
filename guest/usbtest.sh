#!/bin/sh
# The gadget-side contract the MIDI gadgets rely on, checked with another
# user of dummy_hcd: Gadget Zero (g_zero) on a free dummy_hcd port, bound
# on the host side by usbtest and driven by testusb (tools/usb/testusb.c),
# one TAP line per usbtest case. Cases that this pair cannot run
# (isochronous: dummy_hcd has none) are skipped by testusb itself.
echo "TAP version 13"
cases="1 2 3 4 5 6 7 8 9 10 11 12 13 14 17 18 21 24 27 28 29"
# shellcheck disable=SC2086 # a word a case
set -- $cases
echo "1..$#"
skip_all() {
	n=1
	for t in $cases; do echo "ok $n usbtest_$t # SKIP $1"; n=$((n + 1)); done
	exit 0
}
[ -x /tests/testusb ] || skip_all "no testusb"
[ -n "$(find "/lib/modules/$(uname -r)" -name 'g_zero.ko*')" ] ||
	skip_all "no g_zero module"
# Gadget Zero takes g_midi's dummy_hcd port (the other one may hold the
# MIDI 2.0 gadget of rawmidi-usb-test).
rmmod g_midi 2>/dev/null
# (usb_f_ss_lb first: this guest has no modprobe helper for g_zero to ask)
modprobe usbtest && modprobe usb_f_ss_lb && modprobe g_zero
# usbtest binds Gadget Zero's interface once the host has enumerated it
bound() {
	for d in /sys/bus/usb/drivers/usbtest/*:*; do
		[ -e "$d" ] && return 0
	done
	return 1
}
i=0
until bound; do
	if [ $i -ge 100 ]; then
		n=1
		for t in $cases; do echo "not ok $n usbtest_$t # Gadget Zero not bound"; n=$((n + 1)); done
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
n=1
for t in $cases; do
	# -v 512: the ep0out cases (14, 21) need a vary below the length (1024)
	out=$(/tests/testusb -a -t "$t" -c 200 -v 512 2>&1)
	case "$out" in
	*"test $t,"*secs*) echo "ok $n usbtest_$t" ;;
	*"test $t -->"*) echo "not ok $n usbtest_$t"; echo "$out" | sed 's/^/# /' ;;
	*) echo "ok $n usbtest_$t # SKIP not a case of g_zero on dummy_hcd"; echo "$out" | sed 's/^/# /' ;;
	esac
	n=$((n + 1))
done
rmmod g_zero usbtest 2>/dev/null || true
