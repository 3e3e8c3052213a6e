#!/bin/bash
# matrix.sh [--smoke]: the configuration matrix (make matrix).  Each scenario
# of common/boot/matrix/ is a configuration a maintainer builds a locking
# series under (PREEMPT, DEBUG_SPINLOCK, lockdep, KCSAN, KASAN, 8192
# CPUs, 8 vCPUs); each stage of MATRIX_STAGES is built with the row's
# fragment in an object tree of its own and booted on x86_64 as make
# step-N boots it: the same plan, the same judge, the same paths required
# (common/boot/expect.tsv).  A fragment whose option did not take effect stops
# its row, naming the option (build.sh), and a row passes only if the
# guest's console also holds the row's evidence line (the instrument says
# it is on, the banner says PREEMPT, the kernel counts 8 CPUs).
#
# One KTAP result per stage and row, the table (stage, row, fragment,
# vCPUs, verdict, seconds, reason) in build/matrix/table.md, and one
# verdict line.  --smoke: only the rows marked smoke (make test's cheap
# row), on the stages given.
# Environment: MATRIX_STAGES (default "8 10"), MATRIX_ROWS (default: every row),
# DURATION (s per torture run).
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"

smoke=no
if [ "${1:-}" = --smoke ]; then
	smoke=yes
	shift
fi
[ $# -eq 0 ] || die "usage: matrix.sh [--smoke]  (MATRIX_STAGES=\"8 10\" MATRIX_ROWS=\"lockdep kcsan\")"

read -ra stages <<<"${MATRIX_STAGES:-8 10}"
[ ${#stages[@]} -gt 0 ] || die "MATRIX_STAGES is empty; give stages, e.g. MATRIX_STAGES=\"8 10\""
for s in "${stages[@]}"; do
	stage "$s" >/dev/null
	[ -n "$(expect_field "$(stage "$s")" x86_64 lock 2>/dev/null)" ] ||
		die "MATRIX_STAGES: step $s has no x86_64 row in common/boot/expect.tsv; the matrix boots x86_64"
done
if [ -n "${MATRIX_ROWS:-}" ]; then
	read -ra rows <<<"$MATRIX_ROWS"
	for r in "${rows[@]}"; do matrix_field "$r" fragment >/dev/null; done
elif [ "$smoke" = yes ]; then
	rows=()
	for r in $(matrix_rows); do
		[ "$(matrix_field "$r" smoke)" != yes ] || rows+=("$r")
	done
else
	mapfile -t rows < <(matrix_rows)
fi
[ ${#rows[@]} -gt 0 ] || die "no matrix rows to run (MATRIX_ROWS='${MATRIX_ROWS:-}', --smoke=$smoke)"

out=$BUILD/matrix
mkdir -p "$out"
table=$out/table.md
{
	echo "| stage | row | fragment | vCPUs | verdict | seconds | reason |"
	echo "|---|---|---|---|---|---|---|"
} >"$table.tmp"

ktap_begin matrix $((${#stages[@]} * ${#rows[@]}))
i=0
for s in "${stages[@]}"; do
	n=$(stage "$s")
	for r in "${rows[@]}"; do
		i=$((i + 1))
		frag=$(matrix_field "$r" fragment)
		cpus=$(matrix_field "$r" cpus)
		log=$out/$(src_id "$n")-$r.out
		say "matrix $i/$((${#stages[@]} * ${#rows[@]})): step $n, row $r ($(matrix_field "$r" shows))"
		[ "$frag" = - ] || say "fragment common/boot/matrix/$frag in $(QSL_MATRIX_ROW=$r obj_dir "$n" x86_64 | sed "s|^$TOP/||") (a build of its own)"
		start=$(now)
		dir=$(run_dir "$n" x86_64 "matrix-$r")
		QSL_MATRIX_ROW=$r CPUS=$cpus "$TOP/common/boot/step.sh" --tag "matrix-$r" "$n" x86_64 >"$log" 2>&1 || true
		secs=$(($(now) - start))
		verdict=$(run_file "$dir" verdict)
		reason=$(run_file "$dir" reason)
		if [ -z "$verdict" ]; then
			# step.sh stopped before it made a run directory: its last words
			verdict=ERROR
			reason=$(grep -a '^error: ' "$log" | tail -1 | cut -c8-)
			reason=${reason:-step.sh stopped without a verdict; see ${log#"$TOP"/}}
		fi
		if [ "$verdict" = PASS ] && ! matrix_evidence_ok "$r" "$dir/console.log"; then
			verdict=FAIL
			reason="the boot passed, but its console lacks the row's evidence '$(matrix_field "$r" evidence)': what the row configures did not run (log: ${dir#"$TOP"/}/console.log)"
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "step-$n" "$r" "$frag" "$cpus" "$verdict" "$secs" \
			"$(printf '%s' "$reason" | tr '|' '/')" >>"$table.tmp"
		rc=1
		[ "$verdict" != PASS ] || rc=0
		ktap_result "$rc" "step-$n [matrix: $r] x86_64, $cpus vCPUs: $verdict ($secs s): $reason" "$log"
	done
done
mv "$table.tmp" "$table"
ktap_note "the table: ${table#"$TOP"/}"
while IFS= read -r l; do ktap_note "$l"; done <"$table"
ktap_end
