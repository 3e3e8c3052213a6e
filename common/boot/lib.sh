# shellcheck shell=bash
# The boot product's library, sourced by every script of common/ and
# qemu/ that knows the steps: stage naming, the series, the expectation
# table, the run-directory protocol, the mutants, the host's KVM and clock,
# the kernel make variables.  It sources the harness first; it sets KVER
# and PRISTINE.

. "$(dirname "${BASH_SOURCE[0]}")/../harness/lib.sh"

KVER=$(cat "$TOP/common/boot/kernel-version")
# The kernel-API shim the lab and the lock checker both compile a step's
# lock against (common/checker/shim/README.md).
# shellcheck disable=SC2034
SHIMSRC=$TOP/common/checker/shim
# The lock checker's memory models, weakest last: every verify script reads
# them here; common/harness/tests/registries.sh holds the checker's own list to it.
# shellcheck disable=SC2034
VERIFY_MODELS="sc tso weak"
# shellcheck disable=SC2034 # used by the scripts that source this file
PRISTINE=$BUILD/pristine-$KVER

# duration_for COMMAND: DURATION, the seconds of each torture run, or
# COMMAND's default (step: make step-N and every single boot, test, soak,
# bench, bench-smoke), checked against the one range.  DURATION's one
# owner: every command that boots asks here, and an explicit DURATION
# wins everywhere.
duration_for() {
	local d
	case $1 in
	step) d=15 ;;
	test) d=5 ;;
	soak) d=60 ;;
	bench) d=10 ;;
	bench-smoke) d=3 ;;
	*) die "duration_for: no default for '$1'" ;;
	esac
	d=${DURATION:-$d}
	check_number DURATION "$d" 1 3600
	printf '%s\n' "$d"
}

# lab_timing COMMAND: "REPS MS" for the lab's host measurements, the one
# table of their defaults (lab-bench 5 x 1000 ms, its smoke 1 x 100,
# lab-scale 3 x 300) and the one range check; REPS and MS from the
# environment win.
lab_timing() {
	local r m
	case $1 in
	lab-bench) r=5 m=1000 ;;
	lab-bench-smoke) r=1 m=100 ;;
	lab-scale) r=3 m=300 ;;
	*) die "lab_timing: no default for '$1'" ;;
	esac
	r=${REPS:-$r} m=${MS:-$m}
	check_number REPS "$r" 1 100
	check_number MS "$m" 10 60000
	printf '%s %s\n' "$r" "$m"
}

# vcpus_for ARCH: CPUS, the guest's vCPUs, or ARCH's default, checked
# against the one range; sparc64's QEMU machines have one CPU, whatever
# CPUS says.
vcpus_for() {
	case $1 in
	sparc64) echo 1 ;;
	*)
		local c=${CPUS:-4}
		check_number CPUS "$c" 1 8
		echo "$c"
		;;
	esac
}

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

# valid_steps: the step numbers, on one line (for messages and make help).
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
# mutant common/boot/mutants/NAME.patch on top (make step-7+decode-tail-mask).
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
		[ -f "$TOP/common/boot/mutants/$m.patch" ] ||
			die "'$1': there is no mutant '$m' (common/boot/mutants/$m.patch); the mutants are: $(mutant_names)"
		printf '%s+%s\n' "$((10#$n))" "$m"
		;;
	*) step_dir "$1" today >/dev/null && printf '%s\n' "$((10#$1))" ;;
	esac
}

# mutant_patch NAME: a mutant's patch, relative to the top: the checker's
# own (common/checker/mutants/) where it has one, else the booted one
# (common/boot/mutants/); common/boot/mutants/mutants.tsv lists both kinds.
mutant_patch() {
	if [ -f "$TOP/common/checker/mutants/$1.patch" ]; then
		printf 'common/checker/mutants/%s.patch\n' "$1"
	else
		printf 'common/boot/mutants/%s.patch\n' "$1"
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
			"${m:+, plus the mutant common/boot/mutants/$m.patch}"
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

# check_arch ARCH: stop unless the project boots ARCH.
check_arch() {
	case $1 in
	x86_64 | sparc64) ;;
	*) die "ARCH=$1 is not supported; use x86_64 or sparc64" ;;
	esac
}

