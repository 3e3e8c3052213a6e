/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker, "today": a prefetch changes no value. */
#define prefetchw(x)	((void)(x))
