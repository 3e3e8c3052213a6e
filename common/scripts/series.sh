#!/bin/bash
# series.sh: write the whole series to build/series/, ready for
#   cd linux-6.1 && git am /path/to/build/series/*.patch
# on a pristine tree (or quilt: build/series/series lists the order).
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/series
rm -rf "$out"
mkdir -p "$out"
patches=()
series_into patches 99
for p in "${patches[@]}"; do
	cp "$p" "$out/"
	basename "$p" >>"$out/series"
done
say "$(wc -l <"$out/series") patches in ${out#"$TOP"/}: apply with git am ${out#"$TOP"/}/*.patch on Linux $KVER"
echo "series: OK"
