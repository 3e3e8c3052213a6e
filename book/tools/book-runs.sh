#!/bin/bash
# book-runs.sh [--check | --verify | --again] [--runs DIR] [NAME...]: "make book-runs", the
# recorded files the book includes (book/runs/), made by the commands that
# produce them, so that none is pasted by hand.
#
# Every file starts with two lines:
#   $ COMMAND       what a reader types to see the same output
#   # recorded by make book-runs at commit HASH[-dirty], TOOLS[; NOTE]
# (NOTE: what the file leaves out of what COMMAND prints, when it does).
# verdicts.md is Markdown: the same two lines as code spans, then a table.
#
# NAME: a file of the list below (with or without .txt/.md), or one of the
# groups checker, lab, build, boot; none: every file.  A file is replaced
# only when its recording succeeds; a failure leaves the old one alone.
#   checker  the lock checker, one mutant at a time: exp-*.txt of its
#            mutants (under a minute each), trace-step3-happy.txt (seconds),
#            kill-verify.txt (the whole kill table: about 8 minutes)
#   lab      the userspace lab, sparc64 under qemu-user (about a minute):
#            kill-lab.txt, exp-le-layout.txt
#   build    exp-btsl-long.txt: needs step 4's kernel build (make step-4)
#   boot     from the boots' run directories (DIR/ID, see run_id in
#            lib.sh; nothing is booted here): exp-boot-decode-tail-mask.txt
#            (make step-7+decode-tail-mask), kill-boot.txt (make mutants),
#            verdicts.md (make soak: every row) and full-step-8.txt
#            (make test or make step-8)
# --runs DIR  take the boots from DIR (e.g. another checkout's
#             build/runs) instead of build/runs; their commit is DIR's
#             checkout's, and exp-btsl-long.txt reads DIR/../tests/.
# --check     no runs: every file of the list exists and its header names
#             a command and a commit (make check).
# --verify    no recording: each checker file that can be made again in
#             seconds (the mutants' traces and trace-step3-happy.txt) is
#             made again from its own line-1 command, with the mutant's
#             binary built for it, and must come out as the file holds
#             it (the run's time and digests aside); a file whose command
#             no longer prints it fails, with the first lines that differ
#             (make check).  The other files are listed as skipped, with
#             the command that records them.  $QSL_BOOK_RUNS: check the
#             files of another directory (the test's doctored copies).
# --again     record those same files again from their own line-1
#             commands, without running the kill table that chose them
#             (seconds, where the checker group takes many minutes): for
#             a checker whose traces print differently.
# Prints a progress line per file (stderr), a KTAP result per file (lib.sh)
# and "book-runs: N passed, N failed" (passed: recorded).
set -eu
. "$(dirname "$0")/lib.sh"
caller=$PWD
cd "$TOP"

OUTDIR=${QSL_BOOK_RUNS:-book/runs}
BT='`'

# The files, in the order they are recorded: name, group, what records it.
FILES="exp-decode-tail-mask-rfc.txt	checker	trace decode-tail-mask-rfc sc
exp-head-claim-no-rewait.txt	checker	trace head-claim-no-rewait sc
exp-xchg-tail-inverted-repair.txt	checker	trace xchg-tail-inverted-repair sc
exp-xchg-tail-owner-window.txt	checker	trace xchg-tail-owner-window sc
exp-value-unlocked-locked-byte.txt	checker	trace value-unlocked-locked-byte tso
exp-no-wmb-claim.txt	checker	trace no-wmb-claim weak
exp-xchg-tail-relaxed.txt	checker	trace xchg-tail-relaxed weak
exp-pv-unlock-no-kick.txt	checker	trace pv-unlock-no-kick sc
exp-pv-wait-node-no-recheck.txt	checker	trace pv-wait-node-no-recheck sc
exp-pv-head-state-halted.txt	checker	trace pv-head-state-halted sc
exp-pv-unlock-conditional-kick.txt	checker	trace pv-unlock-conditional-kick tso
exp-pv-wait-node-no-mb.txt	checker	trace pv-wait-node-no-mb tso
exp-pv-unlock-no-rmb.txt	checker	trace pv-unlock-no-rmb weak
exp-pv-kick-node-no-mb.txt	checker	trace pv-kick-node-no-mb weak
trace-step3-happy.txt	checker	happy
kill-verify.txt	checker	kill_verify
kill-lab.txt	lab	kill_lab
exp-le-layout.txt	lab	le_layout
exp-btsl-long.txt	build	btsl
exp-boot-decode-tail-mask.txt	boot	boot_fail 7+decode-tail-mask
kill-boot.txt	boot	kill_boot
verdicts.md	boot	verdicts
full-step-8.txt	boot	full_log 8 x86_64"

