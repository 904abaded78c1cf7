#!/bin/sh
# userspace.sh [alsa-lib|amidi]: the patched alsa-lib and amidi of
# userspace/ (installed in /opt/alsa-rawmidi, beside Debian's, used with
# LD_LIBRARY_PATH for these runs only) against the running kernel and its
# rawmidi test driver, as TAP. The kernel's rawmidi protocol decides what
# is expected: from 2.0.6 on, framed output works and leaves at its
# times; below, every new call must fail with -ENOTSUP and change
# nothing, and amidi falls back to what it did before. The first comment
# says which case was tested.
# Without an argument (rawmidi.run=userspace), both, between the section
# markers guest/init prints.
if [ $# = 0 ]; then
	for s in alsa-lib amidi; do
		echo "=== BEGIN $s"
		"$0" $s 2>&1
		echo "=== END $s rc=$?"
	done
	exit 0
fi
what=$1
. /tests/cards.sh
US=/opt/alsa-rawmidi
run() { LD_LIBRARY_PATH=$US/lib "$@"; }
echo "TAP version 13"
case $what in
alsa-lib) plan=21 ;;
amidi) plan=5 ;;
*) echo "1..0 # unknown section $what"; exit 1 ;;
esac
echo "1..$plan"

skip_all() {
	i=1
	while [ $i -le $plan ]; do echo "ok $i # SKIP $1"; i=$((i + 1)); done
	exit 0
}
[ -x $US/bin/amidi ] || skip_all "no $US (scripts/userspace.sh build)"
card=$(grep -l '^MIDItest$' /proc/asound/card*/id 2>/dev/null | head -n 1)
card=${card#/proc/asound/card}; card=${card%/id}
[ -n "$card" ] || skip_all "no rawmidi test card (snd-miditest)"
dev=/dev/snd/midiC${card}D0
proto=$(/tests/mtctl pversion $dev) || skip_all "no rawmidi protocol version"
case $proto in
2.0.[0-5]) framed=0; echo "# kernel rawmidi protocol $proto: no framed output; testing that the new calls are refused and the old ways kept" ;;
*) framed=1; echo "# kernel rawmidi protocol $proto: testing framed output" ;;
esac

n=1
tmp=/tmp/userspace.$$
# result NAME CMD...: one TAP result, the output of CMD as comments
result() {
	name=$1; shift
	if "$@" > $tmp.out 2>&1; then r="ok"; else r="not ok"; fi
	sed 's/^/# /' $tmp.out
	echo "$r $n - $name"
	n=$((n + 1))
}

# check_schedule LIST: LIST has a line "SEC.NSEC) B1 B2 B3" (CLOCK_MONOTONIC)
# a message; the transmit log must match it with the selftest's bounds
check_schedule() {
	sed -n 's/^\([0-9]*\)\.\([0-9]*\)) /\1\2 /p' "$1" | /tests/mtctl check 3
}

