#!/bin/bash
# lane.sh: build ahead, in the background, the kernels that make check
# boots in its later stages: the debug kernel (from a second checkout of
# branch ci, $BUILD/linux-ci, so that the per-patch builds can move the
# main tree), the two stable trees with their fixes, and the cross
# builds of sound/ (scripts/cross.sh). check.sh starts
# it after stage 1, in a process group of its own, at idle priority
# (SCHED_IDLE, ionice idle): it runs on the CPU time the foreground
# leaves (checkpatch, the user-space build, per-patch links, Sphinx, the
# debug kernel's boot), and check.sh stops it while any other guest
# boots. Each job leaves $BUILD/lane/JOB.log and, when it ends, JOB.rc
# with its exit status; lane_wait (lib.sh) waits for one.
. "$(dirname "$0")/lib.sh"
lane=$BUILD/lane
job() {
	local name=$1 rc=0
	shift
	"$@" > "$lane/$name.log" 2>&1 || rc=$?
	# whole or not at all: lane_wait reads it as soon as it is there
	echo "$rc" > "$lane/$name.rc.tmp" && mv "$lane/$name.rc.tmp" "$lane/$name.rc"
}

# The debug kernel, built from the second checkout: reused (only what
# changed is written again) unless the main tree was made afresh.
debug() {
	local wt=$BUILD/linux-ci
	if ! git -C "$wt" checkout -q -f --detach ci 2>/dev/null; then
		rm -rf "$wt"
		git -C "$BUILD/linux" worktree prune
		git -C "$BUILD/linux" worktree add -q -f --detach "$wt" ci || return
	fi
	CI_SRC=$wt "$TOP/scripts/build.sh" debug
}
job debug debug
for t in 6.12 6.1; do
	job "stable-$t" env TREE="$t" "$TOP/scripts/check-stable.sh" "$t" prepare
done
# sound/ for i386 and arm with W=1, and without the sequencer
# (scripts/cross.sh), from the second checkout, at branch ci.
job cross env CI_SRC="$BUILD/linux-ci" "$TOP/scripts/cross.sh"
