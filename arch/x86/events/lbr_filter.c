// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: which recorded branches a sample keeps, for every
 * vendor's branch recorder (Intel's LBRs, AMD's LbrExtV2).
 *
 * attr.branch_sample_type names privilege levels and kinds of branch.
 * The recorders filter by both as far as their filter registers go
 * (Intel's IA32_LBR_CTL or MSR_LBR_SELECT, AMD's LBR_SELECT), but not
 * far enough: its privilege filter looks at one end of a branch only, and
 * its "other branch" type lumps together far transfers, SYSCALL and
 * SYSRET, INT n and IRET, interrupts and exceptions. So when a sample is
 * taken, every entry is classified again and kept only if the event asked
 * for its kind, and for the privilege level of its target, and, when its
 * source is kernel code, for the kernel level too.
 *
 * The kind of an entry comes from its LBR_INFO branch type; for "other
 * branch", and for every entry of a recorder that records no type (the
 * model-specific LBR, AMD's), it comes from the instruction at the source
 * address. An entry
 * whose source is user code and whose target is the kernel is a system
 * call or INT n by its instruction, and an interrupt or exception
 * otherwise. What no rule names (an instruction we cannot read, or one
 * that is no branch, as the source of an exception inside the kernel) is
 * dropped, whatever the event asked for: the same entries upstream's
 * driver keeps, so that a tool sees the same stacks on both. For the same
 * reason, where the LBR records no type, a stack of every kind at every
 * level is left as read unless the event asks for the types
 * (PERF_SAMPLE_BRANCH_TYPE_SAVE): only then are the instructions read.
 *
 * Everything here runs in the PMI, in NMI context: no locks, no sleeping,
 * user memory read only with copy_from_user_nmi().
 */

#include <linux/bits.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>

#include <asm/insn.h>
#include <asm/ptrace.h>

#include "lbr_filter.h"

static u32 lbr_level(u64 addr)
{
	return x86_kernel_addr(addr) ? X86_BR_KERNEL : X86_BR_USER;
}

/**
 * x86_lbr_wanted - the branches a sample of an event keeps
 * @bst: the event's attr.branch_sample_type
 *
 * Return: a set of X86_BR_* bits: the levels and kinds asked for,
 * X86_BR_IN_TX and/or X86_BR_NO_TX when the event selects by
 * transaction state, and X86_BR_TYPE_SAVE when it asks for the types.
 */
u32 x86_lbr_wanted(u64 bst)
{
	/* by PERF_SAMPLE_BRANCH_*_SHIFT: called for every sample */
	static const u32 kinds[] = {
		[PERF_SAMPLE_BRANCH_USER_SHIFT]		= X86_BR_USER,
		[PERF_SAMPLE_BRANCH_KERNEL_SHIFT]	= X86_BR_KERNEL,
		[PERF_SAMPLE_BRANCH_ANY_SHIFT]		= X86_BR_ANY,
		[PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT]	= X86_BR_CALL |
							  X86_BR_ZERO_CALL |
							  X86_BR_IND_CALL |
							  X86_BR_SYSCALL |
							  X86_BR_INT |
							  X86_BR_IRQ,
		[PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT]	= X86_BR_RET |
							  X86_BR_IRET |
							  X86_BR_SYSRET,
		[PERF_SAMPLE_BRANCH_IND_CALL_SHIFT]	= X86_BR_IND_CALL,
		[PERF_SAMPLE_BRANCH_COND_SHIFT]		= X86_BR_COND,
		[PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT]	= X86_BR_CALL |
							  X86_BR_IND_CALL |
							  X86_BR_RET,
		[PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT]	= X86_BR_IND_JMP,
		[PERF_SAMPLE_BRANCH_CALL_SHIFT]		= X86_BR_CALL |
							  X86_BR_ZERO_CALL,
		[PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT]	= X86_BR_ABORT,
		[PERF_SAMPLE_BRANCH_IN_TX_SHIFT]	= X86_BR_IN_TX,
		[PERF_SAMPLE_BRANCH_NO_TX_SHIFT]	= X86_BR_NO_TX,
		[PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT]	= X86_BR_TYPE_SAVE,
	};
	u32 wanted = 0;
	unsigned int shift;

	/* only the bits that are set: an event sets two or three */
	for (; bst; bst &= bst - 1) {
		shift = __ffs64(bst);
		if (shift < ARRAY_SIZE(kinds))
			wanted |= kinds[shift];
	}
	return wanted;
}

