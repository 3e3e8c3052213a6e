#!/bin/bash
# diff.sh N: what step N changes, as a diff of whole-file snapshots:
# steps/(N-1)/tree against steps/N/tree (step 0: the pristine tree).
set -eu
. "$(dirname "$0")/lib.sh"

dir=$(step_dir "$1")
n=$((10#$1))
if [ "$n" -eq 0 ]; then
	"$TOP/common/boot/pristine.sh"
	old=$BUILD/diff-pristine
	rm -rf "$old"
	mkdir -p "$old"
	all=()
	series_into all 99
	patch_files "${all[@]}" | while read -r f; do
		if [ -f "$PRISTINE/$f" ]; then
			mkdir -p "$old/$(dirname "$f")"
			cp "$PRISTINE/$f" "$old/$f"
		fi
	done
	label=pristine-$KVER
else
	old=$(step_dir $((n - 1)))/tree
	label=$(basename "$(dirname "$old")")
fi
patch=$(step_patch "$dir")
subject=$(patch_subject "$patch")
say "diff -ruN $label $(basename "$dir")  ($subject)"
cd "$TOP"
rc=0
diff -ruN "${old#"$TOP"/}" "steps/$(basename "$dir")/tree" || rc=$?
# 1: the trees differ, as they should; 141: the reader's pager quit early.
case $rc in 0 | 1 | 141) exit 0 ;; *) die "diff failed (exit $rc)" ;; esac
