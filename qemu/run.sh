#!/bin/bash
# run.sh STAGE ARCH MODE [TAG]: boot a stage's kernel for ARCH in QEMU.
#   MODE test:  run the torture plan in a fresh run directory,
#               build/runs/ID (see run_id in lib.sh): its inputs
#               (run.env), the QEMU command line (qemu.cmd), the console
#               alone (console.log), what QEMU itself printed
#               (qemu.stderr) and how QEMU ended (qemu.status).
#               The reader sees the torture statistics as they come; QEMU
#               is killed after the plan's time plus QSL_GRACE seconds
#               (default 120).
#               Prints the run directory.
#   MODE shell: an interactive busybox shell on the guest (Ctrl-A X quits).
# Environment: CPUS, DURATION, PLAN, QSLTORTURE, QSL_GRACE, KVM=1 (opt-in),
# KLITMUS (klitmus.sh: the klitmus7 modules' parameters, and the initramfs
# that holds them, QSL_INITRD; KLITMUS_SECONDS, the time they may take),
# QEMU_CPU (x86_64: QEMU's -cpu; step.sh's second boot of a step with a
# "bare" column clears the hypervisor bit with it).
set -eu
. "$(dirname "$0")/../common/boot/lib.sh"

n=$(stage "$1")
arch=$2
mode=$3
KERNEL_OBJ=$(obj_dir "$n" "$arch")
INITRD=${QSL_INITRD:-$KERNEL_OBJ/qsl-initramfs.cpio}
CPUS=$(vcpus_for "$arch")
DURATION=$(duration_for step)
PLAN=${PLAN:-spin_lock,spin_lock_irq,rw_lock}
QSLTORTURE=${QSLTORTURE:-on}
GRACE=${QSL_GRACE:-120}
check_number QSL_GRACE "$GRACE" 10 3600
ACCEL=tcg,thread=multi
if [ "${KVM:-0}" = 1 ]; then
	check_kvm
	ACCEL=kvm
fi
KLITMUS=${KLITMUS:-off}
KLITMUS_SECONDS=${KLITMUS_SECONDS:-0}
check_number KLITMUS_SECONDS "$KLITMUS_SECONDS" 0 36000
APPEND="panic=-1 qsl.mode=$mode qsl.plan=$PLAN qsl.duration=$DURATION qsl.qsltorture=$QSLTORTURE qsl.klitmus=$KLITMUS"
# shellcheck source=qemu/x86_64.sh
. "$TOP/qemu/$arch.sh"
command -v "$QEMU_BIN" >/dev/null || die "$QEMU_BIN is missing; run: make deps"
[ -f "$QEMU_KERNEL" ] || die "no kernel at $QEMU_KERNEL; build step $n first"
[ -f "$INITRD" ] || die "no initramfs at $INITRD"

if [ "$mode" = shell ]; then
	say "booting step $n ($arch, $CPUS vCPUs) into a shell; Ctrl-A X leaves QEMU"
	exec "$QEMU_BIN" "${QEMU_ARGS[@]}" -nographic
fi

# Every run of the plan, plus the qsl_torture run, plus boot time.
# (grep -c exits 1 when it counts 0, as for PLAN=none.)
runs=$(($(printf '%s' "$PLAN" | tr ',' '\n' | grep -vc '^none$' || true) + 1))
limit=$((runs * (DURATION + 10) + KLITMUS_SECONDS + GRACE))
dir=$(run_dir "$n" "$arch" "${4:-}")
run_fresh "$dir"
log=$dir/console.log
{
	printf 'stage=%s\narch=%s\nmutant=%s\ntag=%s\n' "$(stage_step "$n")" "$arch" "$(stage_mutant "$n")" "${4:-}"
	printf 'cpus=%s\nduration=%s\nplan=%s\nqsltorture=%s\nklitmus=%s\naccel=%s\n' "$CPUS" "$DURATION" "$PLAN" "$QSLTORTURE" "$KLITMUS" "$ACCEL"
	printf 'qemu_cpu=%s\ntsc_khz=%s\n' "${QEMU_CPU:-default}" "${TSC_KHZ:-guest-calibrated}"
	printf 'kernel=%s\nstarted=%s\n' "${QEMU_KERNEL#"$TOP"/}" "$(date -u '+%Y-%m-%dT%H:%M:%SZ')"
	printf 'commit=%s\n' "$(commit_of "$TOP" 2>/dev/null || echo unknown)"
} >"$dir/run.env"
printf '%q ' "$QEMU_BIN" "${QEMU_ARGS[@]}" -display none -monitor none -serial stdio >"$dir/qemu.cmd"
echo >>"$dir/qemu.cmd"
say "booting step $n ($arch, $CPUS vCPUs, ${ACCEL%%,*}) - plan $PLAN, ${DURATION} s each; hard limit ${limit} s (run: ${dir#"$TOP"/})"
start=$(now)
timeout -k 10 "$limit" "$QEMU_BIN" "${QEMU_ARGS[@]}" \
	-display none -monitor none -serial stdio </dev/null >"$log" 2>"$dir/qemu.stderr" &
qpid=$!
# Show the reader what matters as it comes: our lines, torture statistics,
# and anything that looks bad.  A line a healthy TCG run prints that looks
# alarming is named as expected, once: the kernel's "NMI handler ... took
# too long" (an emulated CPU runs qsl_torture's NMI handler slowly; the
# verdict does not count it).
tail -n +1 -f --pid="$qpid" "$log" 2>/dev/null |
	grep --line-buffered -E "QSL: |Writes:|Reads :|End of test|qsl_torture|$BADNESS_RE" |
	grep --line-buffered -v -E "QSL: klitmus\| ([^O]|O[^b])" |
	awk '{ print "    | " $0 }
	     !nmi && /NMI handler .* took too long/ {
		print "    | (expected under TCG: emulated CPUs run the NMI handler slowly; not a failure)"; nmi = 1 }
	     { fflush() }' >&2 &
tpid=$!
set +e
wait "$qpid"
rc=$?
set -e
wait "$tpid" 2>/dev/null || true
elapsed=$(($(now) - start))
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	rc=timeout
fi
printf 'exit=%s elapsed=%s limit=%s\n' "$rc" "$elapsed" "$limit" >"$dir/qemu.status"
if [ "$rc" != 0 ] && [ -s "$dir/qemu.stderr" ]; then
	say "QEMU (exit $rc) said:"
	sed 's/^/    | /' "$dir/qemu.stderr" | tail -5 >&2
fi
printf '%s\n' "$dir"
