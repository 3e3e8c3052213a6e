#!/bin/bash
# test.sh: the whole test suite (the README's test command, `make test`).
#  1. make check (no kernel build; it renders the book), the book in
#     headless Chromium at two widths, the lock checker
#     (short configurations) and its kill table, the cost model (make
#     sim-bench: the chapter's claims, results as recorded) and its host
#     of preempted vCPUs (make sim-overcommit, the same), its sockets
#     (make sim-sockets, the same), the userspace lab
#     (short), its kill table of the mutants (short) and its host
#     benchmark (one 100 ms repetition);
#  2. every step, and today's pristine tree, on the architectures
#     common/boot/expect.tsv marks as default "yes" or "test", booted under the
#     same torture plan; each must PASS (a step whose patch changes only
#     another architecture's arch/ files is not built again for this one:
#     step 8's x86_64 kernel is step 7's, a KTAP SKIP says so).  A row
#     marked "step" is a KTAP SKIP too: CI gives make test 90 minutes on a
#     machine whose ccache may be empty, where the parts before the first
#     boot take about 16 minutes and each kernel whose lock headers
#     change is a cold build of 3.5 to 4 minutes with its boot
#     (common/harness/README.md, "Where the time goes"); so make test boots step 0 (the
#     ticket lock, and the lock_busted control's kernel), 2 (the first
#     queue), 7 (the final layout), 8 on sparc64, 9 and 10 with and
#     without the hypervisor bit; steps 1, 3, 4, 5 and 6 and today are
#     booted by make step-N, make today and make soak, and their locks
#     run in the checker (and the steps' in the lab) of the same run
#     (part 1);
#  3. the benchmark's smoke run (make bench's pipeline, one short boot per
#     stage and vCPU count, steps 0, 7 and 10), and the configuration matrix's
#     cheap row (the newest x86_64 kernel with 8 vCPUs; make matrix);
#     herd7 against the checker (300 litmus tests, make verify-herd), and
#     klitmus7's modules of the LKMM's tests (every third) on the newest
#     x86_64 step's kernel, both its boots (make klitmus-N; without herdtools7's archive
#     both are a KTAP SKIP that names it);
#  4. negative controls, which must be judged FAIL for the named reason:
#     locktorture's lock_busted on step 0, and qsl_torture with its own
#     non-atomic lock on the newest step built for x86_64, and the
#     klitmus7 modules with a spin_lock() that does nothing on the same
#     kernel, prove a broken lock is caught.
# The whole run is one nested KTAP block, read whole by the 6.1 tree's
# kunit.py as its last part (ktap-read).  Ends with the seconds each part
# took and the summary, as KTAP diagnostic lines ("# ..."), and "test: N
# passed, N failed" (the parts).  The output is kept in
# build/test-output.txt.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

# The run is one KTAP block (lib.sh), nested as kunit.py reads it: one
# test a part, the plan first; a part that is a harness of its own
# (make check, the checker, the lab ...) is a subtest with its own block
# and plan; a step is a subtest whose tests are its boots.  Each result
# is printed as the part ends, and kept for the summary at the end.
SUMMARY=()
result() { # RC DESCRIPTION [SUMMARY-LINE]: a part's result
	ktap_result "$1" "$2"
	SUMMARY+=("$(if [ "$1" -eq 0 ]; then echo ok; else echo not ok; fi) $KTAP_N ${3:-$2}")
}
# ktap_sub_begin NAME COUNT (lib.sh), sub_result RC DESCRIPTION, sub_end:
# a part whose tests test.sh runs itself (a step's boots), as a subtest;
# its results go to the summary as they are printed.
sub_result() {
	ktap_result "$1" "$2"
	SUMMARY+=("    $(if [ "$1" -eq 0 ]; then echo ok; else echo not ok; fi) $KTAP_N $2")
}
sub_end() {
	local name=$KTAP_NAME rc=0
	ktap_sub_end || rc=$?
	result "$rc" "$name"
	# the summary shows the subtest's own results, not a line of its name
	unset 'SUMMARY[-1]'
}

