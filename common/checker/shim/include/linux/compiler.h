/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: what <linux/compiler.h> gives the lock code.
 *
 * READ_ONCE()/WRITE_ONCE() are volatile accesses, as in the kernel; the
 * kernel builds with -fno-strict-aliasing and -fno-strict-overflow, and
 * so does the lab (common/lab/lab.sh).
 */
#ifndef _LAB_LINUX_COMPILER_H
#define _LAB_LINUX_COMPILER_H

#include <linux/types.h>

#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __init			/* no init sections in userspace */
#define __initdata
#define __read_mostly
#define __visible
/* A boot parameter's handler: kept, never called. */
#define early_param(str, fn)						\
	static int (*const __early_param_##fn)(char *) __attribute__((__unused__)) = fn
#define noinline		__attribute__((__noinline__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define barrier()		__asm__ __volatile__("" : : : "memory")

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)						\
do {									\
	*(volatile __typeof__(x) *)&(x) = (val);			\
} while (0)

/* Hide the arithmetic of per-CPU pointers from the optimiser. */
#define RELOC_HIDE(ptr, off)						\
({									\
	unsigned long __ptr;						\
	__asm__("" : "=r"(__ptr) : "0"(ptr));				\
	(__typeof__(ptr))(__ptr + (off));				\
})

#endif /* _LAB_LINUX_COMPILER_H */
