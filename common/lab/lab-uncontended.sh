#!/bin/bash
# lab-uncontended.sh [--record] [LOCK...]: what one uncontended lock and
# unlock cost, counted instead of timed.  LOCK: step-N (each step with a
# queued spinlock), ticket, pthread, mcs; none: all of them.
#
# The binaries are lab-bench.sh's (bench_build in lab/lib.sh: each step's
# queued spinlock compiled as the lab's stress program is, nr64, x86_64;
# 6.1's generic ticket lock, glibc's pthread spinlock and a pointer-tail
# MCS lock from the newest step's binary).  Each lock runs bench.c's
# uncontended loop (one thread, nothing inside or between) under
# valgrind --tool=callgrind twice, collecting only inside the lock
# function (bench.c's step_lock, ticket_lock, pthread_lock, mcs_take) and
# then only inside the unlock function, with what they call.  The loop
# runs for a time, not a count: its pairs are the ops= the program prints,
# and callgrind's count of calls from the loop must equal them.  Nothing
# outside the two functions is counted, so start-up costs nothing, and
# every instruction's count must be a whole multiple of the pairs (every
# call took the same path), or the run stops.  So the numbers are the
# same on every run of the same binary:
#   instructions   executed instructions (callgrind's Ir) per call, from
#                  the function's first instruction to its ret (the call
#                  in the loop is not counted; the ticket, pthread and MCS
#                  wrappers' lea and jmp are);
#   atomics        executed x86 locked instructions per call: a lock-
#                  prefixed instruction or an xchg with a memory operand,
#                  found by matching callgrind's instruction addresses
#                  (--dump-instr=yes) to objdump -d of the binary.
# perf stat is probed first: where it counts cycles:u and instructions:u,
# each lock's loop is also run natively for 100 and 300 ms and the
# difference gives cycles and instructions per loop iteration (the lock,
# the unlock and the loop around them); they are reported beside the
# counts, not recorded, since they vary from run to run.
#
# Output: build/lab/uncontended/: results.csv (one row a lock: the
# instructions and atomics per lock + unlock, then the lock's and the
# unlock's, then what each executes: its locked instructions, or else its
# plain stores), table.md (with the ratio to the ticket lock), run.txt
# (the command, the instruments and their versions), and
# paths/LOCK-{lock,unlock}.txt (each executed instruction, its count per
# call).  results.csv is compared with the recorded copy
# book/lab/uncontended/results.csv (QSL_UNCONTENDED_RECORD: another copy,
# for the test's doctored ones), row by row for the locks run; the first
# row that differs fails the run.  --record: write the record instead
# (every lock).  QSL_PERF: the perf command (default perf).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

# The locks, by the names bench.c's -l takes, and the functions of its
# lock_ops table that take and release each (for the steps: step_lock).
kinds="ticket pthread mcs"
declare -A lock_fn=([step]=step_lock [ticket]=ticket_lock [pthread]=pthread_lock [mcs]=mcs_take)
declare -A unlock_fn=([step]=step_unlock [ticket]=ticket_unlock [pthread]=pthread_unlock [mcs]=mcs_release)

valid=""
for d in $(step_dirs); do
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] || continue
	valid="$valid step-$((10#$(basename "$d" | cut -c1-2)))"
done
valid="${valid# } $kinds"
record=0
want=()
for a in "$@"; do
	case $a in
	--record) record=1 ;;
	today) die "lab-uncontended: the lab does not build 6.1's own qspinlock (today), so it has no count here; the locks: $valid" ;;
	-*) die "lab-uncontended: unknown option '$a'; usage: $0 [--record] [LOCK...], the locks: $valid" ;;
	*)
		case " $valid " in
		*" $a "*) ;;
		*) die "lab-uncontended: '$a' is not a lock here; the locks: $valid" ;;
		esac
		case " ${want[*]} " in *" $a "*) ;; *) want+=("$a") ;; esac
		;;
	esac
