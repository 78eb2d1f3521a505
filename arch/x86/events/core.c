// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: finding the core PMU and registering it.
 *
 * At early_initcall time the vendor part (intel/arch.c, amd/core.c)
 * describes the counters the boot CPU enumerates in x86_core; we then
 * register the "cpu" PMU with type PERF_TYPE_RAW, claim the PMI and keep
 * every CPU's PMU in a known state across hotplug. Without a PMU the
 * hooks below still link and behave as "no counters": LVTPC stays
 * masked, nothing is ever dirty, and perf offers software events only.
 *
 * This also holds the calls the rest of arch/x86 (and KVM) makes into the
 * PMU driver: perf_events_lapic_init(), perf_check_microcode(),
 * perf_get_x86_pmu_capability() and perf_get_hw_event_config().
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/cpuhotplug.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include <linux/printk.h>

#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>

#include "pmu.h"

/* the boot CPU's core PMU; .ops is NULL when there is none */
struct x86_core x86_core;

static struct pmu x86_perf_cpu_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.attr_groups	= x86_attr_groups,
	.event_init	= x86_event_init,
	.event_mapped	= x86_event_mapped,
	.event_unmapped	= x86_event_unmapped,
	.event_idx	= x86_event_idx,
	.pmu_disable	= x86_pmu_disable,
	.pmu_enable	= x86_pmu_enable,
	/* an event's life on a counter, in order */
	.add		= x86_pmu_add,
	.start		= x86_pmu_start,
	.read		= x86_pmu_read,
	.stop		= x86_pmu_stop,
	.del		= x86_pmu_del,
};

static bool x86_have_pmu(void)
{
	return x86_core.ops;
}

/**
 * x86_core_event - whether an event belongs to the core PMU
 * @event: any event
 *
 * Context: any.
 */
bool x86_core_event(struct perf_event *event)
{
	return event->pmu == &x86_perf_cpu_pmu;
}

/**
 * perf_events_lapic_init - deliver this CPU's counter overflows as NMI
 *
 * Called by setup_local_APIC() on each CPU as it comes up (interrupts
 * off), and by our init for the boot CPU, which set up its APIC before
 * the PMU was found. Without a PMU the LVTPC entry stays masked, so a
 * counter firmware left running cannot raise an NMI nobody claims.
 */
