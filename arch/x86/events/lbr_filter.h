/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events: the software filter of branch stacks (lbr_filter.c),
 * which every vendor's branch recorder shares: Intel's LBRs (intel/) and
 * AMD's LbrExtV2 (amd/); BRS (amd/brs.c) uses only its address levels.
 */
#ifndef _ARCH_X86_EVENTS_LBR_FILTER_H
#define _ARCH_X86_EVENTS_LBR_FILTER_H

#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include <asm/page.h>

/*
 * Branch kinds, as the software filter of branch stacks sees them: the
 * level of a branch's target, what it was, and with a selection by
 * transaction state, that state.
 */
#define X86_BR_USER		BIT(0)
#define X86_BR_KERNEL		BIT(1)
#define X86_BR_COND		BIT(2)	/* Jcc, LOOPcc, JCXZ */
#define X86_BR_JMP		BIT(3)	/* direct JMP, near or far */
#define X86_BR_IND_JMP		BIT(4)
#define X86_BR_CALL		BIT(5)	/* direct CALL, near or far */
#define X86_BR_ZERO_CALL	BIT(6)	/* CALL to the next instruction */
#define X86_BR_IND_CALL		BIT(7)
#define X86_BR_RET		BIT(8)	/* RET, near or far */
#define X86_BR_SYSCALL		BIT(9)	/* SYSCALL, SYSENTER */
#define X86_BR_SYSRET		BIT(10)	/* SYSRET, SYSEXIT */
#define X86_BR_INT		BIT(11)	/* INT3, INT n, INTO */
#define X86_BR_IRET		BIT(12)
#define X86_BR_IRQ		BIT(13)	/* interrupt or exception */
#define X86_BR_ABORT		BIT(14)	/* transaction abort */
#define X86_BR_IN_TX		BIT(15)
#define X86_BR_NO_TX		BIT(16)
#define X86_BR_ANY		GENMASK(14, 2)

/*
 * A recorded branch type, as Arch LBR's IA32_LBR_x_INFO.BR_TYPE encodes
 * it; 8 and up: other branch
 */
#define X86_LBR_TYPE_COND	0
#define X86_LBR_TYPE_IND_JMP	1
#define X86_LBR_TYPE_REL_JMP	2
#define X86_LBR_TYPE_IND_CALL	3
#define X86_LBR_TYPE_REL_CALL	4
#define X86_LBR_TYPE_RET	5
/* no type recorded: classify from the instruction */
#define X86_LBR_TYPE_NONE	U8_MAX

/*
 * Not a kind: the sample's entries get their PERF_BR_* type (always with
 * a recorded type, else only on PERF_SAMPLE_BRANCH_TYPE_SAVE)
 */
#define X86_BR_TYPE_SAVE	BIT(17)

/*
 * Not a kind: the recorder may give as a branch's source the first of
 * a pair of instructions the CPU fused into one operation (AMD: a CMP or
 * TEST and the Jcc after it), so the branch is looked for in the bytes
 * there and the source moved to it
 */
#define X86_BR_FUSED		BIT(18)

/* kernel addresses: the upper half (64-bit), above PAGE_OFFSET (32-bit) */
static inline bool x86_kernel_addr(u64 addr)
{
	if (IS_ENABLED(CONFIG_X86_64))
		return (s64)addr < 0;
	return addr >= PAGE_OFFSET;
}

u32 x86_lbr_wanted(u64 bst);
unsigned int x86_read_text(u64 addr, u8 *buf, unsigned int len, bool *is64);
u32 x86_lbr_insn_kind(const u8 *buf, unsigned int len, bool is64,
		      unsigned int *skip);
u32 x86_lbr_kind(u64 from, u64 to, unsigned int type);
void x86_lbr_filter(struct perf_branch_stack *bs, const u8 *types,
		    u32 wanted);

#endif /* _ARCH_X86_EVENTS_LBR_FILTER_H */
