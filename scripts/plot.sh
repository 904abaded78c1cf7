#!/bin/bash
# plot.sh SAMPLES DIR: one PNG per measure and load in DIR, the cumulative
# distribution of each path on each kernel: a path's runs (PATH,
# PATH-run2, ...) pooled into one curve, base kernel dashed, patched
# solid, patched on PREEMPT_RT dotted, the legend beside the plot. SAMPLES
# holds lines "measure,path,load,kernel value..." as scripts/bench.sh
# collects them from the guest.
#   PLOT_PATHS="kernel user-fifo ..."  only these paths (default: all)
#   PLOT_ONLY=MEASURE-LOAD             only that picture
#   PLOT_TITLE="..."                   a second title line (the machine)
. "$(dirname "$0")/lib.sh"
samples=${1:?usage: plot.sh SAMPLES DIR}
dir=${2:?usage: plot.sh SAMPLES DIR}
command -v gnuplot > /dev/null || die "gnuplot is missing (apt-get install gnuplot-nox)"
mkdir -p "$dir"
pooled=$(mktemp)
trap 'rm -f "$pooled"' EXIT

# One line a sample: picture, curve (in order of appearance), path,
# kernel, value; sorted by picture, curve and value.
awk -v paths="${PLOT_PATHS:-}" -v only="${PLOT_ONLY:-}" '
BEGIN { np = split(paths, want, " "); for (i = 1; i <= np; i++) wanted[want[i]] }
{
	split($1, f, ","); p = f[2]; sub(/-run[0-9]+$/, "", p)
	key = f[1] "-" f[3]
	if ((only != "" && key != only) || (np && !(p in wanted)))
		next
	c = key SUBSEP p SUBSEP f[4]
	if (!(c in curve)) curve[c] = ++nc[key]
	for (i = 2; i <= NF; i++)
		printf "%s\t%d\t%s\t%s\t%s\n", key, curve[c], p, f[4], $i
}' "$samples" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n -k5,5g > "$pooled"

# Data: DIR/MEASURE-LOAD.dat, a gnuplot data block per curve ("value
# fraction" lines); script: DIR/plots.gp.
awk -F '\t' -v dir="$dir" -v sub_title="${PLOT_TITLE:-}" '
NR == FNR { n[$1, $2]++; next }
{
	key = $1; c = $2
	if (!(key in nc)) {
		keys[++nk] = key
		unit[key] = (key ~ /cpu_ns_per_byte/) ? "ns per byte" : "us"
	}
	if (c > nc[key]) { nc[key] = c; cp[key, c] = $3; ck[key, c] = $4; i = 0; if (c > 1) printf "\n\n" > (dir "/" key ".dat") }
	i++
	printf "%s %.4f\n", ($5 < 0.1 ? 0.1 : $5), i / n[key, c] > (dir "/" key ".dat")	# log scale: 0 becomes 0.1
}
END {
	gp = dir "/plots.gp"
	print "set terminal pngcairo dashed size 1100,560 font \",10\"" > gp
	print "set termoption noenhanced" > gp
	print "set logscale x; set grid; set key outside right top; set yrange [0:1]; set lmargin 10" > gp
	print "set ylabel \"fraction of the samples\"" > gp
	for (k = 1; k <= nk; k++) {
		key = keys[k]
		printf "set output \"%s/%s.png\"\n", dir, key > gp
		printf "set title \"%s, cumulative distribution: base dashed, patched solid, PREEMPT_RT dotted%s\"\n", \
			key, (sub_title != "" ? "\\n" sub_title : "") > gp
		printf "set xlabel \"%s (log scale)\"\n", unit[key] > gp
		sep = "plot "
		for (c = 1; c <= nc[key]; c++) {
			if (!(cp[key, c] in color)) color[cp[key, c]] = ++ncolor
			dt = ck[key, c] == "base" ? 2 : ck[key, c] ~ /^patched-rt/ ? 3 : 1
			printf "%s\"%s/%s.dat\" index %d using 1:2 with steps lc %d dt %d lw 2 title \"%s, %s (n=%d)\"", \
				sep, dir, key, c - 1, color[cp[key, c]], dt, cp[key, c], ck[key, c], n[key, c] > gp
			sep = ", \\\n     "
		}
		print "" > gp
	}
}' "$pooled" "$pooled"
gnuplot "$dir/plots.gp"
say "plots: $(find "$dir" -name '*.png' | wc -l) PNGs in ${dir#"$TOP"/}"
