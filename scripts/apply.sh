#!/bin/bash
# apply.sh BRANCH [PATCH...]: (re)create BRANCH in the kernel tree as base
# + the series (or only the PATCH files named), one commit per patch
# (git am). The cover letter becomes the branch description, so that
# export.sh can write it back with a fresh shortlog.
. "$(dirname "$0")/lib.sh"
branch=${1:?usage: apply.sh BRANCH [PATCH...]}
shift

if [ $# -gt 0 ]; then
	patches=()
	for p in "$@"; do patches+=("$(realpath "$p")"); done
else
	mapfile -t patches < <(series_files)
fi

"$TOP/scripts/base.sh"
cd "$KSRC"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit or stash them first"

git checkout -q -B "$branch" base
if [ ${#patches[@]} -gt 0 ]; then
	# The patches keep their authors; the committer is whoever applies
	# them, or the harness on a machine without a git identity.
	git config user.name >/dev/null || export GIT_COMMITTER_NAME=$HARNESS_NAME
	git config user.email >/dev/null || export GIT_COMMITTER_EMAIL=$HARNESS_EMAIL
	git am -q --committer-date-is-author-date "${patches[@]}" ||
		{ git am --abort; die "series does not apply"; }
fi

# Cover letter: its subject (without "[PATCH 0/N]") and its body up to the
# shortlog ("Name (N):") become the branch description.
cover=$TOP/patches/0000-cover-letter.patch
if [ -f "$cover" ]; then
	desc=$(awk '
		/^Subject: / && !seen { s = substr($0, 10); seen = 1; insub = 1; next }
		insub && /^ / { s = s $0; next }
		insub { insub = 0; sub(/^\[[^]]*\] */, "", s); print s; print ""; body = 1; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }' "$cover")
	git config "branch.$branch.description" "$desc"
fi
say "$branch: $(git rev-list --count base..HEAD) patches on base"
