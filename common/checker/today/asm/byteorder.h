/* SPDX-License-Identifier: GPL-2.0 */
/* Lock checker, "today": __LITTLE_ENDIAN comes from vc-today.h. */
