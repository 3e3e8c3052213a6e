#!/bin/bash
# shellcheck disable=SC2016
# expect-table.sh [TABLE]: check common/boot/expect.tsv (or TABLE) against the
# steps.  The harness reads what runs from the table, not from the text of
# the patches; this test is where the two must agree, so that a step
# added or reworded without its rows fails here instead of quietly
# dropping a check.  Without TABLE it also runs its negative controls:
# doctored copies of the table, each of which must be refused for the
# reason it was doctored for.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"

table=${1:-$TOP/common/boot/expect.tsv}
errors=0
bad() {
	printf 'expect-table: %s\n' "$*"
	errors=$((errors + 1))
}

# The table's columns, by their names in its header: the rows below are
# those columns in this order.
COLS="step arch lock default paths variant lab controls bench config bare"
ncols=$(wc -w <<<"$COLS")
# shellcheck disable=SC2086 # COLS is a list of names
rows=$(tsv_columns "$table" $COLS) || die "expect-table: ${table#"$TOP"/} does not name the columns $COLS in its header"
[ "$(grep -v '^#' "$table" | grep . | awk -F'\t' -v n="$ncols" 'NF != n' | wc -l)" -eq 0 ] ||
	bad "a row has another count of tab-separated columns than the header's $ncols"

cell() { # stage arch column-name
	printf '%s\n' "$rows" | awk -F'\t' -v s="$1" -v a="$2" -v c="$(col "$3")" '$1 == s && $2 == a { print $c }'
}
col() { # column-name: its place in $COLS
	local i=0 c
	for c in $COLS; do
		i=$((i + 1))
		[ "$c" != "$1" ] || { echo "$i"; return; }
	done
	die "expect-table: no column $1"
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
		case $(cell "$s" "$a" default) in yes | step | test | no) ;; *) bad "step $s $a: default '$(cell "$s" "$a" default)' is not yes, step, test or no" ;; esac
		case $(cell "$s" "$a" bench) in
		smoke | full) [ "$a" = x86_64 ] || bad "step $s $a: only x86_64 is benchmarked" ;;
		-) ;;
		*) bad "step $s $a: bench '$(cell "$s" "$a" bench)' is not smoke, full or -" ;;
		esac
		for f in $(cell "$s" "$a" config | tr ',' ' '); do
			[ "$f" = - ] || [ -f "$TOP/common/boot/config/$f.config" ] ||
				bad "step $s $a: the config fragment '$f' is not a file common/boot/config/$f.config"
		done
		bare=$(cell "$s" "$a" bare)
		case $bare in
		-) ;;
		?*:?*) [ "$a" = x86_64 ] || bad "step $s $a: a bare boot (without the hypervisor bit) is an x86_64 boot" ;;
		*) bad "step $s $a: bare '$bare' is not - or LOCK:PATHS" ;;
		esac
		[ "$s" != today ] || continue
		# a step whose x86 lock takes another way in a guest is built as a
		# guest kernel, and booted both ways
		if [ "$a" = x86_64 ] && grep -q 'define virt_spin_lock' "$tree/arch/x86/include/asm/qspinlock.h" 2>/dev/null; then
			case ",$(cell "$s" "$a" config)," in *,paravirt,*) ;; *) bad "step $s $a: x86's virt_spin_lock() needs CONFIG_PARAVIRT: the config column must list paravirt" ;; esac
			[ "$bare" != - ] || bad "step $s $a: x86's virt_spin_lock() takes locks another way under a hypervisor: the bare column must say how the boot without the hypervisor bit is judged"
		fi
		types=$tree/include/asm-generic/qspinlock_types.h
		lab=$(cell "$s" "$a" lab)
		if [ -f "$tree/kernel/locking/qspinlock.c" ]; then
			[ "$lab" != - ] || bad "step $s $a: the step has kernel/locking/qspinlock.c but no lab counters"
			if grep -q '_Q_PENDING_VAL' "$types"; then
				case ",$lab," in *,pending,*) ;; *) bad "step $s $a: the step has a pending bit, its lab counters do not ask for it" ;; esac
			else
				case ",$lab," in *,pending,*) bad "step $s $a: the lab asks for pending, the step has no pending bit" ;; esac
			fi
			if grep -q 'CONFIG_NR_CPUS' "$types"; then
				[ "$(cell "$s" "$a" variant)" = nr16k ] || bad "step $s $a: qspinlock_types.h has the NR_CPUS >= 16K layout, the variant column does not say nr16k"
			else
				[ "$(cell "$s" "$a" variant)" = - ] || bad "step $s $a: variant nr16k, but qspinlock_types.h has one layout"
			fi
		else
			[ "$lab" = - ] || bad "step $s $a: lab counters, but the step has no kernel/locking/qspinlock.c"
			[ "$(cell "$s" "$a" variant)" = - ] || bad "step $s $a: a variant, but the step has no queued spinlock"
		fi
		for c in $(cell "$s" "$a" controls | tr ',' ' '); do
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
	printf '%s\n' "$rows" | cut -f"$(col controls)" | tr ',' '\n' | grep -qx "$c" || bad "no step runs the lab control $c"
