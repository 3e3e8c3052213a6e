// SPDX-License-Identifier: GPL-2.0
/*
 * The entry points for compiled code: the __tsan_*() calls gcc puts
 * before every access of the lock code and its users, each a scheduling
 * point, and the shim's hooks (cpu_relax(), the paravirt halts).
 */
#include "checker.h"

/* ---- the entry points for compiled code ------------------------------- */

void harvest(struct task *t)
{
	if (t->pw_size) {
		u64 v = get(arena, t->pw_off, t->pw_size);

		ev[nev - 1].value = v;
		model_store(t->cpu, t->pw_off, t->pw_size, v, 0);
		t->pw_size = 0;
	}
}

static void note_read(struct task *t, u32 off, int size, u64 v)
{
	int i;

	for (i = 0; i < t->nreads; i++)
		if (t->reads[i].off == off && t->reads[i].size == size) {
			t->read_val[i] = v;
			return;
		}
	if (t->nreads == MAX_READS) {
		/*
		 * Too many to wait on, which matters only if a cpu_relax()
		 * comes before the next store (a walk along a queue is not a
		 * wait): a wait that forgot a load could wait for ever.
		 */
		t->reads_lost = 1;
		return;
	}
	t->reads[t->nreads] = (struct range){ off, size };
	t->read_val[t->nreads++] = v;
}

u64 rmw_apply(int op, u64 old, u64 a, u64 b, int size, int *store)
{
	u64 mask = size == 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
	u64 n = old;

	*store = 1;
	switch (op) {
	case R_XCHG:
		n = a;
		break;
	case R_ADD:
		n = old + a;
		break;
	case R_SUB:
		n = old - a;
		break;
	case R_AND:
		n = old & a;
		break;
	case R_OR:
		n = old | a;
		break;
	case R_XOR:
		n = old ^ a;
		break;
	case R_NAND:
		n = ~(old & a);
		break;
	case R_CAS:
		if (old != (a & mask))
			*store = 0;
		n = b;
		break;
	}
	return n & mask;
}

/*
 * The audit (-A BYTE, or -A none): does every access of the compiled code
 * to shared memory go through the checker?  Before a CPU runs, every byte of the
 * arena in use is set to BYTE.  At its next call into the checker every
 * byte must still be BYTE, except the value the checker wrote for the load
 * it performed and the bytes of the store it is about to read back: any
 * other byte is a store the instrumentation missed.  A load it missed
 * reads BYTE, so it changes what happens with the poison: verify.sh runs
 * the audit without poison (-A none) and with two bytes, and compares the
 * hashes of every event of every execution (audit_hash).
 */
unsigned long audit_used;
static u32 put_off;
u8 put_size;
u64 audit_hash = 14695981039346656037ULL;

void audit_scan(struct task *t, const void *pc)
{
	char b[40];
	u32 i;

	if (cfg.audit <= 0)
		return;
	for (i = 0; i < audit_used; i++) {
		if (arena[i] == (u8)cfg.audit ||
		    (t->pw_size && i >= t->pw_off && i < t->pw_off + t->pw_size) ||
		    (put_size && i >= put_off && i < put_off + put_size))
			continue;
		vc_fail("audit: %s was written without a call into the checker (before %p)",
			loc_name(i, b, sizeof(b)), pc);
		return;
	}
}

void audit_event(const struct event *e)
{
	const u64 v[] = { e->proc, e->op.kind, e->op.off, e->op.size, e->value };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		audit_hash ^= v[i];
		audit_hash *= 1099511628211ULL;
	}
}

/*
 * The loads since the last cpu_relax() or store are a spin loop's failed
 * iteration if the next call is cpu_relax(); a store or an RMW makes them
 * count.
 */
void commit_reads(struct task *t)
{
	beh_key += t->pend_rf;
	t->pend_rf = 0;
	t->pend_n = 0;
}

/*
 * A store of a watched round (struct task's timed_streak): the first one
 * to a location notes the value it had, as its CPU sees it.
 */
