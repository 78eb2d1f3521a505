// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 "msr" PMU: free-running counters the CPU keeps in MSRs (and the TSC).
 *
 * Nothing here is programmed: every counter runs whether or not perf looks
 * at it, cannot be told to skip a privilege level and never interrupts.
 * An event therefore remembers the raw value it last saw (hw.prev_count)
 * and adds the difference to its count whenever it is read or stopped.
 * attr.config picks the counter; the numbering, the sysfs names and
 * strings and the CPUs offering each counter are upstream's ABI:
 *
 *   0 tsc                 time stamp counter, whenever the CPU has one
 *   1 aperf, 2 mperf      actual/maximum performance clocks (APERFMPERF)
 *   3 pperf               productive performance clock (listed Intel models)
 *   4 smi                 SMIs taken, a 32-bit counter (listed Intel models)
 *   5 ptsc                AMD performance time stamp counter (PTSC)
 *   6 irperf              AMD instructions retired counter (IRPERF)
 *   7 cpu_thermal_margin  degrees C below TjMax (DTHERM): a reading, not a
 *                         counter, so its count is the latest value
 *
 * Which counters exist is decided once at boot on the boot CPU: the CPUID
 * feature or the model must say so and the MSR must read without a #GP.
 * Its value does not matter: a machine may have taken no SMI yet, and a
 * hypervisor may give a counter it does not implement as 0; upstream
 * lists both, and `perf stat --smi-cost` needs the smi event to exist.
 * Absent counters have no sysfs entry and their config is refused.
 *
 * Context. ->event_init runs in process context and touches no hardware.
 * ->add/->del/->start/->stop run on the CPU the event counts on with
 * interrupts off, under the context lock; ->read runs there too, with
 * interrupts off, but may also come from an NMI (a sampling event whose
 * group has our event as a sibling reads it in its overflow handler), so
 * it can interrupt ->stop or another ->read half way. prev_count is
 * therefore only ever advanced with a cmpxchg and each raw interval is
 * added once, by whoever moved prev_count past it. No locks are taken.
 */

#define pr_fmt(fmt) "msr-pmu: " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/lockdep.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include <asm/cpu_device_id.h>
#include <asm/cpufeature.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

/* attr.config values; the numbers are ABI */
enum msr_pmu_counter {
	MSR_PMU_TSC,
	MSR_PMU_APERF,
	MSR_PMU_MPERF,
	MSR_PMU_PPERF,
	MSR_PMU_SMI,
	MSR_PMU_PTSC,
	MSR_PMU_IRPERF,
	MSR_PMU_THERM,
	MSR_PMU_NR_COUNTERS,
};

/* How a raw value becomes an event's count. */
enum msr_pmu_kind {
	MSR_KIND_COUNT64,	/* 64-bit counter: add the wrapped difference */
	MSR_KIND_COUNT32,	/* 32-bit counter in the low half */
	MSR_KIND_THERM,		/* temperature reading: replace the count */
};

/**
 * struct msr_pmu_counter_desc - one counter the PMU may offer
 * @msr: the MSR holding it; 0 for the TSC, which is read with rdtsc
 * @kind: how its raw values turn into counts
 * @feature: CPUID feature that offers it, 0 when @models decides instead
 * @models: true when the CPU model table below decides
 */
struct msr_pmu_counter_desc {
	u32			msr;
	enum msr_pmu_kind	kind;
	u16			feature;
	bool			models;
};

