#!/bin/sh
# ump-gadget.sh: plug in the MIDI 2.0 gadget (f_midi2, made through
# configfs with its defaults: one UMP endpoint, one bidirectional function
# block of one group) on a free port of dummy_hcd (guest/init loads it
# with two), unless it is there, and wait for snd-usb-audio to bind it.
# Its cards: the gadget's own "f_midi2 - MIDI 2.0 Gadget" and the host's
# "USB-Audio - MIDI 2.0 Gadget", each with the endpoint as umpC*D0. As
# rawmidi-usb-test does it; the bench uses it.
G=/sys/kernel/config/usb_gadget/rawmidi-ump
F=$G/functions/midi2.usb0
. /tests/cards.sh
host_card() { [ -n "$(card_named 'USB-Audio - MIDI 2.0 Gadget')" ]; }

host_card && exit 0
modprobe usb_f_midi2 || exit 1
grep -q configfs /proc/mounts || mount -t configfs none /sys/kernel/config || exit 1
if [ ! -d "$F" ]; then
	mkdir -p "$G/strings/0x409" "$G/configs/c.1" && mkdir "$F" || exit 1
	echo 0x1d6b > "$G/idVendor"		# Linux Foundation,
	echo 0x0104 > "$G/idProduct"		# multifunction composite gadget
	echo "MIDI 2.0 Gadget" > "$G/strings/0x409/product"
	ln -s "$F" "$G/configs/c.1/"
fi
# the first device controller that has no gadget yet
for u in /sys/class/udc/*; do
	[ -n "$(cat "$u/function" 2>/dev/null)" ] && continue
	echo "${u##*/}" > "$G/UDC" 2>/dev/null && break
done
i=0
while ! host_card && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
host_card
