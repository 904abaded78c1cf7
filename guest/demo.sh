#!/bin/sh
# The demonstration that `make demo` shows: framed input with kernel
# timestamps through alsa-lib, how long DRAIN takes on each device, framed
# output against sleeping in userspace, and sequencer input under load.
. /tests/cards.sh
dmesg -n 1	# keep kernel messages out of the demonstration
vm=$(card_of VirMIDI)
mt=$(card_of MIDItest)
uart=$(card_of Serial)
usbh=$(card_named "USB-Audio - MIDI Gadget")	# snd-usb-audio's card of the MIDI gadget
usbg=$(card_of "MIDI Gadget")	# the gadget's own card
seq_client() {
	awk -v want="\"Virtual Raw MIDI $vm-$1\"" \
		'$1 == "Client" && index($0, want) { print $2 + 0 }' /proc/asound/seq/clients
}

echo "=== DEMO 1: framed input with kernel timestamps (alsa-lib snd_rawmidi_tread)"
echo "amidi sends 'note on, note off, volume' to virmidi port 0; the sequencer"
echo "carries it to port 1, read in SND_RAWMIDI_READ_TSTAMP mode (CLOCK_MONOTONIC):"
aconnect "$(seq_client 0):0" "$(seq_client 1):0"
/tests/tread "hw:$vm,1" 9 > /tmp/tread.out 2>&1 &
sleep 0.3
echo "  sent at $(cut -d' ' -f1 /proc/uptime) s uptime"
amidi -p "hw:$vm,0" -S "90 3C 64 80 3C 40 B0 07 64"
wait
grep -v ready /tmp/tread.out | sed 's/^/  kernel stamp /'
aconnect -d "$(seq_client 0):0" "$(seq_client 1):0"

echo "=== DEMO 2: DRAIN after writing 3 bytes"
echo "virmidi (card $vm; its .drain is 7.3's own, fast on either kernel):"
/tests/drainlat drain "/dev/snd/midiC${vm}D0" 50 | awk 'NR == 1 { print "  n=" $1 ", min " $2 " us, median " $3 " us, max " $5 " us" }'
if [ -n "$uart" ]; then
	echo "serial-u16550 on the emulated COM2 16550 (card $uart, 38400 baud; 7.3 has no .drain"
	echo "for it and sleeps a blind 50 ms, ~55 ms a drain; the series' .drain waits for the transmitter):"
	/tests/drainlat drain "/dev/snd/midiC${uart}D0" 20 | awk 'NR == 1 { print "  n=" $1 ", min " $2 " us, median " $3 " us, max " $5 " us" }'
fi
if [ -n "$mt" ]; then
	echo "test driver device without .drain (card $mt, 31250 baud: 3 bytes take 960 us on the"
	echo "wire): the core's fallback for such drivers, 50 ms from the last byte, so ~50-60 ms here too:"
	echo 31250 > /sys/kernel/debug/miditest/midi1/baud
	echo 0 > /sys/kernel/debug/miditest/midi1/fifo
	/tests/drainlat drain "/dev/snd/midiC${mt}D1" 20 |
		awk 'NR == 1 { print "  n=" $1 ", min " $2 " us, median " $3 " us, max " $5 " us" }'
fi
if [ -n "$usbh" ]; then
	echo "snd-usb-audio, to the MIDI gadget over dummy_hcd (card $usbh; its .drain waits for its URBs,"
	echo "on either kernel):"
	/tests/drainlat drain "/dev/snd/midiC${usbh}D0" 20 | awk 'NR == 1 { print "  n=" $1 ", min " $2 " us, median " $3 " us, max " $5 " us" }'
fi

if [ -n "$mt" ]; then
	echo "=== DEMO 3: framed output: each note on leaves at its time stamp"
	echo "500 note ons, one every 10 ms, to the test driver at 1 Mbaud; first byte's"
	echo "transmit time minus its scheduled time, in us (n min median p99 max),"
	echo "while a SCHED_FIFO hog runs on every vCPU:"
	/tests/rt -p 30 $$	# above the hog, or this script would wait for it
	/tests/load 60 & lpid=$!
	sleep 1
	for p in kernel user-other user-fifo; do
		/tests/rt 20 /tests/schedout $p "$mt" 500 | head -n 1 | sed "s/^/  $p: /"
	done
	kill $lpid 2>/dev/null
	wait $lpid 2>/dev/null
	echo "(kernel: frames written ahead, released by an hrtimer; user-*: sleep, then write)"

	echo "=== DEMO 4: sequencer input stamped at receive time, under the same hog"
	echo "10 Hz note ons from the test driver, recorded through a real-time queue:"
	/tests/load 60 & lpid=$!
	sleep 1
	/tests/rt 20 /tests/jitter seq "$mt" 30 | head -n 1 |
		awk '{ print "  |delta - 100 ms|: median " $3 " us, max " $5 " us (unpatched: ~900 ms)" }'
	/tests/rt 20 /tests/jitter seq-latency "$mt" 30 | head -n 1 |
		awk '{ print "  delivery delay: median " $3 " us, max " $5 " us (unpatched: up to 1 s)" }'
	kill $lpid 2>/dev/null
	wait $lpid 2>/dev/null
fi
if [ -n "$usbh" ] && [ -n "$usbg" ] && [ -x /opt/alsa-rawmidi/bin/amidi ]; then
	echo "=== DEMO 5: USB MIDI: framed output through snd-usb-audio"
	echo "amidi -e queues three note ons for 0.2, 0.4 and 0.6 s from now on the host's"
	echo "card (snd-usb-audio); the MIDI gadget receives them over dummy_hcd, and amidi -T"
	echo "on the gadget's card prints the kernel's stamp of each arrival:"
	us() { LD_LIBRARY_PATH=/opt/alsa-rawmidi/lib /opt/alsa-rawmidi/bin/amidi "$@"; }
	us -p "hw:$usbg,0" -d -T monotonic -t 2 > /tmp/usb.in 2>&1 &
	sleep 0.5
	printf '0.2 90 3C 64\n0.4 90 40 64\n0.6 90 43 64\n' > /tmp/usb.sched
	echo "  queued at $(awk '{ print $1 }' /proc/uptime) s uptime"
	us -p "hw:$usbh,0" -T monotonic -e /tmp/usb.sched 2>&1 | sed 's/^/  amidi -e: /'
	wait
	echo >> /tmp/usb.in
	grep . /tmp/usb.in | sed 's/^/  gadget stamp (s) and bytes: /'
fi
echo "=== DEMO END"
