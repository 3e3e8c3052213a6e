# shellcheck shell=bash
# Shared helpers for every script in common/scripts and qemu/.
# Source it; it sets TOP, BUILD, KVER and PRISTINE.

# A die() inside $(...) ends only that subshell; with inherit_errexit the
# subshell's failure is the substitution's status, and an assignment
# x=$(...) then stops the caller under set -e.  A substitution inside
# another command's arguments, a for list or < <(...) would still lose
# it: the scripts assign first (series_into, below), never nest.
shopt -s inherit_errexit

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${QSL_BUILD:-$TOP/build}
KVER=$(cat "$TOP/common/kernel-version")
# A boot's seconds per torture run when DURATION is not given: the one
# default make step-N, qemu/run.sh and make help read (make test sets 8,
# make soak 60, make bench its own).
# shellcheck disable=SC2034 # read by the scripts that source this file
DURATION_DEFAULT=15
# The kernel-API shim the lab and the lock checker both compile a step's
# lock against (common/shim/README.md).
# shellcheck disable=SC2034
SHIMSRC=$TOP/common/shim
# The lock checker's memory models, weakest last: every verify script reads
# them here; common/tests/registries.sh holds the checker's own list to it.
# shellcheck disable=SC2034
VERIFY_MODELS="sc tso weak"
# shellcheck disable=SC2034 # used by the scripts that source this file
PRISTINE=$BUILD/pristine-$KVER

say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The step directories, in order (steps/NN-slug).
step_dirs() {
	local d
	for d in "$TOP"/steps/[0-9][0-9]-*/; do
		[ -d "$d" ] && printf '%s\n' "${d%/}"
	done
}

