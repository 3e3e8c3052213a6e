#!/bin/bash
# sim-sockets-claims.sh CSV: check, on make sim-sockets' results, each
# claim that book/contention.md makes of them ("Sockets", "Data in the
# lock's line", "Waits"), and print the numbers behind it.  Exit status 1
# if any claim no longer holds: the chapter would be wrong.
#
# The first claim ties the run to make sim-bench's: with one socket the
# model is the same, so the rows it shares with the recorded
# book/sim/results.csv must give the same cycles and acquisitions.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

csv=$1
bench=$TOP/book/sim/results.csv
[ -f "$csv" ] || die "sim-sockets-claims.sh: no results file $csv"
[ -f "$bench" ] || die "sim-sockets-claims.sh: no recorded $bench (make sim-bench, then make sim-record)"

awk -F, -v benchfile="$bench" '
function ok(cond, text) {
	printf "%s %s\n", cond ? "ok    " : "not ok", text
	if (!cond) bad++
}
function key(set, l, w, s, n, x, k) { return set SUBSEP l SUBSEP w SUBSEP s SUBSEP n SUBSEP x SUBSEP k }
function per(k, col) { return V[k, 9] ? V[k, col] / V[k, 9] : 0 }
function cyc(l, w, s, n) { return per(key("sockets", l, w, s, n, X, 0), 8) }
function cycx(l, s, x) { return per(key(x == X ? "sockets" : "cross", l, "hammer", s, 64, x, 0), 8) }
function moves(l, s, n) { return per(key("sockets", l, "hammer", s, n, X, 0), 14) }
function remote(l, s, n) { return per(key("sockets", l, "hammer", s, n, X, 0), 13) }
function cycline(l, w, n, k) { return k ? per(key("line", l, w, 1, n, X, k), 8) : cyc(l, w, 1, n) }
function wait(l, s, n, col) { return V[key("sockets", l, "hammer", s, n, X, 0), col] }
FNR == 1 { next }
FILENAME == benchfile { B[$1, $2, $3] = $7 "," $8; next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP $7
	for (i = 8; i <= NF; i++) V[k, i] = $i
	if ($1 == "sockets") { X = $6; if ($4 == 1) one[++n1] = $2 SUBSEP $3 SUBSEP $5 SUBSEP $8 "," $9 }
}
END {
	# 1. One socket is make sim-bench: the rows both runs have agree.
	same = 0; differ = ""
	for (i = 1; i <= n1; i++) {
		split(one[i], f, SUBSEP)
		if (!((f[1], f[2], f[3]) in B)) continue
		if (B[f[1], f[2], f[3]] == f[4]) same++
		else if (differ == "") differ = sprintf(" (%s, %s, N=%s: %s here, %s there)", f[1], f[2], f[3], f[4], B[f[1], f[2], f[3]])
	}
	ok(same >= 40 && differ == "", sprintf("one socket is the model of make sim-bench: %d rows give the cycles and acquisitions of book/sim/results.csv%s", same, differ))

	# 2. A FIFO lock hands over in arrival order, whatever the socket.
	split("ticket step-8 today mcs", F, " ")
	worst = 1; text = ""
	for (i = 1; i <= 4; i++) for (s = 2; s <= 8; s *= 2) {
		d = moves(F[i], s, 64) / ((s - 1) / s)
		if (d < worst) worst = d
		if (s == 8) text = text sprintf("%s%s %.2f", text == "" ? "" : ", ", F[i], moves(F[i], s, 64))
	}
	ok(worst >= 0.9, sprintf("N=64, hammer: the FIFO locks change socket on at least 0.9 of the (S-1)/S of acquisitions a random order would (worst %.2f of it); at S=8: %s of 0.875", worst, text))
	ok(moves("cna", 2, 64) < 0.05 && moves("cna", 8, 64) < 0.05, sprintf("N=64, hammer: CNA changes socket on %.3f (S=2) and %.3f (S=8) of acquisitions", moves("cna", 2, 64), moves("cna", 8, 64)))

	# 3. Cross-socket transfers: the queued lock makes more than the ticket lock.
	ok(remote("today", 2, 64) > 1.5 * remote("ticket", 2, 64) && remote("cna", 2, 64) < 0.5 * remote("ticket", 2, 64),
	   sprintf("N=64, hammer, S=2: cross-socket transfers per acquisition: 6.1 %.2f, ticket %.2f, MCS %.2f, CNA %.2f", remote("today", 2, 64), remote("ticket", 2, 64), remote("mcs", 2, 64), remote("cna", 2, 64)))

	# 4. Sockets cost the queued lock more than they cost the ticket lock.
	gt = cyc("today", "hammer", 8, 64) / cyc("today", "hammer", 1, 64)
	gk = cyc("ticket", "hammer", 8, 64) / cyc("ticket", "hammer", 1, 64)
	ok(gt > 1.5 * gk, sprintf("N=64, hammer: eight sockets instead of one make 6.1 %.2fx as slow, the ticket lock %.2fx", gt, gk))

	# 5. The socket crossover, eight CPUs a socket.
	split("heavy hammer", W, " ")
	for (x = 1; x <= 2; x++) {
		w = W[x]; from = 0; text = ""
		for (s = 1; s <= 8; s *= 2) {
			r = cyc("ticket", w, s, 8 * s) / cyc("today", w, s, 8 * s)
			text = text sprintf("%sS=%d %.2f", text == "" ? "" : ", ", s, r)
			if (r > 1 && !from) from = s
			if (r <= 1) from = 0
		}
		want = w == "hammer" ? 8 : 0
		ok(from == want, sprintf("eight CPUs a socket, %s: the queued lock (6.1) is ahead of the ticket lock %s (ticket / 6.1: %s), where Long expected it from 4 sockets", w, from ? "from S=" from " on" : "at no socket count up to 8", text))
	}

	# 6. Where that holds: X from 1.5C to 4C, N=64, hammer.  At 4C the
	# two are even: the ratio moves from 0.98 to 1.19 with the seed
	# (-s 0..4), so the claim there is only that they are within 0.9..1.2.
	region = 1; text = ""
	n = split("150 200 300 400", XS, " ")
	for (j = 2; j <= 8; j += 6) for (m = 1; m <= n; m++) {
		r = cycx("ticket", j, XS[m]) / cycx("today", j, XS[m])
		text = text sprintf("%sS=%d X=%d %.2f", text == "" ? "" : ", ", j, XS[m], r)
		if (XS[m] < 400 ? r < 1.1 : r < 0.9 || r > 1.2) region = 0
	}
	ok(region, sprintf("N=64, hammer: 6.1 is at least 1.1x ahead of the ticket lock for X up to 3C at S=2 and 8, and even with it (0.9-1.2) at 4C (ticket / 6.1: %s)", text))

	# 7. CNA: the socket-local hand-over, and what it costs in fairness.
	best = 0
	for (j = 2; j <= 8; j += 6) for (m = 1; m <= n; m++) {
		r = cycx("cna", j, XS[m]) / cycx("today", j, XS[m])
		if (r > best) best = r
	}
	ok(best <= 0.7, sprintf("N=64, hammer, S=2 and 8, X from 1.5C to 4C: CNA takes at most %.2fx the cycles of 6.1", best))
	pc = wait("cna", 4, 64, 17) / wait("cna", 4, 64, 16)
	pt = wait("today", 4, 64, 17) / wait("today", 4, 64, 16)
	ok(pc >= 10 && pt <= 1.1 && wait("cna", 4, 64, 18) > wait("today", 4, 64, 18),
	   sprintf("N=64, hammer, S=4: CNA pays in its tail: p99 / p50 %.1f (6.1 %.2f), longest wait %d cycles (6.1 %d)", pc, pt, wait("cna", 4, 64, 18), wait("today", 4, 64, 18)))

	# 8. Data in the lock line.
	for (x = 1; x <= 2; x++) {
		w = W[x]
		a = cycline("ticket", w, 64, 1) / cycline("ticket", w, 64, 0)
		b = cycline("today", w, 8, 1) / cycline("today", w, 8, 0)
		ok(a >= 1.1 && b <= 0.8, sprintf("%s, one write of the data in the lock'"'"'s line: the ticket lock at N=64 %.2fx its cycles with the data in a line of its own, 6.1 at N=8 %.2fx", w, a, b))
		q0 = cycline("today", w, 64, 0) / cycline("mcs", w, 64, 0)
		q1 = cycline("today", w, 64, 1) / cycline("mcs", w, 64, 1)
		ok(q0 >= 1.6 && q1 <= 1.2, sprintf("%s, N=64: 6.1 takes %.2fx the MCS lock'"'"'s cycles with the data in its own line, %.2fx with it in the lock'"'"'s line", w, q0, q1))
	}

	# 9. Waits: the test-and-set byte is the unfair one.
	r = wait("ttas", 1, 64, 17) / wait("ttas", 1, 64, 16)
	text = ""
	for (i = 1; i <= 4; i++) {
		q = wait(F[i], 1, 64, 17) / wait(F[i], 1, 64, 16)
		text = text sprintf("%s%s %.2fx", text == "" ? "" : ", ", F[i], q)
		if (q >= 1.2) r = 0
	}
	ok(r >= 100, sprintf("N=64, hammer, one socket: the test-and-set byte'"'"'s p99 wait is %.0fx its median; the FIFO locks'"'"' under 1.2x: %s", wait("ttas", 1, 64, 17) / wait("ttas", 1, 64, 16), text))
	exit bad ? 1 : 0
}' "$bench" "$csv"