done
[ "$record" -eq 0 ] || [ ${#want[@]} -eq 0 ] ||
	die "lab-uncontended: --record writes every lock's row; run it without naming locks (not: ${want[*]})"
rec=${QSL_UNCONTENDED_RECORD:-$TOP/book/lab/uncontended/results.csv}
perf=${QSL_PERF:-perf}

# shellcheck source=common/lab/lib.sh
. "$TOP/common/lab/lib.sh"
"$TOP/common/harness/deps.sh" uncontended
out=$LAB/uncontended
t0=$(now)

# The instrument.  perf_usable prints nothing where perf stat counts both
# events in user mode, else why not (one line, status 1).
perf_usable() {
	local o
	command -v "$perf" >/dev/null || { echo "$perf is not installed"; return 1; }
	o=$("$perf" stat -x, -e cycles:u,instructions:u true 2>&1 >/dev/null) || {
		echo "perf stat fails here: $(printf '%s\n' "$o" | head -1)"
		return 1
	}
	printf '%s\n' "$o" | awk -F, '$3 ~ /^(cycles|instructions)/ && $1 ~ /^[0-9]+$/ { n++ } END { exit n != 2 }' || {
		echo "perf stat cannot count cycles and instructions here: $(printf '%s\n' "$o" |
			awk -F, '$3 ~ /^(cycles|instructions)/ { printf "%s%s %s", s, $3, $1; s = ", " }')"
		return 1
	}
}
use_perf=0
if why_not_perf=$(perf_usable); then
	use_perf=1
	instrument="valgrind --tool=callgrind for the counts, and perf stat (cycles:u, instructions:u per loop iteration)"
else
	instrument="valgrind --tool=callgrind ($why_not_perf)"
fi
vg_version=$(valgrind --version)
say "lab uncontended: instructions and atomics per uncontended lock + unlock, counted by $instrument"

# The binaries: every step's, or the steps named; the ticket, pthread and
# MCS locks are the same in every binary, and come from the newest step's,
# as in lab-bench.
steps=() newest_step=""
for l in $valid; do
	case $l in step-*) newest_step=${l#step-} ;; esac
done
for l in "${want[@]}"; do
	case $l in
	step-*) steps+=("${l#step-}") ;;
	*) steps+=("$newest_step") ;;
	esac
