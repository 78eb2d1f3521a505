// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: sysfs attributes of the PMU device
 * (/sys/bus/event_source/devices/armv8_pmuv3/).
 *
 * Names, positions and formats follow upstream's, as tools (perf's event
 * parser, its JSON event tables) read them. The show functions find their
 * PMU through the device's driver data, which the core sets to the struct
 * pmu before the groups appear.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "perf_event_pmuv3.h"

static struct pmuv3 *dev_to_pmuv3(struct device *dev)
{
	return to_pmuv3(dev_get_drvdata(dev));
}

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(long, "config1:0");
PMU_FORMAT_ATTR(rdpmc, "config1:1");
PMU_FORMAT_ATTR(threshold_count, "config1:2");
PMU_FORMAT_ATTR(threshold_compare, "config1:3-4");
PMU_FORMAT_ATTR(threshold, "config1:5-16");

/* in the order of their bits */
static struct attribute *pmuv3_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_long.attr,
	&format_attr_rdpmc.attr,
	&format_attr_threshold_count.attr,
	&format_attr_threshold_compare.attr,
	&format_attr_threshold.attr,
	NULL,
};

static const struct attribute_group pmuv3_format_group = {
	.name = "format",
	.attrs = pmuv3_format_attrs,
};

static ssize_t pmuv3_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ea =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%04llx\n", ea->id);
}

#define PMUV3_EVENT(_name, _id)	PMU_EVENT_ATTR_ID(_name, pmuv3_event_show, _id)

/*
 * The architecture's common events, by their sysfs names; each is shown
 * only if PMCEID says the CPU implements it. SW_INCR (software increment,
 * written from EL0 only with PMUSERENR access) and CHAIN (meaningless on
 * its own) are left out on purpose.
 */
static struct attribute *pmuv3_event_attrs[] = {
	PMUV3_EVENT(l1i_cache_refill, 0x0001),
	PMUV3_EVENT(l1i_tlb_refill, 0x0002),
	PMUV3_EVENT(l1d_cache_refill, 0x0003),
	PMUV3_EVENT(l1d_cache, 0x0004),
	PMUV3_EVENT(l1d_tlb_refill, 0x0005),
	PMUV3_EVENT(ld_retired, 0x0006),
	PMUV3_EVENT(st_retired, 0x0007),
	PMUV3_EVENT(inst_retired, 0x0008),
	PMUV3_EVENT(exc_taken, 0x0009),
	PMUV3_EVENT(exc_return, 0x000A),
	PMUV3_EVENT(cid_write_retired, 0x000B),
	PMUV3_EVENT(pc_write_retired, 0x000C),
	PMUV3_EVENT(br_immed_retired, 0x000D),
	PMUV3_EVENT(br_return_retired, 0x000E),
	PMUV3_EVENT(unaligned_ldst_retired, 0x000F),
	PMUV3_EVENT(br_mis_pred, 0x0010),
	PMUV3_EVENT(cpu_cycles, 0x0011),
	PMUV3_EVENT(br_pred, 0x0012),
	PMUV3_EVENT(mem_access, 0x0013),
	PMUV3_EVENT(l1i_cache, 0x0014),
	PMUV3_EVENT(l1d_cache_wb, 0x0015),
	PMUV3_EVENT(l2d_cache, 0x0016),
	PMUV3_EVENT(l2d_cache_refill, 0x0017),
	PMUV3_EVENT(l2d_cache_wb, 0x0018),
	PMUV3_EVENT(bus_access, 0x0019),
	PMUV3_EVENT(memory_error, 0x001A),
	PMUV3_EVENT(inst_spec, 0x001B),
	PMUV3_EVENT(ttbr_write_retired, 0x001C),
	PMUV3_EVENT(bus_cycles, 0x001D),
	PMUV3_EVENT(l1d_cache_allocate, 0x001F),
	PMUV3_EVENT(l2d_cache_allocate, 0x0020),
	PMUV3_EVENT(br_retired, 0x0021),
	PMUV3_EVENT(br_mis_pred_retired, 0x0022),
	PMUV3_EVENT(stall_frontend, 0x0023),
	PMUV3_EVENT(stall_backend, 0x0024),
	PMUV3_EVENT(l1d_tlb, 0x0025),
	PMUV3_EVENT(l1i_tlb, 0x0026),
	PMUV3_EVENT(l2i_cache, 0x0027),
	PMUV3_EVENT(l2i_cache_refill, 0x0028),
	PMUV3_EVENT(l3d_cache_allocate, 0x0029),
	PMUV3_EVENT(l3d_cache_refill, 0x002A),
	PMUV3_EVENT(l3d_cache, 0x002B),
	PMUV3_EVENT(l3d_cache_wb, 0x002C),
	PMUV3_EVENT(l2d_tlb_refill, 0x002D),
	PMUV3_EVENT(l2i_tlb_refill, 0x002E),
	PMUV3_EVENT(l2d_tlb, 0x002F),
	PMUV3_EVENT(l2i_tlb, 0x0030),
	PMUV3_EVENT(remote_access, 0x0031),
	PMUV3_EVENT(ll_cache, 0x0032),
	PMUV3_EVENT(ll_cache_miss, 0x0033),
	PMUV3_EVENT(dtlb_walk, 0x0034),
	PMUV3_EVENT(itlb_walk, 0x0035),
	PMUV3_EVENT(ll_cache_rd, 0x0036),
	PMUV3_EVENT(ll_cache_miss_rd, 0x0037),
	PMUV3_EVENT(remote_access_rd, 0x0038),
	PMUV3_EVENT(l1d_cache_lmiss_rd, 0x0039),
	PMUV3_EVENT(op_retired, 0x003A),
	PMUV3_EVENT(op_spec, 0x003B),
	PMUV3_EVENT(stall, 0x003C),
	PMUV3_EVENT(stall_slot_backend, 0x003D),
	PMUV3_EVENT(stall_slot_frontend, 0x003E),
	PMUV3_EVENT(stall_slot, 0x003F),
	PMUV3_EVENT(sample_pop, 0x4000),
	PMUV3_EVENT(sample_feed, 0x4001),
	PMUV3_EVENT(sample_filtrate, 0x4002),
	PMUV3_EVENT(sample_collision, 0x4003),
	PMUV3_EVENT(cnt_cycles, 0x4004),
	PMUV3_EVENT(stall_backend_mem, 0x4005),
	PMUV3_EVENT(l1i_cache_lmiss, 0x4006),
	PMUV3_EVENT(l2d_cache_lmiss_rd, 0x4009),
	PMUV3_EVENT(l2i_cache_lmiss, 0x400A),
	PMUV3_EVENT(l3d_cache_lmiss_rd, 0x400B),
	PMUV3_EVENT(trb_wrap, 0x400C),
	PMUV3_EVENT(trb_trig, 0x400E),
	PMUV3_EVENT(trcextout0, 0x4010),
	PMUV3_EVENT(trcextout1, 0x4011),
	PMUV3_EVENT(trcextout2, 0x4012),
	PMUV3_EVENT(trcextout3, 0x4013),
	PMUV3_EVENT(cti_trigout4, 0x4018),
	PMUV3_EVENT(cti_trigout5, 0x4019),
	PMUV3_EVENT(cti_trigout6, 0x401A),
	PMUV3_EVENT(cti_trigout7, 0x401B),
	PMUV3_EVENT(ldst_align_lat, 0x4020),
	PMUV3_EVENT(ld_align_lat, 0x4021),
	PMUV3_EVENT(st_align_lat, 0x4022),
	PMUV3_EVENT(mem_access_checked, 0x4024),
	PMUV3_EVENT(mem_access_checked_rd, 0x4025),
	PMUV3_EVENT(mem_access_checked_wr, 0x4026),
	NULL,
};

