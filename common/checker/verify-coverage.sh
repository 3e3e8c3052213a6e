#!/bin/bash
# verify-coverage.sh [--short] [STEP...]: which lines and branches of each
# step's lock code the lock checker's plan reaches, per memory model.
#
# For every step with a queued spinlock (or the steps given, "today" the
# pristine tree), in every layout the checker runs (nr64; nr16k where the
# step has it, and today), compile the step the way verify.sh does, with
# gcov's counters (--coverage) in kernel/locking/qspinlock.c and in
# common/checker/api.c, into which the fast paths of the step's headers
# are inlined.  Run every row of common/checker/plan.tsv (--short: the
# short ones) under every model; each run writes its counters to a
# directory of its own (GCOV_PREFIX), gcov reads them.  Only the step's
# own files count: its kernel/locking/qspinlock.c and the headers of its
# tree that the code inlines (include/asm-generic/qspinlock*.h,
# kernel/locking/mcs_spinlock.h, arch/x86/include/asm/qspinlock.h), not
# the shim's.  The counters are plain globals outside the checker's
# modelled memory, so they do not change the executions (the counts of
# executions and behaviours are those of verify.sh), and they accumulate
# over the many executions of one run.
#
# One KTAP result a step, layout and model ("coverage step-7/nr64 sc: 118
# of 124 lines, 60 of 72 branches"; not ok when a run did not end with a
# verdict), then one a step and model: the lines that no row reaches under
# that model in any layout, each of which must be listed with its reason
# in common/checker/coverage-unreached.tsv for that model, and every row of
# that table must still name an unreached line under each model it names
# (a line one model reaches and another does not is a row for the other
# alone, or a row of the plan that reaches it there too).  Ends with "verify-coverage: N passed, N
# failed".  The per-run counts are in build/verify/coverage/coverage.tsv.
#
# The counts are gcov's, of the code as the checker runs it (-O2).  At -O2
# gcov credits a line of an inlined header only where its code survives
# the early optimisations as code of its own line (6.1's
# queued_spin_value_unlocked(), inlined into api.c's lockref user, is
# counted on api.c's line).  Its branches are those of the code before
# optimisation, some on lines of the shim's atomics that no execution takes
# both ways: a trend to watch, not a target.
#
# The counters must not change the executions: each run's counts
# (executions, behaviours, final states, exhausted) are compared with the
# ones pinned for verify.sh's run of the same row (pinned.tsv), and a
# difference fails the step's line.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

MODELS=$VERIFY_MODELS
TABLE=common/checker/coverage-unreached.tsv
usage() {
	die "usage: $0 [--short] [--models \"...\"] [--from-runs DIR] [step...]
       (steps with a queued spinlock: $(lab_steps), and today)"
}

# --from-runs DIR: build and run nothing; read the counters that verify.sh
# --coverage left in DIR (DIR/step-N-V/gcda/MODEL-ROW/, its logs in
# DIR/logs/; a layout verify.sh did not run because its code is an
# earlier layout's names that layout in DIR/step-N-V.same_as).  The counts
# were held to the pins by verify.sh itself.
short=0 only=() from=""
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=1 ;;
	--models)
		[ $# -ge 2 ] || usage
		MODELS=$2
		shift
		;;
	--from-runs)
		[ $# -ge 2 ] || usage
		[ -d "$2" ] || die "verify-coverage: no directory $2"
		# absolute: gcov names the sources by absolute paths, and today's
		# header copies are told apart by the prefix of this directory
		from=$(cd "$2" && pwd)
		shift
		;;
	-h | --help) usage ;;
	-*) die "verify-coverage: unknown option '$1'" ;;
	*)
		n=$(checker_step verify-coverage "$1")
		only+=("$n")
		;;
	esac
	shift
done
[ -f "$TABLE" ] || die "verify-coverage: $TABLE is missing"
command -v gcov >/dev/null || die "verify-coverage: gcov (from gcc) is missing"

OUT=${from:-$BUILD/verify/coverage}
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
# build() compiles qspinlock.c and api.c, and links, with --coverage when
# VERIFY_COVERAGE=1.
mkdir -p "$OUT"
[ -n "$from" ] || build_checker
: >"$OUT/coverage.tsv"

