#!/bin/bash
# lab-bench.sh [--smoke]: the userspace lab's host benchmark (common/lab/bench.c).
#
# For every step with a queued spinlock, one benchmark binary built from
# the same compile as the lab's stress program (x86_64, NR_CPUS < 16K),
# and one of 6.1's own queued spinlock (today, the pristine tree's, built
# the same way), plus 6.1's generic ticket lock (the step-0 lock, from the
# pristine tree), glibc's pthread_spinlock_t and a pointer-tail MCS lock.  Every
# lock runs the same loops on this machine's own cores, threads pinned:
#   uncontended   1 thread, nothing inside or between: the cost of one
#                 lock + unlock (ns per acquisition);
#   moderate      1..N threads (N = the usable cores, at most 4), HOLD
#                 pauses inside and THINK pauses between acquisitions:
#                 throughput with the lock free most of the time;
#   heavy         2..N threads, nothing inside or between: the lock goes
#                 from core to core as fast as the lock can pass it.
# Each configuration runs REPS times, interleaved (repetition, then
# configuration, then lock, the order of the locks rotated each time), so
# drift hits every lock alike; the table gives medians, min-max and the
# ratio to the ticket lock from the same run, or, where a cell's
# repetitions fall into modes (values more than 2x apart: where the host
# put the vCPUs), each mode's median and count and a ratio per mode; see
# "Modes" below.  Any lost update fails.
#
# Then common/lab/storefwd.c times four lock/unlock instruction pairs on
# one word, one thread: what the uncontended column is made of.
#
# Output: build/lab/bench/ (--smoke: bench-smoke/): results.csv, table.md,
# storefwd.txt, run.txt (the command, the machine, the wall time).  Environment: REPS (5), MS (1000 per run; the defaults are lab_timing's, common/boot/lib.sh),
# HOLD (4), THINK (16).  --smoke: one repetition of 100 ms (make test).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

smoke=0
case ${1:-} in
--smoke) smoke=1 ;;
"") ;;
*) die "usage: $0 [--smoke]" ;;
esac
if [ "$smoke" -eq 1 ]; then
	read -r reps ms < <(lab_timing lab-bench-smoke) || exit 2
else
	read -r reps ms < <(lab_timing lab-bench) || exit 2
fi
hold=${HOLD:-4} think=${THINK:-16}
check_number HOLD "$hold" 0 100000
check_number THINK "$think" 0 100000
[ "$hold" -gt 0 ] || [ "$think" -gt 0 ] ||
	die "HOLD=0 THINK=0 is the heavy workload, which runs anyway; the moderate one needs pauses"

# shellcheck source=common/lab/lib.sh
. "$TOP/common/lab/lib.sh"
out=$LAB/bench
[ "$smoke" -eq 0 ] || out=$LAB/bench-smoke
mkdir -p "$out"
ncores=$(nproc)
[ "$ncores" -le 4 ] || ncores=4

