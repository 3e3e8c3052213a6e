// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer: the simulated CPUs and their context switch, one
 * execution (reset, step, execute), and which steps are dependent;
 * exhaustive DPOR with sleep sets, or PCT, over the executions.
 */
#include "checker.h"

/* ---- configuration ---------------------------------------------------- */

const char *const model_name[] = { "sc", "tso", "weak" };
_Static_assert(ARRAY_SIZE(model_name) == VC_MODELS, "a model without its litmus answers");

struct config cfg = {
	.cpus = 2, .acq = 1, .levels = 1, .irq_acq = 1,
	.max_execs = 2000000, .min_budget = 20000, .minimise = 1,
	.bound = 1000, .reorder_bound = 1000, .name = "lock",
};

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

long num(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: %s must be %ld..%ld, not '%s'\n", program, what, lo, hi, s);
		exit(2);
	}
	return v;
}

/*
 * The machine both programs run: every CPU's contexts and their stacks,
 * the per-CPU sections in the arena, a store buffer a CPU where the model
 * has them.  After the command line, before the first execution.
 */
int machine_setup(void)
{
	int i;

	pcpu_size = (__stop_lab_percpu - __start_lab_percpu + 63) & ~63UL;
	if (PCPU_OFF + cfg.cpus * pcpu_size > ARENA_SIZE - pv_hash_bytes) {
		fprintf(stderr, "%s: %d CPUs' per-CPU data (%lu bytes each) do not fit the modelled memory\n",
			program, cfg.cpus, pcpu_size);
		return 2;
	}
	audit_used = PCPU_OFF + cfg.cpus * pcpu_size;
	ntasks = cfg.cpus * cfg.levels;
	nprocs = ntasks + (cfg.model == SC ? 0 : cfg.cpus);
	for (i = 0; i < ntasks; i++) {
		tasks[i].id = i;
		tasks[i].cpu = i / cfg.levels;
		tasks[i].level = i % cfg.levels;
		tasks[i].stack = aligned_alloc(64, STACK_SIZE);
	}
	return 0;
}

/* ---- simulated CPUs -------------------------------------------------- */

struct task tasks[MAX_TASKS];
int ntasks, nprocs;
struct task *cur;
void *sched_sp;

__asm__(".text\n"
	".globl vc_switch\n"
	"vc_switch:\n"
	"	pushq %rbp\n	pushq %rbx\n	pushq %r12\n"
	"	pushq %r13\n	pushq %r14\n	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	popq %r15\n	popq %r14\n	popq %r13\n"
	"	popq %r12\n	popq %rbx\n	popq %rbp\n"
	"	ret\n");

/* ---- failure and the trace -------------------------------------------- */

static int failed;
char fail_msg[512];

struct event ev[MAX_EVENTS];
int nev;
int choice[MAX_EVENTS];	/* the schedule of the current execution */
int choice_alt[MAX_EVENTS];

/*
 * Under the weak model an event may have several outcomes: a load may read
 * any of the values it is allowed to see, and a store buffer may let any of
 * the stores go that no barrier holds back.  The explorer says which one
 * the running event takes (cur_alt; -1: a random one, for PCT); the event
 * says how many it had.
 */
static int cur_alt, ev_nalt, ev_alt;
static int reorders;	/* outcomes other than the first, this execution */
const int *replay_sched, *replay_alt;
int replay_len;
int litmus_hit;	/* the execution ended with the exists clause true */

/*
 * Outcome 0 is the one TSO would give (the newest value, the oldest
 * store); every other one is a reordering, and -w bounds how many an
 * execution may have, as -b bounds its preemptions.
 */
int pick_alt(int n)
{
	if (reorders >= cfg.reorder_bound && !replay_sched)
		n = 1;
	ev_nalt = n;
	ev_alt = 0;
	if (n > 1)
		ev_alt = cur_alt < 0 ? (int)(rng() % n) : cur_alt;
	if (ev_alt >= n) {
		fprintf(stderr, "replay: event %d has %d outcomes, not %d: the schedule is not from this program and configuration\n",
			nev, n, ev_alt + 1);
		exit(2);
	}
	if (ev_alt)
		reorders++;
	return ev_alt;
}

static void stop_execution(void)
{
	vc_switch(&cur->sp, sched_sp);
	/* never resumed */
	abort();
}

