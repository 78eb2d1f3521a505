// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, AMD: branch stacks from the Last Branch Record
 * extension version 2 (LbrExtV2, Zen 4 and later; APM vol. 2, "Last
 * Branch Record Stack", vol. 3, CPUID Fn8000_0022).
 *
 * CPUID 8000_0022:EAX[1] enumerates it and EBX[9:4] its depth N. Entry i
 * is a pair of MSRs, LBR_FROM at MSR_AMD_SAMP_BR_FROM + 2i and LBR_TO
 * after it, and entry 0 always holds the youngest branch: the hardware
 * renames the pairs as it records, so there is no top-of-stack register
 * and a sample's hw_idx is 0. The source's bit 63 says the branch was
 * mispredicted; the target's bit 63 (valid) and 62 (speculative) say
 * whether the entry holds a branch and on which path, and its bit 61 is
 * set on an entry that must be ignored. The addresses are sign-extended
 * from the CPU's virtual address width.
 *
 * DBG_EXTN_CFG.LBRV2EN starts and stops recording; stopping keeps the
 * entries. LBR_SELECT filters as Intel's MSR_LBR_SELECT does, with the
 * same nine suppress bits and no call-stack mode. With
 * IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI (offered where CPUID 8000_0022:EAX[2]
 * says so) the CPU stops recording when a counter raises the PMI and
 * sets the LBR freeze bit of PerfCntrGlobalStatus; recording resumes
 * once that is cleared, which the PMI does as the counters start again,
 * after the samples read the stack (amd_lbr_enable()).
 *
 * One LBR per CPU (per hardware thread), shared by the events with a
 * branch stack there as for Intel's (../intel/lbr.c): they must want the
 * same LBR_SELECT, else the later one waits its turn (-EAGAIN), and a
 * group whose members disagree is refused. Entries carry no address
 * space, so the LBR is cleared as each task comes onto the CPU while an
 * event uses it. What LBR_SELECT cannot express (the level of a branch's
 * source, SYSCALL against an interrupt, the types) is left to the shared
 * software filter (../lbr_filter.c), which also moves a source that names
 * the first half of a fused compare-and-branch to the branch.
 *
 * KVM (6.12) offers guests no LbrExtV2 and calls nothing here: the
 * host's LBR is never handed over, as with upstream's driver.
 *
 * Context: everything but init and the probe runs on the CPU concerned
 * with interrupts off: add, del and the context switch's clear under the
 * context lock, enable, disable and the sample also in the PMI (NMI).
 * The per-CPU state is changed only by add and del; the PMI reads it.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/debugreg.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../lbr_filter.h"
#include "../pmu.h"
#include "amd.h"

/* LBR_FROM: bits 57:0 the source, 63 mispredicted */
#define LBR_FROM_IP		GENMASK_ULL(57, 0)
#define LBR_FROM_MISPRED	BIT_ULL(63)
/* LBR_TO: bits 57:0 the target, 61 ignore, 62 speculative, 63 valid */
#define LBR_TO_IP		GENMASK_ULL(57, 0)
#define LBR_TO_IGNORE		BIT_ULL(61)
#define LBR_TO_SPEC		BIT_ULL(62)
#define LBR_TO_VALID		BIT_ULL(63)

/* what the probe found: depth 0 without LbrExtV2 */
static unsigned int lbr_depth __ro_after_init;
static bool lbr_freezes __ro_after_init;

/* this CPU's LBR: how many events use it, and the LBR_SELECT they share */
struct amd_lbr_cpu {
	unsigned int	users;
	u64		select;
};

static DEFINE_PER_CPU(struct amd_lbr_cpu, amd_lbr_cpu);

/* where a sample's stack is built, one per CPU (the PMI does not nest) */
static struct perf_branch_stack __percpu *lbr_stacks;

/**
 * amd_lbr_select - LBR_SELECT for a branch selection
 * @bst: attr.branch_sample_type
 *
 * LBR_SELECT suppresses: each kind or level no bit of @bst asks for is
 * set. The hypervisor level and the output options (types, hardware
 * index, privilege, branch counters, which amd_lbr_init() refuses)
 * program nothing; transaction
 * states, call-stack mode and leaving out the flags or cycles are not
 * offered (upstream's errors).
 *
 * Context: any (KUnit).
 * Return: the MSR's value, or -EOPNOTSUPP.
 */
s64 amd_lbr_select(u64 bst)
{
	static const struct {
		u64 bit;
		u64 keep;
	} map[] = {
		{ PERF_SAMPLE_BRANCH_USER,	AMD_LBR_SEL_CPL_NEQ_0 },
		{ PERF_SAMPLE_BRANCH_KERNEL,	AMD_LBR_SEL_CPL_EQ_0 },
		{ PERF_SAMPLE_BRANCH_ANY,	AMD_LBR_SEL_KINDS },
		{ PERF_SAMPLE_BRANCH_ANY_CALL,	AMD_LBR_SEL_NEAR_REL_CALL |
						AMD_LBR_SEL_NEAR_IND_CALL |
						AMD_LBR_SEL_FAR },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, AMD_LBR_SEL_NEAR_RET |
						AMD_LBR_SEL_FAR },
		{ PERF_SAMPLE_BRANCH_IND_CALL,	AMD_LBR_SEL_NEAR_IND_CALL },
		{ PERF_SAMPLE_BRANCH_COND,	AMD_LBR_SEL_JCC },
		{ PERF_SAMPLE_BRANCH_IND_JUMP,	AMD_LBR_SEL_NEAR_IND_JMP },
		{ PERF_SAMPLE_BRANCH_CALL,	AMD_LBR_SEL_NEAR_REL_CALL },
	};
	const u64 refused = PERF_SAMPLE_BRANCH_ABORT_TX |
			    PERF_SAMPLE_BRANCH_IN_TX |
			    PERF_SAMPLE_BRANCH_NO_TX |
			    PERF_SAMPLE_BRANCH_CALL_STACK |
			    PERF_SAMPLE_BRANCH_NO_FLAGS |
			    PERF_SAMPLE_BRANCH_NO_CYCLES;
	u64 keep = 0;
	int i;

	if (bst & refused)
		return -EOPNOTSUPP;
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (bst & map[i].bit)
			keep |= map[i].keep;
	}
	return AMD_LBR_SEL_ALL & ~keep;
}