# One binary per step (bench_build in lab/lib.sh): the step's qspinlock.c
# and bench.c compiled as the stress program is, and ticket.c against the
# pristine tree's headers; and one of 6.1's own lock, today
# (bench_build_today), compiled the same way from the pristine tree.
t0=$(now)
bench_build "$LAB"
bench_build_today "$LAB"
locks=("${BENCH_LOCKS[@]}" today)
bins=("${BENCH_BINS[@]}" "$BENCH_TODAY_BIN")
# The other three locks are the same in every binary: take the newest
# step's.
newest=${BENCH_BINS[${#BENCH_BINS[@]} - 1]}
for l in ticket pthread mcs; do
	locks+=("$l")
	bins+=("$newest")
done

configs=("1 0 0")
for t in $(seq 1 "$ncores"); do configs+=("$t $hold $think"); done
for t in $(seq 2 "$ncores"); do configs+=("$t 0 0"); done
total=$((reps * ${#configs[@]} * ${#locks[@]}))
say "lab bench: ${#locks[@]} locks x ${#configs[@]} configurations x $reps repetition(s) of $ms ms = $total runs, about $((total * (ms + 20) / 1000)) s; $ncores core(s), threads pinned"

csv=$out/results.csv
echo "lock,threads,hold,think,rep,ops,ns_per_op,mops,fair" >"$csv"
k=0
for r in $(seq 1 "$reps"); do
	rot=$(((r - 1) % ${#locks[@]}))
	for cfg in "${configs[@]}"; do
		read -r t h th <<<"$cfg"
		for j in $(seq 0 $((${#locks[@]} - 1))); do
			i=$(((j + rot) % ${#locks[@]}))
			lock=${locks[i]}
			kind=$lock
			case $lock in step-* | today) kind=step ;; esac
			k=$((k + 1))
			line=$("${bins[i]}" -l "$kind" -t "$t" -d "$ms" -H "$h" -K "$th") ||
				die "lab bench: $lock with $t thread(s) failed: $line"
			nops=$(field ops "$line") nsop=$(field ns_per_op "$line")
			mops=$(field mops "$line") fair=$(field fair "$line")
			if [ -z "$nops" ] || [ -z "$nsop" ] || [ -z "$mops" ] || [ -z "$fair" ]; then
				die "lab bench: cannot read: $line"
			fi
			echo "$lock,$t,$h,$th,$r,$nops,$nsop,$mops,$fair" >>"$csv"
			printf '    [%d/%d] rep %d %-8s %d thread(s) hold %d think %d: %8s ns/op %8s Mops/s max/min %s\n' \
				"$k" "$total" "$r" "$lock" "$t" "$h" "$th" "$nsop" "$mops" "$fair" >&2
		done
	done
done

# The table: uncontended cost, moderate and heavy throughput at each
# thread count, each with its ratio to the ticket lock from the same run.
#
# Modes.  On a small VM the same run is fast or slow depending on where
# the host puts the vCPUs the threads are pinned to (on this 2-vCPU
# machine heavy 2 threads gives about 4 or 15-30 Mops/s), and a median of
# such repetitions mixes two machines.  So each cell's repetitions are
# sorted and split wherever one value is more than twice the one below
# it; every group is a mode.  A cell with one mode gives its median and
# min-max, as before, and its ratio to the ticket lock's median when the
# ticket lock's cell has one mode too.  A cell with several gives each
# mode, low to high, as "N× median" (N repetitions), and a ratio per mode
# (lowest to lowest, and so on) when the ticket lock's cell has as many
# modes; when the counts of modes differ, "modes differ": no ratio.
# Below the table, which repetitions fell in which mode.  results.csv
# keeps every repetition as it was.
awk -F, -v order="${locks[*]}" -v ncores="$ncores" -v hold="$hold" -v think="$think" \
	-f "$TOP/common/harness/stats.awk" -f /dev/stdin "$csv" >"$out/table.md" <<'AWK'
NR > 1 {
	if ($3 == 0 && $4 == 0)
		key = $1 SUBSEP ($2 == 1 ? "u" : "h" $2)
	else
		key = $1 SUBSEP "m" $2
	ns[key] = ns[key] " " $7
	mops[key] = mops[key] " " $8
	reps[key] = reps[key] " " $5
	fair[key] = fair[key] " " $9
}
# modes(VALUES, REPS, M): splits the repetitions (two parallel lists) into
# modes; returns how many, with M[j, "med"], M[j, "n"], M[j, "lo"],
# M[j, "hi"] and M[j, "reps"] for mode j, lowest first.
function modes(vlist, rlist, M,    n, v, r, i, j, t, k, s, e, st, rs, rr, m) {
	split("", M)
	n = split(vlist, v, " ")
	split(rlist, r, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			t = r[j]; r[j] = r[j - 1]; r[j - 1] = t
		}
	k = 1
	st[1] = 1
	for (i = 2; i <= n; i++)
		if (v[i] + 0 > 2 * v[i - 1]) st[++k] = i
	for (j = 1; j <= k; j++) {
		s = st[j]
		e = (j < k ? st[j + 1] - 1 : n)
		m = e - s + 1
		M[j, "n"] = m
		M[j, "lo"] = v[s]
		M[j, "hi"] = v[e]
		M[j, "med"] = (m % 2 ? v[s + (m - 1) / 2] : (v[s + m / 2 - 1] + v[s + m / 2]) / 2)
		rs = ""
		for (i = s; i <= e; i++) rs = rs " " r[i]
		split("", rr)
		m = split(rs, rr, " ")
		for (i = 2; i <= m; i++)
			for (t = i; t > 1 && rr[t - 1] + 0 > rr[t] + 0; t--) {
				rs = rr[t]; rr[t] = rr[t - 1]; rr[t - 1] = rs
			}
		rs = rr[1]
		for (i = 2; i <= m; i++) rs = rs " " rr[i]
		M[j, "reps"] = rs
	}
	return k
}
function cell(l, c, what,    p, list, rlist, tlist, k, tk, L, T, j, s, rt) {
	p = (what == "ns" ? 1 : 2)
	list = (what == "ns" ? ns[l SUBSEP c] : mops[l SUBSEP c])
	tlist = (what == "ns" ? ns["ticket" SUBSEP c] : mops["ticket" SUBSEP c])
	k = modes(list, reps[l SUBSEP c], L)
	tk = modes(tlist, reps["ticket" SUBSEP c], T)
	if (k == 1)
		s = sprintf("%.*f (%.*f-%.*f)", p, L[1, "med"], p, L[1, "lo"], p, L[1, "hi"])
	else {
		s = ""
		for (j = 1; j <= k; j++)
			s = s (j > 1 ? " / " : "") sprintf("%d× %.*f", L[j, "n"], p, L[j, "med"])
		nmodal++
		detail[nmodal] = sprintf("- %s, %s:", l, cname[c])
		for (j = 1; j <= k; j++)
			detail[nmodal] = detail[nmodal] sprintf(" %.*f (%.*f-%.*f) in repetition%s %s;", p, L[j, "med"], p, L[j, "lo"], p, L[j, "hi"], (L[j, "n"] > 1 ? "s" : ""), L[j, "reps"])
		sub(/;$/, "", detail[nmodal])
	}
	if (tk != k)
		rt = "modes differ"
	else {
		rt = ""
		for (j = 1; j <= k; j++)
			rt = rt (j > 1 ? " / " : "") sprintf("%.2f", (T[j, "med"] > 0 ? L[j, "med"] / T[j, "med"] : 0))
	}
	return sprintf(" %s | %s |", s, rt)
}
END {
	n = split(order, lk, " ")
	nc = 0
	col[++nc] = "u"; name[nc] = "uncontended ns/op"; what[nc] = "ns"
	for (t = 1; t <= ncores; t++) { col[++nc] = "m" t; name[nc] = "moderate " t " thr Mops/s"; what[nc] = "mops" }
	for (t = 2; t <= ncores; t++) { col[++nc] = "h" t; name[nc] = "heavy " t " thr Mops/s"; what[nc] = "mops" }
	for (c = 1; c <= nc; c++) cname[col[c]] = name[c]
	printf "| lock |"
	for (c = 1; c <= nc; c++) printf " %s (min-max, or modes) | x ticket |", name[c]
	printf " heavy %d thr max/min |\n|:--|", ncores
	for (c = 1; c <= nc; c++) printf "--:|--:|"
	printf "--:|\n"
	for (i = 1; i <= n; i++) {
		printf "| %s |", lk[i]
		for (c = 1; c <= nc; c++) printf "%s", cell(lk[i], col[c], what[c])
		printf " %.2f |\n", median(fair[lk[i] SUBSEP "h" ncores])
	}
	printf "\n*uncontended*: 1 thread, nothing inside or between (lower is better). *moderate*: N threads pinned to N cores, %d pauses inside, %d between. *heavy*: N threads, nothing inside or between. Mops/s: millions of acquisitions per second (higher is better). *today*: 6.1's own queued spinlock, from the pristine tree. A cell's repetitions are split into modes wherever one value is more than twice the one below it (the host placing the vCPUs differently). One mode: the median, min-max in parentheses; *x ticket*: the ratio to the ticket lock's median in the same column, when the ticket lock's repetitions there form one mode too. Several modes, low to high: *N× M* is N repetitions with median M; *x ticket* gives one ratio per mode, lowest to lowest, when the ticket lock has as many modes there; *modes differ*: it has not, and no ratio is given. Max/min: the busiest thread's acquisitions over the idlest's, median.\n", hold, think
	if (nmodal) {
		printf "\nModes (median, min-max, which repetitions):\n\n"
		for (i = 1; i <= nmodal; i++) print detail[i]
	} else
		printf "\nEvery cell's repetitions form one mode.\n"
}
AWK
# The instructions under the uncontended column (one pinned thread).
say "lab bench: lock/unlock instruction pairs on one word (common/lab/storefwd.c)"
gcc "${CFLAGS[@]}" -I "$SHIMSRC/include" -o "$LAB/storefwd" "$LABSRC/storefwd.c" ||
	die "common/lab/storefwd.c does not compile"
"$LAB/storefwd" >"$out/storefwd.txt" || die "storefwd failed"

wall=$(($(now) - t0))
{
	echo "command: common/lab/lab-bench.sh$([ "$smoke" -eq 1 ] && echo " --smoke") (REPS=$reps MS=$ms HOLD=$hold THINK=$think)"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(host_summary); gcc $(gcc -dumpversion), -O2"
	echo "wall time: $wall s ($total runs)"
} >"$out/run.txt"
cat "$out/table.md"
echo
cat "$out/storefwd.txt"
echo
cat "$out/run.txt"
echo "lab bench: $total runs, every count exact; results in ${out#"$TOP"/}/"
