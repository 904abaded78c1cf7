#!/bin/bash
# plot.sh SAMPLES DIR: one PNG per measure and load in DIR, the cumulative
# distribution of every path, base kernel dashed, patched solid, patched on
# PREEMPT_RT dotted. SAMPLES
# holds lines "measure,path,load,kernel value..." with sorted values, as
# scripts/bench.sh collects them from the guest.
. "$(dirname "$0")/lib.sh"
samples=${1:?usage: plot.sh SAMPLES DIR}
dir=${2:?usage: plot.sh SAMPLES DIR}
command -v gnuplot > /dev/null || die "gnuplot is missing (apt-get install gnuplot-nox)"
mkdir -p "$dir"

# Data: DIR/MEASURE-LOAD.dat, one gnuplot data block per path and kernel
# ("value fraction" lines); script: DIR/plots.gp.
awk -v dir="$dir" '
{
	split($1, f, ","); key = f[1] "-" f[3]
	if (!(key in blocks)) { keys[++nk] = key; unit[key] = (f[1] ~ /cpu_ns_per_byte$/) ? "ns per byte" : "us" }
	b = blocks[key]++
	if (!(key SUBSEP f[2] in color)) color[key, f[2]] = ++npaths[key]
	title[key, b] = f[2] " " f[4]; lc[key, b] = color[key, f[2]]; dt[key, b] = (f[4] == "base") ? 2 : (f[4] == "patched-rt") ? 3 : 1
	file = dir "/" key ".dat"
	for (i = 2; i <= NF; i++)	# log scale: 0 becomes 0.1
		printf "%s %.4f\n", ($i < 0.1 ? 0.1 : $i), (i - 1) / (NF - 1) > file
	printf "\n\n" > file
}
END {
	gp = dir "/plots.gp"
	print "set terminal pngcairo dashed size 900,600 font \",10\"" > gp
	print "set logscale x; set grid; set key bottom right; set yrange [0:1]; set ylabel \"fraction of samples\"" > gp
	for (k = 1; k <= nk; k++) {
		key = keys[k]
		printf "set output \"%s/%s.png\"\n", dir, key > gp
		printf "set title \"%s: cumulative distribution, base (dashed), patched (solid), patched PREEMPT_RT (dotted)\"\n", key > gp
		printf "set xlabel \"%s (log scale)\"\n", unit[key] > gp
		sep = "plot "
		for (b = 0; b < blocks[key]; b++) {
			printf "%s\"%s/%s.dat\" index %d using 1:2 with steps lc %d dt %d lw 2 title \"%s\"", \
				sep, dir, key, b, lc[key, b], dt[key, b], title[key, b] > gp
			sep = ", \\\n     "
		}
		print "" > gp
	}
}' "$samples"
gnuplot "$dir/plots.gp"
say "plots: $(find "$dir" -name '*.png' | wc -l) PNGs in ${dir#"$TOP"/}"
