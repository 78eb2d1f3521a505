// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: counter reads from EL0 and the user page.
 *
 * A task may read its own counters without a syscall when three
 * things hold:
 *   - the administrator allows it: sysctl kernel.perf_user_access = 1
 *     (default 0);
 *   - the event asked for it: attr.config1 bit 1 ("rdpmc" in format/);
 *     such an event must belong to a task, and must fit one counter that
 *     EL0 can read in a single MRS, so no chained pair;
 *   - the task is running: PMUSERENR_EL0.{ER,CR} are set while the task
 *     context on this CPU holds such events, and cleared otherwise.
 *
 * The last point is decided in ->pmu_enable, which the core calls after
 * every change of what is on the counters, and on the way out of a task
 * with such events (PERF_PMU_CAP_USER_READ_CTX). While access is open
 * EL0 can read every counter, so counters no event of the task's CPU
 * holds are zeroed first: they may keep another task's last counts.
 *
 * The user page then says cap_user_rdpmc, gives index = counter + 1
 * (32 for the cycle counter, which user space reads as PMCCNTR_EL0) and
 * pmc_width = the event's width, and offset = count - prev_count, with
 * prev_count kept sign-extended as readers extend the counter value.
 */

#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/sched_clock.h>
#include <linux/smp.h>
#include <linux/sysctl.h>

#include <asm/kvm_host.h>
#include <kvm/arm_pmu.h>

#include <clocksource/arm_arch_timer.h>

#include "perf_event_pmuv3.h"

static int sysctl_perf_user_access __read_mostly;

/*
 * Write PMUSERENR_EL0 for the host's EL0. When this CPU is running a
 * vCPU, the register currently holds the guest's value: KVM then keeps
 * ours and puts it back on the way to host EL0.
 */
static void pmuv3_write_userenr(u64 val)
{
	lockdep_assert_irqs_disabled();
	if (!kvm_set_pmuserenr(val))
		write_pmuserenr(val);
}

/* zero the counters no event of this CPU holds, so EL0 learns nothing */
static void pmuv3_zero_idle_counters(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	unsigned long idle = p->cntr_mask & ~cpuc->used;
	int idx;

	for_each_set_bit(idx, &idle, PMUV3_NR_COUNTERS) {
		if (idx == PMUV3_CYCLE_IDX)
			write_pmccntr(0);
		else
			write_pmevcntrn(idx, 0);
	}
}

/**
 * pmuv3_user_access_update() - open or close EL0 access to the counters
 * @p: the PMU
 * @cpuc: this CPU's counters
 *
 * Context: ->pmu_enable on this CPU, interrupts off.
 */
void pmuv3_user_access_update(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	lockdep_assert_irqs_disabled();

	if (READ_ONCE(sysctl_perf_user_access) &&
	    perf_running_task_reads_counters()) {
		pmuv3_zero_idle_counters(p, cpuc);
		pmuv3_write_userenr(ARMV8_PMU_USERENR_ER |
				    ARMV8_PMU_USERENR_CR);
	} else {
		pmuv3_write_userenr(0);
	}
	/* KVM may hold a vCPU's copy of the register: let it see ours */
	kvm_vcpu_pmu_resync_el0();
}

/**
 * pmuv3_user_event_init() - check and mark an event for EL0 reads
 * @p: the PMU
 * @event: the event being created, hw.flags already set up
 *
 * Context: process context, from ->event_init.
 *
 * Return: 0; -EINVAL for an event of no task (a CPU-wide event, whose
 * counter would be readable by whatever runs there); -EOPNOTSUPP for a
 * 64-bit event that would need a chained pair (only the cycle counter is
 * 64 bits wide without PMUv3p5).
 */
int pmuv3_user_event_init(struct pmuv3 *p, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(event->attr.config1 & PMUV3_CFG1_RDPMC))
		return 0;
	if (!hwc->target)
		return -EINVAL;
	if ((hwc->flags & PMUV3_F_LONG) && !p->long_evcntr &&
	    (hwc->config_base & PMUV3_EVENT_MASK) !=
	    ARMV8_PMUV3_PERFCTR_CPU_CYCLES)
		return -EOPNOTSUPP;

	hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	return 0;
}