# A passing step 3 execution, written by hand as the order in which the
# four CPUs run (the checker's -r schedule: "PxK" is K events of CPU P):
# CPU0 takes the free lock and enters its critical section; CPU1 sets
# pending and spins on the locked byte; CPU2 queues (the tail) and, as
# the head, spins on the word; CPU3 queues behind it and spins on its own
# node; CPU0 unlocks, CPU1 takes the lock from pending, runs and unlocks;
# CPU2 takes it and hands the head over to CPU3, which waits on the word
# while CPU2 runs, then takes the lock and clears the tail.
HAPPY_SCHED=0x7,1x3,2x7,3x8,0,1x10,2x7,3x4,2x7,3x12

usage() {
	die "usage: $0 [--check | --verify | --again] [--runs DIR] [NAME...]
       names: $(printf '%s\n' "$FILES" | cut -f1 | tr '\n' ' ')
       groups: checker lab build boot"
}

check=0 verify=0 again=0 runs=$BUILD/runs want=()
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--verify) verify=1 ;;
	--again) again=1 ;;
	--runs)
		[ $# -ge 2 ] || usage
		case $2 in /*) runs=$2 ;; *) runs=$caller/$2 ;; esac
		shift
		;;
	-h | --help) usage ;;
	-*) die "book-runs: unknown option '$1'" ;;
	checker | lab | build | boot) want+=("$1") ;;
	*)
		f=$1
		case $f in book/runs/*) f=${f#book/runs/} ;; esac
		case $f in *.txt | *.md) ;; *) f=$(printf '%s\n' "$FILES" | cut -f1 | grep -xE "$f\.(txt|md)" || echo "$f") ;; esac
		printf '%s\n' "$FILES" | cut -f1 | grep -qxF -- "$f" ||
			die "book-runs: no recorded file '$1'; the files: $(printf '%s\n' "$FILES" | cut -f1 | tr '\n' ' ')"
		want+=("$f")
		;;
	esac
	shift
done

# ---- --check: the files and their headers, no runs -----------------------

# header_ok FILE: line 1 is "$ COMMAND", line 2 names a commit (in code
# spans in a Markdown file).
header_ok() {
	local l1 l2
	l1=$(sed -n 1p "$1") l2=$(sed -n 2p "$1")
	case $1 in *.md)
		l1=${l1#"$BT"} l2=${l2#"$BT"}
		l1=${l1%%"$BT"*} l2=${l2%%"$BT"*}
		;;
	esac
	[[ $l1 == '$ '?* ]] || { echo "line 1 is not '\$ COMMAND': $l1"; return 1; }
	[[ $l2 =~ ^#\ recorded\ by\ make\ book-runs\ at\ commit\ [0-9a-f]{7,40}(-dirty)?,\ .+ ]] ||
		{ echo "line 2 does not name a commit ('# recorded by make book-runs at commit HASH, ...'): $l2"; return 1; }
}

if [ "$check" -eq 1 ]; then
	[ "${#want[@]}" -eq 0 ] || die "book-runs: --check checks every file; it takes no names"
	ktap_begin book-runs-check
	while IFS=$'\t' read -r f _; do
		if [ ! -s "$OUTDIR/$f" ]; then
			ktap_result 1 "$OUTDIR/$f is missing (make book-runs records it)"
		elif ! why=$(header_ok "$OUTDIR/$f"); then
			ktap_result 1 "$OUTDIR/$f: $why"
		else
			ktap_result 0 "$OUTDIR/$f: $(sed -n 2p "$OUTDIR/$f" | grep -oE 'commit [0-9a-f]+(-dirty)?')"
		fi
	done <<<"$FILES"
	ktap_end
	exit
fi

# ---- helpers ------------------------------------------------------------

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# version CMD: the version a tool reports (gcc, as, qemu).
version() {
	case $1 in
	*gcc) "$1" -dumpfullversion ;;
	as) as --version | head -1 | sed 's/.* //' ;;
	*) "$1" --version | head -1 | sed -n 's/.* version \([^ ]*\).*/\1/p' ;;
	esac
}

