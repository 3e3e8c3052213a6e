#!/bin/bash
# klitmus.sh STAGE [ARCH]: the Linux-kernel memory model's litmus tests run
# on the stage's own kernel, its spin_lock() the step's lock.  klitmus7
# (herdtools7) turns each test into a kernel module that runs the test's
# threads on real CPUs many times and counts the final states; the guest
# loads them one by one (qsl.klitmus); the judge (klitmus-verdict.sh)
# fails any state the LKMM forbids (herd7 with linux-kernel.cat says which
# it allows), and any test that did not run every iteration.  Tests: the
# 6.1 tree's tools/memory-model/litmus-tests/ and the LKMM catalogue's
# manual/locked/ (every access under a lock), without RCU.
# The run directory is build/runs/ID-klitmus (and ID-klitmus-bare for the
# second boot of a step that boots twice, as make step-N does); each boot
# ends with the line
#   klitmus-N ARCH: PASS (N tests, N runs, 0 forbidden)
# KLITMUS_BUSTED=1 is the negative control: the same modules with a
# spin_lock() that does nothing (klitmus-busted.h), in the run directory
# build/runs/ID-klitmus-busted; it must be judged FAIL.
# Environment: KLITMUS_SIZE and KLITMUS_RUNS (klitmus7's -s and -r:
# iterations per run, runs per test), KLITMUS_SAMPLE (a number: every k-th
# test, about that many; make test's share), KLITMUS_BARE=0 (one boot
# where the step boots twice).  A test whose module gcc
# rejects (klitmus7's C for a register the test declares inside a block)
# is left out and named in the verdict's count.
set -eu
. "$(dirname "$0")/lib.sh"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: klitmus.sh STAGE [ARCH]"; fi
n=$(stage "$1")
arch=${2:-x86_64}
check_arch "$arch"
SIZE=${KLITMUS_SIZE:-200}
RUNS=${KLITMUS_RUNS:-5}
check_number KLITMUS_SIZE "$SIZE" 1 10000000
check_number KLITMUS_RUNS "$RUNS" 1 1000
LIMIT=${KLITMUS_SAMPLE:-0}
check_number KLITMUS_SAMPLE "$LIMIT" 0 100000
BUSTED=${KLITMUS_BUSTED:-0}
case $BUSTED in 0 | 1) ;; *) die "KLITMUS_BUSTED=$BUSTED: 1 (the negative control) or 0" ;; esac
tag=klitmus
[ "$BUSTED" = 0 ] || tag=klitmus-busted
label="klitmus-$(stage_step "$n") $arch"
[ "$n" != today ] || label="klitmus-today $arch"
[ "$BUSTED" = 0 ] || label="$label (busted lock)"
dir=$(run_dir "$n" "$arch" "$tag")
run_fresh "$dir"

herd_ensure
problem=$(herd_problem)
[ -z "$problem" ] || { run_error "$dir" "$label" "$problem"; exit 1; }
problem=$(third_party_problem "$LITMUS_CATALOGUE.tar.gz")
[ -z "$problem" ] || { run_error "$dir" "$label" "$problem"; exit 1; }

say "$label: the LKMM's litmus tests as kernel modules on $(stage_title "$n")"
if ! "$TOP/common/harness/deps.sh" kernel "$arch" || ! "$TOP/common/boot/source.sh" "$n" ||
	! "$TOP/common/boot/build.sh" "$n" "$arch"; then
	run_error "$dir" "$label" "the kernel did not build (log: $(build_log "$n" "$arch"))"
	exit 1
fi

