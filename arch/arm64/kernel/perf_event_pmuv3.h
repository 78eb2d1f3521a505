/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arm64 PMUv3 driver: what its files share.
 *
 *   perf_event.c        events, counters and the struct pmu callbacks,
 *                       the overflow handler
 *   perf_event_probe.c  finding the PMUs in the device tree, their
 *                       interrupts (NMIs when the GIC offers
 *                       pseudo-NMIs), registration, CPU hotplug, CPU PM
 *   perf_event_acpi.c   finding them on an ACPI system
 *   perf_event_user.c   counter access from EL0 (PMUSERENR_EL0, the
 *                       perf_user_access sysctl) and the user page
 *   perf_event_sysfs.c  format/, events/, caps/ and cpus
 *   perf_event_kunit.c  KUnit tests of CPU PM and the EL0 access gate
 */
#ifndef __ARM64_KERNEL_PERF_EVENT_PMUV3_H
#define __ARM64_KERNEL_PERF_EVENT_PMUV3_H

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqreturn.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>

/* counter indexes 0..30 are event counters, 31 the cycle counter */
#define PMUV3_NR_COUNTERS	32
#define PMUV3_CYCLE_IDX		ARMV8_PMU_CYCLE_IDX

/* the event number field of PMEVTYPER<n>_EL0 and of the user's config */
#define PMUV3_EVENT_MASK	ARMV8_PMU_EVTYPE_EVENT

/* PMCEID0/1 describe events 0x0000..0x003f and 0x4000..0x403f */
#define PMUV3_COMMON_EVENTS	64
#define PMUV3_EXT_EVENT_BASE	0x4000

/* attr.config1 fields (upstream's format/ names and positions) */
#define PMUV3_CFG1_LONG		BIT_ULL(0)
#define PMUV3_CFG1_RDPMC	BIT_ULL(1)
#define PMUV3_CFG1_TH_COUNT	BIT_ULL(2)
#define PMUV3_CFG1_TH_COMPARE	GENMASK_ULL(4, 3)
#define PMUV3_CFG1_THRESHOLD	GENMASK_ULL(16, 5)

/* hw_perf_event::flags, within PERF_EVENT_FLAG_ARCH */
#define PMUV3_F_LONG		BIT(0)	/* 64-bit event */

/* the filter and event bits we ever write to PMEVTYPER<n>_EL0 */
#define PMUV3_EVTYPER_MASK	(PMUV3_EVENT_MASK | ARMV8_PMU_INCLUDE_EL2 | \
				 ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1 | \
				 ARMV8_PMU_EVTYPE_TC | ARMV8_PMU_EVTYPE_TH)
/* PMCCFILTR_EL0 has the same filter bits but no event or threshold */
#define PMUV3_CCFILTR_MASK	(ARMV8_PMU_INCLUDE_EL2 | \
				 ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1)

/**
 * struct pmuv3_cpu - one CPU's counters
 * @events: the event on each counter; a chained event sits at its odd
 *	(high) index only, the even index below it is marked in @used
 * @used: counters taken, bit n = counter n (the cycle counter is bit 31)
 * @pm_stopped: counters whose events CPU PM stopped on the way into a
 *	low-power state, to be started again on the way out
 * @frozen: inside a ->pmu_disable/->pmu_enable section of the core; when
 *	not, ->start must switch the PMU on itself
 * @pmu: the PMU these counters belong to
 * @irq: this CPU's overflow interrupt (the PMU's PPI, or its own SPI);
 *	0 if it has none
 *
 * @pmu and @irq are set at probe, before the CPU's PMU is started, and
 * read-only after. The rest is only touched on its own CPU with
 * interrupts off. With pseudo-NMIs the
 * overflow handler can still run in the middle of any of that code: it
 * reads @events only for counters that overflowed, and a counter's slot
 * is filled before the counter is started and emptied after it stopped.
 */
struct pmuv3_cpu {
	struct perf_event	*events[PMUV3_NR_COUNTERS];
	unsigned long		used;
	unsigned long		pm_stopped;
	bool			frozen;
	struct pmuv3		*pmu;
	int			irq;
};

