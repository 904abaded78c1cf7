#!/bin/sh
# temporary: time the new uapi case (not committed)
for i in 1 2 3; do
	t0=$(cat /proc/uptime | cut -d' ' -f1)
	/tests/kselftest/rawmidi-uapi-test -t interrupted_params_keep_output
	t1=$(cat /proc/uptime | cut -d' ' -f1)
	echo "TIMECASE run $i: $t0 -> $t1"
done
if [ -x /tests/kselftest/rawmidi-uapi-test-32 ]; then /tests/kselftest/rawmidi-uapi-test-32 -t interrupted_params_keep_output; fi
