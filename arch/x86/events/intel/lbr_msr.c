// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: the model-specific ("legacy") LBR's registers,
 * one backend of lbr.c.
 *
 * Before Arch LBR each model had its own LBR (SDM vol. 3B, "Last Branch,
 * Interrupt, and Exception Recording" and the sections for each
 * microarchitecture; vol. 4 for the MSRs). We drive those of Sandy Bridge
 * to Tiger Lake: a ring of N entries, MSR_LASTBRANCH_x_FROM_IP (680H + x)
 * and _TO_IP (6C0H + x), whose youngest is the one MSR_LASTBRANCH_TOS
 * names; a new branch advances the TOS and overwrites the oldest.
 * IA32_DEBUGCTL.LBR turns recording on. N is not enumerated: it is the
 * model's, from the SDM's tables. IA32_PERF_CAPABILITIES.LBR_FMT says
 * where an entry's flags are:
 *
 * - 5 (Skylake on): in MSR_LBR_INFO_x (DC0H + x: MISPRED, IN_TX,
 *   TSX_ABORT, the cycle count);
 * - 4 (Haswell, Broadwell): in FROM_IP's top bits, MISPRED 63, IN_TX 62
 *   and TSX_ABORT 61, above an address sign-extended from bit 60. On a
 *   part without TSX, bits 62:61 are sign extension too: they read as
 *   such, and a write with them otherwise #GPs.
 * - 3 (Sandy Bridge, Ivy Bridge): MISPRED alone, in bit 63, above an
 *   address sign-extended from bit 62. These parts have no call-stack
 *   mode.
 *
 * struct intel_lbr_rec has the layout of format 5; format 3 and 4's
 * flags sit at the same bits of its @info, so the rest of lbr.c sees no
 * format.
 *
 * MSR_LBR_SELECT filters. Its bits 0-8 each suppress a kind of branch:
 * those ending in ring 0 (CPL_EQ_0) or in rings 1-3 (CPL_NEQ_0), JCC,
 * near relative and indirect calls, near returns, near indirect and
 * relative jumps, and far branches (interrupts, exceptions, SYSCALL,
 * SYSRET, IRET, far jumps and calls). Bit 9, EN_CALLSTACK, turns on
 * call-stack mode, which is defined only with every kind suppressed but
 * near calls and returns, as lbr.c's mapping for it leaves them. The
 * entries carry no kind of branch: ../lbr_filter.c reads it from the
 * instruction where a sample needs it.
 *
 * Context: as struct intel_lbr_ops says; the probe at boot. IA32_DEBUGCTL
 * is read, changed and written, also in the PMI. Its other writers (the
 * context switch's BTF update, ptrace) run with interrupts off, but a
 * CPU-wide event's PMI, an NMI, can still land between their read and
 * their write; their write then puts back the LBR bit as it was before
 * the PMI. The PMI leaves the bit as it found it unless it stopped the
 * last LBR event, so the worst case is an LBR left recording with no
 * user until the next add, stop or context switch clears and sets it:
 * no entry of it reaches a sample, which only an LBR event takes.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/perf_event.h>

#include <asm/cpu_device_id.h>
#include <asm/debugreg.h>
#include <asm/intel-family.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "intel.h"

/* IA32_PERF_CAPABILITIES[5:0]: the LBR format; 5 has MSR_LBR_INFO_x */
#define LBR_MSR_FMT		GENMASK_ULL(5, 0)
#define LBR_MSR_FMT_FLAGS	3
#define LBR_MSR_FMT_FLAGS2	4
#define LBR_MSR_FMT_INFO	5

/* format 4: FROM_IP's flags, at the bits LBR_INFO has them */
#define LBR_FROM_FLAGS		(LBR_INFO_MISPRED | LBR_INFO_IN_TX | \
				 LBR_INFO_ABORT)
#define LBR_FROM_TSX		(LBR_INFO_IN_TX | LBR_INFO_ABORT)
#define LBR_FROM_SIGN		BIT_ULL(60)

