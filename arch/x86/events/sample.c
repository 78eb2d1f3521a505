// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: where a sample was taken, as the record header says it.
 *
 * perf_misc_flags() and perf_instruction_pointer() turn the pt_regs of a
 * sample into header.misc cpumode bits and the linear address of the
 * sampled instruction. The generic core calls both while building a
 * sample, which may be in NMI, IRQ or task context, so everything here is
 * NMI-safe: no locks, no sleeping; the only tables read are this CPU's GDT
 * and the current mm's LDT, whose lifetime rules are spelled out below.
 */

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <asm/desc.h>
#include <asm/mmu_context.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>
#include <asm/segment.h>

/*
 * Base of the descriptor at @idx in the current mm's LDT, or 0 if there
 * is none.
 *
 * An installed LDT is never modified; modify_ldt(2) installs a new one,
 * IPIs every CPU running the mm and frees the old one after the IPIs
 * complete. With interrupts off here that IPI cannot complete on this CPU,
 * so the table read stays valid. Interrupts may be on when a software
 * event samples in task context; disabling them is cheap and harmless in
 * NMI.
 */
static unsigned long ldt_segment_base(unsigned int idx)
{
#ifdef CONFIG_MODIFY_LDT_SYSCALL
	unsigned long base = 0, flags;
	struct ldt_struct *ldt;

	local_irq_save(flags);
	ldt = READ_ONCE(current->active_mm->context.ldt);
	if (ldt && idx < ldt->nr_entries)
		base = get_desc_base(&ldt->entries[idx]);
	local_irq_restore(flags);

	return base;
#else
	/* No LDT can exist without modify_ldt(2). */
	return 0;
#endif
}

/*
 * Base address of the segment @selector names, from this CPU's GDT or the
 * current mm's LDT; 0 (flat) for a selector outside the table.
 *
 * Context: any, including NMI.
 */
static unsigned long segment_base(unsigned int selector)
{
	unsigned int idx = selector >> 3;

	if ((selector & SEGMENT_TI_MASK) == SEGMENT_LDT)
		return ldt_segment_base(idx);

	if (idx >= GDT_ENTRIES)
		return 0;

	/* Per-CPU and only changed by this CPU (TLS slots on task switch). */
	return get_desc_base(raw_cpu_ptr(gdt_page.gdt) + idx);
}

/*
 * The linear address of the code segment's base in user mode. 64-bit code
 * and the standard flat user code segments have base 0; a 32-bit task may
 * run from a segment of its own (GDT TLS slot or LDT), and vm86 code
 * (32-bit kernels only) is real-mode segmented.
 */
static unsigned long code_segment_base(struct pt_regs *regs)
{
	if (!user_mode(regs))
		return 0;

#ifdef CONFIG_X86_32
	if (regs->flags & X86_VM_MASK)
		return (unsigned long)(u16)regs->cs << 4;
	if (regs->cs == __USER_CS)
		return 0;
#else
	if (user_64bit_mode(regs) || regs->cs == __USER32_CS)
		return 0;
#endif
	return segment_base(regs->cs);
}

/**
 * perf_instruction_pointer - linear address of the sampled instruction
 * @regs: registers at the sample
 *
 * When perf_guest_state() says the sample hit a guest, the guest's IP as
 * the hypervisor reports it; otherwise @regs->ip made linear by adding the
 * code segment base.
 *
 * Context: any, including NMI.
 *
 * Return: the address to report as the sample's ip.
 */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	bool in_guest = perf_guest_state();

	return in_guest ? perf_guest_get_ip() :
			  regs->ip + code_segment_base(regs);
}

/**
 * perf_misc_flags - header.misc bits for a sample taken at @regs
 * @regs: registers at the sample
 *
 * The cpumode (guest user/kernel when perf_guest_state() says a guest was
 * running, else host user/kernel from the privilege level in @regs), plus
 * PERF_RECORD_MISC_EXACT_IP when a PMU driver marked @regs->flags with
 * PERF_EFLAGS_EXACT, meaning @regs->ip is the very instruction that caused
 * the event rather than one shortly after it (skid).
 *
 * Context: any, including NMI.
 *
 * Return: PERF_RECORD_MISC_* bits.
 */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();
	unsigned long misc;

	if (guest)
		misc = (guest & PERF_GUEST_USER) ? PERF_RECORD_MISC_GUEST_USER :
						   PERF_RECORD_MISC_GUEST_KERNEL;
	else
		misc = user_mode(regs) ? PERF_RECORD_MISC_USER :
					 PERF_RECORD_MISC_KERNEL;

	if (regs->flags & PERF_EFLAGS_EXACT)
		misc |= PERF_RECORD_MISC_EXACT_IP;

	return misc;
}
