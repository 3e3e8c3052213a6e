#!/bin/bash
# sim-claims.sh: the cost model's claim checks can fail.  The recorded
# results (book/sim/results.csv) must pass every claim; three doctored
# copies must each break the claim they attack:
#   - the ticket lock's rows replaced by the MCS lock's: no linear growth;
#   - one count of step 4 changed: step 4 no longer costs what step 3 does;
#   - step 7's atomics raised to step 6's: no saving of step 7.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

claims=$TOP/common/scripts/sim-claims.sh
rec=$TOP/book/sim/results.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ktap_begin sim-claims
rc=0
"$claims" "$rec" >"$tmp/rec.txt" || rc=$?
ktap_result "$rc" "the recorded results (book/sim/results.csv) keep every claim" "$tmp/rec.txt"

control() { # NAME PATTERN AWK-PROGRAM: the doctored copy must fail the claim matching PATTERN
	local name=$1 pat=$2 prog=$3
	awk -F, -v OFS=, "$prog" "$rec" >"$tmp/$name.csv"
	if "$claims" "$tmp/$name.csv" >"$tmp/$name.txt"; then
		ktap_result 1 "$name: every claim still holds"
	elif ! grep '^not ok' "$tmp/$name.txt" | grep -q "$pat"; then
		ktap_result 1 "$name: the wrong claim broke: $(grep -m1 '^not ok' "$tmp/$name.txt")"
	else
		ktap_result 0 "$name: $(grep -m1 '^not ok' "$tmp/$name.txt" | cut -c1-100)..."
	fi
}
# The awk programs are single-quoted on purpose: $1, $2 are awk's fields.
# shellcheck disable=SC2016
control ticket-is-mcs "ticket lock, heavy" \
	'$1 == "mcs" { m[$2, $3] = $0 } { r[NR] = $0; l[NR] = $1; w[NR] = $2; n[NR] = $3 }
	 END { for (i = 1; i <= NR; i++) { if (l[i] == "ticket") { $0 = m[w[i], n[i]]; $1 = "ticket"; print } else print r[i] } }'
# shellcheck disable=SC2016
control step-4-differs "step 4 costs exactly" \
	'$1 == "step-4" && $2 == "hammer" && $3 == 8 { $13 = $13 + 1 } { print }'
# shellcheck disable=SC2016
control step-7-no-saving "step 7 against step 6" \
	'$1 == "step-6" { a[$2, $3] = $17 } { r[NR] = $0 }
	 END { for (i = 1; i <= NR; i++) { $0 = r[i]; if ($1 == "step-7") $17 = a[$2, $3]; print } }'
ktap_end
