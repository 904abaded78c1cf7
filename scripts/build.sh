#!/bin/bash
# build.sh [test|debug|rt|bench|bench-rt]: configure (tinyconfig +
# config/test.config [+ config/usb.config on mainline] [+ the named
# fragment]) and build the checked-out kernel tree out of tree, into
# $BUILD/obj-NAME, with ccache. Also installs modules and uapi headers there
# (COMPILE_ONLY=1: see below).
. "$(dirname "$0")/lib.sh"
name=${1:-test}
obj=$BUILD/obj-$name
frags=("$TOP/config/test.config")
# The mainline kernels get the USB MIDI loopback too (config/usb.config).
[ "$TREE" != 7.3 ] || frags+=("$TOP/config/usb.config")
case $name in
test)		;;
rt)		frags+=("$TOP/config/rt.config" "$TOP/config/lockdep.config") ;;
bench-rt)	frags+=("$TOP/config/rt.config" "$TOP/config/bench.config") ;;
*)		[ ! -f "$TOP/config/$name.config" ] || frags+=("$TOP/config/$name.config") ;;
esac

export KBUILD_BUILD_TIMESTAMP="$FIXED_DATE" KBUILD_BUILD_USER=rawmidi KBUILD_BUILD_HOST=qemu
kmake() { make -s -C "$KSRC" O="$obj" CC="ccache gcc" -j"$JOBS" "$@"; }

mkdir -p "$obj"
# configure: tinyconfig plus the fragments into $obj/.config, checked.
configure() {
	say "configure $name kernel ($obj)"
	kmake tinyconfig >/dev/null
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option the fragments ask for must have survived olddefconfig,
	# except those that this tree does not have yet (the series adds them).
	find "$KSRC" -name 'Kconfig*' -not -path '*/tools/*' -print0 |
		xargs -0 sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Z0-9_]*\).*/CONFIG_\2/p' |
		sort -u > "$obj/kconfig-symbols"
	# A later fragment overrides an earlier one (rt.config turns test.config's
	# CONFIG_PREEMPT off): only the last word on each option counts.
	missing=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*} ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
		esac
		grep -qxF "$opt" "$obj/kconfig-symbols" || continue
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "  not set: $line" >&2; missing=1; } ;;
		*) ! grep -q "^$opt=" "$obj/.config" || { echo "  still set: $opt" >&2; missing=1; } ;;
		esac
	done < <(cat "${frags[@]}" |
		 sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1 &/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1 &/p' |
		 awk '{ opt = $1; sub(/^[^ ]* /, ""); last[opt] = $0; if (!(opt in seen)) { seen[opt] = 1; order[++n] = opt } }
		      END { for (i = 1; i <= n; i++) print last[order[i]] }')
	[ $missing = 0 ] || die "config fragment options did not take effect"
}

# Configuring runs Kconfig three times, each probing the compiler and
# the assembler (27 of the 37 s of a build with nothing to compile, here):
# skip it when the fragments, the tree's Kconfig files, kconfig itself and
# the tiny configs, the toolchain and the .config it wrote are what they
# were at the last configure of $obj (make check's per-patch builds
# configure where a patch touches a Kconfig file; a make on another
# checkout that rewrote .config is caught by the last).
kfiles=('*Kconfig*' scripts/kconfig kernel/configs arch/x86/configs)
key=$({ cat "${frags[@]}"; gcc --version; ld --version
	git -C "$KSRC" ls-files -s -- "${kfiles[@]}"; git -C "$KSRC" diff HEAD -- "${kfiles[@]}"; } | sha1sum)
config_sum() { echo "$key $(sha1sum < "$obj/.config")"; }
if [ -f "$obj/.config" ] && [ "$(cat "$obj/config-key" 2>/dev/null)" = "$(config_sum)" ]; then
	say "configure $name kernel: unchanged since the last build"
else
	rm -f "$obj/config-key"
	configure
	config_sum > "$obj/config-key"
fi

# COMPILE_ONLY=1 (make check's per-patch builds): vmlinux and the
# modules, and the uapi headers for the selftest; no bzImage (tinyconfig
# compresses it with xz) and no modules_install, which only a boot needs.
# COMPILE_ONLY=DIR/ compiles that directory only: no link, no modpost.
say "build $name kernel (-j$JOBS)"
if [ "${COMPILE_ONLY:-1}" != 1 ]; then
	# shellcheck disable=SC2086 # one or more directories
	kmake ${KMAKE_FLAGS:-} $COMPILE_ONLY
elif [ -n "${COMPILE_ONLY:-}" ]; then
	kmake ${KMAKE_FLAGS:-} vmlinux modules
else
	kmake ${KMAKE_FLAGS:-} vmlinux modules
	# The compressed image, not through ccache: piggy.S takes the
	# compressed kernel in with .incbin, which ccache does not hash, so a
	# piggy.o of an earlier kernel of the same compressed size would come
	# from the cache (seen: a debug kernel that booted the previous
	# build's code). Then the image's payload must be this kernel's.
	(export CCACHE_DISABLE=1; kmake ${KMAKE_FLAGS:-} bzImage)
	zdir=$obj/arch/x86/boot/compressed
	objcopy -O binary --only-section=.rodata..compressed "$zdir/vmlinux" "$zdir/payload.check"
	cmp -s "$zdir/payload.check" "$(ls "$zdir"/vmlinux.bin.* | head -n 1)" ||
		die "$obj: bzImage does not hold this vmlinux"
	rm -f "$zdir/payload.check"
	rm -rf "$obj/modinst"
	kmake INSTALL_MOD_PATH="$obj/modinst" modules_install >/dev/null
fi
kmake headers_install >/dev/null
say "built $(kmake -s kernelrelease) in $obj"