/* MSR_LBR_SELECT: bits 0-8 suppress, bit 9 enables */
#define LBR_SEL_CPL_EQ_0	BIT_ULL(0)
#define LBR_SEL_CPL_NEQ_0	BIT_ULL(1)
#define LBR_SEL_JCC		BIT_ULL(2)
#define LBR_SEL_NEAR_REL_CALL	BIT_ULL(3)
#define LBR_SEL_NEAR_IND_CALL	BIT_ULL(4)
#define LBR_SEL_NEAR_RET	BIT_ULL(5)
#define LBR_SEL_NEAR_IND_JMP	BIT_ULL(6)
#define LBR_SEL_NEAR_REL_JMP	BIT_ULL(7)
#define LBR_SEL_FAR_BRANCH	BIT_ULL(8)
#define LBR_SEL_EN_CALLSTACK	BIT_ULL(9)

/*
 * The depth of the models whose LBR we drive (SDM vol. 3B, the table of
 * LBR stack sizes by model): 16 on Sandy Bridge to Broadwell, 32 from
 * Skylake on.
 */
static const struct x86_cpu_id lbr_msr_models[] __initconst = {
	X86_MATCH_VFM(INTEL_SANDYBRIDGE, 16),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X, 16),
	X86_MATCH_VFM(INTEL_IVYBRIDGE, 16),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X, 16),
	X86_MATCH_VFM(INTEL_HASWELL, 16),
	X86_MATCH_VFM(INTEL_HASWELL_L, 16),
	X86_MATCH_VFM(INTEL_HASWELL_G, 16),
	X86_MATCH_VFM(INTEL_HASWELL_X, 16),
	X86_MATCH_VFM(INTEL_BROADWELL, 16),
	X86_MATCH_VFM(INTEL_BROADWELL_G, 16),
	X86_MATCH_VFM(INTEL_BROADWELL_X, 16),
	X86_MATCH_VFM(INTEL_BROADWELL_D, 16),
	X86_MATCH_VFM(INTEL_SKYLAKE, 32),
	X86_MATCH_VFM(INTEL_SKYLAKE_L, 32),
	X86_MATCH_VFM(INTEL_SKYLAKE_X, 32),
	X86_MATCH_VFM(INTEL_KABYLAKE, 32),
	X86_MATCH_VFM(INTEL_KABYLAKE_L, 32),
	X86_MATCH_VFM(INTEL_COMETLAKE, 32),
	X86_MATCH_VFM(INTEL_COMETLAKE_L, 32),
	X86_MATCH_VFM(INTEL_ICELAKE, 32),
	X86_MATCH_VFM(INTEL_ICELAKE_L, 32),
	X86_MATCH_VFM(INTEL_ICELAKE_X, 32),
	X86_MATCH_VFM(INTEL_ICELAKE_D, 32),
	X86_MATCH_VFM(INTEL_TIGERLAKE, 32),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L, 32),
	X86_MATCH_VFM(INTEL_ROCKETLAKE, 32),
	{}
};

static unsigned int msr_depth __ro_after_init;
/* format 5: the flags are in MSR_LBR_INFO_x; else in FROM_IP (3, 4) */
static bool msr_has_info __ro_after_init;
/* the LBR format, before 5: where FROM_IP's address ends */
static unsigned int msr_fmt __ro_after_init;
/* format 4 on a part with TSX: FROM_IP's bits 62:61 are flags */
static bool msr_from_tsx __ro_after_init;

/**
 * intel_lbr_from_split - a FROM_IP of format 3 or 4 as address and flags
 * @raw: the MSR's value
 * @fmt: 3 (MISPRED in bit 63 above an address of 63 bits) or 4 (the
 *	address's sign from bit 60 up)
 * @tsx: format 4 on a part with TSX: bits 62:61 are IN_TX and
 *	TSX_ABORT, not sign extension
 * @rec: its @from and @info filled in
 *
 * Context: any.
 */
void intel_lbr_from_split(u64 raw, unsigned int fmt, bool tsx,
			  struct intel_lbr_rec *rec)
{
	unsigned int top = fmt == LBR_MSR_FMT_FLAGS ? 1 : 3;

	rec->from = (u64)((s64)(raw << top) >> top);
	rec->info = raw & (top == 3 && tsx ? LBR_FROM_FLAGS :
					     LBR_INFO_MISPRED);
}

