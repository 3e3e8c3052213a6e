#!/bin/bash
# build-cache.sh: the checker's builds are skipped only when nothing they
# read has changed (up_to_date and build_stamp in common/checker/lib.sh).
# A stale binary would give the answers of code that no longer exists, so
# each way an input can change must rebuild: a source, a header named in
# the .d file, a linked object, a flag; and nothing changed must not.
# Prints KTAP and "build-cache: N passed, N failed".
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
# the two functions alone: sourcing common/checker/lib.sh would install
# packages and needs OUT
eval "$(sed -n '/^DEPFLAGS=/,/^build_stamp()/p' "$TOP/common/checker/lib.sh")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf '#include "h.h"\nint main(void) { return H; }\n' >m.c
printf '#define H 0\n' >h.h
printf 'int x;\n' >o.c
gcc -c o.c -o o.o
flags=(-O2)
# build: compile and link m unless it is up to date; says which
build() {
	local stamp
	stamp=$(build_stamp gcc "${flags[@]}" m.c)
	if up_to_date out/m "$stamp" o.o; then
		echo skipped
		return
	fi
	mkdir -p out
	gcc "${flags[@]}" "${DEPFLAGS[@]}" -c m.c -o out/m.o
	gcc -o out/m out/m.o o.o
	echo "$stamp" >out/m.stamp
	echo built
}
# Every input starts old; later FILE changes FILE alone after the last
# build (the output dated before it, every other input still before the
# output), so each case has one cause, and no file is dated in the future.
touch -d @1000000000 m.c h.h o.o
later() {
	touch -d @1000000000 m.c h.h o.o
	touch -d @1500000000 out/m
	touch -d @1500000010 "$1"
}

ktap_begin build-cache 6
expect() { # WANT DESCRIPTION
	local got
	got=$(build)
	if [ "$got" = "$1" ]; then
		ktap_result 0 "$2: $got"
	else
		ktap_fail_text "$2: $got, not $1" ""
	fi
}
expect built "the first build"
expect skipped "nothing changed"
later h.h
expect built "a header the .d file names changed"
later o.o
expect built "a linked object changed"
flags=(-O1)
expect built "a flag changed"
rm out/m.d
expect built "the dependency file is missing"
ktap_end
