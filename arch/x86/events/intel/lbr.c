// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: branch stacks from the LBR.
 *
 * The CPU's last N taken branches, each with its source, target and
 * LBR_INFO, come from one of two kinds of LBR, each a backend (struct
 * intel_lbr_ops): Architectural LBR (lbr_arch.c), or before it the
 * model-specific LBR of format 5 (lbr_msr.c). Both filter by privilege
 * level and kind of branch and have a call-stack mode, where a return
 * takes its call off the stack instead of being recorded.
 *
 * An event that samples PERF_SAMPLE_BRANCH_STACK selects branches with
 * attr.branch_sample_type. intel_lbr_init() turns that into the LBR_CTL_*
 * bits it needs (hw.branch_reg.config), which the backend encodes for its
 * filter register; what the hardware cannot express is filtered when a
 * sample is taken (../lbr_filter.c).
 *
 * One LBR per CPU. The events with a branch stack on a CPU share it, so
 * they must agree on LBR_CTL: one that does not is refused a place
 * (-EAGAIN) as if it found no free counter, and waits for the others to
 * go (multiplexing). Recording follows the counters' global enable, so
 * the PMI handler's own branches stay out and a sample's stack ends at
 * the overflow; with IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI the CPU itself stops
 * recording as it raises the PMI, before the handler runs. Not in
 * call-stack mode: there the NMI's calls and returns must be seen to
 * keep the stack balanced. From perfmon version 4 (both backends) the
 * freeze is the LBR_FRZ bit of IA32_PERF_GLOBAL_STATUS, and the PMI
 * handler's clearing of the status bits it did not ask for (arch.c) lets
 * recording resume.
 *
 * Tasks. The LBR holds whatever ran last and entries carry no address
 * space, so it is cleared at every context switch while it is in use
 * (the core's ->sched_task callback, perf_sched_cb_inc()) and when its
 * first user arrives: no task sees another's branches. In call-stack
 * mode the LBR is the task's call chain, which must survive the task's
 * leaving the CPU: a task's event keeps a copy of the entries (and of
 * the model-specific LBR's TOS) when it is taken off and writes them back
 * when it returns, on whichever CPU that is. Its context then never
 * trades tasks with a sibling thread's (PERF_ATTACH_TASK_DATA), as the
 * copy is the task's.
 *
 * Context: everything but init and free runs on the CPU concerned with
 * interrupts off: add and del under the context lock, enable, disable and
 * the sample also in the PMI (NMI). The per-CPU state is changed only by
 * add and del; the PMI reads it.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include <asm/cpufeature.h>
#include <asm/debugreg.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "intel.h"

/* the deepest LBR of either kind (Arch LBR: CPUID.1CH names up to 64) */
#define LBR_MAX_DEPTH		64

/* what the probe found; no ops and depth 0 when there is no LBR */
static struct intel_lbr_caps lbr __ro_after_init;

/*
 * This CPU's LBR: how many events use it, with which LBR_CTL_* bits, and
 * those as the backend's filter register takes them
 */
struct lbr_cpu {
	unsigned int	users;
	u64		ctl;
	u64		hw;
};

static DEFINE_PER_CPU(struct lbr_cpu, lbr_cpu);

/*
 * Where a sample's stack is built, one per CPU: the PMI is the only
 * writer and does not nest.  Four runs of @depth, in this order: the
 * stack handed to the sample (after its header), the entries as read,
 * their branch counters (lbr_log.c), and each one's LBR_INFO type for
 * the filter.  Sized at the probe, as the depth is known only then and
 * every CPU pays for it.
 */
static void __percpu *lbr_bufs;

static size_t lbr_buf_stack_size(unsigned int depth)
{
	return struct_size_t(struct perf_branch_stack, entries, depth);
}

static size_t lbr_buf_size(unsigned int depth)
{
	return lbr_buf_stack_size(depth) +
	       depth * (sizeof(struct intel_lbr_rec) + sizeof(u64) +
			sizeof(u8));
}

/*
 * Where intel_lbr_snapshot() reads the entries: per CPU, two runs of
 * lbr.depth records, the first for snapshots taken with interrupts off,
 * the second for those in NMI, which may interrupt one of the first.
 * Neither may use @lbr_bufs, which a PMI on its way may be filling.
 * Sized by the depth, not LBR_MAX_DEPTH: this is paid on every CPU
 * whether or not a BPF program ever takes a snapshot.
 */
static struct intel_lbr_rec __percpu *lbr_snaps;

/*
 * A call-stack event's copy of the LBR while its task is off the CPU:
 * its entries youngest first, and where the youngest was
 */
struct lbr_saved {
	unsigned int		nr;
	u64			hw_idx;
	struct intel_lbr_rec	rec[];
};

static bool lbr_has_call_stack(const struct intel_lbr_caps *caps)
{
	return caps->cpl && caps->filter && caps->call_stack;
}

/*
 * The LBR_CTL_* bits one PERF_SAMPLE_BRANCH_* bit needs: 0 for bits that
 * need none (levels the hardware cannot tell apart, transaction states,
 * output options), -EOPNOTSUPP when the CPU lacks the filter.
 */
static s64 lbr_ctl_for(u64 bit, const struct intel_lbr_caps *caps)
{
	bool cpl = caps->cpl, kinds = caps->cpl && caps->filter;

	switch (bit) {
	case PERF_SAMPLE_BRANCH_USER:
		return cpl ? LBR_CTL_USR : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_KERNEL:
		return cpl ? LBR_CTL_OS : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_ANY:
		return kinds ? LBR_CTL_TYPES : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_ANY_CALL:
		return kinds ? LBR_CTL_REL_CALL | LBR_CTL_IND_CALL |
			       LBR_CTL_OTHER : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_ANY_RETURN:
		return kinds ? LBR_CTL_RET | LBR_CTL_OTHER : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_IND_CALL:
		return kinds ? LBR_CTL_IND_CALL : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_COND:
		return kinds ? LBR_CTL_COND : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_IND_JUMP:
		return kinds ? LBR_CTL_IND_JMP : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_CALL:
		return kinds ? LBR_CTL_REL_CALL : -EOPNOTSUPP;
	case PERF_SAMPLE_BRANCH_CALL_STACK:
		return lbr_has_call_stack(caps) ?
		       LBR_CTL_REL_CALL | LBR_CTL_IND_CALL | LBR_CTL_RET |
		       LBR_CTL_CALL_STACK : -EOPNOTSUPP;
	}
	return 0;
}

/* the kinds call-stack mode cannot be combined with */
#define LBR_NOT_WITH_CALL_STACK						\
	(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_ANY_CALL |		\
	 PERF_SAMPLE_BRANCH_ANY_RETURN | PERF_SAMPLE_BRANCH_IND_CALL |	\
	 PERF_SAMPLE_BRANCH_ABORT_TX | PERF_SAMPLE_BRANCH_IN_TX |	\
	 PERF_SAMPLE_BRANCH_NO_TX | PERF_SAMPLE_BRANCH_COND)

/**
 * intel_lbr_ctl - what an LBR must record for a branch selection
 * @bst: attr.branch_sample_type
 * @caps: the LBR
 *
 * Errors in upstream's order, which tools see: call-stack mode is
 * -EOPNOTSUPP without its filters and -EINVAL with any other kind of
 * branch but a direct call or indirect jump; a filter the LBR lacks is
 * -EOPNOTSUPP.
 *
 * Context: any (KUnit calls it with made-up @caps).
 * Return: LBR_CTL_* bits, or a negative errno.
 */
s64 intel_lbr_ctl(u64 bst, const struct intel_lbr_caps *caps)
{
	unsigned long bits = bst;
	u64 ctl = 0;
	s64 need;
	int bit;

	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if (!lbr_has_call_stack(caps))
			return -EOPNOTSUPP;
		if (bst & LBR_NOT_WITH_CALL_STACK)
			return -EINVAL;
	}
	for_each_set_bit(bit, &bits, PERF_SAMPLE_BRANCH_MAX_SHIFT) {
		need = lbr_ctl_for(BIT_ULL(bit), caps);
		if (need < 0)
			return need;
		ctl |= need;
	}
	return ctl;
}

