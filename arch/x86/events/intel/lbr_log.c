// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: branch counters, from the LBR's event logging.
 *
 * Where CPUID.(EAX=1CH,ECX=0):ECX[19:16] names general-purpose counters
 * (SDM vol. 3B, "LBR Event Logging"), a counter of them whose event select
 * has bit 35 set also counts its events into the Arch LBR: each entry's
 * LBR_INFO holds, in bits 33:32 + 2i, how many events counter i saw since
 * the entry before it, saturating at 3.
 *
 * PERF_SAMPLE_BRANCH_COUNTERS asks for those counts (upstream's ABI).
 * Every event of a group that sets it logs; a sample with a branch stack
 * of an event that sets it then carries, for each entry, a u64 with the
 * counts of the group's logging events in group order (the leader first,
 * then its siblings as they joined), two bits each. caps/branch_counter_nr
 * and caps/branch_counter_width tell tools how many fields and how wide.
 *
 * Refused with -EINVAL, upstream's errno for each: logging on a CPU that
 * has none; an event that is more than an event select and unit mask; a
 * group of which an event uses call-stack mode; more logging events in
 * the group than counters that can log; a leader that does not sample
 * branch stacks (the LBR is set up, and cleared, with it). An event that
 * asks for the counts and no branches needs no LBR of its own.
 *
 * Context: intel_lbr_log_init() at perf_event_open(); the rest where the
 * sample is built (the PMI, or a PEBS flush with interrupts off), with
 * the group on its counters.
 */

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/perf_event.h>

#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "../pmu.h"
#include "intel.h"

/* the counts of GP counters 0-3 in LBR_INFO, two bits each */
#define LBR_LOG_COUNTS		GENMASK_ULL(LBR_INFO_BR_CNTR_OFFSET + \
					    LBR_INFO_BR_CNTR_NUM * \
					    LBR_INFO_BR_CNTR_BITS - 1, \
					    LBR_INFO_BR_CNTR_OFFSET)

/* the selections that need no recording of their own */
#define LBR_LOG_ONLY		(PERF_SAMPLE_BRANCH_PLM_ALL | \
				 PERF_SAMPLE_BRANCH_COUNTERS)

static bool lbr_logs(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS;
}

static bool lbr_call_stack(struct perf_event *event)
{
	return has_branch_stack(event) &&
	       (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
}

/* @m's part in the group's count of loggers; false for call-stack mode */
static bool lbr_log_member(struct perf_event *m, unsigned int *n)
{
	if (lbr_call_stack(m))
		return false;
	if (lbr_logs(m))
		(*n)++;
	return true;
}

/**
 * intel_lbr_log_init - accept an event that asks for branch counters
 * @event: a new event with PERF_SAMPLE_BRANCH_COUNTERS, not yet in its
 *	group
 * @log_cntrs: the counters that can log, 0 for none
 *
 * The event logs (event select bit 35, X86_EVENT_FLAG_BR_CNTR keeps it
 * on a counter that can).
 *
 * Context: perf_event_open(), may sleep.
 * Return: 1 when the event needs no LBR of its own, 0 when it does, or
 * -EINVAL.
 */
int intel_lbr_log_init(struct perf_event *event, u64 log_cntrs)
{
	struct perf_event *leader = event->group_leader, *m;
	u64 bst = event->attr.branch_sample_type;
	unsigned int n = 0;

	if (!log_cntrs)
		return -EINVAL;
	if (event->attr.config & ~(ARCH_PERFMON_EVENTSEL_EVENT |
				   ARCH_PERFMON_EVENTSEL_UMASK))
		return -EINVAL;
	if (!lbr_log_member(leader, &n))
		return -EINVAL;
	for_each_sibling_event(m, leader) {
		if (!lbr_log_member(m, &n))
			return -EINVAL;
	}
	if (event != leader && !lbr_log_member(event, &n))
		return -EINVAL;
	if (n > fls64(log_cntrs))
		return -EINVAL;
	/* the LBR follows the leader: it must record, or be this event */
	if (!(bst & ~LBR_LOG_ONLY)) {
		if (event == leader)
			return -EINVAL;
	}
	if (event != leader && !(leader->hw.flags & X86_EVENT_FLAG_LBR))
		return -EINVAL;

	event->hw.config |= ARCH_PERFMON_EVENTSEL_BR_CNTR;
	event->hw.flags |= X86_EVENT_FLAG_BR_CNTR;
	return !(bst & ~LBR_LOG_ONLY);
}

/*
 * The counters of @event's group's logging events, in group order, into
 * @order; how many there are. None when @event itself does not ask for
 * the counts: its samples then carry none.
 */
static unsigned int lbr_log_order(struct perf_event *event, int *order)
{
	struct perf_event *leader = event->group_leader, *m;
	unsigned int n = 0;

	if (!lbr_logs(event))
		return 0;
	if (lbr_logs(leader) && leader->hw.idx >= 0)
		order[n++] = leader->hw.idx;
	for_each_sibling_event(m, leader) {
		if (n < LBR_INFO_BR_CNTR_NUM && lbr_logs(m) && m->hw.idx >= 0)
			order[n++] = m->hw.idx;
	}
	return n;
}

/**
 * intel_lbr_log_stash - keep each entry's counts with it through the filter
 * @event: the event whose sample the stack is for
 * @bs: the decoded stack, entries in the order of @rec
 * @rec: the entries as read, youngest first
 * @order: filled with the counters of the group's logging events
 *
 * The counts ride in the entries' reserved bits while ../lbr_filter.c
 * drops and moves entries; intel_lbr_log_take() takes them out again,
 * so that no sample ever carries them there.
 *
 * Return: how many logging events @order holds, 0 when the sample
 * carries no counts.
 */
unsigned int intel_lbr_log_stash(struct perf_event *event,
				 struct perf_branch_stack *bs,
				 const struct intel_lbr_rec *rec, int *order)
{
	unsigned int i, n = lbr_log_order(event, order);

	if (!n)
		return 0;
	for (i = 0; i < bs->nr; i++)
		bs->entries[i].reserved = FIELD_GET(LBR_LOG_COUNTS,
						    rec[i].info);
	return n;
}

/**
 * intel_lbr_log_take - the counts of a filtered stack, in group order
 * @bs: the stack, after the filter
 * @order: as intel_lbr_log_stash() filled it
 * @n: its length
 * @cntrs: room for @bs->nr values
 */
void intel_lbr_log_take(struct perf_branch_stack *bs, const int *order,
			unsigned int n, u64 *cntrs)
{
	unsigned int i, j;
	u64 raw, v;

	for (i = 0; i < bs->nr; i++) {
		raw = bs->entries[i].reserved;
		bs->entries[i].reserved = 0;
		v = 0;
		for (j = 0; j < n; j++)
			v |= ((raw >> (order[j] * LBR_INFO_BR_CNTR_BITS)) &
			      LBR_INFO_BR_CNTR_MASK) <<
			     (j * LBR_INFO_BR_CNTR_BITS);
		cntrs[i] = v;
	}
}
