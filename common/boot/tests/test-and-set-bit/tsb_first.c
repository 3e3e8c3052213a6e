// SPDX-License-Identifier: GPL-2.0
/*
 * Built, never loaded (common/boot/tests/test-and-set-bit.sh): the negative
 * control, step 4's first BTSL, which passed the long bit number to "Ir"
 * unchanged.  With the number in a register the assembler must reject it.
 */
#include <linux/module.h>
#include <linux/atomic.h>
#include <asm/rmwcc.h>

noinline bool tsb_first(long nr, atomic_t *v)
{
	return GEN_BINARY_RMWcc(LOCK_PREFIX "btsl", v->counter, c, "Ir", nr);
}
EXPORT_SYMBOL(tsb_first);
MODULE_LICENSE("GPL");
