// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, AMD: branch stacks from Branch Sampling (BRS, Zen 3;
 * the family 19h model 01h PPR, "Branch Sampling").
 *
 * CPUID 8000_0008:EBX[31] enumerates it. It is not a running record of
 * the last branches as an LBR is, but a sampler: while DBG_EXTN_CFG.BrsMEn
 * is set, the overflow of the core counter DBG_EXTN_CFG.Pmc names arms it
 * and holds that counter's interrupt back. The next 16 retired taken
 * branches, of any kind and at any privilege level, go into the pairs of
 * MSRs at MSR_AMD_SAMP_BR_FROM + 2i (source) and + 2i + 1 (target), i
 * from 0 up; MsrOff says which pair comes next and VB that one was
 * written. After the 16th, MsrOff is back at 0, the CPU clears BrsMEn and
 * the interrupt goes out. Clearing BrsMEn earlier lets it go out with what
 * was recorded so far.
 *
 * What this means for perf:
 *
 *  - A stack describes the branches right after the period ended, so the
 *    event that samples must count what BRS records: retired taken
 *    branches, event 0xC4 with no other select bits, in sampling mode.
 *    The counter goes on counting while BRS fills, so the depth is taken
 *    off each period (core->branch_lead, hw.c) and the samples land about
 *    one period apart; a period of at most the depth would leave nothing
 *    to count before the overflow and is refused, as is frequency mode,
 *    which would steer the period from counts that include the fill.
 *
 *  - BRS filters nothing: only branch_sample_type ANY is offered, and
 *    the privilege levels are applied when the stack is read (upstream's
 *    rule: a user-only stack keeps branches between user addresses, a
 *    kernel-only one those that end in the kernel).
 *
 *  - One BRS per CPU, armed by one counter. Pmc is left at 0 and the
 *    event goes only on counter 0 (core->branch_cntrs), as upstream's
 *    driver places it on real parts: two such events on a CPU take turns.
 *
 *  - Every start (the counters' global enable, x86_gate_enable_all())
 *    writes BrsMEn with MsrOff and VB at 0, and every stop clears BrsMEn,
 *    which releases an interrupt BRS was holding while the counters that
 *    raised it are still in place. So the pairs below MsrOff are always
 *    this arming's, never another task's: no clearing at context switch
 *    is needed, and nothing is read when VB is clear.
 *
 *  - A CPU going into a low-power state through ACPI must not hold the
 *    interrupt there: perf_amd_brs_lopwr_cb() clears BrsMEn on the way in
 *    and sets it again on the way out.
 *
 * Context: everything but the probe and event init runs on the CPU
 * concerned with interrupts off (in NMI for the PMI's part).
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../lbr_filter.h"
#include "../pmu.h"
#include "amd.h"

#define BRS_DEPTH		16
/* the select BRS samples with: retired taken branch instructions */
#define BRS_EVENT		0xc4

/*
 * DBG_EXTN_CFG's BRS fields; bits 4:3 are reserved and must be written
 * as 11b
 */
#define BRS_CFG_EN		BIT_ULL(2)
#define BRS_CFG_RSVD_ONES	GENMASK_ULL(4, 3)
#define BRS_CFG_VB		BIT_ULL(5)
#define BRS_CFG_MSROFF		GENMASK_ULL(19, 16)
#define BRS_CFG_PMC		GENMASK_ULL(26, 24)

/* this CPU's BRS: events that sample with it, and whether it is armed */
struct amd_brs_cpu {
	unsigned int	users;
	bool		on;
};

static DEFINE_PER_CPU(struct amd_brs_cpu, amd_brs_cpu);

/* where a sample's stack is built, one per CPU (the PMI does not nest) */
static struct perf_branch_stack __percpu *brs_stacks;

/*
 * Without tracing: perf_amd_brs_lopwr_cb() runs in the idle path's
 * noinstr code, and the others in NMI.
 */
static __always_inline void brs_write_cfg(u64 val)
{
	val |= BRS_CFG_RSVD_ONES;
	__wrmsr(MSR_AMD_DBG_EXTN_CFG, lower_32_bits(val), upper_32_bits(val));
}

static __always_inline u64 brs_read_cfg(void)
{
	return __rdmsr(MSR_AMD_DBG_EXTN_CFG);
}

/**
 * amd_brs_event_ok - may an event sample its branch stack with BRS?
 * @config: its hw.config
 * @bst: attr.branch_sample_type
 * @sample_period: attr.sample_period (0 when counting only)
 * @freq: attr.freq
 *
 * Context: any (KUnit).
 * Return: true when BRS can give its samples their stacks.
 */
bool amd_brs_event_ok(u64 config, u64 bst, u64 sample_period, bool freq)
{
	if ((config & AMD64_RAW_EVENT_MASK) != BRS_EVENT)
		return false;
	if (freq || sample_period <= BRS_DEPTH)
		return false;
	return (bst & ~PERF_SAMPLE_BRANCH_PLM_ALL) == PERF_SAMPLE_BRANCH_ANY;
}

/**
 * amd_brs_init - accept an event's branch stack
 * @event: a new event with PERF_SAMPLE_BRANCH_STACK
 *
 * Context: perf_event_open(); may sleep.
 * Return: 0, or -EINVAL for what BRS cannot sample (upstream's errno for
 * each).
 */
int amd_brs_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (!is_sampling_event(event) ||
	    !amd_brs_event_ok(event->hw.config, attr->branch_sample_type,
			      attr->sample_period, attr->freq))
		return -EINVAL;
	event->hw.flags |= X86_EVENT_FLAG_LBR;
	return 0;
}

/**
 * amd_brs_add - an event that samples with BRS goes on counter 0
 * @event: the event
 *
 * BRS starts with the counters (amd_brs_start()), which the caller has
 * stopped.
 *
 * Context: this CPU, interrupts off, the context lock held.
 * Return: 0.
 */
int amd_brs_add(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	this_cpu_inc(amd_brs_cpu.users);
	return 0;
}

/**
 * amd_brs_del - it has left
 * @event: the event
 *
 * The counters were stopped first, which stopped BRS too when any of
 * them was running; when none was (the event itself had been stopped),
 * the last user switches BRS off here, or a later event on counter 0
 * would have its PMI held back for 16 branches.
 *
 * Context: as amd_brs_add().
 */
void amd_brs_del(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	if (this_cpu_dec_return(amd_brs_cpu.users))
		return;
	if (this_cpu_read(amd_brs_cpu.on)) {
		this_cpu_write(amd_brs_cpu.on, false);
		brs_write_cfg(0);
	}
}

/**
 * amd_brs_start - arm BRS afresh as the counters start
 *
 * MsrOff and VB restart at 0, so what the last arming recorded is never
 * read again.
 *
 * Context: this CPU, interrupts off or in NMI, the counters stopped.
 */
void amd_brs_start(void)
{
	lockdep_assert_irqs_disabled();
	if (!this_cpu_read(amd_brs_cpu.users))
		return;
	brs_write_cfg(BRS_CFG_EN);
	this_cpu_write(amd_brs_cpu.on, true);
}

/**
 * amd_brs_stop - stop BRS as the counters stop
 *
 * MsrOff and VB are kept for the sample. If BRS was holding an interrupt
 * it goes out now, while the counter that raised it still has its event.
 * The CPU clears BrsMEn itself once the 16 pairs are full: then there is
 * nothing to write.
 *
 * Context: as amd_brs_start(), the counters just stopped.
 */
void amd_brs_stop(void)
{
	u64 cfg;

	lockdep_assert_irqs_disabled();
	if (!this_cpu_read(amd_brs_cpu.on))
		return;
	this_cpu_write(amd_brs_cpu.on, false);
	cfg = brs_read_cfg();
	if (cfg & BRS_CFG_EN)
		brs_write_cfg(cfg & ~BRS_CFG_EN);
}

/**
 * amd_brs_reset_cpu - BRS off, nothing recorded (CPU bring-up; a kexec'd
 * kernel may find it armed)
 *
 * Context: the CPU concerned, interrupts off.
 */
void amd_brs_reset_cpu(void)
{
	lockdep_assert_irqs_disabled();
	this_cpu_write(amd_brs_cpu.on, false);
	brs_write_cfg(0);
}

/**
 * amd_brs_keep - does a recorded branch belong in a stack?
 * @bst: the event's attr.branch_sample_type
 * @from: the branch's source
 * @to: its target
 *
 * With both levels asked for every branch stays; user only keeps those
 * between user addresses, kernel only those that end in the kernel.
 *
 * Context: any (KUnit).
 */
bool amd_brs_keep(u64 bst, u64 from, u64 to)
{
	bool user = bst & PERF_SAMPLE_BRANCH_USER;
	bool kernel = bst & (PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV);

	if (x86_kernel_addr(to))
		return kernel;
	if (x86_kernel_addr(from))
		return kernel && user;
	return user;
}

/* a recorded address, canonical: sign-extended from the address width */
static u64 brs_addr(u64 val, unsigned int va_bits)
{
	return sign_extend64(val, va_bits - 1);
}

/**
 * amd_brs_sample - put BRS's stack in a sample
 * @event: the event whose counter overflowed
 * @data: its sample
 *
 * The pairs below MsrOff, or all 16 when it wrapped back to 0, youngest
 * (the highest) first; none unless VB says one was written.
 *
 * Context: the PMI, BRS stopped (amd_brs_stop()).
 */
void amd_brs_sample(struct perf_event *event, struct perf_sample_data *data)
{
	struct perf_branch_stack *bs = this_cpu_ptr(brs_stacks);
	unsigned int va_bits = boot_cpu_data.x86_virt_bits;
	u64 bst = event->attr.branch_sample_type;
	struct perf_branch_entry *e = bs->entries;
	unsigned int i, nr = 0;
	u64 cfg, from, to;

	if (!(event->hw.flags & X86_EVENT_FLAG_LBR))
		return;
	cfg = brs_read_cfg();
	i = 0;
	if (cfg & BRS_CFG_VB)
		i = FIELD_GET(BRS_CFG_MSROFF, cfg) ?: BRS_DEPTH;
	while (i--) {
		rdmsrl(amd_br_to_msr(i), to);
		rdmsrl(amd_br_from_msr(i), from);
		from = brs_addr(from, va_bits);
		to = brs_addr(to, va_bits);
		if (!amd_brs_keep(bst, from, to))
			continue;
		perf_clear_branch_entry_bitfields(&e[nr]);
		e[nr].from = from;
		e[nr].to = to;
		nr++;
	}
	bs->nr = nr;
	bs->hw_idx = 0;
	perf_sample_save_brstack(data, event, bs, NULL);
}

/**
 * perf_amd_brs_lopwr_cb - a CPU enters or leaves a low-power state
 * @lopwr_in: true on the way in
 *
 * An armed BRS would hold its interrupt for as long as the CPU sleeps:
 * it is switched off on the way in, which releases an interrupt it held,
 * and on again on the way out, MsrOff and VB as they were. Reached
 * through the perf_lopwr_cb static call from ACPI's idle and
 * processor-aggregator drivers.
 *
 * Context: this CPU, interrupts off, the idle path's noinstr code.
 */
void noinstr perf_amd_brs_lopwr_cb(bool lopwr_in)
{
	u64 cfg;

	if (!raw_cpu_read(amd_brs_cpu.on))
		return;
	cfg = brs_read_cfg();
	if (lopwr_in)
		cfg &= ~BRS_CFG_EN;
	else
		cfg |= BRS_CFG_EN;
	brs_write_cfg(cfg);
}

DEFINE_STATIC_CALL_NULL(perf_lopwr_cb, perf_amd_brs_lopwr_cb);
EXPORT_STATIC_CALL_TRAMP_GPL(perf_lopwr_cb);

/* events/branch-brs: the select BRS samples with, for perf record -b */
static ssize_t branch_brs_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "event=0x%02x\n", BRS_EVENT);
}

