# Common settings for the harness scripts; sourced, not run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC=$BUILD/linux				# kernel git tree (base + series)
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.117-1~deb12u1			# the pinned Debian package version
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

# One identity and fixed dates for every commit the harness makes, so that
# the base commit id and the exported patches are the same on every machine.
export GIT_AUTHOR_NAME="ALSA rawmidi timing" GIT_AUTHOR_EMAIL="rawmidi-timing@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
FIXED_DATE="2026-11-30T00:00:00+0000"

say() { printf '>>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Patch files in apply order.
series_files() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/patches/series" | sed "s|^|$TOP/patches/|"
}