void vc_fail(const char *fmt, ...)
{
	va_list ap;

	if (!failed) {
		va_start(ap, fmt);
		vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
		va_end(ap);
		failed = 1;
	}
	if (cur)
		stop_execution();
}

/* ---- processes: tasks, then one store buffer per CPU ------------------ */

static inline int cpu_of(int p)
{
	return p < ntasks ? tasks[p].cpu : p - ntasks;
}

/*
 * The entries of @cpu's buffer that may reach memory now, oldest first:
 * the oldest one under TSO; under the weak model each is one outcome of
 * the buffer's next step (at most MAX_READS of them).
 */
static int flush_list(int cpu, int *idx)
{
	int i, n = 0;

	for (i = 0; i < sb[cpu].n; i++) {
		if (!flushable(cpu, i))
			continue;
		if (n == MAX_READS) {
			vc_fail("CPU %d's store buffer has more than %d stores that may leave next (MAX_READS)",
				cpu, MAX_READS);
			return n;
		}
		idx[n++] = i;
	}
	return n;
}

/* Does @cpu's buffer hold a store from before its last write barrier? */
static int older_bar(int cpu)
{
	return sb[cpu].n && sb[cpu].e[0].bar != sb[cpu].bar;
}

/* Is the running context of @t's CPU @t itself? */
static int on_top(struct task *t)
{
	int l;

	for (l = t->level + 1; l < cfg.levels; l++)
		if (tasks[t->cpu * cfg.levels + l].active)
			return 0;
	return 1;
}

int await_ready(struct task *t)
{
	int i;

	for (i = 0; i < t->op.nr; i++)
		if (model_load(t->cpu, t->op.r[i].off, t->op.r[i].size) !=
		    t->read_val[i])
			return 1;
	return 0;
}

int enabled(int p)
{
	struct task *t;

	if (is_flusher(p))
		return sb[p - ntasks].n > 0;
	t = &tasks[p];
	if (t->state || !on_top(t))
		return 0;
	switch (t->op.kind) {
	case OP_AWAIT:
		return t->op.timed || await_ready(t);
	case OP_RMW:
		if (cfg.model == TSO || t->op.mo == MO_SEQ_CST || t->op.mo >= MO_RELEASE)
			return sb[t->cpu].n == 0;
		return !sb_overlap(t->cpu, t->op.off, t->op.size) && !older_bar(t->cpu);
	case OP_FENCE:
		return t->op.rmw != F_MB || sb[t->cpu].n == 0;
	case OP_WRITE:
		return sb[t->cpu].n < SBUF;	/* a full buffer stalls stores */
	default:
		return 1;
	}
}

static void next_op(int p, struct op *o)
{
	if (is_flusher(p)) {
		int c = p - ntasks, idx[MAX_READS], n = flush_list(c, idx), i;

		memset(o, 0, sizeof(*o));
		o->kind = OP_FLUSH;
		if (n) {
			o->off = sb[c].e[idx[0]].off;
			o->size = sb[c].e[idx[0]].size;
			o->a = idx[0];
		}
		if (n > 1) {	/* any of them: all their ranges */
			o->nr = n;
			for (i = 0; i < n; i++)
				o->r[i] = (struct range){ sb[c].e[idx[i]].off,
							  sb[c].e[idx[i]].size };
		}
		return;
	}
	*o = tasks[p].op;
}

static int finished(int p)
{
	return is_flusher(p) ? sb[p - ntasks].n == 0 : tasks[p].state;
}

static int writes(const struct op *o)
{
	return o->kind == OP_WRITE || o->kind == OP_RMW || o->kind == OP_FLUSH;
}

static int nranges(const struct op *o, struct range *r)
{
	switch (o->kind) {
	case OP_FLUSH:
		if (o->nr > 1) {
			memcpy(r, o->r, o->nr * sizeof(*r));
			return o->nr;
		}
		/* fall through */
	case OP_READ: case OP_WRITE: case OP_RMW:
		r[0] = (struct range){ o->off, o->size };
		return 1;
	case OP_AWAIT:
		memcpy(r, o->r, o->nr * sizeof(*r));
		return o->nr;
	default:
		return 0;
	}
}