/**
 * struct pmuv3 - the PMU of one kind of CPU
 * @arm: what KVM's vPMU reads of a host PMU (linux/perf/arm_pmu.h): its
 *	@arm.pmu is what the perf core sees, @arm.supported_cpus the CPUs
 *	this PMU serves, @arm.cntr_mask, @arm.pmuver and the PMCEID bitmaps
 *	copies of the fields below; nothing else of it is used
 * @name: its name, after the device tree compatible it was probed from
 * @cpu: per-CPU counter state, also the per-CPU IRQ cookie
 * @cntr_mask: counters that exist (event counters 0..N-1 and bit 31)
 * @nr_evcntrs: N, the number of event counters
 * @pmceid: common events 0x00..0x3f the CPU implements (PMCEID0/1 low)
 * @pmceid_ext: common events 0x4000..0x403f it implements (PMCEID0/1 high)
 * @pmuver: ID_AA64DFR0_EL1.PMUVer
 * @pmmir: PMMIR_EL1 (PMUv3p4 and later), else 0
 * @long_evcntr: event counters are 64 bits wide (PMUv3p5, PMCR_EL0.LP)
 * @ppi: the per-CPU overflow interrupt of all @supported CPUs, or 0 when
 *	each CPU has its own shared interrupt (or there is none)
 * @has_irq: overflows raise an interrupt (sampling works)
 * @irq_is_nmi: the interrupts were requested as (pseudo-)NMIs
 * @live: the STARTING step has an instance for this PMU: its CPUs'
 *	counters are in use (CPU PM must save them)
 * @node: its instance of the CPUHP_AP_PERF_ARM_STARTING state
 *
 * Everything but @cpu and @live is written once at probe time and
 * read-only after.
 */
struct pmuv3 {
	struct arm_pmu		arm;
	const char		*name;
	struct pmuv3_cpu __percpu *cpu;
	unsigned long		cntr_mask;
	unsigned int		nr_evcntrs;
	u64			pmceid;
	u64			pmceid_ext;
	int			pmuver;
	u64			pmmir;
	bool			long_evcntr;
	int			ppi;
	bool			has_irq;
	bool			irq_is_nmi;
	bool			live;
	struct hlist_node	node;
};

/*
 * The PMU of each CPU (NULL for a CPU none serves), claimed at probe
 * under the probe lock; each CPU has at most one. CPU PM and SysRq find
 * the local CPU's PMU here, and only use it once it is @live.
 */
DECLARE_PER_CPU_READ_MOSTLY(struct pmuv3 *, pmuv3_of_cpu);

static inline struct pmuv3 *to_pmuv3(struct pmu *pmu)
{
	return container_of(pmu, struct pmuv3, arm.pmu);
}

/* perf_event.c */
bool pmuv3_has_common_event(struct pmuv3 *p, u64 id);
u32 pmuv3_threshold_max(struct pmuv3 *p);
void pmuv3_setup_pmu(struct pmuv3 *p, struct device *dev);
void pmuv3_start(struct perf_event *event, int flags);
void pmuv3_stop(struct perf_event *event, int flags);
void pmuv3_write_pmcr(u64 val);
void pmuv3_counters_off(u64 cntrs);
irqreturn_t pmuv3_irq_handler(int irq, void *dev);

/* perf_event_probe.c */
int pmuv3_register(struct pmuv3 *p, struct device *dev);

/* perf_event_acpi.c */
#ifdef CONFIG_ACPI
int pmuv3_acpi_probe(void);
#else
static inline int pmuv3_acpi_probe(void)
{
	return 0;
}
#endif

/* perf_event_user.c */
int pmuv3_user_event_init(struct pmuv3 *p, struct perf_event *event);
void pmuv3_user_access_update(struct pmuv3 *p, struct pmuv3_cpu *cpuc);
int pmuv3_event_idx(struct perf_event *event);
int pmuv3_user_sysctl_init(void);

/* perf_event_sysfs.c */
extern const struct attribute_group *pmuv3_attr_groups[];

#endif /* __ARM64_KERNEL_PERF_EVENT_PMUV3_H */