qemu_user() {
	if command -v qemu-sparc64-static >/dev/null; then echo qemu-sparc64-static; else echo qemu-sparc64; fi
}

# relative ROOT: a filter that writes paths under ROOT relative to it.
relative() {
	local r
	r=$(printf '%s' "${1%/}/" | sed 's/[][\.*^$|]/\\&/g')
	sed "s|$r||g"
}

# plan_opts CONFIG MODEL: the options of that row of common/checker/plan.tsv.
plan_opts() {
	tsv_columns common/checker/plan.tsv name "$2" | awk -F'\t' -v c="$1" '$1 == c { print $2; exit }'
}

# A recorder writes the output to $body and sets cmd (line 1), tools and,
# when the file keeps less than cmd prints, note; commit defaults to this
# checkout's.  On failure it sets why and returns 1.

# trace MUTANT MODEL: the checker's minimised failing trace of a mutant,
# on the plan row that kills it under MODEL in the kill table.
rec_trace() {
	local m=$1 model=$2 log=$TMP/mutants.out row cfg n opts bin rc got layout
	if [ "$verify" -eq 1 ] || [ "$again" -eq 1 ]; then
		replay_trace "$m"
		return
	fi
	VERIFY_JOBS=1 common/checker/verify-mutants.sh --counted "$m" >"$log" 2>&1 ||
		{ why="common/checker/verify-mutants.sh --counted $m failed: $(tail -1 "$log")"; return 1; }
	# The kill table's columns: mutant, step, layout, model, outcome.
	row=$(awk -v n="$m" -v mo="$model" '$1 == n && $4 == mo && /killed by/' "$BUILD/verify/mutant-$m.table" | head -1)
	layout=$(printf '%s\n' "$row" | awk '{ print $3 }')
	cfg=$(printf '%s\n' "$row" | sed -n 's/.*killed by \([^ ]*\) (.*/\1/p')
	n=$(printf '%s\n' "$row" | sed -n 's/.* \([0-9]*\)-event trace.*/\1/p')
	[ -n "$cfg" ] || { why="the kill table has no kill of $m under $model: ${row:-no row}"; return 1; }
	opts=$(plan_opts "$cfg" "$model")
	bin=build/verify/mutant-$m-$layout/verify
	cmd="$bin -m $model -N mutant-$m/$cfg $opts"
	tools="the lock checker built by make verify-mutants MUTANTS=$m (gcc $(version gcc))"
	rc=0
	# shellcheck disable=SC2086 # opts is a list of options
	"$bin" -m "$model" -N "mutant-$m/$cfg" $opts >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 1 ] || { why="$cmd exited $rc, not 1 (a failure): $(head -1 "$TMP/out")"; return 1; }
	got=$(sed -n '1s/.*, \([0-9]*\) events, .*/\1/p' "$TMP/out")
	[ "$got" = "$n" ] ||
		{ why="$cmd gave a ${got:-?}-event trace, the kill table's run a $n-event one"; return 1; }
	relative "$TOP" <"$TMP/out" >"$body"
}

# checker_once: the checker's objects (build_checker), once a run (in a subshell that
# has sourced checker/lib.sh).
checker_once() {
	[ -f "$TMP/checker.built" ] || { build_checker && touch "$TMP/checker.built"; }
}

