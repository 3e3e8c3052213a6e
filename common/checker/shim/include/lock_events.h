/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: kernel/locking/lock_events.h, counting nothing (the
 * kernel's counts are per-CPU statistics, not part of the lock).
 */
#ifndef _VC_LOCK_EVENTS_H
#define _VC_LOCK_EVENTS_H

#define lockevent_inc(ev)		do { } while (0)
#define lockevent_add(ev, c)		do { } while (0)
#define lockevent_cond_inc(ev, c)	do { } while (0)

#endif /* _VC_LOCK_EVENTS_H */
