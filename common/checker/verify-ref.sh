#!/bin/bash
# verify-ref.sh [--check] [--rows "NAME..."]: the lock checker against its
# reference search (common/checker/reference.tsv, common/checker/README.md,
# "The checker, checked").
#
# On every configuration of the table, under every model, runs the
# exhaustive search (verify -E: DPOR with sleep sets, going on past
# failures and counting behaviours) and the reference search (verify -R:
# every enabled choice at every step, nothing pruned), and requires both
# to exhaust and, without a preemption bound, to find the same behaviours (reads-from and coherence,
# and the final state) and the same final states, compared as sets by
# their count and an order-independent digest.  DPOR may explore fewer
# executions, never fewer behaviours.  Prints one KTAP line per run and
# "verify-ref: N passed, N failed".
#
# --check: the rows marked for make check only; --locks: only these
# locks; --quick: DPOR alone against each litmus answer and the pinned
# counts, no reference search (verify-faults.sh's first pass, seconds).
# A litmus test's answer must also be the one the test carries for its
# model (common/checker/litmus.c, printed by verify -L list).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

check_only=0 rows="" locks_only="" quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--check) check_only=1 ;;
	--quick) quick=1 ;;
	--locks)
		[ $# -ge 2 ] || die "usage: $0 [--check] [--quick] [--locks \"LOCK...\"] [--rows \"NAME...\"]"
		locks_only=$2
		shift
		;;
	--rows)
		[ $# -ge 2 ] || die "usage: $0 [--check] [--quick] [--locks \"LOCK...\"] [--rows \"NAME...\"]"
		rows=$2
		shift
		;;
	*) die "usage: $0 [--check] [--quick] [--locks \"LOCK...\"] [--rows \"NAME...\"]" ;;
	esac
	shift
done

OUT=${VERIFY_OUT:-$BUILD/verify}
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
mkdir -p "$OUT/logs"
"$TOP/common/boot/pristine.sh"
build_checker

# lock_bin LOCK: BIN, the checker binary of LOCK (STEP, STEP/nr16k,
# today, today/nr16k), built once per run (call it in this shell, not in
# a command substitution, or the next call builds it again).
declare -A bins
lock_bin() {
	local lock=$1 s v tree name
	if [ -z "${bins[$lock]:-}" ]; then
		s=${lock%/*} v=nr64
		case $lock in */*) v=${lock#*/} ;; esac
		if [ "$s" = today ]; then
			tree=$PRISTINE
		else
			tree=$(step_dir "$s")/tree
		fi
		name=ref-$s-$v
		bins[$lock]=$(build "$tree" "$v" "$name") || die "verify-ref: ${bins[$lock]}"
	fi
	BIN=${bins[$lock]}
}

# litmus_names KIND: the tests of that kind (plain, lock), from the table
# the checker prints (verify -L list, below).
litmus_names() {
	tsv_columns "$OUT/litmus-list.tsv" name kind | awk -F'\t' -v k="$1" '$2 == k { print $1 }'
}

# bounded OPTIONS...: is there a preemption bound (-b)?
bounded() {
	case " $* " in *" -b "*) return 0 ;; esac
	return 1
}

# litmus_want NAME MODEL: the answer the test carries for MODEL.
litmus_want() {
	tsv_columns "$OUT/litmus-list.tsv" name "$2" | awk -F'\t' -v n="$1" '$1 == n { print $2 }'
}

