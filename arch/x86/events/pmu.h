/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events: what the vendor-neutral part of the core PMU driver
 * (the .c files of arch/x86/events) and the vendor parts (intel/, amd/) share.
 *
 * Counters are numbered as Intel numbers the bits of IA32_PERF_GLOBAL_CTRL:
 * the general-purpose counters from 0, the fixed-function ones from
 * INTEL_PMC_IDX_FIXED (32). AMD has only general-purpose counters, and
 * its PerfMonV2 global registers use the same low bits, so one 64-bit
 * mask describes a set of counters on every vendor.
 *
 * A core PMU is a struct x86_core: the struct pmu perf knows it by, the
 * description of its hardware that the vendor part filled in (counters,
 * widths, event tables, constraints, sysfs attributes, struct
 * x86_core_ops for the few operations that differ), the CPUs it serves
 * and a struct x86_cpu_pmu per CPU for the state of their counters.
 * Everything that follows from "a counter of some width that counts an
 * event selected by a control value" is generic. Code finds the PMU
 *  - of an event: x86_event_core(), container_of() on event->pmu;
 *  - of a CPU: the per-CPU pointer x86_cpu_core, set as the CPU comes up
 *    (NULL on a CPU that no core PMU serves, and before the CPU is up);
 * and that PMU's state on the CPU it runs on with x86_cpuc().
 *
 * Today one core PMU is registered, "cpu" with type PERF_TYPE_RAW, and it
 * serves every CPU (cpu_type 0, cpus = the possible CPUs).
 *
 * Hybrid parts. A part with more than one kind of core (Intel P-cores and
 * E-cores) needs one PMU per kind, since the kinds differ in counters and
 * event tables. The vendor probe would then fill one struct x86_core per
 * kind, from that kind's enumeration (on Intel, CPUID leaf 23H sub-leaves
 * per core type, or the tables of the model of each kind), set its
 * cpu_type to the kind's CPUID.1AH:EAX[31:24] value and x86_core_setup()
 * it under its own name ("cpu_core", "cpu_atom") with a dynamic type (-1;
 * the first may keep PERF_TYPE_RAW). Nothing else changes: each CPU
 * finds its PMU in x86_cpu_starting() by its own core type, and with
 * cpu_type set the PMU's cpus mask starts empty and grows as its CPUs
 * come up, its struct pmu gets a filter that keeps task events off the
 * other kind's CPUs, event_init refuses (-ENOENT) a CPU event bound to
 * one of them, and sysfs shows a "cpus" file. Left to do for that: the
 * probe itself; PERF_PMU_CAP_EXTENDED_HW_TYPE, with event_init reading
 * the PMU type in the high half of a PERF_TYPE_HARDWARE or _HW_CACHE
 * config (PERF_HW_EVENT_MASK) so that tools can aim generic events at one
 * kind; and an answer for KVM, which sizes a guest PMU from
 * perf_get_x86_pmu_capability() and gets none while there are two PMUs.
 */
#ifndef _ARCH_X86_EVENTS_PMU_H
#define _ARCH_X86_EVENTS_PMU_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include <asm/perf_event.h>

struct x86_core;
struct x86_cpu_pmu;

/* the counter indexes a u64 set can name */
#define X86_NR_IDX		64
#define X86_FIXED(i)		(INTEL_PMC_IDX_FIXED + (i))
#define X86_IS_FIXED(idx)	((idx) >= INTEL_PMC_IDX_FIXED)

