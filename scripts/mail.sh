#!/bin/bash
# mail.sh "Name <address>" [DIR]: a mail-ready copy of patches/ in DIR
# (default build/mail), sent and signed off by the person given: the
# patches stay authored by the project, and the Developer's Certificate
# of Origin needs a real person, so that person replaces the project as
# From: and in Signed-off-by:. Send with git send-email DIR/POSTING/*.patch.
. "$(dirname "$0")/lib.sh"
who=${1:?usage: mail.sh "Name <address>" [DIR]}
out=${2:-$BUILD/mail}
[[ $who =~ ^[^\<\>]+\ \<[^@\<\>\ ]+@[^@\<\>\ ]+\>$ ]] || die "not \"Name <address>\": $who"

project=$(sed -n 's/^Signed-off-by: //p' "$(series_files | sed -n 1p)" | sed -n 1p)
rm -rf "$out"
for p in $(postings); do
	mkdir -p "$out/$p"
	for f in "$PATCHES/$p"/*.patch; do
		# From: may be folded over two lines by format-patch
		awk -v who="$who" -v project="$project" '
			!hdr_done && /^From: / { from = 1; print "From: " who; next }
			from && /^ / { next }
			{ from = 0 }
			/^$/ { hdr_done = 1 }
			$0 == "Signed-off-by: " project { print "Signed-off-by: " who; next }
			{ print }' "$f" > "$out/$p/${f##*/}"
	done
done
say "mail-ready postings for $who in $out"
