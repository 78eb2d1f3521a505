// SPDX-License-Identifier: GPL-2.0
/*
 * Event contexts: which events count where, and for how long.
 *
 * A context holds the events of one task (task->perf_event_ctxp) or of one
 * CPU (perf_cpu_ctx.ctx).  Group leaders sit on ctx->pinned_groups or
 * ctx->flexible_groups; members hang off their leader.  A context is
 * "active" (ctx->is_active) while it is scheduled in on a CPU: a CPU's own
 * context whenever the CPU is online, a task's context while the task runs.
 * Only an active context has events on a PMU, and only the CPU it is active
 * on may touch them: other CPUs go through perf_ctx_call().
 *
 * Locking:
 *  - ctx->lock (raw, IRQs off) protects is_active, the event states and
 *    times, and the group lists while scheduling walks them.  When both are
 *    needed the CPU context's lock is taken before a task context's.
 *  - ctx->mutex serialises list changes made from process context; it is
 *    taken before ctx->lock.
 *  - The scheduler hooks run with the runqueue lock held and IRQs off.
 *
 * Cheap swap: a context inherited at fork is a clone of its parent's
 * context (ctx->parent_ctx, ctx->parent_gen).  When the scheduler switches
 * between two tasks whose contexts are clones of the same context at the
 * same generation, neither pinned (ctx->pin_count), the two contexts trade
 * tasks instead of being scheduled out and in: the running context stays
 * on the PMUs for the next task (perf_ctx_try_swap()).  Every change that
 * makes a context differ from its clones unclones it and bumps its
 * generation (perf_unclone_ctx()); code that needs a task's context to stay
 * that task's pins it (perf_pin_task_ctx()).  task->perf_event_ctxp
 * therefore changes under the two contexts' locks as well as under
 * task->perf_event_mutex: readers that are not the scheduler pin.
 *
 * Time: ctx->time advances only while the context is active.  An event's
 * enabled time advances while it is INACTIVE or ACTIVE, its running time
 * while it is ACTIVE, both measured in context time, so a task's event does
 * not accumulate enabled time while the task sleeps.
 */
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/cpu.h>

#include "internal.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/*
 * CPU contexts' locks are a class of their own for lockdep: a task
 * context's lock is taken inside its CPU context's (perf_ctx_lock()).
 */
static struct lock_class_key perf_cpu_ctx_lock_key;
static struct lock_class_key perf_cpu_ctx_mutex_key;

/* Enabled while per-task events exist; the sched hooks test it. */
DEFINE_STATIC_KEY_FALSE(perf_sched_events);
static atomic_t nr_task_events;
static DEFINE_MUTEX(perf_sched_mutex);

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

void perf_task_events_inc(void)
{
	if (atomic_inc_not_zero(&nr_task_events))
		return;
	mutex_lock(&perf_sched_mutex);
	if (atomic_read(&nr_task_events) == 0)
		static_branch_enable(&perf_sched_events);
	atomic_inc(&nr_task_events);
	mutex_unlock(&perf_sched_mutex);
}

void perf_task_events_dec(void)
{
	if (atomic_add_unless(&nr_task_events, -1, 1))
		return;
	mutex_lock(&perf_sched_mutex);
	if (atomic_dec_and_test(&nr_task_events))
		static_branch_disable(&perf_sched_events);
	mutex_unlock(&perf_sched_mutex);
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
}

/**
 * perf_event_update_time - fold elapsed context time into an event's times
 * @event: the event; its ctx->lock held, or already out of its context
 *	(then nothing else changes its times: exec and exit settle them so)
 */
void perf_event_update_time(struct perf_event *event)
{
	u64 now = event->ctx ? event->ctx->time : 0;
	u64 delta = now - event->tstamp;

	/*
	 * read() takes the times without ctx->lock: enabled is published
	 * before running (paired with perf_event_read_count()), so a
	 * reader never sees more running than enabled time.
	 */
	if (event->state >= PERF_EVENT_STATE_INACTIVE)
		WRITE_ONCE(event->total_time_enabled,
			   event->total_time_enabled + delta);
	/* enabled before running; pairs with perf_event_read_count() */
	smp_wmb();
	if (event->state == PERF_EVENT_STATE_ACTIVE)
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
	if (event->state == state)
		return;
	perf_event_update_time(event);
	WRITE_ONCE(event->state, state);
}

void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx)
{
	raw_spin_lock(&cpuctx->ctx.lock);
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_lock(&ctx->lock);
}

