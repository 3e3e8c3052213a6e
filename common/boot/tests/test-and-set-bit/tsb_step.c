// SPDX-License-Identifier: GPL-2.0
/*
 * Built, never loaded (common/boot/tests/test-and-set-bit.sh): the step's own
 * atomic_test_and_set_bit() with the bit number in a register, which no
 * caller in the series makes (they all pass _Q_PENDING_OFFSET).
 */
#include <linux/module.h>
#include <linux/atomic.h>

noinline bool tsb_step(long nr, atomic_t *v)
{
	return atomic_test_and_set_bit(nr, v);
}
EXPORT_SYMBOL(tsb_step);
MODULE_LICENSE("GPL");
