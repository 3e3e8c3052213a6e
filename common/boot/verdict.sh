#!/bin/bash
# verdict.sh RUNDIR [LABEL EXPECTED_LOCK PATHS]: judge one boot's run
# directory (see run_id in lib.sh).  With LABEL, EXPECTED_LOCK and PATHS
# the expectation is recorded in RUNDIR/expect.env; without them, the one
# recorded there is used again (make recheck).  The plan and QSLTORTURE
# come from RUNDIR/run.env: what the guest was really asked to run.
# Writes RUNDIR/verdict (PASS or FAIL), reason, verdict.txt and metrics
# (key=value from the console), prints exactly one line,
#   LABEL: PASS (summary)       or
#   LABEL: FAIL: reason (log: RUNDIR/console.log)
# and exits 0 only on PASS.  A run passes on positive evidence only:
#  - QEMU exited by itself with status 0 (RUNDIR/qemu.status);
#  - the guest reported the lock it runs and it is EXPECTED_LOCK
#    (LOCK/SHAPE where the lock word's shape has another name: the lock
#    is LOCK, the word SHAPE);
#  - every locktorture run of the plan printed "End of test: SUCCESS" and
#    its final statistics show writes (and reads, for rw locks) > 0,
#    Fail: 0;
#  - with QSLTORTURE other than "off", qsl_torture printed its PASS line
#    (see common/boot/qsl-torture/), the lock word it saw has the shape of
#    EXPECTED_LOCK, and every counter named in PATHS (comma-separated,
#    "-" for none) is above zero: the run reached those paths of the lock;
#    a NAME=0 in PATHS is a counter that must be zero: a path the run must
#    not have taken (reported as NAME=0, for the reader to see); an
#    ev.NAME is the kernel's lock event count NAME, from the guest's
#    "lock events" line (CONFIG_LOCK_EVENT_COUNTS, read from debugfs);
#  - no line of the kernel log looks like a bug, warning, oops, stall,
#    lockup or lockdep report;
#  - the guest finished its plan.
# The checks run in this order, so a failure the torture test itself
# reported is named as such, not by the warning it printed on the way.
# A guest QEMU had to kill is named first, with the kernel's first report
# of a bug, if any: that report is usually why it hung.
set -eu
. "$(dirname "$0")/lib.sh"

usage="usage: verdict.sh RUNDIR [LABEL EXPECTED_LOCK PATHS]"
[ $# -eq 1 ] || [ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
dir=${1%/}
[ -d "$dir" ] || { echo "verdict.sh: $dir is not a run directory" >&2; exit 2; }
[ -f "$dir/run.env" ] || { echo "verdict.sh: $dir has no run.env: not a run directory" >&2; exit 2; }
if [ $# -eq 4 ]; then
	printf 'label=%s\nlock=%s\npaths=%s\n' "$2" "$3" "$4" >"$dir/expect.env"
fi
[ -f "$dir/expect.env" ] || { echo "verdict.sh: $dir/expect.env is missing: give LABEL EXPECTED_LOCK PATHS" >&2; exit 2; }
env_of() { sed -n "s/^$1=//p" "$2" | head -1; }
label=$(env_of label "$dir/expect.env")
lock=$(env_of lock "$dir/expect.env")
# LOCK/SHAPE: the lock the guest runs, on a lock word of another name
shape_want=${lock#*/} lock=${lock%%/*}
paths=$(env_of paths "$dir/expect.env")
plan=$(env_of plan "$dir/run.env")
qsl=$(env_of qsltorture "$dir/run.env")
paths=${paths:--} qsl=${qsl:-off}
log=$dir/console.log
rm -f "$dir/verdict" "$dir/reason" "$dir/verdict.txt" "$dir/metrics"
metrics=()

finish() { # PASS|FAIL reason line
	printf '%s\n' "$1" >"$dir/verdict"
	printf '%s\n' "$2" >"$dir/reason"
	printf '%s\n' "$3" | tee "$dir/verdict.txt"
	if [ ${#metrics[@]} -gt 0 ]; then
		printf '%s\n' "${metrics[@]}" >"$dir/metrics"
	else
		: >"$dir/metrics"
	fi
}
fail() {
	finish FAIL "$1" "$label: FAIL: $1 (log: $log)"
	exit 1
}

[ -s "$log" ] || fail "no console output"

# The serial console ends lines with CR LF; judge a copy without CR.
text=$(mktemp)
trap 'rm -f "$text"' EXIT
tr -d '\r' <"$log" >"$text"

# first_bad: the first line of the kernel log that looks like a bug,
# warning, oops, stall, lockup or lockdep report, without its timestamp;
# empty if none.
first_bad() {
	grep -a -m1 -E "$BADNESS_RE" "$text" | sed 's/^\[[^]]*\] *//' | cut -c1-120 || true
}

status=$(run_file "$dir" qemu.status)
case $status in
"") fail "the boot did not finish (the runner wrote no qemu.status)" ;;
exit=timeout*)
	# A hung guest: say what the kernel printed before it was killed,
	# which is usually why it hung (a soft lockup, an RCU stall).
	bad=$(first_bad)
	fail "QEMU did not exit by itself: killed after $(field elapsed "$status") s (limit $(field limit "$status") s)${bad:+; the kernel had reported: $bad}"
	;;
"exit=0 "*) ;;
*) fail "QEMU exited abnormally: $status" ;;
esac
metrics+=("elapsed_s=$(field elapsed "$status")")

# a lock's name is letters and dashes: a kernel message the serial line
# put right after it ("lock=qspinlock[    2.57] ...") is not part of it
got=$(grep -a -m1 -o 'QSL: lock=[a-z-]*' "$text" | cut -d= -f2 || true)
[ -n "$got" ] || fail "the guest did not report which lock it runs (no 'QSL: lock=' line)"
metrics+=("lock=$got")
[ "$got" = "$lock" ] || fail "the guest runs the $got lock, but this step must run $lock"

summary=""
for type in $(printf '%s' "$plan" | tr ',' ' ' | sed 's/^none$//'); do
	# The statistics of this run: between its start and end markers.
	stats=$(awk -v t="$type" '
		$0 ~ "QSL: run " t " start" { on = 1; next }
		$0 ~ "QSL: run " t " end" { on = 0 }
		on' "$text")
	grep -aq "QSL: run $type start" "$text" || fail "$type: the guest never started this run"
	if printf '%s\n' "$stats" | grep -aq "$type-torture:--- End of test: FAILURE"; then
		fail "$type: locktorture reported failure: $(printf '%s\n' "$stats" | grep -a -E 'Writes:|Reads :' | tail -1 | sed 's/^\[[^]]*\] *//; s/  */ /g')"
	fi
	printf '%s\n' "$stats" | grep -aq "$type-torture:--- End of test: SUCCESS" ||
		fail "$type: no 'End of test: SUCCESS' line"
	for kind in 'Writes:' 'Reads :'; do
		line=$(printf '%s\n' "$stats" | grep -a "$kind" | tail -1 || true)
		if [ -z "$line" ]; then
			[ "$kind" = 'Reads :' ] && continue
			fail "$type: no final '$kind' statistics"
		fi
		total=$(printf '%s' "$line" | sed -n 's/.*Total: *\([0-9]*\).*/\1/p')
		fails=$(printf '%s' "$line" | sed -n 's/.*Fail: *\([0-9]*\).*/\1/p')
		if [ -z "$total" ] || [ "$total" -eq 0 ]; then
			fail "$type: zero ${kind%:} acquisitions"
		fi
		[ "$fails" = 0 ] || fail "$type: ${kind%:} Fail: $fails"
		mm=$(printf '%s' "$line" | sed -n 's|.*Max/Min: *\([0-9]*/[0-9]*\).*|\1|p')
		k=$(printf '%s' "${kind%:*}" | tr '[:upper:]' '[:lower:]' | tr -d ' ')
		metrics+=("$type.$k=$total" "$type.${k}_max=${mm%/*}" "$type.${k}_min=${mm#*/}")
		# locktorture prints "???" when its busiest writer did more than
		# twice the work of its idlest one.  That is fairness, not
		# correctness, and with 4 vCPUs on 2 host cores it follows the
		# host's scheduling: not a failure, but the summary says so.
		case $line in *'???'*)
			mm="$mm, locktorture's ??? imbalance"
			metrics+=("$type.${k}_imbalance=1")
			;;
		esac
		case $kind in
		Writes:) summary="$summary, $type $total writes (max/min $mm)" ;;
		*) summary="$summary $total reads" ;;
		esac
	done
