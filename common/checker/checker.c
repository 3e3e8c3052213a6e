// SPDX-License-Identifier: GPL-2.0
/*
 * The lock checker: a step's own compiled qspinlock.c on simulated CPUs,
 * every interleaving of a small configuration (or seeded PCT schedules of
 * a large one), under a chosen memory model.  See common/checker/README.md.
 *
 * The lock code and its users (api.c, litmus.c) are compiled with
 * -fsanitize=thread: gcc then calls __tsan_readN()/__tsan_writeN() before
 * every plain load and store and turns every __atomic builtin into a
 * __tsan_atomic*() call.  This file supplies those entry points instead of
 * libtsan.  Each is a scheduling point: the simulated CPU stops there, the
 * explorer picks who goes next, and the access is performed on the memory
 * model when the CPU is picked.  Plain loads get their value from the
 * model (it is written into the real location just before the compiled
 * load reads it); plain stores are harvested from the real location at
 * the CPU's next call into the checker.  Accesses outside the modelled
 * memory (the stack) are not shared and pass through.
 *
 * Exploration is stateless: every execution starts from the initial state
 * and replays a prefix of choices.  The exhaustive mode is DPOR (Flanagan
 * and Godefroid, POPL 2005) with sleep sets; the random mode is PCT
 * (Burckhardt et al., ASPLOS 2010).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vc.h"
#include "cost.h"
#include "host.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

/* ---- configuration ---------------------------------------------------- */

#define MAX_CPUS	64
#define MAX_LEVELS	4	/* task, softirq, hardirq, NMI: nodes 0..3 */
#define MAX_TASKS	(MAX_CPUS * MAX_LEVELS)
#define MAX_PROCS	(MAX_TASKS + MAX_CPUS)	/* tasks, then store buffers */
#define DPOR_PROCS	64	/* bitmask width of the exhaustive explorer */
#define MAX_EVENTS	4000
#define MAX_READS	16
#define SBUF		16
#define STACK_SIZE	(64 * 1024)

enum model { SC, TSO, WEAK };
static const char *const model_name[] = { "sc", "tso", "weak" };

static struct {
	int cpus, acq, levels, irq_acq;
	int lockref;		/* CPUs 0..lockref-1 use the lockref path */
	int trylock;		/* the next ones try spin_trylock() first */
	int observers;		/* the last ones only ask whether it is locked */
	enum model model;
	long max_execs;
	int pct;		/* 0: exhaustive (DPOR); else PCT depth */
	u64 seed;
	const char *replay;
	const char *name;
	const char *self;
	int quiet;
	int minimise;
	long min_budget;
	int bound;		/* preemptions per execution, exhaustive mode */
	int reorder_bound;	/* weak: reorderings per execution */
	int spurious;		/* -S: spurious wake-ups a CPU may take (pv_wait()) */
	const struct vc_litmus *litmus;	/* -L: a litmus test, not the lock */
	int audit;		/* -A BYTE: poison the arena with BYTE; -1: none */
	int enumerate;		/* -E: go on past failures, count behaviours */
	int reference;		/* -R: the reference search, every choice */
	/* -T: the cost model instead of a search (cost.h) */
	u64 cost_end;		/* cycles to simulate; 0: no cost model */
	u64 transfer;		/* -C: cycles a line takes from cache to cache */
	int read_occupancy;	/* -O: percent of that a read miss keeps its line */
	u64 hit;		/* -J: cycles of a hit */
	u64 fence;		/* -F: cycles of a fence */
	u64 atomic;		/* -G: cycles a locked RMW adds, its line kept */
	int by_completion;	/* -Z: the first edition's schedule (cost_pick()) */
	u64 hold;		/* -H: cycles inside the critical section */
	u64 work;		/* -W: cycles between an unlock and the next lock */
	int sockets;		/* -D: sockets the CPUs are in (cost.h) */
	u64 cross;		/* -X: cycles of a transfer between sockets; 0: 3C */
	int lock_line_writes;	/* -k: the critical section's writes to the lock's line */
	/* -P: the cost model's host (host.h); 0: every vCPU has a core */
	int cores;		/* -P: host cores the vCPUs share */
	u64 slice;		/* -Q: cycles of a host slice */
	u64 wake;		/* -K: cycles from a kick to its vCPU running */
	u64 spin;		/* -B: cycles of a bounded spin (SPIN_THRESHOLD) */
} cfg = {
	.cpus = 2, .acq = 1, .levels = 1, .irq_acq = 1,
	.max_execs = 2000000, .min_budget = 20000, .minimise = 1,
	.bound = 1000, .reorder_bound = 1000,
};

/* ---- modelled memory ------------------------------------------------- */

/*
 * The arena holds everything shared: the locks with their counts and
 * owners, then one copy of the per-CPU section for every simulated CPU.
 * mem[] is the model's memory (what a store that left its CPU wrote);
 * arena[] is only where compiled code reads and writes.
 */
#define ARENA_SIZE	(1 << 16)
static u8 arena[ARENA_SIZE] __attribute__((__aligned__(64)));
static u8 mem[ARENA_SIZE] __attribute__((__aligned__(64)));
#define LOCKS_OFF	0
#define VARS_OFF	512	/* a litmus test's variables */
#define PCPU_OFF	1024

/* weak: a lock without per-CPU data (the ticket lock) has no section */
extern char __start_lab_percpu[] __attribute__((__weak__));
extern char __stop_lab_percpu[] __attribute__((__weak__));
static unsigned long pcpu_size;

static struct vc_lockref *const locks = (struct vc_lockref *)arena;

/* The shim's hash_ptr() hashes offsets into the arena (linux/hash.h). */
const unsigned long vc_hash_base = (unsigned long)arena;

/*
 * The lab's shim (common/checker/shim/include) serves the checker unchanged: its
 * smp_processor_id(), per-CPU offsets and cpu_relax() hook are defined
 * here.  The simulated CPUs share one thread, so its thread-locals are
 * the running CPU's.
 */
__thread int lab_cpu;
__thread unsigned long lab_this_cpu_off;
__thread unsigned int lab_relax_count;
unsigned int lab_relax_mask;	/* 0: every cpu_relax() calls the hook */

unsigned long lab_per_cpu_offset(int cpu)
{
	return (unsigned long)(arena + PCPU_OFF + cpu * pcpu_size) -
	       (unsigned long)__start_lab_percpu;
}

struct vc_vars *vc_vars(void)
{
	return (struct vc_vars *)(arena + VARS_OFF);
}

struct vc_lockref *vc_lockref_of(int i)
{
	return &locks[i];
}

static inline int in_arena(const void *p)
{
	return (const u8 *)p >= arena && (const u8 *)p < arena + ARENA_SIZE;
}

/*
 * The paravirt layout's lock-to-node hash (the shim's
 * alloc_large_system_hash()): the arena's last bytes, cleared with the
 * rest before every execution.  Called before main(), once.
 */
static unsigned long pv_hash_bytes;

void *vc_pv_hash_area(unsigned long bytes)
{
	pv_hash_bytes = (bytes + 63) & ~63UL;
	if (pv_hash_bytes > ARENA_SIZE / 2) {
		fprintf(stderr, "verify: a paravirt lock hash of %lu bytes does not fit the modelled memory\n",
			bytes);
		exit(2);
	}
	return arena + ARENA_SIZE - pv_hash_bytes;
}

static inline u32 off_of(const void *p)
{
	return (const u8 *)p - arena;
}

/* ---- operations ------------------------------------------------------ */

enum kind { OP_READ, OP_WRITE, OP_RMW, OP_FENCE, OP_AWAIT, OP_IRQ, OP_END,
	    OP_FLUSH };
enum rmw { R_XCHG, R_ADD, R_SUB, R_AND, R_OR, R_XOR, R_NAND, R_CAS };
enum fence { F_MB, F_RMB, F_WMB };
static const char *const rmw_name[] = { "xchg", "add", "sub", "and", "or",
					"xor", "nand", "cmpxchg" };

struct range {
	u32 off;
	u8 size;
};

struct op {
	u8 kind, size, rmw, mo, nr;	/* nr: ranges of an AWAIT */
	u8 timed;	/* an AWAIT that may end with nothing changed */
	u8 halt;	/* an AWAIT of pv_wait(): its vCPU halts (host.h) */
	u32 off;
	struct range r[MAX_READS];
	const void *pc;
	u64 a, b;
};

/* C11 memory orders as tsan passes them. */
enum { MO_RELAXED, MO_CONSUME, MO_ACQUIRE, MO_RELEASE, MO_ACQ_REL, MO_SEQ_CST };

/* ---- simulated CPUs -------------------------------------------------- */

#define ROUND_LOCS	8

