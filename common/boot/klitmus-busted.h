/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make klitmus-N's negative control (KLITMUS_BUSTED=1): the klitmus7
 * modules built with this header first, so that their spin_lock() and
 * spin_unlock() do nothing.  The locked tests then run unlocked, and the
 * judge must see states the LKMM forbids under a lock.
 */
#include <linux/spinlock.h>
#undef spin_lock
#undef spin_unlock
#define spin_lock(l)	((void)(l))
#define spin_unlock(l)	((void)(l))