static void round_note(struct task *t, u32 off, int size)
{
	int i;

	if (!t->timed_streak || t->round_over)
		return;
	for (i = 0; i < t->round_n; i++)
		if (t->round_loc[i].off == off && t->round_loc[i].size == size)
			return;
	if (t->round_n == ROUND_LOCS) {
		t->round_over = 1;
		return;
	}
	t->round_loc[i].off = off;
	t->round_loc[i].size = size;
	t->round_old[i] = model_load(t->cpu, off, size);
	t->round_n++;
}

/* A watched round that has put back every value it changed. */
static int round_changed_nothing(struct task *t)
{
	int i;

	if (!t->timed_streak || t->round_over)
		return 0;
	for (i = 0; i < t->round_n; i++)
		if (model_load(t->cpu, t->round_loc[i].off, t->round_loc[i].size) !=
		    t->round_old[i])
			return 0;
	return 1;
}

/* The task stops at @op; when it is picked, the access is performed. */
u64 sim_access(struct op *op)
{
	struct task *t = cur;
	u64 v = 0;
	int store;

	audit_scan(t, op->pc);
	harvest(t);
	t->op = *op;
	vc_switch(&t->sp, sched_sp);

	/* picked: perform it */
	switch (op->kind) {
	case OP_READ:
		if (cfg.model == WEAK) {
			v = weak_load(t, op->off, op->size, op->mo, &ev[nev - 1].stale);
		} else {
			v = model_load(t->cpu, op->off, op->size);
			t->pend_rf += rf_of(t->cpu, op->off, op->size, -1);
		}
		t->pend_n++;
		put(arena, op->off, op->size, v);
		put_off = op->off;
		put_size = op->size;
		note_read(t, op->off, op->size, v);
		break;
	case OP_WRITE:
		t->nreads = 0;
		t->reads_lost = 0;
		t->nwoken = 0;
		round_note(t, op->off, op->size);
		commit_reads(t);
		if (op->b) {	/* an atomic store: the value is known */
			model_store(t->cpu, op->off, op->size, op->a,
				    op->mo >= MO_RELEASE);
			v = op->a;
		} else {
			t->pw_off = op->off;
			t->pw_size = op->size;
		}
		break;
	case OP_RMW:
		t->nreads = 0;
		t->reads_lost = 0;
		t->nwoken = 0;
		round_note(t, op->off, op->size);
		commit_reads(t);
		if (cfg.model == WEAK) {
			v = weak_rmw(t, op);
			note_read(t, op->off, op->size, v);
			break;
		}
		v = model_load(t->cpu, op->off, op->size);
		beh_key += rf_of(t->cpu, op->off, op->size, -1);
		note_read(t, op->off, op->size, v);
		{
			u64 n = rmw_apply(op->rmw, v, op->a, op->b, op->size, &store);

			if (store)
				mem_write(op->off, op->size, n, cur_src);
		}
		break;
	case OP_FENCE:
		t->pend_n++;	/* a barrier inside a spin loop is part of it */
		break;
	default:
		commit_reads(t);
		break;
	}
	ev[nev - 1].value = v;
	return v;
}

static u64 do_access(int kind, const volatile void *p, int size, int rmw,
		     int mo, u64 a, u64 b, const void *pc)
{
	struct op op = { .kind = kind, .size = size, .rmw = rmw, .mo = mo,
			 .a = a, .b = b, .pc = pc };

	if (!cur)
		return 0;
	op.off = off_of((const void *)p);
	return sim_access(&op);
}

#define PC __builtin_return_address(0)

#define PLAIN(n)							\
void __tsan_read##n(void *p)						\
{									\
	if (in_arena(p))						\
		do_access(OP_READ, p, n, 0, MO_RELAXED, 0, 0, PC);	\
}									\
void __tsan_write##n(void *p)						\
{									\
	if (in_arena(p))						\
		do_access(OP_WRITE, p, n, 0, MO_RELAXED, 0, 0, PC);	\
}									\
void __tsan_unaligned_read##n(void *p)					\
{									\
	if (in_arena(p))						\
		do_access(OP_READ, p, n, 0, MO_RELAXED, 0, 0, PC);	\
}									\
void __tsan_unaligned_write##n(void *p)					\
{									\
	if (in_arena(p))						\
		do_access(OP_WRITE, p, n, 0, MO_RELAXED, 0, 0, PC);	\
}

PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)

void __tsan_read16(void *p)
{
	if (in_arena(p))
		vc_fail("a 16-byte load of shared memory is not modelled");
}

void __tsan_write16(void *p)
{
	if (in_arena(p))
		vc_fail("a 16-byte store to shared memory is not modelled");
}

void __tsan_read_range(void *p, unsigned long n)
{
	if (in_arena(p))
		vc_fail("a %lu-byte block read of shared memory is not modelled", n);
}

void __tsan_write_range(void *p, unsigned long n)
{
	if (in_arena(p))
		vc_fail("a %lu-byte block write of shared memory is not modelled", n);
}

void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}

void fence(int kind, const void *pc)
{
	struct op op = { .kind = OP_FENCE, .rmw = kind, .pc = pc };

	if (!cur)
		return;
	sim_access(&op);
	if (kind != F_RMB)
		sb[cur->cpu].bar++;
	if (cfg.model == WEAK) {
		struct wview *w = &wv[cur->cpu];

		if (kind == F_MB) {
			w->floor = nhist;
			if (nhist > w->obs)
				w->obs = nhist;
			w->release = 0;
		}
		if (kind != F_RMB)
			w->relobs = w->obs;
		else if (w->acq > w->floor)
			w->floor = w->acq;
	}
}

/*
 * A fence by C11 order: seq_cst is smp_mb(); acquire is smp_rmb(); release
 * is smp_wmb() (the shim's <asm/barrier.h>).
 */
void __tsan_atomic_thread_fence(int mo)
{
	fence(mo == MO_SEQ_CST || mo == MO_ACQ_REL ? F_MB :
	      mo == MO_ACQUIRE ? F_RMB : F_WMB, PC);
}

void __tsan_atomic_signal_fence(int mo) { (void)mo; }

#define ATOMICS(n, T)							\
T __tsan_atomic##n##_load(const volatile T *p, int mo)			\
{									\
	if (!in_arena((const void *)p))					\
		return *p;						\
	return do_access(OP_READ, p, n / 8, 0, mo, 0, 0, PC);		\
}									\
void __tsan_atomic##n##_store(volatile T *p, T v, int mo)		\
{									\
	if (!in_arena((void *)p)) {					\
		*p = v;							\
		return;							\
	}								\
	do_access(OP_WRITE, p, n / 8, 0, mo, (u64)v, 1, PC);		\
}									\
ATOMIC_RMW(n, T, exchange, R_XCHG)					\
ATOMIC_RMW(n, T, fetch_add, R_ADD)					\
ATOMIC_RMW(n, T, fetch_sub, R_SUB)					\
ATOMIC_RMW(n, T, fetch_and, R_AND)					\
ATOMIC_RMW(n, T, fetch_or, R_OR)					\
ATOMIC_RMW(n, T, fetch_xor, R_XOR)					\
ATOMIC_RMW(n, T, fetch_nand, R_NAND)					\
int __tsan_atomic##n##_compare_exchange_strong(volatile T *p, T *e,	\
					       T v, int mo, int fmo)	\
{									\
	T old;								\
	(void)fmo;							\
	if (!in_arena((void *)p))					\
		return __atomic_compare_exchange_n(p, e, v, 0,		\
						   __ATOMIC_SEQ_CST,	\
						   __ATOMIC_SEQ_CST);	\
	old = do_access(OP_RMW, p, n / 8, R_CAS, mo, (u64)*e, (u64)v, PC); \
	if (old == *e)							\
		return 1;						\
	*e = old;							\
	return 0;							\
}									\
int __tsan_atomic##n##_compare_exchange_weak(volatile T *p, T *e,	\
					     T v, int mo, int fmo)	\
{									\
	return __tsan_atomic##n##_compare_exchange_strong(p, e, v, mo, fmo); \
}									\
T __tsan_atomic##n##_compare_exchange_val(volatile T *p, T e, T v,	\
					  int mo, int fmo)		\
{									\
	__tsan_atomic##n##_compare_exchange_strong(p, &e, v, mo, fmo);	\
	return e;							\
}