struct task {
	int id, cpu, level;
	void *sp;
	u8 *stack;
	int state;	/* 0: runnable, 1: finished */
	struct op op;	/* the operation it is stopped at */
	u64 result;
	/* a plain store made since its last call into the checker */
	u32 pw_off;
	u8 pw_size;
	/*
	 * What an AWAIT waits on: the loads since its last cpu_relax() or
	 * store, whichever came later (a spin loop stores nothing).
	 */
	int nreads;
	int reads_lost;	/* more than MAX_READS of them: no await may use them */
	struct range reads[MAX_READS];
	u64 read_val[MAX_READS];
	int active;	/* an interrupt context between entry and exit */
	int done_acq;
	u64 clock;	/* the cost model: the cycle this CPU has reached */
	u64 rng;	/* the cost model: this CPU's own random sequence */
	/*
	 * the cost model: a line (+1) a write invalidated under its await,
	 * which it reads again (rule 3), requested at its clock; 0: none
	 */
	unsigned int reread;
	/* behaviours: the loads since its last cpu_relax() or store */
	u64 pend_rf;
	int pend_n;
	/* the next cpu_relax() ends a bounded spin (vc_spin_bound()) */
	int spin_bound;
	/*
	 * its last timed await ended with nothing changed: from there on it
	 * notes each location it stores to with the value the location had
	 * (round_loc[], round_old[]; round_over: more than ROUND_LOCS of
	 * them).  If its next timed await finds every one of them back at
	 * that value, the round changed nothing: it is going round a loop
	 * that changes nothing, and that await waits for a change (else a
	 * CPU could spin in such a loop for ever in one schedule, and starve
	 * the others: 6.1's queue head sets and clears the pending bit and
	 * its node's state in every round of its wait)
	 */
	int timed_streak;
	int round_n, round_over;
	struct range round_loc[ROUND_LOCS];
	u64 round_old[ROUND_LOCS];
	/* spurious wake-ups it may still take in this execution (-S) */
	int spurious_left;
	/* its next cpu_relax() is a halt that may end spuriously */
	int spurious_point;
	/* its next cpu_relax() is pv_wait()'s halt (vc_halt_point()) */
	int halting;
	/*
	 * The cost model's bounded spin: from SPIN_THRESHOLD's evaluation
	 * until the loop is left, every cpu_relax() of the loop (at
	 * bound_pc, the first one's) ends on a change or at bound_end, -B
	 * cycles after the loop began (vc_spin_bound()).
	 */
	int bounded;
	const void *bound_pc;
	u64 bound_end;
	/*
	 * The cost model's host: the cycles of its program it had still to
	 * run when a slice end took it off its core (a hold, a line on its
	 * way), the cycle it last came back, and whether it holds the lock.
	 */
	u64 owed, resumed;
	int holding;
	/* weak: what its last wake-up found changed, until it is read again */
	int nwoken;
	struct range woken[MAX_READS];
	u64 woken_val[MAX_READS];
};

static struct task tasks[MAX_TASKS];
static int ntasks, nprocs;
static struct task *cur;
static void *sched_sp;

/* x86-64 context switch: callee-saved registers on the old stack. */
void vc_switch(void **save, void *to);
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

/* ---- TSO store buffers ------------------------------------------------ */

struct sbentry {
	u32 off;
	u8 size;
	u64 val;
	int issue_ev;	/* the event that issued it (for happens-before) */
	int bar;	/* write barriers its CPU had issued before it */
	int release;	/* a release store: leaves only as the oldest */
	int relobs;	/* weak: what its CPU had observed at its last barrier */
	u32 src;	/* the event that made the store (behaviours) */
};

static struct sbuf {
	int n, bar;
	struct sbentry e[SBUF];
} sb[MAX_CPUS];

/*
 * The weak model (common/checker/README.md, "Memory models"): every store
 * that leaves its CPU is appended to one history, the coherence order of
 * every location.  Time t is the memory after the first t stores of the
 * history; a load reads the bytes it asks for as they were at one time t
 * at or after its CPU's floor and its own earlier accesses to them.  A
 * store's cut is the time that a CPU which read it and then orders its
 * later loads (smp_rmb(), an acquire) may no longer read before.
 */
#define MAX_HIST	2048
#define MAX_COH		64
#define MAX_ALTS	128

struct hentry {
	u32 off;
	u8 size;
	u64 prev;	/* the bytes it overwrote */
	int cut;
	u32 src;	/* the event that made the store (behaviours) */
};

static struct hentry hist[MAX_HIST];
static int nhist;

static struct wview {
	int floor;	/* no load reads from before this time */
	int acq;	/* the largest cut of a store it has read */
	int obs;	/* the latest time it has observed */
	int relobs;	/* obs at its last smp_wmb() or smp_mb() */
	int max_flushed, before_bar, last_bar;	/* its own stores */
	int release;	/* a release since its last full barrier */
	int rel_obs;	/* obs at that release: what an acquire after it orders */
	int ncoh;
	struct {
		u32 off;
		u8 size;
		int t;
	} coh[MAX_COH];	/* per range: the time its last access saw */
} wv[MAX_CPUS];

/* ---- failure and the trace -------------------------------------------- */

static int failed;
static char fail_msg[512];

struct event {
	int proc, hidden;
	struct op op;
	u64 value;	/* what a read returned, what a write wrote */
	u32 word[MAX_LEVELS];	/* lock words after it */
	u32 clock[DPOR_PROCS];
	int seq;
	int alt, nalt;	/* which of its possible outcomes it took, of how many */
	int stale;	/* weak: newer stores to what it loaded than it saw */
	int buffered;	/* a store that went to its CPU's store buffer */
};

static struct event ev[MAX_EVENTS];
static int nev;
static int choice[MAX_EVENTS];	/* the schedule of the current execution */
static int choice_alt[MAX_EVENTS];

/*
 * Under the weak model an event may have several outcomes: a load may read
 * any of the values it is allowed to see, and a store buffer may let any of
 * the stores go that no barrier holds back.  The explorer says which one
 * the running event takes (cur_alt; -1: a random one, for PCT); the event
 * says how many it had.
 */
static int cur_alt, ev_nalt, ev_alt;
static int reorders;	/* outcomes other than the first, this execution */
static const int *replay_sched, *replay_alt;
static int replay_len;
static int litmus_hit;	/* the execution ended with the exists clause true */

static u64 rng(void);

/*
 * Outcome 0 is the one TSO would give (the newest value, the oldest
 * store); every other one is a reordering, and -w bounds how many an
 * execution may have, as -b bounds its preemptions.
 */
static int pick_alt(int n)
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

/* ---- behaviours: reads-from and coherence ------------------------------ */

/*
 * Two executions are the same behaviour when every load read its bytes
 * from the same stores and every location's stores reached memory in the
 * same order (reads-from and coherence), and they end in the same state.
 * Each event that counts has a name that does not depend on the
 * interleaving: its context and how many events that count that context
 * made before it.  The loads of a failed spin iteration (those since the
 * last cpu_relax() or store, when the loop calls cpu_relax() again) and
 * the waits do not count: how often a CPU spun is not a behaviour.  An
 * execution's key is a sum of one hash per reads-from and coherence
 * pair, so that the order the pairs were made in does not matter.
 * -E (enumerate) and -R (the reference search) count the distinct keys
 * and final states; common/checker/verify-ref.sh compares them.
 */
static u32 msrc[ARENA_SIZE];	/* the store each byte of memory came from */
static u32 cur_src;	/* the name of the running event */
static u64 beh_key;	/* this execution's key */
static int tcount[MAX_TASKS];
/*
 * Which context is inside each lock's critical section: a ghost, set and
 * cleared by the checker itself (no memory access, no scheduling point),
 * from the step in which the lock was taken to the one before the unlock
 * begins, for the observers (-o) to be held against.
 */
static int inside[MAX_LEVELS];

static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 pair(u64 kind, u64 a, u64 b, u64 where)
{
	return mix(mix(mix(kind ^ (where << 8)) ^ a) ^ (b << 1));
}

/* A store's bytes reach memory: coherence pairs with what they overwrite. */
static void mem_write(u32 off, int size, u64 v, u32 src)
{
	int b;

	for (b = 0; b < size; b++) {
		beh_key += pair(1, src, msrc[off + b], off + b);
		msrc[off + b] = src;
	}
	memcpy(mem + off, &v, size);
}

/* A load by the running event read byte @where from store @src. */
static u64 rf_pair(u32 src, u32 where)
{
	return pair(2, cur_src, src, where);
}

/* Sets of 64-bit keys: the distinct behaviours and final states seen. */
struct keyset {
	u64 *k;
	long n, cap;
	u64 digest;	/* a sum over the distinct keys: independent of order */
};

static struct keyset classes, states;

static void keyset_add(struct keyset *s, u64 key)
{
	long i;

	key |= 1;	/* 0 marks an empty slot */
	if (2 * (s->n + 1) > s->cap) {
		struct keyset g = { .cap = s->cap ? 2 * s->cap : 1024 };

		g.k = calloc(g.cap, sizeof(u64));
		if (!g.k) {
			fprintf(stderr, "verify: out of memory for %ld behaviours\n", s->n);
			exit(2);
		}
		for (i = 0; i < s->cap; i++)
			if (s->k[i])
				keyset_add(&g, s->k[i]);
		free(s->k);
		*s = g;
	}
	for (i = mix(key) & (s->cap - 1); s->k[i]; i = (i + 1) & (s->cap - 1))
		if (s->k[i] == key)
			return;
	s->k[i] = key;
	s->n++;
	s->digest += mix(key);
}

/* ---- the memory models ------------------------------------------------ */

static u64 get(const u8 *m, u32 off, int size)
{
	u64 v = 0;

	memcpy(&v, m + off, size);	/* little-endian host */
	return v;
}

static void put(u8 *m, u32 off, int size, u64 v)
{
	memcpy(m + off, &v, size);
}

