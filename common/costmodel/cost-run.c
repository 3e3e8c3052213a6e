// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model's machine inside the checker: each CPU's clock, the
 * cycles its accesses cost (cost.h), the host's cores and slices
 * (host.h), which CPU moves next, and -T's run and result line.
 */
#include "checker.h"

/* The defaults of the cost model's options (cost-main.c), cost.h's and host.h's. */
struct cost_config costcfg = {
	.transfer = 100, .read_occupancy = COST_READ_OCCUPANCY, .hit = 1,
	.fence = COST_FENCE, .atomic = COST_ATOMIC, .sockets = 1,
	.slice = 500000, .wake = 10000, .spin = 40000,
};

/* ---- the simulated CPUs' program -------------------------------------- */

/*
 * The cost model's hold and work times: uniform from half to one and a
 * half times the mean, from the CPU's own fixed sequence, so that CPUs do
 * not arrive in lock-step (a real machine's work is never that exact) and
 * the same command gives the same result.
 */
u64 vary(struct task *t, u64 mean)
{
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return mean ? mean / 2 + t->rng % (mean + 1) : 0;
}

/*
 * The cost model's host: acquisitions whose taker was off its core at
 * some point after the lock's last release (a hand-over stall), slice
 * ends that took a lock holder off its core, and that last release.
 */
u64 handover_stalls, holder_preempted, last_release;

/*
 * The cost model's waits and sockets: each acquisition's wait (cycles
 * from asking for the lock to holding it), how many acquisitions took
 * the lock into another socket than its last holder's, that socket.
 */
static u64 *waits;
static size_t nwaits, waits_size;
static u64 lock_moves;
static int lock_socket;