/*
 * @event uses the LBR, recording @bst's branches: a branch stack of its
 * own, or the branches its PEBS records need (intel_lbr_init_ip()).
 */
static int lbr_setup(struct perf_event *event, u64 bst)
{
	struct lbr_saved *saved;
	s64 ctl;

	if (!lbr.depth)
		return -EOPNOTSUPP;
	ctl = intel_lbr_ctl(bst, &lbr);
	if (ctl < 0)
		return ctl;
	if (!x86_branch_group_agrees(event, ctl))
		return -EINVAL;

	/* a task's call stack is kept while the task is away */
	if ((bst & PERF_SAMPLE_BRANCH_CALL_STACK) && event->hw.target) {
		saved = kzalloc(struct_size(saved, rec, lbr.depth),
				GFP_KERNEL);
		if (!saved)
			return -ENOMEM;
		event->pmu_private = saved;
		event->attach_state |= PERF_ATTACH_TASK_DATA;
	}
	/* the LBR is cleared at every context switch (intel_lbr_sched_in) */
	event->attach_state |= PERF_ATTACH_SCHED_CB;
	event->hw.branch_reg.reg = lbr.filter_msr;
	event->hw.branch_reg.config = ctl;
	event->hw.flags |= X86_EVENT_FLAG_LBR;
	return 0;
}