/**
 * intel_lbr_from_join - the FROM_IP of an entry, to write back
 * @rec: the entry, as intel_lbr_from_split() made it
 * @tsx: bits 62:61 are flags (format 4 with TSX); else they must repeat
 *	the address's sign (format 4 without TSX, where anything else
 *	#GPs, and format 3, where they are the address's)
 *
 * Context: any.
 * Return: the MSR's value.
 */
u64 intel_lbr_from_join(const struct intel_lbr_rec *rec, bool tsx)
{
	u64 raw = (rec->from & ~LBR_FROM_FLAGS) |
		  (rec->info & LBR_INFO_MISPRED);

	if (tsx)
		return raw | (rec->info & LBR_FROM_TSX);
	return raw | (rec->from & LBR_FROM_SIGN ? LBR_FROM_TSX : 0);
}

/**
 * intel_lbr_select - MSR_LBR_SELECT for what an event wants recorded
 * @ctl: LBR_CTL_* bits (lbr.c's intel_lbr_ctl())
 *
 * Each kind or level @ctl lacks is suppressed; call-stack mode is the one
 * bit that enables.
 *
 * Context: any.
 * Return: the MSR's value.
 */
u64 intel_lbr_select(u64 ctl)
{
	static const struct {
		u64 ctl, sel;
	} map[] = {
		{ LBR_CTL_OS,		LBR_SEL_CPL_EQ_0 },
		{ LBR_CTL_USR,		LBR_SEL_CPL_NEQ_0 },
		{ LBR_CTL_COND,		LBR_SEL_JCC },
		{ LBR_CTL_REL_CALL,	LBR_SEL_NEAR_REL_CALL },
		{ LBR_CTL_IND_CALL,	LBR_SEL_NEAR_IND_CALL },
		{ LBR_CTL_RET,		LBR_SEL_NEAR_RET },
		{ LBR_CTL_IND_JMP,	LBR_SEL_NEAR_IND_JMP },
		{ LBR_CTL_REL_JMP,	LBR_SEL_NEAR_REL_JMP },
		{ LBR_CTL_OTHER,	LBR_SEL_FAR_BRANCH },
	};
	u64 sel = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!(ctl & map[i].ctl))
			sel |= map[i].sel;
	}
	if (ctl & LBR_CTL_CALL_STACK)
		sel |= LBR_SEL_EN_CALLSTACK;
	return sel;
}

static void msr_debugctl_lbr(bool on)
{
	u64 old = get_debugctlmsr(), new = old;

	if (on)
		new |= DEBUGCTLMSR_LBR;
	else
		new &= ~DEBUGCTLMSR_LBR;
	if (new != old)
		update_debugctlmsr(new);
}

static void msr_start(u64 hw)
{
	wrmsrl(MSR_LBR_SELECT, hw);
	msr_debugctl_lbr(true);
}

static void msr_stop(void)
{
	msr_debugctl_lbr(false);
}

/* no register clears the ring: every entry is written */
static void msr_clear(void)
{
	unsigned int i;

	for (i = 0; i < msr_depth; i++) {
		wrmsrl(MSR_LBR_NHM_FROM + i, 0);
		wrmsrl(MSR_LBR_NHM_TO + i, 0);
		if (msr_has_info)
			wrmsrl(MSR_LBR_INFO_0 + i, 0);
	}
}

/* the ring's slot of the @i-th youngest entry when the TOS is @tos */
static unsigned int msr_slot(u64 tos, unsigned int i)
{
	return (tos + msr_depth - i) % msr_depth;
}

static unsigned int msr_read(struct intel_lbr_rec *rec, u64 *hw_idx)
{
	unsigned int i, slot;
	u64 tos, from;

	rdmsrl(MSR_LBR_TOS, tos);
	tos %= msr_depth;
	for (i = 0; i < msr_depth; i++) {
		slot = msr_slot(tos, i);
		rdmsrl(MSR_LBR_NHM_FROM + slot, from);
		if (!from)
			break;
		rdmsrl(MSR_LBR_NHM_TO + slot, rec[i].to);
		if (msr_has_info) {
			rec[i].from = from;
			rdmsrl(MSR_LBR_INFO_0 + slot, rec[i].info);
		} else {
			intel_lbr_from_split(from, msr_fmt, msr_from_tsx,
					     &rec[i]);
		}
	}
	*hw_idx = tos;
	return i;
}

