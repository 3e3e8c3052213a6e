/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SPINLOCK_TYPES_H
#define _ASM_X86_SPINLOCK_TYPES_H

#include <linux/types.h>

/*
 * A ticket lock in one 32-bit word: the low half is the ticket being
 * served, the high half the next ticket to hand out.  The lock is free
 * when both halves are equal.  See <asm-generic/spinlock.h>.
 */
typedef atomic_t arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	ATOMIC_INIT(0)

#include <asm-generic/qrwlock_types.h>

#endif /* _ASM_X86_SPINLOCK_TYPES_H */
