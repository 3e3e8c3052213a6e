#!/bin/bash
# initramfs.sh N ARCH: pack the guest of step N for ARCH into
# build/src/NN/obj-ARCH/qsl-initramfs.cpio: the static /init built from
# common/boot/guest/init.c, the torture modules of that kernel (locktorture and
# common/boot/qsl-torture), and (x86_64)
# busybox for `make shell-N`.
# usage: initramfs.sh N ARCH [EXTRA_MODULE.ko...]
# KLITMUS_DIR=DIR (klitmus.sh): DIR's modules in /modules/klitmus/ as
# well, written to qsl-initramfs-klitmus.cpio instead.
set -eu
. "$(dirname "$0")/lib.sh"

n=$(stage "$1")
arch=$2
shift 2 # the rest: extra modules, relative to the object tree or absolute
obj=$(obj_dir "$n" "$arch")
out=$obj/qsl-initramfs${KLITMUS_DIR:+-klitmus}.cpio
tools=$BUILD/tools
mkdir -p "$tools"

gen=$tools/gen_init_cpio
if [ ! -x "$gen" ]; then
	gcc -O2 -o "$gen" "$PRISTINE/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
fi

case $arch in
x86_64) cc=gcc ;;
sparc64) cc=sparc64-linux-gnu-gcc ;;
esac
init=$tools/init-$arch
if [ ! -x "$init" ] || [ "$TOP/common/boot/guest/init.c" -nt "$init" ]; then
	say "building the guest init for $arch"
	"$cc" -static -O2 -Wall -Wextra -Werror -o "$init" "$TOP/common/boot/guest/init.c" ||
		die "building common/boot/guest/init.c for $arch failed"
fi

list=$obj/qsl-initramfs${KLITMUS_DIR:+-klitmus}.list
{
	echo "dir /dev 755 0 0"
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "dir /proc 755 0 0"
	echo "dir /sys 755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "dir /modules 755 0 0"
	echo "file /init $init 755 0 0"
	for m in kernel/torture.ko kernel/locking/locktorture.ko qsl-torture/qsl_torture.ko "$@"; do
		case $m in /*) f=$m ;; *) f=$obj/$m ;; esac
		[ -f "$f" ] || die "module $f is missing; was the kernel built?"
		echo "file /modules/$(basename "$f") $f 644 0 0"
	done
	if [ -n "${KLITMUS_DIR:-}" ]; then
		echo "dir /modules/klitmus 755 0 0"
		for f in "$KLITMUS_DIR"/*.ko; do
			[ -f "$f" ] || die "no module in $KLITMUS_DIR"
			echo "file /modules/klitmus/$(basename "$f") $f 644 0 0"
		done
	fi
	if [ "$arch" = x86_64 ]; then
		echo "dir /bin 755 0 0"
		echo "file /bin/busybox /bin/busybox 755 0 0"
		for a in $(/bin/busybox --list); do
			[ "$a" = busybox ] || echo "slink /bin/$a busybox 777 0 0"
		done
	fi
} >"$list"
"$gen" "$list" >"$out" || die "gen_init_cpio failed on $list"