# replay_trace MUTANT (--verify, --again): the command of the recorded file, run
# again on a binary built for it (the mutant's patch on its step's tree,
# in the layout the command names), its output to $body.
replay_trace() {
	local m=$1 words exe layout step tree rc
	read -ra words <<<"$(sed -n '1s/^\$ //p' "$OUTDIR/$f")"
	exe=${words[0]:-}
	layout=${exe%/verify}
	layout=${layout##*-}
	[ "$exe" = "build/verify/mutant-$m-$layout/verify" ] ||
		{ why="line 1 does not run build/verify/mutant-$m-LAYOUT/verify: ${words[*]}"; return 1; }
	step=$(tsv_columns "$MUTANTS_TABLE" name step | awk -F'\t' -v n="$m" '$1 == n { print $2 }')
	(
		OUT=$BUILD/verify
		# shellcheck source=common/checker/lib.sh
		. "$TOP/common/checker/lib.sh"
		checker_once
		tree=$(mutant_tree "$m" "$step") || { echo "$m: $tree"; exit 1; }
		build "$tree" "$layout" "mutant-$m-$layout"
	) >"$TMP/build.out" 2>&1 || { why="the binary of $exe did not build: $(tail -1 "$TMP/build.out")"; return 1; }
	cmd=${words[*]}
	tools="the lock checker built by make verify-mutants MUTANTS=$m (gcc $(version gcc))"
	rc=0
	"${words[@]}" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 1 ] || { why="$cmd exited $rc, not 1 (a failure): $(head -1 "$TMP/out")"; return 1; }
	relative "$TOP" <"$TMP/out" >"$body"
}

# happy: a passing step 3 execution, replayed from HAPPY_SCHED; the rows of
# the critical section (api.c: the owner and count checks, its
# spin_is_locked()) are folded into one row per visit.
rec_happy() {
	local happy=build/verify/step-3-nr64/verify rc
	(
		OUT=$BUILD/verify
		# shellcheck source=common/checker/lib.sh
		. "$TOP/common/checker/lib.sh"
		checker_once
		build "$(step_dir 3)/tree" nr64 step-3-nr64 >/dev/null
	) >"$TMP/build.out" 2>&1 || { why="step 3's checker binary did not build: $(tail -1 "$TMP/build.out")"; return 1; }
	cmd="$happy -m sc -c 4 -a 1 -N step-3/happy -r $HAPPY_SCHED"
	tools="the lock checker built by make verify-3 (gcc $(version gcc))"
	note="each visit to the critical section (api.c: the owner and count checks, spin_is_locked()) is folded into one row"
	rc=0
	"$happy" -m sc -c 4 -a 1 -N step-3/happy -r "$HAPPY_SCHED" >"$TMP/out" 2>"$TMP/err" || rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q ': PASS (replayed' "$TMP/out"; then
		why="the replay did not pass (exit $rc): $(cat "$TMP/out" "$TMP/err" | head -2 | tr '\n' ' ')"
		return 1
	fi
	awk -F' [|] ' '
		function flush() {
			if (n) printf "| %s | %s | (critical section: %d rows left out) | api.c | %s\n",
				(n > 1 ? first "-" last : first), cpu, n, word
			n = 0
		}
		/^\| [0-9]+ \|/ && ($4 ~ /api\.c:/ || $4 ~ /^queued_spin_is_locked /) {
			num = substr($1, 3)
			if (n && $2 != cpu) flush()
			if (!n) first = num
			last = num; cpu = $2; word = $5; n++
			next
		}
		{ flush(); print }
		END { flush() }' "$TMP/out" | relative "$TOP" >"$body"
}

# kill_verify: the checker's whole kill table (every model, counted or not).
rec_kill_verify() {
	cmd="make verify-mutants"
	tools="the lock checker (gcc $(version gcc)), one mutant at a time (VERIFY_JOBS=1)"
	note="the command's progress lines (==> ...) are left out"
	VERIFY_JOBS=1 common/checker/verify-mutants.sh >"$TMP/out" 2>"$TMP/err" ||
		{ why="common/checker/verify-mutants.sh failed: $(tail -1 "$TMP/out")"; return 1; }
	sed '1{/^$/d}' "$TMP/out" | relative "$TOP" >"$body"
}

