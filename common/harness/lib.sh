# shellcheck shell=bash
# The harness every product sources (through its own lib.sh): messages,
# paths, KTAP, tables by column and the one probe of who and what the
# host is.  It sets TOP and BUILD and knows nothing of steps or kernels.

# A die() inside $(...) ends only that subshell; with inherit_errexit the
# subshell's failure is the substitution's status, and an assignment
# x=$(...) then stops the caller under set -e.  A substitution inside
# another command's arguments, a for list or < <(...) would still lose
# it: the scripts assign first (series_into, below), never nest.
shopt -s inherit_errexit

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this file
BUILD=${QSL_BUILD:-$TOP/build}

# say, warn, die: one line to stderr, marked; die stops the script (or
# only the $(...) it runs in: see inherit_errexit above).
say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# check_number NAME VALUE MIN MAX: stop unless VALUE is a whole number in
# MIN..MAX, naming NAME; every numeric parameter is checked through it.
check_number() {
	case $2 in
	'' | *[!0-9]*) die "$1=$2 is not a whole number (expected $3..$4)" ;;
	esac
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		die "$1=$2 is out of range (expected $3..$4)"
	fi
}

# now: seconds since the epoch, for the parts' and runs' times.
now() { date +%s; }

# job_slot N [COMMAND...]: wait until fewer than N background jobs of
# this shell run, running COMMAND (a flush of finished results) each
# time one ends.  The one scheduler of every script that runs jobs side
# by side; each keeps its results in the order it started them.
job_slot() {
	local n=$1
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do
		wait -n || true
		[ $# -eq 0 ] || "$@"
	done
}

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
# ktap_plan_kept: did the block run as many results as its plan said?
# If not (a result went missing), says so and counts a failure.
ktap_plan_kept() {
	[ "$KTAP_N" -ne "$KTAP_PLAN" ] || return 0
	KTAP_FAIL=$((KTAP_FAIL + 1))
	printf '%s# the plan said %d, %d ran\n' "$KTAP_IN" "$KTAP_PLAN" "$KTAP_N"
	return 1
}
ktap_end() {
	if [ -z "$KTAP_PLAN" ]; then
		printf '%s1..%d\n' "$KTAP_IN" "$KTAP_N"
	else
		ktap_plan_kept || true
	fi
	printf '%s: %d passed, %d failed\n' "$KTAP_NAME" "$KTAP_PASS" "$KTAP_FAIL"
	[ "$KTAP_FAIL" -eq 0 ]
}
# ktap_sub_begin NAME COUNT ... ktap_sub_end: a subtest inside this
# script's own block (make test's step, whose tests are its boots): its
# results are ktap_result's, indented one level more; ktap_sub_end
# returns the subtest's status (non-zero if a result failed or the count
# missed the plan), and the caller gives the outer block its result.
KTAP_STACK=()
ktap_sub_begin() {
	KTAP_STACK+=("$KTAP_NAME"$'\t'"$KTAP_N"$'\t'"$KTAP_PASS"$'\t'"$KTAP_FAIL"$'\t'"$KTAP_PLAN"$'\t'"$KTAP_IN")
	KTAP_NAME=$1 KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_PLAN=$2 KTAP_IN="$KTAP_IN    "
	printf '%sKTAP version 1\n%s# Subtest: %s\n%s1..%d\n' "$KTAP_IN" "$KTAP_IN" "$1" "$KTAP_IN" "$2"
}
ktap_sub_end() {
	local rc=0
	ktap_plan_kept || true
	[ "$KTAP_FAIL" -eq 0 ] || rc=1
	IFS=$'\t' read -r KTAP_NAME KTAP_N KTAP_PASS KTAP_FAIL KTAP_PLAN KTAP_IN <<<"${KTAP_STACK[-1]}"
	unset 'KTAP_STACK[-1]'
	return "$rc"
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

# work_starts WHAT: the point where a command stops checking its input and
# starts real work (extracting or building a tree, compiling, installing).
# With QSL_INPUT_CHECK_ONLY=1 it stops there instead, so that
# common/harness/tests/bad-input.sh can drive the real commands and still never
# start a build when a check has regressed.
work_starts() {
	[ "${QSL_INPUT_CHECK_ONLY:-0}" != 1 ] ||
		die "the input checks let this through and $1 would start now (QSL_INPUT_CHECK_ONLY=1)"
}

# Every compile writes its dependencies (-MMD, FILE.d beside FILE.o), so
# that a build is done again only when something it read has changed, as
# make would: up_to_date OUTPUT STAMP [INPUT...] is true when OUTPUT
# exists, OUTPUT.stamp holds STAMP (the build's commands, so a changed
# flag or source path rebuilds), and no file its .d files name, nor any
# INPUT, is newer than it (a missing .d file rebuilds too).  A second
# make verify with nothing changed compiles nothing
# (common/checker/tests/build-cache.sh); the lab's builds use it too.
# shellcheck disable=SC2034 # read by the scripts that source this file
DEPFLAGS=(-MMD)
up_to_date() {
	local out=$1 stamp=$2 d f
	shift 2
	[ -f "$out" ] && [ -f "$out.stamp" ] && [ "$(cat "$out.stamp")" = "$stamp" ] || return 1
	for f in "$@"; do
		[ -e "$f" ] && [ ! "$f" -nt "$out" ] || return 1
	done
	# no dependency file, no knowledge of the headers: build again
	compgen -G "${out%/*}/*.d" >/dev/null || return 1
	for d in "${out%/*}"/*.d; do
		while read -r f; do
			[ -e "$f" ] && [ ! "$f" -nt "$out" ] || return 1
		done < <(sed -e 's/^[^:]*://' -e 's/\\$//' "$d" | tr ' ' '\n' | grep .)
	done
}
# build_stamp COMMAND-WORDS...: the stamp of a build, from its commands.
build_stamp() { printf '%q ' "$@" | sha256sum | cut -d' ' -f1; }

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

# The outside world's judges (common/harness/README.md, "herd7 and
# klitmus7"): archives in THIRD_PARTY (a variable: default
# ../shared/third_party beside the checkout), each checked against the
# checksum third-party.tsv records; herdtools7 built from its archive once
# per version into HERD_HOME, outside build/, so that make clean and a
# fresh clone do not build it again.
THIRD_PARTY=${THIRD_PARTY:-$TOP/../shared/third_party}
HERD_VERSION=7.56.3
HERD_HOME=${HERD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qspinlock-step-by-step}/herdtools7-$HERD_VERSION
LITMUS_CATALOGUE=paulmck-litmus-2f1be9ed

# third_party_problem FILE: nothing if THIRD_PARTY/FILE is there with the
# checksum third-party.tsv records; otherwise one line saying what is
# wrong and where the file comes from.
third_party_problem() {
	local want got from
	want=$(awk -F'\t' -v f="$1" '$1 == f { print $2 }' "$TOP/common/harness/third-party.tsv")
	from=$(awk -F'\t' -v f="$1" '$1 == f { print $3 }' "$TOP/common/harness/third-party.tsv")
	[ -n "$want" ] || { echo "$1 is not listed in common/harness/third-party.tsv"; return; }
	if [ ! -f "$THIRD_PARTY/$1" ]; then
		echo "$THIRD_PARTY/$1 is missing ($from; set THIRD_PARTY=DIR to where it is)"
		return
	fi
	got=$(sha256sum "$THIRD_PARTY/$1" | cut -d' ' -f1)
	[ "$got" = "$want" ] ||
		echo "$THIRD_PARTY/$1 has sha256 $got, not $want as common/harness/third-party.tsv records ($from)"
}

# herd_problem: nothing if herd7, diy7 and klitmus7 are built in
# HERD_HOME; otherwise why not, for a test's "# SKIP" line: the archive's
# problem first, where it has one.
herd_problem() {
	local t p
	for t in herd7 diy7 klitmus7; do
		[ -x "$HERD_HOME/bin/$t" ] && continue
		p=$(third_party_problem "herdtools7-$HERD_VERSION.tar.gz")
		echo "${p:-$t is not built in $HERD_HOME (make herdtools builds it from $THIRD_PARTY/herdtools7-$HERD_VERSION.tar.gz)}"
		return
	done
}

# herd_ensure: build herdtools7 now (herdtools.sh) if it is not built and
# its archive is here; herd_problem then says whether it can run.
herd_ensure() {
	[ -n "$(herd_problem)" ] || return 0
	[ -n "$(third_party_problem "herdtools7-$HERD_VERSION.tar.gz")" ] || "$TOP/common/harness/herdtools.sh"
}

# catalogue_unpack: the LKMM catalogue's archive unpacked once into
# build/third-party/, its directory in CATALOGUE (where
# third_party_problem has nothing to say of the archive).
catalogue_unpack() {
	CATALOGUE=$BUILD/third-party/$LITMUS_CATALOGUE
	[ ! -f "$CATALOGUE/.unpacked" ] || return 0
	rm -rf "$CATALOGUE"
	mkdir -p "$CATALOGUE"
	tar -xzf "$THIRD_PARTY/$LITMUS_CATALOGUE.tar.gz" -C "$CATALOGUE"
	touch "$CATALOGUE/.unpacked"
}

# herd7 ARGS...: herd7 with its own model library (bell, cat and def
# files); klitmus7 likewise with its templates.
herd7() { HERDLIB=$HERD_HOME/share/herdtools7/herd "$HERD_HOME/bin/herd7" "$@"; }
klitmus7() { LITMUSDIR=$HERD_HOME/share/herdtools7/litmus "$HERD_HOME/bin/klitmus7" "$@"; }
