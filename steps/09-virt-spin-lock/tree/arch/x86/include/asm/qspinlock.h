/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_QSPINLOCK_H
#define _ASM_X86_QSPINLOCK_H

#include <linux/jump_label.h>
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

#ifdef CONFIG_PARAVIRT
/*
 * A fair lock hands itself to the next waiter in line.  In a guest that
 * waiter is a vCPU, which the host may have descheduled: the lock then
 * stays free, with every CPU queued behind it waiting, until the host
 * runs that vCPU again, a whole host time slice for one hand-over.  A
 * test-and-set lock waits for nobody: whichever vCPU runs when the lock
 * comes free takes it.  So a guest gives up fairness and takes contended
 * locks that way.
 *
 * virt_spin_lock_key starts on; native_pv_lock_init() turns it off where
 * CPUID says there is no hypervisor.  Nothing else turns it off: the
 * paravirt spinlock backends that could do better in a guest are not
 * built (PARAVIRT_SPINLOCKS depends on BROKEN).  It is switched once, at
 * boot, before the other CPUs come up, so every CPU takes every lock the
 * same way.
 */
DECLARE_STATIC_KEY_TRUE(virt_spin_lock_key);

void native_pv_lock_init(void) __init;

#define virt_spin_lock virt_spin_lock
/**
 * virt_spin_lock - in a guest, take a contended lock with test-and-set
 * @lock: the queued spinlock
 *
 * Return: false where the key is off, and the caller queues; true once
 * this CPU holds the lock.
 *
 * Nobody sets the pending bit or a tail while the key is on: the word
 * only ever holds 0 or _Q_LOCKED_VAL, and the fast path, the trylock and
 * the unlock work on it unchanged.  queued_spin_is_contended() then never
 * says yes, so a holder that drops its lock for waiters (spin_needbreak(),
 * with CONFIG_PREEMPTION) no longer sees them.
 */
static inline bool virt_spin_lock(struct qspinlock *lock)
{
	int val;

	if (!static_branch_likely(&virt_spin_lock_key))
		return false;

	/*
	 * Read until the lock is free, then try to take it: the waiters
	 * share the cache line while they wait, and only a CPU that saw the
	 * lock free writes to it.  A successful cmpxchg is fully ordered,
	 * which covers the acquire.
	 */
	do {
		while ((val = atomic_read(&lock->val)) != 0)
			cpu_relax();
	} while (!atomic_try_cmpxchg(&lock->val, &val, _Q_LOCKED_VAL));

	return true;
}
#else
static inline void native_pv_lock_init(void)
{
}
#endif /* CONFIG_PARAVIRT */

#include <asm-generic/qspinlock.h>

#endif /* _ASM_X86_QSPINLOCK_H */