# Every step directory must hold exactly one patch, and no two may share a
# number.  Checked once, here, when a script sources this file: a die()
# inside $(...) would end only the subshell, and the script would go on
# with a shorter series.
# No process is started: every script sources this file.
check_step_dirs() {
	local d n seen=" " np p
	for d in "$TOP"/steps/[0-9][0-9]-*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		n=${d##*/}
		n=${n:0:2}
		case $seen in *" $n "*) die "two step directories are numbered $n (steps/$n-*): rename one" ;; esac
		seen="$seen$n "
		np=0
		for p in "$d"/*.patch "$d"/.*.patch; do
			[ ! -f "$p" ] || np=$((np + 1))
		done
		[ "$np" -eq 1 ] ||
			die "steps/$(basename "$d") holds $np .patch files, not exactly one: remove the extra one (or run make export-series)"
	done
}
check_step_dirs

valid_steps() {
	local d out=""
	for d in $(step_dirs); do
		out="$out $((10#$(basename "$d" | cut -c1-2)))"
	done
	printf '%s' "${out# }"
}

# step_dir N [ALSO]: the directory of step N, or a clear error listing the
# valid steps (and ALSO, where more is accepted, as "today" by stage).
step_dir() {
	local n=$1 also=${2:+ $2} d
	case $n in
	'' | *[!0-9]*) die "'$n' is not a step number; valid steps: $(valid_steps)$also" ;;
	esac
	for d in $(step_dirs); do
		if [ "$((10#$(basename "$d" | cut -c1-2)))" -eq "$((10#$n))" ]; then
			printf '%s\n' "$d"
			return 0
		fi
	done
	die "there is no step $n; valid steps: $(valid_steps)$also"
}

# A stage is what a kernel is built from: a step number; "today", the
# pristine 6.1 tree with no patch at all (its own qspinlock), the anchor
# the benchmark compares every step with; or N+NAME, step N with the
# mutant common/mutants/NAME.patch on top (make step-7+decode-tail-mask).
# The mutant is part of the stage's name, so it reaches every build path
# and label through the argument, never through the environment.
# stage ARG prints the normal form (the number without leading zeros,
# "+NAME" kept, or "today") or stops naming the valid ones.
stage() {
	local n m
	case $1 in
	today) printf 'today\n' ;;
	today+*) die "'$1': mutants apply to steps, not to today's tree" ;;
	*+*)
		n=${1%%+*} m=${1#*+}
		step_dir "$n" >/dev/null
		case $m in
		'' | *[!a-z0-9-]*) die "'$1': '$m' is not a mutant name; the mutants are: $(mutant_names)" ;;
		esac
		[ -f "$TOP/common/mutants/$m.patch" ] ||
			die "'$1': there is no mutant '$m' (common/mutants/$m.patch); the mutants are: $(mutant_names)"
		printf '%s+%s\n' "$((10#$n))" "$m"
		;;
	*) step_dir "$1" today >/dev/null && printf '%s\n' "$((10#$1))" ;;
	esac
}

# mutant_patch NAME: a mutant's patch, relative to the top: the checker's
# own (common/verify/mutants/) where it has one, else the booted one
# (common/mutants/); common/mutants/mutants.tsv lists both kinds.
mutant_patch() {
	if [ -f "$TOP/common/verify/mutants/$1.patch" ]; then
		printf 'common/verify/mutants/%s.patch\n' "$1"
	else
		printf 'common/mutants/%s.patch\n' "$1"
	fi
}
# stage_step STAGE: the step (or "today") a normal-form stage builds on.
stage_step() { printf '%s\n' "${1%%+*}"; }

# stage_mutant STAGE: the mutant of a normal-form stage, or nothing.
stage_mutant() {
	case $1 in *+*) printf '%s\n' "${1#*+}" ;; esac
}

# stage_label STAGE: how verdict lines name it ("step-7", "step-7+NAME",
# "today").
stage_label() {
	case $1 in
	today) printf 'today\n' ;;
	*) printf 'step-%s\n' "$1" ;;
	esac
}

# stage_title STAGE: one line saying what the stage is.
stage_title() {
	if [ "$1" = today ]; then
		printf 'today: the pristine %s tree, 6.1'"'"'s own qspinlock (no patch)\n' "$KVER"
	else
		local d m
		local s p subj
		s=$(stage_step "$1")
		d=$(step_dir "$s")
		p=$(step_patch "$d")
		subj=$(patch_subject "$p")
		m=$(stage_mutant "$1")
		printf 'step %s: %s - %s%s\n' "$1" "$(basename "$d")" "$subj" \
			"${m:+, plus the mutant common/mutants/$m.patch}"
	fi
}

# The patch of one step directory (exactly one *.patch).
step_patch() {
	local p
	p=$(find "$1" -maxdepth 1 -name '*.patch' | sort)
	[ "$(printf '%s\n' "$p" | grep -c .)" -eq 1 ] ||
		die "$1 must hold exactly one .patch file"
	printf '%s\n' "$p"
}

# Patches of steps 0..N, in order (none for "today"; a mutant's stage
# gives its step's series, the mutant is not in it).
series_upto() {
	local n d
	n=$(stage_step "$1")
	[ "$n" != today ] || return 0
	for d in $(step_dirs); do
		[ "$((10#$(basename "$d" | cut -c1-2)))" -le "$((10#$n))" ] || break
		step_patch "$d"
	done
}

# series_into NAME STAGE: the array NAME gets the lines of series_upto
# STAGE.  Assigned, not read from < <(...), so that its error stops the
# caller.
series_into() {
	local -n _series=$1
	local _s
	_s=$(series_upto "$2")
	_series=()
	[ -z "$_s" ] || mapfile -t _series <<<"$_s"
}

# Files a patch touches (old and new names), one per line.
patch_files() {
	sed -n -e 's|^--- a/||p' -e 's|^+++ b/||p' "$@" | sort -u
}

check_number() { # name value min max
	case $2 in
	'' | *[!0-9]*) die "$1=$2 is not a whole number (expected $3..$4)" ;;
	esac
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		die "$1=$2 is out of range (expected $3..$4)"
	fi
}

check_arch() {
	case $1 in
	x86_64 | sparc64) ;;
	*) die "ARCH=$1 is not supported; use x86_64 or sparc64" ;;
	esac
}

# The expected lock of stage S on ARCH, from common/expect.tsv (a
# mutant's stage: its step's row).
expected_lock() {
	local v
	v=$(expect_field "$1" "$2" lock)
	[ -n "$v" ] || die "common/expect.tsv has no row for step $(stage_step "$1") on $2"
	printf '%s\n' "$v"
}

# The lock paths qsl_torture must have seen at stage S on ARCH.
expected_paths() { expect_field "$1" "$2" paths; }

# expected_bare STAGE ARCH: "-", or LOCK:PATHS of the stage's second boot
# on a CPU without the hypervisor bit (the "bare" column).
expected_bare() {
	local v
	v=$(expect_field "$1" "$2" bare)
	case ${v:--} in
	- | ?*:?*) printf '%s\n' "${v:--}" ;;
	*) die "common/expect.tsv: the bare column of step $(stage_step "$1") on $2 is '$v', not - or LOCK:PATHS" ;;
	esac
}
# How that boot's CPU is given to QEMU, and named in its verdict line.
# shellcheck disable=SC2034 # read by step.sh
BARE_CPU=qemu64,-hypervisor
# shellcheck disable=SC2034 # read by step.sh
BARE_LABEL="(no hypervisor bit)"

# EXPECT_TABLE: common/expect.tsv (a test points it at a doctored copy).
EXPECT_TABLE=${EXPECT_TABLE:-$TOP/common/expect.tsv}
# expect_rows COLUMN...: those columns of every row of the expectation
# table, by their names in its header (step, arch, lock, default, ...).
expect_rows() { tsv_columns "$EXPECT_TABLE" "$@"; }
# expect_field STAGE ARCH COLUMN: one cell of common/expect.tsv (COLUMN
# by its name), or empty.
expect_field() {
	expect_rows step arch "$3" | awk -F'\t' -v s="$(stage_step "$1")" -v a="$2" \
		'$1 == s && $2 == a { print $3 }'
}
# expect_arches STAGE WHEN: the architectures whose default column for
# STAGE's step is one of WHEN ("yes", or "yes test"), one a line.
expect_arches() {
	expect_rows step arch default | awk -F'\t' -v s="$(stage_step "$1")" -v w=" $2 " \
		'$1 == s && index(w, " " $3 " ") { print $2 }'
}

# table_stages COLUMN [ARCH [VALUE]]: the stages whose row on ARCH
# (x86_64) has a value other than "-" (or VALUE) in that column of
# common/expect.tsv, on one line.
table_stages() {
	expect_rows step arch "$1" | awk -F'\t' -v a="${2:-x86_64}" -v v="${3:-}" \
		'$2 == a && (v == "" ? $3 != "-" : $3 == v) { printf "%s%s", sep, $1; sep = " " }'
}

# lab_steps: the steps with a queued spinlock, which the lab and the
# lock checker run (the lab column).
lab_steps() { table_stages lab; }

# checker_step WHO ARG: ARG as a step the lab and the checker run (its
# number without leading zeros, or today), or stop naming the valid ones.
checker_step() {
	[ "$2" != today ] || { echo today; return 0; }
	step_dir "$2" today >/dev/null
	[ "$(expect_field "$2" x86_64 lab)" != - ] ||
		die "$1: step $((10#$2)) has no queued spinlock; the checker runs steps with one: $(lab_steps), and today"
	echo "$((10#$2))"
}

# src_id STAGE: the name of a stage's source and object trees under
# build/src: NN for step N, NN-m-NAME for N+NAME, "today".
src_id() {
	case $1 in
	today) printf 'today\n' ;;
	*+*) printf '%02d-m-%s\n' "$((10#${1%%+*}))" "${1#*+}" ;;
	*) printf '%02d\n' "$((10#$1))" ;;
	esac
}

# One boot, one directory: build/runs/ID, where ID is run_id STAGE ARCH [TAG]
# (the stage's src_id, so a mutant is named in it, the architecture and
# the tag).  A run directory holds
#   run.env       the inputs: stage, arch, mutant, tag, cpus, duration,
#                 plan, qsltorture, accel (qemu/run.sh)
#   qemu.cmd      the QEMU command line, shell-quoted
#   console.log   the guest's serial console, nothing else
#   qemu.stderr   what QEMU itself printed (warnings, a failure to start)
#   qemu.status   exit=N or exit=timeout, elapsed=S, limit=S (one line)
#   expect.env    what the judge was asked to see: label, lock, paths
#   verdict       PASS, FAIL (the lock or the kernel failed) or ERROR (the
#                 harness could not build or boot it: never a kill)
#   reason        one line: why it failed, or the PASS summary
#   verdict.txt   the line the reader sees, "LABEL: PASS (...)" or
#                 "LABEL: FAIL: reason (log: ...)"
#   metrics       key=value lines read from the console (verdict.sh)
# Consumers (test.sh, bench.sh, mutants.sh, recheck.sh) read these files,
# never the sentence.  A new run of the same ID replaces the directory.
# The configuration matrix (make matrix): common/matrix.tsv, one row a
# configuration.  QSL_MATRIX_ROW=ROW in the environment of step.sh builds
# and boots that row: build.sh merges the row's fragment last, and the
# kernel lives in an object tree of its own, obj_dir STAGE ARCH
# (build/src/NN/obj-ARCH-FRAGMENT; a row without a fragment uses the
# step's own obj-ARCH).
MATRIX_TABLE=${MATRIX_TABLE:-$TOP/common/matrix.tsv}
matrix_field() { # ROW COLUMN
	local v
	v=$(tsv_columns "$MATRIX_TABLE" row "$2" | awk -F'\t' -v r="$1" '$1 == r { print $2; f = 1 } END { exit !f }') ||
		die "common/matrix.tsv has no row '$1' (rows: $(tsv_columns "$MATRIX_TABLE" row | tr '\n' ' '))"
	printf '%s\n' "$v"
}
# matrix_fragment: the config fragment of the row QSL_MATRIX_ROW names,
# or nothing (no row, or a row that builds no kernel of its own).
matrix_fragment() {
	local f
	[ -n "${QSL_MATRIX_ROW:-}" ] || return 0
	f=$(matrix_field "$QSL_MATRIX_ROW" fragment)
	[ "$f" = - ] || printf '%s\n' "$f"
}
# matrix_evidence_ok ROW CONSOLE: does the console hold the row's
# evidence line (its instrument says it is on)?  A row without one ("-")
# has nothing to show there.
matrix_evidence_ok() {
	local e
	e=$(matrix_field "$1" evidence)
	[ "$e" = - ] || grep -aqE -- "$e" "$2" 2>/dev/null
}
obj_dir() { # STAGE ARCH
	local f
	f=$(matrix_fragment)
	printf '%s/src/%s/obj-%s%s\n' "$BUILD" "$(src_id "$1")" "$2" "${f:+-$f}"
}
# build_log STAGE ARCH: the log of that kernel's build (build.sh), a
# matrix row's named after its fragment as its object tree is.
build_log() {
	local f
	f=$(matrix_fragment)
	printf '%s/logs/build-%s-%s%s.log\n' "$BUILD" "$(src_id "$1")" "$2" "${f:+-$f}"
}

run_id() { # STAGE ARCH [TAG]
	printf '%s-%s%s\n' "$(src_id "$1")" "$2" "${3:+-$3}"
}
run_dir() { printf '%s/runs/%s\n' "$BUILD" "$(run_id "$@")"; }

# commit_of DIR: the short commit of the checkout DIR is in, "-dirty" when
# a tracked file differs from it (the recorded files themselves aside).
# qemu/run.sh records it in each run.env; book-runs.sh reads it there.
commit_of() {
	local c
	c=$(git -C "$1" rev-parse --short HEAD) || return 1
	if [ -n "$(git -C "$1" status --porcelain --untracked-files=no -- . ':(exclude)book/runs' 2>/dev/null)" ]; then
		c=$c-dirty
	fi
	printf '%s\n' "$c"
}

# run_fresh DIR: an empty run directory (the old run of that ID removed).
run_fresh() {
	rm -rf "$1"
	mkdir -p "$1"
}

# run_error DIR LABEL REASON: record that the harness could not run this
# boot (a build or runner error): verdict ERROR, which no table counts as
# a kill.  Prints the verdict line.
run_error() {
	mkdir -p "$1"
	printf 'ERROR\n' >"$1/verdict"
	printf '%s\n' "$3" >"$1/reason"
	printf '%s: ERROR: %s\n' "$2" "$3" | tee "$1/verdict.txt"
}

# run_file DIR NAME: the one line of a run directory's file, or empty.
run_file() {
	if [ -f "$1/$2" ]; then head -1 "$1/$2"; fi
}

# run_metric DIR KEY: a value from DIR/metrics, or empty.
run_metric() {
	if [ -f "$1/metrics" ]; then sed -n "s/^$2=//p" "$1/metrics" | head -1; fi
}

# A console line that looks like a kernel bug, warning, oops, stall, lockup
# or lockdep report (modeled on rcutorture's console-badness.sh): one list,
# for the verdict, for make mutants, and for what qemu/run.sh shows the
# reader while a guest runs.  Not the word "lockdep" alone: a lockdep
# kernel says "RCU lockdep checking is enabled" at every boot.  Lockdep's
# reports are WARNING:s, or end with "turning off the locking correctness
# validator" (common/tests/verdict/lockdep-nonstatic).
# shellcheck disable=SC2034 # used by the scripts that source this file
BADNESS_RE='\<BUG\>|WARNING:|Oops|Call Trace|Kernel panic|general protection fault|Unable to handle|detected stall|self-detected stall|Stall ended|soft lockup|hard LOCKUP|blocked for more than|hung_task|turning off the locking correctness validator|non-static key|possible recursive locking|inconsistent lock state|circular locking|DEADLOCK|Attempted to kill init'

now() { date +%s; }

# One result format for every harness of make check and make test: KTAP,
# the kernel's test output format (Documentation/dev-tools/ktap.rst), so
# that kernel CI tools (6.1's tools/testing/kunit/kunit.py parse) read it,
# closed by the plain line CI reads.
#   KTAP version 1
#   1..2                      the plan, first, where the count is known
#   ok 1 description
#   not ok 2 description
#     # what the failed check printed (its last 25 lines)
#   NAME: 1 passed, 1 failed
# ktap_begin NAME [COUNT]; ktap_result RC DESCRIPTION [DETAIL-FILE] for
# each check (printed at once); ktap_end prints the plan if it was not
# known at the start (a trailing plan, as TAP allows), and the closing
# line, and returns 0 only if nothing failed.
#
# Nested: a harness that runs another as one of its tests (make test runs
# make check, the checker, the lab ...) gives it KTAP_SUBTEST=NAME and
# KTAP_INDENT (four spaces a level) in its environment.  The inner block
# then begins with "# Subtest: NAME", is indented, and the outer harness
# closes it with its own "ok N NAME".  Both are for this script's first
# block only: a script it runs does not inherit them, even one it starts
# before its block begins (its output, when this script reads it, is
# plain KTAP).
KTAP_SUBTEST_OF_THIS=${KTAP_SUBTEST:-${KTAP_SUBTEST_OF_THIS:-}}
KTAP_INDENT_OF_THIS=${KTAP_INDENT:-${KTAP_INDENT_OF_THIS:-}}
unset KTAP_SUBTEST KTAP_INDENT
ktap_begin() { # NAME [COUNT]
	KTAP_NAME=$1 KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_PLAN=${2:-}
	KTAP_IN=$KTAP_INDENT_OF_THIS
	printf '%sKTAP version 1\n' "$KTAP_IN"
	if [ -n "$KTAP_SUBTEST_OF_THIS" ]; then
		printf '%s# Subtest: %s\n' "$KTAP_IN" "$KTAP_SUBTEST_OF_THIS"
		KTAP_SUBTEST_OF_THIS=
	fi
	[ -z "$KTAP_PLAN" ] || printf '%s1..%d\n' "$KTAP_IN" "$KTAP_PLAN"
}
ktap_result() { # RC DESCRIPTION [DETAIL-FILE]
	KTAP_N=$((KTAP_N + 1))
	if [ "$1" -eq 0 ]; then
		KTAP_PASS=$((KTAP_PASS + 1))
		printf '%sok %d %s\n' "$KTAP_IN" "$KTAP_N" "$2"
	else
		KTAP_FAIL=$((KTAP_FAIL + 1))
		printf '%snot ok %d %s\n' "$KTAP_IN" "$KTAP_N" "$2"
		if [ -n "${3:-}" ] && [ -s "$3" ]; then
			tail -25 "$3" | sed "s/^/$KTAP_IN  # /"
		fi
	fi
}
# ktap_note TEXT...: diagnostic lines of the block ("# TEXT", indented as
# its results): a table the reader reads beside the results.
ktap_note() {
	local l
	for l in "$@"; do
		printf '%s# %s\n' "${KTAP_IN:-$KTAP_INDENT_OF_THIS}" "$l"
	done
}
# ktap_fail_text DESCRIPTION TEXT: a failed check whose detail is TEXT.
ktap_fail_text() {
	ktap_result 1 "$1"
	if [ -n "${2:-}" ]; then
		printf '%s\n' "$2" | tail -25 | sed "s/^/$KTAP_IN  # /"
	fi
}
ktap_end() {
	if [ -z "$KTAP_PLAN" ]; then
		printf '%s1..%d\n' "$KTAP_IN" "$KTAP_N"
	elif [ "$KTAP_N" -ne "$KTAP_PLAN" ]; then
		# the plan promised another count: a result went missing
		KTAP_FAIL=$((KTAP_FAIL + 1))
		printf '%s# the plan said %d, %d ran\n' "$KTAP_IN" "$KTAP_PLAN" "$KTAP_N"
	fi
	printf '%s: %d passed, %d failed\n' "$KTAP_NAME" "$KTAP_PASS" "$KTAP_FAIL"
	[ "$KTAP_FAIL" -eq 0 ]
}
# A harness whose checks print long output of their own (the checker, the
# lab) keeps its results for the end: ktap_defer RC DESCRIPTION for each,
# then ktap_replay NAME prints the whole KTAP block, its plan first, and
# returns as ktap_end.
KTAP_DEFERRED=()
ktap_defer() { KTAP_DEFERRED+=("$1"$'\t'"$2"); }
ktap_replay() {
	local r
	ktap_begin "$1" "${#KTAP_DEFERRED[@]}"
	for r in "${KTAP_DEFERRED[@]}"; do
		ktap_result "${r%%$'\t'*}" "${r#*$'\t'}"
	done
	ktap_end
}

# field NAME LINE: the value of NAME=value on a line of key=value words
# (qsl_torture's RESULT line, the lab benchmark's line); empty if absent.
# In the shell itself, with no process: make check calls it thousands of
# times.
field() {
	local w words
	read -ra words <<<"$2"
	for w in "${words[@]}"; do
		case $w in "$1="*) printf '%s\n' "${w#"$1"=}" ;; esac
	done
}

# host_summary: the host's CPU count and model, for benchmark records.
host_summary() {
	printf '%s CPUs, %s\n' "$(nproc)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
}

# MUTANTS_TABLE: common/mutants/mutants.tsv, every mutant's facts in one
# table (its step, whether make mutants boots it, what the checker must
# do with it).
MUTANTS_TABLE=$TOP/common/mutants/mutants.tsv

# booted_mutants COLUMN...: those columns and the boot kind of every
# mutant make mutants boots (its boot column is not "-").
booted_mutants() {
	tsv_columns "$MUTANTS_TABLE" "$@" boot | awk -F'\t' '$NF != "-"'
}

# mutant_rows [NAME...]: the rows (name TAB kind) of the booted mutants,
# only those named if names are given; an unknown name stops with the
# list.  Call it in a command substitution, so that its error stops the
# caller.
mutant_rows() {
	local rows w
	rows=$(booted_mutants name)
	for w in "$@"; do
		printf '%s\n' "$rows" | cut -f1 | grep -qxF -- "$w" ||
			die "no mutant '$w'; the mutants are: $(printf '%s\n' "$rows" | cut -f1 | tr '\n' ' ')"
	done
	if [ $# -eq 0 ]; then
		printf '%s\n' "$rows"
	else
		printf '%s\n' "$rows" | awk -F'\t' -v want=" $* " 'index(want, " " $1 " ")'
	fi
}

# mutant_names: the booted mutants, on one line.
mutant_names() {
	booted_mutants name | cut -f1 | tr '\n' ' ' | sed 's/ $//'
}

# mutant_base_step: the step every booted mutant applies to (their step
# column, which must name one step).
mutant_base_step() {
	local steps
	steps=$(booted_mutants step | cut -f1 | sort -u)
	[ "$(printf '%s\n' "$steps" | grep -c .)" -eq 1 ] ||
		die "${MUTANTS_TABLE#"$TOP"/}: the booted mutants (boot not \"-\") must apply to one step, not: $(printf '%s\n' "$steps" | tr '\n' ' ')"
	step_dir "$steps" >/dev/null
	printf '%s\n' "$((10#$steps))"
}

# The subject of a patch, without "[PATCH]", unfolded.
patch_subject() {
	awk '/^Subject: / { s = $0; sub(/^Subject: (\[PATCH[^]]*\] )?/, "", s); on = 1; next }
	     on && /^ / { s = s $0; next }
	     on { print s; exit }' "$1"
}

# tsv_columns FILE COLUMN...: the named columns of a table, one row a
# line, tab-separated, in the order asked.  The header names the columns
# (tab-separated): the table's first line that is not a comment, or, in a
# table whose prose explains it in comments, the last comment line before
# the first row that holds a tab ("# name<TAB>step<TAB>...").  A column the
# header does not name stops the caller, naming the file.  Every script
# reads the project's tables through it, so a column can move or be added
# without a script counting positions.
tsv_columns() {
	local f=$1
	shift
	awk -F'\t' -v OFS='\t' -v want="$(IFS=$'\t'; printf '%s' "$*")" -v file="${f#"$TOP"/}" '
		function header(line,    i, k) {
			k = split(line, hd, "\t")
			for (i = 1; i <= k; i++) col[hd[i]] = i
			n = split(want, w, "\t")
			for (i = 1; i <= n; i++)
				if (!(w[i] in col)) { print "error: " file " has no column \"" w[i] "\"" > "/dev/stderr"; bad = 1; exit 1 }
			h = 1
		}
		/^#/ { if (!h && index($0, "\t")) { c = $0; sub(/^# */, "", c); last = c } next }
		NF == 0 { next }
		!h && last != "" { header(last) }
		!h { header($0); next }
		{ line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? OFS : "") $col[w[i]]; print line }
		END {
			if (bad) exit 1
			# a table with a header and no rows (no known bug left) is empty
			if (!h && last != "") header(last)
			if (!h) { print "error: " file " has no header line naming its columns" > "/dev/stderr"; exit 1 }
		}' "$f"
}

