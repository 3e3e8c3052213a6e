#!/bin/bash
# sim-sockets.sh: what each lock costs when its CPUs are in several
# sockets, with data in the lock's line, and how long its waits are, by
# simulation (make sim-sockets; common/costmodel/README.md, "Sockets").
#
# The cost model of make sim-bench, with the CPUs in S sockets (cost -T
# -D S: CPUs 0..N/S-1 in socket 0, and so on).  A transfer between two
# sockets costs X cycles (-X; 3C by default, cost.h's COST_CROSS_FACTOR),
# one inside a socket C.  Six locks: the ticket lock (6.1's generic one,
# step 0's x86 lock), the test-and-test-and-set byte (step 0's sparc64
# lock), the last native step (step 8), 6.1's own lock (today), the
# pointer-tail MCS lock, and, not part of the series, the compact
# NUMA-aware lock (common/costmodel/locks/cna.h).  Three sets of runs:
#   sockets   heavy and hammer, S = 1, 2, 4, 8, N = 2..64 (S divides N)
#   cross     hammer, N = 64, S = 2 and 8, X = 1.5C, 2C and 4C: the
#             region over which the socket claims hold
#   line      hammer and heavy, S = 1, N = 8 and 64, the critical section
#             writing its data k = 1 or 4 times into the lock's own line
#             (-k) instead of a line of its own (k = 0: the sockets set)
# Every row carries the waits' 50th and 99th percentile and the longest.
# Deterministic: the same command writes the same files, byte for byte.
#
# Writes build/sim-sockets/:
#   results.csv   one row per set, lock, workload, S, N, X and k
#   table.md      the book's tables (book/contention.md)
#   claims.txt    its claims, checked (sim-sockets-claims.sh)
#   cycles-S.svg  cycles per acquisition against N, one curve per S, per lock
# then compares results.csv with the recorded copy (book/sim/sockets/;
# make sim-record writes it).  SIM_CYCLES (4000000) changes the run
# length; the comparison and the claims are then skipped.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 0 ] || die "sim-sockets.sh: no arguments ('$1'); SIM_CYCLES sets the run length"
cycles=${SIM_CYCLES:-4000000}
case $cycles in
'' | *[!0-9]*) die "SIM_CYCLES must be a whole number of cycles (1000..100000000), not '$cycles'" ;;
esac
if [ "$cycles" -lt 1000 ] || [ "$cycles" -gt 100000000 ]; then
	die "SIM_CYCLES must be 1000..100000000, not $cycles"
fi
C=100 hold=100 work=2000
out=$BUILD/sim-sockets record=$TOP/book/sim/sockets/results.csv
OUT=$BUILD/verify
. "$TOP/common/checker/lib.sh"

# The last step whose x86 kernel has no paravirt code: the native queued lock.
native=""
for d in $(step_dirs); do
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	s=$((10#$(basename "$d" | cut -c1-2)))
	case ",$(expect_field "$s" x86_64 config)," in *,paravirt,*) continue ;; esac
	native=step-$s
done
[ -n "$native" ] || die "sim-sockets: no step with a native queued lock"
locks=(ticket ttas "$native" today mcs "${SOCKET_LOCKS[@]}")

say "sim-sockets: building the checker and ${#locks[@]} locks (${locks[*]})"
build_checker
mkdir -p "$out"
rm -f "$out/claims.txt"
declare -A bin
for l in "${locks[@]}"; do
	r=$(build_sim_lock "$l") || die "sim-sockets: $l $r"
	bin[$l]=$r
done

# One job a line: set lock workload sockets cpus cross k.
jobs=$out/jobs.txt
X=$((3 * C))
{
for w in heavy hammer; do
	for l in "${locks[@]}"; do
		for s in 1 2 4 8; do
			for n in 2 4 8 16 32 64; do
				[ "$n" -ge "$s" ] && [ $((n % s)) -eq 0 ] && echo "sockets $l $w $s $n $X 0"
			done
		done
	done
done
for l in "${locks[@]}"; do
	for s in 2 8; do
		for x in $((3 * C / 2)) $((2 * C)) $((4 * C)); do
			echo "cross $l hammer $s 64 $x 0"
		done
	done
done
for w in heavy hammer; do
	for l in "${locks[@]}"; do
		[ "$l" != cna ] || continue	# one socket: CNA is MCS with a look along the queue
		for n in 8 64; do
			for k in 1 4; do
				echo "line $l $w 1 $n $X $k"
			done
		done
	done
done
} >"$jobs"
total=$(grep -c . "$jobs")
say "sim-sockets: $total runs, $cycles cycles each, C = $C, X = $X (1.5C..4C in the cross set), hold $hold, work $work (hammer) or 0 (heavy); 2 at a time"

run_one() { # set lock workload sockets cpus cross k -> one CSV line, or a FAIL line
	local set=$1 l=$2 w=$3 s=$4 n=$5 x=$6 k=$7 wk=$work res
	[ "$w" = hammer ] || wk=0
	res=$("$(cost_of "${bin[$l]}")" -T "$cycles" -c "$n" -C "$C" -D "$s" -X "$x" -k "$k" \
		-H "$hold" -W "$wk" -N "$l" 2>&1) ||
		{ echo "FAIL $set $l $w S=$s N=$n X=$x k=$k: $(printf '%s' "$res" | tail -1)"; return 0; }
	printf '%s\n' "$res" | awk -v set="$set" -v l="$l" -v w="$w" '
		/^cost / {
			for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			print set "," l "," w "," v["sockets"] "," v["cpus"] "," v["cross"] "," \
			      v["lock_line_writes"] "," v["cycles"] "," v["acq"] "," v["min"] "," \
			      v["max"] "," v["transfers"] "," v["remote"] "," v["lock_moves"] "," \
			      v["atomics"] "," v["wait_p50"] "," v["wait_p99"] "," v["wait_max"] "," \
			      v["lock.local"] + 0 "," v["lock.passed_over"] + 0
			found = 1
		}
		END { if (!found) print "FAIL " set " " l " " w ": no result line" }'
}

t0=$(date +%s)
rows=$out/rows.txt
run_jobs sim-sockets "$jobs" "$rows" "$out/logs" run_one
csv=$out/results.csv
{
	echo "set,lock,workload,sockets,cpus,cross,k,cycles,acq,min,max,transfers,remote,lock_moves,atomics,wait_p50,wait_p99,wait_max,local_handovers,passed_over"
	cat "$rows"
} >"$csv"
"$TOP/common/costmodel/sim-sockets-report.sh" "$csv" "$out" "${locks[*]}"

rc=0 skip=""
if [ -z "${SIM_CYCLES:-}" ]; then
	"$TOP/common/costmodel/sim-sockets-claims.sh" "$csv" >"$out/claims.txt" || rc=1
else
	skip="a changed run length (SIM_CYCLES)"
fi
sim_verdict sim-sockets "$rc" "$out/claims.txt" "$csv" "$record" "$skip" "$total" "$t0" || exit 1
