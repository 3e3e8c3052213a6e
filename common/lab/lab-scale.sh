#!/bin/bash
# lab-scale.sh [--topology]: the lab's heavy loop on 1..N real cores beside
# the cost model's prediction for the same N (make lab-scale).
#
# Four locks: 6.1's generic ticket lock, the last native step (the newest
# step with a queued spinlock whose x86 kernel has no paravirt code),
# 6.1's own lock (today) and the pointer-tail MCS lock.  For each N from 1
# to the usable cores (one thread per core, at most 64):
#   measured  lab-bench's binaries (bench_build, bench_build_today in
#             lab/lib.sh, built here into build/lab/scale/), invoked as
#             lab-bench invokes them for its heavy loop: -t N -H 0 -K 0,
#             nothing inside or between; REPS repetitions of MS ms,
#             interleaved (repetition, then N, then lock, rotated), the
#             median Mops/s; the process's CPUs restricted with taskset to
#             one CPU per core, the same number from each socket the model
#             uses (bench pins thread i to the i-th of them);
#   modelled  the cost model (cost -T 4000000 -c N -H 0 -W 0, as make
#             sim-bench builds and runs it; -D S when the usable cores lie
#             in S sockets and S divides N, else one socket): cycles per
#             acquisition.
# The units differ (Mops/s on this machine, simulated cycles), so the
# table compares costs relative to the ticket lock's at the same N:
#   measured x ticket  the lock's time per acquisition over the ticket
#                      lock's (= ticket Mops/s / the lock's Mops/s);
#   model x ticket     its cycles per acquisition over the ticket lock's;
#   measured / model   the two ratios' quotient: 1 where the model
#                      predicts the lock's standing exactly.
# At N = 1 the measured ns per acquisition stands beside the model's
# cycles.  A measurement of this machine, not compared with a record.
#
# Output: build/lab/scale/: results.csv (one row per N and lock, every
# repetition), table.md, run.txt (the command, the machine: nproc, cores,
# sockets; the model's version; the wall time).  Environment: REPS (3),
# MS (300 per run), QSL_SYSFS (the sysfs root the topology is read from,
# /sys; a fake tree's CPUs are all taken as usable).  --topology prints
# the usable cores, one "cpu socket" line each, and the socket count, and
# stops: nothing is built or run.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

topo_only=0
case ${1:-} in
--topology) topo_only=1 ;;
"") ;;
*) die "usage: $0 [--topology] (REPS, MS and QSL_SYSFS from the environment), not '$*'" ;;
esac
[ $# -le 1 ] || die "usage: $0 [--topology]: one argument at most, not '$*'"
read -r reps ms < <(lab_timing lab-scale) || exit 2
MODEL_CYCLES=4000000
# The model "holds" for a lock at N when its ratio to the ticket lock is
# the measured one within this factor (either way).
HOLDS=1.5

# expand_cpus LIST: "0-3,8" -> "0 1 2 3 8".
expand_cpus() {
	local IFS=, r
	for r in $1; do
		case $r in
		*-*) seq "${r%-*}" "${r#*-}" ;;
		?*) echo "$r" ;;
		esac
	done | tr '\n' ' '
}

# usable_cores: one line "CPU SOCKET" per core this process may use (the
# lowest-numbered CPU of each physical_package_id and core_id pair: one
# thread per core), ordered by socket, then CPU.  Read from
# $QSL_SYSFS/devices/system/cpu/cpu*/topology (default /sys); with
# QSL_SYSFS set, every CPU of that tree counts as usable, otherwise only
# those of this process's affinity (/proc/self/status).  A CPU without
# topology files is a core of its own in socket 0.
usable_cores() {
	local root=${QSL_SYSFS:-/sys} c d pkg core cpus=""
	if [ -n "${QSL_SYSFS:-}" ]; then
		for d in "$root"/devices/system/cpu/cpu[0-9]*; do
			[ -d "$d" ] && cpus="$cpus ${d##*/cpu}"
		done
	else
		cpus=$(expand_cpus "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)")
	fi
	for c in $cpus; do
		d=$root/devices/system/cpu/cpu$c/topology
		pkg=$(cat "$d/physical_package_id" 2>/dev/null) || pkg=0
		core=$(cat "$d/core_id" 2>/dev/null) || core=cpu$c
		echo "$c $pkg $core"
	done | sort -k1,1n | awk '!seen[$2 " " $3]++ { print $1, $2 }' | sort -k2,2n -k1,1n
}

# sockets_of LINES: the distinct sockets among usable_cores' lines.
sockets_of() { printf '%s\n' "$1" | awk 'NF && !s[$2]++ { n++ } END { print n + 0 }'; }

