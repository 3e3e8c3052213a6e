#!/bin/bash
# sim-sockets-report.sh CSV OUTDIR "LOCK...": make sim-sockets' tables
# (OUTDIR/table.md) and plots (OUTDIR/cycles-LOCK.svg: cycles per
# acquisition against N in the hammer workload, one curve per socket
# count) from its results, the locks in the order given.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 3 ] || die "usage: sim-sockets-report.sh CSV OUTDIR \"LOCK...\""
csv=$1 out=$2 locks=$3
[ -f "$csv" ] || die "sim-sockets-report.sh: no results file $csv"
"$TOP/common/harness/deps.sh" bench

awk -F, -v locks="$locks" '
NR == 1 { next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP $7
	for (i = 8; i <= NF; i++) V[k, i] = $i
	if ($1 == "sockets") X = $6
}
function key(set, l, w, s, n, x, k) { return set SUBSEP l SUBSEP w SUBSEP s SUBSEP n SUBSEP x SUBSEP k }
function per(k, col) { return V[k, 9] ? V[k, col] / V[k, 9] : 0 }
function cyc(set, l, w, s, n, x, k) { return per(key(set, l, w, s, n, x, k), 8) }
END {
	nl = split(locks, L, " ")
	split("1 2 4 8", S, " ")
	print "### N = 64, hammer: the sockets\n"
	printf "Cycles per acquisition, cross-socket transfers per acquisition and how often the lock changed socket (per acquisition) with the 64 CPUs in S sockets; a transfer inside a socket costs C = 100 cycles, one between sockets X = %d.\n\n", X
	print "| lock | cycles S=1 | S=2 | S=4 | S=8 | cross-socket transfers S=2 | S=8 | socket changes S=2 | S=8 | fairness (most/fewest) S=8 |"
	print "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	for (i = 1; i <= nl; i++) {
		s = "| " L[i]
		for (j = 1; j <= 4; j++) s = s sprintf(" | %.0f", cyc("sockets", L[i], "hammer", S[j], 64, X, 0))
		for (j = 2; j <= 4; j += 2) s = s sprintf(" | %.2f", per(key("sockets", L[i], "hammer", S[j], 64, X, 0), 13))
		for (j = 2; j <= 4; j += 2) s = s sprintf(" | %.3f", per(key("sockets", L[i], "hammer", S[j], 64, X, 0), 14))
		k = key("sockets", L[i], "hammer", 8, 64, X, 0)
		s = s sprintf(" | %.2f", V[k, 10] ? V[k, 11] / V[k, 10] : 0)
		print s " |"
	}
	print "\n### Eight CPUs a socket: where the queued lock pulls ahead\n"
	print "The ticket lock'"'"'s cycles per acquisition over 6.1'"'"'s, with eight CPUs in each socket (N = 8S); above 1 the queued lock is ahead.\n"
	print "| workload | S=1 (N=8) | S=2 (N=16) | S=4 (N=32) | S=8 (N=64) |"
	print "|:--|--:|--:|--:|--:|"
	split("heavy hammer", W, " ")
	for (x = 1; x <= 2; x++) {
		s = "| " W[x]
		for (j = 1; j <= 4; j++) {
			t = cyc("sockets", "today", W[x], S[j], 8 * S[j], X, 0)
			s = s sprintf(" | %.2f", t ? cyc("sockets", "ticket", W[x], S[j], 8 * S[j], X, 0) / t : 0)
		}
		print s " |"
	}
	print "\n### The cost of a transfer between sockets\n"
	print "N = 64, hammer: the ticket lock and CNA against 6.1 (cycles per acquisition, ratio), for X from 1.5C to 4C.\n"
	print "| S | X | ticket / today | CNA / today | MCS / today |"
	print "|--:|--:|--:|--:|--:|"
	for (j = 2; j <= 4; j += 2) {
		n = split("150 200 300 400", XS, " ")
		for (m = 1; m <= n; m++) {
			set = XS[m] == X ? "sockets" : "cross"
			t = cyc(set, "today", "hammer", S[j], 64, XS[m], 0)
			printf "| %d | %d | %.2f | %.2f | %.2f |\n", S[j], XS[m],
			       t ? cyc(set, "ticket", "hammer", S[j], 64, XS[m], 0) / t : 0,
			       t ? cyc(set, "cna", "hammer", S[j], 64, XS[m], 0) / t : 0,
			       t ? cyc(set, "mcs", "hammer", S[j], 64, XS[m], 0) / t : 0
		}
	}
	print "\n### Waits\n"
	print "Cycles from asking for the lock to holding it, over every acquisition of the run: the median, the 99th percentile and the longest.\n"
	print "| lock | S | N | p50 | p99 | longest | p99 / p50 |"
	print "|:--|--:|--:|--:|--:|--:|--:|"
	for (i = 1; i <= nl; i++)
		for (j = 1; j <= 4; j += 2)
			for (n = 8; n <= 64; n *= 8) {
				k = key("sockets", L[i], "hammer", S[j], n, X, 0)
				if (!((k, 9) in V)) continue
				printf "| %s | %d | %d | %d | %d | %d | %.2f |\n", L[i], S[j], n, V[k, 16], V[k, 17], V[k, 18],
				       V[k, 16] ? V[k, 17] / V[k, 16] : 0
			}
	print "\n### Data in the lock'"'"'s line\n"
	print "One socket: cycles per acquisition when the critical section writes its data k times into the lock'"'"'s own cache line, against k = 0, its own line.\n"
	print "| workload | N | lock | k=0 | k=1 | k=4 | k=1 / k=0 |"
	print "|:--|--:|:--|--:|--:|--:|--:|"
	for (x = 1; x <= 2; x++)
		for (n = 8; n <= 64; n *= 8)
			for (i = 1; i <= nl; i++) {
				if (L[i] == "cna") continue
				a = cyc("sockets", L[i], W[x], 1, n, X, 0)
				b = cyc("line", L[i], W[x], 1, n, X, 1)
				printf "| %s | %d | %s | %.0f | %.0f | %.0f | %.2f |\n", W[x], n, L[i], a, b,
				       cyc("line", L[i], W[x], 1, n, X, 4), a ? b / a : 0
			}
	print "\n*Per acquisition*, over every CPU of one run. *cross-socket transfers*: misses and upgrades that reached another socket; *socket changes*: acquisitions whose CPU is in another socket than the last holder'"'"'s; *fairness*: acquisitions of the busiest CPU over the least busy one. The model: common/costmodel/README.md, \"Sockets\"."
}' "$csv" >"$out/table.md"

