/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace lock lab: nothing of <linux/cpumask.h> is used. */
#ifndef _LAB_LINUX_CPUMASK_H
#define _LAB_LINUX_CPUMASK_H

#include <linux/smp.h>

/* Every CPU the tail can name (the paravirt lock hash is sized by it). */
#define num_possible_cpus()	CONFIG_NR_CPUS

#endif /* _LAB_LINUX_CPUMASK_H */
