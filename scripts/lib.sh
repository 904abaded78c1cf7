# Common settings for the harness scripts; sourced, not run.
set -euo pipefail
export LC_ALL=C

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC=$BUILD/linux				# kernel git tree (base + series)
BASE_PKG=linux-source-7.3			# mainline, from Debian's trixie-backports
BASE_VERSION=7.3.4-1~bpo13+1			# the pinned Debian package version
BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

# Fixed dates (and, for the base commit, a fixed identity) for what the
# harness commits, so that the base commit id and the exported patch files
# come out the same on every machine.
FIXED_DATE="2026-11-30T00:00:00+0000"
HARNESS_NAME="rawmidi harness"
HARNESS_EMAIL="rawmidi-harness@localhost"

say() { printf '>>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The postings, in submission order: patches/postings names one folder of
# patches/ a line; each folder holds a cover letter, the patches and their
# series file. In the kernel tree each posting ends at a marker branch,
# BRANCH.POSTING, whose description is that posting's cover letter.
postings() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/postings"
}

# Patch files of one posting, or (no argument) of all, in apply order.
series_files() {
	local p
	for p in ${1:-$(postings)}; do
		grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/$p/series" | sed "s|^|$TOP/patches/$p/|"
	done
}

# Put the kernel tree back on the branch it was on (the developer's
# "series") when this script exits: apply.sh leaves it on ci or bench-*.
return_to_branch() {
	local b
	b=$(git -C "$KSRC" branch --show-current 2>/dev/null) || return 0
	[ -n "$b" ] || return 0
	# shellcheck disable=SC2064
	trap "git -C '$KSRC' checkout -q '$b' 2>/dev/null || true" EXIT
}
