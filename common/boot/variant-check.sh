#!/bin/bash
# variant-check.sh N ARCH: compile step N's kernel/locking/qspinlock.c once
# more with CONFIG_NR_CPUS forced to 16384, the one-bit-pending variant
# that no x86 configuration builds (x86 caps NR_CPUS at 8192).  It reuses
# the exact compiler command kbuild used for the real object, with a copy
# of autoconf.h that says 16384 put first on the include path, and checks
# that the variant really was selected.  Compile-only: nothing boots it.
set -eu
. "$(dirname "$0")/lib.sh"

n=$(stage "$1")
arch=$2
obj=$(obj_dir "$n" "$arch")
cmdfile=$obj/kernel/locking/.qspinlock.o.cmd
[ -f "$cmdfile" ] || die "step $n ($arch) has no kernel/locking/qspinlock.o; build it first (make step-$n)"
tmp=$obj/variant-16k
rm -rf "$tmp"
mkdir -p "$tmp/generated"
sed 's/^#define CONFIG_NR_CPUS .*/#define CONFIG_NR_CPUS 16384/' \
	"$obj/include/generated/autoconf.h" >"$tmp/generated/autoconf.h"
grep -q '^#define CONFIG_NR_CPUS 16384$' "$tmp/generated/autoconf.h" ||
	die "autoconf.h of step $n has no CONFIG_NR_CPUS line"

# Only the compiler: kbuild appends "; objtool ..." and such.
cmd=$(sed -n 's/^cmd_kernel\/locking\/qspinlock.o := //p' "$cmdfile" | sed 's/ *;.*//')
# Drop the dependency output and the object name; put our include first.
cmd=$(printf '%s' "$cmd" | sed -e 's/-Wp,-MMD,[^ ]* //' -e 's/ -c -o [^ ]* / -c -o OUT /' \
	-e "s| -nostdinc | -nostdinc -I$tmp |")
case $cmd in *" -c -o OUT "*) ;; *) die "unexpected kbuild command in $cmdfile" ;; esac
cd "$obj"
# Run through the shell, as kbuild does: its quoting is part of the
# command (-DKBUILD_BASENAME='"qspinlock"' must define a string).
sh -c "${cmd/ -c -o OUT / -dM -E -o $tmp/macros.h }" ||
	die "preprocessing the 16K-CPU variant failed"
grep -q '^#define _Q_PENDING_BITS 1$' "$tmp/macros.h" ||
	die "forcing NR_CPUS=16384 did not select the one-bit pending variant"
grep -q '^#define KBUILD_BASENAME "qspinlock"$' "$tmp/macros.h" ||
	die "kbuild's command line was not run as kbuild runs it (KBUILD_BASENAME is not the string \"qspinlock\")"
sh -c "${cmd/ -c -o OUT / -Werror -c -o $tmp/qspinlock.o }" >"$tmp/log" 2>&1 || {
	cat "$tmp/log" >&2
	die "the one-bit pending variant of step $n does not compile"
}
echo "variant-check step-$n $arch: PASS (qspinlock.c compiles with NR_CPUS=16384, _Q_PENDING_BITS=1)"
