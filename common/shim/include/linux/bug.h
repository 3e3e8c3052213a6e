/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace lock lab: BUILD_BUG_ON() as a C11 static assertion. */
#ifndef _LAB_LINUX_BUG_H
#define _LAB_LINUX_BUG_H

#include <linux/compiler.h>

#define BUILD_BUG_ON(cond)						\
do {									\
	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")");		\
} while (0)

#endif /* _LAB_LINUX_BUG_H */