cores=$(usable_cores)
[ -n "$cores" ] || die "lab scale: no usable core found under ${QSL_SYSFS:-/sys}/devices/system/cpu"
ncores=$(printf '%s\n' "$cores" | grep -c .)
nsock=$(sockets_of "$cores")
allsock=$(cat "${QSL_SYSFS:-/sys}"/devices/system/cpu/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -u | grep -c . || true)
if [ "$topo_only" -eq 1 ]; then
	printf '%s\n' "$cores"
	echo "cores=$ncores sockets=$nsock"
	exit 0
fi
maxn=$ncores
[ "$maxn" -le 64 ] || maxn=64

# cpus_for N D: N of the usable cores, N/D from each of the first D
# sockets (D = 1: the first N in socket order, socket 0 filled first), as a
# taskset list.
cpus_for() {
	printf '%s\n' "$cores" | awk -v n="$1" -v d="$2" '
		!($2 in idx) { idx[$2] = ++ns; k[ns] = 0 }
		{ s = idx[$2]; list[s, ++k[s]] = $1 }
		END {
			out = ""; got = 0
			if (d > 1) {
				for (s = 1; s <= d && s <= ns; s++)
					for (i = 1; i <= n / d && i <= k[s]; i++) { out = out (got++ ? "," : "") list[s, i] }
			}
			if (got < n) {	# one socket, or sockets too small: fill in order
				out = ""; got = 0
				for (s = 1; s <= ns && got < n; s++)
					for (i = 1; i <= k[s] && got < n; i++) out = out (got++ ? "," : "") list[s, i]
			}
			print out
		}'
}
# span CPULIST: how many sockets the CPUs of a taskset list lie in.
span() {
	printf '%s\n' "$cores" | awk -v l=",$1," 'index(l, "," $1 ",") && !s[$2]++ { n++ } END { print n + 0 }'
}

# shellcheck source=common/lab/lib.sh
. "$TOP/common/lab/lib.sh"
out=$LAB/scale
mkdir -p "$out"
t0=$(now)

