#!/bin/sh
# seqplay.sh HOST GADGET [COUNT]: a real sequencer client's timing, through
# USB MIDI. Debian's aplaymidi plays a Standard MIDI File of COUNT note
# ons, one every 10 ms from 200 ms on: 96 ticks a quarter at 1 ms a tick,
# 10 ticks apart, then, after a tempo event halfway that halves the
# tempo, 5 ticks apart at 2 ms a tick. It sends them to port 0 of the
# sequencer client of snd-usb-audio's card HOST of the MIDI gadget;
# /tests/tread reads the gadget's own card GADGET through alsa-lib's
# snd_rawmidi_tread(), each note with the time its frame arrived, stamped
# by the kernel (not when the reader woke up to read it, as Debian's
# amidi -T would stamp it). Prints, in microseconds, how far each note arrived from
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

/tests/tread "hw:$gadget,0" $((3 * count)) > "$out" 2>&1 &
reader=$!
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q ready "$out" && break; sleep 0.2; done
aplaymidi -p "$client:0" "$f" || { kill $reader; echo "aplaymidi failed" >&2; exit 2; }
wait $reader || { echo "tread: $(tail -n 1 "$out")" >&2; exit 1; }

# "SEC.NSEC B1 B2 ...", a line a frame: a note is stamped with the frame
# that holds its first byte (a frame may hold several notes, or end
# inside one).
awk -v n="$count" '
	BEGIN { k = 0; m = 0; msg = "" }
	$1 != "ready" {
		split($1, t, ".")
		sub(/^0+/, "", t[2])	# busybox awk reads 0... as octal
		at = t[1] * 1e9 + t[2]
		for (i = 2; i <= NF; i++) {
			if (!m)
				first = at
			msg = msg (m ? " " : "") $i
			if (++m < 3)
				continue
			if (msg != sprintf("%02X %02X 40", 144 + k % 16, k % 128)) {
				printf "note %d: got %s\n", k, msg > "/dev/stderr"
				exit 1
			}
			d[k] = first - k * 1e7	# where time 0 of the file falls by this note
			k++; m = 0; msg = ""
		}
	}
	END {
		if (k != n) {
			printf "%d of %d notes arrived\n", k, n > "/dev/stderr"
			exit 1
		}
		for (i = 0; i < n; i++) printf "%.0f\n", d[i]
	}' "$out" > "$out.u" || exit 1
sort -n "$out.u" > "$out.d"
[ "$(wc -l < "$out.d")" = "$count" ] || exit 1
# Each note against the file's time 0 where the median note puts it: a
# note late or early against the others, not against the first one.
# (sorted already: the same shift for each)
awk -v m="$(sed -n "$((count / 2 + 1))p" "$out.d")" '{ printf "%.1f\n", ($1 - m) / 1000 }' "$out.d" |
	awk -f /tests/summary.awk
