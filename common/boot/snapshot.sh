#!/bin/bash
# snapshot.sh [--check]: regenerate steps/*/tree from the patches, and
# each step's README.md from what the scripts know (the patch's subject
# and name, the previous step, the chapter).  With --check, write nothing
# and fail if any committed snapshot or README differs.
set -eu
. "$(dirname "$0")/lib.sh"

# readme DIR N PREV: steps/NN-*/README.md of step N (PREV: the directory
# of step N-1, or empty for step 0).
# The backquotes are Markdown, not command substitutions.
# shellcheck disable=SC2016
readme() {
	local d=$1 n=$2 prev=$3 patch subject chapter
	patch=$(find "$d" -maxdepth 1 -name '*.patch' -printf '%f\n')
	subject=$(patch_subject "$d/$patch")
	chapter=$(step_chapter "$n")
	chapter=${chapter#book/}
	[ "$(printf '%s\n' "$chapter" | grep -c .)" -eq 1 ] ||
		die "step $n has no single chapter in book/chapters.tsv (found: ${chapter:-none}): add the line 'FILE<tab>$n'"
	printf '# Step %d: %s\n\n' "$n" "$subject"
	printf -- '- The patch: `%s` (its commit message says what changes and why).\n' "$patch"
	printf -- '- The files it touches, in full, as they stand after this step: `tree/`,\n'
	printf -- '  generated from the patches by `make snapshots`; never edit them by hand.\n'
	if [ -z "$prev" ]; then
		printf -- '- What this step changes: `make diff-%d` (against the pristine 6.1 tree; there is no earlier step).\n' "$n"
	else
		printf -- '- What this step changes: `make diff-%d`, or `diff -ru steps/%s/tree steps/%s/tree`.\n' \
			"$n" "$(basename "$prev")" "$(basename "$d")"
	fi
	printf -- '- Build it, boot it, judge it: `make step-%d`.\n' "$n"
	printf -- '- The chapter: [`book/%s`](../../book/%s).\n' "$chapter" "$chapter"
}

check=0
[ "${1:-}" = --check ] && check=1
mkdir -p "$BUILD"
tmp=$BUILD/snapshot.tmp
stale=0
prev=""
for d in $(step_dirs); do
	n=$((10#$(basename "$d" | cut -c1-2)))
	readme "$d" "$n" "$prev" >"$BUILD/snapshot.readme"
	prev=$d
	if [ "$check" -eq 1 ]; then
		if ! cmp -s "$BUILD/snapshot.readme" "$d/README.md"; then
			warn "steps/$(basename "$d")/README.md differs from what the scripts know:"
			diff "$d/README.md" "$BUILD/snapshot.readme" >&2 || true
			stale=$((stale + 1))
		fi
	else
		mv "$BUILD/snapshot.readme" "$d/README.md"
	fi
	"$TOP/common/boot/gen-tree.sh" "$n" "$tmp" >/dev/null
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
rm -rf "$tmp" "$BUILD/snapshot.readme"
if [ "$check" -eq 1 ]; then
	[ "$stale" -eq 0 ] || die "$stale snapshot(s) or README(s) out of date; run: make snapshots"
	echo "snapshots: OK (every steps/*/tree matches its patches, every README what the scripts know)"
fi