/*
 * The reads-from pairs of a load by the running event of [off, off+size)
 * as CPU @cpu sees it at time @t of the weak model's history (-1: now):
 * a byte its store buffer holds comes from the newest such store, the
 * others from the last store to reach them (before time @t).
 */
static u64 rf_of(int cpu, u32 off, int size, int t)
{
	u64 h = 0;
	int b, i, k;

	for (b = 0; b < size; b++) {
		u32 src = 0, a = off + b;
		int found = 0;

		for (i = sb[cpu].n - 1; i >= 0 && !found; i--)
			if (a >= sb[cpu].e[i].off && a < sb[cpu].e[i].off + sb[cpu].e[i].size) {
				src = sb[cpu].e[i].src;
				found = 1;
			}
		if (!found && t < 0)
			src = msrc[a];
		for (k = t - 1; !found && k >= 0; k--)
			if (a >= hist[k].off && a < hist[k].off + hist[k].size) {
				src = hist[k].src;
				found = 1;
			}
		h += rf_pair(src, a);
	}
	return h;
}

/* An initial value of a litmus test's variable (its init()). */
void vc_litmus_set(volatile void *p, int size, uint64_t v)
{
	if (!in_arena((const void *)p) || size < 1 || size > 8)
		vc_fail("%s(): %d bytes outside the modelled memory", __func__, size);
	put(arena, off_of((const void *)p), size, v);
	put(mem, off_of((const void *)p), size, v);
}

/* What CPU @cpu sees at [off, off+size): its store buffer forwards. */
static u64 model_load(int cpu, u32 off, int size)
{
	u8 tmp[8];
	int i, b;

	memcpy(tmp, mem + off, size);
	if (cfg.model != SC) {
		for (i = 0; i < sb[cpu].n; i++) {
			struct sbentry *e = &sb[cpu].e[i];

			for (b = 0; b < size; b++)
				if (off + b >= e->off && off + b < e->off + e->size)
					tmp[b] = ((u8 *)&e->val)[off + b - e->off];
		}
	}
	return get(tmp, 0, size);
}

static int pick_alt(int n);
static void hist_append(int cpu, u32 off, int size, u64 v, int bar,
			int relobs, int release, u32 src);

/*
 * The weak model's rule for its non-FIFO buffer: may a store of @cpu to
 * [off, off+size), issued after @bar write barriers, reach memory before
 * the @k oldest stores its buffer holds?  Not over one of them to the same
 * bytes, nor over a write barrier, and a release only as the oldest.
 */
static int may_pass(int cpu, int k, u32 off, int size, int bar, int release)
{
	int i;

	if (release && k)
		return 0;
	for (i = 0; i < k; i++)
		if (sb[cpu].e[i].bar != bar ||
		    (off < sb[cpu].e[i].off + sb[cpu].e[i].size &&
		     sb[cpu].e[i].off < off + size))
			return 0;
	return 1;
}

/*
 * A store leaves its CPU.  SC: into memory.  TSO: into the FIFO store
 * buffer.  Weak: into memory at once (outcome 0), or into the buffer,
 * where later stores may pass it (outcome 1, a reordering); into the
 * buffer anyway when a store there may not be passed.
 */
static void model_store(int cpu, u32 off, int size, u64 v, int release)
{
	int relobs = release ? wv[cpu].obs : wv[cpu].relobs;

	if (release) {
		wv[cpu].release = 1;
		wv[cpu].rel_obs = wv[cpu].obs;
	}
	if (cfg.model == SC) {
		mem_write(off, size, v, cur_src);
		return;
	}
	if (cfg.model == WEAK) {
		if (!may_pass(cpu, sb[cpu].n, off, size, sb[cpu].bar, release))
			pick_alt(1);
		else if (pick_alt(2) == 0) {
			hist_append(cpu, off, size, v, sb[cpu].bar, relobs, release,
				    cur_src);
			return;
		}
	}
	if (sb[cpu].n == SBUF)
		vc_fail("store buffer of CPU %d overflows (%d stores)", cpu, SBUF);
	ev[nev - 1].buffered = 1;
	sb[cpu].e[sb[cpu].n++] = (struct sbentry){
		.off = off, .size = size, .val = v, .issue_ev = nev - 1,
		.bar = sb[cpu].bar, .relobs = relobs, .release = release,
		.src = cur_src,
	};
}

/* ---- the weak model's history and views ------------------------------- */

static u64 rmw_apply(int op, u64 old, u64 a, u64 b, int size, int *store);

static inline int overlaps(u32 a, int as, u32 b, int bs)
{
	return a < b + bs && b < a + as;
}

static int coh_get(int cpu, u32 off, int size)
{
	struct wview *w = &wv[cpu];
	int i, t = 0;

	for (i = 0; i < w->ncoh; i++)
		if (overlaps(off, size, w->coh[i].off, w->coh[i].size) && w->coh[i].t > t)
			t = w->coh[i].t;
	return t;
}

static void coh_set(int cpu, u32 off, int size, int t)
{
	struct wview *w = &wv[cpu];
	int i, j;

	for (i = 0; i < w->ncoh; i++)
		if (w->coh[i].off == off && w->coh[i].size == size) {
			if (t > w->coh[i].t)
				w->coh[i].t = t;
			return;
		}
	if (w->ncoh == MAX_COH) {
		/* forget what the floor already guarantees */
		for (i = j = 0; i < w->ncoh; i++)
			if (w->coh[i].t > w->floor)
				w->coh[j++] = w->coh[i];
		w->ncoh = j;
		if (j == MAX_COH) {
			vc_fail("the weak model's coherence list of CPU %d is full (%d ranges)",
				cpu, MAX_COH);
			return;
		}
	}
	w->coh[w->ncoh].off = off;
	w->coh[w->ncoh].size = size;
	w->coh[w->ncoh].t = t;
	w->ncoh++;
}

/* The bytes [off, off+size) as they were at time t. */
static u64 snapshot(u32 off, int size, int t)
{
	u8 tmp[8];
	int k, b;

	memcpy(tmp, mem + off, size);
	for (k = nhist - 1; k >= t; k--) {
		struct hentry *h = &hist[k];

		if (!overlaps(off, size, h->off, h->size))
			continue;
		for (b = 0; b < size; b++)
			if (off + b >= h->off && off + b < h->off + h->size)
				tmp[b] = ((u8 *)&h->prev)[off + b - h->off];
	}
	return get(tmp, 0, size);
}

/*
 * CPU @cpu loads [off, off+size) as it was at time t (the bytes in @skip
 * came from its own store buffer).  Each store it reads from is single-copy
 * atomic: from now on the CPU sees that store or a later one in all of the
 * store's bytes, not only in those it loaded.  Returns the largest cut of
 * those stores.
 */
static int read_from(int cpu, u32 off, int size, int t, unsigned int skip)
{
	unsigned int left = ((1u << size) - 1) & ~skip;
	int k, b, cut = 0;

	for (k = t - 1; k >= 0 && left; k--) {
		struct hentry *h = &hist[k];
		unsigned int m = 0;

		for (b = 0; b < size; b++)
			if ((left & (1u << b)) && off + b >= h->off &&
			    off + b < h->off + h->size)
				m |= 1u << b;
		if (m) {
			left &= ~m;
			if (h->cut > cut)
				cut = h->cut;
			if (h->off != off || h->size != size)
				coh_set(cpu, h->off, h->size, k + 1);
		}
	}
	return cut;
}

/*
 * A store of @cpu reaches memory: the end of the history.  Its cut is what
 * its CPU's barriers order before it: every own store before its last
 * barrier (every own store, for a release), and what the CPU had observed
 * at that barrier (@relobs).
 */
static void hist_append(int cpu, u32 off, int size, u64 v, int bar,
			int relobs, int release, u32 src)
{
	struct wview *w = &wv[cpu];
	int cut;

	if (nhist == MAX_HIST) {
		vc_fail("the weak model's store history is full (%d stores)", MAX_HIST);
		return;
	}
	if (bar != w->last_bar) {
		w->before_bar = w->max_flushed;
		w->last_bar = bar;
	}
	cut = release ? w->max_flushed : w->before_bar;
	if (relobs > cut)
		cut = relobs;
	hist[nhist] = (struct hentry){ .off = off, .size = size,
				       .prev = get(mem, off, size), .cut = cut,
				       .src = src };
	nhist++;
	mem_write(off, size, v, src);
	coh_set(cpu, off, size, nhist);
	w->max_flushed = nhist;
}

/*
 * An acquire after a release of the same CPU (since its last full barrier),
 * as an unlock followed by a lock: the loads before the release are
 * ordered before the acquire and everything after it (the floor rises to
 * what they observed), and the stores before it before the stores after
 * the acquire (a write barrier, cumulative).  A store before the release
 * is NOT ordered before a load after the acquire: store buffering through
 * a release and an acquire stays possible, as on POWER (lwsync) and in
 * the kernel's memory model, which orders unlock+lock that way; ARMv8's
 * RCsc release and acquire forbid it.  Called before the acquire reads.
 */
static void release_acquire(int cpu)
{
	struct wview *w = &wv[cpu];

	if (!w->release)
		return;
	w->release = 0;
	sb[cpu].bar++;
	w->relobs = w->rel_obs;
	if (w->rel_obs > w->floor)
		w->floor = w->rel_obs;
}

