/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Queued spinlock: the lock word.
 *
 * The design of the queued spinlock is Waiman Long's and Peter Zijlstra's
 * (2014); this file is written for the qspinlock step-by-step tutorial.
 */
#ifndef __ASM_GENERIC_QSPINLOCK_TYPES_H
#define __ASM_GENERIC_QSPINLOCK_TYPES_H

#include <linux/types.h>

/*
 * The whole lock is one 32-bit word, so it fits everywhere a spinlock_t
 * of 4 bytes is expected (struct page, for one).
 *
 * The union names the parts of the word that can be written on their
 * own: the locked byte always; the pending byte and the 16-bit tail only
 * when _Q_PENDING_BITS is 8 (below).  Where they sit depends on the byte
 * order: the locked byte is the least significant one either way.
 */
typedef struct qspinlock {
	union {
		atomic_t	val;
		struct {
#ifdef CONFIG_CPU_BIG_ENDIAN
			u16	tail;
			u8	pending;
			u8	locked;
#else
			u8	locked;
			u8	pending;
			u16	tail;
#endif
		};
	};
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ { .val = ATOMIC_INIT(0) } }

/*
 * The fields of the lock word, with fewer than 16K CPUs:
 *
 *  0- 7: locked byte; non-zero while the lock is held
 *  8-15: pending byte; one waiter spins on the lock word, not in the queue
 * 16-17: tail index; which of the tail CPU's nodes is the queue's tail
 * 18-31: tail CPU + 1; 0 means the queue is empty
 *
 * and with 16K CPUs or more, where the CPU number needs more bits:
 *
 *  0- 7: locked byte
 *     8: pending bit
 *  9-10: tail index
 * 11-31: tail CPU + 1
 *
 * The tail names the last waiter in the MCS queue by (cpu, index) instead
 * of by a pointer: a CPU can spin on at most one lock per context (task,
 * softirq, hardirq, NMI), so four nodes per CPU are enough, and two bits
 * say which one.
 */
#define _Q_SET_MASK(type)	(((1U << _Q_ ## type ## _BITS) - 1)\
				      << _Q_ ## type ## _OFFSET)
#define _Q_LOCKED_OFFSET	0
#define _Q_LOCKED_BITS		8
#define _Q_LOCKED_MASK		_Q_SET_MASK(LOCKED)

#define _Q_PENDING_OFFSET	(_Q_LOCKED_OFFSET + _Q_LOCKED_BITS)
/*
 * Below 16K CPUs the slowpath stores the pending and locked bytes with
 * plain stores and exchanges the tail halfword alone.  That needs byte
 * and halfword stores that are single-copy atomic and leave the bytes
 * beside them alone.  A machine without byte stores (Alpha before EV56)
 * reads the word around the byte and writes it back: the pending waiter's
 * store could then write a stale tail over one that xchg_tail() had just
 * published, and the CPU queued there would spin for ever.
 */
#if CONFIG_NR_CPUS < (1U << 14)
#define _Q_PENDING_BITS		8
#else
#define _Q_PENDING_BITS		1
#endif
#define _Q_PENDING_MASK		_Q_SET_MASK(PENDING)

#define _Q_TAIL_IDX_OFFSET	(_Q_PENDING_OFFSET + _Q_PENDING_BITS)
#define _Q_TAIL_IDX_BITS	2
#define _Q_TAIL_IDX_MASK	_Q_SET_MASK(TAIL_IDX)

#define _Q_TAIL_CPU_OFFSET	(_Q_TAIL_IDX_OFFSET + _Q_TAIL_IDX_BITS)
#define _Q_TAIL_CPU_BITS	(32 - _Q_TAIL_CPU_OFFSET)
#define _Q_TAIL_CPU_MASK	_Q_SET_MASK(TAIL_CPU)

#define _Q_TAIL_OFFSET		_Q_TAIL_IDX_OFFSET
#define _Q_TAIL_MASK		(_Q_TAIL_IDX_MASK | _Q_TAIL_CPU_MASK)

#define _Q_LOCKED_PENDING_MASK	(_Q_LOCKED_MASK | _Q_PENDING_MASK)

#define _Q_LOCKED_VAL		(1U << _Q_LOCKED_OFFSET)
#define _Q_PENDING_VAL		(1U << _Q_PENDING_OFFSET)

#endif /* __ASM_GENERIC_QSPINLOCK_TYPES_H */
