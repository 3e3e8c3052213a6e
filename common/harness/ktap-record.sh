#!/bin/bash
# ktap-record.sh: run make check, and keep its output and the last make
# test's (build/check-output.txt, build/test-output.txt, which they write
# as they run) as common/harness/tests/ktap/make-test.txt and make-check.txt, the recorded
# outputs that make check reads with kunit.py (common/harness/tests/ktap.sh).
# Each must be read whole before it is kept; a header line (before the
# KTAP, where the parser does not look) says what it is and at which
# commit it was made.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

dest=common/harness/tests/ktap
mkdir -p "$dest"
# make check's own block, run here on its own (inside make test it is a
# subtest, indented, closed by make test's line)
say "ktap-record: make check, to record its output"
"$TOP/common/harness/check.sh" || true
for rec in test check; do
	src=$BUILD/$rec-output.txt
	[ -s "$src" ] || die "ktap-record: no $src: run make $rec first"
	grep -q "^$rec: [0-9]* passed, [0-9]* failed$" "$src" ||
		die "ktap-record: $src has no closing line: make $rec did not end; run it again"
	v=$("$TOP/common/harness/ktap-read.sh" "$src") || die "ktap-record: $v"
	{
		echo "# make $rec's output, recorded by make ktap-record at $(git rev-parse --short HEAD) on $(date -u +%Y-%m-%d)"
		cat "$src"
	} >"$dest/make-$rec.txt"
	say "${v#ktap-read: }: kept as $dest/make-$rec.txt"
done
echo "ktap-record: OK: common/harness/tests/ktap/make-test.txt and make-check.txt"
