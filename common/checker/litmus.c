// SPDX-License-Identifier: GPL-2.0
/*
 * Lock checker: litmus tests, the checker's tests of its own memory
 * models, each with what each model must answer (see vc_litmus_tests[]).
 *
 * Compiled like the lock and its users (api.c), with -fsanitize=thread,
 * and linked with the step's lock: the first tests are the classic shapes
 * on plain variables, the last ones are the lock tests of the 6.1 tree's
 * tools/memory-model/litmus-tests/, translated to C on the step's own
 * spin_lock().  `verify -L NAME` explores every execution of one test and
 * says whether its "exists" clause can be true at the end.
 *
 * The variables live in the checker's modelled memory (vc_vars()); the
 * registers (r[thread][k]) are ordinary globals, private to the thread
 * that writes them and read by the exists clause after the end.
 */
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/processor.h>
#include <linux/atomic.h>
#include "vc.h"

static int r[VC_LITMUS_THREADS][4];

#define V		vc_vars()
#define lock0		vc_lockref_of(0)
#define lock1		vc_lockref_of(1)
#define spin_lock(l)	vc_api_lock(l)
#define spin_unlock(l)	vc_api_unlock(l)
#define spin_is_locked(l) vc_api_is_locked(l)
/*
 * The architectures whose spin_lock() is not a full barrier (arm64,
 * powerpc, riscv) define smp_mb__after_spinlock() as smp_mb().
 */
#define smp_mb__after_spinlock() smp_mb()

#define VC_REGS	.regs = r, .regs_size = sizeof(r)

void vc_litmus_reset(void)
{
	__builtin_memset(r, 0, sizeof(r));
}

/* SB: each CPU stores, then loads the other's variable. */
static void sb_0(void)
{
	WRITE_ONCE(V->x, 1);
	r[0][0] = READ_ONCE(V->y);
}

static void sb_1(void)
{
	WRITE_ONCE(V->y, 1);
	r[1][0] = READ_ONCE(V->x);
}

static int sb_exists(void)
{
	return r[0][0] == 0 && r[1][0] == 0;
}

static void sb_mb_0(void)
{
	WRITE_ONCE(V->x, 1);
	smp_mb();
	r[0][0] = READ_ONCE(V->y);
}

static void sb_mb_1(void)
{
	WRITE_ONCE(V->y, 1);
	smp_mb();
	r[1][0] = READ_ONCE(V->x);
}

/* MP: a message and its flag. */
static void mp_0(void)
{
	WRITE_ONCE(V->x, 1);
	WRITE_ONCE(V->y, 1);
}

static void mp_1(void)
{
	r[1][0] = READ_ONCE(V->y);
	r[1][1] = READ_ONCE(V->x);
}

static int mp_exists(void)
{
	return r[1][0] == 1 && r[1][1] == 0;
}

static void mp_wmb_0(void)
{
	WRITE_ONCE(V->x, 1);
	smp_wmb();
	WRITE_ONCE(V->y, 1);
}

static void mp_rmb_1(void)
{
	r[1][0] = READ_ONCE(V->y);
	smp_rmb();
	r[1][1] = READ_ONCE(V->x);
}

static void mp_rel_0(void)
{
	WRITE_ONCE(V->x, 1);
	smp_store_release(&V->y, 1);
}

static void mp_acq_1(void)
{
	r[1][0] = smp_load_acquire(&V->y);
	r[1][1] = READ_ONCE(V->x);
}

/* LB: each CPU loads, then stores what the other loads. */
static void lb_0(void)
{
	r[0][0] = READ_ONCE(V->x);
	WRITE_ONCE(V->y, 1);
}

static void lb_1(void)
{
	r[1][0] = READ_ONCE(V->y);
	WRITE_ONCE(V->x, 1);
}

static int lb_exists(void)
{
	return r[0][0] == 1 && r[1][0] == 1;
}

/* 2+2W: two stores each, in opposite orders; both first ones win. */
static void w22_0(void)
{
	WRITE_ONCE(V->x, 1);
	WRITE_ONCE(V->y, 2);
}