/* Does @o read the weak model's clock (the length of the history)? */
static int reads_time(const struct op *o)
{
	return (o->kind == OP_FENCE && o->rmw == F_MB) ||
	       (o->kind == OP_RMW && (o->mo == MO_SEQ_CST || o->mo == MO_ACQ_REL));
}

static int appends(const struct op *o)
{
	return o->kind == OP_FLUSH || o->kind == OP_RMW || o->kind == OP_WRITE;
}

/* May the order of these two matter?  (Over-approximated: sound.) */
static int dependent(int pa, const struct op *a, int pb, const struct op *b)
{
	struct range ra[MAX_READS], rb[MAX_READS];
	int na, nb, i, j;

	if (pa == pb)
		return 1;
	if (cpu_of(pa) == cpu_of(pb)) {
		const struct op *o = is_flusher(pa) ? b : a;

		if (!is_flusher(pa) && !is_flusher(pb))
			return 1;	/* contexts of one CPU */
		/*
		 * A locked RMW and smp_mb() wait for the buffer to drain.  A
		 * store only appends to the buffer: under TSO it enables the
		 * buffer's process when it was empty, but never while both are
		 * enabled; under the weak model it may add an outcome to the
		 * buffer's next step, and a relaxed RMW waits for older
		 * barriers' stores.
		 */
		if (o->kind == OP_RMW || (o->kind == OP_FENCE && o->rmw == F_MB) ||
		    (cfg.model == WEAK && (o->kind == OP_WRITE ||
					   (o->kind == OP_READ && o->mo == MO_ACQUIRE))))
			return 1;
	}
	/*
	 * Under the weak model a full barrier makes its CPU see every store
	 * in memory so far: its order against any store reaching memory
	 * matters, whatever the location.  And two stores reaching memory
	 * never commute there, whatever their locations: the history is one
	 * order of all stores, and a store's cut, a floor and what a CPU has
	 * observed are positions in it, so swapping two stores to different
	 * locations changes what a barrier later orders (litmus test
	 * S+xchgwmb+porelease+3reads: found only with every pair dependent).
	 */
	if (cfg.model == WEAK &&
	    ((reads_time(a) && appends(b)) || (reads_time(b) && appends(a)) ||
	     (appends(a) && appends(b))))
		return 1;
	if (!writes(a) && !writes(b))
		return 0;
	na = nranges(a, ra);
	nb = nranges(b, rb);
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (ra[i].off < rb[j].off + rb[j].size &&
			    rb[j].off < ra[i].off + ra[i].size)
				return 1;
	return 0;
}

/* ---- one execution ---------------------------------------------------- */

struct dnode *stk;
static u32 pclock[MAX_PROCS][DPOR_PROCS];
static int pseq[MAX_PROCS];
int dpor;	/* exhaustive mode: keep clocks and backtrack sets */

static void reset(void)
{
	int i;

	memset(arena, 0, sizeof(arena));
	memset(mem, 0, sizeof(mem));
	for (i = 0; i < MAX_LEVELS; i++) {
		locks[i].owner = -1;
		put(mem, off_of(&locks[i].owner), 4, (u32)-1);
	}
	memset(sb, 0, sizeof(sb));
	memset(wv, 0, cfg.cpus * sizeof(wv[0]));
	memset(msrc, 0, audit_used * sizeof(msrc[0]));
	memset(tcount, 0, sizeof(tcount));
	memset(inside, 0, sizeof(inside));
	beh_key = 0;
	cur_src = 0;
	nhist = 0;
	for (i = 0; i < ntasks; i++)
		task_init(&tasks[i]);
	memset(pclock, 0, sizeof(pclock));
	memset(pseq, 0, sizeof(pseq));
	nev = 0;
	failed = 0;
	fail_msg[0] = 0;
	litmus_hit = 0;
	if (cfg.litmus) {
		vc_litmus_reset();
		if (cfg.litmus->init)
			cfg.litmus->init();
	}
	/* every task runs up to its first shared access */
	for (i = 0; i < ntasks; i++)
		run(&tasks[i]);
}

static void snapshot_words(struct event *e)
{
	int l;

	for (l = 0; l < cfg.levels; l++)
		e->word[l] = get(mem, off_of(&locks[l].word), 4);
}

