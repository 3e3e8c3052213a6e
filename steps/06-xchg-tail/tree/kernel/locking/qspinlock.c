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

/*
 * (0,0,1) -> (0,1,*) ; pending
 *
 * Become the pending waiter with one test-and-set of the pending bit,
 * which cannot fail and retry the way a cmpxchg loop does when the tail
 * or the locked byte change under it.
 *
 * The locked byte is not looked at: if the owner left meanwhile, we set
 * pending on a free lock, and the wait for the owner that follows ends at
 * once.  The transition (0,0,0) -> (0,0,1) of a direct trylock is gone;
 * the fast path has just tried that, so it would rarely succeed here.
 *
 * Return: true if we are the pending waiter, false if we must queue.
 */
static __always_inline bool try_set_pending(struct qspinlock *lock, u32 val)
{
	/* A pending waiter or a queue already: queue. */
	if (val & ~_Q_LOCKED_MASK)
		return false;

	/* Somebody else won the pending bit: queue. */
	if (atomic_test_and_set_bit(_Q_PENDING_OFFSET, &lock->val))
		return false;

	/*
	 * A tail may have appeared between our look at @val and the
	 * test-and-set.  Its waiter did not see our pending bit, and may be
	 * the head of the queue about to claim the lock.  Either it claims
	 * first and we wait for it as for any owner, or its claim finds
	 * pending set and it waits for us; the head of the queue must check
	 * for that (see the claim loop).  The two of us raced, and the order
	 * between us was open anyway.
	 */
	return true;
}

/*
 * (p,*,*) -> (n,*,*) ; publish our node as the tail
 *
 * Publish our node as the tail and return the word it replaced.  Only the
 * tail may change here: the locked byte belongs to the owner and the
 * pending bit to the pending waiter, and both can change at any moment.
 * The RFC's xchg of the whole word wrote a guess for them and repaired
 * it afterwards; with either repair tried in this series, the owner's
 * release or a pending waiter's claim between the read, the xchg and the
 * repair can leave a pending bit that nobody owns, and the queue head waits
 * for it for ever.  So this is a cmpxchg loop that keeps the locked and
 * pending bits as it finds them; it starts over when they or the tail
 * change under it.  Once the tail has a halfword of its own (the next
 * step), one xchg of that halfword does the same without a loop.
 *
 * Return: the old lock word; its tail bits are the previous tail.
 */
static __always_inline u32 xchg_tail(struct qspinlock *lock, u32 tail)
{
	u32 old, new, val = atomic_read(&lock->val);

	for (;;) {
		new = (val & _Q_LOCKED_PENDING_MASK) | tail;

		old = atomic_cmpxchg(&lock->val, val, new);
		if (old == val)
			return old;

		val = old;
	}
}

/**
 * queued_spin_lock_slowpath - take a lock that was not free
 * @lock: the queued spinlock
 * @val: the lock word the fast path found
 *
 * Every change of the lock word, as (tail, pending, locked); n is this
 * CPU's tail, p the tail it found (0: no queue), * any tail, x and y
 * either value of their bit.
 *
 *   from       to         by whom, and how
 *   (0,0,0) -> (0,0,1)    the fast path, a trylock (one more just before
 *                         queueing), or a waiter that finds the lock free:
 *                         one cmpxchg takes it
 *   (*,*,1) -> (*,*,0)    the owner unlocks; nothing else changes
 *   (0,0,1) -> (0,1,1)    held, nobody waiting: a test-and-set makes us
 *                         the pending waiter.  It cannot fail; if it finds
 *                         pending already set, the word is unchanged and
 *                         we queue
 *   (*,0,x) -> (*,1,x)    the same test-and-set, late: between our look at
 *                         (0,0,1) and the bit, the owner may have gone, a
 *                         queue may have formed, and its head may have
 *                         taken the lock.  We are the pending waiter all
 *                         the same, and wait for whoever holds it
 *   (*,1,0) -> (*,0,1)    the pending waiter found the owner gone: one
 *                         cmpxchg takes the lock and clears pending
 *   (p,x,y) -> (n,x,y)    any other waiter, in xchg_tail(): a cmpxchg loop
 *                         makes its node the tail and writes pending and
 *                         the locked byte back exactly as it read them,
 *                         retrying whenever anything changed.  An xchg of
 *                         the whole word would have to guess them and
 *                         repair the guess; see xchg_tail() for how the
 *                         repairs tried here hang
 *   (n,0,0) -> (0,0,1)    the head, still the tail, found owner and
 *                         pending waiter gone: one cmpxchg takes the lock
 *                         and ends the queue
 *   (*,0,0) -> (*,0,1)    the head, with nodes behind it: it takes the
 *                         lock, then makes the next node the head
 *
 * The late pending waiter is why the head's claim can fail with pending
 * or the locked byte set: a pending bit came in after the head saw
 * (*,0,0).  The head must not claim over it; it waits for (*,0,0) again.
 *
 * Nothing else writes the word.  While pending is set nobody but the
 * pending waiter sets the locked byte: the fast path wants (0,0,0) and
 * the head of the queue (*,0,0).
 */
