#!/bin/bash
# farm.sh: the alsa kselftests as CI farms (KernelCI, LKFT) run them.
#   farm.sh install OBJ    build and install them with the kselftest
#                          Makefile, from branch ci of the mainline tree,
#                          against the uapi headers of $BUILD/obj-OBJ, into
#                          $BUILD/farm/kselftest
#   farm.sh guest NAME     pack $BUILD/obj-NAME/initrd-farm.gz: busybox, the
#                          kernel's modules, /init (run=farm starts
#                          guest/farm.sh) and the installed tests
#   farm.sh run NAME LOG   boot $BUILD/obj-NAME with it (rawmidi.run=farm)
# A farm runs mainline's tests on every kernel it tests, stable ones too:
# the same installed tests go into each guest.
. "$(dirname "$0")/lib.sh"
farm=$BUILD/farm
inst=$farm/kselftest
cmd=${1:?usage: farm.sh install OBJ | guest NAME | run NAME LOG}

case $cmd in
install)
	obj=$BUILD/obj-${2:?}
	rm -rf "$inst"
	mkdir -p "$farm"
	# As a farm does: O= the kernel's object tree, whose usr/include has
	# the headers (scripts/build.sh installs them).
	make -s -C "$KSRC/tools/testing/selftests" O="$obj" TARGETS=alsa \
		INSTALL_PATH="$inst" install > "$farm/install.log" 2>&1 ||
		{ tail -30 "$farm/install.log"; exit 1; }
	[ -x "$inst/run_kselftest.sh" ] && [ -x "$inst/alsa/rawmidi-test" ]
	;;
guest)
	name=${2:?}
	obj=$BUILD/obj-$name
	root=$obj/guest-farm
	[ -x "$inst/run_kselftest.sh" ] || die "no installed kselftests: farm.sh install first"
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib,lib64,usr/bin,usr/share,tests}
	cp /bin/busybox "$root/bin/busybox"
	cp "$TOP/guest/init" "$root/init"
	install -m 755 "$TOP/guest/farm.sh" "$root/tests/"
	cp -a "$obj/modinst/lib/modules" "$root/lib/"
	cp -a "$inst" "$root/kselftest"
	# runner.sh runs each test under /usr/bin/timeout --foreground;
	# busybox's timeout has no --foreground (the test would not start),
	# so the guest gets coreutils' timeout. Without /usr/bin/stdbuf and
	# /usr/bin/perl the runner does without them (sed prefixes the
	# output), as on a busybox board.
	cp /usr/bin/timeout "$root/usr/bin/"
	# alsa-lib's configuration, for mixer-test and pcm-test
	cp -a /usr/share/alsa "$root/usr/share/"
	for lib in $(find "$root/kselftest" "$root/usr/bin" -type f -perm -u+x -exec ldd {} + 2>/dev/null |
		     awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && NF > 1 { print $1 }' |
		     sort -u); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$obj/initrd-farm.gz"
	say "farm guest: $obj/initrd-farm.gz ($(du -h "$obj/initrd-farm.gz" | cut -f1))"
	;;
run)
	name=${2:?}
	log=${3:?}
	# KUnit's suites are the harness's business, not a farm's: not run
	# again here (verdict.sh is told with NO_KUNIT=1).
	INITRD=$BUILD/obj-$name/initrd-farm.gz BOOT_APPEND="kunit.enable=0 ${BOOT_APPEND:-}" \
		"$TOP/scripts/boot.sh" "$name" farm "$log"
	;;
*)	die "usage: farm.sh install OBJ | guest NAME | run NAME LOG" ;;
esac