static void w22_1(void)
{
	WRITE_ONCE(V->y, 1);
	WRITE_ONCE(V->x, 2);
}

static void w22_wmb_0(void)
{
	WRITE_ONCE(V->x, 1);
	smp_wmb();
	WRITE_ONCE(V->y, 2);
}

static void w22_wmb_1(void)
{
	WRITE_ONCE(V->y, 1);
	smp_wmb();
	WRITE_ONCE(V->x, 2);
}

static int w22_exists(void)
{
	return V->x == 1 && V->y == 1;
}

/* IRIW: two readers see two independent stores in opposite orders. */
static void iriw_0(void)
{
	WRITE_ONCE(V->x, 1);
}

static void iriw_1(void)
{
	WRITE_ONCE(V->y, 1);
}

static void iriw_2(void)
{
	r[2][0] = READ_ONCE(V->x);
	r[2][1] = READ_ONCE(V->y);
}

static void iriw_3(void)
{
	r[3][0] = READ_ONCE(V->y);
	r[3][1] = READ_ONCE(V->x);
}

static void iriw_rmb_2(void)
{
	r[2][0] = READ_ONCE(V->x);
	smp_rmb();
	r[2][1] = READ_ONCE(V->y);
}

static void iriw_rmb_3(void)
{
	r[3][0] = READ_ONCE(V->y);
	smp_rmb();
	r[3][1] = READ_ONCE(V->x);
}

static void iriw_mb_2(void)
{
	r[2][0] = READ_ONCE(V->x);
	smp_mb();
	r[2][1] = READ_ONCE(V->y);
}

static void iriw_mb_3(void)
{
	r[3][0] = READ_ONCE(V->y);
	smp_mb();
	r[3][1] = READ_ONCE(V->x);
}

static int iriw_exists(void)
{
	return r[2][0] == 1 && r[2][1] == 0 && r[3][0] == 1 && r[3][1] == 0;
}

/* CoRR: two loads of one location never see its stores backwards. */
static void corr_0(void)
{
	WRITE_ONCE(V->x, 1);
	WRITE_ONCE(V->x, 2);
}

static void corr_1(void)
{
	r[1][0] = READ_ONCE(V->x);
	r[1][1] = READ_ONCE(V->x);
}

static int corr_exists(void)
{
	return r[1][0] == 2 && r[1][1] == 1;
}

/* WRC: a release is cumulative over what its CPU read before it. */
static void wrc_0(void)
{
	WRITE_ONCE(V->x, 1);
}

static void wrc_1(void)
{
	r[1][0] = READ_ONCE(V->x);
	smp_store_release(&V->y, 1);
}

static void wrc_2(void)
{
	r[2][0] = READ_ONCE(V->y);
	smp_rmb();
	r[2][1] = READ_ONCE(V->x);
}

static int wrc_exists(void)
{
	return r[1][0] == 1 && r[2][0] == 1 && r[2][1] == 0;
}

/* ---- tools/memory-model/litmus-tests/, on the step's lock ------------ */

/* ISA2+pooncelock+pooncelock+pombonce */
static void isa2_0(void)
{
	spin_lock(lock0);
	WRITE_ONCE(V->x, 1);
	WRITE_ONCE(V->y, 1);
	spin_unlock(lock0);
}

static void isa2_1(void)
{
	spin_lock(lock0);
	r[1][0] = READ_ONCE(V->y);
	WRITE_ONCE(V->z, 1);
	spin_unlock(lock0);
}

static void isa2_2(void)
{
	r[2][2] = READ_ONCE(V->z);
	smp_mb();
	r[2][1] = READ_ONCE(V->x);
}

static int isa2_exists(void)
{
	return r[1][0] == 1 && r[2][2] == 1 && r[2][1] == 0;
}

/* LB+unlocklockonceonce+poacquireonce */
static void lbul_0(void)
{
	spin_lock(lock0);
	r[0][1] = READ_ONCE(V->x);
	spin_unlock(lock0);
	spin_lock(lock1);
	WRITE_ONCE(V->y, 1);
	spin_unlock(lock1);
}

