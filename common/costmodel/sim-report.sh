#!/bin/bash
# sim-report.sh CSV OUTDIR OCCUPANCY: the cost model's tables and plots
# from the results sim.sh wrote (OCCUPANCY: the percent of C a read miss
# kept its line, for the tables' headings).
#   OUTDIR/table.md       per workload: cycles and transfers per acquisition
#                         against N, then the other counts at N = 2, 8, 64
#   OUTDIR/*.dat, *.svg   transfers and cycles per acquisition against N
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 3 ] || die "usage: sim-report.sh CSV OUTDIR OCCUPANCY"
csv=$1 out=$2 occupancy=$3
[ -f "$csv" ] || die "sim-report.sh: no results file $csv"
"$TOP/common/harness/deps.sh" bench

awk -F, -v occ="$occupancy" '
NR == 1 { next }
{
	k = $1 SUBSEP $2 SUBSEP $3
	acq[k] = $8; cyc[k] = $7; lo[k] = $9; hi[k] = $10
	xfer[k] = $13; inval[k] = $16; atom[k] = $17; fail[k] = $18; node[k] = $21
	if (!($1 in seen)) { seen[$1] = 1; locks[++nl] = $1 }
	if (!(($2, $3) in seenn)) { seenn[$2, $3] = 1; ns[$2, ++nn[$2]] = $3 }
	if (!($2 in seenw)) { seenw[$2] = 1; works[++nw] = $2; hold[$2] = $4; wk[$2] = $5; C = $6; T = 0 }
}
function per(x, k) { return acq[k] ? x / acq[k] : 0 }
function row(w, what, fmt,    i, j, k, s) {
	for (i = 1; i <= nl; i++) {
		s = "| " locks[i]
		for (j = 1; j <= nn[w]; j++) {
			k = locks[i] SUBSEP w SUBSEP ns[w, j]
			if (what == "cycles") s = s sprintf(" | " fmt, per(cyc[k] + 0, k))
			else s = s sprintf(" | " fmt, per(xfer[k] + 0, k))
		}
		print s " |"
	}
}
function header(w, label,    j, s, t) {
	s = "| " label; t = "|:--"
	for (j = 1; j <= nn[w]; j++) { s = s " | N=" ns[w, j]; t = t "|--:" }
	print s " |"; print t "|"
}
END {
	for (x = 1; x <= nw; x++) {
		w = works[x]
		printf "### %s: hold %d cycles, work %d cycles between, C = %d, a read miss keeps its line %d%% of C\n\n", w, hold[w], wk[w], C, occ
		header(w, "cycles per acquisition")
		row(w, "cycles", "%.0f")
		print ""
		header(w, "transfers per acquisition")
		row(w, "xfer", "%.2f")
		print ""
		print "| lock | N | atomics | failed cmpxchg | invalidations | node accesses | max/min |"
		print "|:--|--:|--:|--:|--:|--:|--:|"
		for (i = 1; i <= nl; i++)
			for (j = 1; j <= nn[w]; j++) {
				n = ns[w, j]
				if (n != 2 && n != 8 && n != 64) continue
				k = locks[i] SUBSEP w SUBSEP n
				printf "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", locks[i], n,
				       per(atom[k], k), per(fail[k], k), per(inval[k], k), per(node[k], k),
				       lo[k] ? hi[k] / lo[k] : 0
			}
		print ""
	}
	# The fast path: one CPU, nothing between (heavy, N=1), against the ticket lock.
	k0 = "ticket" SUBSEP "heavy" SUBSEP 1
	if (acq[k0]) {
		print "### uncontended: one CPU, hold " hold["heavy"] " cycles, nothing between\n"
		print "| lock | atomics per acquisition | cycles per acquisition | cycles - the ticket lock'"'"'s |"
		print "|:--|--:|--:|--:|"
		for (i = 1; i <= nl; i++) {
			k = locks[i] SUBSEP "heavy" SUBSEP 1
			if (!acq[k]) continue
			printf "| %s | %.2f | %.1f | %+.1f |\n", locks[i], per(atom[k], k), per(cyc[k], k), per(cyc[k], k) - per(cyc[k0], k0)
		}
		print ""
	}
	print "*Per acquisition*, over every CPU of one run. *transfers*: misses served by another cache; *invalidations*: copies a write removed; *node accesses*: loads and stores of the per-CPU queue nodes; *max/min*: acquisitions of the busiest CPU over the least busy one (1.00 is fair). The model and its rules: common/costmodel/README.md."
}' "$csv" >"$out/table.md"

# One data file a workload and a measure: N, then a column a lock.
plot_locks="ticket ttas mcs step-2 step-3 step-7 today"
for w in heavy hammer; do
	for m in transfers cycles; do
		awk -F, -v w="$w" -v m="$m" -v ls="$plot_locks" '
			BEGIN { nl = split(ls, L, " ") }
			NR > 1 && $2 == w {
				v[$1, $3] = (m == "cycles" ? $7 : $13) / ($8 ? $8 : 1)
				if (!($3 in s)) { s[$3] = 1; N[++nn] = $3 }
			}
			END {
				printf "# N"; for (i = 1; i <= nl; i++) printf " %s", L[i]; print ""
				for (j = 1; j <= nn; j++) {
					printf "%d", N[j]
					for (i = 1; i <= nl; i++) printf " %.3f", v[L[i], N[j]]
					print ""
				}
			}' "$csv" >"$out/$m-$w.dat"
		{
			echo "set terminal svg size 720,420 dynamic background rgb 'white'"
			echo "set output '$out/$m-$w.svg'"
			echo "set logscale x 2"
			echo "set logscale y"
			echo "set key top left"
			echo "set grid"
			echo "set xlabel 'CPUs (N)'"
			if [ "$m" = transfers ]; then
				echo "set ylabel 'cache-line transfers per acquisition'"
			else
				echo "set ylabel 'modelled cycles per acquisition'"
			fi
			echo "set title '$w workload: $m per acquisition (the cost model)'"
			printf "plot"
			i=2
			for l in $plot_locks; do
				[ "$i" -eq 2 ] || printf ","
				printf " '%s' using 1:(\$%d > 0 ? \$%d : 1/0) with linespoints title '%s'" "$out/$m-$w.dat" "$i" "$i" "$l"
				i=$((i + 1))
			done
			echo
		} | gnuplot || die "gnuplot failed on $out/$m-$w.dat"
	done
done
