/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading counts: bringing them up to date and summing the inherited
 * copies (read.c).
 */
#ifndef _KERNEL_EVENTS_READ_H
#define _KERNEL_EVENTS_READ_H

#include <linux/perf_event.h>

#include "context.h"

/* read.c */
void perf_event_sync_group(struct perf_event *event, bool group);
u64 perf_event_read_children(struct perf_event *event, u64 *enabled,
			     u64 *running);
u64 perf_event_read_copy(struct perf_event *event, u64 *enabled,
			 u64 *running);

/**
 * perf_event_read_count - an event's value and times, with what its
 * exited inherited copies folded into it
 * @event: the event
 * @enabled: its enabled time
 * @running: its running time
 *
 * Context: process context, ctx->mutex held, or for an inherited copy its
 * original's child_mutex; the count must have been synchronised
 * (perf_event_sync_group()) by the caller when it matters.
 * Return: the count.
 */
static inline u64 perf_event_read_count(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	perf_event_assert_locked(event);
	/* running first: see perf_event_update_time() */
	*running = READ_ONCE(event->total_time_running) +
		   atomic64_read(&event->child_total_time_running);
	/* running before enabled; pairs with perf_event_update_time() */
	smp_rmb();
	*enabled = READ_ONCE(event->total_time_enabled) +
		   atomic64_read(&event->child_total_time_enabled);
	return local64_read(&event->count) +
	       atomic64_read(&event->child_count);
}

/**
 * perf_event_read_total - an event's value and times including the
 * inherited copies still counting in live child tasks
 * @event: the event, already synchronised by the caller
 * @enabled: its enabled time, children included
 * @running: its running time, children included
 *
 * Inline because read() calls it for every member of a group, and most
 * events have no copies.
 *
 * Context: process context, the event's ctx->mutex held; may take
 * child_mutex (perf_event_read_children()).
 * Return: the count.
 */
static inline u64 perf_event_read_total(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	lockdep_assert_held(&event->ctx->mutex);
	/* a copy made concurrently is no different from one made just after */
	if (list_empty(&event->child_list))
		return perf_event_read_count(event, enabled, running);
	return perf_event_read_children(event, enabled, running);
}

#endif /* _KERNEL_EVENTS_READ_H */
