/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ticket.h - the benchmark's handle on 6.1's generic ticket lock
 * (ticket.c).  Its arch_spinlock_t is an atomic_t; bench.c, which sees the
 * step's arch_spinlock_t under that name, passes an atomic_t.
 */
#ifndef _LAB_TICKET_H
#define _LAB_TICKET_H

#include <linux/types.h>

void lab_ticket_lock(atomic_t *lock);
void lab_ticket_unlock(atomic_t *lock);

#endif /* _LAB_TICKET_H */
