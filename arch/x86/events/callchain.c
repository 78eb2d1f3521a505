// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: kernel and user callchains (PERF_SAMPLE_CALLCHAIN).
 *
 * The generic core calls these with the callchain entry of this CPU and
 * context level, in whatever context the sample is taken: NMI (a PMU
 * overflow), IRQ (hrtimer-driven software events) or task context with
 * preemption off (tracepoints, page faults). Everything here is NMI-safe:
 * the kernel walk uses the kernel's unwinder, which only reads stacks, and
 * the user walk reads user memory with page faults disabled, so a frame
 * that is not resident ends the chain instead of sleeping.
 *
 * Both walks stop when perf_callchain_store() reports the entry full, which
 * is how sysctl_perf_event_max_stack (and attr.sample_max_stack) bound
 * them.
 */

#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#include <asm/perf_event.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>
#include <asm/tlbflush.h>
#include <asm/unwind.h>

/**
 * perf_callchain_kernel - record the kernel part of a callchain
 * @entry: where to store the return addresses
 * @regs: kernel-mode registers of the sample
 *
 * @regs come from one of two places. An interrupt or exception saved the
 * hardware state: the interrupted instruction is the first entry, and the
 * unwinder starts from the interrupted frame, reporting its caller next.
 * Or perf_fetch_caller_regs() filled in only ip/sp/flags for a software
 * event: the unwind then starts at the frame recorded there, so the
 * frames of perf's own functions below it are not reported. The two are
 * told apart by EFLAGS bit 1,
 * which the CPU always saves as 1 and perf_arch_fetch_caller_regs() leaves
 * 0.
 *
 * Samples taken while a guest runs have guest registers the host unwinder
 * cannot follow; they get no kernel callchain.
 *
 * Context: any, including NMI.
 */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (perf_guest_state())
		return;

	if (regs->flags & X86_EFLAGS_FIXED) {
		if (perf_callchain_store(entry, regs->ip))
			return;
		unwind_start(&state, current, regs, NULL);
	} else {
		unwind_start(&state, current, NULL, (unsigned long *)regs->sp);
	}

	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		/* 0: the unwinder lost the frame chain; stop there. */
		if (!addr || perf_callchain_store(entry, addr))
			return;
	}
}

/* A frame of frame-pointer-compiled 64-bit user code, as pushed on entry. */
struct user_frame64 {
	u64 next_fp;	/* the caller's saved %rbp */
	u64 ret;	/* return address into the caller */
};

/**
 * perf_callchain_user - record the user part of a callchain
 * @entry: where to store the return addresses
 * @regs: the user-mode registers of the current task
 *
 * The sampled IP first, then the return addresses found by following the
 * %rbp frame chain of the user stack, which is only meaningful for code
 * built with frame pointers. The walk ends at a frame pointer of 0, at the
 * first frame that cannot be read without faulting, or when @entry is full.
 *
 * Only 64-bit user code is walked: a task running 32-bit code
 * (CONFIG_IA32_EMULATION, off in the guest configs, or a far jump to the
 * 32-bit user code segment) gets its IP alone. Guest samples and vm86
 * state get nothing, their stacks are not the current task's.
 *
 * Context: any, including NMI. User memory is read with
 * copy_from_user_nmi(), which disables page faults and refuses while this
 * CPU is between mms (nmi_uaccess_okay()), when the page tables loaded are
 * not current's.
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	struct user_frame64 frame;
	unsigned long fp;

	if (perf_guest_state())
		return;

	if (regs->flags & (X86_VM_MASK | PERF_EFLAGS_VM))
		return;

	if (perf_callchain_store(entry, regs->ip))
		return;

	if (!nmi_uaccess_okay() || !user_64bit_mode(regs))
		return;

	for (fp = regs->bp; fp; fp = frame.next_fp) {
		if (copy_from_user_nmi(&frame, (const void __user *)fp,
				       sizeof(frame)))
			return;
		if (perf_callchain_store(entry, frame.ret))
			return;
	}
}
