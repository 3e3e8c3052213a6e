#!/bin/bash
# check.sh: everything that needs no kernel build, in well under a minute.
# Prints one line per check and "check: N passed, N failed".
set -eu
. "$(dirname "$0")/lib.sh"
cd "$TOP"
"$TOP/common/scripts/deps.sh" kernel check

pass=0 failed=0
result() { # name rc detail-file
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		printf 'ok     %s\n' "$1"
	else
		failed=$((failed + 1))
		printf 'FAILED %s\n' "$1"
		sed 's/^/       /' "$3" | tail -25
	fi
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() { # name command...
	local name=$1 rc=0
	shift
	"$@" >"$out" 2>&1 || rc=$?
	result "$name" "$rc" "$out"
}

run "shellcheck: every script" shellcheck -x -P SCRIPTDIR \
	common/scripts/*.sh common/tests/*.sh qemu/*.sh .ci/run
run "verdict: recorded console logs judged as cases.tsv says" common/tests/verdict.sh
run "snapshots: steps/*/tree regenerated from the patches match" common/scripts/snapshot.sh --check
# Two checkpatch warnings are answered once, here, instead of per patch:
#  FILE_PATH_CHANGES asks whether MAINTAINERS needs updating when a file
#    is added or removed; the LOCKING PRIMITIVES entry covers these paths
#    by its globs (kernel/locking/, arch/*/include/asm/spinlock*.h, ...).
#  NEW_TYPEDEFS: <linux/spinlock_types_raw.h> requires the architecture
#    to provide the type arch_spinlock_t; the series defines it once.
for p in $(series_upto 99); do
	run "checkpatch: ${p#"$TOP"/}" perl "$PRISTINE/scripts/checkpatch.pl" --root="$PRISTINE" \
		--ignore FILE_PATH_CHANGES,NEW_TYPEDEFS -q "$p"
done
# The project's own C in kernel style.  Not common/lab/include/: the shim
# defines kernel APIs (barriers, IS_ENABLED) and trips the checks meant for
# their users.  One check answered here: USE_LOCKDEP asks qsl_torture to use
# lockdep_assert_held() where it tests spin_is_locked() itself.
run "checkpatch: the project's C (qsl_torture, guest init, lab)" \
	perl "$PRISTINE/scripts/checkpatch.pl" --no-tree -q --ignore USE_LOCKDEP -f \
	common/qsl-torture/*.c common/guest/*.c common/lab/*.c common/lab/*.h
mkdir -p "$BUILD/tools"
run "guest init: common/guest/init.c builds with -Wall -Wextra -Werror" \
	gcc -static -O2 -Wall -Wextra -Werror -o "$BUILD/tools/init-check" common/guest/init.c
run "bad input: make step-42, bench and lab-bench with bad values stop with a clear message" common/tests/bad-input.sh

echo "check: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