# lastline NAME COMMAND...: run it as a part, the reader sees its output.
# A part that prints a KTAP block of its own (lib.sh) prints it as the
# subtest NAME; its result is NAME.  Of any other, the result is its last
# line, passed or failed by its exit status.  Either way the summary
# gives the last line.  A command that stops with an error says why on
# stderr: that line is kept (the reader saw it go by), so a failure is
# never recorded without its reason.
lastline() {
	local name=$1 rc last err
	shift
	KTAP_SUBTEST=$name KTAP_INDENT="    " "$@" 2>&1 >"$BUILD/test-last.out" | tee "$BUILD/test-last.err" >&2
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
	if grep -qxF "    # Subtest: $name" "$BUILD/test-last.out"; then
		result "$rc" "$name" "$name: $last"
	else
		result "$rc" "$name: $last"
	fi
}
# The parts, in the order they run: the plan is this list's length, one
# a step and today's tree (each a subtest of its boots), and the two
# negative controls.  part refuses a name that is not the list's next, so
# the list and the run cannot drift apart.
PARTS=("make check" "book-screens" "verify --short" "verify-mutants --counted"
	"verify-lkmm" "sim-bench" "sim-overcommit" "sim-sockets" "lab --short"
	"lab-mutants --short" "lab-bench --smoke" STEPS "test-and-set-bit"
	"module-lint" "bench --smoke" "matrix --smoke" "verify-herd --sample 300" "klitmus"
	CONTROLS "ktap-read")
