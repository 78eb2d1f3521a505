// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: finding the PMU and keeping each CPU's PMU ready.
 *
 * Probe (device tree, "arm,armv8-pmuv3" and the CPU-specific compatibles)
 * reads the PMU's identity on one CPU, requests the per-CPU overflow
 * interrupt and registers the PMU with the core.
 *
 * The interrupt is requested as a pseudo-NMI when the GIC offers them
 * (CONFIG_ARM64_PSEUDO_NMI and irqchip.gicv3_pseudo_nmi=1): overflows are
 * then taken even inside local_irq_save() regions, which is what makes
 * samples of IRQs-off code, and the perf hard-lockup detector, possible.
 * Without pseudo-NMIs it is an ordinary per-CPU interrupt.
 *
 * Each CPU's PMU is reset and its interrupt enabled in the STARTING
 * hotplug step, on the incoming CPU with interrupts off, before the core's
 * own step schedules any event there; the teardown runs at the same point
 * on the way down, after the core has taken the CPU's events off.
 *
 * CPU PM: a low-power state may lose the PMU's registers. On the way in
 * the events on the counters are stopped (their counts folded in); on the
 * way out the PMU is reset and they are started again.
 */

#define pr_fmt(fmt) "pmuv3: " fmt

#include <linux/bitfield.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/mod_devicetable.h>
#include <linux/nmi.h>
#include <linux/of.h>
#include <linux/perf/arm_pmu.h>
#include <linux/platform_device.h>
#include <linux/smp.h>

#include "perf_event_pmuv3.h"

struct pmuv3 *pmuv3_dev;

/*
 * Put this CPU's PMU in a known state: counter enables, interrupt enables
 * and overflow flags are UNKNOWN out of reset. Counters already handed to
 * events are left alone (CPU PM restarts them right after). Local CPU,
 * interrupts off.
 */
static void pmuv3_reset_cpu(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	u64 idle = p->cntr_mask & ~cpuc->used;
	u64 pmcr = ARMV8_PMU_PMCR_LC;

	lockdep_assert_irqs_disabled();
	pmuv3_counters_off(idle);

	if (p->long_evcntr)
		pmcr |= ARMV8_PMU_PMCR_LP;
	if (!cpuc->used)
		pmcr |= ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C;
	pmuv3_write_pmcr(pmcr);

	/* EL0 gets access again at the next ->pmu_enable that allows it */
	write_pmuserenr(0);
	isb();
}

/* the per-CPU side of the interrupt; on @cpu, interrupts off */
static void pmuv3_irq_on(struct pmuv3 *p)
{
	if (!p->irq)
		return;
	if (p->irq_is_nmi) {
		prepare_percpu_nmi(p->irq);
		enable_percpu_nmi(p->irq, IRQ_TYPE_NONE);
	} else {
		enable_percpu_irq(p->irq, IRQ_TYPE_NONE);
	}
}

static void pmuv3_irq_off(struct pmuv3 *p)
{
	if (!p->irq)
		return;
	if (p->irq_is_nmi) {
		disable_percpu_nmi(p->irq);
		teardown_percpu_nmi(p->irq);
	} else {
		disable_percpu_irq(p->irq);
	}
}

/* CPUHP_AP_PERF_ARM_STARTING: on the incoming @cpu, interrupts off */
static int pmuv3_cpu_starting(unsigned int cpu)
{
	struct pmuv3 *p = pmuv3_dev;

	if (!cpumask_test_cpu(cpu, &p->supported))
		return 0;
	pmuv3_reset_cpu(p, this_cpu_ptr(p->cpu));
	pmuv3_irq_on(p);
	return 0;
}

/* its teardown: on the outgoing @cpu, interrupts off, events gone */
static int pmuv3_cpu_dying(unsigned int cpu)
{
	struct pmuv3 *p = pmuv3_dev;

	if (!cpumask_test_cpu(cpu, &p->supported))
		return 0;
	pmuv3_irq_off(p);
	pmuv3_write_pmcr(read_pmcr() & ~ARMV8_PMU_PMCR_E);
	write_pmuserenr(0);
	return 0;
}

/*
 * CPU PM notifier: this CPU, interrupts off (from the idle or suspend
 * path). A pseudo-NMI can still arrive; stopping an event turns off its
 * counter and clears its overflow flag first, so the handler finds
 * nothing of it.
 */
