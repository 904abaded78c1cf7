#!/bin/sh
# run=repeat: run chosen kselftest cases several times in one boot, for a
# patch's before/after figures. The kernel command line names them:
#   rawmidi.prog=rawmidi-usb-test rawmidi.cases=ump.a,ump_midi1.b
#   rawmidi.times=10
# Each run prints its results and its TH_LOG lines (the figures a case
# logs). The before/after runs of 3-usb-midi patch 1 (RESULTS.md) were
#   rawmidi.cases=usb.framed_burst_under_rt_hog,usb.drain_and_close_under_rt_hog
#   rawmidi.times=5
# on kernels without PREEMPT_RT (the cases skip on PREEMPT_RT).
prog=rawmidi-usb-test cases='' times=10
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	rawmidi.prog=*) prog=${arg#rawmidi.prog=} ;;
	rawmidi.cases=*) cases=${arg#rawmidi.cases=} ;;
	rawmidi.times=*) times=${arg#rawmidi.times=} ;;
	esac
done
args=
for c in $(echo "$cases" | tr ',' ' '); do args="$args -r $c"; done
i=1
while [ "$i" -le "$times" ]; do
	for p in "$prog" "$prog-32"; do
		echo "=== repeat run $i $p"
		# shellcheck disable=SC2086
		"/tests/kselftest/$p" $args 2>&1 | grep -E '^(ok|not ok) |^# .*\.c:[0-9]+:'
	done
	i=$((i + 1))
done
echo "=== repeat done"
