#!/bin/bash
# test-and-set-bit.sh [N]: step N's (default 4) x86 atomic_test_and_set_bit()
# assembles with the bit number in a register, and the first version of
# it, a long in "Ir", does not.  Builds two external modules in
# common/boot/tests/test-and-set-bit/ against the step's kernel build (make
# step-N first), in build/tests/; loads nothing.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"

n=${1:-4}
n=$(stage "$n")
nn=$(src_id "$n")
src=$BUILD/src/$nn obj=$BUILD/src/$nn/obj-x86_64
[ -f "$obj/vmlinux" ] || die "step $n is not built for x86_64 ($obj/vmlinux): run make step-$n first"
mod=$BUILD/tests/test-and-set-bit-$nn
rm -rf "$mod"
mkdir -p "$mod"
cp "$TOP"/common/boot/tests/test-and-set-bit/* "$mod/"
kmake_args x86_64
log=$mod/build.log
make -C "$src" O="$obj" "${KMAKE[@]}" M="$mod" modules >"$log" 2>&1 || true

ktap_begin test-and-set-bit
if [ -f "$mod/tsb_step.o" ] && objdump -d "$mod/tsb_step.o" | grep -qE 'lock bts +%e[a-z]+,'; then
	ktap_result 0 "step $n: atomic_test_and_set_bit() with the bit number in a register: $(objdump -d "$mod/tsb_step.o" | grep -m1 -oE 'lock bts +[^ ]+')"
else
	ktap_result 1 "step $n: atomic_test_and_set_bit() with the bit number in a register does not build to a register BTS (log: ${log#"$TOP"/})"
fi
if grep -q "tsb_first.c.*incorrect register .* used with .l' suffix" "$log"; then
	ktap_result 0 "the first version (a long in \"Ir\") is rejected: $(grep -m1 -o "incorrect register .* suffix" "$log")"
else
	ktap_result 1 "the first version (a long in \"Ir\") was not rejected by the assembler (log: ${log#"$TOP"/})"
fi
ktap_end
