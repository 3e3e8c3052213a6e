#!/bin/bash
# klitmus-verdict.sh RUNDIR LABEL: judge a boot of make klitmus-N.  RUNDIR
# holds the console, modules.tsv (klitmus7's module for each test),
# allowed.tsv (herd7's LKMM states for each test) and klitmus.env (the
# iterations asked for).  A run passes on positive evidence only:
#  - QEMU exited by itself with status 0 and the guest finished its plan;
#  - no line of the kernel log looks like a bug, warning, oops or stall;
#  - every module loaded and printed its histogram, whose counts add up to
#    its Positive + Negative, at least size x runs (klitmus7 runs as many
#    instances side by side as the CPUs allow: no silent zero);
#  - every final state it saw is one herd7 allows under the LKMM: a state
#    the LKMM forbids is a FAIL naming the test and the state;
#  - herd7 answered for every test (a test it could not judge fails too).
# Writes RUNDIR/verdict, reason, verdict.txt and klitmus.tsv (per test:
# name, executions, states seen, forbidden states seen), prints one line
#   LABEL: PASS (N tests, N runs, 0 forbidden)   or   LABEL: FAIL: reason
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: klitmus-verdict.sh RUNDIR LABEL"
dir=${1%/}
label=$2
log=$dir/console.log
for f in console.log qemu.status modules.tsv allowed.tsv klitmus.env; do
	[ -f "$dir/$f" ] || die "klitmus-verdict: $dir has no $f"
done
env=$(cat "$dir/klitmus.env")
size=$(field size "$env")
runs=$(field runs "$env")

verdict() { # PASS|FAIL TEXT
	printf '%s\n' "$1" >"$dir/verdict"
	printf '%s\n' "$2" >"$dir/reason"
	if [ "$1" = PASS ]; then
		printf '%s: PASS (%s)\n' "$label" "$2" | tee "$dir/verdict.txt"
		exit 0
	fi
	printf '%s: FAIL: %s (log: %s)\n' "$label" "$2" "${log#"$TOP"/}" | tee "$dir/verdict.txt"
	exit 1
}

status=$(cat "$dir/qemu.status")
case $status in exit=0\ *) ;; *) verdict FAIL "QEMU did not end by itself ($status)" ;; esac
bad=$(grep -a -m1 -E "$BADNESS_RE" "$log" || true)
[ -z "$bad" ] || verdict FAIL "the kernel reported: $bad"
grep -aq 'QSL: run klitmus end' "$log" || verdict FAIL "the guest did not finish the klitmus7 modules"

# One row per test: module, name, executions counted, Positive+Negative,
# states seen, forbidden states (STATE|STATE...), or a problem.
awk -F'\t' -v want=$((size * runs)) -v out="$dir/klitmus.tsv" '
	FILENAME == ARGV[1] { mod[$1] = $2; order[++n] = $1; next }
	FILENAME == ARGV[2] {
		if ($2 ~ /^@observed /) judged[$1] = 1
		else allowed[$1 "\t" $2] = 1
		next
	}
	{ sub(/\r$/, "") }
	/^QSL: klitmus\| module / { cur = $0; sub(/.*module /, "", cur); seen[cur] = 1; next }
	/^QSL: klitmus\| not loaded / { notloaded[cur] = 1; next }
	/^QSL: klitmus\| no \/proc\/litmus/ { notloaded[cur] = 1; next }
	/^QSL: klitmus\| *[0-9]+ *[*:]>/ {
		line = $0
		sub(/^QSL: klitmus\| */, "", line)
		c = line; sub(/[ \t]*[*:]>.*/, "", c)
		s = line; sub(/^[0-9]+[ \t]*[*:]>/, "", s); gsub(/[ \t]+/, "", s)
		execs[cur] += c
		nstates[cur]++
		if (!((mod[cur] "\t" s) in allowed))
			forbidden[cur] = forbidden[cur] (forbidden[cur] == "" ? "" : " | ") s " (" c " times)"
		next
	}
	/^QSL: klitmus\| Positive: / {
		l = $0; sub(/.*Positive: */, "", l); split(l, a, /, *Negative: */)
		posneg[cur] = a[1] + a[2]
		next
	}
	END {
		for (i = 1; i <= n; i++) {
			m = order[i]; t = mod[m]
			why = "-"
			if (!(m in seen)) why = "never started"
			else if (m in notloaded) why = "did not load"
			else if (!(t in judged)) why = "herd7 gave no LKMM answer"
			else if (execs[m] < want) why = "counted " execs[m] + 0 " executions, fewer than " want
			else if (posneg[m] != execs[m]) why = "Positive + Negative is " posneg[m] + 0 ", the histogram " execs[m] + 0
			printf "%s\t%s\t%d\t%d\t%s\t%s\n", m, t, execs[m], nstates[m], \
				(forbidden[m] == "" ? "-" : forbidden[m]), why > out
		}
	}' "$dir/modules.tsv" "$dir/allowed.tsv" "$log"

ntests=$(wc -l <"$dir/klitmus.tsv")
total=$(awk -F'\t' '{ s += $3 } END { print s + 0 }' "$dir/klitmus.tsv")
nforb=$(awk -F'\t' '$5 != "-"' "$dir/klitmus.tsv" | wc -l)
first=$(awk -F'\t' '$5 != "-" { print $2 ": " $5; exit }' "$dir/klitmus.tsv")
[ "$nforb" -eq 0 ] || verdict FAIL "$nforb of $ntests tests saw a state the LKMM forbids, first $first"
broken=$(awk -F'\t' '$6 != "-" { print $2 " (" $1 "): " $6; exit }' "$dir/klitmus.tsv")
nbroken=$(awk -F'\t' '$6 != "-"' "$dir/klitmus.tsv" | wc -l)
[ "$nbroken" -eq 0 ] || verdict FAIL "$nbroken of $ntests tests did not run whole, first $broken"
[ "$ntests" -gt 0 ] || verdict FAIL "no test ran"
out=""
[ ! -s "$dir/left-out.tsv" ] || out="; $(wc -l <"$dir/left-out.tsv") left out by herd7 (left-out.tsv)"
[ ! -s "$dir/unbuilt.tsv" ] || out="$out; $(wc -l <"$dir/unbuilt.tsv") left out: klitmus7's module does not compile (unbuilt.tsv)"
verdict PASS "$ntests tests, $total runs, 0 forbidden$out"
