#!/bin/bash
# recheck.sh [--update] [RUNDIR...]: judge recorded boots again, as the
# kernel's kvm-recheck.sh does: verdict.sh on each run directory (default:
# every one under build/runs/), with the expectation recorded in its
# expect.env.  The judge works on a scratch copy, so the recorded verdict
# stays what the run was judged when it ran; --update writes the new one
# into the run directory.  A verdict is the same when its verdict and
# reason files are (the sentence names where the log is, which is not a
# verdict).  Each line says the new verdict and whether it is the one
# recorded; a run the harness could not make (verdict ERROR, or no
# expect.env) is listed, not judged.  Ends "recheck: N judged (N PASS,
# N FAIL), N changed, N not judged"; exits 1 if any verdict changed - after
# an edit of the judge, that is the list to read.
set -eu
. "$(dirname "$0")/lib.sh"

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
	[ -d "$BUILD/runs" ] || die "no recorded runs: $BUILD/runs does not exist (run make step-N first)"
	mapfile -t dirs < <(find "$BUILD/runs" -mindepth 1 -maxdepth 1 -type d | sort)
	[ ${#dirs[@]} -gt 0 ] || die "no recorded runs in $BUILD/runs (run make step-N first)"
fi
for d in "${dirs[@]}"; do
	[ -f "$d/run.env" ] || [ -f "$d/verdict" ] ||
		die "$d is not a run directory (no run.env, no verdict); run directories are under ${BUILD#"$TOP"/}/runs/"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
judged=0 passed=0 failed=0 changed=0 skipped=0
for d in "${dirs[@]}"; do
	d=${d%/}
	old=$(run_file "$d" verdict)
	oldreason=$(run_file "$d" reason)
	oldline=$(run_file "$d" verdict.txt)
	if [ "$old" = ERROR ] || [ ! -f "$d/expect.env" ] || [ ! -f "$d/run.env" ]; then
		skipped=$((skipped + 1))
		printf 'not judged  %s: %s\n' "${d#"$TOP"/}" "${oldline:-the harness recorded no expectation}"
		continue
	fi
	judged=$((judged + 1))
	work=$d
	if [ "$update" -eq 0 ]; then
		work=$scratch/$(basename "$d")
		rm -rf "$work"
		cp -r "$d" "$work"
	fi
	if line=$("$TOP/common/boot/verdict.sh" "$work"); then
		passed=$((passed + 1))
	else
		rc=$?
		[ "$rc" -eq 1 ] || die "verdict.sh could not judge $d (exit $rc)"
		failed=$((failed + 1))
	fi
	new=$(run_file "$work" verdict)
	newreason=$(run_file "$work" reason)
	if [ "$new" = "$old" ] && [ "$newreason" = "$oldreason" ]; then
		printf 'same  %-4s  %s\n' "$new" "${line//$work/$d}"
	else
		changed=$((changed + 1))
		printf 'CHANGED     %s\n      was:  %s: %s\n      now:  %s: %s\n' "${d#"$TOP"/}" \
			"${old:-no verdict}" "$oldreason" "$new" "$newreason"
	fi
done
echo "recheck: $judged judged ($passed PASS, $failed FAIL), $changed changed, $skipped not judged$([ "$update" -eq 1 ] && echo ', recorded verdicts updated')"
[ "$changed" -eq 0 ]
