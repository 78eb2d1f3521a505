// SPDX-License-Identifier: GPL-2.0
/*
 * Changing an event's place and state: installing it into its context,
 * removing it, enable and disable (one event or a group), reset, and the
 * period, refresh and pause calls of ioctl() and of in-kernel users.
 *
 * An event is installed into one context for its whole life.  Every
 * change to what is on a PMU goes through perf_ctx_call() (remote.c), so
 * it happens on the CPU that owns the context, under ctx->lock with IRQs
 * off.  Process-context callers hold ctx->mutex around those calls, which
 * keeps the event in its context and its group stable.
 */
#include "aux.h"
#include "cgroup.h"
#include "context.h"
#include "control.h"
#include "event.h"
#include "groups.h"
#include "read.h"
#include "remote.h"
#include "sched.h"
#include "sideband.h"
#include "time.h"

/*
 * The part of joining @ctx that is the event's own, whatever its group:
 * the context's lists and counts, side-band, and its clock.  ctx->lock.
 */
static void ctx_account_event(struct perf_event *event,
			      struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (perf_event_is_cgroup(event))
		perf_cgroup_event_added(ctx, event);
	perf_event_start_time(event);
	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	if (event->attr.inherit_stat)
		ctx->nr_stat++;
	/* the tick re-derives the periods of frequency-mode events */
	if (event->attr.freq)
		ctx->nr_freq++;
	if (perf_event_user_read_ctx(event))
		ctx->nr_user_read++;
	if (event->attach_state & PERF_ATTACH_TASK_DATA)
		ctx->nr_task_data++;
	event->attach_state |= PERF_ATTACH_CONTEXT;
	perf_sb_attach(ctx, event);
}

/*
 * Undo ctx_account_event() but for the cgroup clocks and nr_user_read,
 * which the callers settle around their state changes.  ctx->lock.
 */
static void ctx_unaccount_event(struct perf_event *event,
				struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	perf_sb_detach(ctx, event);
	list_del_init(&event->event_entry);
	ctx->nr_events--;
	if (event->attr.inherit_stat)
		ctx->nr_stat--;
	if (event->attr.freq)
		ctx->nr_freq--;
	if (event->attach_state & PERF_ATTACH_TASK_DATA)
		ctx->nr_task_data--;
	event->attach_state &= ~PERF_ATTACH_CONTEXT;
}

/* Add @event to @ctx's lists.  ctx->lock held. */
static void ctx_add_event(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;
	bool held;

	ctx_account_event(event, ctx);
	if (leader == event) {
		perf_group_link(ctx, event);
	} else {
		/* a member can change what the group competes for */
		held = perf_group_edit_begin(ctx, leader);
		list_add_tail(&event->sibling_entry, &leader->sibling_list);
		leader->nr_siblings++;
		perf_group_edit_end(ctx, leader, held);
		event->attach_state |= PERF_ATTACH_GROUP;
	}
}

/*
 * @event (new, or just enabled) may count now: put it on where its
 * context is active.  A pinned leader that competes for counters outranks
 * the flexible groups, so everything goes back on in order; a new or
 * re-enabled member takes its running group off and back on as a whole.
 * ctx->lock held, IRQs off, on the context's CPU when it is active.
 */
static void perf_event_place(struct perf_event *event,
			     struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active)
		return;
	if (leader == event && event->attr.pinned &&
	    !(event->event_caps & PERF_EV_CAP_SOFTWARE)) {
		perf_ctx_resched(ctx);
	} else if (leader == event) {
		perf_group_try_sched_in(event, ctx);
	} else if (leader->state == PERF_EVENT_STATE_ACTIVE) {
		perf_group_sched_out(leader, ctx);
		perf_group_try_sched_in(leader, ctx);
	}
}

static void __perf_install(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	ctx_add_event(event, ctx);
	perf_event_place(event, ctx);
}

/**
 * perf_install_in_context - make a new event part of a context
 * @ctx: the context (a reference is passed to the event)
 * @event: the event; event->ctx must already be @ctx
 *
 * Context: process context, ctx->mutex held.
 */
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);
	/* reserved by the caller: linking cannot allocate (IRQs off) */
	WARN_ON_ONCE(event->group_leader == event &&
		     perf_groups_reserve(ctx, event->cpu));
	perf_event_calc_sizes(event);
	if (event->group_leader != event)
		perf_event_calc_sizes(event->group_leader);
	perf_ctx_call(event, __perf_install, NULL);
}

