#!/bin/bash
# sim-lockhammer.sh [--record]: the cost model against ARM's lockhammer
# (make sim-lockhammer).  The model's ticket lock (6.1's generic
# ticket lock, `ticket`) and 6.1's queued spinlock (`today`), run at the
# hold and work times of lockhammer's four x86 hosts
# (common/costmodel/data/lockhammer-2018-x86-medians.csv), predict each host's
# nanoseconds per acquisition, point by point, and where its ticket lock
# falls behind for good.
#
# The calibration, per host, from that host's own lock-only points (0 ns
# held, 0 ns between) and nothing else:
#   - 1 thread: the uncontended acquisition, one offset a lock (the model
#     prices it at 4 or 5 cycles of cache hits; the host at 23-36 ns of
#     locked instructions and loop);
#   - CAL threads (4): the contended one, one scale for both locks.  Not 2:
#     lockhammer places a core's SMT siblings first, so its first two
#     threads share one core's caches, which the model does not have (on
#     three of the four hosts the queued lock is faster at 2 threads than
#     at 1, and on x86-3 and x86-4 the two locks' sum is too: no scale at
#     all); at 4 threads two cores are full.
#   s   = ((d4t - d1t) + (d4q - d1q)) / ((m4t - m1t) + (m4q - m1q))
#   a_L = d1L - s * m1L
# with dNL the host's median ns per acquisition of lock L at N threads and
# mNL the model's cycles per acquisition (0 held, 0 between).  A
# prediction is then a_L + s * (the model's cycles per acquisition), the
# model run with hold = round(HOLD_ns / s) and work = round(WORK_ns / s)
# cycles.  These four points a host are the calibration: they are shown,
# never counted as predictions.  The model itself is sim-bench's, with
# every default (C = 100, read occupancy COST_READ_OCCUPANCY): nothing in
# it is fitted here.
#
# Thread counts: 1 2 3 4 6 8 10 12 14 16 20 24 28 32 40 48 56 64, up to
# the host's largest (capped at 64, the model's most; x86-3's 72-88 are
# not compared).  The crossover: the thread count from which the ticket
# lock stays 10% or more behind the queued lock (sim-claims.sh's rule),
# for the host on every thread count it measured up to that cap, for the
# model on its counts above, refined with every count between the one
# where it crosses and the count below (those runs serve the crossover
# only, they are not points); "never" if the ticket lock is not behind at
# the largest count.
#
# Writes LOCKHAMMER_OUT (build/sim/lockhammer/):
#   predictions.csv  host,pair,lock,threads,measured_ns,predicted_ns,ratio,within20
#   table.md         per host, predicted over measured at every count; the
#                    calibration, the summary, the worst misses, the crossovers
#   claims.txt       the bounds below, checked ("ok"/"not ok" lines)
#   runs.csv         every model run (lock, CPUs, hold, work, cycles run, result),
#                    kept for the next run while the binaries stay the same
# then compares the first three with the recorded copies in
# book/sim/lockhammer/ (--record writes them, after a run that keeps every
# bound).  Deterministic: the same command writes the same files.  484
# runs, two at a time: about 70 s on two cores.
#
# LOCKHAMMER_DATA (another CSV of the same columns: the claims are checked
# against it, the record is not compared), LOCKHAMMER_HOSTS ("x86-4": those
# hosts only; their claims, and their rows of the record),
# LOCKHAMMER_OUT (where to write).
set -eu
. "$(dirname "$0")/../boot/lib.sh"

record_it=0
if [ "${1:-}" = --record ]; then
	record_it=1
	shift
