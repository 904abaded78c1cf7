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
# Nothing here changes the priority of a thread this script did not
# create, except where a row is named for it (below). The priorities the
# kernel's threads run at are printed as they are: on PREEMPT_RT the
# ktimers and RCU threads at SCHED_FIFO 1, interrupt threads at 50.
#
# tune=1 (rawmidi.tune=1, the patched-rt-tuned run): a studio system
# whose audio engine runs at SCHED_FIFO 88 puts the threads that MIDI
# depends on above it: framed output's release threads (snd-midiC*D*,
# snd-umpC*D*) by booting with snd_rawmidi.release_prio=90 (scripts/bench.sh),
# before they exist, and the interrupt threads with chrt, as rtirq does:
# the test driver's (irq/N-miditest) and, in that run only, the rig's
# stand-in for a USB host controller's (dummy_hcd's bus thread,
# below). Nothing else, in any run.
tune=0
grep -q 'rawmidi.tune=1' /proc/cmdline && tune=1
rt=0
uname -v | grep -q PREEMPT_RT && rt=1

# prio_of PID: "POLICY PRIO" (the policy as a number, 1 = SCHED_FIFO);
# the fields after the name, which may hold spaces ("irq/3-Serial MIDI")
prio_of() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $39, $38 }'; }
# kthreads PATTERN: the PIDs of the kernel threads whose name matches
threads_named() {
	for d in /proc/[0-9]*; do
		# shellcheck disable=SC2254
		case "$(cat "$d/comm" 2>/dev/null)" in $1) echo "${d#/proc/}" ;; esac
	done
}
# print_prios WHEN: the policy and priority of the threads this bench
# cares about, and the fair server's bandwidth (7.3: every CPU's
# SCHED_OTHER tasks get runtime ns every period ns above all real-time ones)
print_prios() {
	when=$1
	for pid in $(threads_named 'ktimers/*') $(threads_named 'rcu*') \
		   $(threads_named 'irq/*') $(threads_named 'snd-*') \
		   $(threads_named 'dummy_hcd/*'); do
		set -- $(prio_of "$pid")
		[ "${1:-0}" = 0 ] && continue	# SCHED_OTHER threads are not listed
		echo "BENCH-NOTE $when: $(cat "/proc/$pid/comm") policy $1 priority $2"
	done | sort -u
	fs=/sys/kernel/debug/sched/fair_server/cpu0
	[ -r $fs/runtime ] &&
		echo "BENCH-NOTE $1: fair server cpu0 runtime $(cat $fs/runtime) ns period $(cat $fs/period) ns"
}
print_prios start

# dummy_hcd's bus: on PREEMPT_RT the rig runs it in a thread of the
# controller's at SCHED_FIFO 50 (patches/rig), where a real host
# controller's interrupt thread runs. The tuned run raises it with
# everything else a studio raises (rtirq raises the USB host controller's
# interrupt thread); the other runs leave it as the rig makes it.
rig_saved=
rig_up() {
	[ $rt = 1 ] && [ $tune = 1 ] && [ -z "$rig_saved" ] || return 0
	for pid in $(threads_named 'dummy_hcd/*'); do
		set -- $(prio_of "$pid")
		rig_saved="$rig_saved $pid:$2"
		/tests/rt -p 90 "$pid"
	done
	[ -z "$rig_noted" ] && rig_noted=1 &&
		echo "BENCH-NOTE tuned run: dummy_hcd's bus threads raised to SCHED_FIFO 90 (a host controller's interrupt thread), restored after"
}
rig_down() {
	for s in $rig_saved; do
		/tests/rt -p "${s#*:}" "${s%%:*}"
	done
	rig_saved=
}
# tune_up: the tuned run's raise of the test driver's interrupt threads
# above the audio engine, as rtirq raises a sound card's (the release
# threads got their priority from the kernel command line)
tune_up() {
	[ $tune = 1 ] || return 0
	for pid in $(threads_named 'irq/*-miditest'); do
		/tests/rt -p 90 "$pid"
	done
	echo "BENCH-NOTE tuned run: the test driver's interrupt threads (irq/N-miditest) raised to SCHED_FIFO 90"
}
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

# schedout_run PATH COUNT: one run of guest/schedout.c (or, for path
# alsa-lib, of schedout-alsa; for the libremidi-* paths, of libremidi-sched
# bench, whose -now paths drop to SCHED_OTHER themselves) on the device the
# path names; its output on stdout, its errors in /tmp/schedout.err, its
# exit status.
schedout_run() {
	case $1 in
	alsa-lib) /tests/rt 20 env LD_LIBRARY_PATH=/opt/alsa-rawmidi/lib \
			/tests/schedout-alsa $mt $2 2>/tmp/schedout.err ;;
	libremidi-*) /tests/rt 20 env LD_LIBRARY_PATH=/opt/alsa-rawmidi/lib \
			/opt/alsa-rawmidi/bin/libremidi-sched bench ${1#libremidi-} $mt $2 2>/tmp/schedout.err ;;
	usb-libremidi-*) /tests/rt 20 env LD_LIBRARY_PATH=/opt/alsa-rawmidi/lib \
			/opt/alsa-rawmidi/bin/libremidi-sched bench ${1#usb-libremidi-} "$usbh:$usbg" $2 \
			2>/tmp/schedout.err ;;
	ump-*)	/tests/rt 20 /tests/schedout ${1#ump-} "ump:$umph:$umpg" $2 2>/tmp/schedout.err ;;
	usb-aplaymidi) /tests/seqplay.sh "$usbh" "$usbg" $2 2>/tmp/schedout.err ;;
	usb-*)	/tests/rt 20 /tests/schedout ${1#usb-} "$usbh:$usbg" $2 2>/tmp/schedout.err ;;
	*)	/tests/rt 20 /tests/schedout $1 $mt $2 2>/tmp/schedout.err ;;
	esac
}

