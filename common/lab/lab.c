// SPDX-License-Identifier: GPL-2.0
/*
 * lab.c - the userspace lock lab's driver.
 *
 * Linked with one step's kernel/locking/qspinlock.c, compiled unmodified
 * against the shim in common/checker/shim/include, this program runs the step's
 * queued spinlock (the fast paths of its <asm/qspinlock.h>, the slowpath
 * of its qspinlock.c) the way qsl_torture runs it in the kernel, with
 * threads for CPUs and signal handlers for interrupts:
 *
 *  - Each thread is a CPU with a chosen id: among them 0 and the highest
 *    id the step's tail can encode, so the tail's CPU field is exercised
 *    from 1 to all ones.  Ids need not be below CONFIG_NR_CPUS, which
 *    only selects the layout of the lock word.
 *  - Four contexts per CPU stand for task, softirq, hardirq and NMI: the
 *    thread itself (level 0) and the handlers of three signals (levels
 *    1..3).  A handler blocks the signals of its own and lower levels, so
 *    only higher levels interrupt it, as in the kernel.  Each level has
 *    its own locks; the thread also takes higher levels' locks now and
 *    then with their signals blocked, as spin_lock_irqsave() does.
 *  - Interrupts come two ways.  A helper thread sends storms of signals,
 *    level after level, to all threads: they land anywhere.  And the
 *    shim's cpu_relax() now and then calls lab_relax_hook(), which raises
 *    the next level's signal on its own thread: that handler runs while
 *    the code it interrupted spins in the slowpath, and its own wait
 *    takes the next of that CPU's queue nodes, up to node 3.  Now and
 *    then a lock holder yields its core inside the critical section, as
 *    a preempted vCPU would, so waiters pile up even when the host runs
 *    the lab's threads one at a time.
 *  - Every lock guards a non-atomic counter and an owner field.  At the
 *    end each counter must equal the acquisitions counted by the
 *    contexts that made them, exactly; a second owner inside fails the
 *    run at once and is named.  Every lock word must be 0 again and every
 *    CPU's count of queue nodes in use back to 0.
 *  - While it holds a lock, a context samples the lock word and counts
 *    what it shows: pending set, a queue tail, the tail's node index, a
 *    tail naming the highest CPU id.  A tail naming a CPU that no thread
 *    is fails the run.  Options name the counts that must not be zero.
 *
 * One result line: "lab TAG: PASS key=value ..." or "lab TAG: FAIL why".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/percpu.h>
#include <asm/qspinlock.h>
#include "options.h"
#include "mcs_spinlock.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_THREADS	8
#define NR_LEVELS	4	/* task, and three signal levels */
#define MAX_LOCKS	2	/* per level */
#define NO_OWNER	(-1)

static const char * const level_name[NR_LEVELS] = { "task", "l1", "l2", "l3" };
static const int nr_locks[NR_LEVELS] = { 2, 1, 1, 1 };
static int level_sig[NR_LEVELS];

/* A lock under test, alone in its cache line. */
struct tlock {
	arch_spinlock_t	lock;
	int		owner;		/* thread * NR_LEVELS + level */
	unsigned long	count;		/* non-atomic, guarded by lock */
} __aligned(LAB_CACHELINE);

static struct tlock locks[NR_LEVELS][MAX_LOCKS];

/* What one context of one thread counted. */
struct ctx_stats {
	unsigned long acq;		/* acquisitions, any lock */
	unsigned long lock_acq[NR_LEVELS][MAX_LOCKS];
	unsigned long pending;		/* samples with pending set */
	unsigned long queue;		/* samples with a queue tail */
	unsigned long idx[4];		/* ... by the tail's node index */
	unsigned long tailmax;		/* ... naming the highest cpu id */
	unsigned long signals;		/* handler runs (levels 1..3) */
	int maxnest;			/* nodes in use when a handler began */
	unsigned int rnd;
};

