// SPDX-License-Identifier: GPL-2.0
/*
 * Time accounting: the clock events are timed by, context time, and an
 * event's enabled and running times.
 *
 * ctx->time advances only while the context is active (scheduled in on a
 * CPU).  An event's enabled time advances while it is INACTIVE or ACTIVE,
 * its running time while it is ACTIVE, both measured in context time, so a
 * task's event does not accumulate enabled time while the task sleeps, and
 * time_enabled - time_running is exactly the time it waited for a counter.
 */
#include <linux/sched/clock.h>

#include "cgroup.h"
#include "time.h"

/**
 * perf_clock - the clock event times are measured in
 *
 * Context: any, including NMI.
 * Return: nanoseconds, monotonic per CPU.
 */
u64 perf_clock(void)
{
	return local_clock();
}

/**
 * perf_ctx_update_time - bring ctx->time up to now
 * @ctx: the context; ctx->lock held
 */
void perf_ctx_update_time(struct perf_event_context *ctx)
{
	u64 now;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active)
		return;
	now = perf_clock();
	ctx->time += now - ctx->timestamp;
	ctx->timestamp = now;
	if (perf_ctx_has_cgroups(ctx))
		perf_cgroup_ctx_time(ctx, now);
}

/**
 * perf_ctx_activate - the context starts being scheduled in on this CPU
 * @ctx: the context; ctx->lock held
 */
void perf_ctx_activate(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	ctx->timestamp = perf_clock();
	ctx->is_active = 1;
	if (perf_ctx_has_cgroups(ctx))
		perf_cgroup_ctx_active(ctx, true, ctx->timestamp);
}

/**
 * perf_ctx_deactivate - the context stops being scheduled in
 * @ctx: the context; ctx->lock held, its events already off the PMUs
 *
 * Callers bring ctx->time up to date before they take the events off:
 * advancing it again here would give every event enabled time it never
 * had a chance to run in (running < enabled with nothing multiplexed).
 */
void perf_ctx_deactivate(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	ctx->is_active = 0;
	if (perf_ctx_has_cgroups(ctx))
		perf_cgroup_ctx_active(ctx, false, ctx->timestamp);
}

/* the clock @event's times are kept in: its cgroup's, or its context's */
static u64 perf_event_clock_base(struct perf_event *event)
{
	if (!event->ctx)
		return 0;
	if (perf_event_is_cgroup(event))
		return perf_cgroup_event_time(event);
	return event->ctx->time;
}

/**
 * perf_event_start_time - start timing an event that joins its context
 * @event: the event; its ctx->lock held
 */
void perf_event_start_time(struct perf_event *event)
{
	event->tstamp = perf_event_clock_base(event);
}

/*
 * The state an event's times follow. A group runs only as a whole, so
 * while its leader is off (or worse: in error, exiting) a sibling is
 * neither enabled nor running, whatever its own state says: a sibling
 * created enabled under a disabled leader must show no enabled time
 * before the leader is enabled, or every reader that scales counts by
 * enabled/running time (perf, PAPI) scales them wrongly.
 */
static int perf_event_times_state(struct perf_event *event)
{
	struct perf_event *leader = READ_ONCE(event->group_leader);
	int lstate = READ_ONCE(leader->state);

	if (lstate < PERF_EVENT_STATE_INACTIVE)
		return lstate;
	return READ_ONCE(event->state);
}

/**
 * perf_event_update_time - fold elapsed context time into an event's times
 * @event: the event; its ctx->lock held, or already out of its context
 *	(then nothing else changes its times: exec and exit settle them so)
 */
void perf_event_update_time(struct perf_event *event)
{
	u64 now = perf_event_clock_base(event);
	u64 delta = now - event->tstamp;
	int state = perf_event_times_state(event);

	/*
	 * read() takes the times without ctx->lock: enabled is published
	 * before running (paired with perf_event_read_count()), so a
	 * reader never sees more running than enabled time.
	 */
	if (state >= PERF_EVENT_STATE_INACTIVE)
		WRITE_ONCE(event->total_time_enabled,
			   event->total_time_enabled + delta);
	/* enabled before running; pairs with perf_event_read_count() */
	smp_wmb();
	if (state == PERF_EVENT_STATE_ACTIVE)
		WRITE_ONCE(event->total_time_running,
			   event->total_time_running + delta);
	event->tstamp = now;
}

/**
 * perf_event_set_state - change an event's state, settling its times first
 * @event: the event; its ctx->lock held, or already out of its context
 * @state: the new state
 */
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state)
{
	bool was_on = event->state >= PERF_EVENT_STATE_INACTIVE;
	bool is_on = state >= PERF_EVENT_STATE_INACTIVE;

	if (event->state == state)
		return;
	/*
	 * Only perf_event_sched_out() takes an event out of ACTIVE, and it
	 * clears ->oncpu once the PMU has let go of the event: anything
	 * else would leave the PMU (a software event's hash list) pointing
	 * at an event that may be freed.
	 */
	WARN_ON_ONCE(event->state == PERF_EVENT_STATE_ACTIVE &&
		     READ_ONCE(event->oncpu) != -1);
	perf_event_update_time(event);
	/*
	 * A leader going off, or coming back, changes what its siblings'
	 * times follow (perf_event_times_state()): settle theirs under the
	 * old state first.
	 */
	if (event->group_leader == event && was_on != is_on) {
		struct perf_event *sibling;

		for_each_sibling_event(sibling, event)
			perf_event_update_time(sibling);
	}
	WRITE_ONCE(event->state, state);
}

/**
 * perf_event_times_now - an event's enabled and running time at this instant
 * @event: the event
 * @now: set to the perf_clock() time the values are for
 * @enabled: set to the total enabled time
 * @running: set to the total running time
 *
 * Context: any, including NMI, without ctx->lock.  The times are folded
 * into the event only under ctx->lock with IRQs off on the event's CPU, so
 * a reader on that CPU sees a consistent pair except from an NMI that hit
 * in the middle of such an update; the values are then off by that update.
 */
void perf_event_times_now(struct perf_event *event, u64 *now,
			  u64 *enabled, u64 *running)
{
	struct perf_event_context *ctx = READ_ONCE(event->ctx);
	int state = perf_event_times_state(event);
	u64 ctx_time = 0, delta;

	*now = perf_clock();
	*enabled = READ_ONCE(event->total_time_enabled);
	*running = READ_ONCE(event->total_time_running);
	if (!ctx)
		return;
	if (perf_event_is_cgroup(event)) {
		ctx_time = perf_cgroup_event_time_now(event, *now);
	} else {
		ctx_time = READ_ONCE(ctx->time);
		if (READ_ONCE(ctx->is_active))
			ctx_time += *now - READ_ONCE(ctx->timestamp);
	}
	delta = ctx_time - READ_ONCE(event->tstamp);
	if ((s64)delta < 0)
		delta = 0;
	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (state == PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}