static const struct msr_pmu_counter_desc msr_pmu_counters[MSR_PMU_NR_COUNTERS] = {
	[MSR_PMU_TSC]	 = { 0, MSR_KIND_COUNT64, X86_FEATURE_TSC, false },
	[MSR_PMU_APERF]	 = { MSR_IA32_APERF, MSR_KIND_COUNT64,
			     X86_FEATURE_APERFMPERF, false },
	[MSR_PMU_MPERF]	 = { MSR_IA32_MPERF, MSR_KIND_COUNT64,
			     X86_FEATURE_APERFMPERF, false },
	[MSR_PMU_PPERF]	 = { MSR_PPERF, MSR_KIND_COUNT64, 0, true },
	[MSR_PMU_SMI]	 = { MSR_SMI_COUNT, MSR_KIND_COUNT32, 0, true },
	[MSR_PMU_PTSC]	 = { MSR_F15H_PTSC, MSR_KIND_COUNT64,
			     X86_FEATURE_PTSC, false },
	[MSR_PMU_IRPERF] = { MSR_F17H_IRPERF, MSR_KIND_COUNT64,
			     X86_FEATURE_IRPERF, false },
	[MSR_PMU_THERM]	 = { MSR_IA32_THERM_STATUS, MSR_KIND_THERM,
			     X86_FEATURE_DTHERM, false },
};

/*
 * Intel models on which SMI_COUNT, or SMI_COUNT and PPERF, are known to
 * exist (there is no CPUID bit for either). driver_data is the set of
 * counters the model adds.
 */
#define SMI_ONLY	BIT(MSR_PMU_SMI)
#define SMI_PPERF	(BIT(MSR_PMU_SMI) | BIT(MSR_PMU_PPERF))

static const struct x86_cpu_id msr_pmu_intel_models[] __initconst = {
	X86_MATCH_VFM(INTEL_NEHALEM,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_NEHALEM_G,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_NEHALEM_EP,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_NEHALEM_EX,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_WESTMERE,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_WESTMERE_EP,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_WESTMERE_EX,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_IVYBRIDGE,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_HASWELL,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_HASWELL_X,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_HASWELL_L,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_HASWELL_G,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_BROADWELL,		SMI_ONLY),
	X86_MATCH_VFM(INTEL_BROADWELL_D,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_BROADWELL_G,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_BROADWELL_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_X,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_D,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT_D,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT_NP,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_D,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_PLUS,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_D,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_L,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNL,	SMI_ONLY),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNM,	SMI_ONLY),

	X86_MATCH_VFM(INTEL_SKYLAKE_L,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_SKYLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_SKYLAKE_X,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_KABYLAKE_L,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_KABYLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_COMETLAKE_L,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_COMETLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ICELAKE_L,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ICELAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ICELAKE_X,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ICELAKE_D,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_TIGERLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ROCKETLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ALDERLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_ALDERLAKE_L,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_ATOM_GRACEMONT,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_RAPTORLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_P,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_S,	SMI_PPERF),
	X86_MATCH_VFM(INTEL_METEORLAKE,		SMI_PPERF),
	X86_MATCH_VFM(INTEL_METEORLAKE_L,	SMI_PPERF),
	{}
};

/*
 * The counters found at boot. Written once by the initcall before the PMU
 * is registered, read-only afterwards (sysfs visibility, event_init).
 */
static DECLARE_BITMAP(msr_pmu_present, MSR_PMU_NR_COUNTERS);

/*
 * events/: one attribute per counter plus the two qualifiers of the
 * thermal reading. The counter an attribute belongs to is kept in its id
 * so that msr_pmu_event_visible() can hide those the CPU lacks.
 */
#define MSR_PMU_EVENT_STR(_var, _name, _counter, _str)			\
	static struct perf_pmu_events_attr _var = {			\
		.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
		.id		= _counter,				\
		.event_str	= _str,					\
	}

MSR_PMU_EVENT_STR(msr_ev_tsc, tsc, MSR_PMU_TSC, "event=0x00");
MSR_PMU_EVENT_STR(msr_ev_aperf, aperf, MSR_PMU_APERF, "event=0x01");
MSR_PMU_EVENT_STR(msr_ev_mperf, mperf, MSR_PMU_MPERF, "event=0x02");
MSR_PMU_EVENT_STR(msr_ev_pperf, pperf, MSR_PMU_PPERF, "event=0x03");
MSR_PMU_EVENT_STR(msr_ev_smi, smi, MSR_PMU_SMI, "event=0x04");
MSR_PMU_EVENT_STR(msr_ev_ptsc, ptsc, MSR_PMU_PTSC, "event=0x05");
MSR_PMU_EVENT_STR(msr_ev_irperf, irperf, MSR_PMU_IRPERF, "event=0x06");
MSR_PMU_EVENT_STR(msr_ev_therm, cpu_thermal_margin, MSR_PMU_THERM,
		  "event=0x07");
