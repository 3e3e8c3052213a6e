/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contention cost model (common/verify/README.md, "The cost model"):
 * a MESI directory over the 64-byte lines of the checker's modelled
 * memory, and a time model of three rules:
 *
 *  1. An access that hits in the CPU's cache costs 1 cycle.
 *  2. A miss costs C cycles when another cache holds the line (a
 *     transfer; a write also invalidates the other copies), 2C from
 *     memory; a write to a shared line costs C (an upgrade).  A line
 *     serves one miss or upgrade at a time: the others queue behind it.
 *     (Each costs C to 5C/4, by a fixed hash: see serve() in cost.c.)
 *  3. A CPU spinning on a line re-reads it as soon as a write invalidates
 *     its copy: a miss like any other, queued on the line.
 */
#ifndef _COST_H
#define _COST_H

#include <stdint.h>

#define COST_LINE	64
#define COST_CPUS	64

struct cost_stats {
	uint64_t accesses, hits, transfers, memory, upgrades, invalidations;
	uint64_t atomics, cas_failed;
};

void cost_reset(unsigned int lines, uint64_t transfer);

/*
 * @cpu reads (@write 0) or writes (@write 1) line @line, starting at
 * cycle @now: the cycle at which the access completes.
 */
uint64_t cost_access(int cpu, unsigned int line, int write, uint64_t now);

/* When would that access complete?  Nothing changes. */
uint64_t cost_peek(int cpu, unsigned int line, int write, uint64_t now);

/* Does @cpu hold a copy of @line? */
int cost_cached(int cpu, unsigned int line);

extern struct cost_stats cost_stats;

#endif /* _COST_H */