struct lab_thread {
	pthread_t	tid;
	int		index;
	int		cpu;
	unsigned long	off;		/* per-CPU offset */
	void		*area;		/* per-CPU copy of lab_percpu */
	struct ctx_stats st[NR_LEVELS];
} __aligned(LAB_CACHELINE);

static struct lab_thread threads[MAX_THREADS];
static int nthreads = 4;
static int max_cpu;

/* Options. */
static const char *tag = "lab";
static long duration_ms = 2000;
static long max_ms;		/* run longer, up to this, for evidence */
static int hold = 20;		/* pauses inside a critical section */
static int burst = 8;		/* most acquisitions per handler run */
static int period_us = 200;	/* between two signal storms */
static int gap_us = 20;		/* most between the levels of a storm */
static int grace_s = 10;	/* for the threads to stop at the end */
static int higher_one_in = 16;	/* task takes a higher level's lock */
static int raise_one_in = 4;	/* cpu_relax() hook raises a signal */
static int preempt_one_in = 128;	/* holder yields in the critical section */
static const char *required = "queue,idx1,tailmax";

/* Shim runtime (see include/linux/percpu.h, smp.h, asm/processor.h). */
__thread int lab_cpu = -1;
__thread unsigned long lab_this_cpu_off;
__thread unsigned int lab_relax_count;
unsigned int lab_relax_mask = 127;

static __thread struct lab_thread *self;
static __thread int cur_level;	/* level of the lock being taken or held */
static __thread int cur_base;	/* nodes in use when this context began */
static int stop, sig_stop, nr_done, failed;
static char fail_reason[512];

static void print_line(const char *fmt, ...)
	__printf(1, 2);
static void print_line(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		_exit(2);
}

/* Record the first failure and stop the run; the main thread reports. */
static void fail(const char *fmt, ...) __printf(1, 2);
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_exchange_n(&failed, 1, __ATOMIC_SEQ_CST))
		return;
	va_start(ap, fmt);
	vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
	va_end(ap);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
}

/* A failure that cannot go on (the lock code asked for a bad pointer). */
static void fatal(const char *fmt, ...) __printf(1, 2);
static void fatal(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	print_line("lab %s: FAIL %s", tag, buf);
	_exit(1);
}

unsigned long lab_per_cpu_offset(int cpu)
{
	int i;

	for (i = 0; i < nthreads; i++)
		if (threads[i].cpu == cpu)
			return threads[i].off;
	fatal("per_cpu_ptr() for cpu %d, which no thread is (a tail decoded wrong?)",
	      cpu);
	return 0;
}

static unsigned int rnd(struct ctx_stats *s)
{
	unsigned int x = s->rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	s->rnd = x;
	return x;
}

static int nodes_in_use(struct lab_thread *t);

/*
 * Called from cpu_relax() now and then, that is from the step's spin
 * loops: give the core away, and now and then raise the signal one level
 * above the lock this context is after, so its handler interrupts the
 * slowpath right here.  Most often when this context waits in the queue,
 * holding a node of its own: the handler's own wait then takes the next
 * node, and nesting piles up to node 3.
 */
void lab_relax_hook(void)
{
	struct lab_thread *me = self;
	struct ctx_stats *s;
	int one_in;

	if (me && raise_one_in && cur_level < NR_LEVELS - 1 && !READ_ONCE(stop)) {
		s = &me->st[cur_level];
		one_in = raise_one_in;
		if (nodes_in_use(me) <= cur_base)
			one_in *= 4;	/* pending wait: no node of ours */
		if (rnd(s) % one_in == 0)
			pthread_kill(me->tid, level_sig[cur_level + 1]);
	}
	sched_yield();
}

/* A pause that never yields: inside critical sections. */
static inline void pause_once(void)
{
#if defined(__x86_64__)
	__asm__ __volatile__("rep; nop" : : : "memory");
#else
	barrier();
#endif
}

