#!/bin/bash
# verdict.sh LOG SECTION...: judge a guest console log. Prints one line per
# result ("PASS name", "FAIL name", "SKIP name") for the KUnit suites (leaf
# cases), each expected kselftest/TAP SECTION (as printed by guest/init), and
# the log as a whole: every expected result set present and complete, no
# taint but KUnit's own, no splat. Exits 1 if anything failed. A failed
# case is followed by the last lines its test printed, as "    | line".
# NO_KUNIT=1: a kernel without KUnit suites (a stable tree) is not failed
# for printing no KTAP.
log=${1:?usage: verdict.sh LOG SECTION...}; shift
[ -f "$log" ] || { echo "FAIL boot: no console log $log"; exit 1; }

awk -v expected="$*" -v nokunit="${NO_KUNIT:-}" '
function result(kind, name) { print kind " " name; if (kind == "FAIL") failed++ }
# the diagnostics printed since the last result, kept for a failure
function diag(line) { if (nd == 8) { for (d = 1; d < 8; d++) buf[d] = buf[d + 1]; nd = 7 } buf[++nd] = line }
# the reason after "# SKIP" in a TAP line, or "" (none, or not a skip)
function skip_why(line, kind) {
	if (kind != "SKIP" || !sub(/^[^#]*# *SKIP */, "", line)) return ""
	return line
}
function flush(kind) { if (kind == "FAIL") for (d = 1; d <= nd; d++) print "    | " buf[d]; nd = 0 }
function tap(line, prefix,    m, ind, name, kind, why) {
	if (!match(line, /^ *(not ok|ok) [0-9]+/))
		return 0
	match(line, /^ */); ind = RLENGTH
	name = line; sub(/^ *(not ok|ok) [0-9]+ *(- )?/, "", name); sub(/ *#.*/, "", name)
	kind = (line ~ /^ *not ok/) ? "FAIL" : (line ~ /# *SKIP/) ? "SKIP" : "PASS"
	# a skip carries its reason, as "(why)" after the name
	why = skip_why(line, kind)
	# KTAP prints a parent after its children: a result is a leaf unless
	# the result before it was deeper.
	if (!(prefix in last) || last[prefix] <= ind) {
		result(kind, prefix ":" (ind ? path[prefix, ind] "." : "") name (why != "" ? " (" why ")" : ""))
		flush(kind)
	}
	last[prefix] = ind
	if (ind == 0) top[prefix]++
	return 1
}
# A kmemleak report is judged by its objects: each fails the run, but for
# the one leak of the sound-core KUnit suite of mainline 7.3
# (test_card_add_component() leaves the components string of its card,
# krealloc()ed by snd_component_add(), unfreed), listed as known instead.
function close_leak() {
	if (!inleak) return
	inleak = 0
	if (known) known_leaks++
	else { splat++; result("FAIL", "splat: " leakline) }
}
BEGIN { n = split(expected, want, " "); section = ""; phase = "kunit" }
{ sub(/\r$/, "") }
inleak && /^ / { if ($0 ~ /test_card_add_component/) known = 1; next }
inleak { close_leak() }
/unreferenced object/ { inleak = 1; known = 0; leakline = $0; next }
/suspected memory leak/ { next }
/BUG:|WARNING:|KASAN|UBSAN|Oops|Call Trace|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|blocked for more than|RCU stall|Kernel panic/ {
	splat++; result("FAIL", "splat: " $0)
}
/^=== GUEST START/ { phase = "guest"; next }
/^=== BEGIN / { section = $3; delete last; top[section] = 0; plan[section] = -1
	farm = ($4 == "(run_kselftest.sh)"); prog = ""; next }
/^=== END / {
	rc = $NF; sub(/rc=/, "", rc)
	if (plan[section] < 0) result("FAIL", section ": no TAP plan")
	else if (top[section] != plan[section])
		result("FAIL", section ": " top[section] " of " plan[section] " results")
	if (rc != 0 && rc != 4) result("FAIL", section ": exit code " rc)
	done[section] = 1; section = ""; next
}
/^=== TAINT / { taint = $3 + 0; next }
/^=== GUEST DONE/ { finished = 1; next }
phase == "kunit" {
	line = $0
	if (match(line, /^ *# Subtest: /)) {
		path["kunit", RLENGTH - 11] = substr(line, RSTART + RLENGTH)
	}
	if (line ~ /^1\.\.[0-9]+$/) { kplan = substr(line, 4) + 0; next }
	if (!tap(line, "kunit") && line ~ /^ +[^ ]/ && line !~ /KTAP version|# Subtest:|# module:|^ *1\.\./)
		diag(line)
	next
}
# A collection run by the installed run_kselftest.sh (guest/farm.sh): each
# program is a result of the section ("ok N selftests: alsa: PROG"), and
# each case of a program, in its output prefixed with "# ", a result named
# SECTION:PROG:CASE; a skip shows its reason, and one without a reason
# fails. A program must print as many results as its plan says.
section != "" && farm {
	if ($0 ~ /^# selftests: /) { prog = $NF; fplan[prog] = -1; ftop[prog] = 0; next }
	if (prog != "" && $0 ~ /^# 1\.\.[0-9]+/) { fplan[prog] = substr($0, 6) + 0; next }
	if (prog != "" && match($0, /^# (not ok|ok) [0-9]+/)) {
		line = substr($0, 3)
		name = line; sub(/^(not ok|ok) [0-9]+ *(- )?/, "", name); sub(/ *#.*/, "", name)
		kind = (line ~ /^not ok/) ? "FAIL" : (line ~ /# *SKIP/) ? "SKIP" : "PASS"
		why = skip_why(line, kind)
		result(kind, section ":" prog ":" name (kind == "SKIP" ? " (" why ")" : ""))
		flush(kind)
		if (kind == "SKIP" && why == "") result("FAIL", section ":" prog ":" name ": skipped without a reason")
		ftop[prog]++
		next
	}
	if ($0 ~ /^1\.\.[0-9]+/) { plan[section] = substr($0, 4) + 0; next }
	if (match($0, /^(not ok|ok) [0-9]+ selftests: /)) {
		p = $0; sub(/^(not ok|ok) [0-9]+ selftests: [^:]*: /, "", p); sub(/ *#.*/, "", p)
		kind = ($0 ~ /^not ok/) ? "FAIL" : ($0 ~ /# *SKIP/) ? "SKIP" : "PASS"
		result(kind, section ":" p)
		flush(kind)
		if (fplan[p] < 0) result("FAIL", section ":" p ": no TAP plan")
		else if (ftop[p] != fplan[p]) result("FAIL", section ":" p ": " ftop[p] " of " fplan[p] " results")
		top[section]++; prog = ""
		next
	}
	if ($0 ~ /^# /) diag($0)
	next
}
section != "" {
	if ($0 ~ /^1\.\.[0-9]+/) { plan[section] = substr($0, 4) + 0; next }
	if (!tap($0, section) && $0 ~ /^# /) diag($0)
}
END {
	close_leak()
	if (known_leaks) print "  (kmemleak: " known_leaks " known leak of mainline sound-core-test, not counted)"
	if (kplan == 0) { if (!nokunit) result("FAIL", "kunit: no KTAP results") }
	else if (top["kunit"] != kplan) result("FAIL", "kunit: " top["kunit"] " of " kplan " suites")
	for (i = 1; i <= n; i++)
		if (!(want[i] in done)) result("FAIL", want[i] ": missing or truncated")
	if (!finished) result("FAIL", "boot: guest did not finish")
	# Bit 18 (TAINT_TEST) is set by KUnit itself.
	else if (taint - (int(taint / 262144) % 2) * 262144) result("FAIL", "boot: kernel tainted " taint)
	else result("PASS", "boot: clean log, no taint but KUnit")
	exit failed > 0
}' "$log"
