#!/bin/bash
# us-uapi.sh KERNEL_UAPI_HEADER ALSA_LIB_HEADER: the raw MIDI section of
# alsa-lib's include/sound/uapi/asound.h must be, byte for byte, that of
# the kernel's include/uapi/sound/asound.h as "make headers_install"
# writes it (__KERNEL__ blocks resolved as for user space, __packed
# spelt out, __user dropped). Prints the difference; exits 1 if any.
. "$(dirname "$0")/lib.sh"
[ $# = 2 ] || die "usage: us-uapi.sh KERNEL_UAPI_HEADER ALSA_LIB_HEADER"

# the lines from the "Raw MIDI section" comment to the one before the
# "Timer section" comment
section() {
	awk '/^ \*  Raw MIDI section/ { on = 1; print "/*" }
	     /^ \*  Timer section/ { exit }
	     on { if (n++) print held; held = $0 }' "$1"
}

# what headers_install does to it: unifdef -U__KERNEL__ (both forms of
# the test, with #else), __packed and __user
user_view() {
	awk '
	function live() { for (i = 1; i <= depth; i++) if (!keep[i]) return 0; return 1 }
	/^#ifndef __KERNEL__$/ { depth++; keep[depth] = 1; ours[depth] = 1; next }
	/^#ifdef __KERNEL__$/ || /^#if defined\(__KERNEL__\)$/ { depth++; keep[depth] = 0; ours[depth] = 1; next }
	/^#if/ { depth++; keep[depth] = 1; ours[depth] = 0; if (live()) print; next }
	/^#else/ && ours[depth] { keep[depth] = !keep[depth]; next }
	/^#endif/ { o = ours[depth]; depth--; if (!o && live()) print; next }
	live() { print }' |
		sed -E -e 's/(^|[^a-zA-Z0-9_])__packed([^a-zA-Z0-9_]|$)/\1__attribute__((packed))\2/g' \
		       -e 's/__user //g; s/ __user//g'
}

diff -u --label "kernel $1" --label "alsa-lib $2" \
	<(section "$1" | user_view) <(section "$2") || exit 1
