#!/bin/bash
# verify-faults.sh [NAME...]: the checker's own kill table.
#
# Each patch of common/verify/faults/ plants one fault in the checker
# (common/verify/checker.c): a dependency it forgets, a backtrack point
# it drops, a sleeping choice woken too late, a memory model that lets
# something through.  Each must be killed by what make check runs:
# verify-ref.sh's make-check rows on today's lock, where DPOR must find
# the reference search's behaviours and final states and every litmus
# test must give litmus.tsv's answer.  The unmutated checker runs the
# same rows first and must pass them.  A fault that survives fails the
# run; one that does not apply or compile is an error, never a kill.
# Prints the kill table and "verify-faults: N passed, N failed" (passed:
# killed).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

# --no-base: the caller has just run verify-ref.sh --check, and it passed.
no_base=0
if [ "${1:-}" = --no-base ]; then
	no_base=1
	shift
fi
all=()
for p in common/verify/faults/*.patch; do
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

# run_rows DIR CHECKER.C: the make-check rows on today's lock with that
# checker; DIR/ref.log holds what they printed.
run_rows() {
	VERIFY_OUT=$1 VERIFY_CHECKER_SRC=$2 "$TOP/common/scripts/verify-ref.sh" \
		--check --locks today --first-fail >"$1/ref.log" 2>&1
}

if [ "$no_base" -eq 0 ]; then
	say "verify-faults: the unmutated checker on verify-ref's make-check rows (today's lock) first"
	mkdir -p "$OUT/base"
	run_rows "$OUT/base" "$TOP/common/verify/checker.c" ||
		die "verify-faults: the unmutated checker fails its own rows (log: ${OUT#"$TOP"/}/base/ref.log): a kill would mean nothing; fix it first"
fi

ktap_begin verify-faults
table=()
for name in "${want[@]}"; do
	d=$OUT/$name
	rm -rf "$d"
	mkdir -p "$d/src/common/verify"
	cp common/verify/checker.c "$d/src/common/verify/"
	what=$(head -1 "common/verify/faults/$name.patch")
	if ! (cd "$d/src" && GIT_CEILING_DIRECTORIES=$d git apply "$TOP/common/verify/faults/$name.patch") 2>"$d/apply.log"; then
		ktap_result 1 "fault $name: ERROR: does not apply to checker.c; re-make it against today's checker.c ($what)" "$d/apply.log"
		table+=("$(printf '%-30s %s' "$name" "ERROR: does not apply")")
		continue
	fi
	say "fault $name: $what"
	if run_rows "$d" "$d/src/common/verify/checker.c"; then
		ktap_result 1 "fault $name: SURVIVED every row ($what): make check cannot see it; add the test that kills it"
		table+=("$(printf '%-30s %s' "$name" "SURVIVED")")
	elif by=$(grep -m1 '^not ok' "$d/ref.log"); then
		by=${by#not ok * }
		ktap_result 0 "fault $name: killed by $by"
		table+=("$(printf '%-30s killed by %s' "$name" "$(printf '%s' "$by" | cut -c1-150)")")
	else
		ktap_result 1 "fault $name: ERROR: the rows stopped without a failed test (log: ${d#"$TOP"/}/ref.log)" "$d/ref.log"
		table+=("$(printf '%-30s %s' "$name" "ERROR")")
	fi
done
echo "# The checker's planted faults ($(($(now) - t0)) s):"
printf '#   %s\n' "${table[@]}"
ktap_end
