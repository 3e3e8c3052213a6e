/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: cpu_relax() is where a spin loop ends an iteration.  The
 * checker blocks the simulated CPU there until a store changes a value it
 * read since its previous cpu_relax() (common/verify/README.md, "Spin
 * loops are awaits").
 */
#ifndef _VC_ASM_PROCESSOR_H
#define _VC_ASM_PROCESSOR_H

void vc_relax(void);

static inline void cpu_relax(void)
{
	vc_relax();
}

#endif /* _VC_ASM_PROCESSOR_H */
