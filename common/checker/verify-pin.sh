#!/bin/bash
# verify-pin.sh [--short] [--models M] [--configs C]: record the lock
# checker's counts again
# (common/checker/pinned.tsv; checker/lib.sh, pin_check).
#
# Runs what make verify runs (--short: what make test and make check run:
# verify.sh --short and verify-ref.sh --check) with VERIFY_PIN_OUT set,
# so that every run records its executions, behaviours, final states and
# whether it exhausted instead of comparing them (--models, --configs:
# only those rows of verify.sh), then merges them into
# pinned.tsv: a recorded label replaces its old row, the others stay.
# The runs must give the answers the plan asks for: a run that fails for
# another reason records nothing.  Prints which counts moved; the commit
# that records them says why.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

# --merge FILE: run nothing; merge the counts an interrupted run recorded
# (its build/verify/pinned.new: each line was written when its run had
# given the answer the plan asks for).
short=0 only=() merge=""
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=1 ;;
	--merge)
		[ $# -ge 2 ] || die "usage: $0 --merge FILE"
		merge=$2
		[ -s "$merge" ] || die "verify-pin: $merge is missing or empty"
		shift
		;;
	--models | --configs)
		[ $# -ge 2 ] || die "usage: $0 [--short] [--models \"...\"] [--configs \"...\"]"
		only+=("$1" "$2")
		shift
		;;
	*) die "usage: $0 [--short] [--models \"...\"] [--configs \"...\"]" ;;
	esac
	shift
done

new=$BUILD/verify/pinned.new
mkdir -p "$BUILD/verify"
if [ -n "$merge" ]; then
	[ "$merge" -ef "$new" ] || cp "$merge" "$new"
else
	: >"$new"
	if [ "${#only[@]}" -gt 0 ]; then
		# some rows of verify.sh only (what a commit changed)
		if [ "$short" -eq 1 ]; then only+=(--short); fi
		VERIFY_PIN_OUT=$new "$TOP/common/checker/verify.sh" "${only[@]}"
	elif [ "$short" -eq 1 ]; then
		VERIFY_PIN_OUT=$new "$TOP/common/checker/verify.sh" --short
		VERIFY_PIN_OUT=$new "$TOP/common/checker/verify-ref.sh" --check
	else
		# as make verify runs it: with gcov's counters, which change no count
		VERIFY_PIN_OUT=$new "$TOP/common/checker/verify.sh" --coverage
		VERIFY_PIN_OUT=$new "$TOP/common/checker/verify-ref.sh"
	fi
fi
pinned=common/checker/pinned.tsv
[ -f "$pinned" ] || printf '# label\texecutions\tbehaviours\tfinal states\texhausted\n' >"$pinned"
moved=$(awk -F'\t' 'NR == FNR { if (!/^#/) old[$1] = $0; next }
	{ if (($1 in old) && old[$1] != $0) n++; if (!($1 in old)) a++ }
	END { printf "%d moved, %d new", n, a }' "$pinned" "$new")
awk -F'\t' 'NR == FNR { rec[$1] = $0; next }
	/^#/ { print; next }
	!($1 in rec) { print }
	END { for (l in rec) print rec[l] }' "$new" "$pinned" >"$pinned.tmp"
{
	grep '^#' "$pinned.tmp"
	grep -v '^#' "$pinned.tmp" | LC_ALL=C sort
} >"$new.sorted"
mv "$new.sorted" "$pinned"
rm -f "$pinned.tmp"
echo "verify-pin: $(wc -l <"$new") counts recorded ($moved) in common/checker/pinned.tsv"
