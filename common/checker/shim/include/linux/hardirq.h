/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: nothing of <linux/hardirq.h> is used; the lab's
 * "interrupts" are signal handlers (see common/lab/lab.c).
 */
#ifndef _LAB_LINUX_HARDIRQ_H
#define _LAB_LINUX_HARDIRQ_H

#endif /* _LAB_LINUX_HARDIRQ_H */