void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val)
{
	struct mcs_spinlock *prev, *next, *node;
	u32 new, old, tail;
	int idx;

	BUILD_BUG_ON(CONFIG_NR_CPUS >= (1U << _Q_TAIL_CPU_BITS));

	/*
	 * A queue node lives in another cache line than the lock; with one
	 * waiter there is nobody to queue behind, so let that waiter spin in
	 * the lock word instead and never touch its node.
	 *
	 * (0,0,1) -> (0,1,*) ; pending
	 */
	if (!try_set_pending(lock, val))
		goto queue;

	/*
	 * We are pending: wait for the owner to go.  Nobody else can take
	 * the lock meanwhile: the fast path and the queue head both wait for
	 * pending to clear.
	 *
	 * (*,1,1) -> (*,1,0)
	 */
	while ((val = atomic_read(&lock->val)) & _Q_LOCKED_MASK)
		cpu_relax();

	/*
	 * Take the lock and drop pending in one step; the tail may change
	 * under us, so retry until the word we saw is the word we replace.
	 *
	 * (*,1,0) -> (*,0,1)
	 */
	for (;;) {
		new = (val & ~_Q_PENDING_MASK) | _Q_LOCKED_VAL;

		old = atomic_cmpxchg(&lock->val, val, new);
		if (old == val)
			break;

		val = old;
	}
	return;

	/* From here on, the MCS queue. */
queue:
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
	 * Touching the node may have cost a cache miss; the owner may have
	 * left meanwhile, so try once more before queueing.
	 *
	 * (0,0,0) -> (0,0,1) ; trylock
	 */
	if (queued_spin_trylock(lock))
		goto release;

	/* (p,*,*) -> (n,*,*) ; publish our node as the tail */
	old = xchg_tail(lock, tail);

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
	 * We are the head of the queue: wait for the owner and the pending
	 * waiter to go.
	 *
	 * (*,x,y) -> (*,0,0)
	 */
retry_queue_wait:
	while ((val = atomic_read(&lock->val)) & _Q_LOCKED_PENDING_MASK)
		cpu_relax();

	/*
	 * Take the lock.  If we are still the tail, nobody is behind us and
	 * the queue goes away with the same store.
	 *
	 * (n,0,0) -> (0,0,1) ; lock, uncontended
	 * (*,0,0) -> (*,0,1) ; lock, contended
	 */
	for (;;) {
		new = _Q_LOCKED_VAL;
		if (val != tail)
			new |= val;

		old = atomic_cmpxchg(&lock->val, val, new);
		if (old == val)
			break;

		/*
		 * A waiter that raced with our tail in try_set_pending() may
		 * have set pending since we looked, and even taken the lock:
		 * wait again, never claim over it.
		 */
		if (unlikely(old & _Q_LOCKED_PENDING_MASK))
			goto retry_queue_wait;

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