void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_unlock(&ctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/* May @event count on this CPU at all? */
static bool event_filter_match(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (pmu->filter && pmu->filter(pmu, smp_processor_id()))
		return false;
	return true;
}

/* Put one event on its PMU.  IRQs off, ctx->lock held, ctx active here. */
static int event_sched_in(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	if (!event_filter_match(event))
		return 0;

	/* a task that was throttled may not see a tick soon: start afresh */
	if (unlikely(perf_event_is_throttled(event)))
		perf_event_unthrottle(event);
	WRITE_ONCE(event->oncpu, smp_processor_id());
	perf_event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	if (event->pmu->add(event, PERF_EF_START)) {
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}
	ctx->nr_active++;
	if (rcu_access_pointer(event->rb))
		perf_event_update_userpage(event);
	return 0;
}

/**
 * perf_event_sched_out - take one event off its PMU
 * @event: the event
 * @ctx: its context; ctx->lock held, IRQs off, on the CPU it is active on
 *
 * An event whose overflow asked to be disabled (a REFRESH limit used up,
 * perf_event_disable_inatomic()) and whose irq_work has not run yet is
 * disabled here: the irq_work acts only on an event still on its CPU, and
 * once this one is off, nothing else would stop it from going back on.
 */
void perf_event_sched_out(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	enum perf_event_state state = PERF_EVENT_STATE_INACTIVE;

	lockdep_assert_held(&ctx->lock);
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	event->pmu->del(event, 0);
	WRITE_ONCE(event->oncpu, -1);
	if (unlikely(READ_ONCE(event->pending_disable))) {
		WRITE_ONCE(event->pending_disable, 0);
		state = PERF_EVENT_STATE_OFF;
	}
	perf_event_set_state(event, state);
	ctx->nr_active--;
	if (rcu_access_pointer(event->rb))
		perf_event_update_userpage(event);
}

/**
 * perf_group_sched_out - take a whole group off the PMUs
 * @leader: the group leader
 * @ctx: its context; ctx->lock held, IRQs off
 */
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx)
{
	struct perf_event *sibling;

	lockdep_assert_held(&ctx->lock);
	perf_pmu_disable(leader->pmu);
	perf_event_sched_out(leader, ctx);
	for_each_sibling_event(sibling, leader)
		perf_event_sched_out(sibling, ctx);
	perf_pmu_enable(leader->pmu);
}

/**
 * perf_group_sched_in - put a group on the PMUs, all of it or none of it
 * @leader: the group leader (INACTIVE)
 * @ctx: its context; ctx->lock held, IRQs off, active on this CPU
 *
 * Return: 0 when the group counts, -EAGAIN when it did not fit.
 */
int perf_group_sched_in(struct perf_event *leader,
			struct perf_event_context *ctx)
{
	struct pmu *pmu = leader->pmu;
	struct perf_event *sibling, *failed = NULL;

