/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock checker: a step's own compiled qspinlock.c on simulated CPUs,
 * every interleaving of a small configuration (or seeded PCT schedules of
 * a large one), under a chosen memory model.  See common/checker/README.md.
 *
 * The lock code and its users (api.c, litmus.c) are compiled with
 * -fsanitize=thread: gcc then calls __tsan_readN()/__tsan_writeN() before
 * every plain load and store and turns every __atomic builtin into a
 * __tsan_atomic*() call.  tsan.c supplies those entry points instead of
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
 *
 * This header is the checker's own, shared by its files, one per part:
 *   main.c      the command line, the configuration, the verdict lines
 *   memory.c    the modelled memory and the behaviours (reads-from keys)
 *   models.c    the memory models: SC, TSO's store buffers, the weak model
 *   tsan.c      the entry points compiled code calls, and the shim's hooks
 *   program.c   what each simulated CPU runs: lock users, litmus threads
 *   explore.c   the CPUs' contexts, one execution, DPOR and PCT searches
 *   trace.c     a failing execution as lines a person reads; schedules
 * and common/costmodel/cost-run.c, the cost model's machine (-T).
 */
#ifndef CHECKER_H
#define CHECKER_H

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

struct config {
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
};

/*
 * The cost model's parameters: the options of its own program
 * (common/costmodel/cost-main.c), read by the machine as it runs.
 */
struct cost_config {
	u64 cost_end;		/* -T: cycles to simulate; 0: a search, no cost model */
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
};

/*
 * The arena holds everything shared: the locks with their counts and
 * owners, then one copy of the per-CPU section for every simulated CPU.
 * mem[] is the model's memory (what a store that left its CPU wrote);
 * arena[] is only where compiled code reads and writes.
 */
#define ARENA_SIZE	(1 << 16)

#define LOCKS_OFF	0
#define VARS_OFF	512	/* a litmus test's variables */
#define PCPU_OFF	1024

enum kind { OP_READ, OP_WRITE, OP_RMW, OP_FENCE, OP_AWAIT, OP_IRQ, OP_END,
	    OP_FLUSH };
enum rmw { R_XCHG, R_ADD, R_SUB, R_AND, R_OR, R_XOR, R_NAND, R_CAS };
enum fence { F_MB, F_RMB, F_WMB };

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

struct sbuf {
	int n, bar;
	struct sbentry e[SBUF];
};

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

struct wview {
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
};

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

/* Sets of 64-bit keys: the distinct behaviours and final states seen. */
struct keyset {
	u64 *k;
	long n, cap;
	u64 digest;	/* a sum over the distinct keys: independent of order */
};

struct dnode {
	u64 enabled, backtrack, done, sleep;
	int chosen;
	int pre;	/* preemptions before this state */
	int last;	/* who ran the event before it, if still enabled; or -1 */
	int alt, nalt;	/* the outcome of the chosen event, and how many */
	struct op next[DPOR_PROCS];
};

/* Misses by region: the lock's line, the critical section's data, the nodes. */
enum { R_LOCK, R_DATA, R_NODE };

enum result { X_PASS, X_FAIL, X_SLEEP };

struct best {
	int set;	/* a failure or hit was recorded, maybe at event 0 */
	int n, pre, hit;
	int sched[MAX_EVENTS], alt[MAX_EVENTS];
	char msg[512];
};

/* What a search did (explore()). */
struct search {
	long execs, sleeps, fails, first_fail;
	int exhausted;
	struct best best;
};

/* ---- shared state and functions, by the file that defines them ---- */

/* main.c, common/costmodel/cost-main.c: the two programs' command lines */
extern const char *const program;

