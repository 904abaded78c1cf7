#!/bin/sh
# Real clients against the running kernel, as TAP: Debian's amidi (plain
# bytes, and -T which stamps in userspace) and alsa-lib's snd_rawmidi_tread()
# (kernel framing through alsa-lib), reading virmidi port 1 while amidi
# writes to port 0. The test connects the two ports through the sequencer.
# Then Debian's aplaymidi playing a MIDI file through the sequencer to the
# USB MIDI gadget (guest/seqplay.sh).
# That one needs the USB MIDI loopback, which the stable trees' test
# kernels do not have: there it is not planned (a skip would count as a
# device missing from the guest).
. /tests/cards.sh
card=$(grep -l VirMIDI /proc/asound/card*/id 2>/dev/null | head -n 1)
card=${card#/proc/asound/card}; card=${card%/id}
usbh=$(card_named "USB-Audio - MIDI Gadget")
usbg=$(card_of "MIDI Gadget")
plan=4; [ -n "$usbh" ] && [ -n "$usbg" ] && plan=5
echo "TAP version 13"
echo "1..$plan"
if [ -z "$card" ]; then
	i=1; while [ $i -le $plan ]; do echo "ok $i # SKIP no virmidi card"; i=$((i + 1)); done
	exit 0
fi
msg="90 3C 64 80 3C 40 B0 07 64"
out=/tmp/clients.$$

n=1
check() {	# check NAME: compare $out with the expected text in $out.want
	if cmp -s "$out" "$out.want"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# got:  /' "$out"; sed 's/^/# want: /' "$out.want"
	fi
	n=$((n + 1))
}

# The sequencer client of each virmidi port, from /proc/asound/seq/clients.
seq_client() {
	awk -v want="\"Virtual Raw MIDI $card-$1\"" \
		'$1 == "Client" && index($0, want) { print $2 + 0 }' /proc/asound/seq/clients
}
src=$(seq_client 0):0
dst=$(seq_client 1):0
if aconnect "$src" "$dst"; then
	echo "ok $n - aconnect $src $dst"
else
	echo "not ok $n - aconnect $src $dst"
fi
n=$((n + 1))

# snd_rawmidi_tread(): kernel framing through alsa-lib. It runs first: the
# plain readers after it must get bytes again, not its frames.
/tests/tread "hw:$card,1" 9 > "$out.raw" 2>&1 &
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q ready "$out.raw" && break; sleep 0.2; done
amidi -p "hw:$card,0" -S "$msg"
wait
{ cat "$out.raw"; echo; } | sed '/^$/d; s/^/# /'
grep -v ready "$out.raw" | awk '$1 > 0 { for (i = 2; i <= NF; i++) print $i }' > "$out"
echo $msg | tr ' ' '\n' > "$out.want"
check "snd_rawmidi_tread returns the bytes with nonzero kernel timestamps"

# amidi -d: a plain reader sees exactly the bytes sent.
amidi -p "hw:$card,1" -d -t 3 > "$out.raw" 2>/dev/null &
sleep 1	# amidi has started reading by then (it prints nothing to wait for)
amidi -p "hw:$card,0" -S "$msg"
wait
{ cat "$out.raw"; echo; } | sed '/^$/d; s/^/# /'
tr -d ' \n' < "$out.raw" | fold -w 2 > "$out"; echo >> "$out"
echo $msg | tr ' ' '\n' > "$out.want"
check "amidi -d, after the framing reader, receives the bytes amidi -S sent"

# amidi -T monotonic: each dumped message carries a timestamp.
amidi -p "hw:$card,1" -d -T monotonic -t 3 > "$out.raw" 2>/dev/null &
sleep 1	# amidi has started reading by then (it prints nothing to wait for)
amidi -p "hw:$card,0" -S "$msg"
wait
grep -c '^[0-9]*\.[0-9]*) ' "$out.raw" > "$out"
echo 3 > "$out.want"
check "amidi -T monotonic stamps each of the 3 messages"
{ cat "$out.raw"; echo; } | sed '/^$/d; s/^/# /'

aconnect -d "$src" "$dst"

# aplaymidi: 100 notes 10 ms apart, across a tempo change, through the
# sequencer to snd-usb-audio's card of the MIDI gadget, stamped where the
# gadget receives them: each arrives, in order, within 20 ms of its time
# in the file, time 0 put where the median note puts it (a generous
# bound: make bench measures).
if [ $plan = 4 ]; then
	echo "# aplaymidi through USB MIDI: not planned, no USB MIDI loopback"
elif ! command -v aplaymidi >/dev/null; then
	echo "ok $n # SKIP no aplaymidi in the guest"
elif /tests/seqplay.sh "$usbh" "$usbg" 100 > "$out.sp" 2> "$out.sperr" &&
	r=$(head -n 1 "$out.sp") &&
	echo "$r" | awk 'NF == 5 && $1 == 100 && $2 > -20000 && $5 < 20000 { ok = 1 } END { exit !ok }'; then
	echo "ok $n - aplaymidi plays a MIDI file in order and on time through USB MIDI"
	echo "# n min median p99 max (us): $r"
else
	echo "not ok $n - aplaymidi plays a MIDI file in order and on time through USB MIDI"
	head -n 1 "$out.sp" | sed 's/^/# /'
	sed 's/^/# /' "$out.sperr"
fi
exit 0
