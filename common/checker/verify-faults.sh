#!/bin/bash
# verify-faults.sh [NAME...]: the checker's own kill table.
#
# Each patch of common/checker/faults/ plants one fault in the checker
# (common/checker/*.c): a dependency it forgets, a backtrack point
# it drops, a sleeping choice woken too late, a memory model that lets
# something through.  Each must be killed by what make check runs:
# verify-ref.sh's make-check rows on today's lock, where DPOR must find
# the reference search's behaviours and final states and every litmus
# test must give the answer it carries (litmus.c).  A fault those rows
# miss must give a litmus answer herd7 contradicts: verify-herd.sh's
# sample of make check (lkmm and diy7, 100 tests).  The unmutated checker
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

# run_rows DIR ROOT: the make-check rows on today's lock with the checker
# whose sources are under ROOT (common/checker, common/costmodel); DIR/ref.log
# holds what they printed.
run_rows() {
	VERIFY_OUT=$1 VERIFY_CHECKER_ROOT=$2 "$TOP/common/checker/verify-ref.sh" \
		--check --locks today --first-fail >"$1/ref.log" 2>&1
}

if [ "$no_base" -eq 0 ]; then
	say "verify-faults: the unmutated checker on verify-ref's make-check rows (today's lock) first"
	mkdir -p "$OUT/base"
	run_rows "$OUT/base" "$TOP" ||
		die "verify-faults: the unmutated checker fails its own rows (log: ${OUT#"$TOP"/}/base/ref.log): a kill would mean nothing; fix it first"
fi

# check_fault NAME: apply the fault to a copy of the checker's sources and
# run the rows with it; writes DIR/result: the KTAP status, the line, and the
# kill table's row, one a line.
check_fault() {
	local name=$1 d=$OUT/$1 what by
	rm -rf "$d"
	mkdir -p "$d/src/common/checker" "$d/src/common/costmodel"
	cp common/checker/*.[ch] "$d/src/common/checker/"
	cp common/costmodel/*.[ch] "$d/src/common/costmodel/"
	what=$(head -1 "common/checker/faults/$name.patch")
	if ! (cd "$d/src" && GIT_CEILING_DIRECTORIES=$d git apply "$TOP/common/checker/faults/$name.patch") 2>"$d/apply.log"; then
		printf '1\n%s\n%s\n' "fault $name: ERROR: does not apply to the checker; re-make it against today's sources ($what) (log: ${d#"$TOP"/}/apply.log)" \
			"$(printf '%-30s %s' "$name" "ERROR: does not apply")" >"$d/result"
		return
	fi
	if run_rows "$d" "$d/src"; then
		local rc=0
		VERIFY_OUT=$d/herd VERIFY_CHECKER_ROOT=$d/src HERD_MAX_EXECS=50000 HERD_TIMEOUT=20 \
			"$TOP/common/checker/verify-herd.sh" --sample 100 --sources "lkmm diy own" >"$d/herd.log" 2>&1 || rc=$?
		if [ "$rc" -eq 77 ]; then
			# no herd7 here: the fault's killer cannot run, which is no kill
			printf '0\n%s\n%s\n' "fault $name # SKIP the reference rows miss it and $(tail -n1 "$d/herd.log")" \
				"$(printf '%-30s %s' "$name" "SKIPPED: no herd7")" >"$d/result"
		elif [ "$rc" -eq 1 ] && by=$(grep -m1 -A1 '^not ok' "$d/herd.log" | tail -1 | sed 's/^ *# //'); then
			printf '0\n%s\n%s\n' "fault $name: killed by herd7: $by" \
				"$(printf '%-30s killed by herd7: %s' "$name" "$(printf '%s' "$by" | cut -c1-150)")" >"$d/result"
		else
			printf '1\n%s\n%s\n' "fault $name: SURVIVED every row and herd7's sample ($what): make check cannot see it; add the test that kills it" \
				"$(printf '%-30s %s' "$name" "SURVIVED")" >"$d/result"
		fi
	elif by=$(grep -m1 '^ *not ok' "$d/ref.log"); then
		by=$(printf '%s' "$by" | sed 's/^ *not ok [0-9]* //')
		printf '0\n%s\n%s\n' "fault $name: killed by $by" \
			"$(printf '%-30s killed by %s' "$name" "$(printf '%s' "$by" | cut -c1-150)")" >"$d/result"
	else
		printf '1\n%s\n%s\n' "fault $name: ERROR: the rows stopped without a failed test (log: ${d#"$TOP"/}/ref.log)" \
			"$(printf '%-30s %s' "$name" "ERROR")" >"$d/result"
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