done
rm -rf "$out"
mkdir -p "$out/paths"
bench_build "$out" "${steps[@]}"
newest=${BENCH_BINS[${#BENCH_BINS[@]} - 1]}
locks=() bins=()
for i in "${!BENCH_LOCKS[@]}"; do
	if [ ${#want[@]} -eq 0 ] || [[ " ${want[*]} " == *" ${BENCH_LOCKS[i]} "* ]]; then
		locks+=("${BENCH_LOCKS[i]}")
		bins+=("${BENCH_BINS[i]}")
	fi
done
for l in $kinds; do
	if [ ${#want[@]} -eq 0 ] || [[ " ${want[*]} " == *" $l "* ]]; then
		locks+=("$l")
		bins+=("$newest")
	fi
done
# objdump -d of each binary, once: the text of every executed address.
for b in "${bins[@]}"; do
	[ -s "${b%/*}/disasm.txt" ] || objdump -d --no-show-raw-insn "$b" >"${b%/*}/disasm.txt" ||
		die "lab uncontended: objdump -d ${b#"$TOP"/} failed"
done

# count LOCK KIND BIN SIDE FN: one callgrind run collecting inside FN only.
# Writes paths/LOCK-SIDE.txt and prints "PAIRS INSTRUCTIONS ATOMICS NOTE"
# (per call; NOTE: the locked instructions the call executes, or else its
# plain stores, "+"-separated, without commas).
count() {
	local lock=$1 kind=$2 bin=$3 side=$4 fn=$5 dir line pairs
	dir=$out/runs/$lock-$side
	mkdir -p "$dir"
	echo "+ valgrind --tool=callgrind --toggle-collect=$fn --dump-instr=yes --dump-line=no --compress-pos=no --compress-strings=no ${bin#"$TOP"/} -l $kind -t 1 -d 20 -H 0 -K 0" >"$dir/cmd"
	line=$(valgrind --tool=callgrind --toggle-collect="$fn" --dump-instr=yes --dump-line=no \
		--compress-pos=no --compress-strings=no --callgrind-out-file="$dir/callgrind.out" \
		--log-file="$dir/valgrind.log" "$bin" -l "$kind" -t 1 -d 20 -H 0 -K 0) ||
		die "lab uncontended: $lock under callgrind failed: $line (log: ${dir#"$TOP"/}/valgrind.log)"
	pairs=$(field ops "$line")
	case $pairs in
	'' | *[!0-9]* | 0) die "lab uncontended: $lock: cannot read the pairs from: $line" ;;
	esac
	# The callgrind file: "fn=NAME" opens a function's costs, "0xADDR IR"
	# is one instruction's count, "calls=N 0xADDR" says the next line is
	# the inclusive cost of N calls (skipped: the callee's own lines count
	# it), "cfn=" names that callee.  The second input, objdump's listing,
	# gives the text of each executed address, in address order.
	awk -v pairs="$pairs" -v fn="$fn" -v head="# $lock, $side: $fn, per call ($pairs calls)" -v path="$out/paths/$lock-$side.txt" '
		# describe: "lock cmpxchg 32-bit", "mov 8-bit": the mnemonic (its
		# size suffix dropped) and the width, from a register operand
		# outside the address, or else from the suffix.
		function describe(ins,    p, m, r, w) {
			split(ins, p, " ")
			if (p[1] == "lock") { m = "lock " p[2]; r = p[3] } else { m = p[1]; r = p[2] }
			gsub(/[^,]*\([^)]*\)/, "", r)
			gsub(/%[fg]s:[^,]*/, "", r)
			if (match(r, /%[a-z0-9]+/)) {
				r = substr(r, RSTART + 1, RLENGTH - 1)
				if (r ~ /^(r[a-z][a-z]|r[0-9]+)$/) w = 64
				else if (r ~ /^(e[a-z][a-z]|r[0-9]+d)$/) w = 32
				else if (r ~ /^([a-d]x|[sd]i|[sb]p|r[0-9]+w)$/) w = 16
				else w = 8
			} else if (m ~ /[bwlq]$/) {
				w = m ~ /b$/ ? 8 : m ~ /w$/ ? 16 : m ~ /l$/ ? 32 : 64
				m = substr(m, 1, length(m) - 1)
			} else
				w = "?"
			return m " " w "-bit"
		}
		FNR == NR {
			if (/^fn=/) { f = substr($0, 4); next }
			if (/^cfn=/) { cf = substr($0, 5); next }
			if (/^calls=/) { skip = 1; split($0, c, /[= ]+/); if (f == "run" && cf == fn) calls += c[2]; next }
			if (/^0x[0-9a-f]+ [0-9]+$/) {
				if (skip) { skip = 0; next }
				ir[substr($1, 3)] += $2
				next
			}
			if (/^totals: /) total = $2
			next
		}
		/^ *[0-9a-f]+:\t/ {
			a = $0; sub(/^ */, "", a); sub(/:.*/, "", a)
			if (!(a in ir) || (a in text)) next
			ins = $0; sub(/^[^\t]*\t/, "", ins); sub(/ *#.*/, "", ins); gsub(/[ \t]+/, " ", ins); sub(/ $/, "", ins)
			text[a] = ins
			order[++k] = a
		}
		END {
			if (calls != pairs) { printf "the loop made %d calls to %s, the program counted %d pairs\n", calls, fn, pairs; exit 1 }
			for (a in ir)
				if (!(a in text)) { printf "executed address 0x%s is not in objdump -d of the binary\n", a; exit 1 }
			print head > path
			for (i = 1; i <= k; i++) {
				a = order[i]
				if (ir[a] % pairs) { printf "0x%s (%s) ran %d times in %d calls: not every call took the same path\n", a, text[a], ir[a], pairs; exit 1 }
				per = ir[a] / pairs
				sum += ir[a]
				atomic = text[a] ~ /^lock( |$)/ || (text[a] ~ /^xchg/ && text[a] ~ /\(/)
				store = !atomic && text[a] ~ /^mov/ && text[a] ~ /,[^,]*(\(|%[fg]s:)[^,]*$/
				printf "%s\t%d\t%s%s\n", a, per, text[a], atomic ? "\t<- atomic" : "" > path
				d = describe(text[a])
				if (atomic) { na += per; if (!(d in seen_a)) { seen_a[d]; la = la (la == "" ? "" : " + ") d } }
				if (store && !(d in seen_s)) { seen_s[d]; ls = ls (ls == "" ? "" : " + ") d " store" }
			}
			if (sum != total) { printf "the instructions add up to %d, callgrind totals %d\n", sum, total; exit 1 }
			printf "%d %d %d %s\n", pairs, total / pairs, na, la != "" ? la : ls != "" ? ls : "no store"
		}' "$dir/callgrind.out" "${bin%/*}/disasm.txt" >"$dir/count" ||
		die "lab uncontended: $lock, $side: $(cat "$dir/count") (${dir#"$TOP"/}/callgrind.out)"
	cat "$dir/count"
}

# perf_count KIND BIN: cycles and instructions per loop iteration, from
# two native runs of 100 and 300 ms (their difference: start-up cancels).
perf_count() {
	local ms o n c i
	local -a cyc=() ins=() ops=()
	for ms in 100 300; do
		o=$("$perf" stat -x, -e cycles:u,instructions:u -- "$2" -l "$1" -t 1 -d "$ms" -H 0 -K 0 2>"$out/perf.err") ||
			die "lab uncontended: perf stat of $1 failed: $o $(head -3 "$out/perf.err")"
		n=$(field ops "$o")
		c=$(awk -F, '$3 ~ /^cycles/ { print $1 }' "$out/perf.err")
		i=$(awk -F, '$3 ~ /^instructions/ { print $1 }' "$out/perf.err")
		case "$n:$c:$i" in *::* | :* | *: | *[!0-9:]*) die "lab uncontended: cannot read perf stat's counts of $1: $o $(head -3 "$out/perf.err")" ;; esac
		ops+=("$n") cyc+=("$c") ins+=("$i")
	done
	[ "${ops[1]}" -gt "${ops[0]}" ] || die "lab uncontended: $1 made no more pairs in 300 ms than in 100 ms"
	awk -v c0="${cyc[0]}" -v c1="${cyc[1]}" -v i0="${ins[0]}" -v i1="${ins[1]}" -v n0="${ops[0]}" -v n1="${ops[1]}" \
		'BEGIN { printf "%.1f %.1f\n", (c1 - c0) / (n1 - n0), (i1 - i0) / (n1 - n0) }'
}

csv=$out/results.csv
echo "lock,instructions_per_pair,atomics_per_pair,lock_instructions,lock_atomics,unlock_instructions,unlock_atomics,lock_atomic_or_store,unlock_atomic_or_store" >"$csv"
[ "$use_perf" -eq 0 ] || echo "lock,cycles_per_iteration,instructions_per_iteration" >"$out/perf.csv"
for j in "${!locks[@]}"; do
	lock=${locks[j]} kind=${locks[j]}
	case $lock in step-*) kind=step ;; esac
	r=$(count "$lock" "$kind" "${bins[j]}" lock "${lock_fn[$kind]}")
	read -r lp li la lnote <<<"$r"
	r=$(count "$lock" "$kind" "${bins[j]}" unlock "${unlock_fn[$kind]}")
	read -r up ui ua unote <<<"$r"
	echo "$lock,$((li + ui)),$((la + ua)),$li,$la,$ui,$ua,$lnote,$unote" >>"$csv"
	pc=""
	if [ "$use_perf" -eq 1 ]; then
		r=$(perf_count "$kind" "${bins[j]}")
		read -r pcyc pins <<<"$r"
		echo "$lock,$pcyc,$pins" >>"$out/perf.csv"
		pc="; perf: $pcyc cycles, $pins instructions per loop iteration"
	fi
	printf '    [%d/%d] %-8s lock %d instructions, %d atomic (%s); unlock %d, %d atomic (%s); %d and %d calls counted%s\n' \
		"$((j + 1))" "${#locks[@]}" "$lock" "$li" "$la" "$lnote" "$ui" "$ua" "$unote" "$lp" "$up" "$pc" >&2
done

# The table: the ratio to the ticket lock (when it ran), and a note on
# what each side executes: its locked instructions, or else its stores.
tables=()
[ "$use_perf" -eq 0 ] || tables+=("$out/perf.csv")
awk -F, -v perf="${tables[0]:-}" '
	FNR == 1 { next }
	FILENAME == perf { pc[$1] = $2; pi[$1] = $3; next }
	{ n++; row[n] = $0; if ($1 == "ticket") t = $2 }
	END {
		printf "| lock | instructions per lock+unlock | x ticket | atomics per lock+unlock | lock: instructions, atomics | unlock: instructions, atomics |%s note |\n",
			perf != "" ? " perf cycles per iteration | perf instructions per iteration |" : ""
		printf "|:--|--:|--:|--:|--:|--:|%s:--|\n", perf != "" ? "--:|--:|" : ""
		for (i = 1; i <= n; i++) {
			split(row[i], f, ",")
			printf "| %s | %d | %s | %d | %d, %d | %d, %d |%s lock: %s; unlock: %s |\n", f[1], f[2],
				t ? sprintf("%.2f", f[2] / t) : "-", f[3], f[4], f[5], f[6], f[7],
				perf != "" ? " " pc[f[1]] " | " pi[f[1]] " |" : "", f[8], f[9]
		}
		printf "\nCounted by callgrind (Ir) per call of the lock and unlock functions bench.c calls through its table (from their first instruction to their ret, with what they call), one thread, the lock always free: the same on every run. *atomics*: executed x86 locked instructions (a lock prefix, or xchg with a memory operand). *x ticket*: the ratio to 6.1'"'"'s generic ticket lock. The ticket, pthread and MCS functions are wrappers that load the lock'"'"'s address and jump to it (2 instructions each side, counted); a step'"'"'s function is the lock itself, inlined. *note*: the locked instructions each side executes, or else its plain stores.%s\n",
			perf != "" ? " *perf*: cycles and instructions per iteration of the uncontended loop (the lock, the unlock and the loop around them), from native runs of 100 and 300 ms; they vary from run to run." : ""
	}' "${tables[@]}" "$csv" >"$out/table.md"

wall=$(($(now) - t0))
{
	echo "command: common/lab/lab-uncontended.sh$([ "$record" -eq 0 ] || echo " --record")${want[*]:+ ${want[*]}}"
	echo "instrument: $instrument"
	echo "valgrind: $vg_version"
	echo "gcc: $(gcc -dumpfullversion), -O2 (common/lab/lib.sh's flags, -static)"
	echo "objdump: $(objdump --version | head -1)"
	echo "perf: $([ "$use_perf" -eq 1 ] && echo "counts cycles:u and instructions:u" || echo "$why_not_perf")"
	echo "6.1's own qspinlock (today): not counted; the lab does not build it"
	echo "step 7's one-bit pending layout (nr16k): not counted; lab-bench builds nr64 only"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(host_summary)"
	echo "wall time: $wall s (${#locks[@]} locks, 2 callgrind runs each)"
} >"$out/run.txt"
cat "$out/table.md"
echo
cat "$out/run.txt"

if [ "$record" -eq 1 ]; then
	mkdir -p "$(dirname "$rec")"
	cp "$csv" "$rec"
	echo "lab uncontended: ${#locks[@]} locks counted by callgrind; recorded in ${rec#"$TOP"/}"
	exit 0
fi
[ -f "$rec" ] || die "lab uncontended: no recorded copy ${rec#"$TOP"/} to compare with; write it with: $0 --record"
# The record's rows of the locks that ran, in its order, against this
# run's: the first that differs names its line in the record.
awk -F, -v want=" ${want[*]} " -v recname="${rec#"$TOP"/}" '
	FNR == NR { if (FNR == 1 || want == "  " || index(want, " " $1 " ")) { n++; line[n] = FNR; rec[n] = $0; key[n] = FNR == 1 ? "the header" : $1 } next }
	{ m++; now[m] = $0; nkey[m] = FNR == 1 ? "the header" : $1 }
	END {
		for (i = 1; i <= (n > m ? n : m); i++) {
			if (i > n) { printf "lab uncontended: FAIL: %s has no row for %s, this run: %s\n", recname, nkey[i], now[i]; exit 1 }
			if (i > m) { printf "lab uncontended: FAIL: line %d of %s (%s) was not counted by this run: %s\n", line[i], recname, key[i], rec[i]; exit 1 }
			if (rec[i] != now[i]) { printf "lab uncontended: FAIL: line %d of %s (%s) differs: recorded %s, this run %s\n", line[i], recname, key[i], rec[i], now[i]; exit 1 }
		}
	}' "$rec" "$csv" || exit 1
echo "lab uncontended: ${#locks[@]} locks counted by callgrind$([ "$use_perf" -eq 0 ] || echo " (and timed by perf stat)"), every count as ${rec#"$TOP"/} records it"