/* memory.c */
extern u8 arena[ARENA_SIZE];
extern u8 mem[ARENA_SIZE];
/* weak: a lock without per-CPU data (the ticket lock) has no section */
extern char __start_lab_percpu[] __attribute__((__weak__));
extern char __stop_lab_percpu[] __attribute__((__weak__));
extern unsigned long pcpu_size;
extern struct vc_lockref *const locks;
extern __thread int lab_cpu;
extern __thread unsigned long lab_this_cpu_off;
extern unsigned long pv_hash_bytes;
extern u32 msrc[ARENA_SIZE];
extern u32 cur_src;
extern u64 beh_key;
extern int tcount[MAX_TASKS];
extern int inside[MAX_LEVELS];
extern struct keyset classes, states;
unsigned long lab_per_cpu_offset(int cpu);
struct vc_vars *vc_vars(void);
u64 mix(u64 x);
void mem_write(u32 off, int size, u64 v, u32 src);
u64 rf_pair(u32 src, u32 where);
void keyset_add(struct keyset *s, u64 key);

/* models.c */
extern struct sbuf sb[MAX_CPUS];
extern int nhist;
extern struct wview wv[MAX_CPUS];
u64 get(const u8 *m, u32 off, int size);
void put(u8 *m, u32 off, int size, u64 v);
u64 rf_of(int cpu, u32 off, int size, int t);
u64 model_load(int cpu, u32 off, int size);
void model_store(int cpu, u32 off, int size, u64 v, int release);
u64 weak_load(struct task *t, u32 off, int size, int mo, int *stale);
u64 weak_rmw(struct task *t, const struct op *op);
int sb_overlap(int cpu, u32 off, int size);
int flushable(int cpu, int i);
void flush_one(int cpu, int i);

/* tsan.c */
extern unsigned long audit_used;
extern u8 put_size;
extern u64 audit_hash;
extern long spurious_taken;
void harvest(struct task *t);
u64 rmw_apply(int op, u64 old, u64 a, u64 b, int size, int *store);
void audit_scan(struct task *t, const void *pc);
void audit_event(const struct event *e);
void commit_reads(struct task *t);
u64 sim_access(struct op *op);
void fence(int kind, const void *pc);

/* program.c */
int *lock_line_data(void);
void task_init(struct task *t);
void run(struct task *t);

/* explore.c */
extern struct config cfg;
extern const char *const model_name[];
double now(void);
long num(const char *s, long lo, long hi, const char *what);
int machine_setup(void);
extern struct task tasks[MAX_TASKS];
extern int ntasks, nprocs;
extern struct task *cur;
extern void *sched_sp;
extern char fail_msg[512];
extern struct event ev[MAX_EVENTS];
extern int nev;
extern int choice[MAX_EVENTS];
extern int choice_alt[MAX_EVENTS];
extern const int *replay_sched, *replay_alt;
extern int replay_len;
extern int litmus_hit;
extern struct dnode *stk;
extern int dpor;
extern int preemptions;
extern u64 rng_state;
void vc_switch(void **save, void *to);
int pick_alt(int n);
void vc_fail(const char *fmt, ...);
int await_ready(struct task *t);
int enabled(int p);
u64 rng(void);
enum result execute(int prefix);
void count_behaviour(void);
void record(struct best *b);
void explore(struct search *s);

/* trace.c */
const char *loc_name(u32 off, char *buf, size_t n);
void where(const void *pc, char *buf, size_t n);
void print_trace(void);
void print_sched(const int *s, const int *alt, int n, FILE *f);
int parse_sched(const char *s, int **out, int **alts);

/* common/costmodel/cost-run.c */
extern struct cost_config costcfg;
extern u64 handover_stalls, holder_preempted, last_release;
u64 vary(struct task *t, u64 mean);
void cost_acquired(const struct task *t, u64 asked);
void cost_charge(int p, const struct op *op);
void cost_host_after(int p);
int cost_pick(void);
int cost_run(void);

static inline int in_arena(const void *p)
{
	return (const u8 *)p >= arena && (const u8 *)p < arena + ARENA_SIZE;
}

static inline u32 off_of(const void *p)
{
	return (const u8 *)p - arena;
}

static inline int is_flusher(int p)
{
	return p >= ntasks;
}

#endif /* CHECKER_H */