fi
[ $# -eq 0 ] || die "sim-lockhammer.sh: no arguments but --record ('$1'); choose with LOCKHAMMER_DATA, LOCKHAMMER_HOSTS, LOCKHAMMER_OUT"

repo_data=$TOP/common/costmodel/data/lockhammer-2018-x86-medians.csv
data=${LOCKHAMMER_DATA:-$repo_data}
out=${LOCKHAMMER_OUT:-$BUILD/sim/lockhammer}
recdir=$TOP/book/sim/lockhammer
[ -f "$data" ] || die "sim-lockhammer: no data file $data"
data=$(cd "$(dirname "$data")" && pwd)/$(basename "$data")
other_data=0
cmp -s "$data" "$repo_data" || other_data=1

# The calibration's contended thread count, and the thread counts run.
CAL=4
GRID="1 2 3 4 6 8 10 12 14 16 20 24 28 32 40 48 56 64"
CAP=64
# The model's run: sim-bench's 4,000,000 cycles for the lock alone; with
# hold or work, 500 times a hold and a work (one CPU takes the lock 500
# times), within the checker's 100,000,000.
CYCLES0=4000000

# The stated bounds: what the model gives today, written down (the target
# was every point within 20% and every crossover within 2 threads;
# the model does not reach it, see table.md).  Per host: points within
# 20% (at least) of the points predicted (exactly), predicted/measured
# from LO to HI (the extremes, rounded outwards to 0.01), crossovers
# within 2 threads (at least, of 4).  "all": the four hosts together.
# The numbers are those of the model as it is (make sim-lockhammer, the
# default model, C = 100, read occupancy 20%, a locked RMW 20 cycles more,
# a fence 20), not a goal: a change that
# moves a prediction fails the record first, and a change for the worse
# fails these.
BOUNDS="
x86-1	55	140	0.19	2.28	0
x86-2	95	124	0.48	6.17	0
x86-3	97	140	0.48	5.06	1
x86-4	76	116	0.48	4.42	1
all	323	520	0.19	6.17	2
"

# The data: its columns, and for each host both locks' lock-only points
# at 1 and CAL threads.
hdr=$(head -1 "$data")
[ "$hdr" = "host,lock,critical/parallel,threads,median_ns_per_acquisition" ] ||
	die "sim-lockhammer: $data: the header is '$hdr', not host,lock,critical/parallel,threads,median_ns_per_acquisition"
bad=$(awk -F, 'NR > 1 && !($2 ~ /^(ticket|queued)_spinlock$/ && $3 ~ /^[0-9]+ns\/[0-9]+ns$/ &&
	$4 ~ /^[0-9]+$/ && $4 >= 1 && $5 ~ /^[0-9]+(\.[0-9]+)?$/ && NF == 5) { print NR ": " $0; exit }' "$data")
[ -z "$bad" ] || die "sim-lockhammer: $data: line $bad: not host,ticket_spinlock|queued_spinlock,Hns/Wns,threads,ns"
all_hosts=$(awk -F, 'NR > 1 && !($1 in s) { s[$1]; print $1 }' "$data" | sort | tr '\n' ' ')
all_hosts=${all_hosts% }
hosts=$all_hosts
if [ -n "${LOCKHAMMER_HOSTS:-}" ]; then
	hosts=""
	for h in $LOCKHAMMER_HOSTS; do
		case " $all_hosts " in
		*" $h "*) hosts="$hosts${hosts:+ }$h" ;;
		*) die "LOCKHAMMER_HOSTS: no host '$h' in the data; valid: $all_hosts" ;;
		esac
	done
fi
for h in $hosts; do
	for l in ticket queued; do
		for n in 1 $CAL; do
			grep -q "^$h,${l}_spinlock,0ns/0ns,$n," "$data" ||
				die "sim-lockhammer: $data has no ${l}_spinlock 0ns/0ns point at $n threads for $h: nothing to calibrate $h on"
		done
	done
done
subset=0
[ "$hosts" = "$all_hosts" ] || subset=1

# The thread counts a host is run at.
grid() { # HOST
	awk -F, -v h="$1" -v g="$GRID" -v cap="$CAP" '
		NR > 1 && $1 == h && $4 > m { m = $4 }
		END {
			if (m > cap) m = cap
			n = split(g, G, " ")
			for (i = 1; i <= n; i++) if (G[i] + 0 <= m) { s = s (s == "" ? "" : " ") G[i]; last = G[i] }
			if (last != m) s = s " " m
			print s
		}' "$data"
}

work_starts "the lockhammer comparison's build"
OUT=$out/bin
. "$TOP/common/checker/lib.sh"
"$TOP/common/boot/pristine.sh" >/dev/null
mkdir -p "$out" "$OUT"
rm -f "$out/claims.txt" "$out/predictions.csv" "$out/table.md"
say "sim-lockhammer: building the checker, the ticket lock and 6.1's queued lock"
build_checker
declare -A bin
bin[ticket]=$(build_other ticket) || die "sim-lockhammer: ticket: ${bin[ticket]}"
bin[today]=$(build "$PRISTINE" nr64 lockhammer-today) || die "sim-lockhammer: today: ${bin[today]}"

