#!/bin/bash
# step.sh N [ARCH...]: build step N (or "today", the pristine tree), boot it
# under the torture plan and judge
# the console.  Without ARCH, the architectures common/expect.tsv marks as
# booted by default for this step.  Each boot is a run directory,
# build/runs/ID (see run_id in lib.sh), which holds its verdict; the last
# line for each architecture is
#   step-N ARCH: PASS (...)   or   step-N ARCH: FAIL: reason (log: path)
# (ERROR instead of FAIL where the harness could not build or boot it),
# and the exit status is 0 only if every architecture passed.
#
# Environment: DURATION (s per torture run), CPUS, PLAN, QSLTORTURE,
# EXPECT=lock (override the expected lock, for negative controls), TAG,
# MUTANT=name (step N plus common/mutants/name.patch, see make mutants).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: step.sh N [ARCH...]"
n=$(stage "$1")
shift
check_number DURATION "${DURATION:-15}" 1 3600
check_number CPUS "${CPUS:-4}" 1 8
check_kvm
arches=("$@")
if [ ${#arches[@]} -eq 0 ]; then
	mapfile -t arches < <(awk -v s="$n" '$1 == s && $4 == "yes" { print $2 }' "$TOP/common/expect.tsv")
	[ ${#arches[@]} -gt 0 ] || die "common/expect.tsv boots no architecture by default for step $n"
fi
for a in "${arches[@]}"; do
	check_arch "$a"
	expected_lock "$n" "$a" >/dev/null
done

"$TOP/common/scripts/deps.sh" kernel "${arches[@]}"
say "$(stage_title "$n")"
"$TOP/common/scripts/source.sh" "$n"

rc=0
verdicts=()
for a in "${arches[@]}"; do
	lock=${EXPECT:-$(expected_lock "$n" "$a")}
	plan=${PLAN:-spin_lock,spin_lock_irq,rw_lock}
	label="step-$n${MUTANT:+ mutant $MUTANT} $a"
	[ "$n" != today ] || label="today $a"
	# This boot's run directory: emptied now, so that nothing of an
	# earlier run of the same ID can be read as this one's.
	dir=$(run_dir "$n" "$a" "${TAG:-}")
	run_fresh "$dir"
	if ! "$TOP/common/scripts/build.sh" "$n" "$a" || ! "$TOP/common/scripts/initramfs.sh" "$n" "$a"; then
		verdicts+=("$(run_error "$dir" "$label" "the kernel or initramfs did not build (log: $BUILD/logs/build-$(src_id "$n")-$a.log)")")
		rc=1
		continue
	fi
	[ "$a" != sparc64 ] ||
		say "note: QEMU's sparc64 machine has one CPU: this boot shows the big-endian lock word and the uncontended and nested-context paths, not contention"
	if ! PLAN=$plan "$TOP/qemu/run.sh" "$n" "$a" test "${TAG:-}" >/dev/null; then
		verdicts+=("$(run_error "$dir" "$label" "the QEMU runner stopped with an error (see above)")")
		rc=1
		continue
	fi
	v=$("$TOP/common/scripts/verdict.sh" "$dir" "$label" "$lock" "$(expected_paths "$n" "$a")") || rc=1
	verdicts+=("$v")
done
for v in "${verdicts[@]}"; do
	printf '%s\n' "$v"
done
exit "$rc"
