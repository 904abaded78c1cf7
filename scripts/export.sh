#!/bin/bash
# export.sh [BRANCH [DIR]]: write BRANCH's commits on top of base, one
# folder per posting, as git format-patch files with a cover letter, a
# series file, and To/Cc from scripts/get_maintainer.pl, into DIR
# (default: the repository's patches/). The postings and their order are
# patches/postings; posting P ends at the marker branch BRANCH.P, whose
# description is its cover letter.
. "$(dirname "$0")/lib.sh"
branch=${1:-series}
out=${2:-$PATCHES}

cd "$KSRC"
list=$(postings)
prev=base
for p in $list; do
	marker=$branch.$p
	git rev-parse -q --verify "refs/heads/$marker" >/dev/null ||
		die "no marker branch $marker: git branch $marker <last commit of posting $p>"
	git merge-base --is-ancestor "$prev" "$marker" ||
		die "$marker does not follow the posting before it"
	git config "branch.$marker.description" >/dev/null ||
		die "$marker has no description (the cover letter): git branch --edit-description $marker"
	prev=$marker
done
last=$prev

mkdir -p "$out"
[ "$out" = "$PATCHES" ] || cp "$PATCHES/postings" "$out/postings"
# The patch ids of the postings for another tree (OTHER_TREE_POSTINGS):
# no later posting lists them as prerequisites (the USB gadget fixes come
# first in the stack, but no ALSA posting needs them to apply). As
# format-patch computes them: without the indent heuristic.
other_ids=$(mktemp)
prev=base
for p in $list; do
	marker=$branch.$p
	rm -rf "${out:?}/$p"
	mkdir -p "$out/$p"
	# To: the maintainers get_maintainer.pl names for the files the
	# posting changes; Cc: the lists and reviewers. (Keyword matches
	# are left out: "PREEMPT_RT" in a comment is not a reason to mail.)
	git format-patch -q --stdout "$prev..$marker" > "$out/$p/.mbox"
	to=() cc=()
	while IFS= read -r line; do
		addr=${line%% (*}
		case "$line" in
		*"(maintainer:"*) to+=(--to="$addr") ;;
		*) cc+=(--cc="$addr") ;;
		esac
	# (a fixed hash seed: with Perl's random one, maintainers of sections
	# that match equally come out in a different order from run to run)
	done < <(PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 ./scripts/get_maintainer.pl --nogit --nogit-fallback --no-fixes --nokeywords "$out/$p/.mbox" 2>/dev/null)
	rm -f "$out/$p/.mbox"
	[ "$TREE" = 7.3 ] || [ "$p" != fixes ] || cc+=(--cc="stable@vger.kernel.org")
	# The cover letter is dated FIXED_DATE and sent by the first patch's
	# author, so that exporting the same commits always gives the same files.
	first=$(git rev-list --reverse "$prev..$marker" | sed -n 1p)	# no SIGPIPE under pipefail
	# A posting named *-rft is a request for testing: [PATCH RFT ...]
	prefix=$SUBJECT_PREFIX
	case $p in *-rft) prefix="$SUBJECT_PREFIX RFT" ;; esac
	GIT_COMMITTER_NAME=$(git log -1 --format=%an "$first") \
	GIT_COMMITTER_EMAIL=$(git log -1 --format=%ae "$first") \
	GIT_COMMITTER_DATE=$FIXED_DATE git -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		--cover-letter --cover-from-description=subject --base=base \
		--subject-prefix="$prefix" "${to[@]}" "${cc[@]}" -o "$out/$p" "$prev..$marker"
	case " $STANDALONE_POSTINGS " in *" $p "*)
		# It applies to the base alone: no prerequisite patches.
		idx=$(mktemp)
		GIT_INDEX_FILE=$idx git read-tree base
		git diff "$prev" "$marker" | GIT_INDEX_FILE=$idx git apply --cached --check ||
			{ rm -f "$idx"; die "posting $p does not apply to the base alone"; }
		rm -f "$idx"
		sed -i '/^prerequisite-patch-id: /d' "$out/$p/0000-cover-letter.patch" ;;
	esac
	while read -r id; do
		sed -i "/^prerequisite-patch-id: $id\$/d" "$out/$p/0000-cover-letter.patch"
	done < "$other_ids"
	case " $OTHER_TREE_POSTINGS " in *" $p "*)
		git log -p --no-indent-heuristic --format='commit %H' "$prev..$marker" |
			git patch-id --stable | cut -d' ' -f1 >> "$other_ids" ;;
	esac
	ls "$out/$p" | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-' > "$out/$p/series"
	prev=$marker
done
rm -f "$other_ids"
# The commits after the last posting are the test rig's kernel patches,
# never posted (patches/rig, with its README).
rm -f "$out"/rig/*.patch "$out/rig/series"
if [ -n "$(git rev-list "$last..$branch")" ]; then
	mkdir -p "$out/rig"
	first=$(git rev-list --reverse "$last..$branch" | sed -n 1p)
	GIT_COMMITTER_NAME=$(git log -1 --format=%an "$first") \
	GIT_COMMITTER_EMAIL=$(git log -1 --format=%ae "$first") \
	GIT_COMMITTER_DATE=$FIXED_DATE git -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		--subject-prefix="RIG" -o "$out/rig" "$last..$branch"
	ls "$out/rig" | grep -E '^[0-9]{4}-.*\.patch$' > "$out/rig/series"
	[ "$out" = "$PATCHES" ] || cp "$PATCHES/rig/README" "$out/rig/README"
fi
say "exported $(git rev-list --count "base..$last") patches in $(echo "$list" | wc -w) postings to $out, and $(git rev-list --count "$last..$branch") of the rig"
