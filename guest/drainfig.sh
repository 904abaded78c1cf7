#!/bin/sh
# run=drainfig: the figures of the drain posting (6-drain), taken on
# kernels built from its patches (HACKING.md), from a SCHED_FIFO 20
# process (guest/drainlat.c) on the test driver:
# - twice: device 1 (no .drain callback, the core's 50 ms fallback) with
#   a 16-byte FIFO at its default rate: write 3 bytes, DRAIN, DRAIN
#   again, close(); medians of 20 (patch 2);
# - uart: serial-u16550 on QEMU's 16550 (COM2, 38400 baud): write 3
#   bytes and DRAIN, or close(), 50 times each: "n min median p99 max"
#   in us (patch 1);
# - sysex: device 0 (.drain callback) at 31250 baud without a FIFO,
#   which takes a byte at a time as a UART's interrupt does: how often
#   the drainer is woken in DRAIN while a 512-byte SysEx leaves, five
#   times (patch 5). (Not on serial-u16550: QEMU's 16550 sends at once,
#   the output is empty before DRAIN starts.)
. /tests/cards.sh
echo "=== drainfig"
mt=$(card_of MIDItest)
[ -n "$mt" ] || { echo "no test driver"; exit 1; }
echo 16 > /sys/kernel/debug/miditest/midi1/fifo
echo "twice miditest-1 $(/tests/rt 20 /tests/drainlat twice "/dev/snd/midiC${mt}D1" 20)"
echo 31250 > /sys/kernel/debug/miditest/midi0/baud
echo 0 > /sys/kernel/debug/miditest/midi0/fifo
echo "sysex miditest-0 512 $(/tests/rt 20 /tests/drainlat sysex "/dev/snd/midiC${mt}D0" 512)"
uart=$(card_of Serial)
if [ -n "$uart" ]; then
	echo "uart drain serial-u16550 $(/tests/rt 20 /tests/drainlat drain "/dev/snd/midiC${uart}D0" 50)"
	echo "uart close serial-u16550 $(/tests/rt 20 /tests/drainlat close "/dev/snd/midiC${uart}D0" 50)"
fi
echo "=== drainfig done"
