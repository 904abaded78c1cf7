#!/bin/bash
# final-form.sh BRANCH: every patch of the feature postings (4-params to
# 10-ump) in its final form. A feature patch may change what mainline or
# a fixes posting has, but not take out a line that an earlier feature
# patch put in: a reviewer would then read code that a later patch of the
# same series rewrites. git blame finds, for each line a patch removes,
# the commit that added it. The exceptions, each with its reason, are in
# config/final-form-allow.txt ("LATER SUBJECT<TAB>EARLIER SUBJECT<TAB>WHY").
# Prints each pair of patches with the file and the number of lines; exits
# 1 if any pair is not allowed.
. "$(dirname "$0")/lib.sh"
branch=${1:?usage: final-form.sh BRANCH}
first=4-params last=10-ump
allow=$TOP/config/final-form-allow.txt
cd "$KSRC" || exit 1

# the feature range: after the posting before 4-params, up to 10-ump
prev=$(postings | grep -B1 -x "$first" | head -n 1)
mapfile -t feature < <(git rev-list --reverse "$branch.$prev..$branch.$last")
declare -A in_feature
for c in "${feature[@]}"; do in_feature[$c]=1; done

for c in "${feature[@]}"; do
	later=$(git log -1 --format=%s "$c")
	# each hunk's removed lines: "FILE START COUNT" in the parent
	while read -r file start count; do
		git blame -s -l -L "$start,+$count" "$c^" -- "$file" | cut -c1-40 |
		while read -r sha; do
			[ -n "${in_feature[$sha]:-}" ] || continue
			printf '%s\t%s\t%s\n' "$later" "$(git log -1 --format=%s "$sha")" "$file"
		done
	done < <(git diff -U0 --no-color "$c^" "$c" | awk '
		/^--- a\// { file = substr($0, 7) }
		/^--- \/dev\/null/ { file = "" }
		/^@@ / && file != "" {
			split($2, o, ","); start = substr(o[1], 2)
			count = (o[2] == "") ? 1 : o[2]
			if (count > 0) print file, start, count
		}')
done | sort | uniq -c | awk -v allow="$allow" '
	BEGIN { FS = "\t"
		while ((getline l < allow) > 0)
			if (l !~ /^#/) { split(l, a, "\t"); ok[a[1] "\t" a[2]] = 1 } }
	{ n = $1 + 0; sub(/^ *[0-9]+ /, ""); split($0, f, "\t"); k = f[1] "\t" f[2]
	  v = (k in ok) ? "allowed" : "REWRITES"; if (v == "REWRITES") bad = 1; else used[k] = 1
	  printf "%s: %s <- %s (%s, %d lines)\n", v, f[1], f[2], f[3], n }
	END {	# an exception that no longer happens is taken out of the list
		for (k in ok) if (!(k in used)) { split(k, a, "\t"); print "UNUSED: " a[1] " <- " a[2]; bad = 1 }
		exit bad }'