static void __perf_remove(struct perf_event *event,
			  struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling, *tmp;
	bool user_read;

	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;

	/*
	 * Counted out before its PMU is enabled again, whether or not it
	 * was on a counter: ->pmu_enable then closes the user access the
	 * task had only through this event.
	 */
	user_read = perf_event_user_read_ctx(event);
	if (user_read) {
		ctx->nr_user_read--;
		perf_pmu_disable(event->pmu);
	}
	perf_event_sched_out(event, ctx);
	if (user_read)
		perf_pmu_enable(event->pmu);
	perf_event_update_time(event);

	if (leader != event) {
		bool held = perf_group_edit_begin(ctx, leader);

		list_del_init(&event->sibling_entry);
		leader->nr_siblings--;
		perf_group_edit_end(ctx, leader, held);
		event->group_leader = event;
	} else {
		perf_group_set_on(ctx, event, false);
		perf_group_unlink(ctx, event);
		/*
		 * Members become groups of their own, keeping their state: one
		 * still counting is a group on a PMU now.
		 */
		list_for_each_entry_safe(sibling, tmp, &event->sibling_list,
					 sibling_entry) {
			list_del_init(&sibling->sibling_entry);
			sibling->group_leader = sibling;
			sibling->attach_state &= ~PERF_ATTACH_GROUP;
			/* one acting on the leader's trace goes to ERROR */
			perf_aux_leader_leaves(event, sibling, ctx);
			perf_group_link(ctx, sibling);
			if (sibling->state == PERF_EVENT_STATE_ACTIVE)
				perf_group_set_on(ctx, sibling, true);
		}
		event->nr_siblings = 0;
	}

	ctx_unaccount_event(event, ctx);
	event->attach_state &= ~PERF_ATTACH_GROUP;
	if (event->state > PERF_EVENT_STATE_EXIT)
		perf_event_set_state(event, *(enum perf_event_state *)data);
	/* its times are settled: the last one stops the cgroup clocks */
	if (perf_event_is_cgroup(event))
		perf_cgroup_event_removed(ctx, event);
}

/**
 * perf_remove_from_context - take an event out of its context for good
 * @event: the event
 * @exited: leave it in the EXIT state (its task exec'd: remove_on_exec)
 *	rather than OFF
 *
 * The final state is set in the same critical section that takes the
 * event off its PMU.  An inherited copy is also reached from its
 * original's side (an ioctl on the original enables every copy) under
 * child_mutex alone; once out of the context, nothing may put it back
 * on a PMU, and a copy still in the context until a later state change
 * would be re-enabled in between.
 *
 * Context: process context, ctx->mutex held.
 */
void perf_remove_from_context(struct perf_event *event, bool exited)
{
	enum perf_event_state final = exited ? PERF_EVENT_STATE_EXIT :
					       PERF_EVENT_STATE_OFF;

	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call(event, __perf_remove, &final);
}

/*
 * Moving a group to another CPU's context (scope.c): it leaves as a whole
 * and arrives as a whole.  Members stay members, each event keeps its
 * state (a running group arrives waiting, to go on again at once where it
 * fits) and its times, which are settled on the way out and restarted on
 * the way in against the new context's clock.
 */
static void group_member_leave(struct perf_event *event,
			       struct perf_event_context *ctx)
{
	perf_event_update_time(event);
	if (perf_event_user_read_ctx(event))
		ctx->nr_user_read--;
	ctx_unaccount_event(event, ctx);
	if (perf_event_is_cgroup(event))
		perf_cgroup_event_removed(ctx, event);
}

static void __perf_group_lift(struct perf_event *leader,
			      struct perf_event_context *ctx, void *data)
{
	struct perf_event *sibling;

	if (!(leader->attach_state & PERF_ATTACH_CONTEXT))
		return;
	perf_group_sched_out(leader, ctx);
	perf_group_unlink(ctx, leader);
	group_member_leave(leader, ctx);
	for_each_sibling_event(sibling, leader)
		group_member_leave(sibling, ctx);
}

