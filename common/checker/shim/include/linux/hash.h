/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: hash_ptr(), the kernel's multiplicative hash.  The lock
 * checker hashes a pointer into its modelled memory by its offset there
 * (vc_hash_base, the memory's first byte), so that the paravirt lock
 * hash's slots, which its traces print, do not move when the checker's
 * own variables do; elsewhere the address itself.
 */
#ifndef _VC_LINUX_HASH_H
#define _VC_LINUX_HASH_H

#include <linux/types.h>

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

extern const unsigned long vc_hash_base __attribute__((__weak__));

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return val * GOLDEN_RATIO_64 >> (64 - bits);
}

#define hash_ptr(ptr, bits)						\
	hash_64((unsigned long)(ptr) - (&vc_hash_base ? vc_hash_base : 0), (bits))

#endif /* _VC_LINUX_HASH_H */
