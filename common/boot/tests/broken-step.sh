#!/bin/bash
# A broken step directory stops every command that reads the series, with
# a message naming it, before anything is built (issue: a die() inside
# $(...) used to end only a subshell).  Runs on a copy of the repository's
# files, with a second patch in step 5 or a second directory numbered 05.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"
top=$PWD
# Should a command not stop, it must still never start a build.
export QSL_INPUT_CHECK_ONLY=1
ktap_begin broken-step
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy() {
	rm -rf "$tmp/repo"
	mkdir -p "$tmp/repo"
	# The work tree as it is: tracked files that exist, and new ones.
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ ! -f "$f" ] || printf '%s\0' "$f"; done |
		xargs -0 cp --parents -t "$tmp/repo")
}
expect_stop() { # what message-substring make-args...
	local what=$1 want=$2 out
	shift 2
	if out=$(cd "$tmp/repo" && QSL_BUILD=$tmp/build "$@" 2>&1); then
		printf '%s\n' "$out" >"$tmp/detail"
		ktap_result 1 "$what: '$*' succeeded" "$tmp/detail"
		return
	fi
	case $out in
	*"$want"*) ktap_result 0 "$what: '$*' stops: $(printf '%s\n' "$out" | grep -m1 error:)" ;;
	*)
		printf '%s\n' "$out" | head -5 >"$tmp/detail"
		ktap_result 1 "$what: '$*' did not say '$want'" "$tmp/detail"
		;;
	esac
}
# The mechanism: with lib.sh's inherit_errexit, a command that fails
# inside $(...) ends the substitution there, and the assignment stops
# the script; series_into stops its caller when the series cannot be read.
out=$(bash -c '. common/boot/lib.sh; set -e; x=$(false; echo "inner went on"); echo "went on: $x"' 2>&1) || true
case $out in
*"went on"*) ktap_result 1 "a failure inside \$(...) stops the caller: $out" ;;
*) ktap_result 0 "a failure inside \$(...) stops the caller (inherit_errexit)" ;;
esac
out=$(bash -c '. common/boot/lib.sh; set -e; series_upto() { die "no series"; }; series_into s 7; echo "went on"' 2>&1) || true
case $out in
*"went on"*) ktap_result 1 "series_into stops its caller when series_upto fails: it went on" ;;
*) ktap_result 0 "series_into stops its caller when series_upto fails: $out" ;;
esac
copy
cp "$tmp/repo"/steps/05-*/0005-*.patch "$tmp/repo/steps/05-pending-test-and-set/0005-extra.patch"
for cmd in "make -s series" "make -s diff-7" "make -s step-7" "make -s step-7+decode-tail-mask" "make -s today" \
	"make -s verify-7" "make -s verify-mutants" "make -s snapshots" "make -s edit-series" "make -s check" \
	"make -s test" "make -s bench" "make -s mutants" "make -s lab" "make -s lab-bench" "make -s sim-bench" \
	"make -s book" "make -s recheck"; do
	# shellcheck disable=SC2086 # cmd is a command line
	expect_stop "a second patch in step 5" "holds 2 .patch files" $cmd
done
copy
mkdir "$tmp/repo/steps/05-duplicate"
cp "$tmp/repo"/steps/05-*/0005-*.patch "$tmp/repo/steps/05-duplicate/"
expect_stop "two directories numbered 05" "two step directories are numbered 05" make -s series
expect_stop "two directories numbered 05" "two step directories are numbered 05" make -s test
ktap_end
