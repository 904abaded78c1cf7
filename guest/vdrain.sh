#!/bin/sh
# run=vdrain: how long DRAIN and close() of a virmidi port take after a
# 3-byte write, from a SCHED_FIFO 20 process, 50 times in a row, idle,
# beside guest/load's "other" load (a SCHED_OTHER busy loop on each CPU,
# 8 pairs of SCHED_OTHER processes passing messages through pipes) and
# beside its hog (the same with the busy loops at SCHED_FIFO 10), three
# runs of each. The port has no subscriber, so the bytes are discarded
# where virmidi's output work sends them: the figure is the wait for that
# work to run. The 8-seq-input cover quotes it.
. /tests/cards.sh
vm=$(card_of VirMIDI)
[ -n "$vm" ] || { echo "no virmidi card"; exit 1; }
dev=/dev/snd/midiC${vm}D0
echo "=== vdrain: what n min median p99 max (us)"
for load in idle other hog; do
	lpid=
	if [ $load != idle ]; then
		/tests/load 120 $load & lpid=$!
		sleep 1
	fi
	for _ in 1 2 3; do
		for m in drain close; do
			echo "$m $load $(/tests/rt 20 /tests/drainlat $m "$dev" 50)"
		done
	done
	[ -z "$lpid" ] || { kill "$lpid"; wait "$lpid"; }
done
echo "=== vdrain done"
