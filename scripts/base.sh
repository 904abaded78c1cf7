#!/bin/bash
# Make $KSRC a git tree whose first commit, tagged "base", is the pristine
# source of the pinned Debian package. Reused when it is already there.
. "$(dirname "$0")/lib.sh"

have=$(dpkg-query -W -f '${Version}' "$BASE_PKG" 2>/dev/null || true)
[ "$have" = "$BASE_VERSION" ] ||
	die "$BASE_PKG $BASE_VERSION is needed (have '${have:-none}'): apt-get install $BASE_PKG=$BASE_VERSION"
say "base: $BASE_PKG $BASE_VERSION"

if git -C "$KSRC" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	exit 0
fi

say "unpacking $BASE_TARBALL into $KSRC"
rm -rf "$KSRC" "$KSRC.tmp"
mkdir -p "$KSRC.tmp"
tar -xJf "$BASE_TARBALL" -C "$KSRC.tmp"
mv "$KSRC.tmp/$BASE_PKG" "$KSRC"
rmdir "$KSRC.tmp"

say "committing the pristine base"
cd "$KSRC"
git init -q -b base-branch
git config core.autocrlf false
git config gc.auto 0
# The tarball ships .gitignore files; add everything regardless.
git add -A -f .
GIT_AUTHOR_DATE=$FIXED_DATE GIT_COMMITTER_DATE=$FIXED_DATE \
GIT_AUTHOR_NAME=$HARNESS_NAME GIT_AUTHOR_EMAIL=$HARNESS_EMAIL \
GIT_COMMITTER_NAME=$HARNESS_NAME GIT_COMMITTER_EMAIL=$HARNESS_EMAIL \
	git commit -q -m "Debian $BASE_PKG $BASE_VERSION"
git tag base
say "base commit $(git rev-parse base)"
