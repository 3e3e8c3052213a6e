#!/bin/bash
# verify-mutants.sh [--counted] [NAME...]: the lock checker's kill table.
# --counted: only the models that must kill or must spare each mutant
# (make test); the "also run" models, reported and not counted, are
# skipped; a model it must survive runs only the rows the table names
# for it (the ones that kill it under the weaker model: the same
# schedule space, spared).  Without it, every model on every
# layout runs every row.  --reuse: a row of the unmutated step that verify.sh has just
# passed (build/verify/results.tsv, newer than the checker's objects) is
# not run again (make test runs verify.sh --short first).
#
# Each mutant of common/boot/mutants/mutants.tsv (common/checker/mutants/NAME.patch,
# else common/boot/mutants/NAME.patch) is applied to a copy of its step's tree
# and compiled for the checker exactly as verify.sh compiles the step, in
# each layout of the step.  A layout whose code the mutant does not change
# (qspinlock.o and api.o disassemble the same) is not run.  On the others
# it is checked under each model the table names, one row after the other
# (the rows the table names for it, the ones recorded as killing it,
# first; then the short rows of common/checker/plan.tsv), until one fails.
# A mutant is killed under a model on a layout when a row fails there.
# It must be killed under each model of its must column on every layout
# whose code it changes (MODEL@LAYOUT: on that layout only, for the
# reason in its why column), and survive each of its survive column;
# a must that survives fails the run, and so does a survive that is
# killed, a same-code claim whose code changed, and a mutant that does
# not apply or compile.  Prints the kill table (layout, model,
# executions to the first failure, trace length) and ends with
# "verify mutants: N killed, N survived where they must not, N errors".
# Before any mutant, each step they apply to runs unmutated, in each
# layout, under the same models and rows, and must pass all of them: a
# kill means something only where the step itself survives.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

want=() counted_only=0 reuse=0
for a in "$@"; do
	case $a in
	--counted) counted_only=1 ;;
	--reuse) reuse=1 ;;
	-*) die "usage: $0 [--counted] [mutant...]  (mutants: $(tsv_columns "$MUTANTS_TABLE" name | tr '\n' ' '))" ;;
	*)
		tsv_columns "$MUTANTS_TABLE" name | grep -qxF -- "$a" ||
			die "verify-mutants: unknown mutant '$a'; valid: $(tsv_columns "$MUTANTS_TABLE" name | tr '\n' ' ')"
		want+=("$a")
		;;
	esac
done

OUT=$BUILD/verify
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
mkdir -p "$OUT/logs" "$OUT/mutant-src"
build_checker
checker_objs

# plan_rows STEP VARIANT MODEL EXTRA [ONLY]: "NAME TAB OPTIONS" of each row
# of common/checker/plan.tsv named in EXTRA, in EXTRA's order, then (unless
# ONLY is 1 and EXTRA names some) of each short row, that runs under MODEL
# and that the unmutated STEP must pass (its own known bugs, in
# expect.tsv, kill nothing).
plan_rows() {
	local cname sc_opts tso_opts weak_opts layouts copts r plan
	{
		plan=$(tsv_columns common/checker/plan.tsv name short sc tso weak layouts)
		for r in $4; do
			awk -F'\t' -v r="$r" '$1 == r' <<<"$plan"
		done
		if [ "${5:-0}" != 1 ] || [ -z "${4// /}" ]; then
			awk -F'\t' -v x=" $4 " '$2 == "yes" && index(x, " " $1 " ") == 0' <<<"$plan"
		fi
	} | while IFS=$'\t' read -r cname _ sc_opts tso_opts weak_opts layouts; do
		[ -n "$cname" ] || continue
		row_on_layout "$layouts" "$2" || continue
		copts=$(by_model "$3" "$sc_opts" "$tso_opts" "$weak_opts")
		[ "$copts" != - ] || continue
		[ "$(expected "$1" "$2" "$3" "$cname" | cut -f1)" = PASS ] || continue
		printf '%s\t%s\n' "$cname" "$copts"
	done
}

