/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: no architecture override of the MCS spin and
 * hand-off, as on x86 and sparc64 (the generic include/asm-generic/
 * mcs_spinlock.h is empty too).
 */
#ifndef _LAB_ASM_MCS_SPINLOCK_H
#define _LAB_ASM_MCS_SPINLOCK_H

#endif /* _LAB_ASM_MCS_SPINLOCK_H */
