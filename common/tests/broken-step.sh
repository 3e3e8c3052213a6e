#!/bin/bash
# A broken step directory stops every command that reads the series, with
# a message naming it, before anything is built (issue: a die() inside
# $(...) used to end only a subshell).  Runs on a copy of the repository's
# files, with a second patch in step 5 or a second directory numbered 05.
set -eu
cd "$(dirname "$0")/../.."
top=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy() {
	rm -rf "$tmp/repo"
	mkdir -p "$tmp/repo"
	git -C "$top" ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$tmp/repo")
}
fails=0
expect_stop() { # what message-substring make-args...
	local what=$1 want=$2 out
	shift 2
	if out=$(cd "$tmp/repo" && QSL_BUILD=$tmp/build "$@" 2>&1); then
		echo "FAILED: $what: '$*' succeeded"
		fails=$((fails + 1))
		return
	fi
	case $out in
	*"$want"*) echo "ok: $what: '$*' stops: $(printf '%s\n' "$out" | grep -m1 error:)" ;;
	*)
		echo "FAILED: $what: '$*' did not say '$want':"
		printf '%s\n' "$out" | head -5
		fails=$((fails + 1))
		;;
	esac
}
copy
cp "$tmp/repo"/steps/05-*/0005-*.patch "$tmp/repo/steps/05-pending-test-and-set/0005-extra.patch"
for cmd in "make -s series" "make -s diff-7" "make -s step-7" "make -s verify-7" "make -s snapshots" \
	"make -s edit-series" "make -s check"; do
	# shellcheck disable=SC2086 # cmd is a command line
	expect_stop "a second patch in step 5" "holds 2 .patch files" $cmd
done
copy
mkdir "$tmp/repo/steps/05-duplicate"
cp "$tmp/repo"/steps/05-*/0005-*.patch "$tmp/repo/steps/05-duplicate/"
expect_stop "two directories numbered 05" "two step directories are numbered 05" make -s series
[ "$fails" -eq 0 ] && echo "broken-step: every command stopped"
