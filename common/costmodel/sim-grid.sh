#!/bin/bash
# sim-grid.sh [--record] [--table]: where each claim of the contention
# chapter holds (make sim-grid).
#
# The claims of make sim-bench (sim-claims.sh) are checked on the
# model's defaults: C = 100, a read miss keeps its line 20% of C, hold
# 100, work 2000.  This runs make sim-bench again with one of them moved
# at a time, C = 50, 200, 300; read occupancy 10, 15, 25, 40%; hold 0,
# 500, 2500; work 500, 10000 (the hammer workload's), and checks every
# claim on each run.  A claim that holds on every run is not an accident
# of one point; one that fails somewhere is labelled with where.
#
# Writes build/sim-grid/: NAME/ (each run's results.csv and claims.txt)
# and table.md: a row a claim, a column a run, and where it holds.  Then
# compares table.md with the recorded book/sim/grid/table.md (--record
# writes it).  13 runs of make sim-bench: about 8 minutes on 2 cores.
# --table: no runs: the claims checked again on the last runs' results,
# and the table.
set -eu
. "$(dirname "$0")/../boot/lib.sh"

record=0 table_only=0
for a in "$@"; do
	case $a in
	--record) record=1 ;;
	--table) table_only=1 ;;
	*) die "sim-grid.sh: unknown argument '$a'; usage: sim-grid.sh [--record] [--table]" ;;
	esac
done
out=$BUILD/sim-grid rec=$TOP/book/sim/grid/table.md
mkdir -p "$out"

# name and the SIM_* setting of each run, the defaults first
runs=("default:" "C=50:SIM_TRANSFER=50" "C=200:SIM_TRANSFER=200" "C=300:SIM_TRANSFER=300"
	"O=10%:SIM_OCCUPANCY=10" "O=15%:SIM_OCCUPANCY=15" "O=25%:SIM_OCCUPANCY=25"
	"O=40%:SIM_OCCUPANCY=40" "hold=0:SIM_HOLD=0" "hold=500:SIM_HOLD=500"
	"hold=2500:SIM_HOLD=2500" "work=500:SIM_WORK=500" "work=10000:SIM_WORK=10000")
t0=$(date +%s) i=0
[ "$table_only" -eq 1 ] || say "sim-grid: make sim-bench ${#runs[@]} times, one parameter moved at a time, every claim checked on each"
for r in "${runs[@]}"; do
	if [ "$table_only" -eq 1 ]; then
		dir=$out/$(printf '%s' "${r%%:*}" | tr -c 'A-Za-z0-9=\n' '_')
		[ -s "$dir/results.csv" ] ||
			die "sim-grid --table: no run ${r%%:*} in ${out#"$TOP"/}: run make sim-grid first"
		"$TOP/common/costmodel/sim-claims.sh" "$dir/results.csv" >"$dir/claims.txt" || true
		continue
	fi
	name=${r%%:*} set=${r#*:}
	dir=$out/$(printf '%s' "$name" | tr -c 'A-Za-z0-9=\n' '_')
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # set is one VAR=VALUE, or empty
	env SIM_OUT="$dir" $set "$TOP/common/costmodel/sim.sh" >"$dir/log.txt" 2>&1 ||
		grep -q '^sim: ' "$dir/log.txt" ||
		die "sim-grid: make sim-bench with $name stopped: see ${dir#"$TOP"/}/log.txt"
	"$TOP/common/costmodel/sim-claims.sh" "$dir/results.csv" >"$dir/claims.txt" || true
	i=$((i + 1))
	el=$(($(date +%s) - t0))
	say "sim-grid: $i/${#runs[@]} $name: $(grep -c '^ok' "$dir/claims.txt") claims hold, $(grep -c '^not ok' "$dir/claims.txt") do not ($el s, about $((el * (${#runs[@]} - i) / i)) s to go)"
done

# The table: a claim a row (its words up to the first colon, from the
# default run), ok or no on each run, and where it does not hold.
{
	echo "| # | claim | $(for r in "${runs[@]}"; do printf '%s | ' "${r%%:*}"; done)holds |"
	echo "|--:|:--|$(for _ in "${runs[@]}"; do printf ':-:|'; done):--|"
	for r in "${runs[@]}"; do
		name=${r%%:*}
		printf '%s\t' "$name"
		grep -E '^(ok|not ok) ' "$out/$(printf '%s' "$name" | tr -c 'A-Za-z0-9=\n' '_')/claims.txt" |
			awk '{ printf "%s%s", (NR > 1 ? "\t" : ""), ($1 == "ok" ? "ok" : "no") }'
		echo
	done | awk -F'\t' -v names="$(grep -E '^(ok|not ok) ' "$out/default/claims.txt" |
		sed -E 's/^(ok|not ok) +//; s/:.*//' | tr '\n' '\t')" '
		{ run[NR] = $1; for (i = 2; i <= NF; i++) v[NR, i - 1] = $i; if (NF - 1 > n) n = NF - 1 }
		END {
			split(names, N, "\t")
			for (c = 1; c <= n; c++) {
				s = "| " c " | " N[c]; fails = ""
				for (r = 1; r <= NR; r++) {
					s = s " | " v[r, c]
					if (v[r, c] != "ok") fails = fails (fails == "" ? "" : ", ") run[r]
				}
				print s " | " (fails == "" ? "every run" : "not at " fails) " |"
			}
		}'
} >"$out/table.md"
cat "$out/table.md"

if [ "$record" -eq 1 ]; then
	mkdir -p "$(dirname "$rec")"
	cp "$out/table.md" "$rec"
	echo "sim-grid: recorded ${rec#"$TOP"/} ($(($(date +%s) - t0)) s)"
	exit 0
fi
[ -f "$rec" ] || die "sim-grid: no recorded ${rec#"$TOP"/}; write it with: make sim-grid RECORD=1"
if cmp -s "$out/table.md" "$rec"; then
	echo "sim-grid: OK: ${#runs[@]} runs, the table as ${rec#"$TOP"/} records it ($(($(date +%s) - t0)) s)"
else
	diff "$rec" "$out/table.md" | head -6 >&2
	echo "sim-grid: FAIL: the table differs from ${rec#"$TOP"/} (the model, a lock or a claim changed; make sim-grid RECORD=1 records it again)"
	exit 1
fi
