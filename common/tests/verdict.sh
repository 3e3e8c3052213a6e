#!/bin/bash
# Judge every recorded console log in common/tests/verdict/ with the same
# verdict.sh the boots use, and compare with cases.tsv.  No QEMU needed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
verdict=$here/../scripts/verdict.sh
pass=0 failed=0
while IFS=$'\t' read -r log lock plan expect qsl paths; do
	case $log in '' | '#'*) continue ;; esac
	out=$("$verdict" "case $log" "$here/verdict/$log" "$lock" "$plan" "${qsl:-off}" "${paths:--}") && rc=0 || rc=$?
	ok=0
	case $expect in
	PASS) [ "$rc" -eq 0 ] && case $out in *": PASS ("*) ok=1 ;; esac ;;
	FAIL:*) [ "$rc" -eq 1 ] && case $out in *": FAIL: "*"${expect#FAIL:}"*) ok=1 ;; esac ;;
	esac
	if [ "$ok" -eq 1 ]; then
		pass=$((pass + 1))
		printf 'ok    %-24s %s\n' "$log" "$expect"
	else
		failed=$((failed + 1))
		printf 'NOT OK %-23s expected %s, got (exit %s): %s\n' "$log" "$expect" "$rc" "$out"
	fi
done <"$here/verdict/cases.tsv"
echo "verdict: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
