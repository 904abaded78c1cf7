#!/bin/sh
# The benchmark run (rawmidi.run=bench): each measurement idle and under
# load (guest/load.c), printed as
#   BENCH measure,path,load,n,min_us,median_us,p99_us,max_us
#   SAMPLES measure,path,load value...
# The measuring programs run at SCHED_FIFO 20, above the load's hogs; this
# script at 30.
N=${N:-50}
JN=${JN:-100}	# note ons per jitter run: 10 s
JR=${JR:-3}	# runs of each jitter path
SN=${SN:-500}	# scheduled messages per output_sched_err run: 5 s
SR=${SR:-5}	# runs of each output_sched_err path: one p99 of 500 moves a lot
/tests/rt -p 30 $$
# On PREEMPT_RT, soft hrtimers (the test driver's, snd-hrtimer's, framed
# output's release timer) expire in the per-CPU ktimers threads at
# SCHED_FIFO 1, which the load's FIFO 10 loops starve outright (the first
# test-driver drain under load waited until the guest's time limit). The
# test driver stands in for a device interrupt, whose thread runs at
# FIFO 50: give ktimers that priority. RCU's kthreads (rcu_preempt, rcuc,
# rcub) run at SCHED_FIFO 1 there too: starved, no grace period ends, and
# closing a sequencer client, which waits for one (port_delete() ->
# synchronize_rcu()), never returns (the sequencer jitter run under load
# hung so). An RT system with busy real-time threads raises them, as
# rcutree.kthread_prio does; do the same. Say so in the results. (Found
# through /proc: the guest's busybox has no pgrep.)
if uname -v | grep -q PREEMPT_RT; then
	for d in /proc/[0-9]*; do
		comm=$(cat "$d/comm" 2>/dev/null)
		case "$comm" in
		ktimers/*) ;;
		rcu*) [ "$(awk '{ print $41 }' "$d/stat")" = 1 ] || continue ;;	# SCHED_FIFO ones
		*) continue ;;
		esac
		/tests/rt -p 50 "${d#/proc/}" &&
			echo "BENCH-NOTE $comm raised to SCHED_FIFO 50"
	done
fi
. /tests/cards.sh
vm=$(card_of VirMIDI)
uart=$(card_of Serial)
mt=$(card_of MIDItest)
usbh=$(card_named "USB-Audio - MIDI Gadget")	# snd-usb-audio's card of the MIDI gadget (guest/init)
usbg=$(card_of "MIDI Gadget")	# the gadget's own card, which stamps arrivals
# The MIDI 2.0 gadget and snd-usb-audio's card of it (UMP endpoints)
/tests/ump-gadget.sh || echo "BENCH-NOTE no MIDI 2.0 gadget: no ump rows"
umph=$(card_named "USB-Audio - MIDI 2.0 Gadget")
umpg=$(card_named "f_midi2 - MIDI 2.0 Gadget")
dbg=/sys/kernel/debug/miditest

# report MEASURE PATH LOAD OUTPUT: OUTPUT is a program's summary line
# ("n min median p99 max") and its SAMPLES line.
report() {
	summary=$(echo "$4" | head -n 1)
	samples=$(echo "$4" | sed -n 's/^SAMPLES //p')
	[ -n "$summary" ] && [ -n "$samples" ] || { echo "BENCH-ERROR $1 $2 $3"; return; }
	set -- "$1" "$2" "$3" $summary
	echo "BENCH $1,$2,$3,$4,$5,$6,$7,$8"
	echo "SAMPLES $1,$2,$3 $samples"
}

# testdrv DEVICE FIFO: set up a test driver device (its output is closed)
testdrv() {
	echo 31250 > $dbg/midi$1/baud
	echo "$2" > $dbg/midi$1/fifo
}

for load in idle load; do
	if [ $load = load ]; then
		/tests/load 900 &
		lpid=$!
		sleep 1
	fi
	for m in drain close; do
		[ -n "$vm" ] && report $m virmidi $load \
			"$(/tests/rt 20 /tests/drainlat $m /dev/snd/midiC${vm}D0 $N)"
		[ -n "$uart" ] && report $m u16550 $load \
			"$(/tests/rt 20 /tests/drainlat $m /dev/snd/midiC${uart}D0 $N)"
		[ -n "$usbh" ] && report $m usb $load \
			"$(/tests/rt 20 /tests/drainlat $m /dev/snd/midiC${usbh}D0 $N)"
		if [ -n "$mt" ]; then
			testdrv 0 16
			report $m testdrv-drain $load \
				"$(/tests/rt 20 /tests/drainlat $m /dev/snd/midiC${mt}D0 $N)"
			testdrv 1 16
			report $m testdrv-nodrain $load \
				"$(/tests/rt 20 /tests/drainlat $m /dev/snd/midiC${mt}D1 $N)"
		fi
	done
	[ -n "$mt" ] && report input_tstamp_err testdrv $load \
		"$(/tests/rt 20 /tests/tstamperr /dev/snd/midiC${mt}D0 $dbg/midi0 500 2000)"
	# CPU cost of input, plain and framed, in ns per byte (not us).
	if [ -n "$mt" ]; then
		for mode in bytes framing; do
			report cpu_ns_per_byte rawmidi-$mode $load \
				"$(/tests/rt 20 /tests/cpucost $mode /dev/snd/midiC${mt}D0 $dbg/midi0 20)"
		done
	fi
	# CPU cost of output, plain and framed in turn, in ns per byte. The
	# timed runs count what soaker threads lost, and under load they get
	# no CPU at all: idle only; the now runs count the writer's own CPU
	# time, under load too. The median over the pairs of framed / plain
	# goes to the notes. The base kernel has no framed output.
	if [ -n "$mt" ]; then
		kinds=now
		[ $load = idle ] && kinds="timed now"
		for kind in $kinds; do
			if ! out=$(/tests/rt 20 /tests/txcost $kind $mt 20 2>/tmp/txcost.err); then
				echo "BENCH-ERROR output_cpu_ns_per_byte $kind $load: $(tr '\n' ' ' < /tmp/txcost.err)"
				continue
			fi
			for p in $(echo "$out" | sed -n 's/^PATH //p'); do
				report output_cpu_ns_per_byte $p $load \
					"$(echo "$out" | sed -n "/^PATH $p\$/,/^SAMPLES/p" | sed 1d)"
			done
			echo "$out" | grep -q '^NOFRAMING' &&
				echo "BENCH-SKIP output_cpu_ns_per_byte $kind $load: no framed output"
			echo "$out" | sed -n "s|^RATIO |BENCH-NOTE output CPU per byte, framed / plain ($kind, $load), median of 20 pairs: |p"
		done
	fi
	# The seed experiment: 10 note ons a second, |delta - 100 ms|, JR
	# runs of each path (paths "seq", "seq-run2", ...), for the spread.
	# Then how long the sequencer took to deliver each note on.
	if [ -n "$mt" ]; then
		r=1
		while [ $r -le "$JR" ]; do
			sfx=; [ $r -gt 1 ] && sfx=-run$r
			report jitter_10hz rawmidi-framing$sfx $load \
				"$(/tests/rt 20 /tests/jitter raw $mt $JN)"
			report jitter_10hz seq$sfx $load "$(/tests/rt 20 /tests/jitter seq $mt $JN)"
			r=$((r + 1))
		done
		report seq_delivery seq $load "$(/tests/rt 20 /tests/jitter seq-latency $mt $JN)"
	fi
	# The same through USB MIDI: the gadget's card sends the notes, and
	# snd-usb-audio's card receives them (jitter HOST:GADGET): framed
	# input stamps and sequencer stamps on the host side, then the
	# sequencer's delivery delay.
	if [ -n "$usbh" ] && [ -n "$usbg" ]; then
		r=1
		while [ $r -le "$JR" ]; do
			sfx=; [ $r -gt 1 ] && sfx=-run$r
			report jitter_10hz usb-framing$sfx $load \
				"$(/tests/rt 20 /tests/jitter raw $usbh:$usbg $JN)"
			report jitter_10hz usb-seq$sfx $load \
				"$(/tests/rt 20 /tests/jitter seq $usbh:$usbg $JN)"
			r=$((r + 1))
		done
		report seq_delivery usb-seq $load \
			"$(/tests/rt 20 /tests/jitter seq-latency $usbh:$usbg $JN)"
	fi
	# Sending at a time: framed output against sleeping in userspace at
	# SCHED_OTHER and at SCHED_FIFO, against the sequencer's real-time
	# queue, and against the floor (the test driver's own hrtimer, armed
	# like the release timer: no path can beat its lateness). The base
	# kernel has no framed output (schedout exits with 3): no figure for
	# it there. Path kernel-sleep: framed output whose writer sleeps past
	# the last frame instead of waiting in DRAIN while they go out (what
	# a waiting drainer costs the release).
	# Path alsa-lib: the kernel path's frames written through the patched
	# alsa-lib's snd_rawmidi_twrite() (/opt/alsa-rawmidi, where the guest
	# has it).
	# SR runs of each path, in turn (paths "kernel", "kernel-run2", ...):
	# the tables take the median of their p99s. The usb-* paths send the
	# same way through snd-usb-audio to the MIDI gadget, whose card stamps
	# each arrival (schedout HOST:GADGET).
	paths=
	[ -n "$mt" ] && paths="floor kernel kernel-sleep seq-queue user-other user-fifo"
	[ -n "$mt" ] && [ -x /tests/schedout-alsa ] && paths="$paths alsa-lib"
	[ -n "$usbh" ] && [ -n "$usbg" ] &&
		paths="$paths usb-kernel usb-seq-queue usb-user-other usb-user-fifo"
	# The ump-* paths: 64-bit MIDI 2.0 note ons to the MIDI 2.0 gadget's
	# UMP endpoint through snd-usb-audio (schedout ump:HOST:GADGET).
	[ -n "$umph" ] && [ -n "$umpg" ] &&
		paths="$paths ump-kernel ump-user-other ump-user-fifo"
	r=1
	while [ -n "$paths" ] && [ $r -le "$SR" ]; do
		sfx=; [ $r -gt 1 ] && sfx=-run$r
		for p in $paths; do
			if [ $p = alsa-lib ]; then
				out=$(/tests/rt 20 env LD_LIBRARY_PATH=/opt/alsa-rawmidi/lib \
					/tests/schedout-alsa $mt $SN 2>/tmp/schedout.err)
			elif [ "${p#ump-}" != "$p" ]; then
				out=$(/tests/rt 20 /tests/schedout ${p#ump-} "ump:$umph:$umpg" $SN 2>/tmp/schedout.err)
			elif [ "${p#usb-}" != "$p" ]; then
				out=$(/tests/rt 20 /tests/schedout ${p#usb-} "$usbh:$usbg" $SN 2>/tmp/schedout.err)
			else
				out=$(/tests/rt 20 /tests/schedout $p $mt $SN 2>/tmp/schedout.err)
			fi
			rc=$?
			if [ $rc = 3 ]; then
				[ $r = 1 ] && echo "BENCH-SKIP output_sched_err $p $load: no framed output"
			elif [ $rc = 0 ]; then
				report output_sched_err $p$sfx $load "$out"
			else
				echo "BENCH-ERROR output_sched_err $p$sfx $load: exit $rc, $(tr '\n' ' ' < /tmp/schedout.err)"
			fi
		done
		r=$((r + 1))
	done
	if [ $load = load ]; then
		kill -TERM $lpid
		wait
	fi
done
echo "=== BENCH DONE"