static void check_tails(void)
{
	const struct vc_layout *q = &vc_layout;
	int l;

	if (!q->queued)
		return;
	for (l = 0; l < cfg.levels; l++) {
		u32 w = get(mem, off_of(&locks[l].word), 4);
		u32 cpu, idx, count;

		if (!(w >> q->tail_idx_offset))
			continue;
		cpu = (w >> q->tail_cpu_offset) - 1;
		idx = (w & q->tail_idx_mask) >> q->tail_idx_offset;
		if (cpu >= (u32)cfg.cpus) {
			vc_fail("lock %d's tail names CPU %u, which does not exist", l, cpu);
			return;
		}
		count = model_load(cpu, PCPU_OFF + cpu * pcpu_size +
				   q->node_count_offset, 4);
		if (idx >= count) {
			vc_fail("lock %d's tail names node %u of CPU %u, which is not in use (count %u)",
				l, idx, cpu, count);
			return;
		}
	}
}

/*
 * A failed iteration of a spin loop (one load, then cpu_relax()) changes
 * nothing under SC and TSO: a load there changes no state but the CPU's
 * own, which the wait then throws away.  The event is kept in the trace
 * but hidden from the race analysis, and only the load after the wake-up
 * counts (common/checker/README.md, "Spin loops are awaits").  Not under
 * the weak model: there a load moves its CPU's view (what it observed,
 * its coherence per location), which a later smp_rmb() or acquire uses
 * (litmus test MP+spin-handover+rmb: missed while they were hidden).
 */
static int failed_spin(int p, const struct event *e)
{
	const struct task *t = &tasks[p];

	return cfg.model != WEAK && !is_flusher(p) && e->op.kind == OP_READ && !t->state &&
	       t->op.kind == OP_AWAIT && !t->op.timed && t->op.nr == 1 &&
	       t->op.r[0].off == e->op.off && t->op.r[0].size == e->op.size;
}

/* ---- the cost model's host (host.h) ------------------------------------ */

/*
 * Explore @p at @pre; if it cannot run there, or a sleep set says its
 * runs from there are covered elsewhere (they are not, for a race that
 * needs other CPUs' events first: IRIW lost a behaviour), every process
 * enabled there.  An await only wakes: it is reordered only where it was
 * enabled.
 */
static void add_backtrack(struct dnode *pre, int p, const struct event *e)
{
	if ((pre->enabled & ~pre->sleep) & (1ULL << p))
		pre->backtrack |= 1ULL << p;
	else if (e->op.kind != OP_AWAIT)
		pre->backtrack |= pre->enabled;
}

