// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: the performance-monitoring interrupt.
 *
 * A counter that wraps raises the local APIC's LVTPC interrupt, which we
 * program as NMI (perf_events_lapic_init()), so that samples can be taken
 * in code that runs with interrupts off. The handler runs on the CPU
 * whose counter wrapped, in NMI: it may interrupt any of hw.c's callbacks
 * between two instructions, takes no locks, and leaves the PMU exactly as
 * enabled or disabled as it found it. One handler serves every core PMU:
 * a CPU has the counters of one of them, the one x86_cpu_core names.
 * PMUs without overflow status (gated mode) find the wrapped counters
 * through the vendor's ops as gate.c does it.
 *
 * Order of work: freeze the counters (so the members of a group are
 * sampled at one instant and nothing wraps while we look), read which
 * counters wrapped and clear that status, turn the records a vendor's
 * sampling hardware wrote (Intel PEBS) into samples, handle each
 * wrapped counter, unfreeze, and
 * finally unmask LVTPC (Intel masks it when it delivers the PMI). Since
 * the counters are frozen from before the status is read until after it
 * is cleared, clearing it early loses no overflow.
 */

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/nmi.h>

#include "perf_event.h"
#include "pmu.h"

/* the overflow of one counter; returns whether it was ours to handle */
static bool x86_pmi_counter(struct x86_cpu_pmu *cpuc, int idx,
			    struct pt_regs *regs)
{
	struct perf_event *event = cpuc->events[idx];
	struct perf_sample_data data;
	struct hw_perf_event *hwc;

	/* a counter freed, or stopped, after it wrapped */
	if (!event)
		return false;
	hwc = &event->hw;
	if (hwc->state & PERF_HES_STOPPED)
		return true;

	x86_event_update(event);
	if (!is_sampling_event(event)) {
		/* the fold of a counting event: no sample */
		x86_set_period(event);
		return true;
	}

	perf_sample_data_init(&data, 0, hwc->last_period);
	if (!x86_set_period(event))
		return true;
	if (hwc->flags & X86_EVENT_FLAG_LBR)
		x86_event_core(event)->ops->branch_sample(event, &data);
	/* non-zero: throttled or at its event limit, so stop it */
	if (perf_event_overflow(event, &data, regs))
		x86_pmu_stop(event, 0);
	return true;
}

static int x86_pmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct x86_core *core = this_cpu_read(x86_cpu_core);
	const struct x86_core_ops *ops;
	struct x86_cpu_pmu *cpuc;
	unsigned long idx;
	u64 start, wrapped, cntrs;
	int handled = 0;

	/* a CPU not up yet, or that no core PMU serves, has no PMI of ours */
	if (!core)
		return NMI_DONE;
	/*
	 * No event of this PMU exists anywhere: not our NMI, and no MSR to
	 * read. A PMI of an event freed since it overflowed may still land
	 * here, and Intel masked LVTPC to deliver it: unmask, or this CPU
	 * would never see a PMI again.
	 */
	if (!atomic_read(&core->nr_events)) {
		apic_write(APIC_LVTPC, APIC_DM_NMI);
		return NMI_DONE;
	}

	ops = core->ops;
	cpuc = x86_cpuc(core);
	start = sched_clock();
	ops->disable_all(core, cpuc);
	wrapped = ops->overflowed(core, cpuc);
	if (wrapped)
		ops->ack(wrapped);

	/* the PEBS records first: they were taken before the PMI */
	if (ops->drain)
		handled += ops->drain(core, cpuc, wrapped, regs);
	cntrs = wrapped & (core->gp | core->fixed);
	for_each_set_bit(idx, (unsigned long *)&cntrs, X86_NR_IDX)
		handled += x86_pmi_counter(cpuc, idx, regs);

	if (!cpuc->frozen)
		ops->enable_all(core, cpuc);
	/* Intel masks LVTPC on delivery; AMD leaves it as it was */
	apic_write(APIC_LVTPC, APIC_DM_NMI);

	if (!wrapped)
		return NMI_DONE;
	/* the "PMI" row of /proc/interrupts */
	inc_irq_stat(apic_perf_irqs);
	/*
	 * The sample rate limit is about what one sample costs; a PMI that
	 * drained a buffer of PEBS records took hundreds of them at once,
	 * and charging them all to one would lower the rate for every event
	 * as if each sample took a millisecond.
	 */
	perf_sample_event_took(div_u64(sched_clock() - start,
				       max(handled, 1)));
	/*
	 * Report how many counters we served: when more than one wrapped,
	 * a second NMI may already be latched for the ones we handled, and
	 * the NMI code then swallows one unclaimed NMI instead of calling
	 * it unknown. A status bit without an event is still ours.
	 */
	return max(handled, 1);
}

#ifdef CONFIG_XEN_PV
/*
 * Under Xen PV the hypervisor owns the APIC and forwards an overflow as
 * an event channel interrupt; its handler (arch/x86/xen/pmu.c) serves it
 * through here as the NMI would.
 */
static int x86_pmi_forwarded(struct pt_regs *regs)
{
	return x86_pmi_handler(NMI_LOCAL, regs);
}

struct x86_pmu x86_pmu = {
	.handle_irq	= x86_pmi_forwarded,
};
#endif

/**
 * x86_pmi_init - claim the PMI on every CPU
 *
 * Registers the NMI handler; perf_events_lapic_init() routes LVTPC to NMI
 * on each CPU as it comes up.
 *
 * Context: boot, process context.
 * Return: 0 or a negative errno.
 */
int x86_pmi_init(void)
{
	return register_nmi_handler(NMI_LOCAL, x86_pmi_handler, 0, "PMI");
}
