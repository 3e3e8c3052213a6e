/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Queued spinlock: the fast paths.
 *
 * The design of the queued spinlock is Waiman Long's and Peter Zijlstra's
 * (2014); this file is written for the qspinlock step-by-step tutorial.
 * The slowpath is in kernel/locking/qspinlock.c.
 */
#ifndef __ASM_GENERIC_QSPINLOCK_H
#define __ASM_GENERIC_QSPINLOCK_H

#include <asm-generic/qspinlock_types.h>
#include <linux/atomic.h>

/**
 * queued_spin_is_locked - is the lock held?
 * @lock: the queued spinlock
 *
 * Any bit set counts.  Below 16K CPUs the pending waiter takes the lock
 * with plain byte stores, which need not be visible at once: on TSO its
 * loads inside the critical section can complete while its store to the
 * locked byte is still in its store buffer, and the word then reads
 * (*,1,0).  A waiter, pending or queued, is about to own the lock anyway.
 */
static __always_inline int queued_spin_is_locked(struct qspinlock *lock)
{
	return atomic_read(&lock->val);
}

/**
 * queued_spin_value_unlocked - is this copy of a lock word free?
 * @lock: a queued spinlock passed by value (lockref compares copies)
 *
 * Only a word of 0 is free.  lockref changes the word beside the lock
 * with a cmpxchg when this says free; if it looked at the locked byte
 * alone, a cmpxchg that read (*,1,0) while a pending waiter's store to
 * the locked byte was still on its way would succeed inside that
 * waiter's critical section, and the waiter would then overwrite the
 * count with one computed from the old value.
 *
 * @lock is a copy, not a shared word: read its counter directly, as
 * 6.1.192 does.  atomic_read() would make the compiler spill the copy to
 * memory only to read it back (Linus Torvalds' 125b0bb95dd6, in 6.1.69;
 * 6.1 itself had atomic_read()).
 */
static __always_inline int queued_spin_value_unlocked(struct qspinlock lock)
{
	return !lock.val.counter;
}

/**
 * queued_spin_is_contended - are there waiters?
 * @lock: the queued spinlock
 */
static __always_inline int queued_spin_is_contended(struct qspinlock *lock)
{
	return atomic_read(&lock->val) & ~_Q_LOCKED_MASK;
}

/**
 * queued_spin_trylock - take the lock if it is free
 * @lock: the queued spinlock
 *
 * Return: 1 if the lock was taken, 0 if not.
 */
static __always_inline int queued_spin_trylock(struct qspinlock *lock)
{
	/* Read first: a failing cmpxchg would still own the cache line. */
	if (!atomic_read(&lock->val) &&
	    atomic_cmpxchg_acquire(&lock->val, 0, _Q_LOCKED_VAL) == 0)
		return 1;
	return 0;
}

void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val);

#ifndef virt_spin_lock
/*
 * virt_spin_lock - take the lock some other way than by queueing
 * @lock: the queued spinlock
 *
 * An architecture may take a contended lock without the queue where the
 * queue does more harm than good, as x86 does in a guest.  It returns
 * true once it holds the lock.  By default the slowpath always queues.
 */
static __always_inline bool virt_spin_lock(struct qspinlock *lock)
{
	return false;
}
#endif

/**
 * queued_spin_lock - take the lock
 * @lock: the queued spinlock
 *
 * One cmpxchg takes a free lock (0 -> locked); anything else is the
 * slowpath's business, which is told what the word held.
 */
static __always_inline void queued_spin_lock(struct qspinlock *lock)
{
	u32 val = atomic_cmpxchg_acquire(&lock->val, 0, _Q_LOCKED_VAL);

	if (likely(val == 0))
		return;
	queued_spin_lock_slowpath(lock, val);
}

#ifndef queued_spin_unlock
/**
 * queued_spin_unlock - release the lock
 * @lock: the queued spinlock
 *
 * Waiters may change the other bits of the word at any moment.  An
 * atomic subtraction clears the locked byte and leaves them alone; the
 * barrier before it keeps the critical section inside the lock.  Below
 * 16K CPUs the slowpath itself stores single bytes and exchanges the
 * 16-bit tail, so an architecture must then be able to store a byte
 * without disturbing the bytes beside it (see _Q_PENDING_BITS); such an
 * architecture may also define its own, cheaper unlock (x86 does).
 */
static __always_inline void queued_spin_unlock(struct qspinlock *lock)
{
	/* Release: order the critical section before the decrement. */
	smp_mb__before_atomic();
	atomic_sub(_Q_LOCKED_VAL, &lock->val);
}
#endif

/*
 * The arch_spin_*() API of <linux/spinlock.h>, mapped onto the queued
 * spinlock.
 */
#define arch_spin_is_locked(l)		queued_spin_is_locked(l)
#define arch_spin_is_contended(l)	queued_spin_is_contended(l)
#define arch_spin_value_unlocked(l)	queued_spin_value_unlocked(l)
#define arch_spin_lock(l)		queued_spin_lock(l)
#define arch_spin_trylock(l)		queued_spin_trylock(l)
#define arch_spin_unlock(l)		queued_spin_unlock(l)

#endif /* __ASM_GENERIC_QSPINLOCK_H */
