// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model's host: vCPUs on fewer cores, round robin by slices,
 * halts that give a core away and kicks that bring a vCPU back (host.h).
 */
#include <stdlib.h>
#include <string.h>
#include "host.h"

#define MAX_VCPUS	64

enum { OFF, RUNNING, QUEUED, HALTED, WAKING };

static int nvcpus, ncores;
static uint64_t slice, wake_delay;
static int state[MAX_VCPUS];
static uint64_t wake_at[MAX_VCPUS];
static int core_vcpu[MAX_VCPUS];	/* -1: idle */
static uint64_t slice_start[MAX_VCPUS], slice_end[MAX_VCPUS], idle_since[MAX_VCPUS];
static int queue[MAX_VCPUS], qhead, qlen;

struct host_stats host_stats;

static void enqueue(int v)
{
	queue[(qhead + qlen++) % MAX_VCPUS] = v;
	state[v] = QUEUED;
}

static int dequeue(void)
{
	int v = queue[qhead];

	qhead = (qhead + 1) % MAX_VCPUS;
	qlen--;
	return v;
}

/*
 * A slice that ended while nobody waited went on: when somebody starts to
 * wait at @now, each core's next slice end is its first one after @now.
 */
static void catch_up(uint64_t now)
{
	int c;

	for (c = 0; c < ncores; c++)
		if (core_vcpu[c] >= 0 && slice_end[c] < now)
			slice_end[c] += (now - slice_end[c] + slice - 1) / slice * slice;
}

static void start(int c, int v, uint64_t now)
{
	core_vcpu[c] = v;
	state[v] = RUNNING;
	slice_start[c] = now;
	slice_end[c] = now + slice;
}

void host_reset(int vcpus, int cores, uint64_t s, uint64_t w)
{
	int c, v;

	if (vcpus > MAX_VCPUS || cores > vcpus)
		abort();
	memset(&host_stats, 0, sizeof(host_stats));
	nvcpus = vcpus;
	ncores = cores;
	slice = s;
	wake_delay = w;
	qhead = qlen = 0;
	for (v = 0; v < vcpus; v++)
		state[v] = OFF;
	for (c = 0; c < cores; c++) {
		start(c, c, 0);
		slice_end[c] = s * (c + 1) / cores;	/* spread over a slice */
	}
	for (v = cores; v < vcpus; v++)
		enqueue(v);
}

int host_on(void)
{
	return ncores > 0;
}

int host_running(int v)
{
	return !ncores || state[v] == RUNNING;
}

int host_halted(int v)
{
	return ncores && state[v] == HALTED;
}

/*
 * The next event: a slice end while a vCPU waits for a core (*@core is
 * that core), or the earliest wake (*@core is -1, *@v its vCPU).
 */
static uint64_t next(int *core, int *v)
{
	uint64_t best = HOST_NEVER;
	int c, i;

	*core = *v = -1;
	for (i = 0; i < nvcpus; i++)
		if (state[i] == WAKING && wake_at[i] < best) {
			best = wake_at[i];
			*v = i;
		}
	if (!qlen)
		return best;
	for (c = 0; c < ncores; c++)
		if (core_vcpu[c] >= 0 && slice_end[c] < best) {
			best = slice_end[c];
			*core = c;
			*v = -1;
		}
	return best;
}

uint64_t host_next(void)
{
	int c, v;

	return next(&c, &v);
}

uint64_t host_event(int *off, int *on)
{
	int c, v, i;
	uint64_t t = next(&c, &v);

	if (t == HOST_NEVER)
		abort();
	if (c >= 0) {			/* rule 1: the slice ends */
		*off = core_vcpu[c];
		*on = dequeue();
		enqueue(*off);
		start(c, *on, t);
		host_stats.preemptions++;
		return t;
	}
	host_stats.wakes++;		/* rule 3: the kicked vCPU runs */
	*on = v;
	for (c = 0; c < ncores; c++)
		if (core_vcpu[c] < 0) {
			host_stats.idle += t - idle_since[c];
			*off = -1;
			start(c, v, t);
			return t;
		}
	c = 0;
	for (i = 1; i < ncores; i++)
		if (slice_start[i] < slice_start[c])
			c = i;
	*off = core_vcpu[c];
	start(c, v, t);
	if (!qlen)
		catch_up(t);
	enqueue(*off);
	host_stats.wake_preemptions++;
	return t;
}

int host_leave(int v, uint64_t now, int halt)
{
	int c, on = -1;

	for (c = 0; c < ncores; c++)
		if (core_vcpu[c] == v)
			break;
	if (c == ncores)
		abort();
	state[v] = halt ? HALTED : OFF;
	host_stats.halts += halt;
	if (qlen) {
		on = dequeue();
		start(c, on, now);
	} else {
		core_vcpu[c] = -1;
		idle_since[c] = now;
	}
	return on;
}

void host_kick(int v, uint64_t now)
{
	if (state[v] != HALTED)
		abort();
	state[v] = WAKING;
	wake_at[v] = now + wake_delay;
}
