#!/bin/bash
# check.sh: every check of the series, as "PASS/FAIL/SKIP name" lines, ending
# with "N passed, N failed, N skipped". Works on branch "ci" of the kernel
# tree, made afresh from patches/.
. "$(dirname "$0")/lib.sh"
return_to_branch
results=$BUILD/results.txt
logs=$BUILD/logs
mkdir -p "$logs"
: > "$results"
record() { echo "$1 $2" | tee -a "$results"; }
pass_if() { local name=$1; shift; if "$@"; then record PASS "$name"; else record FAIL "$name"; fi; }

summary() {
	p=$(grep -c '^PASS' "$results" || true)
	f=$(grep -c '^FAIL' "$results" || true)
	s=$(grep -c '^SKIP' "$results" || true)
	echo
	echo "time per stage:"
	sed 's/^/  /' "$times"
	echo "  total $SECONDS s"
	# each failure with the diagnostics verdict.sh kept for it
	awk '/^FAIL/ { f = 1; print "  " $0; next } /^    \| / { if (f) print "  " $0; next } { f = 0 }' "$results"
	echo "$p passed, $f failed, $s skipped"
	[ "$f" = 0 ]
}
# stage NAME: start a stage; the time each stage took is printed as it
# ends and again in the summary.
times=$BUILD/stage-times.txt
: > "$times"
stage_name='' stage_start=$SECONDS
stage() {
	[ -z "$stage_name" ] ||
		printf '%-72s %4d s\n' "$stage_name" $(( SECONDS - stage_start )) | tee -a "$times" >&2
	stage_name=$1 stage_start=$SECONDS
	[ -z "$1" ] || say "$1"
}
trap 'lane_kill; record FAIL "harness: aborted (see above)"; stage ""; summary; exit 1' ERR

stage "stage 1/8: apply the series"
"$TOP/scripts/apply.sh" ci
cd "$KSRC"
mapfile -t commits < <(git rev-list --reverse base..ci)
touched=$(git diff --name-only base ci)

# The lane (scripts/lane.sh) builds the debug and stable kernels from
# here on, on the CPU time the stages before them leave.
# A process group of its own (for lane_stop), but not a session: a new
# session is a new autogroup, which the scheduler gives an equal share
# of the CPU whatever its tasks' policy (the lane then halved the
# foreground's first build).
rm -rf "$LANE" && mkdir -p "$LANE"
perl -e 'setpgrp(0, 0); exec @ARGV or die "exec: $!"' \
	chrt -i 0 ionice -t -c 3 nice -n 19 "$TOP/scripts/lane.sh" > "$LANE/lane.log" 2>&1 < /dev/null &
echo $! > "$LANE/pgid"
# (its group exists once perl has run setpgrp)
for _ in $(seq 50); do kill -0 -- "-$!" 2>/dev/null && break; sleep 0.1; done
export LANE_ON=1
# However this script ends, the lane ends with it (on_exit, lib.sh).
LANE_OWNER=$$
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

stage "stage 2/8: export round trip and checkpatch"
rm -rf "$BUILD/roundtrip"
"$TOP/scripts/export.sh" ci "$BUILD/roundtrip"
pass_if "series: export reproduces patches/ exactly" \
	diff -r "$TOP/patches" "$BUILD/roundtrip"
