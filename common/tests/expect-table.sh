#!/bin/bash
# shellcheck disable=SC2016
# expect-table.sh [TABLE]: check common/expect.tsv (or TABLE) against the
# steps.  The harness reads what runs from the table, not from the text of
# the patches; this test is where the two must agree, so that a step
# added or reworded without its rows fails here instead of quietly
# dropping a check.  Without TABLE it also runs its negative controls:
# doctored copies of the table, each of which must be refused for the
# reason it was doctored for.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

table=${1:-$TOP/common/expect.tsv}
errors=0
bad() {
	printf 'expect-table: %s\n' "$*"
	errors=$((errors + 1))
}

rows=$(grep -v '^#' "$table" | grep .)
while IFS= read -r row; do
	nf=$(printf '%s\n' "$row" | awk -F'\t' '{ print NF }')
	[ "$nf" -eq 9 ] || bad "row '$row' has $nf tab-separated columns, not 9"
done <<<"$rows"

cell() { # stage arch column
	printf '%s\n' "$rows" | awk -F'\t' -v s="$1" -v a="$2" -v c="$3" '$1 == s && $2 == a { print $c }'
}

for s in $(valid_steps) today; do
	if [ "$s" = today ]; then
		tree=$PRISTINE
		[ -d "$tree" ] || tree=
	else
		tree=$(step_dir "$s")/tree
	fi
	for a in x86_64 sparc64; do
		n=$(printf '%s\n' "$rows" | awk -F'\t' -v s="$s" -v a="$a" '$1 == s && $2 == a' | grep -c .) || true
		[ "$n" -eq 1 ] || {
			bad "step $s $a: $n rows, not one"
			continue
		}
		case $(cell "$s" "$a" 4) in yes | test | no) ;; *) bad "step $s $a: default '$(cell "$s" "$a" 4)' is not yes, test or no" ;; esac
		case $(cell "$s" "$a" 9) in
		smoke | full) [ "$a" = x86_64 ] || bad "step $s $a: only x86_64 is benchmarked" ;;
		-) ;;
		*) bad "step $s $a: bench '$(cell "$s" "$a" 9)' is not smoke, full or -" ;;
		esac
		[ "$s" != today ] || continue
		types=$tree/include/asm-generic/qspinlock_types.h
		lab=$(cell "$s" "$a" 7)
		if [ -f "$tree/kernel/locking/qspinlock.c" ]; then
			[ "$lab" != - ] || bad "step $s $a: the step has kernel/locking/qspinlock.c but no lab counters"
			if grep -q '_Q_PENDING_VAL' "$types"; then
				case ",$lab," in *,pending,*) ;; *) bad "step $s $a: the step has a pending bit, its lab counters do not ask for it" ;; esac
			else
				case ",$lab," in *,pending,*) bad "step $s $a: the lab asks for pending, the step has no pending bit" ;; esac
			fi
			if grep -q 'CONFIG_NR_CPUS' "$types"; then
				[ "$(cell "$s" "$a" 6)" = nr16k ] || bad "step $s $a: qspinlock_types.h has the NR_CPUS >= 16K layout, the variant column does not say nr16k"
			else
				[ "$(cell "$s" "$a" 6)" = - ] || bad "step $s $a: variant nr16k, but qspinlock_types.h has one layout"
			fi
		else
			[ "$lab" = - ] || bad "step $s $a: lab counters, but the step has no kernel/locking/qspinlock.c"
			[ "$(cell "$s" "$a" 6)" = - ] || bad "step $s $a: a variant, but the step has no queued spinlock"
		fi
		for c in $(cell "$s" "$a" 8 | tr ',' ' '); do
			case $c in
			-) ;;
			cmpxchg) [ "$lab" != - ] || bad "step $s $a: a lab control on a step the lab does not run" ;;
			le-layout)
				[ "$a" = sparc64 ] || bad "step $s $a: the le-layout control needs the big-endian CPU"
				grep -q CONFIG_CPU_BIG_ENDIAN "$types" ||
					bad "step $s $a: the le-layout control needs a step with the big-endian lock word"
				;;
			*) bad "step $s $a: no lab control '$c'" ;;
			esac
		done
	done
done
for c in cmpxchg le-layout; do
	printf '%s\n' "$rows" | cut -f8 | tr ',' '\n' | grep -qx "$c" || bad "no step runs the lab control $c"
done
for s in 0 today; do
	[ "$(cell "$s" x86_64 9)" = smoke ] || bad "the benchmark's ratios are taken to step 0 and today: both must be smoke"
done
printf '%s\n' "$rows" | cut -f1 | sort -u | while read -r s; do
	[ "$s" = today ] || printf ' %s ' "$(valid_steps)" | grep -q " $s " ||
		echo "expect-table: a row for step $s, which does not exist"
done | grep . && errors=$((errors + 1))

# With TABLE (a doctored copy), the problems and the exit status are
# the answer; without, one KTAP line for the table and one per control.
if [ $# -gt 0 ]; then
	[ "$errors" -eq 0 ] || { echo "expect-table: FAIL ($errors problems in ${table#"$TOP"/})"; exit 1; }
	exit 0
fi
ktap_begin expect-table
ktap_result "$errors" "common/expect.tsv agrees with the $(valid_steps | wc -w) steps$([ "$errors" -eq 0 ] || echo ": $errors problems (above)")"

# Negative controls: each doctored table must fail with its reason (the
# second argument of doctor is an awk program, quoted for awk: SC2016 is
# off for this file).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
doctor() { # reason awk-program
	local out
	awk -F'\t' -v OFS='\t' "$2" "$table" >"$tmp/t.tsv"
	if out=$("$TOP/common/tests/expect-table.sh" "$tmp/t.tsv" 2>&1); then
		ktap_result 1 "a table doctored so that '$1' was accepted"
		return
	fi
	case $out in
	*"$1"*) ktap_result 0 "a doctored table is refused: $1" ;;
	*)
		printf '%s\n' "$out" >"$tmp/out"
		ktap_result 1 "a doctored table was refused, but not for \"$1\"" "$tmp/out"
		;;
	esac
}
doctor "the variant column does not say nr16k" '$1 == 7 && $2 == "x86_64" { $6 = "-" } { print }'
doctor "its lab counters do not ask for it" '$1 == 5 && $2 == "sparc64" { $7 = "queue,idx1" } { print }'
doctor "but no lab counters" '$1 == 2 && $2 == "x86_64" { $7 = "-" } { print }'
doctor "needs a step with the big-endian lock word" '$1 == 8 && $2 == "sparc64" { $8 = "-" } $1 == 6 && $2 == "sparc64" { $8 = "le-layout" } { print }'
doctor "no step runs the lab control cmpxchg" '$8 == "cmpxchg" { $8 = "-" } { print }'
doctor "step 3 sparc64: 0 rows, not one" '!($1 == 3 && $2 == "sparc64")'
doctor "a row for step 9, which does not exist" '{ print } $1 == 8 && $2 == "x86_64" { $1 = 9; print }'
ktap_end
