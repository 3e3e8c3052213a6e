/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab benchmark, "today" only: force-included (-include) before 6.1's
 * kernel/locking/qspinlock.c and before bench.c when they are built
 * against 6.1's own lock headers.  It is the lock checker's vc-today.h
 * (common/checker/today/: what 6.1's lock takes from kernel headers the
 * shim does not provide, such as atomic_try_cmpxchg_acquire()), behind
 * _GNU_SOURCE: bench.c defines that before its first #include, which a
 * force-included header precedes, and glibc's CPU_SET() and
 * sched_setaffinity() need it.  The step binaries need none of this.
 */
#ifndef _LAB_TODAY_H
#define _LAB_TODAY_H

#define _GNU_SOURCE
#include <vc-today.h>

#endif /* _LAB_TODAY_H */