# book_chapters: book/FILE of every chapter, in reading order
# (book/chapters.tsv, the one list of them).
book_chapters() {
	tsv_columns "$TOP/book/chapters.tsv" file | sed 's|^|book/|'
}

# book_toc_problem TOC DIR: the first way the table of contents TOC and
# the chapters in DIR (every *.md but index.md) disagree, and status 1;
# nothing and 0 when they agree.  book.sh refuses to render on one.
book_toc_problem() {
	local toc=$1 dir=$2 list f
	list=$(tsv_columns "$toc" file step 2>&1 | cut -f1) || {
		echo "${toc#"$TOP"/}: $list"
		return 1
	}
	[ -n "$list" ] || { echo "${toc#"$TOP"/} lists no chapters"; return 1; }
	while IFS= read -r f; do
		[ -f "$dir/$f" ] || { echo "${toc#"$TOP"/} lists $f, which does not exist in ${dir#"$TOP"/}/: add the file or remove its line"; return 1; }
	done <<<"$list"
	for f in "$dir"/*.md; do
		[ "${f##*/}" = index.md ] || printf '%s\n' "$list" | grep -qxF "${f##*/}" || {
			echo "${f#"$TOP"/} is not in ${toc#"$TOP"/}: add a line for it where it belongs in the reading order"
			return 1
		}
	done
	f=$(printf '%s\n' "$list" | sort | uniq -d | head -1)
	[ -z "$f" ] || { echo "${toc#"$TOP"/} lists $f twice"; return 1; }
}

