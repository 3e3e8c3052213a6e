#!/bin/bash
# sim-overcommit-claims.sh CSV: check, on the overcommit model's results
# (make sim-overcommit), each claim that the paravirt chapters make of
# them, and print the numbers behind it.  Exit status 1 if any claim no
# longer holds: a chapter would be wrong.
#
# The locks are found by their layout column: the native queued lock
# (nr64, a step), the unfair guest lock (virt), the paravirt step (pv, a
# step), 6.1's paravirt lock (today) and the ticket lock.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

csv=$1
[ -f "$csv" ] || die "sim-overcommit-claims.sh: no results file $csv"

awk -F, '
function ok(cond, text) {
	printf "%s %s\n", cond ? "ok    " : "not ok", text
	if (!cond) bad++
}
function acq(l, n, x) { return V[l, n, x, 7] }
function fair(l, n, x) { return V[l, n, x, 8] ? V[l, n, x, 9] / V[l, n, x, 8] : 1e9 }
FNR == 1 { next }
{
	for (i = 1; i <= NF; i++) V[$1, $3, $4, i] = $i
	if ($2 == "nr64") native = $1
	else if ($2 == "virt") unfair = $1
	else if ($2 == "pv" && $1 != "today") pv = $1
}
END {
	if (!native || !unfair || !pv) { print "not ok the results lack a native, an unfair or a paravirt step"; exit 1 }
	split("4 16 64", N, " ")
	split("1.5 2", X, " ")

	# 0. The host model itself: every halt ended in a wake (a lost one
	#    would have hung the run), and with a core a vCPU nobody was
	#    preempted.
	c = 1; t = ""; h = 0
	for (k in V) {
		split(k, a, SUBSEP)
		if (a[4] != 1) continue
		l = a[1]; n = a[2]; x = a[3]
		if (V[l, n, x, 11] != V[l, n, x, 12]) { c = 0; t = t sprintf(" %s@%s,%sx %d/%d", l, n, x, V[l, n, x, 11], V[l, n, x, 12]) }
		h += V[l, n, x, 11]
		if (x == 1 && V[l, n, x, 10] != 0) { c2bad = c2bad sprintf(" %s@%s %d", l, n, V[l, n, x, 10]) }
	}
	ok(c && h > 0, sprintf("the host model: every one of %d halts ended in a wake%s", h, t ? " (halts/wakes:" t ")" : ""))
	ok(c2bad == "", sprintf("the host model: with a core for every vCPU (1x) no slice end preempted anybody%s", c2bad ? " (preemptions:" c2bad ")" : ""))

	# 1. The fair locks collapse under overcommit.
	c = 1; t = ""
	for (i = 1; i <= 3; i++) for (j = 1; j <= 2; j++) {
		r = acq(native, N[i], X[j]) / acq(native, N[i], 1)
		c = c && r <= 1 / 6
		t = t sprintf(" %s@%sx %.3f", N[i], X[j], r)
	}
	ok(c, sprintf("%s, the native queue, keeps at most a sixth of its throughput under overcommit, at every N (x its 1x:%s)", native, t))
	c = 1; t = ""
	for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
		r = acq("ticket", N[i], X[j]) / acq("ticket", N[i], 1)
		c = c && r <= 0.25
		t = t sprintf(" %s@%sx %.3f", N[i], X[j], r)
	}
	ok(c, sprintf("the ticket lock keeps at most a quarter of its throughput under overcommit at N = 4 and 16 (x its 1x:%s; at 64 cache transfers have already slowed it at 1x: %d acquisitions)", t, acq("ticket", 64, 1)))

	# 2. The unfair lock survives overcommit, unfairly, and only while
	#    few CPUs contend.
	c = 1; t = ""
	for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
		r = acq(unfair, N[i], X[j]) / acq(native, N[i], X[j])
		c = c && r >= 3
		t = t sprintf(" %s@%sx %.1f", N[i], X[j], r)
	}
	ok(c, sprintf("%s (test-and-set) runs at least 3x %s under overcommit at N = 4 and 16 (x %s:%s)", unfair, native, native, t))
	ok(fair(unfair, 64, 2) >= 5 && fair(pv, 64, 2) <= 1.35,
	   sprintf("%s is unfair where %s is not: at N = 64, 2x, one vCPU takes the lock %.1fx as often as another (%s: %.2fx)",
		   unfair, pv, fair(unfair, 64, 2), pv, fair(pv, 64, 2)))
	ok(acq(unfair, 64, 1) * 5 <= acq(native, 64, 1),
	   sprintf("at N = 64 with no overcommit, %s is a fifth of %s or less (%d against %d acquisitions): every waiter fights for the one line",
		   unfair, native, acq(unfair, 64, 1), acq(native, 64, 1)))

	# 3. The paravirt step keeps the queue about fair under overcommit
	#    and beats the native queue there from 16 vCPUs on; its cost is a
	#    wake per hand-over once waiters halt, even with no overcommit at
	#    N = 64.
	c = 1; t = ""
	for (i = 1; i <= 3; i++) for (j = 1; j <= 2; j++) {
		f = fair(pv, N[i], X[j]); r = acq(pv, N[i], X[j]) / acq(native, N[i], X[j])
		c = c && f <= 1.65 && r >= 0.75 && (N[i] != 16 || r >= 3)
		t = t sprintf(" %s@%sx %.2f/%.1fx", N[i], X[j], f, r)
	}
	ok(c, sprintf("%s under overcommit: fairness (most/fewest) at most 1.65, at least 0.75x %s at every N and 3x at 16 (fairness/x %s:%s)", pv, native, native, t))
	ok(acq(pv, 64, 1) * 5 <= acq(native, 64, 1) && V[pv, 64, 1, 15] >= 0.9 * acq(pv, 64, 1),
	   sprintf("%s pays for halting: at N = 64 with no overcommit it runs at %.2fx %s, and %.2f of its acquisitions wait for a woken vCPU",
		   pv, acq(pv, 64, 1) / acq(native, 64, 1), native, V[pv, 64, 1, 15] / acq(pv, 64, 1)))

	# 4. 6.1 (lock stealing, adaptive spinning) does far better than
	#    the paravirt step under overcommit, a little less fairly.
	c = 1; t = ""
	for (i = 1; i <= 3; i++) for (j = 1; j <= 2; j++) {
		r = acq("today", N[i], X[j]) / acq(pv, N[i], X[j])
		c = c && r >= 2
		t = t sprintf(" %s@%sx %.1f", N[i], X[j], r)
	}
	ok(c, sprintf("6.1 runs at least 2x %s under overcommit, at every N (x %s:%s)", pv, pv, t))
	ok(fair("today", 16, 1.5) > fair(pv, 16, 1.5) && fair("today", 64, 2) > fair(pv, 64, 2),
	   sprintf("6.1 is less fair than %s under overcommit (most/fewest at 16, 1.5x: %.2f against %.2f; at 64, 2x: %.2f against %.2f)",
		   pv, fair("today", 16, 1.5), fair(pv, 16, 1.5), fair("today", 64, 2), fair(pv, 64, 2)))
	exit bad ? 1 : 0
}' "$csv"
