#!/bin/bash
# cross.sh: sound/ as the kernel test robot builds it and make check's
# kernels do not: with W=1 for i386 (the native gcc, ARCH=i386) and for
# 32-bit arm (Debian's arm-none-eabi gcc; its arm-linux-gnueabihf cross
# compiler cannot be installed beside gcc-multilib in bookworm, which the
# 32-bit selftests need), and for x86_64 with sound as modules and no
# sequencer. Each over tinyconfig plus config/cross.config (and
# config/cross-noseq.config), sound/ only (no link). Prints "PASS/FAIL
# cross NAME: ..." lines: no warning at all, and no object that calls a
# 64-bit division helper of libgcc, which the kernel does not provide
# (__udivdi3 and its kin on i386, __aeabi_uldivmod on arm: a plain 64-bit
# division where div_u64() belongs). Builds the checked-out tree, or
# CI_SRC.
. "$(dirname "$0")/lib.sh"
logs=$BUILD/logs
mkdir -p "$logs"
rc=0
result() { if "${@:2}"; then echo "PASS cross $1"; else echo "FAIL cross $1"; rc=1; fi; }

# one NAME ARCH CROSS_COMPILE FRAGMENT...
one() {
	local name=$1 arch=$2 cross=$3 obj=$BUILD/obj-cross-$1 log=$logs/cross-$1.log opt
	shift 3
	kmake() {
		make -s -C "$KSRC" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" -j"$JOBS" "$@"
	}
	mkdir -p "$obj"
	if ! { kmake tinyconfig &&
	       "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" &&
	       kmake olddefconfig; } > "$log" 2>&1; then
		tail -20 "$log"
		result "$name: configure" false
		return
	fi
	# what the series adds must be in the build, and the sequencer where asked
	local want="SND_RAWMIDI SND_MIDITEST SND_RAWMIDI_KUNIT_TEST"
	grep -q '^# CONFIG_SND_SEQUENCER is not set' "$obj/.config" || want+=" SND_VIRMIDI SND_SEQUENCER"
	local missing=""
	for opt in $want; do
		grep -q "^CONFIG_$opt=[ym]$" "$obj/.config" || missing+=" $opt"
	done
	[ -z "$missing" ] || echo "  not in the $name config:$missing"
	result "$name: the config has what the series adds" [ -z "$missing" ]
	kmake W=1 sound/ >> "$log" 2>&1 || echo "make failed" >> "$log"
	grep -E ': (warning|error):|make failed' "$log" | sed 's/^/  /' || true
	result "$name: W=1 sound/, no warning" sh -c "! grep -qE ': (warning|error):|make failed' '$log'"
	local helpers
	helpers=$(find "$obj/sound" -name '*.o' -print0 | xargs -0 -r "${cross}nm" -A -u 2>/dev/null |
		  grep -E '__(u)?(div|mod)di3|__aeabi_u?ldivmod' |
		  sed "s|^$obj/||" || true)
	[ -z "$helpers" ] || echo "$helpers" | sed 's/^/  /'
	result "$name: no 64-bit division helper called" [ -z "$helpers" ]
}

one i386 i386 "" "$TOP/config/cross.config"
one arm arm arm-none-eabi- "$TOP/config/cross.config" "$TOP/config/cross-arm.config"
one x86_64-noseq x86_64 "" "$TOP/config/cross.config" "$TOP/config/cross-noseq.config"
exit $rc
