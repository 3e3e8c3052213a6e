/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker, "today" only: <asm/qspinlock.h> for 6.1's own lock.
 *
 * 6.1's x86 header cannot be compiled here (its pending bit is a LOCK
 * BTSL in inline assembly, which the instrumentation cannot see), so this
 * one stands in for it.  Natively (nr64, nr16k) it is the generic header,
 * whose unlock is 6.1's native x86 unlock, a byte store-release.  In the
 * paravirt layout (pv) it does what 6.1's x86 header does under
 * CONFIG_PARAVIRT_SPINLOCKS, with pv_ops installed by a backend: the
 * slowpath and the unlock are 6.1's paravirt ones, from
 * kernel/locking/qspinlock_paravirt.h (the shim's asm/paravirt.h calls
 * them directly), and the native slowpath, which qspinlock.c renames
 * then, is declared under its new name.
 */
#ifndef _VC_TODAY_ASM_QSPINLOCK_H
#define _VC_TODAY_ASM_QSPINLOCK_H

#include <asm-generic/qspinlock_types.h>

#ifdef CONFIG_PARAVIRT_SPINLOCKS
#include <asm/paravirt.h>

void native_queued_spin_lock_slowpath(struct qspinlock *lock, u32 val);
void __pv_init_lock_hash(void);

#define queued_spin_unlock queued_spin_unlock
static inline void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val)
{
	pv_queued_spin_lock_slowpath(lock, val);
}

static inline void queued_spin_unlock(struct qspinlock *lock)
{
	pv_queued_spin_unlock(lock);
}
#endif

#include <asm-generic/qspinlock.h>

#endif /* _VC_TODAY_ASM_QSPINLOCK_H */
