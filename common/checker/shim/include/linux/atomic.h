/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: the kernel's atomics on top of the compiler's
 * __atomic builtins (the barriers are in <asm/barrier.h>).
 *
 * The kernel's rules (Documentation/atomic_t.txt) map onto C11 orders:
 *  - value-returning RMW operations without suffix (atomic_cmpxchg(),
 *    atomic_xchg(), atomic_fetch_or(), xchg(), ...) are fully ordered:
 *    __ATOMIC_SEQ_CST;
 *  - _acquire/_release variants: __ATOMIC_ACQUIRE/__ATOMIC_RELEASE;
 *  - void RMW operations (atomic_sub(), atomic_or(), atomic_andnot())
 *    order nothing: __ATOMIC_RELAXED;
 *  - atomic_read()/atomic_set() are READ_ONCE()/WRITE_ONCE().
 *
 * atomic_test_and_set_bit() is the series' own (step 4): one LOCK BTS on
 * x86, as in the step's arch/x86/include/asm/atomic.h, and a fully
 * ordered fetch-or elsewhere, as in its include/linux/atomic.h.
 *
 * LAB_BROKEN_CMPXCHG_ACQUIRE (negative control only): cmpxchg_acquire(),
 * the one the fast path and queued_spin_trylock() use, becomes a load, a
 * sched_yield() and a store, so two CPUs can both take a free lock, even
 * when the host runs all the lab's threads on one core.  A lab that
 * cannot fail that build proves nothing.
 */
#ifndef _LAB_LINUX_ATOMIC_H
#define _LAB_LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/processor.h>
#include <asm/barrier.h>

/* Plain exchange and compare-and-exchange on any scalar. */
#define xchg(ptr, v)							\
	__atomic_exchange_n((ptr), (__typeof__(*(ptr)))(v), __ATOMIC_SEQ_CST)
#define xchg_relaxed(ptr, v)						\
	__atomic_exchange_n((ptr), (__typeof__(*(ptr)))(v), __ATOMIC_RELAXED)

#define __lab_cmpxchg(ptr, o, n, so, fo)				\
({									\
	__typeof__(*(ptr)) __old = (o);					\
	__atomic_compare_exchange_n((ptr), &__old,			\
				    (__typeof__(*(ptr)))(n), false,	\
				    (so), (fo));			\
	__old;								\
})

#define cmpxchg(ptr, o, n)						\
	__lab_cmpxchg(ptr, o, n, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#ifndef LAB_BROKEN_CMPXCHG_ACQUIRE
#define cmpxchg_acquire(ptr, o, n)					\
	__lab_cmpxchg(ptr, o, n, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
#else
#include <sched.h>
#define cmpxchg_acquire(ptr, o, n)					\
({									\
	__typeof__(*(ptr)) __cur = READ_ONCE(*(ptr));			\
	if (__cur == (__typeof__(*(ptr)))(o)) {				\
		sched_yield();						\
		WRITE_ONCE(*(ptr), (__typeof__(*(ptr)))(n));		\
	}								\
	smp_mb();							\
	__cur;								\
})
#endif
#define cmpxchg_release(ptr, o, n)					\
	__lab_cmpxchg(ptr, o, n, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
#define cmpxchg_relaxed(ptr, o, n)					\
	__lab_cmpxchg(ptr, o, n, __ATOMIC_RELAXED, __ATOMIC_RELAXED)

/* atomic_t */
#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_read_acquire(v)	smp_load_acquire(&(v)->counter)
#define atomic_set_release(v, i) smp_store_release(&(v)->counter, (i))

#define atomic_cond_read_relaxed(v, c)	smp_cond_load_relaxed(&(v)->counter, (c))
#define atomic_cond_read_acquire(v, c)	smp_cond_load_acquire(&(v)->counter, (c))

static __always_inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	return cmpxchg(&v->counter, old, new);
}

static __always_inline int atomic_cmpxchg_acquire(atomic_t *v, int old, int new)
{
	return cmpxchg_acquire(&v->counter, old, new);
}

static __always_inline int atomic_cmpxchg_release(atomic_t *v, int old, int new)
{
	return cmpxchg_release(&v->counter, old, new);
}

static __always_inline int atomic_cmpxchg_relaxed(atomic_t *v, int old, int new)
{
	return cmpxchg_relaxed(&v->counter, old, new);
}

/* Fully ordered; on failure *old becomes what was found (the ticket lock's trylock). */
static __always_inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static __always_inline int atomic_xchg(atomic_t *v, int new)
{
	return xchg(&v->counter, new);
}

static __always_inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static __always_inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);
}

static __always_inline void atomic_or(int i, atomic_t *v)
{
	__atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED);
}

static __always_inline void atomic_andnot(int i, atomic_t *v)
{
	__atomic_fetch_and(&v->counter, ~i, __ATOMIC_RELAXED);
}

static __always_inline int atomic_fetch_or(int i, atomic_t *v)
{
	return __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST);
}

static __always_inline int atomic_fetch_add(int i, atomic_t *v)
{
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);
}

#if defined(__x86_64__) && !defined(LAB_GENERIC_TEST_AND_SET_BIT)
/* One LOCK BTS, a full barrier like every locked x86 instruction. */
static __always_inline bool atomic_test_and_set_bit(long nr, atomic_t *v)
{
	bool old;

	__asm__ __volatile__("lock; btsl %2, %0"
			     : "+m" (v->counter), "=@ccc" (old)
			     : "Ir" ((int)nr)
			     : "memory");
	return old;
}
#else
static __always_inline bool atomic_test_and_set_bit(long nr, atomic_t *v)
{
	int bit = 1U << nr;

	return atomic_fetch_or(bit, v) & bit;
}
#endif

#endif /* _LAB_LINUX_ATOMIC_H */