/**
 * intel_lbr_init - accept a new event's branch stack
 * @event: an event of the core PMU that samples PERF_SAMPLE_BRANCH_STACK
 *
 * Errors in upstream's order, which tools see: those of branch counters
 * (lbr_log.c: -EINVAL); no LBR is -EOPNOTSUPP; then those of
 * intel_lbr_ctl(); a group member that wants the LBR set up otherwise
 * than the others is -EINVAL.
 *
 * A counting event read through its group (PERF_SAMPLE_READ) never
 * takes a sample of its own, so it gets no stack and uses no LBR.
 *
 * Context: perf_event_open(), may sleep.
 * Return: 0 or a negative errno.
 */
int intel_lbr_init(struct perf_event *event)
{
	u64 bst = event->attr.branch_sample_type;
	int ret;

	if (bst & PERF_SAMPLE_BRANCH_COUNTERS) {
		ret = intel_lbr_log_init(event, lbr.log_cntrs);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	if (!is_sampling_event(event) &&
	    (event->attr.sample_type & PERF_SAMPLE_READ))
		return 0;
	if (event->hw.flags & X86_EVENT_FLAG_LBR)
		return 0;
	return lbr_setup(event, bst);
}

/**
 * intel_lbr_init_ip - the LBR for a precise event whose records lack
 *	the eventing IP (PEBS formats before 2, pebs_ip.c)
 * @event: a new precise event asking for the eventing IP
 *
 * Finding the IP needs every taken branch at the event's levels. An
 * event with a branch stack of its own must select exactly those
 * (-EOPNOTSUPP otherwise, upstream's errno); one without gets them,
 * without their going into its samples.
 *
 * Context: perf_event_open(), may sleep.
 * Return: 0 or a negative errno.
 */
int intel_lbr_init_ip(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 levels = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL;
	u64 want = 0;

	if (!attr->exclude_user)
		want |= PERF_SAMPLE_BRANCH_USER;
	if (!attr->exclude_kernel)
		want |= PERF_SAMPLE_BRANCH_KERNEL;
	if (has_branch_stack(event)) {
		if (!(attr->branch_sample_type & PERF_SAMPLE_BRANCH_ANY) ||
		    (attr->branch_sample_type & levels) != want)
			return -EOPNOTSUPP;
		return intel_lbr_init(event);
	}
	return lbr_setup(event, PERF_SAMPLE_BRANCH_ANY | want);
}

/**
 * intel_lbr_free - release what intel_lbr_init() allocated
 * @event: the event, being destroyed
 */
void intel_lbr_free(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

/* the task's call stack back into the LBR, which is stopped */
static void lbr_restore(const struct lbr_saved *saved)
{
	lbr.ops->write(saved->rec, saved->nr, saved->hw_idx);
}

/* stop recording and keep the task's call stack */
static void lbr_save(struct lbr_saved *saved)
{
	lbr.ops->stop();
	saved->nr = lbr.ops->read(saved->rec, &saved->hw_idx);
}

/* FREEZE_LBRS_ON_PMI on or off, in this CPU's IA32_DEBUGCTL */
static void lbr_freeze_on_pmi(bool on)
{
	u64 old = get_debugctlmsr(), new = old;

	if (on)
		new |= DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	else
		new &= ~DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	if (new != old)
		update_debugctlmsr(new);
}

/**
 * intel_lbr_reset_cpu - this CPU's LBR off and empty
 *
 * Whatever ran before us (firmware, a kexec'd kernel, this CPU before it
 * went down) may have left the LBR recording, or left entries and the
 * freeze bit: the first event must find neither. No event is on this CPU
 * now, so its bookkeeping starts over too.
 *
 * Context: the CPU coming up or going down, interrupts off.
 */
void intel_lbr_reset_cpu(void)
{
	struct lbr_cpu *lc = this_cpu_ptr(&lbr_cpu);

	lockdep_assert_irqs_disabled();
	if (!lbr.depth)
		return;
	lbr.ops->stop();
	lbr.ops->clear();
	lbr_freeze_on_pmi(false);
	lc->users = 0;
	lc->ctl = 0;
	lc->hw = 0;
}

/**
 * intel_lbr_add - an event with a branch stack goes on this CPU
 * @event: the event, being added to the counters
 *
 * The first user sets the filter, and clears what the LBR holds from
 * whoever used it last; the next must want the same. A task's call-stack
 * event puts the task's stack back.
 *
 * Context: the event's CPU, interrupts off, usually with the PMU
 * disabled, so that the LBR is not recording.
 * Return: 0, or -EAGAIN when the LBR is set up otherwise.
 */
int intel_lbr_add(struct perf_event *event)
{
	struct lbr_cpu *lc = this_cpu_ptr(&lbr_cpu);
	u64 ctl = event->hw.branch_reg.config;

	lockdep_assert_irqs_disabled();
	if (lc->users && lc->ctl != ctl)
		return -EAGAIN;
	if (!lc->users++) {
		lc->ctl = ctl;
		lc->hw = lbr.ops->encode(ctl);
		lbr_freeze_on_pmi(!(ctl & LBR_CTL_CALL_STACK));
		lbr.ops->clear();
		/* a freeze left by a PMI nobody served would stop recording */
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL,
		       BIT_ULL(GLOBAL_STATUS_LBRS_FROZEN_BIT));
	}
	if (event->pmu_private)
		lbr_restore(event->pmu_private);
	perf_sched_cb_inc(event->pmu);
	return 0;
}

/**
 * intel_lbr_del - an event with a branch stack leaves this CPU
 * @event: the event, taken off its counter
 *
 * A task's call-stack event keeps the task's stack.
 *
 * Context: as intel_lbr_add().
 */
void intel_lbr_del(struct perf_event *event)
{
	struct lbr_cpu *lc = this_cpu_ptr(&lbr_cpu);

	lockdep_assert_irqs_disabled();
	perf_sched_cb_dec(event->pmu);
	if (event->pmu_private)
		lbr_save(event->pmu_private);
	if (--lc->users)
		return;
	lbr.ops->stop();
	lbr_freeze_on_pmi(false);
}

/**
 * intel_lbr_sched_in - a task is about to run here: clear the LBR
 *
 * Entries carry no address space: the outgoing task's branches, or the
 * kernel's on its behalf, must not appear in the incoming task's samples,
 * whether those are its own events' or a CPU-wide event's. A call-stack
 * event of the incoming task then puts its saved stack back as it is
 * added.
 *
 * Context: the scheduler's hook, interrupts off, the PMU disabled.
 */
void intel_lbr_sched_in(void)
{
	lockdep_assert_irqs_disabled();
	if (this_cpu_read(lbr_cpu.users))
		lbr.ops->clear();
}

/**
 * intel_lbr_enable - record again, if an event wants it
 *
 * Part of the global enable of the counters.
 *
 * Context: this CPU, interrupts off or NMI.
 */
void intel_lbr_enable(void)
{
	struct lbr_cpu *lc = this_cpu_ptr(&lbr_cpu);

	if (lc->users)
		lbr.ops->start(lc->hw);
}

/**
 * intel_lbr_disable - stop recording
 *
 * Part of the global disable of the counters.
 *
 * Context: as intel_lbr_enable().
 */
void intel_lbr_disable(void)
{
	if (this_cpu_read(lbr_cpu.users))
		lbr.ops->stop();
}

/**
 * intel_lbr_decode - one LBR entry as a sample's branch entry
 * @rec: the entry, from the MSRs or a PEBS record's LBR group
 * @e: filled in
 *
 * The flags and cycles the probe says the LBR gives.
 *
 * Context: any (the PMI).
 * Return: the entry's LBR_INFO branch type for x86_lbr_filter(),
 * X86_LBR_TYPE_NONE (classify from the instruction) where the CPU
 * records none.
 */
u8 intel_lbr_decode(const struct intel_lbr_rec *rec,
		    struct perf_branch_entry *e)
{
	u64 info = rec->info;

	*e = (struct perf_branch_entry) {
		.from		= rec->from,
		.to		= rec->to,
		.mispred	= lbr.mispred && (info & LBR_INFO_MISPRED),
		.in_tx		= !!(info & LBR_INFO_IN_TX),
		.abort		= !!(info & LBR_INFO_ABORT),
		.spec		= PERF_BR_SPEC_NA,
	};
	e->predicted = !e->mispred;
	if (lbr.timed &&
	    (!lbr.timed_valid || (info & LBR_INFO_CYC_CNT_VALID)))
		e->cycles = info & LBR_INFO_CYCLES;
	return lbr.br_type ? FIELD_GET(LBR_INFO_BR_TYPE, info) :
			     X86_LBR_TYPE_NONE;
}

/**
 * intel_lbr_save_stack - the branches an event selects into its sample
 * @event: the event
 * @data: its sample
 * @bs: a stack of @nr decoded entries, youngest first, in per-CPU memory
 *	that stays put until the sample is written
 * @nr: how many
 * @types: each entry's LBR_INFO type, as intel_lbr_decode() returned it
 * @rec: the entries @bs was decoded from, whose LBR_INFO has their
 *	branch counters
 * @cntrs: room for @nr branch counters, in per-CPU memory as @bs
 * @hw_idx: the hardware index of the youngest entry, -1ULL if unknown
 *
 * For stacks read from the LBR MSRs and from a PEBS record's LBR group
 * alike. Where the hardware records the kind of each branch (Arch LBR)
 * every kept entry gets its type, as upstream's driver gives it; where it
 * does not, only for PERF_SAMPLE_BRANCH_TYPE_SAVE, which costs reading
 * every entry's instruction.
 *
 * Context: the PMI, or a PEBS flush with interrupts off.
 */
void intel_lbr_save_stack(struct perf_event *event,
			  struct perf_sample_data *data,
			  struct perf_branch_stack *bs, unsigned int nr,
			  const u8 *types, const struct intel_lbr_rec *rec,
			  u64 *cntrs, u64 hw_idx)
{
	u32 wanted = x86_lbr_wanted(event->attr.branch_sample_type);
	int order[LBR_INFO_BR_CNTR_NUM];
	unsigned int logged = 0;

	if (lbr.br_type)
		wanted |= X86_BR_TYPE_SAVE;
	bs->nr = nr;
	bs->hw_idx = hw_idx;
	if (lbr.log_cntrs)
		logged = intel_lbr_log_stash(event, bs, rec, order);
	x86_lbr_filter(bs, types, wanted);
	if (logged)
		intel_lbr_log_take(bs, order, logged, cntrs);
	perf_sample_save_brstack(data, event, bs, logged ? cntrs : NULL);
}

/**
 * intel_lbr_sample - put the branch stack in a sample
 * @event: the event whose counter overflowed
 * @data: its sample
 *
 * Reads the entries, youngest first, up to the first empty one, and keeps
 * those the event selects.
 *
 * Context: the PMI, with the counters and the LBR stopped.
 */
void intel_lbr_sample(struct perf_event *event, struct perf_sample_data *data)
{
	struct perf_branch_stack *bs;
	struct intel_lbr_rec *rec;
	unsigned int i, nr;
	u64 hw_idx, *cntrs;
	u8 *types;

	if (!(event->hw.flags & X86_EVENT_FLAG_LBR) || !has_branch_stack(event))
		return;
	bs = this_cpu_ptr(lbr_bufs);
	rec = (void *)bs + lbr_buf_stack_size(lbr.depth);
	cntrs = (u64 *)(rec + lbr.depth);
	types = (u8 *)(cntrs + lbr.depth);
	nr = lbr.ops->read(rec, &hw_idx);
	for (i = 0; i < nr; i++)
		types[i] = intel_lbr_decode(&rec[i], &bs->entries[i]);
	intel_lbr_save_stack(event, data, bs, nr, types, rec, cntrs, hw_idx);
}

/**
 * intel_lbr_youngest - the last branch the LBR recorded here
 * @rec: filled in
 *
 * Context: the PMI, the LBR stopped.
 * Return: false when no event uses the LBR here, the backend cannot
 * tell, or the LBR is empty.
 */
bool intel_lbr_youngest(struct intel_lbr_rec *rec)
{
	if (!this_cpu_read(lbr_cpu.users) || !lbr.ops->youngest)
		return false;
	return lbr.ops->youngest(rec);
}

/**
 * intel_lbr_snapshot - the LBR's entries for bpf_get_branch_snapshot()
 * @entries: filled youngest first, unfiltered
 * @cnt: room in @entries
 *
 * Context: this CPU, interrupts off, the LBR stopped (except in NMI).
 * Return: how many entries were filled in; 0 while no event uses the
 * LBR here, as it then holds nothing of the caller's.
 */
unsigned int intel_lbr_snapshot(struct perf_branch_entry *entries,
				unsigned int cnt)
{
	struct intel_lbr_rec *rec;
	unsigned int i, nr;
	u64 hw_idx;

	lockdep_assert_irqs_disabled();
	if (!this_cpu_read(lbr_cpu.users) || !lbr_snaps)
		return 0;
	rec = this_cpu_ptr(lbr_snaps) + (in_nmi() ? lbr.depth : 0);
	nr = min(lbr.ops->read(rec, &hw_idx), cnt);
	for (i = 0; i < nr; i++)
		intel_lbr_decode(&rec[i], &entries[i]);
	return nr;
}

/**
 * x86_perf_get_lbr - the host's LBR, for KVM's guest LBR support
 * @lbr_out: filled with the depth and MSR bases; all zero without LBR
 *
 * KVM offers a guest the model-specific LBR of the host's format, and
 * while the guest has it on, holds it through a host event of its own
 * (the vLBR event, INTEL_FIXED_VLBR_EVENT) that keeps the host's users
 * off. That event does not exist here yet, so the LBR is not offered:
 * all zero, whatever the host has, and a guest sees no LBR_FMT rather
 * than one whose LBR its host cannot hand over.
 */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr_out)
{
	memset(lbr_out, 0, sizeof(*lbr_out));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);