# run_one LOCK CPUS HOLD WORK CYCLES: one CSV line of runs.csv, or FAIL.
run_one() {
	local l=$1 n=$2 h=$3 w=$4 t=$5 line
	line=$("$(cost_of "${bin[$l]}")" -T "$t" -c "$n" -H "$h" -W "$w" -N "$l" 2>&1) ||
		{ echo "FAIL $l N=$n H=$h W=$w: $line"; return 0; }
	printf '%s\n' "$line" | awk -v l="$l" -v n="$n" -v h="$h" -v w="$w" -v t="$t" '
		/^cost / {
			for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			print l "," n "," h "," w "," t "," v["cycles"] "," v["acq"]; found = 1
		}
		END { if (!found) print "FAIL " l " N=" n ": no result line" }'
}
# runs.csv keeps every run while the two binaries stay the same (a
# checksum of both, runs.stamp): the model is deterministic, so a run
# made again would print the same line; any change of the model, the
# checker or a lock changes a binary and starts the file afresh.
runs=$out/runs.csv
stamp=$(cat "${bin[ticket]}" "${bin[today]}" | sha256sum | cut -d' ' -f1)
if [ -f "$runs" ] && [ "$(cat "$out/runs.stamp" 2>/dev/null)" = "$stamp" ]; then
	:
else
	echo "lock,cpus,hold,work,cycles_run,cycles,acq" >"$runs"
	echo "$stamp" >"$out/runs.stamp"
fi
# run_phase NAME JOBS: run the jobs of the file JOBS not run yet.
done_runs=0 reused=0
run_phase() {
	local name=$1 jobs=$2 todo=$out/todo.txt
	awk -F, 'NR == FNR { if (FNR > 1) have[$1 " " $2 " " $3 " " $4 " " $5]; next }
		!($0 in seen) { seen[$0]; if ($0 in have) kept++; else print }
		END { print kept + 0 >"/dev/stderr" }' "$runs" "$jobs" >"$todo" 2>"$out/kept.txt"
	reused=$((reused + $(cat "$out/kept.txt")))
	[ -s "$todo" ] || return 0
	say "sim-lockhammer: $name: $(grep -c . "$todo") runs, 2 at a time"
	run_jobs sim-lockhammer "$todo" "$out/rows.txt" "$out/logs" run_one
	cat "$out/rows.txt" >>"$runs"
	done_runs=$((done_runs + $(grep -c . "$todo")))
}
t0=$(date +%s)

# 1. The lock alone (0 held, 0 between), at every count any host runs:
#    the same cycles for every host.
jobs=$out/jobs.txt
: >"$jobs"
for h in $hosts; do
	for n in $(grid "$h"); do
		echo "ticket $n 0 0 $CYCLES0" >>"$jobs"
		echo "today $n 0 0 $CYCLES0" >>"$jobs"
	done
done
run_phase "the locks alone, 0 ns held, 0 ns between" "$jobs"

# 2. The calibration: host s a_ticket a_queued.
cal=$out/calibration.txt
awk -F, -v hosts="$hosts" -v CAL="$CAL" -v c0="$CYCLES0" '
	FNR == 1 { f++; next }
	f == 1 { if ($3 == "0ns/0ns") d[$1, substr($2, 1, 6), $4] = $5; next }
	$3 == 0 && $4 == 0 && $5 == c0 { m[$1, $2] = $6 / $7 }
	END {
		nh = split(hosts, H, " ")
		for (i = 1; i <= nh; i++) {
			h = H[i]
			num = (d[h, "ticket", CAL] - d[h, "ticket", 1]) + (d[h, "queued", CAL] - d[h, "queued", 1])
			den = (m["ticket", CAL] - m["ticket", 1]) + (m["today", CAL] - m["today", 1])
			if (den <= 0 || num <= 0) { print h " none"; continue }
			s = sprintf("%.6g", num / den)
			printf "%s %s %.3f %.3f\n", h, s, d[h, "ticket", 1] - s * m["ticket", 1], d[h, "queued", 1] - s * m["today", 1]
		}
	}' "$data" "$runs" >"$cal"
if grep -q ' none$' "$cal"; then
	die "sim-lockhammer: $(grep -m1 ' none$' "$cal" | cut -d' ' -f1): its lock-only points at $CAL threads are no slower than at 1: no scale from cycles to ns (data: $data)"
fi

# 3. Every host's hold and work, in cycles of its scale, at its counts.
: >"$jobs"
for h in $hosts; do
	s=$(awk -v h="$h" '$1 == h { print $2 }' "$cal")
	pairs=$(awk -F, -v h="$h" 'NR > 1 && $1 == h && $3 != "0ns/0ns" && !($3 in s) { s[$3]; print $3 }' "$data" | sort -t/ -k1,1n -k2,2n)
	for p in $pairs; do
		hw=$(awk -v p="$p" -v s="$s" -v c0="$CYCLES0" 'BEGIN {
			split(p, a, "/"); h = int(a[1] / s + 0.5); w = int(a[2] / s + 0.5)
			t = 500 * (h + w); if (t < c0) t = c0; if (t > 100000000) t = 100000000
			print h, w, t }')
		read -r hc wc tc <<<"$hw"
		if [ "$hc" -gt 1000000 ] || [ "$wc" -gt 1000000 ]; then
			die "sim-lockhammer: $h, $p: $hc cycles held, $wc between at $s ns a cycle: beyond the checker's 1,000,000"
		fi
		for n in $(grid "$h"); do
			echo "ticket $n $hc $wc $tc" >>"$jobs"
			echo "today $n $hc $wc $tc" >>"$jobs"
		done
	done
