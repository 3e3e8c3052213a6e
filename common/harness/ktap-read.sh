#!/bin/bash
# ktap-read.sh FILE: does the kernel's own KTAP parser read FILE whole?
#
# Runs the 6.1 tree's tools/testing/kunit/kunit.py parse on FILE (make
# test's or make check's output, or any KTAP block of the project) and
# holds what it read against the file's own result lines: the tests (the
# result lines that do not close a "# Subtest:" block), how many passed,
# failed and were skipped, and no parser error (a missing result, a
# number out of order, a subtest whose closing line has another name).
# Prints "ktap-read: FILE: kunit.py read N tests (P passed, F failed, S
# skipped), as the file has them" and exits 0, or says what differs and
# exits 1.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

[ $# -eq 1 ] || die "usage: $0 FILE"
file=$1
[ -f "$file" ] || die "ktap-read: no such file: $file"
# kunit.py works from the kernel tree's root: give it the whole path
file=$(realpath "$file")
kunit=$PRISTINE/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die "ktap-read: $kunit is missing: run make check (it extracts the pristine tree)"
command -v python3 >/dev/null || die "ktap-read: python3 is missing (apt-get install python3)"

# The file's own count, from its indentation (four spaces a level, as
# lib.sh prints it): a result line closes a subtest when a "# Subtest:"
# header one level deeper was opened since the last result at its level.
want=$(awk '
	{ match($0, /^ */); ind = RLENGTH; line = substr($0, ind + 1) }
	line ~ /^# Subtest: / { open[ind - 4] = 1; next }
	line ~ /^(not )?ok [0-9]+ / {
		if (open[ind]) { open[ind] = 0; next }
		if (line ~ / # SKIP/) s++
		else if (line ~ /^ok /) p++
		else f++
	}
	END { printf "%d %d %d %d\n", p + f + s, p, f, s }' "$file")
read -r w_n w_p w_f w_s <<<"$want"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
python3 "$kunit" parse --json="$tmp/json" "$file" >"$tmp/out" 2>&1 || rc=$?
[ -s "$tmp/json" ] || die "ktap-read: kunit.py parse wrote no JSON for $file (exit $rc): $(tail -1 "$tmp/out")"
got=$(python3 - "$tmp/json" <<'EOF'
import json, sys

counts = {}
def walk(g):
    for t in g.get("test_cases", []):
        counts[t["status"]] = counts.get(t["status"], 0) + 1
    for sub in g.get("sub_groups", []):
        walk(sub)
walk(json.load(open(sys.argv[1])))
n = sum(counts.values())
other = n - counts.get("PASS", 0) - counts.get("FAIL", 0) - counts.get("SKIP", 0)
print(n, counts.get("PASS", 0), counts.get("FAIL", 0), counts.get("SKIP", 0), other)
EOF
)
read -r g_n g_p g_f g_s g_other <<<"$got"
errors=$(grep -c '\[ERROR\]' "$tmp/out") || true

what="kunit.py read $g_n tests ($g_p passed, $g_f failed, $g_s skipped)"
if [ "$errors" -gt 0 ]; then
	echo "ktap-read: $file: $what, with $errors parser errors:"
	grep '\[ERROR\]' "$tmp/out" | head -5 | sed 's/^/  /'
	exit 1
fi
if [ "$g_other" -ne 0 ] || [ "$got" != "$want 0" ]; then
	echo "ktap-read: $file: $what, $g_other of another status; the file has $w_n ($w_p passed, $w_f failed, $w_s skipped)"
	exit 1
fi
echo "ktap-read: $file: $what, as the file has them"
