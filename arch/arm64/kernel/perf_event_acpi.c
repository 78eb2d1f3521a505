// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: finding the PMUs of an ACPI system.
 *
 * ACPI has no PMU device. Each CPU's GICC entry in the MADT gives the GSI
 * of its PMU overflow interrupt (and whether it is edge or level
 * triggered), and nothing says which CPUs share a PMU: CPUs are grouped by
 * their MIDR_EL1, one PMU per CPU type, named armv8_pmuv3_<n> in
 * the order found, as upstream names them. Each group is then brought up
 * and registered exactly as a device tree node is (pmuv3_register()).
 *
 * A CPU's MIDR is known once it has booted, so the CPUs grouped are those
 * that have been up by the time this runs (device_initcall, after SMP
 * bring-up): all of them unless the kernel was told to leave some down
 * (maxcpus=). A CPU first brought up later gets no PMU.
 */

#define pr_fmt(fmt) "pmuv3: " fmt

#include <linux/acpi.h>
#include <linux/cpumask.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include <asm/cpu.h>

#include "perf_event_pmuv3.h"

/* a CPU's PMU interrupt from its GICC entry: a Linux irq, 0 if none */
static int pmuv3_acpi_cpu_irq(int cpu)
{
	struct acpi_madt_generic_interrupt *gicc = acpi_cpu_get_madt_gicc(cpu);
	int trigger;

	if (!gicc || !gicc->performance_interrupt)
		return 0;
	if (gicc->flags & ACPI_MADT_PERFORMANCE_IRQ_MODE)
		trigger = ACPI_EDGE_SENSITIVE;
	else
		trigger = ACPI_LEVEL_SENSITIVE;
	return acpi_register_gsi(NULL, gicc->performance_interrupt, trigger,
				 ACPI_ACTIVE_HIGH);
}

/*
 * The interrupt wiring of @p's CPUs: one PPI for all of them, or an SPI
 * each; a group where some CPUs have an interrupt and some do not, or PPIs
 * and SPIs are mixed, cannot be driven.
 */
static int pmuv3_acpi_irqs(struct pmuv3 *p)
{
	unsigned int with = 0, spis = 0;
	int cpu, irq;

	for_each_cpu(cpu, &p->arm.supported_cpus) {
		irq = pmuv3_acpi_cpu_irq(cpu);
		if (irq < 0) {
			pr_err("%s: CPU%d's interrupt: %d\n", p->name, cpu, irq);
			return irq;
		}
		if (!irq)
			continue;
		per_cpu_ptr(p->cpu, cpu)->irq = irq;
		with++;
		if (!irq_is_percpu_devid(irq))
			spis++;
		else if (p->ppi && p->ppi != irq)
			goto mixed;
		else
			p->ppi = irq;
	}
	if (!with) {
		pr_warn("%s: no interrupt: sampling events not supported\n",
			p->name);
		return 0;
	}
	if (with != cpumask_weight(&p->arm.supported_cpus) || (spis && p->ppi))
		goto mixed;
	p->has_irq = true;
	return 0;

mixed:
	pr_err("%s: CPUs %*pbl: PMU interrupts missing or of mixed kinds\n",
	       p->name, cpumask_pr_args(&p->arm.supported_cpus));
	return -EINVAL;
}

/* take the CPUs of @left that share the first one's MIDR into @p */
static void pmuv3_acpi_group(struct pmuv3 *p, struct cpumask *left)
{
	u32 midr = per_cpu(cpu_data, cpumask_first(left)).reg_midr;
	int cpu;

	for_each_cpu(cpu, left)
		if (per_cpu(cpu_data, cpu).reg_midr == midr)
			cpumask_set_cpu(cpu, &p->arm.supported_cpus);
	cpumask_andnot(left, left, &p->arm.supported_cpus);
}

static void pmuv3_acpi_free(struct pmuv3 *p)
{
	free_percpu(p->cpu);
	kfree(p->name);
	kfree(p);
}

/**
 * pmuv3_acpi_probe() - register a PMU per CPU type described by ACPI
 *
 * A group that cannot be brought up is skipped; the others still are.
 *
 * Context: process context, at boot (device_initcall), !acpi_disabled.
 *
 * Return: 0 once every group was tried; -ENOMEM when out of memory.
 */
int __init pmuv3_acpi_probe(void)
{
	cpumask_var_t left;
	int cpu, n = 0;

	if (!alloc_cpumask_var(&left, GFP_KERNEL))
		return -ENOMEM;
	/* the CPUs that have booted: their MIDR is in cpu_data */
	cpumask_clear(left);
	for_each_possible_cpu(cpu)
		if (per_cpu(cpu_data, cpu).reg_midr)
			cpumask_set_cpu(cpu, left);

	while (!cpumask_empty(left)) {
		struct pmuv3 *p = kzalloc(sizeof(*p), GFP_KERNEL);

		if (p) {
			p->cpu = alloc_percpu(struct pmuv3_cpu);
			p->name = kasprintf(GFP_KERNEL, "armv8_pmuv3_%d", n);
		}
		if (!p || !p->cpu || !p->name) {
			if (p)
				pmuv3_acpi_free(p);
			free_cpumask_var(left);
			return -ENOMEM;
		}
		pmuv3_acpi_group(p, left);
		if (pmuv3_acpi_irqs(p) || pmuv3_register(p, NULL)) {
			pmuv3_acpi_free(p);
			continue;
		}
		n++;
	}
	free_cpumask_var(left);
	return 0;
}
