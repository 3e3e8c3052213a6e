#!/bin/bash
# mutants.sh [NAME...]: the boot kill table.  First the unmutated base
# step (the step of the booted mutants in common/boot/mutants/mutants.tsv) is booted under the default torture plan
# and must PASS: a table against a step that fails by itself would count
# its failure as kills.  Then each mutant of common/boot/mutants/ is booted as
# the stage N+NAME (the step with the mutant on top: what
# `make step-N+NAME` boots), built, booted the same way and judged.  Every
# boot is a run directory (build/runs/NN-m-NAME-x86_64/, the base's
# build/runs/NN-x86_64-mutant-base/); the table is read from their files:
#   PASS  -> survived;  FAIL -> killed (the first sign of trouble and when);
#   ERROR -> error: the harness could not build or boot it, never a kill.
# Prints the table and "mutants: N killed, N survived (N of kind x86),
# N errors"; exits non-zero if a mutant an x86 run must kill (boot x86 in
# common/boot/mutants/mutants.tsv) survived or any boot was an error.
#
# mutants.sh --table [--runs DIR] [NAME...]: no boot; the table of the
# run directories already recorded under DIR (default build/runs), which
# make book-runs records for the book.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

table_only=0 runs=$BUILD/runs
while [ $# -gt 0 ]; do
	case $1 in
	--table) table_only=1 ;;
	--runs)
		[ $# -ge 2 ] || die "usage: mutants.sh [--table [--runs DIR]] [NAME...]"
		runs=$2
		shift
		;;
	*) break ;;
	esac
	shift
done
step=$(mutant_base_step)
rows=$(mutant_rows "$@")
mapfile -t rows <<<"$rows"
base=$runs/$(run_id "$step" x86_64 mutant-base)

if [ "$table_only" -eq 0 ]; then
	say "the unmutated step $step first: every mutant is judged against it"
	"$TOP/common/boot/step.sh" --tag mutant-base "$step" x86_64 || true
	[ "$(run_file "$base" verdict)" = PASS ] ||
		die "the unmutated step $step did not pass ($(run_file "$base" verdict.txt)): its failures would be counted as kills; fix the step first"
	for row in "${rows[@]}"; do
		name=${row%%$'\t'*}
		kind=${row##*$'\t'}
		say "mutant $name ($kind): $(head -1 "$TOP/common/boot/mutants/$name.patch")"
		"$TOP/common/boot/step.sh" "$step+$name" x86_64 || true
	done
else
	[ -f "$base/verdict" ] || die "no run of the unmutated step $step in $runs (${base#"$runs"/}): run make mutants first"
	[ "$(run_file "$base" verdict)" = PASS ] ||
		die "the unmutated step $step did not pass in $runs ($(run_file "$base" verdict.txt)): the table would mean nothing"
fi

# The table, from the run directories.
table=() status=() desc=()
killed=0 survived=0 escaped=0 errors=0
for row in "${rows[@]}"; do
	name=${row%%$'\t'*}
	kind=${row##*$'\t'}
	dir=$runs/$(run_id "$step+$name" x86_64)
	reason=$(run_file "$dir" reason)
	when=-
	case $(run_file "$dir" verdict) in
	PASS)
		verdict=survived how=-
		survived=$((survived + 1))
		[ "$kind" = x86 ] && escaped=$((escaped + 1))
		;;
	FAIL)
		verdict=killed how=$reason
		killed=$((killed + 1))
		# The first sign of trouble and when it appeared, in guest seconds;
		# a guest that hung silently is dated by its last console line.
		log=$dir/console.log
		if [ -s "$log" ]; then
			first=$(tr -d '\r' <"$log" | grep -a -m1 -E "$BADNESS_RE|Fail: [1-9]|RESULT FAIL|End of test: FAILURE" || true)
			if [ -n "$first" ]; then
				when=$(printf '%s' "$first" | sed -n 's/^\[ *\([0-9.]*\)\].*/\1 s/p')
				how=$(printf '%s' "$first" | sed 's/^\[[^]]*\] *//')
			else
				last=$(tr -d '\r' <"$log" | grep -a '^\[ *[0-9.]*\]' | tail -1)
				when="hang after $(printf '%s' "$last" | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p') s"
				how="silent hang; last: $(printf '%s' "$last" | sed 's/^\[[^]]*\] *//')"
			fi
		fi
		;;
	*)
		# Not a verdict on the lock: the harness could not judge it.
		verdict=error how=${reason:-no verdict in ${dir#"$TOP"/}}
		errors=$((errors + 1))
		;;
	esac
	how=$(printf '%s' "$how" | cut -c1-80)
	table+=("$(printf '%-24s %-8s %-8s %-16s %s' "$name" "$kind" "$verdict" "$when" "$how")")
	# not ok: the harness could not judge it, or an x86 mutant survived;
	# an ordering mutant's survival is a finding, not a failure
	case $verdict:$kind in
	error:* | survived:x86) status+=(1) ;;
	*) status+=(0) ;;
	esac
	desc+=("mutant $name ($kind): $verdict$([ "$when" = - ] || echo ", $when"): $how")
done

# The kill table as KTAP: a result a mutant, the table as notes.
echo
ktap_begin mutants "${#table[@]}"
ktap_note "base: $(run_file "$base" verdict.txt)" \
	"$(printf '%-24s %-8s %-8s %-16s %s' mutant kind verdict "first sign" "how it failed")"
ktap_note "${table[@]}"
for i in "${!table[@]}"; do
	ktap_result "${status[$i]}" "${desc[$i]}"
done
ktap_end >/dev/null || true
echo "mutants: $killed killed, $survived survived ($escaped of kind x86), $errors errors"
[ "$escaped" -eq 0 ] && [ "$errors" -eq 0 ]
