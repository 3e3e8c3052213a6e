#!/bin/bash
# module-lint.sh [N]: build common/boot/qsl-torture against step N's x86_64
# kernel build (default: the newest step) with W=1 and sparse (C=2), as
# lkmpg's CI does for its modules, and fail on any warning in it.  The
# negative control: a copy whose take() has lost its __acquires()
# annotation must make sparse report a context imbalance.  Nothing is
# loaded; the modules are built in build/tests/.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
"$TOP/common/harness/deps.sh" lint

last=$(step_dirs | tail -1)
n=${1:-$((10#$(basename "$last" | cut -c1-2)))}
n=$(stage "$n")
nn=$(src_id "$n")
src=$BUILD/src/$nn obj=$BUILD/src/$nn/obj-x86_64
[ -f "$obj/vmlinux" ] || die "step $n is not built for x86_64 ($obj/vmlinux): run make step-$n first"
kmake_args x86_64

lint() { # DIR: build the module in DIR with W=1 C=2; the log is DIR/build.log
	make -C "$src" O="$obj" "${KMAKE[@]}" M="$1" W=1 C=2 modules >"$1/build.log" 2>&1
}

ktap_begin module-lint
mod=$BUILD/tests/module-lint-$nn
rm -rf "$mod" "$mod-control"
mkdir -p "$mod" "$mod-control"
cp "$TOP"/common/boot/qsl-torture/* "$mod/"
if ! lint "$mod"; then
	ktap_result 1 "qsl_torture does not build with W=1 C=2 against step $n (log: ${mod#"$TOP"/}/build.log)"
elif grep -E 'qsl_torture\.c:[0-9]+:[0-9]+: (warning|error)' "$mod/build.log" >"$mod/warnings"; then
	ktap_result 1 "qsl_torture: W=1 or sparse warnings against step $n (log: ${mod#"$TOP"/}/build.log)" "$mod/warnings"
else
	ktap_result 0 "qsl_torture builds against step $n with W=1 and sparse, without a warning"
fi

cp "$TOP"/common/boot/qsl-torture/* "$mod-control/"
sed -i '/^static void take(/{n;/__acquires/d}' "$mod-control/qsl_torture.c"
if sed -n '/^static void take(/{n;p}' "$mod-control/qsl_torture.c" | grep -q __acquires; then
	ktap_result 1 "the control could not remove take()'s annotation"
fi
lint "$mod-control" || true
if grep -q "qsl_torture\.c:.*context imbalance in 'take'" "$mod-control/build.log"; then
	ktap_result 0 "control: without take()'s __acquires(), sparse reports: $(grep -m1 -o "context imbalance in 'take'.*" "$mod-control/build.log")"
else
	ktap_result 1 "control: sparse did not notice take() without __acquires() (log: ${mod#"$TOP"/}-control/build.log)"
fi
ktap_end
