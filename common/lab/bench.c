// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - the userspace lab's host benchmark.
 *
 * Times four locks on this machine's real cores under one workload:
 *
 *   step     the queued spinlock of the step this binary was built from:
 *            the fast paths of the step's <asm/qspinlock.h> and the
 *            slowpath of its kernel/locking/qspinlock.c, compiled exactly
 *            as for the stress program (lab.c); or, in the binary
 *            lab-bench.sh builds from the pristine tree, 6.1's own
 *            (the table's "today", common/lab/today/);
 *   ticket   6.1's generic ticket lock, <asm-generic/spinlock.h> from the
 *            pristine tree (ticket.c): the lock step 0 puts x86 on;
 *   pthread  glibc's pthread_spinlock_t;
 *   mcs      a textbook MCS lock whose tail is a pointer, the lock the
 *            series starts from before it squeezes the tail into 32 bits.
 *
 * All four are called through out-of-line functions, as the kernel's
 * spin_lock() and spin_unlock() are.  Each of THREADS threads is pinned
 * to one core (thread i to the i-th CPU this process may use) and loops:
 * take the lock, increment a shared non-atomic counter and pause HOLD
 * times, release, pause THINK times.  After DURATION ms the counter must
 * equal the sum of the threads' acquisitions: a lock that lets two in at
 * once fails the run rather than posting a fast number.
 *
 * One line: "bench LOCK: threads=T hold=H think=K ms=M ops=N
 * ns_per_op=X mops=Y fair=F", where ns_per_op is wall time per
 * acquisition (with one thread: the cost of an uncontended lock and
 * unlock, plus the loop), mops millions of acquisitions per second, and
 * fair the busiest thread's count over the idlest's.  Or
 * "bench LOCK: FAIL why", exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/percpu.h>
#include <asm/qspinlock.h>
#include "options.h"
#include "ticket.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ____cacheline_aligned	__aligned(LAB_CACHELINE)	/* <linux/cache.h> */
#define MAX_THREADS	64

/* Shim runtime: thread i is CPU i; cpu_relax() never calls the hook. */
__thread int lab_cpu = -1;
__thread unsigned long lab_this_cpu_off;
__thread unsigned int lab_relax_count;
unsigned int lab_relax_mask = ~0U;
static unsigned long cpu_off[MAX_THREADS];

unsigned long lab_per_cpu_offset(int cpu)
{
	if (cpu < 0 || cpu >= MAX_THREADS) {
		fprintf(stderr, "bench: per_cpu_ptr() for cpu %d\n", cpu);
		abort();
	}
	return cpu_off[cpu];
}

void lab_relax_hook(void)
{
	sched_yield();
}

/* The MCS lock: a pointer tail, one node per thread (no nesting here). */
struct mcs_node {
	struct mcs_node *next;
	int locked;
} __aligned(LAB_CACHELINE);

static __thread struct mcs_node mcs_me;

static noinline void mcs_lock(struct mcs_node **tail)
{
	struct mcs_node *me = &mcs_me, *prev;

	me->next = NULL;
	me->locked = 0;
	prev = __atomic_exchange_n(tail, me, __ATOMIC_ACQ_REL);
	if (!prev)
		return;
	WRITE_ONCE(prev->next, me);
	/* Pairs with the release in mcs_unlock(): the section before ours. */
	while (!smp_load_acquire(&me->locked))
		cpu_relax();
}

static noinline void mcs_unlock(struct mcs_node **tail)
{
	struct mcs_node *me = &mcs_me, *next = READ_ONCE(me->next), *expect = me;

	if (!next) {
		if (__atomic_compare_exchange_n(tail, &expect, NULL, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
		while (!(next = READ_ONCE(me->next)))
			cpu_relax();
	}
	/* Our section happens before the next owner's (its acquire above). */
	smp_store_release(&next->locked, 1);
}

/* The four locks and the counter they guard, each alone in its cache line. */
static struct {
	arch_spinlock_t step ____cacheline_aligned;
	atomic_t ticket ____cacheline_aligned;
	pthread_spinlock_t pthread ____cacheline_aligned;
	struct mcs_node *mcs ____cacheline_aligned;
	unsigned long counter ____cacheline_aligned;
} the;

static noinline void step_lock(void)
{
	arch_spin_lock(&the.step);
}

static noinline void step_unlock(void)
{
	arch_spin_unlock(&the.step);
}

static void ticket_lock(void) { lab_ticket_lock(&the.ticket); }
static void ticket_unlock(void) { lab_ticket_unlock(&the.ticket); }
static void pthread_lock(void) { pthread_spin_lock(&the.pthread); }
static void pthread_unlock(void) { pthread_spin_unlock(&the.pthread); }
static void mcs_take(void) { mcs_lock(&the.mcs); }
static void mcs_release(void) { mcs_unlock(&the.mcs); }

static const struct lock_ops {
	const char *name;
	void (*lock)(void);
	void (*unlock)(void);
} lock_ops[] = {
	{ "step", step_lock, step_unlock },
	{ "ticket", ticket_lock, ticket_unlock },
	{ "pthread", pthread_lock, pthread_unlock },
	{ "mcs", mcs_take, mcs_release },
};

struct worker {
	pthread_t tid;
	int index;
	int core;
	void *area;
	unsigned long ops;
} __aligned(LAB_CACHELINE);

static struct worker workers[MAX_THREADS];
static const struct lock_ops *ops;
static int nthreads = 1, hold, think;
static long duration_ms = 1000;
static int go, stop, ready;

static inline void pause_n(int n)
{
	while (n-- > 0) {
#if defined(__x86_64__)
		__asm__ __volatile__("rep; nop" : : : "memory");
#else
		barrier();
#endif
	}
}

static void *run(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	unsigned long n = 0;

	CPU_ZERO(&set);
	CPU_SET(w->core, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "bench: cannot pin thread %d to cpu %d: %s\n",
			w->index, w->core, strerror(errno));
	lab_cpu = w->index;
	lab_this_cpu_off = cpu_off[w->index];
	__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		pause_n(1);
	while (!READ_ONCE(stop)) {
		ops->lock();
		the.counter++;
		pause_n(hold);
		ops->unlock();
		n++;
		pause_n(think);
	}
	w->ops = n;
	return NULL;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long parse_number(const char *s, long min, long max)
{
	long v;

	if (!lab_number("bench", s, min, max, &v))
		exit(2);
	return v;
}

static void print_usage(void)
{
	fprintf(stderr, "usage: bench -l step|ticket|pthread|mcs [-t threads] [-d ms] [-H hold] [-K think]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	size_t size = __stop_lab_percpu - __start_lab_percpu;
	unsigned long total = 0, most = 0, least = ~0UL;
	struct timespec ts;
	cpu_set_t allowed;
	int opt, i, cores[MAX_THREADS], ncores = 0;
	long t0, t1;

	while ((opt = getopt(argc, argv, "l:t:d:H:K:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < (int)ARRAY_SIZE(lock_ops); i++)
				if (!strcmp(optarg, lock_ops[i].name))
					ops = &lock_ops[i];
			if (!ops)
				print_usage();
			break;
		case 't':
			nthreads = parse_number(optarg, 1, MAX_THREADS);
			break;
		case 'd':
			duration_ms = parse_number(optarg, 1, 600000);
			break;
		case 'H':
			hold = parse_number(optarg, 0, 1000000);
			break;
		case 'K':
			think = parse_number(optarg, 0, 1000000);
			break;
		default:
			print_usage();
		}
	}
	if (!ops || optind != argc)
		print_usage();
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (i = 0; i < CPU_SETSIZE && ncores < MAX_THREADS; i++)
		if (CPU_ISSET(i, &allowed))
			cores[ncores++] = i;
	if (nthreads > ncores) {
		/* A spinning waiter on a core its lock holder needs measures the scheduler. */
		printf("bench %s: FAIL %d threads but only %d usable cores; spinlocks are timed one thread per core\n",
		       ops->name, nthreads, ncores);
		return 1;
	}

	the.step = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	the.ticket = (atomic_t)ATOMIC_INIT(0);
	pthread_spin_init(&the.pthread, PTHREAD_PROCESS_PRIVATE);
	for (i = 0; i < nthreads; i++) {
		size_t sz = (size + LAB_CACHELINE - 1) & ~(size_t)(LAB_CACHELINE - 1);

		workers[i].index = i;
		workers[i].core = cores[i];
		workers[i].area = aligned_alloc(LAB_CACHELINE, sz ? sz : LAB_CACHELINE);
		if (!workers[i].area) {
			printf("bench %s: FAIL out of memory\n", ops->name);
			return 1;
		}
		memcpy(workers[i].area, __start_lab_percpu, size);
		cpu_off[i] = (unsigned long)workers[i].area - (unsigned long)__start_lab_percpu;
	}
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&workers[i].tid, NULL, run, &workers[i])) {
			printf("bench %s: FAIL pthread_create\n", ops->name);
			return 1;
		}
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < nthreads)
		sched_yield();
	t0 = now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	ts = (struct timespec){ duration_ms / 1000, (duration_ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	WRITE_ONCE(stop, 1);
	for (i = 0; i < nthreads; i++)
		pthread_join(workers[i].tid, NULL);
	t1 = now_ns();

	for (i = 0; i < nthreads; i++) {
		total += workers[i].ops;
		if (workers[i].ops > most)
			most = workers[i].ops;
		if (workers[i].ops < least)
			least = workers[i].ops;
	}
	if (the.counter != total) {
		printf("bench %s: FAIL lost updates: counter %lu, acquisitions %lu\n",
		       ops->name, the.counter, total);
		return 1;
	}
	if (!total || !least) {
		printf("bench %s: FAIL a thread made no acquisition (%lu in all)\n", ops->name, total);
		return 1;
	}
	printf("bench %s: threads=%d hold=%d think=%d ms=%ld ops=%lu ns_per_op=%.1f mops=%.3f fair=%.2f\n",
	       ops->name, nthreads, hold, think, (t1 - t0) / 1000000, total,
	       (double)(t1 - t0) / total, total * 1000.0 / (t1 - t0),
	       (double)most / least);
	return 0;
}
