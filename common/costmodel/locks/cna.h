/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compact NUMA-aware lock (CNA; Dice and Kogan, "Compact NUMA-aware
 * Locks", EuroSys 2019), for the cost model (checker -T -D SOCKETS).  Not
 * part of the series: the idea that followed the queued spinlock, run in
 * the same model to show what handing the lock over inside a socket buys
 * and what it costs in fairness.
 *
 * It is the MCS lock of mcs.h with a second queue.  The releasing CPU
 * looks along the queue for the first waiter of its own socket; the
 * waiters it passes over leave the main queue for a secondary one, in
 * their order, and the lock goes to the waiter it found.  When no waiter
 * of its socket is queued, or after CNA_LOCAL_LIMIT hand-overs in a row
 * inside one socket, the secondary queue goes back in front of the main
 * one and its first waiter takes the lock.  The secondary queue costs no
 * word of its own: the holder's node carries it.  Its locked field is 1
 * when the secondary queue is empty, otherwise the queue's first node,
 * whose sec_tail is the queue's last; a CPU takes the lock when its
 * locked field turns non-zero, and so inherits the queue.
 *
 * One node a CPU: no nesting.  The lock is 8 bytes, so it has no count
 * beside it, and only the cost model's critical section runs it.
 */
#ifndef _VC_LOCK_CNA_H
#define _VC_LOCK_CNA_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <asm/barrier.h>
#include <asm/processor.h>

/* The cost model's socket of the running CPU (cost-run.c; vc.h). */
int vc_numa_node(void);

/*
 * Hand-overs in a row inside one socket before the waiters of the other
 * sockets go first.  The CNA patches posted for Linux bound the same
 * thing; here a count keeps the bound inside one of the model's runs of a
 * few million cycles.
 */
#define CNA_LOCAL_LIMIT	64

struct vc_cna_node {
	struct vc_cna_node *next;
	unsigned long locked;	/* 0: waiting; 1: the lock; else the secondary queue */
	struct vc_cna_node *sec_tail;	/* as the secondary queue's first: its last */
	int socket;
	int local;		/* hand-overs in a row inside the socket, to this one */
};

typedef struct {
	struct vc_cna_node *tail;
} arch_spinlock_t;

static DEFINE_PER_CPU_ALIGNED(struct vc_cna_node, vc_cna_node);

/*
 * What the releases did, for the checker's result line (lock.NAME=; the
 * counters are outside the modelled memory, so they cost nothing).
 */
const char *const vc_lock_counter_names[] = {
	"local", "passed_over", "to_secondary", "limit", "next", NULL
};
unsigned long vc_lock_counters[5];

enum { CNA_LOCAL, CNA_PASSED_OVER, CNA_TO_SECONDARY, CNA_LIMIT, CNA_NEXT };

static __always_inline void arch_spin_lock(arch_spinlock_t *l)
{
	struct vc_cna_node *me = this_cpu_ptr(&vc_cna_node), *prev;

	me->next = NULL;
	me->locked = 0;
	me->socket = vc_numa_node();
	me->local = 0;
	prev = __atomic_exchange_n(&l->tail, me, __ATOMIC_ACQ_REL);
	if (!prev) {
		me->locked = 1;	/* the lock, and no secondary queue */
		return;
	}
	WRITE_ONCE(prev->next, me);
	/* Pairs with the release in cna_pass(). */
	while (!smp_load_acquire(&me->locked))
		cpu_relax();
}

/* Give the lock to @to, with the secondary queue @sec (1: none). */
static __always_inline void cna_pass(struct vc_cna_node *to, unsigned long sec, int local)
{
	to->local = local;
	smp_store_release(&to->locked, sec);
}

/*
 * The first waiter of @me's socket from @next on, following only links
 * already made; the waiters before it move to the end of the secondary
 * queue *@sec.  NULL, and nothing moved, if there is none.
 */
static __always_inline struct vc_cna_node *
cna_find(struct vc_cna_node *me, struct vc_cna_node *next, unsigned long *sec)
{
	struct vc_cna_node *last = next, *n = READ_ONCE(next->next), *head;

	if (READ_ONCE(next->socket) == me->socket)
		return next;
	while (n && READ_ONCE(n->socket) != me->socket) {
		last = n;
		n = READ_ONCE(n->next);
	}
	if (!n)
		return NULL;
	/* next..last leave the main queue: their links are all made */
	WRITE_ONCE(last->next, NULL);
	if (*sec == 1) {
		head = next;
		*sec = (unsigned long)next;
	} else {
		head = (struct vc_cna_node *)*sec;
		WRITE_ONCE(head->sec_tail->next, next);
	}
	head->sec_tail = last;
	vc_lock_counters[CNA_PASSED_OVER]++;
	return n;
}

static __always_inline void arch_spin_unlock(arch_spinlock_t *l)
{
	struct vc_cna_node *me = this_cpu_ptr(&vc_cna_node), *expect = me, *to, *head;
	struct vc_cna_node *next = READ_ONCE(me->next);
	unsigned long sec = me->locked;

	if (!next) {
		/* The last in the main queue: the secondary queue takes its place. */
		struct vc_cna_node *new_tail = sec == 1 ? NULL :
			((struct vc_cna_node *)sec)->sec_tail;

		if (__atomic_compare_exchange_n(&l->tail, &expect, new_tail, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
			if (sec != 1) {
				vc_lock_counters[CNA_TO_SECONDARY]++;
				cna_pass((struct vc_cna_node *)sec, 1, 0);
			}
			return;
		}
		while (!(next = READ_ONCE(me->next)))
			cpu_relax();
	}
	if (me->local < CNA_LOCAL_LIMIT) {
		to = cna_find(me, next, &sec);
		if (to) {
			vc_lock_counters[CNA_LOCAL]++;
			cna_pass(to, sec, me->local + 1);
			return;
		}
	} else if (sec != 1) {
		vc_lock_counters[CNA_LIMIT]++;
	}
	if (sec != 1) {
		/* The secondary queue goes in front of the main one. */
		head = (struct vc_cna_node *)sec;
		WRITE_ONCE(head->sec_tail->next, next);
		if (me->local < CNA_LOCAL_LIMIT)
			vc_lock_counters[CNA_TO_SECONDARY]++;
		cna_pass(head, 1, 0);
		return;
	}
	vc_lock_counters[CNA_NEXT]++;
	cna_pass(next, 1, 0);
}

static __always_inline int arch_spin_is_locked(arch_spinlock_t *l)
{
	return READ_ONCE(l->tail) != NULL;
}

static __always_inline int arch_spin_value_unlocked(arch_spinlock_t l)
{
	return !l.tail;
}

#endif /* _VC_LOCK_CNA_H */
