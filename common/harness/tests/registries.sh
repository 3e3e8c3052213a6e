#!/bin/bash
# registries.sh: the lists the project keeps in more than one file agree,
# and each check can fail.
#  - the memory models: VERIFY_MODELS (lib.sh, read by every verify
#    script) and the checker's model_name[] (common/checker/explore.c);
#  - the litmus tests carry their expectations (common/checker/litmus.c):
#    every test has a kind and an answer under each model (the checker's
#    -L list refuses to print a test without them, too);
#  - the mutants (common/boot/mutants/mutants.tsv, the one table of them):
#    every patch of common/checker/mutants/ (the checker's own) has a row,
#    every row a patch, and every row names plan rows and models that
#    exist, and layouts that exist where a must or survive names one
#    (MODEL@LAYOUT), with the reason in its why column;
#  - the booted mutants: common/boot/mutants/*.patch and the rows whose boot
#    column is x86 or ordering, both ways, and no other boot value;
#  - the checker's plan: each row's name once, and short is yes, no or
#    kill;
#  - every patch applies where it is meant to: each mutant to its step's
#    tree (steps/NN-*/tree), each fault of common/checker/faults/ to
#    the checker's sources.  A series edit that moves the context of a mutant would
#    otherwise be found only by make test's kill table, an hour later.
# Each check is then run on a doctored copy, which it must refuse for its
# reason.  Prints KTAP (lib.sh) and "registries: N passed, N failed".
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"

V=common/checker
M=common/boot/mutants/mutants.tsv

# names FILE: the name column of a table's rows.
names() { tsv_columns "$1" name; }

# diff_lists WHAT-A A WHAT-B B: the first name in one list and not the
# other, said, and status 1; nothing and 0 when they agree.
diff_lists() {
	local x
	x=$(comm -23 <(printf '%s\n' "$2" | sort -u) <(printf '%s\n' "$4" | sort -u) | head -1)
	[ -z "$x" ] || { echo "'$x' is in $1 and not in $3"; return 1; }
	x=$(comm -13 <(printf '%s\n' "$2" | sort -u) <(printf '%s\n' "$4" | sort -u) | head -1)
	[ -z "$x" ] || { echo "'$x' is in $3 and not in $1"; return 1; }
}

# check_models CHECKER.C MODELS
check_models() {
	local c
	c=$(sed -n 's/.*model_name\[\] = {\(.*\)};.*/\1/p' "$1" | tr -d '"' | tr ',' ' ' | xargs)
	[ -n "$c" ] || { echo "no model_name[] in $1"; return 1; }
	[ "$c" = "$2" ] || { echo "the checker's models are '$c', VERIFY_MODELS says '$2'"; return 1; }
}

# check_litmus LITMUS.C: each test of vc_litmus_tests[] names its kind
# (plain or lock) and its answer (never or reachable) under each model,
# on its first line.
check_litmus() {
	local bad
	bad=$(sed -n '/^const struct vc_litmus vc_litmus_tests/,/^};/p' "$1" | grep '{ \.name = ' |
		grep -v -E '\.kind = "(plain|lock)", \.expect = \{ "(never|reachable)", "(never|reachable)", "(never|reachable)" \}' |
		sed -n 's/.*\.name = "\([^"]*\)".*/\1/p' | head -1)
	[ -z "$bad" ] || { echo "the test '$bad' does not carry its kind and an answer under each model"; return 1; }
}

# check_checker_mutants MUTANTS.TSV PATCHDIR PLAN.TSV
check_checker_mutants() {
	local name step must survive rows also why r m
	diff_lists "$2/" "$(find "$2" -name '*.patch' -printf '%f\n' | sed 's/\.patch$//')" \
		"$1" "$(names "$1" | while read -r n; do [ -f "common/boot/mutants/$n.patch" ] || echo "$n"; done)" || return 1
	while IFS=$'\t' read -r name step must survive rows also why; do
		[ -f "$2/$name.patch" ] || [ -f "common/boot/mutants/$name.patch" ] ||
			{ echo "$name has no patch in $2/ or common/boot/mutants/"; return 1; }
		for r in ${rows//-/}; do
			names "$3" | grep -qx -- "$r" || { echo "$name names the plan row '$r', which $3 does not have"; return 1; }
		done
		for m in ${must//-/} ${survive//-/} ${also//-/}; do
			case $m in
			*@*)
				case ${m#*@} in nr64 | nr16k | virt) ;; *) echo "$name names the layout '${m#*@}', not nr64, nr16k or virt"; return 1 ;; esac
				[ "$why" != - ] || { echo "$name holds $m on one layout and its why column does not say why"; return 1; }
				;;
			esac
			case " $VERIFY_MODELS " in *" ${m%@*} "*) ;; *) echo "$name names the model '${m%@*}', not one of $VERIFY_MODELS"; return 1 ;; esac
		done
		: "$step"
	done < <(tsv_columns "$1" name step must survive rows also why)
}