# kill_lab: the lab's kill table, short runs.
rec_kill_lab() {
	local q
	q=$(qemu_user)
	cmd="common/lab/lab-mutants.sh --short"
	tools="gcc $(version gcc), sparc64-linux-gnu-gcc $(version sparc64-linux-gnu-gcc), $q $(version "$q")"
	note="the short runs of make test (make lab runs them longer); each run's own line (on stderr) is left out"
	common/lab/lab-mutants.sh --short >"$TMP/out" 2>"$TMP/err" ||
		{ why="common/lab/lab-mutants.sh --short failed: $(tail -1 "$TMP/out")"; return 1; }
	sed '1{/^$/d}' "$TMP/out" | relative "$TOP" >"$body"
}

# le_layout: the lab's negative control on sparc64, the little-endian
# lock word on a big-endian CPU: the driver's run and lab.sh's judgement.
rec_le_layout() {
	local q log=$BUILD/lab/control-le-layout-08-sparc64/run.log line
	q=$(qemu_user)
	cmd="common/lab/lab.sh --short 8"
	tools="sparc64-linux-gnu-gcc $(version sparc64-linux-gnu-gcc), $q $(version "$q")"
	note="lab.sh also runs step 8's own builds and the x86_64 cmpxchg control; kept: the le-layout control's run (build/lab/control-le-layout-08-sparc64/run.log) and lab.sh's verdict on it"
	rm -f "$log"
	common/lab/lab.sh --short 8 >"$TMP/out" 2>"$TMP/err" ||
		{ why="common/lab/lab.sh --short 8 failed: $(tail -1 "$TMP/out")"; return 1; }
	line=$(grep -m1 -E '^(ok [0-9]+ +)?control-le-layout[^:]*: judged FAIL' "$TMP/out" | sed -E 's/^ok [0-9]+ +//')
	[ -n "$line" ] || { why="lab.sh did not judge the le-layout control FAIL"; return 1; }
	[ -s "$log" ] || { why="no ${log#"$TOP"/}"; return 1; }
	grep -q ': FAIL ' "$log" || { why="the control's run has no FAIL line (${log#"$TOP"/})"; return 1; }
	{ cat "$log"; printf '%s\n' "$line"; } | relative "$TOP" >"$body"
}

# btsl: the first version of step 4's atomic_test_and_set_bit() (a long
# bit number in "Ir" with btsl), which gas rejects: the failing half of
# common/boot/tests/test-and-set-bit.sh, from its module build log.  It needs
# step 4's kernel build: run here when build/src/04 has one, else read
# the log a make test left under the run root's build directory.
rec_btsl() {
	local root log
	root=$(dirname "$runs")
	[ ! -d "$root" ] || root=$(cd "$root" && pwd)
	log=$root/tests/test-and-set-bit-04/build.log
	cmd="common/boot/tests/test-and-set-bit.sh 4"
	note="after make step-4; kept: the assembler's messages on the first version, from build/tests/test-and-set-bit-04/build.log, and the test's verdict on it"
	if [ "$root" = "$BUILD" ]; then
		[ -f "$BUILD/src/04/obj-x86_64/vmlinux" ] ||
			{ why="step 4 is not built for x86_64 (build/src/04/obj-x86_64/vmlinux): make step-4 first, or --runs DIR of a checkout whose make test ran"; return 1; }
		common/boot/tests/test-and-set-bit.sh 4 >"$TMP/out" 2>&1 ||
			{ why="common/boot/tests/test-and-set-bit.sh 4 failed: $(tail -1 "$TMP/out")"; return 1; }
	else
		[ -f "$log" ] ||
			{ why="no $log: the make test of that checkout has not run test-and-set-bit.sh yet"; return 1; }
		commit=$(commit_of "$root") || { why="$root is not inside a git checkout"; return 1; }
		note="after make step-4; kept: the assembler's messages on the first version, from build/tests/test-and-set-bit-04/build.log"
		: >"$TMP/out"
	fi
	tools="gcc $(version gcc), GNU as $(version as), the kernel build of step 4"
	grep -q "tsb_first.c.*incorrect register .* used with .l' suffix" "$log" ||
		{ why="the build log has no error for the first version ($log)"; return 1; }
	{
		grep -E 'tsb_first|Assembler messages|Error: ' "$log" | grep -v 'tsb_step'
		grep -E '^(not )?ok( [0-9]+)? +the first version' "$TMP/out" || true
	} | relative "$(rtop)" >"$body"
}

