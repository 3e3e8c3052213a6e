// SPDX-License-Identifier: GPL-2.0
/*
 * Lock checker: the users of the step's lock, compiled like the lock
 * itself (with -fsanitize=thread, so that every load and store they make
 * to shared memory is a scheduling point of the checker).
 *
 * The lock under test sits in the low half of a 64-bit word whose other
 * half is a count, as in the kernel's struct lockref: a critical section
 * increments the count under the lock, and a lockref-style user
 * increments it with one 64-bit cmpxchg while arch_spin_value_unlocked()
 * says the lock in the word it read is free, taking the lock otherwise.
 * Either way no increment may be lost.
 */
#include <linux/smp.h>
#include <linux/percpu.h>
#ifdef VC_LOCK
/* One of the cost model's other locks: common/costmodel/locks/, or 6.1's ticket lock. */
#include VC_LOCK
#else
#include <asm/qspinlock.h>
#include "mcs_spinlock.h"
#endif
#include "vc.h"

#ifdef CONFIG_PARAVIRT
#include <linux/jump_label.h>

/*
 * The virt layout: x86's switch from the queue to its test-and-set loop
 * (virt_spin_lock()), on, as in a guest whose hypervisor has no paravirt
 * spinlocks.  (The pv layout's slowpath never looks at it.)
 */
DEFINE_STATIC_KEY_TRUE(virt_spin_lock_key);
#endif

#ifdef CONFIG_PARAVIRT_SPINLOCKS
/*
 * The pv layout: the paravirt slowpath and unlock (the shim's
 * asm/paravirt.h calls them), with this backend.
 *
 * pv_wait() halts: it stops its CPU until a kick.  The kicks a CPU has
 * had are a counter in its per-CPU data: pv_wait() reads it first, as a
 * halting CPU disables interrupts first, so a kick sent from then on ends
 * the halt and one sent before does not.  The read is an acquire: a kick
 * is an IPI, and a CPU that takes it sees what its sender stored before
 * sending it.
 *
 * A real halt also ends on any other interrupt, and the API allows such
 * a spurious wake-up at any time.  With -S N each CPU may take N of them,
 * wherever the search puts them (vc_spurious_wakeup_point()): the halt
 * then returns with no kick and nothing changed.  Once a CPU's budget is
 * spent only a kick ends its halt, not even a change of *ptr, so a lost
 * kick is a hang, which the checker reports with its trace.
 */
static DEFINE_PER_CPU(atomic_t, vc_pv_kicks);

void vc_pv_wait(u8 *ptr, u8 val)
{
	atomic_t *kicks = this_cpu_ptr(&vc_pv_kicks);
	int seen;

	vc_spin_bound(0);
	seen = atomic_read_acquire(kicks);
	if (READ_ONCE(*ptr) != val)
		return;
	while (atomic_read(kicks) == seen) {
		int spurious = vc_spurious_wakeup_point();

		vc_halt_point();
		cpu_relax();
		if (spurious)
			return;
	}
}

/* An IPI: x86 orders the sender's stores before it (a full barrier). */
void vc_pv_kick(int cpu)
{
	smp_mb();
	atomic_add(1, per_cpu_ptr(&vc_pv_kicks, cpu));
}

/* What a backend does at boot, before the lock is used. */
static void __attribute__((__constructor__)) vc_pv_init(void)
{
	__pv_init_lock_hash();
}
#endif

#ifdef _Q_LOCKED_MASK
_Static_assert(sizeof(arch_spinlock_t) == 4, "the lock is one 32-bit word");

/* The lock word's fields, for the checker's trace and its tail check. */
const struct vc_layout vc_layout = {
	.queued = 1,
	.locked_mask = _Q_LOCKED_MASK,
#ifdef _Q_PENDING_MASK
	.pending_mask = _Q_PENDING_MASK,
#endif
	.tail_idx_offset = _Q_TAIL_IDX_OFFSET,
	.tail_idx_mask = _Q_TAIL_IDX_MASK,
	.tail_cpu_offset = _Q_TAIL_CPU_OFFSET,
#ifdef CONFIG_PARAVIRT_SPINLOCKS
	/* qspinlock.c's struct qnode: room for the paravirt node */
	.node_size = sizeof(struct mcs_spinlock) + 2 * sizeof(long),
#else
	.node_size = sizeof(struct mcs_spinlock),
#endif
	.node_count_offset = __builtin_offsetof(struct mcs_spinlock, count),
};
#else
_Static_assert(sizeof(arch_spinlock_t) <= 8, "the lock fits the lockref's word");