/**
 * amd_lbr_decode - one LBR entry as a sample's branch entry
 * @from: LBR_FROM as read
 * @to: LBR_TO as read
 * @va_bits: the width of virtual addresses, which the IPs extend from
 * @e: filled in when the entry holds a branch
 *
 * Neither valid nor speculative: no branch was recorded there; the
 * ignore bit marks an entry the hardware got wrong. Otherwise the two
 * bits say which path the branch was on.
 *
 * Context: any (KUnit; the PMI).
 * Return: whether @e was filled in.
 */
bool amd_lbr_decode(u64 from, u64 to, unsigned int va_bits,
		    struct perf_branch_entry *e)
{
	bool valid = to & LBR_TO_VALID, spec = to & LBR_TO_SPEC;

	if ((!valid && !spec) || (to & LBR_TO_IGNORE))
		return false;
	*e = (struct perf_branch_entry) {
		.from		= sign_extend64(from & LBR_FROM_IP, va_bits - 1),
		.to		= sign_extend64(to & LBR_TO_IP, va_bits - 1),
		.mispred	= !!(from & LBR_FROM_MISPRED),
		.predicted	= !(from & LBR_FROM_MISPRED),
	};
	if (!valid)
		e->spec = PERF_BR_SPEC_WRONG_PATH;
	else
		e->spec = spec ? PERF_BR_SPEC_CORRECT_PATH :
				 PERF_BR_NON_SPEC_CORRECT_PATH;
	return true;
}

/**
 * amd_lbr_init - accept a new event's branch stack
 * @event: an event of the core PMU that samples PERF_SAMPLE_BRANCH_STACK
 *
 * No LbrExtV2 is -EOPNOTSUPP; branch counters (event logging) are
 * -EINVAL, as LbrExtV2 logs no events: upstream accepts them and then
 * gives samples without the counters their layout promises, which a tool
 * misreads. Then the errors of amd_lbr_select(); a group member that
 * wants another LBR_SELECT than the others is -EINVAL. A
 * counting event read through its group (PERF_SAMPLE_READ) takes no
 * sample of its own and uses no LBR.
 *
 * Context: perf_event_open(), may sleep.
 * Return: 0 or a negative errno.
 */
