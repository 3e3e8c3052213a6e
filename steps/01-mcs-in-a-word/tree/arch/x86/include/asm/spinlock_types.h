/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SPINLOCK_TYPES_H
#define _ASM_X86_SPINLOCK_TYPES_H

/*
 * The ticket lock of <asm-generic/spinlock.h>: one 32-bit word, whose low
 * half is the ticket being served and high half the next ticket to hand
 * out; the lock is free when both halves are equal.  The generic header
 * declares it, then the queued rwlock's type, which embeds it.
 */
#include <asm-generic/spinlock_types.h>

#endif /* _ASM_X86_SPINLOCK_TYPES_H */