/* Run proc @p for one event; in DPOR mode, find the races it is in. */
static void step(int p, int analyse)
{
	struct event *e = &ev[nev];
	u32 before[DPOR_PROCS], c[DPOR_PROCS];
	int i, j;

	e->proc = p;
	e->hidden = 0;
	e->stale = 0;
	e->buffered = 0;
	next_op(p, &e->op);
	e->value = 0;
	ev_nalt = 1;
	ev_alt = 0;
	if (is_flusher(p)) {	/* which store leaves: the event's outcome */
		int c = p - ntasks, idx[MAX_READS], a = pick_alt(flush_list(c, idx));

		e->op.off = sb[c].e[idx[a]].off;
		e->op.size = sb[c].e[idx[a]].size;
		e->op.a = idx[a];
		e->op.nr = 0;
	}
	if (dpor) {
		memcpy(before, pclock[p], sizeof(before));
		if (is_flusher(p)) {
			int issue = sb[p - ntasks].e[e->op.a].issue_ev;

			for (i = 0; i < DPOR_PROCS; i++)
				if (ev[issue].clock[i] > before[i])
					before[i] = ev[issue].clock[i];
		}
		memcpy(c, before, sizeof(c));
		for (i = nev - 1; i >= 0; i--) {
			struct event *o = &ev[i];

			if (o->hidden || o->proc == p ||
			    !dependent(o->proc, &o->op, p, &e->op))
				continue;
			for (j = 0; j < DPOR_PROCS; j++)
				if (o->clock[j] > c[j])
					c[j] = o->clock[j];
		}
		c[p] = pseq[p] + 1;
		memcpy(e->clock, c, sizeof(c));
		e->seq = c[p];
	}
	nev++;
	if (costcfg.cost_end)
		cost_charge(p, &e->op);
	if (is_flusher(p)) {
		e->value = sb[p - ntasks].e[e->op.a].val;
		flush_one(p - ntasks, e->op.a);
	} else {
		if (e->op.kind != OP_AWAIT)
			tcount[p]++;
		cur_src = (u32)(p + 1) << 16 | tcount[p];
		run(&tasks[p]);
	}
	if (costcfg.cost_end && e->op.kind == OP_RMW && e->op.rmw == R_CAS &&
	    e->value != (e->op.a & (~0ULL >> (64 - 8 * e->op.size))))
		cost_stats.cas_failed++;
	e->alt = ev_alt;
	e->nalt = ev_nalt;
	if (cfg.audit)
		audit_event(e);
	snapshot_words(e);
	if (!failed)
		check_tails();
	if (!dpor)
		return;
	if (failed_spin(p, e)) {
		e->hidden = 1;
		return;
	}
	pseq[p]++;
	memcpy(pclock[p], c, sizeof(c));
	if (!analyse)
		return;
	/*
	 * Every earlier event that conflicts with this one and is not known
	 * to happen before it could have come after it: explore that order
	 * from the state before it (Flanagan and Godefroid).
	 */
	for (i = nev - 2; i >= 0; i--) {
		struct event *o = &ev[i];
		struct dnode *pre = &stk[i];

		if (o->hidden || o->proc == p || before[o->proc] >= (u32)o->seq ||
		    !dependent(o->proc, &o->op, p, &e->op))
			continue;
		add_backtrack(pre, p, e);
		/*
		 * Under a preemption bound, reversing the race at i may cost a
		 * preemption the bound does not have, where switching at the
		 * start of the block of events i belongs to costs none: try
		 * there too (Coons, Musuvathi and McKinley, OOPSLA 2013).
		 */
		if (cfg.bound < 1000) {
			int j = i;

			while (j > 0 && ev[j - 1].proc == o->proc)
				j--;
			if (j != i)
				add_backtrack(&stk[j], p, e);
		}
	}
}

int preemptions;

u64 rng_state;

u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* PCT: a priority per process, lowered at depth-1 random change points. */
static int pct_prio[MAX_PROCS];
static int pct_change[16];

static void pct_init(void)
{
	int i, j;

	for (i = 0; i < nprocs; i++)
		pct_prio[i] = cfg.pct + i;
	for (i = nprocs - 1; i > 0; i--) {
		int t;

		j = rng() % (i + 1);
		t = pct_prio[i];
		pct_prio[i] = pct_prio[j];
		pct_prio[j] = t;
	}
	for (i = 0; i < cfg.pct - 1; i++)
		pct_change[i] = rng() % (30 * nprocs);
}

enum result execute(int prefix)
{
	int d, p, last = -1, i;