# One plot a lock: cycles per acquisition against N, a curve per S.
for l in $locks; do
	awk -F, -v l="$l" '
		NR > 1 && $1 == "sockets" && $2 == l && $3 == "hammer" { v[$4, $5] = $8 / ($9 ? $9 : 1) }
		END {
			print "# N S=1 S=2 S=4 S=8"
			for (n = 2; n <= 64; n *= 2) {
				printf "%d", n
				for (s = 1; s <= 8; s *= 2) printf " %s", ((s, n) in v) ? sprintf("%.3f", v[s, n]) : "-"
				print ""
			}
		}' "$csv" >"$out/cycles-$l.dat"
	{
		echo "set terminal svg size 720,420 dynamic background rgb 'white'"
		echo "set output '$out/cycles-$l.svg'"
		echo "set datafile missing '-'"
		echo "set logscale x 2"
		echo "set logscale y"
		echo "set yrange [100:4000]"
		echo "set key top left"
		echo "set grid"
		echo "set xlabel 'CPUs (N)'"
		echo "set ylabel 'modelled cycles per acquisition'"
		echo "set title '$l, hammer workload: one curve per socket count (the cost model)'"
		printf "plot"
		for i in 2 3 4 5; do
			[ "$i" -eq 2 ] || printf ","
			printf " '%s' using 1:%d with linespoints title 'S=%d'" "$out/cycles-$l.dat" "$i" $((1 << (i - 2)))
		done
		echo
	} | gnuplot || die "gnuplot failed on $out/cycles-$l.dat"
done
