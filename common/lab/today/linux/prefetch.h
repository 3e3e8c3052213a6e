/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab benchmark, "today" only: <linux/prefetch.h>.  6.1's qspinlock.c
 * prefetches the next queue node for writing; on x86 prefetchw() is a
 * PREFETCHW where the CPU has X86_FEATURE_3DNOWPREFETCH, as every x86_64
 * CPU the lab is meant for has (AMD since K8, Intel since Broadwell).
 * The lock checker's stand-in (common/checker/today/linux/prefetch.h)
 * drops it, which changes no value; here it is timed, so it is kept.
 */
#ifndef _LAB_TODAY_LINUX_PREFETCH_H
#define _LAB_TODAY_LINUX_PREFETCH_H

static inline void lab_prefetchw(const void *x)
{
	__asm__ __volatile__("prefetchw %P0" : : "m" (*(const char *)x));
}
#define prefetchw(x)	lab_prefetchw(x)

#endif /* _LAB_TODAY_LINUX_PREFETCH_H */
