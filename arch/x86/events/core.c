// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: finding the core PMU and registering it.
 *
 * At early_initcall time the vendor part (intel/arch.c, amd/core.c)
 * describes the counters the boot CPU enumerates in a struct x86_core; we
 * then give it its per-CPU state and sysfs groups, register it as the
 * "cpu" PMU with type PERF_TYPE_RAW, claim the PMI and, as each CPU comes
 * up, point the CPU at the core PMU that serves it and put its counters
 * in a known state. Without a PMU the hooks below still link and behave
 * as "no counters": LVTPC stays masked, nothing is ever dirty, and perf
 * offers software events only. pmu.h says what a hybrid part would add.
 *
 * This also holds the calls the rest of arch/x86 (and KVM) makes into the
 * PMU driver: perf_events_lapic_init(), perf_check_microcode(),
 * perf_get_x86_pmu_capability() and perf_get_hw_event_config().
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/cpuhotplug.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/printk.h>

#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>

#include "pmu.h"

/* the PMU of the boot CPU's kind of core */
static struct x86_core x86_boot_core;

/*
 * The core PMUs set up, the boot CPU's first. Written at boot before any
 * CPU looks at it (x86_cpu_starting() on the boot CPU comes after), read
 * as CPUs come up.
 */
static struct x86_core *x86_cores[X86_MAX_CORES];
static unsigned int x86_nr_cores;

DEFINE_PER_CPU(struct x86_core *, x86_cpu_core);

static bool x86_have_pmu(void)
{
	return READ_ONCE(x86_nr_cores);
}

/**
 * x86_core_event - whether an event belongs to a core PMU
 * @event: any event
 *
 * Context: any.
 */
bool x86_core_event(struct perf_event *event)
{
	/* every core PMU is ours, and they share their callbacks */
	return event->pmu->event_init == x86_event_init;
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
 * is NOT available, as in CPUID.0AH:EBX). A guest's vCPU may run on any
 * CPU, so with more than one core PMU (a hybrid part) there is no one
 * answer and KVM gets none.
 *
 * Context: any.
 */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	const struct x86_core *core = &x86_boot_core;

	memset(cap, 0, sizeof(*cap));
	if (READ_ONCE(x86_nr_cores) != 1)
		return;

	cap->version = core->version;
	cap->num_counters_gp = hweight64(core->gp);
	cap->num_counters_fixed = hweight64(core->fixed);
	cap->bit_width_gp = core->gp_width;
	cap->bit_width_fixed = cap->num_counters_fixed ? core->fixed_width : 0;
	cap->events_mask = core->arch_events_absent;
	cap->events_mask_len = core->arch_events_len;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/**
 * perf_get_hw_event_config - the event select of a generic hardware event
 * @hw_event: a PERF_COUNT_HW_* value
 *
 * The boot CPU's PMU answers: the generic events KVM asks for are the
 * architectural ones, which every kind of core encodes alike.
 *
 * Return: the event and unit mask, or 0 when not offered.
 * Context: any.
 */
u64 perf_get_hw_event_config(int hw_event)
{
	if (!x86_have_pmu() || hw_event < 0 || hw_event >= PERF_COUNT_HW_MAX)
		return 0;
	return x86_boot_core.hw_map[hw_event] &
	       (ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK);
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

/**
 * x86_perf_rdpmc_index - the RDPMC index of an active event's counter
 * @event: an event of a core PMU, active on this CPU
 *
 * Context: the event's CPU, with interrupts off.
 * Return: the index to pass to RDPMC.
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return event->hw.event_base_rdpmc;
}

/*
 * The core PMU that serves the CPU this runs on: the first whose kind of
 * core is this CPU's, or that serves every kind.
 */
static struct x86_core *x86_core_for_this_cpu(void)
{
	u8 kind = 0;
	unsigned int i;

	for (i = 0; i < x86_nr_cores; i++) {
		struct x86_core *core = x86_cores[i];

		if (!core->cpu_type)
			return core;
		/* CPUID.1AH, asked only on a part with core kinds */
		if (!kind)
			kind = get_this_hybrid_cpu_type();
		if (core->cpu_type == kind)
			return core;
	}
	return NULL;
}

/* a CPU comes up (CPUHP_AP_PERF_X86_STARTING, interrupts off) */
static int x86_cpu_starting(unsigned int cpu)
{
	struct x86_core *core = x86_core_for_this_cpu();

	lockdep_assert_irqs_disabled();
	if (!core) {
		pr_warn_once("no core PMU for CPU %u's kind of core\n", cpu);
		return 0;
	}
	cpumask_set_cpu(cpu, &core->cpus);
	memset(x86_cpuc(core), 0, sizeof(struct x86_cpu_pmu));
	core->ops->reset_cpu(core);
	/* the PMI may find this CPU's PMU from here on */
	this_cpu_write(x86_cpu_core, core);
	perf_events_lapic_init();
	return 0;
}

/*
 * A CPU goes down: the core has taken every event off it already. It
 * stays in its PMU's cpus, as it comes back as the same kind of core.
 */
static int x86_cpu_dying(unsigned int cpu)
{
	struct x86_core *core = this_cpu_read(x86_cpu_core);

	if (core)
		core->ops->reset_cpu(core);
	return 0;
}

/*
 * Whether the counters CPUID describes are really there. A hypervisor may
 * pass the CPUID leaves through without emulating the MSRs (QEMU's TCG
 * reads unknown MSRs as 0 and drops writes to them, other hypervisors
 * fault), so write a pattern into the first counter and read it back.
 */
static bool __init x86_counters_answer(const struct x86_core *core)
{
	unsigned int msr = x86_gp_ctr(core, 0);
	u64 want = 0x5a5a, got;

	if (wrmsrl_safe(msr, want) || rdmsrl_safe(msr, &got))
		return false;
	wrmsrl_safe(msr, 0);
	return (got & x86_cntr_mask(core, 0)) == want;
}

static void __init x86_log_pmu(const struct x86_core *core)
{
	pr_info("%s PMU (%s): version %u, %u general counters (%u bits), %u fixed (%u bits)%s\n",
		core->vendor, core->name ?: "core", core->version,
		(unsigned int)hweight64(core->gp),
		core->gp_width, (unsigned int)hweight64(core->fixed),
		core->fixed_width,
		core->gated ? ", no global control" : "");
}

/* a hybrid PMU's task events run only on its own kind of CPU */
static bool x86_core_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &x86_pmu_core(pmu)->cpus);
}

