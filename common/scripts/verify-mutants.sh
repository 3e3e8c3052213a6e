#!/bin/bash
# verify-mutants.sh [--counted] [NAME...]: the lock checker's kill table.
# --counted: only the models that must kill each mutant (make test); the
# "also run" models, reported and not counted, are skipped.
#
# Each mutant of common/verify/mutants.tsv (common/verify/mutants/NAME.patch,
# else common/mutants/NAME.patch) is applied to a copy of its
# step's tree, compiled for the checker exactly as verify.sh compiles the
# step, and checked under each model the table names, one configuration of
# common/verify/plan.tsv's short rows after the other, until one fails.
# A mutant is killed under a model when a configuration fails there; a
# mutant that survives a model that must kill it fails the run, and so
# does one that does not apply or compile.  Prints the kill table
# (executions to the first failure, trace length) and ends with
# "verify mutants: N killed, N survived where they must not, N errors".
# Before any mutant, each step they apply to runs unmutated under the same
# models and configurations, and must pass all of them: a kill means
# something only where the step itself survives.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

want=() counted_only=0
for a in "$@"; do
	case $a in
	--counted) counted_only=1 ;;
	-*) die "usage: $0 [--counted] [mutant...]  (mutants: $(grep -v '^#' common/verify/mutants.tsv | cut -f1 | tr '\n' ' '))" ;;
	*)
		grep -q "^$a	" common/verify/mutants.tsv ||
			die "verify-mutants: unknown mutant '$a'; valid: $(grep -v '^#' common/verify/mutants.tsv | cut -f1 | tr '\n' ' ')"
		want+=("$a")
		;;
	esac
done

OUT=$BUILD/verify
# shellcheck source=common/scripts/verify-lib.sh
. "$TOP/common/scripts/verify-lib.sh"
mkdir -p "$OUT/logs" "$OUT/mutant-src"
build_checker

# short_rows STEP MODEL: "NAME TAB OPTIONS" of each short row of
# common/verify/plan.tsv that runs under MODEL and that the unmutated
# STEP must pass (its own known bugs, in expect.tsv, kill nothing).
short_rows() {
	local cname cshort sc_opts tso_opts weak_opts copts
	while IFS=$'\t' read -r cname cshort sc_opts tso_opts weak_opts _; do
		case $cname in '#'* | '') continue ;; esac
		[ "$cshort" = yes ] || continue
		copts=$(by_model "$2" "$sc_opts" "$tso_opts" "$weak_opts")
		[ "$copts" != - ] || continue
		[ "$(expected "$1" nr64 "$2" "$cname" | cut -f1)" = PASS ] || continue
		printf '%s\t%s\n' "$cname" "$copts"
	done <common/verify/plan.tsv
}

# run_row BIN MODEL LABEL OPTIONS LOG: one row of the plan; its exit
# status is the checker's (0 pass, 1 fail, 3 budget spent).
run_row() {
	# shellcheck disable=SC2086 # OPTIONS is a list of options
	timeout 600 "$1" -q -m "$2" -N "$3" $4 >"$5" 2>&1
}

# check_mutant NAME STEP MUST ALSO: one mutant under its models; writes
# $OUT/mutant-NAME.table (its rows of the kill table) and
# $OUT/mutant-NAME.counts ("killed bad errors").
check_mutant() {
	local name=$1 step=$2 must=$3 also=$4 sdir tree patch bin models m res first
	local cname copts plan_rows log rc line x counted
	local killed=0 bad=0 errors=0
	: >"$OUT/mutant-$name.table"
	{
		sdir=$(step_dir "$step")
		tree=$OUT/mutant-src/$name
		rm -rf "$tree"
		cp -r "$sdir/tree" "$tree"
		patch=common/verify/mutants/$name.patch
		[ -f "$patch" ] || patch=common/mutants/$name.patch
		if ! (cd "$tree" && GIT_CEILING_DIRECTORIES=$(cd .. && pwd) git apply "$TOP/$patch"); then
			printf '%-24s %-5s %s\n' "$name" "$step" "ERROR: does not apply to step $step's tree" >>"$OUT/mutant-$name.table"
			echo "0 0 1" >"$OUT/mutant-$name.counts"
			return
		fi
		if ! bin=$(build "$tree" nr64 "mutant-$name"); then
			printf '%-24s %-5s %s\n' "$name" "$step" "ERROR: $bin" >>"$OUT/mutant-$name.table"
			echo "0 0 1" >"$OUT/mutant-$name.counts"
			return
		fi
		models="$must"
		[ "$counted_only" -eq 1 ] || models="$must $also"
		for m in ${models//-/}; do
			res="survived" first=""
			plan_rows=$(short_rows "$step" "$m")
			while IFS=$'\t' read -r cname copts; do
				[ -n "$cname" ] || continue
				log=$OUT/logs/mutant-$name-$m-$cname.log
				rc=0
				run_row "$bin" "$m" "mutant-$name/$cname" "$copts" "$log" || rc=$?
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
			counted=no
			case " $must " in *" $m "*) counted=yes ;; esac
			case $res in
			killed*) [ "$counted" = no ] || killed=$((killed + 1)) ;;
			survived) [ "$counted" = no ] || { bad=$((bad + 1)); res="SURVIVED (must be killed)"; } ;;
			esac
			[ "$counted" = yes ] || res="$res (reported, not counted)"
			printf '%-24s %-5s %-5s %-60s %s\n' "$name" "$step" "$m" "$res" "$(printf '%s' "$first" | cut -c1-90)" >>"$OUT/mutant-$name.table"
		done
		echo "$killed $bad $errors" >"$OUT/mutant-$name.counts"
	} 2>"$OUT/mutant-$name.err"
}