# The tests and herd7's answers, the same for every stage: made once per
# list and parameters, in build/klitmus/.
gen=$BUILD/klitmus/s$SIZE-r$RUNS-t$LIMIT
catalogue_unpack
MM=$PRISTINE/tools/memory-model
if [ ! -f "$gen/done" ]; then
	rm -rf "$gen"
	mkdir -p "$gen/src"
	find "$MM/litmus-tests" "$CATALOGUE/manual/locked" -name '*.litmus' | LC_ALL=C sort >"$gen/all"
	# klitmus7 leaves out what it cannot run (RCU: -rcu no); herd7 must
	# answer the rest
	k=1
	total=$(wc -l <"$gen/all")
	[ "$LIMIT" -eq 0 ] || [ "$total" -le "$LIMIT" ] || k=$(((total + LIMIT - 1) / LIMIT))
	awk -v k="$k" 'NR % k == 1 || k == 1' "$gen/all" >"$gen/files"
	# herd7 first, one test at a time: a test it cannot answer, or in
	# which no execution ends (manual/locked/self-deadlock.litmus takes a
	# lock it holds), is left out, the reason in build/klitmus/.../left-out.tsv;
	# its allowed states are "NAME<TAB>STATE" lines of allowed.tsv
	: >"$gen/allowed.tsv"
	: >"$gen/left-out.tsv"
	: >"$gen/runnable"
	while IFS= read -r f; do
		(cd "$MM" && herd7 -conf linux-kernel.cfg -timeout 60 "$f") >"$gen/herd.one" 2>&1 || true
		cat "$gen/herd.one" >>"$gen/herd.log"
		awk '$1 == "Test" { name = $2; next }
			$1 == "States" { n = $2; next }
			n > 0 { s = $0; gsub(/[ \t]+/, "", s); print name "\t" s; n--; next }
			$1 == "Observation" { print name "\t" "@observed " $3 }' "$gen/herd.one" >"$gen/herd.states"
		if ! grep -q '	@observed ' "$gen/herd.states"; then
			printf '%s\t%s\n' "$f" "herd7 gave no LKMM answer (log: herd.log)" >>"$gen/left-out.tsv"
		elif [ "$(grep -vc '	@observed ' "$gen/herd.states")" -eq 0 ]; then
			printf '%s\t%s\n' "$f" "herd7: no execution ends (the test deadlocks)" >>"$gen/left-out.tsv"
		else
			cat "$gen/herd.states" >>"$gen/allowed.tsv"
			echo "$f" >>"$gen/runnable"
		fi
	done <"$gen/files"
	rm -f "$gen/herd.one" "$gen/herd.states"
	mapfile -t files <"$gen/runnable"
	klitmus7 -o "$gen/src" -s "$SIZE" -r "$RUNS" "${files[@]}" >"$gen/klitmus7.log" 2>&1 ||
		die "klitmus7 failed (log: $gen/klitmus7.log)"
	# run.sh's "zyva NAME litmusNNN.ko" lines: which module is which test
	sed -n 's/^zyva "\(.*\)" \(litmus[0-9]*\)\.ko$/\2\t\1/p' "$gen/src/run.sh" >"$gen/modules.tsv"
	[ -s "$gen/modules.tsv" ] || die "klitmus7 wrote no module (log: $gen/klitmus7.log)"
	touch "$gen/done"
fi
ntests=$(wc -l <"$gen/modules.tsv")

obj=$(obj_dir "$n" "$arch")
mod=$obj/$tag
# Another list's modules (litmusNNN of another test) must not be loaded
# or linked: the directory is one list's, rebuilt when the list changes.
[ "$(cat "$mod/list" 2>/dev/null)" = "$gen" ] || rm -rf "$mod"
mkdir -p "$mod"
echo "$gen" >"$mod/list"
for f in "$gen/src"/litmus*.c "$gen/src/Makefile"; do
	cmp -s "$f" "$mod/$(basename "$f")" || cp "$f" "$mod/"
done
if [ "$BUSTED" = 1 ]; then
	cp "$TOP/common/boot/klitmus-busted.h" "$mod/"
	# shellcheck disable=SC2016 # $(src) is kbuild's, not the shell's
	echo 'ccflags-y += -include $(src)/klitmus-busted.h' >>"$mod/Makefile"