/* how many core PMUs one system may have (kinds of core) */
#define X86_MAX_CORES		4

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
 * @reset_cpu: put this CPU's counters of @core in a known, idle state
 * @branch_init: accept a new event's branch stack (PERF_SAMPLE_BRANCH_STACK);
 *	NULL when the PMU has none, and such events are -EOPNOTSUPP
 * @branch_free: release what @branch_init allocated
 * @branch_add: an event with X86_EVENT_FLAG_LBR is going on this CPU's
 *	counters; 0, or -EAGAIN when the branch recorder is set up for
 *	other events
 * @branch_del: it has left them
 * @branch_sample: put the branch stack in a sample of @event (PMI)
 * @branch_sched_in: a context switch on this CPU, before the incoming
 *	task's events arrive (while @branch_add holds perf_sched_cb_inc())
 * @branch_snapshot: copy the branch recorder's entries, youngest first and
 *	unfiltered, into @entries (room for @cnt); returns how many, 0 when
 *	no event uses the recorder on this CPU. The caller has the counters
 *	stopped, except in NMI (branch_snapshot.c)
 * @precise_init: accept a new event with attr.precise_ip (at most
 *	@max_precise, already checked) and mark it X86_EVENT_FLAG_PEBS;
 *	NULL when the PMU samples nothing precisely (max_precise 0)
 * @drain: the PMI's turn for the samples the hardware recorded itself
 *	(PEBS), with @status what @overflowed returned; returns how many
 *	samples it handled. NULL without such a recorder
 * @precise_flush: the same outside the PMI, for the records that events
 *	with X86_EVENT_FLAG_LARGE_PEBS left waiting in the buffer; NULL when
 *	no event can have that flag
 * @shared_get: an event with X86_EVENT_FLAG_SHARED_REG is going on this
 *	CPU's counters and needs the per-CPU register it shares with other
 *	events set its way (Intel's load-latency threshold); 0, or -EAGAIN
 *	while events here need it set another way (the core multiplexes)
 * @shared_put: it has left them
 * @precise_forward: offered every new event with attr.precise_ip first,
 *	before any other check, for a vendor whose precise sampling is
 *	another PMU (AMD IBS): 0 to go on, or an errno the core PMU's
 *	event_init returns as it is (-ENOENT after rewriting attr.type and
 *	config hands the event to the PMU of that type); NULL for none
 *
 * All but @hw_config, @fixed_for, @precise_forward and the @branch_init
 * pair run on the CPU
 * concerned with interrupts off (or in NMI); those run at
 * perf_event_open() and at the event's end.
 * Those that take a @core and a @cpuc get the PMU and its state on the
 * CPU they run on; gate.c has the ones of PMUs without global control.
 */
struct x86_core_ops {
	int (*hw_config)(struct perf_event *event);
	u64 (*fixed_for)(u64 config);
	void (*program)(struct perf_event *event, bool on);
	void (*enable_all)(struct x86_core *core, struct x86_cpu_pmu *cpuc);
	void (*disable_all)(struct x86_core *core, struct x86_cpu_pmu *cpuc);
	u64 (*overflowed)(struct x86_core *core, struct x86_cpu_pmu *cpuc);
	void (*ack)(u64 cntrs);
	void (*reset_cpu)(struct x86_core *core);
	int (*branch_init)(struct perf_event *event);
	void (*branch_free)(struct perf_event *event);
	int (*branch_add)(struct perf_event *event);
	void (*branch_del)(struct perf_event *event);
	void (*branch_sample)(struct perf_event *event,
			      struct perf_sample_data *data);
	void (*branch_sched_in)(void);
	unsigned int (*branch_snapshot)(struct perf_branch_entry *entries,
					unsigned int cnt);
	int (*precise_init)(struct perf_event *event);
	int (*drain)(struct x86_core *core, struct x86_cpu_pmu *cpuc,
		     u64 status, struct pt_regs *regs);
	void (*precise_flush)(struct x86_core *core, struct x86_cpu_pmu *cpuc);
	int (*precise_forward)(struct perf_event *event);
	int (*shared_get)(struct perf_event *event);
	void (*shared_put)(struct perf_event *event);
};

/* hw.flags: the event records a branch stack (the vendor's recorder) */
#define X86_EVENT_FLAG_LBR	BIT(0)
/* hw.flags: the event samples precisely (attr.precise_ip; Intel PEBS) */
#define X86_EVENT_FLAG_PEBS	BIT(1)
/*
 * hw.flags: a precise event whose samples the hardware's records alone
 * describe, so they may wait in the buffer for a later interrupt (Intel
 * large PEBS); @precise_flush turns them into samples before the event
 * or its task leaves the counter, and before a read
 */
#define X86_EVENT_FLAG_LARGE_PEBS	BIT(2)
/*
 * hw.flags: the event needs a per-CPU register set its way while it is
 * on a counter, which other events share (@shared_get/@shared_put)
 */
#define X86_EVENT_FLAG_SHARED_REG	BIT(3)
/*
 * hw.flags: the event counts into the branch recorder as well (Intel's
 * LBR event logging), which only @log_cntrs can
 */
#define X86_EVENT_FLAG_BR_CNTR	BIT(4)

/**
 * struct x86_core - one core PMU: the struct pmu, its hardware, its CPUs
 * @pmu: what perf knows the PMU by; x86_event_core() goes back from it
 * @cpuc: the state of the counters on each CPU in @cpus
 * @ops: vendor operations
 * @gated: no global enable: each counter is started and frozen by the
 *	enable bit of its own control (Intel v1, AMD before PerfMonV2;
 *	gate.c)
 * @gp: the general-purpose counters, as a set (bits 0..)
 * @fixed: the fixed-function counters, as a set (bits 32..)
 * @gp_width: bits of a general-purpose counter
 * @fixed_width: bits of a fixed counter
 * @max_period: the longest period one counter write can program
 * @raw_mask: event-select bits a PERF_TYPE_RAW config may set
 * @evtsel_msr: MSR of GP counter 0's event select
 * @ctr_msr: MSR of GP counter 0's count
 * @msr_stride: distance between consecutive GP counters' MSRs
 * @nr_events: events of this PMU that exist, on any CPU; the PMI handler
 *	answers NMIs only while there are some, so that with perf unused
 *	an NMI costs no MSR read
 * @hw_map: PERF_COUNT_HW_* to event select, 0 where not offered
 * @cache_map: PERF_TYPE_HW_CACHE to event select, 0 where not offered
 * @constraints: counter restrictions of this model, or NULL
 * @precise_constraints: restrictions that replace @constraints' for the
 *	precise events they match (Haswell's load-latency event samples on
 *	GP 0-3 and counts only on 3), or NULL
 * @quirks: the vendor part's own flags for this PMU (its errata and
 *	deprecations); the generic code never reads them
 * @name: sysfs caps/pmu_name, or NULL for none (AMD has none)
 * @vendor: for the boot log
 * @version: Intel architectural perfmon version; on AMD 2 with
 *	PerfMonV2, else 0
 * @arch_events_absent: CPUID.0AH:EBX, the architectural events missing
 * @arch_events_len: how many bits of it are defined (CPUID.0AH:EAX[31:24])
 * @branches: entries of the branch stack a sample can carry, 0 for none
 *	(sysfs caps/branches)
 * @branch_cntrs: the counters an event with a branch stack may use, 0 for
 *	any (AMD BRS samples with counter 0 only)
 * @log_cntrs: the counters whose events can be counted into the branch
 *	stack's entries (Intel's LBR event logging), 0 for none
 * @branch_lead: events the counter of an event with a branch stack still
 *	counts between its overflow and its PMI, taken off each period longer
 *	than that (AMD BRS holds the PMI for 16 taken branches); usually 0
 * @max_precise: the highest attr.precise_ip accepted (sysfs
 *	caps/max_precise), 0 for none
 * @precise_cntrs: the counters a precise event may use
 * @pdist_cntrs: those of them with precise distribution, which
 *	precise_ip 3 asks for (x86_pdist_counters()); 0 for none
 * @format: sysfs format/ attributes
 * @dev_name: the name the PMU is registered under ("cpu")
 * @type: the type it is registered with (PERF_TYPE_RAW, -1 for dynamic)
 * @cpu_type: the kind of core it serves on a hybrid part, as
 *	CPUID.1AH:EAX[31:24] names it; 0 when it serves every CPU
 * @cpus: the CPUs it serves
 * @format_group: its sysfs format/ directory
 * @groups: its sysfs attribute groups, as @pmu.attr_groups points at
 *
 * The vendor probe fills in the hardware description once at boot and
 * x86_core_setup() the rest; all of it is read-only afterwards but
 * @cpus (CPU hotplug, hybrid PMUs), @nr_events and what @cpuc points at.
 * The fields the event and PMI paths read come first.
 */
struct x86_core {
	struct pmu			pmu;
	struct x86_cpu_pmu __percpu	*cpuc;
	const struct x86_core_ops	*ops;
	bool				gated;
	u64				gp;
	u64				fixed;
	unsigned int			gp_width;
	unsigned int			fixed_width;
	u64				max_period;
	u64				raw_mask;
	unsigned int			evtsel_msr;
	unsigned int			ctr_msr;
	unsigned int			msr_stride;
	atomic_t			nr_events;
	u64				hw_map[PERF_COUNT_HW_MAX];
	const x86_cache_map_t		*cache_map;
	const struct x86_constraint	*constraints;
	const struct x86_constraint	*precise_constraints;
	unsigned int			quirks;
	const char			*name;
	const char			*vendor;
	unsigned int			version;
	unsigned int			arch_events_absent;
	unsigned int			arch_events_len;
	unsigned int			branches;
	u64				branch_cntrs;
	u64				log_cntrs;
	unsigned int			branch_lead;
	unsigned int			max_precise;
	u64				precise_cntrs;
	u64				pdist_cntrs;
	struct attribute		**format;
	const char			*dev_name;
	int				type;
	u8				cpu_type;
	struct cpumask			cpus;
	struct attribute_group		format_group;
	const struct attribute_group	*groups[5];
};

/**
 * struct x86_cpu_pmu - one CPU's counters of one core PMU
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

/* the core PMU that serves this CPU, or NULL */
DECLARE_PER_CPU(struct x86_core *, x86_cpu_core);

/* the core PMU @pmu is part of */
static inline struct x86_core *x86_pmu_core(struct pmu *pmu)
{
	return container_of(pmu, struct x86_core, pmu);
}

/* the core PMU of an event of ours (x86_core_event()) */
static inline struct x86_core *x86_event_core(struct perf_event *event)
{
	return x86_pmu_core(event->pmu);
}

/* @core's counters on the CPU this runs on, which @core serves */
static inline struct x86_cpu_pmu *x86_cpuc(struct x86_core *core)
{
	return this_cpu_ptr(core->cpuc);
}

/* core.c */
bool x86_core_event(struct perf_event *event);
int x86_core_setup(struct x86_core *core, const char *dev_name, int type);

/* vendor probes: fill @core's hardware description, or -ENODEV */
int intel_core_probe(struct x86_core *core);
int amd_core_probe(struct x86_core *core);

/* counters.c */
u64 x86_allowed_counters(const struct x86_core *core, u64 config);
u64 x86_pdist_counters(const struct x86_core *core, u64 cntrs);
u64 x86_event_counters(const struct x86_core *core, struct perf_event *event);
int x86_assign(u64 *allowed, int n, u64 busy, int *idx);
int x86_validate_group(struct perf_event *event);

/* branch_snapshot.c */
void x86_branch_snapshot_init(const struct x86_core *core);

/* event.c */
int x86_event_init(struct perf_event *event);
bool x86_branch_group_agrees(struct perf_event *event, u64 cfg);

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
void x86_pmu_sched_task(struct perf_event_context *ctx, bool sched_in);

/* gate.c: PMUs without global control (@gated) */
void x86_gate_enable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc);
void x86_gate_disable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc);
u64 x86_gate_overflowed(struct x86_core *core, struct x86_cpu_pmu *cpuc);
void x86_gate_ack(u64 cntrs);

