/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker: no KCSAN; the checker sees every access itself. */
#ifndef _VC_LINUX_KCSAN_CHECKS_H
#define _VC_LINUX_KCSAN_CHECKS_H

#define kcsan_release()	do { } while (0)

#endif /* _VC_LINUX_KCSAN_CHECKS_H */
