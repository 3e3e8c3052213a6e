/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker, "today": nothing of <linux/mutex.h> is used. */
