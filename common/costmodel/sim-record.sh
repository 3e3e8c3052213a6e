#!/bin/bash
# sim-record.sh: put the results of the last make sim-bench, make
# sim-overcommit and make sim-sockets into the book (book/sim/:
# results.csv, table.md, claims.txt and the plots; book/sim/overcommit/
# and book/sim/sockets/: their results.csv, table.md, claims.txt and the
# socket plots), as they were written, and the lines of the last
# common/costmodel/tests/sim-robust.sh (book/sim/robust/claims.txt).  The book
# includes them, and every later run of each compares its results.csv
# with the recorded one, and sim-robust.sh its lines.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

# record FROM TO COMMAND FILE...: check, then copy.
record() {
	local from=$1 to=$2 cmd=$3 f
	shift 3
	for f in "$@"; do
		[ -s "$from/$f" ] || die "no ${from#"$TOP"/}/$f: run $cmd first (with no SIM_* set)"
	done
	if grep -q '^not ok' "$from/claims.txt"; then
		die "the last $cmd broke a claim of the book (${from#"$TOP"/}/claims.txt): fix the book or the model before recording"
	fi
	mkdir -p "$to"
	for f in "$@"; do
		cp "$from/$f" "$to/$f"
	done
	say "recorded ${from#"$TOP"/} -> ${to#"$TOP"/}: $*"
}
record "$BUILD/sim" "$TOP/book/sim" "make sim-bench" results.csv table.md claims.txt \
	transfers-heavy.svg transfers-hammer.svg cycles-heavy.svg cycles-hammer.svg
record "$BUILD/sim-overcommit" "$TOP/book/sim/overcommit" "make sim-overcommit" results.csv table.md claims.txt
record "$BUILD/sim-sockets" "$TOP/book/sim/sockets" "make sim-sockets" results.csv table.md claims.txt \
	cycles-ticket.svg cycles-step-8.svg cycles-today.svg cycles-mcs.svg cycles-cna.svg
record "$BUILD/tests/sim-robust" "$TOP/book/sim/robust" "common/costmodel/tests/sim-robust.sh (make check)" claims.txt