/**
 * intel_lbr_probe - find the LBR and size it
 * @core: the PMU; core->branches gets the depth
 * @perf_caps: IA32_PERF_CAPABILITIES (the model-specific LBR's format)
 *
 * Arch LBR where the CPU has it, else the model-specific LBR of a model
 * we know; without either, branch stacks stay -EOPNOTSUPP.
 *
 * Context: boot CPU, at early_initcall.
 */
void __init intel_lbr_probe(struct x86_core *core, u64 perf_caps)
{
	struct intel_lbr_caps caps = {};

	if (!intel_lbr_arch_probe(&caps) &&
	    !intel_lbr_msr_probe(&caps, perf_caps))
		return;
	if (WARN_ON_ONCE(caps.depth > LBR_MAX_DEPTH))
		return;

	lbr_bufs = __alloc_percpu(lbr_buf_size(caps.depth),
				  __alignof__(struct perf_branch_stack));
	if (!lbr_bufs)
		return;
	/* without it, bpf_get_branch_snapshot() finds nothing */
	lbr_snaps = __alloc_percpu(2 * caps.depth * sizeof(*lbr_snaps),
				   __alignof__(*lbr_snaps));
	lbr = caps;
	core->branches = caps.depth;
	core->log_cntrs = caps.log_cntrs;
}
