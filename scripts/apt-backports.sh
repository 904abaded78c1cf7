#!/bin/bash
# apt-backports.sh: let apt see Debian's trixie-backports suite, where the
# pinned mainline base (linux-source-7.3) lives, and the trixie suite,
# where autoconf 2.72 (architecture-independent, needed by alsa-lib's
# configure.ac) lives, without taking anything else from either. The
# archive's address is read from the machine's own apt configuration (the
# URI that serves bookworm), never written here.
. "$(dirname "$0")/lib.sh"
src=/etc/apt/sources.list.d/rawmidi-trixie-backports.sources
pref=/etc/apt/preferences.d/rawmidi-trixie-backports
tsrc=/etc/apt/sources.list.d/rawmidi-trixie.sources
tpref=/etc/apt/preferences.d/rawmidi-trixie
# The only packages taken from trixie (Architecture: all, no new libraries).
TRIXIE_PKGS="autoconf"
[ -f "$src" ] && [ -f "$pref" ] && [ -f "$tsrc" ] && [ -f "$tpref" ] && exit 0

uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
	/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ { print u; exit }')
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
[ -n "$uri" ] || die "no apt source for bookworm found to derive the trixie-backports URI from"
if ! [ -f "$src" ] || ! [ -f "$pref" ]; then
say "apt: adding trixie-backports from $uri, pinned to $BASE_PKG only"
cat > "$src" <<EOS
Types: deb
URIs: $uri
Suites: trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
# Priority -1: never installed from there, unless named below.
cat > "$pref" <<EOS
Package: *
Pin: release n=trixie-backports
Pin-Priority: -1

Package: $BASE_PKG
Pin: release n=trixie-backports
Pin-Priority: 500
EOS
fi

say "apt: adding trixie from $uri, pinned to $TRIXIE_PKGS only"
cat > "$tsrc" <<EOS
Types: deb
URIs: $uri
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
{
	printf 'Package: *\nPin: release n=trixie\nPin-Priority: -1\n'
	for p in $TRIXIE_PKGS; do
		printf '\nPackage: %s\nPin: release n=trixie\nPin-Priority: 500\n' "$p"
	done
} > "$tpref"
