/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: a CPU is a thread.  Each thread is given a CPU id
 * when it starts (the program sets lab_cpu); smp_processor_id() returns
 * it.  The ids need not be dense: the lab picks the highest the tail can
 * encode.
 */
#ifndef _LAB_LINUX_SMP_H
#define _LAB_LINUX_SMP_H

#include <linux/compiler.h>
/* As in the kernel, where <linux/smp.h> reaches it through <linux/llist.h>. */
#include <linux/atomic.h>

#ifndef CONFIG_NR_CPUS
#error "CONFIG_NR_CPUS must be given on the command line"
#endif

extern __thread int lab_cpu;

#define smp_processor_id()	(lab_cpu)
#define raw_smp_processor_id()	(lab_cpu)

#endif /* _LAB_LINUX_SMP_H */
