// SPDX-License-Identifier: GPL-2.0
/*
 * Reading events: bringing a count and its times up to date on the CPU
 * the event counts on (perf_ctx_call_read()), and summing the inherited
 * copies.  The values themselves are laid out by file.c (read()) and
 * sample.c (PERF_SAMPLE_READ).
 *
 * A read takes only the event's context lock on the remote CPU, never the
 * CPU context's: it changes nothing that is on a PMU.  Inherited copies
 * are read under their original's child_mutex, which keeps them alive.
 */
#include "context.h"
#include "read.h"
#include "remote.h"
#include "time.h"

struct perf_read_data {
	bool	group;
};

static void __perf_read(struct perf_event *event,
			struct perf_event_context *ctx, void *data)
{
	struct perf_read_data *rd = data;
	struct perf_event *sibling;
	struct pmu *pmu = event->pmu;

	if (rd->group && pmu->start_txn)
		pmu->start_txn(pmu, PERF_PMU_TXN_READ);
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		pmu->read(event);
	perf_event_update_time(event);
	if (rd->group) {
		for_each_sibling_event(sibling, event) {
			if (sibling->state == PERF_EVENT_STATE_ACTIVE)
				sibling->pmu->read(sibling);
			perf_event_update_time(sibling);
		}
		if (pmu->commit_txn)
			pmu->commit_txn(pmu);
	}
}

/**
 * perf_event_sync_group - bring an event's (and optionally its group's)
 * count and times up to date
 * @event: the event
 * @group: also its siblings (@event must be the leader)
 *
 * Context: process context, ctx->mutex held.
 */
void perf_event_sync_group(struct perf_event *event, bool group)
{
	struct perf_read_data rd = { .group = group };

	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call_read(event, __perf_read, &rd);
}

/**
 * perf_event_read_children - perf_event_read_total() for an event that
 * has inherited copies
 * @event: the event, already synchronised by the caller
 * @enabled: its enabled time, children included
 * @running: its running time, children included
 *
 * Context: process context, the event's ctx->mutex held.  Takes
 * child_mutex, which keeps the copies alive; never a copy's ctx->mutex
 * (a forking task holds that one while it takes child_mutex).
 * Return: the count.
 */
u64 perf_event_read_children(struct perf_event *event, u64 *enabled,
			     u64 *running)
{
	struct perf_event *child;
	u64 val, e, r;

	lockdep_assert_held(&event->ctx->mutex);
	/*
	 * A copy that exits folds its count into ours and leaves the list
	 * under child_mutex: read both under it, or its count is missed.
	 */
	mutex_lock(&event->child_mutex);
	val = perf_event_read_count(event, enabled, running);
	list_for_each_entry(child, &event->child_list, child_list) {
		val += perf_event_read_copy(child, &e, &r);
		*enabled += e;
		*running += r;
	}
	mutex_unlock(&event->child_mutex);
	return val;
}

/**
 * perf_event_read_copy - one event alone, brought up to date from its PMU
 * wherever it runs: an inherited copy, or an original without its copies
 * @event: the event
 * @enabled: its enabled time
 * @running: its running time
 *
 * Context: process context; for a copy, its original's child_mutex held,
 * which keeps it alive.
 * Return: the count.
 */
u64 perf_event_read_copy(struct perf_event *event, u64 *enabled,
			 u64 *running)
{
	struct perf_read_data rd = { .group = false };

	might_sleep();
	perf_ctx_call_read(event, __perf_read, &rd);
	return perf_event_read_count(event, enabled, running);
}

/**
 * perf_event_read_value - read an event (kernel users)
 * @event: the event
 * @enabled: its enabled time
 * @running: its running time
 *
 * Return: the count.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	u64 val;

	perf_event_sync_group(event, false);
	val = perf_event_read_total(event, enabled, running);
	mutex_unlock(&ctx->mutex);
	return val;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);
