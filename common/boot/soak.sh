#!/bin/bash
# soak.sh: the depth make test leaves out (make soak).  Every step and
# today's tree, on the architectures common/boot/expect.tsv boots by default,
# under the torture plan for DURATION seconds a run (default 60, make
# test's boots run 8): the same builds, boots and verdicts as make step-N,
# only longer, so that rarer interleavings get their chance.  Ends with a
# KTAP block of the verdicts and "soak: N passed, N failed".
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

DURATION=$(duration_for soak)
export DURATION
t0=$(now)
for d in $(step_dirs) today; do
	if [ "$d" = today ]; then n=today; else n=$((10#$(basename "$d" | cut -c1-2))); fi
	say "soak: $(stage_label "$n"), $DURATION s a torture run"
	"$TOP/common/boot/step.sh" "$n" || true
	arches=$(expect_arches "$n" "yes step")
	for a in $arches; do
		dir=$(run_dir "$n" "$a")
		v=$(run_file "$dir" verdict.txt)
		if [ "$(run_file "$dir" verdict)" = PASS ]; then
			ktap_defer 0 "$v"
		else
			ktap_defer 1 "${v:-$(stage_label "$n") $a: no verdict in ${dir#"$TOP"/}}"
		fi
	done
done
echo "# DURATION=$DURATION, $(($(now) - t0)) s"
ktap_replay soak