/**
 * pmuv3_event_idx() - the index the user page offers for an event
 * @event: an event of ours
 *
 * Context: any, from perf_event_update_userpage().
 *
 * Return: the counter number + 1 while EL0 may read it, else 0.
 */
int pmuv3_event_idx(struct perf_event *event)
{
	if (!READ_ONCE(sysctl_perf_user_access) ||
	    !(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT) ||
	    event->hw.idx < 0)
		return 0;
	return event->hw.idx + 1;
}

/* runs on every CPU when access is switched off: close it right away */
static void pmuv3_user_access_off(void *unused)
{
	pmuv3_write_userenr(0);
}

static int pmuv3_user_access_sysctl(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	/* switching on takes effect at each CPU's next ->pmu_enable */
	if (!ret && write && !READ_ONCE(sysctl_perf_user_access))
		on_each_cpu(pmuv3_user_access_off, NULL, 1);
	return ret;
}

static struct ctl_table pmuv3_user_sysctls[] = {
	{
		.procname	= "perf_user_access",
		.data		= &sysctl_perf_user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= pmuv3_user_access_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/**
 * pmuv3_user_sysctl_init() - add kernel.perf_user_access
 *
 * Context: process context, once, when the PMU is probed.
 *
 * Return: 0 or -ENOMEM.
 */
int pmuv3_user_sysctl_init(void)
{
	return register_sysctl("kernel", pmuv3_user_sysctls) ? 0 : -ENOMEM;
}

/**
 * arch_perf_update_userpage() - fill the arch fields of the mmap page
 * @event: the event whose page is updated
 * @userpg: the page
 * @now: the core's current time for this event (sched_clock based)
 *
 * The counter fields follow the event (cap_user_rdpmc, pmc_width; the
 * core sets index from pmuv3_event_idx()). Self-monitoring user space
 * converts raw counter-timer values (CNTVCT) into perf time with
 * time_mult/time_shift/time_zero, as long as sched_clock is the
 * architected timer.
 *
 * Context: from perf_event_update_userpage(), inside the page's lock
 * sequence with preemption off; any context, NMI included.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	bool user_read = event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT;
	struct clock_read_data clk;
	unsigned int seq;
	bool on_timer;
	u64 epoch_off;

	lockdep_assert_preemption_disabled();
	userpg->cap_user_rdpmc = user_read;
	if (user_read)
		userpg->pmc_width = event->hw.flags & PMUV3_F_LONG ? 64 : 32;

	/* one consistent copy of sched_clock's conversion parameters */
	do {
		clk = *sched_clock_read_begin(&seq);
	} while (sched_clock_read_retry(seq));

	/*
	 * The parameters describe the architected counter (CNTVCT_EL0) only
	 * while sched_clock runs on it; otherwise offer no time conversion.
	 */
	on_timer = clk.read_sched_clock == arch_timer_read_counter;
	userpg->cap_user_time = on_timer;
	userpg->cap_user_time_zero = on_timer;
	userpg->cap_user_time_short = on_timer;
	if (!on_timer)
		return;

	/*
	 * sched_clock() is epoch_ns + (((cyc - epoch_cyc) & mask) * mult >>
	 * shift).  time_cycles and time_mask hand readers that epoch and
	 * mask; time_zero is the time the formula without them gives at
	 * counter value 0, so that readers ignoring cap_user_time_short stay
	 * right until the counter wraps.
	 */
	epoch_off = mul_u64_u32_shr(clk.epoch_cyc, clk.mult, clk.shift);
	userpg->time_zero = clk.epoch_ns - epoch_off;
	userpg->time_offset = userpg->time_zero - now;
	userpg->time_cycles = clk.epoch_cyc;
	userpg->time_mask = clk.sched_clock_mask;

	/*
	 * The uapi recipe splits cyc at time_shift and multiplies the low
	 * part by time_mult.  Readers written to its first version do that
	 * split on a 32-bit value, for which a shift by 32 is undefined:
	 * offer them mult / 2 over 2^31, the same ratio with one bit less.
	 */
	if (clk.shift == 32) {
		userpg->time_mult = clk.mult >> 1;
		userpg->time_shift = 31;
	} else {
		userpg->time_mult = clk.mult;
		userpg->time_shift = clk.shift;
	}
}
