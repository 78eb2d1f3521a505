// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: reading counters from user space with RDPMC.
 *
 * RDPMC at CPL 3 faults unless CR4.PCE is set. Which tasks get it is the
 * "rdpmc" policy, /sys/bus/event_source/devices/cpu/rdpmc:
 *
 *  0: never. CR4.PCE stays clear, and events created under it do not
 *     offer an index in their user page.
 *  1: (default) to a task while it has an event of ours mmapped: the mm
 *     counts such mappings (mm->context.perf_rdpmc_allowed), and the mm
 *     switch sets CR4.PCE from it (cr4_update_pce_mm() in mm/tlb.c).
 *  2: always, for every task.
 *
 * A task allowed RDPMC can read any counter, including ones that another
 * task's events left behind; before CR4.PCE is set for it, the mm switch
 * calls perf_clear_dirty_counters() to zero those.
 */

#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include <asm/mmu_context.h>
#include <asm/msr.h>
#include <asm/tlbflush.h>

#include "pmu.h"

/*
 * Read by cr4_update_pce_mm() on every switch to a new mm (interrupts
 * off): "always" turns CR4.PCE on for everyone, "never" off for everyone;
 * with neither, the mm's count of mapped events decides.
 */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

/* the policy, 0..2; read locklessly at event creation */
int x86_rdpmc_policy = 1;
static DEFINE_MUTEX(x86_rdpmc_mutex);

/* user space may RDPMC this event: the policy allowed it at creation */
static bool rdpmc_event(struct perf_event *event)
{
	return event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT;
}

/* make CR4.PCE on the CPUs now running @mm follow its count of events */
static void rdpmc_mm_sync(struct mm_struct *mm)
{
	on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/**
 * x86_event_mapped - a task mapped an event's user page
 * @event: the event
 * @mm: the mm it is mapped into
 *
 * The first such mapping of an mm turns CR4.PCE on for the CPUs running
 * it now; the mm switch keeps it on for the others.
 *
 * Context: mmap_lock held for write (mmap, or the VMA copy at fork).
 */
void x86_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!rdpmc_event(event))
		return;
	/*
	 * With the lock held for write no other task of @mm can find the
	 * count already raised and reach user space before PCE is set on
	 * every CPU running @mm.
	 */
	mmap_assert_write_locked(mm);
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		rdpmc_mm_sync(mm);
}

/**
 * x86_event_unmapped - a mapping made by x86_event_mapped() went away
 * @event: the event
 * @mm: the mm it was mapped into
 *
 * Context: mmap_lock held for write (munmap, exit_mmap).
 */
void x86_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	mmap_assert_write_locked(mm);
	if (rdpmc_event(event) &&
	    atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		rdpmc_mm_sync(mm);
}

/**
 * x86_event_idx - the RDPMC index + 1 published in the user page
 * @event: an active event
 *
 * Context: any, including NMI.
 * Return: 0 when user space must use read() instead.
 */
int x86_event_idx(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT) || hwc->idx < 0)
		return 0;
	return hwc->event_base_rdpmc + 1;
}

/**
 * perf_clear_dirty_counters - zero counters a previous task left behind
 *
 * Called by the mm switch (cr4_update_pce_mm(), interrupts off) before
 * CR4.PCE is set for a task that may use RDPMC: counters of this CPU's
 * core PMU that held events since the last call and hold none now are
 * zeroed, so the task cannot read what another task's events counted.
 */
void perf_clear_dirty_counters(void)
{
	struct x86_core *core = this_cpu_read(x86_cpu_core);
	struct x86_cpu_pmu *cpuc;
	unsigned long idx;
	u64 dirty;

	lockdep_assert_irqs_disabled();
	/* no core PMU on this CPU: no counter was ever written */
	if (!core)
		return;
	cpuc = x86_cpuc(core);
	dirty = cpuc->dirty & ~cpuc->used;
	for_each_set_bit(idx, (unsigned long *)&dirty, X86_NR_IDX) {
		if (X86_IS_FIXED(idx))
			wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 +
			       (idx - INTEL_PMC_IDX_FIXED), 0);
		else
			wrmsrl(x86_gp_ctr(core, idx), 0);
	}
	cpuc->dirty = 0;
}

static ssize_t rdpmc_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(x86_rdpmc_policy));
}

/*
 * Switching the policy flips the static keys, then makes every CPU
 * recompute CR4.PCE for the task it is running. Events created before
 * the switch keep the offer (or lack of it) they were created with.
 */
static ssize_t rdpmc_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned long val;
	int ret;

	ret = kstrtoul(buf, 0, &val);
	if (ret)
		return ret;
	if (val > 2)
		return -EINVAL;

	mutex_lock(&x86_rdpmc_mutex);
	if (val != x86_rdpmc_policy) {
		if (!val)
			static_branch_enable(&rdpmc_never_available_key);
		else if (!x86_rdpmc_policy)
			static_branch_disable(&rdpmc_never_available_key);

		if (val == 2)
			static_branch_enable(&rdpmc_always_available_key);
		else if (x86_rdpmc_policy == 2)
			static_branch_disable(&rdpmc_always_available_key);

		WRITE_ONCE(x86_rdpmc_policy, val);
		on_each_cpu(cr4_update_pce, NULL, 1);
	}
	mutex_unlock(&x86_rdpmc_mutex);
	return count;
}
DEVICE_ATTR_RW(rdpmc);
