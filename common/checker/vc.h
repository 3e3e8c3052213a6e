/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: what the step's lock users (api.c, litmus.c) and the
 * checker (checker.h and its files) share.
 */
#ifndef _VC_H
#define _VC_H

#include <stdbool.h>
#include <stdint.h>

/* A lock word and its count in one 64-bit word, and the owner field. */
struct vc_lockref {
	uint64_t word;	/* arch_spinlock_t in the low 32 bits, count above */
	int owner;	/* CPU context inside the critical section, or -1 */
	int pad;
} __attribute__((__aligned__(16)));

struct vc_layout {
	int queued;	/* a queued spinlock: the fields below mean something */
	int free_nonzero;	/* a free lock's word need not be 0 (tickets) */
	unsigned int locked_mask, pending_mask;
	unsigned int tail_idx_offset, tail_idx_mask, tail_cpu_offset;
	unsigned int node_size, node_count_offset;
};

extern const struct vc_layout vc_layout;

void vc_api_lock(struct vc_lockref *l);
void vc_api_unlock(struct vc_lockref *l);
int vc_api_is_locked(struct vc_lockref *l);
int vc_api_trylock(struct vc_lockref *l);
int vc_api_value_unlocked(struct vc_lockref *l);
void vc_api_critical_section(struct vc_lockref *l, int me);
bool vc_api_lockref_get(struct vc_lockref *l);
void vc_api_cost_section(int *data);
/* The cost model's socket of the CPU running (-D; 0 outside it). */
int vc_numa_node(void);

/* The memory models, in the checker's order (model_name[]: sc, tso, weak). */
#define VC_MODELS		3

/* Litmus tests (litmus.c): threads on plain shared variables and locks. */
#define VC_LITMUS_THREADS	8
/* The bytes at vc_vars(): a litmus test may lay out its own ints there. */
#define VC_VARS_BYTES		512

struct vc_vars {
	int x, y, z, buf, flag;
};

struct vc_litmus {
	const char *name;
	/*
	 * The project's own tests carry their expectations, as the LKMM's
	 * carry a Result: line: "plain" or "lock" (a lock test runs on every
	 * step's lock), and what each model must answer to the exists clause,
	 * "never" or "reachable", under sc, tso and weak; -L list prints them.
	 */
	const char *kind;
	const char *expect[VC_MODELS];
	const char *note;	/* optional: why, or how it stands against real CPUs */
	int threads;
	int (*exists)(void);	/* at the end: the outcome asked about */

	void (*thread[VC_LITMUS_THREADS])(void);	/* one a CPU */
	/* optional: initial values, set with vc_litmus_set() */
	void (*init)(void);
	/* optional: the names of the ints at vc_vars(), for the trace */
	const char *const *var_names;
	/* the registers the exists clause reads: part of the final state */
	const void *regs;
	unsigned int regs_size;
};

extern const struct vc_litmus vc_litmus_tests[];
/* Translated from the 6.1 tree's LKMM suite, when linked (verify-lkmm.sh). */
extern const struct vc_litmus vc_lkmm_tests[] __attribute__((__weak__));
/* An initial value in the modelled memory (from a test's init()). */
void vc_litmus_set(volatile void *p, int size, uint64_t v);
void vc_litmus_reset(void);
struct vc_vars *vc_vars(void);
struct vc_lockref *vc_lockref_of(int i);

void vc_fail(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));
/* The paravirt layout: a bounded spin's next cpu_relax() (tsan.c). */
void vc_spin_bound(int on);
/* The paravirt layout: SPIN_THRESHOLD's rounds (tsan.c). */
int vc_spin_rounds(void);
/* The paravirt layout: a halt that may end spuriously (-S; tsan.c). */
int vc_spurious_wakeup_point(void);
/* The paravirt layout: the next cpu_relax() is a halt (the cost model's host). */
void vc_halt_point(void);

#endif /* _VC_H */
