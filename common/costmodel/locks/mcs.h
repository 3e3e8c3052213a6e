/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The textbook MCS lock (Mellor-Crummey and Scott, 1991), for the cost
 * model (checker -T): the lock is a pointer to the tail of a queue of
 * per-CPU nodes, and each waiter spins on its own node.  One node a CPU:
 * no nesting.  The lock is 8 bytes, so it has no count beside it, and
 * only the cost model's critical section runs it.
 */
#ifndef _VC_LOCK_MCS_H
#define _VC_LOCK_MCS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <asm/barrier.h>
#include <asm/processor.h>

struct vc_mcs_node {
	struct vc_mcs_node *next;
	int locked;
};

typedef struct {
	struct vc_mcs_node *tail;
} arch_spinlock_t;

static DEFINE_PER_CPU_ALIGNED(struct vc_mcs_node, vc_mcs_node);

static __always_inline void arch_spin_lock(arch_spinlock_t *l)
{
	struct vc_mcs_node *me = this_cpu_ptr(&vc_mcs_node), *prev;

	me->next = NULL;
	me->locked = 0;
	prev = __atomic_exchange_n(&l->tail, me, __ATOMIC_ACQ_REL);
	if (!prev)
		return;
	WRITE_ONCE(prev->next, me);
	/* Pairs with the release in arch_spin_unlock(). */
	while (!smp_load_acquire(&me->locked))
		cpu_relax();
}

static __always_inline void arch_spin_unlock(arch_spinlock_t *l)
{
	struct vc_mcs_node *me = this_cpu_ptr(&vc_mcs_node), *expect = me;
	struct vc_mcs_node *next = READ_ONCE(me->next);

	if (!next) {
		if (__atomic_compare_exchange_n(&l->tail, &expect, NULL, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
		while (!(next = READ_ONCE(me->next)))
			cpu_relax();
	}
	smp_store_release(&next->locked, 1);
}

static __always_inline int arch_spin_is_locked(arch_spinlock_t *l)
{
	return READ_ONCE(l->tail) != NULL;
}

static __always_inline int arch_spin_value_unlocked(arch_spinlock_t l)
{
	return !l.tail;
}

#endif /* _VC_LOCK_MCS_H */
