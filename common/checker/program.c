// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated CPUs' program: each context takes the lock as its
 * configuration says (spin_lock(), lockref, trylock, nested levels,
 * observers) or runs a litmus test's thread.
 */
#include "checker.h"

/* ---- the simulated CPUs' program -------------------------------------- */

/*
 * -k: data in the lock's own line, its last 16 bytes (a nested level's
 * lock in a search; the cost model has one level).
 */
int *lock_line_data(void)
{
	return (int *)(arena + LOCKS_OFF + COST_LINE - 16);
}

static void locked_section(struct task *t, struct vc_lockref *l)
{
	inside[t->level] = t->id + 1;
	vc_api_critical_section(l, t->id);
	inside[t->level] = 0;
	vc_api_unlock(l);
}

/*
 * An observer (-o): another CPU asks spin_is_locked() and, on a snapshot
 * of the word, arch_spin_value_unlocked(), as assert_spin_locked(),
 * lockdep and lockref do.  Neither may say "free" while a context is
 * inside: under SC, and under TSO, where what the owner still buffers
 * (a pending waiter's locked = 1, say) is exactly what the answer must
 * survive.  Not under the weak model, where "while" has no meaning
 * without an order between the two CPUs: an observer there may read the
 * word as it was before the lock was taken, barrier or not.
 */
static void observe(struct task *t, struct vc_lockref *l)
{
	int k;

	for (k = 0; k < 2; k++) {
		int in, locked, unlocked;

		locked = vc_api_is_locked(l);
		in = inside[0];
		if (!locked && in)
			vc_fail("spin_is_locked() told CPU %d the lock is free while CPU context %d is inside",
				t->cpu, in - 1);
		unlocked = vc_api_value_unlocked(l);
		in = inside[0];
		if (unlocked && in)
			vc_fail("arch_spin_value_unlocked() told CPU %d the lock is free while CPU context %d is inside",
				t->cpu, in - 1);
	}
}

static void task_body(void)
{
	struct task *t = cur;
	struct vc_lockref *l = &locks[t->level];
	int k, n = t->level ? cfg.irq_acq : cfg.acq;

	if (cfg.litmus) {
		cfg.litmus->thread[t->cpu]();
		audit_scan(t, NULL);
		harvest(t);
		n = 0;
	}

	if (costcfg.cost_end) {
		/*
		 * The cost model: take the lock until the simulated time is
		 * up; the critical section updates its data, in a line of its
		 * own, and then holds the lock for -H cycles; -W cycles of
		 * other work follow the unlock.
		 */
		while (t->clock < costcfg.cost_end) {
			u64 asked = t->clock;
			int w;

			vc_api_lock(l);
			cost_acquired(t, asked);
			handover_stalls += t->resumed > last_release;
			t->holding = 1;
			if (!costcfg.lock_line_writes)
				vc_api_cost_section(&vc_vars()->x);
			for (w = 0; w < costcfg.lock_line_writes; w++)
				vc_api_cost_section(lock_line_data());
			t->clock += vary(t, costcfg.hold);
			vc_api_unlock(l);
			t->holding = 0;
			last_release = t->clock;
			audit_scan(t, NULL);
			harvest(t);
			t->done_acq++;
			t->clock += vary(t, costcfg.work);
		}
		n = 0;
	}

	for (k = 0; k < n; k++) {
		if (t->level) {
			struct op op = { .kind = OP_IRQ };

			sim_access(&op);
			t->active = 1;
		}
		if (!t->level && t->cpu >= cfg.cpus - cfg.observers) {
			observe(t, l);
		} else if (!t->level && t->cpu >= cfg.lockref &&
			   t->cpu < cfg.lockref + cfg.trylock && vc_api_trylock(l)) {
			/* spin_trylock() took it; otherwise spin_lock() below */
			locked_section(t, l);
		} else if (t->level || t->cpu >= cfg.lockref || !vc_api_lockref_get(l)) {
			vc_api_lock(l);
			locked_section(t, l);
		}
		audit_scan(t, NULL);
		harvest(t);
		t->active = 0;
		t->done_acq++;
	}
	commit_reads(t);
	t->state = 1;
	vc_switch(&t->sp, sched_sp);
	abort();
}

void task_init(struct task *t)
{
	u64 *sp = (u64 *)(t->stack + STACK_SIZE);
	int i;

	*--sp = 0;			/* task_body's return address: none */
	*--sp = (u64)task_body;		/* where vc_switch() returns to */
	for (i = 0; i < 6; i++)
		*--sp = 0;
	t->sp = sp;
	t->state = 0;
	t->pw_size = 0;
	t->nreads = 0;
	t->reads_lost = 0;
	t->spin_bound = 0;
	t->timed_streak = 0;
	t->round_n = 0;
	t->round_over = 0;
	t->spurious_left = cfg.spurious;
	t->spurious_point = 0;
	t->halting = 0;
	t->bounded = 0;
	t->bound_pc = NULL;
	t->bound_end = 0;
	t->owed = 0;
	t->resumed = 0;
	t->holding = 0;
	t->active = 0;
	t->done_acq = 0;
	t->rng = (cfg.seed + 1) * 0x9e3779b97f4a7c15ULL + (t->id + 1) * 0xbf58476d1ce4e5b9ULL;
	/*
	 * the cost model: each CPU arrives at a cycle of its own, from half
	 * to one and a half times a transfer and a round of work in, so
	 * that the first order of the queue comes from the seed (-s), not
	 * from the CPU numbers
	 */
	t->clock = costcfg.cost_end ? vary(t, costcfg.transfer + costcfg.work) : 0;
	t->reread = 0;
	t->nwoken = 0;
	t->pend_rf = 0;
	t->pend_n = 0;
	memset(&t->op, 0, sizeof(t->op));
}

void run(struct task *t)
{
	cur = t;
	lab_cpu = t->cpu;
	lab_this_cpu_off = lab_per_cpu_offset(t->cpu);
	if (cfg.audit > 0) {
		memset(arena, cfg.audit, audit_used);
		put_size = 0;
	}
	vc_switch(&sched_sp, t->sp);
	cur = NULL;
}
