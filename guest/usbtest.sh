#!/bin/sh
# The gadget-side contract the MIDI gadgets rely on, checked with another
# user of dummy_hcd: Gadget Zero (g_zero) on a free dummy_hcd port, bound
# on the host side by usbtest and driven by testusb (tools/usb/testusb.c),
# one TAP line per usbtest case. Cases that this pair cannot run
# (isochronous: dummy_hcd has none) are skipped by testusb itself.
#
# First, the stop path of the MIDI gadget functions: the host selects
# the MIDIStreaming interface's alternate settings over and over while
# the gadget writes (guest/altswitch.c). Under the test rig's dummy_hcd,
# which gives a dequeued request back later as dwc3 does, a function
# that frees requests the controller still holds makes KASAN report
# (the debug kernel), which fails the run; and each gadget must still
# send afterwards.
echo "TAP version 13"
cases="1 2 3 4 5 6 7 8 9 10 11 12 13 14 17 18 21 24 27 28 29"
# shellcheck disable=SC2086 # a word a case
set -- $cases
echo "1..$(($# + 2))"
. /tests/cards.sh

# usb_dev PRODUCT: the host side's sysfs directory of that device
usb_dev() {
	for d in /sys/bus/usb/devices/*; do
		[ -f "$d/product" ] && [ "$(cat "$d/product")" = "$1" ] &&
			{ echo "$d"; return 0; }
	done
	return 1
}
# iface DEV SUBCLASS: the audio interface of DEV with that subclass
# (1 AudioControl, 3 MIDIStreaming), as its sysfs name
iface() {
	for i in "$1":*; do
		[ "$(cat "$i/bInterfaceClass")" = 01 ] &&
			[ "$(cat "$i/bInterfaceSubClass")" = "0$2" ] &&
			{ echo "${i##*/}"; return 0; }
	done
	return 1
}
# alt_case N NAME PRODUCT ALTS OUT KIND: one case of altswitch
alt_case() {
	n=$1 name=$2
	dev=$(usb_dev "$3") || { echo "ok $n $name # SKIP no device \"$3\""; return; }
	ac=$(iface "$dev" 1) && ms=$(iface "$dev" 3) ||
		{ echo "not ok $n $name # no MIDI interfaces"; return; }
	node=$(printf '/dev/bus/usb/%03d/%03d' "$(cat "$dev/busnum")" "$(cat "$dev/devnum")")
	# (snd-usb-audio holds both interfaces; binding the first takes both)
	for i in "$dev":*; do
		[ -e "/sys/bus/usb/drivers/snd-usb-audio/${i##*/}" ] &&
			echo -n "${i##*/}" > /sys/bus/usb/drivers/snd-usb-audio/unbind
	done
	ok=1
	/tests/altswitch "$node" "$(cat "/sys/bus/usb/devices/$ms/bInterfaceNumber")" \
		"$4" 200 "$5" "$6" || ok=0
	echo -n "$ac" > /sys/bus/usb/drivers/snd-usb-audio/bind || ok=0
	[ $ok = 1 ] && [ -n "$7" ] && ! $7 && ok=0
	if [ $ok = 1 ]; then echo "ok $n $name"; else echo "not ok $n $name"; fi
}
# g_midi_sends: a note on written to the gadget reaches the host's card
g_midi_sends() {
	i=0
	until h=$(card_named "USB-Audio - MIDI Gadget") && [ -n "$h" ] ||
		[ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -n "$h" ] || { echo "# the host's card did not come back"; return 1; }
	rm -f /tmp/got
	timeout 3 head -c 3 "/dev/snd/midiC${h}D0" > /tmp/got &
	sleep 0.3
	printf '\220\074\100' > "/dev/snd/midiC$(card_of "MIDI Gadget")D0"
	wait
	[ "$(od -An -tx1 /tmp/got | tr -d ' ')" = 903c40 ] ||
		{ echo "# the gadget sends nothing after the switches"; return 1; }
}
# f_midi2_sends: a UMP note on written to the gadget's endpoint reaches
# the host's endpoint, behind what the writer left queued
f_midi2_sends() {
	i=0
	until h=$(card_named "USB-Audio - MIDI 2.0 Gadget") && [ -n "$h" ] ||
		[ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -n "$h" ] || { echo "# the host's card did not come back"; return 1; }
	rm -f /tmp/got
	timeout 3 cat "/dev/snd/umpC${h}D0" > /tmp/got &
	sleep 0.3
	# 0x20913e7f, a note on that the writer never sends, in the CPU's order
	printf '\177\076\221\040' > "/dev/snd/umpC$(card_named "f_midi2 - MIDI 2.0 Gadget")D0"
	wait
	od -An -v -tx1 /tmp/got | tr -d ' \n' | grep -Eq '^(.{8})*7f3e9120' ||
		{ echo "# the gadget sends nothing after the switches"; return 1; }
}
if [ -x /tests/altswitch ] && [ -d /sys/bus/usb/drivers/snd-usb-audio ]; then
	/tests/ump-gadget.sh > /dev/null 2>&1
	g=$(card_of "MIDI Gadget")
	u=$(card_named "f_midi2 - MIDI 2.0 Gadget")
	if [ -n "$g" ]; then
		alt_case 1 f_midi_alt_switch_while_writing "MIDI Gadget" 0 \
			"/dev/snd/midiC${g}D0" midi g_midi_sends
	else
		echo "ok 1 f_midi_alt_switch_while_writing # SKIP no g_midi"
	fi
	if [ -n "$u" ]; then
		alt_case 2 f_midi2_alt_switch_while_writing "MIDI 2.0 Gadget" 0,1 \
			"/dev/snd/umpC${u}D0" ump f_midi2_sends
	else
		echo "ok 2 f_midi2_alt_switch_while_writing # SKIP no f_midi2 gadget"
	fi
else
	echo "ok 1 f_midi_alt_switch_while_writing # SKIP no altswitch or snd-usb-audio"
	echo "ok 2 f_midi2_alt_switch_while_writing # SKIP no altswitch or snd-usb-audio"
fi

skip_all() {
	n=3
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
		n=3
		for t in $cases; do echo "not ok $n usbtest_$t # Gadget Zero not bound"; n=$((n + 1)); done
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
n=3
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
