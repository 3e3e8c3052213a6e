/* SPDX-License-Identifier: GPL-2.0 */
/* spinlock.h: 64-bit Sparc spinlock support.
 *
 * Copyright (C) 1997 David S. Miller (davem@caip.rutgers.edu)
 */

#ifndef __SPARC64_SPINLOCK_H
#define __SPARC64_SPINLOCK_H

#ifndef __ASSEMBLY__

#include <asm/processor.h>
#include <asm/barrier.h>

/*
 * A test-and-set lock on one byte.  LDSTUB atomically loads the byte and
 * stores 0xff into it, so the old value tells whether we took the lock.
 * Waiters spin on a plain load and retry LDSTUB only when the byte reads
 * zero, so the cache line stays shared while the lock is held.
 *
 * SPARC64 Linux runs in TSO: LDSTUB is ordered against later loads and
 * stores, and a plain store releases.  Only the compiler has to be kept
 * from moving accesses across the lock and unlock.
 */

#define arch_spin_is_locked(lp)	(READ_ONCE((lp)->lock) != 0)

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	unsigned long old;

	__asm__ __volatile__("ldstub	[%1], %0"
			     : "=r" (old)
			     : "r" (&lock->lock)
			     : "memory");

	return old == 0;
}

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	while (!arch_spin_trylock(lock)) {
		while (READ_ONCE(lock->lock))
			cpu_relax();
	}
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	/* Release: the critical section's accesses stay before this store. */
	smp_store_release(&lock->lock, 0);
}

#include <asm/qrwlock.h>

#endif /* !(__ASSEMBLY__) */

#endif /* !(__SPARC64_SPINLOCK_H) */
