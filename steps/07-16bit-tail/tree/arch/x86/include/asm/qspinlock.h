/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_QSPINLOCK_H
#define _ASM_X86_QSPINLOCK_H

#include <asm-generic/qspinlock_types.h>

#define queued_spin_unlock queued_spin_unlock
/**
 * queued_spin_unlock - release a queued spinlock
 * @lock: the queued spinlock
 *
 * While the lock is held only its owner writes the locked byte (waiters
 * set it, but only once it is clear), and x86 keeps stores in order
 * (TSO), so clearing that byte alone releases the lock: no locked
 * instruction is needed, only a compiler barrier, which is all
 * smp_store_release() is on x86.  Waiters changing the tail bits of the
 * same word at the same time are not disturbed by a byte store.
 */
static inline void queued_spin_unlock(struct qspinlock *lock)
{
	/* Release: the critical section stays before the store to ->locked. */
	smp_store_release(&lock->locked, 0);
}

#include <asm-generic/qspinlock.h>

#endif /* _ASM_X86_QSPINLOCK_H */