done
run_phase "lockhammer's hold and work times, each host's own cycles" "$jobs"

# predict HOSTS-GRID-FILE: one line a host, pair, lock and count the model
# ran: host pair lock threads predicted_ns grid(1)/extra(0).
gridf=$out/grid.txt
: >"$gridf"
for h in $hosts; do echo "$h $(grid "$h")" >>"$gridf"; done
# Only the host's own counts, and the counts the refinement added to that
# host and pair (refined.txt: host pair threads): runs.csv may hold others.
refined=$out/refined.txt
: >"$refined"
predict() {
	awk -F, -v c0="$CYCLES0" '
		FILENAME == ARGV[1] { split($0, a, " "); s[a[1]] = a[2]; at[a[1]] = a[3]; aq[a[1]] = a[4]; next }
		FILENAME == ARGV[2] { na = split($0, a, " "); for (i = 2; i <= na; i++) g[a[1], a[i]] = 1; next }
		FILENAME == ARGV[3] { split($0, a, " "); x[a[1], a[2], a[3]] = 1; next }
		FILENAME == ARGV[4] { if (FNR > 1 && !(($1, $3) in seen)) { seen[$1, $3]; P[$1, ++np[$1]] = $3 } next }
		FNR == 1 { next }
		{ r[$1, $2, $3, $4, $5] = $6 / $7 }
		END {
			for (h in s) for (i = 1; i <= np[h]; i++) {
				p = P[h, i]; split(p, hw, "/"); sub(/ns/, "", hw[1]); sub(/ns/, "", hw[2])
				hc = int(hw[1] / s[h] + 0.5); wc = int(hw[2] / s[h] + 0.5)
				t = 500 * (hc + wc); if (t < c0) t = c0; if (t > 100000000) t = 100000000
				if (hc == 0 && wc == 0) t = c0
				for (n = 1; n <= 64; n++) {
					kt = "ticket" SUBSEP n SUBSEP hc SUBSEP wc SUBSEP t
					kq = "today" SUBSEP n SUBSEP hc SUBSEP wc SUBSEP t
					if (!(kt in r) || !(kq in r) || !((h, n) in g || (h, p, n) in x)) continue
					printf "%s %s ticket %d %.1f %d\n", h, p, n, at[h] + s[h] * r[kt], ((h, n) in g)
					printf "%s %s queued %d %.1f %d\n", h, p, n, aq[h] + s[h] * r[kq], ((h, n) in g)
				}
			}
		}' "$cal" "$gridf" "$refined" "$data" "$runs" | sort -k1,1 -k2,2 -k3,3 -k4,4n
}
# crossings PREDICTIONS: host pair model-crossover measured-crossover
# count-below (the model's count just below its crossover).
crossings() {
	awk -F, -v cap="$CAP" '
		FILENAME == ARGV[1] { split($0, a, " "); v[a[1], a[2], a[3], a[4]] = a[5]; if (!((a[1], a[2]) in k)) { k[a[1], a[2]]; K[++nk] = a[1] SUBSEP a[2] }; if (a[4] > mx[a[1]]) mx[a[1]] = a[4]; next }
		FNR > 1 && $4 <= cap { d[$1, $3, substr($2, 1, 6), $4] = $5; if ($4 > dm[$1]) dm[$1] = $4 }
		END {
			for (i = 1; i <= nk; i++) {
				split(K[i], hp, SUBSEP); h = hp[1]; p = hp[2]
				c = 0; below = 0
				for (n = mx[h]; n >= 2; n--) {
					if (!((h, p, "ticket", n) in v)) continue
					if (v[h, p, "ticket", n] < 1.1 * v[h, p, "queued", n]) { below = n; break }
					c = n
				}
				cm = 0
				for (n = dm[h]; n >= 2; n--) {
					if (!((h, p, "ticket", n) in d)) continue
					if (d[h, p, "ticket", n] < 1.1 * d[h, p, "queued", n]) break
					cm = n
				}
				print h, p, c, cm, below
			}
		}' "$1" "$data" | sort
}

