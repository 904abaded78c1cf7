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
#   farm.sh verdict KERNEL LOG
#                          its results (scripts/verdict.sh), with the
#                          failures config/farm-known.txt expects of KERNEL
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
	[ -x "$inst/run_kselftest.sh" ] || exit 1
	for p in $RAWMIDI_KSELFTESTS; do
		[ -x "$inst/alsa/$p" ] || { echo "not installed: alsa/$p"; exit 1; }
	done
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
verdict)
	# A kernel without a fix of the series fails that fix's test: there
	# the failure is the result, as a farm's list of known issues has
	# it, and a pass would be one (the test no longer finds the bug).
	# The program and the run that failed by those alone pass.
	kernel=${2:?} log=${3:?}
	NO_KUNIT=1 "$TOP/scripts/verdict.sh" "$log" alsa |
	awk -v k="$kernel" -v known_list="$TOP/config/farm-known.txt" '
	BEGIN {
		while ((getline l < known_list) > 0) {
			if (l ~ /^#/ || split(l, f, " ") < 3) continue
			w = l; sub(/^[^ ]+ [^ ]+ /, "", w)
			if (f[1] == k) why[f[2]] = w
			else if (f[1] == k "?") may[f[2]] = w
		}
	}
	/^    \| / { if (!drop) print; next }
	{ drop = 0; kind = $1; name = substr($0, length(kind) + 2) }
	name in may {
		if (kind == "FAIL") { print "PASS " name ": fails, as it may (a race) without " may[name]; known++; drop = 1 }
		else print
		next
	}
	name in why {
		seen[name] = 1
		if (kind == "FAIL") { print "PASS " name ": fails, as it must without " why[name]; known++; drop = 1 }
		else print "FAIL " name ": does not fail without " why[name]
		next
	}
	kind == "FAIL" && split(name, part, ":") >= 3 { unknown++ }
	kind == "FAIL" && name ~ /^alsa:[^: ]+$/ && known && !unknown { print "PASS " name ": failed by known failures only"; drop = 1; next }
	kind == "FAIL" && name ~ /^alsa: exit code / && known && !unknown { print "PASS " name ", by known failures only"; drop = 1; next }
	{ print }
	END { for (n in why) if (!(n in seen)) print "FAIL " n ": missing (it must fail without " why[n] ")" }
	'
	;;
*)	die "usage: farm.sh install OBJ | guest NAME | run NAME LOG | verdict KERNEL LOG" ;;
esac
