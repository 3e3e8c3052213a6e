#!/bin/bash
# snapshot.sh [--check]: regenerate steps/*/tree from the patches.  With
# --check, write nothing and fail if any committed snapshot differs.
set -eu
. "$(dirname "$0")/lib.sh"

check=0
[ "${1:-}" = --check ] && check=1
tmp=$BUILD/snapshot.tmp
stale=0
for d in $(step_dirs); do
	n=$((10#$(basename "$d" | cut -c1-2)))
	"$TOP/common/scripts/gen-tree.sh" "$n" "$tmp" >/dev/null
	if [ "$check" -eq 1 ]; then
		if ! diff -r -q "$tmp" "$d/tree" >/dev/null 2>&1; then
			warn "steps/$(basename "$d")/tree is out of date with its patches:"
			diff -r -q "$tmp" "$d/tree" >&2 || true
			stale=$((stale + 1))
		fi
	else
		rm -rf "$d/tree"
		mv "$tmp" "$d/tree"
		say "wrote steps/$(basename "$d")/tree"
	fi
done
rm -rf "$tmp"
if [ "$check" -eq 1 ]; then
	[ "$stale" -eq 0 ] || die "$stale snapshot(s) out of date; run: make snapshots"
	echo "snapshots: OK (every steps/*/tree matches its patches)"
fi
