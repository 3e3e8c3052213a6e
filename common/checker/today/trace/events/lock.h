/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker, "today": the contention tracepoints do nothing. */
#define LCB_F_SPIN	0
#define trace_contention_begin(lock, flags)	((void)(lock))
#define trace_contention_end(lock, ret)	((void)(lock))
