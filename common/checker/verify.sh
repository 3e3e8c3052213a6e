#!/bin/bash
# verify.sh [--short] [--models "sc tso"] [--configs "c3a1 ..."] [STEP...]:
# the deterministic lock checker (common/checker/README.md).
#
# For every step with a queued spinlock (or the steps given), compile the
# step's kernel/locking/qspinlock.c and its headers, unmodified, with
# -fsanitize=thread against the checker's shim, link it with the checker,
# and run every configuration of common/checker/plan.tsv under every memory
# model (but the kill table's own rows, short "kill", unless --configs
# names them).  Steps whose qspinlock_types.h switches on CONFIG_NR_CPUS are
# checked in both layouts (nr64: pending byte, nr16k: one pending bit).
# Each run must PASS, except where common/checker/expect.tsv says the step
# has a known bug the checker must find: there it must FAIL.  Ends with a
# KTAP block, one result a run (lib.sh), and "verify: N passed, N failed"
# (passed: the answer the plan and the expectations ask for).
#
# --short: only the plan's rows marked short (make test).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

MODELS_ALL=$VERIFY_MODELS
usage() {
	die "usage: $0 [--short] [--models \"$MODELS_ALL\"] [--configs \"NAME...\"] [step...]
       (steps with a queued spinlock: $(lab_steps), and today; configurations: $(plan_names | tr '\n' ' ')litmus audit)"
}
plan_names() { tsv_columns common/checker/plan.tsv name; }

short=0 models=$MODELS_ALL configs="" only=() coverage=0
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=1 ;;
	--coverage) coverage=1 ;;
	--models)
		[ $# -ge 2 ] || usage
		models=$2
		shift
		;;
	--configs)
		[ $# -ge 2 ] || usage
		configs=$2
		shift
		;;
	-h | --help) usage ;;
	-*) die "verify: unknown option '$1'" ;;
	*)
		n=$(checker_step verify "$1")
		only+=("$n")
		;;
	esac
	shift
done
for m in $models; do
	case " $MODELS_ALL " in
	*" $m "*) ;;
	*) die "verify: unknown memory model '$m'; valid models: $MODELS_ALL" ;;
	esac
done
for c in $configs; do
	[ "$c" = litmus ] || [ "$c" = audit ] || plan_names | grep -qx -- "$c" ||
		die "verify: unknown configuration '$c'; valid ones: $(plan_names | tr '\n' ' ')litmus audit"
done

OUT=$BUILD/verify
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
mkdir -p "$OUT/logs"
build_checker

# build_variant DIR N VARIANT: compile step N's lock in one layout;
# $OUT/step-N-VARIANT/verify, or $OUT/step-N-VARIANT.buildfail with the
# reason.
build_variant() {
	local tree=$1/tree name=step-$2-$3 bin
	[ "$2" != today ] || tree=$PRISTINE
	rm -f "$OUT/$name.buildfail"
	bin=$(VERIFY_COVERAGE=$coverage build "$tree" "$3" "$name") || echo "$bin" >"$OUT/$name.buildfail"
}

