/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exclusive PMUs and exclusive groups (exclusive.c).
 */
#ifndef _KERNEL_EVENTS_EXCLUSIVE_H
#define _KERNEL_EVENTS_EXCLUSIVE_H

#include <linux/perf_event.h>

#include "groups.h"
#include "pmu_cpu.h"

/* exclusive.c */
int perf_exclusive_claim(struct perf_event *event);
void perf_exclusive_event_release(struct perf_event *event);
bool perf_exclusive_installable(struct perf_event *event,
				struct perf_event_context *ctx);
bool __perf_exclusive_hold(struct perf_event *leader, bool take);

/*
 * The two checks below run for every group going on or off a PMU, at
 * every context switch: inline, so that a group that is not exclusive
 * pays a test, not a call.
 */

/**
 * perf_exclusive_hold - an exclusive group takes its PMU on this CPU, or
 *	gives it back
 * @leader: the group leader, going on (@take) or coming off
 * @take: true when it went on
 *
 * Context: IRQs off, the group's ctx->lock held, on its CPU.
 * Return: true when the group took the PMU or gave it back.
 */
static inline bool perf_exclusive_hold(struct perf_event *leader, bool take)
{
	if (likely(!leader->attr.exclusive))
		return false;
	return __perf_exclusive_hold(leader, take);
}

/**
 * perf_exclusive_may_share - may @leader's group go on beside what is on?
 * @leader: the group leader
 * @ctx: its context
 *
 * Groups of software events always may.  Others may not while an
 * exclusive group holds their PMU on this CPU.  An exclusive group itself
 * may not while another group of its own context and class (pinned or
 * flexible) is on its PMU: it then waits for its turn, as a group that
 * does not fit does.  Groups of other contexts already on (the CPU's,
 * when a task's exclusive group comes in) stay, as upstream has it.
 *
 * Context: IRQs off, ctx->lock held, @ctx active on this CPU.
 */
static inline bool perf_exclusive_may_share(struct perf_event *leader,
					    struct perf_event_context *ctx)
{
	struct pmu *pmu = perf_group_hw_pmu(leader);
	struct list_head *on_list;
	struct perf_event *on;

	lockdep_assert_held(&ctx->lock);
	if (!pmu)
		return true;
	if (perf_pmu_this_cpu(pmu)->exclusive)
		return false;
	if (!leader->attr.exclusive)
		return true;
	on_list = leader->attr.pinned ? &ctx->pinned_on : &ctx->flexible_on;
	list_for_each_entry(on, on_list, group_on_entry) {
		if (perf_group_hw_pmu(on) == pmu)
			return false;
	}
	return true;
}

#endif /* _KERNEL_EVENTS_EXCLUSIVE_H */
