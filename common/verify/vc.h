/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: what the step's lock users (api.c, litmus.c) and the
 * checker (checker.c) share.
 */
#ifndef _VC_H
#define _VC_H

#include <stdbool.h>
#include <stdint.h>

/* A lock word and its count in one 64-bit word, and the owner field. */
struct vc_lockref {
	uint64_t word;	/* arch_spinlock_t in the low 32 bits, count above */
	int owner;	/* CPU context inside the critical section, or -1 */
	int pad;
} __attribute__((__aligned__(16)));

struct vc_layout {
	unsigned int locked_mask, pending_mask;
	unsigned int tail_idx_offset, tail_idx_mask, tail_cpu_offset;
	unsigned int node_size, node_count_offset;
};

extern const struct vc_layout vc_layout;

void vc_api_lock(struct vc_lockref *l);
void vc_api_unlock(struct vc_lockref *l);
void vc_api_critical_section(struct vc_lockref *l, int me);
bool vc_api_lockref_get(struct vc_lockref *l);

void vc_fail(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));

#endif /* _VC_H */