/*
 * Not a queued spinlock: the word is shown as a number, no tail to check.
 * A free ticket lock is any word whose two halves are equal.
 */
const struct vc_layout vc_layout = {
	.node_size = 16,
#ifdef __ASM_GENERIC_SPINLOCK_TYPES_H
	.free_nonzero = 1,
#endif
};
#endif

union vc_word {
	u64 word;
	struct {
		arch_spinlock_t lock;
		int count;
	};
};

static inline arch_spinlock_t *vc_lock_of(struct vc_lockref *l)
{
	return (arch_spinlock_t *)&l->word;
}

void vc_api_lock(struct vc_lockref *l)
{
	arch_spin_lock(vc_lock_of(l));
}

void vc_api_unlock(struct vc_lockref *l)
{
	arch_spin_unlock(vc_lock_of(l));
}

int vc_api_is_locked(struct vc_lockref *l)
{
	return arch_spin_is_locked(vc_lock_of(l));
}

#ifndef VC_LOCK
/* arch_spin_value_unlocked() on a snapshot of the word, as lockref asks. */
int vc_api_value_unlocked(struct vc_lockref *l)
{
	arch_spinlock_t v;

	v.val.counter = READ_ONCE(vc_lock_of(l)->val.counter);
	return arch_spin_value_unlocked(v);
}

int vc_api_trylock(struct vc_lockref *l)
{
	return arch_spin_trylock(vc_lock_of(l));
}
#else
/*
 * The cost model's locks (ticket, ttas, mcs) are timed, not checked from
 * outside: the checker links against these, and a run that asks for
 * trylock users (-t) or observers (-o) on them fails saying so.
 */
int vc_api_value_unlocked(struct vc_lockref *l)
{
	vc_fail("observers (-o) run on the steps' locks, not on the cost model's");
	return 0;
}

int vc_api_trylock(struct vc_lockref *l)
{
	vc_fail("trylock users (-t) run on the steps' locks, not on the cost model's");
	return 0;
}
#endif

/*
 * The critical section: nobody else may be inside (the owner field), the
 * lock must say it is locked, and the count goes up by a non-atomic
 * read-modify-write that a second owner would break.
 */
void vc_api_critical_section(struct vc_lockref *l, int me)
{
	union vc_word *w = (union vc_word *)&l->word;
	int owner = l->owner;

	if (sizeof(arch_spinlock_t) != 4)
		vc_fail("a lock of %zu bytes leaves no room for the count: run it under the cost model (-T)",
			sizeof(arch_spinlock_t));

	if (owner != -1)
		vc_fail("mutual exclusion: CPU context %d entered while %d is inside",
			me, owner);
	l->owner = me;
	if (!arch_spin_is_locked(vc_lock_of(l)))
		vc_fail("spin_is_locked() is false inside the critical section");
	w->count = w->count + 1;
	owner = l->owner;
	if (owner != me)
		vc_fail("mutual exclusion: CPU context %d found owner %d inside",
			me, owner);
	l->owner = -1;
}

/*
 * lockref_get() as lib/lockref.c does it: while the lock in the word is
 * free, add one to the count with a cmpxchg of the whole word; if it is
 * held, return false and the caller takes the lock.
 */
bool vc_api_lockref_get(struct vc_lockref *l)
{
	union vc_word old, new, prev;

	old.word = READ_ONCE(l->word);
	while (arch_spin_value_unlocked(old.lock)) {
		new.word = old.word;
		new.count++;
		prev.word = cmpxchg_relaxed(&l->word, old.word, new.word);
		if (prev.word == old.word)
			return true;
		old.word = prev.word;
	}
	return false;
}

/*
 * The cost model's critical section (checker -T): one update of data in
 * a cache line of its own, a plain read-modify-write that a second owner
 * would break; the checker compares the sum with the acquisitions.
 */
void vc_api_cost_section(int *data)
{
	*data = *data + 1;
}