static int pmuv3_cpu_pm(struct notifier_block *nb, unsigned long action,
			void *unused)
{
	struct pmuv3 *p = pmuv3_dev;
	struct pmuv3_cpu *cpuc;
	unsigned long idxs;
	int idx;

	if (!cpumask_test_cpu(smp_processor_id(), &p->supported))
		return NOTIFY_DONE;
	lockdep_assert_irqs_disabled();
	cpuc = this_cpu_ptr(p->cpu);

	switch (action) {
	case CPU_PM_ENTER:
		idxs = cpuc->used;
		cpuc->pm_stopped = 0;
		for_each_set_bit(idx, &idxs, PMUV3_NR_COUNTERS) {
			struct perf_event *event = cpuc->events[idx];

			/* the low half of a pair, or an event already off */
			if (!event || (event->hw.state & PERF_HES_STOPPED))
				continue;
			pmuv3_stop(event, PERF_EF_UPDATE);
			cpuc->pm_stopped |= BIT(idx);
		}
		return NOTIFY_OK;
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		pmuv3_reset_cpu(p, cpuc);
		idxs = cpuc->pm_stopped;
		cpuc->pm_stopped = 0;
		/* ->start turns the PMU on unless the core holds it off */
		for_each_set_bit(idx, &idxs, PMUV3_NR_COUNTERS)
			pmuv3_start(cpuc->events[idx], PERF_EF_RELOAD);
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block pmuv3_cpu_pm_nb = {
	.notifier_call = pmuv3_cpu_pm,
};

/**
 * arm_pmu_irq_is_nmi() - are PMU overflows delivered as NMIs?
 *
 * The arm64 perf hard-lockup detector runs only if so.
 *
 * Context: any.
 *
 * Return: true when the PMU's interrupt was requested as a pseudo-NMI.
 */
bool arm_pmu_irq_is_nmi(void)
{
	struct pmuv3 *p = READ_ONCE(pmuv3_dev);

	return p && p->irq_is_nmi;
}

/* runs on one CPU of the PMU through an IPI: interrupts off */
static void pmuv3_read_ids(void *info)
{
	struct pmuv3 *p = info;
	u64 ceid0, ceid1;

	p->pmuver = read_pmuver();
	if (!pmuv3_implemented(p->pmuver))
		return;

	p->nr_evcntrs = FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr());
	p->cntr_mask = (BIT(p->nr_evcntrs) - 1) | BIT(PMUV3_CYCLE_IDX);

	/* low words: events 0x00..0x3f; high words: 0x4000..0x403f */
	ceid0 = read_pmceid0();
	ceid1 = read_pmceid1();
	p->pmceid = lower_32_bits(ceid0) | (u64)lower_32_bits(ceid1) << 32;
	p->pmceid_ext = upper_32_bits(ceid0) | (u64)upper_32_bits(ceid1) << 32;

	p->pmmir = is_pmuv3p4(p->pmuver) ? read_pmmir() : 0;
	p->long_evcntr = is_pmuv3p5(p->pmuver);
}

/*
 * Request the overflow interrupt, as an NMI if the irqchip can deliver
 * one, else as a normal per-CPU interrupt.
 */
static int pmuv3_request_irq(struct pmuv3 *p, struct device *dev)
{
	int ret;

	ret = request_percpu_nmi(p->irq, pmuv3_irq_handler, "arm-pmu", p->cpu);
	if (!ret) {
		p->irq_is_nmi = true;
		return 0;
	}

	ret = request_percpu_irq(p->irq, pmuv3_irq_handler, "arm-pmu", p->cpu);
	if (ret)
		dev_err(dev, "cannot request IRQ %d: %d\n", p->irq, ret);
	return ret;
}

static int pmuv3_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct pmuv3 *p;
	int nirqs, ret;

	/* one system-wide PMU; a second node would be another CPU type */
	if (pmuv3_dev)
		return dev_err_probe(dev, -EBUSY, "only one PMUv3 supported\n");

	p = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	/*
	 * A single per-CPU interrupt (PPI) serves every CPU. With none,
	 * the PMU still counts but cannot sample.
	 */
	cpumask_copy(&p->supported, cpu_possible_mask);
	nirqs = platform_irq_count(pdev);
	if (nirqs < 0)
		return dev_err_probe(dev, nirqs, "cannot count IRQs\n");
	if (nirqs == 0) {
		dev_warn(dev, "no interrupt: sampling events not supported\n");
	} else {
		p->irq = platform_get_irq(pdev, 0);
		if (p->irq < 0)
			return p->irq;
		if (nirqs > 1 || !irq_is_percpu_devid(p->irq))
			return dev_err_probe(dev, -EINVAL,
					     "only a single per-CPU interrupt is supported\n");
	}

	ret = smp_call_function_any(&p->supported, pmuv3_read_ids, p, 1);
	if (ret)
		return ret;
	if (!pmuv3_implemented(p->pmuver))
		return dev_err_probe(dev, -ENODEV, "no PMUv3 on this CPU\n");

	p->cpu = alloc_percpu(struct pmuv3_cpu);
	if (!p->cpu)
		return -ENOMEM;

	pmuv3_setup_pmu(p, dev);

	if (p->irq) {
		ret = pmuv3_request_irq(p, dev);
		if (ret)
			goto free_cpu;
	}

	/* the hotplug, CPU PM and IRQ callbacks find us through this */
	WRITE_ONCE(pmuv3_dev, p);

	/* runs pmuv3_cpu_starting() on every CPU already up */
	ret = cpuhp_setup_state(CPUHP_AP_PERF_ARM_STARTING,
				"perf/arm64/pmuv3:starting",
				pmuv3_cpu_starting, pmuv3_cpu_dying);
	if (ret)
		goto free_irq;

	ret = cpu_pm_register_notifier(&pmuv3_cpu_pm_nb);
	if (ret)
		goto remove_hp;

	ret = pmuv3_user_sysctl_init();
	if (ret)
		goto remove_pm;

	ret = perf_pmu_register(&p->pmu, "armv8_pmuv3", -1);
	if (ret)
		goto remove_pm;

	dev_info(dev, "PMUv3 (ID_AA64DFR0_EL1.PMUVer %#x): %u event counters + cycle counter%s, %s\n",
		 p->pmuver, p->nr_evcntrs,
		 p->long_evcntr ? ", 64-bit event counters" : "",
		 !p->irq ? "no interrupt" :
		 p->irq_is_nmi ? "overflow NMI" : "overflow IRQ");
	return 0;

remove_pm:
	cpu_pm_unregister_notifier(&pmuv3_cpu_pm_nb);
remove_hp:
	cpuhp_remove_state(CPUHP_AP_PERF_ARM_STARTING);
free_irq:
	WRITE_ONCE(pmuv3_dev, NULL);
	if (p->irq) {
		if (p->irq_is_nmi)
			free_percpu_nmi(p->irq, p->cpu);
		else
			free_percpu_irq(p->irq, p->cpu);
	}
free_cpu:
	free_percpu(p->cpu);
	return ret;
}