# 4. The crossover, refined: every count between the model's crossover on
#    its counts and the count below it.
predict >"$out/pred.txt"
crossings "$out/pred.txt" >"$out/cross.txt"
: >"$jobs"
while read -r h p c _ below; do
	if [ "$c" -eq 0 ] || [ $((c - below)) -le 1 ]; then continue; fi
	s=$(awk -v h="$h" '$1 == h { print $2 }' "$cal")
	read -r hc wc tc <<<"$(awk -v p="$p" -v s="$s" -v c0="$CYCLES0" 'BEGIN {
		split(p, a, "/"); h = int(a[1] / s + 0.5); w = int(a[2] / s + 0.5)
		t = 500 * (h + w); if (t < c0) t = c0; if (t > 100000000) t = 100000000
		print h, w, t }')"
	for ((n = below + 1; n < c; n++)); do
		echo "$h $p $n" >>"$refined"
		echo "ticket $n $hc $wc $tc" >>"$jobs"
		echo "today $n $hc $wc $tc" >>"$jobs"
	done
done <"$out/cross.txt"
run_phase "the crossovers, every count between the model's and the count below" "$jobs"
predict >"$out/pred.txt"
crossings "$out/pred.txt" >"$out/cross.txt"

# 5. predictions.csv: every point of a thread count run (not the refined
#    ones), not a calibration point, that the host measured.
pcsv=$out/predictions.csv
awk -F, -v CAL="$CAL" '
	FILENAME == ARGV[1] { split($0, a, " "); if (a[6]) { P[a[1], a[2], a[3], a[4]] = a[5]; order[++n] = a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4] } next }
	FNR > 1 { d[$1, $3, substr($2, 1, 6), $4] = $5 }
	END {
		print "host,pair,lock,threads,measured_ns,predicted_ns,ratio,within20"
		for (i = 1; i <= n; i++) {
			split(order[i], k, SUBSEP)
			if (k[2] == "0ns/0ns" && (k[4] == 1 || k[4] == CAL)) continue
			if (!((k[1], k[2], k[3], k[4]) in d)) continue
			m = d[k[1], k[2], k[3], k[4]]; r = sprintf("%.3f", P[order[i]] / m)
			printf "%s,%s,%s,%d,%s,%.1f,%s,%s\n", k[1], k[2], k[3], k[4], m, P[order[i]], r, (r >= 0.8 && r <= 1.2) ? "yes" : "no"
		}
	}' "$out/pred.txt" "$data" >"$pcsv"

# 6. The claims: the bounds above, checked.
claimsf=$out/claims.txt
printf '%s\n' "$BOUNDS" >"$out/bounds.txt"
claims_rc=0
awk -F, -v hosts="$hosts" -v subset="$subset" -v boundsf="$out/bounds.txt" -v crossf="$out/cross.txt" -v CAL="$CAL" '
	function ok(c, t) { printf "%s %s\n", c ? "ok    " : "not ok", t; if (!c) bad++ }
	FILENAME == boundsf { if (split($0, b, "\t") == 6) { B[b[1]] = 1; bw[b[1]] = b[2]; bn[b[1]] = b[3]; blo[b[1]] = b[4]; bhi[b[1]] = b[5]; bc[b[1]] = b[6] } next }
	FILENAME == crossf {
		split($0, a, " ")
		for (j = 0; j < 2; j++) {
			g = j ? "all" : a[1]
			nc[g]++
			if ((a[3] == 0) == (a[4] == 0) && a[3] - a[4] <= 2 && a[4] - a[3] <= 2) cw[g]++
		}
		next
	}
	FNR == 1 { next }
	{
		for (j = 0; j < 2; j++) {
			g = j ? "all" : $1
			np[g]++; if ($8 == "yes") nw[g]++
			if (!(g in lo) || $7 + 0 < lo[g]) lo[g] = $7 + 0
			if (!(g in hi) || $7 + 0 > hi[g]) hi[g] = $7 + 0
		}
	}
	END {
		printf "# calibration: each host'"'"'s 0ns/0ns points at 1 and %d threads, both locks (table.md); every other point is a prediction\n", CAL
		nh = split(hosts, H, " ")
		if (!subset) H[++nh] = "all"
		for (i = 1; i <= nh; i++) {
			h = H[i]; name = h == "all" ? "all four hosts" : h
			if (!(h in B)) { ok(0, h ": no stated bounds for this host in sim-lockhammer.sh"); continue }
			ok(np[h] == bn[h] && nw[h] + 0 >= bw[h], sprintf("%s: %d of %d points within 20%% of the measured (bound: at least %d of %d)", name, nw[h], np[h], bw[h], bn[h]))
			ok(lo[h] >= blo[h] && hi[h] <= bhi[h], sprintf("%s: predicted/measured from %.3f to %.3f (bound: %.2f to %.2f)", name, lo[h], hi[h], blo[h], bhi[h]))
			ok(cw[h] + 0 >= bc[h], sprintf("%s: the crossover within 2 threads on %d of %d hold/work pairs (bound: at least %d)", name, cw[h], nc[h], bc[h]))
		}
		if (!subset)
			printf "# the target, every point within 20%% and every crossover within 2 threads: %s (%d of %d points, %d of %d crossovers)\n", nw["all"] == np["all"] && cw["all"] == nc["all"] ? "met" : "not met", nw["all"], np["all"], cw["all"], nc["all"]
		exit bad ? 1 : 0
	}' "$out/bounds.txt" "$out/cross.txt" "$pcsv" >"$claimsf" || claims_rc=1

