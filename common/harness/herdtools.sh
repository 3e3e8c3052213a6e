#!/bin/bash
# herdtools.sh: build herd7, diy7 and klitmus7 (herdtools7, the Linux-kernel
# memory model's own tools) from THIRD_PARTY's archive into HERD_HOME, once
# per version; a second run, a make clean or a fresh clone finds them there.
# The archive's checksum is checked first; Debian's OCaml packages are
# installed as every other dependency is (deps.sh herd).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: $0 (no arguments; THIRD_PARTY=DIR and HERD_CACHE=DIR are variables)"
archive=herdtools7-$HERD_VERSION.tar.gz
problem=$(third_party_problem "$archive")
[ -z "$problem" ] || die "herdtools: $problem"
if [ -z "$(herd_problem)" ] && [ "$(cat "$HERD_HOME/archive.sha256" 2>/dev/null)" = \
	"$(sha256sum "$THIRD_PARTY/$archive" | cut -d' ' -f1)" ]; then
	say "herdtools: herd7, diy7 and klitmus7 $HERD_VERSION are built in $HERD_HOME"
	exit 0
fi
work_starts "building herdtools7 $HERD_VERSION"

# One build at a time: a second run waits for the first, then finds its
# result.  The tree is built beside HERD_HOME and moved into place whole,
# so that an interrupted build never looks like a finished one.
mkdir -p "$(dirname "$HERD_HOME")"
exec 9>"$HERD_HOME.lock"
flock 9
if [ -z "$(herd_problem)" ] && [ -f "$HERD_HOME/archive.sha256" ]; then
	say "herdtools: built by another run meanwhile, in $HERD_HOME"
	exit 0
fi
# inside the lock: two checks that start the build at once must not run
# apt-get side by side
"$TOP/common/harness/deps.sh" herd
tmp=$HERD_HOME.tmp
rm -rf "$tmp" "$HERD_HOME"
mkdir -p "$tmp/src"
tar -xzf "$THIRD_PARTY/$archive" -C "$tmp/src"
log=$tmp/build.log
t0=$(now)
say "herdtools: building herd7, diy7 and klitmus7 $HERD_VERSION (about 3 min on 2 cores; log: $log)"
(
	cd "$tmp/src"
	./version-gen.sh "$HERD_HOME"
	dune build --profile release --display quiet \
		herd/herd.exe gen/diy.exe litmus/klitmus.exe
) >"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 1
	s=$(($(now) - t0))
	[ $((s % 30)) -ne 0 ] || say "herdtools: still building, ${s} s"
done
wait "$pid" || {
	tail -20 "$log" >&2
	die "herdtools: the build failed (log: $log)"
}
mkdir -p "$tmp/bin" "$tmp/share/herdtools7"
cp "$tmp/src/_build/default/herd/herd.exe" "$tmp/bin/herd7"
cp "$tmp/src/_build/default/gen/diy.exe" "$tmp/bin/diy7"
cp "$tmp/src/_build/default/litmus/klitmus.exe" "$tmp/bin/klitmus7"
cp -r "$tmp/src/herd/libdir" "$tmp/share/herdtools7/herd"
cp -r "$tmp/src/litmus/libdir" "$tmp/share/herdtools7/litmus"
cp "$tmp/src/LICENSE.txt" "$tmp/"
rm -rf "$tmp/src"
sha256sum "$THIRD_PARTY/$archive" | cut -d' ' -f1 >"$tmp/archive.sha256"
mv "$tmp" "$HERD_HOME"
say "herdtools: built in $(($(now) - t0)) s into $HERD_HOME"