/* perf tool: read the reading as is, never as a difference; in degrees C */
MSR_PMU_EVENT_STR(msr_ev_therm_snapshot, cpu_thermal_margin.snapshot,
		  MSR_PMU_THERM, "1");
MSR_PMU_EVENT_STR(msr_ev_therm_unit, cpu_thermal_margin.unit,
		  MSR_PMU_THERM, "C");

static struct attribute *msr_pmu_event_attrs[] = {
	&msr_ev_tsc.attr.attr,
	&msr_ev_aperf.attr.attr,
	&msr_ev_mperf.attr.attr,
	&msr_ev_pperf.attr.attr,
	&msr_ev_smi.attr.attr,
	&msr_ev_ptsc.attr.attr,
	&msr_ev_irperf.attr.attr,
	&msr_ev_therm.attr.attr,
	&msr_ev_therm_snapshot.attr.attr,
	&msr_ev_therm_unit.attr.attr,
	NULL,
};

static umode_t msr_pmu_event_visible(struct kobject *kobj,
				     struct attribute *attr, int unused)
{
	struct perf_pmu_events_attr *ea =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	return test_bit(ea->id, msr_pmu_present) ? attr->mode : 0;
}

static const struct attribute_group msr_pmu_events_group = {
	.name		= "events",
	.attrs		= msr_pmu_event_attrs,
	.is_visible	= msr_pmu_event_visible,
};

/* format/: the whole of attr.config is the counter number */
PMU_FORMAT_ATTR(event, "config:0-63");

static struct attribute *msr_pmu_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group msr_pmu_format_group = {
	.name	= "format",
	.attrs	= msr_pmu_format_attrs,
};

static const struct attribute_group *msr_pmu_attr_groups[] = {
	&msr_pmu_events_group,
	&msr_pmu_format_group,
	NULL,
};

/*
 * The raw value of the event's counter on this CPU. rdtsc_ordered() keeps
 * the TSC read from being hoisted above earlier loads, so that a delta
 * brackets the code between two reads as rdmsr (serializing) does.
 */
static u64 msr_pmu_read_raw(struct perf_event *event)
{
	u64 val;

	if (!event->hw.event_base)
		return rdtsc_ordered();
	rdmsrl(event->hw.event_base, val);
	return val;
}

/*
 * Fold what the counter did since the last update into event->count.
 * Context: the CPU the event counts on, interrupts off or NMI.
 */
static void msr_pmu_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	/*
	 * An NMI reading this event may advance prev_count between our
	 * load and our store: only the cmpxchg that wins moves it, and the
	 * loser retries with a fresh raw value, so no interval counts twice.
	 */
	prev = local64_read(&hwc->prev_count);
	do {
		now = msr_pmu_read_raw(event);
	} while (!local64_try_cmpxchg(&hwc->prev_count, &prev, now));

	switch (msr_pmu_counters[hwc->config].kind) {
	case MSR_KIND_COUNT64:
		/* unsigned arithmetic: a 64-bit wrap still gives the delta */
		local64_add(now - prev, &event->count);
		break;
	case MSR_KIND_COUNT32:
		/*
		 * Only the low 32 bits count. Taking the difference as a
		 * signed 32-bit value makes a wrap a small positive delta
		 * and a counter moved back (firmware) a small negative one.
		 */
		local64_add((s64)(s32)(u32)(now - prev), &event->count);
		break;
	case MSR_KIND_THERM:
		/*
		 * The digital readout (degrees below TjMax) when the
		 * reading-valid bit is set, all ones otherwise.
		 */
		if (now & BIT_ULL(31))
			local64_set(&event->count, (now >> 16) & 0x3f);
		else
			local64_set(&event->count, -1);
		break;
	}
}

/*
 * ->start: take the counter's present value as the base of the next delta.
 * Context: the event's CPU, interrupts off.
 */