static void __perf_group_land(struct perf_event *leader,
			      struct perf_event_context *ctx, void *data)
{
	struct perf_event *sibling;

	ctx_account_event(leader, ctx);
	for_each_sibling_event(sibling, leader)
		ctx_account_event(sibling, ctx);
	perf_group_link(ctx, leader);
	if (leader->state == PERF_EVENT_STATE_INACTIVE)
		perf_event_place(leader, ctx);
}

/**
 * perf_group_lift - take a whole group out of its CPU context, intact
 * @leader: the group leader, in a CPU context
 *
 * Afterwards no member is on a PMU or in any context list, and only the
 * caller, who holds the context's mutex, may touch the group until
 * perf_group_land().
 *
 * Context: process context, leader->ctx->mutex held.
 */
void perf_group_lift(struct perf_event *leader)
{
	lockdep_assert_held(&leader->ctx->mutex);
	perf_ctx_call(leader, __perf_group_lift, NULL);
}

/**
 * perf_group_land - put a lifted group into its (new) context
 * @leader: the group leader; leader->ctx and every member's ctx and cpu
 *	already name the new context
 *
 * Context: process context, the new context's mutex held.
 */
void perf_group_land(struct perf_event *leader)
{
	lockdep_assert_held(&leader->ctx->mutex);
	perf_ctx_call(leader, __perf_group_land, NULL);
}

static void __perf_enable(struct perf_event *event,
			  struct perf_event_context *ctx, void *data)
{
	/* a copy removed meanwhile, reached from its original */
	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT)
		return;
	if (event->state == PERF_EVENT_STATE_ERROR)
		perf_event_set_state(event, PERF_EVENT_STATE_OFF);
	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	perf_event_place(event, ctx);
}

/**
 * perf_event_do_enable - enable one event
 * @event: the event
 *
 * Context: process context, ctx->mutex held, or for an inherited copy its
 * original's child_mutex.
 */
void perf_event_do_enable(struct perf_event *event)
{
	perf_event_assert_locked(event);
	perf_ctx_call(event, __perf_enable, NULL);
}

static void __perf_disable(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (event->group_leader == event)
		perf_group_sched_out(event, ctx);
	else
		perf_event_sched_out(event, ctx);
	perf_event_set_state(event, PERF_EVENT_STATE_OFF);
}

/**
 * perf_event_do_disable - disable one event
 * @event: the event
 *
 * Context: process context, ctx->mutex held, or for an inherited copy its
 * original's child_mutex.
 */
void perf_event_do_disable(struct perf_event *event)
{
	perf_event_assert_locked(event);
	perf_ctx_call(event, __perf_disable, NULL);
}

/*
 * PERF_IOC_FLAG_GROUP on a leader: every member changes in one call, so
 * the group is scheduled out or in once rather than once per member.
 */
static void __perf_group_enable(struct perf_event *leader,
				struct perf_event_context *ctx, void *data)
{
	struct perf_event *sibling;
	bool changed = false;

	for_each_sibling_event(sibling, leader) {
		if (sibling->state >= PERF_EVENT_STATE_INACTIVE ||
		    sibling->state <= PERF_EVENT_STATE_EXIT)
			continue;
		if (sibling->state == PERF_EVENT_STATE_ERROR)
			perf_event_set_state(sibling, PERF_EVENT_STATE_OFF);
		perf_event_set_state(sibling, PERF_EVENT_STATE_INACTIVE);
		changed = true;
	}
	if (leader->state != PERF_EVENT_STATE_ACTIVE) {
		__perf_enable(leader, ctx, NULL);
	} else if (changed && ctx->is_active) {
		perf_group_sched_out(leader, ctx);
		perf_group_try_sched_in(leader, ctx);
	}
}

static void __perf_group_disable(struct perf_event *leader,
				 struct perf_event_context *ctx, void *data)
{
	struct perf_event *sibling;

	__perf_disable(leader, ctx, NULL);
	for_each_sibling_event(sibling, leader)
		__perf_disable(sibling, ctx, NULL);
}

/**
 * perf_event_group_switch - enable or disable a whole group at once
 * @leader: the group leader
 * @enable: which
 *
 * The inherited copies are the caller's business.
 * Context: process context, ctx->mutex held.
 */
