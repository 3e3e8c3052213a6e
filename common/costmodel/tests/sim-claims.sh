#!/bin/bash
# sim-claims.sh: the cost model's claim checks can fail.  The recorded
# results of make sim-bench (book/sim/results.csv) and of make
# sim-overcommit (book/sim/overcommit/results.csv) must pass every claim;
# each doctored copy must break the claim it attacks:
#   sim-bench:
#   - the ticket lock's rows replaced by the MCS lock's: no linear growth;
#   - one count of step 4 changed: step 4 no longer costs what step 3 does;
#   - step 7 made 10% cheaper at N=64: it no longer costs what step 6 does;
#   - step 3 at N=4 (hammer) as slow as step 2: the pending bit gains nothing;
#   - the ticket lock three times slower from N=8 on: it falls behind
#     earlier than on every lockhammer host;
#   - the ticket lock four times slower at N=64: outside lockhammer's hosts;
#   - step 5 taking two atomics uncontended: its fast path no longer one.
#   sim-overcommit:
#   - a lost wake: one row's wakes one fewer than its halts;
#   - the native queue keeps its 1x throughput under overcommit;
#   - the paravirt step made unfair: one vCPU's count halved at 16, 2x;
#   - 6.1 no better than the paravirt step under overcommit.
#   sim-sockets:
#   - one single-socket row one cycle off make sim-bench's;
#   - CNA handing over in arrival order, as the FIFO locks do;
#   - the ticket lock 1.5x slower at four sockets of eight CPUs: the
#     queued lock ahead from 4 sockets, as Long expected;
#   - CNA's 99th percentile wait no longer than its median;
#   - the ticket lock's data in the lock's line costing nothing.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ktap_begin sim-claims
# use CLAIMS-SCRIPT RECORD: the claims and results the controls below
# doctor; the recorded results must keep every claim.
use() {
	local rc=0
	claims=$TOP/common/costmodel/$1 rec=$TOP/$2
	"$claims" "$rec" >"$tmp/rec.txt" || rc=$?
	ktap_result "$rc" "the recorded results ($2) keep every claim of $1" "$tmp/rec.txt"
}
control() { # NAME PATTERN AWK-PROGRAM: the doctored copy must fail the claim matching PATTERN
	local name=$1 pat=$2 prog=$3
	awk -F, -v OFS=, "$prog" "$rec" >"$tmp/$name.csv"
	if "$claims" "$tmp/$name.csv" >"$tmp/$name.txt"; then
		ktap_result 1 "$name: every claim still holds"
	elif ! grep '^not ok' "$tmp/$name.txt" | grep -q "$pat"; then
		ktap_result 1 "$name: the wrong claim broke: $(grep -m1 '^not ok' "$tmp/$name.txt")"
	else
		ktap_result 0 "$name: $(grep '^not ok' "$tmp/$name.txt" | grep -m1 "$pat" | cut -c1-100)..."
	fi
}
# The awk programs are single-quoted on purpose: $1, $2 are awk's fields.
use sim-claims.sh book/sim/results.csv
# shellcheck disable=SC2016
control ticket-is-mcs "ticket lock, heavy" \
	'$1 == "mcs" { m[$2, $3] = $0 } { r[NR] = $0; l[NR] = $1; w[NR] = $2; n[NR] = $3 }
	 END { for (i = 1; i <= NR; i++) { if (l[i] == "ticket") { $0 = m[w[i], n[i]]; $1 = "ticket"; print } else print r[i] } }'
# shellcheck disable=SC2016
control step-4-differs "step 4 costs exactly" \
	'$1 == "step-4" && $2 == "hammer" && $3 == 8 { $13 = $13 + 1 } { print }'
# shellcheck disable=SC2016
control step-7-cheaper "step 7 against step 6" \
	'$1 == "step-7" && $2 == "heavy" && $3 == 64 { $7 = int($7 * 0.9) } { print }'
# shellcheck disable=SC2016
control no-pending-gain "step 3, hammer, N=4" \
	'$1 == "step-2" && $2 == "hammer" && $3 == 4 { c = $7; a = $8 } { r[NR] = $0 }
	 END { for (i = 1; i <= NR; i++) { $0 = r[i]; if ($1 == "step-3" && $2 == "hammer" && $3 == 4) { $7 = c; $8 = a }; print } }'
