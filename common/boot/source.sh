#!/bin/bash
# source.sh STAGE: make build/src/ID exactly the pristine tree plus patches
# 0..N (and the mutant of an N+MUTANT stage, see stage in lib.sh).
# The tree is hard links to the pristine one, except for the files the
# series touches, which are real copies.  Only files whose content changed
# are rewritten, so a warm rebuild stays warm, and files a previous version
# of the series touched are put back as they were.
set -eu
. "$(dirname "$0")/lib.sh"
work_starts "writing a step tree"

n=$(stage "$1")
nn=$(src_id "$n")
src=$BUILD/src/$nn
ovl=$BUILD/overlay/$nn

"$TOP/common/boot/pristine.sh"
m=$(stage_mutant "$n")
"$TOP/common/boot/gen-tree.sh" "$(stage_step "$n")" "$ovl" ${m:+"$TOP/common/boot/mutants/$m.patch"}

if [ ! -f "$src/.qsl-files" ]; then
	say "creating build/src/$nn from the pristine tree (hard links)"
	rm -rf "$src"
	mkdir -p "$BUILD/src"
	cp -al "$PRISTINE" "$src"
	: >"$src/.qsl-files"
fi

all=()
series_into all 99
{ patch_files "${all[@]}"; cat "$src/.qsl-files"; } | sort -u | while read -r f; do
	if [ -f "$ovl/$f" ]; then
		want=$ovl/$f
	elif ! patch_files "${all[@]}" | grep -qxF "$f" && [ -f "$PRISTINE/$f" ]; then
		want=$PRISTINE/$f # touched by an older series only
	else
		want=""
	fi
	if [ -n "$want" ]; then
		if ! cmp -s "$want" "$src/$f"; then
			mkdir -p "$src/$(dirname "$f")"
			rm -f "$src/$f"
			cp "$want" "$src/$f"
		fi
	elif [ -e "$src/$f" ]; then
		rm -f "$src/$f"
	fi
done
patch_files "${all[@]}" >"$src/.qsl-files"
mine=()
series_into mine "$n"
say "build/src/$nn is pristine $KVER + ${#mine[@]} patch(es)${m:+ + mutant $m}"