static void msr_pmu_start(struct perf_event *event, int flags)
{
	lockdep_assert_irqs_disabled();
	local64_set(&event->hw.prev_count, msr_pmu_read_raw(event));
	event->hw.state = 0;
}

/*
 * ->stop: the counter keeps running, so stopping means folding in what it
 * counted so far and ignoring it until the next ->start. A second ->stop
 * (->del after ->stop) must not count the time in between.
 * Context: the event's CPU, interrupts off.
 */
static void msr_pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	lockdep_assert_irqs_disabled();
	if (hwc->state & PERF_HES_STOPPED)
		return;
	msr_pmu_update(event);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* ->read: fold in the counter's progress; nothing to do while stopped. */
static void msr_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		msr_pmu_update(event);
}

/* ->add: every event has its own counter, so there is always room. */
static int msr_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		msr_pmu_start(event, flags);
	return 0;
}

static void msr_pmu_del(struct perf_event *event, int flags)
{
	msr_pmu_stop(event, PERF_EF_UPDATE);
}

/*
 * ->event_init: claim events of our type whose config names a counter this
 * CPU has. Counting only: there is no interrupt to sample with, and the
 * core refuses any exclude_* bit for us (PERF_PMU_CAP_NO_EXCLUDE). Both
 * CPU-wide and per-task events are fine: the counters exist on every CPU.
 * Context: process context, no hardware access.
 */
static int msr_pmu_event_init(struct perf_event *event)
{
	unsigned long config;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* sample_period shares its storage with sample_freq */
	if (event->attr.sample_period)
		return -EINVAL;
	if (event->attr.config >= MSR_PMU_NR_COUNTERS)
		return -EINVAL;
	/* config is user controlled: no speculative out-of-range lookups */
	config = array_index_nospec((unsigned long)event->attr.config,
				    MSR_PMU_NR_COUNTERS);
	if (!test_bit(config, msr_pmu_present))
		return -EINVAL;

	event->hw.config = config;
	event->hw.event_base = msr_pmu_counters[config].msr;
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return 0;
}

static struct pmu msr_pmu = {
	/*
	 * Any number of events fit at once, so they can share the software
	 * context: per-task events never wait for a hardware slot.
	 */
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= msr_pmu_attr_groups,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= msr_pmu_event_init,
	.add		= msr_pmu_add,
	.del		= msr_pmu_del,
	.start		= msr_pmu_start,
	.stop		= msr_pmu_stop,
	.read		= msr_pmu_read,
};

/* Does the boot CPU have counter @id? Called once, before registering. */
static bool __init msr_pmu_counter_exists(enum msr_pmu_counter id,
					  unsigned long model_counters)
{
	const struct msr_pmu_counter_desc *desc = &msr_pmu_counters[id];
	u64 val;

	if (desc->models) {
		if (!(model_counters & BIT(id)))
			return false;
	} else if (!boot_cpu_has(desc->feature)) {
		return false;
	}
	if (!desc->msr)
		return true;	/* the TSC: the feature bit is the whole test */
	/* a #GP on the read: not there, whatever the model says */
	return !rdmsrl_safe(desc->msr, &val);
}

static int __init msr_pmu_init(void)
{
	const struct x86_cpu_id *model = x86_match_cpu(msr_pmu_intel_models);
	unsigned long model_counters = model ? model->driver_data : 0;
	enum msr_pmu_counter id;
	int ret;

	/*
	 * Upstream offers no msr PMU at all on a CPU without a TSC, even
	 * if it has other counters: the tsc event is always listed.
	 */
	if (!boot_cpu_has(X86_FEATURE_TSC)) {
		pr_info("no TSC: not registered\n");
		return 0;
	}

	for (id = 0; id < MSR_PMU_NR_COUNTERS; id++)
		if (msr_pmu_counter_exists(id, model_counters))
			__set_bit(id, msr_pmu_present);

	ret = perf_pmu_register(&msr_pmu, "msr", -1);
	if (ret)
		pr_warn("registration failed: %d\n", ret);
	return 0;
}
device_initcall(msr_pmu_init);