# check_base STEP MODELS: the unmutated step under the short rows the
# mutants are run on; writes $OUT/base-STEP.result, "PASS N" (N rows) or
# "FAIL what (log)".
check_base() {
	local step=$1 models=$2 sdir bin m cname copts plan_rows log rc n=0
	{
		sdir=$(step_dir "$step")
		if ! bin=$(build "$sdir/tree" nr64 "base-$step"); then
			echo "FAIL step $step does not compile for the checker: $bin" >"$OUT/base-$step.result"
			return
		fi
		for m in $models; do
			plan_rows=$(short_rows "$step" "$m")
			while IFS=$'\t' read -r cname copts; do
				[ -n "$cname" ] || continue
				log=$OUT/logs/base-$step-$m-$cname.log
				rc=0
				run_row "$bin" "$m" "step-$step/$cname" "$copts" "$log" || rc=$?
				if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
					echo "FAIL step $step unmutated, $cname under $m: exit $rc (log: ${log#"$TOP"/})" >"$OUT/base-$step.result"
					return
				fi
				n=$((n + 1))
			done <<<"$plan_rows"
		done
		echo "PASS $n" >"$OUT/base-$step.result"
	} 2>"$OUT/base-$step.err"
}

# The mutants chosen, and the models each step is run under.
declare -A base_models
rows=()
while IFS=$'\t' read -r name step must also; do
	case $name in '#'* | '') continue ;; esac
	if [ "${#want[@]}" -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then
		continue
	fi
	models="$must"
	[ "$counted_only" -eq 1 ] || models="$must $also"
	# --counted: a mutant no model must kill has nothing to run.
	[ -n "${models//[- ]/}" ] || continue
	rows+=("$name"$'\t'"$step"$'\t'"$must"$'\t'"$also")
	for m in ${models//-/}; do
		case " ${base_models[$step]:-} " in *" $m "*) ;; *) base_models[$step]="${base_models[$step]:-} $m" ;; esac
	done
done <common/verify/mutants.tsv

# One job per step, then one per mutant, as many jobs as cores
# (VERIFY_JOBS=N); the table in the order of common/verify/mutants.tsv.
jobs_max=${VERIFY_JOBS:-$(nproc)}
t0=$(now)
for step in "${!base_models[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n || true
	done
	say "verify step $step unmutated under${base_models[$step]}: it must pass before its mutants count"
	rm -f "$OUT/base-$step.result"
	check_base "$step" "${base_models[$step]}" &
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
	IFS=$'\t' read -r name step must also <<<"$row"
	patch=common/verify/mutants/$name.patch
	[ -f "$patch" ] || patch=common/mutants/$name.patch
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n || true
	done
	say "verify mutant $name (step $step): $(head -1 "$patch")"
	rm -f "$OUT/mutant-$name.counts"
	check_mutant "$name" "$step" "$must" "$also" &
	names+=("$name")
done
wait
killed=0 bad=0 errors=0 table=()
for name in "${names[@]}"; do
	if [ -f "$OUT/mutant-$name.counts" ]; then
		read -r k b e <"$OUT/mutant-$name.counts"
	else
		k=0 b=0 e=1
		echo "verify mutant $name: the job ended without its counts (errors: ${OUT#"$TOP"/}/mutant-$name.err)" >>"$OUT/mutant-$name.table"
	fi
	killed=$((killed + k)) bad=$((bad + b)) errors=$((errors + e))
	while IFS= read -r line; do
		table+=("$line")
	done <"$OUT/mutant-$name.table"
done

echo
echo "Lock checker kill table (the short configurations of common/verify/plan.tsv, first failure wins):"
printf '  %-24s %-5s %-5s %-60s %s\n' mutant step model result "first failure"
[ "${#table[@]}" -eq 0 ] || printf '  %s\n' "${table[@]}"
echo "verify mutants: $killed killed, $bad survived where they must not, $errors errors ($(($(now) - t0)) s)"
[ "$bad" -eq 0 ] && [ "$errors" -eq 0 ]