# step_chapter N: book/FILE of step N's chapter, or nothing.
step_chapter() {
	tsv_columns "$TOP/book/chapters.tsv" file step | awk -F'\t' -v s="$1" '$2 == s { print "book/" $1 }'
}

# work_starts WHAT: the point where a command stops checking its input and
# starts real work (extracting or building a tree, compiling, installing).
# With QSL_INPUT_CHECK_ONLY=1 it stops there instead, so that
# common/tests/bad-input.sh can drive the real commands and still never
# start a build when a check has regressed.
work_starts() {
	[ "${QSL_INPUT_CHECK_ONLY:-0}" != 1 ] ||
		die "the input checks let this through and $1 would start now (QSL_INPUT_CHECK_ONLY=1)"
}

# host_is_root: may this process install packages?  The one probe of who
# we are: QSL_UID stands in for `id -u`, so that a test can ask as
# another user from any host.
host_is_root() { [ "${QSL_UID:-$(id -u)}" -eq 0 ]; }

# pkg_installed PACKAGE: is the Debian package installed?  The one probe
# of the host's packages: QSL_DPKG_ADMINDIR points dpkg-query at another
# status database (a test's fake one) instead of /var/lib/dpkg.
pkg_installed() {
	dpkg-query ${QSL_DPKG_ADMINDIR:+--admindir="$QSL_DPKG_ADMINDIR"} -W -f='${Status}' "$1" 2>/dev/null |
		grep -q "install ok installed"
}