/* the kind of a near branch from its LBR_INFO type; 0 for "other" */
static u32 lbr_hw_kind(unsigned int type)
{
	static const u32 kinds[] = {
		[X86_LBR_TYPE_COND]		= X86_BR_COND,
		[X86_LBR_TYPE_IND_JMP]	= X86_BR_IND_JMP,
		[X86_LBR_TYPE_REL_JMP]	= X86_BR_JMP,
		[X86_LBR_TYPE_IND_CALL]	= X86_BR_IND_CALL,
		[X86_LBR_TYPE_REL_CALL]	= X86_BR_CALL,
		[X86_LBR_TYPE_RET]		= X86_BR_RET,
	};

	return type < ARRAY_SIZE(kinds) ? kinds[type] : 0;
}

/* ModRM.reg of FF: 2 and 3 call (near, far), 4 and 5 jump */
static u32 lbr_ff_kind(struct insn *insn)
{
	unsigned int reg;

	if (insn_get_modrm(insn))
		return X86_BR_ABORT;
	reg = X86_MODRM_REG(insn->modrm.bytes[0]);
	if (reg == 2 || reg == 3)
		return X86_BR_IND_CALL;
	if (reg == 4 || reg == 5)
		return X86_BR_IND_JMP;
	return 0;
}

/* two-byte opcodes 0F xx */
static u32 lbr_0f_kind(u8 op)
{
	if (op >= 0x80 && op <= 0x8f)		/* Jcc rel32 */
		return X86_BR_COND;
	if (op == 0x05 || op == 0x34)		/* SYSCALL, SYSENTER */
		return X86_BR_SYSCALL;
	if (op == 0x07 || op == 0x35)		/* SYSRET, SYSEXIT */
		return X86_BR_SYSRET;
	return 0;
}

/* the kind of branch @insn is, by its opcode; 0 when it is none */
static u32 lbr_opcode_kind(struct insn *insn)
{
	u8 op;

	if (insn_get_opcode(insn))
		return X86_BR_ABORT;
	op = insn->opcode.bytes[0];
	if (op == 0x0f)
		return lbr_0f_kind(insn->opcode.bytes[1]);
	if ((op >= 0x70 && op <= 0x7f) ||	/* Jcc rel8 */
	    (op >= 0xe0 && op <= 0xe3))		/* LOOPcc, JCXZ */
		return X86_BR_COND;
	if (op >= 0xcc && op <= 0xce)		/* INT3, INT n, INTO */
		return X86_BR_INT;

	switch (op) {
	case 0xc2: case 0xc3:			/* RET near */
	case 0xca: case 0xcb:			/* RET far */
		return X86_BR_RET;
	case 0xcf:
		return X86_BR_IRET;
	case 0x9a:				/* CALL far ptr16:32 */
		return X86_BR_CALL;
	case 0xe8:				/* CALL rel; rel 0: next insn */
		if (insn_get_immediate(insn))
			return X86_BR_ZERO_CALL;
		return insn->immediate.value ? X86_BR_CALL :
					       X86_BR_ZERO_CALL;
	case 0xe9: case 0xea: case 0xeb:	/* JMP rel32, far, rel8 */
		return X86_BR_JMP;
	case 0xff:
		return lbr_ff_kind(insn);
	}
	return 0;
}

/*
 * The kind of the first branch at @buf. With @skip, the instructions
 * before it that are no branch are stepped over (a fused pair's first
 * half), and *@skip gets their length: every one that decoded, even
 * when no branch follows within the bytes read, as upstream moves such
 * an entry's source.
 */
static u32 lbr_buf_kind(const u8 *buf, unsigned int len, bool is64,
			unsigned int *skip)
{
	unsigned int at = 0;
	struct insn insn;
	u32 kind;

	for (;;) {
		insn_init(&insn, buf + at, len - at, is64);
		kind = lbr_opcode_kind(&insn);
		if (kind || !skip)
			break;
		if (insn_get_length(&insn) || !insn.length)
			break;
		at += insn.length;
	}
	if (skip)
		*skip = at;
	return kind;
}

