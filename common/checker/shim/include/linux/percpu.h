/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace lock lab: per-CPU variables the way the kernel does them.
 *
 * DEFINE_PER_CPU*() puts the variable in the section "lab_percpu", which
 * is only a template.  The program that uses the shim (lab.c, bench.c,
 * the checker) gives every CPU id in use its own copy of the whole section
 * and returns the distance from the template to it from
 * lab_per_cpu_offset(); per_cpu_ptr(ptr, cpu) adds that CPU's distance to
 * a pointer into the template, this_cpu_ptr() the calling thread's
 * (lab_this_cpu_off).  A CPU id no thread was
 * given is a lab failure (a tail that decodes to a CPU that does not
 * exist), reported and fatal.
 */
#ifndef _LAB_LINUX_PERCPU_H
#define _LAB_LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/smp.h>

#define LAB_CACHELINE		64

#define DEFINE_PER_CPU(type, name)					\
	__attribute__((__section__("lab_percpu"))) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__attribute__((__section__("lab_percpu"),			\
		       __aligned__(LAB_CACHELINE))) __typeof__(type) name

extern __thread unsigned long lab_this_cpu_off;
extern char __start_lab_percpu[], __stop_lab_percpu[];	/* by the linker */
unsigned long lab_per_cpu_offset(int cpu);

#define per_cpu_ptr(ptr, cpu)	RELOC_HIDE((ptr), lab_per_cpu_offset(cpu))
#define this_cpu_ptr(ptr)	RELOC_HIDE((ptr), lab_this_cpu_off)
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)

/*
 * The lock code uses these on its own CPU's variables, never from two
 * contexts at once that are not nested, so plain operations do, as on
 * the many architectures whose __this_cpu_*() are not atomic.
 */
#define __this_cpu_inc(pcp)	do { (*this_cpu_ptr(&(pcp)))++; } while (0)
#define __this_cpu_dec(pcp)	do { (*this_cpu_ptr(&(pcp)))--; } while (0)
#define __this_cpu_read(pcp)	(*this_cpu_ptr(&(pcp)))

#endif /* _LAB_LINUX_PERCPU_H */