PART_NEXT=0
# part_expect NAME: is NAME the next part of PARTS?  STEPS stands for
# every "step-N (...)" and "today (...)" part, CONTROLS for "control: ...".
part_expect() {
	local want
	while [ "$PART_NEXT" -lt "${#PARTS[@]}" ]; do
		want=${PARTS[$PART_NEXT]}
		case $want:$1 in
		"STEPS:step-"* | "STEPS:today "* | "CONTROLS:control: "*) return 0 ;;
		STEPS:* | CONTROLS:*) PART_NEXT=$((PART_NEXT + 1)) ;;
		*)
			[ "$want" = "$1" ] || die "test.sh: the part '$1' is not the next in PARTS ('$want'): add it to the list"
			PART_NEXT=$((PART_NEXT + 1))
			return 0
			;;
		esac
	done
	die "test.sh: the part '$1' is not in PARTS: add it to the list"
}
# part NAME: a part of the run begins (the previous one ends); the
# summary lists each part's seconds, so a reader sees where the time goes.
PART_TIMES=() part_name="" part_start=""
part() {
	local t
	[ -z "$1" ] || part_expect "$1"
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
# make test's boots run each torture test 5 s (DURATION overrides it): the
# path counters it requires are in the hundreds by then, and step 10's
# qsl_torture holds a lock for 50 ms five times a CPU, so a queue head
# halts.  make soak boots every stage for longer.
DURATION=$(duration_for test)
export DURATION
# every row make check and make test run is pinned: a missing count fails
export VERIFY_PIN_STRICT=1

# Everything test.sh prints goes to build/test-output.txt too: the last
# part reads it with kunit.py.
exec > >(tee "$BUILD/test-output.txt")
tee_pid=$!
# The plan: PARTS (above), with STEPS one a step and today's tree, and
# CONTROLS the two negative controls.
ktap_begin test $((${#PARTS[@]} - 2 + $(step_dirs | wc -l) + 1 + 3))

part "make check"
say "make check"
# Live, not through lastline: the reader sees each check as it ends.
set +e
KTAP_SUBTEST="make check" KTAP_INDENT="    " "$TOP/common/harness/check.sh" | tee "$BUILD/test-last.out"
rc=${PIPESTATUS[0]}
set -e
result "$rc" "make check" "make check: $(tail -1 "$BUILD/test-last.out")"

part "book-screens"
say "the book as a reader sees it: two chapters in headless Chromium at 1280 px and a phone's 390 px, nothing overflowing"
lastline "book-screens" "$TOP/book/tools/tests/book-screens.sh" --no-render

part "verify --short"
say "the lock checker, short configurations: every step's lock on simulated CPUs, SC, TSO and weak, litmus tests, audit"
lastline "verify --short" "$TOP/common/checker/verify.sh" --short
part "verify-mutants --counted"
say "the lock checker's kill table, every layout whose code a mutant changes (the unmutated rows verify --short just passed are not run again)"
lastline "verify-mutants --counted" "$TOP/common/checker/verify-mutants.sh" --counted --reuse
part "verify-lkmm"
say "the checker's models against the LKMM litmus suite of the 6.1 tree, translated by a program (lock tests within 1 reordering)"
lastline "verify-lkmm" env LKMM_LOCK_BOUND=1 "$TOP/common/checker/verify-lkmm.sh"

part "sim-bench"
say "the cost model: every lock on 1 to 64 simulated CPUs, the chapter's claims, the recorded results"
lastline "sim-bench" "$TOP/common/costmodel/sim.sh"
part "sim-overcommit"
say "the cost model's host: 4, 16 and 64 vCPUs on fewer cores, the paravirt chapters' claims, the recorded results"
lastline "sim-overcommit" "$TOP/common/costmodel/sim-overcommit.sh"
part "sim-sockets"
say "the cost model with sockets: 1 to 8 sockets, CNA, data in the lock's line, waits; the chapter's claims, the recorded results"
lastline "sim-sockets" "$TOP/common/costmodel/sim-sockets.sh"

part "lab --short"
say "the userspace lab, short version"
lastline "lab --short" "$TOP/common/lab/lab.sh" --short
part "lab-mutants --short"
say "the userspace lab's kill table, short version"
lastline "lab-mutants --short" "$TOP/common/lab/lab-mutants.sh" --short
part "lab-bench --smoke"
say "the userspace lab's host benchmark, one short repetition"
lastline "lab-bench --smoke" "$TOP/common/lab/lab-bench.sh" --smoke

# the boots that passed in this run, "STEP:ARCH"
declare -A passed_here=()
# the steps whose one-bit pending variant compiled in this run
declare -A variant_here=()
last_x86=0
for d in $(step_dirs) today; do
	if [ "$d" = today ]; then n=today; else n=$((10#$(basename "$d" | cut -c1-2))); fi
	mapfile -t arches < <(expect_arches "$n" "yes test")
	# The rows make test leaves to make step-N and make soak (the
	# header says why): a KTAP SKIP each.
	budget=()
	for a in $(expect_arches "$n" step); do
		if [ "$n" = today ]; then
			budget+=("today $a # SKIP left to make today and make soak, to fit CI's 90 minutes; 6.1's qspinlock.c ran in the checker above")
		else
			budget+=("step-$n $a # SKIP left to make step-$n and make soak, to fit CI's 90 minutes; step $n's qspinlock.c ran in the checker and the lab above")
		fi
	done
	# A step whose patch changes only another architecture's arch/ files
	# (step 8: arch/sparc/) gives this architecture the previous step's
	# sources, byte for byte: where that step has just passed here, its
	# boot stands for this one, said as a KTAP SKIP.  make step-N still
	# builds and boots it.
	skipped=()
	if [ "$n" != today ] && [ "$n" -gt 0 ]; then
		keep=()
		files=$(grep '^diff --git a/' "$(step_patch "$d")" | awk '{ print substr($3, 3) }')
		other=$(printf '%s\n' "$files" | grep -c -v -e '^arch/') || true
		for a in "${arches[@]}"; do
			case $a in x86_64) adir=arch/x86/ ;; sparc64) adir=arch/sparc/ ;; *) adir=- ;; esac
			mine=$(printf '%s\n' "$files" | grep -c -F "$adir") || true
			if [ "$other" -eq 0 ] && [ "$mine" -eq 0 ] && [ -n "${passed_here[$((n - 1)):$a]:-}" ]; then
				skipped+=("step-$n $a # SKIP its patch changes only other architectures' arch/ files: the $a kernel is step $((n - 1))'s, which passed above")
			else
				keep+=("$a")
			fi
		done
		arches=("${keep[@]}")
	fi
	case " ${arches[*]} " in *" x86_64 "*) [ "$n" = today ] || last_x86=$n ;; esac
	variant=$(expect_field "$n" x86_64 variant)
	if [ "${#arches[@]}" -gt 0 ]; then
		part "${n/#[0-9]*/step-$n} (build and boot: ${arches[*]})"
		say "make ${n/#[0-9]*/step-$n} (${arches[*]})"
	else
		part "${n/#[0-9]*/step-$n} (nothing to boot here)"
		say "${n/#[0-9]*/step-$n}: nothing to boot in make test (the KTAP SKIP lines say why)"
	fi
	# a subtest: its boots, skipped or run, and the variant's compile
	# a second x86_64 boot without the hypervisor bit, where the table
	# has one
	bares=()
	case " ${arches[*]} " in *" x86_64 "*) [ "$(expected_bare "$n" x86_64)" = - ] || bares=(x86_64) ;; esac
	ktap_sub_begin "${n/#[0-9]*/step-$n}" $((${#budget[@]} + ${#skipped[@]} + ${#arches[@]} + ${#bares[@]} + $([ "$variant" = nr16k ] && echo 1 || echo 0)))
	for v in "${budget[@]}" "${skipped[@]}"; do sub_result 0 "$v"; done
	# The reader sees the run; the verdict lines are kept for the summary.
	[ "${#arches[@]}" -eq 0 ] || "$TOP/common/boot/step.sh" "$n" "${arches[@]}" || true
	# Each boot's verdict, from its run directory.
	for a in "${arches[@]}" "${bares[@]/%/:bare}"; do
		dir=$(run_dir "$n" "${a%:bare}" "$([ "$a" = "${a%:bare}" ] || echo bare)")
		v=$(run_file "$dir" verdict.txt)
		case $(run_file "$dir" verdict) in
		PASS)
			sub_result 0 "$v"
			[ "$a" != "${a%:bare}" ] || passed_here[$n:$a]=1
			;;
		"") sub_result 1 "${n/#[0-9]*/step-$n} ${a/:bare/ $BARE_LABEL}: no verdict in ${dir#"$TOP"/}" ;;
		*) sub_result 1 "$v" ;;
		esac
	done
	# The one-bit pending variant no x86 config builds: compile it where
	# the expectation table says the step has one.
	# A skipped x86_64 boot has step n-1's sources, whose variant was
	# checked above.
	if [ "$variant" = nr16k ]; then
		if [[ " ${arches[*]} " != *" x86_64 "* ]] && [ -n "${variant_here[$((n - 1))]:-}" ]; then
			sub_result 0 "variant-check step-$n # SKIP its x86_64 sources are step $((n - 1))'s, checked above"
		elif v=$("$TOP/common/boot/variant-check.sh" "$n" x86_64 2>&1); then
			sub_result 0 "$(printf '%s\n' "$v" | tail -1)"
			variant_here[$n]=1
		else
			sub_result 1 "variant-check step-$n: $(printf '%s\n' "$v" | tail -1)"
		fi
	fi
	sub_end
done

part "test-and-set-bit"
# Step 4's primitive, built against the first x86_64 kernel this run
# built from step 4 on; the patches after step 4 up to it must leave the
# atomic headers alone, or it would not be step 4's.
tsb=""
for s in $(seq 4 "$last_x86"); do [ -z "${passed_here[$s:x86_64]:-}" ] || { tsb=$s && break; }; done
if [ -z "$tsb" ]; then
	result 1 "test-and-set-bit: no x86_64 kernel from step 4 on passed in this run to build it against"
elif touched=$(for s in $(seq 5 "$tsb"); do grep '^diff --git a/' "$(step_patch "$(step_dir "$s")")"; done | grep -E ' a/(arch/x86/include/asm|include/linux)/atomic\.h ') && [ -n "$touched" ]; then
	result 1 "test-and-set-bit: a patch between step 4 and step $tsb changes the atomic headers ($touched): step $tsb's primitive is not step 4's"
else
	say "step 4's x86 atomic_test_and_set_bit() with a bit number in a register, and its first version (built only), against step $tsb's kernel: no patch after step 4 changes the atomic headers"
	lastline "test-and-set-bit" "$TOP/common/boot/tests/test-and-set-bit.sh" "$tsb"
fi
part "module-lint"
say "qsl_torture with W=1 and sparse against step $last_x86, the newest x86_64 kernel this run built, and sparse's negative control (built only)"
lastline "module-lint" "$TOP/common/boot/tests/module-lint.sh" "$last_x86"

part "bench --smoke"
say "the benchmark's smoke run: make bench's whole pipeline, one short boot per configuration"
# Its own short runs (3 s): make test's DURATION is for the stages' boots.
lastline "bench --smoke" env DURATION= "$TOP/common/boot/bench.sh" --smoke

part "matrix --smoke"
say "the configuration matrix's cheap row: step $last_x86's kernel, built above, booted with 8 vCPUs (make matrix builds the rest)"
lastline "matrix --smoke" env MATRIX_STAGES="$last_x86" "$TOP/common/boot/matrix.sh" --smoke

part "verify-herd --sample 300"
say "herd7 against the checker: 300 of the LKMM's and diy7's litmus tests under sc, tso and weak, and weak against the LKMM"
lastline "verify-herd --sample 300" env HERD_MAX_EXECS=200000 HERD_TIMEOUT=20 "$TOP/common/checker/verify-herd.sh" --sample 300 --sources "lkmm diy own"

part "klitmus"
herd_missing=$(herd_problem)
if [ -n "$herd_missing" ]; then
	result 0 "klitmus-$last_x86 # SKIP $herd_missing"
else
	say "klitmus7: the LKMM's tests and the catalogue's locked/ (every 3rd) as kernel modules on step $last_x86's kernel; every state seen must be one herd7's LKMM allows"
	lastline "klitmus" env KLITMUS_SAMPLE=110 "$TOP/common/boot/klitmus.sh" "$last_x86" x86_64
fi

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
		result 0 "control $name: judged FAIL as it must be - $reason (run: ${dir#"$TOP"/})"
	else
		result 1 "control $name: expected FAIL ($want), got ${verdict:-no verdict}: $reason (run: ${dir#"$TOP"/})"
	fi
}
control "locktorture lock_busted on step 0" "lock_busted: locktorture reported failure" \
	"$(run_dir 0 x86_64 control-busted)" PLAN=lock_busted QSLTORTURE=off "$TOP/common/boot/step.sh" --tag control-busted 0 x86_64
