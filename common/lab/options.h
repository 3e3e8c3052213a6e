/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - reading a whole-number option, for the lab's programs
 * (lab.c, bench.c).  Decimal, or hex with 0x.
 */
#ifndef _LAB_OPTIONS_H
#define _LAB_OPTIONS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Is s a number in min..max?  If so, *v is it. */
static inline bool lab_number(const char *prog, const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 0);
	if (errno || *end || end == s || *v < min || *v > max) {
		fprintf(stderr, "%s: '%s' is not a number in %ld..%ld\n", prog, s, min, max);
		return false;
	}
	return true;
}

#endif /* _LAB_OPTIONS_H */
