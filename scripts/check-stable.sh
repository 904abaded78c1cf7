#!/bin/bash
# check-stable.sh TREE: the stable backports of posting 1 on TREE (6.12 or
# 6.1): apply them and the test-only posting to the pristine tree, check
# the export round trip and checkpatch, build the fixes alone and then with
# the test driver, boot, and run the kselftest cases of fixes 1-10 (fix 11
# has none)
# (64- and 32-bit). Prints "PASS/FAIL stable-TREE: name" lines.
# Needs the mainline branch ci (check.sh makes it): the guest builds the
# series' rawmidi kselftests that hold those cases, as a CI farm would.
# check-stable.sh TREE prepare: only apply and build the fixes alone
# (make check's lane, scripts/lane.sh, does this ahead; with LANE_ON=1
# the full check takes that build's result from the lane).
TREE=${1:?usage: check-stable.sh 6.12|6.1 [prepare]}
export TREE
. "$(dirname "$0")/lib.sh"
logs=$BUILD/logs
mkdir -p "$logs"
p="stable-$TREE:"
result() { if "${@:3}"; then echo "PASS $p $2"; else echo "FAIL $p $2"; fi; }

# The cases that prove the fixes, one per fix (old_pversion_ignores_mode
# is the 32-bit PARAMS one: it fails only in the 32-bit run without it).
export STABLE_TESTS="-t framing_ends_with_its_opener -t mode_switch_under_input
	-t old_pversion_ignores_mode -t unplug_ends_blocked_calls
	-t interrupted_params_keep_output -t params_resize_vs_io
	-t write_sends_only_copied_bytes -t read_returns_only_its_bytes"

obj=stable-$TREE
# The pristine tree with the patches, built at the fixes alone.
prepare() {
	rm -f "$logs/build-$obj-fixes.log"
	"$TOP/scripts/apply.sh" ci >&2 || return
	git -C "$KSRC" checkout -q ci.fixes || return
	"$TOP/scripts/build.sh" "$obj" > "$logs/build-$obj-fixes.log" 2>&1
}
# (the lane's prepare puts the developer's branch back when it ends,
# before the full check starts on that tree)
if [ "${2:-}" = prepare ]; then
	return_to_branch
	prepare
	exit
fi
rc=0
if [ "${LANE_ON:-}" = 1 ]; then
	lane_wait "stable-$TREE" || rc=$?
	cat "$LANE/stable-$TREE.log" >&2
else
	return_to_branch
	prepare || rc=$?
fi
[ -f "$logs/build-$obj-fixes.log" ] || die "the $TREE tree was not prepared (see above)"
rm -rf "$BUILD/roundtrip-$TREE"
"$TOP/scripts/export.sh" ci "$BUILD/roundtrip-$TREE" >&2
result "$p" "export reproduces stable/$TREE exactly" diff -r "$PATCHES" "$BUILD/roundtrip-$TREE"
cd "$KSRC"
while read -r f; do
	name=${f##*/}
	PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$f" > "$logs/checkpatch-$TREE-$name.log" 2>&1 || true
	cat "$logs/checkpatch-$TREE-$name.log" >&2
	result "$p" "checkpatch --strict: $name" test ! -s "$logs/checkpatch-$TREE-$name.log"
done < <(series_files)

[ $rc = 0 ] || tail -30 "$logs/build-$obj-fixes.log" >&2
result "$p" "builds with the fixes alone" [ $rc = 0 ]
# W=1 and sparse over sound/core/, base against the fixes: nothing new.
w1_sparse() {
	git checkout -q "$1"
	make -s -C "$KSRC" O="$BUILD/obj-$obj" CC="ccache gcc" -j"$JOBS" W=1 C=2 sound/core/ \
		> "$logs/w1-sparse-$obj-$1.log" 2>&1 || true
	{ grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logs/w1-sparse-$obj-$1.log" || true; } |
		sed -E "s|^$KSRC/||; s/:[0-9]+:([0-9]+:)? / /" | sort
}
w1_sparse ci.fixes > "$logs/w1-sparse-$obj-new.txt"
w1_sparse base > "$logs/w1-sparse-$obj-base.txt"
comm -13 "$logs/w1-sparse-$obj-base.txt" "$logs/w1-sparse-$obj-new.txt" > "$logs/w1-sparse-$obj-diff.txt"
cat "$logs/w1-sparse-$obj-diff.txt" >&2
result "$p" "W=1 + sparse: no new warnings in sound/core/" \
	sh -c "grep -q 'C=2 specified' '$logs/w1-sparse-$obj-base.log' && exit 1; ! grep -v 'context imbalance' '$logs/w1-sparse-$obj-diff.txt'"
git checkout -q ci
"$TOP/scripts/build.sh" "$obj" > "$logs/build-$obj.log" 2>&1 || { tail -30 "$logs/build-$obj.log" >&2; exit 1; }
"$TOP/scripts/guest.sh" "$obj" >&2
log=$logs/console-$obj.log
boot_quiet "$obj" tests "$log" >&2
NO_KUNIT=1 "$TOP/scripts/verdict.sh" "$log" $(rawmidi_sections "$STABLE_KSELFTESTS") clients |
	sed "s/^\([A-Z][A-Z]*\) /\1 $p /" || true
