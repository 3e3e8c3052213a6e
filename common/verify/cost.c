// SPDX-License-Identifier: GPL-2.0
/*
 * The contention cost model's caches: a MESI directory, one entry per
 * 64-byte line, and the time rules of cost.h.  The directory knows which
 * caches hold a line and whether one of them holds it alone (E, or M once
 * written); a line held by several is S in all of them.
 */
#include <stdlib.h>
#include <string.h>
#include "cost.h"

struct line {
	uint64_t sharers;	/* one bit a CPU whose cache holds the line */
	uint64_t busy;		/* the cycle its last miss or upgrade ends */
	uint64_t served;	/* misses and upgrades so far */
	int excl;		/* the one sharer holds it E or M */
};

static struct line *line;
static unsigned int nlines;
static uint64_t C, hit_cost;
static unsigned int read_pct;

struct cost_stats cost_stats;

void cost_reset(unsigned int lines, const struct cost_params *params)
{
	free(line);
	line = calloc(lines, sizeof(*line));
	if (!line)
		abort();
	nlines = lines;
	C = params->transfer;
	read_pct = params->read_occupancy;
	hit_cost = params->hit;
	memset(&cost_stats, 0, sizeof(cost_stats));
}

int cost_cached(int cpu, unsigned int l)
{
	return l < nlines && (line[l].sharers >> cpu) & 1;
}

int cost_hits(int cpu, unsigned int l, int write)
{
	return cost_cached(cpu, l) && (!write || line[l].excl);
}

/*
 * A miss or upgrade of line @l requested at cycle @now: it starts when
 * the line is free (the checker's schedule serves a line's requests in
 * the order they were made) and is C to 5C/4 cycles long (twice that
 * from memory).  A write keeps the line that long; a read keeps it
 * read_pct percent of that.  The spread is a fixed function of the line
 * and how many it has served, so the same run gives the same result,
 * and two CPUs cannot stay in lock-step for ever the way exact costs
 * would keep them.
 */
static uint64_t serve(struct line *l, uint64_t now, int from_memory, int write,
		      uint64_t extra, int book)
{
	uint64_t start = now > l->busy ? now : l->busy;
	uint64_t h = (l - line) * 0x9e3779b97f4a7c15ULL + l->served * 0xbf58476d1ce4e5b9ULL;
	uint64_t len;

	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 29;
	len = (C + h % (C / 4 + 1)) << from_memory;
	if (book) {
		l->busy = start + (write ? len + extra : (len * read_pct + 99) / 100);
		l->served++;
	}
	return start + len + extra;
}

/* The access's completion, and with @book its effect on the caches. */
static uint64_t access(int cpu, unsigned int l, int write, uint64_t now, uint64_t extra,
		       int book)
{
	struct line *ln;
	uint64_t me = 1ULL << cpu, others, done;
	int hit, mine;

	if (l >= nlines)
		abort();
	ln = &line[l];
	others = ln->sharers & ~me;
	mine = !!(ln->sharers & me);
	hit = write ? mine && ln->excl : mine;	/* a write needs E or M */
	if (!book)
		return hit ? now + hit_cost + extra : serve(ln, now, !mine && !others, write, extra, 0);
	cost_stats.accesses++;
	if (hit) {
		cost_stats.hits++;
		return now + hit_cost + extra;
	}
	if (mine)
		cost_stats.upgrades++;
	else if (others)
		cost_stats.transfers++;
	else
		cost_stats.memory++;
	done = serve(ln, now, !mine && !others, write, extra, 1);
	if (write) {
		cost_stats.invalidations += __builtin_popcountll(others);
		ln->sharers = me;
		ln->excl = 1;
	} else {
		ln->excl = !others;	/* E when nobody else has it */
		ln->sharers |= me;
	}
	return done;
}

uint64_t cost_access(int cpu, unsigned int l, int write, uint64_t now, uint64_t extra)
{
	return access(cpu, l, write, now, extra, 1);
}

uint64_t cost_peek(int cpu, unsigned int l, int write, uint64_t now, uint64_t extra)
{
	return access(cpu, l, write, now, extra, 0);
}
