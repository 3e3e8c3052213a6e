#!/bin/bash
# sim-overcommit.sh: what a preempted vCPU costs each lock, by simulation
# (make sim-overcommit; common/costmodel/README.md, "Preempted vCPUs").
#
# The cost model of make sim-bench, with its CPUs as vCPUs on fewer host
# cores (common/checker/host.h: round-robin slices, a halted vCPU gives its
# core away, a kick wakes it), for five locks:
#   ticket       6.1's generic ticket lock (step 0's x86 lock)
#   step-N       the last step whose x86 kernel has no paravirt code: the
#                native queued lock
#   step-N       each guest step, as a guest runs it: step 9 with
#                virt_spin_lock()'s test-and-set loop on (the virt layout),
#                step 10 with its halt-and-kick slowpath (the pv layout)
#   today        6.1's own paravirt lock (the pv layout)
# at 4, 16 and 64 vCPUs, each on as many host cores (1x), two thirds as
# many (1.5x) and half as many (2x), in lockhammer's shape: HOLD cycles
# inside, WORK between.  Deterministic: the same command writes the same
# files, byte for byte.
#
# Writes build/sim-overcommit/:
#   results.csv   one row per lock, vCPUs and overcommit: the checker's counts
#   table.md      throughput, its loss against 1x, fairness, hand-over stalls
#   claims.txt    the claims of the book's paravirt chapter, checked
#                 (sim-overcommit-claims.sh)
# then compares results.csv with the recorded copy (book/sim/overcommit/;
# make sim-record writes it).
#
# The model's constants (host.h, and -Q, -K, -B of cost -T) keep the
# ratios of a real host: a slice of 500,000 cycles stands for a few
# milliseconds; a kick wakes its vCPU 10,000 cycles later (a fiftieth of
# a slice: upstream measured 64-68 us from kick to running, in the
# changelog of "locking/pvqspinlock: Collect slowpath lock statistics");
# a paravirt waiter spins 40,000 cycles before it halts (2^15 rounds of
# a read and a pause, some 0.2 ms).  The run lasts 10 million cycles,
# HOLD 100, WORK 2,000, C 100, as make sim-bench's hammer workload.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 0 ] || die "sim-overcommit.sh: no arguments ('$1')"

cycles=10000000 slice=500000 wake=10000 spin=40000 hold=100 work=2000
cpus_list="4 16 64" overcommits="1 1.5 2"
out=$BUILD/sim-overcommit record=$TOP/book/sim/overcommit/results.csv
OUT=$BUILD/verify
. "$TOP/common/checker/lib.sh"

# The locks: name and layout, in the tables' order.
native="" guests=()
for d in $(step_dirs); do
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	s=$((10#$(basename "$d" | cut -c1-2)))
	layouts=$(checker_layouts "$s")
	case " $layouts " in
	*" pv "*) guests+=("step-$s:pv") ;;
	*" virt "*) guests+=("step-$s:virt") ;;
	*) native="step-$s:nr64" ;;
	esac
