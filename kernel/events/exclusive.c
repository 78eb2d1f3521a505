// SPDX-License-Identifier: GPL-2.0
/*
 * The two ways an event keeps a PMU's counters to itself, in one place.
 *
 * Exclusive PMUs (PERF_PMU_CAP_EXCLUSIVE) serve one user at a time:
 *  - system-wide, a PMU's per-task events and its CPU events never
 *    coexist.  pmu->exclusive_cnt counts the per-task ones when positive
 *    and the CPU ones when negative; an event of the other kind is
 *    refused with EBUSY while it is non-zero.  The claim is taken when
 *    the PMU accepts the event and dropped when the event is freed.
 *  - within one context, two events of such a PMU conflict when their
 *    CPUs can meet; the second open is refused with EBUSY.
 *
 * Exclusive groups (attr.exclusive) hold their hardware PMU on their CPU
 * while they are on: no other group of that PMU goes on that CPU, so the
 * others wait and rotate around it as around a full PMU.  The holder is
 * per PMU per CPU (struct perf_pmu_cpu), set where groups go on and come
 * off (groups.c) and consulted where they are scheduled in (sched.c).
 */
#include <linux/lockdep.h>

#include "exclusive.h"
#include "groups.h"
#include "pmu_cpu.h"

static bool perf_pmu_is_exclusive(struct pmu *pmu)
{
	return pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE;
}

/**
 * perf_exclusive_claim - take the system-wide claim on an exclusive PMU
 * @event: an event its PMU has just accepted (event->hw.target set for a
 *	per-task event)
 *
 * Context: process context.
 * Return: 0, or -EBUSY while events of the other kind hold the PMU.
 */
int perf_exclusive_claim(struct perf_event *event)
{
	atomic_t *cnt = &event->pmu->exclusive_cnt;
	bool got;

	if (!perf_pmu_is_exclusive(event->pmu))
		return 0;
	if (event->hw.target)
		got = atomic_inc_unless_negative(cnt);
	else
		got = atomic_dec_unless_positive(cnt);
	if (!got)
		return -EBUSY;
	event->attach_state |= PERF_ATTACH_EXCLUSIVE;
	return 0;
}

/**
 * perf_exclusive_event_release - give back what perf_exclusive_claim() took
 * @event: the event being freed (or failing allocation)
 *
 * Context: any.
 */
void perf_exclusive_event_release(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_EXCLUSIVE))
		return;
	event->attach_state &= ~PERF_ATTACH_EXCLUSIVE;
	atomic_add(event->hw.target ? -1 : 1, &event->pmu->exclusive_cnt);
}

/**
 * perf_exclusive_installable - may @event join @ctx?
 * @event: the new event
 * @ctx: the context it is about to be installed in
 *
 * Context: process context, ctx->mutex held, so that two concurrent opens
 * into the same context cannot both pass.
 * Return: false when another event of the same exclusive PMU in @ctx can
 * count on the same CPU (open then fails with EBUSY).
 */
bool perf_exclusive_installable(struct perf_event *event,
				struct perf_event_context *ctx)
{
	struct perf_event *other;

	lockdep_assert_held(&ctx->mutex);
	if (!perf_pmu_is_exclusive(event->pmu))
		return true;
	list_for_each_entry(other, &ctx->event_list, event_entry) {
		if (other->pmu != event->pmu)
			continue;
		/* -1 counts on every CPU, so it meets any */
		if (other->cpu == -1 || event->cpu == -1 ||
		    other->cpu == event->cpu)
			return false;
	}
	return true;
}

/**
 * __perf_exclusive_hold - an exclusive group takes its PMU on this CPU, or
 *	gives it back
 * @leader: the group leader, going on (@take) or coming off
 * @take: true when it went on
 *
 * Called through perf_exclusive_hold() for exclusive leaders only.  Only
 * groups with a hardware PMU get as far as the per-CPU state; giving back
 * is done only by the group that holds it.
 *
 * Context: IRQs off, the group's ctx->lock held, on its CPU.
 * Return: true when the group took the PMU or gave it back.
 */
bool __perf_exclusive_hold(struct perf_event *leader, bool take)
{
	struct perf_pmu_cpu *pc;
	struct pmu *pmu;

	lockdep_assert_held(&leader->ctx->lock);
	pmu = perf_group_hw_pmu(leader);
	if (!pmu)
		return false;
	pc = perf_pmu_this_cpu(pmu);
	if (take)
		pc->exclusive = leader;
	else if (pc->exclusive == leader)
		pc->exclusive = NULL;
	else
		return false;
	return true;
}