/*
 * A load under the weak model.  The bytes that its own store buffer holds
 * come from there (the newest); the others from one time t, which may be
 * any time from now back to the CPU's floor and its own last access to
 * these bytes (coherence): each such time is one outcome, newest first.
 * Right after a spin loop's wake-up, a load of what it waited on does not
 * read the value it waited to change again (it would spin for ever on a
 * value that real hardware replaces eventually).
 */
static u64 weak_load(struct task *t, u32 off, int size, int mo, int *stale)
{
	struct wview *w = &wv[t->cpu];
	struct sbuf *q = &sb[t->cpu];
	unsigned int fwd = 0, full = (1u << size) - 1;
	u8 ftmp[8], tmp[8];
	int i, b, k, lo, n = 0, a, cut, when[MAX_ALTS];
	u64 val[MAX_ALTS], v;

	for (i = 0; i < q->n; i++)
		for (b = 0; b < size; b++)
			if (off + b >= q->e[i].off && off + b < q->e[i].off + q->e[i].size) {
				fwd |= 1u << b;
				ftmp[b] = ((u8 *)&q->e[i].val)[off + b - q->e[i].off];
			}
	*stale = 0;
	if (mo == MO_ACQUIRE || mo == MO_SEQ_CST)
		release_acquire(t->cpu);
	if (fwd == full) {
		pick_alt(1);
		return get(ftmp, 0, size);
	}
	lo = coh_get(t->cpu, off, size);
	if (w->floor > lo)
		lo = w->floor;
	for (k = nhist - 1; k >= lo; k--) {
		for (b = 0; b < size; b++)
			if (!(fwd & (1u << b)) && off + b >= hist[k].off &&
			    off + b < hist[k].off + hist[k].size)
				break;
		if (b == size)
			continue;
		if (n == MAX_ALTS - 1) {
			vc_fail("the weak model: a load may read more than %d values, more than it can choose from (MAX_ALTS)",
				MAX_ALTS);
			return 0;
		}
		when[n++] = k + 1;
	}
	when[n++] = lo;
	for (i = 0; i < n; i++) {
		v = snapshot(off, size, when[i]);
		memcpy(tmp, &v, 8);
		for (b = 0; b < size; b++)
			if (fwd & (1u << b))
				tmp[b] = ftmp[b];
		val[i] = get(tmp, 0, size);
	}
	for (i = 0; i < t->nwoken; i++)
		if (t->woken[i].off == off && t->woken[i].size == size) {
			int j, m = 0;

			for (j = 0; j < n; j++)
				if (val[j] != t->woken_val[i]) {
					when[m] = when[j];
					val[m++] = val[j];
				}
			if (m)
				n = m;
			t->woken[i] = t->woken[--t->nwoken];
			break;
		}
	a = pick_alt(n);
	*stale = a;
	t->pend_rf += rf_of(t->cpu, off, size, when[a]);
	coh_set(t->cpu, off, size, when[a]);
	if (when[a] > w->obs)
		w->obs = when[a];
	cut = read_from(t->cpu, off, size, when[a], fwd);
	if (cut > w->acq)
		w->acq = cut;
	if ((mo == MO_ACQUIRE || mo == MO_SEQ_CST) && cut > w->floor)
		w->floor = cut;
	return val[a];
}

/*
 * A read-modify-write under the weak model reads the newest value (none of
 * its bytes is in the store buffer: enabled() waits) and appends its store.
 * Fully ordered ones are a full barrier on both sides.  Its store carries
 * the cut of the store it read as well as its own: an acquire that reads
 * from it is ordered after what a release before it ordered (a release
 * sequence, which ARMv8 and the kernel's model keep; lockref's relaxed
 * cmpxchg relies on it).
 */
static u64 weak_rmw(struct task *t, const struct op *op)
{
	struct wview *w = &wv[t->cpu];
	int full = op->mo == MO_SEQ_CST || op->mo == MO_ACQ_REL;
	int acquire = full || op->mo == MO_ACQUIRE;
	int release = full || op->mo == MO_RELEASE;
	int store, cut;
	u64 v, n;

	pick_alt(1);
	if (acquire && !full)
		release_acquire(t->cpu);
	if (full)
		w->floor = nhist;
	if (nhist > w->obs)
		w->obs = nhist;
	beh_key += rf_of(t->cpu, op->off, op->size, -1);
	v = get(mem, op->off, op->size);
	cut = read_from(t->cpu, op->off, op->size, nhist, 0);
	if (cut > w->acq)
		w->acq = cut;
	n = rmw_apply(op->rmw, v, op->a, op->b, op->size, &store);
	/*
	 * A release RMW is a release as a release store is: an acquire after
	 * it is ordered after it (release_acquire()).  The paravirt unlock,
	 * a cmpxchg_release(), showed it: without this, MP+wmb+unlock-lock
	 * was reachable on step 10's pv layout.
	 */
	if (release && !full && store) {
		w->release = 1;
		w->rel_obs = w->obs;
	}
	if (store) {
		int own = release ? w->obs : w->relobs;

		hist_append(t->cpu, op->off, op->size, n, sb[t->cpu].bar,
			    own > cut ? own : cut, release, cur_src);
	} else {
		coh_set(t->cpu, op->off, op->size, nhist);
	}
	if (acquire && cut > w->floor)
		w->floor = cut;
	if (full) {
		w->floor = nhist;
		w->obs = nhist;
		w->relobs = nhist;
		w->release = 0;
	}
	return v;
}

static int sb_overlap(int cpu, u32 off, int size)
{
	int i;

	for (i = 0; i < sb[cpu].n; i++)
		if (off < sb[cpu].e[i].off + sb[cpu].e[i].size &&
		    sb[cpu].e[i].off < off + size)
			return 1;
	return 0;
}

/*
 * The weak model's store buffer is not FIFO: an entry may leave before
 * older ones, unless an older one overlaps it, it is a release store (it
 * leaves only as the oldest), or a write barrier (smp_wmb(), smp_mb())
 * separates it from an older one.
 */
static int flushable(int cpu, int i)
{
	struct sbentry *e = &sb[cpu].e[i];

	if (cfg.model == TSO)
		return i == 0;
	return may_pass(cpu, i, e->off, e->size, e->bar, e->release);
}

static void flush_one(int cpu, int i)
{
	struct sbentry e = sb[cpu].e[i];

	if (cfg.model == WEAK)
		hist_append(cpu, e.off, e.size, e.val, e.bar, e.relobs, e.release,
			    e.src);
	else
		mem_write(e.off, e.size, e.val, e.src);
	memmove(&sb[cpu].e[i], &sb[cpu].e[i + 1],
		(sb[cpu].n - i - 1) * sizeof(e));
	sb[cpu].n--;
}

/* ---- the entry points for compiled code ------------------------------- */

static void harvest(struct task *t)
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

static u64 rmw_apply(int op, u64 old, u64 a, u64 b, int size, int *store)
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

static void check_tails(void);

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
static unsigned long audit_used;
static u32 put_off;
static u8 put_size;
static u64 audit_hash = 14695981039346656037ULL;

static const char *loc_name(u32 off, char *buf, size_t n);

static void audit_scan(struct task *t, const void *pc)
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

static void audit_event(const struct event *e)
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
static void commit_reads(struct task *t)
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
static u64 sim_access(struct op *op)
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

static void fence(int kind, const void *pc)
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

/*
 * A spin that gives up after a number of rounds, as a paravirt waiter
 * does before it halts (the shim's SPIN_THRESHOLD calls it with 1 as the
 * loop starts; its pv_wait() with 0): its next cpu_relax() is a timed
 * await, which may end whether or not what it read has changed.
 */
static int await_ready(struct task *t);

