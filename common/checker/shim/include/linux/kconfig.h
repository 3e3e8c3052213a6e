/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: IS_ENABLED(CONFIG_FOO), which the kernel's build
 * force-includes from <linux/kconfig.h>.  The lab defines the few options
 * it models on the compiler's command line as 1 (CONFIG_CPU_BIG_ENDIAN
 * for sparc64); an option not defined there is off.
 *
 * How: a macro defined as 1 expands to 1, and LAB_ONE_1 turns "LAB_ONE_"
 * followed by it into "0," - an extra argument that moves the 1 into the
 * place lab_second() picks.  An undefined option leaves one argument,
 * and lab_second() picks the 0.
 */
#ifndef _LAB_LINUX_KCONFIG_H
#define _LAB_LINUX_KCONFIG_H

#define LAB_ONE_1			0,
#define lab_second(ignored, val, ...)	val
#define lab_is_one3(arg_or_nothing)	lab_second(arg_or_nothing 1, 0, 0)
#define lab_is_one2(val)		lab_is_one3(LAB_ONE_##val)
#define IS_ENABLED(option)		lab_is_one2(option)

#endif /* _LAB_LINUX_KCONFIG_H */
