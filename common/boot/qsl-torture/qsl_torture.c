// SPDX-License-Identifier: GPL-2.0
/*
 * qsl_torture - a torture test aimed at the paths of the queued spinlock.
 *
 * locktorture checks that two writers never hold one lock at once, from
 * task context.  This module aims at what the qspinlock tutorial is
 * about: the pending bit, the MCS queue, the nested contexts that use
 * queue nodes 1..3 (softirq, hardirq, NMI) while a lower context waits
 * in the slowpath, and the hand-off between them.  The same source is
 * built against every step and architecture; it never touches the lock's
 * code, only uses spin_lock() and friends and looks at the lock word.
 *
 *  - On every CPU a kthread hammers a few "task" locks with interrupts
 *    enabled while it spins, so interrupts land inside the slowpath.
 *  - A pinned hard hrtimer and a pinned soft hrtimer on every CPU take
 *    "hardirq" and "softirq" locks; on x86 NMIs sent by IPI take an
 *    arch_spinlock_t used only in NMI context.  Each context has its own
 *    locks, so no context can deadlock against the one it interrupted.
 *    A timer takes at most a fifth of its CPU (see rearm()), so the
 *    contexts it interrupts still run when its lock is slow to come.
 *  - Every lock guards a non-atomic counter and an owner field.  At the
 *    end each counter must equal the number of acquisitions exactly; a
 *    second owner inside, or a lost update, fails the run and is named.
 *  - While it holds a lock, each context samples the lock word and counts
 *    what it sees: pending set, a queue tail, the tail's node index, and
 *    that the CPU in the tail is online (ticket locks: how many waited).
 *    It also counts, whatever the lock, whether another context was in
 *    take() for the same lock at that moment, waiting for it or about to
 *    ("waited"): a lock whose waiters leave no trace in its word (a
 *    test-and-set loop) shows its contention there.
 *  - Once a period (long_every_ms), each kthread holds its lock for
 *    long_hold_ms: long enough that its waiters exhaust any spin budget
 *    (a paravirt waiter spins SPIN_THRESHOLD rounds, then halts), so a
 *    lock that stops spinning is seen to stop and to be woken again.
 *
 * The result is one line, "qsl_torture: RESULT PASS key=value ..." or
 * "qsl_torture: RESULT FAIL reason", which the host's verdict parses.
 */
#define pr_fmt(fmt) "qsl_torture: " fmt

#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/spinlock.h>
#include <linux/hrtimer.h>
#include <linux/delay.h>
#include <linux/sched/clock.h>
#include <linux/prandom.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/math64.h>
#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

static int duration = 10;
module_param(duration, int, 0444);
MODULE_PARM_DESC(duration, "Seconds to run");
static int task_locks = 2;
module_param(task_locks, int, 0444);
MODULE_PARM_DESC(task_locks, "Locks shared by the task-context threads (1..8)");
static int hold = 20;
module_param(hold, int, 0444);
MODULE_PARM_DESC(hold, "cpu_relax() calls inside each critical section");
static int hard_us = 200;
module_param(hard_us, int, 0444);
MODULE_PARM_DESC(hard_us, "Period of the per-CPU hard hrtimer (us)");
static int soft_us = 300;
module_param(soft_us, int, 0444);
MODULE_PARM_DESC(soft_us, "Period of the per-CPU soft hrtimer (us)");
static int nmi_us = 1000;
module_param(nmi_us, int, 0444);
MODULE_PARM_DESC(nmi_us, "Pause between NMI rounds (us); 0 disables NMIs");
static int long_hold_ms = 50;
module_param(long_hold_ms, int, 0444);
MODULE_PARM_DESC(long_hold_ms, "Length of a task thread's long critical section (ms); 0: none");
static int long_every_ms = 1000;
module_param(long_every_ms, int, 0444);
MODULE_PARM_DESC(long_every_ms, "Each task thread holds a lock for long_hold_ms once in this period (ms)");
static bool busted;
module_param(busted, bool, 0444);
MODULE_PARM_DESC(busted, "Negative control: use a non-atomic test-and-set lock");

enum ctx { CTX_TASK, CTX_SOFT, CTX_HARD, CTX_NMI, NR_CTX };
static const char * const ctx_name[NR_CTX] = {
	"task", "softirq", "hardirq", "nmi"
};

#define MAX_LOCKS	8
#define NO_OWNER	(-1)

