#!/bin/bash
# book-runs-verify.sh: the book's recorded checker runs still say what
# their commands print.  Runs book/tools/book-runs.sh --verify: each
# mutant's trace and step 3's passing trace is made again from its
# file's own line-1 command, on a binary built for it, and must come out
# as the file holds it (its run time and digests aside).  Then the control: a copy
# of book/runs/ in which one event of exp-no-wmb-claim.txt's trace is
# doctored must be refused, with the difference shown.
# Prints KTAP (lib.sh) and "book-runs-verify: N passed, N failed"; exits
# non-zero on any failure.  About two minutes: the checker and one small
# binary a file are compiled.
set -eu
. "$(dirname "$0")/../lib.sh"
cd "$TOP"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_begin book-runs-verify

if book/tools/book-runs.sh --verify >"$tmp/all.out" 2>"$tmp/all.err"; then
	ktap_result 0 "book-runs --verify: $(tail -1 "$tmp/all.out") ($(grep -c '# SKIP' "$tmp/all.out") files skipped: a kill table, the lab, a build or a boot)"
else
	ktap_fail_text "book-runs --verify: $(tail -1 "$tmp/all.out")" \
		"$(grep -A8 '^not ok' "$tmp/all.out" | head -30)"
fi

# The control: one operation of the trace changed, as a file recorded by
# another checker would differ.
f=exp-no-wmb-claim.txt
cp -r book/runs "$tmp/runs"
sed -i '0,/| 16 | CPU1 | store lock0+1 <- 0 |/s//| 16 | CPU1 | store lock0+1 <- 0x1 |/' "$tmp/runs/$f"
if cmp -s book/runs/$f "$tmp/runs/$f"; then
	ktap_result 1 "control: the doctoring of $f changed nothing (its row 16 is no longer 'store lock0+1 <- 0')"
elif QSL_BOOK_RUNS=$tmp/runs book/tools/book-runs.sh --verify "$f" >"$tmp/ctl.out" 2>&1; then
	ktap_fail_text "control: a copy of $f with row 16 doctored passed --verify" "$(tail -5 "$tmp/ctl.out")"
elif ! grep -q "no longer prints what it holds" "$tmp/ctl.out" || ! grep -q "^  # > | 16 | CPU1 | store lock0+1 <- 0 |" "$tmp/ctl.out"; then
	ktap_fail_text "control: a copy of $f with row 16 doctored failed, but not for its row 16" "$(tail -8 "$tmp/ctl.out")"
else
	ktap_result 0 "control: a copy of $f with row 16 doctored is refused, row 16 shown"
fi

ktap_end