static struct device_attribute brs_attr_branch_brs = {
	.attr = { .name = "branch-brs", .mode = 0444 },
	.show = branch_brs_show,
};

static struct attribute *brs_events_attrs[] = {
	&brs_attr_branch_brs.attr,
	NULL,
};

static const struct attribute_group brs_events_group = {
	.name = "events",
	.attrs = brs_events_attrs,
};

static const struct attribute_group *brs_groups[] = {
	&brs_events_group,
	NULL,
};

/**
 * amd_brs_probe - find BRS
 * @core: the PMU, without PerfMonV2 (gated); on success its branch
 *	stacks are BRS's: core->branches, branch_cntrs and branch_lead set
 *
 * Family 19h only, as upstream: the PPR that defines it is that
 * family's. Where the registers do not answer (a hypervisor may pass
 * the CPUID bit alone) branch stacks stay -EOPNOTSUPP.
 *
 * Context: boot CPU, at early_initcall.
 * Return: true when BRS is there and ready.
 */
bool __init amd_brs_probe(struct x86_core *core)
{
	u64 val;

	if (!boot_cpu_has(X86_FEATURE_BRS) || boot_cpu_data.x86 != 0x19)
		return false;
	if (rdmsrl_safe(MSR_AMD_DBG_EXTN_CFG, &val) ||
	    rdmsrl_safe(amd_br_to_msr(BRS_DEPTH - 1), &val))
		return false;

	brs_stacks = __alloc_percpu(struct_size_t(struct perf_branch_stack,
						  entries, BRS_DEPTH),
				    __alignof__(struct perf_branch_stack));
	if (!brs_stacks)
		return false;
	core->branches = BRS_DEPTH;
	core->branch_cntrs = BIT_ULL(0);
	core->branch_lead = BRS_DEPTH;
	core->pmu.attr_update = brs_groups;
	static_call_update(perf_lopwr_cb, perf_amd_brs_lopwr_cb);
	pr_info("Branch Sampling, %u entries\n", BRS_DEPTH);
	return true;
}