# shellcheck disable=SC2016
control ticket-collapses "the ticket lock takes" \
	'$1 == "ticket" && $2 == "hammer" && $3 == 64 { $8 = int($8 / 4) } { print }'
# shellcheck disable=SC2016
control ticket-early "falls behind 6.1" \
	'$1 == "ticket" && $2 == "hammer" && $3 >= 8 { $7 = $7 * 3 } { print }'
# shellcheck disable=SC2016
control fast-path-atomic "uncontended (N=1, heavy)" \
	'$1 == "step-5" && $2 == "heavy" && $3 == 1 { $17 = 2 * $8 } { print }'

use sim-overcommit-claims.sh book/sim/overcommit/results.csv
# shellcheck disable=SC2016
control lost-wake "ended in a wake" \
	'$1 == "today" && $3 == 16 && $4 == 2 { $12 = $12 - 1 } { print }'
# shellcheck disable=SC2016
control native-survives "the native queue, keeps" \
	'$2 == "nr64" && $4 == 1 { base[$3] = $7 } $2 == "nr64" && $4 != 1 { $7 = base[$3] } { print }'
# shellcheck disable=SC2016
control pv-unfair "fairness (most/fewest) at most 1.65" \
	'$2 == "pv" && $1 != "today" && $3 == 16 && $4 == 2 { $8 = int($8 / 2) } { print }'
# shellcheck disable=SC2016
control today-no-better "6.1 runs at least 2x" \
	'$2 == "pv" && $1 != "today" { pv[$3, $4] = $7 } $1 == "today" && $4 != 1 { $7 = pv[$3, $4] } { print }'

use sim-sockets-claims.sh book/sim/sockets/results.csv
# shellcheck disable=SC2016
control one-socket-differs "one socket is the model" \
	'$1 == "sockets" && $2 == "today" && $3 == "hammer" && $4 == 1 && $5 == 16 { $8 = $8 + 1 } { print }'
# shellcheck disable=SC2016
control cna-fifo "CNA changes socket" \
	'$2 == "cna" && $4 > 1 { $14 = int($9 * ($4 - 1) / $4) } { print }'
# shellcheck disable=SC2016
control long-right "eight CPUs a socket, hammer" \
	'$1 == "sockets" && $2 == "ticket" && $3 == "hammer" && $4 == 4 && $5 == 32 { $8 = $8 * 1.5 } { print }'
# shellcheck disable=SC2016
control cna-no-tail "CNA pays in its tail" \
	'$2 == "cna" && $4 == 4 && $5 == 64 { $17 = $16 } { print }'
# shellcheck disable=SC2016
control line-free "ticket lock at N=64" \
	'$1 == "sockets" && $2 == "ticket" && $4 == 1 && $5 == 64 { c[$3] = $8; a[$3] = $9 } { r[NR] = $0 }
	 END { for (i = 1; i <= NR; i++) { $0 = r[i]; if ($1 == "line" && $2 == "ticket" && $5 == 64 && $7 == 1) { $8 = c[$3]; $9 = a[$3] }; print } }'

# The grid (make sim-grid, book/sim/grid/table.md) is recorded from its
# own runs: its claims must be book/sim/claims.txt's, in order, each ok
# on the defaults, or the chapter's table is of other claims.
grid=$TOP/book/sim/grid/table.md
want=$(grep -E '^(ok|not ok) ' "$TOP/book/sim/claims.txt" | sed -E 's/^(ok|not ok) +//; s/:.*//')
have=$(awk -F' [|] ' 'NR > 2 { print $2 }' "$grid")
default=$(awk -F' [|] ' 'NR > 2 && $3 != "ok" { print $1 }' "$grid")
if [ "$want" = "$have" ] && [ -z "$default" ]; then
	ktap_result 0 "the grid (book/sim/grid/table.md) has the $(printf '%s\n' "$want" | grep -c .) claims of book/sim/claims.txt, each ok on the defaults"
else
	ktap_fail_text "the grid (book/sim/grid/table.md) is not of book/sim/claims.txt's claims, or one fails on the defaults: make sim-grid RECORD=1" \
		"$(diff <(printf '%s\n' "$want") <(printf '%s\n' "$have") | head -4)"
fi
ktap_end