fi
kmake_args "$arch"
src=$BUILD/src/$(src_id "$n")
log=$BUILD/logs/$tag-$(src_id "$n")-$arch.log
say "$label: building $ntests klitmus7 modules against its kernel (log: ${log#"$TOP"/})"
# Compile every module (-k: on past one gcc rejects), then link those
# that compiled: kbuild links none while one of its objects failed.
rm -f "$mod"/*.ko
make -k -C "$src" O="$obj" "${KMAKE[@]}" M="$mod" -j"$(nproc)" modules >"$log" 2>&1 || true
sed -i '/^obj-m += /d' "$mod/Makefile"
for o in "$mod"/litmus*.c; do
	case $o in *.mod.c) continue ;; esac
	o=${o%.c}.o
	[ ! "$o" -nt "${o%.o}.c" ] || echo "obj-m += $(basename "$o")" >>"$mod/Makefile"
done
make -C "$src" O="$obj" "${KMAKE[@]}" M="$mod" -j"$(nproc)" modules >>"$log" 2>&1 || true
: >"$mod/unbuilt.tsv"
while IFS=$'\t' read -r m t; do
	[ -f "$mod/$m.ko" ] ||
		printf '%s\t%s\t%s\n' "$m" "$t" "$(grep -m1 "$m.c:.*error" "$log" | sed 's/.*error: //')" >>"$mod/unbuilt.tsv"
done <"$gen/modules.tsv"
if ! ls "$mod"/*.ko >/dev/null 2>&1; then
	run_error "$dir" "$label" "no klitmus7 module built (log: ${log#"$TOP"/})"
	exit 1
fi
[ ! -s "$mod/unbuilt.tsv" ] ||
	say "$label: $(wc -l <"$mod/unbuilt.tsv") modules do not compile, left out (list: ${dir#"$TOP"/}/unbuilt.tsv)"
if ! KLITMUS_DIR=$mod "$TOP/common/boot/initramfs.sh" "$n" "$arch"; then
	run_error "$dir" "$label" "the initramfs did not build"
	exit 1
fi

# Measured: 330 tests in 120 s of TCG at the default size (step 10, 4
# vCPUs); a test that hangs is stopped at twice that rate.
secs=$((ntests * (1 + SIZE * RUNS / 1000)))
# boot DIR LABEL TAG [QEMU_CPU]: one boot of the modules, judged
boot() {
	local d=$1 l=$2 t=$3
	if ! QEMU_CPU=${4:-${QEMU_CPU:-}} PLAN=none QSLTORTURE=off KLITMUS="size=$SIZE,nruns=$RUNS" \
		KLITMUS_SECONDS=$secs QSL_INITRD=$obj/qsl-initramfs-klitmus.cpio \
		"$TOP/qemu/run.sh" "$n" "$arch" test "$t" >/dev/null; then
		run_error "$d" "$l" "the QEMU runner stopped with an error (see above)"
		return 1
	fi
	# the run directory is the runner's, fresh: what the judge reads goes in now
	cp "$mod/unbuilt.tsv" "$gen/allowed.tsv" "$gen/left-out.tsv" "$d/"
	awk -F'\t' 'FILENAME == ARGV[1] { out[$1]; next } !($1 in out)' "$d/unbuilt.tsv" "$gen/modules.tsv" >"$d/modules.tsv"
	printf 'size=%s runs=%s\n' "$SIZE" "$RUNS" >"$d/klitmus.env"
	"$TOP/common/boot/klitmus-verdict.sh" "$d" "$l"
}
first=$(boot "$dir" "$label" "$tag") && rc=0 || rc=1
echo "$first"
# A step that takes locks differently under a hypervisor (expect.tsv's
# bare column: 9, 10) boots a second time as step.sh does, on a CPU
# without the hypervisor bit: the same modules on its bare-metal lock.
# KLITMUS_BARE=0 leaves it out (the negative control: one boot shows that
# the judge fails a broken lock).
[ "$(expected_bare "$n" "$arch")" != - ] && [ "${KLITMUS_BARE:-1}" != 0 ] || exit "$rc"
say "$label: the same modules again, on a CPU without the hypervisor bit"
d=$(run_dir "$n" "$arch" "$tag-bare")
run_fresh "$d"
second=$(boot "$d" "$label $BARE_LABEL" "$tag-bare" "$BARE_CPU") && rc2=0 || rc2=1
echo "$second"
# both verdicts again, a failed one last: the last line is the run's
say "the verdicts of this run:"
if [ "$rc" = 1 ]; then printf '%s\n%s\n' "$second" "$first"; else printf '%s\n%s\n' "$first" "$second"; fi
exit $((rc | rc2))
