#!/bin/sh
# run=usb-hog: rawmidi-usb-test's host-output cases under SCHED_FIFO
# hogs, five times each, to compare two kernels on one host (9-usb-midi
# patch 1 before and after: RESULTS.md). The cases skip on PREEMPT_RT,
# so boot a kernel without it. Each run prints its figures (TH_LOG).
t=/tests/kselftest/rawmidi-usb-test
for i in 1 2 3 4 5; do
	echo "=== usb-hog run $i"
	$t -r usb.framed_burst_under_rt_hog -r usb.drain_and_close_under_rt_hog 2>&1 |
		grep -E '^(ok|not ok|#.*(notes under|drains under|close after))'
done
echo "=== usb-hog done"
