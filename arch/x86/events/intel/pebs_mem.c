// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: memory sampling with PEBS, what `perf mem`
 * uses (SDM vol. 3B, "Load Latency Performance Monitoring Facility").
 *
 * On Haswell, Broadwell, the Skylake, Ice Lake and Golden Cove server
 * models; the load-latency event, MEM_TRANS_RETIRED.LOAD_LATENCY (event 0CDH,
 * unit mask 01H), counts the loads that take longer than the threshold
 * in MSR_PEBS_LD_LAT_THRESHOLD (bits 15:0, core clocks); sampled with
 * PEBS its records carry the load's data address, data source and
 * latency. perf gives the threshold in config1 (format/ldlat), 0 to
 * 0xffff, anything above -EINVAL, as upstream. The MSR is one per CPU,
 * so the events on a CPU at one time share one threshold: an event
 * whose threshold differs from the one in force waits for a turn
 * (intel_mem_shared_get() refuses it, and the core multiplexes), and a
 * group holding two thresholds could never run and is refused.
 * Before PEBS_BASELINE (formats 2, 3) a load-latency counter also needs its
 * IA32_PEBS_ENABLE bit 32 + n (pebs.c).
 *
 * The stores: the retired-store events with a data address
 * (MEM_INST_RETIRED.ALL_STORES, 0D0H/82H) report whether the store hit
 * the L1 data cache; the Golden Cove server cores add a store-latency
 * sampler, MEM_TRANS_RETIRED.STORE_SAMPLE (0CDH/02H), which is their
 * mem-stores. Their load-latency event also needs the "mem-loads-aux"
 * event (03H/82H) counting beside it for its data source to be right:
 * upstream refuses (-ENODATA) a load-latency event sampling the data
 * source that is not in a group led by that event or holding it ahead
 * of it, and so do we.
 *
 * pebs_dsrc.c decodes what the records say; this file knows the models
 * (which have the facility, and how their records read), classifies
 * events, keeps the threshold, and publishes the sysfs events perf mem
 * looks for: events/mem-loads, events/mem-stores, events/mem-loads-aux
 * and format/ldlat, with upstream's strings.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>
#include <asm/perf_event.h>

#include "../pmu.h"
#include "intel.h"

/* event select and unit mask, as an event's hw.config holds them */
#define SEL_EVENT_UMASK	(ARCH_PERFMON_EVENTSEL_EVENT | \
			 ARCH_PERFMON_EVENTSEL_UMASK)
/* modifiers that make a memory event another event */
#define SEL_MODIFIERS	(ARCH_PERFMON_EVENTSEL_EDGE | \
			 ARCH_PERFMON_EVENTSEL_INV | \
			 ARCH_PERFMON_EVENTSEL_CMASK | \
			 ARCH_PERFMON_EVENTSEL_ANY | \
			 ARCH_PERFMON_EVENTSEL_PIN_CONTROL)

#define SEL_LOAD_LATENCY	0x01cd	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
#define SEL_STORE_SAMPLE	0x02cd	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
#define SEL_LOADS_AUX		0x8203	/* the load-latency helper event */

/* the generations whose memory events differ */
enum mem_gen { GEN_HSW = 1, GEN_SKL, GEN_ICL, GEN_GLC };

/*
 * A model's memory sampling, in its match's driver_data: the generation
 * (bits 3:0); whether data source encodings 8 and 9 mean persistent
 * memory; whether its load-latency event needs mem-loads-aux
 */
#define MEM_GEN		GENMASK(3, 0)
#define MEM_PMEM	BIT(4)
#define MEM_AUX		BIT(5)

