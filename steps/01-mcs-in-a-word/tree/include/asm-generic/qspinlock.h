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
 */
static __always_inline int queued_spin_is_locked(struct qspinlock *lock)
{
	return atomic_read(&lock->val) & _Q_LOCKED_MASK;
}

/**
 * queued_spin_value_unlocked - is this copy of a lock word free?
 * @lock: a queued spinlock passed by value (lockref compares copies)
 *
 * Only the locked byte counts: a queue behind a released lock still
 * leaves the value "unlocked", as the head of that queue has not taken it.
 */
static __always_inline int queued_spin_value_unlocked(struct qspinlock lock)
{
	return !(atomic_read(&lock.val) & _Q_LOCKED_MASK);
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
 * atomic subtraction clears the locked byte and leaves them alone on
 * every architecture, whatever its stores of a single byte do; the
 * barrier before it keeps the critical section inside the lock.  An
 * architecture that can store one byte without disturbing the bytes
 * beside it may define its own, cheaper unlock.
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
