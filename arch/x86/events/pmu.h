/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events: what the vendor-neutral part of the core PMU driver
 * (the .c files of arch/x86/events) and the vendor parts (intel/, amd/) share.
 *
 * One core PMU per system, named "cpu" with type PERF_TYPE_RAW. Counters
 * are numbered as Intel numbers the bits of IA32_PERF_GLOBAL_CTRL: the
 * general-purpose counters from 0, the fixed-function ones from
 * INTEL_PMC_IDX_FIXED (32). AMD has only general-purpose counters, and
 * its PerfMonV2 global registers use the same low bits, so one 64-bit
 * mask describes a set of counters on every vendor.
 *
 * The vendor part describes its hardware in struct x86_core and supplies
 * the few operations that differ (struct x86_core_ops); everything that
 * follows from "a counter of some width that counts an event selected by
 * a control value" is generic.
 */
#ifndef _ARCH_X86_EVENTS_PMU_H
#define _ARCH_X86_EVENTS_PMU_H

#include <linux/perf_event.h>
#include <linux/types.h>

#include <asm/perf_event.h>

struct x86_core;
struct x86_cpu_pmu;

/* the counter indexes a u64 set can name */
#define X86_NR_IDX		64
#define X86_FIXED(i)		(INTEL_PMC_IDX_FIXED + (i))
#define X86_IS_FIXED(idx)	((idx) >= INTEL_PMC_IDX_FIXED)

/* generic cache event map: [type][op][result], 0 = not offered */
typedef u64 x86_cache_map_t[PERF_COUNT_HW_CACHE_MAX]
			   [PERF_COUNT_HW_CACHE_OP_MAX]
			   [PERF_COUNT_HW_CACHE_RESULT_MAX];

/*
 * A counter restriction: events whose control value, under @mask, equals
 * @code may only use the counters in @cntrs. A table ends at @mask == 0.
 */
struct x86_constraint {
	u64	code;
	u64	mask;
	u64	cntrs;
};

/* match an event select and unit mask exactly */
#define X86_CONSTRAIN_EVENT_UMASK(c, n) \
	{ .code = (c), .mask = ARCH_PERFMON_EVENTSEL_EVENT | \
			       ARCH_PERFMON_EVENTSEL_UMASK, .cntrs = (n) }
/* match an event select, any unit mask */
#define X86_CONSTRAIN_EVENT(c, n) \
	{ .code = (c), .mask = ARCH_PERFMON_EVENTSEL_EVENT, .cntrs = (n) }

/**
 * struct x86_core_ops - what a vendor part does its own way
 * @hw_config: check and complete hw.config of a new event (vendor bits
 *	of the raw encoding, privilege filters); 0 or a negative errno
 * @fixed_for: the fixed counters (as a set) that can count hw.config,
 *	0 when none can; NULL when the vendor has none
 * @program: write the control of @event's counter (hw.idx), counting
 *	when @on; on a GP counter this is the event select with or without
 *	EN, on a fixed counter its field of the fixed control register
 * @enable_all: let the counters in @cpuc->used count (global enable)
 * @disable_all: stop every counter of this CPU (global disable)
 * @overflowed: the set of counters with a pending overflow
 * @ack: clear the overflow status of @cntrs
 * @reset_cpu: put this CPU's PMU in a known, idle state
 *
 * All but @hw_config and @fixed_for run on the CPU concerned with
 * interrupts off (or in NMI); @hw_config runs at perf_event_open().
 */
struct x86_core_ops {
	int (*hw_config)(struct perf_event *event);
	u64 (*fixed_for)(u64 config);
	void (*program)(struct perf_event *event, bool on);
	void (*enable_all)(struct x86_cpu_pmu *cpuc);
	void (*disable_all)(struct x86_cpu_pmu *cpuc);
	u64 (*overflowed)(struct x86_cpu_pmu *cpuc);
	void (*ack)(u64 cntrs);
	void (*reset_cpu)(void);
};

/**
 * struct x86_core - the core PMU a vendor part found
 * @name: sysfs caps/pmu_name, or NULL for none (AMD has none)
 * @vendor: for the boot log
 * @version: Intel architectural perfmon version; on AMD 2 with
 *	PerfMonV2, else 0
 * @gated: no global enable: each counter is started and frozen by the
 *	enable bit of its own control (Intel v1, AMD before PerfMonV2)
 * @ops: vendor operations
 * @gp: the general-purpose counters, as a set (bits 0..)
 * @fixed: the fixed-function counters, as a set (bits 32..)
 * @gp_width: bits of a general-purpose counter
 * @fixed_width: bits of a fixed counter
 * @max_period: the longest period one counter write can program
 * @raw_mask: event-select bits a PERF_TYPE_RAW config may set
 * @evtsel_msr: MSR of GP counter 0's event select
 * @ctr_msr: MSR of GP counter 0's count
 * @msr_stride: distance between consecutive GP counters' MSRs
 * @hw_map: PERF_COUNT_HW_* to event select, 0 where not offered
 * @cache_map: PERF_TYPE_HW_CACHE to event select, 0 where not offered
 * @constraints: counter restrictions of this model, or NULL
 * @arch_events_absent: CPUID.0AH:EBX, the architectural events missing
 * @arch_events_len: how many bits of it are defined (CPUID.0AH:EAX[31:24])
 * @format: sysfs format/ attributes
 * @events: sysfs events/ attributes (generic aliases this CPU offers)
 *
 * Filled once at boot, read-only afterwards.
 */