# on_layout LIST LAYOUT: the models of a must or survive column ("-",
# MODEL or MODEL@LAYOUT, blank-separated) that hold on LAYOUT.
on_layout() {
	local e out=""
	for e in ${1//-/}; do
		case $e in
		*@"$2") out="$out ${e%@*}" ;;
		*@*) ;;
		*) out="$out $e" ;;
		esac
	done
	echo "${out# }"
}

# run_row BIN MODEL LABEL OPTIONS LOG: one row of the plan; its exit
# status is the checker's (0 pass, 1 fail, 3 budget spent).
run_row() {
	# shellcheck disable=SC2086 # OPTIONS is a list of options
	timeout 600 "$1" -q -m "$2" -N "$3" $4 >"$5" 2>&1
}

# check_mutant NAME STEP MUST SURVIVE ROWS ALSO: one mutant on every layout
# whose code it changes, under its models; writes $OUT/mutant-NAME.table
# (its rows of the kill table) and $OUT/mutant-NAME.counts ("killed bad
# errors").
check_mutant() {
	local name=$1 step=$2 must=$3 survive=$4 rows=$5 also=$6 why=$7 tree bin models m res first
	local cname copts plan_rows log rc line x role v only changed=0 must_v survive_v also_v e
	local changed_layouts=""
	local killed=0 bad=0 errors=0
	: >"$OUT/mutant-$name.table"
	{
		if ! tree=$(mutant_tree "$name" "$step"); then
			printf '%-30s %-5s %-6s %s\n' "$name" "$step" - "ERROR: $tree" >>"$OUT/mutant-$name.table"
			echo "0 0 1" >"$OUT/mutant-$name.counts"
			return
		fi
		for v in $(checker_layouts "$step"); do
			if ! bin=$(build "$tree" "$v" "mutant-$name-$v"); then
				printf '%-30s %-5s %-6s %s\n' "$name" "$step" "$v" "ERROR: $bin" >>"$OUT/mutant-$name.table"
				errors=$((errors + 1))
				continue
			fi
			if same_code "$OUT/mutant-$name-$v" "$OUT/base-$step-$v"; then
				printf '%-30s %-5s %-6s %-5s %s\n' "$name" "$step" "$v" - "the same code as step $step's: nothing to run" >>"$OUT/mutant-$name.table"
				continue
			fi
			changed=$((changed + 1))
			changed_layouts="$changed_layouts $v"
			must_v=$(on_layout "$must" "$v")
			survive_v=$(on_layout "$survive" "$v")
			# a model whose must or survive holds on other layouts only
			# is reported here, as the also models are
			also_v=${also//-/}
			for e in ${must//-/} ${survive//-/}; do
				case " $must_v $survive_v $also_v " in *" ${e%@*} "*) ;; *) also_v="$also_v ${e%@*}" ;; esac
			done
			models="$must_v $survive_v"
			[ "$counted_only" -eq 1 ] || models="$models $also_v"
			for m in $models; do
				role=also
				case " $must_v " in *" $m "*) role=must ;; esac
				case " $survive_v " in *" $m "*) role=survive ;; esac
				res="survived" first=""
				only=0
				[ "$counted_only" -eq 0 ] || [ "$role" != survive ] || only=1
				plan_rows=$(plan_rows "$step" "$v" "$m" "${rows//-/}" "$only")
				while IFS=$'\t' read -r cname copts; do
					[ -n "$cname" ] || continue
					log=$OUT/logs/mutant-$name-$v-$m-$cname.log
					rc=0
					run_row "$bin" "$m" "mutant-$name/$v/$cname" "$copts" "$log" || rc=$?
					if [ "$rc" -eq 1 ]; then
						line=$(grep -m1 '^verify ' "$log")
						x=$(printf '%s\n' "$line" | sed -n 's/.*(execution \([0-9]*\), \([0-9]*\) events.*/\1 executions, \2-event trace/p')
						res="killed by $cname ($x)"
						first=$(printf '%s\n' "$line" | sed 's/^[^:]*: FAIL: //; s/ (execution.*//')
						break
					elif [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
						res="ERROR (exit $rc, log: ${log#"$TOP"/})"
						errors=$((errors + 1))
						break
					fi
				done <<<"$plan_rows"
				case $role:$res in
				survive:killed*)
					bad=$((bad + 1))
					res="KILLED (an ordering mutant must survive $m: $res)"
					;;
				survive:survived)
					res="survived, as it must"
					[ "$only" -eq 0 ] || res="survived ${rows//-/}, the rows that kill it, as it must"
					;;
				also:*) res="$res (reported, not counted)" ;;
				esac
				printf '%-30s %-5s %-6s %-5s %-60s %s\n' "$name" "$step" "$v" "$m" "$res" "$(printf '%s' "$first" | cut -c1-90)" >>"$OUT/mutant-$name.table"
			done
		done
		# Killed: by every model it must die under, on every layout whose
		# code it changes and where that must holds.
		for v in $changed_layouts; do
			for m in $(on_layout "$must" "$v"); do
				if grep -qE "^$name +$step +$v +$m +killed" "$OUT/mutant-$name.table"; then
					killed=$((killed + 1))
				else
					bad=$((bad + 1))
					printf '%-30s %-5s %-6s %-5s %s\n' "$name" "$step" "$v" "$m" "SURVIVED on $v (must be killed there)" >>"$OUT/mutant-$name.table"
				fi
			done
		done
		[ "$why" = - ] || printf '%-30s %-5s %-6s %-5s %s\n' "$name" "$step" "" "" "why not every layout: $why" >>"$OUT/mutant-$name.table"
		if [ "$changed" -gt 0 ] && [ -z "${models//[- ]/}" ]; then
			printf '%-30s %-5s %-6s %-5s %s\n' "$name" "$step" all - "its code changed; run under $also without --counted (reported, not counted)" >>"$OUT/mutant-$name.table"
		fi
		if [ "$must" = - ] && [ "$also" = - ] && [ "$changed" -gt 0 ]; then
			bad=$((bad + 1))
			printf '%-30s %-5s %-6s %-5s %s\n' "$name" "$step" all - "CODE CHANGED: the claim that gcc produces the same code no longer holds" >>"$OUT/mutant-$name.table"
		fi
		echo "$killed $bad $errors" >"$OUT/mutant-$name.counts"
	} 2>"$OUT/mutant-$name.err"
}

