#!/bin/bash
# verify-audit.sh: the lock checker's audit (common/checker/README.md,
# "Nothing escapes the instrumentation") catches an access that the
# instrumentation misses.  Step 7 is compiled twice for the checker, each
# time with one access written in inline assembly, which -fsanitize=thread
# cannot see: the node's "next = NULL" store, and the lock word load of
# queued_spin_trylock().  The audit must fail on each, naming the symptom:
# a store it did not see, and executions that change with the poison.
set -eu
. "$(dirname "$0")/../../boot/lib.sh"
cd "$TOP"

OUT=$BUILD/verify-audit-test
# shellcheck source=common/checker/lib.sh
. "$TOP/common/checker/lib.sh"
mkdir -p "$OUT/logs"
build_checker

step7=$(step_dir 7)
ktap_begin verify-audit

# escape NAME FILE SED-EXPRESSION SYMPTOM: step 7 with FILE edited; the
# audit must fail with SYMPTOM in its verdict.
escape() {
	local name=$1 file=$2 expr=$3 symptom=$4 tree=$OUT/src-$1 bin out
	rm -rf "$tree"
	cp -r "$step7/tree" "$tree"
	sed -i "$expr" "$tree/$file"
	if cmp -s "$tree/$file" "$step7/tree/$file"; then
		ktap_result 1 "$name: the edit of $file did not apply (step 7 changed?)"
		return
	fi
	bin=$(build "$tree" nr64 "escape-$name") || die "verify-audit: $bin"
	out=$(audit_variant "$bin" "escape-$name" "escape-$name") && {
		ktap_result 1 "$name: the audit passed: $out"
		return
	}
	case $out in
	*"$symptom"*) ktap_result 0 "$name: ${out#audit escape-"$name": }" ;;
	*) ktap_result 1 "$name: the audit failed, but not with \"$symptom\": $out" ;;
	esac
}

# shellcheck disable=SC2016 # the expressions are sed's, not the shell's
escape store kernel/locking/qspinlock.c \
	's|^\tnode->next = NULL;$|\tasm volatile("movq $0, %0" : "=m" (node->next));|' \
	"was written without a call into the checker"
# shellcheck disable=SC2016
escape load include/asm-generic/qspinlock.h \
	's|if (!atomic_read(&lock->val) &&|if (!({ int __v; asm volatile("movl %1, %0" : "=r" (__v) : "m" (lock->val.counter)); __v; }) \&\&|' \
	"change with the poison byte"

ktap_end
