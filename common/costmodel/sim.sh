#!/bin/bash
# sim.sh: what each lock costs under contention, by simulation
# (make sim-bench; common/costmodel/README.md).
#
# Every lock runs on the lock checker's simulated CPUs under its cost
# model (cost -T): steps 1..8 (step 7 in both layouts), 6.1's own lock
# (today), 6.1's generic ticket lock (step 0's x86 lock), a test-and-test-
# and-set byte (step 0's sparc64 lock) and a pointer-tail MCS lock, for
# two workloads on 1 to 64 CPUs:
#   heavy   the critical section holds the lock HOLD cycles, no work between
#   hammer  HOLD inside, WORK cycles of other work between (lockhammer's shape)
# Deterministic: the same command writes the same files, byte for byte.
#
# Writes build/sim/:
#   results.csv   one row per lock, workload and N: the checker's counts
#   table.md      per acquisition: cycles, transfers, atomics, failed
#                 cmpxchg, fairness; the book includes it
#   claims.txt    the claims of the book's chapter, checked (sim-claims.sh)
#   *.svg         transfers and cycles per acquisition against N (gnuplot)
# then compares results.csv with the recorded copy in book/sim/ (make
# sim-record writes it): the book's numbers are the ones this run gives.
#
# SIM_CYCLES (simulated cycles a run, default 4000000), SIM_TRANSFER (C,
# cycles a line takes between caches, 100), SIM_OCCUPANCY (percent of C a
# read miss keeps its line, COST_READ_OCCUPANCY of common/costmodel/cost.h),
# SIM_HOLD (100), SIM_WORK (2000) change the model, SIM_LOCKS ("ticket step-7 ...") and SIM_N
# ("1 2 64", 1..64) what runs; the comparison with the record and the
# claims are then skipped.  SIM_OUT writes the files elsewhere (make
# sim-grid: one directory a run).
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 0 ] || die "sim.sh: no arguments ('$1'); choose with SIM_LOCKS, SIM_N, SIM_CYCLES, SIM_TRANSFER, SIM_OCCUPANCY, SIM_HOLD, SIM_WORK"

number() { # NAME VALUE LO HI
	case $2 in
	'' | *[!0-9]*) die "$1 must be a whole number of cycles, not '$2'" ;;
	esac
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then die "$1 must be $3..$4, not $2"; fi
}
custom=0
for v in SIM_CYCLES SIM_TRANSFER SIM_OCCUPANCY SIM_HOLD SIM_WORK SIM_LOCKS SIM_N; do
	[ -z "${!v:-}" ] || custom=1
done
cycles=${SIM_CYCLES:-4000000}
transfer=${SIM_TRANSFER:-100}
occupancy=${SIM_OCCUPANCY:-$(sed -n 's/^#define COST_READ_OCCUPANCY[[:space:]]*\([0-9]*\)$/\1/p' "$TOP/common/costmodel/cost.h")}
hold=${SIM_HOLD:-100}
work=${SIM_WORK:-2000}
number SIM_CYCLES "$cycles" 1000 100000000
number SIM_TRANSFER "$transfer" 1 100000
number SIM_OCCUPANCY "$occupancy" 1 100
number SIM_HOLD "$hold" 0 1000000
number SIM_WORK "$work" 0 1000000

out=${SIM_OUT:-$BUILD/sim} record=$TOP/book/sim/results.csv
cpus_list="1 2 3 4 6 8 12 16 32 64"
OUT=$BUILD/verify
. "$TOP/common/checker/lib.sh"

