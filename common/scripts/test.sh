#!/bin/bash
# test.sh: the whole test suite (the README's test command, `make test`).
#  1. make check (no kernel build; it renders the book), the book in
#     headless Chromium at two widths, the lock checker
#     (short configurations) and its kill table, the cost model (make
#     sim-bench: the chapter's claims, results as recorded), the userspace lab
#     (short), its kill table of the mutants (short) and its host
#     benchmark (one 100 ms repetition);
#  2. every step, and today's pristine tree, booted on the architectures
#     common/expect.tsv marks as default, under the same torture plan;
#     each must PASS (a step whose patch changes only another
#     architecture's arch/ files is not built again for this one: step
#     8's x86_64 kernel is step 7's, a KTAP SKIP says so);
#  3. the benchmark's smoke run (make bench's pipeline, one short boot per
#     stage and vCPU count);
#  4. negative controls, which must be judged FAIL for the named reason:
#     locktorture's lock_busted on step 0, and qsl_torture with its own
#     non-atomic lock on the newest step built for x86_64, prove a
#     broken lock is caught.
# Ends with the seconds each part took, the summary, a KTAP block (ok N /
# not ok N, the plan), and "test: N passed, N failed".
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

# Each check's result is kept for the summary, a KTAP block (lib.sh).
record() { ktap_defer "$@"; } # RC LINE

# lastline NAME COMMAND...: run it, the reader sees its output; record
# its last line, passed or failed by its exit status.  A command that
# stops with an error says why on stderr: the summary records that line
# (the reader saw it go by), so a failure is never recorded without its
# reason.
lastline() {
	local name=$1 rc last err
	shift
	"$@" 2>&1 >"$BUILD/test-last.out" | tee "$BUILD/test-last.err" >&2
	rc=${PIPESTATUS[0]}
	cat "$BUILD/test-last.out"
	last=$(tail -1 "$BUILD/test-last.out")
	if [ "$rc" -ne 0 ]; then
		# An error: line first, then the verdict on stdout, then anything.
		err=$(grep -a '^error: ' "$BUILD/test-last.err" | tail -1) || true
		last=${err:-$last}
		last=${last:-$(grep -a . "$BUILD/test-last.err" | tail -1)} || true
		last=${last:-exit status $rc, and no message}
	fi
	record "$rc" "$name: $last"
}
# part NAME: a part of the run begins (the previous one ends); the
# summary lists each part's seconds, so a reader sees where the time goes.
PART_TIMES=() part_name="" part_start=""
part() {
	local t
	t=$(now)
	if [ -n "$part_name" ]; then
		PART_TIMES+=("$(printf '%5d s  %s' $((t - part_start)) "$part_name")")
		# said as each part ends too: a run stopped from outside (CI's
		# time limit) still shows where its time went
		say "make test: $part_name took $((t - part_start)) s ($((t - t_start)) s since make test began)"
	fi
	part_name=$1 part_start=$t
}
mkdir -p "$BUILD"
t_start=$(now)
# make test's boots run each torture test 8 s (DURATION overrides it): the
# path counters it requires are in the thousands by then.  make soak boots
# every stage for longer.
DURATION=${DURATION:-8}
check_number DURATION "$DURATION" 1 3600
export DURATION
# every row make check and make test run is pinned: a missing count fails
export VERIFY_PIN_STRICT=1

part "make check"
say "make check"
if "$TOP/common/scripts/check.sh"; then record 0 "make check"; else record 1 "make check"; fi

part "book-screens"
say "the book as a reader sees it: two chapters in headless Chromium at 1280 px and a phone's 390 px, nothing overflowing"
lastline "book-screens" "$TOP/common/tests/book-screens.sh" --no-render

part "verify --short"
say "the lock checker, short configurations: every step's lock on simulated CPUs, SC, TSO and weak, litmus tests, audit"
lastline "verify --short" "$TOP/common/scripts/verify.sh" --short
part "verify-mutants --counted"
say "the lock checker's kill table, every layout whose code a mutant changes (the unmutated rows verify --short just passed are not run again)"
lastline "verify-mutants --counted" "$TOP/common/scripts/verify-mutants.sh" --counted --reuse
part "verify-lkmm"
say "the checker's models against the LKMM litmus suite of the 6.1 tree, translated by a program (lock tests within 1 reordering)"
lastline "verify-lkmm" env LKMM_LOCK_BOUND=1 "$TOP/common/scripts/verify-lkmm.sh"

part "sim-bench"
say "the cost model: every lock on 1 to 64 simulated CPUs, the chapter's claims, the recorded results"
lastline "sim-bench" "$TOP/common/scripts/sim.sh"

part "lab --short"
say "the userspace lab, short version"
lastline "lab --short" "$TOP/common/scripts/lab.sh" --short
part "lab-mutants --short"
say "the userspace lab's kill table, short version"
lastline "lab-mutants --short" "$TOP/common/scripts/lab-mutants.sh" --short
part "lab-bench --smoke"
say "the userspace lab's host benchmark, one short repetition"
lastline "lab-bench --smoke" "$TOP/common/scripts/lab-bench.sh" --smoke

