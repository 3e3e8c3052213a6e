/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker: the simulated CPU that runs now. */
#ifndef _VC_LINUX_SMP_H
#define _VC_LINUX_SMP_H

#include <linux/compiler.h>
#include <linux/atomic.h>

#ifndef CONFIG_NR_CPUS
#error "CONFIG_NR_CPUS must be given on the command line"
#endif

extern int vc_cpu;
#define smp_processor_id()	(vc_cpu)
#define raw_smp_processor_id()	(vc_cpu)

#endif /* _VC_LINUX_SMP_H */
