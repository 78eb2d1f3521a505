// SPDX-License-Identifier: GPL-2.0
/*
 * test_pmu: a PMU with a few counters and no hardware behind it, so that
 * the core's scheduling, group and multiplexing rules can be tested on any
 * machine (CONFIG_PERF_TEST_PMU; never in production configs).
 *
 * Each CPU has test_pmu.counters counters (boot parameter, default 4, at
 * most TEST_PMU_MAX).  A counter counts the nanoseconds of context time it
 * is on times the event's rate (config:0-7, 0 meaning 1).  The core
 * measures time_running in the same context time, so a count is exactly
 * rate * time_running: scaled counts of multiplexed events can be checked
 * for bias to the nanosecond.  config:8 ("first") ties an event to counter 0, a
 * constraint like those of real PMUs.  The PMU has no interrupt: sampling
 * events are refused, as for any PMU with PERF_PMU_CAP_NO_INTERRUPT.
 *
 * add/del/start/stop/read run on the event's CPU with IRQs off under the
 * context lock, like any driver's; the per-CPU counter mask needs no other
 * locking.
 */
#include <linux/moduleparam.h>
#include <linux/percpu.h>

#include "internal.h"

#define TEST_PMU_MAX		16
#define TEST_PMU_RATE(cfg)	((cfg) & 0xff)
#define TEST_PMU_FIRST(cfg)	(((cfg) >> 8) & 1)

static unsigned int counters = 4;
module_param(counters, uint, 0444);
MODULE_PARM_DESC(counters, "counters per CPU (1..16)");

static DEFINE_PER_CPU(unsigned long, test_pmu_used);

static struct pmu test_pmu;

static u64 rate_of(struct perf_event *event)
{
	return TEST_PMU_RATE(event->attr.config) ?: 1;
}

/* the core brings ctx->time up to date before calling into a PMU */
static void test_pmu_update(struct perf_event *event)
{
	u64 now = event->ctx->time;
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add((now - prev) * rate_of(event), &event->count);
}

static void test_pmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, event->ctx->time);
	event->hw.state = 0;
}

static void test_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		test_pmu_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int test_pmu_add(struct perf_event *event, int flags)
{
	unsigned long *used = this_cpu_ptr(&test_pmu_used);
	unsigned int idx;

	if (TEST_PMU_FIRST(event->attr.config))
		idx = test_bit(0, used) ? counters : 0;
	else
		idx = find_first_zero_bit(used, counters);
	if (idx >= counters)
		return -EAGAIN;
	__set_bit(idx, used);
	event->hw.idx = idx;
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		test_pmu_start(event, flags);
	return 0;
}

static void test_pmu_del(struct perf_event *event, int flags)
{
	test_pmu_stop(event, PERF_EF_UPDATE);
	__clear_bit(event->hw.idx, this_cpu_ptr(&test_pmu_used));
	event->hw.idx = -1;
}

static void test_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		test_pmu_update(event);
}

/*
 * A group must fit at all: as real drivers do, refuse at open a group that
 * could never be scheduled, counting only this PMU's members.
 */
static int test_pmu_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int n = 1, first = TEST_PMU_FIRST(event->attr.config);

	if (leader != event) {
		if (leader->pmu == &test_pmu) {
			n++;
			first += TEST_PMU_FIRST(leader->attr.config);
		}
		for_each_sibling_event(sibling, leader) {
			if (sibling->pmu != &test_pmu)
				continue;
			n++;
			first += TEST_PMU_FIRST(sibling->attr.config);
		}
	}
	return n > counters || first > 1 ? -EINVAL : 0;
}

static int test_pmu_event_init(struct perf_event *event)
{
	if (event->attr.type != test_pmu.type)
		return -ENOENT;
	if (event->attr.config & ~0x1ffULL)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	event->hw.idx = -1;
	return test_pmu_validate_group(event);
}

PMU_FORMAT_ATTR(rate, "config:0-7");
PMU_FORMAT_ATTR(first, "config:8");

static struct attribute *test_pmu_format_attrs[] = {
	&format_attr_rate.attr,
	&format_attr_first.attr,
	NULL,
};

static const struct attribute_group test_pmu_format_group = {
	.name	= "format",
	.attrs	= test_pmu_format_attrs,
};

static ssize_t counters_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	return sysfs_emit(page, "%u\n", counters);
}
static DEVICE_ATTR_RO(counters);

static struct attribute *test_pmu_caps_attrs[] = {
	&dev_attr_counters.attr,
	NULL,
};

static const struct attribute_group test_pmu_caps_group = {
	.name	= "caps",
	.attrs	= test_pmu_caps_attrs,
};

static const struct attribute_group *test_pmu_groups[] = {
	&test_pmu_format_group,
	&test_pmu_caps_group,
	NULL,
};

static struct pmu test_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.attr_groups	= test_pmu_groups,
	.event_init	= test_pmu_event_init,
	.add		= test_pmu_add,
	.del		= test_pmu_del,
	.start		= test_pmu_start,
	.stop		= test_pmu_stop,
	.read		= test_pmu_read,
};

static int __init test_pmu_init(void)
{
	counters = clamp(counters, 1U, (unsigned int)TEST_PMU_MAX);
	return perf_pmu_register(&test_pmu, "test_pmu", -1);
}
device_initcall(test_pmu_init);
