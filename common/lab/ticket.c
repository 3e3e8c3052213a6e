// SPDX-License-Identifier: GPL-2.0
/*
 * ticket.c - 6.1's generic ticket lock for the lab's host benchmark.
 *
 * Compiled with the pristine 6.1 tree's include/ after the shim, so
 * <asm-generic/spinlock.h> below is the kernel's own file, unmodified:
 * the lock step 0 of the series puts x86 on.  Only its two operations the
 * benchmark needs are made callable, out of line, as the kernel's
 * spin_lock() and spin_unlock() are.
 */
#include <linux/kconfig.h>
#include <asm-generic/spinlock.h>
#include "ticket.h"

noinline void lab_ticket_lock(arch_spinlock_t *lock)
{
	arch_spin_lock(lock);
}

noinline void lab_ticket_unlock(arch_spinlock_t *lock)
{
	arch_spin_unlock(lock);
}
