#!/bin/bash
# demo.sh: apply the series to the pinned base, build the test kernel, boot
# it under QEMU and show the features working (guest/demo.sh).
. "$(dirname "$0")/lib.sh"
return_to_branch
say "stage 1/4: apply the series"
"$TOP/scripts/apply.sh" ci
say "stage 2/4: build"
"$TOP/scripts/build.sh" test
say "stage 3/4: guest"
"$TOP/scripts/guest.sh" test
say "stage 4/4: boot"
mkdir -p "$BUILD/logs"
log=$BUILD/logs/console-demo.log
"$TOP/scripts/boot.sh" test demo "$log"
echo
sed -n '/^=== DEMO 1/,/^=== DEMO END/p' "$log" | tr -d '\r'
grep -q '^=== DEMO END' "$log" || die "the demo did not finish; see $log"
