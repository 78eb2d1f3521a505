// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: a core PMU's sysfs directory,
 * /sys/bus/event_source/devices/cpu (or the PMU's own name).
 *
 *  format/  how a raw config is laid out (vendor-specific);
 *  events/  the generic hardware events this CPU offers, spelled in that
 *           format, so that "cpu/instructions/" and perf list work;
 *  caps/    pmu_name (the model family the driver recognised),
 *           max_precise (0: no PEBS) and branches (the depth of
 *           the branch stack, where there is one), branch_counter_nr
 *           and _width (where its entries can count events);
 *  rdpmc    the user-space RDPMC policy (rdpmc.c), one for all PMUs;
 *  cpus     the CPUs of a PMU that serves one kind of core of a hybrid
 *           part (absent when it serves all).
 *
 * Every core PMU has its own format/ group (the vendor's attributes) and
 * its own array of groups; the others are shared, and their callbacks
 * find the PMU of the directory from its device (x86_dev_core()).
 */

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include <asm/msr-index.h>

#include "pmu.h"

/* the PMU whose directory @dev is */
static struct x86_core *x86_dev_core(struct device *dev)
{
	return x86_pmu_core(dev_get_drvdata(dev));
}

/* an events/ entry: which PERF_COUNT_HW_* it shows */
struct x86_event_attr {
	struct device_attribute	attr;
	unsigned int		id;
};

/*
 * The event select in the format/ terms: event (with AMD's bits 32-35 as
 * the high nibble of the select), umask, and the modifiers a generic
 * event may use.
 */
static ssize_t x86_event_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct x86_event_attr *ea = container_of(attr, struct x86_event_attr,
						 attr);
	u64 sel = x86_dev_core(dev)->hw_map[ea->id];
	u64 code = (sel & ARCH_PERFMON_EVENTSEL_EVENT) |
		   ((sel >> 24) & 0xf00);
	u64 umask = (sel & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	u64 cmask = (sel & ARCH_PERFMON_EVENTSEL_CMASK) >> 24;
	int len;

	len = sysfs_emit(buf, "event=0x%02llx", code);
	if (umask)
		len += sysfs_emit_at(buf, len, ",umask=0x%02llx", umask);
	if (sel & ARCH_PERFMON_EVENTSEL_EDGE)
		len += sysfs_emit_at(buf, len, ",edge");
	if (sel & ARCH_PERFMON_EVENTSEL_INV)
		len += sysfs_emit_at(buf, len, ",inv");
	if (cmask)
		len += sysfs_emit_at(buf, len, ",cmask=0x%02llx", cmask);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

#define X86_EVENT_ATTR(_var, _name, _id)				\
	static struct x86_event_attr x86_event_##_var = {		\
		.attr = {						\
			.attr = { .name = _name, .mode = 0444 },	\
			.show = x86_event_show,				\
		},							\
		.id = _id,						\
	}

X86_EVENT_ATTR(cycles, "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES);
X86_EVENT_ATTR(instructions, "instructions", PERF_COUNT_HW_INSTRUCTIONS);
X86_EVENT_ATTR(cache_refs, "cache-references", PERF_COUNT_HW_CACHE_REFERENCES);
X86_EVENT_ATTR(cache_misses, "cache-misses", PERF_COUNT_HW_CACHE_MISSES);
X86_EVENT_ATTR(branches, "branch-instructions",
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
X86_EVENT_ATTR(branch_misses, "branch-misses", PERF_COUNT_HW_BRANCH_MISSES);
X86_EVENT_ATTR(bus_cycles, "bus-cycles", PERF_COUNT_HW_BUS_CYCLES);
X86_EVENT_ATTR(stalled_front, "stalled-cycles-frontend",
	       PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
X86_EVENT_ATTR(stalled_back, "stalled-cycles-backend",
	       PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
X86_EVENT_ATTR(ref_cycles, "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES);

static struct attribute *x86_event_attrs[] = {
	&x86_event_cycles.attr.attr,
	&x86_event_instructions.attr.attr,
	&x86_event_cache_refs.attr.attr,
	&x86_event_cache_misses.attr.attr,
	&x86_event_branches.attr.attr,
	&x86_event_branch_misses.attr.attr,
	&x86_event_bus_cycles.attr.attr,
	&x86_event_stalled_front.attr.attr,
	&x86_event_stalled_back.attr.attr,
	&x86_event_ref_cycles.attr.attr,
	NULL,
};

/* only the generic events this CPU has an event select for */
static umode_t x86_event_visible(struct kobject *kobj, struct attribute *a,
				 int n)
{
	struct x86_event_attr *ea = container_of(a, struct x86_event_attr,
						 attr.attr);
	struct x86_core *core = x86_dev_core(kobj_to_dev(kobj));

	return core->hw_map[ea->id] ? a->mode : 0;
}

static const struct attribute_group x86_events_group = {
	.name = "events",
	.attrs = x86_event_attrs,
	.is_visible = x86_event_visible,
};

static ssize_t pmu_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", x86_dev_core(dev)->name);
}
static DEVICE_ATTR_RO(pmu_name);

static ssize_t max_precise_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", x86_dev_core(dev)->max_precise);
}
static DEVICE_ATTR_RO(max_precise);

static ssize_t branches_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", x86_dev_core(dev)->branches);
}
static DEVICE_ATTR_RO(branches);

/* branch counters: how many events' counts, as upstream gives it */
static ssize_t branch_counter_nr_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", fls64(x86_dev_core(dev)->log_cntrs));
}
static DEVICE_ATTR_RO(branch_counter_nr);

/* and the bits of each (Intel's LBR_INFO fields) */
static ssize_t branch_counter_width_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	return sysfs_emit(buf, "%d\n", LBR_INFO_BR_CNTR_BITS);
}
static DEVICE_ATTR_RO(branch_counter_width);

static struct attribute *x86_caps_attrs[] = {
	&dev_attr_pmu_name.attr,
	&dev_attr_max_precise.attr,
	&dev_attr_branches.attr,
	&dev_attr_branch_counter_nr.attr,
	&dev_attr_branch_counter_width.attr,
	NULL,
};

/*
 * pmu_name only where the vendor names its PMUs (Intel), branches only
 * where samples can carry a branch stack, the branch counters' sizes
 * only where they can carry those
 */
static umode_t x86_caps_visible(struct kobject *kobj, struct attribute *a,
				int n)
{
	struct x86_core *core = x86_dev_core(kobj_to_dev(kobj));

	if (a == &dev_attr_pmu_name.attr && !core->name)
		return 0;
	if (a == &dev_attr_branches.attr && !core->branches)
		return 0;
	if ((a == &dev_attr_branch_counter_nr.attr ||
	     a == &dev_attr_branch_counter_width.attr) && !core->log_cntrs)
		return 0;
	return a->mode;
}

static const struct attribute_group x86_caps_group = {
	.name = "caps",
	.attrs = x86_caps_attrs,
	.is_visible = x86_caps_visible,
};

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, &x86_dev_core(dev)->cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *x86_common_attrs[] = {
	&dev_attr_rdpmc.attr,
	&dev_attr_cpus.attr,
	NULL,
};

/* cpus only on a PMU that serves some of the CPUs */
static umode_t x86_common_visible(struct kobject *kobj, struct attribute *a,
				  int n)
{
	if (a == &dev_attr_cpus.attr &&
	    !x86_dev_core(kobj_to_dev(kobj))->cpu_type)
		return 0;
	return a->mode;
}

static const struct attribute_group x86_common_group = {
	.attrs = x86_common_attrs,
	.is_visible = x86_common_visible,
};

/**
 * x86_sysfs_init - give a core PMU its sysfs groups
 * @core: the PMU, its format attributes filled in by the vendor probe
 *
 * Context: boot, before the PMU is registered.
 */
void x86_sysfs_init(struct x86_core *core)
{
	core->format_group.name = "format";
	core->format_group.attrs = core->format;
	core->groups[0] = &core->format_group;
	core->groups[1] = &x86_events_group;
	core->groups[2] = &x86_caps_group;
	core->groups[3] = &x86_common_group;
	core->groups[4] = NULL;
}
