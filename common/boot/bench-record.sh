#!/bin/bash
# bench-record.sh: put the results of the last full `make bench` and
# `make lab-bench` into the book, as they were written: book/bench/kernel/
# and book/bench/lab/ (results.csv, table.md, run.txt, and the plot).  The
# performance chapter includes these files; nothing is copied by hand.
# A smoke run (--smoke) is never recorded: its results live elsewhere.
set -eu
. "$(dirname "$0")/lib.sh"

record() { # FROM TO FILE...
	local from=$1 to=$2 f
	shift 2
	for f in "$@"; do
		[ -s "$from/$f" ] || die "no $from/$f: run the full benchmark first (see the chapter)"
	done
	mkdir -p "$to"
	for f in "$@"; do
		cp "$from/$f" "$to/$f"
	done
	say "recorded ${from#"$TOP"/} -> ${to#"$TOP"/}: $* ($(sed -n 's/^wall time: //p' "$from/run.txt"))"
}
record "$BUILD/bench" "$TOP/book/bench/kernel" results.csv table.md run.txt throughput.svg
record "$BUILD/lab/bench" "$TOP/book/bench/lab" results.csv table.md storefwd.txt run.txt
