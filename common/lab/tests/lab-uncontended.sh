#!/bin/bash
# lab-uncontended.sh: make lab-uncontended counts what its record says,
# and refuses a record that says otherwise.
#   - every lock counted again under callgrind (about 25 s on the 2-core
#     reference machine) gives book/lab/uncontended/results.csv exactly;
#   - doctored records, each fed to a run of the lock it attacks, must be
#     refused, naming the line that differs:
#     - step 2's unlock made an atomic subtraction (the generic unlock
#       step 2 replaced with a byte store): one atomic more;
#     - the ticket lock's lock made one instruction cheaper;
#     - the ticket lock's row gone;
#   - bad arguments (a step without a queued spinlock, today, an unknown
#     option, --record with a lock) stop with one line naming the valid
#     locks, before any work (QSL_INPUT_CHECK_ONLY=1).
set -eu
. "$(dirname "$0")/../../boot/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script=$TOP/common/lab/lab-uncontended.sh
rec=$TOP/book/lab/uncontended/results.csv
ktap_begin lab-uncontended

# refused NAME LOCK PATTERN AWK-PROGRAM: the record doctored by the
# program must fail a run of LOCK with a line matching PATTERN.
refused() {
	local name=$1 lock=$2 pat=$3 prog=$4
	awk -F, -v OFS=, "$prog" "$rec" >"$tmp/$name.csv"
	if cmp -s "$tmp/$name.csv" "$rec"; then
		ktap_result 1 "$name: the doctoring changed nothing"
	elif QSL_UNCONTENDED_RECORD=$tmp/$name.csv "$script" "$lock" >"$tmp/$name.txt" 2>&1; then
		ktap_result 1 "$name: the doctored record passed" "$tmp/$name.txt"
	elif ! grep -q -- "$pat" "$tmp/$name.txt"; then
		ktap_result 1 "$name: refused, but not for the doctored line: $(grep -m1 'FAIL\|error' "$tmp/$name.txt")" "$tmp/$name.txt"
	else
		ktap_result 0 "$name: $(grep -m1 -- "$pat" "$tmp/$name.txt" | cut -c1-140)"
	fi
}
# The awk programs are single-quoted on purpose: $1, $3 are awk's fields.
# shellcheck disable=SC2016
refused step-2-atomic-unlock step-2 "FAIL: line 3 of .* (step-2) differs" \
	'$1 == "step-2" { $3 += 1; $7 += 1; $9 = "lock sub 32-bit" } { print }'
# shellcheck disable=SC2016
refused ticket-cheaper ticket "FAIL: line [0-9]* of .* (ticket) differs" \
	'$1 == "ticket" { $2 -= 1; $4 -= 1 } { print }'
# shellcheck disable=SC2016
refused ticket-missing ticket "has no row for ticket" '$1 != "ticket"'

# bad ARGS... PATTERN: one line, matching PATTERN, and nothing started.
bad() {
	local pat=${*: -1} out rc=0
	out=$(QSL_INPUT_CHECK_ONLY=1 "$script" "${@:1:$#-1}" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ]; then
		ktap_fail_text "bad input $*: accepted" "$out"
	elif [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! grep -q -- "$pat" <<<"$out"; then
		ktap_fail_text "bad input ${*:1:$#-1}: not the one line expected" "$out"
	else
		ktap_result 0 "bad input ${*:1:$#-1}: $(cut -c1-120 <<<"$out")"
	fi
}
bad step-0 "'step-0' is not a lock here; the locks: step-1 "
bad today "does not build 6.1's own qspinlock"
bad --fast "unknown option '--fast'"
bad --record ticket "record writes every lock's row"

# Last, the whole run, so that build/lab/uncontended/ holds every lock.
rc=0
t0=$(now)
"$script" >"$tmp/full.txt" 2>&1 || rc=$?
ktap_result "$rc" "every lock counted again, in $(($(now) - t0)) s: $(tail -1 "$tmp/full.txt" | cut -c1-120)" "$tmp/full.txt"
ktap_end