struct x86_core {
	const char			*name;
	const char			*vendor;
	unsigned int			version;
	bool				gated;
	const struct x86_core_ops	*ops;
	u64				gp;
	u64				fixed;
	unsigned int			gp_width;
	unsigned int			fixed_width;
	u64				max_period;
	u64				raw_mask;
	unsigned int			evtsel_msr;
	unsigned int			ctr_msr;
	unsigned int			msr_stride;
	u64				hw_map[PERF_COUNT_HW_MAX];
	const x86_cache_map_t		*cache_map;
	const struct x86_constraint	*constraints;
	unsigned int			arch_events_absent;
	unsigned int			arch_events_len;
	struct attribute		**format;
	struct attribute		**events;
};

/**
 * struct x86_cpu_pmu - one CPU's counters
 * @events: the event on each counter, NULL when free
 * @used: counters taken by events (whether started or stopped)
 * @running: counters whose event is started
 * @dirty: counters written since the last perf_clear_dirty_counters()
 *	that no longer hold an event
 * @frozen: the core has this CPU's PMU disabled (pmu_disable)
 * @guest_only: counters of events that exclude the host
 * @host_only: counters of events that exclude guests
 * @fixed_ctrl: what this CPU's fixed-counter control register holds
 *
 * Only touched on its own CPU with interrupts off; the PMI reads it in
 * NMI, which is why updates that the PMI must see whole (events[] and
 * @used) are made while the PMU is frozen or the counter stopped.
 */
struct x86_cpu_pmu {
	struct perf_event	*events[X86_NR_IDX];
	u64			used;
	u64			running;
	u64			dirty;
	bool			frozen;
	u64			guest_only;
	u64			host_only;
	u64			fixed_ctrl;
};

extern struct x86_core x86_core;
DECLARE_PER_CPU(struct x86_cpu_pmu, x86_cpu_pmu);

bool x86_core_event(struct perf_event *event);

/* vendor probes: fill x86_core and return 0, or -ENODEV */
int intel_core_probe(struct x86_core *core);
int amd_core_probe(struct x86_core *core);

/* counters.c */
u64 x86_allowed_counters(const struct x86_core *core, u64 config);
int x86_assign(u64 *allowed, int n, u64 busy, int *idx);
int x86_validate_group(struct perf_event *event);

/* event.c */
extern atomic_t x86_nr_events;
int x86_event_init(struct perf_event *event);

/* hw.c */
u64 x86_event_update(struct perf_event *event);
bool x86_set_period(struct perf_event *event);
int x86_pmu_add(struct perf_event *event, int flags);
void x86_pmu_del(struct perf_event *event, int flags);
void x86_pmu_start(struct perf_event *event, int flags);
void x86_pmu_stop(struct perf_event *event, int flags);
void x86_pmu_read(struct perf_event *event);
void x86_pmu_enable(struct pmu *pmu);
void x86_pmu_disable(struct pmu *pmu);

/* pmi.c */
int x86_pmi_init(void);
u64 x86_gate_overflowed(struct x86_cpu_pmu *cpuc);
void x86_gate_ack(u64 cntrs);

/* rdpmc.c */
extern int x86_rdpmc_policy;
void x86_event_mapped(struct perf_event *event, struct mm_struct *mm);
void x86_event_unmapped(struct perf_event *event, struct mm_struct *mm);
int x86_event_idx(struct perf_event *event);

/* sysfs.c */
extern const struct attribute_group *x86_attr_groups[];
extern struct device_attribute dev_attr_rdpmc;
void x86_sysfs_init(void);

/* per-counter gating, for PMUs without a global enable */
void x86_gate_enable_all(struct x86_cpu_pmu *cpuc);
void x86_gate_disable_all(struct x86_cpu_pmu *cpuc);

/* the counter's MSR and its event select's, for GP counter @idx */
static inline unsigned int x86_gp_evtsel(const struct x86_core *core, int idx)
{
	return core->evtsel_msr + idx * core->msr_stride;
}

static inline unsigned int x86_gp_ctr(const struct x86_core *core, int idx)
{
	return core->ctr_msr + idx * core->msr_stride;
}

/* the value mask of the counter at @idx */
static inline u64 x86_cntr_mask(const struct x86_core *core, int idx)
{
	unsigned int width = X86_IS_FIXED(idx) ? core->fixed_width :
						 core->gp_width;

	return GENMASK_ULL(width - 1, 0);
}

#endif /* _ARCH_X86_EVENTS_PMU_H */