static const struct x86_cpu_id mem_models[] __initconst = {
	X86_MATCH_VFM(INTEL_HASWELL, GEN_HSW),
	X86_MATCH_VFM(INTEL_HASWELL_L, GEN_HSW),
	X86_MATCH_VFM(INTEL_HASWELL_G, GEN_HSW),
	X86_MATCH_VFM(INTEL_HASWELL_X, GEN_HSW),
	X86_MATCH_VFM(INTEL_BROADWELL, GEN_HSW),
	X86_MATCH_VFM(INTEL_BROADWELL_G, GEN_HSW),
	X86_MATCH_VFM(INTEL_BROADWELL_X, GEN_HSW),
	X86_MATCH_VFM(INTEL_BROADWELL_D, GEN_HSW),
	X86_MATCH_VFM(INTEL_SKYLAKE, GEN_SKL),
	X86_MATCH_VFM(INTEL_SKYLAKE_L, GEN_SKL),
	X86_MATCH_VFM(INTEL_SKYLAKE_X, GEN_SKL | MEM_PMEM),
	X86_MATCH_VFM(INTEL_KABYLAKE, GEN_SKL),
	X86_MATCH_VFM(INTEL_KABYLAKE_L, GEN_SKL),
	X86_MATCH_VFM(INTEL_COMETLAKE, GEN_SKL),
	X86_MATCH_VFM(INTEL_COMETLAKE_L, GEN_SKL),
	X86_MATCH_VFM(INTEL_ICELAKE, GEN_ICL),
	X86_MATCH_VFM(INTEL_ICELAKE_L, GEN_ICL),
	X86_MATCH_VFM(INTEL_ICELAKE_X, GEN_ICL | MEM_PMEM),
	X86_MATCH_VFM(INTEL_ICELAKE_D, GEN_ICL | MEM_PMEM),
	X86_MATCH_VFM(INTEL_TIGERLAKE, GEN_ICL),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L, GEN_ICL),
	X86_MATCH_VFM(INTEL_ROCKETLAKE, GEN_ICL),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X, GEN_GLC | MEM_PMEM | MEM_AUX),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X, GEN_GLC | MEM_PMEM | MEM_AUX),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_X, GEN_GLC | MEM_PMEM),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_D, GEN_GLC | MEM_PMEM),
	{ }
};

/*
 * What the probe found: @gen 0 for a part without the facility (or
 * whose PEBS we do not drive); @ldlat_msr whether the threshold MSR
 * takes writes; @pebs whether precise sampling is on.
 */
static struct {
	enum mem_gen		gen;
	bool			aux;
	bool			ldlat_msr;
	bool			pebs;
	struct intel_mem_caps	caps;
} mem __ro_after_init;

/* the threshold in force on a CPU, and how many events hold it */
struct mem_cpu {
	unsigned int	users;
	u16		want;
	u16		msr;
	bool		msr_known;
};

static DEFINE_PER_CPU(struct mem_cpu, mem_cpu);

/**
 * intel_mem_caps - how the records of this part read
 */
const struct intel_mem_caps *intel_mem_caps(void)
{
	return &mem.caps;
}

/*
 * What a precise event of @sel measures, by the model's PEBS event
 * lists: the memory events with a data address, as the SDM's event
 * tables mark them for each generation.
 */
