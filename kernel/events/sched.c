// SPDX-License-Identifier: GPL-2.0
/*
 * Putting events on the PMUs and taking them off: one event, one group, a
 * whole context, and the scheduler's context-switch hooks.
 *
 * Priority: pinned groups go on before flexible ones, and within each
 * class the CPU's context before the running task's.  A pinned group that
 * does not fit is in error until re-enabled; a flexible one waits for its
 * PMU's rotation (rotate.c).  Only the groups that may run on this CPU are
 * visited on the way in (groups.c), only the ones on a PMU on the way out,
 * and each PMU is disabled once per pass (struct perf_pmu_batch), not once
 * per group: on arm64 every disable and enable is a PMCR write and an ISB.
 *
 * Everything here runs on the CPU the context is active on, IRQs off,
 * with ctx->lock held (and the CPU context's lock before a task
 * context's, perf_ctx_lock()).
 */
#include "cgroup.h"
#include "context.h"
#include "exclusive.h"
#include "groups.h"
#include "overflow.h"
#include "rb.h"
#include "rotate.h"
#include "sched.h"
#include "sideband.h"
#include "swap.h"
#include "time.h"
#include "wakeup.h"

/* Enabled while per-task events exist; the sched hooks test it. */
DEFINE_STATIC_KEY_FALSE(perf_sched_events);
static atomic_t nr_task_events;
static DEFINE_MUTEX(perf_sched_mutex);

/**
 * perf_task_events_inc - an event that needs the scheduler hooks appeared
 *
 * Context: process context, may sleep (the first one flips a static key).
 */
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

/**
 * perf_task_events_dec - undo perf_task_events_inc()
 *
 * Context: process context, may sleep.
 */
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
 * perf_ctx_lock - lock this CPU's context and, if given, a task context
 * @cpuctx: this CPU's core state
 * @ctx: a task context, the CPU's own, or NULL
 *
 * Context: IRQs off.
 */
void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx)
{
	lockdep_assert_irqs_disabled();
	raw_spin_lock(&cpuctx->ctx.lock);
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_lock(&ctx->lock);
}

/**
 * perf_ctx_unlock - undo perf_ctx_lock()
 * @cpuctx: this CPU's core state
 * @ctx: as given to perf_ctx_lock()
 */
