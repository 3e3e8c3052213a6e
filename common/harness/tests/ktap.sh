#!/bin/bash
# ktap.sh: the project's KTAP is read whole by the kernel's own parser
# (6.1's tools/testing/kunit/kunit.py parse, through ktap-read.sh).
#
#  - a nested block printed by lib.sh's functions now: a harness that
#    runs another as a subtest (its own plan, notes, a failure with its
#    detail), a subtest of the block's own (ktap_sub_begin), a plain
#    test and a skipped one, as make test prints them;
#  - the recorded output of a whole make test and of make check
#    (common/harness/tests/ktap/, recorded by make ktap-record);
#  - negative controls: copies of the recorded make test output with one
#    fault each (a subtest closed under another name, a result missing
#    from its plan, a number out of order, results after the block, as
#    make test printed its summary before) must each be refused.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"
"$TOP/common/boot/pristine.sh" >/dev/null

read_ok() { # FILE: ktap-read.sh's verdict; returns as it does
	"$TOP/common/harness/ktap-read.sh" "$1" 2>&1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The nested block, printed by lib.sh's functions in a fresh shell (the
# harness under test is this file's caller's library, not a copy).
(
	unset KTAP_SUBTEST_OF_THIS KTAP_INDENT_OF_THIS
	. "$TOP/common/harness/lib.sh"
	ktap_begin outer 4
	KTAP_SUBTEST=inner KTAP_INDENT="    " bash -c '
		. "$1/common/harness/lib.sh"
		ktap_begin inner 3
		ktap_note "a table line"
		ktap_result 0 "first"
		echo "detail of the second" >"$2/detail"
		ktap_result 1 "second" "$2/detail"
		ktap_result 0 "third # SKIP not on this host"
		ktap_end || true' _ "$TOP" "$tmp"
	ktap_result 1 inner
	# a subtest of this script's own block (make test's step)
	ktap_sub_begin "in-process" 2
	ktap_result 0 "its first"
	ktap_result 0 "its second # SKIP not here"
	rc=0
	ktap_sub_end || rc=$?
	ktap_result "$rc" "in-process"
	ktap_result 0 "a plain test"
	ktap_result 0 "a skipped test # SKIP because"
	ktap_end || true
) >"$tmp/nested.txt"

ktap_begin ktap 7
if v=$(read_ok "$tmp/nested.txt"); then
	case $v in
	*"read 7 tests (3 passed, 1 failed, 3 skipped)"*) ktap_result 0 "lib.sh's nested block: ${v#*: *: }" ;;
	*) ktap_fail_text "lib.sh's nested block: not the 7 tests it printed" "$v" ;;
	esac
else
	ktap_fail_text "lib.sh's nested block" "$(printf '%s\n' "$v"; cat "$tmp/nested.txt")"
fi

for rec in make-test make-check; do
	f=common/harness/tests/ktap/$rec.txt
	if [ ! -f "$f" ]; then
		ktap_result 1 "$f is missing: make ktap-record writes it"
	elif v=$(read_ok "$f"); then
		ktap_result 0 "the recorded $rec output: ${v#*: *: }"
	else
		ktap_fail_text "the recorded $rec output ($f)" "$v"
	fi
done

# control NAME AWK-PROGRAM: a doctored copy of the recorded make test
# output must be refused.
control() {
	local name=$1 prog=$2 f=common/harness/tests/ktap/make-test.txt
	[ -f "$f" ] || { ktap_result 1 "control $name: no recorded make test output"; return; }
	awk "$prog" "$f" >"$tmp/$name.txt"
	if cmp -s "$f" "$tmp/$name.txt"; then
		ktap_result 1 "control $name: the doctoring changed nothing (the recorded output's form changed?)"
	elif v=$(read_ok "$tmp/$name.txt"); then
		ktap_fail_text "control $name: read as sound" "$v"
	else
		ktap_result 0 "control $name: refused: $(printf '%s\n' "$v" | tail -1 | sed 's/^ *//' | cut -c1-120)"
	fi
}
# shellcheck disable=SC2016 # awk programs
control renamed-subtest '!done && /^(not )?ok [0-9]+ make check$/ { sub(/make check$/, "make chekc"); done = 1 } { print }'
# shellcheck disable=SC2016
control missing-result '!done && /^    (not )?ok 2 / { done = 1; next } { print }'
# shellcheck disable=SC2016
control out-of-order '!done && /^    (not )?ok 3 / { sub(/ok 3 /, "ok 4 "); done = 1 } { print }'
# shellcheck disable=SC2016
control trailing-results '{ print } END { print "ok 1 make check: a summary line as results"; print "ok 2 verify --short" }'
ktap_end