# The locks, in the tables' order: name, then how to build it.
locks=("${OTHER_LOCKS[@]}")
# A guest kernel's step (common/boot/expect.tsv's config column lists paravirt:
# step 9 on) changes what a CPU does when its vCPU is not running, which
# the model does not have: on its CPUs, which always run, the step's
# queued lock is the step before's.
for d in $(step_dirs); do
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	s=$((10#$(basename "$d" | cut -c1-2)))
	case ",$(expect_field "$s" x86_64 config)," in *,paravirt,*) continue ;; esac
	locks+=("step-$s")
done
# The one-bit layout, of the first step the expectation table gives it.
nr16k=$(table_stages variant | cut -d" " -f1)
[ -z "$nr16k" ] || locks+=("step-$nr16k-nr16k")
locks+=(today)
if [ -n "${SIM_LOCKS:-}" ]; then
	want=()
	for l in $SIM_LOCKS; do
		case " ${locks[*]} " in
		*" $l "*) want+=("$l") ;;
		*) die "SIM_LOCKS: no lock '$l'; valid: ${locks[*]}" ;;
		esac
	done
	locks=("${want[@]}")
fi
if [ -n "${SIM_N:-}" ]; then
	for n in $SIM_N; do
		case $n in
		'' | *[!0-9]*) die "SIM_N: '$n' is not a number of CPUs; valid: 1..64" ;;
		esac
		if [ "$n" -lt 1 ] || [ "$n" -gt 64 ]; then die "SIM_N: $n CPUs is out of range; valid: 1..64"; fi
	done
	cpus_list=$SIM_N
fi

say "sim: building the checker and ${#locks[@]} locks"
build_checker
mkdir -p "$out/logs"
rm -f "$out/claims.txt"	# written again only by a run of the recorded model
declare -A bin
for l in "${locks[@]}"; do
	r=$(build_sim_lock "$l") || die "sim: $l $r"
	bin[$l]=$r
done

# One job a line: lock workload cpus hold work.
jobs=$out/jobs.txt
: >"$jobs"
for w in heavy hammer; do
	wk=$work
	[ "$w" = heavy ] && wk=0
	for l in "${locks[@]}"; do
		for n in $cpus_list; do
			echo "$l $w $n $hold $wk" >>"$jobs"
		done
	done
done
total=$(grep -c . "$jobs")
say "sim: $total runs (${#locks[@]} locks x 2 workloads x N = $cpus_list), $cycles cycles each, C = $transfer, read occupancy $occupancy%, hold $hold, work $work; 2 at a time"

run_one() { # lock workload cpus hold work -> one CSV line, or a FAIL line
	local l=$1 w=$2 n=$3 h=$4 k=$5 line
	line=$("$(cost_of "${bin[$l]}")" -T "$cycles" -c "$n" -C "$transfer" -O "$occupancy" -H "$h" -W "$k" -N "$l" 2>&1) ||
		{ echo "FAIL $l $w N=$n: $line"; return 0; }
	printf '%s\n' "$line" | awk -v l="$l" -v w="$w" '
		/^cost / {
			for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			print l "," w "," v["cpus"] "," v["hold"] "," v["work"] "," v["transfer"] "," \
			      v["cycles"] "," v["acq"] "," v["min"] "," v["max"] "," v["accesses"] "," \
			      v["hits"] "," v["transfers"] "," v["memory"] "," v["upgrades"] "," \
			      v["invalidations"] "," v["atomics"] "," v["cas_failed"] "," \
			      v["lock_misses"] "," v["data_misses"] "," v["node_accesses"] "," v["node_misses"]
			found = 1
		}
		END { if (!found) print "FAIL " l " " w ": no result line" }'
}

t0=$(date +%s)
rows=$out/rows.txt
run_jobs sim "$jobs" "$rows" "$out/logs" run_one

csv=$out/results.csv
{
	echo "lock,workload,cpus,hold,work,transfer,cycles,acq,min,max,accesses,hits,transfers,memory,upgrades,invalidations,atomics,cas_failed,lock_misses,data_misses,node_accesses,node_misses"
	cat "$rows"
} >"$csv"
"$TOP/common/costmodel/sim-report.sh" "$csv" "$out" "$occupancy"

# The claims and the comparison with the recorded results, as KTAP.
rc=0 skip=""
if [ "$custom" -eq 0 ]; then
	"$TOP/common/costmodel/sim-claims.sh" "$csv" >"$out/claims.txt" || rc=1
else
	skip="a changed model (SIM_*)"
fi
sim_verdict sim "$rc" "$out/claims.txt" "$csv" "$record" "$skip" "$total" "$t0" || exit 1
