/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace lock lab: BUILD_BUG_ON() as a C11 static assertion. */
#ifndef _LAB_LINUX_BUG_H
#define _LAB_LINUX_BUG_H

#include <linux/compiler.h>

#define BUILD_BUG_ON(cond)						\
do {									\
	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")");		\
} while (0)

/*
 * WARN(), WARN_ONCE() and BUG(): only the lock checker's paravirt layout
 * compiles code that uses them, and there a warning or a BUG() is a
 * failure of the run (vc_fail(), common/checker/explore.c).
 */
void vc_fail(const char *fmt, ...) __printf(1, 2);
#define WARN(cond, fmt...)						\
({									\
	int __warned = !!(cond);					\
	if (__warned)							\
		vc_fail(fmt);						\
	__warned;							\
})
#define WARN_ONCE(cond, fmt...)	WARN(cond, fmt)
/* vc_fail() does not return on a simulated CPU; nothing else runs BUG() */
#define BUG()								\
do {									\
	vc_fail("BUG() at %s:%d", __FILE__, __LINE__);			\
	__builtin_trap();						\
} while (0)

#endif /* _LAB_LINUX_BUG_H */