void cost_acquired(const struct task *t, u64 asked)
{
	int socket = cost_socket(t->cpu);

	if (nwaits == waits_size) {
		waits_size = waits_size ? 2 * waits_size : 4096;
		waits = realloc(waits, waits_size * sizeof(*waits));
		if (!waits)
			abort();
	}
	waits[nwaits++] = t->clock - asked;
	lock_moves += lock_socket >= 0 && socket != lock_socket;
	lock_socket = socket;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The @pct-th percentile of the sorted waits (nearest rank). */
static u64 percentile(unsigned int pct)
{
	size_t rank = (nwaits * pct + 99) / 100;

	return nwaits ? waits[rank ? rank - 1 : 0] : 0;
}

/*
 * A lock of common/costmodel/locks/ may count what its paths did, outside
 * the modelled memory: the result line gives each as lock.NAME=.
 */
extern const char *const vc_lock_counter_names[] __attribute__((__weak__));
extern unsigned long vc_lock_counters[] __attribute__((__weak__));

/* The socket of the CPU running (common/costmodel/locks/cna.h). */
int vc_numa_node(void)
{
	return cost_socket(lab_cpu);
}

/* ---- the cost model's clocks (cost.h) ---------------------------------- */

static u64 region_access[3], region_miss[3];

static u64 booked(int cpu, unsigned int line, int write, u64 now, u64 extra)
{
	u64 hits = cost_stats.hits, done = cost_access(cpu, line, write, now, extra);
	int r = line * COST_LINE < VARS_OFF ? R_LOCK : line * COST_LINE < PCPU_OFF ? R_DATA : R_NODE;

	region_access[r]++;
	region_miss[r] += cost_stats.hits == hits;
	return done;
}

static int await_touches(const struct task *t, unsigned int line)
{
	int i;

	for (i = 0; i < t->op.nr; i++)
		if (t->op.r[i].off / COST_LINE == line ||
		    (t->op.r[i].off + t->op.r[i].size - 1) / COST_LINE == line)
			return 1;
	return 0;
}

/*
 * Task @p is about to perform @op at its clock: move its clock to when
 * the access completes.  A write invalidates the line everywhere else,
 * and every CPU spinning on it (stopped at an await that read it) will
 * read it again (rule 3), even if what it waits for has not changed: a
 * request made when the write completes, which the line serves in its
 * turn (cost_pick()).
 */
void cost_charge(int p, const struct op *op)
{
	struct task *t = &tasks[p];
	unsigned int line = op->off / COST_LINE;
	int k;

	switch (op->kind) {
	case OP_READ:
		t->clock = booked(t->cpu, line, 0, t->clock, 0);
		return;
	case OP_WRITE:
		t->clock = booked(t->cpu, line, 1, t->clock, 0);
		break;
	case OP_RMW:
		cost_stats.atomics++;
		t->clock = booked(t->cpu, line, 1, t->clock, costcfg.atomic);
		break;
	case OP_FENCE:
		t->clock += costcfg.fence;
		return;
	default:
		/*
		 * An await: the clock is where its last read left it.  A bounded
		 * spin (SPIN_THRESHOLD rounds as one await) that ends with
		 * nothing changed has spun -B cycles.
		 */
		if (op->kind == OP_AWAIT && op->timed && !await_ready(t) &&
		    t->clock < t->bound_end)
			t->clock = t->bound_end;
		return;
	}
	for (k = 1; k < ntasks; k++) {	/* the CPUs after the writer first */
		struct task *s = &tasks[(p + k) % ntasks];

		if (s == t || s->state || s->reread || s->op.kind != OP_AWAIT ||
		    !await_touches(s, line) || cost_cached(s->cpu, line) ||
		    !host_running(s->cpu))
			continue;
		if (s->clock < t->clock)
			s->clock = t->clock;
		if (costcfg.by_completion)	/* -Z: at once, ahead of the line's queue */
			s->clock = booked(s->cpu, line, 0, s->clock, 0);
		else
			s->reread = line + 1;
	}
}

/*
 * The line task @p waits for (+1), or 0: a miss or upgrade its next
 * operation makes, or its rule-3 read again; not a hit, a fence or an
 * await.
 */
static unsigned int cost_request(int p)
{
	struct task *t = &tasks[p];
	const struct op *op = &t->op;
	unsigned int line;

	if (t->reread)
		return t->reread;
	if (op->kind != OP_READ && op->kind != OP_WRITE && op->kind != OP_RMW)
		return 0;
	line = op->off / COST_LINE;
	return cost_hits(t->cpu, line, op->kind != OP_READ) ? 0 : line + 1;
}

/* When the next operation of task @p (or its read again) would take effect. */
static u64 cost_when(int p)
{
	struct task *t = &tasks[p];
	const struct op *op = &t->op;

	if (t->reread)
		return cost_peek(t->cpu, t->reread - 1, 0, t->clock, 0);
	switch (op->kind) {
	case OP_READ:
	case OP_WRITE:
	case OP_RMW:
		return cost_peek(t->cpu, op->off / COST_LINE, op->kind != OP_READ,
				 t->clock, op->kind == OP_RMW ? costcfg.atomic : 0);
	case OP_FENCE:
		return t->clock + costcfg.fence;
	case OP_AWAIT:
		if (op->timed && !await_ready(t) && t->clock < t->bound_end)
			return t->bound_end;
		return t->clock;
	default:
		return t->clock;
	}
}

/* ---- the cost model's host (host.h) ------------------------------------ */

/*
 * vCPU @p comes back to a core at cycle @at: what it still owed of its
 * program runs from there, and a spinning vCPU reads again the lines
 * that changed while it was away.
 */
static void cost_resume(int p, u64 at)
{
	struct task *t = &tasks[p];
	int i;

	t->clock = t->owed ? at + t->owed : t->clock > at ? t->clock : at;
	t->owed = 0;
	t->resumed = at;
	if (t->state || t->op.kind != OP_AWAIT)
		return;
	for (i = 0; i < t->op.nr && !t->reread; i++) {
		unsigned int line = t->op.r[i].off / COST_LINE;

		if (!cost_cached(t->cpu, line))
			t->reread = line + 1;
	}
}

/*
 * The host's event at @at takes vCPU @off off its core (-1: the core was
 * idle) and gives the core to @on.
 */
static void cost_switch(int off, int on, u64 at)
{
	if (off >= 0) {
		struct task *t = &tasks[off];

		holder_preempted += t->holding;
		t->owed = t->clock > at ? t->clock - at : 0;
		t->reread = 0;	/* it reads again when it is back */
	}
	cost_resume(on, at);
}

/*
 * After task @p's step: if it halted (pv_wait() with no kick to end it)
 * or ended, its core goes to the next vCPU; every halted vCPU its step
 * kicked wakes, WAKE cycles on (a host event).
 */
void cost_host_after(int p)
{
	struct task *t = &tasks[p];
	int i, on;

	if (t->state || (t->op.kind == OP_AWAIT && t->op.halt && !await_ready(t))) {
		on = host_leave(p, t->clock, !t->state);
		if (on >= 0)
			cost_resume(on, t->clock);
	}
	for (i = 0; i < ntasks; i++)
		if (host_halted(i) && await_ready(&tasks[i]))
			host_kick(i, t->clock);
}

/*
 * The cost model's schedule.  Each line serves its requests in the order
 * they were made: of the CPUs waiting for one line (a miss or upgrade of
 * their next operation, or a rule-3 read again), only the one that asked
 * first may go, and on a tie the first after the last CPU picked, so
 * that no CPU number is favoured.  Of those and of the CPUs whose next
 * operation needs no line, the one that takes effect first goes.  A read
 * again of a CPU whose await is still not ready is served here, and the
 * choice is made again.
 *
 * -Z keeps the first edition's rule, for comparison: every enabled CPU
 * may go, the one whose access completes first, and a rule-3 read again
 * is booked at once, ahead of requests made before it.  A request that
 * costs one cycle more then loses every race for its line to the reads
 * made after it (common/costmodel/tests/sim-robust.sh shows what that does).
 */
int cost_pick(void)
{
	static int last;
	unsigned int req[MAX_TASKS], head_line[MAX_TASKS];
	int head[MAX_TASKS], nheads;
	u64 w, h, best_w = 0;
	int k, i, j, best, off, on, turns = 0;

	for (;;) {
		/* the first request of each line */
		nheads = 0;
		for (k = 1; k <= ntasks; k++) {
			i = (last + k) % ntasks;
			req[i] = !costcfg.by_completion && host_running(i) &&
				 (tasks[i].reread || enabled(i)) ? cost_request(i) : 0;
			if (!req[i])
				continue;
			for (j = 0; j < nheads && head_line[j] != req[i]; j++)
				;
			if (j == nheads) {
				head_line[nheads] = req[i];
				head[nheads++] = i;
			} else if (tasks[i].clock < tasks[head[j]].clock) {
				head[j] = i;
			}
		}
		best = -1;
		for (k = 1; k <= ntasks; k++) {
			i = (last + k) % ntasks;
			if (!host_running(i))
				continue;
			if (req[i]) {
				for (j = 0; head_line[j] != req[i]; j++)
					;
				if (head[j] != i)
					continue;
			} else if (!enabled(i)) {
				continue;
			}
			w = cost_when(i);
			if (best < 0 || w < best_w ||
			    (w == best_w && tasks[i].clock < tasks[best].clock)) {
				best = i;
				best_w = w;
			}
		}
		/* a host event before that operation goes first */
		h = host_next();
		if (h == HOST_NEVER || (best >= 0 && best_w <= h)) {
			if (best < 0 || !tasks[best].reread)
				break;
			/* a read again: the line comes back, the await looks again */
			tasks[best].clock = booked(tasks[best].cpu, tasks[best].reread - 1, 0,
						   tasks[best].clock, 0);
			tasks[best].reread = 0;
			continue;
		}
		/* every vCPU has had a core, and none of them can go on: a hang */
		if (best < 0 && ++turns > 2 * ntasks)
			break;
		h = host_event(&off, &on);
		cost_switch(off, on, h);
	}
	if (best >= 0)
		last = best;
	return best;
}

/* ---- driver ------------------------------------------------------------ */

/*
 * -T: one execution under the cost model, on the sequentially consistent
 * memory (the costs are the caches', not the order's), then one line of
 * key=value results for common/costmodel/sim.sh.
 */
int cost_run(void)
{
	struct cost_params params;
	u64 acq = 0, lo = ~0ULL, hi = 0, end = 0;
	int i;

	if (costcfg.cores > cfg.cpus) {
		fprintf(stderr, "cost: -P %d host cores for %d vCPUs: at most one core a vCPU\n",
			costcfg.cores, cfg.cpus);
		return 2;
	}
	for (i = 0; i < ntasks; i++)
		if (tasks[i].cpu != i)
			abort();	/* the host's vCPU i is task i */
	if (costcfg.sockets > cfg.cpus || cfg.cpus % costcfg.sockets) {
		fprintf(stderr, "cost: -D %d sockets for %d CPUs: the sockets must divide the CPUs; valid:",
			costcfg.sockets, cfg.cpus);
		for (i = 1; i <= 8 && i <= cfg.cpus; i++)
			if (cfg.cpus % i == 0)
				fprintf(stderr, " %d", i);
		fprintf(stderr, "\n");
		return 2;
	}
	params.transfer = costcfg.transfer;
	params.read_occupancy = costcfg.read_occupancy;
	params.hit = costcfg.hit;
	params.cpus = cfg.cpus;
	params.sockets = costcfg.sockets;
	params.cross = costcfg.cross ? costcfg.cross : COST_CROSS_FACTOR * costcfg.transfer;
	cost_reset(ARENA_SIZE / COST_LINE, &params);
	/* a CPU's own lines (its nodes, its per-CPU data) in its socket's memory */
	for (i = 0; i < cfg.cpus && pcpu_size; i++) {
		unsigned int a = (PCPU_OFF + i * pcpu_size) / COST_LINE;
		unsigned int b = (PCPU_OFF + (i + 1) * pcpu_size - 1) / COST_LINE;

		while (a <= b)
			cost_home(a++, cost_socket(i));
	}
	host_reset(cfg.cpus, costcfg.cores, costcfg.slice, costcfg.wake);
	handover_stalls = holder_preempted = last_release = 0;
	nwaits = 0;
	lock_moves = 0;
	lock_socket = -1;
	dpor = 0;
	if (execute(0) == X_FAIL) {
		printf("cost %s [%d CPUs]: FAIL: %s\n", cfg.name, cfg.cpus, fail_msg);
		return 1;
	}
	for (i = 0; i < ntasks; i++) {
		u64 n = tasks[i].done_acq;

		acq += n;
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
		end = tasks[i].clock > end ? tasks[i].clock : end;
	}
	printf("cost %s: cpus=%d transfer=%llu occupancy=%d hit=%llu fence=%llu atomic=%llu hold=%llu work=%llu cycles=%llu acq=%llu min=%llu max=%llu",
	       cfg.name, cfg.cpus, (unsigned long long)costcfg.transfer, costcfg.read_occupancy,
	       (unsigned long long)costcfg.hit, (unsigned long long)costcfg.fence,
	       (unsigned long long)costcfg.atomic,
	       (unsigned long long)costcfg.hold, (unsigned long long)costcfg.work,
	       (unsigned long long)end, (unsigned long long)acq,
	       (unsigned long long)lo, (unsigned long long)hi);
	printf(" accesses=%llu hits=%llu transfers=%llu memory=%llu upgrades=%llu invalidations=%llu",
	       (unsigned long long)cost_stats.accesses, (unsigned long long)cost_stats.hits,
	       (unsigned long long)cost_stats.transfers, (unsigned long long)cost_stats.memory,
	       (unsigned long long)cost_stats.upgrades,
	       (unsigned long long)cost_stats.invalidations);
	printf(" atomics=%llu cas_failed=%llu lock_misses=%llu data_misses=%llu node_accesses=%llu node_misses=%llu",
	       (unsigned long long)cost_stats.atomics, (unsigned long long)cost_stats.cas_failed,
	       (unsigned long long)region_miss[R_LOCK], (unsigned long long)region_miss[R_DATA],
	       (unsigned long long)region_access[R_NODE], (unsigned long long)region_miss[R_NODE]);
	qsort(waits, nwaits, sizeof(*waits), cmp_u64);
	printf(" sockets=%d cross=%llu remote=%llu lock_moves=%llu lock_line_writes=%d wait_p50=%llu wait_p99=%llu wait_max=%llu",
	       costcfg.sockets, (unsigned long long)params.cross,
	       (unsigned long long)cost_stats.remote, (unsigned long long)lock_moves,
	       costcfg.lock_line_writes, (unsigned long long)percentile(50),
	       (unsigned long long)percentile(99),
	       (unsigned long long)(nwaits ? waits[nwaits - 1] : 0));
	for (i = 0; vc_lock_counter_names && vc_lock_counter_names[i]; i++)
		printf(" lock.%s=%lu", vc_lock_counter_names[i], vc_lock_counters[i]);
	printf("\n");
	if (host_on())
		printf("cost %s: host cores=%d slice=%llu wake=%llu spin=%llu preemptions=%llu halts=%llu wakes=%llu wake_preemptions=%llu idle=%llu stalls=%llu holder_preempted=%llu\n",
		       cfg.name, costcfg.cores, (unsigned long long)costcfg.slice,
		       (unsigned long long)costcfg.wake, (unsigned long long)costcfg.spin,
		       (unsigned long long)host_stats.preemptions,
		       (unsigned long long)host_stats.halts, (unsigned long long)host_stats.wakes,
		       (unsigned long long)host_stats.wake_preemptions,
		       (unsigned long long)host_stats.idle,
		       (unsigned long long)handover_stalls,
		       (unsigned long long)holder_preempted);
	return 0;
}
