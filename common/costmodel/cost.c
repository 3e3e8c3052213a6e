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
	unsigned int home;	/* the socket its memory is in */
};

static struct line *line;
static unsigned int nlines;
static uint64_t C, X, hit_cost;
static unsigned int read_pct, per_socket = COST_CPUS;
static uint64_t socket_cpus[COST_CPUS];	/* one bit a CPU of the socket */

struct cost_stats cost_stats;

void cost_reset(unsigned int lines, const struct cost_params *params)
{
	unsigned int cpu;

	free(line);
	line = calloc(lines, sizeof(*line));
	if (!line)
		abort();
	nlines = lines;
	C = params->transfer;
	read_pct = params->read_occupancy;
	hit_cost = params->hit;
	X = params->sockets > 1 ? params->cross : C;
	per_socket = params->sockets > 1 ? params->cpus / params->sockets : COST_CPUS;
	memset(socket_cpus, 0, sizeof(socket_cpus));
	for (cpu = 0; cpu < COST_CPUS; cpu++)
		socket_cpus[cost_socket(cpu)] |= 1ULL << cpu;
	memset(&cost_stats, 0, sizeof(cost_stats));
}

unsigned int cost_socket(unsigned int cpu)
{
	return cpu / per_socket;
}

void cost_home(unsigned int l, unsigned int socket)
{
	if (l < nlines)
		line[l].home = socket;
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
 * the order they were made) and is T to 5T/4 cycles long, T the base of
 * where it comes from: C from a cache of the socket, X from another
 * socket (@far), 2C from memory, 2C + X - C from another socket's.  A
 * write keeps the line that long; a read keeps it read_pct percent of
 * that.  The spread is a fixed function of the line
 * and how many it has served, so the same run gives the same result,
 * and two CPUs cannot stay in lock-step for ever the way exact costs
 * would keep them.
 */
static uint64_t serve(struct line *l, uint64_t now, int from_memory, int far, int write,
		      uint64_t extra, int book)
{
	uint64_t start = now > l->busy ? now : l->busy;
	uint64_t h = (l - line) * 0x9e3779b97f4a7c15ULL + l->served * 0xbf58476d1ce4e5b9ULL;
	uint64_t base = far ? X : C, len;

	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 29;
	len = from_memory ? 2 * C + base - C : base;
	len += h % (len / (from_memory ? 2 : 1) / 4 + 1) << from_memory;
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
	uint64_t me = 1ULL << cpu, others, done, near;
	int hit, mine, far;

	if (l >= nlines)
		abort();
	ln = &line[l];
	others = ln->sharers & ~me;
	mine = !!(ln->sharers & me);
	hit = write ? mine && ln->excl : mine;	/* a write needs E or M */
	/*
	 * Across sockets: a read that no cache of its socket can serve, a
	 * write that invalidates a copy in another socket, memory homed in
	 * another socket.
	 */
	near = socket_cpus[cost_socket(cpu)];
	if (!others)
		far = !mine && ln->home != cost_socket(cpu);
	else
		far = write ? !!(others & ~near) : !(others & near);
	if (!book)
		return hit ? now + hit_cost + extra :
			     serve(ln, now, !mine && !others, far, write, extra, 0);
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
	cost_stats.remote += far;
	done = serve(ln, now, !mine && !others, far, write, extra, 1);
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