	lockdep_assert_held(&ctx->lock);
	if (leader->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	if (!event_filter_match(leader))
		return 0;

	perf_pmu_disable(pmu);
	if (pmu->start_txn)
		pmu->start_txn(pmu, PERF_PMU_TXN_ADD);

	if (event_sched_in(leader, ctx))
		goto fail_leader;

	for_each_sibling_event(sibling, leader) {
		if (event_sched_in(sibling, ctx)) {
			failed = sibling;
			goto fail;
		}
	}
	if (!pmu->commit_txn || !pmu->commit_txn(pmu)) {
		perf_pmu_enable(pmu);
		return 0;
	}
fail:
	/* undo the members that made it, in order, up to the one that failed */
	for_each_sibling_event(sibling, leader) {
		if (sibling == failed)
			break;
		perf_event_sched_out(sibling, ctx);
	}
	perf_event_sched_out(leader, ctx);
fail_leader:
	if (pmu->cancel_txn)
		pmu->cancel_txn(pmu);
	perf_pmu_enable(pmu);
	return -EAGAIN;
}

/*
 * Multiplexing.  When a flexible group does not fit on its PMU, this CPU's
 * rotation timer is armed; every interval it takes the flexible groups off,
 * moves the first one to the end of its list and schedules again, so that
 * every group gets its share of counter time.  time_enabled keeps running
 * for a waiting group while time_running does not, which is what lets
 * user space scale the counts.  The timer runs in hard IRQ context on its
 * own CPU and stops by itself when everything fits.
 */
static void perf_rotation_needed(struct perf_event *leader)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	cpuctx->rotate_needed = true;
	if (cpuctx->rotate_active)
		return;
	cpuctx->rotate_active = true;
	cpuctx->rotate_interval_ms =
		max(READ_ONCE(leader->pmu->hrtimer_interval_ms), 1);
	hrtimer_start(&cpuctx->rotate_timer,
		      ms_to_ktime(cpuctx->rotate_interval_ms),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * perf_group_try_sched_in - schedule a group in, or deal with its not fitting
 * @leader: the group leader
 * @ctx: its context; active on this CPU, locks held, IRQs off
 *
 * A flexible group that does not fit waits for the rotation timer; a pinned
 * one is in error until it is re-enabled (read() returns 0 bytes, poll()
 * POLLHUP).
 */
void perf_group_try_sched_in(struct perf_event *leader,
			     struct perf_event_context *ctx)
{
	struct perf_event *sibling;

	if (leader->state != PERF_EVENT_STATE_INACTIVE)
		return;
	if (!perf_group_sched_in(leader, ctx))
		return;
	if (!leader->attr.pinned) {
		perf_rotation_needed(leader);
		return;
	}
	perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
	for_each_sibling_event(sibling, leader)
		perf_event_set_state(sibling, PERF_EVENT_STATE_ERROR);
	perf_event_queue_wakeup(leader);
}

static void ctx_sched_in_list(struct perf_event_context *ctx,
			      struct list_head *groups)
{
	struct perf_event *leader;

	list_for_each_entry(leader, groups, group_entry)
		perf_group_try_sched_in(leader, ctx);
}

static void ctx_sched_in(struct perf_event_context *ctx, bool flexible)
{
	if (!flexible)
		ctx_sched_in_list(ctx, &ctx->pinned_groups);
	else
		ctx_sched_in_list(ctx, &ctx->flexible_groups);
}

static void ctx_sched_out(struct perf_event_context *ctx, bool flexible_only)
{
	struct perf_event *leader;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->nr_active)
		return;
	list_for_each_entry(leader, &ctx->flexible_groups, group_entry)
		perf_group_sched_out(leader, ctx);
	if (flexible_only)
		return;
	list_for_each_entry(leader, &ctx->pinned_groups, group_entry)
		perf_group_sched_out(leader, ctx);
}

static void ctx_activate(struct perf_event_context *ctx)
{
	ctx->timestamp = perf_clock();
	ctx->is_active = 1;
}

/*
 * Callers bring ctx->time up to date before they take the events off:
 * advancing it again here would give every event enabled time it never
 * had a chance to run in (running < enabled with nothing multiplexed).
 */
static void ctx_deactivate(struct perf_event_context *ctx)
{
	ctx->is_active = 0;
}

/*
 * Schedule in the CPU's context and, if given, a task context, in priority
 * order: pinned before flexible, CPU before task within each class.  Both
 * locks held, IRQs off.
 */
static void perf_sched_in_all(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *task_ctx)
{
	struct perf_event_context *cctx = &cpuctx->ctx;

	lockdep_assert_held(&cctx->lock);
	if (task_ctx)
		lockdep_assert_held(&task_ctx->lock);
	if (cctx->is_active)
		ctx_sched_in(cctx, false);
	if (task_ctx)
		ctx_sched_in(task_ctx, false);
	if (cctx->is_active)
		ctx_sched_in(cctx, true);
	if (task_ctx)
		ctx_sched_in(task_ctx, true);
}

/**
 * perf_ctx_resched - re-run scheduling after the event set changed
 * @ctx: the context that changed; active on this CPU, locks held
 *
 * Flexible groups are taken off first so that a newly enabled pinned group
 * gets its counter before them, then everything goes back in order.  The
 * caller has brought both contexts' time up to date (perf_remote_fn()
 * does): advancing it here would hand events that were just added or
 * enabled enabled-time they did not run in.
 */
void perf_ctx_resched(struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;

	lockdep_assert_irqs_disabled();
	if (task_ctx)
		ctx_sched_out(task_ctx, true);
	ctx_sched_out(&cpuctx->ctx, true);
	perf_sched_in_all(cpuctx, task_ctx);
}

static void ctx_rotate(struct perf_event_context *ctx)
{
	if (!list_empty(&ctx->flexible_groups) &&
	    !list_is_singular(&ctx->flexible_groups))
		list_rotate_left(&ctx->flexible_groups);
}

static enum hrtimer_restart perf_rotate_timer_fn(struct hrtimer *timer)
{
	struct perf_cpu_context *cpuctx =
		container_of(timer, struct perf_cpu_context, rotate_timer);
	struct perf_event_context *task_ctx;
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	task_ctx = cpuctx->task_ctx;
	perf_ctx_lock(cpuctx, task_ctx);
	if (cpuctx->rotate_needed && cpuctx->online) {
		cpuctx->rotate_needed = false;
		perf_ctx_update_time(&cpuctx->ctx);
		if (task_ctx) {
			perf_ctx_update_time(task_ctx);
			ctx_sched_out(task_ctx, true);
			ctx_rotate(task_ctx);
		}
		ctx_sched_out(&cpuctx->ctx, true);
		ctx_rotate(&cpuctx->ctx);
		/* rotate_active stays set: a failure below only flags */
		perf_sched_in_all(cpuctx, task_ctx);
	}
	if (cpuctx->rotate_needed) {
		hrtimer_forward_now(timer,
				    ms_to_ktime(cpuctx->rotate_interval_ms));
		ret = HRTIMER_RESTART;
	} else {
		cpuctx->rotate_active = false;
	}
	perf_ctx_unlock(cpuctx, task_ctx);
	return ret;
}

/*
 * inherit_stat: the per-task values follow the task, not the context.
 * Before two clones trade tasks, trade the values of each pair of copies
 * of the same original.  @ctx is active here (its events may be on a
 * PMU), @next_ctx is not; both locks held.
 */
static void perf_swap_stat(struct perf_event *a, struct perf_event *b)
{
	u64 count;

	if (a->state == PERF_EVENT_STATE_ACTIVE)
		a->pmu->read(a);
	perf_event_update_time(a);
	perf_event_update_time(b);
	count = local64_read(&a->count);
	local64_set(&a->count, local64_read(&b->count));
	local64_set(&b->count, count);
	swap(a->total_time_enabled, b->total_time_enabled);
	swap(a->total_time_running, b->total_time_running);
	perf_event_update_userpage(a);
	perf_event_update_userpage(b);
}

/* Clones list their copies in the same order unless a rotation intervened. */
static bool perf_ctx_stat_pairs(struct perf_event_context *ctx,
				struct perf_event_context *next_ctx, bool swap)
{
	struct perf_event *a, *b;