struct tlock {
	spinlock_t	lock;
	int		busted_word;	/* the negative control's "lock" */
	int		owner;		/* cpu * NR_CTX + ctx, or NO_OWNER */
	unsigned long	count;		/* non-atomic, guarded by lock */
	/*
	 * Contexts in take(): announced before they call for the lock,
	 * withdrawn once they hold it.  In a cache line of its own, so that
	 * the lock's line sees the lock's traffic only.
	 */
	atomic_t	wanting ____cacheline_aligned;
} ____cacheline_aligned;

/* Task locks are shared by all kthreads; each other context has one. */
static struct tlock qslt_task_lock[MAX_LOCKS];
static struct tlock qslt_soft_lock, qslt_hard_lock, qslt_nmi_lock;

/* What one context on one CPU did and saw. */
struct ctx_stats {
	unsigned long acq;		/* acquisitions */
	unsigned long lock_acq[MAX_LOCKS];
	unsigned long pending;		/* samples with pending set */
	unsigned long queue;		/* samples with a queue tail */
	unsigned long idx[4];		/* ... by the tail's node index */
	unsigned long waiters;		/* ticket: samples with waiters */
	unsigned long waited;		/* samples with another context waiting */
	unsigned long contended;	/* spin_is_contended() said yes */
	unsigned long try_ok, try_fail;
	unsigned long long_holds;	/* long critical sections */
	unsigned long stretched;	/* timer gaps stretched, see rearm() */
	u64 max_wait_ns;
};

static DEFINE_PER_CPU(struct ctx_stats [NR_CTX], stats);
static DEFINE_PER_CPU(struct hrtimer, hard_timer);
static DEFINE_PER_CPU(struct hrtimer, soft_timer);
static DEFINE_PER_CPU(struct task_struct *, task_thread);
static bool stopping;

/* The first failure, described once; later ones are only counted. */
static atomic_t failures = ATOMIC_INIT(0);
static char failure[200];

static __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	if (atomic_inc_return(&failures) != 1)
		return;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
}

static inline u32 lock_word(struct tlock *t)
{
	arch_spinlock_t *raw = &t->lock.rlock.raw_lock;

#if defined(CONFIG_QUEUED_SPINLOCKS)
	return atomic_read(&raw->val);
#elif defined(CONFIG_X86)
	return atomic_read(raw);		/* the generic ticket lock */
#else
	return READ_ONCE(raw->lock);		/* sparc64's test-and-set byte */
#endif
}

