# summary.awk: numbers sorted in ascending order, one a line, as the bench
# reports a measurement (guest/bench.sh's report(), and guest/schedout.c's
# output): "n min median p99 max", then "SAMPLES" and every number. Exits
# with 1 if there is none.
{ v[n++] = $1 }
END {
	if (!n)
		exit 1
	p = int((n * 99 + 99) / 100) - 1
	printf "%d %.1f %.1f %.1f %.1f\nSAMPLES", n, v[0], v[int(n / 2)], v[p], v[n - 1]
	for (i = 0; i < n; i++)
		printf " %.1f", v[i]
	printf "\n"
}