	b = list_first_entry(&next_ctx->event_list, struct perf_event,
			     event_entry);
	list_for_each_entry(a, &ctx->event_list, event_entry) {
		if (list_entry_is_head(b, &next_ctx->event_list, event_entry) ||
		    a->parent != b->parent)
			return false;
		if (swap && a->attr.inherit_stat)
			perf_swap_stat(a, b);
		b = list_next_entry(b, event_entry);
	}
	return list_entry_is_head(b, &next_ctx->event_list, event_entry);
}

/*
 * May @a and @b trade tasks?  Clones of the same context at the same
 * generation, neither pinned, and neither with a SIGTRAP in flight: the
 * signal belongs to the task that took the hit, and until it is sent the
 * event must not count for another task (perf_queue_sigtrap()).
 */
static bool perf_ctx_equiv(struct perf_event_context *a,
			   struct perf_event_context *b)
{
	return !a->pin_count && !b->pin_count && a->parent_ctx &&
	       a->parent_ctx == b->parent_ctx &&
	       a->parent_gen == b->parent_gen &&
	       a->nr_events == b->nr_events &&
	       !atomic_read(&a->nr_pending_sigtrap) &&
	       !atomic_read(&b->nr_pending_sigtrap);
}

/*
 * The cheap swap.  @ctx is active on this CPU for @prev; if @next carries
 * an equivalent clone, the clones trade tasks and @ctx stays scheduled in,
 * now for @next, so that __perf_event_task_sched_in() finds it in place.
 * Counts and times keep running: the same events would have counted the
 * same things for @next.  Runqueue lock held, IRQs off; the two task
 * contexts' locks are taken in (outgoing, incoming) order, which no other
 * path nests.
 */
static bool perf_ctx_try_swap(struct perf_event_context *ctx,
			      struct task_struct *prev,
			      struct task_struct *next)
{
	struct perf_event_context *next_ctx, *parent;
	bool swapped = false;

	lockdep_assert_irqs_disabled();
	next_ctx = rcu_dereference_sched(next->perf_event_ctxp);
	parent = READ_ONCE(ctx->parent_ctx);
	/* cheap filter without locks; decided again under them */
	if (!next_ctx || !parent || READ_ONCE(next_ctx->parent_ctx) != parent)
		return false;

	raw_spin_lock(&ctx->lock);
	raw_spin_lock_nested(&next_ctx->lock, SINGLE_DEPTH_NESTING);
	if (ctx->task != prev || next_ctx->task != next ||
	    next_ctx->is_active || !perf_ctx_equiv(ctx, next_ctx))
		goto unlock;
	if (ctx->nr_stat && !perf_ctx_stat_pairs(ctx, next_ctx, false))
		goto unlock;

