/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: alloc_large_system_hash() for the paravirt lock hash.
 * The table must be modelled memory, which lives in the checker's arena:
 * vc_pv_hash_area() reserves its end (common/checker/memory.c), which
 * the checker clears before every execution, as a boot's table starts.
 */
#ifndef _VC_LINUX_MEMBLOCK_H
#define _VC_LINUX_MEMBLOCK_H

#include <linux/types.h>

#define HASH_EARLY	0x00000001
#define HASH_ZERO	0x00000004

void *vc_pv_hash_area(unsigned long bytes);

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static inline void *alloc_large_system_hash(const char *name,
					    unsigned long bucketsize,
					    unsigned long numentries, int scale,
					    int flags, unsigned int *shift,
					    unsigned int *mask,
					    unsigned long low_limit,
					    unsigned long high_limit)
{
	*shift = 63 - __builtin_clzl(numentries);
	if (mask)
		*mask = numentries - 1;
	return vc_pv_hash_area(bucketsize * numentries);
}

#endif /* _VC_LINUX_MEMBLOCK_H */
