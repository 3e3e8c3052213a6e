/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: cpu_relax().
 *
 * A spin-wait hint, as in the kernel (PAUSE on x86), and a compiler
 * barrier.  Every lab_relax_mask + 1 calls it also calls the driver's
 * lab_relax_hook(), which does two things a real CPU gets for free:
 *
 *  - It gives the core away (sched_yield()).  The lab's CPUs are threads
 *    the host may preempt, on fewer cores than the lab has CPUs: a waiter
 *    spinning behind a preempted lock holder only burns the time that
 *    holder needs.
 *  - Now and then it raises the next "interrupt" on its own thread, so a
 *    handler runs while this context spins in the slowpath, as an
 *    interrupt would, and nested contexts pile up on one CPU.
 *
 * Both change when things happen, never what the lock code does.
 */
#ifndef _LAB_ASM_PROCESSOR_H
#define _LAB_ASM_PROCESSOR_H

#include <linux/compiler.h>

extern __thread unsigned int lab_relax_count;
extern unsigned int lab_relax_mask;
void lab_relax_hook(void);

static __always_inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("rep; nop" : : : "memory");
#else
	barrier();
#endif
	if (!(++lab_relax_count & lab_relax_mask))
		lab_relax_hook();
}

#endif /* _LAB_ASM_PROCESSOR_H */