	perf_ctx_update_time(ctx);
	if (ctx->nr_stat)
		perf_ctx_stat_pairs(ctx, next_ctx, true);
	WRITE_ONCE(ctx->task, next);
	WRITE_ONCE(next_ctx->task, prev);
	/* each context keeps its reference, now on the other task */
	rcu_assign_pointer(prev->perf_event_ctxp, next_ctx);
	rcu_assign_pointer(next->perf_event_ctxp, ctx);
	swapped = true;
unlock:
	raw_spin_unlock(&next_ctx->lock);
	raw_spin_unlock(&ctx->lock);
	return swapped;
}

/**
 * __perf_event_task_sched_out - the scheduler switches away from @prev
 * @prev: the outgoing task
 * @next: the incoming task
 *
 * Context: runqueue lock held, IRQs off.
 */
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = cpuctx->task_ctx;

	lockdep_assert_irqs_disabled();
	/* CPU-wide events want it even when @prev has no context */
	perf_event_switch_record(prev, next, false);
	if (!ctx)
		return;
	if (perf_ctx_try_swap(ctx, prev, next))
		return;
	raw_spin_lock(&ctx->lock);
	perf_ctx_update_time(ctx);
	ctx_sched_out(ctx, false);
	ctx_deactivate(ctx);
	cpuctx->task_ctx = NULL;
	raw_spin_unlock(&ctx->lock);
}

/**
 * __perf_event_task_sched_in - the scheduler switched to @task
 * @prev: the task that ran before
 * @task: the task now running (current)
 *
 * Context: runqueue lock held, IRQs off.
 */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx;

	lockdep_assert_irqs_disabled();
	/* takes and drops the context locks itself, before we take them */
	perf_event_switch_record(task, prev, true);
	ctx = rcu_dereference_sched(task->perf_event_ctxp);
	if (!ctx || !cpuctx->online)
		return;
	/* swapped in by perf_ctx_try_swap(): it never went out */
	if (ctx == cpuctx->task_ctx)
		return;

	perf_ctx_lock(cpuctx, ctx);
	if (ctx->task != task || !ctx->nr_events) {
		perf_ctx_unlock(cpuctx, ctx);
		return;
	}
	ctx_activate(ctx);
	cpuctx->task_ctx = ctx;
	if (ctx->nr_hw_events) {
		/* task pinned groups outrank CPU flexible ones */
		perf_ctx_update_time(&cpuctx->ctx);
		ctx_sched_out(&cpuctx->ctx, true);
		perf_sched_in_all(cpuctx, ctx);
	} else {
		ctx_sched_in(ctx, false);
		ctx_sched_in(ctx, true);
	}
	perf_ctx_unlock(cpuctx, ctx);
}

/* cross-CPU calls */

struct perf_remote {
	struct perf_event	*event;
	struct perf_event_context *ctx;
	perf_ctx_fn_t		fn;
	void			*data;
	int			ret;
};

/* IPI handler: run rc->fn if the context is (or can be made) active here. */
static void perf_remote_fn(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_remote *rc = info;
	struct perf_event_context *ctx = rc->ctx;
	/*
	 * For a CPU context also lock the running task's: a rescheduling
	 * @fn takes that context's flexible groups off and back on.
	 */
	struct perf_event_context *locked = ctx->task ? ctx : cpuctx->task_ctx;

	perf_ctx_lock(cpuctx, locked);
	if (ctx->task) {
		if (ctx->task != current || !cpuctx->online) {
			rc->ret = -EAGAIN;
			goto out;
		}
		if (!ctx->is_active) {
			/* the task runs but its context was not in yet */
			ctx_activate(ctx);
			cpuctx->task_ctx = ctx;
			ctx_sched_in(ctx, false);
			ctx_sched_in(ctx, true);
		}
	} else if (!ctx->is_active) {
		/* a CPU context goes inactive only when its CPU goes down */
		rc->ret = -EAGAIN;
		goto out;
	}
	/* both contexts on this CPU: @fn may reschedule either */
	perf_ctx_update_time(&cpuctx->ctx);
	if (cpuctx->task_ctx)
		perf_ctx_update_time(cpuctx->task_ctx);
	rc->fn(rc->event, ctx, rc->data);
	if (ctx->task && ctx->is_active && !ctx->nr_events) {
		ctx_deactivate(ctx);
		cpuctx->task_ctx = NULL;
	}
	rc->ret = 0;
out:
	perf_ctx_unlock(cpuctx, locked);
}

/*
 * IPI handler for a read: @fn only brings counts and times up to date, so
 * it needs the context's own lock and time, and neither the CPU context's
 * lock nor its time (it takes nothing off a PMU and puts nothing on).
 * A context that is not active here is left to the caller's fallback.
 */
