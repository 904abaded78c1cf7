#!/bin/sh
# The benchmark run (rawmidi.run=bench): each measurement idle and under
# load (guest/load.c), printed as
#   BENCH measure,path,load,n,min_us,median_us,p99_us,max_us
# The measuring programs run at SCHED_FIFO 20, above the load's hogs.
N=${N:-50}
chrt -f -p 30 $$ >/dev/null	# above the hogs, so the run goes on under load
card_of() { grep -l "$1" /proc/asound/card*/id 2>/dev/null | head -n 1 | sed 's|.*/card||; s|/id||'; }
vm=$(card_of VirMIDI)
uart=$(card_of Serial)

measure() {	# measure path load device
	r=$(chrt -f 20 /tests/drainlat "$1" "$4" "$N") || { echo "BENCH-ERROR $1 $2 $3"; return; }
	set -- "$1" "$2" "$3" $r
	echo "BENCH $1,$2,$3,$4,$5,$6,$7,$8"
}

for load in idle load; do
	if [ $load = load ]; then
		/tests/load 900 &
		lpid=$!
		sleep 1
	fi
	for m in drain close; do
		[ -n "$vm" ] && measure $m virmidi $load "/dev/snd/midiC${vm}D0"
		[ -n "$uart" ] && measure $m u16550 $load "/dev/snd/midiC${uart}D0"
	done
	if [ $load = load ]; then
		kill -TERM $lpid
		wait
	fi
done
echo "=== BENCH DONE"