static enum intel_mem_kind mem_kind(u64 sel)
{
	u64 code = sel & ARCH_PERFMON_EVENTSEL_EVENT;
	u64 umask = (sel & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;

	if (sel & SEL_MODIFIERS)
		return INTEL_MEM_NONE;
	if ((sel & SEL_EVENT_UMASK) == SEL_LOAD_LATENCY)
		return INTEL_MEM_LDLAT;
	if ((sel & SEL_EVENT_UMASK) == SEL_STORE_SAMPLE)
		return mem.gen == GEN_GLC ? INTEL_MEM_STLAT : INTEL_MEM_NONE;
	if (code == 0xd0) {
		/* MEM_INST_RETIRED: STLB_MISS, LOCK, SPLIT, ALL; 1 loads */
		switch (umask) {
		case 0x11: case 0x21: case 0x41: case 0x81:
			return INTEL_MEM_LD;
		case 0x12: case 0x42: case 0x82:
			return INTEL_MEM_ST;
		case 0x22:
			/* LOCK_STORES: only Skylake's has the address */
			return mem.gen == GEN_SKL ? INTEL_MEM_ST : INTEL_MEM_NONE;
		}
		return INTEL_MEM_NONE;
	}
	/* MEM_LOAD_RETIRED, _L3_HIT_, _L3_MISS_ and (Ice Lake on) _MISC_ */
	if (code >= 0xd1 && code <= (mem.gen <= GEN_SKL ? 0xd3 : 0xd4))
		return INTEL_MEM_LD;
	return INTEL_MEM_NONE;
}

/* @m (of @event's group) is the mem-loads-aux event */
static bool mem_is_aux(struct perf_event *event, struct perf_event *m)
{
	return m->pmu == event->pmu &&
	       (m->hw.config & SEL_EVENT_UMASK) == SEL_LOADS_AUX;
}

/*
 * A Golden Cove server load-latency event sampling the data source needs
 * mem-loads-aux ahead of it in its group: as the leader or a sibling
 * (the event itself is not in the list yet).
 */
static bool mem_aux_ahead(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *m;

	if (leader == event)
		return false;
	if (mem_is_aux(event, leader))
		return true;
	for_each_sibling_event(m, leader) {
		if (mem_is_aux(event, m))
			return true;
	}
	return false;
}

/* @m, of @event's group, wants another load-latency threshold */
static bool mem_ldlat_clash(struct perf_event *event, struct perf_event *m)
{
	return m != event && m->pmu == event->pmu &&
	       (m->hw.flags & X86_EVENT_FLAG_SHARED_REG) &&
	       m->attr.config1 != event->attr.config1;
}

static bool mem_group_clash(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *m;

	if (mem_ldlat_clash(event, leader))
		return true;
	for_each_sibling_event(m, leader) {
		if (mem_ldlat_clash(event, m))
			return true;
	}
	return false;
}

/**
 * intel_mem_hw_config - a new event of the core PMU, for memory sampling
 * @event: its hw.config set
 *
 * A load-latency event (any, precise or not, as upstream) holds the
 * threshold while it is on a counter (X86_EVENT_FLAG_SHARED_REG); a
 * precise one is told what its records measure (hw.extra_reg.idx, an
 * enum intel_mem_kind).
 *
 * Context: perf_event_open(), may sleep.
 * Return: 0; -EINVAL for a threshold past 16 bits or a group that holds
 * another one; -ENXIO when the threshold MSR cannot be written;
 * -ENODATA for a load-latency event sampling the data source without
 * mem-loads-aux ahead of it, where the model needs that.
 */
int intel_mem_hw_config(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 sel = hwc->config & SEL_EVENT_UMASK;

	if (!mem.gen)
		return 0;
	if (sel == SEL_LOAD_LATENCY) {
		if (event->attr.config1 & ~(u64)U16_MAX)
			return -EINVAL;
		if (!mem.ldlat_msr)
			return -ENXIO;
		hwc->flags |= X86_EVENT_FLAG_SHARED_REG;
		if (mem_group_clash(event))
			return -EINVAL;
		if (mem.aux &&
		    (event->attr.sample_type & PERF_SAMPLE_DATA_SRC) &&
		    !mem_aux_ahead(event))
			return -ENODATA;
	}
	if (event->attr.precise_ip && mem.pebs)
		hwc->extra_reg.idx = mem_kind(hwc->config);
	return 0;
}

/**
 * intel_mem_shared_get - a load-latency event is going on a counter here
 * @event: the event (X86_EVENT_FLAG_SHARED_REG)
 *
 * Its threshold is written now, before the counter is enabled, unless
 * the MSR holds it already.
 *
 * Context: the CPU, interrupts off, the context lock held.
 * Return: 0, or -EAGAIN while events with another threshold are here.
 */
int intel_mem_shared_get(struct perf_event *event)
{
	struct mem_cpu *mc = this_cpu_ptr(&mem_cpu);
	u16 want = event->attr.config1;

	lockdep_assert_irqs_disabled();
	if (mc->users && mc->want != want)
		return -EAGAIN;
	mc->users++;
	mc->want = want;
	if (!mc->msr_known || mc->msr != want) {
		wrmsrl(MSR_PEBS_LD_LAT_THRESHOLD, want);
		mc->msr = want;
		mc->msr_known = true;
	}
	return 0;
}

/**
 * intel_mem_shared_put - it has left its counter
 * @event: the event
 *
 * Context: as intel_mem_shared_get().
 */
void intel_mem_shared_put(struct perf_event *event)
{
	struct mem_cpu *mc = this_cpu_ptr(&mem_cpu);

	lockdep_assert_irqs_disabled();
	if (!WARN_ON_ONCE(!mc->users))
		mc->users--;
}

/**
 * intel_mem_reset_cpu - forget what the threshold MSR held
 *
 * Context: the CPU coming up or going down, interrupts off.
 */
void intel_mem_reset_cpu(void)
{
	struct mem_cpu *mc = this_cpu_ptr(&mem_cpu);

	mc->users = 0;
	mc->msr_known = false;
}

/* sysfs: the events perf mem asks for, and the threshold's field */

static ssize_t mem_loads_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "event=0xcd,umask=0x1,ldlat=3\n");
}