static void perf_remote_read_fn(void *info)
{
	struct perf_remote *rc = info;
	struct perf_event_context *ctx = rc->ctx;

	raw_spin_lock(&ctx->lock);
	if (!ctx->is_active || (ctx->task && ctx->task != current)) {
		rc->ret = -EAGAIN;
	} else {
		perf_ctx_update_time(ctx);
		rc->fn(rc->event, ctx, rc->data);
		rc->ret = 0;
	}
	raw_spin_unlock(&ctx->lock);
}

static void __perf_ctx_call(struct perf_event *event, perf_ctx_fn_t fn,
			    void *data, smp_call_func_t remote)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_remote rc = {
		.event = event, .ctx = ctx, .fn = fn, .data = data,
	};
	struct task_struct *task = READ_ONCE(ctx->task);

	/*
	 * An inherited copy is reached under its original's child_mutex
	 * instead, which keeps it alive; its own context's mutex must not be
	 * taken there (fork takes them the other way round).
	 */
	if (!event->parent)
		lockdep_assert_held(&ctx->mutex);

	if (!task) {
		/*
		 * A CPU context: run on its CPU, or here if that CPU is
		 * offline (then nothing of the context is on a PMU).
		 */
		for (;;) {
			rc.ret = 0;
			if (!smp_call_function_single(ctx->cpu, remote, &rc, 1) &&
			    !rc.ret)
				return;
			raw_spin_lock_irq(&ctx->lock);
			if (!ctx->is_active) {
				fn(event, ctx, data);
				raw_spin_unlock_irq(&ctx->lock);
				return;
			}
			raw_spin_unlock_irq(&ctx->lock);
			cond_resched();
		}
	}

	for (;;) {
		if (task != TASK_TOMBSTONE && task_curr(task)) {
			rc.ret = 0;
			if (!smp_call_function_single(task_cpu(task), remote,
						      &rc, 1) && !rc.ret)
				return;
		}
		raw_spin_lock_irq(&ctx->lock);
		task = ctx->task;
		if (ctx->is_active) {
			/* being switched in or out: try again */
			raw_spin_unlock_irq(&ctx->lock);
			cond_resched();
			continue;
		}
		/*
		 * Nothing of the context is on a PMU, and its task cannot
		 * schedule it in while we hold ctx->lock: change it here.
		 * (The task may be running where perf is going offline, or
		 * have switched out since the IPI was sent; it picks the
		 * change up when it is next scheduled in.)
		 */
		fn(event, ctx, data);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
}

/**
 * perf_ctx_call - run @fn against @event's context, wherever it lives
 * @event: the event (its ctx is the context)
 * @fn: called with ctx->lock held and IRQs off: on the CPU where the
 *	context is active (the CPU context's lock held too, and both
 *	contexts' times brought up to date, so @fn may reschedule), or on
 *	this CPU when the context is not active
 * @data: passed to @fn
 *
 * Context: process context, ctx->mutex held (the event stays in its ctx),
 * or for an inherited copy its original's child_mutex.
 */
void perf_ctx_call(struct perf_event *event, perf_ctx_fn_t fn, void *data)
{
	__perf_ctx_call(event, fn, data, perf_remote_fn);
}

/**
 * perf_ctx_call_read - perf_ctx_call() for an @fn that only reads
 * @event: the event
 * @fn: called with ctx->lock (only) held and IRQs off, ctx->time brought
 *	up to date when the context is active; must not schedule anything
 *	in or out
 * @data: passed to @fn
 *
 * The read() path: it skips the CPU context's lock and clock, which a
 * read of a task's counters does not need.
 *
 * Context: as perf_ctx_call().
 */
void perf_ctx_call_read(struct perf_event *event, perf_ctx_fn_t fn,
			void *data)
{
	__perf_ctx_call(event, fn, data, perf_remote_read_fn);
}

/* context allocation and lifetime */

static void perf_ctx_init(struct perf_event_context *ctx)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->event_list);
	INIT_LIST_HEAD(&ctx->pinned_groups);
	INIT_LIST_HEAD(&ctx->flexible_groups);
	refcount_set(&ctx->refcount, 1);
}

void perf_get_ctx(struct perf_event_context *ctx)
{
	refcount_inc(&ctx->refcount);
}

static void perf_free_ctx_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct perf_event_context, rcu_head));
}

