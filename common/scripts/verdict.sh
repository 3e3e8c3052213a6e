#!/bin/bash
# verdict.sh LABEL LOG EXPECTED_LOCK PLAN [QSLTORTURE [PATHS]]
# Judge one guest console log.  Prints exactly one line,
#   LABEL: PASS (summary)       or
#   LABEL: FAIL: reason (log: LOG)
# and exits 0 only on PASS.  A run passes on positive evidence only:
#  - QEMU exited by itself (the runner's HOST line says so, exit 0);
#  - the guest reported the lock it runs and it is EXPECTED_LOCK;
#  - every locktorture run of PLAN printed "End of test: SUCCESS" and its
#    final statistics show writes (and reads, for rw locks) > 0, Fail: 0;
#  - with QSLTORTURE other than "off", qsl_torture printed its PASS line
#    (see common/qsl-torture/), the lock word it saw has the shape of
#    EXPECTED_LOCK, and every counter named in PATHS (comma-separated,
#    "-" for none) is above zero: the run reached those paths of the lock;
#  - no line of the kernel log looks like a bug, warning, oops, stall,
#    lockup or lockdep report;
#  - the guest finished its plan.
# The checks run in this order, so a failure the torture test itself
# reported is named as such, not by the warning it printed on the way.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 4 ] || { echo "usage: verdict.sh LABEL LOG EXPECTED_LOCK PLAN [QSLTORTURE [PATHS]]" >&2; exit 2; }
label=$1 log=$2 lock=$3 plan=$4 qsl=${5:-off} paths=${6:--}

fail() {
	printf '%s: FAIL: %s (log: %s)\n' "$label" "$1" "$log"
	exit 1
}

[ -s "$log" ] || fail "no console output"

# The serial console ends lines with CR LF; judge a copy without CR.
text=$(mktemp)
trap 'rm -f "$text"' EXIT
tr -d '\r' <"$log" >"$text"

host=$(grep -a '^HOST: qemu' "$text" | tail -1 || true)
case $host in
"") fail "the boot did not finish (the runner wrote no HOST line)" ;;
*timeout*) fail "QEMU did not exit by itself: ${host#HOST: }" ;;
"HOST: qemu exit=0 "*) ;;
*) fail "QEMU exited abnormally: ${host#HOST: }" ;;
esac

got=$(grep -a -m1 -o 'QSL: lock=[^ ]*' "$text" | cut -d= -f2 || true)
[ -n "$got" ] || fail "the guest did not report which lock it runs (no 'QSL: lock=' line)"
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
		# locktorture prints "???" when its busiest writer did more than
		# twice the work of its idlest one.  That is fairness, not
		# correctness, and with 4 vCPUs on 2 host cores it follows the
		# host's scheduling: not a failure, but the summary says so.
		case $line in *'???'*) mm="$mm, locktorture's ??? imbalance" ;; esac
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
	# counter NAME: the value of NAME=... on the RESULT line, or empty.
	counter() { field "$1" "$qline"; }
	shape=$(counter shape)
	[ "$shape" = "$lock" ] ||
		fail "qsl_torture saw a lock word shaped like $shape while holding the lock, expected $lock"
	for p in $(printf '%s' "$paths" | tr ',' ' '); do
		[ "$p" = - ] && continue
		v=$(counter "$p")
		[ -n "$v" ] || fail "qsl_torture reported no '$p' counter"
		[ "$v" -gt 0 ] || fail "qsl_torture never saw '$p' (the run did not reach that path of the lock)"
		summary="$summary, $p=$v"
	done
fi

bad=$(grep -a -m1 -E "$BADNESS_RE" "$text" || true)
[ -z "$bad" ] || fail "the kernel reported: $(printf '%s' "$bad" | sed 's/^\[[^]]*\] *//' | cut -c1-120)"

grep -aq 'QSL: plan done' "$text" || fail "the guest did not finish its plan"
printf '%s: PASS (lock=%s%s)\n' "$label" "$got" "$summary"
