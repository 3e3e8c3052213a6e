#!/bin/bash
# Judge every recorded run directory in common/boot/tests/verdict/ with the same
# verdict.sh the boots use (and make recheck), on a scratch copy, and
# compare with the case's "expected" file: PASS, or FAIL:<text the one-line
# reason must contain>.  Where the case has "expected-metrics", each of its
# key=value lines must be in the metrics the judge wrote.  No QEMU needed.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
here=$TOP/common/boot/tests
verdict=$TOP/common/boot/verdict.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ktap_begin verdict
for case in "$here"/verdict/*/; do
	case=${case%/}
	name=$(basename "$case")
	expect=$(cat "$case/expected")
	run=$scratch/$name
	cp -rL "$case" "$run"
	out=$("$verdict" "$run") && rc=0 || rc=$?
	ok=0 why=""
	case $expect in
	PASS) [ "$rc" -eq 0 ] && case $out in *": PASS ("*) ok=1 ;; esac ;;
	FAIL:*) [ "$rc" -eq 1 ] && case $out in *": FAIL: "*"${expect#FAIL:}"*) ok=1 ;; esac ;;
	esac
	# The files the consumers read must agree with the line.
	if [ "$ok" -eq 1 ]; then
		[ "$(cat "$run/verdict")" = "${expect%%:*}" ] || { ok=0 why="verdict file says $(cat "$run/verdict")"; }
		[ "$(cat "$run/verdict.txt")" = "$out" ] || { ok=0 why="verdict.txt differs from the line"; }
		case $out in *"$(cat "$run/reason")"*) ;; *) ok=0 why="reason file not in the line" ;; esac
	fi
	if [ "$ok" -eq 1 ] && [ -f "$case/expected-metrics" ]; then
		while IFS= read -r m; do
			grep -qxF -- "$m" "$run/metrics" || { ok=0 why="metrics lack $m"; }
		done <"$case/expected-metrics"
	fi
	if [ "$ok" -eq 1 ]; then
		ktap_result 0 "$name: $expect"
	else
		ktap_result 1 "$name: expected $expect, got (exit $rc): $out${why:+ [$why]}"
	fi
done
# The judge's own input errors: not a verdict, exit 2.
for args in "" /nonexistent "$here/verdict"; do
	# shellcheck disable=SC2086 # empty means no argument
	if "$verdict" $args >/dev/null 2>&1; then rc=0; else rc=$?; fi
	if [ "$rc" -eq 2 ]; then
		ktap_result 0 "bad input '${args#"$here"/}': exit 2"
	else
		ktap_result 1 "bad input '${args#"$here"/}': expected exit 2, got $rc"
	fi
done
# make recheck on the judged copies: the same verdicts again, exit 0; a
# changed expectation is listed as CHANGED, exit 1; a harness ERROR is
# listed, not judged.
recheck=$TOP/common/boot/recheck.sh
check() { # description command...
	local what=$1
	shift
	if "$@"; then
		ktap_result 0 "$what"
	else
		ktap_result 1 "$what"
	fi
}
# The recorded cases are run directories with their verdict recorded:
# make recheck on them, in place, finds every verdict the same (the loop
# above has judged copies of them the same way) and writes nothing into
# them; a harness ERROR beside them is listed, not judged.
mkdir "$scratch/error"
printf 'ERROR\n' >"$scratch/error/verdict"
sums() { find "$here/verdict" -type f -print0 | sort -z | xargs -0 md5sum; }
before=$(sums)
n_pass=$(cat "$here"/verdict/*/expected | grep -c '^PASS') || true
n_fail=$(cat "$here"/verdict/*/expected | grep -c '^FAIL') || true
out=$("$recheck" "$here"/verdict/*/ "$scratch/error/" 2>&1) && rc=0 || rc=$?
check "recheck: the recorded cases' own verdict and reason files, none changed; an ERROR not judged" \
	test "$rc" -eq 0 -a "$(printf '%s\n' "$out" | tail -1)" = "recheck: $((n_pass + n_fail)) judged ($n_pass PASS, $n_fail FAIL), 0 changed, 1 not judged"
check "recheck: judging leaves the recorded runs as they were" test "$(sums)" = "$before"
# A changed expectation, among unchanged ones, is listed and fails.
sed -i 's/^lock=ticket$/lock=qspinlock/' "$scratch/pass/expect.env"
out=$("$recheck" "$scratch/pass/" "$scratch/timeout/" "$scratch/error/" 2>&1) && rc=0 || rc=$?
check "recheck: a changed expectation is listed and fails" \
	test "$rc" -eq 1 -a "$(printf '%s\n' "$out" | grep -c '^CHANGED')" -eq 1
# --update records the new verdict: the next recheck finds it the same.
out=$("$recheck" --update "$scratch/pass/" 2>&1) && rc=0 || rc=$?
check "recheck --update: a changed verdict is listed and written" \
	test "$rc" -eq 1 -a "$(cat "$scratch/pass/verdict")" = FAIL
out=$("$recheck" "$scratch/pass/" 2>&1) && rc=0 || rc=$?
check "recheck after --update: the recorded verdict is the new one" test "$rc" -eq 0
out=$("$recheck" /nonexistent 2>&1) && rc=0 || rc=$?
check "recheck: a directory that is not a run stops with the reason" \
	test "$rc" -eq 1 -a -n "$(printf '%s\n' "$out" | grep 'is not a run directory')"
ktap_end