/**
 * x86_core_setup - make a described core PMU ready to register
 * @core: the PMU, its hardware described by a vendor probe (and its
 *	cpu_type set when it serves one kind of core of a hybrid part)
 * @dev_name: the name to register it under
 * @type: the type to register it with, or -1 for a dynamic one
 *
 * Allocates its per-CPU state, fills in its struct pmu and sysfs groups
 * and adds it to the PMUs that CPUs coming up look for theirs among. The
 * PMU is registered with perf by the caller of x86_core_setup(), once
 * every PMU is set up and the CPUs know theirs.
 *
 * Context: boot, process context, before x86_cpu_starting() is set up.
 * Return: 0, or -ENOMEM, or -ENOSPC past X86_MAX_CORES PMUs.
 */
int __init x86_core_setup(struct x86_core *core, const char *dev_name,
			  int type)
{
	struct pmu *pmu = &core->pmu;

	if (x86_nr_cores == X86_MAX_CORES)
		return -ENOSPC;
	core->cpuc = alloc_percpu(struct x86_cpu_pmu);
	if (!core->cpuc)
		return -ENOMEM;
	core->dev_name = dev_name;
	core->type = type;
	atomic_set(&core->nr_events, 0);
	if (core->cpu_type)
		cpumask_clear(&core->cpus);
	else
		cpumask_copy(&core->cpus, cpu_possible_mask);
	x86_sysfs_init(core);

	pmu->task_ctx_nr = perf_hw_context;
	pmu->attr_groups = core->groups;
	pmu->event_init = x86_event_init;
	pmu->event_mapped = x86_event_mapped;
	pmu->event_unmapped = x86_event_unmapped;
	pmu->event_idx = x86_event_idx;
	pmu->pmu_disable = x86_pmu_disable;
	pmu->pmu_enable = x86_pmu_enable;
	/* an event's life on a counter, in order */
	pmu->add = x86_pmu_add;
	pmu->start = x86_pmu_start;
	pmu->read = x86_pmu_read;
	pmu->stop = x86_pmu_stop;
	pmu->del = x86_pmu_del;
	if (core->ops->branch_sched_in)
		pmu->sched_task = x86_pmu_sched_task;
	if (core->cpu_type)
		pmu->filter = x86_core_filter;

	x86_cores[x86_nr_cores] = core;
	WRITE_ONCE(x86_nr_cores, x86_nr_cores + 1);
	return 0;
}

/* undo x86_core_setup() of every PMU, none of them registered */
static void __init x86_core_forget_all(void)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu)
		per_cpu(x86_cpu_core, cpu) = NULL;
	for (i = 0; i < x86_nr_cores; i++) {
		free_percpu(x86_cores[i]->cpuc);
		x86_cores[i]->cpuc = NULL;
		x86_cores[i] = NULL;
	}
	WRITE_ONCE(x86_nr_cores, 0);
}

static int __init x86_core_pmu_init(void)
{
	struct x86_core *core = &x86_boot_core;
	unsigned int i;
	int ret = -ENODEV;

	if (IS_ENABLED(CONFIG_CPU_SUP_INTEL))
		ret = intel_core_probe(core);
	if (ret == -ENODEV && IS_ENABLED(CONFIG_CPU_SUP_AMD))
		ret = amd_core_probe(core);
	if (ret) {
		pr_info("no hardware PMU, software events only\n");
		return 0;
	}
	if (!x86_counters_answer(core)) {
		/* upstream's wording: tools and people grep boot logs for it */
		if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
			pr_info("PMU not available due to virtualization, using software events only.\n");
		else
			pr_err("Broken PMU hardware detected, using software events only.\n");
		return 0;
	}
	x86_log_pmu(core);
	ret = x86_core_setup(core, "cpu", PERF_TYPE_RAW);
	if (ret)
		goto fail;

	/* runs x86_cpu_starting() on the boot CPU now, on others as they come */
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
				"perf/x86:starting", x86_cpu_starting,
				x86_cpu_dying);
	if (ret)
		goto fail;
	ret = x86_pmi_init();
	if (ret)
		goto fail_cpuhp;
	for (i = 0; i < x86_nr_cores; i++) {
		core = x86_cores[i];
		ret = perf_pmu_register(&core->pmu, core->dev_name, core->type);
		if (ret)
			goto fail_pmi;
	}
	x86_branch_snapshot_init(x86_cores[0]);
	return 0;

fail_pmi:
	while (i--)
		perf_pmu_unregister(&x86_cores[i]->pmu);
	unregister_nmi_handler(NMI_LOCAL, "PMI");
fail_cpuhp:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
fail:
	pr_err("cannot register the core PMU: %d\n", ret);
	x86_core_forget_all();
	return 0;
}
early_initcall(x86_core_pmu_init);