static bool known_cpu(int cpu)
{
	int i;

	for (i = 0; i < nthreads; i++)
		if (threads[i].cpu == cpu)
			return true;
	return false;
}

/* The nodes this CPU's interrupted contexts hold (qspinlock.c's count). */
static int nodes_in_use(struct lab_thread *t)
{
	return READ_ONCE(((struct mcs_spinlock *)t->area)->count);
}

/* Look at the word of a lock we hold, and count what it shows. */
static void sample(struct lab_thread *me, int ctx, int level, int i)
{
	struct tlock *t = &locks[level][i];
	struct ctx_stats *s = &me->st[ctx];
	u32 v = atomic_read(&t->lock.val);

	if (!(v & _Q_LOCKED_MASK))
		fail("%s lock %d: cpu %d (%s) holds it, but its locked byte is clear (word %#x)",
		     level_name[level], i, me->cpu, level_name[ctx], v);
	if (!queued_spin_is_locked(&t->lock))
		fail("%s lock %d: cpu %d (%s) holds it, but queued_spin_is_locked() says no",
		     level_name[level], i, me->cpu, level_name[ctx]);
#ifdef _Q_PENDING_MASK
	if (v & _Q_PENDING_MASK)
		s->pending++;
#endif
	if (v & _Q_TAIL_MASK) {
		int cpu = (int)(v >> _Q_TAIL_CPU_OFFSET) - 1;
		int idx = (v & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET;

		s->queue++;
		s->idx[idx & 3]++;
		if (cpu == max_cpu)
			s->tailmax++;
		if (!known_cpu(cpu))
			fail("%s lock %d: word %#x names tail cpu %d, which no thread is",
			     level_name[level], i, v, cpu);
	}
}

/* The critical section: prove exclusion, count, sample the word. */
static void critical(struct lab_thread *me, int ctx, int level, int i)
{
	struct tlock *t = &locks[level][i];
	struct ctx_stats *s = &me->st[ctx];
	int id = me->index * NR_LEVELS + ctx;
	int other = READ_ONCE(t->owner);
	unsigned long c;
	int n;

	if (other != NO_OWNER)
		fail("%s lock %d: cpu %d (%s) took it while cpu %d (%s) held it",
		     level_name[level], i, me->cpu, level_name[ctx],
		     threads[other / NR_LEVELS].cpu,
		     level_name[other % NR_LEVELS]);
	WRITE_ONCE(t->owner, id);

	c = READ_ONCE(t->count);
	for (n = 0; n < hold; n++)
		pause_once();
	/*
	 * Now and then the holder is preempted, as a vCPU can be: on a host
	 * that gives the lab one core at a time, this is where the others
	 * find the lock held, and queue, and their handlers nest.
	 */
	if (preempt_one_in && rnd(s) % preempt_one_in == 0)
		sched_yield();
	WRITE_ONCE(t->count, c + 1);

	s->acq++;
	s->lock_acq[level][i]++;
	sample(me, ctx, level, i);

	other = READ_ONCE(t->owner);
	if (other != id)
		fail("%s lock %d: cpu %d (%s) held it, but the owner became cpu %d (%s)",
		     level_name[level], i, me->cpu, level_name[ctx],
		     other == NO_OWNER ? -1 : threads[other / NR_LEVELS].cpu,
		     other == NO_OWNER ? "nobody" : level_name[other % NR_LEVELS]);
	WRITE_ONCE(t->owner, NO_OWNER);
}

static sigset_t upto[NR_LEVELS];	/* the signals of levels 1..k */

/* Context ctx takes lock i of level (>= ctx), with interrupts "off". */
static void take_one(struct lab_thread *me, int ctx, int level, int i)
{
	struct tlock *t = &locks[level][i];
	int saved = cur_level;
	sigset_t old;

	if (ctx < level)
		pthread_sigmask(SIG_BLOCK, &upto[level], &old);
	cur_level = level;
	queued_spin_lock(&t->lock);
	critical(me, ctx, level, i);
	queued_spin_unlock(&t->lock);
	cur_level = saved;
	if (ctx < level)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void on_signal(int sig)
{
	struct lab_thread *me = self;
	int saved = errno;
	struct ctx_stats *s;
	int level, n, k, base;

	for (level = 1; level < NR_LEVELS; level++)
		if (level_sig[level] == sig)
			break;
	if (level == NR_LEVELS || !me) {
		errno = saved;
		return;
	}
	s = &me->st[level];
	s->signals++;
	k = nodes_in_use(me);
	if (k > s->maxnest)
		s->maxnest = k;
	if (READ_ONCE(stop) && READ_ONCE(failed)) {
		errno = saved;
		return;
	}
	base = cur_base;
	cur_base = k;
	n = 1 + rnd(s) % burst;
	while (n--)
		take_one(me, level, level, rnd(s) % nr_locks[level]);
	cur_base = base;
	errno = saved;
}

static void *worker(void *arg)
{
	struct lab_thread *me = arg;
	struct ctx_stats *s = &me->st[0];
	sigset_t all;
	int level, n;

	lab_cpu = me->cpu;
	lab_this_cpu_off = me->off;
	self = me;
	/* Created with the lab's signals blocked; now the CPU exists. */
	sigemptyset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);

	while (!READ_ONCE(stop)) {
		level = 0;
		if (rnd(s) % higher_one_in == 0)
			level = 1 + rnd(s) % (NR_LEVELS - 1);
		take_one(me, 0, level, rnd(s) % nr_locks[level]);
		for (n = rnd(s) % 32; n > 0; n--)
			pause_once();
	}
	pthread_sigmask(SIG_BLOCK, &upto[NR_LEVELS - 1], NULL);
	__atomic_fetch_add(&nr_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/*
 * Storms of signals: level 1 to (most of) the threads, then after a
 * short gap level 2, then level 3, so each level's handlers contend with
 * each other while the handlers of the level below still wait.
 */
static void *signaller(void *arg)
{
	struct ctx_stats s = { .rnd = 0x9e3779b9u };
	struct timespec ts = { 0, period_us * 1000L };
	int level, i;
	long until;

	(void)arg;
	while (!READ_ONCE(sig_stop)) {
		for (level = 1; level < NR_LEVELS; level++) {
			for (i = 0; i < nthreads; i++)
				if (rnd(&s) % 4)
					pthread_kill(threads[i].tid, level_sig[level]);
			if (gap_us) {
				until = now_us() + rnd(&s) % (gap_us + 1);
				while (now_us() < until)
					pause_once();
			}
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: lab [-n tag] [-t threads] [-d ms] [-D max_ms] [-c cpu,cpu,...] [-r required]\n"
		"           [-H hold] [-b burst] [-p period_us] [-g gap_us] [-w grace_s]\n"
		"           [-y yield_mask] [-o one_in] [-i one_in] [-P one_in]\n"
		"  required: comma-separated counts that must not be zero, of\n"
		"            pending,queue,idx0,idx1,idx2,idx3,tailmax (\"-\": none)\n");
	exit(2);
}

static long parse_number(const char *s, long min, long max)
{
	long v;

	if (!lab_number("lab", s, min, max, &v))
		print_usage();
	return v;
}

/* The default CPU ids: all ones, 0, and alternating bit patterns. */
static void default_cpus(void)
{
	int cand[] = { max_cpu, 0, 0x2aaaaa & max_cpu, (0x155555 & max_cpu) | 1,
		       1, max_cpu - 1, max_cpu >> 1, 2 };
	int i, j, n = 0;

	for (i = 0; i < (int)ARRAY_SIZE(cand) && n < nthreads; i++) {
		for (j = 0; j < n; j++)
			if (threads[j].cpu == cand[i])
				break;
		if (j == n)
			threads[n++].cpu = cand[i];
	}
}

static void parse_cpus(const char *list)
{
	char *copy = strdup(list), *p, *save = NULL;
	int n = 0;

	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (n == MAX_THREADS)
			print_usage();
		threads[n++].cpu = parse_number(p, 0, max_cpu);
	}
	free(copy);
	if (!n)
		print_usage();
	nthreads = n;
}

/* A required count: 0 when it was seen, else the name of what was not. */
static const char *missing(const struct ctx_stats *tot)
{
	static char name[32];
	char *copy, *p, *save = NULL;
	const char *miss = NULL;
	unsigned long v;

	if (!strcmp(required, "-"))
		return NULL;
	copy = strdup(required);
	for (p = strtok_r(copy, ",", &save); p && !miss; p = strtok_r(NULL, ",", &save)) {
		if (!strcmp(p, "pending"))
			v = tot->pending;
		else if (!strcmp(p, "queue"))
			v = tot->queue;
		else if (!strncmp(p, "idx", 3) && p[3] >= '0' && p[3] <= '3' && !p[4])
			v = tot->idx[p[3] - '0'];
		else if (!strcmp(p, "tailmax"))
			v = tot->tailmax;
		else
			fatal("unknown required count '%s'", p);
		if (!v) {
			snprintf(name, sizeof(name), "%s", p);
			miss = name;
		}
	}
	free(copy);
	return miss;
}

/*
 * Add up what every context counted.  While the run goes on, this reads
 * counters other threads are changing: good enough to see which are no
 * longer zero.
 */
static void sum_up(struct ctx_stats *tot, struct ctx_stats *lvl)
{
	int i, c, l, k;

	memset(tot, 0, sizeof(*tot));
	memset(lvl, 0, NR_LEVELS * sizeof(*lvl));
	for (i = 0; i < nthreads; i++) {
		for (c = 0; c < NR_LEVELS; c++) {
			struct ctx_stats *s = &threads[i].st[c];

			lvl[c].acq += READ_ONCE(s->acq);
			lvl[c].signals += READ_ONCE(s->signals);
			if (READ_ONCE(s->maxnest) > tot->maxnest)
				tot->maxnest = READ_ONCE(s->maxnest);
			tot->acq += READ_ONCE(s->acq);
			tot->pending += READ_ONCE(s->pending);
			tot->queue += READ_ONCE(s->queue);
			tot->tailmax += READ_ONCE(s->tailmax);
			for (k = 0; k < 4; k++)
				tot->idx[k] += READ_ONCE(s->idx[k]);
			for (l = 0; l < NR_LEVELS; l++)
				for (k = 0; k < MAX_LOCKS; k++)
					tot->lock_acq[l][k] += READ_ONCE(s->lock_acq[l][k]);
		}
	}
}

int main(int argc, char **argv)
{
	size_t size = __stop_lab_percpu - __start_lab_percpu;
	const char *cpus = NULL, *miss;
	struct ctx_stats tot = { 0 }, lvl[NR_LEVELS] = { { 0 } };
	struct sigaction sa;
	pthread_t sig_tid;
	struct timespec ts;
	unsigned long lost = 0;
	char cpulist[128] = "";
	int opt, i, l, k, words = 0, nodes = 0;
	long t0, deadline, ran_ms;

	max_cpu = (int)((1U << _Q_TAIL_CPU_BITS) - 2);
	while ((opt = getopt(argc, argv, "n:t:d:D:c:r:H:b:p:g:w:y:o:i:P:")) != -1) {
		switch (opt) {
		case 'n':
			tag = optarg;
			break;
		case 't':
			nthreads = parse_number(optarg, 1, MAX_THREADS);
			break;
		case 'd':
			duration_ms = parse_number(optarg, 1, 3600000);
			break;
		case 'D':
			max_ms = parse_number(optarg, 1, 3600000);
			break;
		case 'c':
			cpus = optarg;
			break;
		case 'r':
			required = optarg;
			break;
		case 'H':
			hold = parse_number(optarg, 0, 100000);
			break;
		case 'b':
			burst = parse_number(optarg, 1, 1000);
			break;
		case 'p':
			period_us = parse_number(optarg, 1, 1000000);
			break;
		case 'g':
			gap_us = parse_number(optarg, 0, 1000000);
			break;
		case 'w':
			grace_s = parse_number(optarg, 1, 3600);
			break;
		case 'y':
			lab_relax_mask = parse_number(optarg, 0, 0xffffff);
			break;
		case 'o':
			higher_one_in = parse_number(optarg, 1, 1000000);
			break;
		case 'i':
			raise_one_in = parse_number(optarg, 0, 1000000);
			break;
		case 'P':
			preempt_one_in = parse_number(optarg, 0, 1000000);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	if (max_ms < duration_ms)
		max_ms = duration_ms;
	(void)missing(&tot);	/* the names given with -r */
	if (cpus)
		parse_cpus(cpus);
	else
		default_cpus();
	if (size < sizeof(struct mcs_spinlock))
		fatal("the lab_percpu section holds %zu bytes, no queue nodes", size);

	level_sig[1] = SIGUSR1;
	level_sig[2] = SIGUSR2;
	level_sig[3] = SIGALRM;
	for (l = 0; l < NR_LEVELS; l++) {
		sigemptyset(&upto[l]);
		for (k = 1; k <= l; k++)
			sigaddset(&upto[l], level_sig[k]);
		for (i = 0; i < MAX_LOCKS; i++) {
			locks[l][i] = (struct tlock){ .lock = __ARCH_SPIN_LOCK_UNLOCKED,
						      .owner = NO_OWNER };
		}
	}
	for (l = 1; l < NR_LEVELS; l++) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_mask = upto[l];	/* own and lower levels wait */
		sa.sa_flags = SA_RESTART;
		if (sigaction(level_sig[l], &sa, NULL))
			fatal("sigaction: %s", strerror(errno));
	}
	/* Threads start with every lab signal blocked (the signaller too). */
	pthread_sigmask(SIG_BLOCK, &upto[NR_LEVELS - 1], NULL);

	for (i = 0; i < nthreads; i++) {
		struct lab_thread *t = &threads[i];
		size_t sz = (size + LAB_CACHELINE - 1) & ~(size_t)(LAB_CACHELINE - 1);

		t->index = i;
		t->area = aligned_alloc(LAB_CACHELINE, sz);
		if (!t->area)
			fatal("out of memory");
		memcpy(t->area, __start_lab_percpu, size);
		t->off = (unsigned long)t->area - (unsigned long)__start_lab_percpu;
		for (l = 0; l < NR_LEVELS; l++)
			t->st[l].rnd = 0x12345u + 7919u * (i * NR_LEVELS + l);
		snprintf(cpulist + strlen(cpulist), sizeof(cpulist) - strlen(cpulist),
			 "%s%d", i ? "," : "", t->cpu);
	}
	print_line("lab %s: threads=%d cpus=%s tail: cpu bits=%d (max cpu %d) idx bits=%d pending bits=%d nr_cpus=%d %s-endian duration=%ldms",
		   tag, nthreads, cpulist, _Q_TAIL_CPU_BITS, max_cpu, _Q_TAIL_IDX_BITS,
#ifdef _Q_PENDING_BITS
		   _Q_PENDING_BITS,
#else
		   0,
#endif
		   CONFIG_NR_CPUS,
#ifdef CONFIG_CPU_BIG_ENDIAN
		   "big",
#else
		   "little",
#endif
		   duration_ms);

	for (i = 0; i < nthreads; i++)
		if (pthread_create(&threads[i].tid, NULL, worker, &threads[i]))
			fatal("pthread_create failed");
	if (pthread_create(&sig_tid, NULL, signaller, NULL))
		fatal("pthread_create failed");

	/*
	 * Run for -d ms; then, up to -D ms in all, until every required
	 * count is no longer zero.  A loaded host can hold the threads in
	 * one pattern for a while (a queue that never drains shows no
	 * pending bit); the run waits for the evidence instead of failing.
	 */
	t0 = now_us();
	for (;;) {
		long ran = now_us() - t0;

		if (READ_ONCE(stop) || ran >= max_ms * 1000L)
			break;
		if (ran >= duration_ms * 1000L) {
			sum_up(&tot, lvl);
			if (!missing(&tot))
				break;
		}
		ts = (struct timespec){ 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	ran_ms = (now_us() - t0) / 1000;
	WRITE_ONCE(sig_stop, 1);
	pthread_join(sig_tid, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);

	/* After a failure the locks may be wrecked: do not wait long. */
	deadline = now_us() + (failed ? 1 : grace_s) * 1000000L;
	while (__atomic_load_n(&nr_done, __ATOMIC_SEQ_CST) < nthreads) {
		if (now_us() > deadline) {
			char w[256] = "";

			for (l = 0; l < NR_LEVELS; l++)
				for (i = 0; i < nr_locks[l]; i++)
					snprintf(w + strlen(w), sizeof(w) - strlen(w), " %s/%d=%#x",
						 level_name[l], i,
						 (u32)atomic_read(&locks[l][i].lock.val));
			fatal("%s%s%d of %d threads still running %ds after the end (lock words:%s)",
			      failed ? fail_reason : "", failed ? "; then " : "hang: ",
			      nthreads - nr_done, nthreads, failed ? 1 : grace_s, w);
		}
		ts = (struct timespec){ 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i].tid, NULL);

	/* Sum up. */
	sum_up(&tot, lvl);
	for (i = 0; i < nthreads; i++)
		if (nodes_in_use(&threads[i]))
			nodes++;
	for (l = 0; l < NR_LEVELS; l++) {
		for (k = 0; k < nr_locks[l]; k++) {
			unsigned long want = tot.lock_acq[l][k], got = locks[l][k].count;

			lost += want > got ? want - got : got - want;
			if (atomic_read(&locks[l][k].lock.val))
				words++;
		}
	}

	if (failed)
		fatal("%s", fail_reason);
	if (lost)
		fatal("lost=%lu: the counters and the acquisitions disagree", lost);
	if (words)
		fatal("%d lock words not 0 at the end", words);
	if (nodes)
		fatal("%d cpus still count queue nodes in use at the end", nodes);
	for (l = 0; l < NR_LEVELS; l++)
		if (!lvl[l].acq)
			fatal("no acquisitions at level %s", level_name[l]);
	miss = missing(&tot);
	if (miss)
		fatal("no evidence: %s=0 after %ldms (acq=%lu pending=%lu queue=%lu idx1=%lu idx2=%lu idx3=%lu tailmax=%lu)",
		      miss, ran_ms, tot.acq, tot.pending, tot.queue, tot.idx[1],
		      tot.idx[2], tot.idx[3], tot.tailmax);
	print_line("lab %s: PASS acq=%lu task=%lu l1=%lu l2=%lu l3=%lu signals=%lu pending=%lu queue=%lu idx0=%lu idx1=%lu idx2=%lu idx3=%lu tailmax=%lu maxnest=%d lost=0 ms=%ld",
		   tag, tot.acq, lvl[0].acq, lvl[1].acq, lvl[2].acq, lvl[3].acq,
		   lvl[1].signals + lvl[2].signals + lvl[3].signals,
		   tot.pending, tot.queue, tot.idx[0], tot.idx[1], tot.idx[2],
		   tot.idx[3], tot.tailmax, tot.maxnest, ran_ms);
	return 0;
}