# check_kvm: with KVM=1, stop unless this host can run a KVM guest.  A
# /dev/kvm from a PVM module (kvm_pvm) runs only guests built for PVM,
# and without vmx or svm in /proc/cpuinfo there is no hardware
# virtualisation: either way a normal guest hangs after "Booting from ROM".
check_kvm() {
	[ "${KVM:-0}" = 1 ] || return 0
	local why
	why=$(kvm_unusable) || return 0
	die "KVM=1 but $why; run without KVM=1 (TCG)"
}

# kvm_unusable: why this host cannot run a KVM guest (one line, status 0),
# or nothing and status 1 if it can.  The one probe of the host's KVM: it
# reads QSL_DEV_KVM, QSL_PROC_MODULES and QSL_PROC_CPUINFO (by default
# /dev/kvm, /proc/modules, /proc/cpuinfo), so that a test can point it at
# fake files and check every kind of host from any host.
kvm_unusable() {
	local dev=${QSL_DEV_KVM:-/dev/kvm} modules=${QSL_PROC_MODULES:-/proc/modules}
	local cpuinfo=${QSL_PROC_CPUINFO:-/proc/cpuinfo}
	if [ ! -e "$dev" ] || [ ! -w "$dev" ]; then
		echo "/dev/kvm is missing or not writable here"
	elif grep -qs '^kvm_pvm ' "$modules"; then
		echo "/dev/kvm comes from the PVM module kvm_pvm, which runs only guests built for PVM: a normal guest hangs after 'Booting from ROM'"
	elif ! grep -qsE '^flags.*\b(vmx|svm)\b' "$cpuinfo"; then
		echo "this CPU has no vmx or svm flag (no hardware virtualisation in /proc/cpuinfo)"
	else
		return 1
	fi
}

