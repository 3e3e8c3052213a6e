#!/bin/bash
# step.sh [--tag TAG] STAGE [ARCH...]: build a stage (step N, N+MUTANT or
# "today", see stage in lib.sh), boot it under the torture plan and judge
# the console.  Without ARCH, the architectures common/boot/expect.tsv marks as
# booted by default for this step.  Each boot is a run directory,
# build/runs/ID (see run_id in lib.sh), which holds its verdict; the last
# line for each architecture is
#   step-N ARCH: PASS (...)   or   step-N ARCH: FAIL: reason (log: path)
# (step-N+MUTANT for a mutant's stage)
# (ERROR instead of FAIL where the harness could not build or boot it),
# and the exit status is 0 only if every architecture passed.
#
# --tag TAG names the run directory apart from the stage's default run
# (build/runs/ID-TAG): the negative controls, the mutant table's base.
# A step whose x86_64 row has a "bare" column (common/boot/expect.tsv) takes
# locks differently under a hypervisor: its default run boots the same
# kernel a second time on a CPU without the CPUID hypervisor bit (QEMU
# -cpu qemu64,-hypervisor), judged as that column says, in the run
# directory build/runs/ID-bare; a tagged run boots once.
# QSL_MATRIX_ROW=ROW builds and boots a row of the configuration matrix
# (common/boot/matrix/, make matrix): its fragment, its object tree.
# Environment: DURATION (s per torture run), CPUS, PLAN, QSLTORTURE; the
# Makefile passes CPUS and PLAN from its command line only.  What the
# judge requires comes from common/boot/expect.tsv alone.
set -eu
. "$(dirname "$0")/lib.sh"

usage="usage: step.sh [--tag TAG] STAGE [ARCH...]"
tag=
if [ "${1:-}" = --tag ]; then
	[ $# -ge 2 ] || die "$usage"
	tag=$2
	shift 2
	case $tag in '' | *[!a-z0-9-]*) die "--tag '$tag': a tag is lower-case letters, digits and '-'" ;; esac
fi
[ $# -ge 1 ] || die "$usage"
n=$(stage "$1")
shift
DURATION=$(duration_for step)
export DURATION
vcpus_for x86_64 >/dev/null
check_kvm
arches=("$@")
if [ ${#arches[@]} -eq 0 ]; then
	mapfile -t arches < <(expect_arches "$n" "yes step")
	[ ${#arches[@]} -gt 0 ] || die "common/boot/expect.tsv boots no architecture by default for step $(stage_step "$n")"
fi
for a in "${arches[@]}"; do
	check_arch "$a"
	expected_lock "$n" "$a" >/dev/null
done

# Every boot's run directory is emptied before any work, so that nothing
# of an earlier run of the same ID can be read as this one's, whatever
# stops this command; a failure before the boots is recorded as ERROR.
for a in "${arches[@]}"; do
	run_fresh "$(run_dir "$n" "$a" "$tag")"
	[ "$(expected_bare "$n" "$a")" = - ] || [ -n "$tag" ] || run_fresh "$(run_dir "$n" "$a" bare)"
done
title=$(stage_title "$n")
say "$title"
if ! "$TOP/common/harness/deps.sh" kernel "${arches[@]}" || ! "$TOP/common/boot/source.sh" "$n"; then
	for a in "${arches[@]}"; do
		run_error "$(run_dir "$n" "$a" "$tag")" "$(stage_label "$n") $a" \
			"the packages or the stage's source could not be prepared (see the error above)"
	done
	exit 1
fi

rc=0
verdicts=()
# keep VERDICT-LINE: keep a boot's verdict for the end, and show it now,
# as its boot ends (a later build can take minutes).
keep() {
	verdicts+=("$1")
	say "verdict: $1"
}
for a in "${arches[@]}"; do
	lock=$(expected_lock "$n" "$a")
	plan=${PLAN:-spin_lock,spin_lock_irq,rw_lock}
	label="$(stage_label "$n") $a${QSL_MATRIX_ROW:+ [matrix: $QSL_MATRIX_ROW]}"
	dir=$(run_dir "$n" "$a" "$tag")
	if ! "$TOP/common/boot/build.sh" "$n" "$a" || ! "$TOP/common/boot/initramfs.sh" "$n" "$a"; then
		keep "$(run_error "$dir" "$label" "the kernel or initramfs did not build (log: $(build_log "$n" "$a"))")"
		rc=1
		continue
	fi
	[ "$a" != sparc64 ] ||
		say "note: QEMU's sparc64 machine has one CPU: this boot shows the big-endian lock word and the uncontended and nested-context paths, not contention"
	if ! PLAN=$plan "$TOP/qemu/run.sh" "$n" "$a" test "$tag" >/dev/null; then
		keep "$(run_error "$dir" "$label" "the QEMU runner stopped with an error (see above)")"
		rc=1
		continue
	fi
	v=$("$TOP/common/boot/verdict.sh" "$dir" "$label" "$lock" "$(expected_paths "$n" "$a")") || rc=1
	keep "$v"
	bare=$(expected_bare "$n" "$a")
	if [ "$bare" = - ] || [ -n "$tag" ]; then continue; fi
	say "the same kernel again, on a CPU without the hypervisor bit: it must take locks as on bare metal"
	dir=$(run_dir "$n" "$a" bare)
	if ! QEMU_CPU=$BARE_CPU PLAN=$plan "$TOP/qemu/run.sh" "$n" "$a" test bare >/dev/null; then
		keep "$(run_error "$dir" "$label $BARE_LABEL" "the QEMU runner stopped with an error (see above)")"
		rc=1
		continue
	fi
	v=$("$TOP/common/boot/verdict.sh" "$dir" "$label $BARE_LABEL" "${bare%%:*}" "${bare#*:}") || rc=1
	keep "$v"
done
# every verdict again, together, as the last lines
[ "${#verdicts[@]}" -lt 2 ] || say "the verdicts of this run:"
for v in "${verdicts[@]}"; do
	printf '%s\n' "$v"
done
exit "$rc"