static void lbul_1(void)
{
	r[1][2] = smp_load_acquire(&V->y);
	WRITE_ONCE(V->x, 1);
}

static int lbul_exists(void)
{
	return r[0][1] == 1 && r[1][2] == 1;
}

/* MP+polockmbonce+poacquiresilsil and MP+polockonce+poacquiresilsil */
static void mpsil_mb_0(void)
{
	spin_lock(lock0);
	smp_mb__after_spinlock();
	WRITE_ONCE(V->x, 1);
	spin_unlock(lock0);
}

static void mpsil_0(void)
{
	spin_lock(lock0);
	WRITE_ONCE(V->x, 1);
	spin_unlock(lock0);
}

static void mpsil_1(void)
{
	r[1][1] = smp_load_acquire(&V->x);
	r[1][2] = spin_is_locked(lock0);
	r[1][3] = spin_is_locked(lock0);
}

static int mpsil_exists(void)
{
	return r[1][1] == 1 && r[1][2] == 0 && r[1][3] == 1;
}

/* MP+polocks */
static void mpl_0(void)
{
	WRITE_ONCE(V->buf, 1);
	spin_lock(lock0);
	WRITE_ONCE(V->flag, 1);
	spin_unlock(lock0);
}

static void mpl_1(void)
{
	spin_lock(lock0);
	r[1][0] = READ_ONCE(V->flag);
	spin_unlock(lock0);
	r[1][1] = READ_ONCE(V->buf);
}

static int mpl_exists(void)
{
	return r[1][0] == 1 && r[1][1] == 0;
}

/* MP+porevlocks */
static void mprl_0(void)
{
	r[0][0] = READ_ONCE(V->flag);
	spin_lock(lock0);
	r[0][1] = READ_ONCE(V->buf);
	spin_unlock(lock0);
}

static void mprl_1(void)
{
	spin_lock(lock0);
	WRITE_ONCE(V->buf, 1);
	spin_unlock(lock0);
	WRITE_ONCE(V->flag, 1);
}

static int mprl_exists(void)
{
	return r[0][0] == 1 && r[0][1] == 0;
}

/* MP+unlocklockonceonce+fencermbonceonce */
static void mpul_0(void)
{
	spin_lock(lock0);
	WRITE_ONCE(V->x, 1);
	spin_unlock(lock0);
	spin_lock(lock1);
	WRITE_ONCE(V->y, 1);
	spin_unlock(lock1);
}

static void mpul_1(void)
{
	r[1][1] = READ_ONCE(V->y);
	smp_rmb();
	r[1][2] = READ_ONCE(V->x);
}

static int mpul_exists(void)
{
	return r[1][1] == 1 && r[1][2] == 0;
}

/* Z6.0+pooncelock+poonceLock+pombonce and Z6.0+pooncelock+pooncelock+pombonce */
static void z6_0(void)
{
	spin_lock(lock0);
	WRITE_ONCE(V->x, 1);
	WRITE_ONCE(V->y, 1);
	spin_unlock(lock0);
}

static void z6_mb_1(void)
{
	spin_lock(lock0);
	smp_mb__after_spinlock();
	r[1][0] = READ_ONCE(V->y);
	WRITE_ONCE(V->z, 1);
	spin_unlock(lock0);
}

static void z6_1(void)
{
	spin_lock(lock0);
	r[1][0] = READ_ONCE(V->y);
	WRITE_ONCE(V->z, 1);
	spin_unlock(lock0);
}

static void z6_2(void)
{
	WRITE_ONCE(V->z, 2);
	smp_mb();
	r[2][1] = READ_ONCE(V->x);
}

static int z6_exists(void)
{
	return r[1][0] == 1 && V->z == 2 && r[2][1] == 0;
}

/* CoWR: a CPU's load after its own store reads that store or a later one. */
static void cowr_0(void)
{
	WRITE_ONCE(V->x, 1);
	r[0][0] = READ_ONCE(V->x);
}

static void cowr_1(void)
{
	WRITE_ONCE(V->x, 2);
}

static int cowr_exists(void)
{
	return r[0][0] == 0;
}

