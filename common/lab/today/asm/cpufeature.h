/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab benchmark, "today" only: what 6.1's own arch/x86/include/asm/qspinlock.h
 * takes through <asm/cpufeature.h>.  Its queued_fetch_set_pending_acquire()
 * is GEN_BINARY_RMWcc(LOCK_PREFIX "btsl", ...) of <asm/rmwcc.h> (6.1's
 * own, copied beside the header), which needs LOCK_PREFIX
 * (<asm/alternative.h>) and CC_SET()/CC_OUT() (<asm/asm.h>).  The values
 * are 6.1's for x86_64 with CONFIG_SMP, less the .smp_locks record that
 * lets the kernel patch the lock prefix out on one CPU.
 */
#ifndef _LAB_TODAY_ASM_CPUFEATURE_H
#define _LAB_TODAY_ASM_CPUFEATURE_H

#define LOCK_PREFIX	"\n\tlock; "

/* The flag-output form, which GCC has had since 6; 6.1 falls back to SETcc. */
#ifndef __GCC_ASM_FLAG_OUTPUTS__
#error "the compiler has no asm flag outputs (=@cc)"
#endif
#define CC_SET(c)	"\n\t/* output condition code " #c "*/\n"
#define CC_OUT(c)	"=@cc" #c

#endif /* _LAB_TODAY_ASM_CPUFEATURE_H */
