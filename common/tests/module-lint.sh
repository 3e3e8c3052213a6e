#!/bin/bash
# module-lint.sh [N]: build common/qsl-torture against step N's x86_64
# kernel build (default: the newest step) with W=1 and sparse (C=2), as
# lkmpg's CI does for its modules, and fail on any warning in it.  The
# negative control: a copy whose take() has lost its __acquires()
# annotation must make sparse report a context imbalance.  Nothing is
# loaded; the modules are built in build/tests/.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
"$TOP/common/scripts/deps.sh" lint

last=$(step_dirs | tail -1)
n=${1:-$((10#$(basename "$last" | cut -c1-2)))}
nn=$(src_id "$(stage "$n")")
src=$BUILD/src/$nn obj=$BUILD/src/$nn/obj-x86_64
[ -f "$obj/vmlinux" ] || die "step $n is not built for x86_64 ($obj/vmlinux): run make step-$n first"
kmake_args x86_64

lint() { # DIR: build the module in DIR with W=1 C=2; the log is DIR/build.log
	make -C "$src" O="$obj" "${KMAKE[@]}" M="$1" W=1 C=2 modules >"$1/build.log" 2>&1
}

fails=0
mod=$BUILD/tests/module-lint-$nn
rm -rf "$mod" "$mod-control"
mkdir -p "$mod" "$mod-control"
cp "$TOP"/common/qsl-torture/* "$mod/"
if ! lint "$mod"; then
	echo "not ok qsl_torture does not build with W=1 C=2 against step $n (log: ${mod#"$TOP"/}/build.log)"
	fails=1
elif grep -E 'qsl_torture\.c:[0-9]+:[0-9]+: (warning|error)' "$mod/build.log"; then
	echo "not ok qsl_torture: W=1 or sparse warnings against step $n (above; log: ${mod#"$TOP"/}/build.log)"
	fails=1
else
	echo "ok     qsl_torture builds against step $n with W=1 and sparse, without a warning"
fi

cp "$TOP"/common/qsl-torture/* "$mod-control/"
sed -i '/^static void take(/{n;/__acquires/d}' "$mod-control/qsl_torture.c"
if sed -n '/^static void take(/{n;p}' "$mod-control/qsl_torture.c" | grep -q __acquires; then
	echo "not ok the control could not remove take()'s annotation"
	fails=1
fi
lint "$mod-control" || true
if grep -q "qsl_torture\.c:.*context imbalance in 'take'" "$mod-control/build.log"; then
	echo "ok     control: without take()'s __acquires(), sparse reports: $(grep -m1 -o "context imbalance in 'take'.*" "$mod-control/build.log")"
else
	echo "not ok control: sparse did not notice take() without __acquires() (log: ${mod#"$TOP"/}-control/build.log)"
	fails=1
fi
[ "$fails" -eq 0 ] || { echo "module-lint: FAIL"; exit 1; }
echo "module-lint: OK (qsl_torture, step $n, W=1 and sparse clean; the control is caught)"