# check_booted_mutants MUTANTS.TSV DIR
check_booted_mutants() {
	local bad
	bad=$(tsv_columns "$1" name boot | awk -F'\t' '$2 != "x86" && $2 != "ordering" && $2 != "-" { print $1 " has the boot kind " $2; exit }')
	[ -z "$bad" ] || { echo "$bad, not x86, ordering or -"; return 1; }
	diff_lists "$2/" "$(find "$2" -maxdepth 1 -name '*.patch' -printf '%f\n' | sed 's/\.patch$//')" \
		"$1 (booted)" "$(tsv_columns "$1" name boot | awk -F'\t' '$2 != "-" { print $1 }')"
}

# check_other_locks LOCKS-DIR LOCK...: the cost model's locks (OTHER_LOCKS
# and SOCKET_LOCKS in checker/lib.sh) and the headers of common/costmodel/locks/, both ways
# (ticket is the pristine tree's).
check_other_locks() {
	local dir=$1
	shift
	diff_lists "$dir/" "$(find "$dir" -name '*.h' -printf '%f\n' | sed 's/\.h$//')" \
		"OTHER_LOCKS" "$(printf '%s\n' "$@" | grep -vx ticket)"
}

# check_plan PLAN.TSV
check_plan() {
	local d
	d=$(names "$1" | sort | uniq -d | head -1)
	[ -z "$d" ] || { echo "the row '$d' is in $1 twice"; return 1; }
	d=$(tsv_columns "$1" name short | awk -F'\t' '$2 != "yes" && $2 != "no" && $2 != "kill" { print $1 " has short " $2; exit }')
	[ -z "$d" ] || { echo "$d, not yes, no or kill"; return 1; }
	d=$(tsv_columns "$1" name layouts | awk -F'\t' '$2 != "-" && $2 != "all" && $2 != "pv" { print $1 " has layouts " $2; exit }')
	[ -z "$d" ] || { echo "$d, not -, all or pv"; return 1; }
}