# pinned_only BIN LABEL OPTIONS...: a configuration too large for the
# reference: DPOR alone, held to its pinned counts.
pinned_only() {
	local bin=$1 label=$2 log d rc=0 msg
	shift 2
	log=$OUT/logs/ref-${label//\//_}-dpor.log
	timeout 600 "$bin" -q -E "$@" >"$log" 2>&1 || true
	d=$(grep -m1 '^result: ' "$log") || d=""
	if [ -z "$d" ] || [ "$(field verdict "$d")" != PASS ]; then
		msg="no PASS (log: ${log#"$TOP"/})"
		rc=1
	elif ! msg=$(pin_check "ref:$label [$*]" "$d"); then
		msg="$msg (log: ${log#"$TOP"/})"
		rc=1
	else
		msg="DPOR alone: $(field executions "$d") executions, $(field classes "$d") behaviours, as pinned"
	fi
	ktap_result "$rc" "ref $label [$*]: $msg"
}

# compare BIN LABEL OPTIONS...: one configuration under both searches.
# Without a preemption bound both must find the same sets; with one, the
# reference finds every behaviour within the bound and DPOR may miss some
# (Coons, Musuvathi and McKinley, OOPSLA 2013): the gap is reported.
compare() {
	local bin=$1 label=$2 want=$3 log_d log_r d r rc=0 msg
	shift 3
	log_d=$OUT/logs/ref-${label//\//_}-dpor.log
	log_r=$OUT/logs/ref-${label//\//_}-reference.log
	timeout 600 "$bin" -q -E -x "$budget" "$@" >"$log_d" 2>&1 || true
	if [ "$quick" -eq 1 ]; then
		# the quick pass: DPOR's answer and counts only
		d=$(grep -m1 '^result: ' "$log_d") || d=""
		if [ -n "$want" ] && [ "$(field verdict "$d")" != "$want" ]; then
			msg="the answer is $(field verdict "$d"), the test says $want (log: ${log_d#"$TOP"/})"
		elif [ "$(field exhausted "$d")" = 1 ] && ! msg=$(pin_check "ref:$label [$*]" "$d"); then
			msg="$msg (log: ${log_d#"$TOP"/})"
		else
			ktap_result 0 "ref $label [$*]: DPOR alone: $(field verdict "$d"), $(field executions "$d") executions, $(field classes "$d") behaviours, as pinned"
			return
		fi
		ktap_result 1 "ref $label [$*]: $msg"
		return
	fi
	timeout 600 "$bin" -q -R -x "$budget" "$@" >"$log_r" 2>&1 || true
	d=$(grep -m1 '^result: ' "$log_d") || d=""
	r=$(grep -m1 '^result: ' "$log_r") || r=""
	if [ -n "$want" ] && [ -n "$d" ] && [ "$(field verdict "$d")" != "$want" ]; then
		msg="the answer is $(field verdict "$d"), the test says $want (log: ${log_d#"$TOP"/})"
		rc=1
	elif [ -z "$d" ] || [ -z "$r" ]; then
		msg="no result line (logs: ${log_d#"$TOP"/}, ${log_r#"$TOP"/})"
		rc=1
	elif [ "$(field exhausted "$d")" = 1 ] && [ "$(field exhausted "$r")" != 1 ]; then
		# too large for the reference within the budget: said, not hidden;
		# DPOR's own counts are still held to their pinned values
		if pin=$(pin_check "ref:$label [$*]" "$d"); then
			ktap_result 0 "ref $label [$*]: # SKIP the reference does not exhaust within -x $budget (DPOR: $(field executions "$d") executions, $(field classes "$d") behaviours, as pinned)"
			KTAP_SKIP=$((KTAP_SKIP + 1))
			return
		fi
		msg="$pin (log: ${log_d#"$TOP"/})"
		rc=1
	elif [ "$(field exhausted "$d")" != 1 ] || [ "$(field exhausted "$r")" != 1 ]; then
		msg="not exhausted: dpor $(field executions "$d") executions, reference $(field executions "$r")"
		rc=1
	elif bounded "$@" && [ "$(field classes "$d")" -le "$(field classes "$r")" ] &&
		{ [ "$check_only" -eq 0 ] ||
			[ "$(field classes "$d") $(field class_digest "$d")" = "$(field classes "$r") $(field class_digest "$r")" ]; }; then
		# DPOR with sleep sets under a preemption bound explores a
		# subset of the executions within the bound: its gap is
		# measured, pinned (pinned.tsv), not required to be 0, except
		# on make check's rows (--check), where it is 0 on every one and
		# must stay so: a loss there falls through to the FAIL below.
		msg="bounded: DPOR found $(field classes "$d") of the $(field classes "$r") behaviours within the bound; executions: dpor $(field executions "$d"), reference $(field executions "$r")"
	elif [ "$(field classes "$d") $(field class_digest "$d")" != "$(field classes "$r") $(field class_digest "$r")" ]; then
		msg="DPOR found $(field classes "$d") behaviours, the reference $(field classes "$r") (digests $(field class_digest "$d"), $(field class_digest "$r"); logs: ${log_d#"$TOP"/}, ${log_r#"$TOP"/})"
		rc=1
	elif [ "$(field states "$d") $(field state_digest "$d")" != "$(field states "$r") $(field state_digest "$r")" ]; then
		msg="DPOR found $(field states "$d") final states, the reference $(field states "$r")"
		rc=1
	else
		msg="$(field classes "$d") behaviours, $(field states "$d") final states, $(field verdict "$d"); executions: dpor $(field executions "$d"), reference $(field executions "$r")"
	fi
	# the DPOR run's own counts are pinned too: a search that looks at
	# more or fewer executions than it did is a change to explain
	if [ "$rc" -eq 0 ] && ! pin=$(pin_check "ref:$label [$*]" "$d"); then
		msg="$pin (log: ${log_d#"$TOP"/})"
		rc=1
	fi
	ktap_result "$rc" "ref $label [$*]: $msg"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$*" "$(field classes "$d")" "$(field classes "$r")" \
		"$(field executions "$d")" "$(field executions "$r")" >>"${REF_TSV:-$OUT/reference.tsv}"
}

# The configurations run in parallel, one job a core (VERIFY_JOBS=N).
# spawn FUNCTION
# ARGS... runs one configuration in a background job, whose KTAP results
# go to a file of its own (JOBDIR/SEQ.lines: "R<TAB>RC<TAB>TEXT", "S" for
# a skip); flush prints the finished ones in the table's order, so the
# output is the one a serial run prints.
jobs_max=${VERIFY_JOBS:-$(nproc)}
check_number VERIFY_JOBS "$jobs_max" 1 64
JOBDIR=$(mktemp -d)
trap 'rm -rf "$JOBDIR"' EXIT
seq_next=0 seq_out=0
spawn() {
	if [ "$jobs_max" -le 1 ]; then
		"$@"
		return
	fi
	job_slot "$jobs_max" flush
	local f=$JOBDIR/$seq_next
	seq_next=$((seq_next + 1))
	job "$f" "$@" &
}
# job FILE FUNCTION ARGS...: one configuration, in the background (spawn)
job() {
	local f=$1
	shift
	# shellcheck disable=SC2317 # called by the function the job runs
	ktap_result() { printf 'R\t%s\t%s\n' "$1" "$2" >>"$f.lines"; }
	local KTAP_SKIP=0 REF_TSV=$f.tsv
	"$@" >"$f.out" 2>&1 </dev/null || true
	[ "$KTAP_SKIP" -eq 0 ] || echo S >>"$f.lines"
	touch "$f.done"
}
flush() {
	local f kind rc text
	while [ -f "$JOBDIR/$seq_out.done" ]; do
		f=$JOBDIR/$seq_out
		[ ! -s "$f.out" ] || cat "$f.out"
		[ ! -f "$f.tsv" ] || cat "$f.tsv" >>"$OUT/reference.tsv"
		if [ -f "$f.lines" ]; then
			while IFS=$'\t' read -r kind rc text; do
				case $kind in
				R) ktap_result "$rc" "$text" ;;
				S) KTAP_SKIP=$((KTAP_SKIP + 1)) ;;
				esac
			done <"$f.lines"
		fi
		rm -f "$f".*
		seq_out=$((seq_out + 1))
	done
}

# The reference's execution budget: make check's share is smaller.
budget=${REF_BUDGET:-3000000}
[ "$check_only" -eq 0 ] || budget=${REF_BUDGET:-200000}
KTAP_SKIP=0
t0=$(now)
: >"$OUT/reference.tsv"
ktap_begin verify-ref
run_table() {
	while IFS=$'\t' read -r name kind locks sc_opts tso_opts weak_opts check; do
		if [ -n "$rows" ]; then
			case " $rows " in *" $name "*) ;; *) continue ;; esac
		elif [ "$check_only" -eq 1 ] && [ "$check" != yes ]; then
			continue
		fi
		for lock in $locks; do
			if [ -n "$locks_only" ]; then
				case " $locks_only " in *" $lock "*) ;; *) continue ;; esac
			fi
			lock_bin "$lock"
			bin=$BIN
			for m in $VERIFY_MODELS; do
				opts=$(by_model "$m" "$sc_opts" "$tso_opts" "$weak_opts")
				[ "$opts" != - ] || continue
				[ "$opts" != '""' ] || opts=""
				case $kind in
				litmus-plain | litmus-lock)
					for t in $(litmus_names "${kind#litmus-}"); do
						# shellcheck disable=SC2086 # opts is a list of options
						spawn compare "$bin" "$lock/$t/$m" "$(litmus_want "$t" "$m")" -m "$m" -L "$t" $opts
					done
					;;
				lock)
					# shellcheck disable=SC2086 # opts is a list of options
					spawn compare "$bin" "$lock/$name/$m" "" -m "$m" $opts
					;;
				pinned)
					# shellcheck disable=SC2086 # opts is a list of options
					spawn pinned_only "$bin" "$lock/$name/$m" -m "$m" $opts
					;;
				*) die "common/checker/reference.tsv: row $name has kind '$kind' (litmus-plain, litmus-lock, lock or pinned)" ;;
				esac
			done
		done
	done < <(tsv_columns common/checker/reference.tsv name kind locks sc tso weak check)
	wait
	flush
}
# the litmus tests and what each model must answer, as litmus.c gives them
lock_bin today
"$BIN" -L list >"$OUT/litmus-list.tsv" 2>"$OUT/litmus-list.err" ||
	die "verify-ref: the litmus tests' expectations (verify -L list): $(head -1 "$OUT/litmus-list.err")"
run_table
echo "# $((KTAP_PASS + KTAP_FAIL)) configurations ($KTAP_SKIP skipped: larger than the reference's budget) in $(($(now) - t0)) s; table: ${OUT#"$TOP"/}/reference.tsv (label, options, behaviours dpor/reference, executions dpor/reference)"
ktap_end
