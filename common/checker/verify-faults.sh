#!/bin/bash
# verify-faults.sh [NAME...]: the checker's own kill table.
#
# Each patch of common/checker/faults/ plants one fault in the checker
# (common/checker/*.c): a dependency it forgets, a backtrack point
# it drops, a sleeping choice woken too late, a memory model that lets
# something through.  Each must be killed by what make check runs, by a
# result, not a count: verify-ref.sh's make-check rows on today's lock,
# where every litmus test must give the answer it carries (litmus.c:
# "answer") and DPOR must find the reference search's behaviours and
# final states and the pinned ones ("behaviour").  A fault those rows
# miss, or see only as a moved execution count, must give a litmus answer
# herd7 contradicts: verify-herd.sh's sample of make check (lkmm and
# diy7, 100 tests, and the project's own).  The unmutated checker
# runs the same rows first and must pass them.  A fault that survives fails the
# run; one that does not apply or compile is an error, never a kill.
# Prints the kill table and "verify-faults: N passed, N failed" (passed:
# killed).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

# --no-base: the caller has just run verify-ref.sh --check, and it passed.
no_base=0
if [ "${1:-}" = --no-base ]; then
	no_base=1
	shift
fi
all=()
for p in common/checker/faults/*.patch; do
	all+=("$(basename "$p" .patch)")
done
want=()
for a in "$@"; do
	printf '%s\n' "${all[@]}" | grep -qx -- "$a" ||
		die "verify-faults: unknown fault '$a'; valid: ${all[*]}"
	want+=("$a")
done
[ "${#want[@]}" -gt 0 ] || want=("${all[@]}")

OUT=$BUILD/verify/faults
mkdir -p "$OUT"
t0=$(now)

# run_rows DIR ROOT [--quick]: the make-check rows on today's lock with
# the checker whose sources are under ROOT (common/checker,
# common/costmodel), every row (a fault is judged by its strongest kill);
# --quick: DPOR alone against the answers and the pinned counts.
# DIR/ref.log holds what they printed.
run_rows() {
	VERIFY_OUT=$1 VERIFY_CHECKER_ROOT=$2 VERIFY_JOBS=1 "$TOP/common/checker/verify-ref.sh" \
		--check --locks today ${3:+"$3"} >"$1/ref.log" 2>&1
}

if [ "$no_base" -eq 0 ]; then
	say "verify-faults: the unmutated checker on verify-ref's make-check rows (today's lock) first"
	mkdir -p "$OUT/base"
	run_rows "$OUT/base" "$TOP" ||
		die "verify-faults: the unmutated checker fails its own rows (log: ${OUT#"$TOP"/}/base/ref.log): a kill would mean nothing; fix it first"
fi

# kill_of REF.LOG: the strongest kill among the failed rows, one line
# "KIND<TAB>ROW": answer (a litmus test's answer is wrong), behaviour (a
# behaviour or final state lost or gained against the reference search or
# the pinned record), count (only executions or exhaustion moved: the
# search changed, but no row shows a wrong result).  Nothing if no row
# failed.
kill_of() {
	awk '/^ *not ok / {
		line = $0
		sub(/^ *not ok [0-9]* /, "", line)
		k = "count"
		if (line ~ /: the answer is /)
			k = "answer"
		else if (line ~ /behaviours, the reference|final states, the reference/)
			k = "behaviour"
		else if (match(line, /were [0-9]+ [0-9]+ [0-9]+ [0-9]+, now [0-9]+ [0-9]+ [0-9]+ [0-9]+/)) {
			split(substr(line, RSTART + 5, RLENGTH - 5), w, /[ ,]+(now )?/)
			if (w[2] != w[6] || w[3] != w[7])
				k = "behaviour"
		}
		rank = k == "answer" ? 3 : k == "behaviour" ? 2 : 1
		if (rank > best) { best = rank; kind = k; row = line }
	}
	END { if (best) printf "%s\t%s\n", kind, row }' "$1"
}

# result DIR RC LINE ROW: the fault's KTAP status, its line and its row
# of the kill table, for the report below.
result() { printf '%s\n%s\n%s\n' "$2" "$3" "$4" >"$1/result"; }

# check_fault NAME: apply the fault to a copy of the checker's sources and
# run the rows with it, then, unless a row shows a wrong answer or a
# changed behaviour, herd7's sample of make check; writes DIR/result.  A
# fault only an execution count sees is not killed: the count is the
# search's, not a result, and a re-pin would let it through.
check_fault() {
	local name=$1 d=$OUT/$1 what kill kind row by rc=0
	rm -rf "$d"
	mkdir -p "$d/src/common/checker" "$d/src/common/costmodel"
	cp common/checker/*.[ch] "$d/src/common/checker/"
	cp common/costmodel/*.[ch] "$d/src/common/costmodel/"
	what=$(head -1 "common/checker/faults/$name.patch")
	if ! (cd "$d/src" && GIT_CEILING_DIRECTORIES=$d git apply "$TOP/common/checker/faults/$name.patch") 2>"$d/apply.log"; then
		result "$d" 1 "fault $name: ERROR: does not apply to the checker; re-make it against today's sources ($what) (log: ${d#"$TOP"/}/apply.log)" \
			"$(printf '%-30s %s' "$name" "ERROR: does not apply")"
		return
	fi
	# DPOR alone first (seconds); the reference search only when that
	# shows no wrong answer or behaviour
	run_rows "$d" "$d/src" --quick || true
	kill=$(kill_of "$d/ref.log")
	case $kill in
	answer* | behaviour*) ;;
	*)
		mv "$d/ref.log" "$d/ref-quick.log"
		run_rows "$d" "$d/src" || true
		kill=$(kill_of "$d/ref.log")
		[ -n "$kill" ] || kill=$(kill_of "$d/ref-quick.log")
		;;
	esac
	if [ -z "$kill" ] && ! grep -q '^ *ok' "$d/ref.log"; then
		result "$d" 1 "fault $name: ERROR: the rows stopped without a result (log: ${d#"$TOP"/}/ref.log)" \
			"$(printf '%-30s %s' "$name" "ERROR")"
		return
	fi
	kind=${kill%%$'\t'*} row=${kill#*$'\t'}
	case $kind in
	answer | behaviour)
		result "$d" 0 "fault $name: killed by $kind: $row" \
			"$(printf '%-30s %-9s %s' "$name" "$kind" "$(printf '%s' "$row" | cut -c1-140)")"
		return
		;;
	esac
	VERIFY_OUT=$d/herd VERIFY_CHECKER_ROOT=$d/src HERD_MAX_EXECS=50000 HERD_TIMEOUT=20 \
		"$TOP/common/checker/verify-herd.sh" --sample 100 --sources "lkmm diy own" >"$d/herd.log" 2>&1 || rc=$?
	if [ "$rc" -eq 1 ] && by=$(grep -m1 -A1 '^not ok' "$d/herd.log" | tail -1 | sed 's/^ *# //'); then
		result "$d" 0 "fault $name: killed by answer (herd7): $by" \
			"$(printf '%-30s %-9s herd7: %s' "$name" "answer" "$(printf '%s' "$by" | cut -c1-140)")"
	elif [ "$rc" -eq 77 ]; then
		# no herd7 here: the fault's killer cannot run, which is no kill
		result "$d" 0 "fault $name # SKIP the rows ${kind:+see only a count, }no wrong answer; $(tail -n1 "$d/herd.log")" \
			"$(printf '%-30s %s' "$name" "SKIPPED: no herd7")"
	elif [ "$kind" = count ]; then
		result "$d" 1 "fault $name: only an execution count moved ($row); no row and no herd7 test shows a wrong answer or behaviour: add the test that does" \
			"$(printf '%-30s %-9s %s' "$name" "count" "NOT KILLED: $(printf '%s' "$row" | cut -c1-120)")"
	else
		result "$d" 1 "fault $name: SURVIVED every row and herd7's sample ($what): make check cannot see it; add the test that kills it" \
			"$(printf '%-30s %s' "$name" "SURVIVED")"
	fi
}

# One fault a job, as many jobs as cores (VERIFY_JOBS=N); the results in
# the order of the faults.
jobs_max=${VERIFY_JOBS:-$(nproc)}
for name in "${want[@]}"; do
	job_slot "$jobs_max"
	say "fault $name: $(head -1 "common/checker/faults/$name.patch")"
	rm -f "$OUT/$name/result"
	check_fault "$name" &
done
wait
ktap_begin verify-faults
table=()
for name in "${want[@]}"; do
	if [ -f "$OUT/$name/result" ]; then
		{
			read -r rc
			read -r line
			read -r row
		} <"$OUT/$name/result"
	else
		rc=1 line="fault $name: ERROR: the job ended without a result" row=$(printf '%-30s %s' "$name" "ERROR")
	fi
	ktap_result "$rc" "$line"
	table+=("$row")
done
echo "# The checker's planted faults ($(($(now) - t0)) s):"
printf '#   %s\n' "${table[@]}"
ktap_end
