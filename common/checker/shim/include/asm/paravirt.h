/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker, paravirt layout: x86's pv_ops for spinlocks, installed.
 *
 * The slowpath and the unlock are the paravirt ones of the step
 * (kernel/locking/qspinlock_paravirt.h), called directly, as pv_ops hold
 * them once a backend has installed them at boot.  pv_wait() and
 * pv_kick() are the checker's backend (common/checker/api.c): a halt that
 * only a kick ends (or, with -S, a spurious wake-up while its CPU has one
 * left), so that a lost kick is a hang the checker reports.
 */
#ifndef _VC_ASM_PARAVIRT_H
#define _VC_ASM_PARAVIRT_H

#include <linux/types.h>

struct qspinlock;

void __pv_queued_spin_lock_slowpath(struct qspinlock *lock, u32 val);
void __pv_queued_spin_unlock(struct qspinlock *lock);
void vc_pv_wait(u8 *ptr, u8 val);
void vc_pv_kick(int cpu);

static __always_inline void pv_queued_spin_lock_slowpath(struct qspinlock *lock,
							 u32 val)
{
	__pv_queued_spin_lock_slowpath(lock, val);
}

static __always_inline void pv_queued_spin_unlock(struct qspinlock *lock)
{
	__pv_queued_spin_unlock(lock);
}

#define pv_wait(ptr, val)	vc_pv_wait(ptr, val)
#define pv_kick(cpu)		vc_pv_kick(cpu)

#endif /* _VC_ASM_PARAVIRT_H */