static umode_t pmuv3_event_visible(struct kobject *kobj,
				   struct attribute *attr, int unused)
{
	struct perf_pmu_events_attr *ea =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);
	struct pmuv3 *p = dev_to_pmuv3(kobj_to_dev(kobj));

	return pmuv3_has_common_event(p, ea->id) ? attr->mode : 0;
}

static const struct attribute_group pmuv3_events_group = {
	.name = "events",
	.attrs = pmuv3_event_attrs,
	.is_visible = pmuv3_event_visible,
};

/* caps/: PMMIR_EL1 fields, all 0 before PMUv3p4 */
static ssize_t slots_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  (u32)FIELD_GET(ARMV8_PMU_SLOTS,
					 dev_to_pmuv3(dev)->pmmir));
}
static DEVICE_ATTR_RO(slots);

static ssize_t bus_slots_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  (u32)FIELD_GET(ARMV8_PMU_BUS_SLOTS,
					 dev_to_pmuv3(dev)->pmmir));
}
static DEVICE_ATTR_RO(bus_slots);

static ssize_t bus_width_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	u32 enc = FIELD_GET(ARMV8_PMU_BUS_WIDTH, dev_to_pmuv3(dev)->pmmir);

	/* the field is log2(bytes) + 1; values outside 3..12 are reserved */
	return sysfs_emit(page, "0x%08x\n",
			  enc >= 3 && enc <= 12 ? 1U << (enc - 1) : 0);
}
static DEVICE_ATTR_RO(bus_width);

static ssize_t threshold_max_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  pmuv3_threshold_max(dev_to_pmuv3(dev)));
}
static DEVICE_ATTR_RO(threshold_max);

static struct attribute *pmuv3_caps_attrs[] = {
	&dev_attr_bus_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_slots.attr,
	&dev_attr_threshold_max.attr,
	NULL,
};

static const struct attribute_group pmuv3_caps_group = {
	.name = "caps",
	.attrs = pmuv3_caps_attrs,
};

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, &dev_to_pmuv3(dev)->arm.supported_cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *pmuv3_common_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group pmuv3_common_group = {
	.attrs = pmuv3_common_attrs,
};

const struct attribute_group *pmuv3_attr_groups[] = {
	&pmuv3_common_group,
	&pmuv3_events_group,
	&pmuv3_format_group,
	&pmuv3_caps_group,
	NULL,
};