if [ $what = alsa-lib ]; then
	/tests/mtctl reset
	run /tests/ustwrite "$card" "$proto" 1
	n=10
	# alsa-lib's own test program
	# (twrite a message at a time, and -v: twritev, all in one call)
	rawmidi_twrite_test() {
		for v in "" -v; do
			/tests/mtctl reset || return 1
			# shellcheck disable=SC2086
			run $US/bin/rawmidi_twrite -D "hw:$card,0" -n 10 -i 10 -d 50 -c 2 $v > $tmp.tw
			rc=$?
			cat $tmp.tw
			if [ $framed = 1 ]; then
				[ $rc = 0 ] || return 1
				# "msg I SEC.NSEC": note 0x30 + I at that CLOCK_MONOTONIC time
				sed -n 's/^msg \([0-9]*\) \([0-9]*\)\.\([0-9]*\)$/\2\3 \1/p' $tmp.tw |
					awk '{ printf "%s 90 %x 00\n", $1, 48 + $2 }' | /tests/mtctl check 3 || return 1
			else
				[ $rc = 77 ] && grep -q 'not supported (-ENOTSUP); nothing changed or sent' $tmp.tw ||
					return 1
			fi
		done
	}
	if [ $framed = 1 ]; then
		result "test/rawmidi_twrite: its checks pass and its messages leave at their times (twrite, and twritev with -v)" rawmidi_twrite_test
	else
		result "test/rawmidi_twrite: reports no framed output (exit 77), nothing changed or sent (also -v)" rawmidi_twrite_test
	fi
	# alsa-lib's UMP test, from snd-usb-audio's UMP endpoint of the MIDI
	# 2.0 gadget (f_midi2 on dummy_hcd) to the gadget's own endpoint
	ump_twrite_test() {
		/tests/ump-gadget.sh || { echo "no MIDI 2.0 gadget"; return 1; }
		h=$(card_named "USB-Audio - MIDI 2.0 Gadget")
		g=$(card_named "f_midi2 - MIDI 2.0 Gadget")
		run $US/bin/ump_twrite -o "hw:$h,0" -i "hw:$g,0" -n 30 -g 10 -d 50 > $tmp.ut
		rc=$?
		cat $tmp.ut
		if [ $framed = 1 ]; then
			# every packet whole, in order, none early; under 50 ms late
			[ $rc = 0 ] && [ "$(grep -c '^pkt ' $tmp.ut)" -ge 30 ] &&
				awk '/^pkt / && $3 >= 50000 { bad = 1 } END { exit bad }' $tmp.ut
		else
			[ $rc = 77 ] && grep -q 'not supported (-ENOTSUP); nothing sent' $tmp.ut
		fi
	}
	if [ $framed = 1 ]; then
		result "test/ump_twrite: UMP packets whole, in order, at their times (snd_ump_twrite, snd_ump_tread)" ump_twrite_test
	else
		result "test/ump_twrite: reports no framed UMP output (exit 77), nothing sent" ump_twrite_test
	fi

	# ---- libremidi (userspace/libremidi, issue #41) ----
	# guest/libremidi-sched: notes and a 21-byte SysEx scheduled ahead
	# through libremidi's midi_out, then "all notes off" sent at once.
	# With framed output each leaves at its time (the test driver's
	# transmit log, mtctl check); without, libremidi sends at once and
	# warns once, and each message leaves after the call that sent it.
	# libs=debian: Debian's libasound, which has no snd_rawmidi_twrite().
	libs=
	libremidi_sched() {
		want=$1; shift
		if [ "$libs" = debian ]; then
			$US/bin/libremidi-sched "$@" > $tmp.ls
		else
			run $US/bin/libremidi-sched "$@" > $tmp.ls
		fi
		rc=$?
		cat $tmp.ls
		[ $rc = 0 ] || return 1
		if [ "$want" = framed ]; then
			grep -q '^# framed output' $tmp.ls && ! grep -q '^warning:' $tmp.ls
		else
			[ "$(grep -c '^warning:' $tmp.ls)" = 1 ] && grep -q "^warning: .*$want" $tmp.ls
		fi
	}
	# on the rawmidi test driver: the bytes that left and when
	libremidi_mt() {
		/tests/mtctl reset || return 1
		libremidi_sched "$@" -o "$card,0" -n 20 -g 10 -d 50 || return 1
		# sent at once, they queue behind each other on the 31250 baud
		# wire (about 26 ms for the last): no bound on their median
		q=; [ "$1" = framed ] || q=queued
		sed -n 's/^msg //p' $tmp.ls | /tests/mtctl check 3 $q
	}
	if [ ! -x $US/bin/libremidi-sched ]; then
		for c in 10 11 12 13 14 15 16 17 18 19; do echo "ok $c # SKIP no libremidi-sched (scripts/userspace.sh build)"; done
		n=20
	else
		if [ $framed = 1 ]; then
			result "libremidi: schedule_message() queues notes and a SysEx at their times (framed output), send_message() after them" libremidi_mt framed
			result "libremidi: Relative timestamps, each from the previous message" libremidi_mt framed -r
		else
			result "libremidi: schedule_message() sends at once, warns once (kernel without framed output)" libremidi_mt "no framed output"
			result "libremidi: Relative timestamps, sent at once (kernel without framed output)" libremidi_mt "no framed output" -r
		fi
		# the same binary loads whichever libasound it finds
		libs=debian
		result "libremidi with Debian's libasound (no snd_rawmidi_twrite): sent at once, one warning" \
			libremidi_mt "libasound has no snd_rawmidi_twrite"
		libs=
		# USB MIDI 1.0: snd-usb-audio's port of the MIDI gadget; the
		# gadget's own port reads what arrives, with the kernel's stamps
		libremidi_usb() {
			h=$(card_named "USB-Audio - MIDI Gadget")
			g=$(card_of "MIDI Gadget")
			[ -n "$h" ] && [ -n "$g" ] || { echo "no MIDI gadget"; return 1; }
			libremidi_sched "$@" -o "$h,0" -i "$g,0" -n 20 -g 10 -d 100 -l 500
		}
		# MIDI 2.0: snd-usb-audio's UMP endpoint of the MIDI 2.0 gadget;
		# the gadget's legacy MIDI 1.0 port (device 1) reads. Below
		# 2.0.6 what arrives is not checked: a kernel without the
		# USB posting (0-usb-gadget), 7.3.4 say, garbles packets
		# across requests in f_midi2.
		libremidi_ump() {
			/tests/ump-gadget.sh || { echo "no MIDI 2.0 gadget"; return 1; }
			h=$(card_named "USB-Audio - MIDI 2.0 Gadget")
			g=$(card_named "f_midi2 - MIDI 2.0 Gadget")
			if [ $framed = 1 ]; then
				libremidi_sched "$@" -u -o "$h,0" -i "$g,1" -n 20 -g 10 -d 100 -l 500
			else
				libremidi_sched "$@" -u -o "$h,0" -n 20 -g 10 -d 100
			fi
		}
		if [ $framed = 1 ]; then
			result "libremidi: schedule_message() on USB MIDI (MIDI gadget): all arrive, in order, none early, under 500 ms late" libremidi_usb framed
			result "libremidi: schedule_ump() on a USB MIDI 2.0 UMP endpoint (f_midi2): all arrive, in order, none early, under 500 ms late" libremidi_ump framed
		else
			result "libremidi: schedule_message() on USB MIDI (MIDI gadget): all arrive, sent at once, one warning" libremidi_usb "no framed output"
			result "libremidi: schedule_ump() on a USB MIDI 2.0 UMP endpoint (f_midi2): sent at once, one warning" libremidi_ump "no framed output"
		fi
		# The ALSA raw output's options (libremidi-sched opt, on the
		# test driver): the default port is what upstream opens; with
		# framed_output, a full queue, drain(), close_timeout and
		# Relative times after a pause; times without a clock
		libremidi_opt() {
			/tests/mtctl reset || return 1
			run $US/bin/libremidi-sched opt "$1" "$card" "$2" > $tmp.lo
			rc=$?
			cat $tmp.lo
			[ $rc = 0 ]
		}
		result "libremidi: the default output as upstream opens it: send_message() returns once the driver has the bytes, schedule_message() sends at once, no warning" libremidi_opt sync plain
		if [ $framed = 1 ]; then
			result "libremidi: framed_output: a message without room is refused whole (try again), drain() returns once the queue has left" libremidi_opt full framed
			result "libremidi: framed_output: close_port() lets a message due in 100 ms leave and discards one due in 2 s" libremidi_opt close framed
			result "libremidi: framed_output: a Relative time after a pause counts from the call" libremidi_opt relative framed
		else
			result "libremidi: framed_output without framed output: all sent at once, one warning, drain() returns" libremidi_opt full plain
			result "libremidi: framed_output without framed output: close_port() after both were sent at once" libremidi_opt close plain
			result "libremidi: framed_output without framed output: Relative times sent at once" libremidi_opt relative plain
		fi
		result "libremidi: AudioFrame and Custom timestamps: sent at once, one warning each, none lost" libremidi_opt clockless any
	fi
	# ---- end libremidi ----