/* pmi.c */
int x86_pmi_init(void);

/* rdpmc.c */
extern int x86_rdpmc_policy;
void x86_event_mapped(struct perf_event *event, struct mm_struct *mm);
void x86_event_unmapped(struct perf_event *event, struct mm_struct *mm);
int x86_event_idx(struct perf_event *event);

/* sysfs.c */
extern struct device_attribute dev_attr_rdpmc;
void x86_sysfs_init(struct x86_core *core);

/* the counter's MSR and its event select's, for GP counter @idx */
static inline unsigned int x86_gp_evtsel(const struct x86_core *core, int idx)
{
	return core->evtsel_msr + idx * core->msr_stride;
}

static inline unsigned int x86_gp_ctr(const struct x86_core *core, int idx)
{
	return core->ctr_msr + idx * core->msr_stride;
}

/* the width of the counter at @idx */
static inline unsigned int x86_cntr_width(const struct x86_core *core, int idx)
{
	return X86_IS_FIXED(idx) ? core->fixed_width : core->gp_width;
}

/* the value mask of the counter at @idx */
static inline u64 x86_cntr_mask(const struct x86_core *core, int idx)
{
	return GENMASK_ULL(x86_cntr_width(core, idx) - 1, 0);
}

#endif /* _ARCH_X86_EVENTS_PMU_H */