void vc_spin_bound(int on)
{
	if (!cur)
		return;
	cur->spin_bound = on;
	if (cfg.cost_end) {
		cur->bounded = on;
		cur->bound_pc = NULL;
		cur->bound_end = cur->clock + cfg.spin;
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
	return cfg.cost_end ? 256 : 1;
}

static long spurious_taken;	/* spurious wake-ups taken, all executions */

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
	if (cfg.cost_end) {
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

/* ---- the simulated CPUs' program -------------------------------------- */

/*
 * The cost model's hold and work times: uniform from half to one and a
 * half times the mean, from the CPU's own fixed sequence, so that CPUs do
 * not arrive in lock-step (a real machine's work is never that exact) and
 * the same command gives the same result.
 */
static u64 vary(struct task *t, u64 mean)
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
static u64 handover_stalls, holder_preempted, last_release;

/*
 * The cost model's waits and sockets: each acquisition's wait (cycles
 * from asking for the lock to holding it), how many acquisitions took
 * the lock into another socket than its last holder's, that socket.
 */
static u64 *waits;
static size_t nwaits, waits_size;
static u64 lock_moves;
static int lock_socket;

static void cost_acquired(const struct task *t, u64 asked)
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
 * -k: data in the lock's own line, its last 16 bytes (a nested level's
 * lock in a search; the cost model has one level).
 */
static int *lock_line_data(void)
{
	return (int *)(arena + LOCKS_OFF + COST_LINE - 16);
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

	if (cfg.cost_end) {
		/*
		 * The cost model: take the lock until the simulated time is
		 * up; the critical section updates its data, in a line of its
		 * own, and then holds the lock for -H cycles; -W cycles of
		 * other work follow the unlock.
		 */
		while (t->clock < cfg.cost_end) {
			u64 asked = t->clock;
			int w;

			vc_api_lock(l);
			cost_acquired(t, asked);
			handover_stalls += t->resumed > last_release;
			t->holding = 1;
			if (!cfg.lock_line_writes)
				vc_api_cost_section(&vc_vars()->x);
			for (w = 0; w < cfg.lock_line_writes; w++)
				vc_api_cost_section(lock_line_data());
			t->clock += vary(t, cfg.hold);
			vc_api_unlock(l);
			t->holding = 0;
			last_release = t->clock;
			audit_scan(t, NULL);
			harvest(t);
			t->done_acq++;
			t->clock += vary(t, cfg.work);
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

static void task_init(struct task *t)
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
	t->clock = cfg.cost_end ? vary(t, cfg.transfer + cfg.work) : 0;
	t->reread = 0;
	t->nwoken = 0;
	t->pend_rf = 0;
	t->pend_n = 0;
	memset(&t->op, 0, sizeof(t->op));
}

static void run(struct task *t)
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

/* ---- processes: tasks, then one store buffer per CPU ------------------ */

static inline int is_flusher(int p)
{
	return p >= ntasks;
}

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

static int await_ready(struct task *t)
{
	int i;

	for (i = 0; i < t->op.nr; i++)
		if (model_load(t->cpu, t->op.r[i].off, t->op.r[i].size) !=
		    t->read_val[i])
			return 1;
	return 0;
}

static int enabled(int p)
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

struct dnode {
	u64 enabled, backtrack, done, sleep;
	int chosen;
	int pre;	/* preemptions before this state */
	int last;	/* who ran the event before it, if still enabled; or -1 */
	int alt, nalt;	/* the outcome of the chosen event, and how many */
	struct op next[DPOR_PROCS];
};

static struct dnode *stk;
static u32 pclock[MAX_PROCS][DPOR_PROCS];
static int pseq[MAX_PROCS];
static int dpor;	/* exhaustive mode: keep clocks and backtrack sets */

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

/* ---- the cost model's clocks (cost.h) ---------------------------------- */

/* Misses by region: the lock's line, the critical section's data, the nodes. */
enum { R_LOCK, R_DATA, R_NODE };
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
static void cost_charge(int p, const struct op *op)
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
		t->clock = booked(t->cpu, line, 1, t->clock, cfg.atomic);
		break;
	case OP_FENCE:
		t->clock += cfg.fence;
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
		if (cfg.by_completion)	/* -Z: at once, ahead of the line's queue */
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
				 t->clock, op->kind == OP_RMW ? cfg.atomic : 0);
	case OP_FENCE:
		return t->clock + cfg.fence;
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
static void cost_host_after(int p)
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
static int cost_pick(void)
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
			req[i] = !cfg.by_completion && host_running(i) &&
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
	if (cfg.cost_end)
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
	if (cfg.cost_end && e->op.kind == OP_RMW && e->op.rmw == R_CAS &&
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

enum result { X_PASS, X_FAIL, X_SLEEP };

static int preemptions;

static u64 rng_state;

static u64 rng(void)
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


static enum result execute(int prefix)
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
		if (cfg.cost_end) {
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
	if (cfg.cost_end) {
		/* the end: the lock free, no update of the data lost */
		int *data = cfg.lock_line_writes ? lock_line_data() : &vc_vars()->x;
		u32 n = get(mem, off_of(data), 4), want = 0;

		for (i = 0; i < ntasks; i++)
			want += tasks[i].done_acq;
		want *= cfg.lock_line_writes ? cfg.lock_line_writes : 1;
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

/* ---- the trace -------------------------------------------------------- */

static const char *proc_name(int p, char *buf, size_t n)
{
	static const char *const ctx[] = { "", "/softirq", "/hardirq", "/nmi" };

	if (is_flusher(p))
		snprintf(buf, n, "CPU%d sb", p - ntasks);
	else
		snprintf(buf, n, "CPU%d%s", tasks[p].cpu, ctx[tasks[p].level]);
	return buf;
}

static const char *loc_name(u32 off, char *buf, size_t n)
{
	static const char *const var_name[] = { "x", "y", "z", "buf", "flag" };
	const struct vc_layout *q = &vc_layout;

	if (off >= VARS_OFF && off < VARS_OFF + VC_VARS_BYTES) {
		u32 i = (off - VARS_OFF) / sizeof(int);

		if (cfg.litmus && cfg.litmus->var_names)
			snprintf(buf, n, "%s", cfg.litmus->var_names[i]);
		else if (i < ARRAY_SIZE(var_name))
			snprintf(buf, n, "%s", var_name[i]);
		else
			snprintf(buf, n, "var%u", i);
	} else if (off < PCPU_OFF) {
		int l = off / sizeof(struct vc_lockref);
		u32 r = off % sizeof(struct vc_lockref);

		if (r < 4)
			snprintf(buf, n, "lock%d%s", l,
				 r == 0 ? "" : r == 1 ? "+1" : r == 2 ? "+2" : "+3");
		else if (r < 8)
			snprintf(buf, n, "count%d", l);
		else
			snprintf(buf, n, "owner%d", l);
		if (r == 0 && cfg.levels == 1 && !cfg.litmus)
			snprintf(buf, n, "lock");
	} else if (pv_hash_bytes && off >= ARENA_SIZE - pv_hash_bytes) {
		/* pv_lock_hash[]: entries of a lock pointer and a node pointer */
		u32 r = off - (ARENA_SIZE - pv_hash_bytes), e = 2 * sizeof(void *);

		snprintf(buf, n, "hash[%u].%s", r / e,
			 r % e == 0 ? "lock" : r % e == sizeof(void *) ? "node" : "?");
	} else {
		u32 c = (off - PCPU_OFF) / pcpu_size;
		u32 r = (off - PCPU_OFF) % pcpu_size;
		u32 i = r / q->node_size, f = r % q->node_size;

		snprintf(buf, n, "node%u.%u%s", c, i,
			 f == 0 ? ".next" : f == q->node_count_offset ? ".count" :
			 f == 8 ? ".locked" : "+?");
	}
	return buf;
}

static void word_str(u32 w, char *buf, size_t n)
{
	const struct vc_layout *q = &vc_layout;
	u32 tail = q->queued ? w >> q->tail_idx_offset : 0;

	if (!q->queued)
		snprintf(buf, n, "%#x", w);
	else if (tail)
		snprintf(buf, n, "(%u.%u,%u,%u)", (w >> q->tail_cpu_offset) - 1,
			 (w & q->tail_idx_mask) >> q->tail_idx_offset,
			 !!(w & q->pending_mask), w & q->locked_mask);
	else
		snprintf(buf, n, "(0,%u,%u)", !!(w & q->pending_mask),
			 w & q->locked_mask);
}

/*
 * Function and file:line of a call site: the innermost inlined frame that
 * is not one of the checker's headers or the shared shim's (common/checker/shim).
 */
static int shim_file(const char *path)
{
	return strstr(path, "common/checker/include/") ||
	       strstr(path, "common/checker/shim/include/");
}

static void where(const void *pc, char *buf, size_t n)
{
	char cmd[600], fn[200], loc[400];
	FILE *f;
	int found = 0;

	snprintf(buf, n, "?");
	if (!pc)
		return;
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e '%s' %p 2>/dev/null", cfg.self,
		 (const void *)((const char *)pc - 1));
	f = popen(cmd, "r");
	if (!f)
		return;
	while (!found && fgets(fn, sizeof(fn), f) && fgets(loc, sizeof(loc), f)) {
		const char *file;
		char *sp;

		fn[strcspn(fn, "\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		sp = strchr(loc, ' ');
		if (sp)
			*sp = 0;
		if (shim_file(loc))
			continue;
		file = strstr(loc, "/tree/");
		if (file)
			file += strlen("/tree/");
		else
			file = strrchr(loc, '/') ? strrchr(loc, '/') + 1 : loc;
		snprintf(buf, n, "%.80s %.110s", fn, file);
		found = 1;
	}
	pclose(f);
}

/*
 * A value as a trace shows it: a pointer into the modelled memory by what
 * it points at ("&node3.0" for a node, as in node->next), so that a trace
 * does not depend on where the binary put its arena; any other in hex.
 */
static const char *value_str(u64 v, char *buf, size_t n)
{
	uintptr_t base = (uintptr_t)arena;
	char a[40];

	if (v >= base && v < base + ARENA_SIZE) {
		u32 off = v - base;

		if (off >= PCPU_OFF && (off - PCPU_OFF) % pcpu_size % vc_layout.node_size == 0)
			snprintf(buf, n, "&node%u.%u", (unsigned int)((off - PCPU_OFF) / pcpu_size),
				 (unsigned int)((off - PCPU_OFF) % pcpu_size / vc_layout.node_size));
		else
			snprintf(buf, n, "&%s", loc_name(off, a, sizeof(a)));
	} else {
		snprintf(buf, n, "%#llx", (unsigned long long)v);
	}
	return buf;
}

static void op_str(const struct event *e, char *buf, size_t n)
{
	static const char *const fence_name[] = { "smp_mb()", "smp_rmb()", "smp_wmb()" };
	const struct op *o = &e->op;
	char a[40], b[40], v[40], x[40], y[40];
	const char *ord = o->mo == MO_ACQUIRE ? "-acquire" :
			  o->mo == MO_RELEASE ? "-release" : "";
	int i;

	switch (o->kind) {
	case OP_READ:
		snprintf(buf, n, "load%s %s = %s", ord, loc_name(o->off, a, sizeof(a)),
			 value_str(e->value, v, sizeof(v)));
		if (e->stale)
			snprintf(buf + strlen(buf), n - strlen(buf),
				 " (an old value: %d newer)", e->stale);
		break;
	case OP_WRITE:
		snprintf(buf, n, "store%s %s <- %s%s", ord,
			 loc_name(o->off, a, sizeof(a)),
			 value_str(e->value, v, sizeof(v)),
			 e->buffered ? " (to its store buffer)" : "");
		break;
	case OP_RMW:
		if (o->rmw == R_CAS)
			snprintf(buf, n, "cmpxchg%s %s %s -> %s: found %s%s", ord,
				 loc_name(o->off, a, sizeof(a)), value_str(o->a, x, sizeof(x)),
				 value_str(o->b, y, sizeof(y)), value_str(e->value, v, sizeof(v)),
				 e->value == o->a ? "" : ", fails");
		else
			snprintf(buf, n, "%s%s %s, %s: found %s", rmw_name[o->rmw],
				 ord, loc_name(o->off, a, sizeof(a)),
				 value_str(o->a, x, sizeof(x)), value_str(e->value, v, sizeof(v)));
		break;
	case OP_FENCE:
		snprintf(buf, n, "%s", fence_name[o->rmw]);
		break;
	case OP_AWAIT:
		b[0] = 0;
		for (i = 0; i < o->nr; i++) {
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s",
				 i ? ", " : "", loc_name(o->r[i].off, a, sizeof(a)));
		}
		snprintf(buf, n, o->timed ? "cpu_relax(): the bounded spin on %s goes on or ends" :
			 "cpu_relax(): %s changed, spin again", b);
		break;
	case OP_IRQ:
		snprintf(buf, n, "interrupt: a nested lock and unlock");
		break;
	case OP_FLUSH:
		snprintf(buf, n, "%s <- %s leaves the store buffer",
			 loc_name(o->off, a, sizeof(a)), value_str(e->value, v, sizeof(v)));
		break;
	default:
		snprintf(buf, n, "?");
	}
}

static void print_trace(void)
{
	char who[32], what[160], fn[200], w[40];
	int i, l;

	printf("| # | CPU | operation | in | word%s |\n", cfg.levels > 1 ? "s" : "");
	printf("|---|---|---|---|---|\n");
	for (i = 0; i < nev; i++) {
		struct event *e = &ev[i];

		proc_name(e->proc, who, sizeof(who));
		op_str(e, what, sizeof(what));
		if (is_flusher(e->proc))
			snprintf(fn, sizeof(fn), "(memory)");
		else
			where(e->op.pc, fn, sizeof(fn));
		printf("| %d | %s | %s | %s | ", i + 1, who, what, fn);
		for (l = 0; l < cfg.levels; l++) {
			word_str(e->word[l], w, sizeof(w));
			printf("%s%s", l ? " " : "", w);
		}
		printf(" |\n");
	}
}

/*
 * A schedule: who ran each event, "P:A" when the event took its outcome A
 * (not the first), "PxK" for K events in a row of P's first outcomes.
 */
static void print_sched(const int *s, const int *alt, int n, FILE *f)
{
	int i = 0;

	while (i < n) {
		int j = i;

		if (alt[i]) {
			fprintf(f, "%s%d:%d", i ? "," : "", s[i], alt[i]);
			i++;
			continue;
		}
		while (j < n && s[j] == s[i] && !alt[j])
			j++;
		fprintf(f, "%s%d", i ? "," : "", s[i]);
		if (j - i > 1)
			fprintf(f, "x%d", j - i);
		i = j;
	}
}

static int parse_sched(const char *s, int **out, int **alts)
{
	int *v = calloc(MAX_EVENTS, sizeof(int)), *w = calloc(MAX_EVENTS, sizeof(int));
	int n = 0;

	while (*s) {
		char *end;
		long p = strtol(s, &end, 10), k = 1, a = 0;

		if (end == s || p < 0)
			return -1;
		if (*end == ':') {
			a = strtol(end + 1, &end, 10);
			if (a < 0)
				return -1;
		} else if (*end == 'x') {
			k = strtol(end + 1, &end, 10);
		}
		while (k-- > 0 && n < MAX_EVENTS) {
			w[n] = a;
			v[n++] = p;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	*out = v;
	*alts = w;
	return n;
}

/* ---- driver ------------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "verify: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: verify [-m sc|tso|weak] [-c CPUS] [-a ACQS] [-n LEVELS] [-i IRQ_ACQS]\n"
		"              [-l LOCKREF_CPUS] [-b PREEMPTIONS] [-w REORDERINGS] [-S SPURIOUS] [-x MAX_EXECS]\n"
		"              [-p PCT_DEPTH -s SEED] [-r SCHEDULE] [-N NAME] [-L LITMUS_TEST|list] [-A POISON]\n"
		"       verify -T CYCLES [-c CPUS] [-C TRANSFER] [-O READ_OCCUPANCY%%] [-J HIT] [-F FENCE]\n"
		"              [-G ATOMIC] [-H HOLD] [-W WORK] [-s SEED] [-Z] [-N NAME]: the cost model\n"
		"              [-D SOCKETS [-X CROSS]] [-k LOCK_LINE_WRITES]: sockets, data in the lock's line\n"
		"              [-P HOST_CORES [-Q SLICE] [-K WAKE]] [-B SPIN]: vCPUs on fewer cores (host.h)\n");
	exit(2);
}

static long num(const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		fprintf(stderr, "verify: %s must be %ld..%ld, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

/*
 * -L list: the project's own tests and what each model must answer, one
 * tab-separated row a test under a header naming the columns, for the
 * scripts (tsv_columns in lib.sh).  A test without a kind or an answer
 * for every model is an error: each test carries its expectations.
 */
static void list_litmus(void)
{
	int i, m, bad = 0;

	_Static_assert(ARRAY_SIZE(model_name) == VC_MODELS, "a model without its litmus answers");
	printf("name\tkind");
	for (m = 0; m < VC_MODELS; m++)
		printf("\t%s", model_name[m]);
	printf("\tnote\n");
	for (i = 0; vc_litmus_tests[i].name; i++) {
		const struct vc_litmus *t = &vc_litmus_tests[i];

		if (!t->kind || (strcmp(t->kind, "plain") && strcmp(t->kind, "lock"))) {
			fprintf(stderr, "verify: litmus test %s: kind is not plain or lock\n", t->name);
			bad = 1;
		}
		for (m = 0; m < VC_MODELS; m++)
			if (!t->expect[m] || (strcmp(t->expect[m], "never") &&
					      strcmp(t->expect[m], "reachable"))) {
				fprintf(stderr, "verify: litmus test %s: no answer (never or reachable) under %s\n",
					t->name, model_name[m]);
				bad = 1;
			}
		printf("%s\t%s", t->name, t->kind ? t->kind : "-");
		for (m = 0; m < VC_MODELS; m++)
			printf("\t%s", t->expect[m] ? t->expect[m] : "-");
		printf("\t%s\n", t->note ? t->note : "");
	}
	exit(bad ? 2 : 0);
}

/* -L NAME: the project's own tests (litmus.c), then the LKMM suite's. */
static const struct vc_litmus *find_litmus(const char *name)
{
	const struct vc_litmus *const tables[] = { vc_litmus_tests, vc_lkmm_tests };
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(tables); k++)
		for (i = 0; tables[k] && tables[k][i].name; i++)
			if (!strcmp(name, tables[k][i].name))
				return &tables[k][i];
	fprintf(stderr, "verify: unknown litmus test '%s'; valid:", name);
	for (k = 0; k < ARRAY_SIZE(tables); k++)
		for (i = 0; tables[k] && tables[k][i].name; i++)
			fprintf(stderr, " %s", tables[k][i].name);
	fprintf(stderr, "\n");
	exit(2);
}

/*
 * A complete execution: its behaviour (reads-from, coherence and the
 * final state) and its final state, each into its set.  The final state is
 * the modelled memory in use and a litmus test's registers.
 */
static void count_behaviour(void)
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

struct best {
	int set;	/* a failure or hit was recorded, maybe at event 0 */
	int n, pre, hit;
	int sched[MAX_EVENTS], alt[MAX_EVENTS];
	char msg[512];
};

static void record(struct best *b)
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

static void config_str(char *buf, size_t n)
{
	snprintf(buf, n, "%d CPUs x %d", cfg.cpus, cfg.acq);
	if (cfg.levels > 1)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d nested level%s x %d",
			 cfg.levels - 1, cfg.levels > 2 ? "s" : "", cfg.irq_acq);
	if (cfg.lockref)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d lockref user%s",
			 cfg.lockref, cfg.lockref > 1 ? "s" : "");
	if (cfg.trylock)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d trylock user%s",
			 cfg.trylock, cfg.trylock > 1 ? "s" : "");
	if (cfg.observers)
		snprintf(buf + strlen(buf), n - strlen(buf), ", %d observer%s",
			 cfg.observers, cfg.observers > 1 ? "s" : "");
	if (!cfg.pct && cfg.bound < 1000)
		snprintf(buf + strlen(buf), n - strlen(buf), ", <= %d preemptions",
			 cfg.bound);
	if (cfg.spurious)
		snprintf(buf + strlen(buf), n - strlen(buf), ", <= %d spurious wake-up%s a CPU",
			 cfg.spurious, cfg.spurious > 1 ? "s" : "");
	if (cfg.pct)
		snprintf(buf + strlen(buf), n - strlen(buf), ", PCT depth %d seed %llu",
			 cfg.pct, (unsigned long long)cfg.seed);
}

static void report_failure(struct best *b, long execs, double secs, const char *conf)
{
	/* one more: an empty trace must still be a replay, not NULL */
	int *s = malloc((b->n + 1) * sizeof(int));

	if (b->hit)
		printf("litmus %s %s: reachable: the exists clause holds after execution %ld (%d events; %.1f s)\n",
		       cfg.name, model_name[cfg.model], execs, b->n, secs);
	else
		printf("verify %s %s [%s]: FAIL: %s (execution %ld, %d events, %d preemptions; %.1f s)\n",
		       cfg.name, model_name[cfg.model], conf, b->msg, execs, b->n,
		       b->pre, secs);
	memcpy(s, b->sched, b->n * sizeof(int));
	replay_sched = s;
	replay_alt = b->alt;
	replay_len = b->n;
	dpor = 0;
	execute(0);
	print_trace();
	if (cfg.litmus)
		printf("replay: %s -m %s -L %s -r ", cfg.self, model_name[cfg.model],
		       cfg.name);
	else
		printf("replay: %s -m %s -c %d -a %d -n %d -i %d -l %d -t %d -o %d -N %s -r ",
		       cfg.self, model_name[cfg.model], cfg.cpus, cfg.acq, cfg.levels,
		       cfg.irq_acq, cfg.lockref, cfg.trylock, cfg.observers, cfg.name);
	if (b->n)
		print_sched(s, b->alt, b->n, stdout);
	else
		printf("''");	/* failed before its first event */
	printf("\n");
}

/*
 * -T: one execution under the cost model, on the sequentially consistent
 * memory (the costs are the caches', not the order's), then one line of
 * key=value results for common/costmodel/sim.sh.
 */
static int cost_run(void)
{
	struct cost_params params;
	u64 acq = 0, lo = ~0ULL, hi = 0, end = 0;
	int i;

	if (cfg.model != SC || cfg.levels != 1 || cfg.lockref || cfg.pct || cfg.litmus ||
	    cfg.audit) {
		fprintf(stderr, "verify: -T (the cost model) runs alone: no -m, -n, -l, -p, -L or -A\n");
		return 2;
	}
	if (cfg.cores > cfg.cpus) {
		fprintf(stderr, "verify: -P %d host cores for %d vCPUs: at most one core a vCPU\n",
			cfg.cores, cfg.cpus);
		return 2;
	}
	for (i = 0; i < ntasks; i++)
		if (tasks[i].cpu != i)
			abort();	/* the host's vCPU i is task i */
	if (cfg.sockets > cfg.cpus || cfg.cpus % cfg.sockets) {
		fprintf(stderr, "verify: -D %d sockets for %d CPUs: the sockets must divide the CPUs; valid:",
			cfg.sockets, cfg.cpus);
		for (i = 1; i <= 8 && i <= cfg.cpus; i++)
			if (cfg.cpus % i == 0)
				fprintf(stderr, " %d", i);
		fprintf(stderr, "\n");
		return 2;
	}
	params.transfer = cfg.transfer;
	params.read_occupancy = cfg.read_occupancy;
	params.hit = cfg.hit;
	params.cpus = cfg.cpus;
	params.sockets = cfg.sockets;
	params.cross = cfg.cross ? cfg.cross : COST_CROSS_FACTOR * cfg.transfer;
	cost_reset(ARENA_SIZE / COST_LINE, &params);
	/* a CPU's own lines (its nodes, its per-CPU data) in its socket's memory */
	for (i = 0; i < cfg.cpus && pcpu_size; i++) {
		unsigned int a = (PCPU_OFF + i * pcpu_size) / COST_LINE;
		unsigned int b = (PCPU_OFF + (i + 1) * pcpu_size - 1) / COST_LINE;

		while (a <= b)
			cost_home(a++, cost_socket(i));
	}
	host_reset(cfg.cpus, cfg.cores, cfg.slice, cfg.wake);
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
	       cfg.name, cfg.cpus, (unsigned long long)cfg.transfer, cfg.read_occupancy,
	       (unsigned long long)cfg.hit, (unsigned long long)cfg.fence,
	       (unsigned long long)cfg.atomic,
	       (unsigned long long)cfg.hold, (unsigned long long)cfg.work,
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
	       cfg.sockets, (unsigned long long)params.cross,
	       (unsigned long long)cost_stats.remote, (unsigned long long)lock_moves,
	       cfg.lock_line_writes, (unsigned long long)percentile(50),
	       (unsigned long long)percentile(99),
	       (unsigned long long)(nwaits ? waits[nwaits - 1] : 0));
	for (i = 0; vc_lock_counter_names && vc_lock_counter_names[i]; i++)
		printf(" lock.%s=%lu", vc_lock_counter_names[i], vc_lock_counters[i]);
	printf("\n");
	if (host_on())
		printf("cost %s: host cores=%d slice=%llu wake=%llu spin=%llu preemptions=%llu halts=%llu wakes=%llu wake_preemptions=%llu idle=%llu stalls=%llu holder_preempted=%llu\n",
		       cfg.name, cfg.cores, (unsigned long long)cfg.slice,
		       (unsigned long long)cfg.wake, (unsigned long long)cfg.spin,
		       (unsigned long long)host_stats.preemptions,
		       (unsigned long long)host_stats.halts, (unsigned long long)host_stats.wakes,
		       (unsigned long long)host_stats.wake_preemptions,
		       (unsigned long long)host_stats.idle,
		       (unsigned long long)handover_stalls,
		       (unsigned long long)holder_preempted);
	return 0;
}

int main(int argc, char **argv)
{
	static struct best best;
	char conf[128];
	long execs = 0, sleeps = 0, fails = 0, since = 0, first_fail = 0;
	int opt, i, exhausted = 0;
	double t0;

	cfg.self = argv[0];
	cfg.name = "lock";
	cfg.transfer = 100;
	cfg.read_occupancy = COST_READ_OCCUPANCY;
	cfg.hit = 1;
	cfg.fence = COST_FENCE;
	cfg.atomic = COST_ATOMIC;
	cfg.sockets = 1;
	cfg.slice = 500000;
	cfg.wake = 10000;
	cfg.spin = 40000;
	while ((opt = getopt(argc, argv, "m:c:a:n:i:l:t:o:x:p:s:r:N:qM:b:w:S:L:A:T:C:O:J:F:G:ZD:X:k:H:W:P:Q:K:B:ER")) != -1) {
		switch (opt) {
		case 'E':
			cfg.enumerate = 1;
			break;
		case 'R':
			cfg.reference = 1;
			break;
		case 'm':
			for (i = 0; i < 3 && strcmp(optarg, model_name[i]); i++)
				;
			if (i == 3)
				usage("unknown model '%s' (valid: sc, tso, weak)", optarg);
			cfg.model = i;
			break;
		case 'c':
			cfg.cpus = num(optarg, 1, MAX_CPUS, "-c (CPUs)");
			break;
		case 'a':
			cfg.acq = num(optarg, 1, 100, "-a (acquisitions per CPU)");
			break;
		case 'n':
			cfg.levels = num(optarg, 1, MAX_LEVELS, "-n (context levels)");
			break;
		case 'i':
			cfg.irq_acq = num(optarg, 1, 10, "-i (acquisitions per nested level)");
			break;
		case 'l':
			cfg.lockref = num(optarg, 0, MAX_CPUS, "-l (lockref CPUs)");
			break;
		case 't':
			cfg.trylock = num(optarg, 0, MAX_CPUS, "-t (trylock CPUs)");
			break;
		case 'o':
			cfg.observers = num(optarg, 0, MAX_CPUS, "-o (observer CPUs)");
			break;
		case 'x':
			cfg.max_execs = num(optarg, 1, 1000000000, "-x (executions)");
			break;
		case 'p':
			cfg.pct = num(optarg, 1, 16, "-p (PCT depth)");
			break;
		case 's':
			cfg.seed = num(optarg, 0, 1L << 62, "-s (seed)");
			break;
		case 'r':
			cfg.replay = optarg;
			break;
		case 'N':
			cfg.name = optarg;
			break;
		case 'q':
			cfg.quiet = 1;
			break;
		case 'b':
			cfg.bound = num(optarg, 0, 1000, "-b (preemption bound)");
			break;
		case 'w':
			cfg.reorder_bound = num(optarg, 0, 1000, "-w (reordering bound)");
			break;
		case 'S':
			cfg.spurious = num(optarg, 0, 100, "-S (spurious wake-ups per CPU)");
			break;
		case 'A':
			cfg.audit = strcmp(optarg, "none") ? num(optarg, 1, 255,
				"-A (audit poison byte, or none)") : -1;
			break;
		case 'L':
			if (!strcmp(optarg, "list"))
				list_litmus();
			cfg.litmus = find_litmus(optarg);
			break;
		case 'T':
			cfg.cost_end = num(optarg, 1, 100000000, "-T (cycles to simulate)");
			break;
		case 'C':
			cfg.transfer = num(optarg, 1, 100000, "-C (cycles of a cache-line transfer)");
			break;
		case 'O':
			cfg.read_occupancy = num(optarg, 1, 100, "-O (percent of a transfer a read miss keeps its line)");
			break;
		case 'J':
			cfg.hit = num(optarg, 1, 1000, "-J (cycles of a hit)");
			break;
		case 'F':
			cfg.fence = num(optarg, 0, 1000, "-F (cycles of a fence)");
			break;
		case 'G':
			cfg.atomic = num(optarg, 0, 1000, "-G (cycles a locked RMW adds)");
			break;
		case 'Z':
			cfg.by_completion = 1;
			break;
		case 'D':
			cfg.sockets = num(optarg, 1, 8, "-D (sockets)");
			break;
		case 'X':
			cfg.cross = num(optarg, 1, 100000, "-X (cycles of a transfer between sockets)");
			break;
		case 'k':
			cfg.lock_line_writes = num(optarg, 0, 64, "-k (writes to the lock's line in the critical section)");
			break;
		case 'H':
			cfg.hold = num(optarg, 0, 1000000, "-H (cycles inside the critical section)");
			break;
		case 'W':
			cfg.work = num(optarg, 0, 1000000, "-W (cycles between unlock and lock)");
			break;
		case 'P':
			cfg.cores = num(optarg, 1, 64, "-P (host cores the vCPUs share)");
			break;
		case 'Q':
			cfg.slice = num(optarg, 1, 1000000000, "-Q (cycles of a host slice)");
			break;
		case 'K':
			cfg.wake = num(optarg, 0, 1000000000, "-K (cycles from a kick to its vCPU running)");
			break;
		case 'B':
			cfg.spin = num(optarg, 0, 1000000000, "-B (cycles of a bounded spin)");
			break;
		case 'M':
			cfg.min_budget = num(optarg, 0, 100000000, "-M (minimisation budget)");
			break;
		default:
			usage("unknown option%s", "");
		}
	}
	if (optind < argc)
		usage("unexpected argument '%s'", argv[optind]);
	if (cfg.lockref + cfg.trylock + cfg.observers > cfg.cpus)
		usage("-l, -t and -o (lockref, trylock and observer CPUs) cannot exceed -c (CPUs)%s", "");
	if (cfg.observers && cfg.levels > 1)
		usage("-o (observers) runs without nested levels (-n 1)%s", "");
	if (cfg.observers && cfg.model == WEAK)
		usage("-o (observers) asks in real time: under SC and TSO only%s", "");
	if (cfg.litmus) {
		/* one context per thread, the first outcome found is the answer */
		cfg.cpus = cfg.litmus->threads;
		cfg.acq = 1;
		cfg.levels = 1;
		cfg.lockref = 0;
		cfg.trylock = 0;
		cfg.observers = 0;
		cfg.minimise = 0;
		cfg.name = cfg.litmus->name;
	}

	pcpu_size = (__stop_lab_percpu - __start_lab_percpu + 63) & ~63UL;
	if (PCPU_OFF + cfg.cpus * pcpu_size > ARENA_SIZE - pv_hash_bytes) {
		fprintf(stderr, "verify: %d CPUs' per-CPU data (%lu bytes each) do not fit the modelled memory\n",
			cfg.cpus, pcpu_size);
		return 2;
	}
	audit_used = PCPU_OFF + cfg.cpus * pcpu_size;
	ntasks = cfg.cpus * cfg.levels;
	nprocs = ntasks + (cfg.model == SC ? 0 : cfg.cpus);
	if (cfg.reference)
		cfg.enumerate = 1;
	if (cfg.enumerate)
		cfg.minimise = 0;
	for (i = 0; i < ntasks; i++) {
		tasks[i].id = i;
		tasks[i].cpu = i / cfg.levels;
		tasks[i].level = i % cfg.levels;
		tasks[i].stack = aligned_alloc(64, STACK_SIZE);
	}
	config_str(conf, sizeof(conf));

	if (cfg.cost_end)
		return cost_run();
	if (cfg.sockets != 1 || cfg.cross || cfg.lock_line_writes)
		usage("%s", "-D, -X and -k are the cost model's (-T)");

	if (cfg.replay) {
		int *s, *a, n = parse_sched(cfg.replay, &s, &a);

		if (n < 0)
			usage("bad schedule '%s' (a list like 0x12,1,0:2,0x3)", cfg.replay);
		replay_sched = s;
		replay_alt = a;
		replay_len = n;
		if (execute(0) == X_FAIL) {
			printf("verify %s %s [%s]: FAIL: %s (replayed, %d events)\n", cfg.name,
			       model_name[cfg.model], conf, fail_msg, nev);
			print_trace();
			return 1;
		}
		printf("verify %s %s [%s]: PASS (replayed, %d events)\n", cfg.name,
		       model_name[cfg.model], conf, nev);
		print_trace();
		return 0;
	}

	dpor = !cfg.pct;
	if (dpor && nprocs > DPOR_PROCS) {
		fprintf(stderr, "verify: %d processes (CPU contexts and store buffers) are too many for the exhaustive search (at most %d); use -p for PCT\n",
			nprocs, DPOR_PROCS);
		return 2;
	}
	if (dpor)
		stk = calloc(MAX_EVENTS, sizeof(*stk));
	rng_state = cfg.seed * 2654435761ULL + 88172645463325252ULL;
	t0 = now();
	if (dpor) {
		int prefix = 0;

		for (;;) {
			enum result r = execute(prefix);
			int d;

			execs++;
			if (r == X_SLEEP)
				sleeps++;
			else if (r == X_PASS || litmus_hit)
				count_behaviour();
			if (r == X_FAIL) {
				if (!fails++)
					first_fail = execs;
				record(&best);
			}
			if (best.set && !cfg.enumerate &&
			    (!cfg.minimise || ++since > cfg.min_budget))
				break;
			if (!cfg.quiet && execs % 100000 == 0)
				fprintf(stderr, "verify %s %s: %ld executions, %.0f s\n",
					cfg.name, model_name[cfg.model], execs, now() - t0);
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
				exhausted = 1;
				break;
			}
			prefix = d + 1;
			if (execs >= cfg.max_execs)
				break;
		}
	} else {
		for (execs = 0; execs < cfg.max_execs; ) {
			enum result r = execute(0);

			execs++;
			if (r == X_PASS || litmus_hit)
				count_behaviour();
			if (r == X_FAIL) {
				fails++;
				first_fail = execs;
				record(&best);
				break;
			}
		}
	}
	{
		double secs = now() - t0;
		int was_dpor = dpor;
		const char *verdict;
		int rc;

		if (cfg.audit)
			printf("audit: poison %#x, %ld executions, event hash %016llx\n",
			       cfg.audit > 0 ? cfg.audit : 0, execs,
			       (unsigned long long)audit_hash);
		if (best.set) {
			report_failure(&best, first_fail ? first_fail : execs, secs, conf);
			verdict = best.hit ? "reachable" : "FAIL";
			rc = best.hit ? 0 : 1;
		} else if (cfg.litmus) {
			printf("litmus %s %s: %s: %ld executions%s in %.1f s\n", cfg.name,
			       model_name[cfg.model], exhausted ? "never" : "not found",
			       execs, exhausted ? ", every one (exhausted)" :
			       ", NOT exhausted (budget -x)", secs);
			verdict = exhausted ? "never" : "not-found";
			rc = exhausted ? 0 : 3;
		} else {
			char spur[64] = "";

			if (cfg.spurious)
				snprintf(spur, sizeof(spur), "; %ld spurious wake-ups", spurious_taken);
			printf("verify %s %s [%s]: PASS: %ld executions%s in %.1f s (%.0f/s; %ld cut short by sleep sets or the bound%s)\n",
			       cfg.name, model_name[cfg.model], conf, execs,
			       dpor ? (exhausted ? ", every one (exhausted)" :
				       ", NOT exhausted (budget -x)") : " (PCT)",
			       secs, execs / (secs > 0 ? secs : 1e-9), sleeps, spur);
			verdict = "PASS";
			rc = dpor && !exhausted ? 3 : 0;
		}
		if (cfg.enumerate)
			printf("behaviours: %ld classes (digest %016llx), %ld final states (digest %016llx), %ld failing executions\n",
			       classes.n, (unsigned long long)classes.digest, states.n,
			       (unsigned long long)states.digest, fails);
		/* one line for the scripts: the sentences above are for people */
		printf("result: name=%s model=%s explorer=%s verdict=%s executions=%ld exhausted=%d cut=%ld bound=%d reorder_bound=%d classes=%ld class_digest=%016llx states=%ld state_digest=%016llx failures=%ld first_failure=%ld events=%d preemptions=%d spurious=%ld seconds=%.2f failure=%s\n",
		       cfg.name, model_name[cfg.model],
		       cfg.pct ? "pct" : cfg.reference ? "reference" : "dpor", verdict, execs,
		       was_dpor ? exhausted : 0, sleeps, cfg.bound, cfg.reorder_bound,
		       classes.n, (unsigned long long)classes.digest, states.n,
		       (unsigned long long)states.digest, fails, first_fail, best.n,
		       best.pre, spurious_taken, secs, best.set && !best.hit ? best.msg : "-");
		return rc;
	}
}
