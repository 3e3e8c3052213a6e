#!/bin/bash
# lab.sh [--short] [N...]: the userspace lock lab (common/lab/README.md).
#
# For every step that has a queued spinlock (or the steps N given), compile
# the step's kernel/locking/qspinlock.c and its headers, unmodified, against
# the shim in common/checker/shim/include, link it with the driver common/lab/lab.c,
# and run it:
#   - for NR_CPUS < 16K (nr64) and, where common/boot/expect.tsv gives the step
#     the variant nr16k, for NR_CPUS >= 16K too (the one-bit pending
#     variant no x86 kernel can build), which the binary must report;
#   - on x86_64, natively, and on big-endian sparc64, cross-compiled and
#     run multi-threaded under qemu-user (qemu-sparc64-static).
# Each run must see the counters of the table's lab column.  Then the
# negative controls of its controls column must be judged FAIL by the same
# driver: a non-atomic cmpxchg_acquire() on x86_64, and the little-endian
# layout of the lock word on big-endian sparc64.  The table, not the text
# of a patch, says what runs: a reworded patch fails a check instead of
# turning one off.  Ends with the KTAP block of every run (lib.sh) and
# "lab: N passed, N failed".
#
# --short: shorter runs, fewer threads under qemu-user (make test).
set -eu
. "$(dirname "$0")/../boot/lib.sh"
cd "$TOP"

usage() { die "usage: $0 [--short] [step...]  (steps with a queued spinlock: $(lab_steps))"; }

short=0
only=()
for a in "$@"; do
	case $a in
	--short) short=1 ;;
	-h | --help) usage ;;
	-*) die "unknown option '$a'; usage: $0 [--short] [step...]" ;;
	*) step_dir "$a" >/dev/null && only+=("$((10#$a))") ;;
	esac
done

# Run lengths: each run lasts ms milliseconds, then goes on, up to max
# milliseconds, until it has seen every path it must (see lab.c); grace
# seconds for the threads to stop.  Four threads under qemu-user too:
# with three, a queue behind a pending waiter is one node long, and a
# third nested node at the tail of it is too rare to wait for.
if [ "$short" -eq 1 ]; then
	ms_x86=1500 max_x86=6000 ms_sparc=2000 max_sparc=8000 grace=5
else
	ms_x86=10000 max_x86=20000 ms_sparc=10000 max_sparc=20000 grace=10
fi
thr_x86=4 thr_sparc=4

# shellcheck source=common/lab/lib.sh
. "$TOP/common/lab/lib.sh"


# The layout a binary reports must be the one its variant asks for.
check_layout() { # log variant has-nr16k
	local pb
	pb=$(sed -n 's/.* pending bits=\([0-9]*\) .*/\1/p' "$1" | head -1)
	[ "$3" -eq 1 ] || return 0
	case $2 in
	nr64) [ "$pb" = 8 ] ;;
	nr16k) [ "$pb" = 1 ] ;;
	esac
}