done

if [ "$qsl" != off ]; then
	qline=$(grep -a -m1 'qsl_torture: RESULT' "$text" || true)
	[ -n "$qline" ] || fail "qsl_torture printed no RESULT line"
	case $qline in
	*"RESULT PASS "*) ;;
	*"RESULT FAIL "*) fail "qsl_torture: ${qline#*RESULT FAIL }" ;;
	*) fail "qsl_torture: unreadable result: ${qline#*RESULT }" ;;
	esac
	# Every key=value word of the RESULT line, as qsl.KEY, and of the
	# guest's line of the kernel's lock event counts, as ev.KEY.
	for w in ${qline#*RESULT PASS }; do
		case $w in *=*) metrics+=("qsl.$w") ;; esac
	done
	eline=$(grep -a -m1 'QSL: lock events' "$text" || true)
	for w in ${eline#*lock events}; do
		case $w in *=*) metrics+=("ev.$w") ;; esac
	done
	# counter NAME: the value of NAME=... on the RESULT line (ev.NAME: on
	# the lock events line), or empty.
	counter() {
		case $1 in
		ev.*) field "${1#ev.}" "$eline" ;;
		*) field "$1" "$qline" ;;
		esac
	}
	# who PATH: who counts it, for the reasons below
	who() {
		case $1 in
		ev.*) echo "the kernel's lock event counts" ;;
		*) echo qsl_torture ;;
		esac
	}
	shape=$(counter shape)
	[ "$shape" = "$shape_want" ] ||
		fail "qsl_torture saw a lock word shaped like $shape while holding the lock, expected $shape_want"
	for p in $(printf '%s' "$paths" | tr ',' ' '); do
		[ "$p" = - ] && continue
		v=$(counter "${p%=0}")
		if [ -z "$v" ]; then
			case $p in
			ev.*) fail "the kernel's lock event counts have no '${p#ev.}' (the guest printed: ${eline:-no lock events line})" ;;
			*) fail "qsl_torture reported no '${p%=0}' counter" ;;
			esac
		fi
		case $p in
		*=0)
			[ "$v" -eq 0 ] ||
				fail "$(who "$p") saw '${p%=0}' $v times, and this lock must never take that path"
			;;
		*) [ "$v" -gt 0 ] || fail "$(who "$p") never saw '$p' (the run did not reach that path of the lock)" ;;
		esac
		summary="$summary, ${p%=0}=$v"
	done
fi

bad=$(first_bad)
[ -z "$bad" ] || fail "the kernel reported: $bad"

grep -aq 'QSL: plan done' "$text" || fail "the guest did not finish its plan"
finish PASS "lock=$got$summary" "$label: PASS (lock=$got$summary)"
