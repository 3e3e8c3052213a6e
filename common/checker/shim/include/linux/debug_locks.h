/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker: lock debugging is never silenced. */
#ifndef _VC_LINUX_DEBUG_LOCKS_H
#define _VC_LINUX_DEBUG_LOCKS_H

#define debug_locks_silent	0

#endif /* _VC_LINUX_DEBUG_LOCKS_H */