# The expected lock of stage S on ARCH, from common/boot/expect.tsv (a
# mutant's stage: its step's row).
expected_lock() {
	local v
	v=$(expect_field "$1" "$2" lock)
	[ -n "$v" ] || die "common/boot/expect.tsv has no row for step $(stage_step "$1") on $2"
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
	*) die "common/boot/expect.tsv: the bare column of step $(stage_step "$1") on $2 is '$v', not - or LOCK:PATHS" ;;
	esac
}
# How that boot's CPU is given to QEMU, and named in its verdict line.
# shellcheck disable=SC2034 # read by step.sh
BARE_CPU=qemu64,-hypervisor
# shellcheck disable=SC2034 # read by step.sh
BARE_LABEL="(no hypervisor bit)"

# EXPECT_TABLE: common/boot/expect.tsv (a test points it at a doctored copy).
EXPECT_TABLE=${EXPECT_TABLE:-$TOP/common/boot/expect.tsv}
# expect_rows COLUMN...: those columns of every row of the expectation
# table, by their names in its header (step, arch, lock, default, ...).
expect_rows() { tsv_columns "$EXPECT_TABLE" "$@"; }
# expect_field STAGE ARCH COLUMN: one cell of common/boot/expect.tsv (COLUMN
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
# common/boot/expect.tsv, on one line.
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
# The configuration matrix (make matrix): common/boot/matrix/, one file a
# scenario and CFLIST, their order (the CFLIST's header says what a
# scenario's file holds).  QSL_MATRIX_ROW=NAME in the environment of
# step.sh builds and boots that scenario: build.sh merges its fragment
# last, and the kernel lives in an object tree of its own, obj_dir STAGE
# ARCH (build/src/NN/obj-ARCH-NAME; a scenario without a fragment uses
# the step's own obj-ARCH).  MATRIX_DIR: another folder (a test's).
MATRIX_DIR=${MATRIX_DIR:-$TOP/common/boot/matrix}
# matrix_rows: the scenarios, in CFLIST's order, one a line.
matrix_rows() { grep -v -e '^#' -e '^[[:space:]]*$' "$MATRIX_DIR/CFLIST"; }
# matrix_field NAME KEY: a scenario's "# KEY: value" line (shows, cpus,
# smoke, evidence), or its fragment: its own name when its file has a
# Kconfig line, "-" when it has none.
matrix_field() {
	local f=$MATRIX_DIR/$1 v
	if ! matrix_rows | grep -qxF -- "$1" || [ ! -f "$f" ]; then
		die "${MATRIX_DIR#"$TOP"/}/ has no scenario '$1' (scenarios: $(matrix_rows | tr '\n' ' '))"
	fi
	if [ "$2" = fragment ]; then
		if grep -qE '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set$)' "$f"; then
			printf '%s\n' "$1"
		else
			echo -
		fi
		return 0
	fi
	v=$(sed -n "s/^# $2: //p" "$f" | head -1)
	[ -n "$v" ] || die "${f#"$TOP"/} has no '# $2: ' line"
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
# obj_dir STAGE ARCH: the stage's kernel object tree for ARCH, a matrix
# scenario's of its own (QSL_MATRIX_ROW).
obj_dir() {
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

# run_id STAGE ARCH [TAG], run_dir STAGE ARCH [TAG]: a boot's name and its
# run directory (the protocol above).
run_id() {
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
# validator" (common/boot/tests/verdict/lockdep-nonstatic).
# shellcheck disable=SC2034 # used by the scripts that source this file
BADNESS_RE='\<BUG\>|WARNING:|Oops|Call Trace|Kernel panic|general protection fault|Unable to handle|detected stall|self-detected stall|Stall ended|soft lockup|hard LOCKUP|blocked for more than|hung_task|turning off the locking correctness validator|non-static key|possible recursive locking|inconsistent lock state|circular locking|DEADLOCK|Attempted to kill init'

# MUTANTS_TABLE: common/boot/mutants/mutants.tsv, every mutant's facts in one
# table (its step, whether make mutants boots it, what the checker must
# do with it).
MUTANTS_TABLE=$TOP/common/boot/mutants/mutants.tsv

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

# step_chapter N: book/FILE of step N's chapter, or nothing.
step_chapter() {
	tsv_columns "$TOP/book/chapters.tsv" file step | awk -F'\t' -v s="$1" '$2 == s { print "book/" $1 }'
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
# measurement (common/boot/tsc-khz.c) does not settle.  The one probe
# of the host's clock: it reads QSL_PROC_CPUINFO (default /proc/cpuinfo),
# and QSL_HOST_TSC_KHZ stands in for the measurement, so that a test can
# ask about any host.
host_tsc_khz() {
	local cpuinfo=${QSL_PROC_CPUINFO:-/proc/cpuinfo}
	local src=$TOP/common/boot/tsc-khz.c bin=$BUILD/host/tsc-khz
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
