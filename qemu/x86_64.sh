# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are read by qemu/run.sh
# How an x86_64 step is booted: QEMU TCG (multi-threaded), CPUS vCPUs,
# 8250 serial console.  Sourced by qemu/run.sh, which sets KERNEL_OBJ,
# INITRD, APPEND, CPUS, ACCEL and QEMU_CPU (empty: QEMU's default CPU
# model, qemu64, whose CPUID reports a hypervisor, as every model does).
#
# The firmware is qboot (qemu-system-data's qboot.rom), not SeaBIOS:
# its MP table lists every vCPU, so the kernels need no ACPI
# (common/boot/config/x86_64.config), and it reaches the kernel sooner.
# tsc=reliable: without ACPI there is no HPET, and the TSC is the only
# clocksource fine enough for the hrtimers qsl_torture fires every few
# hundred microseconds.  The kernel would otherwise distrust it, because
# qemu64 is an AMD model without constant_tsc; under TCG every vCPU's
# TSC is one counter, QEMU's (cpu_get_ticks(), monotonic under a lock),
# so it is as synchronised as a TSC can be.
# tsc_early_khz: that counter is the host's TSC (lib.sh's host_tsc_khz
# measures its rate), so the guest is told its rate instead of measuring
# it against the emulated PIT, which fails when the host deschedules the
# vCPU thread mid-measurement (seen with 8 vCPUs: "tsc: Unable to
# calibrate against PIT").  Such a guest runs on jiffies, its hrtimers as
# coarse as the tick, and one run's timer load would not be the next's.
# A host without a constant TSC leaves the guest to calibrate.
QEMU_BIN=qemu-system-x86_64
QEMU_KERNEL=$KERNEL_OBJ/arch/x86/boot/bzImage
TSC_KHZ=
case $ACCEL in tcg*) TSC_KHZ=$(host_tsc_khz) ;; esac
QEMU_ARGS=(
	-M pc -bios qboot.rom -accel "$ACCEL" -smp "$CPUS" -m 512
	${QEMU_CPU:+-cpu "$QEMU_CPU"}
	-kernel "$QEMU_KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 tsc=reliable${TSC_KHZ:+ tsc_early_khz=$TSC_KHZ} $APPEND"
	-no-reboot
)
