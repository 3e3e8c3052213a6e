#!/bin/bash
# bench.sh [--smoke]: measure every stage of the lock under one fixed
# workload, in one invocation, so the numbers can be compared.
#
# The workload is locktorture's spin_lock run (2 writer kthreads per vCPU,
# its own random short and long hold times) for DURATION seconds, followed
# by qsl_torture's run of the same length, whose worst wait is reported.
# Each configuration (stage x vCPU count) is booted REPS times; the runs are
# interleaved - repetition by repetition, vCPU count by vCPU count, with the
# order of the stages rotated each repetition - so drift of the machine
# (other load, thermal, page cache) hits every stage alike.  Every run must
# be judged PASS by the verdict (at 4 vCPUs or more also with the stage's
# path counters); a run that fails stops the benchmark, because its numbers
# would mean nothing.
#
# Output, in build/bench/ (build/bench-smoke/ for --smoke):
#   results.csv  one line per run
#   table.md     per stage and vCPU count: writes/s median (min-max),
#                ratios to step 0 and to today, writer fairness, worst wait
#   throughput.svg  the medians with their min-max range (gnuplot)
#   run.txt      the machine, the command, the wall time
#
# Environment: BENCH_STAGES (default: the stages common/boot/expect.tsv's bench
# column marks full or smoke, today 0 2 3 4 5 6 7 8 9 10 today),
# BENCH_CPUS ("1 2 4"), REPS (3), DURATION (10).  --smoke: the stages
# marked smoke (0, 7 and 10), vCPUs "1 4", one repetition of 3 s - the
# pipeline, not a measurement; it needs no today (make test does not
# build today's kernel), and its table's "x today" column is then 0.
set -eu
. "$(dirname "$0")/lib.sh"

smoke=0
case ${1:-} in
--smoke) smoke=1 ;;
"") ;;
*) die "usage: bench.sh [--smoke]" ;;
esac
if [ "$smoke" = 1 ]; then
	stages=${BENCH_STAGES:-$(table_stages bench x86_64 smoke)}
	cpus_list=${BENCH_CPUS:-1 4}
	reps=${REPS:-1} duration=$(duration_for bench-smoke) out=$BUILD/bench-smoke
else
	stages=${BENCH_STAGES:-$(table_stages bench)} cpus_list=${BENCH_CPUS:-1 2 4}
	reps=${REPS:-3} duration=$(duration_for bench) out=$BUILD/bench
fi
check_number REPS "$reps" 1 50
norm=""
for s in $stages; do norm="$norm $(stage "$s")"; done
read -r -a stages <<<"$norm"
read -r -a cpus_list <<<"$cpus_list"
for c in "${cpus_list[@]}"; do check_number BENCH_CPUS "$c" 1 8; done
case " ${stages[*]} " in *" 0 "*) ;; *) die "BENCH_STAGES must include 0: ratios are taken to step 0" ;; esac
[ "$smoke" = 1 ] || case " ${stages[*]} " in *" today "*) ;; *) die "BENCH_STAGES must include today: ratios are taken to today's lock" ;; esac