/**
 * perf_pin_task_ctx - get a task's context and keep it that task's
 * @task: the task
 *
 * A pinned context is never swapped with a clone (perf_ctx_try_swap()), so
 * task->perf_event_ctxp and ctx->task stay as they are until
 * perf_unpin_ctx().  The caller may sleep meanwhile.
 *
 * Context: process context, IRQs on.
 * Return: the context with a reference and a pin, or NULL if it has none.
 */
struct perf_event_context *perf_pin_task_ctx(struct task_struct *task)
{
	struct perf_event_context *ctx;
	unsigned long flags;

	for (;;) {
		rcu_read_lock();
		ctx = rcu_dereference(task->perf_event_ctxp);
		if (!ctx) {
			rcu_read_unlock();
			return NULL;
		}
		raw_spin_lock_irqsave(&ctx->lock, flags);
		/*
		 * A swap takes this lock: if @ctx is still @task's now, it
		 * stays so, and the task's reference keeps it alive.
		 */
		if (ctx == rcu_access_pointer(task->perf_event_ctxp) &&
		    ctx->task == task) {
			ctx->pin_count++;
			perf_get_ctx(ctx);
			raw_spin_unlock_irqrestore(&ctx->lock, flags);
			rcu_read_unlock();
			return ctx;
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		rcu_read_unlock();
	}
}

/**
 * perf_unpin_ctx - undo the pin of perf_pin_task_ctx()
 * @ctx: the context; the caller still owns the reference
 */
void perf_unpin_ctx(struct perf_event_context *ctx)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->pin_count--;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/**
 * perf_unclone_ctx - @ctx is about to differ from its clones
 * @ctx: a task context, pinned or not scheduled anywhere
 *
 * It stops being a clone (no more swaps), and its generation moves on so
 * that contexts cloned from it before this change do not match the ones
 * cloned after.
 *
 * Context: process context; ctx->lock not held.
 */
void perf_unclone_ctx(struct perf_event_context *ctx)
{
	struct perf_event_context *parent;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	parent = ctx->parent_ctx;
	ctx->parent_ctx = NULL;
	ctx->generation++;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	/* a clone holds its parent context so that the pointer stays unique */
	if (parent)
		perf_put_ctx(parent);
}

/**
 * perf_clone_ctx - mark @child_ctx as a clone of @parent_ctx
 * @child_ctx: a new context that every group of @parent_ctx was copied to
 * @parent_ctx: the forking task's context, pinned by the caller
 *
 * A clone of a clone is recorded as a clone of the same original context,
 * so that all descendants that inherited the same state are equivalent.
 *
 * Context: process context, fork; the child does not run yet.
 */
void perf_clone_ctx(struct perf_event_context *child_ctx,
		    struct perf_event_context *parent_ctx)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&parent_ctx->lock, flags);
	if (parent_ctx->parent_ctx) {
		child_ctx->parent_ctx = parent_ctx->parent_ctx;
		child_ctx->parent_gen = parent_ctx->parent_gen;
	} else {
		child_ctx->parent_ctx = parent_ctx;
		child_ctx->parent_gen = parent_ctx->generation;
	}
	perf_get_ctx(child_ctx->parent_ctx);
	raw_spin_unlock_irqrestore(&parent_ctx->lock, flags);
}

/**
 * perf_put_ctx - drop a reference to a context
 * @ctx: the context; a task context is freed after an RCU grace period
 *	(the sched hooks read task->perf_event_ctxp under RCU-sched)
 */
void perf_put_ctx(struct perf_event_context *ctx)
{
	if (!refcount_dec_and_test(&ctx->refcount))
		return;
	if (!ctx->task)
		return;		/* per-CPU contexts are static */
	if (ctx->task != TASK_TOMBSTONE)
		put_task_struct(ctx->task);
	if (ctx->parent_ctx)
		perf_put_ctx(ctx->parent_ctx);
	call_rcu(&ctx->rcu_head, perf_free_ctx_rcu);
}

/**
 * perf_alloc_task_ctx - a new, empty context for @task
 * @task: the task (a reference is taken for the context)
 *
 * Return: the context with one reference (the caller's), or NULL.
 */
struct perf_event_context *perf_alloc_task_ctx(struct task_struct *task)
{
	struct perf_event_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	perf_ctx_init(ctx);
	ctx->cpu = -1;
	get_task_struct(task);
	ctx->task = task;
	return ctx;
}

/**
 * perf_find_get_context - the context a new event goes into
 * @task: the target task, or NULL for a CPU event
 * @cpu: the CPU of a CPU event
 *
 * Creates a task's context on first use.
 * Return: the context with a reference held, or an ERR_PTR.
 */
