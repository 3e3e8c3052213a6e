#!/bin/bash
# shell.sh N ARCH: build step N and boot it into an interactive shell.
set -eu
. "$(dirname "$0")/lib.sh"

stage "$1" >/dev/null
check_arch "$2"
[ "$2" = x86_64 ] || die "make shell-N needs busybox, which Debian ships for x86_64 only"
"$TOP/common/harness/deps.sh" kernel "$2"
"$TOP/common/boot/source.sh" "$1"
"$TOP/common/boot/build.sh" "$1" "$2"
"$TOP/common/boot/initramfs.sh" "$1" "$2"
exec "$TOP/qemu/run.sh" "$1" "$2" shell