# check_base STEP MODELS ROWS: the unmutated step, on each of its layouts,
# under the short rows and ROWS; writes $OUT/base-STEP.result, "PASS N"
# (N rows) or "FAIL what (log)".  Its builds are what the mutants' code is
# compared with.
check_base() {
	local step=$1 models=$2 rows=$3 sdir bin m cname copts plan_rows log rc n=0 v
	{
		sdir=$(step_dir "$step")
		for v in $(checker_layouts "$step"); do
			if ! bin=$(build "$sdir/tree" "$v" "base-$step-$v"); then
				echo "FAIL step $step does not compile for the checker: $bin" >"$OUT/base-$step.result"
				return
			fi
			for m in $models; do
				plan_rows=$(plan_rows "$step" "$v" "$m" "$rows")
				while IFS=$'\t' read -r cname copts; do
					[ -n "$cname" ] || continue
					log=$OUT/logs/base-$step-$v-$m-$cname.log
					if [ "$reuse" -eq 1 ] && [ "$OUT/results.tsv" -nt "${OBJS[-1]}" ] &&
						grep -q "^$step	$v	$m	$cname	PASS	" "$OUT/results.tsv"; then
						n=$((n + 1))
						continue
					fi
					rc=0
					run_row "$bin" "$m" "step-$step/$v/$cname" "$copts" "$log" || rc=$?
					if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
						echo "FAIL step $step unmutated ($v), $cname under $m: exit $rc (log: ${log#"$TOP"/})" >"$OUT/base-$step.result"
						return
					fi
					n=$((n + 1))
				done <<<"$plan_rows"
			done
		done
		echo "PASS $n" >"$OUT/base-$step.result"
	} 2>"$OUT/base-$step.err"
}

