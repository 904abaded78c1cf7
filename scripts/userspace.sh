#!/bin/bash
# userspace.sh [build|tree|export] [PKG...]: the user-space counterpart of
# the series, alsa-lib, alsa-utils (amidi) and libremidi with the patches
# of userspace/PKG/ (a series file and git format-patch files).
#
#   build   (default) unpack each release tarball of $DEPS (sha256-checked
#           against its SHA256SUMS), apply the patches, build, and install
#           into $BUILD/userspace/prefix (--prefix=/opt/alsa-rawmidi,
#           installed with DESTDIR, so the same files go into the guest).
#           Skipped when the tarballs, the patches and this script are
#           unchanged since the last build. Builds every package (the
#           others need alsa-lib), whatever PKG says.
#           libremidi (cmake) links its unit tests and guest/libremidi-sched
#           statically; it loads libasound at run time (dlopen), so they
#           use whichever libasound.so.2 they find.
#   test    run libremidi's unit tests that need no MIDI device (after build),
#           and guest/libremidi-sched against a stand-in libasound
#           (scripts/fake-asound.c) that logs what libremidi asks of it:
#           framed output, and the fallbacks without it
#   tree    (re)create the development tree $BUILD/PKG: a git repository
#           whose branch "base" is the unpacked tarball and branch "series"
#           base + the patches, one commit each (git am).
#   export  write branch "series" of $BUILD/PKG back to userspace/PKG/
#           (never edit a .patch by hand), or to $US_OUT/PKG/ if set. A
#           README beside the patches is written by hand: it is kept, and
#           copied to $US_OUT/PKG/ too.
. "$(dirname "$0")/lib.sh"
cmd=${1:-build}
[ $# = 0 ] || shift
PKGS=("$@")
[ ${#PKGS[@]} -gt 0 ] || PKGS=(alsa-lib alsa-utils libremidi)
DEPS=${DEPS:-$(cd "$TOP/.." && pwd)/shared/deps}
US=$BUILD/userspace
PREFIX=/opt/alsa-rawmidi
STAGE=$US/prefix		# DESTDIR: the install is $STAGE$PREFIX
JOBS_US=${JOBS_US:-2}
# libremidi's unit tests that need no MIDI device: the series' tests of
# its timestamps and of its MIDI 1.0 byte stream parser, and those of
# message conversion, errors and MIDI file writing (midi_in/midi_out want
# a device or a JACK server, and the MIDI file corpus of midifile_read
# is not in the release tarball)
LIBREMIDI_TESTS="alsa_raw_framed_output_test midi_stream_decoder_test conversion_test
	error_test midifile_write_test midifile_write_tracks_test"

tarball() {
	case $1 in
	alsa-lib) echo "$DEPS/alsa-lib-1.2.16.1.tar.xz" ;;
	alsa-utils) echo "$DEPS/alsa-utils-1.2.16.tar.xz" ;;
	libremidi) echo "$DEPS/libremidi-5.4.3.tar.xz" ;;
	*) die "unknown package $1" ;;
	esac
}

check_tarball() {
	local t
	t=$(tarball "$1")
	[ -f "$t" ] || die "no $t (the release tarballs are in $DEPS)"
	(cd "$(dirname "$t")" && grep " $(basename "$t")\$" SHA256SUMS | sha256sum -c --quiet -) ||
		die "$t does not match $(dirname "$t")/SHA256SUMS"
}

patches_of() {
	local f
	[ -f "$TOP/userspace/$1/series" ] || return 0
	while read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		echo "$TOP/userspace/$1/$f"
	done < "$TOP/userspace/$1/series"
}

