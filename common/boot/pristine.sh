#!/bin/bash
# pristine.sh: make sure build/pristine-<version> holds the untouched kernel
# tree from Debian's linux-source-6.1, extracting it once.  Every step's
# source is made from it by hard links, so it is checked for changes on
# every use: a tree that changed is an error, never silently used.
set -eu
. "$(dirname "$0")/lib.sh"
work_starts "extracting the pristine tree"

TARBALL=/usr/src/linux-source-6.1.tar.xz
STAMP=$PRISTINE.manifest

manifest() {
	(cd "$PRISTINE" && find . -printf '%P %s %T@ %i\n' | LC_ALL=C sort | sha256sum | cut -d' ' -f1)
}

if [ ! -f "$STAMP" ]; then
	[ -f "$TARBALL" ] || die "$TARBALL is missing; install it with: apt-get install linux-source-6.1"
	rm -rf "$PRISTINE" "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	say "extracting $TARBALL into build/ (once, about 15 s)"
	tar -xf "$TARBALL" -C "$PRISTINE.tmp" --strip-components=1
	got=$(make -s -C "$PRISTINE.tmp" kernelversion 2>/dev/null)
	if [ "$got" != "$KVER" ]; then
		rm -rf "$PRISTINE.tmp"
		die "linux-source-6.1 installed Linux $got, but this tutorial is tested on $KVER
       (common/boot/kernel-version).  Install the tested package, or, to try $got,
       write $got into common/boot/kernel-version and expect the patches to need work."
	fi
	mv "$PRISTINE.tmp" "$PRISTINE"
	manifest >"$STAMP"
fi

[ "$(manifest)" = "$(cat "$STAMP")" ] ||
	die "the pristine tree $PRISTINE was modified (its file list, sizes or
       times changed).  Something wrote into a step's source through a hard
       link.  Remove build/pristine-$KVER* and build/src and run again."
