#!/bin/bash
# export.sh [BRANCH [DIR]]: write BRANCH's commits on top of base as
# git format-patch files plus a cover letter and a series file into DIR
# (default: the repository's patches/).
. "$(dirname "$0")/lib.sh"
branch=${1:-series}
out=${2:-$TOP/patches}

cd "$KSRC"
git config "branch.$branch.description" >/dev/null ||
	die "branch $branch has no description (the cover letter text): git branch --edit-description $branch"
mkdir -p "$out"
rm -f "$out"/*.patch "$out/series"
# The cover letter is dated FIXED_DATE and sent by the first patch's
# author, so that exporting the same commits always gives the same files.
first=$(git rev-list --reverse "base..$branch" | sed -n 1p)	# no SIGPIPE under pipefail
[ -n "$first" ] || die "branch $branch has no commits on base"
GIT_COMMITTER_NAME=$(git log -1 --format=%an "$first") \
GIT_COMMITTER_EMAIL=$(git log -1 --format=%ae "$first") \
GIT_COMMITTER_DATE=$FIXED_DATE git format-patch -q --zero-commit --no-signature \
	--cover-letter --cover-from-description=subject --base=base \
	-o "$out" "base..$branch"
ls "$out" | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-' > "$out/series"
say "exported $(wc -l < "$out/series") patches to $out"
