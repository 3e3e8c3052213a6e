// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Queued spinlock: the slowpath.
 *
 * The design of the queued spinlock is Waiman Long's and Peter Zijlstra's
 * (2014); this file is written for the qspinlock step-by-step tutorial.
 */
#include <linux/smp.h>
#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/hardirq.h>
#include <linux/export.h>
#include <asm/qspinlock.h>

/*
 * An MCS lock (Mellor-Crummey and Scott, 1991) keeps its waiters in a
 * queue of nodes, one per waiter; each waiter spins on a flag in its own
 * node, so a release touches one waiter's cache line instead of all of
 * them.  The lock itself is a pointer to the queue's tail: 8 bytes, and a
 * lock holder must keep its node until it unlocks, which the spin_lock()
 * API has no room for.
 *
 * Squeeze it into the 32 bits of a spinlock_t:
 *
 *  - The tail is (cpu + 1, index) instead of a pointer.  Spinning with
 *    interrupts or preemption off, a CPU waits for at most one lock per
 *    context it can be in (task, softirq, hardirq, NMI), so each CPU has
 *    four nodes and the index says which one.
 *
 *  - Whoever owns the lock says so in the locked byte, not in a node:
 *    the waiter at the head of the queue spins on the lock word until
 *    the owner clears that byte, then sets it and hands the head of the
 *    queue to the next node.  The owner needs no node, so unlock only
 *    clears the locked byte.
 */

#include "mcs_spinlock.h"

/*
 * Four nodes per CPU: task, softirq, hardirq and NMI context.  The count
 * of nodes in use lives in the first one.
 */
#define MAX_NODES	4

static DEFINE_PER_CPU_ALIGNED(struct mcs_spinlock, mcs_nodes[MAX_NODES]);

/*
 * The CPU is stored plus one: a tail of 0 must mean "no queue", and CPU 0
 * with index 0 would otherwise encode as 0.
 */
static inline u32 encode_tail(int cpu, int idx)
{
	u32 tail;

	tail  = (cpu + 1) << _Q_TAIL_CPU_OFFSET;
	tail |= idx << _Q_TAIL_IDX_OFFSET; /* idx < MAX_NODES */

	return tail;
}

static inline struct mcs_spinlock *decode_tail(u32 tail)
{
	int cpu = (tail >> _Q_TAIL_CPU_OFFSET) - 1;
	int idx = (tail & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET;

	return per_cpu_ptr(&mcs_nodes[idx], cpu);
}

/**
 * queued_spin_lock_slowpath - take a lock that was not free
 * @lock: the queued spinlock
 * @val: the lock word the fast path found
 *
 * Every change of the lock word, as (tail, locked); n is this CPU's tail,
 * p the tail it found (0: no queue), * any tail, x either value of the
 * locked byte.
 *
 *   from     to       by whom, and how
 *   (0,0) -> (0,1)    the fast path, a trylock, or a waiter that finds
 *                     the lock free: one cmpxchg takes it
 *   (*,1) -> (*,0)    the owner unlocks; the tail stays as it is
 *   (p,x) -> (n,x)    any other waiter: a cmpxchg makes its node the tail
 *                     and keeps the locked byte; if p is not 0, it links
 *                     its node behind p's and spins in its own node until
 *                     it is made the head of the queue
 *   (n,0) -> (0,1)    the head, still the tail, found the owner gone:
 *                     one cmpxchg takes the lock and ends the queue
 *   (*,0) -> (*,1)    the head, with nodes behind it, found the owner
 *                     gone: it takes the lock, then makes the next node
 *                     the head
 *
 * Nothing else writes the word.  Of the waiters, only the head of the
 * queue spins on it, waiting for (*,x) to become (*,0), and a fifth
 * nesting level, which has no node (see below); the others spin in their
 * own nodes.
 */
void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val)
{
	struct mcs_spinlock *prev, *next, *node;
	u32 new, old, tail;
	int idx;

	BUILD_BUG_ON(CONFIG_NR_CPUS >= (1U << _Q_TAIL_CPU_BITS));

	node = this_cpu_ptr(&mcs_nodes[0]);
	idx = node->count++;

	/*
	 * Four nodes cover task, softirq, hardirq and NMI context.  A fifth
	 * level (an NMI inside an NMI's lock, where allowed) has no node:
	 * node[4] is past the array, and index 4 would carry into the tail's
	 * CPU field.  It spins on the lock word instead, as a test-and-set
	 * lock does: unfair, but it touches no queue.
	 */
	if (unlikely(idx >= MAX_NODES)) {
		while (!queued_spin_trylock(lock))
			cpu_relax();
		goto release;
	}

	tail = encode_tail(smp_processor_id(), idx);

	/*
	 * An interrupt taken from here on must see our node as in use and
	 * pick the next one.  The count is only ever read by this CPU, but
	 * the compiler must not sink the increment below the stores that
	 * initialise the node, or an interrupt arriving between them would
	 * take the same node and overwrite it.
	 */
	barrier();

	node += idx;
	node->locked = 0;
	node->next = NULL;

	/*
	 * (0,0) -> (0,1) ; trylock
	 * (p,x) -> (n,x) ; publish our node as the tail, keep the locked byte
	 */
	for (;;) {
		new = _Q_LOCKED_VAL;
		if (val)
			new = tail | (val & _Q_LOCKED_MASK);

		old = atomic_cmpxchg(&lock->val, val, new);
		if (old == val)
			break;

		val = old;
	}

	/* We took a free lock: the node was never published. */
	if (new == _Q_LOCKED_VAL)
		goto release;

	/*
	 * There was a queue: link our node behind the old tail and spin on
	 * our own node until its owner makes us the head.
	 */
	if (old & _Q_TAIL_MASK) {
		prev = decode_tail(old);
		WRITE_ONCE(prev->next, node);

		arch_mcs_spin_lock_contended(&node->locked);
	}

	/*
	 * We are the head of the queue: wait for the owner to go.
	 *
	 * (*,x) -> (*,0)
	 */
	while ((val = atomic_read(&lock->val)) & _Q_LOCKED_MASK)
		cpu_relax();

	/*
	 * Take the lock.  If we are still the tail, nobody is behind us and
	 * the queue goes away with the same store.
	 *
	 * (n,0) -> (0,1) ; lock, uncontended
	 * (*,0) -> (*,1) ; lock, contended
	 */
	for (;;) {
		new = _Q_LOCKED_VAL;
		if (val != tail)
			new |= val;

		old = atomic_cmpxchg(&lock->val, val, new);
		if (old == val)
			break;

		val = old;
	}

	/*
	 * Someone queued behind us: wait until they have linked their node
	 * to ours, then make them the head.
	 */
	if (new != _Q_LOCKED_VAL) {
		while (!(next = READ_ONCE(node->next)))
			cpu_relax();

		arch_mcs_spin_unlock_contended(&next->locked);
	}

release:
	/* Give the node back. */
	__this_cpu_dec(mcs_nodes[0].count);
}
EXPORT_SYMBOL(queued_spin_lock_slowpath);
