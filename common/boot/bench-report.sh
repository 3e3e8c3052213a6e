#!/bin/bash
# bench-report.sh RESULTS.csv OUTDIR: turn bench.sh's runs into
#   OUTDIR/table.md        one row per vCPU count and stage: writes/s median
#                          (min-max over the repetitions), the ratio of the
#                          medians to step 0 and to today at the same vCPU
#                          count, the median writer fairness (locktorture's
#                          busiest / idlest writer) and qsl_torture's worst
#                          wait (median over the repetitions);
#   OUTDIR/throughput.dat  the same medians for gnuplot;
#   OUTDIR/throughput.svg  writes/s per stage, one line per vCPU count.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: bench-report.sh RESULTS.csv OUTDIR"
csv=$1 out=$2
[ -s "$csv" ] || die "no results in $csv"

# The CSV lists the stages in the rotated order they ran in; the table
# lists them in series order: steps by number, then today.
stages=$(awk -F, 'NR > 1 { print $1 }' "$csv" | sort -u | sort -n | awk '$1 != "today"')
grep -q '^today,' "$csv" && stages="$stages today"
cpus=$(awk -F, 'NR > 1 { print $2 }' "$csv" | sort -un)

awk -F, -v stages="$stages" -v cpulist="$cpus" -v dat="$out/throughput.dat" \
	-f "$TOP/common/harness/stats.awk" -f /dev/stdin "$csv" >"$out/table.md" <<'EOF'
NR > 1 {
	key = $1 SUBSEP $2
	wps[key] = wps[key] " " $6
	fair[key] = fair[key] " " $9
	wait[key] = wait[key] " " $10
	nrep[key]++
}
END {
	ns = split(stages, st, " ")
	nc = split(cpulist, cpus, "\n")
	print "| vCPUs | stage | writes/s median | min - max | x step 0 | x today | writer max/min | qsl worst wait (us) | runs |"
	print "|------:|:------|----------------:|:----------|---------:|--------:|---------------:|--------------------:|-----:|"
	printf "# idx stage" > dat
	for (i = 1; i <= nc; i++) printf " med%s lo%s hi%s", cpus[i], cpus[i], cpus[i] > dat
	printf "\n" > dat
	for (i = 1; i <= nc; i++) {
		c = cpus[i]
		base = median(wps["0" SUBSEP c]); today = median(wps["today" SUBSEP c])
		for (s = 1; s <= ns; s++) {
			key = st[s] SUBSEP c
			if (!(key in wps)) continue
			m = median(wps[key])
			printf "| %d | %s | %d | %d - %d | %.2f | %.2f | %.2f | %d | %d |\n", c, \
				(st[s] == "today" ? "today" : "step " st[s]), m, lo(wps[key]), hi(wps[key]), \
				(base > 0 ? m / base : 0), (today > 0 ? m / today : 0), \
				median(fair[key]), median(wait[key]), nrep[key]
		}
	}
	for (s = 1; s <= ns; s++) {
		printf "%d %s", s - 1, (st[s] == "today" ? "today" : st[s]) > dat
		for (i = 1; i <= nc; i++) {
			key = st[s] SUBSEP cpus[i]
			if (key in wps) printf " %d %d %d", median(wps[key]), lo(wps[key]), hi(wps[key]) > dat
			else printf " NaN NaN NaN" > dat
		}
		printf "\n" > dat
	}
}
EOF

ncols=$(($(head -1 "$out/throughput.dat" | wc -w) - 3))
plots=""
col=3
for c in $(head -1 "$out/throughput.dat" | tr ' ' '\n' | sed -n 's/^med//p'); do
	plots="$plots${plots:+, }'$out/throughput.dat' using 1:$col:$((col + 1)):$((col + 2)):xtic(2) with yerrorlines title '$c vCPU(s)'"
	col=$((col + 3))
done
[ "$ncols" -gt 0 ] || die "no data columns in $out/throughput.dat"
gnuplot <<EOF || die "gnuplot failed on $out/throughput.dat"
set terminal svg size 760,420 dynamic font 'sans,12' background '#ffffff'
set output '$out/throughput.svg'
set title 'locktorture spin\_lock writes/s under QEMU TCG (median, bars: min-max)'
set xlabel 'stage (0: ticket lock; 2-8: the series; today: 6.1 qspinlock)'
set ylabel 'writes/s'
set key outside right top
set grid ytics
set yrange [0:*]
set offsets 0.3, 0.3, 0, 0
plot $plots
EOF
say "bench report: ${out#"$TOP"/}/table.md, throughput.svg"
