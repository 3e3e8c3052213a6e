/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker, "today" only: <asm/qspinlock_paravirt.h>.
 *
 * 6.1's x86_64 header hand-codes __pv_queued_spin_unlock() in assembly:
 * a LOCK CMPXCHG of the locked byte from _Q_LOCKED_VAL to 0, and the slow
 * unlock if it found anything else.  The instrumentation cannot see
 * assembly, so this header defines nothing, and qspinlock_paravirt.h
 * compiles its C version, which is the same cmpxchg as a release (on x86
 * both are the one locked instruction; the weak model checks the weaker
 * order that other architectures would get).
 */
#ifndef _VC_TODAY_ASM_QSPINLOCK_PARAVIRT_H
#define _VC_TODAY_ASM_QSPINLOCK_PARAVIRT_H
#endif
