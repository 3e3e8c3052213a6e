#!/bin/bash
# mutants.sh [NAME...]: apply each mutant in common/mutants/ to step 7,
# build it, boot it under the default torture plan and see whether the
# harness kills it.  Prints a table (mutant, kind, verdict, how it failed,
# when) and "mutants: N killed, N survived"; exits non-zero if a mutant
# an x86 run must kill (kind x86 in list.tsv) survived.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

step=7
list=$TOP/common/mutants/list.tsv
mapfile -t rows < <(grep -v '^#' "$list" | grep .)
want=("$@")
table=()
killed=0 survived=0 escaped=0
for row in "${rows[@]}"; do
	name=${row%%$'\t'*}
	kind=${row##*$'\t'}
	if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qxF "$name"; then
		continue
	fi
	say "mutant $name ($kind): $(head -1 "$TOP/common/mutants/$name.patch")"
	start=$(now)
	v=$(MUTANT=$name TAG=mutant "$TOP/common/scripts/step.sh" "$step" x86_64 | tail -1) || true
	secs=$(($(now) - start))
	log=$(printf '%s' "$v" | sed -n 's/.*(log: \(.*\))$/\1/p')
	case $v in
	*": PASS "*)
		verdict=survived
		how="-"
		when="-"
		survived=$((survived + 1))
		[ "$kind" = x86 ] && escaped=$((escaped + 1))
		;;
	*)
		verdict=killed
		how=$(printf '%s' "$v" | sed 's/^[^:]*: FAIL: //; s/ (log: .*)$//' | cut -c1-70)
		# When the first sign of trouble appeared, in guest seconds.
		when=-
		if [ -n "$log" ] && [ -f "$log" ]; then
			when=$(tr -d '\r' <"$log" | grep -a -m1 -E '\<BUG\>|WARNING:|Oops|Call Trace|Kernel panic|stall|soft lockup|Fail: [1-9]|RESULT FAIL|End of test: FAILURE' |
				sed -n 's/^\[ *\([0-9.]*\)\].*/\1 s/p')
			[ -n "$when" ] || when="none seen (${secs} s wall)"
		fi
		killed=$((killed + 1))
		;;
	esac
	table+=("$(printf '%-24s %-8s %-8s %-12s %s' "$name" "$kind" "$verdict" "$when" "$how")")
done

echo
printf '%-24s %-8s %-8s %-12s %s\n' mutant kind verdict "first sign" "how it failed"
printf '%s\n' "${table[@]}"
echo "mutants: $killed killed, $survived survived ($escaped of kind x86 survived)"
[ "$escaped" -eq 0 ]
