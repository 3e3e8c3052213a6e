#!/bin/bash
# verify.sh [--short] [--models "sc tso"] [--configs "c3a1 ..."] [STEP...]:
# the deterministic lock checker (common/verify/README.md).
#
# For every step with a queued spinlock (or the steps given), compile the
# step's kernel/locking/qspinlock.c and its headers, unmodified, with
# -fsanitize=thread against the checker's shim, link it with the checker,
# and run every configuration of common/verify/plan.tsv under every memory
# model.  Steps whose qspinlock_types.h switches on CONFIG_NR_CPUS are
# checked in both layouts (nr64: pending byte, nr16k: one pending bit).
# Each run must PASS, except where common/verify/expect.tsv says the step
# has a known bug the checker must find: there it must FAIL.  Ends with
# "verify: N as expected, N not".
#
# --short: only the plan's rows marked short (make test).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

MODELS_ALL="sc tso"
usage() {
	die "usage: $0 [--short] [--models \"$MODELS_ALL\"] [--configs \"NAME...\"] [step...]
       (steps with a queued spinlock: 1..8; configurations: $(plan_names | tr '\n' ' '))"
}
plan_names() { grep -v '^#' common/verify/plan.tsv | cut -f1; }

short=0 models=$MODELS_ALL configs="" only=()
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=1 ;;
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
		d=$(step_dir "$1")
		[ -f "$d/tree/kernel/locking/qspinlock.c" ] ||
			die "verify: step $((10#$1)) has no queued spinlock; the checker runs steps with one: $(for s in $(step_dirs); do [ -f "$s/tree/kernel/locking/qspinlock.c" ] && printf '%s ' "$((10#$(basename "$s" | cut -c1-2)))"; done)"
		only+=("$((10#$1))")
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
	plan_names | grep -qx -- "$c" ||
		die "verify: unknown configuration '$c'; valid ones: $(plan_names | tr '\n' ' ')"
done

OUT=$BUILD/verify
# shellcheck source=common/scripts/verify-lib.sh
. "$TOP/common/scripts/verify-lib.sh"
mkdir -p "$OUT/logs"
build_checker

good=0 bad=0 execs_total=0
t0=$(now)
rows=()
for d in $(step_dirs); do
	n=$((10#$(basename "$d" | cut -c1-2)))
	if [ "${#only[@]}" -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$n"; then
		continue
	fi
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	variants=nr64
	grep -q CONFIG_NR_CPUS "$d/tree/include/asm-generic/qspinlock_types.h" && variants="nr64 nr16k"
	for v in $variants; do
		name=step-$n-$v
		say "$name: compiling the step's qspinlock.c for the checker"
		if ! bin=$(build "$d/tree" "$v" "$name"); then
			echo "verify $name: FAIL $bin"
			bad=$((bad + 1))
			continue
		fi
		while IFS=$'\t' read -r cname cshort sc_opts tso_opts _; do
			case $cname in '#'* | '') continue ;; esac
			if [ -n "$configs" ]; then
				case " $configs " in *" $cname "*) ;; *) continue ;; esac
			elif [ "$short" -eq 1 ] && [ "$cshort" != yes ]; then
				continue
			fi
			for m in $models; do
				case $m in
				sc) copts=$sc_opts ;;
				tso) copts=$tso_opts ;;
				esac
				[ "$copts" != - ] || continue
				log=$OUT/logs/$name-$m-$cname.log
				IFS=$'\t' read -r want why < <(expected "$n" "$v" "$m" "$cname")
				rc=0
				# shellcheck disable=SC2086 # copts is a list of options
				timeout 600 "$bin" -q -m "$m" -N "step-$n/$v/$cname" $copts >"$log" 2>&1 || rc=$?
				line=$(grep -m1 '^verify ' "$log" || echo "verify step-$n/$v/$cname $m: FAIL: no verdict, exit status $rc (log: ${log#"$TOP"/})")
				case $rc in
				0) got=PASS ;;
				1) got=FAIL ;;
				3) case $copts in *-x*) got=PASS ;; *) got="PASS-BUDGET" ;; esac ;;
				*) got=ERROR ;;
				esac
				x=$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) executions.*/\1/p; s/.*(execution \([0-9]*\),.*/\1/p' | head -1)
				execs_total=$((execs_total + ${x:-0}))
				if [ "$got" = "$want" ]; then
					good=$((good + 1))
					verdict="ok"
					[ "$want" = FAIL ] && verdict="ok, a known bug ($why)"
				else
					bad=$((bad + 1))
					verdict="NOT AS EXPECTED: expected $want${why:+ ($why)}, got $got (log: ${log#"$TOP"/})"
				fi
				printf '%s\n  -> %s\n' "$line" "$verdict"
				rows+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s' "$n" "$v" "$m" "$cname" "$got" "${x:-0}")")
			done
		done <common/verify/plan.tsv
	done
done
secs=$(($(now) - t0))
[ $((good + bad)) -gt 0 ] || die "verify: nothing ran (no step and configuration matched)"
printf '%s\n' "${rows[@]}" >"$OUT/results.tsv"
echo "verify: $good as expected, $bad not ($execs_total executions in $secs s; table: ${OUT#"$TOP"/}/results.tsv, traces: ${OUT#"$TOP"/}/logs/)"
[ "$bad" -eq 0 ]
