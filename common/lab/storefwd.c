// SPDX-License-Identifier: GPL-2.0
/*
 * storefwd.c - why an uncontended byte-store unlock can cost more in a
 * tight loop than the atomic it replaced.
 *
 * The x86 queued spinlock (step 2 on) releases with a one-byte store to
 * the locked byte, and takes the lock with a LOCK CMPXCHG on the whole
 * 32-bit word.  When one thread releases and immediately re-takes the
 * same lock, the locked instruction reads four bytes of which only one is
 * waiting in the store buffer: the store cannot be forwarded to the wider
 * load, and the CPU waits for it to reach the cache first.  The ticket
 * lock's 16-bit store-release and its 32-bit LOCK XADD meet the same way.
 *
 * This program times four lock/unlock pairs on one word, one thread, no
 * contention: the same lock instruction with a byte and with a word store,
 * and an exchange with a word store and with a cmpxchg (the pointer-tail
 * MCS lock's pair).  Each pair runs REPS times, interleaved; the median
 * is printed.  Not kernel code: the kernel rarely re-takes a lock it has
 * just released within a few cycles, and this is what the lab's
 * "uncontended" loop does 100 million times a second.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/compiler.h>
#include "options.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ITERS	20000000L
#define REPS	5

static union {
	uint32_t word;
	uint8_t byte;		/* the lowest-addressed byte: x86's locked byte */
} lock __aligned(64);

static noinline void cmpxchg_lock(void)
{
	uint32_t old = 0;

	__atomic_compare_exchange_n(&lock.word, &old, 1, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static noinline void xchg_lock(void)
{
	__atomic_exchange_n(&lock.word, 1, __ATOMIC_ACQUIRE);
}

static noinline void byte_unlock(void)
{
	__atomic_store_n(&lock.byte, 0, __ATOMIC_RELEASE);
}

static noinline void word_unlock(void)
{
	__atomic_store_n(&lock.word, 0, __ATOMIC_RELEASE);
}

static noinline void cmpxchg_unlock(void)
{
	uint32_t old = 1;

	__atomic_compare_exchange_n(&lock.word, &old, 0, false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static const struct pair {
	const char *name;
	void (*lock)(void);
	void (*unlock)(void);
} pairs[] = {
	{ "lock cmpxchg (32-bit) + byte store   (steps 2-8 on x86)", cmpxchg_lock, byte_unlock },
	{ "lock cmpxchg (32-bit) + 32-bit store", cmpxchg_lock, word_unlock },
	{ "xchg (32-bit) + 32-bit store", xchg_lock, word_unlock },
	{ "xchg (32-bit) + lock cmpxchg         (MCS's pair)", xchg_lock, cmpxchg_unlock },
};

#define NR_PAIRS	ARRAY_SIZE(pairs)

static double time_pair(const struct pair *p)
{
	struct timespec a, b;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < ITERS; i++) {
		p->lock();
		p->unlock();
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / ITERS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double ns[NR_PAIRS][REPS];
	cpu_set_t set;
	long cpu = 0;
	size_t i;
	int r;

	if (argc > 2 || (argc == 2 && !lab_number("storefwd", argv[1], 0, CPU_SETSIZE - 1, &cpu))) {
		fprintf(stderr, "usage: storefwd [cpu]\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("storefwd: sched_setaffinity");
	for (r = 0; r < REPS; r++)
		for (i = 0; i < NR_PAIRS; i++)
			ns[i][r] = time_pair(&pairs[i]);
	for (i = 0; i < NR_PAIRS; i++) {
		qsort(ns[i], REPS, sizeof(double), cmp_double);
		printf("%-58s %5.2f ns per lock + unlock (min %.2f, max %.2f)\n",
		       pairs[i].name, ns[i][REPS / 2], ns[i][0], ns[i][REPS - 1]);
	}
	return 0;
}
