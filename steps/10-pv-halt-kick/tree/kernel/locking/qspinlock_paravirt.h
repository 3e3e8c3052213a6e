/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The paravirt hooks of the queued spinlock: waiters that halt, and
 * unlocks that kick them.  Included by qspinlock.c, once, for its second
 * compilation (see the top of qspinlock.c).
 *
 * In a guest a vCPU runs only when the host schedules it.  A native
 * waiter spins for as long as it waits, and the host cannot tell that
 * spin from work: it burns the time slice that the vCPU holding the
 * lock, or the next one in the queue, needs.  Here a waiter spins for
 * SPIN_THRESHOLD rounds, then halts in pv_wait(), giving its physical CPU
 * back, and whoever makes it runnable again kicks it with pv_kick().  A
 * backend (KVM's hypercalls, Xen's event channels, x86's halt and IPI)
 * says what halting and kicking are.
 *
 * Two waiters can halt, and each needs somebody to kick it:
 *
 *  - A queued node waits for its predecessor to make it the head
 *    (pv_wait_node()).  The predecessor, once it holds the lock, sees the
 *    node halted, and does not kick it at once: the new head would wake
 *    only to wait for the lock that the predecessor now holds.  It marks
 *    the lock slow and hashes it to the node instead (pv_kick_node()), so
 *    that its own unlock kicks it.
 *
 *  - The head waits for the owner to unlock (pv_wait_head()).  Before it
 *    halts it hashes the lock to its node and marks the lock slow: the
 *    locked byte reads _Q_SLOW_VAL.
 *
 * The unlock is a cmpxchg of the locked byte from _Q_LOCKED_VAL to 0.  It
 * fails on _Q_SLOW_VAL, and the slow unlock finds the halted head in the
 * hash, clears the locked byte and kicks it.
 *
 * A kick must never be lost: a halted waiter that nobody kicks waits for
 * ever (or, with the halt backend, until an unrelated interrupt).  Each
 * place a waiter decides to halt pairs with the place its kicker decides
 * to kick, with a full barrier on each side; the comments say which.
 *
 * Nobody sets the pending bit in this slowpath, and nobody steals: the
 * fast path and the trylock take only a lock word of 0, which a lock
 * with a queue never has.  So while a queue exists only its head sets
 * the locked byte from 0, and only the owner writes it otherwise.
 */
#ifndef _GEN_PV_LOCK_SLOWPATH
#error "qspinlock_paravirt.h is part of qspinlock.c's second compilation"
#endif

#include <linux/hash.h>
#include <linux/memblock.h>
#include <linux/spinlock.h>
#include <linux/debug_locks.h>
#include "lock_events.h"

/* The locked byte of a lock whose unlock must kick a halted waiter. */
#define _Q_SLOW_VAL	(3U << _Q_LOCKED_OFFSET)

/*
 * A waiter spins SPIN_THRESHOLD rounds before it halts; the number is
 * the architecture's (x86: 1 << 15, in asm/spinlock.h).
 */

enum vcpu_state {
	vcpu_running = 0,
	vcpu_halted,	/* in pv_wait_node(), halted or about to */
	vcpu_hashed,	/* the predecessor hashed the lock for us */
};

struct pv_node {
	struct mcs_spinlock	mcs;
	int			cpu;
	u8			state;
};

/*
 * The hash from a lock to the node of its halted head, for the slow
 * unlock, which has only the lock.  Only a halted head's lock is in it,
 * each at most once, and a head is a node: there are never more entries
 * than MAX_NODES per CPU.  The table has twice as many slots, and a
 * probe walks on from the lock's slot to the first free one, so an
 * insertion always finds room.  If it ever did not, the waiter would
 * spin instead of halting, and say so once.
 */
struct pv_hash_entry {
	struct qspinlock	*lock;
	struct pv_node		*node;
};

static struct pv_hash_entry *pv_lock_hash;
static unsigned int pv_lock_hash_bits __read_mostly;

/*
 * Called by a backend before it installs the paravirt slowpath, while
 * the boot CPU is alone and memblock still allocates.
 */
void __init __pv_init_lock_hash(void)
{
	unsigned long slots = roundup_pow_of_two(2 * MAX_NODES * num_possible_cpus());

	if (pv_lock_hash)
		return;

	pv_lock_hash = alloc_large_system_hash("PV qspinlock",
					       sizeof(struct pv_hash_entry),
					       slots, 0, HASH_EARLY | HASH_ZERO,
					       &pv_lock_hash_bits, NULL,
					       slots, slots);
}

/*
 * Return: the slot's lock field, which the caller clears to take it back,
 * or NULL if the table is full, which it cannot be (see above).
 */
static struct qspinlock **pv_hash(struct qspinlock *lock, struct pv_node *node)
{
	unsigned long mask = (1UL << pv_lock_hash_bits) - 1;
	unsigned long h = hash_ptr(lock, pv_lock_hash_bits);
	unsigned long i;

	for (i = 0; i <= mask; i++) {
		struct pv_hash_entry *he = &pv_lock_hash[(h + i) & mask];

		if (!cmpxchg_relaxed(&he->lock, NULL, lock)) {
			WRITE_ONCE(he->node, node);
			lockevent_inc(pv_hash);
			return &he->lock;
		}
	}

	WARN_ONCE(1, "pvqspinlock: hash table full, waiters spin\n");
	return NULL;
}

static struct pv_node *pv_unhash(struct qspinlock *lock)
{
	unsigned long mask = (1UL << pv_lock_hash_bits) - 1;
	unsigned long h = hash_ptr(lock, pv_lock_hash_bits);
	unsigned long i;

	for (i = 0; i <= mask; i++) {
		struct pv_hash_entry *he = &pv_lock_hash[(h + i) & mask];
		struct pv_node *node;

		if (READ_ONCE(he->lock) != lock)
			continue;

		node = READ_ONCE(he->node);
		/* Read the node before the slot can be taken and rewritten. */
		smp_store_release(&he->lock, NULL);
		return node;
	}

	/*
	 * The locked byte said _Q_SLOW_VAL, so the lock is hashed: only
	 * pv_wait_head() and pv_kick_node() write that value, each after
	 * hashing the lock.  Without a node there is nobody to kick.
	 */
	WARN_ONCE(1, "pvqspinlock: slow lock %p is not in the hash\n", lock);
	return NULL;
}

static void pv_init_node(struct mcs_spinlock *node)
{
	struct pv_node *pn = (struct pv_node *)node;

	BUILD_BUG_ON(sizeof(struct pv_node) > sizeof(struct qnode));

	pn->cpu = smp_processor_id();
	pn->state = vcpu_running;
}

/*
 * Wait, queued, for the predecessor to make us the head: spin for a
 * while, then halt.  Returns once node->locked is set; the caller's
 * arch_mcs_spin_lock_contended() then reads it with acquire.
 */
static void pv_wait_node(struct mcs_spinlock *node)
{
	struct pv_node *pn = (struct pv_node *)node;
	int loop;

	for (;;) {
		for (loop = SPIN_THRESHOLD; loop; loop--) {
			if (READ_ONCE(node->locked))
				return;
			cpu_relax();
		}

		/*
		 * Say that we halt, then look at node->locked once more.
		 * pv_kick_node() does the opposite: it sets node->locked, then
		 * looks at our state.  A full barrier on each side means one of
		 * us sees the other's store: either we see node->locked and do
		 * not halt, or it sees us halted and has its unlock kick us.
		 *
		 *   pv_wait_node()                   pv_kick_node()
		 *   [S] pn->state = vcpu_halted      [S] node->locked = 1
		 *       MB                               MB
		 *   [L] node->locked               [RmW] pn->state, if halted
		 */
		smp_store_mb(pn->state, vcpu_halted);

		if (!READ_ONCE(node->locked)) {
			lockevent_inc(pv_wait_node);
			pv_wait(&pn->state, vcpu_halted);
		}

		/*
		 * Running again, unless pv_kick_node() made us vcpu_hashed:
		 * keep that, so that pv_wait_head() knows the lock is hashed
		 * for us already and does not hash it twice.
		 */
		cmpxchg(&pn->state, vcpu_halted, vcpu_running);

		/* A wake-up with node->locked still clear: wait again. */
		lockevent_cond_inc(pv_spurious_wakeup, !READ_ONCE(node->locked));
	}
}

/*
 * We hold the lock and have just set node->locked: @node is the new head.
 * If it halted, do not wake it to spin on the lock we hold: hash the lock
 * to it and mark the lock slow, and our unlock will kick it.
 */
static void pv_kick_node(struct qspinlock *lock, struct mcs_spinlock *node)
{
	struct pv_node *pn = (struct pv_node *)node;

	/*
	 * The store to node->locked must be ordered before the load of
	 * pn->state (the table in pv_wait_node()).  A failed cmpxchg is not
	 * a barrier, so the barrier comes first and the cmpxchg is relaxed.
	 */
	smp_mb__before_atomic();
	if (cmpxchg_relaxed(&pn->state, vcpu_halted, vcpu_hashed) != vcpu_halted)
		return;

	/*
	 * We own the lock, and the new head, being vcpu_hashed, will not
	 * write the locked byte until it is clear: a plain store will do.
	 * The CPU that reads the hash and the mark is this one, at unlock.
	 * Should the hash be full, kick the head now: it then spins, since
	 * pv_wait() on a locked byte that never reads _Q_SLOW_VAL returns.
	 */
	if (!pv_hash(lock, pn)) {
		pv_kick(pn->cpu);
		return;
	}
	WRITE_ONCE(lock->locked, _Q_SLOW_VAL);
}

/*
 * The head waits for the owner to go: spin for a while, then hash the
 * lock, mark it slow, and halt until the owner's unlock kicks us.
 * Returns once the locked byte is clear; the caller then claims the lock
 * as the native head does (nobody else sets the locked byte from 0 while
 * we are the head).
 */
static void pv_wait_head(struct qspinlock *lock, struct mcs_spinlock *node)
{
	struct pv_node *pn = (struct pv_node *)node;
	bool hashed = READ_ONCE(pn->state) == vcpu_hashed;
	struct qspinlock **lp;
	int loop;

	for (;;) {
		for (loop = SPIN_THRESHOLD; loop; loop--) {
			if (!(atomic_read(&lock->val) & _Q_LOCKED_PENDING_MASK))
				return;
			cpu_relax();
		}

		if (!hashed) {
			lp = pv_hash(lock, pn);
			if (!lp)
				continue;

			/*
			 * Hash, then mark: an unlock that sees _Q_SLOW_VAL must
			 * find the entry.  The cmpxchg is a full barrier; it
			 * pairs with the smp_rmb() of the slow unlock.
			 *
			 *   pv_wait_head()                  slow unlock
			 *   [S] the hash entry              [RmW] finds _Q_SLOW_VAL
			 *       MB                                RMB
			 *   [RmW] locked = _Q_SLOW_VAL      [L] the hash entry
			 */
			if (cmpxchg(&lock->locked, _Q_LOCKED_VAL, _Q_SLOW_VAL) !=
			    _Q_LOCKED_VAL) {
				/*
				 * The owner unlocked meanwhile, without looking
				 * at the hash: take our entry back and go claim.
				 */
				WRITE_ONCE(*lp, NULL);
				return;
			}
			hashed = true;
		}

		/*
		 * The unlock clears the locked byte, then kicks: if we see it
		 * clear here (pv_wait() looks with interrupts off) we do not
		 * halt, and if we halt, the kick is on its way.
		 */
		lockevent_inc(pv_wait_head);
		pv_wait(&lock->locked, _Q_SLOW_VAL);
	}
}

/*
 * The unlock found _Q_SLOW_VAL: a halted head is hashed to this lock.
 * Unhash it, release the lock, kick it.
 */
static void __pv_queued_spin_unlock_slowpath(struct qspinlock *lock, u8 locked)
{
	struct pv_node *node;

	if (unlikely(locked != _Q_SLOW_VAL)) {
		WARN(!debug_locks_silent,
		     "pvqspinlock: lock %p has corrupted value 0x%x!\n",
		     lock, atomic_read(&lock->val));
		return;
	}

	/*
	 * The failed cmpxchg that found _Q_SLOW_VAL orders nothing: read
	 * the hash after it (pairs with the barrier in pv_wait_head()).
	 */
	smp_rmb();
	node = pv_unhash(lock);
	if (!node) {
		/* Release the lock all the same; there is nobody to kick. */
		smp_store_release(&lock->locked, 0);
		return;
	}

	/*
	 * Release first, then kick: the head either sees the byte clear and
	 * does not halt, or halts and is woken by the kick.  The node is
	 * per-CPU and its cpu field never changes, so reading it after the
	 * release is safe even if the head has moved on.
	 */
	smp_store_release(&lock->locked, 0);

	lockevent_inc(pv_kick_unlock);
	pv_kick(node->cpu);
}

__visible void __lockfunc __pv_queued_spin_unlock(struct qspinlock *lock)
{
	u8 locked = cmpxchg_release(&lock->locked, _Q_LOCKED_VAL, 0);

	if (likely(locked == _Q_LOCKED_VAL))
		return;

	__pv_queued_spin_unlock_slowpath(lock, locked);
}