static ssize_t mem_stores_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	if (mem.gen == GEN_GLC)
		return sysfs_emit(buf, "event=0xcd,umask=0x2\n");
	return sysfs_emit(buf, "event=0xd0,umask=0x82\n");
}

static ssize_t mem_loads_aux_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "event=0x03,umask=0x82\n");
}

#define MEM_EVENT_ATTR(_var, _name)				\
	static struct device_attribute mem_attr_##_var = {	\
		.attr = { .name = _name, .mode = 0444 },	\
		.show = mem_##_var##_show,			\
	}

MEM_EVENT_ATTR(loads, "mem-loads");
MEM_EVENT_ATTR(stores, "mem-stores");
MEM_EVENT_ATTR(loads_aux, "mem-loads-aux");

static struct attribute *mem_events_attrs[] = {
	&mem_attr_loads.attr,
	&mem_attr_stores.attr,
	&mem_attr_loads_aux.attr,
	NULL,
};

/*
 * As upstream: mem-loads and mem-stores where PEBS runs, mem-loads-aux
 * wherever the model needs it
 */
static umode_t mem_events_visible(struct kobject *kobj, struct attribute *a,
				  int n)
{
	if (a == &mem_attr_loads_aux.attr)
		return mem.aux ? a->mode : 0;
	return mem.pebs ? a->mode : 0;
}

static const struct attribute_group mem_events_group = {
	.name = "events",
	.attrs = mem_events_attrs,
	.is_visible = mem_events_visible,
};

PMU_FORMAT_ATTR(ldlat, "config1:0-15");

static struct attribute *mem_format_attrs[] = {
	&format_attr_ldlat.attr,
	NULL,
};

static const struct attribute_group mem_format_group = {
	.name = "format",
	.attrs = mem_format_attrs,
};

static const struct attribute_group *mem_groups[] = {
	&mem_events_group,
	&mem_format_group,
	NULL,
};

/**
 * intel_mem_probe - find the load-latency facility
 * @core: the PMU, its PEBS probed (max_precise)
 *
 * The models we know it on, whose PEBS we drive; the threshold MSR must
 * take a write (a hypervisor may leave it out), else load-latency events
 * are -ENXIO as upstream's are.
 *
 * Context: boot CPU, at early_initcall.
 */
void __init intel_mem_probe(struct x86_core *core)
{
	const struct x86_cpu_id *id = x86_match_cpu(mem_models);
	unsigned long m;
	u64 val;

	if (!id || core->version < 2)
		return;
	m = id->driver_data;
	mem.gen = FIELD_GET(MEM_GEN, m);
	mem.aux = m & MEM_AUX;
	mem.pebs = core->max_precise;
	mem.caps.pmem = m & MEM_PMEM;
	mem.caps.snb_enc = mem.gen == GEN_HSW;
	mem.caps.blk = mem.gen == GEN_GLC;
	mem.caps.split_lat = mem.gen == GEN_GLC;
	mem.ldlat_msr = !rdmsrl_safe(MSR_PEBS_LD_LAT_THRESHOLD, &val) &&
			!wrmsrl_safe(MSR_PEBS_LD_LAT_THRESHOLD, val);
	core->pmu.attr_update = mem_groups;
	pr_info("PEBS memory sampling: load latency%s%s\n",
		mem.ldlat_msr ? "" : " (no threshold MSR)",
		mem.aux ? ", with mem-loads-aux" : "");
}
