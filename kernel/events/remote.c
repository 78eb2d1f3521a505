// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU calls into a context.
 *
 * Only the CPU a context is active on may touch its events' PMU state.
 * Process-context changes (install, remove, enable, disable, read, period
 * changes) therefore run a function against the event's context through
 * perf_ctx_call(): on the context's CPU by IPI while it is active there,
 * or right here under ctx->lock once it is seen not to be active anywhere
 * (it cannot become active while we hold the lock).  A task context that
 * is being switched in or out meanwhile makes the caller retry.
 */
#include <linux/smp.h>

#include "context.h"
#include "remote.h"
#include "sched.h"
#include "time.h"

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
		/* the task runs but its context was not in yet */
		if (!ctx->is_active)
			perf_task_ctx_sched_in(cpuctx, ctx);
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
		perf_ctx_deactivate(ctx);
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
		if (task == current) {
			/*
			 * Our own context (a task reading or changing its own
			 * counters): with IRQs off it cannot be switched out,
			 * which is all the IPI to ourselves would buy.
			 */
			unsigned long flags;

			rc.ret = 0;
			local_irq_save(flags);
			remote(&rc);
			local_irq_restore(flags);
			if (!rc.ret)
				return;
		} else if (task != TASK_TOMBSTONE && task_curr(task)) {
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
	perf_event_assert_locked(event);
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
	perf_event_assert_locked(event);
	__perf_ctx_call(event, fn, data, perf_remote_read_fn);
}