void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_unlock(&ctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/**
 * perf_pmu_batch_disable - disable @pmu for the rest of a scheduling pass
 * @b: the pass's batch
 * @pmu: the PMU about to be changed
 *
 * The first time a PMU is met in a pass it is disabled and remembered;
 * perf_pmu_batch_enable() re-enables them all at the end.  Past
 * PERF_PMU_BATCH distinct PMUs the rest fall back to the per-group disable
 * that group scheduling does anyway (nested, so it only counts while the
 * batch holds the PMU).
 *
 * Context: IRQs off, on the CPU of the pass.
 */
static void perf_pmu_batch_disable(struct perf_pmu_batch *b, struct pmu *pmu)
{
	int i;

	lockdep_assert_irqs_disabled();
	for (i = 0; i < b->nr; i++)
		if (b->pmu[i] == pmu)
			return;
	if (b->nr == PERF_PMU_BATCH)
		return;
	perf_pmu_disable(pmu);
	b->pmu[b->nr++] = pmu;
}

/**
 * perf_pmu_batch_enable - end a scheduling pass
 * @b: the pass's batch; empty afterwards
 */
void perf_pmu_batch_enable(struct perf_pmu_batch *b)
{
	while (b->nr)
		perf_pmu_enable(b->pmu[--b->nr]);
}

/* May @event count on this CPU at all? */
static bool event_filter_match(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (pmu->filter && pmu->filter(pmu, smp_processor_id()))
		return false;
	/* a cgroup event counts for the tasks of its cgroup only */
	if (perf_event_is_cgroup(event) && !perf_cgroup_match(event))
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
	/* whose trace follows, ahead of anything the tracer logs */
	if (unlikely(event->pmu->capabilities & PERF_PMU_CAP_ITRACE))
		perf_aux_itrace_start(event);
	if (event->pmu->add(event, PERF_EF_START)) {
		WRITE_ONCE(event->oncpu, -1);
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
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
	/*
	 * The page gets the times of the moment the event stops running,
	 * while it still counts as running: once it is inactive, the times
	 * of this instant would have enabled run on past running by however
	 * long ago its context's clock was settled.
	 */
	if (rcu_access_pointer(event->rb))
		perf_event_update_userpage(event);
	perf_event_set_state(event, state);
	ctx->nr_active--;
}

/* Take every member of a group off, its PMU already disabled. */
static void group_sched_out(struct perf_event *leader,
			    struct perf_event_context *ctx)
{
	struct perf_event *sibling;

	perf_event_sched_out(leader, ctx);
	for_each_sibling_event(sibling, leader)
		perf_event_sched_out(sibling, ctx);
	perf_group_set_on(ctx, leader, false);
}

/**
 * perf_group_sched_out - take a whole group off the PMUs
 * @leader: the group leader
 * @ctx: its context; ctx->lock held, IRQs off
 */
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx)
{
	struct pmu *pmu = perf_group_pmu(leader);

	lockdep_assert_held(&ctx->lock);
	perf_pmu_disable(pmu);
	group_sched_out(leader, ctx);
	perf_pmu_enable(pmu);
}

/**
 * perf_group_sched_in - put a group on the PMUs, all of it or none of it
 * @leader: the group leader (INACTIVE)
 * @ctx: its context; ctx->lock held, IRQs off, active on this CPU
 *
 * Return: 0 when the group counts (or may not count here at all),
 * -EAGAIN when it did not fit.
 */
static int perf_group_sched_in(struct perf_event *leader,
			       struct perf_event_context *ctx)
{
	struct pmu *pmu = perf_group_pmu(leader);
	struct perf_event *sibling, *failed = NULL;

	lockdep_assert_held(&ctx->lock);
	if (leader->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	if (!event_filter_match(leader))
		return 0;
	if (!perf_exclusive_may_share(leader, ctx))
		return -EAGAIN;

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
		perf_group_set_on(ctx, leader, true);
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

/**
 * perf_group_try_sched_in - schedule a group in, or deal with its not fitting
 * @leader: the group leader
 * @ctx: its context; active on this CPU, locks held, IRQs off
 *
 * A flexible group that does not fit waits for its PMU's rotation; a
 * pinned one is in error until it is re-enabled (read() returns 0 bytes,
 * poll() POLLHUP).
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
		perf_rotation_needed(perf_group_pmu(leader));
		return;
	}
	perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
	for_each_sibling_event(sibling, leader)
		perf_event_set_state(sibling, PERF_EVENT_STATE_ERROR);
	perf_event_queue_wakeup(leader);
}

/**
 * perf_ctx_sched_in - put a context's groups of one class on the PMUs
 * @ctx: the context; active on this CPU, ctx->lock held, IRQs off
 * @pinned: the pinned groups, or the flexible ones
 * @pmu: only the groups that compete on this PMU, or NULL for all
 * @b: the pass's batch of disabled PMUs
 *
 * Visits the groups that may run on this CPU (groups.c), in order.
 */
void perf_ctx_sched_in(struct perf_event_context *ctx, bool pinned,
		       struct pmu *pmu, struct perf_pmu_batch *b)
{
	struct perf_group_iter it;
	struct perf_event *leader;

	lockdep_assert_held(&ctx->lock);
	perf_group_iter_start(&it, ctx, pinned);
	while ((leader = perf_group_iter_next(&it))) {
		struct pmu *gpmu;

		if (leader->state != PERF_EVENT_STATE_INACTIVE)
			continue;
		gpmu = perf_group_pmu(leader);
		if (pmu && gpmu != pmu)
			continue;
		perf_pmu_batch_disable(b, gpmu);
		perf_group_try_sched_in(leader, ctx);
	}
}

static void ctx_sched_out_list(struct perf_event_context *ctx,
			       struct list_head *on, struct pmu *pmu,
			       struct perf_pmu_batch *b)
{
	struct perf_event *leader, *tmp;

	list_for_each_entry_safe(leader, tmp, on, group_on_entry) {
		struct pmu *gpmu = perf_group_pmu(leader);

		if (pmu && gpmu != pmu)
			continue;
		perf_pmu_batch_disable(b, gpmu);
		perf_pmu_disable(gpmu);
		group_sched_out(leader, ctx);
		perf_pmu_enable(gpmu);
	}
}

/**
 * perf_ctx_sched_out_cgroups - take a CPU context's cgroup groups off
 * @ctx: the CPU context; ctx->lock held, IRQs off, active on this CPU
 * @b: the pass's batch of disabled PMUs
 *
 * The running task's cgroup changed (cgroup.c): the others keep counting.
 */
void perf_ctx_sched_out_cgroups(struct perf_event_context *ctx,
				struct perf_pmu_batch *b)
{
	struct list_head *lists[] = { &ctx->flexible_on, &ctx->pinned_on };
	struct perf_event *leader, *tmp;
	int i;

	lockdep_assert_held(&ctx->lock);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry_safe(leader, tmp, lists[i], group_on_entry) {
			struct pmu *gpmu = perf_group_pmu(leader);

			if (!perf_event_is_cgroup(leader))
				continue;
			perf_pmu_batch_disable(b, gpmu);
			perf_pmu_disable(gpmu);
			group_sched_out(leader, ctx);
			perf_pmu_enable(gpmu);
		}
	}
}

/**
 * perf_ctx_sched_out - take a context's running groups off the PMUs
 * @ctx: the context; ctx->lock held, IRQs off, on the CPU it is active on
 * @flexible_only: leave the pinned groups on
 * @pmu: only the groups that compete on this PMU, or NULL for all
 * @b: the pass's batch of disabled PMUs
 */
void perf_ctx_sched_out(struct perf_event_context *ctx, bool flexible_only,
			struct pmu *pmu, struct perf_pmu_batch *b)
{
	lockdep_assert_held(&ctx->lock);
	if (!ctx->nr_active)
		return;
	ctx_sched_out_list(ctx, &ctx->flexible_on, pmu, b);
	if (!flexible_only)
		ctx_sched_out_list(ctx, &ctx->pinned_on, pmu, b);
}

/**
 * perf_ctx_sched_in_all - schedule in the CPU's context and a task context
 * @cpuctx: this CPU's core state
 * @task_ctx: the running task's context, or NULL
 * @b: the pass's batch of disabled PMUs
 *
 * In priority order: pinned before flexible, CPU before task within each
 * class.  Both locks held, IRQs off.
 */
void perf_ctx_sched_in_all(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *task_ctx,
			   struct perf_pmu_batch *b)
{
	struct perf_event_context *cctx = &cpuctx->ctx;

	lockdep_assert_held(&cctx->lock);
	if (task_ctx)
		lockdep_assert_held(&task_ctx->lock);
	if (cctx->is_active)
		perf_ctx_sched_in(cctx, true, NULL, b);
	if (task_ctx)
		perf_ctx_sched_in(task_ctx, true, NULL, b);
	if (cctx->is_active)
		perf_ctx_sched_in(cctx, false, NULL, b);
	if (task_ctx)
		perf_ctx_sched_in(task_ctx, false, NULL, b);
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
	struct perf_pmu_batch b = { };

	lockdep_assert_irqs_disabled();
	if (task_ctx)
		perf_ctx_sched_out(task_ctx, true, NULL, &b);
	perf_ctx_sched_out(&cpuctx->ctx, true, NULL, &b);
	perf_ctx_sched_in_all(cpuctx, task_ctx, &b);
	perf_pmu_batch_enable(&b);
}

/**
 * perf_task_ctx_sched_in - make a task context active on this CPU
 * @cpuctx: this CPU's core state
 * @ctx: the running task's context, not active anywhere
 *
 * When the task has pinned groups that compete for counters, the CPU's
 * flexible groups make way and come back after them; otherwise the task's
 * groups just take what is left.
 *
 * Context: both contexts' locks held, IRQs off.
 */
void perf_task_ctx_sched_in(struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx)
{
	struct perf_pmu_batch b = { };

	lockdep_assert_held(&ctx->lock);
	/* one task context per CPU: another one still in would be orphaned */
	WARN_ON_ONCE(cpuctx->task_ctx && cpuctx->task_ctx != ctx);
	perf_ctx_activate(ctx);
	cpuctx->task_ctx = ctx;
	if (ctx->nr_pinned_hw && cpuctx->ctx.nr_active) {
		perf_ctx_update_time(&cpuctx->ctx);
		perf_ctx_sched_out(&cpuctx->ctx, true, NULL, &b);
		perf_ctx_sched_in_all(cpuctx, ctx, &b);
	} else {
		perf_ctx_sched_in(ctx, true, NULL, &b);
		perf_ctx_sched_in(ctx, false, NULL, &b);
	}
	perf_pmu_batch_enable(&b);
}

/*
 * Put the PMUs of @ctx's directly readable events into the pass, even
 * those with nothing on a counter (disabled, or waiting for one): their
 * ->pmu_enable at the end of the pass is where the driver closes the
 * access it opened for the task.
 */
static void perf_user_read_pmus(struct perf_event_context *ctx,
				struct perf_pmu_batch *b)
{
	struct perf_event *event;

	list_for_each_entry(event, &ctx->event_list, event_entry)
		if (perf_event_user_read_ctx(event))
			perf_pmu_batch_disable(b, event->pmu);
}

/**
 * perf_task_ctx_sched_out - take a task context off this CPU
 * @cpuctx: this CPU's core state
 * @ctx: the context active here; its time brought up to date by the caller
 *
 * Context: ctx->lock held, IRQs off.
 */
void perf_task_ctx_sched_out(struct perf_cpu_context *cpuctx,
			     struct perf_event_context *ctx)
{
	struct perf_pmu_batch b = { };

	lockdep_assert_held(&ctx->lock);
	perf_ctx_sched_out(ctx, false, NULL, &b);
	if (ctx->nr_user_read)
		perf_user_read_pmus(ctx, &b);
	/*
	 * Gone before the PMUs are enabled again: a driver deciding what
	 * user space may read (perf_running_task_reads_counters()) must no
	 * longer see the outgoing task's events.
	 */
	if (cpuctx->task_ctx == ctx)
		cpuctx->task_ctx = NULL;
	perf_pmu_batch_enable(&b);
	/* every running group is on ctx->pinned_on or ctx->flexible_on */
	WARN_ON_ONCE(ctx->nr_active);
	perf_ctx_deactivate(ctx);
}

/**
 * perf_running_task_reads_counters - may the running task read counters?
 *
 * True when the task context scheduled on this CPU holds events opened
 * for direct reads from user space (PERF_EVENT_FLAG_USER_READ_CNT, set by
 * the PMU driver at event_init) of a PMU with PERF_PMU_CAP_USER_READ_CTX.
 * A driver asks from ->pmu_enable, after every change of the events on
 * its counters, and opens or closes EL0 access to them accordingly. The
 * answer covers the task's events whether or not they are on a counter
 * right now, so that access does not come and go with multiplexing under
 * a reader that is between loading the page's index and reading the
 * counter.
 *
 * Context: IRQs off (the CPU's task context cannot change under us).
 */
bool perf_running_task_reads_counters(void)
{
	struct perf_event_context *ctx;

	lockdep_assert_irqs_disabled();
	ctx = this_cpu_ptr(&perf_cpu_ctx)->task_ctx;
	return ctx && READ_ONCE(ctx->nr_user_read);
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
	perf_sched_cb_run(ctx, false);
	if (ctx && !perf_ctx_try_swap(ctx, prev, next)) {
		raw_spin_lock(&ctx->lock);
		perf_ctx_update_time(ctx);
		perf_task_ctx_sched_out(cpuctx, ctx);
		raw_spin_unlock(&ctx->lock);
	}
	/* the CPU's cgroup events follow @next's cgroup, before its events */
	perf_cgroup_switch(next);
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
	/* before the task's events arrive, whether it has any or not */
	perf_sched_cb_run(ctx, true);
	if (!ctx || !cpuctx->online)
		return;
	/* swapped in by perf_ctx_try_swap(): it never went out */
	if (ctx == cpuctx->task_ctx)
		return;

	perf_ctx_lock(cpuctx, ctx);
	if (ctx->task == task && ctx->nr_events)
		perf_task_ctx_sched_in(cpuctx, ctx);
	perf_ctx_unlock(cpuctx, ctx);
}