# host_tsc_khz: the rate of this host's TSC in kHz, which under TCG is
# the rate of every x86_64 guest's TSC too (QEMU gives the guest the
# host's counter), or nothing when the host has no constant TSC or the
# measurement (common/scripts/tsc-khz.c) does not settle.  The one probe
# of the host's clock: it reads QSL_PROC_CPUINFO (default /proc/cpuinfo),
# and QSL_HOST_TSC_KHZ stands in for the measurement, so that a test can
# ask about any host.
host_tsc_khz() {
	local cpuinfo=${QSL_PROC_CPUINFO:-/proc/cpuinfo}
	local src=$TOP/common/scripts/tsc-khz.c bin=$BUILD/host/tsc-khz
	grep -qsE '^flags.*\bconstant_tsc\b' "$cpuinfo" || return 0
	if [ -n "${QSL_HOST_TSC_KHZ:-}" ]; then
		echo "$QSL_HOST_TSC_KHZ"
		return 0
	fi
	[ "$(uname -m)" = x86_64 ] || return 0
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		mkdir -p "${bin%/*}"
		gcc -O2 -o "$bin" "$src" || return 0
	fi
	"$bin" 2>/dev/null || true
}

# kmake_args ARCH: sets the array KMAKE to the kernel make variables for
# ARCH (cross compiler, ccache when present), shared by every kernel and
# module build.
kmake_args() {
	local cc
	case $1 in
	# An exported CROSS_COMPILE must not reach the native build.
	x86_64) KMAKE=(ARCH=x86_64 CROSS_COMPILE=) cc=gcc ;;
	sparc64) KMAKE=(ARCH=sparc64 CROSS_COMPILE=sparc64-linux-gnu-) cc=sparc64-linux-gnu-gcc ;;
	esac
	if command -v ccache >/dev/null; then
		KMAKE+=("CC=ccache $cc" "HOSTCC=ccache gcc")
	fi
}