/*
 * A spin loop that waits on two flags: it must wake when either changes
 * (the checker's wait watches every location loaded since the last
 * cpu_relax()).
 */
static void await2_0(void)
{
	while (!READ_ONCE(V->x) && !READ_ONCE(V->y))
		cpu_relax();
	r[0][0] = 1;
}

static void await2_1(void)
{
	WRITE_ONCE(V->y, 1);
}

static int await2_exists(void)
{
	return r[0][0] == 0;
}

/*
 * A release sequence: P1's relaxed xchg reads P0's release and stores 2;
 * P2's acquire reads 2 and must see what the release ordered (x = 1), as
 * lockref's relaxed cmpxchg after an unlock needs.
 */
static void rseq_1(void)
{
	r[1][0] = xchg_relaxed(&V->y, 2);
}

static void rseq_2(void)
{
	r[2][0] = smp_load_acquire(&V->y);
	r[2][1] = READ_ONCE(V->x);
}

static int rseq_exists(void)
{
	return r[1][0] == 1 && r[2][0] == 2 && r[2][1] == 0;
}

/*
 * The checker's own regression tests: behaviours its weak
 * model allows that an earlier search missed.
 *
 * S3: two writers, one reader.  Nothing orders the reader's load of z
 * before its load of y, so it may see z = 1 and still y = 0.  DPOR missed
 * it with P0 first (and found it with the threads swapped) while it took
 * two stores to different locations for independent: under the weak
 * model they are not (explore.c, dependent()).
 */
static void s3_xchg(void)
{
	xchg_relaxed(&V->y, 1);
	smp_wmb();
	WRITE_ONCE(V->z, 1);
}

static void s3_rel(void)
{
	WRITE_ONCE(V->x, 1);
	smp_store_release(&V->flag, 1);
}

static void s3_read(void)
{
	r[2][0] = READ_ONCE(V->z);
	r[2][1] = smp_load_acquire(&V->flag);
	r[2][2] = READ_ONCE(V->y);
}

static int s3_exists(void)
{
	return r[2][0] == 1 && r[2][1] == 1 && r[2][2] == 0;
}

/*
 * A hand-over through spinning CPUs: P1 waits for x = 1 and stores 2, P2
 * waits for x = 2, then smp_rmb() and reads buf.  P1's store of 2 carries
 * no barrier, so P2 may still read the old buf.  The search missed it
 * while it hid failed spin iterations from its race analysis: under the
 * weak model such a load moves its CPU's view (explore.c, failed_spin()).
 */
static void hand_0(void)
{
	WRITE_ONCE(V->buf, 1);
	smp_store_release(&V->x, 1);
}

static void hand_1(void)
{
	while (READ_ONCE(V->x) != 1)
		cpu_relax();
	WRITE_ONCE(V->x, 2);
}

static void hand_2(void)
{
	while (READ_ONCE(V->x) != 2)
		cpu_relax();
	smp_rmb();
	r[2][0] = READ_ONCE(V->buf);
}

static int hand_exists(void)
{
	return r[2][0] == 0;
}

/*
 * A release followed by an acquire on one CPU.  SB through them: the
 * weak model lets the store pass the later load, as POWER's lwsync and the
 * kernel's memory model do (ARMv8's RCsc pair forbids it).
 */
static void sbra_0(void)
{
	smp_store_release(&V->x, 1);
	r[0][0] = smp_load_acquire(&V->y);
}

static void sbra_1(void)
{
	WRITE_ONCE(V->y, 1);
	smp_mb();
	r[1][0] = READ_ONCE(V->x);
}

/*
 * MP with the reader's loads on either side of a release and an acquire:
 * the load before the release is ordered before the load after the
 * acquire in every model here, as on POWER and ARMv8.  The kernel's
 * model allows the outcome (herd7: Sometimes; its release and acquire
 * are RCpc): common/checker/litmus/MP+wmb+release-acquire.litmus.
 */
static void mpra_1(void)
{
	r[1][0] = READ_ONCE(V->y);
	smp_store_release(&V->z, 1);
	r[1][2] = smp_load_acquire(&V->buf);
	r[1][1] = READ_ONCE(V->x);
}