# cyclic LOAD: cyclictest (rt-tests) beside the floor, in the same boot:
# one thread per CPU at SCHED_FIFO 50, the priority of the release thread
# and of interrupt threads, woken every ms for 5 s (--laptop: it leaves
# /dev/cpu_dma_latency alone, a system setting); its latency histogram
# (us) becomes a row like the others (output_sched_err,cyclictest-fifo50).
cyclic() {
	command -v cyclictest >/dev/null || { echo "BENCH-SKIP cyclictest $1: not in the guest"; return; }
	cyclictest -q -m --laptop -S -p 50 -i 1000 -l 5000 -h 20000 > /tmp/cyclic.out 2>/tmp/cyclic.err ||
		{ echo "BENCH-ERROR output_sched_err cyclictest-fifo50 $1: $(tr '\n' ' ' < /tmp/cyclic.err)"; return; }
	# histogram lines "USEC COUNT_CPU0 COUNT_CPU1 ...": every sample,
	# sorted (samples over 20 ms are only counted, below)
	awk '/^[0-9]/ { for (i = 2; i <= NF; i++) for (k = 0; k < $i; k++) print $1 + 0 }' \
		/tmp/cyclic.out | sort -n > /tmp/cyclic.samples
	report output_sched_err cyclictest-fifo50 "$1" "$(awk -f /tests/summary.awk /tmp/cyclic.samples)"
	sed -n 's/^# Histogram Overflows: */BENCH-NOTE cyclictest '"$1"' samples over 20 ms (per CPU): /p' /tmp/cyclic.out
}

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

# The loads (guest/load.c): idle; load, the saturating SCHED_FIFO 10 hogs,
# for the comparison without PREEMPT_RT (on PREEMPT_RT they starve the
# ktimers and RCU threads, and the fair server's 50 ms then decides every
# figure); audio, a desktop's audio engine at SCHED_FIFO 20, on every
# kernel; audio-pro, a studio's at 88, in the tuned run only, which
# measures nothing else. Under the audio loads only the rows of sending
# at a time run, with cyclictest beside them.
loads="idle load audio"
[ $rt = 1 ] && loads="idle audio"
# rawmidi.rows=sched (ROWS=sched make bench): only the rows of sending at
# a time, under every load; rawmidi.paths=a,b (PATHS="a b"): of those,
# only these paths
rows=all
only_paths=
for arg in $(cat /proc/cmdline); do
	case $arg in
	rawmidi.loads=*) loads=$(echo "${arg#rawmidi.loads=}" | tr , ' ') ;;
	rawmidi.rows=*) rows=${arg#rawmidi.rows=} ;;
	rawmidi.paths=*) only_paths=$(echo "${arg#rawmidi.paths=}" | tr , ' ') ;;
	esac
