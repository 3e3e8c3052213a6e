#!/bin/bash
# sim-lockhammer.sh: the cost model against lockhammer keeps its stated
# bounds, and the bounds can fail (common/costmodel/sim-lockhammer.sh,
# make sim-lockhammer).
#   - the recorded run (book/sim/lockhammer/claims.txt) keeps every bound;
#   - one host, x86-4 (the fewest threads: the fastest), run afresh: its
#     bounds hold and its predictions are the recorded rows;
# and doctored copies of the data, on the same host, must be refused:
#   - the ticket lock's medians halved at every point that is not a
#     calibration point: the points within 20% fall below the bound;
#   - the ticket lock's 1000ns/5000ns medians 30% higher from 2 threads
#     on: the host's ticket lock now falls behind at 2 threads, the model
#     never does, and the crossover bound breaks;
#   - the 0ns/0ns medians at 4 threads no slower than at 1: no scale from
#     cycles to nanoseconds, and the calibration stops the run.
# The first two leave the calibration points alone, so that their model
# runs are the afresh run's (sim-lockhammer.sh keeps its runs while the
# binaries stay the same): the whole test takes the time of one host's
# runs, some 40 s on two cores.
# Prints KTAP (lib.sh) and "sim-lockhammer: N passed, N failed".
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"

data=$TOP/common/costmodel/data/lockhammer-2018-x86-medians.csv
rec=$TOP/book/sim/lockhammer
script=$TOP/common/costmodel/sim-lockhammer.sh
host=x86-4
out=$BUILD/tests/sim-lockhammer
# afresh: no run kept from an earlier test
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_begin sim-lockhammer 5

# 1. The record.
if [ ! -s "$rec/claims.txt" ]; then
	ktap_result 1 "no recorded ${rec#"$TOP"/}/claims.txt: common/costmodel/sim-lockhammer.sh --record writes it"
elif grep -q '^not ok' "$rec/claims.txt" || ! grep -q '^ok ' "$rec/claims.txt"; then
	ktap_fail_text "the recorded ${rec#"$TOP"/}/claims.txt breaks a bound, or checks none" "$(grep -v '^ok ' "$rec/claims.txt")"
else
	ktap_result 0 "the recorded run keeps every stated bound ($(grep -c '^ok ' "$rec/claims.txt") lines of ${rec#"$TOP"/}/claims.txt)"
fi

# 2. One host afresh.
rc=0
LOCKHAMMER_HOSTS=$host LOCKHAMMER_OUT=$out "$script" >"$tmp/good.txt" 2>&1 || rc=$?
ktap_result "$rc" "$host afresh: $(tail -1 "$tmp/good.txt")" "$tmp/good.txt"

# control NAME PATTERN AWK-PROGRAM: the data doctored by the program must
# fail, with a "not ok" line of claims.txt matching PATTERN.
control() {
	local name=$1 pat=$2 prog=$3 rc=0
	awk -F, -v OFS=, "$prog" "$data" >"$tmp/$name.csv"
	cmp -s "$tmp/$name.csv" "$data" && { ktap_result 1 "$name: the doctoring changed nothing"; return; }
	LOCKHAMMER_DATA=$tmp/$name.csv LOCKHAMMER_HOSTS=$host LOCKHAMMER_OUT=$out "$script" >"$tmp/$name.txt" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		ktap_result 1 "$name: accepted: $(tail -1 "$tmp/$name.txt")"
	elif ! grep '^not ok' "$out/claims.txt" | grep -q "$pat"; then
		ktap_fail_text "$name: refused, but not by the bound it attacks ($pat)" "$(tail -5 "$tmp/$name.txt")"
	else
		ktap_result 0 "$name: refused: $(grep '^not ok' "$out/claims.txt" | grep -m1 "$pat")"
	fi
}
# The awk programs are single-quoted on purpose: $1, $2 are awk's fields.
# shellcheck disable=SC2016
control ticket-halved "points within 20%" \
	'NR > 1 && $1 == "x86-4" && $2 == "ticket_spinlock" && !($3 == "0ns/0ns" && ($4 == 1 || $4 == 4)) { $5 = sprintf("%.1f", $5 / 2) } { print }'
# shellcheck disable=SC2016
control ticket-behind-early "crossover within 2 threads" \
	'NR > 1 && $1 == "x86-4" && $2 == "ticket_spinlock" && $3 == "1000ns/5000ns" && $4 >= 2 { $5 = sprintf("%.1f", $5 * 1.3) } { print }'

# 3. No scale: the run must stop at the calibration, with its reason.
# shellcheck disable=SC2016
awk -F, -v OFS=, 'NR > 1 && $1 == "x86-4" && $3 == "0ns/0ns" && $4 == 1 { one[$2] = $5 }
	{ r[NR] = $0 }
	END { for (i = 1; i <= NR; i++) { $0 = r[i]; if (i > 1 && $1 == "x86-4" && $3 == "0ns/0ns" && $4 == 4) $5 = one[$2]; print } }' \
	"$data" >"$tmp/no-scale.csv"
rc=0
LOCKHAMMER_DATA=$tmp/no-scale.csv LOCKHAMMER_HOSTS=$host LOCKHAMMER_OUT=$out "$script" >"$tmp/no-scale.txt" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q "no scale from cycles to ns" "$tmp/no-scale.txt"; then
	ktap_result 0 "no-scale: refused: $(grep -m1 'no scale' "$tmp/no-scale.txt" | cut -c1-120)..."
else
	ktap_fail_text "no-scale: not refused at the calibration (exit status $rc)" "$(tail -5 "$tmp/no-scale.txt")"
fi
ktap_end