# The last native step, as make sim-sockets picks it.
native=""
for d in $(step_dirs); do
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	s=$((10#$(basename "$d" | cut -c1-2)))
	case ",$(expect_field "$s" x86_64 config)," in *,paravirt,*) continue ;; esac
	native=$s
done
[ -n "$native" ] || die "lab scale: no step with a native queued lock"
locks=(ticket "step-$native" today mcs)

say "lab scale: building lab-bench's benchmark of step $native and of today into ${out#"$TOP"/}"
bench_build "$out" "$native"
bench_build_today "$out"
declare -A bin kind
bin[step-$native]=${BENCH_BINS[0]} kind[step-$native]=step
bin[today]=$BENCH_TODAY_BIN kind[today]=step
# ticket and mcs are the same code in every binary (ticket.c, bench.c):
# the step's, as lab-bench takes them from its newest step's.
bin[ticket]=${BENCH_BINS[0]} kind[ticket]=ticket
bin[mcs]=${BENCH_BINS[0]} kind[mcs]=mcs

# The model: its own build directory, so that a make verify or make check
# running beside this one keeps build/verify/ to itself.  checker/lib.sh
# redefines CFLAGS and build(): sourced only once the lab's builds are done.
OUT=$out/model
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
say "lab scale: building the cost model's ${locks[*]} into ${OUT#"$TOP"/}"
build_checker
declare -A model
for l in "${locks[@]}"; do
	r=$(build_sim_lock "$l") || die "lab scale: the model of $l $r"
	model[$l]=$r
done

# Per N: the model's sockets D and the measured CPUs.
declare -A D cpus mspan
for n in $(seq 1 "$maxn"); do
	D[$n]=1
	[ "$nsock" -le 1 ] || [ $((n % nsock)) -ne 0 ] || D[$n]=$nsock
	cpus[$n]=$(cpus_for "$n" "${D[$n]}")
	mspan[$n]=$(span "${cpus[$n]}")
done

# The model first (deterministic, fast): cycles per acquisition.
declare -A mcyc mfair mline
for n in $(seq 1 "$maxn"); do
	for l in "${locks[@]}"; do
		line=$("$(cost_of "${model[$l]}")" -T "$MODEL_CYCLES" -c "$n" -D "${D[$n]}" -H 0 -W 0 -N "$l" 2>&1 | grep '^cost ' | tail -1 || true)
		[ -n "$line" ] || die "lab scale: the model of $l at N=$n gave no result line (${model[$l]})"
		c=$(field cycles "$line") a=$(field acq "$line")
		if [ -z "$c" ] || [ -z "$a" ] || [ "$a" -eq 0 ]; then die "lab scale: cannot read the model's line: $line"; fi
		mcyc[$n,$l]=$(awk -v c="$c" -v a="$a" 'BEGIN { printf "%.1f", c / a }')
		mfair[$n,$l]=$(awk -v hi="$(field max "$line")" -v lo="$(field min "$line")" 'BEGIN { printf "%.2f", (lo > 0 ? hi / lo : 0) }')
		mline[$l]=$line
		say "lab scale: model $l N=$n sockets ${D[$n]}: ${mcyc[$n,$l]} cycles/acquisition"
	done
done

total=$((reps * maxn * ${#locks[@]}))
say "lab scale: ${#locks[@]} locks x N = 1..$maxn x $reps repetition(s) of $ms ms = $total runs, about $((total * (ms + 20) / 1000)) s; heavy loop, threads pinned one per core"
declare -A mops fair
k=0
for r in $(seq 1 "$reps"); do
	rot=$(((r - 1) % ${#locks[@]}))
	for n in $(seq 1 "$maxn"); do
		for j in $(seq 0 $((${#locks[@]} - 1))); do
			l=${locks[(j + rot) % ${#locks[@]}]}
			k=$((k + 1))
			line=$(taskset -c "${cpus[$n]}" "${bin[$l]}" -l "${kind[$l]}" -t "$n" -d "$ms" -H 0 -K 0) ||
				die "lab scale: $l with $n thread(s) on CPUs ${cpus[$n]} failed: $line"
			m=$(field mops "$line")
			[ -n "$m" ] || die "lab scale: cannot read: $line"
			mops[$n,$l]="${mops[$n,$l]:-}${mops[$n,$l]:+ }$m"
			fair[$n,$l]="${fair[$n,$l]:-}${fair[$n,$l]:+ }$(field fair "$line")"
			printf '    [%d/%d] rep %d %-8s N=%d CPUs %s: %8s Mops/s\n' "$k" "$total" "$r" "$l" "$n" "${cpus[$n]}" "$m" >&2
		done
	done
done

# One row per N and lock; the arithmetic and the modes in awk.  Modes as
# lab-bench splits them: the sorted repetitions split wherever one is more
# than twice the one below; the median is of all repetitions.
csv=$out/results.csv
{
	echo "n,lock,model_sockets,cpus,measured_sockets,mops_reps,mops_median,modes,ns_per_acq,model_cycles_per_acq,measured_x_ticket,model_x_ticket,measured_over_model,measured_fair,model_fair"
	for n in $(seq 1 "$maxn"); do
		for l in "${locks[@]}"; do
			echo "$n $l ${D[$n]} ${cpus[$n]} ${mspan[$n]} ${mcyc[$n,$l]} ${mcyc[$n,ticket]} ${mfair[$n,$l]}|${mops[$n,ticket]}|${mops[$n,$l]}|${fair[$n,$l]}"
		done
	done | awk -f "$TOP/common/harness/stats.awk" -f /dev/fd/3 3<<'AWK'
function modes(list,    v, n, i, k, s, st, e, str) {
	n = stats_sort(list, v)
	k = 1; st[1] = 1
	for (i = 2; i <= n; i++) if (v[i] + 0 > 2 * v[i - 1]) st[++k] = i
	if (k == 1) return 1
	str = ""
	for (i = 1; i <= k; i++) {
		s = st[i]; e = (i < k ? st[i + 1] - 1 : n)
		str = str (i > 1 ? " / " : "") (e - s + 1) "x " median(slice(v, s, e))
	}
	return str
}
function slice(v, s, e,    i, r) { r = ""; for (i = s; i <= e; i++) r = r " " v[i]; return r }
{
	split($0, p, "|"); split(p[1], f, " ")
	tick = p[2]; mine = p[3]
	tm = median(tick); lm = median(mine)
	mx = tm / lm; mo = f[6] / f[7]
	printf "%d,%s,%d,%s,%d,%s,%.3f,%s,%.1f,%s,%.3f,%.3f,%.3f,%.2f,%s\n", f[1], f[2], f[3], "\"" f[4] "\"", f[5], mine, lm, modes(mine), 1000 / lm, f[6], mx, mo, mx / mo, median(p[4]), f[8]
}
AWK
} >"$csv"

# table.md.
awk -F, -v holds="$HOLDS" -v reps="$reps" -v ms="$ms" -v native="step-$native" '
NR == 1 { next }
{
	gsub(/"/, "")
	# the cpus field holds commas: count from both ends
	n = $1; l = $2; d = $3; med = $(NF - 8); md = $(NF - 7); ns = $(NF - 6)
	cyc = $(NF - 5); mx = $(NF - 4); mo = $(NF - 3); q = $(NF - 2); mf = $(NF - 1); of = $NF
	hold = (l == "ticket" ? "" : (q <= holds + 0 && q >= 1 / holds ? "yes" : "no"))
	if (l != "ticket") { cnt++; if (hold == "yes") ok++; if (md != 1) modal++ }
	row[++nr] = sprintf("| %d | %d | %s | %.2f%s | %.1f | %s | %.2f | %.2f | %.2f | %s | %.2f / %.2f |", n, d, l, med, (md == 1 ? "" : " (modes: " md ")"), ns, cyc, mx, mo, q, hold, mf, of)
	if (n > maxn) maxn = n
}
END {
	print "| N | model sockets | lock | measured Mops/s (median) | measured ns/acq | model cycles/acq | measured x ticket | model x ticket | measured / model | within " holds "x | max/min measured / model |"
	print "|--:|--:|:--|--:|--:|--:|--:|--:|--:|:-:|--:|"
	for (i = 1; i <= nr; i++) print row[i]
	printf "\n*measured*: the lab'"'"'s heavy loop (N threads pinned one per core, nothing inside or between the critical sections), median of %d repetition(s) of %d ms; ns/acq = 1000 / Mops/s, wall time per acquisition. *model*: the cost model'"'"'s cycles per acquisition at the same N, hold 0, work 0. *x ticket*: the lock'"'"'s cost over the ticket lock'"'"'s at the same N (measured: ticket Mops/s over the lock'"'"'s; model: cycles per acquisition over the ticket lock'"'"'s); above 1 is slower than the ticket lock. *measured / model*: the quotient of the two; *within %sx*: the model ranks the lock against the ticket lock within that factor. *max/min*: the busiest thread'"'"'s (CPU'"'"'s) acquisitions over the idlest'"'"'s, measured (median) and modelled. %s: the last native step. A measurement of this machine, not compared with a record.\n", reps, ms, holds, native
	if (modal) printf "\n%d cell(s) fell into modes (repetitions more than 2x apart, as lab-bench splits them); their median mixes them.\n", modal
	printf "%d %d %d\n", ok, cnt, modal >sumfile
}' sumfile="$out/summary.tmp" "$csv" >"$out/table.md"
read -r ok cnt modal <"$out/summary.tmp"
rm -f "$out/summary.tmp"

wall=$(($(now) - t0))
mver=$(git -C "$TOP" log -1 --format='%h %cs' -- 'common/costmodel/*.[ch]' 'common/checker/*.[ch]' 2>/dev/null || true)
git -C "$TOP" diff --quiet HEAD -- 'common/costmodel/*.[ch]' 'common/checker/*.[ch]' 2>/dev/null ||
	mver="$mver, with uncommitted changes"
mparams=$(printf '%s\n' "${mline[ticket]}" | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^(transfer|occupancy|hit|fence|atomic|cross)=/) s = s " " $i; print substr(s, 2) }')
{
	echo "command: common/lab/lab-scale.sh (REPS=$reps MS=$ms)"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(host_summary); gcc $(gcc -dumpversion), -O2"
	echo "nproc: $(nproc); usable cores (one thread per core): $ncores; sockets: $nsock among them, ${allsock:-?} in ${QSL_SYSFS:-/sys}; N = 1..$maxn"
	for n in $(seq 1 "$maxn"); do
		echo "N=$n: CPUs ${cpus[$n]} (${mspan[$n]} socket(s)); model with -D ${D[$n]}$([ "$nsock" -gt 1 ] && [ "${D[$n]}" -eq 1 ] && echo " (the $nsock sockets do not divide N: the model ran with one socket)")"
	done
	echo "model: common/checker cost model, last changed in ${mver:-an unknown commit}; -T $MODEL_CYCLES; $mparams"
	echo "locks: ticket (6.1's generic), step-$native (the last native step), today (6.1's own), mcs"
	echo "wall time: $wall s ($total runs)"
} >"$out/run.txt"

cat "$out/table.md"
echo
cat "$out/run.txt"
limit=""
[ "$maxn" -gt 2 ] || limit="; this machine has $ncores usable core(s), so only N = 1..$maxn: a many-core machine shows where the model holds at larger N"
echo "lab scale: the model ranks the lock against the ticket lock within ${HOLDS}x in $ok of $cnt cells (N = 1..$maxn; $modal with modes)$limit; a measurement, not compared with a record; results in ${out#"$TOP"/}/"
