#!/bin/bash
# sim-record.sh: put the results of the last make sim-bench into the book
# (book/sim/: results.csv, table.md, claims.txt and the plots), as they were
# written.  The contention chapter includes them, and every later
# make sim-bench compares its results.csv with the recorded one.
set -eu
. "$(dirname "$0")/lib.sh"

from=$BUILD/sim to=$TOP/book/sim
files=(results.csv table.md claims.txt transfers-heavy.svg transfers-hammer.svg cycles-heavy.svg cycles-hammer.svg)
for f in "${files[@]}"; do
	[ -s "$from/$f" ] || die "no ${from#"$TOP"/}/$f: run make sim-bench first (with no SIM_* set)"
done
if grep -q '^not ok' "$from/claims.txt"; then
	die "the last make sim-bench broke a claim of the chapter (${from#"$TOP"/}/claims.txt): fix the chapter or the model before recording"
fi
mkdir -p "$to"
for f in "${files[@]}"; do
	cp "$from/$f" "$to/$f"
done
say "recorded ${from#"$TOP"/} -> ${to#"$TOP"/}: ${files[*]}"
