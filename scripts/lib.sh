# Common settings for the harness scripts; sourced, not run.
set -euo pipefail
export LC_ALL=C

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# TREE picks the kernel: mainline (the series' base) or a stable tree
# that gets the fixes posting as backports.
TREE=${TREE:-7.3}
case $TREE in
7.3)	BASE_PKG=linux-source-7.3		# mainline, from Debian's trixie-backports
	BASE_VERSION=7.3.4-1~bpo13+1		# the pinned Debian package version
	# CI_SRC: build from another checkout of that tree (make check's
	# lane builds from $BUILD/linux-ci while the per-patch builds
	# move $BUILD/linux)
	KSRC=${CI_SRC:-$BUILD/linux} PATCHES=$TOP/patches SUBJECT_PREFIX=PATCH ;;
6.12)	BASE_PKG=linux-source-6.12 BASE_VERSION=6.12.117-1~deb12u1
	KSRC=$BUILD/linux-6.12 PATCHES=$TOP/stable/6.12 SUBJECT_PREFIX="PATCH 6.12.y" ;;
6.1)	BASE_PKG=linux-source-6.1 BASE_VERSION=6.1.192-3
	KSRC=$BUILD/linux-6.1 PATCHES=$TOP/stable/6.1 SUBJECT_PREFIX="PATCH 6.1.y" ;;
*)	echo "error: unknown TREE $TREE" >&2; exit 1 ;;
esac
BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
# ccache's depend mode takes a miss's headers from the compiler's -MD
# output instead of running the preprocessor first: a cold tinyconfig
# build here took 7m54s with it, 9m49s without (same tree and config);
# a rebuild from the same cache hit 976 of 982 compiles.
export CCACHE_DEPEND=1

# Fixed dates (and, for the base commit, a fixed identity) for what the
# harness commits, so that the base commit id and the exported patch files
# come out the same on every machine.
FIXED_DATE="2026-11-30T00:00:00+0000"
# Postings that apply to the base alone (their cover letters say so):
# export.sh checks that they do and lists no prerequisite patches for them.
STANDALONE_POSTINGS="0-usb-gadget 1-fixes 2-seq-fixes 3-usb-midi 12-mpu401-rft"
# Postings for another maintainer's tree (the USB gadget fixes, for the
# USB tree): they come first in the stack, and the ALSA postings after
# them do not list their patches as prerequisites.
OTHER_TREE_POSTINGS="0-usb-gadget"
HARNESS_NAME="rawmidi harness"
HARNESS_EMAIL="rawmidi-harness@localhost"

# The rawmidi kselftest programs of the series (tools/testing/selftests/alsa,
# added by the selftests posting, one per topic); each runs in the guest
# built 64-bit and with -m32 (PROG-32). The stable trees run those that
# hold the cases of their fixes (check-stable.sh's STABLE_TESTS).
RAWMIDI_KSELFTESTS="rawmidi-core-test rawmidi-uapi-test rawmidi-miditest-test rawmidi-seq-test
	rawmidi-race-test rawmidi-framed-test rawmidi-usb-test"
STABLE_KSELFTESTS="rawmidi-core-test rawmidi-uapi-test rawmidi-race-test"
# The verdict sections of their guest runs (scripts/verdict.sh)
rawmidi_sections() {
	local p
	for p in ${1:-$RAWMIDI_KSELFTESTS}; do
		printf 'kselftest:%s kselftest:%s-32 ' "$p" "$p"
	done
}

say() { printf '>>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The postings, in submission order: patches/postings names one folder of
# patches/ a line; each folder holds a cover letter, the patches and their
# series file. In the kernel tree each posting ends at a marker branch,
# BRANCH.POSTING, whose description is that posting's cover letter.
postings() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/postings"
}

# Patch files of one posting, or (no argument) of all, in apply order.
series_files() {
	local p
	for p in ${1:-$(postings)}; do
		grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/$p/series" | sed "s|^|$PATCHES/$p/|"
	done
}

# Put the kernel tree back on the branch it was on (the developer's
# "series") when this script exits: apply.sh leaves it on ci or bench-*.
# (on_exit also ends the lane, in the make check that started it.)
return_to_branch() {
	local b
	b=$(git -C "$KSRC" branch --show-current 2>/dev/null) || return 0
	[ -n "$b" ] || return 0
	return_branch=$b
	trap on_exit EXIT
}
on_exit() {
	[ "${LANE_OWNER:-}" != "$$" ] || lane_kill
	[ -z "${return_branch:-}" ] || git -C "$KSRC" checkout -q "$return_branch" 2>/dev/null || true
}

# make check's lane (scripts/lane.sh): the kernels of its later stages,
# built in the background. lane_wait JOB waits for one of its jobs and
# returns the job's exit status (1 if the lane is gone without it);
# lane_stop and lane_cont stop it and let it go on, around a boot, so
# that a guest's timing tests have the machine to themselves. All of
# them act only inside a make check that started a lane (LANE_ON=1):
# elsewhere build/lane may hold a finished run's files.
LANE=$BUILD/lane
lane_running() {
	[ "${LANE_ON:-}" = 1 ] && [ -f "$LANE/pgid" ] && kill -0 -- "-$(cat "$LANE/pgid")" 2>/dev/null
}
lane_wait() {
	while [ ! -f "$LANE/$1.rc" ]; do
		# (the job may have ended just before the lane did)
		lane_running || [ -f "$LANE/$1.rc" ] || return 1
		sleep 2
	done
	return "$(cat "$LANE/$1.rc")"
}
lane_signal() { ! lane_running || kill "-$1" -- "-$(cat "$LANE/pgid")" 2>/dev/null || true; }
lane_stop() { lane_signal STOP; }
lane_cont() { lane_signal CONT; }
# SIGTERM, so that git and make clean up after themselves; SIGCONT, so
# that a stopped lane gets it.
lane_kill() { lane_signal TERM; lane_signal CONT; }
# boot_quiet ARGS...: scripts/boot.sh ARGS with the lane stopped.
boot_quiet() {
	lane_stop
	"$TOP/scripts/boot.sh" "$@"
	lane_cont
}
