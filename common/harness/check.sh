#!/bin/bash
# check.sh: everything that needs no kernel build (about four minutes on two
# cores).  Prints one KTAP line per check (ktap_begin in lib.sh) and ends
# "check: N passed, N failed".
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"
# lab and uncontended: the test of make lab-uncontended compiles the lab's
# benchmark and counts it under valgrind
"$TOP/common/harness/deps.sh" kernel check book verify lab uncontended
# checkpatch.pl comes from the pristine tree: extract it here, not as a
# side effect of the snapshot check.
"$TOP/common/boot/pristine.sh"

# Everything check.sh prints goes to build/check-output.txt too (make
# ktap-record keeps it for common/harness/tests/ktap.sh).
exec > >(tee "$BUILD/check-output.txt")
tee_pid=$!
patches=()
series_into patches 99
# every row make check and make test run is pinned: a missing count fails
export VERIFY_PIN_STRICT=1
# The checks run as many at a time as there are cores (CHECK_JOBS=N);
# their results are printed in this file's order, each as soon as it and
# every check before it have ended.  Each check's output is kept in its
# own file, shown under a check that fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs_max=${CHECK_JOBS:-$(nproc)}
check_names=() printed=0
# flush [all]: print the results that are ready, in order (all: wait for
# every one).
flush() {
	local rc
	while [ "$printed" -lt "${#check_names[@]}" ]; do
		if [ ! -f "$tmp/$printed.rc" ]; then
			[ "${1:-}" = all ] || return 0
			if [ -z "$(jobs -rp)" ] && [ ! -f "$tmp/$printed.rc" ]; then
				# every job has ended and this one left no status
				echo "the check's job ended without its exit status" >>"$tmp/$printed.out"
				echo 1 >"$tmp/$printed.rc"
			fi
			wait -n || true
			continue
		fi
		read -r rc <"$tmp/$printed.rc"
		# 77 (automake's): the check could not run here, and says why
		if [ "$rc" -eq 77 ]; then
			ktap_result 0 "${check_names[$printed]} # SKIP $(tail -n1 "$tmp/$printed.out")"
		else
			ktap_result "$rc" "${check_names[$printed]}" "$tmp/$printed.out"
		fi
		printed=$((printed + 1))
	done
}
start_check() { # name command...
	local name=$1 i=${#check_names[@]}
	shift
	job_slot "$jobs_max" flush
	check_names+=("$name")
	{
		rc=0 t=$(now)
		"$@" >"$tmp/$i.out" 2>&1 || rc=$?
		echo "$(($(now) - t))" >"$tmp/$i.time"
		echo "$rc" >"$tmp/$i.rc.new"
		mv "$tmp/$i.rc.new" "$tmp/$i.rc"
	} &
	flush
}
# The list of checks: run NAME COMMAND... adds one; the plan is its
# length, and the checks start once the list is complete.
CHECKS=() CHECK_CMDS=()
run() {
	CHECKS+=("$1")
	shift
	CHECK_CMDS+=("$(printf '%q ' "$@")")
}

run "shellcheck: every script" shellcheck -x -P SCRIPTDIR \
	common/*/*.sh common/*/tests/*.sh book/tools/*.sh book/tools/tests/*.sh qemu/*.sh .ci/run
run "verdict: recorded run directories judged as each case expects, and make recheck" common/boot/tests/verdict.sh
run "snapshots: steps/*/tree regenerated from the patches match" common/boot/snapshot.sh --check
run "the configuration matrix's evidence lines: each matches its row's boot and not a plain boot" common/boot/tests/matrix-evidence.sh
run "expectation table: common/boot/expect.tsv agrees with the steps, doctored tables are refused" common/boot/tests/expect-table.sh
# Two checkpatch warnings are answered once, here, instead of per patch:
#  FILE_PATH_CHANGES asks whether MAINTAINERS needs updating when a file
#    is added or removed; the LOCKING PRIMITIVES entry covers these paths
#    by its globs (kernel/locking/, arch/*/include/asm/spinlock*.h, ...).
#  NEW_TYPEDEFS: <linux/spinlock_types_raw.h> requires the architecture
#    to provide the type arch_spinlock_t; the series defines it once.
for p in "${patches[@]}"; do
	run "checkpatch: ${p#"$TOP"/}" perl "$PRISTINE/scripts/checkpatch.pl" --root="$PRISTINE" \
		--ignore FILE_PATH_CHANGES,NEW_TYPEDEFS -q "$p"
done
# The series' cover letter, as make series writes it (its shortlog and
# diffstat are made from the patches), checked like them and --strict.
#  UNKNOWN_COMMIT_ID: checkpatch looks kernel commit ids up in git, and
#    there is no kernel history here (the ids come from the seeds).
# shellcheck disable=SC2317 # run calls it
cover_letter() {
	"$TOP/common/boot/series.sh" >/dev/null &&
		perl "$PRISTINE/scripts/checkpatch.pl" --root="$PRISTINE" --strict \
			--ignore UNKNOWN_COMMIT_ID -q "$BUILD/series/0000-cover-letter.patch"
}
run "checkpatch: the cover letter (make series: common/boot/series/cover-letter.txt)" cover_letter
# The project's own C in kernel style.  Not common/checker/shim/include/: the shim
# defines kernel APIs (barriers, IS_ENABLED) and trips the checks meant for
# their users.  One check answered here: USE_LOCKDEP asks qsl_torture to use
# lockdep_assert_held() where it tests spin_is_locked() itself.
run "checkpatch: the project's C (qsl_torture, guest init, lab, test modules, tsc-khz)" \
	perl "$PRISTINE/scripts/checkpatch.pl" --no-tree -q --ignore USE_LOCKDEP -f \
	common/boot/qsl-torture/*.c common/boot/guest/*.c common/lab/*.c common/lab/*.h \
	common/boot/tests/test-and-set-bit/*.c common/boot/tsc-khz.c
mkdir -p "$BUILD/tools"
# The lock checker: volatile and the externs are the sanitizer's ABI and
# the linker's section bounds; it is a userspace program without the
# kernel's attribute macros, and the atomic entry points are generated by
# multi-statement macros.
# litmus.c: its barriers are what the tests are about, and its
# spin_is_locked() is the observer of the LKMM tests, not an assertion.
# locks/: each defines arch_spinlock_t, a typedef by the kernel's API.
run "checkpatch: the lock checker's and the cost model's C (common/checker, common/costmodel)" \
	perl "$PRISTINE/scripts/checkpatch.pl" --no-tree -q \
	--ignore VOLATILE,AVOID_EXTERNS,PREFER_DEFINED_ATTRIBUTE_MACRO,COMPLEX_MACRO,SINGLE_STATEMENT_DO_WHILE_MACRO,MEMORY_BARRIER,USE_LOCKDEP,NEW_TYPEDEFS -f \
	common/checker/*.c common/checker/*.h common/checker/today/*.h \
	common/checker/today/*/*.h common/checker/today/*/*/*.h \
	common/costmodel/*.c common/costmodel/*.h common/costmodel/locks/*.h

run "guest init: common/boot/guest/init.c builds with -Wall -Wextra -Werror" \
	gcc -static -O2 -Wall -Wextra -Werror -o "$BUILD/tools/init-check" common/boot/guest/init.c
run "the host's clock: x86_64 guests under TCG are told the host's TSC rate, through the one probe pointed at fake files" common/boot/tests/host-clock.sh
run "bad input: make step-42, bench and lab-bench with bad values stop with a clear message" common/harness/tests/bad-input.sh
run "registries: models, litmus tests, mutants and plan rows agree wherever two files list them; every mutant and fault applies" common/harness/tests/registries.sh
run "a broken step directory (two patches, two directories of one number) stops every command that reads the series" common/boot/tests/broken-step.sh
run "the lock checker: a failure before the first event is a FAIL, and its replay replays it" common/checker/tests/checker-verdict.sh
run "the lock checker's audit catches a store and a load that escape the instrumentation" common/checker/tests/verify-audit.sh
run "the checker's builds are skipped only when nothing they read changed: a header, a linked object, a flag, a missing .d each rebuild" common/checker/tests/build-cache.sh
run "the lock checker against its reference search: the same behaviours, litmus answers and pinned counts" common/checker/verify-ref.sh --check
# the faults' kills (below) mean something only where the checker itself
# passes those rows: the faults' check waits for this one's status
ref_rc=$tmp/$((${#CHECKS[@]} - 1)).rc
run "herd7: the checker's sc, tso and weak answer 100 of the LKMM's and diy7's litmus tests, and the project's own, as herd7 does with models/*.cat; weak differs from the LKMM only where weak.cat does" \
	env HERD_MAX_EXECS=50000 HERD_TIMEOUT=20 common/checker/verify-herd.sh --sample 100 --sources "lkmm diy own"
# shellcheck disable=SC2317 # run calls it
faults() {
	while [ ! -f "$ref_rc" ]; do sleep 1; done
	[ "$(cat "$ref_rc")" -eq 0 ] || {
		echo "not run: the unmutated checker fails its own rows (the check above)"
		return 1
	}
	common/checker/verify-faults.sh --no-base
}
run "the lock checker's planted faults (common/checker/faults/): each killed by a wrong answer or a lost behaviour (the reference rows, or herd7), not by an execution count alone" faults
run "KTAP: kunit.py parse reads lib.sh's nested blocks and the recorded make test and make check output whole; doctored copies are refused" common/harness/tests/ktap.sh
run "book runs: every recorded file is there, its header names its command and commit" book/tools/book-runs.sh --check
run "book filter: every include.lua selection on the steps' files, every misuse stops pandoc" book/tools/tests/book-filter.sh
run "book: a chapter per step, HTML and EPUB render, every include, link and image resolves" book/tools/tests/book.sh
run "the book's recorded checker traces: each command, run again, prints what its file holds; a doctored copy is refused" book/tools/tests/book-runs-verify.sh
run "the cost model's claims (sim-bench, sim-overcommit, sim-sockets): the recorded results pass, doctored ones fail the claim they attack" common/costmodel/tests/sim-claims.sh
run "the cost model's headline figures move at most 5% for one cycle more of any class of operation; the first edition's schedule does not" common/costmodel/tests/sim-robust.sh
run "the cost model against lockhammer: one host's predictions keep their stated bounds and the record, doctored data is refused" common/costmodel/tests/sim-lockhammer.sh
run "make lab-scale's probe of the host: cores and sockets read from fake sysfs trees" common/lab/tests/lab-scale-topology.sh
run "make lab-uncontended: every lock's instructions and atomics per lock+unlock as book/lab/uncontended/results.csv records them; doctored records and bad arguments are refused" common/lab/tests/lab-uncontended.sh

ktap_begin check "${#CHECKS[@]}"
for i in "${!CHECKS[@]}"; do
	eval "set -- ${CHECK_CMDS[$i]}"
	start_check "${CHECKS[$i]}" "$@"
done
flush all
# where the time went: the five longest checks (they run side by side,
# so the seconds add up to more than the run's)
ktap_note "the longest checks (s):"
for i in "${!check_names[@]}"; do
	printf '%5d  %s\n' "$(cat "$tmp/$i.time" 2>/dev/null || echo 0)" "${check_names[$i]:0:100}"
done | sort -rn | head -5 | while IFS= read -r l; do ktap_note "$l"; done
rc=0
ktap_end || rc=$?
exec >&-
wait "$tee_pid" || true
exit "$rc"
