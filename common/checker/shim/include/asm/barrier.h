/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: the kernel's memory barriers as C11 fences, and
 * smp_cond_load_*() as the kernel's generic version (asm-generic/barrier.h).
 */
#ifndef _LAB_ASM_BARRIER_H
#define _LAB_ASM_BARRIER_H

#include <linux/compiler.h>
#include <asm/processor.h>

#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic()	smp_mb()
#define smp_store_mb(var, value)					\
do {									\
	WRITE_ONCE(var, value);						\
	smp_mb();							\
} while (0)
#define smp_mb__after_atomic()	smp_mb()
#define smp_acquire__after_ctrl_dep()	smp_rmb()

#define smp_store_release(p, v)						\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)

/*
 * Spin until cond_expr, which may name the loaded value VAL, is true;
 * then order later accesses after that load.  As the kernel's generic
 * version: a READ_ONCE() loop with cpu_relax(), then a read barrier
 * after the control dependency.
 */
#define smp_cond_load_relaxed(ptr, cond_expr)				\
({									\
	__typeof__(ptr) __PTR = (ptr);					\
	__typeof__(*(ptr) + 0) VAL;					\
	for (;;) {							\
		VAL = READ_ONCE(*__PTR);				\
		if (cond_expr)						\
			break;						\
		cpu_relax();						\
	}								\
	VAL;								\
})

#define smp_cond_load_acquire(ptr, cond_expr)				\
({									\
	__typeof__(*(ptr) + 0) __val;					\
	__val = smp_cond_load_relaxed(ptr, cond_expr);			\
	smp_acquire__after_ctrl_dep();					\
	__val;								\
})

#endif /* _LAB_ASM_BARRIER_H */