done
[ $tune = 1 ] && loads=audio-pro
lpid=
for load in $loads; do
	case $load in
	load)	/tests/load 900 hog & lpid=$! ; sleep 1 ;;
	audio*)	/tests/load 900 $load & lpid=$! ; sleep 1 ;;
	esac
	all=1
	case $load in audio*) all= ;; esac
	[ "$rows" = all ] || all=
	sched_all=; [ "$rows" = sched ] && case $load in audio*) ;; *) sched_all=1 ;; esac
	for m in drain close; do
		[ -n "$all" ] || break
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
	[ -n "$all" ] && [ -n "$mt" ] && report input_tstamp_err testdrv $load \
		"$(/tests/rt 20 /tests/tstamperr /dev/snd/midiC${mt}D0 $dbg/midi0 500 2000)"
	# CPU cost of input, plain and framed, in ns per byte (not us).
	if [ -n "$all" ] && [ -n "$mt" ]; then
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
		[ -n "$all" ] || kinds=
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
	if [ -n "$all" ] && [ -n "$mt" ]; then
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
	if [ -n "$all" ] && [ -n "$usbh" ] && [ -n "$usbg" ]; then
		rig_up
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
		rig_down
	fi
	# Sending at a time: framed output against sleeping in userspace at
	# SCHED_OTHER and at SCHED_FIFO, against the sequencer's real-time
	# queue, and against the floor (the test driver's own hrtimer, armed
	# like the release timer: no path can beat its lateness). The base
	# kernel has no framed output (schedout exits with 3): no figure for
	# it there. Path kernel-sleep: framed output whose writer sleeps past
	# the last frame instead of waiting in DRAIN while they go out (what
	# a waiting drainer costs the release). Path realtime-byte: the
	# kernel path's notes queued ahead (each 5 ms after its time, and one
	# a second after the last), and a clock byte at each time, written
	# then by the SCHED_FIFO 20 thread as a frame of type NOW, which goes
	# ahead of them; its lateness is the clock byte's, from its write().
	# Path alsa-lib: the kernel path's frames written through the patched
	# alsa-lib's snd_rawmidi_twrite() (/opt/alsa-rawmidi, where the guest
	# has it). Paths libremidi-sched and libremidi-now (issue #41): the
	# same notes through libremidi's midi_out (userspace/libremidi),
	# scheduled ahead with schedule_message() (framed output underneath),
	# or sent with send_message() by a SCHED_OTHER thread that sleeps to
	# each time; usb-libremidi-* the same through USB MIDI.
	# SR runs of each path, in turn (paths "kernel", "kernel-run2", ...):
	# the tables take the median of their p99s. The usb-* paths send the
	# same way through snd-usb-audio to the MIDI gadget, whose card stamps
	# each arrival (schedout HOST:GADGET).
	paths=
	[ -n "$mt" ] && paths="floor kernel kernel-sleep realtime-byte seq-queue user-other user-fifo"
	[ -n "$mt" ] && [ -x /tests/schedout-alsa ] && paths="$paths alsa-lib"
	lr=; [ -x /opt/alsa-rawmidi/bin/libremidi-sched ] && lr=1
	[ -n "$mt" ] && [ -n "$lr" ] && paths="$paths libremidi-sched libremidi-now"
	[ -n "$usbh" ] && [ -n "$usbg" ] &&
		paths="$paths usb-kernel usb-seq-queue usb-user-other usb-user-fifo"
	[ -n "$usbh" ] && [ -n "$usbg" ] && [ -n "$lr" ] &&
		paths="$paths usb-libremidi-sched usb-libremidi-now"
	# Path usb-aplaymidi: Debian's aplaymidi, at SCHED_OTHER as anyone
	# runs it, plays a MIDI file of the same notes (10 ms apart, across a
	# tempo change) through the sequencer to USB MIDI (guest/seqplay.sh);
	# each note's arrival is taken against the file's rhythm, its time 0
	# where the median note puts it (nothing reports when aplaymidi's
	# queue started).
	[ -n "$usbh" ] && [ -n "$usbg" ] && command -v aplaymidi >/dev/null &&
		paths="$paths usb-aplaymidi"
	# The ump-* paths: 64-bit MIDI 2.0 note ons to the MIDI 2.0 gadget's
	# UMP endpoint through snd-usb-audio (schedout ump:HOST:GADGET).
	[ -n "$umph" ] && [ -n "$umpg" ] &&
		paths="$paths ump-kernel ump-user-other ump-user-fifo"
	# Under the audio loads: the floor, framed output on each device, the
	# real-time application's way, the sequencer's queue (PipeWire's way
	# to a device), and libremidi's two ways.
	[ -n "$all" ] || [ -n "$sched_all" ] || paths=$(for p in $paths; do
		case $p in floor|kernel|realtime-byte|seq-queue|user-fifo|usb-kernel|usb-seq-queue|usb-aplaymidi|ump-kernel|*libremidi-*) printf '%s ' $p ;; esac
	done)
	[ -z "$only_paths" ] || paths=$(for p in $paths; do
		case " $only_paths " in *" $p "*) printf '%s ' $p ;; esac
	done)
	# The tuned run raises the interrupt threads; the release threads,
	# made by the first send of a device, print the priority they were
	# made with after one short send on each path.
	if [ $tune = 1 ]; then
		for p in $paths; do
			schedout_run "$p" 3 >/dev/null 2>&1
		done
		tune_up
		rig_up
		print_prios tuned
	fi
	[ -n "$mt" ] && cyclic $load
	# The rig's own cost of a cross-CPU wake-up (guest/wakelat.c): a
	# thread on vCPU 0 wakes one blocked on vCPU 1, and one on its own
	# vCPU, beside the same load. Every path that wakes a thread on the
	# other vCPU (a writer kicking the release thread, a timer on one
	# vCPU waking a task on the other) pays the first.
	if [ -n "$mt" ]; then
		report wake_latency cross-cpu $load "$(/tests/rt 20 /tests/wakelat 0 1 300)"
		report wake_latency same-cpu $load "$(/tests/rt 20 /tests/wakelat 0 0 300)"
	fi
	r=1
	while [ -n "$paths" ] && [ $r -le "$SR" ]; do
		sfx=; [ $r -gt 1 ] && sfx=-run$r
		for p in $paths; do
			case $p in usb-*|ump-*) rig_up ;; *) [ $tune = 1 ] || rig_down ;; esac
			out=$(schedout_run $p $SN)
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
	[ $tune = 1 ] || rig_down
	if [ -n "$lpid" ]; then
		kill -TERM $lpid
		wait
		lpid=
	fi
done
print_prios end
echo "=== BENCH DONE"