	reset();
	preemptions = 0;
	reorders = 0;
	if (cfg.pct)
		pct_init();
	for (d = 0;; d++) {
		u64 en = 0;
		int any = 0;

		if (failed)
			return X_FAIL;
		for (i = 0; i < nprocs; i++) {
			if (!finished(i))
				any = 1;
			if (enabled(i)) {
				if (dpor)
					en |= 1ULL << i;
				else
					en = 1;
			}
		}
		if (!any)
			break;
		if (!en) {
			vc_fail("hang: every CPU waits for a store that nobody will make");
			return X_FAIL;
		}
		if (nev >= MAX_EVENTS - 1) {
			vc_fail("no end after %d events: a livelock, or a spin loop without cpu_relax()",
				nev);
			return X_FAIL;
		}
		if (costcfg.cost_end) {
			nev = 0;	/* no trace: the events are not kept */
			p = cost_pick();
			if (p < 0) {
				vc_fail("the cost model's host runs no vCPU that can go on");
				return X_FAIL;
			}
			cur_alt = -1;
			step(p, 0);
			if (host_on())
				cost_host_after(p);
			last = p;
			continue;
		}
		if (replay_sched) {
			if (d >= replay_len) {
				fprintf(stderr, "replay: the schedule ends at event %d, but the execution goes on\n", d);
				exit(2);
			}
			p = replay_sched[d];
			cur_alt = replay_alt[d];
			if (p >= nprocs || !enabled(p)) {
				fprintf(stderr, "replay: process %d is not enabled at event %d: the schedule is not from this program and configuration\n", p, d);
				exit(2);
			}
		} else if (dpor && d < prefix) {
			p = stk[d].chosen;
			cur_alt = stk[d].alt;
		} else if (dpor) {
			struct dnode *n = &stk[d];
			u64 avail;

			n->enabled = en;
			n->done = 0;
			n->sleep = 0;
			for (i = 0; i < nprocs; i++)
				next_op(i, &n->next[i]);
			if (d > 0 && !cfg.reference) {
				struct dnode *pa = &stk[d - 1];
				u64 s = (pa->sleep | pa->done) & ~(1ULL << pa->chosen);

				for (i = 0; i < nprocs; i++)
					if ((s & (1ULL << i)) &&
					    (ev[d - 1].hidden ||
					     !dependent(i, &pa->next[i], pa->chosen,
							&ev[d - 1].op)))
						n->sleep |= 1ULL << i;
			}
			n->pre = preemptions;
			n->last = last >= 0 && (en & (1ULL << last)) ? last : -1;
			avail = en & ~n->sleep;
			if (n->last >= 0 && preemptions >= cfg.bound)
				avail &= 1ULL << n->last;
			if (!avail)
				return X_SLEEP;
			if (last >= 0 && (avail & (1ULL << last)))
				p = last;
			else
				p = __builtin_ctzll(avail);
			n->chosen = p;
			/* the reference search: every enabled choice, no DPOR */
			n->backtrack = cfg.reference ? en : 1ULL << p;
			n->alt = 0;
			cur_alt = 0;
		} else {
			/* PCT */
			int best = -1;

			cur_alt = -1;
			for (i = 0; i < cfg.pct - 1; i++)
				if (pct_change[i] == d && last >= 0)
					pct_prio[last] = i;
			for (i = 0; i < nprocs; i++)
				if (enabled(i) && (best < 0 || pct_prio[i] > pct_prio[best]))
					best = i;
			p = best;
		}
		if (last >= 0 && p != last && enabled(last))
			preemptions++;
		choice[d] = p;
		step(p, !cfg.reference && d >= prefix - 1);
		choice_alt[d] = ev[d].alt;
		if (dpor)
			stk[d].nalt = ev[d].nalt;
		last = p;
	}
	if (failed)
		return X_FAIL;
	if (cfg.litmus) {
		/* the locks free; the exists clause reads the final memory */
		for (i = 0; i < 2; i++)
			if (get(mem, off_of(&locks[i].word), 4))
				vc_fail("lock %d is not free at the end", i);
		if (failed)
			return X_FAIL;
		memcpy(arena + VARS_OFF, mem + VARS_OFF, VC_VARS_BYTES);
		if (cfg.litmus->exists()) {
			litmus_hit = 1;
			vc_fail("the exists clause holds");
			return X_FAIL;
		}
		return X_PASS;
	}
	if (costcfg.cost_end) {
		/* the end: the lock free, no update of the data lost */
		int *data = costcfg.lock_line_writes ? lock_line_data() : &vc_vars()->x;
		u32 n = get(mem, off_of(data), 4), want = 0;

		for (i = 0; i < ntasks; i++)
			want += tasks[i].done_acq;
		want *= costcfg.lock_line_writes ? costcfg.lock_line_writes : 1;
		if (!vc_layout.free_nonzero && get(mem, off_of(&locks[0].word), 4))
			vc_fail("the lock is not free at the end");
		else if (n != want)
			vc_fail("the critical section's count is %u at the end, not %u", n, want);
		return failed ? X_FAIL : X_PASS;
	}
	/* the end: every acquisition done, the locks free, no count lost */
	for (i = 0; i < cfg.levels; i++) {
		u32 w = get(mem, off_of(&locks[i].word), 4);
		u32 n = get(mem, off_of(&locks[i].word) + 4, 4);
		u32 want = i ? cfg.cpus * cfg.irq_acq : (cfg.cpus - cfg.observers) * cfg.acq;

		if (w)
			vc_fail("lock %d is not free at the end: word %#x", i, w);
		else if (n != want)
			vc_fail("lock %d's count is %u at the end, not %u: %u update%s lost",
				i, n, want, want - n, want - n == 1 ? "" : "s");
		if (failed)
			return X_FAIL;
	}
	/*
	 * The paravirt lock hash is empty again: a halted head's entry is
	 * taken back by the slow unlock that kicks it, or by the head itself
	 * when the owner went first, so an entry left over is a lock hashed
	 * twice (upstream's "double hash race"), which a later slow unlock
	 * may take for the live one.  An entry of the step's and of 6.1's
	 * table is { lock, node }, 16 bytes; only the lock says it is taken.
	 */
	for (i = 0; i + 16 <= (int)pv_hash_bytes; i += 16)
		if (get(mem, ARENA_SIZE - pv_hash_bytes + i, 8))
			vc_fail("the paravirt lock hash's slot %d still holds a lock at the end: a lock hashed and never unhashed",
				i / 16);
	return failed ? X_FAIL : X_PASS;
}