# qsl_torture's own control: its locks replaced by a non-atomic
# test-and-set, on the newest step whose x86_64 kernel this run built;
# exclusion or the counts must break.
last=$last_x86
control "qsl_torture busted=1 on step $last" "qsl_torture: .*(took it while|owner became|lost updates)" \
	"$(run_dir "$last" x86_64 control-qslt-busted)" PLAN=none QSLTORTURE=busted=1 "$TOP/common/boot/step.sh" --tag control-qslt-busted "$last" x86_64

# klitmus7's control: the same modules with a spin_lock() that does
# nothing (klitmus-busted.h) must show a state the LKMM forbids.
if [ -n "$herd_missing" ]; then
	part "control: klitmus7 modules, busted lock"
	result 0 "control klitmus7 modules, busted lock # SKIP $herd_missing"
else
	control "klitmus7 modules with a busted spin_lock() on step $last" "saw a state the LKMM forbids" \
		"$(run_dir "$last" x86_64 klitmus-busted)" KLITMUS_BUSTED=1 KLITMUS_BARE=0 KLITMUS_SAMPLE=110 KLITMUS_SIZE=1000 \
		"$TOP/common/boot/klitmus.sh" "$last" x86_64
fi

# The last part: the kernel's own parser reads this run's output so far,
# with this part's result line as it will be if it passes.
part "ktap-read"
say "kunit.py parse (the 6.1 tree's) reads this run's output whole"
echo "# ktap-read: the output up to this line"
for _ in $(seq 100); do
	! grep -qx '# ktap-read: the output up to this line' "$BUILD/test-output.txt" || break
	sleep 0.1
done
cp "$BUILD/test-output.txt" "$BUILD/test-output-read.txt"
echo "ok $((KTAP_N + 1)) ktap-read" >>"$BUILD/test-output-read.txt"
rc=0
v=$("$TOP/common/harness/ktap-read.sh" "$BUILD/test-output-read.txt" 2>&1) || rc=$?
printf '%s\n' "$v"
result "$rc" "ktap-read" "ktap-read: $(printf '%s\n' "$v" | head -1 | sed "s|$BUILD/test-output-read.txt|make test's output|")"

part ""
echo
echo "# Time per part:"
printf '# %s\n' "${PART_TIMES[@]}"
echo "# Summary ($(($(now) - t_start)) s):"
printf '# %s\n' "${SUMMARY[@]}"
rc=0
ktap_end >"$BUILD/test-end.out" || rc=$?
# the plan's count, if it was not met, then the one line CI reads
grep -v '^test: ' "$BUILD/test-end.out" | sed 's/^/# /' || true
tail -1 "$BUILD/test-end.out"
exec >&-
wait "$tee_pid" || true
exit "$rc"
