/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model's host (common/costmodel/README.md, "Preempted vCPUs"):
 * the simulated CPUs are vCPUs, and a host with fewer cores than vCPUs
 * runs them in turn.  Three rules:
 *
 *  1. A core runs one vCPU for a slice of SLICE cycles; at its end, if
 *     another vCPU is waiting for a core, the running one goes to the back
 *     of the host's queue and the queue's first takes the core.  Nothing
 *     else preempts.  A vCPU off its core makes no progress: its clock
 *     stands still, its spin re-reads nothing.
 *  2. A vCPU that halts (pv_wait() with nothing to end it) gives its core
 *     to the queue's first at once; the core idles if nobody waits.
 *  3. A kick wakes a halted vCPU WAKE cycles after the kicking store: it
 *     takes an idle core then, or else the core of the vCPU that has been
 *     on its core longest, which goes to the back of the queue.  (Linux's
 *     scheduler, running the vCPU threads, lets a thread that slept
 *     preempt one that has run: a kicked vCPU is not left waiting a
 *     slice.)
 *
 * The slice ends of the cores are spread over the first slice, so that
 * they do not all switch at once.  The first CORES vCPUs start on the
 * cores, the others in the queue in order.
 */
#ifndef _HOST_H
#define _HOST_H

#include <stdint.h>

#define HOST_NEVER	UINT64_MAX

struct host_stats {
	uint64_t preemptions;	/* slice ends that took a vCPU off its core */
	uint64_t halts, wakes;
	uint64_t wake_preemptions;	/* wakes that took a running vCPU's core */
	uint64_t idle;		/* core cycles with no vCPU to run */
};

/* @vcpus vCPUs on @cores cores (0: one core each, nothing preempted). */
void host_reset(int vcpus, int cores, uint64_t slice, uint64_t wake);

/* Is the host model on (fewer cores than vCPUs, or a halt to model)? */
int host_on(void);

/* Is @vcpu on a core? */
int host_running(int vcpu);

/* Is @vcpu halted (rule 2), not yet woken? */
int host_halted(int vcpu);

/* The cycle of the host's next event (a slice end, a wake), or HOST_NEVER. */
uint64_t host_next(void);

/*
 * Carry out that event: *@off leaves its core at the cycle returned (-1:
 * the core was idle), *@on takes it.
 */
uint64_t host_event(int *off, int *on);

/*
 * @vcpu halts, or ends its program (@halt 0), at cycle @now: the vCPU that
 * takes its core at @now, or -1.
 */
int host_leave(int vcpu, uint64_t now, int halt);

/* A kick at cycle @now reaches halted @vcpu: it wakes WAKE cycles later. */
void host_kick(int vcpu, uint64_t now);

extern struct host_stats host_stats;

#endif /* _HOST_H */
