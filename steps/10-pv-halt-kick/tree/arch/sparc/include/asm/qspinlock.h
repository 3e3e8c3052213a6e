/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_SPARC_QSPINLOCK_H
#define _ASM_SPARC_QSPINLOCK_H

#include <asm-generic/qspinlock_types.h>
#include <asm-generic/qspinlock.h>

#endif /* _ASM_SPARC_QSPINLOCK_H */
