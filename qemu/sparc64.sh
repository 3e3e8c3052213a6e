# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are read by qemu/run.sh
# How a sparc64 step is booted: qemu-system-sparc64 -M sun4u (one CPU; QEMU
# has no SMP sparc64 machine), sunsu serial console.  Sourced by qemu/run.sh.
QEMU_BIN=qemu-system-sparc64
QEMU_KERNEL=$KERNEL_OBJ/vmlinux
QEMU_ARGS=(
	-M sun4u -smp 1 -m 512
	-kernel "$QEMU_KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 $APPEND"
	-no-reboot
)
