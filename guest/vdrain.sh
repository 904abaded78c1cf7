#!/bin/sh
# run=vdrain: how long DRAIN and close() of a virmidi port take after a
# 3-byte write, from a SCHED_FIFO 20 process, 50 times in a row, idle and
# beside guest/load's hog (a SCHED_FIFO 10 busy loop on each CPU, 8 pairs
# of SCHED_OTHER processes passing messages through pipes), three runs of
# each. The port has no subscriber, so the bytes are discarded where
# virmidi sends them: the figure is the wait for that code to run. The
# virmidi patch of 8-seq-input quotes it, one boot of each kernel.
. /tests/cards.sh
vm=$(card_of VirMIDI)
[ -n "$vm" ] || { echo "no virmidi card"; exit 1; }
dev=/dev/snd/midiC${vm}D0
echo "=== vdrain: what n min median p99 max (us)"
for load in idle hog; do
	lpid=
	if [ $load = hog ]; then
		/tests/load 120 hog & lpid=$!
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