# The mutants chosen, and the models each step is run under.
declare -A base_models base_rows
rows=()
while IFS=$'\t' read -r name step must survive xrows also why; do
	if [ "${#want[@]}" -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then
		continue
	fi
	models="$must $survive"
	[ "$counted_only" -eq 1 ] || models="$models $also"
	models=$(for e in ${models//-/}; do echo "${e%@*}"; done | xargs)
	rows+=("$name"$'\t'"$step"$'\t'"$must"$'\t'"$survive"$'\t'"$xrows"$'\t'"$also"$'\t'"$why")
	base_models[$step]="${base_models[$step]:-}"
	for m in ${models//-/}; do
		case " ${base_models[$step]} " in *" $m "*) ;; *) base_models[$step]="${base_models[$step]} $m" ;; esac
	done
	for r in ${xrows//-/}; do
		case " ${base_rows[$step]:-} " in *" $r "*) ;; *) base_rows[$step]="${base_rows[$step]:-} $r" ;; esac
	done
done < <(tsv_columns "$MUTANTS_TABLE" name step must survive rows also why)

# One job per step, then one per mutant, as many jobs as cores
# (VERIFY_JOBS=N); the table in the order of common/boot/mutants/mutants.tsv.
jobs_max=${VERIFY_JOBS:-$(nproc)}
t0=$(now)
for step in "${!base_models[@]}"; do
	job_slot "$jobs_max"
	say "verify step $step unmutated under${base_models[$step]}: it must pass before its mutants count"
	rm -f "$OUT/base-$step.result"
	check_base "$step" "${base_models[$step]}" "${base_rows[$step]:-}" &
done
wait
for step in $(printf '%s\n' "${!base_models[@]}" | sort -n); do
	r=$(cat "$OUT/base-$step.result" 2>/dev/null) || r="FAIL the job ended without a result (errors: ${OUT#"$TOP"/}/base-$step.err)"
	case $r in
	PASS*) say "verify step $step unmutated: PASS (${r#PASS } rows)" ;;
	*) die "verify mutants: ${r#FAIL }; a kill table of this step would mean nothing: fix the step first" ;;
	esac
done

names=()
for row in "${rows[@]}"; do
	IFS=$'\t' read -r name step must survive xrows also why <<<"$row"
	patch=$(mutant_patch "$name")
	job_slot "$jobs_max"
	say "verify mutant $name (step $step): $(head -1 "$patch")"
	rm -f "$OUT/mutant-$name.counts"
	check_mutant "$name" "$step" "$must" "$survive" "$xrows" "$also" "$why" &
	names+=("$name")
done
wait
# The kill table, as KTAP: one result a mutant, its rows of the table
# (every layout and model it ran) as the notes before it.
killed=0 bad=0 errors=0
ktap_begin verify-mutants "${#names[@]}"
ktap_note "Lock checker kill table (the short configurations of common/checker/plan.tsv, first failure wins):" \
	"$(printf '  %-30s %-5s %-6s %-5s %-60s %s' mutant step layout model result "first failure")"
for name in "${names[@]}"; do
	if [ -f "$OUT/mutant-$name.counts" ]; then
		read -r k b e <"$OUT/mutant-$name.counts"
	else
		k=0 b=0 e=1
		echo "verify mutant $name: the job ended without its counts (errors: ${OUT#"$TOP"/}/mutant-$name.err)" >>"$OUT/mutant-$name.table"
	fi
	killed=$((killed + k)) bad=$((bad + b)) errors=$((errors + e))
	while IFS= read -r line; do
		ktap_note "  $line"
	done <"$OUT/mutant-$name.table"
	ktap_result $((b + e > 0)) "mutant $name: $k killed where it must be, $b survived where it must not, $e errors"
done
# the plan's count of results, then the line the callers read
ktap_end >/dev/null || true
echo "verify mutants: $killed killed, $bad survived where they must not, $errors errors ($(($(now) - t0)) s)"
[ "$bad" -eq 0 ] && [ "$errors" -eq 0 ]
