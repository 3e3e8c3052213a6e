/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker, paravirt layout: what kernel/locking/qspinlock_paravirt.h
 * takes from <linux/spinlock.h> (and x86's <asm/spinlock.h> behind it).
 *
 * SPIN_THRESHOLD: a paravirt waiter spins this many rounds, then halts.
 * The kernel's is 1 << 15.  Here it is one round whose cpu_relax() is a
 * bounded wait (vc_spin_bound(), common/checker/tsan.c): the checker
 * may end it whether or not what the waiter read has changed, as 32768
 * rounds of spinning end on a real CPU.  An unbounded spin (the MCS wait,
 * pv_wait()'s halt) waits for a change, as everywhere else.  Under the
 * cost model (cost -T) the loop has more rounds (vc_spin_rounds()) and
 * ends, if nothing ends it sooner, -B cycles after it began.
 */
#ifndef _VC_LINUX_SPINLOCK_H
#define _VC_LINUX_SPINLOCK_H

#include <linux/compiler.h>

void vc_spin_bound(int on);
int vc_spin_rounds(void);

#define SPIN_THRESHOLD	(vc_spin_bound(1), vc_spin_rounds())
#define __lockfunc

#endif /* _VC_LINUX_SPINLOCK_H */