void perf_events_lapic_init(void)
{
	if (!x86_have_pmu() || !boot_cpu_has(X86_FEATURE_APIC))
		return;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/**
 * perf_check_microcode - re-evaluate PMU errata after a microcode update
 *
 * Called by microcode_check() after a late load, CPU hotplug lock held.
 * None of the model quirks we apply depend on the microcode revision.
 */
void perf_check_microcode(void)
{
}

/**
 * perf_get_x86_pmu_capability - describe the core PMU to KVM
 * @cap: filled in; all zero when there is no PMU
 *
 * KVM sizes the guest's virtual PMU from this: the architectural version,
 * the number and width of general-purpose and fixed counters, and which
 * architectural events exist (a set bit in events_mask means the event
 * is NOT available, as in CPUID.0AH:EBX).
 *
 * Context: any.
 */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	memset(cap, 0, sizeof(*cap));
	if (!x86_have_pmu())
		return;

	cap->version = x86_core.version;
	cap->num_counters_gp = hweight64(x86_core.gp);
	cap->num_counters_fixed = hweight64(x86_core.fixed);
	cap->bit_width_gp = x86_core.gp_width;
	cap->bit_width_fixed = cap->num_counters_fixed ? x86_core.fixed_width : 0;
	cap->events_mask = x86_core.arch_events_absent;
	cap->events_mask_len = x86_core.arch_events_len;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/**
 * perf_get_hw_event_config - the event select of a generic hardware event
 * @hw_event: a PERF_COUNT_HW_* value
 *
 * Return: the event and unit mask, or 0 when not offered.
 * Context: any.
 */
u64 perf_get_hw_event_config(int hw_event)
{
	if (!x86_have_pmu() || hw_event < 0 || hw_event >= PERF_COUNT_HW_MAX)
		return 0;
	return x86_core.hw_map[hw_event] &
	       (ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK);
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

/**
 * x86_perf_rdpmc_index - the RDPMC index of an active event's counter
 * @event: an event of the core PMU, active on this CPU
 *
 * Context: the event's CPU, with preemption off.
 * Return: the index to pass to RDPMC.
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return event->hw.event_base_rdpmc;
}

/* a CPU comes up (CPUHP_AP_PERF_X86_STARTING, interrupts off) */
static int x86_cpu_starting(unsigned int cpu)
{
	struct x86_cpu_pmu *cpuc = this_cpu_ptr(&x86_cpu_pmu);

	memset(cpuc, 0, sizeof(*cpuc));
	x86_core.ops->reset_cpu();
	perf_events_lapic_init();
	return 0;
}

/* a CPU goes down: the core has taken every event off it already */
static int x86_cpu_dying(unsigned int cpu)
{
	x86_core.ops->reset_cpu();
	return 0;
}

/*
 * Whether the counters CPUID describes are really there. A hypervisor may
 * pass the CPUID leaves through without emulating the MSRs (QEMU's TCG
 * reads unknown MSRs as 0 and drops writes to them, other hypervisors
 * fault), so write a pattern into the first counter and read it back.
 */
static bool __init x86_counters_answer(void)
{
	unsigned int msr = x86_gp_ctr(&x86_core, 0);
	u64 want = 0x5a5a, got;

	if (wrmsrl_safe(msr, want) || rdmsrl_safe(msr, &got))
		return false;
	wrmsrl_safe(msr, 0);
	return (got & x86_cntr_mask(&x86_core, 0)) == want;
}

static void __init x86_log_pmu(void)
{
	pr_info("%s PMU (%s): version %u, %u general counters (%u bits), %u fixed (%u bits)%s\n",
		x86_core.vendor, x86_core.name ?: "core", x86_core.version,
		(unsigned int)hweight64(x86_core.gp),
		x86_core.gp_width, (unsigned int)hweight64(x86_core.fixed),
		x86_core.fixed_width,
		x86_core.gated ? ", no global control" : "");
}

static int __init x86_core_pmu_init(void)
{
	int ret = -ENODEV;

	if (IS_ENABLED(CONFIG_CPU_SUP_INTEL))
		ret = intel_core_probe(&x86_core);
	if (ret == -ENODEV && IS_ENABLED(CONFIG_CPU_SUP_AMD))
		ret = amd_core_probe(&x86_core);
	if (ret) {
		memset(&x86_core, 0, sizeof(x86_core));
		pr_info("no hardware PMU, software events only\n");
		return 0;
	}
	if (!x86_counters_answer()) {
		/* upstream's wording: tools and people grep boot logs for it */
		if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
			pr_info("PMU not available due to virtualization, using software events only.\n");
		else
			pr_err("Broken PMU hardware detected, using software events only.\n");
		memset(&x86_core, 0, sizeof(x86_core));
		return 0;
	}
	x86_log_pmu();
	x86_sysfs_init();

	/* runs x86_cpu_starting() on the boot CPU now, on others as they come */
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
				"perf/x86:starting", x86_cpu_starting,
				x86_cpu_dying);
	if (ret)
		goto fail;
	ret = x86_pmi_init();
	if (ret)
		goto fail_cpuhp;
	ret = perf_pmu_register(&x86_perf_cpu_pmu, "cpu", PERF_TYPE_RAW);
	if (ret)
		goto fail_pmi;
	return 0;

fail_pmi:
	unregister_nmi_handler(NMI_LOCAL, "PMI");
fail_cpuhp:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
fail:
	pr_err("cannot register the core PMU: %d\n", ret);
	memset(&x86_core, 0, sizeof(x86_core));
	return 0;
}
early_initcall(x86_core_pmu_init);
