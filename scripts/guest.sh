#!/bin/bash
# guest.sh [test|debug]: build the guest's test programs against the kernel
# tree's uapi headers and pack the initramfs $BUILD/obj-NAME/initrd.gz:
# busybox, /init, the kernel's modules, static kselftest programs, and the
# real clients (amidi, aconnect, a libasound tread program) with their
# shared libraries; and (mainline) the patched alsa-lib and amidi of
# userspace/ with the programs that test them.
. "$(dirname "$0")/lib.sh"
name=${1:-test}
obj=$BUILD/obj-$name
root=$obj/guest-root
sel=$KSRC/tools/testing/selftests

# kselftest programs of the series, built if the tree has them. A stable
# tree has none: as a CI farm does, it runs the mainline programs, built
# from the series (branch ci of the mainline tree, which check.sh makes
# first) against the series' uapi headers; only the programs and cases
# named in STABLE_TESTS, and each case skips what the kernel lacks.
KSELFTESTS=$(for p in $RAWMIDI_KSELFTESTS; do echo "alsa/$p"; done)
if [ "$TREE" != 7.3 ]; then
	KSELFTESTS=$(for p in $STABLE_KSELFTESTS; do echo "alsa/$p"; done)
	sel=$BUILD/stable-selftests
	rm -rf "$sel" && mkdir -p "$sel/alsa" "$sel/include/sound"
	for f in kselftest_harness.h kselftest.h alsa/rawmidi-common.c alsa/rawmidi-common.h \
		 $(for p in $STABLE_KSELFTESTS; do echo "alsa/$p.c"; done); do
		git -C "$BUILD/linux" show "ci:tools/testing/selftests/$f" > "$sel/$f" ||
			die "no mainline branch ci: run TREE=7.3 scripts/apply.sh ci first"
	done
	# the sound uapi headers of the series, prepared for user space by the
	# series' own headers_install.sh (run where this tree's build has the
	# unifdef it calls)
	git -C "$BUILD/linux" show ci:scripts/headers_install.sh > "$sel/headers_install.sh"
	for f in asound.h asequencer.h; do
		git -C "$BUILD/linux" show "ci:include/uapi/sound/$f" > "$sel/$f.in"
		(cd "$obj" && sh "$sel/headers_install.sh" "$sel/$f.in" "$sel/include/sound/$f") ||
			die "cannot prepare the series' $f for user space"
	done
fi

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib,lib64,usr/bin,usr/share,tests/kselftest}
cp /bin/busybox "$root/bin/busybox"
cp "$TOP/guest/init" "$root/init"
[ -z "${STABLE_TESTS:-}" ] || echo "$STABLE_TESTS" > "$root/tests/kselftest.args"
install -m 755 "$TOP"/guest/*.sh "$root/tests/"
install -m 644 "$TOP"/guest/summary.awk "$root/tests/"
cp -a "$obj/modinst/lib/modules" "$root/lib/"

say "guest: building test programs"
cflags="-O2 -Wall -static -isystem $obj/usr/include -I $sel"
# (a stable tree: the series' sound uapi headers before the tree's own)
[ "$TREE" = 7.3 ] || cflags="-I $sel/include $cflags"
# The rawmidi programs share rawmidi-common.c, where the tree has it (the
# alsa Makefile links it into each).
common=
[ ! -f "$sel/alsa/rawmidi-common.c" ] || common=$sel/alsa/rawmidi-common.c
for t in $KSELFTESTS; do
	src=$sel/$t.c
	[ -f "$src" ] || continue
	gcc $cflags -o "$root/tests/kselftest/${t##*/}" "$src" ${common:+"$common"} -lpthread
	# The same cases from a 32-bit program, through the compat ioctls.
	gcc $cflags -m32 -o "$root/tests/kselftest/${t##*/}-32" "$src" ${common:+"$common"} -lpthread
done
for prog in drainlat load tstamperr rt jitter cpucost txcost schedout mtctl altswitch wakelat; do
	gcc -O2 -Wall -static -isystem "$obj/usr/include" -o "$root/tests/$prog" "$TOP/guest/$prog.c"
done
gcc -O2 -Wall -o "$root/tests/tread" "$TOP/guest/tread.c" -lasound
# testusb, for guest/usbtest.sh (Gadget Zero on dummy_hcd, mainline trees)
[ "$TREE" != 7.3 ] ||
	gcc -O2 -Wall -static -pthread -o "$root/tests/testusb" "$KSRC/tools/usb/testusb.c"

# Real clients and the shared libraries they load (aplaymidi: a MIDI
# file through the sequencer, guest/seqplay.sh); and the bench's
# companion of the floor, rt-tests' cyclictest.
cp /usr/bin/amidi /usr/bin/aconnect /usr/bin/aplaymidi /usr/bin/cyclictest "$root/usr/bin/"
cp -a /usr/share/alsa "$root/usr/share/"
for lib in $(ldd /usr/bin/amidi /usr/bin/aconnect /usr/bin/aplaymidi /usr/bin/cyclictest "$root/tests/tread" |
	     awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && NF > 1 { print $1 }' | sort -u); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

# The patched alsa-lib and amidi (scripts/userspace.sh build), beside
# Debian's in /opt/alsa-rawmidi with their own library and configuration,
# used through LD_LIBRARY_PATH by guest/userspace.sh and the bench only;
# and the test programs linked against them.
# Built here (scripts/userspace.sh: from the tarballs, cached), so that
# every boot of the mainline tree has them.
us=$BUILD/userspace/prefix/opt/alsa-rawmidi
[ "$TREE" != 7.3 ] || "$TOP/scripts/userspace.sh" build
if [ "$TREE" = 7.3 ] && [ -x "$us/bin/amidi" ]; then
	say "guest: the patched alsa-lib and amidi ($us)"
	mkdir -p "$root/opt/alsa-rawmidi/bin" "$root/opt/alsa-rawmidi/lib" "$root/opt/alsa-rawmidi/share"
	cp "$us/bin/amidi" "$us/bin/rawmidi_twrite" "$us/bin/ump_twrite" "$root/opt/alsa-rawmidi/bin/"
	# libremidi's scheduling test (userspace/libremidi; libremidi and
	# libstdc++ linked in, libasound loaded at run time)
	cp "$us/bin/libremidi-sched" "$root/opt/alsa-rawmidi/bin/"
	cp -a "$us"/lib/libasound.so* "$root/opt/alsa-rawmidi/lib/"
	cp -a "$us/share/alsa" "$root/opt/alsa-rawmidi/share/"
	for prog in ustwrite schedout-alsa; do
		gcc -O2 -Wall -I "$us/include" -o "$root/tests/$prog" "$TOP/guest/$prog.c" \
			-L "$us/lib" -lasound
	done
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$obj/initrd.gz"
say "guest: $obj/initrd.gz ($(du -h "$obj/initrd.gz" | cut -f1))"