# the boots that passed in this run, "STEP:ARCH"
declare -A passed_here=()
# the steps whose one-bit pending variant compiled in this run
declare -A variant_here=()
last_x86=0
for d in $(step_dirs) today; do
	if [ "$d" = today ]; then n=today; else n=$((10#$(basename "$d" | cut -c1-2))); fi
	mapfile -t arches < <(awk -v s="$n" '$1 == s && ($4 == "yes" || $4 == "test") { print $2 }' "$TOP/common/expect.tsv")
	# A step whose patch changes only another architecture's arch/ files
	# (step 8: arch/sparc/) gives this architecture the previous step's
	# sources, byte for byte: where that step has just passed here, its
	# boot stands for this one, said as a KTAP SKIP.  make step-N still
	# builds and boots it.
	if [ "$n" != today ] && [ "$n" -gt 0 ]; then
		keep=()
		files=$(grep '^diff --git a/' "$(step_patch "$d")" | awk '{ print substr($3, 3) }')
		other=$(printf '%s\n' "$files" | grep -c -v -e '^arch/') || true
		for a in "${arches[@]}"; do
			case $a in x86_64) adir=arch/x86/ ;; sparc64) adir=arch/sparc/ ;; *) adir=- ;; esac
			mine=$(printf '%s\n' "$files" | grep -c -F "$adir") || true
			if [ "$other" -eq 0 ] && [ "$mine" -eq 0 ] && [ -n "${passed_here[$((n - 1)):$a]:-}" ]; then
				record 0 "step-$n $a: # SKIP its patch changes only other architectures' arch/ files: the $a kernel is step $((n - 1))'s, which passed above"
			else
				keep+=("$a")
			fi
		done
		arches=("${keep[@]}")
	fi
	case " ${arches[*]} " in *" x86_64 "*) [ "$n" = today ] || last_x86=$n ;; esac
	part "${n/#[0-9]*/step-$n} (build and boot: ${arches[*]})"
	say "make ${n/#[0-9]*/step-$n} (${arches[*]})"
	# The reader sees the run; the verdict lines are kept for the summary.
	[ "${#arches[@]}" -eq 0 ] || "$TOP/common/scripts/step.sh" "$n" "${arches[@]}" || true
	# Each boot's verdict, from its run directory.
	for a in "${arches[@]}"; do
		dir=$(run_dir "$n" "$a")
		v=$(run_file "$dir" verdict.txt)
		case $(run_file "$dir" verdict) in
		PASS)
			record 0 "$v"
			passed_here[$n:$a]=1
			;;
		"") record 1 "${n/#[0-9]*/step-$n} $a: no verdict in ${dir#"$TOP"/}" ;;
		*) record 1 "$v" ;;
		esac
	done
	# The one-bit pending variant no x86 config builds: compile it where
	# the expectation table says the step has one.
	# A skipped x86_64 boot has step n-1's sources, whose variant was
	# checked above.
	if [ "$(awk -v s="$n" '$1 == s && $2 == "x86_64" { print $6 }' "$TOP/common/expect.tsv")" = nr16k ]; then
		if [[ " ${arches[*]} " != *" x86_64 "* ]] && [ -n "${variant_here[$((n - 1))]:-}" ]; then
			record 0 "variant-check step-$n: # SKIP its x86_64 sources are step $((n - 1))'s, checked above"
		elif v=$("$TOP/common/scripts/variant-check.sh" "$n" x86_64 2>&1); then
			record 0 "$(printf '%s\n' "$v" | tail -1)"
			variant_here[$n]=1
		else
			record 1 "variant-check step-$n: $(printf '%s\n' "$v" | tail -1)"
		fi
	fi
done

part "test-and-set-bit"
say "step 4's x86 atomic_test_and_set_bit() with a bit number in a register, and its first version (built only)"
lastline "test-and-set-bit" "$TOP/common/tests/test-and-set-bit.sh" 4
part "module-lint"
say "qsl_torture with W=1 and sparse against step $last_x86, the newest x86_64 kernel this run built, and sparse's negative control (built only)"
lastline "module-lint" "$TOP/common/tests/module-lint.sh" "$last_x86"

part "bench --smoke"
say "the benchmark's smoke run: make bench's whole pipeline, one short boot per configuration"
# Its own short runs (3 s): make test's DURATION is for the stages' boots.
lastline "bench --smoke" env DURATION= "$TOP/common/scripts/bench.sh" --smoke

# A negative control passes when the harness judges the broken run FAIL
# for the expected reason; any other outcome (PASS, or FAIL for some other
# reason) means the harness cannot be trusted to see that kind of bug.
control() { # name expected-reason-regex run-dir step.sh-env... step.sh args...
	local name=$1 want=$2 dir=$3 verdict reason
	shift 3
	part "control: $name"
	say "negative control: $name (must be judged FAIL: $want)"
	env "$@" || true
	verdict=$(run_file "$dir" verdict)
	reason=$(run_file "$dir" reason)
	if [ "$verdict" = FAIL ] && [[ $reason =~ $want ]]; then
		record 0 "control $name: judged FAIL as it must be - $reason (run: ${dir#"$TOP"/})"
	else
		record 1 "control $name: expected FAIL ($want), got ${verdict:-no verdict}: $reason (run: ${dir#"$TOP"/})"
	fi
}
control "locktorture lock_busted on step 0" "lock_busted: locktorture reported failure" \
	"$(run_dir 0 x86_64 control-busted)" PLAN=lock_busted QSLTORTURE=off "$TOP/common/scripts/step.sh" --tag control-busted 0 x86_64
# qsl_torture's own control: its locks replaced by a non-atomic
# test-and-set, on the newest step whose x86_64 kernel this run built;
# exclusion or the counts must break.
last=$last_x86
control "qsl_torture busted=1 on step $last" "qsl_torture: .*(took it while|owner became|lost updates)" \
	"$(run_dir "$last" x86_64 control-qslt-busted)" PLAN=none QSLTORTURE=busted=1 "$TOP/common/scripts/step.sh" --tag control-qslt-busted "$last" x86_64

part ""
echo
echo "Time per part:"
printf '%s\n' "${PART_TIMES[@]}"
echo "Summary ($(($(now) - t_start)) s):"
ktap_replay test