# 7. table.md: the calibration, the summary, the crossovers, the worst
#    misses, and per host predicted/measured at every count.
awk -F, -v CAL="$CAL" -v calf="$cal" -v gridf="$gridf" -v crossf="$out/cross.txt" -v pcsv="$pcsv" '
	function range(n) { return n == 1 ? "1" : n == 2 ? "2" : n <= 8 ? "3-8" : n <= 16 ? "10-16" : n <= 32 ? "20-32" : "40-64" }
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function cr(c) { return c == 0 ? "never" : c }
	FILENAME == calf { split($0, a, " "); H[++nh] = a[1]; s[a[1]] = a[2]; at[a[1]] = a[3]; aq[a[1]] = a[4]; next }
	FILENAME == gridf { ng[$0] = split($0, g, " "); for (i = 2; i <= ng[$0]; i++) G[g[1], i - 1] = g[i]; NG[g[1]] = ng[$0] - 1; next }
	FILENAME == crossf { split($0, a, " "); C[++ncr] = $0; next }
	FILENAME == pcsv {
		if (FNR == 1) next
		np++; R[$1, $2, $3, $4] = $7; W[$1, $2, $3, $4] = $8
		if (!($2 in sp)) { sp[$2]; P[++npair] = $2 }
		line[np] = $0
		rg = range($4)
		for (j = 0; j < 2; j++) {
			k = (j ? "all" : $2) SUBSEP rg
			bn[k]++; if ($8 == "yes") bw[k]++; br[k, bn[k]] = $7 + 0
			k = (j ? "all" : $2) SUBSEP "all"
			bn[k]++; if ($8 == "yes") bw[k]++; br[k, bn[k]] = $7 + 0
		}
		if ($8 == "yes") nw++; else if ($7 + 0 < 0.8) low++; else high++
		if ($8 == "no" && $7 + 0 > 1.2 && $2 == "0ns/0ns" && $4 == 2) { h2++; if (!h2lo || $7 + 0 < h2lo) h2lo = $7 + 0; if ($7 + 0 > h2hi) h2hi = $7 + 0 }
		if ($8 == "no" && $7 + 0 < 0.8 && $4 >= 10) l10++
		next
	}
	FNR > 1 && $3 == "0ns/0ns" && ($4 == 1 || $4 == CAL) { D[$1, substr($2, 1, 6), $4] = $5 }
	END {
		# pairs in the order of the hold, then the work
		for (i = 2; i <= npair; i++) for (j = i; j > 1; j--) {
			split(P[j - 1], x, "/"); split(P[j], y, "/")
			if (x[1] + 0 > y[1] + 0 || (x[1] + 0 == y[1] + 0 && x[2] + 0 > y[2] + 0)) { t = P[j]; P[j] = P[j - 1]; P[j - 1] = t }
		}
		print "### The cost model against lockhammer: the calibration"
		print ""
		printf "Per host, from its own lock-only points (0 ns held, 0 ns between) at 1 and %d threads, both locks, and nothing else: a scale from the model'"'"'s cycles to the host'"'"'s nanoseconds, and each lock'"'"'s uncontended cost, which the model prices at 4 or 5 cycles of cache hits. A prediction is *offset + scale x the model'"'"'s cycles per acquisition*, the model run with hold and work converted to cycles by the same scale. These four points a host are not counted as predictions.\n\n", CAL
		print "| host | ns a model cycle | a transfer (C) | ticket offset | queued offset | ticket, 1 / " CAL " threads | queued, 1 / " CAL " threads |"
		print "|:--|--:|--:|--:|--:|--:|--:|"
		for (i = 1; i <= nh; i++) {
			h = H[i]
			printf "| %s | %.4f | %.1f ns | %.1f ns | %.1f ns | %s / %s ns | %s / %s ns |\n", h, s[h], 100 * s[h], at[h], aq[h], D[h, "ticket", 1], D[h, "ticket", CAL], D[h, "queued", 1], D[h, "queued", CAL]
		}
		print ""
		print "### The cost model against lockhammer: the summary"
		print ""
		printf "**%d of %d points within 20%%** of the measured median (%.0f%%; %d of them at 1 thread, where the model adds nothing but the hold and the work to the offset). The target was every point. %d points predicted too low (below 0.8x), %d of them at 10 threads or more; %d too high (above 1.2x), %d of them the lock alone at 2 threads (%.2fx to %.2fx: two SMT siblings of one core).\n\n", nw, np, 100 * nw / np, bw["all", "1"], low, l10, high, h2, h2lo, h2hi
		s1 = "| threads"; s2 = "|:--"
		for (j = 1; j <= npair; j++) { s1 = s1 " | " P[j]; s2 = s2 "|--:" }
		print s1 " | all |"; print s2 "|--:|"
		split("1 2 3-8 10-16 20-32 40-64 all", RG, " ")
		for (r = 1; r <= 7; r++) {
			row = "| " RG[r]
			for (j = 1; j <= npair + 1; j++) {
				p = j <= npair ? P[j] : "all"; k = p SUBSEP RG[r]
				if (!bn[k]) { row = row " | -"; continue }
				for (i = 1; i <= bn[k]; i++) m[i] = br[k, i]
				row = row sprintf(" | %d/%d, %.2f", bw[k], bn[k], median(m, bn[k]))
			}
			print row " |"
		}
		print ""
		print "*Each cell*: points within 20% / points, and the median of predicted/measured (below 1: the model too cheap). Counts 1..64 of every host, both locks; 2 threads share one core on the hosts (SMT siblings first), which the model has no notion of."
		print ""
		print "**The crossover** (from which thread count the ticket lock stays 10% or more behind the queued lock, sim-claims.sh'"'"'s rule; \"never\": not behind at the largest count):"
		print ""
		print "| host | pair | measured | model | within 2 threads |"
		print "|:--|:--|--:|--:|:--|"
		for (i = 1; i <= ncr; i++) { split(C[i], a, " "); CX[a[1], a[2]] = C[i] }
		for (i = 1; i <= nh; i++) for (j = 1; j <= npair; j++) {
			if (!((H[i], P[j]) in CX)) continue
			split(CX[H[i], P[j]], a, " ")
			w = (a[3] == 0) == (a[4] == 0) && a[3] - a[4] <= 2 && a[4] - a[3] <= 2
			if (w) ncw++
			printf "| %s | %s | %s | %s | %s |\n", a[1], a[2], cr(a[4]), cr(a[3]), w ? "yes" : "**no**"
		}
		print ""
		printf "%d of %d crossovers within 2 threads. Measured on every thread count the host ran up to 64; the model on its counts, refined to every count between its crossover and the count below.\n\n", ncw, ncr
		print "**The worst misses** (predicted/measured furthest from 1):"
		print ""
		print "| host | pair | lock | threads | measured ns | predicted ns | predicted/measured |"
		print "|:--|:--|:--|--:|--:|--:|--:|"
		for (i = 1; i <= np; i++) { split(line[i], a, ","); xr = a[7] + 0; e[i] = xr < 1 ? 1 / xr : xr; o[i] = i }
		for (i = 2; i <= np; i++) for (j = i; j > 1 && (e[o[j - 1]] < e[o[j]] || (e[o[j - 1]] == e[o[j]] && o[j - 1] > o[j])); j--) { t = o[j]; o[j] = o[j - 1]; o[j - 1] = t }
		for (i = 1; i <= 12 && i <= np; i++) {
			split(line[o[i]], a, ",")
			printf "| %s | %s | %s | %d | %s | %s | %s |\n", a[1], a[2], a[3], a[4], a[5], a[6], a[7]
		}
		print ""
		for (i = 1; i <= nh; i++) {
			h = H[i]
			printf "### %s: predicted/measured\n\n", h
			s1 = "| pair, lock"; s2 = "|:--"
			for (j = 1; j <= NG[h]; j++) { s1 = s1 " | " G[h, j]; s2 = s2 "|--:" }
			print s1 " |"; print s2 "|"
			for (j = 1; j <= npair; j++) for (l = 1; l <= 2; l++) {
				lk = l == 1 ? "ticket" : "queued"
				row = "| " P[j] " " lk
				for (q = 1; q <= NG[h]; q++) {
					n = G[h, q]
					if (P[j] == "0ns/0ns" && (n == 1 || n == CAL)) row = row " | cal"
					else if (!((h, P[j], lk, n) in R)) row = row " | -"
					else if (W[h, P[j], lk, n] == "yes") row = row sprintf(" | %.2f", R[h, P[j], lk, n])
					else row = row sprintf(" | **%.2f**", R[h, P[j], lk, n])
				}
				print row " |"
			}
			print ""
		}
		print "*predicted/measured*: the model'"'"'s nanoseconds per acquisition over lockhammer'"'"'s median, **bold** when more than 20% off; *cal*: a calibration point. Columns: threads. Every number: predictions.csv (make sim-lockhammer)."
	}' "$cal" "$gridf" "$out/cross.txt" "$pcsv" "$data" >"$out/table.md"