#define ATOMIC_RMW(n, T, name, R)					\
T __tsan_atomic##n##_##name(volatile T *p, T v, int mo)		\
{									\
	if (!in_arena((void *)p))					\
		vc_fail("an atomic outside the modelled memory");	\
	return do_access(OP_RMW, p, n / 8, R, mo, (u64)v, 0, PC);	\
}

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

void vc_spin_bound(int on)
{
	if (!cur)
		return;
	cur->spin_bound = on;
	if (costcfg.cost_end) {
		cur->bounded = on;
		cur->bound_pc = NULL;
		cur->bound_end = cur->clock + costcfg.spin;
	}
}

/*
 * SPIN_THRESHOLD's rounds: one for the search, whose timed await stands
 * for the whole bounded spin (it may end or go on); under the cost model,
 * enough rounds that changes which do not end the wait (a new tail in the
 * lock word) do not end the loop early either: its time is bounded by -B
 * cycles instead (the loop's awaits end at bound_end).
 */
int vc_spin_rounds(void)
{
	return costcfg.cost_end ? 256 : 1;
}

long spurious_taken;	/* spurious wake-ups taken, all executions */

/*
 * A halt that may end with nothing changed, as a real one does on any
 * interrupt (pv_wait() of the checker's backend): while its CPU has a
 * spurious wake-up left (-S), its next cpu_relax() is a timed await, and
 * one that ends with nothing changed uses one up.  Returns whether it is.
 * Without a budget a halt ends only on a change, and a CPU that could
 * take spurious wake-ups for ever would spin in one schedule for ever.
 */
int vc_spurious_wakeup_point(void)
{
	if (!cur || cur->spurious_left <= 0)
		return 0;
	cur->spin_bound = 1;
	cur->spurious_point = 1;
	return 1;
}

/*
 * pv_wait()'s halt (the checker's backend): its next cpu_relax() stops the
 * vCPU, which under the cost model's host gives its core away (host.h).
 */
void vc_halt_point(void)
{
	if (cur)
		cur->halting = 1;
}

/* The end of a spin loop's iteration: the shim's cpu_relax() calls it. */
void lab_relax_hook(void)
{
	struct task *t = cur;
	struct op op = { .kind = OP_AWAIT, .pc = PC };
	int i;

	if (!t)
		return;
	audit_scan(t, op.pc);
	harvest(t);
	if (!t->nreads)
		vc_fail("cpu_relax() in a loop that reads no shared memory");
	if (t->reads_lost)
		vc_fail("a spin loop loads more than %d locations between two cpu_relax() (MAX_READS)",
			MAX_READS);
	op.timed = t->spin_bound && (t->spurious_point || !round_changed_nothing(t));
	if (costcfg.cost_end) {
		if (t->bounded && !t->bound_pc)
			t->bound_pc = op.pc;
		t->bounded = t->bounded && t->bound_pc == op.pc;
		op.timed = t->bounded;
	}
	op.halt = t->halting;
	t->halting = 0;
	t->spin_bound = 0;
	op.nr = t->nreads;
	for (i = 0; i < t->nreads; i++)
		op.r[i] = t->reads[i];
	/*
	 * a failed iteration: its loads and barriers do not count (those
	 * of a bounded spin do: its way on does not wait for them to change)
	 */
	if (!op.timed) {
		tcount[t->id] -= t->pend_n;
		t->pend_rf = 0;
		t->pend_n = 0;
	}
	t->op = op;
	vc_switch(&t->sp, sched_sp);
	t->nwoken = 0;
	if (cfg.model == WEAK)
		for (i = 0; i < op.nr; i++)
			if (model_load(t->cpu, op.r[i].off, op.r[i].size) != t->read_val[i]) {
				t->woken[t->nwoken] = op.r[i];
				t->woken_val[t->nwoken++] = t->read_val[i];
			}
	t->timed_streak = op.timed && !await_ready(t);
	t->round_n = 0;
	t->round_over = 0;
	if (t->spurious_point && t->timed_streak) {
		t->spurious_left--;
		spurious_taken++;
	}
	t->spurious_point = 0;
	t->nreads = 0;
	t->reads_lost = 0;
}