# rtop: the checkout the run root belongs to (DIR/../..), for relative
# paths in what the boots recorded.
rtop() {
	local d
	d=$(dirname "$(dirname "$runs")")
	(cd "$d" 2>/dev/null && pwd) || printf '%s\n' "$d"
}

# boot_commit [DIR...]: the commit the boots in DIR... ran at (run.env's
# commit, written by qemu/run.sh), which must be one commit: a table of
# boots from several commits, or from a run that did not record its
# commit, is refused.  Without DIR (the kill table's runs, read by
# mutants.sh): the commit of the checkout the run root belongs to.
boot_commit() {
	local d c commits=""
	if [ $# -eq 0 ]; then
		commit=$(commit_of "$runs") || { why="$runs is not inside a git checkout"; return 1; }
		return 0
	fi
	for d in "$@"; do
		c=$(sed -n 's/^commit=//p' "$d/run.env" 2>/dev/null | head -1)
		[ -n "$c" ] || { why="${d#"$runs"/} recorded no commit (a boot older than run.env's commit line): boot it again"; return 1; }
		case " $commits " in *" $c "*) ;; *) commits="${commits:+$commits }$c" ;; esac
	done
	case $commits in
	*" "*) why="the boots ran at different commits ($commits): boot them again at one"; return 1 ;;
	esac
	commit=$commits
}

boot_tools() {
	tools="gcc $(version gcc), qemu-system-x86_64 $(version qemu-system-x86_64)"
	if command -v qemu-system-sparc64 >/dev/null; then
		tools="$tools, qemu-system-sparc64 $(version qemu-system-sparc64)"
	fi
}

# boot_fail STAGE: the verdict of a boot that must fail, and the console
# from its first sign of trouble.
rec_boot_fail() {
	local s=$1 dir first
	dir=$runs/$(run_id "$s" x86_64)
	cmd="make step-$s"
	[ -f "$dir/verdict" ] || { why="no verdict in $dir: run $cmd first"; return 1; }
	[ "$(run_file "$dir" verdict)" = FAIL ] ||
		{ why="$dir: the boot did not fail: $(run_file "$dir" verdict.txt)"; return 1; }
	boot_commit "$dir" || return 1
	boot_tools
	tools="${tools%%, qemu-system-sparc64*}"
	note="the command also shows the kernel's build and the boot; kept: the verdict line and up to 20 console lines from the first sign of trouble"
	{
		if [ -f "$dir/verdict.txt" ]; then
			run_file "$dir" verdict.txt
		else
			printf '%s x86_64: %s: %s\n' "$(stage_label "$s")" "$(run_file "$dir" verdict)" "$(run_file "$dir" reason)"
		fi
		first=$(tr -d '\r' <"$dir/console.log" | grep -a -n -m1 -E "$BADNESS_RE|Fail: [1-9]|RESULT FAIL|End of test: FAILURE" | cut -d: -f1)
		if [ -n "$first" ]; then
			echo
			echo "console.log, from line $first:"
			tr -d '\r' <"$dir/console.log" | sed -n "$first,$((first + 19))p"
		fi
	} | relative "$(rtop)" >"$body"
}

# kill_boot: the boot kill table of make mutants, from its run
# directories: mutants.sh --table prints the same table its boots end with.
rec_kill_boot() {
	cmd="make mutants"
	note="the command also shows every build and boot; kept: its table, from the run directories; torture runs of $(sed -n 's/^duration=//p' "$runs/$(run_id "$(mutant_base_step)" x86_64 mutant-base)/run.env" 2>/dev/null) s each"
	"$TOP/common/boot/mutants.sh" --table --runs "$runs" >"$TMP/out" 2>"$TMP/err" ||
		{ why="common/boot/mutants.sh --table --runs $runs: $(tail -1 "$TMP/err")"; return 1; }
	boot_commit || return 1
	boot_tools
	tools="${tools%%, qemu-system-sparc64*}"
	sed '/./,$!d' "$TMP/out" | relative "$(rtop)" >"$body"
}

