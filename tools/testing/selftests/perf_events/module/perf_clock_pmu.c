// SPDX-License-Identifier: GPL-2.0
/*
 * perf_clock_pmu: a PMU that lives in a module, as out-of-tree and
 * distribution drivers do.  It uses only what perf exports to modules:
 * perf_pmu_register()/perf_pmu_unregister() and the struct pmu callbacks.
 *
 * Its one event counts nanoseconds of local_clock() while the event is on
 * a CPU, like task-clock, so a test can check its count against task-clock
 * over the same stretch.  Counting only: no interrupt, so no sampling.
 *
 * .module = THIS_MODULE lets the core hold the module while any event of
 * the PMU exists: rmmod fails until the last one is closed.
 *
 * A second PMU, perf_clock_pkg, counts the same way but stands for a
 * counter block shared by a package, as uncore PMUs are: CPU events only,
 * with .scope = PERF_PMU_SCOPE_PKG, so that the core publishes one CPU
 * per package as its "cpumask" and moves its events when that CPU goes
 * offline.
 */
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>

static struct pmu clock_pmu;
static struct pmu clock_pkg_pmu;

static void clock_pmu_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &event->count);
}

static void clock_pmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, local_clock());
	event->hw.state = 0;
}

static void clock_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED)) {
		clock_pmu_update(event);
		event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

static int clock_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		clock_pmu_start(event, flags);
	return 0;
}

static void clock_pmu_del(struct perf_event *event, int flags)
{
	clock_pmu_stop(event, flags);
}

static void clock_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		clock_pmu_update(event);
}

static int clock_pmu_event_init(struct perf_event *event)
{
	if (event->attr.type != clock_pmu.type)
		return -ENOENT;
	if (event->attr.config || is_sampling_event(event))
		return -EINVAL;
	return 0;
}

static int clock_pkg_event_init(struct perf_event *event)
{
	if (event->attr.type != clock_pkg_pmu.type)
		return -ENOENT;
	/* one counter block per package: no per-task counting */
	if (event->cpu < 0)
		return -EINVAL;
	if (event->attr.config || is_sampling_event(event))
		return -EINVAL;
	return 0;
}

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *clock_pmu_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group clock_pmu_format_group = {
	.name	= "format",
	.attrs	= clock_pmu_format_attrs,
};

static const struct attribute_group *clock_pmu_attr_groups[] = {
	&clock_pmu_format_group,
	NULL,
};

static struct pmu clock_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.attr_groups	= clock_pmu_attr_groups,
	.event_init	= clock_pmu_event_init,
	.add		= clock_pmu_add,
	.del		= clock_pmu_del,
	.start		= clock_pmu_start,
	.stop		= clock_pmu_stop,
	.read		= clock_pmu_read,
};

static struct pmu clock_pkg_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.scope		= PERF_PMU_SCOPE_PKG,
	.attr_groups	= clock_pmu_attr_groups,
	.event_init	= clock_pkg_event_init,
	.add		= clock_pmu_add,
	.del		= clock_pmu_del,
	.start		= clock_pmu_start,
	.stop		= clock_pmu_stop,
	.read		= clock_pmu_read,
};

static int __init clock_pmu_init(void)
{
	int ret = perf_pmu_register(&clock_pmu, "perf_clock", -1);

	if (ret)
		return ret;
	ret = perf_pmu_register(&clock_pkg_pmu, "perf_clock_pkg", -1);
	if (ret)
		perf_pmu_unregister(&clock_pmu);
	return ret;
}

static void __exit clock_pmu_exit(void)
{
	perf_pmu_unregister(&clock_pkg_pmu);
	perf_pmu_unregister(&clock_pmu);
}

module_init(clock_pmu_init);
module_exit(clock_pmu_exit);
MODULE_DESCRIPTION("A perf PMU in a module: nanoseconds on the CPU");
MODULE_LICENSE("GPL");
