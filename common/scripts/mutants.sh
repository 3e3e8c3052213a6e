#!/bin/bash
# mutants.sh [NAME...]: apply each mutant in common/mutants/ to step 7,
# build it, boot it under the default torture plan and see whether the
# harness kills it.  Prints a table (mutant, kind, verdict, how it failed,
# when) and "mutants: N killed, N survived"; exits non-zero if a mutant
# an x86 run must kill (kind x86 in list.tsv) survived, or any mutant could
# not be built and judged.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

step=7
rows=$(mutant_rows "$@")
mapfile -t rows <<<"$rows"
table=()
killed=0 survived=0 escaped=0
for row in "${rows[@]}"; do
	name=${row%%$'\t'*}
	kind=${row##*$'\t'}
	say "mutant $name ($kind): $(head -1 "$TOP/common/mutants/$name.patch")"
	v=$(MUTANT=$name TAG=mutant "$TOP/common/scripts/step.sh" "$step" x86_64 | tail -1) || true
	log=$(printf '%s' "$v" | sed -n 's/.*(log: \(.*\))$/\1/p')
	case $v in
	"" | *"did not build"*)
		# Not a verdict on the lock: the harness could not judge it.
		verdict=error
		how=${v:-no verdict line}
		when=-
		escaped=$((escaped + 1))
		;;
	*": PASS "*)
		verdict=survived
		how="-"
		when="-"
		survived=$((survived + 1))
		[ "$kind" = x86 ] && escaped=$((escaped + 1))
		;;
	*)
		verdict=killed
		how=$(printf '%s' "$v" | sed 's/^[^:]*: FAIL: //; s/ (log: .*)$//')
		# The first sign of trouble and when it appeared, in guest seconds;
		# a guest that hung silently is dated by its last console line.
		when=-
		if [ -n "$log" ] && [ -f "$log" ]; then
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
		how=$(printf '%s' "$how" | cut -c1-80)
		killed=$((killed + 1))
		;;
	esac
	table+=("$(printf '%-24s %-8s %-8s %-16s %s' "$name" "$kind" "$verdict" "$when" "$how")")
done

echo
printf '%-24s %-8s %-8s %-16s %s\n' mutant kind verdict "first sign" "how it failed"
printf '%s\n' "${table[@]}"
echo "mutants: $killed killed, $survived survived ($escaped of kind x86 survived)"
[ "$escaped" -eq 0 ]