# unpack PKG DIR: the tarball's single top directory as DIR.
unpack() {
	local t
	t=$(tarball "$1")
	rm -rf "$2" "$2.tmp" && mkdir -p "$2.tmp"
	tar -xf "$t" -C "$2.tmp"
	mv "$2.tmp"/* "$2" && rmdir "$2.tmp"
}

git_identity() {
	git config user.name >/dev/null || export GIT_COMMITTER_NAME=$HARNESS_NAME
	git config user.email >/dev/null || export GIT_COMMITTER_EMAIL=$HARNESS_EMAIL
}

do_tree() {
	local pkg=$1 dir=$BUILD/$1
	check_tarball "$pkg"
	if [ -d "$dir/.git" ] && [ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
		die "$dir has uncommitted changes; commit or stash them first"
	fi
	unpack "$pkg" "$dir"
	cd "$dir"
	git init -q -b base
	git add -A -f
	# what a build in the tree leaves that the tarball's .gitignore misses
	printf '%s\n' .deps/ .libs/ '*.o' '*.lo' '*.la' '*.a' '*.so*' >> .git/info/exclude
	GIT_AUTHOR_NAME=$HARNESS_NAME GIT_AUTHOR_EMAIL=$HARNESS_EMAIL GIT_AUTHOR_DATE=$FIXED_DATE \
	GIT_COMMITTER_NAME=$HARNESS_NAME GIT_COMMITTER_EMAIL=$HARNESS_EMAIL GIT_COMMITTER_DATE=$FIXED_DATE \
		git commit -q -m "$(basename "$(tarball "$pkg")" .tar.xz) (unmodified release tarball)"
	git_identity
	git checkout -q -B series base
	mapfile -t p < <(patches_of "$pkg")
	if [ ${#p[@]} -gt 0 ]; then
		git am -q --committer-date-is-author-date "${p[@]}" ||
			{ git am --abort; die "userspace/$pkg does not apply"; }
	fi
	say "$dir: branch series = base + ${#p[@]} patches"
}

do_export() {
	local pkg=$1 dir=$BUILD/$1 out=${US_OUT:-$TOP/userspace}/$1 readme=
	[ -d "$dir/.git" ] || die "no tree $dir (scripts/userspace.sh tree $pkg)"
	if [ -f "$TOP/userspace/$pkg/README" ]; then
		readme=$(mktemp)
		cp "$TOP/userspace/$pkg/README" "$readme"
	fi
	rm -rf "$out" && mkdir -p "$out"
	git -C "$dir" -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		--base=base -o "$out" base..series
	(cd "$out" && ls | grep -E '^[0-9]{4}-.*\.patch$' > series)
	if [ -n "$readme" ]; then
		install -m 644 "$readme" "$out/README" && rm -f "$readme"
	fi
	say "exported $(wc -l < "$out/series") patches to $out"
}

# The inputs of a build: a change to any of them rebuilds.
inputs_hash() {
	{
		sha256sum "$(tarball alsa-lib)" "$(tarball alsa-utils)" "$(tarball libremidi)" "$0" \
			"$TOP/guest/libremidi-sched.cpp" "$TOP/guest/sentlog.h" "$TOP/guest/mtlog.h" \
			"$TOP/guest/common.h" | cut -d' ' -f1
		for pkg in alsa-lib alsa-utils libremidi; do
			patches_of "$pkg" | while read -r f; do sha256sum < "$f"; done
		done
	} | sha256sum | cut -d' ' -f1
}

do_build() {
	local hash src t0=$SECONDS
	check_tarball alsa-lib
	check_tarball alsa-utils
	check_tarball libremidi
	hash=$(inputs_hash)
	if [ -f "$US/stamp" ] && [ "$(cat "$US/stamp")" = "$hash" ]; then
		say "userspace: $STAGE$PREFIX is up to date"
		return 0
	fi
	rm -rf "$US" && mkdir -p "$US/src" "$US/logs"
	for pkg in alsa-lib alsa-utils libremidi; do
		src=$US/src/$pkg
		unpack "$pkg" "$src"
		patches_of "$pkg" | while read -r f; do
			patch -s -d "$src" -p1 < "$f" || die "$f does not apply"
		done
	done
	# The alsa-lib series adds API for the release after 1.2.16 (symbol
	# version ALSA_1.2.17), and amidi uses it under alsa-utils' usual
	# check, SND_LIB_VER(1, 2, 16) < SND_LIB_VERSION: the patched
	# library calls itself a pre-release of 1.2.17 (SND_LIB_VERSION
	# 1.2.17, SND_LIB_EXTRASTR "pre").
	sed -i 's/^AC_INIT(\[alsa-lib\], \[1\.2\.16\.1\])$/AC_INIT([alsa-lib], [1.2.17pre1])/' \
		"$US/src/alsa-lib/configure.ac"
	grep -q '^AC_INIT(\[alsa-lib\], \[1\.2\.17pre1\])$' "$US/src/alsa-lib/configure.ac" ||
		die "alsa-lib's configure.ac: no AC_INIT of 1.2.16.1 to mark as 1.2.17pre1"

	say "userspace: alsa-lib (autoreconf, configure, make -j$JOBS_US)"
	src=$US/src/alsa-lib
	(
		cd "$src"
		autoreconf -fi
		./configure --prefix=$PREFIX --disable-python --disable-topology \
			--disable-alisp --disable-old-symbols --disable-static \
			CFLAGS="-g -O2 -Wall"
		make -j"$JOBS_US"
		# test/rawmidi_twrite, run by make check as one of its TESTS
		# (only it is built: all of test/ took 57 s, this 4 s). It
		# skips here, as it cannot open a device (the library has no
		# configuration before it is installed, and a build machine
		# seldom has a MIDI port).
		# and test/ump_twrite, built beside it (it needs a UMP loopback:
		# the guest runs it on the MIDI 2.0 gadget)
		make -C test check check_PROGRAMS="rawmidi_twrite ump_twrite" SUBDIRS=
		make install DESTDIR="$STAGE"
		# libtool's archive names the build place; nothing needs it
		rm -f "$STAGE$PREFIX"/lib/*.la
		install -m 755 test/.libs/rawmidi_twrite "$STAGE$PREFIX/bin/rawmidi_twrite"
		install -m 755 test/.libs/ump_twrite "$STAGE$PREFIX/bin/ump_twrite"
	) > "$US/logs/alsa-lib.log" 2>&1 || { tail -40 "$US/logs/alsa-lib.log"; die "alsa-lib build failed"; }
	# make check ran the test program (it skips without a device)
	grep -Eq '^(SKIP|PASS): rawmidi_twrite$' "$US/logs/alsa-lib.log" ||
		die "alsa-lib: make check did not run rawmidi_twrite ($US/logs/alsa-lib.log)"
	# compiler warnings in what the patches touch (alsa-lib itself has others)
	! grep -E '^[^ ]*\.[ch]:[0-9]+:[0-9]+: warning:' "$US/logs/alsa-lib.log" |
		grep -E 'rawmidi|asound\.h' ||
		die "alsa-lib: the rawmidi sources build with warnings ($US/logs/alsa-lib.log)"

	say "userspace: alsa-utils' amidi against it"
	src=$US/src/alsa-utils
	(
		cd "$src"
		# configure.ac asks autopoint for gettext 0.25.1, newer than
		# Debian's; with --disable-nls only gettext's m4 files and these
		# two files are needed, and Debian's gettext has them
		cp /usr/share/gettext/config.rpath .
		cp /usr/share/gettext/po/Makefile.in.in po/
		AUTOPOINT=true autoreconf -fi
		PKG_CONFIG_PATH=$STAGE$PREFIX/lib/pkgconfig \
		CPPFLAGS="-I$STAGE$PREFIX/include" LDFLAGS="-L$STAGE$PREFIX/lib" \
			./configure --prefix=$PREFIX --with-alsa-prefix="$STAGE$PREFIX/lib" \
			--with-alsa-inc-prefix="$STAGE$PREFIX/include" \
			--disable-alsamixer --disable-alsaconf --disable-alsaloop --disable-bat \
			--disable-xmlto --disable-rst2man --disable-nls --disable-alsatest \
			CFLAGS="-g -O2 -Wall"
		make -C include
		make -C amidi -j"$JOBS_US"
		# amidi -e uses framed output only if built against the series
		nm -D amidi/amidi | grep -qw snd_rawmidi_twrite
		install -D -m 755 amidi/amidi "$STAGE$PREFIX/bin/amidi"
	) > "$US/logs/alsa-utils.log" 2>&1 || { tail -40 "$US/logs/alsa-utils.log"; die "alsa-utils build failed"; }
	! grep -E '^[^ ]*\.[ch]:[0-9]+:[0-9]+: warning:' "$US/logs/alsa-utils.log" | grep amidi ||
		die "alsa-utils: amidi builds with warnings ($US/logs/alsa-utils.log)"

	say "userspace: libremidi against it (cmake, make -j$JOBS_US)"
	src=$US/src/libremidi
	(
		# Only the ALSA back-ends (JACK, PipeWire and the network one
		# need what Debian 12 lacks or the guest has not). The unit
		# tests use Debian's Catch2 (v2) instead of fetching v3:
		# FetchContent tries find_package first, and nothing is
		# downloaded.
		LDFLAGS="-L$STAGE$PREFIX/lib" cmake -S "$src" -B "$src/obj" \
			-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$PREFIX \
			-DALSA_INCLUDE_DIR="$STAGE$PREFIX/include" \
			-DALSA_LIBRARY="$STAGE$PREFIX/lib/libasound.so" \
			-DLIBREMIDI_NO_JACK=ON -DLIBREMIDI_NO_PIPEWIRE=ON -DLIBREMIDI_NO_NETWORK=ON \
			-DLIBREMIDI_NO_UDEV=ON -DLIBREMIDI_TESTS=ON \
			-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS -DFETCHCONTENT_FULLY_DISCONNECTED=ON
		# the library and the unit tests that do_test runs, no others
		cmake --build "$src/obj" -j "$JOBS_US" --target libremidi $LIBREMIDI_TESTS
		DESTDIR="$STAGE" cmake --install "$src/obj"
		# the guest's test of scheduling through libremidi: its public
		# API only, linked statically with libremidi (and libstdc++,
		# which the guest does not have)
		# (-D: what libremidi's cmake package gives its users)
		g++ -std=c++20 -O2 -s -Wall -Wextra -DLIBREMIDI_ALSA -DLIBREMIDI_KEYBOARD \
			-I "$STAGE$PREFIX/include" \
			-o "$STAGE$PREFIX/bin/libremidi-sched" "$TOP/guest/libremidi-sched.cpp" \
			"$STAGE$PREFIX/lib/liblibremidi.a" -static-libstdc++ -static-libgcc -ldl -lpthread
	) > "$US/logs/libremidi.log" 2>&1 || { tail -40 "$US/logs/libremidi.log"; die "libremidi build failed"; }
	! grep -E '^[^ ]*\.(hpp|cpp):[0-9]+:[0-9]+: warning:' "$US/logs/libremidi.log" |
		grep -E 'alsa_raw|linux/alsa|framed|libremidi-sched' ||
		die "libremidi: the patched sources build with warnings ($US/logs/libremidi.log)"
	echo "$hash" > "$US/stamp"
	say "userspace: built into $STAGE$PREFIX in $((SECONDS - t0)) s"
}

do_test() {
	local obj=$US/src/libremidi/obj t bad=0
	[ -f "$US/stamp" ] || die "nothing built (scripts/userspace.sh build)"
	for t in $LIBREMIDI_TESTS; do
		if (cd "$obj" && "./$t") > "$US/logs/test-$t.log" 2>&1; then
			say "libremidi: $t passed"
		else
			tail -20 "$US/logs/test-$t.log"
			say "libremidi: $t FAILED ($US/logs/test-$t.log)"
			bad=1
		fi
	done
	fake_asound_tests || bad=1
	return $bad
}

# fake_run LIB FRAMED ARGS...: libremidi-sched with the stand-in libasound
# of $fake/LIB, its "kernel" with framed output if FRAMED is 1; its output
# in $fake/out, the library's log in $fake/log
fake_run() {
	local lib=$1 framed=$2
	shift 2
	rm -f "$fake/log"
	FAKE_ASOUND_LOG=$fake/log FAKE_ASOUND_FRAMED=$framed LD_LIBRARY_PATH=$fake/$lib \
		"$STAGE$PREFIX/bin/libremidi-sched" -o 0,0 -n 8 -g 10 -d 20 "$@" > "$fake/out" 2>&1
}
# the bytes written, 3 to a line, with the time stamp of their write
# ("now" for none, "-" for a plain write)
fake_sent() {
	awk '$1 == "twrite" || $1 == "write" {
		t = $1 == "write" ? "-" : $2 == "0.000000000" ? "now" : $2
		for (i = 2 + ($1 == "twrite"); i + 2 <= NF; i += 3) print t, $i, $(i + 1), $(i + 2) }' "$fake/log"
}
# the messages libremidi-sched scheduled, the same way (time as SEC.NSEC)
fake_scheduled() {
	awk '$1 == "msg" { printf "%d.%09d %s %s %s\n", $2 / 1e9, $2 % 1e9, $3, $4, $5 }' "$fake/out"
}
fake_check() {
	local name=$1
	shift
	if "$@"; then
		say "libremidi: $name: passed"
	else
		sed 's/^/    | /' "$fake/out" "$fake/log" | head -40
		say "libremidi: $name: FAILED"
		return 1
	fi
}
fake_framed() {
	fake_run twrite 1 || return
	grep -q '^# framed output' "$fake/out" && ! grep -q '^warning' "$fake/out" || return
	# opened once, without SND_RAWMIDI_SYNC, framed on CLOCK_MONOTONIC
	[ "$(grep -c '^open ' "$fake/log")" = 1 ] && grep -qx 'open hw:0,0,0 NONBLOCK' "$fake/log" &&
		grep -qx 'params TSTAMP MONOTONIC 65536' "$fake/log" || return
	# every message at its time stamp, the SysEx in one write, the last
	# (send_message) with none
	[ "$(grep -c '^twrite .* f0 7d .* f7$' "$fake/log")" = 1 ] || return
	diff <(fake_scheduled | sed '$ s/^[^ ]*/now/') <(fake_sent)
}
fake_relative() {
	fake_run twrite 1 -r || return
	# each departure the same offset after the schedule's time
	paste -d ' ' <(fake_scheduled | sed '$d') <(fake_sent | sed '$d') |
		awk '{ d = $5 - $1; if ($2 != $6 || $3 != $7 || $4 != $8 || d < 0 || d > 0.1) bad = 1
		       if (NR > 1 && (d - d0 > 1e-6 || d0 - d > 1e-6)) bad = 1; d0 = d }
		     END { exit bad || NR < 8 }'
}
# without framed output: opened as before (SND_RAWMIDI_SYNC), plain
# writes in order, one warning saying why
fake_fallback() {
	local lib=$1 framed=$2 opens=$3 why=$4
	fake_run "$lib" "$framed" || return
	[ "$(grep -c '^warning:' "$fake/out")" = 1 ] && grep -q "^warning: .*($why" "$fake/out" || return
	[ "$(grep '^open ' "$fake/log" | tr '\n' ' ')" = "$opens" ] || return
	! grep -q '^twrite' "$fake/log" && diff <(fake_scheduled | cut -d' ' -f2-) <(fake_sent | cut -d' ' -f2-)
}
# UMP (-u): one snd_ump_twrite() per scheduled message, at its time (the
# SysEx as four SysEx7 packets in one call), send_ump() with none
fake_ump_framed() {
	fake_run twrite 1 -u || return
	grep -q '^# framed output' "$fake/out" && ! grep -q '^warning' "$fake/out" || return
	[ "$(grep -c '^open ' "$fake/log")" = 1 ] && grep -qx 'open hw:0,0,0 NONBLOCK' "$fake/log" &&
		grep -qx 'params TSTAMP MONOTONIC 65536' "$fake/log" || return
	[ "$(grep -c '^utwrite [0-9.]* 3016.*$' "$fake/log")" = 1 ] &&
		[ "$(grep '^utwrite [0-9.]* 3016' "$fake/log" | wc -w)" = 10 ] || return
	# (a message starts with its status byte: 90, f0 or b0 here)
	diff <(fake_scheduled | awk '$2 ~ /^(90|f0|b0)$/ { print $1 }' | sed '$ s/.*/0.000000000/') \
		<(awk '$1 == "utwrite" { print $2 }' "$fake/log")
}
fake_ump_fallback() {
	local lib=$1 framed=$2 opens=$3 why=$4
	fake_run "$lib" "$framed" -u || return
	[ "$(grep -c '^warning:' "$fake/out")" = 1 ] && grep -q "^warning: alsa_raw_ump: .*($why" "$fake/out" || return
	[ "$(grep '^open ' "$fake/log" | tr '\n' ' ')" = "$opens" ] || return
	! grep -q '^utwrite' "$fake/log" && [ "$(grep -c '^uwrite' "$fake/log")" = 9 ]
}
fake_asound_tests() {
	local bad=0
	fake=$US/fake
	rm -rf "$fake" && mkdir -p "$fake/twrite" "$fake/old"
	gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I "$STAGE$PREFIX/include" -Wl,-soname,libasound.so.2 \
		-o "$fake/twrite/libasound.so.2" "$TOP/scripts/fake-asound.c" || return 1
	gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I "$STAGE$PREFIX/include" -Wl,-soname,libasound.so.2 \
		-DNO_TWRITE -o "$fake/old/libasound.so.2" "$TOP/scripts/fake-asound.c" || return 1
	fake_check "schedule_message() through framed output (stand-in libasound)" fake_framed || bad=1
	fake_check "Relative timestamps through framed output (stand-in libasound)" fake_relative || bad=1
	fake_check "a kernel without framed output: reopened with SYNC, sent at once, one warning" \
		fake_fallback twrite 0 "open hw:0,0,0 NONBLOCK open hw:0,0,0 SYNC " "the kernel has no framed output" || bad=1
	fake_check "a libasound without snd_rawmidi_twrite(): opened as before, sent at once, one warning" \
		fake_fallback old 1 "open hw:0,0,0 SYNC " "libasound has no snd_rawmidi_twrite" || bad=1
	fake_check "schedule_ump() through framed UMP output (stand-in libasound)" fake_ump_framed || bad=1
	fake_check "UMP, a kernel without framed output: reopened with SYNC, sent at once, one warning" \
		fake_ump_fallback twrite 0 "open hw:0,0,0 NONBLOCK open hw:0,0,0 SYNC " "the kernel has no framed output" || bad=1
	fake_check "UMP, a libasound without snd_ump_twrite(): opened as before, sent at once, one warning" \
		fake_ump_fallback old 1 "open hw:0,0,0 SYNC " "libasound has no snd_ump_twrite" || bad=1
	return $bad
}

case $cmd in
build)	do_build ;;
test)	do_test ;;
tree)	for p in "${PKGS[@]}"; do do_tree "$p"; done ;;
export)	for p in "${PKGS[@]}"; do do_export "$p"; done ;;
*)	die "usage: userspace.sh [build|test|tree|export] [PKG...]" ;;
esac
