#!/bin/bash
# boot.sh NAME RUN LOG [QEMU ARGS...]: boot $BUILD/obj-NAME under QEMU (TCG)
# with rawmidi.run=RUN, console (COM1) to LOG; its initramfs is $INITRD,
# or its initrd.gz. COM2 is an emulated 16550 for snd-serial-u16550; its
# output goes to LOG.com2. QEMU_ACCEL: the -accel option (default tcg,
# QEMU's multi-threaded TCG: one host thread per vCPU; the bench chooses
# another, scripts/bench.sh says why).
. "$(dirname "$0")/lib.sh"
name=${1:?}; run=${2:?}; log=${3:?}; shift 3
obj=$BUILD/obj-$name
timeout=${BOOT_TIMEOUT:-600}

# tsc=reliable: under TCG the TSC is the host's (invariant, the same on
# every vCPU), but the guest's clocksource watchdog, comparing it with the
# emulated HPET, sooner or later marks it unstable and switches clocks in
# the middle of a run (seen in a timing test of a PREEMPT_RT boot: an 11 ms
# stamp error at the switch). Without the watchdog every test sees one
# clock, and the cheaper one: the same suite took 60 s on the TSC, 65 s on
# the HPET.
say "boot $name kernel (run=$run, log $log)"
rc=0
timeout --foreground -k 10 "$timeout" \
	qemu-system-x86_64 -accel "${QEMU_ACCEL:-tcg}" -m 1024 -smp 2 -nodefaults -no-reboot \
	-display none -kernel "$obj/arch/x86/boot/bzImage" -initrd "${INITRD:-$obj/initrd.gz}" \
	-append "console=ttyS0 panic=-1 oops=panic tsc=reliable rawmidi.run=$run ${BOOT_APPEND:-}" \
	-serial "file:$log" -serial "file:$log.com2" "$@" </dev/null || rc=$?
[ $rc = 124 ] && echo "=== HOST: QEMU timed out after ${timeout}s" >> "$log"
exit 0