/* Look at the word of a lock we hold, and count what it shows. */
static void sample(struct tlock *t, struct ctx_stats *s, int ctx)
{
	u32 v = lock_word(t);

	if (busted)
		return;	/* the broken lock does not use the word */
#if defined(CONFIG_QUEUED_SPINLOCKS)
	if (!(v & _Q_LOCKED_MASK))
		fail("%s lock held, but its locked byte is clear (word %#x)",
		     ctx_name[ctx], v);
#ifdef _Q_PENDING_MASK
	if (v & _Q_PENDING_MASK)
		s->pending++;
#endif
	if (v & _Q_TAIL_MASK) {
		int cpu = (int)(v >> _Q_TAIL_CPU_OFFSET) - 1;
		int idx = (v & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET;

		s->queue++;
		s->idx[idx & 3]++;
		if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
			fail("%s lock word %#x names tail cpu %d, which is not online",
			     ctx_name[ctx], v, cpu);
	}
#elif defined(CONFIG_X86)
	{
		u16 spread = (v >> 16) - (v & 0xffff);

		if (!spread)
			fail("%s ticket lock held, but it reads free (word %#x)",
			     ctx_name[ctx], v);
		if (spread > 1)
			s->waiters++;
	}
#else
	if (!v)
		fail("%s lock held, but its byte is clear", ctx_name[ctx]);
#endif
}

/* A test-and-set that is not atomic: a gap between the test and the set. */
static void busted_lock(struct tlock *t)
{
	int i;

	for (;;) {
		while (READ_ONCE(t->busted_word))
			cpu_relax();
		for (i = 0; i < 4; i++)
			cpu_relax();
		if (!READ_ONCE(t->busted_word))
			break;
	}
	WRITE_ONCE(t->busted_word, 1);
	/* Order the section after the claim: the lock is broken, not its fences. */
	smp_mb();
}

static void busted_unlock(struct tlock *t)
{
	/* The section before the release, as a real unlock orders it. */
	smp_mb();
	WRITE_ONCE(t->busted_word, 0);
}

/*
 * For sparse, every branch takes (or drops) the lock once: the busted
 * lock and the NMI path's arch_spin_*() carry no lock context of their
 * own, so __acquire() and __release() say what they do.
 */
static void take(struct tlock *t, int ctx)
	__acquires(&t->lock)
{
	atomic_inc(&t->wanting);
	if (busted) {
		busted_lock(t);
		__acquire(&t->lock);
	} else if (ctx == CTX_NMI) {
		arch_spin_lock(&t->lock.rlock.raw_lock);
		__acquire(&t->lock);
	} else {
		spin_lock(&t->lock);
	}
	atomic_dec(&t->wanting);
}

static void drop(struct tlock *t, int ctx)
	__releases(&t->lock)
{
	if (busted) {
		busted_unlock(t);
		__release(&t->lock);
	} else if (ctx == CTX_NMI) {
		arch_spin_unlock(&t->lock.rlock.raw_lock);
		__release(&t->lock);
	} else {
		spin_unlock(&t->lock);
	}
}

/*
 * The critical section: prove exclusion, count, sample the word.  A long
 * one (long_ms > 0) sits in mdelay() with the lock held and interrupts
 * enabled, so this CPU's timers and NMIs still take their own locks.
 */
static void critical(struct tlock *t, int lockno, int ctx, int long_ms)
{
	struct ctx_stats *s = raw_cpu_ptr(&stats[ctx]);
	int me = raw_smp_processor_id() * NR_CTX + ctx;
	int other = READ_ONCE(t->owner);
	unsigned long c;
	int i;

	if (other != NO_OWNER)
		fail("%s lock %d: cpu %d took it while cpu %d (%s) held it",
		     ctx_name[ctx], lockno, me / NR_CTX,
		     other / NR_CTX, ctx_name[other % NR_CTX]);
	WRITE_ONCE(t->owner, me);

	c = t->count;
	for (i = 0; i < hold; i++)
		cpu_relax();
	if (long_ms) {
		mdelay(long_ms);
		s->long_holds++;
	}
	WRITE_ONCE(t->count, c + 1);

	s->acq++;
	s->lock_acq[lockno]++;
	sample(t, s, ctx);
	if (atomic_read(&t->wanting) > 0)
		s->waited++;
	if (ctx != CTX_NMI && !busted) {
		if (!spin_is_locked(&t->lock))
			fail("%s lock %d held, but spin_is_locked() says no",
			     ctx_name[ctx], lockno);
		if (spin_is_contended(&t->lock))
			s->contended++;
	}

	other = READ_ONCE(t->owner);
	if (other != me)
		fail("%s lock %d: cpu %d held it, but the owner became cpu %d (%s)",
		     ctx_name[ctx], lockno, me / NR_CTX,
		     other / NR_CTX, ctx_name[other % NR_CTX]);
	WRITE_ONCE(t->owner, NO_OWNER);
}

static void one_timer(struct tlock *t, int ctx)
{
	take(t, ctx);
	critical(t, 0, ctx, 0);
	drop(t, ctx);
}

/*
 * A timer's next expiry: its period after this handler ends, or four
 * times as long as the handler ran, whichever is later.  Every CPU's
 * timer wants the same lock, so with more vCPUs than host CPUs a handler
 * can wait for a holder whose vCPU thread the host has descheduled, for
 * longer than the period.  Re-armed by the period alone, the timer would
 * be due again on return and its CPU would run nothing but interrupts:
 * the kthreads would stop and RCU would report a stall, though the lock
 * did nothing wrong.  So a timer takes at most a fifth of its CPU; each
 * stretched gap is counted and reported.
 */
static enum hrtimer_restart rearm(struct hrtimer *h, int ctx, int period_us,
				  u64 start)
{
	u64 ran = local_clock() - start;
	u64 gap = (u64)period_us * NSEC_PER_USEC;

	if (READ_ONCE(stopping))
		return HRTIMER_NORESTART;
	if (4 * ran > gap) {
		gap = 4 * ran;
		raw_cpu_ptr(&stats[ctx])->stretched++;
	}
	hrtimer_set_expires(h, ktime_add_ns(ktime_get(), gap));
	return HRTIMER_RESTART;
}

static enum hrtimer_restart hard_fn(struct hrtimer *h)
{
	u64 start = local_clock();

	one_timer(&qslt_hard_lock, CTX_HARD);
	return rearm(h, CTX_HARD, hard_us, start);
}

static enum hrtimer_restart soft_fn(struct hrtimer *h)
{
	u64 start = local_clock();

	one_timer(&qslt_soft_lock, CTX_SOFT);
	return rearm(h, CTX_SOFT, soft_us, start);
}

static int task_fn(void *arg)
{
	/* Bound to its CPU by kthread_create_on_cpu(): raw_ is exact. */
	int cpu = raw_smp_processor_id();
	struct ctx_stats *s = raw_cpu_ptr(&stats[CTX_TASK]);
	struct hrtimer *hard = raw_cpu_ptr(&hard_timer);
	struct hrtimer *soft = raw_cpu_ptr(&soft_timer);
	struct rnd_state rnd;
	unsigned long iter = 0;
	int long_ms;
	/* The CPUs' long holds spread over the period, not all at once. */
	u64 period = (u64)long_every_ms * NSEC_PER_MSEC;
	u64 next_long = local_clock() + div_u64(period * (cpu + 1), nr_cpu_ids + 1);

	prandom_seed_state(&rnd, cpu + 1);
	/* Start this CPU's timers here: pinned timers stay where started. */
	hrtimer_start(hard, ns_to_ktime(hard_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	hrtimer_start(soft, ns_to_ktime(soft_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_SOFT);

	while (!kthread_should_stop()) {
		int n = prandom_u32_state(&rnd) % task_locks;
		struct tlock *t = &qslt_task_lock[n];

		if ((++iter & 7) == 0 && !busted) {
			/* Every eighth round: a trylock. */
			if (!spin_trylock(&t->lock)) {
				s->try_fail++;
				cpu_relax();
				continue;
			}
			s->try_ok++;
		} else {
			u64 t0 = local_clock(), w;

			take(t, CTX_TASK);
			w = local_clock() - t0;
			if (w > s->max_wait_ns)
				s->max_wait_ns = w;
		}
		long_ms = 0;
		if (long_hold_ms && local_clock() >= next_long) {
			next_long = local_clock() + period;
			long_ms = long_hold_ms;
		}
		critical(t, n, CTX_TASK, long_ms);
		drop(t, CTX_TASK);
		/* Without preemption, let the waker of insmod in promptly. */
		cond_resched();
	}
	return 0;
}

#ifdef CONFIG_X86
static DEFINE_PER_CPU(atomic_t, nmi_owed);
static struct task_struct *nmi_thread;
static unsigned long nmi_sent;

static int qslt_nmi(unsigned int type, struct pt_regs *regs)
{
	/* Only NMIs we sent are ours; a coalesced one may leave credit. */
	if (atomic_dec_if_positive(this_cpu_ptr(&nmi_owed)) < 0)
		return NMI_DONE;
	one_timer(&qslt_nmi_lock, CTX_NMI);
	return NMI_HANDLED;
}

static int nmi_fn(void *arg)
{
	int cpu;

	while (!kthread_should_stop()) {
		for_each_online_cpu(cpu) {
			if (cpu == raw_smp_processor_id())
				continue;
			atomic_inc(per_cpu_ptr(&nmi_owed, cpu));
			apic->send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
			nmi_sent++;
		}
		usleep_range(nmi_us, nmi_us + 50);
	}
	return 0;
}

static int qslt_start_nmi(void)
{
	int ret;

	if (!nmi_us || num_online_cpus() < 2) {
		pr_info("NMI: skipped (nmi_us=0 or a single CPU)\n");
		return 0;
	}
	ret = register_nmi_handler(NMI_LOCAL, qslt_nmi, 0, "qsl_torture");
	if (ret)
		return ret;
	nmi_thread = kthread_run(nmi_fn, NULL, "qslt_nmi");
	if (IS_ERR(nmi_thread)) {
		unregister_nmi_handler(NMI_LOCAL, "qsl_torture");
		ret = PTR_ERR(nmi_thread);
		nmi_thread = NULL;
	}
	return ret;
}

static void qslt_stop_nmi(void)
{
	if (!nmi_thread)
		return;
	kthread_stop(nmi_thread);
	/* Let NMIs in flight land before the handler goes. */
	msleep(20);
	unregister_nmi_handler(NMI_LOCAL, "qsl_torture");
	pr_info("NMI: %lu sent by IPI\n", nmi_sent);
}
#else
static int qslt_start_nmi(void)
{
	pr_info("NMI: skipped (NMIs are sent by IPI on x86 only)\n");
	return 0;
}

static void qslt_stop_nmi(void)
{
}
#endif

/* What a lock word looks like while held, to tell which lock runs. */
static const char *lock_shape(void)
{
	struct tlock probe;
	u32 v;

	/*
	 * spin_lock_init(), not an initializer: a lock on the stack needs
	 * the static lockdep key the macro supplies (lockdep otherwise turns
	 * itself off: "trying to register non-static key").
	 */
	spin_lock_init(&probe.lock);
	spin_lock(&probe.lock);
	v = lock_word(&probe);
	spin_unlock(&probe.lock);
	if (v == 1)
		return "qspinlock";		/* locked byte, nothing else */
	if (v == 0x10000)
		return "ticket";		/* next ticket 1, serving 0 */
	if (v == 0xff)
		return "test-and-set";		/* LDSTUB wrote 0xff */
	return "unknown";
}

static void check_counts(struct tlock *t, int n, int ctx)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(stats[ctx], cpu).lock_acq[n];
	if (sum != t->count)
		fail("%s lock %d: %lu acquisitions but the counter says %lu (%ld lost updates)",
		     ctx_name[ctx], n, sum, t->count, (long)(sum - t->count));
}

static void report(const char *shape)
{
	struct ctx_stats tot[NR_CTX] = {};
	unsigned long tmax = 0, tmin = ULONG_MAX;
	u64 max_wait = 0;
	int cpu, c, i;

	for_each_online_cpu(cpu) {
		for (c = 0; c < NR_CTX; c++) {
			struct ctx_stats *s = per_cpu_ptr(&stats[c], cpu);

			tot[c].acq += s->acq;
			tot[c].pending += s->pending;
			tot[c].queue += s->queue;
			for (i = 0; i < 4; i++)
				tot[c].idx[i] += s->idx[i];
			tot[c].waiters += s->waiters;
			tot[c].waited += s->waited;
			tot[c].contended += s->contended;
			tot[c].try_ok += s->try_ok;
			tot[c].try_fail += s->try_fail;
			tot[c].long_holds += s->long_holds;
			tot[c].stretched += s->stretched;
		}
		tmax = max(tmax, per_cpu_ptr(&stats[CTX_TASK], cpu)->acq);
		tmin = min(tmin, per_cpu_ptr(&stats[CTX_TASK], cpu)->acq);
		max_wait = max(max_wait, per_cpu_ptr(&stats[CTX_TASK], cpu)->max_wait_ns);
	}

	for (c = 0; c < NR_CTX; c++)
		pr_info("%-7s acq=%lu pending=%lu queue=%lu idx0=%lu idx1=%lu idx2=%lu idx3=%lu waiters=%lu waited=%lu contended=%lu\n",
			ctx_name[c], tot[c].acq, tot[c].pending, tot[c].queue,
			tot[c].idx[0], tot[c].idx[1], tot[c].idx[2], tot[c].idx[3],
			tot[c].waiters, tot[c].waited, tot[c].contended);
	pr_info("task threads: max/min acquisitions %lu/%lu, worst wait %llu us, trylock %lu ok %lu busy, %lu long holds of %d ms\n",
		tmax, tmin, max_wait / NSEC_PER_USEC,
		tot[CTX_TASK].try_ok, tot[CTX_TASK].try_fail,
		tot[CTX_TASK].long_holds, long_hold_ms);
	pr_info("timers: hard %lu runs, %lu gaps stretched; soft %lu runs, %lu gaps stretched (a handler that ran longer than a quarter of its period)\n",
		tot[CTX_HARD].acq, tot[CTX_HARD].stretched,
		tot[CTX_SOFT].acq, tot[CTX_SOFT].stretched);

	for (c = 1; c < NR_CTX; c++) {
		tot[0].pending += tot[c].pending;
		tot[0].queue += tot[c].queue;
		for (i = 0; i < 4; i++)
			tot[0].idx[i] += tot[c].idx[i];
		tot[0].waiters += tot[c].waiters;
		tot[0].waited += tot[c].waited;
	}
	if (atomic_read(&failures)) {
		pr_info("RESULT FAIL %s (%d failures in all)\n", failure,
			atomic_read(&failures));
		return;
	}
	pr_info("RESULT PASS shape=%s task=%lu softirq=%lu hardirq=%lu nmi=%lu pending=%lu queue=%lu idx1=%lu idx2=%lu idx3=%lu waiters=%lu waited=%lu fair=%lu/%lu maxwait_us=%llu long=%lu\n",
		shape, tot[CTX_TASK].acq, tot[CTX_SOFT].acq, tot[CTX_HARD].acq,
		tot[CTX_NMI].acq, tot[0].pending, tot[0].queue,
		tot[0].idx[1], tot[0].idx[2], tot[0].idx[3], tot[0].waiters,
		tot[0].waited,
		tmax, tmin, max_wait / NSEC_PER_USEC,
		tot[CTX_TASK].long_holds);
}

static int __init qsl_torture_init(void)
{
	const char *shape = lock_shape();
	int cpu, i, ret;

	if (duration < 1 || task_locks < 1 || task_locks > MAX_LOCKS ||
	    hold < 0 || hard_us < 1 || soft_us < 1 || nmi_us < 0 ||
	    long_hold_ms < 0 || (long_hold_ms && long_hold_ms >= long_every_ms))
		return -EINVAL;

	for (i = 0; i < MAX_LOCKS; i++) {
		spin_lock_init(&qslt_task_lock[i].lock);
		qslt_task_lock[i].owner = NO_OWNER;
	}
	spin_lock_init(&qslt_soft_lock.lock);
	spin_lock_init(&qslt_hard_lock.lock);
	spin_lock_init(&qslt_nmi_lock.lock);
	qslt_soft_lock.owner = qslt_hard_lock.owner = qslt_nmi_lock.owner = NO_OWNER;

	pr_info("start: %u cpus, %ds, %d task locks, hold %d, long hold %d ms every %d ms, hrtimers %d/%d us, lock word shape %s%s\n",
		num_online_cpus(), duration, task_locks, hold, long_hold_ms,
		long_every_ms, hard_us, soft_us,
		shape, busted ? ", BUSTED lock (negative control)" : "");

	/*
	 * Every timer first: the error path below cancels the timers of all
	 * online CPUs, and hrtimer_cancel() reads the base of the timer.
	 */
	for_each_online_cpu(cpu) {
		hrtimer_init(per_cpu_ptr(&hard_timer, cpu), CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		per_cpu_ptr(&hard_timer, cpu)->function = hard_fn;
		hrtimer_init(per_cpu_ptr(&soft_timer, cpu), CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_SOFT);
		per_cpu_ptr(&soft_timer, cpu)->function = soft_fn;
	}

	for_each_online_cpu(cpu) {
		struct task_struct *p;

		p = kthread_create_on_cpu(task_fn, NULL, cpu, "qslt_task/%u");
		if (IS_ERR(p)) {
			pr_info("RESULT FAIL cannot start a thread on cpu %d\n", cpu);
			ret = PTR_ERR(p);
			goto stop;
		}
		per_cpu(task_thread, cpu) = p;
		wake_up_process(p);
	}
	ret = qslt_start_nmi();
	if (ret)
		pr_info("NMI: cannot register a handler (%d); NMI context not tested\n", ret);

	/* Interruptible: a 30 s hung-task check must not count this sleep. */
	msleep_interruptible(duration * MSEC_PER_SEC);
	ret = 0;
stop:
	WRITE_ONCE(stopping, true);
	qslt_stop_nmi();
	for_each_online_cpu(cpu) {
		if (per_cpu(task_thread, cpu))
			kthread_stop(per_cpu(task_thread, cpu));
		hrtimer_cancel(per_cpu_ptr(&hard_timer, cpu));
		hrtimer_cancel(per_cpu_ptr(&soft_timer, cpu));
	}
	if (ret)
		return ret;

	for (i = 0; i < task_locks; i++)
		check_counts(&qslt_task_lock[i], i, CTX_TASK);
	check_counts(&qslt_soft_lock, 0, CTX_SOFT);
	check_counts(&qslt_hard_lock, 0, CTX_HARD);
	check_counts(&qslt_nmi_lock, 0, CTX_NMI);
	report(shape);
	return 0;
}

static void __exit qsl_torture_exit(void)
{
}

module_init(qsl_torture_init);
module_exit(qsl_torture_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Torture test for the paths of the queued spinlock");