int amd_lbr_init(struct perf_event *event)
{
	s64 sel;

	if (!lbr_depth)
		return -EOPNOTSUPP;
	/* a sample would lack the counters the flag promises (see above) */
	if (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
		return -EINVAL;
	sel = amd_lbr_select(event->attr.branch_sample_type);
	if (sel < 0)
		return sel;
	if (!is_sampling_event(event) &&
	    (event->attr.sample_type & PERF_SAMPLE_READ))
		return 0;
	if (!x86_branch_group_agrees(event, sel))
		return -EINVAL;

	/* the LBR is cleared at every context switch (amd_lbr_sched_in) */
	event->attach_state |= PERF_ATTACH_SCHED_CB;
	event->hw.branch_reg.reg = MSR_AMD64_LBR_SELECT;
	event->hw.branch_reg.config = sel;
	event->hw.flags |= X86_EVENT_FLAG_LBR;
	return 0;
}

/* LBRV2EN on or off; the entries stay either way */
static void lbr_record(bool on)
{
	u64 old, new;

	rdmsrl(MSR_AMD_DBG_EXTN_CFG, old);
	new = on ? old | DBG_EXTN_CFG_LBRV2EN : old & ~DBG_EXTN_CFG_LBRV2EN;
	if (new != old)
		wrmsrl(MSR_AMD_DBG_EXTN_CFG, new);
}

/* FREEZE_LBRS_ON_PMI on or off, where the CPU has it */
static void lbr_freeze_on_pmi(bool on)
{
	u64 old, new;

	if (!lbr_freezes)
		return;
	old = get_debugctlmsr();
	new = on ? old | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI :
		   old & ~DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	if (new != old)
		update_debugctlmsr(new);
}

/* lift a freeze: recording goes on if LBRV2EN is set */
static void lbr_unfreeze(void)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
	       BIT_ULL(GLOBAL_STATUS_LBRS_FROZEN_BIT));
}

/* every entry empty: no register clears them all at once */
static void lbr_clear(void)
{
	unsigned int i;

	for (i = 0; i < lbr_depth; i++) {
		wrmsrl(amd_br_from_msr(i), 0);
		wrmsrl(amd_br_to_msr(i), 0);
	}
}

/**
 * amd_lbr_reset_cpu - this CPU's LBR off, empty and unfrozen
 *
 * Whatever ran before us (firmware, a kexec'd kernel, this CPU before it
 * went down) may have left it recording, filtering or frozen.
 *
 * Context: the CPU coming up or going down, interrupts off.
 */
void amd_lbr_reset_cpu(void)
{
	struct amd_lbr_cpu *lc = this_cpu_ptr(&amd_lbr_cpu);

	lockdep_assert_irqs_disabled();
	if (!lbr_depth)
		return;
	lbr_record(false);
	lbr_freeze_on_pmi(false);
	lbr_clear();
	wrmsrl(MSR_AMD64_LBR_SELECT, 0);
	lbr_unfreeze();
	lc->users = 0;
	lc->select = 0;
}

/**
 * amd_lbr_add - an event with a branch stack goes on this CPU
 * @event: the event, being added to the counters
 *
 * The first user programs LBR_SELECT, arms the freeze on PMI and clears
 * what the LBR holds from whoever used it last; the next must want the
 * same LBR_SELECT.
 *
 * Context: the event's CPU, interrupts off, usually with the PMU
 * disabled, so that the LBR is not recording.
 * Return: 0, or -EAGAIN when the LBR is set up for other events.
 */
int amd_lbr_add(struct perf_event *event)
{
	struct amd_lbr_cpu *lc = this_cpu_ptr(&amd_lbr_cpu);
	u64 sel = event->hw.branch_reg.config;

	lockdep_assert_irqs_disabled();
	if (lc->users && lc->select != sel)
		return -EAGAIN;
	if (!lc->users++) {
		lc->select = sel;
		wrmsrl(MSR_AMD64_LBR_SELECT, sel);
		lbr_freeze_on_pmi(true);
		lbr_clear();
		/* a freeze left by a PMI nobody served would stop recording */
		lbr_unfreeze();
	}
	perf_sched_cb_inc(event->pmu);
	return 0;
}

/**
 * amd_lbr_del - an event with a branch stack leaves this CPU
 * @event: the event, taken off its counter
 *
 * Context: as amd_lbr_add().
 */
void amd_lbr_del(struct perf_event *event)
{
	struct amd_lbr_cpu *lc = this_cpu_ptr(&amd_lbr_cpu);

	lockdep_assert_irqs_disabled();
	perf_sched_cb_dec(event->pmu);
	if (WARN_ON_ONCE(!lc->users) || --lc->users)
		return;
	lbr_record(false);
	lbr_freeze_on_pmi(false);
}

/**
 * amd_lbr_sched_in - a task is about to run here: clear the LBR
 *
 * The outgoing task's branches, or the kernel's on its behalf, must not
 * appear in the incoming task's samples, whether those are its own
 * events' or a CPU-wide event's.
 *
 * Context: the scheduler's hook, interrupts off, the PMU disabled.
 */
void amd_lbr_sched_in(void)
{
	lockdep_assert_irqs_disabled();
	if (this_cpu_read(amd_lbr_cpu.users))
		lbr_clear();
}