"$TOP/common/harness/deps.sh" kernel x86_64 bench
mkdir -p "$out"
csv=$out/results.csv
t0=$(now)
nconf=$((${#stages[@]} * ${#cpus_list[@]}))
total=$((nconf * reps))
say "bench: stages ${stages[*]}; vCPUs ${cpus_list[*]}; $reps repetition(s) of ${duration} s + ${duration} s; $total boots"

# 1. Every kernel first, so the timed part only boots.
i=0
for s in "${stages[@]}"; do
	i=$((i + 1))
	say "[build $i/${#stages[@]}] $(stage_title "$s")"
	"$TOP/common/boot/source.sh" "$s"
	"$TOP/common/boot/build.sh" "$s" x86_64
	"$TOP/common/boot/initramfs.sh" "$s" x86_64
done

# 2. The runs.
echo "stage,vcpus,rep,duration_s,writes,writes_per_s,writer_max,writer_min,fairness,qsl_maxwait_us,qsl_fair,log" >"$csv"
k=0
tb=$(now)
for r in $(seq 1 "$reps"); do
	# Rotate the order of the stages by one each repetition.
	rot=$(((r - 1) % ${#stages[@]}))
	order=("${stages[@]:rot}" "${stages[@]:0:rot}")
	for c in "${cpus_list[@]}"; do
		for s in "${order[@]}"; do
			k=$((k + 1))
			lock=$(expected_lock "$s" x86_64)
			# With one CPU a paravirt backend does not install itself
			# ("PV spinlocks disabled, single CPU"), and the guest keeps
			# virt_spin_lock()'s test-and-set loop, as step 9 runs it.
			case $c:$lock in 1:pv-*) lock=virt-test-and-set/${lock#*/} ;; esac
			paths=-
			[ "$c" -lt 4 ] || paths=$(expected_paths "$s" x86_64)
			# The console scrolls by in the run directory, not on the terminal.
			dir=$(CPUS=$c DURATION=$duration PLAN=spin_lock QSLTORTURE=on \
				"$TOP/qemu/run.sh" "$s" x86_64 test "bench-c$c-r$r" 2>"$out/runner.err") || {
				tail -5 "$out/runner.err" >&2
				die "bench: the QEMU runner failed for stage $s at $c vCPUs (run: ${dir:-none})"
			}
			"$TOP/common/boot/verdict.sh" "$dir" "stage $s, $c vCPUs, rep $r" "$lock" "$paths" >/dev/null ||
				die "bench: a run failed, so the benchmark stops (its numbers would mean nothing):
       $(run_file "$dir" verdict.txt)"
			# Numbers only from the metrics of a run judged PASS.
			writes=$(run_metric "$dir" spin_lock.writes)
			wmax=$(run_metric "$dir" spin_lock.writes_max)
			wmin=$(run_metric "$dir" spin_lock.writes_min)
			maxwait=$(run_metric "$dir" qsl.maxwait_us)
			qfair=$(run_metric "$dir" qsl.fair)
			if [ -z "$wmin" ] || [ -z "$maxwait" ]; then
				die "bench: the metrics of ${dir#"$TOP"/} lack spin_lock.writes_min or qsl.maxwait_us"
			fi
			log=$dir/console.log
			wps=$((writes / duration))
			fair=$(awk -v a="$wmax" -v b="$wmin" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
			echo "$s,$c,$r,$duration,$writes,$wps,$wmax,$wmin,$fair,$maxwait,$qfair,${log#"$TOP"/}" >>"$csv"
			el=$(($(now) - tb))
			printf '    [%d/%d] rep %d, %d vCPU(s), stage %-5s %9d writes/s  max/min %5s  qsl worst wait %8s us   (%d s, about %d s to go)\n' \
				"$k" "$total" "$r" "$c" "$s" "$wps" "$fair" "$maxwait" "$el" "$((el * (total - k) / k))" >&2
		done
	done
done

# 3. The report.
"$TOP/common/boot/bench-report.sh" "$csv" "$out"
wall=$(($(now) - t0))
{
	echo "command: $([ "$smoke" = 1 ] && echo "common/boot/bench.sh --smoke" || echo "make bench") (REPS=$reps DURATION=$duration BENCH_STAGES=\"${stages[*]}\" BENCH_CPUS=\"${cpus_list[*]}\")"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(host_summary), $(awk '/MemTotal/ { printf "%d GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "guest: QEMU $(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p') TCG (multi-threaded), x86_64, $KVER, tinyconfig + common/boot/config"
	echo "wall time: $wall s ($total boots)"
} >"$out/run.txt"
cat "$out/table.md"
echo
cat "$out/run.txt"
echo "bench: $total runs PASS; results in ${out#"$TOP"/}/ (results.csv, table.md, throughput.svg, run.txt)"
