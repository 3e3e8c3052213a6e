#!/bin/bash
# lab-mutants.sh [--short] [NAME...]: the mutants of common/boot/mutants/ in the
# userspace lab.  Each NAME.patch is applied to a copy of step 7's tree,
# compiled into the lab's stress program exactly as lab.sh compiles step 7
# (NR_CPUS < 16K), and run on x86_64 natively and on big-endian sparc64
# under qemu-user, asking for the same evidence as step 7's own run.
#
# A mutant is killed when the lab judges the run FAIL (a second owner, a
# lost update, a bad tail, a hang, no progress); it survives when the run
# passes.  A mutant that does not apply or compile is an error, not a kill.
# Prints the kill table beside the one make mutants measured in QEMU
# (book: the step-7 chapter) and "lab mutants: N killed, N survived";
# exits non-zero if a mutant booted as x86 (mutants.tsv) survives on x86_64 or
# anything could not be built.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

short=0
want=()
for a in "$@"; do
	case $a in
	--short) short=1 ;;
	-*) die "usage: $0 [--short] [mutant...]" ;;
	*) want+=("$a") ;;
	esac
done
if [ "$short" -eq 1 ]; then
	# A hang shows after max + grace: keep both short.
	ms_x86=1500 max_x86=4000 ms_sparc=2000 max_sparc=4000 grace=3
else
	ms_x86=5000 max_x86=15000 ms_sparc=5000 max_sparc=15000 grace=10
fi
thr_x86=4 thr_sparc=4
# shellcheck source=common/lab/lib.sh
. "$TOP/common/lab/lib.sh"

step=$(mutant_base_step)
sdir=$(step_dir "$step")
rows=$(mutant_rows "${want[@]}")
mapfile -t rows <<<"$rows"
# The evidence each run must show: the base step's lab column.
declare -A req
for arch in x86_64 sparc64; do
	req[$arch]=$(expect_field "$step" "$arch" lab)
	case ${req[$arch]} in
	'' | -) die "common/boot/expect.tsv runs step $step ($arch) outside the lab, but the booted mutants of common/boot/mutants/mutants.tsv apply to it" ;;
	esac
done

# The unmutated step first: if it does not pass here, no kill means much.
table=() status=() desc=()
killed=0 survived=0 errors=0 escaped=0
t0=$(now)
for row in base$'\t'- "${rows[@]}"; do
	name=${row%%$'\t'*}
	kind=${row##*$'\t'}
	tree=$LAB/mutant-src/$name
	rm -rf "$tree"
	mkdir -p "$(dirname "$tree")"
	cp -r "$sdir/tree" "$tree"
	if [ "$name" = base ]; then
		say "lab: step $step unmutated (must PASS on both, or the table means nothing)"
	else
		say "lab mutant $name ($kind): $(head -1 "$TOP/common/boot/mutants/$name.patch")"
		if ! (cd "$tree" && GIT_CEILING_DIRECTORIES=$(cd .. && pwd) git apply "$TOP/common/boot/mutants/$name.patch"); then
			table+=("$(printf '%-24s %-9s %s' "$name" "$kind" "ERROR: does not apply to step $step's tree")")
			status+=(1) desc+=("mutant $name ($kind): ERROR: does not apply to step $step's tree")
			errors=$((errors + 1))
			continue
		fi
	fi
	res=()
	first=""
	for arch in x86_64 sparc64; do
		tag="mutant-$name $arch"
		[ "$name" != base ] || tag="step-0$step-unmutated $arch"
		if ! bin=$(build "$tree" nr64 "$arch" "mutant-$name-$arch"); then
			res+=(ERROR)
			first="${first:-$arch: $bin}"
			errors=$((errors + 1))
			continue
		fi
		s=$(now)
		v=$(run "$bin" "$arch" "$tag" "${req[$arch]}")
		el=$(($(now) - s))
		case $(lab_verdict "$bin") in
		PASS) res+=("PASS(${el}s)") ;;
		FAIL) res+=("FAIL(${el}s)") first="${first:-$arch: $(run_file "$(dirname "$bin")" reason)}" ;;
		*)
			# The harness could not run it: never a kill.
			res+=(ERROR)
			first="${first:-$arch: $(run_file "$(dirname "$bin")" reason)}"
			errors=$((errors + 1))
			;;
		esac
		printf '    %s\n' "$v" >&2
	done
	if [ "$name" = base ]; then
		if [ "${res[0]}" = "${res[0]#PASS}" ] || [ "${res[1]}" = "${res[1]#PASS}" ]; then
			die "step $step unmutated does not pass in the lab (${res[*]}); fix that first: $first"
		fi
		continue
	fi
	if [ "${res[0]#FAIL}" != "${res[0]}" ] || [ "${res[1]#FAIL}" != "${res[1]}" ]; then
		verdict=killed
		killed=$((killed + 1))
	elif [ "${res[0]}" = ERROR ] || [ "${res[1]}" = ERROR ]; then
		verdict=error # counted in errors above: neither a kill nor a survivor
	else
		verdict=survived
		survived=$((survived + 1))
	fi
	# Kind x86 must be killed by the native x86_64 run itself.
	if [ "$kind" = x86 ] && [ "${res[0]#FAIL}" = "${res[0]}" ]; then
		escaped=$((escaped + 1))
		verdict="$verdict (ESCAPED on x86_64)"
	fi
	table+=("$(printf '%-24s %-9s %-10s %-10s %-9s %s' "$name" "$kind" "${res[0]}" "${res[1]}" "$verdict" "$(printf '%s' "$first" | cut -c1-150)")")
	# not ok: the harness could not run it, or an x86 mutant escaped
	# the native run; a survivor of another kind is a finding, not a failure
	case $verdict in error | *ESCAPED*) status+=(1) ;; *) status+=(0) ;; esac
	desc+=("mutant $name ($kind): $verdict (x86_64 ${res[0]}, sparc64 ${res[1]})")
done

# The kill table as KTAP: a result a mutant, the table's header as notes.
echo
ktap_begin lab-mutants "${#table[@]}"
ktap_note "Lab kill table: step $step + each mutant, 4 threads, $([ "$short" -eq 1 ] && echo "short runs (${ms_x86}-${max_x86} ms)" || echo "${ms_x86}-${max_x86} ms runs"); x86_64 native, sparc64 under $QEMU_SPARC64" \
	"$(printf '  %-24s %-9s %-10s %-10s %-9s %s' mutant kind x86_64 sparc64 verdict "first sign")"
ktap_note "${table[@]/#/  }"
for i in "${!table[@]}"; do
	ktap_result "${status[$i]}" "${desc[$i]}"
done
ktap_end >/dev/null || true
echo "lab mutants: $killed killed, $survived survived, $errors errors ($(($(now) - t0)) s)"
[ "$errors" -eq 0 ] || exit 1
[ "$escaped" -eq 0 ] || { echo "lab mutants: $escaped mutant(s) of kind x86 survived the x86_64 run"; exit 1; }