# verdicts: one Markdown row per boot that make test or make step-N makes
# (common/boot/expect.tsv: default yes, step or test, and a step's second x86_64
# boot without the hypervisor bit where its bare column has one), from
# each run's verdict and metrics.
rec_verdicts() {
	local s a def dir label v reason cells k missing="" rows=() durations="" tag used=()
	local keys="spin_lock.writes spin_lock_irq.writes rw_lock.writes rw_lock.reads qsl.waiters qsl.waited qsl.pending qsl.queue qsl.idx1 qsl.idx2 qsl.idx3 elapsed_s"
	note="one row per boot (make step-N boots one stage, steps 9 and 10 on x86_64 twice), from build/runs/ID/verdict and metrics; - where a run has no such counter"
	while read -r s a def; do
		case $def in yes | step | test) ;; *) continue ;; esac
		for tag in "" bare; do
			[ -z "$tag" ] || [ "$(expected_bare "$s" "$a")" != - ] || continue
			dir=$runs/$(run_id "$s" "$a" "$tag")
			if [ ! -f "$dir/verdict" ]; then
				missing="$missing ${dir#"$runs"/}"
				continue
			fi
			used+=("$dir")
			durations="$durations $(sed -n 's/^duration=//p' "$dir/run.env" 2>/dev/null)"
			label=$(sed -n 's/^label=//p' "$dir/expect.env" 2>/dev/null | head -1)
			[ -n "$label" ] || label="$(stage_label "$s") $a"
			v=$(run_file "$dir" verdict)
			[ "$v" = PASS ] || { reason=$(run_file "$dir" reason); v="$v: ${reason//|/\\|}"; }
			cells="| $label | $v | $(run_metric "$dir" lock) |"
			for k in $keys; do
				cells="$cells $(run_metric "$dir" "$k" | sed 's/^$/-/') |"
			done
			rows+=("$cells")
		done
	done < <(expect_rows step arch default | tr '\t' ' ')
	[ -z "$missing" ] || { why="these runs have no verdict in $runs:${missing}; make test (or make step-N) boots them"; return 1; }
	# The torture runs' length, as the boots recorded it.
	durations=$(printf '%s\n' "$durations" | tr ' ' '\n' | grep . | sort -un | tr '\n' ' ')
	note="$note; torture runs of ${durations% } s each"
	# make soak boots every row of the table (make test leaves the step
	# rows out), at the runs' own length when they share one
	case ${durations% } in
	*" "* | "") cmd="make soak" ;;
	*) cmd="DURATION=${durations% } make soak" ;;
	esac
	boot_commit "${used[@]}" || return 1
	boot_tools
	{
		echo "| run | verdict | lock | spin_lock writes | spin_lock_irq writes | rw_lock writes | rw_lock reads | waiters | waited | pending | queue | idx1 | idx2 | idx3 | seconds |"
		echo "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
		printf '%s\n' "${rows[@]}"
	} | relative "$(rtop)" >"$body"
}

# full_log STAGE ARCH: one boot's whole console.
rec_full_log() {
	local dir
	dir=$runs/$(run_id "$1" "$2")
	cmd="make step-$1 ARCH=$2"
	[ -s "$dir/console.log" ] || { why="no console in $dir: run $cmd first"; return 1; }
	boot_commit "$dir" || return 1
	tools="gcc $(version gcc), qemu-system-$2 $(version "qemu-system-$2")"
	note="the guest's serial console ($(printf '%s' "$dir" | relative "$(rtop)")/console.log, carriage returns removed), then the verdict; the command also shows the build"
	{
		tr -d '\r' <"$dir/console.log"
		echo
		run_file "$dir" verdict.txt
	} | relative "$(rtop)" >"$body"
}

# ---- the driver ---------------------------------------------------------

