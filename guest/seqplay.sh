#!/bin/sh
# seqplay.sh HOST GADGET [COUNT]: a real sequencer client's timing, through
# USB MIDI. Debian's aplaymidi plays a Standard MIDI File of COUNT note
# ons, one every 10 ms from 200 ms on: 96 ticks a quarter at 1 ms a tick,
# 10 ticks apart, then, after a tempo event halfway that halves the
# tempo, 5 ticks apart at 2 ms a tick. It sends them to port 0 of the sequencer client of
# snd-usb-audio's card HOST of the MIDI gadget; Debian's amidi -T
# monotonic reads the gadget's own card GADGET, whose framed input stamps
# each arrival. Prints, in microseconds, how far each note arrived from
# its time in the file, with the file's time 0 put where the median note
# puts it (the queue's start is aplaymidi's, and nothing reports it), as
# "n min median p99 max" and SAMPLES (as guest/schedout.c does). Exits
# with 1 if a note is missing or out of order.
host=$1 gadget=$2 count=${3:-100}
f=/tmp/seqplay.mid out=/tmp/seqplay.out
[ -n "$host" ] && [ -n "$gadget" ] || { echo "usage: seqplay.sh HOST GADGET [COUNT]" >&2; exit 2; }

# The file, byte by byte as octal escapes for printf.
smf() {
awk -v n="$count" 'function b(x) { s = s sprintf("\\%03o", x) }
BEGIN {
	half = int(n / 2)
	b(0); b(255); b(81); b(3); b(1); b(119); b(0)		# tempo 96000 us a quarter
	for (k = 0; k < n; k++) {
		if (k == half) {				# tempo 192000 us a quarter
			b(0); b(255); b(81); b(3); b(2); b(238); b(0)
		}
		# the first note after 200 ticks (two bytes of delta time):
		# aplaymidi has queued it and those after it by then
		if (k == 0) {
			b(129); b(72)
		} else {
			b(k < half ? 10 : 5)
		}
		b(144 + k % 16); b(k % 128); b(64)
	}
	b(10); b(255); b(47); b(0)				# end of track
	len = length(s) / 4
	printf "MThd\\000\\000\\000\\006\\000\\000\\000\\001\\000\\140MTrk"
	printf "\\%03o\\%03o\\%03o\\%03o%s", int(len / 16777216) % 256, int(len / 65536) % 256,
		int(len / 256) % 256, len % 256, s
}'
}
printf "$(smf)" > "$f"

# The sequencer client of a card's rawmidi device (snd-seq-midi): the
# first of the card's four clients.
client=$((16 + 4 * host))
grep -q "^Client *$client : " /proc/asound/seq/clients ||
	{ echo "no sequencer client $client for card $host" >&2; exit 2; }

amidi -p "hw:$gadget,0" -d -T monotonic -t 2 > "$out" 2>/dev/null &
reader=$!
sleep 1	# amidi has started reading by then (it prints nothing to wait for)
aplaymidi -p "$client:0" "$f" || { kill $reader; echo "aplaymidi failed" >&2; exit 2; }
wait $reader

awk -v n="$count" '
	BEGIN { k = 0 }
	/\)/ {
		split($1, t, /[.)]/)
		sub(/^0+/, "", t[2])	# busybox awk reads 0... as octal
		at = t[1] * 1e9 + t[2]
		# amidi prints the bytes of a message as one word: 903C40
		if ($2 != sprintf("%02X%02X40", 144 + k % 16, k % 128)) {
			printf "note %d: got %s\n", k, $2 > "/dev/stderr"
			bad = 1
			exit 1
		}
		d[k] = at - k * 1e7	# where time 0 of the file falls by this note
		k++
	}
	END {
		if (bad)
			exit 1
		if (k != n) {
			printf "%d of %d notes arrived\n", k, n > "/dev/stderr"
			exit 1
		}
		for (i = 0; i < n; i++) printf "%.0f\n", d[i]
	}' "$out" | sort -n > "$out.d" || exit 1
[ "$(wc -l < "$out.d")" = "$count" ] || exit 1
# Each note against the file's time 0 where the median note puts it: a
# note late or early against the others, not against the first one.
awk -v m="$(sed -n "$((count / 2 + 1))p" "$out.d")" '{ printf "%.1f\n", ($1 - m) / 1000 }' "$out.d" > "$out.err"
sort -n "$out.err" | awk -f /tests/summary.awk
