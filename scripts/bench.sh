#!/bin/bash
# bench.sh: build the "base" kernel (pinned base + the series' test
# infrastructure, config/bench-base.txt) and the "patched" kernel (the whole
# series) from one config, boot each with guest/bench.sh, and write
# results/bench.csv and a side-by-side table.
. "$(dirname "$0")/lib.sh"
return_to_branch
mkdir -p "$TOP/results" "$BUILD/logs"
csv=$TOP/results/bench.csv

infra=()
while read -r p; do
	name=${p##*/}; name=${name#[0-9][0-9][0-9][0-9]-}
	while read -r glob; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254
		case "$name" in $glob) infra+=("$p"); break ;; esac
	done < "$TOP/config/bench-base.txt"
done < <(series_files)

samples=$TOP/results/samples.txt
rm -rf "$TOP/results/plots"
: > "$samples"
echo "measure,path,load,kernel,n,min_us,median_us,p99_us,max_us" > "$csv"
errors=$TOP/results/errors.txt
: > "$errors"
notes=$TOP/results/notes.txt	# the rig, how a guest set itself up (PREEMPT_RT)
# patched-rt: the whole series on a PREEMPT_RT kernel (config/rt.config,
# without lockdep), what musicians run, with every thread at the priority
# the kernel gives it. patched-rt-tuned: the same kernel booted with
# rawmidi.tune=1 and snd_rawmidi.release_prio=90 (a studio's setting of
# the release threads' priority), under the audio-pro load only, with the
# interrupt threads raised above the audio engine as rtirq does
# (guest/bench.sh). KERNELS="base patched" measures only those
# (the table leaves the others' columns empty).
# The rig: each load on the QEMU TCG that does not distort it. QEMU 7.2's
# multi-threaded TCG (a host thread per vCPU, what the checks boot)
# sometimes wakes a halted vCPU for another vCPU's IPI only at that
# vCPU's next timer tick (4 ms at HZ=250): idle, a thread on vCPU 0
# waking one blocked on vCPU 1 (guest/wakelat.c, the wake_latency rows)
# took 0.3 to 3.8 ms at p99 from boot to boot, where the 2-core host
# itself takes 0.12 ms and hardware microseconds; a path whose writer
# wakes a thread on the other vCPU then measures QEMU (realtime-byte was
# 1.5x to 9x the kernel path's p99 idle, RESULTS.md). Single-threaded TCG
# (both vCPUs on one host thread, in turn) hands an IPI over at once, but
# with both vCPUs busy it runs them in turn: under the audio load a
# SCHED_OTHER writer was late by seconds. So the idle rows boot
# single-threaded TCG, where the vCPUs halt, and the loads multi-threaded
# TCG, where they are busy; the wake_latency rows show each rig's cost
# beside each load. BENCH_ACCEL=... boots every load on that -accel.
rig() {	# rig LOAD: the -accel for a boot measuring LOAD
	if [ -n "${BENCH_ACCEL:-}" ]; then echo "$BENCH_ACCEL"
	elif [ "$1" = idle ]; then echo tcg,thread=single
	else echo tcg
	fi
}
echo "rig: qemu-system-x86_64 -smp 2 -accel $(rig idle) (idle), -accel $(rig audio) (the loads)" > "$notes"
for kernel in ${KERNELS:-base patched patched-rt patched-rt-tuned}; do
	say "bench: $kernel kernel"
	config=bench	# the test kernel with IRQ time accounting
	case $kernel in
	base)	"$TOP/scripts/apply.sh" bench-base "${infra[@]}" ;;
	patched) "$TOP/scripts/apply.sh" bench-patched ;;
	patched-rt|patched-rt-tuned) config=bench-rt ;;	# the same tree as patched
	esac
	"$TOP/scripts/build.sh" $config > "$BUILD/logs/bench-build-$kernel.log" 2>&1 ||
		{ tail -30 "$BUILD/logs/bench-build-$kernel.log"; die "build failed"; }
	"$TOP/scripts/guest.sh" $config
	# The loads (guest/bench.sh): LOADS="idle audio" limits them, for a
	# quicker run; the saturating load runs without PREEMPT_RT only, the
	# tuned run measures audio-pro only.
	loads=${LOADS:-idle load audio}
	[ $kernel = patched-rt ] && loads=$(echo " $loads " | sed 's/ load / /')
	[ $kernel = patched-rt-tuned ] && loads=audio-pro
	idle=; busy=
	for l in $loads; do
		if [ "$(rig $l)" = "$(rig idle)" ]; then idle="$idle,$l"; else busy="$busy,$l"; fi
	done
	for part in ${idle:+idle} ${busy:+busy}; do
		log=$BUILD/logs/console-bench-$kernel-$part.log
		[ $part = idle ] && l=${idle#,} || l=${busy#,}
		# The PREEMPT_RT guest runs the same measurements more slowly; it
		# gets more time. A guest that does not finish stops the run below
		# (RESULTS.md, "First run on 7.3", says where one did).
		# (5 runs of each output path, 10 paths: about 10 minutes of the run)
		limit=1500; [ $kernel = patched-rt ] && limit=3000
		append="rcupdate.rcu_cpu_stall_suppress=1 rawmidi.loads=$l"
		[ $kernel != patched-rt-tuned ] ||
			append="$append rawmidi.tune=1 snd_rawmidi.release_prio=90"
		# ROWS=sched: only the rows of sending at a time (all their paths)
		[ -z "${ROWS:-}" ] || append="$append rawmidi.rows=$ROWS"
		# PATHS="kernel realtime-byte": of those rows, only these paths
		[ -z "${PATHS:-}" ] || append="$append rawmidi.paths=$(echo $PATHS | tr ' ' ,)"
		QEMU_ACCEL=$(rig ${l%%,*}) BOOT_TIMEOUT=$limit BOOT_APPEND="$append" \
			"$TOP/scripts/boot.sh" $config bench "$log"
		grep -q '^=== BENCH DONE' "$log" || die "the $kernel benchmark did not finish; see $log"
		tr -d '\r' < "$log" | sed -n "s/^BENCH \([^,]*,[^,]*,[^,]*\),/\1,$kernel,/p" >> "$csv"
		tr -d '\r' < "$log" | sed -n "s/^SAMPLES \([^ ]*\)/\1,$kernel/p" >> "$samples"
		# A measurement that failed is kept, with what the program said, and
		# reported below: on the base kernel it is the base's behaviour (it
		# lacks the fixes posting), on the patched kernel a defect.
		tr -d '\r' < "$log" | sed -n "s/^BENCH-ERROR \(.*\)/$kernel: \1/p" >> "$errors"
		tr -d '\r' < "$log" | sed -n "s/^BENCH-NOTE \(.*\)/$kernel: \1/p" >> "$notes"
	done
done

# Side by side: base and patched medians and p99s, their ratios, and the
# patched series on PREEMPT_RT.
echo
awk -F, 'NR > 1 {
	key = $1 "," $2 "," $3; med[key, $4] = $7; p99[key, $4] = $8; n[key, $4] = $5
	if (!(key in seen)) { seen[key] = 1; order[++k] = key }
}
END {
	printf "%-22s %-16s %-9s %5s %12s %12s %8s %12s %12s %8s %12s %12s %12s\n", "measure", "path",
	       "load", "n", "base med", "patch med", "ratio", "base p99", "patch p99", "ratio",
	       "rt med", "rt p99", "tuned p99"
	for (i = 1; i <= k; i++) {
		split(order[i], f, ",")
		b = med[order[i], "base"]; p = med[order[i], "patched"]
		bp = p99[order[i], "base"]; pp = p99[order[i], "patched"]
		u = (f[1] ~ /cpu_ns_per_byte$/) ? "ns" : "us"
		nn = n[order[i], "patched"]
		if (nn == "") nn = n[order[i], "patched-rt"]
		if (nn == "") nn = n[order[i], "patched-rt-tuned"]
		# with 100 samples or fewer, the p99 is the maximum or next to it
		m = (nn != "" && nn + 0 <= 100) ? "*" : " "
		printf "%-22s %-16s %-9s %5s %10.1f%s %10.1f%s %7.1fx %10.1f%s%s%10.1f%s%s%7.1fx %10.1f%s %10.1f%s%s%10.1f%s%s\n",
		       f[1], f[2], f[3], nn, b, u, p, u, (p > 0 ? b / p : 0),
		       bp, u, m, pp, u, m, (pp > 0 ? bp / pp : 0),
		       med[order[i], "patched-rt"], u, p99[order[i], "patched-rt"], u, m,
		       p99[order[i], "patched-rt-tuned"], u, m
	}
}' "$csv"
echo "(ratio = base / patched; rt = patched on PREEMPT_RT as shipped; tuned = the same with the"
echo " release threads and the rig's interrupt stand-ins raised above an audio-pro load;"
echo " p99 is the nearest-rank percentile, * = n <= 100, where it is the maximum or next to it;"
echo " results in results/bench.csv)"
# Paths measured in several runs (PATH, PATH-run2, ...): the median of
# the runs' p99s, with their range, per kernel.
echo
awk -F, 'NR > 1 {
	p = $2; sub(/-run[0-9]+$/, "", p)
	key = $1 "," p "," $3
	if (!(key in seen)) { seen[key] = 1; order[++k] = key }
	c = ++runs[key, $4]; v[key, $4, c] = $8 + 0
}
function cell(key, kern,   n, i, j, t, a) {
	n = runs[key, kern]
	if (n < 2) return "-"
	for (i = 1; i <= n; i++) a[i] = v[key, kern, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return sprintf("%.0f (%.0f-%.0f)", (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[1], a[n])
}
END {
	for (i = 1; i <= k; i++) {
		if (runs[order[i], "base"] < 2 && runs[order[i], "patched"] < 2 &&
		    runs[order[i], "patched-rt"] < 2 && runs[order[i], "patched-rt-tuned"] < 2) continue
		if (!hdr++) printf "%-18s %-16s %-9s %22s %22s %22s %22s\n", "p99 over runs (us)", "path", "load",
				   "base", "patched", "patched-rt", "patched-rt-tuned"
		split(order[i], f, ",")
		printf "%-18s %-16s %-9s %22s %22s %22s %22s\n", f[1], f[2], f[3],
		       cell(order[i], "base"), cell(order[i], "patched"), cell(order[i], "patched-rt"),
		       cell(order[i], "patched-rt-tuned")
	}
}' "$csv"
# awk, for the two tables below: the p99s of the sending rows by path
# (without its -runN), load and kernel, in the order first seen, and
# med(key), the median of a key's runs (-1 where it has none)
p99_runs='NR > 1 && $1 == "output_sched_err" {
	p = $2; sub(/-run[0-9]+$/, "", p)
	c = ++runs[p, $3, $4]; v[p, $3, $4, c] = $8 + 0
	if (c == 1) order[++k] = p SUBSEP $3 SUBSEP $4
}
function med(key,   n, i, j, t, a) {
	n = runs[key]
	if (!n) return -1
	for (i = 1; i <= n; i++) a[i] = v[key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'
# The PREEMPT_RT goal (issue #40): framed output's p99 (median of the
# runs) on patched-rt as shipped under audio, and on patched-rt-tuned
# under audio-pro, each against patched under audio, same bench run.
echo
awk -F, "$p99_runs"'
END {
	split("floor kernel usb-kernel ump-kernel user-fifo cyclictest-fifo50", paths, " ")
	printf "%-18s %14s %14s %8s %20s %8s\n", "p99, median of runs", "patched/audio",
	       "rt/audio", "rt/p", "tuned/audio-pro", "tuned/p"
	for (i = 1; i <= 6; i++) {
		q = med(paths[i] SUBSEP "audio" SUBSEP "patched")
		r = med(paths[i] SUBSEP "audio" SUBSEP "patched-rt")
		t = med(paths[i] SUBSEP "audio-pro" SUBSEP "patched-rt-tuned")
		if (q < 0 && r < 0 && t < 0) continue
		printf "%-18s %12.0fus %12.0fus %7.2fx %18.0fus %7.2fx\n", paths[i], q, r,
		       (q > 0 && r >= 0 ? r / q : 0), t, (q > 0 && t >= 0 ? t / q : 0)
	}
	print "(goal: rt/p and tuned/p within 2x for kernel, usb-kernel, ump-kernel)"
}' "$csv"
# Real-time bytes ahead of the queue (issue #51): the clock bytes of type
# NOW against framed output itself, p99 (median of the runs), for each
# kernel and load of this run.
echo
awk -F, "$p99_runs"'
END {
	for (i = 1; i <= k; i++) {
		split(order[i], f, SUBSEP)
		if (f[1] != "kernel") continue
		q = med(order[i]); r = med("realtime-byte" SUBSEP f[2] SUBSEP f[3])
		if (r < 0) continue
		if (!hdr++) printf "%-26s %-9s %-16s %10s %14s %8s\n", "p99, median of runs",
				   "load", "kernel", "kernel", "realtime-byte", "ratio"
		printf "%-26s %-9s %-16s %8.0fus %12.0fus %7.2fx\n", "", f[2], f[3], q, r,
		       (q > 0 ? r / q : 0)
	}
	if (hdr) print "(goal: realtime-byte within 2x of kernel under the same load)"
}' "$csv"
[ ! -s "$notes" ] || sed 's/^/note: /' "$notes"
"$TOP/scripts/plot.sh" "$samples" "$TOP/results/plots"
if [ -s "$errors" ]; then
	echo
	echo "measurements that failed (results/errors.txt; console logs in $BUILD/logs):"
	sed 's/^/  /' "$errors"
fi
! grep -q '^patched' "$errors" || die "a measurement failed on the patched kernel"
