#!/bin/sh
# run=dwake: how often a task in DRAIN is woken while a SysEx leaves: a
# 512-byte SysEx written and drained five times from a SCHED_FIFO 20
# process (guest/drainlat.c, sysex mode), on the test driver's device 0
# (.drain callback) at 31250 baud without a FIFO, which takes a byte at a
# time as a UART's interrupt does. (Not on serial-u16550: QEMU's 16550
# sends at once, the output is empty before DRAIN starts.) The 6-drain
# posting quotes it, with and without its patch 5.
. /tests/cards.sh
echo "=== dwake: device bytes wakeups(min median max) drain_us(median)"
mt=$(card_of MIDItest)
if [ -n "$mt" ]; then
	echo 31250 > /sys/kernel/debug/miditest/midi0/baud
	echo 0 > /sys/kernel/debug/miditest/midi0/fifo
	echo "miditest-31250 512 $(/tests/rt 20 /tests/drainlat sysex "/dev/snd/midiC${mt}D0" 512)"
fi
echo "=== dwake done"