void perf_event_group_switch(struct perf_event *leader, bool enable)
{
	lockdep_assert_held(&leader->ctx->mutex);
	perf_ctx_call(leader, enable ? __perf_group_enable :
				       __perf_group_disable, NULL);
}

/**
 * perf_event_enable - enable an event (kernel users)
 * @event: the event
 */
void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_event_do_enable(event);
	mutex_unlock(&ctx->mutex);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

/**
 * perf_event_disable - disable an event (kernel users)
 * @event: the event
 */
void perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_event_do_disable(event);
	mutex_unlock(&ctx->mutex);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

/**
 * perf_event_disable_local - disable an event from its own CPU
 * @event: the event, whose context is active on this CPU
 *
 * Context: IRQs off (PMU interrupt or IPI); takes ctx->lock.
 */
void perf_event_disable_local(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;
	unsigned long flags;

	lockdep_assert_irqs_disabled();
	raw_spin_lock_irqsave(&ctx->lock, flags);
	perf_ctx_update_time(ctx);
	__perf_disable(event, ctx, NULL);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

static void __perf_reset(struct perf_event *event,
			 struct perf_event_context *ctx, void *data)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	local64_set(&event->count, 0);
}

/**
 * perf_event_reset - zero an event's count (ioctl RESET)
 * @event: the event
 *
 * Context: process context, ctx->mutex held, or for an inherited copy its
 * original's child_mutex.
 */
void perf_event_reset(struct perf_event *event)
{
	perf_event_assert_locked(event);
	perf_ctx_call(event, __perf_reset, NULL);
	perf_event_update_userpage(event);
}

/*
 * The new period applies at once: a running event is stopped, its pending
 * remainder dropped and the counter restarted with the new period.  A
 * throttled event gets a fresh start too.  ctx->lock held, on the event's
 * CPU when it is active.
 */
static void __perf_event_period(struct perf_event *event,
				struct perf_event_context *ctx, void *data)
{
	struct pmu *pmu = event->pmu;
	u64 value = *(u64 *)data;

	/* in freq mode the value is a rate, and the period derives from it */
	if (!event->attr.freq) {
		event->hw.sample_period = value;
		event->attr.sample_period = value;
	} else {
		event->attr.sample_freq = value;
	}

	if (event->state != PERF_EVENT_STATE_ACTIVE) {
		local64_set(&event->hw.period_left, 0);
		return;
	}
	perf_pmu_disable(pmu);
	event->hw.interrupts = 0;
	pmu->stop(event, PERF_EF_UPDATE);
	local64_set(&event->hw.period_left, 0);
	pmu->start(event, PERF_EF_RELOAD);
	perf_pmu_enable(pmu);
}

/**
 * perf_event_period - change a sampling event's period (ioctl PERIOD)
 * @event: the event
 * @value: the new period, or frequency in freq mode
 *
 * Context: process; takes the event's ctx->mutex.
 * Return: 0 or a negative errno.
 */
int perf_event_period(struct perf_event *event, u64 value)
{
	struct perf_event_context *ctx;

	if (!is_sampling_event(event))
		return -EINVAL;
	if (!value)
		return -EINVAL;
	if (event->attr.freq && value > sysctl_perf_event_sample_rate)
		return -EINVAL;
	if (!event->attr.freq && (value & (1ULL << 63)))
		return -EINVAL;
	if (event->pmu->check_period && event->pmu->check_period(event, value))
		return -EINVAL;

	ctx = perf_event_ctx_lock(event);
	perf_ctx_call(event, __perf_event_period, &value);
	mutex_unlock(&ctx->mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/**
 * perf_event_refresh - allow @refresh more overflows, then disable
 * @event: the event
 * @refresh: how many
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;
	if (refresh <= 0)
		return -EINVAL;
	atomic_add(refresh, &event->event_limit);
	perf_event_enable(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);

/**
 * perf_event_pause - stop an event and optionally zero it (KVM's use)
 * @event: the event
 * @reset: zero the count too
 *
 * Return: the count before any reset.
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	u64 enabled, running, count;

	perf_event_do_disable(event);
	count = perf_event_read_count(event, &enabled, &running);
	if (reset)
		local64_set(&event->count, 0);
	mutex_unlock(&ctx->mutex);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);