fi

if [ $what = amidi ]; then
	# 1. -T monotonic: the time stamps are the kernel's, taken on arrival,
	# although amidi is stopped when the messages arrive: input framing
	# exists since protocol 2.0.2, so on every kernel tested here.
	amidi_tstamp() {
		/tests/mtctl reset || return 1
		# not through run(): $! must be amidi itself, for kill -STOP
		LD_LIBRARY_PATH=$US/lib $US/bin/amidi -p "hw:$card,0" -d -T monotonic -t 3 > $tmp.dump 2>&1 &
		pid=$!
		sleep 1	# amidi reads by then
		kill -STOP $pid
		/tests/mtctl inject 20 100 3 90 3c 64 > $tmp.inj || { kill -CONT $pid; return 1; }
		sleep 0.5
		kill -CONT $pid
		wait $pid
		echo >> $tmp.dump	# amidi ends its last line only with the next
		echo "injected (ns):" $(cat $tmp.inj)
		echo "amidi printed:"; cat $tmp.dump
		# each message stamped 0 to 5 ms after its injection; read late
		# (after SIGCONT) it would be 300 ms and more
		sed -n 's/^\([0-9]*\)\.\([0-9]*\)) 90 3C 64$/\1\2/p' $tmp.dump > $tmp.got
		[ "$(wc -l < $tmp.got)" = 3 ] || { echo "not 3 messages"; return 1; }
		awk 'NR == FNR { inj[FNR] = $1; next }
			{ d = $1 - inj[FNR]; printf "stamped %d us after injection\n", d / 1000
			  if (d < 0 || d >= 5000000) bad = 1 } END { exit bad }' $tmp.inj $tmp.got
	}
	result "amidi -T monotonic: input stamped by the kernel on arrival" amidi_tstamp

	# 2. --schedule: ten messages 10 ms apart leave at their times
	# (framed output), or amidi says it sends them itself
	amidi_schedule() {
		/tests/mtctl reset || return 1
		i=0; : > $tmp.sched
		while [ $i -lt 10 ]; do
			printf '0.%02d 90 %X 40\n' $((5 + i)) $((48 + i)) >> $tmp.sched
			i=$((i + 1))
		done
		run $US/bin/amidi -p "hw:$card,0" -T monotonic -e $tmp.sched > $tmp.sent 2> $tmp.err
		rc=$?
		cat $tmp.sent $tmp.err
		[ $rc = 0 ] || return 1
		if [ $framed = 1 ]; then
			! grep -q 'no framed output' $tmp.err || return 1
		else
			grep -q 'no framed output here: sending at the times from user space' $tmp.err || return 1
		fi
		check_schedule $tmp.sent
	}
	if [ $framed = 1 ]; then
		result "amidi -e: scheduled messages leave at their times (framed output)" amidi_schedule
	else
		result "amidi -e: scheduled messages leave at their times (sent from user space)" amidi_schedule
	fi

	# 3. a schedule going backwards is refused before anything is sent
	amidi_backwards() {
		/tests/mtctl reset || return 1
		printf '0.1 90 3C 40\n0.05 80 3C 40\n' > $tmp.bad
		run $US/bin/amidi -p "hw:$card,0" -e $tmp.bad > $tmp.out2 2>&1 && return 1
		cat $tmp.out2
		grep -q 'times must not go backwards' $tmp.out2 || return 1
		sleep 0.2
		[ "$(/tests/mtctl sent)" = 0 ]
	}
	result "amidi -e: a schedule going backwards is refused, nothing sent" amidi_backwards

	# 4. -T on a driver that hands over one byte at a time: each byte
	# takes a 32-byte frame, so the 4096-byte default buffer would hold
	# 128 bytes of a SysEx dump; amidi makes it 32 times as large. 193
	# bytes arrive while amidi is stopped: none may be lost.
	amidi_sysex_room() {
		/tests/mtctl reset || return 1
		LD_LIBRARY_PATH=$US/lib $US/bin/amidi -p "hw:$card,0" -d -T monotonic -t 2 > $tmp.sx 2>&1 &
		pid=$!
		sleep 1
		grep -A3 'Input 0' /proc/asound/card$card/midi0 | grep 'Buffer size' > $tmp.buf
		kill -STOP $pid
		ok=1
		/tests/mtctl inject 5 1 1 f0 > /dev/null || ok=0
		for i in 1 2 3; do
			/tests/mtctl inject 5 1 64 10 > /dev/null || ok=0
		done
		kill -CONT $pid
		wait $pid
		echo "input buffer:" $(cat $tmp.buf)
		grep -q 'Buffer size *: *131072$' $tmp.buf || { echo "not 131072 bytes"; ok=0; }
		got=$(tr -s ' \n' '\n\n' < $tmp.sx | grep -c '^10$')
		echo "amidi printed $got of 192 data bytes"
		[ "$got" = 192 ] || head -c 400 $tmp.sx
		[ $ok = 1 ] && [ "$got" = 192 ]
	}
	result "amidi -T: a 193-byte SysEx arriving a byte at a time while amidi is stopped fits the enlarged buffer" amidi_sysex_room

	# 5. --send-clock: MIDI clock at 600 beats a minute (a clock byte
	# every 4.2 ms) beside a schedule of a 100-byte SysEx (32 ms at 31250
	# baud), a note and another 100-byte SysEx, the last message: Start
	# first, clock bytes inside the first SysEx, both SysEx intact, the
	# note between them, and Stop last, once the last SysEx has left (the
	# clock ends at its time, when little of it is in the driver's FIFO:
	# a Stop that did not wait would go inside it); without framed output
	# amidi refuses, nothing sent
	amidi_clock() {
		/tests/mtctl reset || return 1
		sx="F0"; sx2="F0"; i=1
		while [ $i -lt 99 ]; do
			sx="$sx $(printf '%02X' $((i & 0x7f)))"
			sx2="$sx2 $(printf '%02X' $((127 - i)))"
			i=$((i + 1))
		done
		printf '0.05 %s F7\n0.15 90 3C 40\n0.2 %s F7\n' "$sx" "$sx2" > $tmp.clk
		run $US/bin/amidi -p "hw:$card,0" -e $tmp.clk --send-clock=600 > $tmp.cout 2>&1
		rc=$?
		cat $tmp.cout
		if [ $framed = 0 ]; then
			[ $rc != 0 ] && grep -q 'send-clock needs framed output' $tmp.cout &&
				[ "$(/tests/mtctl sent)" = 0 ]
			return
		fi
		[ $rc = 0 ] || return 1
		/tests/mtctl log > $tmp.clog
		# (FE: the active sensing byte that amidi's close sends)
		awk -v want="$sx F7 $sx2 F7" '
			BEGIN { nsx = 0 }
			$2 == "FE" { next }
			!seen++ && $2 != "FA" { print "first byte " $2 ", not FA"; bad = 1 }
			{ last = $2 }
			$2 == "F8" { clocks++; if (insx) inside[nsx]++; next }
			$2 == "FA" || $2 == "FC" { next }
			$2 == "F0" { insx = 1; nsx++ }
			insx { got = got (got == "" ? "" : " ") $2 }
			$2 == "F7" { insx = 0 }
			!insx && $2 != "F7" { rest = rest " " $2; if (nsx != 1) apart = 1 }
			END {
				printf "%d clock bytes, %d of them inside the first SysEx; between the two:%s\n",
					clocks, inside[1], rest
				if (last != "FC") { print "last byte " last ", not FC"; bad = 1 }
				if (clocks < 40) { print "too few clock bytes"; bad = 1 }
				if (!inside[1]) { print "no clock byte inside the first SysEx"; bad = 1 }
				if (got != want) { print "the SysEx arrived as " got; bad = 1 }
				if (rest != " 90 3C 40" || apart) { print "not the note between them"; bad = 1 }
				exit bad
			}' $tmp.clog && return
		# the last bytes, with their times (ns), to see why
		echo "transmit log, the last bytes:"
		tail -n 12 $tmp.clog
		return 1
	}
	if [ $framed = 1 ]; then
		result "amidi --send-clock: clock bytes (write_now) inside a SysEx of the schedule, Start first, Stop last once the schedule has left, the SysEx intact" amidi_clock
	else
		result "amidi --send-clock: refused without framed output, nothing sent" amidi_clock
	fi
fi
rm -f $tmp.*
exit 0
