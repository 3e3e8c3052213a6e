/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace lock lab: there are no modules to export to. */
#ifndef _LAB_LINUX_EXPORT_H
#define _LAB_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)	extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym

#endif /* _LAB_LINUX_EXPORT_H */
