// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: accepting an event for a core PMU.
 *
 * perf_event_open() hands us an attr; we turn it into the event select
 * value the counter will be programmed with (hw.config, without the enable
 * bit), check that the CPU offers the event and that its group can ever
 * be placed on the counters, and set up counting-only events to fold
 * their count in before the counter can wrap. No hardware is touched: the
 * counter is chosen when the event is scheduled in (hw.c).
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>

#include "pmu.h"

/* does @m, a member of @event's group, leave the branch recorder at @cfg? */
static bool x86_branch_member_agrees(struct perf_event *event,
				     struct perf_event *m, u64 cfg)
{
	/* only the core PMU's events have hw.flags and branch_reg */
	if (m->pmu != event->pmu || !(m->hw.flags & X86_EVENT_FLAG_LBR))
		return true;
	return m->hw.branch_reg.config == cfg;
}

/**
 * x86_branch_group_agrees - can @event's group share one branch recorder?
 * @event: a new event with a branch stack, not yet in its group
 * @cfg: the recorder setup it wants (hw.branch_reg.config to be)
 *
 * A group is scheduled as one, and a CPU has one branch recorder (Intel's
 * LBR, AMD's LbrExtV2): members that want it set up differently could
 * never run together, so the vendor's branch_init refuses the open
 * (-EINVAL), as for a group with more events than counters.
 *
 * Context: perf_event_open(), from the vendor's branch_init; may sleep.
 * Return: whether every member with a branch stack wants @cfg.
 */
bool x86_branch_group_agrees(struct perf_event *event, u64 cfg)
{
	struct perf_event *leader = event->group_leader, *m;

	if (leader == event)
		return true;
	if (!x86_branch_member_agrees(event, leader, cfg))
		return false;
	for_each_sibling_event(m, leader) {
		if (!x86_branch_member_agrees(event, m, cfg))
			return false;
	}
	return true;
}

/* what a branch stack's setup allocated, if anything */
static void x86_branch_free(struct perf_event *event)
{
	const struct x86_core_ops *ops = x86_event_core(event)->ops;

	if (ops->branch_free)
		ops->branch_free(event);
}

static void x86_event_destroy(struct perf_event *event)
{
	x86_branch_free(event);
	atomic_dec(&x86_event_core(event)->nr_events);
}

/* a generic hardware event: -EINVAL past the enum, -ENOENT if not offered */
static int x86_map_hw(const struct x86_core *core, u64 config, u64 *sel)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	*sel = core->hw_map[config];
	return *sel ? 0 : -ENOENT;
}

/*
 * A generic cache event: config is type | op << 8 | result << 16 (see
 * include/uapi/linux/perf_event.h). Out-of-range fields are -EINVAL, a
 * combination this CPU has no event for is -ENOENT.
 */
static int x86_map_cache(const struct x86_core *core, u64 config, u64 *sel)
{
	unsigned int type = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if (type >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (!core->cache_map)
		return -ENOENT;
	*sel = (*core->cache_map)[type][op][result];
	return *sel ? 0 : -ENOENT;
}

/* attr.type/config to an event select; -ENOENT for what is not ours */
static int x86_map_event(const struct x86_core *core,
			 struct perf_event *event, u64 *sel)
{
	struct perf_event_attr *attr = &event->attr;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		return x86_map_hw(core, attr->config, sel);
	case PERF_TYPE_HW_CACHE:
		return x86_map_cache(core, attr->config, sel);
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
		/* bits outside the event select's fields are ignored */
		*sel = attr->config & core->raw_mask;
		return 0;
	}
}

/**
 * x86_event_init - the event_init of every core PMU
 * @event: the new event
 *
 * Accepts PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE and the PMU's own type
 * (PERF_TYPE_RAW for "cpu"), on the CPUs the PMU serves. hw.config gets
 * the event select with the interrupt bit and the privilege filters:
 * exclude_user clears USR, exclude_kernel clears OS; x86 has no
 * hypervisor level to exclude, so exclude_hv is accepted and changes
 * nothing. The vendor's hw_config adds or refuses vendor bits.
 *
 * Context: process context (perf_event_open), may sleep.
 * A precise event goes to the vendor's precise_forward first (AMD hands
 * precise cycles to ibs_op).
 *
 * Return: 0; -ENOENT for events that are not ours or not offered;
 * -EINVAL for bad encodings, groups that can never fit and precise
 * counting-only events; -EOPNOTSUPP for a precise_ip above the PMU's
 * max_precise and for branch stacks the vendor's recorder cannot give
 * (the vendor's branch_init has the rules).
 */
int x86_event_init(struct perf_event *event)
{
	struct x86_core *core = x86_event_core(event);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 sel;
	int ret;

	/* a vendor's precise sampling may be another PMU's (AMD IBS) */
	if (attr->precise_ip && core->ops->precise_forward &&
	    (attr->type == PERF_TYPE_HARDWARE ||
	     attr->type == PERF_TYPE_HW_CACHE ||
	     attr->type == event->pmu->type)) {
		ret = core->ops->precise_forward(event);
		if (ret)
			return ret;
	}

	ret = x86_map_event(core, event, &sel);
	if (ret)
		return ret;
	/* a CPU of another kind of core: another PMU's */
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &core->cpus))
		return -ENOENT;

	/* upstream's errnos: beyond what the PMU offers, then not sampling */
	if (attr->precise_ip > core->max_precise)
		return -EOPNOTSUPP;
	if (attr->precise_ip && !is_sampling_event(event))
		return -EINVAL;
	if (has_branch_stack(event) && !core->ops->branch_init)
		return -EOPNOTSUPP;

	hwc->idx = -1;
	hwc->last_cpu = -1;
	hwc->last_tag = ~0ULL;
	hwc->flags = 0;
	hwc->config = sel | ARCH_PERFMON_EVENTSEL_INT;
	if (!attr->exclude_user)
		hwc->config |= ARCH_PERFMON_EVENTSEL_USR;
	if (!attr->exclude_kernel)
		hwc->config |= ARCH_PERFMON_EVENTSEL_OS;

	if (core->ops->hw_config) {
		ret = core->ops->hw_config(event);
		if (ret)
			return ret;
	}
	/*
	 * XMM registers: never of user registers (nothing saves them for a
	 * sample), and of the interrupt registers only from a PEBS record's
	 * XMM group, so a precise event's on a PMU whose records have it.
	 * Upstream's errno for each, rather than the core's -EOPNOTSUPP.
	 */
	if ((attr->sample_regs_user & PERF_REG_EXTENDED_MASK) ||
	    ((attr->sample_regs_intr & PERF_REG_EXTENDED_MASK) &&
	     (!attr->precise_ip ||
	      !(event->pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS))))
		return -EINVAL;
	if (attr->precise_ip) {
		ret = core->ops->precise_init(event);
		if (ret)
			return ret;
	}
	if (has_branch_stack(event)) {
		ret = core->ops->branch_init(event);
		if (ret)
			return ret;
	}

	ret = -EINVAL;
	if (!x86_event_counters(core, event))
		goto fail;

	/* the rdpmc policy in force when the event is created applies to it */
	if (READ_ONCE(x86_rdpmc_policy))
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;

	if (!is_sampling_event(event)) {
		/*
		 * Counting only: interrupt after at most max_period events
		 * anyway, so that the count is folded in long before the
		 * counter could lap the value we last read.
		 */
		hwc->sample_period = core->max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}

	ret = x86_validate_group(event);
	if (ret)
		goto fail;

	atomic_inc(&core->nr_events);
	event->destroy = x86_event_destroy;
	return 0;

fail:
	x86_branch_free(event);
	return ret;
}