/* only the youngest entry, for a PEBS record's IP (no LBR_INFO then) */
static bool msr_youngest(struct intel_lbr_rec *rec)
{
	u64 tos, from;

	rdmsrl(MSR_LBR_TOS, tos);
	tos %= msr_depth;
	rdmsrl(MSR_LBR_NHM_FROM + tos, from);
	if (!from)
		return false;
	rdmsrl(MSR_LBR_NHM_TO + tos, rec->to);
	intel_lbr_from_split(from, msr_fmt, msr_from_tsx, rec);
	return true;
}

/*
 * The entries go back into the slots they were read from, and the TOS
 * with them: the ring then goes on as if never left.
 */
static void msr_write(const struct intel_lbr_rec *rec, unsigned int nr,
		      u64 hw_idx)
{
	static const struct intel_lbr_rec empty;
	const struct intel_lbr_rec *r;
	unsigned int i, slot;

	for (i = 0; i < msr_depth; i++) {
		r = i < nr ? &rec[i] : &empty;
		slot = msr_slot(hw_idx, i);
		wrmsrl(MSR_LBR_NHM_TO + slot, r->to);
		if (msr_has_info) {
			wrmsrl(MSR_LBR_NHM_FROM + slot, r->from);
			wrmsrl(MSR_LBR_INFO_0 + slot, r->info);
		} else {
			wrmsrl(MSR_LBR_NHM_FROM + slot,
			       r == &empty ? 0 :
			       intel_lbr_from_join(r, msr_from_tsx));
		}
	}
	wrmsrl(MSR_LBR_TOS, hw_idx);
}

static const struct intel_lbr_ops msr_ops = {
	.encode	= intel_lbr_select,
	.start	= msr_start,
	.stop	= msr_stop,
	.clear	= msr_clear,
	.read	= msr_read,
	.write	= msr_write,
	.youngest = msr_youngest,
};

/**
 * intel_lbr_msr_probe - find the model-specific LBR of a model we know
 * @caps: filled in when there is one
 * @perf_caps: IA32_PERF_CAPABILITIES
 *
 * Needs LBR_FMT 3 to 5 and a model whose depth we know; the registers
 * must answer (a hypervisor may offer the format without them). Format 3
 * has no call-stack mode.
 *
 * Context: boot CPU, at early_initcall.
 * Return: whether the CPU has it.
 */
bool __init intel_lbr_msr_probe(struct intel_lbr_caps *caps, u64 perf_caps)
{
	unsigned int fmt = FIELD_GET(LBR_MSR_FMT, perf_caps);
	bool info = fmt == LBR_MSR_FMT_INFO;
	const struct x86_cpu_id *m;
	unsigned int depth;
	u64 val;

	if (fmt != LBR_MSR_FMT_INFO && fmt != LBR_MSR_FMT_FLAGS2 &&
	    fmt != LBR_MSR_FMT_FLAGS)
		return false;
	m = x86_match_cpu(lbr_msr_models);
	if (!m)
		return false;
	depth = m->driver_data;
	if (rdmsrl_safe(MSR_LBR_TOS, &val) ||
	    rdmsrl_safe(MSR_LBR_NHM_FROM + depth - 1, &val) ||
	    (info && rdmsrl_safe(MSR_LBR_INFO_0 + depth - 1, &val)) ||
	    wrmsrl_safe(MSR_LBR_SELECT, 0))
		return false;

	msr_depth = depth;
	msr_has_info = info;
	msr_fmt = fmt;
	msr_from_tsx = fmt == LBR_MSR_FMT_FLAGS2 &&
		       (boot_cpu_has(X86_FEATURE_RTM) ||
			boot_cpu_has(X86_FEATURE_HLE));
	*caps = (struct intel_lbr_caps) {
		.ops		= &msr_ops,
		.depth		= depth,
		.from		= MSR_LBR_NHM_FROM,
		.to		= MSR_LBR_NHM_TO,
		.info		= info ? MSR_LBR_INFO_0 : 0,
		.filter_msr	= MSR_LBR_SELECT,
		.cpl		= true,
		.filter		= true,
		.call_stack	= fmt != LBR_MSR_FMT_FLAGS,
		.mispred	= true,
		.timed		= info,
	};
	pr_info("model-specific LBR (format %u), %u entries\n", fmt, depth);
	return true;
}