selected() { # NAME GROUP
	[ "${#want[@]}" -eq 0 ] && return 0
	printf '%s\n' "${want[@]}" | grep -qxF -e "$1" -e "$2"
}

# verify_file FILE: does $body (and $cmd) come out as FILE holds them?
# The run's own time ("; 1.2 s)" in a verdict line, "seconds=1.20" in the
# result line) is left aside, and so are the result line's digests, which
# hash values that hold the binary's own addresses.
untimed() {
	sed -E -e 's/; [0-9]+(\.[0-9]+)? s\)/; T s)/' -e 's/ seconds=[0-9.]+/ seconds=T/' \
		-e 's/ (class|state)_digest=[0-9a-f]+/ \1_digest=D/g'
}
verify_file() {
	local was
	was=$(sed -n '1s/^\$ //p' "$1")
	[ "$cmd" = "$was" ] || { why="line 1 runs '$was', the recorder would run '$cmd'"; return 1; }
	if ! diff <(tail -n +3 "$1" | untimed) <(untimed <"$body") >"$TMP/diff"; then
		why="its command no longer prints what it holds (make book-runs ${1##*/} records it again); the first differences:
$(grep '^[<>]' "$TMP/diff" | head -6 | cut -c1-160)"
		return 1
	fi
}

t_all=$(now)
ktap_begin book-runs
while IFS=$'\t' read -r f group how; do
	selected "$f" "$group" || continue
	body=$TMP/body cmd="" tools="" note="" why="" commit=$(commit_of "$TOP")
	rm -f "$body"
	read -r fn args <<<"$how"
	# --again and --verify make the traces only
	case $fn in
	trace | happy) ;;
	*)
		if [ "$again" -eq 1 ]; then
			ktap_result 0 "$OUTDIR/$f # SKIP not recorded by --again (only the traces are): make book-runs ${f%.*} records it"
			continue
		elif [ "$verify" -eq 1 ]; then
			ktap_result 0 "$OUTDIR/$f # SKIP not replayed by --verify (its run takes minutes or a boot): make book-runs ${f%.*} records it again"
			continue
		fi
		;;
	esac
	if [ "$verify" -eq 1 ]; then
		[ -s "$OUTDIR/$f" ] || { ktap_result 1 "$OUTDIR/$f is missing (make book-runs ${f%.*} records it)"; continue; }
		say "book-runs: $f: running its command again"
		t0=$(now)
		# shellcheck disable=SC2086 # args is a list of words
		if "rec_$fn" $args && [ -s "$body" ] && verify_file "$OUTDIR/$f"; then
			ktap_result 0 "$OUTDIR/$f: its command prints what it holds ($(($(now) - t0)) s)"
		else
			why=${why:-its command printed nothing}
			ktap_fail_text "$OUTDIR/$f: ${why%%$'\n'*}" "$(printf '%s\n' "$why" | tail -n +2)"
		fi
		continue
	fi
	say "book-runs: $f ($group): recording"
	t0=$(now)
	# shellcheck disable=SC2086 # args is a list of words
	if "rec_$fn" $args && [ -s "$body" ]; then
		{
			if [ "$f" = "${f%.md}" ]; then
				printf '$ %s\n' "$cmd"
				printf '# recorded by make book-runs at commit %s, %s%s\n' "$commit" "$tools" "${note:+; $note}"
			else
				printf '%s$ %s%s\\\n' "$BT" "$cmd" "$BT"
				printf '%s# recorded by make book-runs at commit %s, %s%s%s\n\n' "$BT" "$commit" "$tools" "$BT" "${note:+; $note}"
			fi
			cat "$body"
		} >"$OUTDIR/$f.tmp"
		mv "$OUTDIR/$f.tmp" "$OUTDIR/$f"
		ktap_result 0 "$OUTDIR/$f: recorded, $(wc -l <"$OUTDIR/$f") lines ($(($(now) - t0)) s)"
	else
		ktap_result 1 "$OUTDIR/$f: ${why:-the recording is empty} ($(($(now) - t0)) s; the old file is kept)"
	fi
done <<<"$FILES"

echo "# $(($(now) - t_all)) s"
ktap_end