/**
 * x86_lbr_insn_kind - the kind of branch an instruction is
 * @buf: its bytes
 * @len: how many of them could be read
 * @is64: decode for 64-bit mode
 * @skip: NULL to look at the first instruction only; else the first
 *	branch among the instructions in @buf counts, and *@skip gets the
 *	length of those before it (X86_BR_FUSED)
 *
 * Return: an X86_BR_* kind, X86_BR_ABORT when the bytes do not decode
 * (as upstream reports them), 0 for an instruction that is no branch.
 */
u32 x86_lbr_insn_kind(const u8 *buf, unsigned int len, bool is64,
		      unsigned int *skip)
{
	return lbr_buf_kind(buf, len, is64, skip);
}

/**
 * x86_read_text - the bytes of the code at an address, from any context
 * @addr: user text of the current task, or kernel text
 * @buf: filled with what could be read
 * @len: how many bytes are wanted (kernel text: all or none)
 * @is64: set to whether the code there runs in 64-bit mode
 *
 * Context: any, NMI included: user memory is read only with
 * copy_from_user_nmi(), kernel memory without faulting.
 * Return: how many bytes were read; 0 when none could be.
 */
unsigned int x86_read_text(u64 addr, u8 *buf, unsigned int len, bool *is64)
{
	*is64 = IS_ENABLED(CONFIG_X86_64);
	if (x86_kernel_addr(addr)) {
		if (!kernel_text_address(addr) || in_gate_area_no_mm(addr) ||
		    copy_from_kernel_nofault(buf, (void *)(unsigned long)addr,
					     len))
			return 0;
		return len;
	}
	/* a kernel thread has no user text to read */
	if (!current->mm)
		return 0;
	if (*is64)
		*is64 = any_64bit_mode(current_pt_regs());
	return len - copy_from_user_nmi(buf, (void __user *)(unsigned long)addr,
					len);
}

/*
 * The kind of branch at @from, read from the instruction there. 0 when it
 * is no branch; -1 when it cannot be read. @skip as for
 * x86_lbr_insn_kind().
 */
static s64 lbr_decode(u64 from, unsigned int *skip)
{
	u8 buf[MAX_INSN_SIZE];
	unsigned int len;
	bool is64;

	len = x86_read_text(from, buf, sizeof(buf), &is64);
	if (!len)
		return -1;
	return lbr_buf_kind(buf, len, is64, skip);
}

/* x86_lbr_kind(), and with @skip where the branch lies past @from */
static u32 lbr_classify(u64 from, u64 to, unsigned int type,
			unsigned int *skip)
{
	s64 decoded;
	u32 kind;

	if (skip)
		*skip = 0;
	if (!from || !to)
		return 0;
	kind = lbr_hw_kind(type);
	if (!kind) {
		decoded = lbr_decode(from, skip);
		if (decoded < 0)
			return 0;
		kind = decoded;
		/* into the kernel, not by a system call: an event took it */
		if (!x86_kernel_addr(from) && x86_kernel_addr(to) &&
		    kind != X86_BR_SYSCALL && kind != X86_BR_INT)
			kind = X86_BR_IRQ;
	}
	return kind ? kind | lbr_level(to) : 0;
}

/**
 * x86_lbr_kind - classify one recorded branch
 * @from: its source address
 * @to: its target address
 * @type: its recorded branch type (X86_LBR_TYPE_*)
 *
 * Context: NMI (the PMI), or any context for a kernel @from.
 * Return: one kind bit and the level of the target (X86_BR_USER or
 * X86_BR_KERNEL), or 0 when the entry is no branch we can name.
 */
u32 x86_lbr_kind(u64 from, u64 to, unsigned int type)
{
	return lbr_classify(from, to, type, NULL);
}

