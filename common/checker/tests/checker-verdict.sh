#!/bin/bash
# checker-verdict.sh: a failure the checker sees before the first event of
# an execution is a FAIL, and its replay line replays it.
#
# The checker kept a failing schedule only when it had events, so a
# vc_fail() at event 0 was counted (failures=1) and the verdict still
# said PASS.  The case that shows it: trylock users (-t) on the ticket
# lock, which has no trylock in the checker's API and fails at once.
# The negative control is that old bug planted in a copy of the checker:
# the same run must then be caught by this test's own check.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"

OUT=$BUILD/tests/checker-verdict
rm -rf "$OUT"
mkdir -p "$OUT"
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
"$TOP/common/boot/pristine.sh"

# judge BIN LABEL: is BIN's run a FAIL, with exit status 1, whose printed
# replay command fails the same way?  Prints why not, returns 1.
judge() {
	local bin=$1 log=$OUT/$2.log rc=0 replay
	"$bin" -m sc -c 3 -a 1 -t 1 >"$log" 2>&1 || rc=$?
	grep -q '^result: .* verdict=FAIL .*failures=1 ' "$log" || {
		echo "the result line does not say verdict=FAIL with failures=1: $(grep '^result:' "$log" | cut -c1-160) (log: ${log#"$TOP"/})"
		return 1
	}
	[ "$rc" -eq 1 ] || {
		echo "exit status $rc, not 1 (log: ${log#"$TOP"/})"
		return 1
	}
	replay=$(sed -n 's/^replay: //p' "$log")
	[ -n "$replay" ] || {
		echo "no replay line (log: ${log#"$TOP"/})"
		return 1
	}
	rc=0
	sh -c "$replay" >"$log.replay" 2>&1 || rc=$?
	if [ "$rc" -ne 1 ] || ! grep -q ': FAIL: .*(replayed, 0 events)' "$log.replay"; then
		echo "its replay ($replay) did not fail at event 0: exit $rc, $(head -1 "$log.replay")"
		return 1
	fi
}

ktap_begin checker-verdict
build_checker
bin=$(build_other ticket) || die "checker-verdict: the ticket lock's checker: $bin"
if why=$(judge "$bin" checker); then
	ktap_result 0 "a failure before the first event is a FAIL (exit 1), and its replay line replays it"
else
	ktap_result 1 "a failure before the first event: $why"
fi

# the control: the old bug back in a copy of the checker's sources
ctl=$OUT/control
mkdir -p "$ctl/common/checker" "$ctl/common/costmodel"
cp common/checker/*.[ch] "$ctl/common/checker/"
cp common/costmodel/*.[ch] "$ctl/common/costmodel/"
sed -i 's/if (b->set && (preemptions/if (b->n \&\& (preemptions/' "$ctl/common/checker/explore.c"
sed -i 's/if (s->best\.set) {/if (s->best.n) {/' "$ctl/common/checker/main.c"
if [ "$(diff -r common/checker "$ctl/common/checker" | grep -c '^>')" -ne 2 ]; then
	ktap_result 1 "control: planting the old bug changed not exactly 2 lines of explore.c and main.c (changed since?)"
else
	VERIFY_CHECKER_ROOT=$ctl build_checker
	bin=$(build_other ticket) || die "checker-verdict: the control's checker: $bin"
	if why=$(judge "$bin" control); then
		ktap_result 1 "control: a checker that drops event-0 failures passed the check"
	else
		ktap_result 0 "control: a checker that drops event-0 failures is caught: $why"
	fi
fi
ktap_end