/*
 * A complete execution: its behaviour (reads-from, coherence and the
 * final state) and its final state, each into its set.  The final state is
 * the modelled memory in use and a litmus test's registers.
 */
void count_behaviour(void)
{
	u64 st = 14695981039346656037ULL;
	unsigned long i;

	for (i = 0; i < audit_used; i++)
		st = (st ^ mem[i]) * 1099511628211ULL;
	if (cfg.litmus && cfg.litmus->regs)
		for (i = 0; i < cfg.litmus->regs_size; i++)
			st = (st ^ ((const u8 *)cfg.litmus->regs)[i]) * 1099511628211ULL;
	keyset_add(&states, st);
	keyset_add(&classes, beh_key + mix(st));
}


void record(struct best *b)
{
	if (b->set && (preemptions > b->pre || (preemptions == b->pre && nev >= b->n)))
		return;
	b->set = 1;
	b->n = nev;
	b->pre = preemptions;
	b->hit = litmus_hit;
	memcpy(b->sched, choice, nev * sizeof(int));
	memcpy(b->alt, choice_alt, nev * sizeof(int));
	snprintf(b->msg, sizeof(b->msg), "%s", fail_msg);
}

/*
 * The search: DPOR's executions, each replaying a prefix of the last and
 * then taking the deepest choice with an alternative left (the next
 * outcome of a weak event, or a process of its backtrack set, not asleep,
 * within the preemption bound), until none is left or the budget (-x) is
 * spent; or PCT's random executions.  A failure stops it, unless -E counts
 * behaviours or -M minimises (the best schedule is kept: fewest
 * preemptions, then fewest events).
 */
void explore(struct search *s)
{
	double t0 = now();
	long since = 0;

	if (dpor) {
		int prefix = 0;

		for (;;) {
			enum result r = execute(prefix);
			int d;

			s->execs++;
			if (r == X_SLEEP)
				s->sleeps++;
			else if (r == X_PASS || litmus_hit)
				count_behaviour();
			if (r == X_FAIL) {
				if (!s->fails++)
					s->first_fail = s->execs;
				record(&s->best);
			}
			if (s->best.set && !cfg.enumerate &&
			    (!cfg.minimise || ++since > cfg.min_budget))
				break;
			if (!cfg.quiet && s->execs % 100000 == 0)
				fprintf(stderr, "verify %s %s: %ld executions, %.0f s\n",
					cfg.name, model_name[cfg.model], s->execs, now() - t0);
			for (d = nev - 1; d >= 0; d--) {
				struct dnode *n = &stk[d];
				u64 cand;

				if (n->alt + 1 < n->nalt) {	/* its next outcome */
					n->alt++;
					break;
				}
				n->done |= 1ULL << n->chosen;
				cand = n->backtrack & ~n->done & ~n->sleep;
				/* within the preemption bound */
				if (n->last >= 0 && n->pre >= cfg.bound)
					cand &= 1ULL << n->last;
				if (cand) {
					n->chosen = __builtin_ctzll(cand);
					n->alt = 0;
					break;
				}
			}
			if (d < 0) {
				s->exhausted = 1;
				break;
			}
			prefix = d + 1;
			if (s->execs >= cfg.max_execs)
				break;
		}
	} else {
		for (s->execs = 0; s->execs < cfg.max_execs; ) {
			enum result r = execute(0);

			s->execs++;
			if (r == X_PASS || litmus_hit)
				count_behaviour();
			if (r == X_FAIL) {
				s->fails++;
				s->first_fail = s->execs;
				record(&s->best);
				break;
			}
		}
	}
}
