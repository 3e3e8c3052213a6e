/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test-and-test-and-set lock on one byte, for the cost model (checker
 * -T): the shape of step 0's sparc64 lock, which takes the byte with
 * LDSTUB and, while it is held, spins reading it until it reads free.
 * Here the test-and-set is an xchg of the byte.
 */
#ifndef _VC_LOCK_TTAS_H
#define _VC_LOCK_TTAS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/processor.h>

typedef struct {
	u8 lock;
	u8 pad[3];
} arch_spinlock_t;

static __always_inline void arch_spin_lock(arch_spinlock_t *l)
{
	while (__atomic_exchange_n(&l->lock, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(l->lock))
			cpu_relax();
}

static __always_inline void arch_spin_unlock(arch_spinlock_t *l)
{
	smp_store_release(&l->lock, 0);
}

static __always_inline int arch_spin_is_locked(arch_spinlock_t *l)
{
	return READ_ONCE(l->lock) != 0;
}

static __always_inline int arch_spin_value_unlocked(arch_spinlock_t l)
{
	return !l.lock;
}

#endif /* _VC_LOCK_TTAS_H */
