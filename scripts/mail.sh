#!/bin/bash
# mail.sh "Name <address>" [DIR]: a mail-ready copy of every posting in
# DIR (default build/mail): patches/POSTING, stable/TREE/PART and
# userspace/PROJECT, each in the same place under DIR. The person given
# is the sender: the Developer's Certificate of Origin needs a real
# person, so that person replaces the project's placeholder identity
# everywhere it occurs (From:, Signed-off-by:, the To: and Cc: headers
# that get_maintainer.pl derived from the test driver's MAINTAINERS
# entry, that entry's M: line, the cover letters' shortlogs). Fails if
# any trace of the placeholder is left. Send with
# git send-email DIR/POSTING/*.patch.
. "$(dirname "$0")/lib.sh"
who=${1:?usage: mail.sh "Name <address>" [DIR]}
out=${2:-$BUILD/mail}
[[ $who =~ ^([^\<\>]+)\ \<([^@\<\>\ ]+@[^@\<\>\ ]+)\>$ ]] || die "not \"Name <address>\": $who"
export NAME=${BASH_REMATCH[1]} ADDR=${BASH_REMATCH[2]}

# The placeholder, as the first patch signs off with it
project=$(sed -n 's/^Signed-off-by: //p' "$(series_files | sed -n 1p)" | sed -n 1p)
[[ $project =~ ^([^\<\>]+)\ \<([^\<\>]+)\>$ ]] || die "no sign-off in the first patch"
export PNAME=${BASH_REMATCH[1]} PADDR=${BASH_REMATCH[2]}
[ "$PADDR" != "$ADDR" ] || die "FROM= is the placeholder itself"

rm -rf "$out"
n=0
while read -r dir; do
	rel=${dir#"$TOP"/}
	rel=${rel#patches/}
	mkdir -p "$out/$rel"
	for f in "$dir"/*.patch; do
		# format-patch may fold From: over two lines; both halves are
		# replaced where they stand
		perl -pe 's/\Q$ENV{PNAME}\E/$ENV{NAME}/g; s/\Q$ENV{PADDR}\E/$ENV{ADDR}/g' \
			"$f" > "$out/$rel/${f##*/}"
		n=$((n + 1))
	done
done < <(find "$PATCHES" "$TOP/stable" "$TOP/userspace" -name '*.patch' -not -path "$PATCHES/rig/*" -printf '%h\n' | sort -u)

left=$(grep -rlF -e "$PNAME" -e "$PADDR" "$out" || true)
[ -z "$left" ] || die "the placeholder is left in: $left"
say "$n mail-ready patches for $who in $out"