# check_patches_apply MUTANTS.TSV FAULTS-DIR: each mutant applies to a
# copy of its step's tree, each fault to a copy of the checker's sources.
check_patches_apply() {
	local name step patch t rc=0
	t=$(mktemp -d)
	while IFS=$'\t' read -r name step; do
		patch=$(mutant_patch "$name")
		rm -rf "$t/tree" && cp -r "$(step_dir "$step")/tree" "$t/tree"
		if ! (cd "$t/tree" && GIT_CEILING_DIRECTORIES=$t git apply --check "$TOP/$patch") >/dev/null 2>&1; then
			echo "the mutant $name does not apply to step $step's tree; make it again against steps/$(basename "$(step_dir "$step")")/tree"
			rc=1 && break
		fi
	done < <(tsv_columns "$1" name step)
	if [ "$rc" -eq 0 ]; then
		mkdir -p "$t/c/common/checker" "$t/c/common/costmodel"
		cp $V/*.[ch] "$t/c/common/checker/" && cp common/costmodel/*.[ch] "$t/c/common/costmodel/"
		for patch in "$2"/*.patch; do
			if ! (cd "$t/c" && GIT_CEILING_DIRECTORIES=$t git apply --check "$TOP/$patch") >/dev/null 2>&1; then
				echo "the fault $(basename "$patch" .patch) does not apply to the checker's sources; make it again against $V/ and common/costmodel/"
				rc=1 && break
			fi
		done
	fi
	rm -rf "$t"
	return "$rc"
}

ktap_begin registries
check() { # description command...
	local what=$1 msg
	shift
	if msg=$("$@"); then ktap_result 0 "$what"; else ktap_fail_text "$what: $msg"; fi
}
check "memory models: the checker's are VERIFY_MODELS ($VERIFY_MODELS)" check_models $V/explore.c "$VERIFY_MODELS"
check "litmus tests: each of the $(grep -c '{ \.name = ' $V/litmus.c) in litmus.c carries its kind and its answer under each model" check_litmus $V/litmus.c
check "the mutants: common/boot/mutants/mutants.tsv and the checker's patches agree, its rows and models exist" \
	check_checker_mutants $M $V/mutants $V/plan.tsv
check "the booted mutants: common/boot/mutants/mutants.tsv and common/boot/mutants/*.patch agree" check_booted_mutants $M common/boot/mutants
check "the checker's plan: every row named once, short yes, no or kill, layouts -, all or pv" check_plan $V/plan.tsv
check "every mutant applies to its step's tree, every fault of $V/faults/ to the checker's sources" check_patches_apply $M $V/faults
# the list as checker/lib.sh defines it (sourcing it would install packages)
OTHER_LOCKS=() SOCKET_LOCKS=() && eval "$(grep -E '^(OTHER|SOCKET)_LOCKS=' common/checker/lib.sh)"
check "the cost model's other locks: OTHER_LOCKS and SOCKET_LOCKS (${OTHER_LOCKS[*]} ${SOCKET_LOCKS[*]}) and common/costmodel/locks/ agree" check_other_locks common/costmodel/locks "${OTHER_LOCKS[@]}" "${SOCKET_LOCKS[@]}"

# Negative controls: each doctored copy is refused, for its reason.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
refused() { # reason command...
	local why=$1 msg
	shift
	if msg=$("$@"); then
		ktap_fail_text "doctored, and accepted: $why"
	elif case $msg in *"$why"*) true ;; *) false ;; esac then
		ktap_result 0 "doctored, refused: $why"
	else
		ktap_fail_text "doctored, refused for another reason than '$why': $msg"
	fi
}
sed 's/"tso", "weak"/"tso", "weak", "arm"/' $V/explore.c >"$tmp/explore.c"
refused "the checker's models are" check_models "$tmp/explore.c" "$VERIFY_MODELS"
sed 's/\(\.name = "IRIW", .*\)"never", "never", "reachable" }/\1"never", "never" }/' $V/litmus.c >"$tmp/litmus.c"
refused "the test 'IRIW' does not carry" check_litmus "$tmp/litmus.c"
sed 's/\(\.name = "CoRR", \.kind = \)"plain"/\1"plan"/' $V/litmus.c >"$tmp/litmus.c"
refused "the test 'CoRR' does not carry" check_litmus "$tmp/litmus.c"
grep -v '^xchg-tail-relaxed	' $M >"$tmp/mutants.tsv"
refused "'xchg-tail-relaxed' is in $V/mutants/ and not in" check_checker_mutants "$tmp/mutants.tsv" $V/mutants $V/plan.tsv
sed 's/^\(is-locked-locked-byte\t[^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t\)observe/\1observer/' $M >"$tmp/mutants.tsv"
refused "names the plan row 'observer'" check_checker_mutants "$tmp/mutants.tsv" $V/mutants $V/plan.tsv
sed 's/^\(no-wmb-claim\t[^\t]*\t[^\t]*\t\)weak/\1arm/' $M >"$tmp/mutants.tsv"
refused "names the model 'arm'" check_checker_mutants "$tmp/mutants.tsv" $V/mutants $V/plan.tsv
sed 's/^\(is-locked-locked-byte\t[^\t]*\t[^\t]*\t\)tso@nr64/\1tso@nr32k/' $M >"$tmp/mutants.tsv"
refused "names the layout 'nr32k'" check_checker_mutants "$tmp/mutants.tsv" $V/mutants $V/plan.tsv
sed 's/^\(is-locked-locked-byte\t.*\t\)[^\t]*$/\1-/' $M >"$tmp/mutants.tsv"
refused "its why column does not say why" check_checker_mutants "$tmp/mutants.tsv" $V/mutants $V/plan.tsv
sed 's/^\(no-wmb-claim\t[^\t]*\t\)ordering/\1-/' $M >"$tmp/mutants.tsv"
refused "'no-wmb-claim' is in common/boot/mutants/ and not in" check_booted_mutants "$tmp/mutants.tsv" common/boot/mutants
sed 's/^\(no-wmb-claim\t[^\t]*\t\)ordering/\1arm64/' $M >"$tmp/mutants.tsv"
refused "no-wmb-claim has the boot kind arm64" check_booted_mutants "$tmp/mutants.tsv" common/boot/mutants
refused "'ttas' is in common/costmodel/locks/ and not in" check_other_locks common/costmodel/locks ticket mcs cna
{ cat $V/plan.tsv; grep '^c3a1	' $V/plan.tsv; } >"$tmp/plan.tsv"
refused "the row 'c3a1' is in" check_plan "$tmp/plan.tsv"
sed 's/^\(pctnest4x\t\)kill/\1mutants/' $V/plan.tsv >"$tmp/plan.tsv"
refused "pctnest4x has short mutants, not yes, no or kill" check_plan "$tmp/plan.tsv"
sed 's/^\(pvc3a1\t.*\t\)pv\t/\1virt\t/' $V/plan.tsv >"$tmp/plan.tsv"
refused "pvc3a1 has layouts virt, not -, all or pv" check_plan "$tmp/plan.tsv"
# a mutant whose context a series edit moved: its step's comment changed
mkdir -p "$tmp/faults"
awk -F'\t' -v OFS='\t' '$1 == "xchg-tail-owner-window" { $2 = 7 } { print }' $M >"$tmp/mutants.tsv"
refused "the mutant xchg-tail-owner-window does not apply to step 7's tree" check_patches_apply "$tmp/mutants.tsv" $V/faults
sed '0,/^-[^-]/s/^\(-[^-].*\)$/\1 \/* moved *\//' $V/faults/await-watches-one-location.patch >"$tmp/faults/moved.patch"
grep "^#" $M >"$tmp/no-mutants.tsv"
refused "the fault moved does not apply to the checker's sources" check_patches_apply "$tmp/no-mutants.tsv" "$tmp/faults"
ktap_end
