#!/bin/bash
# verify-lkmm.sh [--step N|today] [--models "sc tso weak"]: the lock
# checker's memory models against the Linux-kernel memory model's own
# litmus tests (common/checker/README.md, "Litmus tests").
#
# Translates every .litmus file of the 6.1 tree's
# tools/memory-model/litmus-tests/ and Documentation/litmus-tests/ with
# common/checker/lkmm-translate.awk into build/verify/lkmm/lkmm-tests.c,
# links it into one checker binary with one step's lock (today's by
# default: 6.1's own qspinlock.c), and asks each model of the checker
# whether each test's exists clause can hold.  The answer is compared with
# the test's "Result:" line, herd7's answer for the LKMM:
#   - weak: Sometimes must be reachable, Never must be never (Always: the
#     translation negates the clause, so never again);
#   - sc and tso: Never (and Always) must be never; Sometimes may be either,
#     both models being stronger than the LKMM.
# A difference of the weak model passes only where herd7 with weak.cat
# (common/checker/models/: the model's deviations from the LKMM as lines
# of a model) gives the checker's answer: the difference is then the
# models', computed, not typed.  Without herd7 (make herdtools) such a
# difference is a KTAP SKIP, never a pass.  A run that is not exhausted,
# times out or errs fails.  Ends with a KTAP
# block, the counts, and "verify-lkmm: N passed, N failed".
#
# Environment: LKMM_LOCK_BOUND, the weak model's reorderings per execution
# in the tests that take a lock (2, or none: unbounded); LKMM_TIMEOUT, the
# seconds one run may take (300).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

MODELS_ALL=$VERIFY_MODELS
usage() {
	die "usage: $0 [--step N|today] [--models \"$MODELS_ALL\"]
       (steps with a queued spinlock: $(lab_steps), and today)"
}

step=today models=$MODELS_ALL
while [ $# -gt 0 ]; do
	case $1 in
	--step)
		[ $# -ge 2 ] || usage
		step=$2
		shift
		;;
	--models)
		[ $# -ge 2 ] || usage
		models=$2
		shift
		;;
	-h | --help) usage ;;
	*) die "verify-lkmm: unknown argument '$1'" ;;
	esac
	shift
done
for m in $models; do
	case " $MODELS_ALL " in
	*" $m "*) ;;
	*) die "verify-lkmm: unknown memory model '$m'; valid models: $MODELS_ALL" ;;
	esac
done
[ -n "$models" ] || usage
if [ "$step" = today ]; then
	tree=$PRISTINE name=step-today-nr64
else
	step=$(checker_step verify-lkmm "$step")
	d=$(step_dir "$step")
	tree=$d/tree name=step-$((10#$step))-nr64
	[ -f "$tree/kernel/locking/qspinlock.c" ] ||
		die "verify-lkmm: steps/$(basename "$d") has no kernel/locking/qspinlock.c"
fi

OUT=$BUILD/verify/lkmm
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
TIMEOUT=${LKMM_TIMEOUT:-300}
LOCK_BOUND=${LKMM_LOCK_BOUND:-2}
case $LOCK_BOUND in
none | [1-9] | [1-9][0-9]) ;;
*) die "verify-lkmm: LKMM_LOCK_BOUND must be a number of reorderings or none, not '$LOCK_BOUND'" ;;
esac

# bound KIND MODEL: the options of one run.  A test on plain variables runs
# unbounded (exhaustive: its "never" is a proof).  One on a lock runs, under
# the weak model, within LKMM_LOCK_BOUND reorderings per execution (-w; 2
# by default, as verify.sh runs litmus.c's lock tests; "none": unbounded).
# Unbounded, today's lock exhausts every one of them in under 10 s but
# Z6.0+pooncelock+poonceLock+pombonce (2,000,000 executions in 20 s, -w 3:
# 227,252 in 2 s); step 1's does not exhaust three in 30 s each.
bound() {
	[ "$1" = lock ] && [ "$2" = weak ] && [ "$LOCK_BOUND" != none ] && echo "-w $LOCK_BOUND"
	return 0
}


t0=$(now)
"$TOP/common/boot/pristine.sh"
build_checker
files=()
while IFS= read -r f; do
	files+=("$f")