# checkpatch asks for a MAINTAINERS update on every new file; instead of
# that warning, check that MAINTAINERS really covers each new file. It
# cannot look up mainline commit ids here (the tree has no history):
# config/fixes.txt lists the verified ones, checked below.
# (Its SPDX check runs the python3 that has Debian's python3-ply.)
while read -r p; do
	name=${p##*/}
	if PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$p" > "$logs/checkpatch-$name.log" 2>&1 \
	   && [ ! -s "$logs/checkpatch-$name.log" ]; then
		record PASS "checkpatch --strict: $name"
	else
		cat "$logs/checkpatch-$name.log"; record FAIL "checkpatch --strict: $name"
	fi
done < <(series_files)

# Every mainline commit a patch names (Fixes:, or "commit-id ("subject")"
# in the text, the subject possibly wrapped) is one verified in
# config/fixes.txt, with its subject.
while read -r p; do
	bad=$({ tr '\n' ' ' < "$p" | tr -s ' ' | grep -oE '\b[0-9a-f]{12} \("[^"]+"\)' || true; } |
	      while read -r id rest; do
		subj=${rest#(\"}; subj=${subj%\")}
		awk -F'\t' -v id="$id" -v s="$subj" '$1 == id && $2 == s { f = 1 } END { exit !f }' \
			"$TOP/config/fixes.txt" || echo "$id $rest"
	done)
	[ -z "$bad" ] && continue
	echo "$bad"; record FAIL "fixes: ${p##*/} names an unverified commit"
done < <(series_files)
record_count=$(series_files 1-fixes | wc -l)
missing=$(for p in $(series_files 1-fixes); do
	grep -q '^Fixes: [0-9a-f]\{12\} ("' "$p" && grep -Eq '^Cc: stable@vger.kernel.org( # .*)?$' "$p" ||
		echo "${p##*/}"; done)
pass_if "fixes: all $record_count patches of 1-fixes carry Fixes: and Cc: stable" [ -z "$missing" ]
# One protocol bump, in the last patch of the feature (10-ump), once the
# uapi it announces is complete; every feature patch in its final form
# (the exceptions and their reasons: config/final-form-allow.txt).
bumps=$(git log --format=%H -G'define SNDRV_RAWMIDI_VERSION' base..ci -- include/uapi/sound/asound.h)
pass_if "uapi: one patch bumps the protocol, the last of 10-ump" [ "$bumps" = "$(git rev-parse ci.10-ump)" ]
ff=0; "$TOP/scripts/final-form.sh" ci > "$logs/final-form.log" 2>&1 || ff=$?
grep -v '^allowed: ' "$logs/final-form.log" || true
pass_if "final form: no feature patch rewrites an earlier one's lines ($(grep -c '^allowed: ' "$logs/final-form.log") allowed pairs)" [ "$ff" = 0 ]
# The uapi is 2.0.6 (mainline is at 2.0.5): nothing in the kernel may gate on 2.0.5.
pass_if "uapi: SNDRV_RAWMIDI_VERSION is 2.0.6" \
	grep -q '^#define SNDRV_RAWMIDI_VERSION.*SNDRV_PROTOCOL_VERSION(2, 0, 6)' include/uapi/sound/asound.h
pass_if "uapi: no kernel code gates on protocol 2.0.5" \
	sh -c "! grep -rn 'SNDRV_PROTOCOL_VERSION(2, 0, 5)' sound/ include/"

for f in $(git diff --diff-filter=A --name-only base ci); do
	pass_if "MAINTAINERS covers new file $f" \
		sh -c "./scripts/get_maintainer.pl --nogit --nogit-fallback -f '$f' | grep -q -e '(maintainer:' -e '(supporter:'"
done

# make mail: every posting (mainline, stable, user space) sent and signed
# off by a real person, no trace of the placeholder identity left
# (mail.sh fails if there is one).
pass_if "mail: make mail FROM= leaves no placeholder in any posting" \
	"$TOP/scripts/mail.sh" "Ada Example <ada@example.org>" "$BUILD/mail-check"

# The user-space counterpart (userspace/: alsa-lib, amidi and libremidi
# patches), built from the release tarballs, and its own export round trip.
pass_if "userspace: alsa-lib, amidi and libremidi build from the tarballs with their patches" \
	"$TOP/scripts/userspace.sh" build
pass_if "userspace: alsa-lib's raw MIDI uapi is the kernel's, byte for byte" \
	"$TOP/scripts/us-uapi.sh" include/uapi/sound/asound.h \
	"$BUILD/userspace/src/alsa-lib/include/sound/uapi/asound.h"
us_rt=$BUILD/us-roundtrip
rm -rf "$us_rt"
if BUILD=$us_rt "$TOP/scripts/userspace.sh" tree > "$logs/us-roundtrip.log" 2>&1 &&
   BUILD=$us_rt US_OUT=$us_rt/out "$TOP/scripts/userspace.sh" export >> "$logs/us-roundtrip.log" 2>&1; then
	pass_if "userspace: export reproduces userspace/ exactly" diff -r "$TOP/userspace" "$us_rt/out"
else
	tail -20 "$logs/us-roundtrip.log"; record FAIL "userspace: export reproduces userspace/ exactly"
fi
# -- libremidi (issue #41): its unit tests that need no MIDI device, and
# its ALSA raw output against a stand-in libasound (scripts/fake-asound.c)
pass_if "userspace: libremidi's unit tests that need no device, and its scheduling against a stand-in libasound (framed; fallbacks)" \
	"$TOP/scripts/userspace.sh" test
# The README's C example, built with the README's own two lines
readme_example() {
	local d rc
	d=$(mktemp -d) || return
	awk '/^```c$/ { f = 1; next } /^```$/ { f = 0 } f' "$TOP/README.md" > "$d/note.c"
	grep -A1 '^P=build/userspace' "$TOP/README.md" | sed "s|^P=|P=$TOP/|" > "$d/build.sh"
	# and, its fallback, with Debian's libasound, which has no framed output
	(cd "$d" && sh -e build.sh) && [ -x "$d/note" ] &&
		gcc -Wall -Werror -o "$d/note-stock" "$d/note.c" -lasound
	rc=$?
	rm -rf "$d"
	return $rc
}
pass_if "README: the C example builds with the README's gcc line against the patched alsa-lib, and with Debian's" readme_example
# -- end libremidi --

stage "stage 3/8: build each patch on its own (bisectability)"
# The kernel that stages 3 to 6 build and boot: PREEMPT_RT with lockdep
# (config/rt.config, config/lockdep.config), what musicians run and the
# strictest about locking context; stage 7's debug kernel is the one
# without PREEMPT_RT. (Until 2026-12-03 make check also built and booted
# the test kernel, without either: one of five cold builds that together
# took CI over its 90 minutes. make demo boots that one.)
main=rt
# The kernel, and the rawmidi selftests against that kernel's uapi headers.
syntax_only() {
	local f
	for f in tools/testing/selftests/alsa/rawmidi*.c; do
		[ ! -f "$f" ] ||
			gcc -Wall -Werror -c -o /dev/null -I tools/testing/selftests \
			    -isystem "$BUILD/obj-$main/usr/include" "$f" || return
	done
}
build_at() {
	COMPILE_ONLY=1 "$TOP/scripts/build.sh" $main && syntax_only
}
# A patch whose kernel change is C code and headers under sound/ is
# compiled there only (sound/, no link: 3.6 s against 15 s for the no-op
# vmlinux and modules here); the first patch, the last patch of each
# posting and any patch that touches anything else (a Kconfig file or a
# Makefile, code outside sound/) get the whole kernel linked and modpost.
build_sound() {
	COMPILE_ONLY=sound/ "$TOP/scripts/build.sh" $main && syntax_only
}
# A patch that changes only C files outside sound/ and include/ (a USB
# gadget function, say) is compiled in their directories, the same way.
build_dirs() {
	COMPILE_ONLY="$dirs" "$TOP/scripts/build.sh" $main && syntax_only
}
ends=$(for p in $(postings); do git rev-parse "ci.$p"; done)
for c in "${commits[@]}"; do
	git checkout -q "$c"
	subj=$(git log -1 --format=%s)
	files=$(git diff --name-only "$c~1" "$c" | grep -v -e '^tools/' -e '^Documentation/' -e '^MAINTAINERS$' || true)
	what=build_at
	if [ "$c" = "${commits[0]}" ] || grep -qxF "$c" <<< "$ends"; then
		:
	elif [ -z "$files" ]; then
		# Only tests or documentation: the kernel is what the previous
		# patch built; check that the selftest compiles.
		what=syntax_only
	elif ! grep -qv -E '^(sound|include/sound|include/uapi/sound)/.*\.[ch]$' <<< "$files"; then
		what=build_sound
	elif ! grep -qv '\.c$' <<< "$files" && ! grep -q '^include/' <<< "$files"; then
		dirs=$(sed 's|[^/]*$||' <<< "$files" | sort -u | tr '\n' ' ')
		what=build_dirs
	fi
	if $what > "$logs/build-$c.log" 2>&1; then
		record PASS "builds: $subj"
	else
		tail -30 "$logs/build-$c.log"; record FAIL "builds: $subj"
	fi
	# Keep the kernel before the uapi posting (protocol 2.0.5, what 7.3
	# has, plus the test driver), with its guest, for the real clients.
	if [ "$c" = "$(git rev-parse ci.6-drain)" ]; then
		pre=$BUILD/obj-pre-uapi
		"$TOP/scripts/build.sh" $main > "$logs/build-pre-uapi.log" 2>&1 ||
			{ tail -30 "$logs/build-pre-uapi.log"; false; }
		rm -rf "$pre" && mkdir -p "$pre/arch/x86/boot"
		cp "$BUILD/obj-$main/arch/x86/boot/bzImage" "$pre/arch/x86/boot/"
		cp -a "$BUILD/obj-$main/modinst" "$BUILD/obj-$main/usr" "$pre/"
		"$TOP/scripts/guest.sh" pre-uapi > "$logs/guest-pre-uapi.log" 2>&1 ||
			{ tail -20 "$logs/guest-pre-uapi.log"; false; }
	fi
done
git checkout -q ci

stage "stage 4/8: W=1, sparse, kernel-doc and htmldocs on sound/"
obj=$BUILD/obj-$main
# w1_sparse REV: the W=1 and sparse warnings over sound/ at REV, one per
# line as "file message" (line numbers dropped, so that base and series
# compare).
w1_sparse() {
	git checkout -q "$1"
	make -s -C "$KSRC" O="$obj" CC="ccache gcc" -j"$JOBS" W=1 C=2 sound/ \
		> "$logs/w1-sparse-$1.log" 2>&1 || true
	{ grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error):' "$logs/w1-sparse-$1.log" || true; } |
		sed -E "s|^$KSRC/||; s/:[0-9]+:([0-9]+:)? / /" | sort
}
# Debian's sparse (0.6.4, bookworm and trixie alike) lacks __typeof_unqual__,
# which 7.3's headers use under __CHECKER__, and kbuild then skips it with
# a warning: say so in the check's name rather than claim a sparse run.
# (The stable trees, which sparse can read, are checked in stage 8.)
if [ "$(sh ./scripts/checker-valid.sh sparse --arch=x86 -mlittle-endian -m64)" = 1 ]; then
	w1_name="W=1 + sparse: no new warnings in sound/"
else
	w1_name="W=1 (sparse 0.6.4 cannot read 7.3): no new warnings in sound/"
fi
# The series first, while the config still has the options it adds.
w1_sparse ci > "$logs/w1-sparse-ci.txt"
w1_sparse base > "$logs/w1-sparse-base.txt"
# The farm stage's Debian 7.3.4 as it is (farm-7.3), built while the tree
# is at base, in the same object tree: only what differs from ci is
# compiled (sound/, and what uses the Kconfig symbols the series adds),
# and again once back at ci below.
farm_t0=$SECONDS
"$TOP/scripts/build.sh" $main > "$logs/build-farm-7.3.log" 2>&1 ||
	{ tail -30 "$logs/build-farm-7.3.log"; false; }
farm73=$BUILD/obj-farm-7.3
rm -rf "$farm73" && mkdir -p "$farm73/arch/x86/boot"
cp "$BUILD/obj-$main/arch/x86/boot/bzImage" "$farm73/arch/x86/boot/"
cp -a "$BUILD/obj-$main/modinst" "$BUILD/obj-$main/.config" "$farm73/"
say "farm-7.3 kernel (7.3.4 without the series): built in $(( SECONDS - farm_t0 )) s"
git checkout -q ci
# sparse cannot follow the unlock in guard()/scoped_guard(), which
# sound/core uses throughout, and reports "context imbalance" for every
# function that takes one: those are listed, not counted.
comm -13 "$logs/w1-sparse-base.txt" "$logs/w1-sparse-ci.txt" > "$logs/w1-sparse-new.txt"
grep 'context imbalance' "$logs/w1-sparse-new.txt" | sed 's/^/  (guard) /' || true
pass_if "$w1_name" \
	sh -c "! grep -v 'context imbalance' '$logs/w1-sparse-new.txt'"
# kdoc_warnings DIR FILE: kernel-doc's warnings for DIR/FILE, without the
# name and line numbers (so that base and series compare).
kdoc_warnings() {
	{ (cd "$1" && "$KSRC/scripts/kernel-doc" -none -Wall "$2" 2>&1) || true; } |
		sed "s|$2:[0-9]*||" | sort -u
}
# New warnings only: usbcore's message.c and dummy_hcd.c, which the USB
# posting touches, have some of their own on 7.3.4.
kdoc=0
kdoc_base=$(mktemp -d)
for f in $touched; do
	case "$f" in tools/*) continue ;; *.c|*.h) ;; *) continue ;; esac
	mkdir -p "$kdoc_base/$(dirname "$f")"
	git show "base:$f" > "$kdoc_base/$f" 2>/dev/null || : > "$kdoc_base/$f"
	comm -13 <(kdoc_warnings "$kdoc_base" "$f") <(kdoc_warnings "$KSRC" "$f") |
		sed "s|^|  $f: |" | grep . && kdoc=1
done
rm -rf "$kdoc_base"
pass_if "kernel-doc -none -Wall: no new warnings in touched kernel sources" [ $kdoc = 0 ]
# The sound documentation, as the kernel builds it, with Debian's Sphinx
# (/usr/bin first: a python3 of its own in PATH would not have Sphinx).
PATH=/usr/bin:$PATH make -C "$KSRC" O="$BUILD/obj-docs" SPHINXDIRS=sound htmldocs \
	> "$logs/htmldocs.log" 2>&1 || echo "make htmldocs failed" >> "$logs/htmldocs.log"
grep -E 'WARNING|ERROR|failed' "$logs/htmldocs.log" | sed 's/^/  /' || true
pass_if "Documentation: make SPHINXDIRS=sound htmldocs, no warnings" \
	sh -c "! grep -qE 'WARNING|ERROR|failed' '$logs/htmldocs.log'"
pass_if "Documentation: the rawmidi framing page is built" \
	test -s "$BUILD/obj-docs/Documentation/output/sound/designs/rawmidi-framing.html"
"$TOP/scripts/build.sh" $main > "$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; false; }

stage "stage 5/8: kselftests build the usual way"
pass_if "selftests/alsa: make TARGETS=alsa builds" \
	make -s -C tools/testing/selftests TARGETS=alsa KHDR_INCLUDES="-isystem $obj/usr/include" \
	     > "$logs/kselftest-build.log" 2>&1

stage "stage 6/8: boot the PREEMPT_RT kernel (with lockdep): KUnit, kselftests, real clients; the 2.0.5 kernel: clients"
"$TOP/scripts/guest.sh" $main
log=$logs/console-$main.log
# The race test's fuzzer also runs with a seed drawn for this make check
# (section fuzz-seed; its default seed repeats one sequence every run).
fuzz_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
say "fuzz seed $fuzz_seed: RAWMIDI_FUZZ_SEED=$fuzz_seed rawmidi-race-test -f fuzz repeats it"
BOOT_APPEND="rawmidi.fuzzseed=$fuzz_seed" boot_quiet $main tests "$log"
"$TOP/scripts/verdict.sh" "$log" $(rawmidi_sections) fuzz-seed clients alsa-lib amidi usbtest |
	sed "s/^\([A-Z][A-Z]*\) /\1 $main: /" | tee -a "$results" || true
pass_if "$main: the kernel is PREEMPT_RT" grep -q '^=== GUEST START .* PREEMPT_RT ' "$log"
# Old and new user space on the kernel without the uapi posting (2.0.5):
# Debian's clients work, the patched alsa-lib's new calls are refused.
log=$logs/console-pre-uapi.log
boot_quiet pre-uapi clients "$log"
"$TOP/scripts/verdict.sh" "$log" clients alsa-lib amidi |
	sed 's/^\([A-Z][A-Z]*\) /\1 2.0.5 kernel: /' | tee -a "$results" || true

# suite CONFIG: the CONFIG kernel, as the lane built it from
# $BUILD/linux-ci, booted with the whole suite; its results are named
# "CONFIG: ...". Sets $log to its console log. (The ERR trap does not
# reach into functions: each failure returns.)
suite() {
	local rc=0
	lane_wait "$1" || rc=$?
	cp "$LANE/$1.log" "$logs/build-$1.log" 2>/dev/null || true
	[ $rc = 0 ] || { tail -30 "$logs/build-$1.log"; echo "lane: $1 exit status $rc"; return 1; }
	CI_SRC=$BUILD/linux-ci "$TOP/scripts/guest.sh" "$1" || return
	log=$logs/console-$1.log
	# The lane goes on building the stable trees meanwhile: this suite's
	# timing bounds allow for a KASAN kernel's pace, its boot leaves
	# four tenths of the CPU idle (275 s, 2026-12-03), and SCHED_IDLE
	# gives way to QEMU's threads at once.
	BOOT_APPEND="rawmidi.fuzzseed=$fuzz_seed" "$TOP/scripts/boot.sh" "$1" tests "$log" || return
	"$TOP/scripts/verdict.sh" "$log" $(rawmidi_sections) fuzz-seed clients alsa-lib amidi usbtest |
		sed "s/^\([A-Z][A-Z]*\) /\1 $1: /" | tee -a "$results" || true
}

stage "stage 7/8: boot the debug kernel (KASAN, UBSAN, lockdep, kmemleak; no PREEMPT_RT): the same suite"
suite debug
pass_if "debug: kmemleak scanned after the tests" grep -q '^=== KMEMLEAK' "$log"
pass_if "debug: the kernel is not PREEMPT_RT" sh -c "! grep -q '^=== GUEST START .* PREEMPT_RT ' '$log'"

for tree in 6.12 6.1; do
	stage "stage 8/8: stable $tree: posting 1 backported, built, booted, its tests"
	"$TOP/scripts/check-stable.sh" "$tree" | tee -a "$results"
done

# What the kernel test robot builds (scripts/cross.sh, in the lane):
# sound/ with W=1 for i386 and 32-bit arm, and for x86_64 without the
# sequencer; no warning, no 64-bit division helper.
stage "cross: sound/ with W=1 for i386 and arm, and without the sequencer"
rc=0
lane_wait cross || rc=$?
cp "$LANE/cross.log" "$logs/cross.log" 2>/dev/null || true
grep -v -E '^(PASS|FAIL) ' "$logs/cross.log" 2>/dev/null | grep '^  ' || true
grep -E '^(PASS|FAIL) ' "$logs/cross.log" 2>/dev/null | tee -a "$results" || true
grep -q '^PASS cross ' "$logs/cross.log" 2>/dev/null || { tail -20 "$logs/cross.log" 2>/dev/null || true
	record FAIL "cross: no results (exit status $rc)"; }

# Every lane job has been waited for: let the lane end, and forget its
# process group, whose id may be some other group's later.
wait "$(cat "$LANE/pgid")" || true
rm -f "$LANE/pgid"

# The alsa kselftests as CI farms run them (issue #28): built and
# installed by the kselftest Makefile from branch ci, against its headers,
# and run by the installed run_kselftest.sh in a busybox guest with
# nothing loaded (guest/farm.sh), on the series (the PREEMPT_RT kernel of
# stages 3-6), on Debian's 7.3.4 as it is (stage 4) and on the stable
# 6.12 tree of stage 8 (its fixes and test driver, not the series). Every
# case is a result; a skip must say why; on a kernel without a fix, its
# case must fail (config/farm-known.txt).
stage "farm: the alsa kselftests installed and run by run_kselftest.sh, on the series, 7.3.4 and 6.12"
if "$TOP/scripts/farm.sh" install $main; then
	record PASS "farm: make -C tools/testing/selftests TARGETS=alsa install"
	for k in "$main patched" "farm-7.3 7.3" "stable-6.12 6.12"; do
		set -- $k
		log=$logs/console-farm-$2.log
		if "$TOP/scripts/farm.sh" guest "$1" > "$logs/farm-guest-$2.log" 2>&1; then
			"$TOP/scripts/farm.sh" run "$1" "$log"
			"$TOP/scripts/farm.sh" verdict "$2" "$log" |
				sed "s/^\([A-Z][A-Z]*\) /\1 farm-$2: /" | tee -a "$results" || true
		else
			tail -20 "$logs/farm-guest-$2.log"; record FAIL "farm-$2: the guest"
		fi
	done
else
	record FAIL "farm: make -C tools/testing/selftests TARGETS=alsa install"
fi
# The cases that run under SCHED_FIFO hogs skip on PREEMPT_RT, saying
# why (rawmidi-usb-test.c, HOG_STOPS_RIG: the hogs would stop dummy_hcd's
# own timers there); the debug kernel, without PREEMPT_RT, runs them.
hog_skip='(PREEMPT_RT: the hogs would stop dummy_hcd'
# On the series, with the board's UART bound, nothing else may be missing.
for p in $RAWMIDI_KSELFTESTS; do
	pass_if "farm-patched: $p skipped no case (but the hog cases on PREEMPT_RT)" \
		sh -c "! grep '^SKIP farm-patched: alsa:$p:' '$results' | grep -vqF '$hog_skip'"
done
# What the directory's config asks for, the kernels have (=y serves =m).
missing_opts=$(grep '^CONFIG_' tools/testing/selftests/alsa/config | while IFS== read -r opt val; do
	grep -q "^$opt=\(y\|$val\)$" "$BUILD/obj-$main/.config" || echo "$opt=$val"; done)
[ -z "$missing_opts" ] || echo "$missing_opts"
pass_if "farm: the series' kernel has every option of selftests/alsa/config" [ -z "$missing_opts" ]

# The guest has every device the tests need: a skip there hides a failure.
# (The farm's runs skip what their kernel lacks, and say so: not counted.)
skips=$(grep '^SKIP ' "$results" | grep -v '^SKIP farm-' |
	grep -v "^SKIP $main: .*$hog_skip" | grep -c . || true)
pass_if "guest: no test skipped but the hog cases on PREEMPT_RT ($skips skipped)" [ "$skips" = 0 ]
hogs=$({ grep -F "$hog_skip" "$results" || true; } | { grep "^SKIP $main: " || true; } |
	sed "s/^SKIP $main: \(.*\) (PREEMPT_RT.*/\1/" | sort -u)
unrun=$(for c in $hogs; do grep -qxF "PASS debug: $c" "$results" || echo "$c"; done)
[ -z "$unrun" ] || echo "$unrun"
nhogs=$(echo "$hogs" | grep -c . || true)
pass_if "debug: the $nhogs hog cases skipped on PREEMPT_RT ran and passed" \
	test -n "$hogs" -a -z "$unrun"
trap - ERR
stage ""
summary
