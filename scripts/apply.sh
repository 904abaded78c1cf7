#!/bin/bash
# apply.sh BRANCH [POSTING...]: (re)create BRANCH in the kernel tree as
# base + the postings of patches/ (all, or the first ones up to the last
# named), one commit per patch (git am). Each posting ends at a marker
# branch BRANCH.POSTING whose description is the posting's cover letter,
# so that export.sh can write it back with a fresh shortlog. The test
# rig's kernel patches (patches/rig) follow the last posting.
# apply.sh BRANCH FILE.patch...: base + just those patch files.
. "$(dirname "$0")/lib.sh"
branch=${1:?usage: apply.sh BRANCH [POSTING...]}
shift
if [ $# -gt 0 ]; then want=("$@"); else mapfile -t want < <(postings); fi
[[ ${want[0]} != *.patch ]] || want=($(realpath "${want[@]}"))

"$TOP/scripts/base.sh"
cd "$KSRC"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit or stash them first"
# The patches keep their authors; the committer is whoever applies them,
# or the harness on a machine without a git identity.
git config user.name >/dev/null || export GIT_COMMITTER_NAME=$HARNESS_NAME
git config user.email >/dev/null || export GIT_COMMITTER_EMAIL=$HARNESS_EMAIL

git checkout -q -B "$branch" base
if [[ ${want[0]:-} == *.patch ]]; then
	git am -q --committer-date-is-author-date "${want[@]}" ||
		{ git am --abort; die "patches do not apply"; }
	say "$branch: $(git rev-list --count base..HEAD) patches on base"
	exit 0
fi
for ref in $(git for-each-ref --format='%(refname:short)' "refs/heads/$branch.*"); do
	git branch -q -D "$ref"
done
for p in $(postings); do
	mapfile -t patches < <(series_files "$p")
	git am -q --committer-date-is-author-date "${patches[@]}" ||
		{ git am --abort; die "posting $p does not apply"; }
	git branch -f "$branch.$p"
	# Cover letter: its subject (without "[PATCH 0/N]") and its body up
	# to the shortlog ("Name (N):") become the marker's description.
	desc=$(awk '
		hdr && /^$/ { hdr = 0; print s; print ""; body = 1; next }
		hdr && /^Subject: / { s = substr($0, 10); insub = 1; next }
		hdr && insub && /^ / { s = s $0; next }
		hdr { insub = 0; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
		NR == 1 { hdr = 1 }' "$PATCHES/$p/0000-cover-letter.patch" |
		sed '1s/^\[[^]]*\] *//')
	git config "branch.$branch.$p.description" "$desc"
	[ "$p" != "${want[-1]}" ] || break
done
# The test rig's own kernel patches (patches/rig, never posted: see its
# README) go on top of the whole series.
if [ "$p" = "$(postings | tail -n 1)" ] && [ -f "$PATCHES/rig/series" ]; then
	mapfile -t patches < <(series_files rig)
	git am -q --committer-date-is-author-date "${patches[@]}" ||
		{ git am --abort; die "the rig's patches do not apply"; }
fi
say "$branch: $(git rev-list --count base..HEAD) patches on base"