/*
 * The same with the reader's two loads under two locks taken one after the
 * other: unlock then lock orders them (the kernel's memory model).
 */
static void mp2l_1(void)
{
	spin_lock(lock0);
	r[1][0] = READ_ONCE(V->y);
	spin_unlock(lock0);
	spin_lock(lock1);
	r[1][1] = READ_ONCE(V->x);
	spin_unlock(lock1);
}

/*
 * The tests, each with what every model must answer to its exists clause
 * (sc, tso, weak): a model that allows too much or too little fails
 * make verify.  "lock" tests run on every step's lock (and today's),
 * "plain" ones once.  The notes say where the weak model's answer stands
 * against real machines and the kernel's memory model (LKMM), as
 * common/checker/README.md does ("Memory models").  verify -L list prints
 * this table for the scripts.
 */
const struct vc_litmus vc_litmus_tests[] = {
	{ .name = "SB", .kind = "plain", .expect = { "never", "reachable", "reachable" },
	  .note = "store buffering: TSO's one reordering",
	  .threads = 2, .thread = { sb_0, sb_1 }, .exists = sb_exists, VC_REGS },
	{ .name = "SB+mbs", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "smp_mb() forbids it everywhere",
	  .threads = 2, .thread = { sb_mb_0, sb_mb_1 }, .exists = sb_exists, VC_REGS },
	{ .name = "MP", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .threads = 2, .thread = { mp_0, mp_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "MP+wmb", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "the reader's loads may still be reordered",
	  .threads = 2, .thread = { mp_wmb_0, mp_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "MP+rmb", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "the writer's stores may still be reordered",
	  .threads = 2, .thread = { mp_0, mp_rmb_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "MP+wmb+rmb", .kind = "plain", .expect = { "never", "never", "never" },
	  .threads = 2, .thread = { mp_wmb_0, mp_rmb_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "MP+release+acquire", .kind = "plain", .expect = { "never", "never", "never" },
	  .threads = 2, .thread = { mp_rel_0, mp_acq_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "LB", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "weak: not modelled (ARMv8 and POWER allow it): no load is reordered after a later store",
	  .threads = 2, .thread = { lb_0, lb_1 }, .exists = lb_exists, VC_REGS },
	{ .name = "2+2W", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .threads = 2, .thread = { w22_0, w22_1 }, .exists = w22_exists, VC_REGS },
	{ .name = "2+2W+wmbs", .kind = "plain", .expect = { "never", "never", "never" },
	  .threads = 2, .thread = { w22_wmb_0, w22_wmb_1 }, .exists = w22_exists, VC_REGS },
	{ .name = "IRIW", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .threads = 4, .thread = { iriw_0, iriw_1, iriw_2, iriw_3 }, .exists = iriw_exists, VC_REGS },
	{ .name = "IRIW+rmbs", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "as POWER (lwsync); ARMv8 and x86 forbid it",
	  .threads = 4, .thread = { iriw_0, iriw_1, iriw_rmb_2, iriw_rmb_3 }, .exists = iriw_exists, VC_REGS },
	{ .name = "IRIW+mbs", .kind = "plain", .expect = { "never", "never", "never" },
	  .threads = 4, .thread = { iriw_0, iriw_1, iriw_mb_2, iriw_mb_3 }, .exists = iriw_exists, VC_REGS },
	{ .name = "CoRR", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "coherence",
	  .threads = 2, .thread = { corr_0, corr_1 }, .exists = corr_exists, VC_REGS },
	{ .name = "WRC+release+rmb", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "a release orders what its CPU saw before it (cumulativity)",
	  .threads = 3, .thread = { wrc_0, wrc_1, wrc_2 }, .exists = wrc_exists, VC_REGS },
	{ .name = "ISA2+pooncelock+pooncelock+pombonce", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 3, .thread = { isa2_0, isa2_1, isa2_2 }, .exists = isa2_exists, VC_REGS },
	{ .name = "LB+unlocklockonceonce+poacquireonce", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 2, .thread = { lbul_0, lbul_1 }, .exists = lbul_exists, VC_REGS },
	{ .name = "MP+polockmbonce+poacquiresilsil", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 2, .thread = { mpsil_mb_0, mpsil_1 }, .exists = mpsil_exists, VC_REGS },
	{ .name = "MP+polockonce+poacquiresilsil", .kind = "lock", .expect = { "never", "never", "reachable" },
	  .note = "LKMM: Sometimes (the lock word's store is seen after the critical section's)",
	  .threads = 2, .thread = { mpsil_0, mpsil_1 }, .exists = mpsil_exists, VC_REGS },
	{ .name = "MP+polocks", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 2, .thread = { mpl_0, mpl_1 }, .exists = mpl_exists, VC_REGS },
	{ .name = "MP+porevlocks", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 2, .thread = { mprl_0, mprl_1 }, .exists = mprl_exists, VC_REGS },
	{ .name = "MP+unlocklockonceonce+fencermbonceonce", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 2, .thread = { mpul_0, mpul_1 }, .exists = mpul_exists, VC_REGS },
	{ .name = "Z6.0+pooncelock+poonceLock+pombonce", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Never",
	  .threads = 3, .thread = { z6_0, z6_mb_1, z6_2 }, .exists = z6_exists, VC_REGS },
	{ .name = "Z6.0+pooncelock+pooncelock+pombonce", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: Sometimes, and POWER; ARMv8 forbids it, and so does the weak model (one order of all stores)",
	  .threads = 3, .thread = { z6_0, z6_1, z6_2 }, .exists = z6_exists, VC_REGS },
	{ .name = "CoWR", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "coherence: a load after the CPU's own store reads it or a later one (store-buffer forwarding)",
	  .threads = 2, .thread = { cowr_0, cowr_1 }, .exists = cowr_exists, VC_REGS },
	{ .name = "await-two-flags", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "a spin loop on two flags wakes when either changes",
	  .threads = 2, .thread = { await2_0, await2_1 }, .exists = await2_exists, VC_REGS },
	{ .name = "MP+release+xchgrelaxed+acquire", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "a release sequence: an RMW carries the release it read to the acquire that reads it",
	  .threads = 3, .thread = { mp_rel_0, rseq_1, rseq_2 }, .exists = rseq_exists, VC_REGS },
	{ .name = "S3+xchg-wmb+release", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "the checker's regression: missed while two stores to different locations were independent under the weak model",
	  .threads = 3, .thread = { s3_xchg, s3_rel, s3_read }, .exists = s3_exists, VC_REGS },
	{ .name = "S3+release+xchg-wmb", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "the same with the writers swapped (it was found in this order)",
	  .threads = 3, .thread = { s3_rel, s3_xchg, s3_read }, .exists = s3_exists, VC_REGS },
	{ .name = "MP+spin-handover+rmb", .kind = "plain", .expect = { "never", "never", "reachable" },
	  .note = "the checker's regression: missed while failed spin iterations were hidden under the weak model",
	  .threads = 3, .thread = { hand_0, hand_1, hand_2 }, .exists = hand_exists, VC_REGS },
	{ .name = "SB+release-acquire+mb", .kind = "plain", .expect = { "never", "reachable", "reachable" },
	  .note = "weak: as POWER and LKMM (release then acquire orders no store before a later load); ARMv8 (RCsc) forbids it",
	  .threads = 2, .thread = { sbra_0, sbra_1 }, .exists = sb_exists, VC_REGS },
	{ .name = "MP+wmb+release-acquire", .kind = "plain", .expect = { "never", "never", "never" },
	  .note = "a load before a release is ordered before a load after a later acquire",
	  .threads = 2, .thread = { mp_wmb_0, mpra_1 }, .exists = mp_exists, VC_REGS },
	{ .name = "MP+wmb+unlock-lock", .kind = "lock", .expect = { "never", "never", "never" },
	  .note = "LKMM: unlock then lock orders the loads on either side (also ARMv8 and x86)",
	  .threads = 2, .thread = { mp_wmb_0, mp2l_1 }, .exists = mp_exists, VC_REGS },
	{ NULL }
};
