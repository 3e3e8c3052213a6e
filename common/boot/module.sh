#!/bin/bash
# module.sh N ARCH: build common/boot/qsl-torture against step N's kernel for
# ARCH (an external module in build/src/NN/obj-ARCH/qsl-torture).
set -eu
. "$(dirname "$0")/lib.sh"

n=$(stage "$1")
arch=$2
nn=$(src_id "$n")
src=$BUILD/src/$nn
obj=$(obj_dir "$n" "$arch")
frag=$(matrix_fragment)
mod=$obj/qsl-torture
log=$BUILD/logs/module-$nn-$arch${frag:+-$frag}.log
mkdir -p "$mod"
for f in "$TOP"/common/boot/qsl-torture/*; do
	cmp -s "$f" "$mod/$(basename "$f")" || cp "$f" "$mod/"
done
kmake_args "$arch"
say "building qsl_torture.ko for step $n ($arch)"
make -C "$src" O="$obj" "${KMAKE[@]}" M="$mod" modules >"$log" 2>&1 || {
	grep -E 'error|warning' "$log" | tail -20 >&2
	die "building common/boot/qsl-torture for step $n ($arch) failed; log: $log"
}