declare -A cell
steps=()
t0=$(now)
for d in $(step_dirs); do
	n=$((10#$(basename "$d" | cut -c1-2)))
	if [ "${#only[@]}" -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$n"; then
		continue
	fi
	if [ "$(expect_field "$n" x86_64 lab)" = - ]; then
		say "step $n: no queued spinlock yet (common/boot/expect.tsv); not in the lab"
		continue
	fi
	[ -f "$d/tree/kernel/locking/qspinlock.c" ] ||
		die "common/boot/expect.tsv runs step $n in the lab, but steps/$(basename "$d") has no kernel/locking/qspinlock.c"
	steps+=("$n")
	for variant in nr64 nr16k; do
		for arch in x86_64 sparc64; do
			req=$(expect_field "$n" "$arch" lab)
			has16k=0
			[ "$(expect_field "$n" "$arch" variant)" != nr16k ] || has16k=1
			[ "$variant" = nr64 ] || [ "$has16k" -eq 1 ] || continue
			tag=$(printf 'step-%02d %s %s' "$n" "$variant" "$arch")
			name=$(printf '%02d-%s-%s' "$n" "$variant" "$arch")
			say "lab $tag: build and run"
			s=$(now)
			if bin=$(build "$d/tree" "$variant" "$arch" "$name"); then
				v=$(run "$bin" "$arch" "$tag" "$req")
				verdict=$(lab_verdict "$bin")
				if [ "$verdict" = PASS ] &&
					! check_layout "$LAB/$name/run.log" "$variant" "$has16k"; then
					verdict=FAIL
					v="lab $tag: FAIL the binary does not report the $variant layout (log: build/lab/$name/run.log)"
				fi
			else
				verdict=ERROR
				v="lab $tag: ERROR $bin"
			fi
			v="$v [$(($(now) - s))s]"
			printf '%s\n' "$v"
			if [ "$verdict" = PASS ]; then ktap_defer 0 "$v"; else ktap_defer 1 "$v"; fi
			cell[$n-$variant-$arch]=$verdict
		done
	done
done
[ "${#steps[@]}" -gt 0 ] || die "no step with a queued spinlock selected"

# Negative controls, where the table's controls column names them: the
# same driver must judge them FAIL, for what the break does.  A build that fails, no verdict, or a
# FAIL for want of contention ("no evidence") does not count: the run
# asks for a queue, so it goes on until the broken lock is contended.
control() { # name step arch want-regex extra-cflags...
	local cname=$1 ln=$2 arch=$3 want=$4 tag name bin v last verdict reason
	shift 4
	last=$(step_dir "$ln")
	tag=$(printf 'control-%s step-%02d nr64 %s' "$cname" "$ln" "$arch")
	name=$(printf 'control-%s-%02d-%s' "$cname" "$ln" "$arch")
	say "lab $tag: must be judged FAIL"
	verdict=ERROR reason=
	if bin=$(build "$last/tree" nr64 "$arch" "$name" "$@"); then
		# The control's run asks for contention only: the break shows there.
		v=$(run "$bin" "$arch" "$tag" pending,queue)
		verdict=$(lab_verdict "$bin")
		reason=$(run_file "$(dirname "$bin")" reason)
	else
		v="lab $tag: build failed: $bin"
	fi
	if [ "$verdict" = FAIL ] && [[ $reason =~ $want ]] && [[ $reason != "no evidence"* ]]; then
		v="$tag: judged FAIL as it must be - $reason"
		ktap_defer 0 "$v"
	else
		v="$tag: expected a FAIL ($want), got: ${v#lab "$tag": }"
		ktap_defer 1 "$v"
	fi
	printf '%s\n' "$v"
}
while read -r cn ca cl; do
	printf '%s\n' "${steps[@]}" | grep -qx "$cn" || continue
	for c in ${cl//,/ }; do
		case $c in
		cmpxchg)
			control cmpxchg "$cn" "$ca" "took it while|owner became|locked byte is clear|lost=" \
				-DLAB_BROKEN_CMPXCHG_ACQUIRE
			;;
		le-layout)
			# The little-endian union on a big-endian CPU: the byte and
			# halfword stores land in the wrong parts of the word, and
			# the lock breaks or names a tail of a CPU that does not
			# exist.  A step without the big-endian union builds the
			# same binary, which passes: the control fails.
			control le-layout "$cn" "$ca" "took it while|owner became|locked byte is clear|lost=|which no thread is|threads still running" \
				-UCONFIG_CPU_BIG_ENDIAN
			;;
		*) die "common/boot/expect.tsv: step $cn $ca: no lab control '$c' (cmpxchg, le-layout)" ;;
		esac
	done
done < <(expect_rows step arch controls | awk -F'\t' '$3 != "-" { print $1, $2, $3 }')

echo
echo "Userspace lock lab ($([ "$short" -eq 1 ] && echo short || echo full)): x86_64 $thr_x86 threads ${ms_x86}ms (up to ${max_x86}ms), sparc64 $thr_sparc threads ${ms_sparc}ms (up to ${max_sparc}ms) under $QEMU_SPARC64"
printf '  %-6s %-8s %-8s %-8s\n' step variant x86_64 sparc64
for n in "${steps[@]}"; do
	for variant in nr64 nr16k; do
		[ -n "${cell[$n-$variant-x86_64]:-}" ] || continue
		printf '  %-6s %-8s %-8s %-8s\n' "$n" "$variant" \
			"${cell[$n-$variant-x86_64]}" "${cell[$n-$variant-sparc64]}"
	done
done
echo "# $(($(now) - t0)) s"
ktap_replay lab