struct perf_event_context *perf_find_get_context(struct task_struct *task,
						 int cpu)
{
	struct perf_event_context *ctx, *new;

	if (!task) {
		int err = perf_allow_cpu();

		if (err)
			return ERR_PTR(err);
		ctx = &per_cpu(perf_cpu_ctx, cpu).ctx;
		perf_get_ctx(ctx);
		return ctx;
	}

	/*
	 * An existing context: a new event makes it differ from its clones.
	 * Pinned while it is uncloned, it cannot be swapped away meanwhile;
	 * uncloned, it never will be.
	 */
	ctx = perf_pin_task_ctx(task);
	if (ctx) {
		perf_unclone_ctx(ctx);
		perf_unpin_ctx(ctx);
		return ctx;
	}

	new = perf_alloc_task_ctx(task);
	if (!new)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&task->perf_event_mutex);
	ctx = task->perf_event_ctxp;
	if (ctx) {
		/* created meanwhile: new, so not a clone */
		perf_get_ctx(ctx);
	} else if (task->flags & PF_EXITING) {
		ctx = ERR_PTR(-ESRCH);
	} else {
		/* the context's own reference belongs to the task */
		perf_get_ctx(new);
		rcu_assign_pointer(task->perf_event_ctxp, new);
		ctx = new;
		new = NULL;
	}
	mutex_unlock(&task->perf_event_mutex);

	if (new) {
		put_task_struct(task);
		kfree(new);
	}
	return ctx;
}

/* CPU hotplug: a CPU's context is active exactly while the CPU is online */

static void perf_cpu_up_local(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	raw_spin_lock(&cpuctx->ctx.lock);
	if (!cpuctx->online) {
		cpuctx->online = 1;
		ctx_activate(&cpuctx->ctx);
		perf_sched_in_all(cpuctx, NULL);
	}
	raw_spin_unlock(&cpuctx->ctx.lock);
}

static void perf_cpu_down_local(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;

	perf_ctx_lock(cpuctx, task_ctx);
	if (task_ctx) {
		perf_ctx_update_time(task_ctx);
		ctx_sched_out(task_ctx, false);
		ctx_deactivate(task_ctx);
		cpuctx->task_ctx = NULL;
	}
	if (cpuctx->online) {
		perf_ctx_update_time(&cpuctx->ctx);
		ctx_sched_out(&cpuctx->ctx, false);
		ctx_deactivate(&cpuctx->ctx);
		cpuctx->online = 0;
	}
	/* on this CPU with IRQs off, the callback cannot be running */
	if (hrtimer_try_to_cancel(&cpuctx->rotate_timer) >= 0)
		cpuctx->rotate_active = false;
	cpuctx->rotate_needed = false;
	perf_ctx_unlock(cpuctx, task_ctx);
}

/**
 * perf_event_init_cpu - hotplug "perf:prepare" and "perf:online" startup
 * @cpu: the CPU coming up
 *
 * Runs twice per bring-up: once on a control CPU before @cpu runs, and
 * once on @cpu itself; only the second makes its context active.
 * Return: 0.
 */
int perf_event_init_cpu(unsigned int cpu)
{
	perf_swevent_init_cpu(cpu);
	if (cpu == smp_processor_id() && cpu_online(cpu)) {
		unsigned long flags;

		local_irq_save(flags);
		perf_cpu_up_local(NULL);
		local_irq_restore(flags);
	}
	return 0;
}

/**
 * perf_event_exit_cpu - hotplug teardown of the same two states
 * @cpu: the CPU going down
 *
 * Takes every event of @cpu off the PMUs; CPU events stay in their context
 * and count again when the CPU returns.
 * Return: 0.
 */
int perf_event_exit_cpu(unsigned int cpu)
{
	if (cpu == smp_processor_id()) {
		unsigned long flags;

		local_irq_save(flags);
		perf_cpu_down_local(NULL);
		local_irq_restore(flags);
	}
	return 0;
}

/**
 * perf_cpu_ctx_init - set up every possible CPU's context at boot
 *
 * The boot CPU is online already; the others come up through hotplug.
 * Return: 0.
 */
int perf_cpu_ctx_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = &per_cpu(perf_cpu_ctx, cpu);

		perf_ctx_init(&cpuctx->ctx);
		lockdep_set_class(&cpuctx->ctx.lock, &perf_cpu_ctx_lock_key);
		lockdep_set_class(&cpuctx->ctx.mutex, &perf_cpu_ctx_mutex_key);
		cpuctx->ctx.cpu = cpu;
		hrtimer_init(&cpuctx->rotate_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		cpuctx->rotate_timer.function = perf_rotate_timer_fn;
	}
	perf_event_init_cpu(smp_processor_id());
	return 0;
}