done
[ -n "$native" ] || die "sim-overcommit: no step with a native queued lock"
[ ${#guests[@]} -gt 0 ] || die "sim-overcommit: no guest step (common/boot/expect.tsv's config column: paravirt)"
locks=(ticket:other "$native" "${guests[@]}" today:pv)

say "sim-overcommit: building the checker and ${#locks[@]} locks"
build_checker
mkdir -p "$out"
rm -f "$out/claims.txt"
declare -A bin
for spec in "${locks[@]}"; do
	l=${spec%%:*} layout=${spec#*:}
	case $l in
	ticket) r=$(build_other ticket) ;;
	today) r=$(build "$PRISTINE" "$layout" "oc-today") ;;
	*) r=$(build "$(step_dir "${l#step-}")/tree" "$layout" "oc-$l") ;;
	esac || die "sim-overcommit: $l $r"
	bin[$l]=$r
done

# One job a line: lock vCPUs overcommit cores.
jobs=$out/jobs.txt
: >"$jobs"
for n in $cpus_list; do
	for x in $overcommits; do
		p=$(awk -v n="$n" -v x="$x" 'BEGIN { p = int(n / x + 0.5); print p < 1 ? 1 : p }')
		for spec in "${locks[@]}"; do
			echo "${spec%%:*} ${spec#*:} $n $x $p" >>"$jobs"
		done
	done
done
total=$(grep -c . "$jobs")
say "sim-overcommit: $total runs (${#locks[@]} locks x vCPUs $cpus_list x overcommit $overcommits), $cycles cycles each; slice $slice, wake $wake, spin $spin; 2 at a time"

run_one() { # lock layout vcpus overcommit cores -> one CSV line, or a FAIL line
	local l=$1 layout=$2 n=$3 x=$4 p=$5 res
	res=$("$(cost_of "${bin[$l]}")" -T "$cycles" -c "$n" -P "$p" -Q "$slice" -K "$wake" -B "$spin" \
		-H "$hold" -W "$work" -N "$l" 2>&1) ||
		{ echo "FAIL $l N=$n x$x: $(printf '%s' "$res" | tail -1)"; return 0; }
	printf '%s\n' "$res" | awk -v l="$l" -v layout="$layout" -v x="$x" '
		/^cost / { for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }; n++ }
		END {
			if (n != 2) { print "FAIL " l ": no result lines"; exit }
			print l "," layout "," v["cpus"] "," x "," v["cores"] "," v["cycles"] "," v["acq"] "," \
			      v["min"] "," v["max"] "," v["preemptions"] "," v["halts"] "," \
			      v["wakes"] "," v["wake_preemptions"] "," v["idle"] "," v["stalls"] "," \
			      v["holder_preempted"] "," v["atomics"] "," v["transfers"]
		}'
}

t0=$(date +%s)
rows=$out/rows.txt
run_jobs sim-overcommit "$jobs" "$rows" "$out/logs" run_one
csv=$out/results.csv
{
	echo "lock,layout,cpus,overcommit,cores,cycles,acq,min,max,preemptions,halts,wakes,wake_preemptions,idle,stalls,holder_preempted,atomics,transfers"
	cat "$rows"
} >"$csv"

# The table: per vCPUs and overcommit, each lock's acquisitions per
# million cycles, that against its own at 1x, fairness (most / fewest
# acquisitions of one vCPU), hand-over stalls per acquisition, lock
# holders taken off their cores, halts.
awk -F, '
NR == 1 { next }
{ k = $1 SUBSEP $3 SUBSEP $4; r[k] = $0; if ($4 == 1) base[$1, $3] = $7
  if (!($1 in seen)) { seen[$1] = 1; L[++nl] = $1 } }
END {
	print "| vCPUs | overcommit | cores | lock | acquisitions / Mcycle | x its 1x | fairness (most/fewest) | stalls / acquisition | holders preempted | halts |"
	print "|------:|-----------:|------:|:-----|----------------------:|---------:|-----------------------:|---------------------:|------------------:|------:|"
	split("4 16 64", N, " "); split("1 1.5 2", X, " ")
	for (i = 1; i <= 3; i++) for (j = 1; j <= 3; j++) for (m = 1; m <= nl; m++) {
		k = L[m] SUBSEP N[i] SUBSEP X[j]
		if (!(k in r)) continue
		split(r[k], f, ",")
		printf "| %s | %sx | %s | %s | %.1f | %.2f | %s | %.3f | %s | %s |\n", f[3], f[4], f[5], f[1],
			f[7] * 1e6 / f[6], base[f[1], f[3]] ? f[7] / base[f[1], f[3]] : 0,
			f[8] ? sprintf("%.2f", f[9] / f[8]) : "-", f[7] ? f[15] / f[7] : 0, f[16], f[11]
	}
}' "$csv" >"$out/table.md"

rc=0
"$TOP/common/costmodel/sim-overcommit-claims.sh" "$csv" >"$out/claims.txt" || rc=1
sim_verdict sim-overcommit "$rc" "$out/claims.txt" "$csv" "$record" "" "$total" "$t0" || exit 1
