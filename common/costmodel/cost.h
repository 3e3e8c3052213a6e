/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contention cost model (common/costmodel/README.md):
 * a MESI directory over the 64-byte lines of the checker's modelled
 * memory, and a time model of three rules:
 *
 *  1. An access that hits in the CPU's cache costs 1 cycle (-J).
 *  2. A miss costs C cycles when another cache holds the line (a
 *     transfer; a write also invalidates the other copies), 2C from
 *     memory; a write to a shared line costs C (an upgrade).  With
 *     sockets (-D), a transfer or an upgrade that must reach another
 *     socket costs X instead of C (-X): a read when no cache of its own
 *     socket holds the line, a write or an upgrade when a copy it
 *     invalidates is in another socket; a miss to memory homed in
 *     another socket costs 2C + X - C.  A line
 *     serves its requests one at a time, in the order they were made
 *     (FIFO by request time: the checker's cost_pick() keeps that order).
 *     A write or an upgrade keeps the line for its whole cost; a read
 *     miss only for -O percent of it, after which the line serves the
 *     next request while the data is still on its way.  (Each costs C to
 *     5C/4, by a fixed hash: see serve() in cost.c.)
 *  3. A CPU spinning on a line re-reads it as soon as a write invalidates
 *     its copy: a request like any other, made at the cycle the write
 *     completes, and queued on the line behind the requests made before.
 */
#ifndef _COST_H
#define _COST_H

#include <stdint.h>

#define COST_LINE	64
#define COST_CPUS	64

struct cost_stats {
	uint64_t accesses, hits, transfers, memory, upgrades, invalidations;
	uint64_t atomics, cas_failed;
	uint64_t remote;	/* misses and upgrades that crossed sockets */
};

/*
 * -O's default: the percent of a transfer a read miss keeps its line.
 * Fitted, the one parameter fitted to a measurement: with it the model's
 * ticket lock costs about twice the queued lock at 64 CPUs in the hammer
 * workload, the median of ARM's lockhammer at its largest thread count
 * on four x86 hosts, 200 ns held and 1000 ns between (1.47, 1.76, 2.26,
 * 2.54: ../shared/data/lockhammer-2018-x86-medians.csv, book/contention.md).
 */
#define COST_READ_OCCUPANCY	20

/*
 * -G's and -F's defaults: what a locked read-modify-write adds to its
 * line's cost, and what a full barrier costs, in cycles.  A locked
 * instruction (xchg with memory, lock xadd, lock cmpxchg) takes about 18
 * to 20 cycles on its own on x86 cores of 2014-2020 even when its line is
 * in the cache: it drains the store buffer (Agner Fog's instruction
 * tables, Haswell to Ice Lake).  x86's smp_mb() is a locked add to the
 * stack, so a fence costs the same.
 */
#define COST_ATOMIC	20
#define COST_FENCE	20

/* The model's parameters (the checker's options). */
struct cost_params {
	uint64_t transfer;		/* -C: C, a transfer's cycles */
	unsigned int read_occupancy;	/* -O: percent of it a read miss keeps its line */
	uint64_t hit;			/* -J: a hit's cycles */
	unsigned int cpus;		/* -c */
	unsigned int sockets;		/* -D: CPUs 0..cpus/sockets-1 in socket 0, ... */
	uint64_t cross;			/* -X: X, a transfer's cycles between sockets */
};

/*
 * -X's default, in units of C: a cache line that moves between sockets
 * takes about three times as long as one that moves inside a socket on
 * two-socket x86 servers of 2017-2023 (core-to-core latency, measured
 * with a compare-and-exchange ping-pong: about 40-60 ns inside a Xeon
 * socket, 110-200 ns across; Chips and Cheese, "Core to Core Latency
 * Data on Large Systems", 2023, and AnandTech's core-to-core test).
 */
#define COST_CROSS_FACTOR	3

/* The socket of @cpu. */
unsigned int cost_socket(unsigned int cpu);

/* Line @line's memory is homed in @socket (0 until said otherwise). */
void cost_home(unsigned int line, unsigned int socket);

void cost_reset(unsigned int lines, const struct cost_params *params);

/*
 * @cpu reads (@write 0) or writes (@write 1) line @line, starting at
 * cycle @now: the cycle at which the access completes.  A write keeps
 * the line @extra cycles more once it has it (a locked RMW's own time).
 */
uint64_t cost_access(int cpu, unsigned int line, int write, uint64_t now, uint64_t extra);

/* When would that access complete?  Nothing changes. */
uint64_t cost_peek(int cpu, unsigned int line, int write, uint64_t now, uint64_t extra);

/* Does @cpu hold a copy of @line? */
int cost_cached(int cpu, unsigned int line);

/* Would @cpu's read (@write 0) or write (@write 1) of @line hit? */
int cost_hits(int cpu, unsigned int line, int write);

extern struct cost_stats cost_stats;

#endif /* _COST_H */
