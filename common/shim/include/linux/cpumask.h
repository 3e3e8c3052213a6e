/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace lock lab: nothing of <linux/cpumask.h> is used. */
#ifndef _LAB_LINUX_CPUMASK_H
#define _LAB_LINUX_CPUMASK_H

#include <linux/smp.h>

#endif /* _LAB_LINUX_CPUMASK_H */