# check_variant N VARIANT: run every selected row under every model on
# step N's lock in one layout (build_variant has compiled it); writes
# $OUT/NAME.out (the lines the reader sees), $OUT/NAME.rows (results.tsv
# rows) and $OUT/NAME.counts ("good bad executions").
check_variant() {
	local n=$1 v=$2 name=step-$1-$2 bin cname cshort sc_opts tso_opts weak_opts m copts
	local log want why rc line result got x verdict good=0 bad=0 execs=0
	: >"$OUT/$name.rows"
	bin=$OUT/$name/verify
	# gcov writes a counter file where its object was, less this many
	# leading directories, under GCOV_PREFIX; the litmus tests and the
	# audit count into a directory that nothing reads
	strip=$(printf '%s' "$OUT/$name" | tr -cd / | wc -c)
	export GCOV_PREFIX=$OUT/$name/gcda/other GCOV_PREFIX_STRIP=$strip
	{
		if [ -f "$OUT/$name.buildfail" ]; then
			echo "verify $name: FAIL $(cat "$OUT/$name.buildfail")"
			echo "0 1 0" >"$OUT/$name.counts"
			return
		fi
		while IFS=$'\t' read -r cname cshort sc_opts tso_opts weak_opts layouts; do
			row_on_layout "$layouts" "$v" || continue
			if [ -n "$configs" ]; then
				case " $configs " in *" $cname "*) ;; *) continue ;; esac
			elif [ "$cshort" = kill ] || { [ "$short" -eq 1 ] && [ "$cshort" != yes ]; }; then
				continue
			fi
			for m in $models; do
				copts=$(by_model "$m" "$sc_opts" "$tso_opts" "$weak_opts")
				[ "$copts" != - ] || continue
				log=$OUT/logs/$name-$m-$cname.log
				IFS=$'\t' read -r want why < <(expected "$n" "$v" "$m" "$cname")
				rc=0
				# --coverage: each row's counters in a directory of its
				# own (verify-coverage.sh --from-runs reads them)
				[ "$coverage" -eq 0 ] || rm -rf "$OUT/$name/gcda/$m-$cname"
				# shellcheck disable=SC2086 # copts is a list of options
				GCOV_PREFIX=$OUT/$name/gcda/$m-$cname GCOV_PREFIX_STRIP=$strip \
					timeout 600 "$bin" -q -m "$m" -N "step-$n/$v/$cname" $copts >"$log" 2>&1 || rc=$?
				line=$(grep -m1 '^verify ' "$log" || echo "verify step-$n/$v/$cname $m: FAIL: no verdict, exit status $rc (log: ${log#"$TOP"/})")
				case $rc in
				0) got=PASS ;;
				1) got=FAIL ;;
				3) case $copts in *-x*) got=PASS ;; *) got="PASS-BUDGET" ;; esac ;;
				*) got=ERROR ;;
				esac
				x=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) executions.*/\1/p; s/.*(execution \([0-9]*\),.*/\1/p' | head -1)
				execs=$((execs + ${x:-0}))
				result=$(grep -m1 '^result: ' "$log" || true)
				if [ "$got" = "$want" ] && ! pin=$(pin_check "step-$n/$v/$cname/$m [$copts]" "$result"); then
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: $pin (log: ${log#"$TOP"/})"
				elif [ "$got" = PASS ] && spurious_unused "$copts" "$result"; then
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: the row allows spurious wake-ups (-S) and took none (log: ${log#"$TOP"/})"
				elif [ "$got" = "$want" ]; then
					good=$((good + 1))
					verdict="ok"
					[ "$want" = FAIL ] && verdict="ok, a known bug ($why)"
				else
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: expected $want${why:+ ($why)}, got $got (log: ${log#"$TOP"/})"
				fi
				# One result for the KTAP block: passed, the line, the verdict.
				printf '%s\t%s -> %s\n' "$([ "$verdict" = "${verdict#NOT}" ] && echo 0 || echo 1)" "$line" "$verdict" >>"$OUT/$name.ktap"
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$v" "$m" "$cname" "$got" "${x:-0}" >>"$OUT/$name.rows"
			done
		done < <(tsv_columns common/checker/plan.tsv name short sc tso weak layouts)
		# The models' own tests (common/checker/litmus.c, each with what
		# every model must answer; verify -L list prints them): the lock
		# tests on every layout, the plain ones once (on today's, nr64).
		# Under the weak model the lock tests are bounded to 2 reorderings
		# and 3 preemptions (1 and 2 in make test's share): a search within
		# the bounds, the options shown on the line.  Unbounded, the Z6.0
		# tests do not exhaust in 2 million executions; within these
		# bounds every test exhausts, in 3 s at most.  On the pv layout
		# (halting waiters, bounded spins) the Z6.0 tests do not exhaust
		# within those in 2 million executions either: it keeps make
		# test's bounds.
		if ! "$bin" -L list >"$OUT/$name.litmus" 2>"$OUT/$name.litmus.err"; then
			bad=$((bad + 1))
			printf '1\t%s\n' "litmus $name: the tests' expectations (verify -L list): $(head -1 "$OUT/$name.litmus.err") -> NOT AS EXPECTED" >>"$OUT/$name.ktap"
			: >"$OUT/$name.litmus"
		fi
		while IFS=$'\t' read -r cname kind l_sc l_tso l_weak; do
			[ "$kind" = lock ] || [ "$name" = step-today-nr64 ] || continue
			if [ -n "$configs" ]; then
				case " $configs " in *" litmus "*) ;; *) continue ;; esac
			fi
			for m in $models; do
				want=$(by_model "$m" "$l_sc" "$l_tso" "$l_weak")
				copts=""
				# make test's share bounds the preemptions too: the
				# three-CPU lock tests take 40 s unbounded on step 1
				if [ "$kind" = lock ] && [ "$m" = weak ]; then
					copts="-w 2 -b 3"
					[ "$short" -eq 0 ] && [ "$v" != pv ] || copts="-w 1 -b 2"
				fi
				log=$OUT/logs/$name-$m-litmus-$cname.log
				rc=0
				# shellcheck disable=SC2086 # copts is a list of options
				timeout 600 "$bin" -q -m "$m" -L "$cname" $copts >"$log" 2>&1 || rc=$?
				line=$(grep -m1 '^litmus ' "$log" || echo "litmus $cname $m: no answer, exit status $rc (log: ${log#"$TOP"/})")
				case $rc:$line in
				0:*": reachable: "*) got=reachable ;;
				0:*": never: "*) got=never ;;
				3:*) got=NOT-EXHAUSTED ;;
				*) got=ERROR ;;
				esac
				x=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) executions.*/\1/p; s/.*after execution \([0-9]*\) .*/\1/p' | head -1)
				execs=$((execs + ${x:-0}))
				if [ "$got" = "$want" ] && ! pin=$(pin_check "step-$n/$v/litmus:$cname/$m [$copts]" "$(grep -m1 '^result: ' "$log" || true)"); then
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: $pin (log: ${log#"$TOP"/})"
				elif [ "$got" = "$want" ]; then
					good=$((good + 1))
					verdict="ok"
				else
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: the model must answer $want, it answered $got (log: ${log#"$TOP"/})"
				fi
				printf '%s\t%s%s -> %s\n' "$([ "$verdict" = ok ] && echo 0 || echo 1)" "$line" "${copts:+ [$copts]}" "$verdict" >>"$OUT/$name.ktap"
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$v" "$m" "litmus:$cname" "$got" "${x:-0}" >>"$OUT/$name.rows"
			done
		done < <([ ! -s "$OUT/$name.litmus" ] || tsv_columns "$OUT/$name.litmus" name kind sc tso weak)
		# The audit (common/checker/README.md, "Nothing escapes the
		# instrumentation"): the same executions without poison and with
		# two poison bytes.
		if [ -z "$configs" ] || case " $configs " in *" audit "*) true ;; *) false ;; esac then
			if audit_variant "$bin" "$name" "step-$n/$v" >"$OUT/$name.audit"; then
				good=$((good + 1))
				printf '0\t%s\n' "$(cat "$OUT/$name.audit")" >>"$OUT/$name.ktap"
			else
				bad=$((bad + 1))
				printf '1\t%s\n' "$(cat "$OUT/$name.audit")" >>"$OUT/$name.ktap"
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$v" sc audit "$audit_got" "$audit_execs" >>"$OUT/$name.rows"
			execs=$((execs + audit_execs))
		fi
		echo "$good $bad $execs" >"$OUT/$name.counts"
	} >"$OUT/$name.out" 2>&1
}


# expect_key N VARIANT: the expectations (common/checker/expect.tsv) that
# apply to step N's lock in one layout, without the step's number.
expect_key() {
	tsv_columns common/checker/expect.tsv stage variant model config expected why |
		awk -F'\t' -v s="$1" -v v="$2" '$1 == s && ($2 == v || $2 == "*") { $1 = ""; print }'
}

# One layout of one step per job, as many jobs as cores: first every
# layout is compiled, then each is run, and each job's lines are printed
# together when it ends, and in step order at the end.  A layout whose
# code disassembles the same as a layout run before it (same_code in
# checker/lib.sh), under the same expectations, is not run again: the
# checker's runs are a function of that code, so the earlier layout's
# results stand for it, and the summary says so (VERIFY_SAME_CODE=run
# runs it anyway).
jobs_max=${VERIFY_JOBS:-$(nproc)}
t0=$(now)
names=() dirs=()
"$TOP/common/boot/pristine.sh"
for d in $(step_dirs) today; do
	if [ "$d" = today ]; then
		n=today
	else
		n=$((10#$(basename "$d" | cut -c1-2)))
	fi
	if [ "${#only[@]}" -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$n"; then
		continue
	fi
	if [ "$d" = today ]; then
		# 6.1's own lock has both layouts too (the one-bit one above 16K CPUs).
		variants=$(checker_layouts today)
	else
		[ "$(expect_field "$n" x86_64 lab)" != - ] || continue
		[ -f "$d/tree/kernel/locking/qspinlock.c" ] ||
			die "common/boot/expect.tsv gives step $n a queued spinlock, but steps/$(basename "$d") has no kernel/locking/qspinlock.c"
		variants=$(checker_layouts "$n")
	fi
	for v in $variants; do
		names+=("step-$n-$v")
		dirs+=("$d")
	done
done
say "compiling each step's qspinlock.c for the checker: ${names[*]}"
for i in "${!names[@]}"; do
	job_slot "$jobs_max"
	IFS=- read -r _ n v <<<"${names[$i]}"
	build_variant "${dirs[$i]}" "$n" "$v" &
done
wait
declare -A same_as=()
ran=()
for name in "${names[@]}"; do
	IFS=- read -r _ n v <<<"$name"
	rm -f "$OUT/$name.counts" "$OUT/$name.ktap"
	if [ "${VERIFY_SAME_CODE:-}" != run ] && [ ! -f "$OUT/$name.buildfail" ]; then
		for r in "${ran[@]}"; do
			IFS=- read -r _ rn rv <<<"$r"
			if [ ! -f "$OUT/$r.buildfail" ] && [ "$(expect_key "$n" "$v")" = "$(expect_key "$rn" "$rv")" ] &&
				same_code "$OUT/$name" "$OUT/$r"; then
				same_as[$name]=$r
				break
			fi
		done
	fi
	rm -f "$OUT/$name.same_as"
	if [ -n "${same_as[$name]:-}" ]; then
		say "$name: the same code as ${same_as[$name]}, whose results stand for it"
		echo "${same_as[$name]}" >"$OUT/$name.same_as"
		continue
	fi
	job_slot "$jobs_max"
	say "$name: running the checker on the step's lock"
	check_variant "$n" "$v" &
	ran+=("$name")
done
wait
good=0 bad=0 execs_total=0
: >"$OUT/results.tsv"
# Whatever a job printed besides its results (a build error), then one
# KTAP block of every result, in step order: "ok N LINE -> ok" where the
# answer is the expected one.
for name in "${names[@]}"; do
	if [ -n "${same_as[$name]:-}" ]; then
		r=${same_as[$name]}
		IFS=- read -r _ n v <<<"$name"
		read -r g b x <"$OUT/$r.counts" 2>/dev/null || g=0 b=1
		# its rows are the earlier layout's, under its own name
		awk -F'\t' -v OFS='\t' -v n="$n" -v v="$v" '{ $1 = n; $2 = v; print }' "$OUT/$r.rows" >>"$OUT/results.tsv"
		if [ "$b" -eq 0 ]; then
			good=$((good + 1))
			ktap_defer 0 "verify $name: the same code as $r (qspinlock.o, api.o and litmus.o disassemble the same; the same expectations): its $g results stand -> ok"
		else
			bad=$((bad + 1))
			ktap_defer 1 "verify $name: the same code as $r, which failed -> NOT AS EXPECTED"
		fi
		continue
	fi
	cat "$OUT/$name.out"
	if [ -f "$OUT/$name.counts" ]; then
		read -r g b x <"$OUT/$name.counts"
	else
		ktap_defer 1 "verify $name: FAIL: the job ended without its counts (log: ${OUT#"$TOP"/}/$name.out)"
		g=0 b=1 x=0
	fi
	good=$((good + g)) bad=$((bad + b)) execs_total=$((execs_total + x))
	cat "$OUT/$name.rows" >>"$OUT/results.tsv"
	if [ -f "$OUT/$name.ktap" ]; then
		while IFS=$'\t' read -r r line; do
			ktap_defer "$r" "$line"
		done <"$OUT/$name.ktap"
	fi
done
secs=$(($(now) - t0))
[ $((good + bad)) -gt 0 ] || die "verify: nothing ran (no step and configuration matched)"
[ "${#KTAP_DEFERRED[@]}" -eq $((good + bad)) ] ||
	die "verify: $((good + bad)) results counted, ${#KTAP_DEFERRED[@]} recorded: the runner lost some"
echo "# $good as expected, $bad not: $execs_total executions in $secs s; table: ${OUT#"$TOP"/}/results.tsv, traces: ${OUT#"$TOP"/}/logs/"
rc=0
ktap_replay verify || rc=$?
# --coverage: the lines and branches of each step's lock the rows reached,
# per model, and the lines none reaches, each with its reason
# (verify-coverage.sh on the counters of these runs)
if [ "$coverage" -eq 1 ]; then
	echo
	if [ -n "$configs" ]; then
		say "verify: --coverage with --configs: the coverage of some rows says little; not reported"
	else
		cov_args=(--from-runs "$OUT" --models "$models")
		[ "$short" -eq 0 ] || cov_args+=(--short)
		"$TOP/common/checker/verify-coverage.sh" "${cov_args[@]}" "${only[@]}" || rc=1
	fi
fi
exit "$rc"