done
# make bench takes its ratios to step 0 and today; its smoke run (make
# test's, which builds no today) to step 0
[ "$(cell 0 x86_64 bench)" = smoke ] || bad "the benchmark's ratios are taken to step 0: it must be smoke"
case $(cell today x86_64 bench) in smoke | full) ;; *) bad "make bench's ratios are taken to today too: it must be full or smoke" ;; esac
printf '%s\n' "$rows" | cut -f"$(col step)" | sort -u | while read -r s; do
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
ktap_result "$errors" "common/boot/expect.tsv agrees with the $(valid_steps | wc -w) steps$([ "$errors" -eq 0 ] || echo ": $errors problems (above)")"

# Negative controls: each doctored table must fail with its reason (the
# second argument of doctor is an awk program, quoted for awk: SC2016 is
# off for this file).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
doctor() { # reason awk-program
	local out
	awk -F'\t' -v OFS='\t' "$2" "$table" >"$tmp/t.tsv"
	if out=$("$TOP/common/boot/tests/expect-table.sh" "$tmp/t.tsv" 2>&1); then
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
doctor "a row for step 99, which does not exist" '{ print } $1 == 8 && $2 == "x86_64" { $1 = 99; print }'
doctor "does not name the columns" '/^# step\t/ { sub(/\tbench\t/, "\tbenchmark\t") } { print }'
doctor "the config column must list paravirt" '$1 == 9 && $2 == "x86_64" { $10 = "-" } { print }'
doctor "the bare column must say how" '$1 == 9 && $2 == "x86_64" { $11 = "-" } { print }'
doctor "is not a file common/boot/config/nosuch.config" '$1 == 9 && $2 == "x86_64" { $10 = "paravirt,nosuch" } { print }'
doctor "a bare boot (without the hypervisor bit) is an x86_64 boot" '$1 == 9 && $2 == "sparc64" { $11 = "qspinlock:-" } { print }'
# The table is read by its header's names: the same table with its lock
# and bench columns swapped (header and rows) must be accepted, and the
# harness's own reads (lib.sh) must find the same cells in it.
awk -F'\t' -v OFS='\t' 'NF == 11 { t = $3; $3 = $9; $9 = t } { print }' "$table" >"$tmp/swapped.tsv"
if ! out=$("$TOP/common/boot/tests/expect-table.sh" "$tmp/swapped.tsv" 2>&1); then
	printf '%s\n' "$out" >"$tmp/out"
	ktap_result 1 "the table with two columns swapped was refused" "$tmp/out"
elif [ "$(EXPECT_TABLE=$tmp/swapped.tsv expected_lock 7 x86_64) $(EXPECT_TABLE=$tmp/swapped.tsv table_stages bench x86_64 smoke)" != \
	"$(expected_lock 7 x86_64) $(table_stages bench x86_64 smoke)" ]; then
	ktap_result 1 "the table with two columns swapped: lib.sh reads other cells from it"
else
	ktap_result 0 "the table with its lock and bench columns swapped reads the same: by the header's names, not by position"
fi
ktap_end