# 8. The record: --record copies the three files into the book, after a
#    run of the repository's data, every host, that keeps every bound.
files="predictions.csv table.md claims.txt"
skip=""
[ "$other_data" -eq 0 ] || skip="other data ($data)"
if [ "$record_it" -eq 1 ]; then
	[ -z "$skip" ] || die "sim-lockhammer --record: only the repository's data is recorded (LOCKHAMMER_DATA unset)"
	[ "$subset" -eq 0 ] || die "sim-lockhammer --record: only a run of every host is recorded (LOCKHAMMER_HOSTS unset)"
	[ "$claims_rc" -eq 0 ] || die "sim-lockhammer --record: a stated bound does not hold ($out/claims.txt): fix the bounds or the model before recording"
	mkdir -p "$recdir"
	for f in $files; do cp "$out/$f" "$recdir/$f"; done
	say "recorded ${out#"$TOP"/} -> ${recdir#"$TOP"/}: $files"
fi

# 9. The verdict, as KTAP: a result for each claim, then the record.
verdict=$claims_rc
mapfile -t lines < <(grep -E '^(ok|not ok) ' "$claimsf")
ktap_begin sim-lockhammer $((${#lines[@]} + 1))
for c in "${lines[@]}"; do
	case $c in
	"ok "*) ktap_result 0 "bound: $(printf '%s' "${c#ok }" | sed 's/^ *//')" ;;
	*) ktap_result 1 "bound: ${c#not ok }" ;;
	esac
done
if [ -n "$skip" ]; then
	ktap_result 0 "the recorded results # SKIP $skip: not compared with ${recdir#"$TOP"/}"
elif [ "$subset" -eq 1 ]; then
	# those hosts' rows of the recorded predictions
	if [ ! -f "$recdir/predictions.csv" ]; then
		ktap_result 1 "no recorded ${recdir#"$TOP"/}/predictions.csv: common/costmodel/sim-lockhammer.sh --record writes it"
		verdict=1
	elif cmp -s <(awk -F, -v hs=" $hosts " 'NR == 1 || index(hs, " " $1 " ")' "$recdir/predictions.csv") "$pcsv"; then
		ktap_result 0 "$hosts: the predictions are byte for byte the recorded ones (${recdir#"$TOP"/}/predictions.csv)"
	else
		ktap_result 1 "$hosts: the predictions differ from ${recdir#"$TOP"/}/predictions.csv: the model, a lock or the data changed"
		diff <(awk -F, -v hs=" $hosts " 'NR == 1 || index(hs, " " $1 " ")' "$recdir/predictions.csv") "$pcsv" | head -5 | while IFS= read -r c; do ktap_note "  $c"; done
		verdict=1
	fi
else
	bad_files=""
	for f in $files; do
		cmp -s "$out/$f" "$recdir/$f" || bad_files="$bad_files $f"
	done
	if [ -z "$bad_files" ]; then
		ktap_result 0 "predictions.csv, table.md and claims.txt are byte for byte the recorded ones (${recdir#"$TOP"/})"
	else
		ktap_result 1 "differ from the recorded ${recdir#"$TOP"/}:$bad_files (the model, a lock or the data changed; --record records them again)"
		for f in $bad_files; do
			[ -f "$recdir/$f" ] || { ktap_note "  no recorded $f"; continue; }
			diff "$recdir/$f" "$out/$f" | head -5 | while IFS= read -r c; do ktap_note "  $c"; done
		done
		verdict=1
	fi
fi
ktap_end >/dev/null || true
summary=$(awk -F, 'NR > 1 { n++; if ($8 == "yes") w++ } END { printf "%d of %d points within 20%%", w, n }' "$pcsv")
summary="$summary, crossover within 2 threads on $(awk '{ n++; if (($3 == 0) == ($4 == 0) && $3 - $4 <= 2 && $4 - $3 <= 2) w++ } END { printf "%d of %d", w, n }' "$out/cross.txt")"
if [ "$verdict" -eq 0 ]; then
	echo "sim-lockhammer: OK: $hosts: $summary (the stated bounds); $done_runs runs made and $reused kept from earlier runs, in $(($(date +%s) - t0)) s; table ${out#"$TOP"/}/table.md"
else
	echo "sim-lockhammer: FAIL: $hosts: $summary; see above ($done_runs runs made and $reused kept from earlier runs, in $(($(date +%s) - t0)) s; ${out#"$TOP"/})"
	exit 1
fi
