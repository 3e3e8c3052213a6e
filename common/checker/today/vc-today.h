/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker, "today" only: what 6.1's own kernel/locking/qspinlock.c
 * takes from kernel headers that the lab's shim does not provide.  It is
 * force-included (-include) before the file; the step trees need none of
 * it.
 */
#ifndef _VC_TODAY_H
#define _VC_TODAY_H

#define __LITTLE_ENDIAN 1234	/* <asm/byteorder.h> on x86 */

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/atomic.h>

#define __pure		__attribute__((__pure__))
#define __visible
#define __lockfunc

/* The orders 6.1 uses on top of the lab's atomics. */
static __always_inline bool atomic_try_cmpxchg_acquire(atomic_t *v, int *old,
							int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
}

static __always_inline bool atomic_try_cmpxchg_relaxed(atomic_t *v, int *old,
							int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static __always_inline int atomic_fetch_or_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_ACQUIRE);
}

#ifdef CONFIG_PARAVIRT_SPINLOCKS
/* SPIN_THRESHOLD (x86's asm/spinlock.h), a bounded spin in the checker */
#include <linux/spinlock.h>
/* What 6.1's qspinlock_paravirt.h sizes its hash table with (x86_64). */
#define SMP_CACHE_BYTES	64
#define PAGE_SIZE	4096UL
#define ALIGN(x, a)	(((x) + (a) - 1) / (a) * (a))
#endif

#endif /* _VC_TODAY_H */