static const struct of_device_id pmuv3_of_match[] = {
	{ .compatible = "arm,armv8-pmuv3" },
	/* CPU-specific compatibles: same architecture, same driver here */
	{ .compatible = "arm,cortex-a34-pmu" },
	{ .compatible = "arm,cortex-a35-pmu" },
	{ .compatible = "arm,cortex-a53-pmu" },
	{ .compatible = "arm,cortex-a55-pmu" },
	{ .compatible = "arm,cortex-a57-pmu" },
	{ .compatible = "arm,cortex-a65-pmu" },
	{ .compatible = "arm,cortex-a72-pmu" },
	{ .compatible = "arm,cortex-a73-pmu" },
	{ .compatible = "arm,cortex-a75-pmu" },
	{ .compatible = "arm,cortex-a76-pmu" },
	{ .compatible = "arm,cortex-a77-pmu" },
	{ .compatible = "arm,cortex-a78-pmu" },
	{ .compatible = "arm,neoverse-n1-pmu" },
	{ .compatible = "arm,neoverse-v1-pmu" },
	{ }
};

static struct platform_driver pmuv3_driver = {
	.driver = {
		.name			= "armv8-pmu",
		.of_match_table		= pmuv3_of_match,
		/* the PMU cannot be unregistered under running events */
		.suppress_bind_attrs	= true,
	},
	.probe = pmuv3_probe,
};

static int __init pmuv3_driver_init(void)
{
	int ret = platform_driver_register(&pmuv3_driver);

	/*
	 * Device tree PMUs are probed by the registration above. The perf
	 * hard-lockup detector found no PMU when it first tried: let it try
	 * again now that there is one.
	 */
	if (!ret && READ_ONCE(pmuv3_dev))
		lockup_detector_retry_init();
	return ret;
}
device_initcall(pmuv3_driver_init);

/**
 * perf_event_print_debug() - dump this CPU's PMU registers (SysRq-p)
 *
 * Context: any; reads only the local CPU's registers, with interrupts off.
 */
void perf_event_print_debug(void)
{
	unsigned long flags;

	if (!pmuv3_dev)
		return;

	local_irq_save(flags);
	pr_info("CPU%d PMCR %#llx CNTEN %#llx INTEN %#llx OVS %#llx CCNT %#llx\n",
		smp_processor_id(), read_pmcr(), read_sysreg(pmcntenset_el0),
		read_sysreg(pmintenset_el1), read_pmovsclr(), read_pmccntr());
	local_irq_restore(flags);
}