/**
 * amd_lbr_enable - record again, if an event wants it
 *
 * Part of the global enable of the counters, before they start. In the
 * PMI the samples have read the stack by now, so the freeze the PMI set
 * is lifted here.
 *
 * Context: this CPU, interrupts off or NMI.
 */
void amd_lbr_enable(void)
{
	if (!this_cpu_read(amd_lbr_cpu.users))
		return;
	if (lbr_freezes)
		lbr_unfreeze();
	lbr_record(true);
}

/**
 * amd_lbr_disable - stop recording
 *
 * Part of the global disable of the counters, after they stopped.
 *
 * Context: as amd_lbr_enable().
 */
void amd_lbr_disable(void)
{
	if (this_cpu_read(amd_lbr_cpu.users))
		lbr_record(false);
}

/*
 * The entries that hold a branch, youngest first, decoded into @e (room
 * for @max); returns how many. This CPU, the LBR stopped or in NMI.
 */
static unsigned int lbr_read(struct perf_branch_entry *e, unsigned int max)
{
	unsigned int va_bits = boot_cpu_data.x86_virt_bits;
	unsigned int i, nr = 0;
	u64 from, to;

	for (i = 0; i < lbr_depth && nr < max; i++) {
		rdmsrl(amd_br_from_msr(i), from);
		rdmsrl(amd_br_to_msr(i), to);
		nr += amd_lbr_decode(from, to, va_bits, &e[nr]);
	}
	return nr;
}

/**
 * amd_lbr_sample - put the branch stack in a sample
 * @event: the event whose counter overflowed
 * @data: its sample
 *
 * Reads every entry, youngest first, keeps those that hold a branch and
 * then those the event selects.
 *
 * Context: the PMI, with the counters and the LBR stopped.
 */
void amd_lbr_sample(struct perf_event *event, struct perf_sample_data *data)
{
	struct perf_branch_stack *bs = this_cpu_ptr(lbr_stacks);

	if (!(event->hw.flags & X86_EVENT_FLAG_LBR))
		return;
	bs->nr = lbr_read(bs->entries, lbr_depth);
	bs->hw_idx = 0;
	x86_lbr_filter(bs, NULL,
		       x86_lbr_wanted(event->attr.branch_sample_type) |
		       X86_BR_FUSED);
	perf_sample_save_brstack(data, event, bs, NULL);
}

/**
 * amd_lbr_snapshot - the LBR's entries for bpf_get_branch_snapshot()
 * @entries: filled youngest first with the entries that hold a branch,
 *	unfiltered
 * @cnt: room in @entries
 *
 * Context: this CPU, interrupts off, the LBR stopped (except in NMI).
 * Return: how many entries were filled in; 0 while no event uses the
 * LBR here.
 */
unsigned int amd_lbr_snapshot(struct perf_branch_entry *entries,
			      unsigned int cnt)
{
	lockdep_assert_irqs_disabled();
	if (!this_cpu_read(amd_lbr_cpu.users))
		return 0;
	return lbr_read(entries, cnt);
}

/**
 * amd_lbr_probe - find LbrExtV2 and size it
 * @core: the PMU, with PerfMonV2 (version 2); core->branches gets the
 *	depth
 *
 * Without it, or where its registers do not answer (a hypervisor may
 * offer the CPUID bit alone), branch stacks stay -EOPNOTSUPP.
 *
 * Context: boot CPU, at early_initcall.
 */
void __init amd_lbr_probe(struct x86_core *core)
{
	union cpuid_0x80000022_ebx ebx;
	unsigned int depth;
	u64 val;

	if (core->version < 2 || !boot_cpu_has(X86_FEATURE_AMD_LBR_V2))
		return;
	ebx.full = cpuid_ebx(EXT_PERFMON_DEBUG_FEATURES);
	depth = ebx.split.lbr_v2_stack_sz;
	if (!depth || rdmsrl_safe(MSR_AMD_DBG_EXTN_CFG, &val) ||
	    rdmsrl_safe(amd_br_to_msr(depth - 1), &val) ||
	    wrmsrl_safe(MSR_AMD64_LBR_SELECT, 0))
		return;

	lbr_stacks = __alloc_percpu(struct_size_t(struct perf_branch_stack,
						  entries, depth),
				    __alignof__(struct perf_branch_stack));
	if (!lbr_stacks)
		return;
	lbr_depth = depth;
	lbr_freezes = boot_cpu_has(X86_FEATURE_AMD_LBR_PMC_FREEZE);
	core->branches = depth;
	pr_info("LbrExtV2, %u entries%s\n", depth,
		lbr_freezes ? ", frozen on PMI" : "");
}
