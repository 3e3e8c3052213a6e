/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: <asm/qspinlock.h> of an architecture that takes
 * the generic queued spinlock as it is (sparc64 before step 8, which adds
 * exactly this file, and x86 at step 1, before step 2 adds its own).
 */
#ifndef _LAB_ASM_QSPINLOCK_H
#define _LAB_ASM_QSPINLOCK_H

#include <asm-generic/qspinlock_types.h>
#include <asm-generic/qspinlock.h>

#endif /* _LAB_ASM_QSPINLOCK_H */
