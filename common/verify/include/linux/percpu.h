/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock checker: per-CPU variables live in the section "vc_percpu"; the
 * checker gives each simulated CPU its own copy inside the memory it
 * models, and vc_this_cpu_off is the running CPU's offset to it.
 */
#ifndef _VC_LINUX_PERCPU_H
#define _VC_LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/smp.h>

#define VC_CACHELINE		64

#define DEFINE_PER_CPU(type, name)					\
	__attribute__((__section__("vc_percpu"))) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__attribute__((__section__("vc_percpu"),			\
		       __aligned__(VC_CACHELINE))) __typeof__(type) name

extern unsigned long vc_this_cpu_off;
unsigned long vc_per_cpu_offset(int cpu);

#define per_cpu_ptr(ptr, cpu)	RELOC_HIDE((ptr), vc_per_cpu_offset(cpu))
#define this_cpu_ptr(ptr)	RELOC_HIDE((ptr), vc_this_cpu_off)
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define __this_cpu_inc(pcp)	do { (*this_cpu_ptr(&(pcp)))++; } while (0)
#define __this_cpu_dec(pcp)	do { (*this_cpu_ptr(&(pcp)))--; } while (0)
#define __this_cpu_read(pcp)	(*this_cpu_ptr(&(pcp)))

#endif /* _VC_LINUX_PERCPU_H */