/* the PERF_BR_* type of each kind, by its bit */
static const u8 lbr_kind_type[] = {
	[ilog2(X86_BR_COND)]		= PERF_BR_COND,
	[ilog2(X86_BR_JMP)]		= PERF_BR_UNCOND,
	[ilog2(X86_BR_IND_JMP)]	= PERF_BR_IND,
	[ilog2(X86_BR_CALL)]		= PERF_BR_CALL,
	[ilog2(X86_BR_ZERO_CALL)]	= PERF_BR_CALL,
	[ilog2(X86_BR_IND_CALL)]	= PERF_BR_IND_CALL,
	[ilog2(X86_BR_RET)]		= PERF_BR_RET,
	[ilog2(X86_BR_SYSCALL)]	= PERF_BR_SYSCALL,
	[ilog2(X86_BR_SYSRET)]	= PERF_BR_SYSRET,
	[ilog2(X86_BR_INT)]		= PERF_BR_UNKNOWN,
	[ilog2(X86_BR_IRET)]		= PERF_BR_ERET,
	[ilog2(X86_BR_IRQ)]		= PERF_BR_IRQ,
	[ilog2(X86_BR_ABORT)]		= PERF_BR_UNKNOWN,
};

/*
 * The PERF_BR_* type a kept entry reports: its kind's. With a selection
 * by transaction state the entry's state is part of its kind too, and
 * outranks two kinds, the indirect jump and the call to the next
 * instruction: those then report the state's type (PERF_BR_NO_TX outside
 * a transaction, PERF_BR_UNKNOWN inside), as upstream's driver does.
 * Called for every kept entry in the PMI, hence a table.
 */
static unsigned int lbr_perf_type(u32 kind)
{
	u32 what = kind & X86_BR_ANY;

	if (what & (X86_BR_IND_JMP | X86_BR_ZERO_CALL)) {
		if (kind & X86_BR_NO_TX)
			return PERF_BR_NO_TX;
		if (kind & X86_BR_IN_TX)
			return PERF_BR_UNKNOWN;
	}
	return what ? lbr_kind_type[__ffs(what)] : PERF_BR_UNKNOWN;
}

/**
 * x86_lbr_filter - drop the entries a sample does not want
 * @bs: the stack as read, youngest first; compacted in place
 * @types: each entry's recorded branch type, parallel to @bs->entries,
 *	or NULL where the recorder records none
 * @wanted: x86_lbr_wanted() of the event, with X86_BR_TYPE_SAVE
 *	where the LBR records the types and X86_BR_FUSED where it may
 *	name a fused pair's first instruction as the source
 *
 * With X86_BR_TYPE_SAVE every kept entry gets its PERF_BR_* type, else
 * PERF_BR_UNKNOWN; without it a selection of every kind at both levels
 * keeps the stack as it is. With X86_BR_FUSED every entry is decoded
 * whatever the selection, and one whose source is no branch gets the
 * address of the branch that follows it; a selection of everything
 * then keeps such an entry without looking at its kind, as upstream's
 * AMD driver does.
 *
 * Context: NMI (the PMI).
 */
void x86_lbr_filter(struct perf_branch_stack *bs, const u8 *types,
		    u32 wanted)
{
	u32 tx = wanted & (X86_BR_IN_TX | X86_BR_NO_TX);
	u32 all = X86_BR_ANY | X86_BR_USER | X86_BR_KERNEL;
	bool every = (wanted & all) == all && !tx &&
		     !(wanted & X86_BR_TYPE_SAVE);
	bool fused = wanted & X86_BR_FUSED;
	unsigned int skip = 0;
	u64 i, kept = 0;
	u32 kind;

	if (every && !fused)
		return;

	for (i = 0; i < bs->nr; i++) {
		struct perf_branch_entry *e = &bs->entries[i];

		/* a type the recorder names needs no call: most entries */
		kind = types && !fused ? lbr_hw_kind(types[i]) : 0;
		if (kind && e->from && e->to)
			kind |= lbr_level(e->to);
		else
			kind = lbr_classify(e->from, e->to,
					    types ? types[i] : X86_LBR_TYPE_NONE,
					    fused ? &skip : NULL);
		if (skip) {
			e->from += skip;
			if (every)
				goto keep;
		}
		if (!kind)
			continue;
		if (tx)
			kind |= e->in_tx ? X86_BR_IN_TX : X86_BR_NO_TX;
		if (kind & ~wanted)
			continue;
		if (x86_kernel_addr(e->from) && !(wanted & X86_BR_KERNEL))
			continue;
		e->type = wanted & X86_BR_TYPE_SAVE ? lbr_perf_type(kind) :
							PERF_BR_UNKNOWN;
keep:
		/* compact only once an entry was dropped */
		if (kept != i)
			bs->entries[kept] = *e;
		kept++;
	}
	bs->nr = kept;
}