# gcov_tables DIR TREE OUTDIR: gcov on the counters in DIR (qspinlock.gcda,
# api.gcda beside their .gcno); writes DIR/lines.tsv (FILE LINE COUNT, one
# line of code a row) and DIR/branches.tsv (FILE LINE INDEX TAKEN) for the
# files of TREE (paths relative to it; today's asm-generic headers are
# compiled from copies in OUTDIR/include).
gcov_tables() {
	local d=$1 t=$2 out=$3
	(cd "$d" && rm -f ./*.gcov &&
		gcov -b -c -p -o . "$t/kernel/locking/qspinlock.c" "$VSRC/api.c" >gcov.log 2>&1) ||
		return 1
	awk -v tree="$t/" -v copies="$out/include/" -v lines="$d/lines.tsv" -v branches="$d/branches.tsv" '
		BEGIN { printf "" >lines; printf "" >branches }
		FNR == 1 {
			rel = ""; ln = 0
			src = $0; sub(/^[^:]*:[^:]*:Source:/, "", src)
			if (index(src, tree) == 1) rel = substr(src, length(tree) + 1)
			else if (index(src, copies) == 1) rel = "include/" substr(src, length(copies) + 1)
			next
		}
		rel == "" { next }
		/^branch / {
			if (ln) print rel "\t" ln "\t" bi++ "\t" ($0 ~ /taken [1-9]/ ? 1 : 0) >branches
			next
		}
		/^(call|function|unconditional) / { next }
		{
			c = index($0, ":"); cnt = substr($0, 1, c - 1); rest = substr($0, c + 1)
			c = index(rest, ":"); n = substr(rest, 1, c - 1) + 0
			gsub(/[ *]/, "", cnt)
			if (cnt == "-") { ln = 0; next }
			if (cnt == "#####" || cnt == "=====") cnt = 0
			ln = n; bi = 0
			print rel "\t" ln "\t" cnt + 0 >lines
		}' "$d"/*.gcov
}

# summary DIR...: "R of N lines, T of B branches" of the union of the
# runs' tables in DIR... (one binary's: the same lines and branches).
summary() {
	local d files=()
	for d in "$@"; do
		files+=("$d/lines.tsv" "$d/branches.tsv")
	done
	awk -F'\t' '
		FILENAME ~ /lines.tsv$/ { k = $1 ":" $2; if (!(k in L)) { L[k] = 0; nl++ } if ($3 > 0 && !L[k]) { L[k] = 1; rl++ } next }
		{ k = $1 ":" $2 ":" $3; if (!(k in B)) { B[k] = 0; nb++ } if ($4 && !B[k]) { B[k] = 1; tb++ } }
		END { printf "%d of %d lines, %d of %d branches\n", rl, nl, tb, nb }' "${files[@]}"
}

# map_lines FROM TO TABLE...: the line tables (FILE LINE COUNT) of runs
# whose code was compiled from the tree FROM, as lines of the tree TO: a
# layout whose code is an earlier step's (the same object code) counts
# for this step too, and the files differ only where they compiled to
# nothing (comments, code #ifdef'd out in that layout).  Each line of
# FROM's file that diff finds unchanged in TO's is renumbered; the others
# are dropped.
map_lines() {
	local from=$1 to=$2 f
	shift 2
	while IFS= read -r f; do
		if [ ! -f "$from/$f" ] || [ ! -f "$to/$f" ]; then continue; fi
		diff "$from/$f" "$to/$f" | awk -v n="$(wc -l <"$from/$f")" '
			function keep(upto) { while (po <= upto) print po++ "\t" pn++ }
			BEGIN { po = 1; pn = 1 }
			/^[0-9]/ {
				h = $0
				match(h, /[acd]/)
				op = substr(h, RSTART, 1)
				split(substr(h, 1, RSTART - 1), o, ",")
				split(substr(h, RSTART + 1), r, ",")
				if (!(2 in o)) o[2] = o[1]
				if (!(2 in r)) r[2] = r[1]
				if (op == "a") { keep(o[1]); pn = r[2] + 1 }
				else if (op == "d") { keep(o[1] - 1); po = o[2] + 1; pn = r[1] + 1 }
				else { keep(o[1] - 1); po = o[2] + 1; pn = r[2] + 1 }
				delete o; delete r
			}
			END { keep(n) }' >"$OUT/map.tmp"
		awk -F'\t' -v OFS='\t' -v f="$f" 'NR == FNR { m[$1] = $2; next }
			$1 == f && ($2 in m) { $2 = m[$2]; print }' "$OUT/map.tmp" "$@"
	done < <(cut -f1 "$@" | sort -u)
	rm -f "$OUT/map.tmp"
}

# plan_tables DIR MODEL: the line tables (DIR/gcda/MODEL-ROW/lines.tsv)
# that cover_variant wrote for the plan's rows under MODEL (--short: the
# short ones), one a line.
plan_tables() {
	local cname cshort sc_opts tso_opts weak_opts
	while IFS=$'\t' read -r cname cshort sc_opts tso_opts weak_opts; do
		case $cname in '#'* | '') continue ;; esac
		[ "$cshort" != kill ] || continue
		[ "$short" -eq 0 ] || [ "$cshort" = yes ] || continue
		[ "$(by_model "$2" "$sc_opts" "$tso_opts" "$weak_opts")" != - ] || continue
		[ ! -f "$1/gcda/$2-$cname/lines.tsv" ] || echo "$1/gcda/$2-$cname/lines.tsv"
	done < <(tsv_columns common/checker/plan.tsv name short sc tso weak)
}

# cover_variant TREE N VARIANT: build the step in one layout, run the plan
# under every model, one KTAP result a model; appends the layout's line
# tables to the step's lists, one a model (step_lines[MODEL], paths
# separated by spaces).
cover_variant() {
	local t=$1 n=$2 v=$3 name=step-$2-$3 bin out strip cname cshort sc_opts tso_opts weak_opts m copts d log rc
	local bad why runs line label
	label=$(stage_label "$n")/$v
	out=$OUT/$name
	if [ -n "$from" ] && [ -f "$OUT/$name.same_as" ]; then
		# verify.sh ran the same code under another layout's name: its
		# counters stand for this one (map_lines, at the step's end)
		local r
		r=$(cat "$OUT/$name.same_as")
		ktap_result 0 "coverage $label: the same code as $r, whose coverage stands for it"
		same_lines+=("$r")
		return
	fi
	if [ -n "$from" ]; then
		[ -f "$out/qspinlock.gcno" ] || {
			ktap_result 1 "coverage $label: no counters in ${out#"$TOP"/}: verify.sh did not run it with --coverage"
			return
		}
	elif ! bin=$(VERIFY_COVERAGE=1 build "$t" "$v" "$name"); then
		ktap_result 1 "coverage $label: FAIL $bin"
		return
	fi
	strip=$(printf '%s' "$out" | tr -cd / | wc -c)
	for m in $MODELS; do
		bad=0 why="" runs=()
		while IFS=$'\t' read -r cname cshort sc_opts tso_opts weak_opts layouts; do
			case $cname in '#'* | '') continue ;; esac
			[ "$cshort" != kill ] || continue
			row_on_layout "$layouts" "$v" || continue
			[ "$short" -eq 0 ] || [ "$cshort" = yes ] || continue
			copts=$(by_model "$m" "$sc_opts" "$tso_opts" "$weak_opts")
			[ "$copts" != - ] || continue
			d=$out/gcda/$m-$cname
			log=$d/run.log
			rc=0
			if [ -n "$from" ]; then
				log=$OUT/logs/$name-$m-$cname.log
			else
				rm -rf "$d"
				mkdir -p "$d"
				# shellcheck disable=SC2086 # copts is a list of options
				GCOV_PREFIX=$d GCOV_PREFIX_STRIP=$strip timeout 600 "$bin" -q -m "$m" -N "step-$n/$v/$cname" $copts >"$log" 2>&1 || rc=$?
			fi
			case $rc in
			0 | 1 | 3) ;;
			*)
				bad=1
				why="$why; $cname: exit status $rc (log: ${log#"$TOP"/})"
				;;
			esac
			# gcov's counters must not change what the checker explores:
			# the run's counts are the pinned ones of verify.sh's run
			if [ -z "$from" ] && ! pin=$(pin_check "step-$n/$v/$cname/$m [$copts]" "$(grep -m1 '^result: ' "$log" || true)"); then
				bad=1
				why="$why; $cname: with gcov, $pin"
			fi
			if [ ! -f "$d/qspinlock.gcda" ] || [ ! -f "$d/api.gcda" ]; then
				bad=1
				why="$why; $cname: no counters written (log: ${log#"$TOP"/})"
				continue
			fi
			cp "$out/qspinlock.gcno" "$out/api.gcno" "$d/"
			if ! gcov_tables "$d" "$t" "$out"; then
				bad=1
				why="$why; $cname: gcov failed (log: ${d#"$TOP"/}/gcov.log)"
				continue
			fi
			runs+=("$d")
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$v" "$m" "$cname" "$(grep -m1 '^verify ' "$log" | sed 's/.*: \(PASS\|FAIL\)/\1/; s/:.*//')" \
				"$(summary "$d")" >>"$OUT/coverage.tsv"
		done < <(tsv_columns common/checker/plan.tsv name short sc tso weak layouts)
		if [ "${#runs[@]}" -eq 0 ]; then
			ktap_result 1 "coverage $label $m: no run${why:+: ${why#; }}"
			continue
		fi
		line="coverage $label $m: $(summary "${runs[@]}")"
		printf '%s\t%s\t%s\tall\t-\t%s\n' "$n" "$v" "$m" "${line#*: }" >>"$OUT/coverage.tsv"
		ktap_result "$bad" "$line (${#runs[@]} rows)${why:+: ${why#; }}"
		step_lines[$m]+=" ${runs[*]/%//lines.tsv}"
	done
}

# unreached N MODEL TREE LINES...: the lines of code of step N (in any
# layout) that no run under MODEL reaches, checked against the table.  A
# row of the table (STEPS, MODELS, PLAN, FILE, TEXT, REASON; STEPS and
# MODELS comma lists, MODELS "all" for sc,tso,weak; PLAN "short": a row
# for --short only) names one line of code of FILE by a piece of its text
# (whitespace runs read as one space), and covers it if no run reaches
# it, and the unreached lines of code that follow it up to the next line
# a run reaches: an unreached block, named by its first line or by the
# condition just before it.  Prints each
# unreached line ("  # FILE:LINE: TEXT  [REASON]"), what is wrong with the
# table, and last "ok|not ok<TAB>SUMMARY".
unreached() {
	local n=$1 model=$2 t=$3
	shift 3
	awk -F'\t' -v step="$n" -v model="$model" -v short="$short" -v tree="$t/" -v table="$TABLE" '
		function norm(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
		function text(f, l,    s, i) {
			if (!(f in READ)) {
				READ[f] = 1
				i = 0
				while ((getline s <(tree f)) > 0) SRC[f, ++i] = norm(s)
				close(tree f)
			}
			return SRC[f, l]
		}
		# next_line(f, l): the next line of code of f after l, or 0
		function next_line(f, l,    k, c, m) {
			m = 0
			for (k in R) {
				split(k, c, SUBSEP)
				if (c[1] == f && c[2] + 0 > l && (!m || c[2] + 0 < m)) m = c[2] + 0
			}
			return m
		}
		function problem(i, what) { bad++; P[++np] = "  # " table ":" TL[i] " (" TF[i] ": \"" TS[i] "\"): " what }
		BEGIN {
			# the columns by the names of the header ("# steps<TAB>plan...")
			while ((getline r <table) > 0) {
				nr++
				if (r ~ /^#/ && index(r, "\t")) {
					sub(/^# */, "", r)
					nh = split(r, hd, "\t")
					for (i = 1; i <= nh; i++) C[hd[i]] = i
					continue
				}
				if (r ~ /^#/ || r == "") continue
				if (!("steps" in C) || !("models" in C) || !("plan" in C) || !("file" in C) || !("text" in C) || !("reason" in C)) {
					print "error: " table " has no header naming steps, models, plan, file, text and reason" > "/dev/stderr"
					exit 2
				}
				split(r, c, "\t")
				mods = c[C["models"]]
				if (mods == "all") mods = "sc,tso,weak"
				nm = split(mods, ms, ",")
				formodel = 0
				for (i = 1; i <= nm; i++) {
					if (ms[i] != "sc" && ms[i] != "tso" && ms[i] != "weak") {
						print "error: " table ":" nr ": the models column lists sc, tso, weak or says all, not \"" c[C["models"]] "\"" > "/dev/stderr"
						exit 2
					}
					if (ms[i] == model) formodel = 1
				}
				if (!formodel) continue
				ns = split(c[C["steps"]], s, ",")
				for (i = 1; i <= ns; i++) if (s[i] == step && (c[C["plan"]] != "short" || short)) {
					nt++; TL[nt] = nr; TP[nt] = c[C["plan"]]; TF[nt] = c[C["file"]]
					TS[nt] = norm(c[C["text"]]); TR[nt] = c[C["reason"]]
				}
			}
			close(table)
		}
		{ k = $1 SUBSEP ($2 + 0); if (!(k in R)) R[k] = 0; if ($3 > 0) R[k] = 1 }
		END {
			bad = 0; np = 0
			for (i = 1; i <= nt; i++) {
				m = 0; at = 0
				for (k in R) {
					split(k, c, SUBSEP)
					if (c[1] == TF[i] && TS[i] != "" && index(text(c[1], c[2]), TS[i])) { m++; at = c[2] + 0 }
				}
				if (TP[i] != "all" && TP[i] != "short") { problem(i, "the plan column must be all or short, not \"" TP[i] "\""); continue }
				if (TR[i] == "") { problem(i, "no reason"); continue }
				if (m == 0) { problem(i, "no line of code has that text"); continue }
				if (m > 1) { problem(i, m " lines of code have that text: make it longer"); continue }
				l = at
				if (R[TF[i], l]) l = next_line(TF[i], l)
				covered = 0
				while (l && !R[TF[i], l]) { WHY[TF[i], l] = TR[i]; covered++; l = next_line(TF[i], l) }
				if (!covered) problem(i, "a run reaches " TF[i] ":" at " and the line of code after it")
			}
			nu = 0; nnew = 0
			for (k in R) {
				if (R[k]) continue
				split(k, c, SUBSEP)
				nu++
				if (!(k in WHY)) { bad++; nnew++ }
				U[nu] = sprintf("%s\t%06d\t%s\t%s", c[1], c[2], ((k in WHY) ? WHY[k] : "NOT IN THE TABLE"), text(c[1], c[2]))
			}
			for (i = 2; i <= nu; i++)
				for (j = i; j > 1 && U[j - 1] > U[j]; j--) { x = U[j]; U[j] = U[j - 1]; U[j - 1] = x }
			for (i = 1; i <= nu; i++) print U[i]
			for (i = 1; i <= np; i++) print P[i]
			printf "%s\t%d lines no row reaches under %s%s\n", (bad ? "not ok" : "ok"), nu, model,
				(bad ? sprintf(", %d not in %s, %d rows of it wrong", nnew, table, bad - nnew) : (nu ? ", each in " table " with its reason" : ""))
		}' "$@" |
		awk -F'\t' '
			NF == 4 {
				if ($3 != why) printf "  # %s\n", ($3 == "NOT IN THE TABLE" ? "not in the table:" : "unreached: " $3)
				why = $3
				printf "  # %s:%d: %s\n", $1, $2 + 0, $4
				next
			}
			{ print }'
}

# step_lines[MODEL]: the line tables of the step's runs under MODEL
declare -A step_lines
t0=$(now)
ktap_begin verify-coverage
"$TOP/common/boot/pristine.sh"
ran=0
for d in $(step_dirs) today; do
	if [ "$d" = today ]; then
		n=today
	else
		n=$((10#$(basename "$d" | cut -c1-2)))
	fi
	if [ "${#only[@]}" -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$n"; then
		continue
	fi
	if [ "$d" = today ]; then
		tree=$PRISTINE variants=$(checker_layouts today)
	else
		[ "$(expect_field "$n" x86_64 lab)" != - ] || continue
		tree=$d/tree variants=$(checker_layouts "$n")
	fi
	step_lines=() same_lines=()
	for v in $variants; do
		if [ -n "$from" ]; then
			say "step-$n-$v: the counters of verify.sh's runs"
		else
			say "step-$n-$v: compiling the step with gcov's counters and running the plan$([ "$short" -eq 0 ] || echo "'s short rows")"
		fi
		cover_variant "$tree" "$n" "$v"
	done
	# a layout whose code is an earlier step's: that layout's line tables
	# of the plan's rows, renumbered as lines of this step's tree
	# (map_lines; the same numbers where the files are the same)
	for r in "${same_lines[@]}"; do
		rn=$(printf '%s' "$r" | cut -d- -f2)
		if [ "$rn" = today ]; then rtree=$PRISTINE; else rtree=$(step_dir "$rn")/tree; fi
		for m in $MODELS; do
			mapfile -t tables < <(plan_tables "$OUT/$r" "$m")
			[ "${#tables[@]}" -gt 0 ] || continue
			mkdir -p "$OUT/step-$n-mapped"
			map_lines "$rtree" "$tree" "${tables[@]}" >"$OUT/step-$n-mapped/$r-$m.lines.tsv"
			step_lines[$m]+=" $OUT/step-$n-mapped/$r-$m.lines.tsv"
		done
	done
	ran=$((ran + 1))
	for m in $MODELS; do
		if [ -z "${step_lines[$m]:-}" ]; then
			ktap_result 1 "coverage $(stage_label "$n") $m: no run, no unreached lines to check"
			continue
		fi
		# shellcheck disable=SC2086 # a list of paths without spaces
		res=$(unreached "$n" "$m" "$tree" ${step_lines[$m]})
		status=$(printf '%s\n' "$res" | tail -1)
		ktap_result "$([ "${status%%$'\t'*}" = ok ] && echo 0 || echo 1)" "coverage $(stage_label "$n") $m: ${status#*$'\t'}"
		printf '%s\n' "$res" | sed '$d'
	done
done
[ "$ran" -gt 0 ] || die "verify-coverage: nothing ran (no step matched)"
echo "# $(($(now) - t0)) s; per run: ${OUT#"$TOP"/}/coverage.tsv, counters and logs: ${OUT#"$TOP"/}/step-*/gcda/"
ktap_end
