// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: finding the PMUs and keeping each CPU's PMU ready.
 *
 * (ACPI systems: perf_event_acpi.c finds the PMUs and registers them
 * through pmuv3_register() below, as device tree probing does.)
 *
 * A system whose CPUs are all of one kind has one PMUv3 node in its device
 * tree; one with several kinds (big.LITTLE, DynamIQ) has one node per kind,
 * each naming the CPUs it covers. Every node becomes its own struct pmu,
 * named after its compatible ("armv8_pmuv3", "armv8_cortex_a55", ...),
 * with its own type, its own cpus attribute and its own counters: an
 * event of one only ever runs on that PMU's CPUs (->filter), so a task
 * migrating between kinds counts only while on the kind it asked for.
 * Each CPU belongs to at most one PMU (pmuv3_of_cpu).
 *
 * Probe reads the PMU's identity on one of its CPUs, requests the overflow
 * interrupts and registers the PMU with the core. The interrupts come in
 * one of two wirings:
 *   - one per-CPU interrupt (a PPI) for all the PMU's CPUs; a PPI split
 *     between CPU kinds by the GIC's ppi-partitions gives each partition
 *     its own interrupt number and CPU set;
 *   - one shared interrupt (an SPI) per CPU, in the node's
 *     interrupt-affinity order (without that property, interrupt i is
 *     taken to be CPU i's), each routed to its CPU only.
 * Either is requested as a pseudo-NMI when the GIC offers them
 * (CONFIG_ARM64_PSEUDO_NMI and irqchip.gicv3_pseudo_nmi=1): overflows are
 * then taken even inside local_irq_save() regions, which is what makes
 * samples of IRQs-off code, and the perf hard-lockup detector, possible.
 * Without pseudo-NMIs they are ordinary interrupts. A node without
 * interrupts gives a PMU of every CPU that counts but cannot sample.
 *
 * Each CPU's PMU is reset and its interrupt enabled in the STARTING
 * hotplug step (one instance per PMU), on the incoming CPU with interrupts
 * off, before the core's own step schedules any event there; the teardown
 * runs at the same point on the way down, after the core has taken the
 * CPU's events off.
 *
 * CPU PM: a low-power state may lose the PMU's registers. On the way in
 * the events on the counters are stopped (their counts folded in); on the
 * way out the PMU is reset and they are started again.
 */

#define pr_fmt(fmt) "pmuv3: " fmt

#include <linux/acpi.h>
#include <linux/bitfield.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/nmi.h>
#include <linux/of.h>
#include <linux/perf/arm_pmu.h>
#include <linux/platform_device.h>
#include <linux/smp.h>

#include "perf_event_pmuv3.h"

DEFINE_PER_CPU_READ_MOSTLY(struct pmuv3 *, pmuv3_of_cpu);

/*
 * Probes of different nodes may run concurrently: the lock makes claiming
 * CPUs in pmuv3_of_cpu and the once-only setup below atomic.
 */
static DEFINE_MUTEX(pmuv3_probe_lock);
static bool pmuv3_sysctl_done;
/* some PMU is registered; one of them takes its overflows as NMIs */
static bool pmuv3_registered;
static bool pmuv3_nmi;

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

/*
 * The local CPU's overflow interrupt on and off: a per-CPU interrupt is
 * switched in this CPU's GIC redistributor, a shared one (routed to this
 * CPU alone) at the distributor. On the CPU, interrupts off.
 */
static void pmuv3_irq_on(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	if (!cpuc->irq)
		return;
	if (p->ppi && p->irq_is_nmi) {
		prepare_percpu_nmi(cpuc->irq);
		enable_percpu_nmi(cpuc->irq, IRQ_TYPE_NONE);
	} else if (p->ppi) {
		enable_percpu_irq(cpuc->irq, IRQ_TYPE_NONE);
	} else if (p->irq_is_nmi) {
		enable_nmi(cpuc->irq);
	} else {
		enable_irq(cpuc->irq);
	}
}

static void pmuv3_irq_off(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	if (!cpuc->irq)
		return;
	if (p->ppi && p->irq_is_nmi) {
		disable_percpu_nmi(cpuc->irq);
		teardown_percpu_nmi(cpuc->irq);
	} else if (p->ppi) {
		disable_percpu_irq(cpuc->irq);
	} else if (p->irq_is_nmi) {
		disable_nmi_nosync(cpuc->irq);
	} else {
		disable_irq_nosync(cpuc->irq);
	}
}

/* CPUHP_AP_PERF_ARM_STARTING, one instance per PMU: on @cpu, irqs off */
static int pmuv3_cpu_starting(unsigned int cpu, struct hlist_node *node)
{
	struct pmuv3 *p = hlist_entry(node, struct pmuv3, node);
	struct pmuv3_cpu *cpuc;

	if (!cpumask_test_cpu(cpu, &p->arm.supported_cpus))
		return 0;
	cpuc = this_cpu_ptr(p->cpu);
	pmuv3_reset_cpu(p, cpuc);
	pmuv3_irq_on(p, cpuc);
	return 0;
}

/* its teardown: on the outgoing @cpu, interrupts off, events gone */
static int pmuv3_cpu_dying(unsigned int cpu, struct hlist_node *node)
{
	struct pmuv3 *p = hlist_entry(node, struct pmuv3, node);

	if (!cpumask_test_cpu(cpu, &p->arm.supported_cpus))
		return 0;
	pmuv3_irq_off(p, this_cpu_ptr(p->cpu));
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
	struct pmuv3 *p = this_cpu_read(pmuv3_of_cpu);
	struct pmuv3_cpu *cpuc;
	unsigned long idxs;
	int idx;

	/* a CPU no PMU serves, or one whose PMU is still being probed */
	if (!p || !READ_ONCE(p->live))
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
 * Return: true when a PMU's interrupts were requested as pseudo-NMIs.
 */
bool arm_pmu_irq_is_nmi(void)
{
	return READ_ONCE(pmuv3_nmi);
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
 * The CPU that shared interrupt @i of the node serves: from
 * interrupt-affinity, else CPU @i. nr_cpu_ids for a CPU this kernel does
 * not know (nr_cpus=, or a node for CPUs that are not described).
 */
static int pmuv3_spi_cpu(struct device *dev, int i, bool has_affinity)
{
	struct device_node *cpu_node;
	int cpu;

	if (!has_affinity)
		return i < nr_cpu_ids ? i : nr_cpu_ids;

	cpu_node = of_parse_phandle(dev->of_node, "interrupt-affinity", i);
	if (!cpu_node)
		return dev_err_probe(dev, -EINVAL,
				     "interrupt %d has no interrupt-affinity entry\n", i);
	cpu = of_cpu_node_to_id(cpu_node);
	of_node_put(cpu_node);
	return cpu < 0 ? nr_cpu_ids : cpu;
}

/*
 * Work out the node's interrupt wiring (see the top of this file) and with
 * it the CPUs the PMU serves: p->arm.supported_cpus, p->ppi, each CPU's irq.
 */
static int pmuv3_parse_irqs(struct pmuv3 *p, struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	bool has_affinity;
	int cpu, i, irq, n, ret;

	n = platform_irq_count(pdev);
	if (n < 0)
		return dev_err_probe(dev, n, "cannot count IRQs\n");
	if (n == 0) {
		dev_warn(dev, "no interrupt: sampling events not supported\n");
		cpumask_copy(&p->arm.supported_cpus, cpu_possible_mask);
		return 0;
	}

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	if (irq_is_percpu_devid(irq)) {
		if (n > 1)
			return dev_err_probe(dev, -EINVAL,
					     "a per-CPU interrupt must be the only one\n");
		/* the whole PPI, or the CPUs of its partition */
		ret = irq_get_percpu_devid_partition(irq, &p->arm.supported_cpus);
		if (ret)
			return ret;
		for_each_cpu(cpu, &p->arm.supported_cpus)
			per_cpu_ptr(p->cpu, cpu)->irq = irq;
		p->ppi = irq;
		p->has_irq = true;
		return 0;
	}

	has_affinity = of_property_present(dev->of_node, "interrupt-affinity");
	if (!has_affinity && num_possible_cpus() > 1)
		dev_warn(dev, "no interrupt-affinity: taking interrupt i for CPU i\n");

	for (i = 0; i < n; i++) {
		irq = platform_get_irq(pdev, i);
		if (irq < 0)
			return irq;
		if (irq_is_percpu_devid(irq))
			return dev_err_probe(dev, -EINVAL,
					     "per-CPU and shared interrupts mixed\n");
		cpu = pmuv3_spi_cpu(dev, i, has_affinity);
		if (cpu < 0)
			return cpu;
		if (cpu >= nr_cpu_ids)
			continue;
		if (cpumask_test_and_set_cpu(cpu, &p->arm.supported_cpus))
			return dev_err_probe(dev, -EINVAL,
					     "two interrupts for CPU%d\n", cpu);
		per_cpu_ptr(p->cpu, cpu)->irq = irq;
	}
	if (cpumask_empty(&p->arm.supported_cpus))
		return dev_err_probe(dev, -ENODEV, "no known CPU for any interrupt\n");
	p->has_irq = true;
	return 0;
}

static void pmuv3_free_spis(struct pmuv3 *p, const struct cpumask *cpus,
			    bool nmi)
{
	int cpu;

	for_each_cpu(cpu, cpus) {
		struct pmuv3_cpu *cpuc = per_cpu_ptr(p->cpu, cpu);

		if (nmi)
			free_nmi(cpuc->irq, cpuc);
		else
			free_irq(cpuc->irq, cpuc);
	}
}

/*
 * One shared interrupt per CPU, each pinned to its CPU and left disabled
 * until that CPU's STARTING step. All NMIs or all ordinary interrupts: if
 * one cannot be an NMI, none is.
 */
static int pmuv3_request_spis(struct pmuv3 *p)
{
	const unsigned long flags = IRQF_PERCPU | IRQF_NOBALANCING |
				    IRQF_NO_AUTOEN | IRQF_NO_THREAD;
	cpumask_var_t done;
	int cpu, ret = 0;
	bool nmi;

	if (!zalloc_cpumask_var(&done, GFP_KERNEL))
		return -ENOMEM;
	for (nmi = true; ; nmi = false) {
		for_each_cpu(cpu, &p->arm.supported_cpus) {
			struct pmuv3_cpu *cpuc = per_cpu_ptr(p->cpu, cpu);

			if (nmi)
				ret = request_nmi(cpuc->irq, pmuv3_irq_handler,
						  flags, "arm-pmu", cpuc);
			else
				ret = request_irq(cpuc->irq, pmuv3_irq_handler,
						  flags, "arm-pmu", cpuc);
			if (ret)
				break;
			cpumask_set_cpu(cpu, done);
			ret = irq_force_affinity(cpuc->irq, cpumask_of(cpu));
			if (ret)
				break;
		}
		if (!ret) {
			p->irq_is_nmi = nmi;
			break;
		}
		pmuv3_free_spis(p, done, nmi);
		cpumask_clear(done);
		if (!nmi) {
			pr_err("%s: cannot request the IRQ of CPU%d: %d\n",
			       p->name, cpu, ret);
			break;
		}
	}
	free_cpumask_var(done);
	return ret;
}

/*
 * Request the overflow interrupts, as NMIs if the irqchip can deliver
 * them, else as normal interrupts.
 */
static int pmuv3_request_irqs(struct pmuv3 *p)
{
	int ret;

	if (!p->has_irq)
		return 0;
	if (!p->ppi)
		return pmuv3_request_spis(p);

	ret = request_percpu_nmi(p->ppi, pmuv3_irq_handler, "arm-pmu", p->cpu);
	if (!ret) {
		p->irq_is_nmi = true;
		return 0;
	}
	ret = request_percpu_irq(p->ppi, pmuv3_irq_handler, "arm-pmu", p->cpu);
	if (ret)
		pr_err("%s: cannot request IRQ %d: %d\n", p->name, p->ppi, ret);
	return ret;
}

static void pmuv3_free_irqs(struct pmuv3 *p)
{
	if (!p->has_irq)
		return;
	if (!p->ppi)
		pmuv3_free_spis(p, &p->arm.supported_cpus, p->irq_is_nmi);
	else if (p->irq_is_nmi)
		free_percpu_nmi(p->ppi, p->cpu);
	else
		free_percpu_irq(p->ppi, p->cpu);
}

/* take the PMU's CPUs, none of which may have a PMU yet */
static int pmuv3_claim_cpus(struct pmuv3 *p)
{
	int cpu;

	lockdep_assert_held(&pmuv3_probe_lock);
	for_each_cpu(cpu, &p->arm.supported_cpus) {
		if (per_cpu(pmuv3_of_cpu, cpu)) {
			pr_err("%s: CPU%d already has a PMU (%s)\n", p->name,
			       cpu, per_cpu(pmuv3_of_cpu, cpu)->name);
			return -EBUSY;
		}
	}
	for_each_cpu(cpu, &p->arm.supported_cpus) {
		per_cpu_ptr(p->cpu, cpu)->pmu = p;
		per_cpu(pmuv3_of_cpu, cpu) = p;
	}
	return 0;
}

static void pmuv3_release_cpus(struct pmuv3 *p)
{
	int cpu;

	lockdep_assert_held(&pmuv3_probe_lock);
	for_each_cpu(cpu, &p->arm.supported_cpus)
		per_cpu(pmuv3_of_cpu, cpu) = NULL;
}

/* the PMU's identity, read on one of its CPUs that is online */
static int pmuv3_identify(struct pmuv3 *p)
{
	int ret = smp_call_function_any(&p->arm.supported_cpus, pmuv3_read_ids, p, 1);

	if (ret) {
		pr_err("%s: none of its CPUs is online\n", p->name);
		return ret;
	}
	if (!pmuv3_implemented(p->pmuver)) {
		pr_err("%s: no PMUv3 on CPU%d\n", p->name,
		       cpumask_first(&p->arm.supported_cpus));
		return -ENODEV;
	}
	return 0;
}

/**
 * pmuv3_register() - bring up and register one PMU
 * @p: the PMU, its @name, @cpu, @arm.supported_cpus and interrupt wiring
 *	(@ppi, @has_irq, each CPU's irq) filled in by the caller
 * @dev: the device it was probed from, or NULL (ACPI)
 *
 * Claims its CPUs, reads its identity on one of them, requests its
 * interrupts, starts it on its CPUs that are up and registers it with the
 * core. Undoes all of that on failure; @p and @p->cpu stay the caller's
 * to free.
 *
 * Context: process context; takes the probe lock and CPU hotplug lock.
 *
 * Return: 0 or a negative errno.
 */
int pmuv3_register(struct pmuv3 *p, struct device *dev)
{
	int ret;

	mutex_lock(&pmuv3_probe_lock);
	ret = pmuv3_claim_cpus(p);
	if (ret)
		goto unlock;
	ret = pmuv3_identify(p);
	if (ret)
		goto release;

	pmuv3_setup_pmu(p, dev);
	ret = pmuv3_request_irqs(p);
	if (ret)
		goto release;

	/* runs pmuv3_cpu_starting() on each of its CPUs already up */
	ret = cpuhp_state_add_instance(CPUHP_AP_PERF_ARM_STARTING, &p->node);
	if (ret)
		goto free_irqs;
	WRITE_ONCE(p->live, true);

	if (!pmuv3_sysctl_done) {
		ret = pmuv3_user_sysctl_init();
		if (ret)
			goto remove_hp;
		pmuv3_sysctl_done = true;
	}

	ret = perf_pmu_register(&p->arm.pmu, p->name, -1);
	if (ret)
		goto remove_hp;

	/* offer it to KVM's vPMU */
	kvm_host_pmu_init(&p->arm);
	WRITE_ONCE(pmuv3_registered, true);
	if (p->irq_is_nmi)
		WRITE_ONCE(pmuv3_nmi, true);
	pr_info("%s, CPUs %*pbl, PMUVer %#x: %u event counters + cycle counter%s, %s\n",
		p->name, cpumask_pr_args(&p->arm.supported_cpus), p->pmuver,
		p->nr_evcntrs,
		p->long_evcntr ? ", 64-bit event counters" : "",
		!p->has_irq ? "no interrupt" :
		p->irq_is_nmi ? "overflow NMI" : "overflow IRQ");
	mutex_unlock(&pmuv3_probe_lock);
	return 0;

remove_hp:
	WRITE_ONCE(p->live, false);
	cpuhp_state_remove_instance(CPUHP_AP_PERF_ARM_STARTING, &p->node);
free_irqs:
	pmuv3_free_irqs(p);
release:
	pmuv3_release_cpus(p);
	/* CPU PM (interrupts off) may still hold @p; it is freed on return */
	synchronize_rcu();
unlock:
	mutex_unlock(&pmuv3_probe_lock);
	return ret;
}

static int pmuv3_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct pmuv3 *p;
	int ret;

	p = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	/* the upstream name of the CPU type, for perf's event lists */
	p->name = of_device_get_match_data(dev);
	p->cpu = alloc_percpu(struct pmuv3_cpu);
	if (!p->cpu)
		return -ENOMEM;

	ret = pmuv3_parse_irqs(p, pdev);
	if (!ret)
		ret = pmuv3_register(p, dev);
	if (ret)
		free_percpu(p->cpu);
	return ret;
}

static const struct of_device_id pmuv3_of_match[] = {
	{ .compatible = "arm,armv8-pmuv3",	.data = "armv8_pmuv3" },
	/* CPU-specific compatibles: same architecture, same driver here */
	{ .compatible = "arm,cortex-a34-pmu",	.data = "armv8_cortex_a34" },
	{ .compatible = "arm,cortex-a35-pmu",	.data = "armv8_cortex_a35" },
	{ .compatible = "arm,cortex-a53-pmu",	.data = "armv8_cortex_a53" },
	{ .compatible = "arm,cortex-a55-pmu",	.data = "armv8_cortex_a55" },
	{ .compatible = "arm,cortex-a57-pmu",	.data = "armv8_cortex_a57" },
	{ .compatible = "arm,cortex-a65-pmu",	.data = "armv8_cortex_a65" },
	{ .compatible = "arm,cortex-a72-pmu",	.data = "armv8_cortex_a72" },
	{ .compatible = "arm,cortex-a73-pmu",	.data = "armv8_cortex_a73" },
	{ .compatible = "arm,cortex-a75-pmu",	.data = "armv8_cortex_a75" },
	{ .compatible = "arm,cortex-a76-pmu",	.data = "armv8_cortex_a76" },
	{ .compatible = "arm,cortex-a77-pmu",	.data = "armv8_cortex_a77" },
	{ .compatible = "arm,cortex-a78-pmu",	.data = "armv8_cortex_a78" },
	{ .compatible = "arm,cortex-a510-pmu",	.data = "armv9_cortex_a510" },
	{ .compatible = "arm,cortex-a520-pmu",	.data = "armv9_cortex_a520" },
	{ .compatible = "arm,cortex-a710-pmu",	.data = "armv9_cortex_a710" },
	{ .compatible = "arm,cortex-a715-pmu",	.data = "armv9_cortex_a715" },
	{ .compatible = "arm,cortex-a720-pmu",	.data = "armv9_cortex_a720" },
	{ .compatible = "arm,cortex-a725-pmu",	.data = "armv9_cortex_a725" },
	{ .compatible = "arm,cortex-x1-pmu",	.data = "armv8_cortex_x1" },
	{ .compatible = "arm,cortex-x2-pmu",	.data = "armv9_cortex_x2" },
	{ .compatible = "arm,cortex-x3-pmu",	.data = "armv9_cortex_x3" },
	{ .compatible = "arm,cortex-x4-pmu",	.data = "armv9_cortex_x4" },
	{ .compatible = "arm,cortex-x925-pmu",	.data = "armv9_cortex_x925" },
	{ .compatible = "arm,neoverse-e1-pmu",	.data = "armv8_neoverse_e1" },
	{ .compatible = "arm,neoverse-n1-pmu",	.data = "armv8_neoverse_n1" },
	{ .compatible = "arm,neoverse-n2-pmu",	.data = "armv9_neoverse_n2" },
	{ .compatible = "arm,neoverse-n3-pmu",	.data = "armv9_neoverse_n3" },
	{ .compatible = "arm,neoverse-v1-pmu",	.data = "armv8_neoverse_v1" },
	{ .compatible = "arm,neoverse-v2-pmu",	.data = "armv8_neoverse_v2" },
	{ .compatible = "arm,neoverse-v3-pmu",	.data = "armv8_neoverse_v3" },
	{ .compatible = "arm,neoverse-v3ae-pmu", .data = "armv8_neoverse_v3ae" },
	{ .compatible = "nvidia,carmel-pmu",	.data = "armv8_nvidia_carmel" },
	{ .compatible = "nvidia,denver-pmu",	.data = "armv8_nvidia_denver" },
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
	int ret;

	/* the STARTING step of every PMU; probe adds one instance each */
	ret = cpuhp_setup_state_multi(CPUHP_AP_PERF_ARM_STARTING,
				      "perf/arm64/pmuv3:starting",
				      pmuv3_cpu_starting, pmuv3_cpu_dying);
	if (ret)
		return ret;
	ret = cpu_pm_register_notifier(&pmuv3_cpu_pm_nb);
	if (ret)
		goto remove_hp;
	ret = platform_driver_register(&pmuv3_driver);
	if (ret)
		goto remove_pm;
	/* an ACPI system describes its PMUs in the MADT instead */
	if (!acpi_disabled && pmuv3_acpi_probe())
		pr_err("ACPI PMU probe ran out of memory\n");

	/*
	 * Device tree PMUs are probed by the registration above. The perf
	 * hard-lockup detector found no PMU when it first tried: let it try
	 * again now that there is one.
	 */
	if (READ_ONCE(pmuv3_registered))
		lockup_detector_retry_init();
	return 0;

remove_pm:
	cpu_pm_unregister_notifier(&pmuv3_cpu_pm_nb);
remove_hp:
	cpuhp_remove_multi_state(CPUHP_AP_PERF_ARM_STARTING);
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
	struct pmuv3 *p;

	local_irq_save(flags);
	p = this_cpu_read(pmuv3_of_cpu);
	if (p && READ_ONCE(p->live))
		pr_info("CPU%d %s PMCR %#llx CNTEN %#llx INTEN %#llx OVS %#llx CCNT %#llx\n",
			smp_processor_id(), p->name, read_pmcr(),
			read_sysreg(pmcntenset_el0), read_sysreg(pmintenset_el1),
			read_pmovsclr(), read_pmccntr());
	local_irq_restore(flags);
}
