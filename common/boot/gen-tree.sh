#!/bin/bash
# gen-tree.sh N DEST [EXTRA.patch]: write into DEST every file the series touches, as it
# stands after patches 0..N are applied to the pristine tree.  A file the
# series touches but that does not exist at step N is absent from DEST.
# This is both the committed steps/NN-*/tree snapshot and the overlay that
# turns the pristine tree into step N's source.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: gen-tree.sh STEP DEST [EXTRA.patch]"
n=$1
dest=$2
extra=${3:-}
n=$(stage "$n")
"$TOP/common/boot/pristine.sh"

all=()
series_into all 99
mine=()
series_into mine "$n"

rm -rf "$dest"
mkdir -p "$dest"
patch_files "${all[@]}" | while read -r f; do
	if [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$dest/$(dirname "$f")"
		cp "$PRISTINE/$f" "$dest/$f"
	fi
done

# Keep git from finding this repository around DEST: the patches apply to
# DEST alone.
export GIT_CEILING_DIRECTORIES
GIT_CEILING_DIRECTORIES=$(cd "$dest/.." && pwd)
for p in "${mine[@]}"; do
	(cd "$dest" && git apply --whitespace=nowarn "$p") ||
		die "$(basename "$p") does not apply on top of the steps before it.
       Edit the series in its git tree (make edit-series) and export it again."
done
# A mutant (common/boot/mutants/) goes on top, touching only series files.
if [ -n "$extra" ]; then
	(cd "$dest" && git apply --whitespace=nowarn "$extra") ||
		die "$(basename "$extra") does not apply on top of step $n"
fi
find "$dest" -type d -empty -delete