done < <(find "$PRISTINE/tools/memory-model/litmus-tests" "$PRISTINE/Documentation/litmus-tests" \
	-name '*.litmus' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || die "verify-lkmm: no .litmus file in $PRISTINE"
awk -v out="$OUT/lkmm-tests.c" -v root="$PRISTINE" -f "$VSRC/lkmm-translate.awk" \
	"${files[@]}" >"$OUT/lkmm-tests.tsv" ||
	die "verify-lkmm: the translation failed (common/checker/lkmm-translate.awk)"
say "verify-lkmm: ${#files[@]} tests, $(grep -c '	run	' "$OUT/lkmm-tests.tsv" || true) translated; building ${name#step-} with them"
bin=$(build "$tree" nr64 "$name" "$OUT/lkmm-tests.c") || die "verify-lkmm: $bin"
mkdir -p "$OUT/$name/logs"

# herd7's answer with weak.cat for every translated test, into the array
# weakcat (reachable or never), when herd7 is here
herd_ensure
declare -A weakcat=()
no_herd=$(herd_problem)
if [ -z "$no_herd" ] && [ " $models " != "${models/weak/}" ]; then
	mapfile -t run_files < <(awk -F'\t' -v root="$PRISTINE" '$6 == "run" { print root "/" $2 }' "$OUT/lkmm-tests.tsv")
	herd_cat "$VSRC/models/weak.cat" "${run_files[@]}" >"$OUT/herd-weak.log" 2>&1 || true
	while read -r t obs; do
		case $obs in Never) weakcat[$t]=never ;; Sometimes | Always) weakcat[$t]=reachable ;; esac
	done < <(awk '$1 == "Observation" { print $2, $3 }' "$OUT/herd-weak.log")
fi

ktap_begin verify-lkmm
agree=0 stated=0 failed=0 ran=0 unjudged=0
: >"$OUT/$name/results.tsv"
while IFS=$'\t' read -r tname _ result expect kind action _; do
	[ "$action" = run ] || continue
	ran=$((ran + 1))
	for m in $models; do
		copts=$(bound "$kind" "$m")
		log=$OUT/$name/logs/$tname-$m.log
		rc=0
		# shellcheck disable=SC2086 # copts is a list of options
		timeout "$TIMEOUT" "$bin" -q -m "$m" -L "lkmm:$tname" $copts >"$log" 2>&1 || rc=$?
		line=$(grep -m1 '^litmus ' "$log" || true)
		case $rc:$line in
		0:*": reachable: "*) got=reachable ;;
		0:*": never: "*) got=never ;;
		3:*)
			got=not-exhausted
			line="litmus lkmm:$tname $m: not exhausted within -x $(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) executions.*/\1/p')"
			;;
		124:*) got=timeout line="litmus lkmm:$tname $m: no answer within $TIMEOUT s" ;;
		*) got=error line="litmus lkmm:$tname $m: no answer, exit status $rc" ;;
		esac
		if [ "$m" = weak ]; then
			want=$expect
		elif [ "$result" = Sometimes ]; then
			want=either
		else
			want=never
		fi
		if [ "$got" != reachable ] && [ "$got" != never ]; then
			verdict="FAILED: $got (log: ${log#"$TOP"/})"
		elif [ "$want" = "$got" ] || [ "$want" = either ]; then
			verdict="agrees with the LKMM ($result)"
		elif [ "$m" = weak ] && [ -n "$no_herd" ]; then
			verdict="unjudged: differs from the LKMM ($result); herd7 with weak.cat would say whether the model means it, but $no_herd"
		elif [ "$m" = weak ] && [ "${weakcat[$tname]:-}" = "$got" ]; then
			verdict="differs from the LKMM ($result) as weak.cat does: herd7 with common/checker/models/weak.cat answers $got too"
		else
			verdict="FAILED: the LKMM says $result, so $m must answer $want${weakcat[$tname]:+ (herd7 with weak.cat: ${weakcat[$tname]})} (log: ${log#"$TOP"/})"
		fi
		case $verdict in
		FAILED*) failed=$((failed + 1)) rc=1 ;;
		differs*) stated=$((stated + 1)) rc=0 ;;
		unjudged*) unjudged=$((unjudged + 1)) rc=0 ;;
		*) agree=$((agree + 1)) rc=0 ;;
		esac
		if [ "${verdict%%:*}" = unjudged ]; then
			ktap_result 0 "$line${copts:+ [$copts]} # SKIP $verdict" "$log"
		else
			ktap_result "$rc" "$line${copts:+ [$copts]} -> $verdict" "$log"
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "$tname" "$m" "$got" "$want" "${verdict%%:*}" >>"$OUT/$name/results.tsv"
	done
done <"$OUT/lkmm-tests.tsv"

secs=$(($(now) - t0))
found=$(wc -l <"$OUT/lkmm-tests.tsv")
echo "# tests found: $found; translated and run: $ran (models: $models); skipped: $((found - ran))"
awk -F'\t' '$6 == "skip" { r = $7; sub(/ in P[0-9]+$/, "", r); n[r]++ }
	END { for (r in n) printf "#   skipped, %s: %d\n", r, n[r] }' "$OUT/lkmm-tests.tsv" | LC_ALL=C sort
echo "# runs: $((agree + stated + unjudged + failed)): $agree agree with the LKMM, $stated differ from it as weak.cat does (herd7), $unjudged differ unjudged (no herd7), $failed failed; $secs s (lock: ${name#step-}; tests: ${OUT#"$TOP"/}/lkmm-tests.c, logs: ${OUT#"$TOP"/}/$name/logs/)"
ktap_end
