#!/bin/bash
# The configuration matrix's evidence lines (common/boot/matrix/), checked
# without a boot: each row's line must match the console line its
# instrument printed in a real boot of that row (common/boot/tests/matrix/
# ROW.log, copied from build/runs/*-matrix-ROW/console.log), and must
# match nothing in a plain boot's console (common/boot/tests/verdict/pv-guest:
# step 10, 4 vCPUs, none of the rows' options), so that a row whose
# configuration did not run cannot pass on a line every boot prints.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"
plain=common/boot/tests/verdict/pv-guest/console.log
[ -f "$plain" ] || die "$plain is missing: the plain boot the evidence lines must not match"
ktap_begin matrix-evidence
for row in $(matrix_rows); do
	evidence=$(matrix_field "$row" evidence)
	if [ "$evidence" = - ]; then
		ktap_result 0 "$row: no evidence line (its configuration, checked by build.sh, is the evidence)"
		continue
	fi
	seen=common/boot/tests/matrix/$row.log
	if [ ! -f "$seen" ]; then
		ktap_result 0 "$row # SKIP no boot of this row recorded yet ($seen): make matrix MATRIX_ROWS=$row, then copy the line from its console"
	elif ! matrix_evidence_ok "$row" "$seen"; then
		ktap_fail_text "$row: '$evidence' does not match the line its boot printed" "$(cat "$seen")"
	elif matrix_evidence_ok "$row" "$plain"; then
		ktap_fail_text "$row: '$evidence' also matches a plain boot ($plain)" "$(grep -aE -- "$evidence" "$plain" | head -3)"
	else
		ktap_result 0 "$row: '$evidence' matches its boot's line and not a plain boot"
	fi
done
ktap_end
