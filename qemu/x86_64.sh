# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are read by qemu/run.sh
# How an x86_64 step is booted: QEMU TCG (multi-threaded), CPUS vCPUs,
# 8250 serial console.  Sourced by qemu/run.sh, which sets KERNEL_OBJ,
# INITRD, APPEND, CPUS, ACCEL and QEMU_CPU (empty: QEMU's default CPU
# model, qemu64, whose CPUID reports a hypervisor, as every model does).
QEMU_BIN=qemu-system-x86_64
QEMU_KERNEL=$KERNEL_OBJ/arch/x86/boot/bzImage
QEMU_ARGS=(
	-M pc -accel "$ACCEL" -smp "$CPUS" -m 512
	${QEMU_CPU:+-cpu "$QEMU_CPU"}
	-kernel "$QEMU_KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 $APPEND"
	-no-reboot
)
