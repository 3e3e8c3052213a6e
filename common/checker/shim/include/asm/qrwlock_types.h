/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: the generic ticket lock's headers end by pulling in
 * the queued rwlock, which the lab does not model.  Empty on purpose.
 */
#ifndef _LAB_ASM_QRWLOCK_TYPES_H
#define _LAB_ASM_QRWLOCK_TYPES_H
#endif
