// SPDX-License-Identifier: GPL-2.0
/*
 * Paravirt spinlocks by halt and IPI, for a guest whose hypervisor Linux
 * does not recognise.
 *
 * The paravirt slowpath (kernel/locking/qspinlock_paravirt.h) needs two
 * things from a backend: pv_wait(ptr, val), which stops this vCPU while
 * *ptr == val, and pv_kick(cpu), which wakes that CPU from its pv_wait().
 * KVM does both with hypercalls, Xen with event channels.  Here a waiter
 * halts, and a kick is an IPI: what ends a halt is an interrupt, and
 * every x86 hypervisor lets a halted vCPU give its physical CPU back.
 *
 * Unlike KVM's PV_UNHALT, an interrupt does not end a halt entered with
 * interrupts disabled: such a halt would never end.  A waiter that spins
 * with interrupts disabled (spin_lock_irq(), a hardirq, an NMI) returns
 * from pv_wait() at once and goes on spinning, which the API allows: a
 * pv_wait() may return early for any reason, and its callers look again.
 */
#include <linux/init.h>
#include <linux/smp.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/cpufeature.h>
#include <asm/hypervisor.h>
#include <asm/paravirt.h>
#include <asm/qspinlock.h>

static void halt_wait(u8 *ptr, u8 val)
{
	if (in_nmi() || irqs_disabled())
		return;

	/*
	 * Look with interrupts off, then halt with sti;hlt (safe_halt()):
	 * an interrupt is not taken between the two instructions, so a kick
	 * sent after our look ends the halt instead of landing before it.
	 */
	local_irq_disable();
	if (READ_ONCE(*ptr) == val)
		safe_halt();
	else
		local_irq_enable();
}

/* Any IPI ends the halt; the reschedule IPI's handler does no harm. */
static void halt_kick(int cpu)
{
	smp_send_reschedule(cpu);
}

void __init pv_halt_spinlock_init(void)
{
	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR) ||
	    x86_hyper_type != X86_HYPER_NATIVE)
		return;

	if (num_possible_cpus() == 1) {
		pr_info("PV spinlocks disabled, single CPU\n");
		return;
	}

	if (nopvspin) {
		pr_info("PV spinlocks disabled, forced by \"nopvspin\" parameter\n");
		return;
	}

	__pv_init_lock_hash();
	pv_ops.lock.queued_spin_lock_slowpath = __pv_queued_spin_lock_slowpath;
	pv_ops.lock.queued_spin_unlock = PV_CALLEE_SAVE(__pv_queued_spin_unlock);
	pv_ops.lock.wait = halt_wait;
	pv_ops.lock.kick = halt_kick;

	/* The paravirt queue replaces the test-and-set loop of a guest. */
	static_branch_disable(&virt_spin_lock_key);

	pr_info("PV spinlocks enabled: waiters halt, the unlock kicks them by IPI\n");
}
