// SPDX-License-Identifier: GPL-2.0
/*
 * The cheap swap of cloned contexts.
 *
 * A context inherited at fork is a clone of its parent's context
 * (ctx->parent_ctx, ctx->parent_gen).  When the scheduler switches between
 * two tasks whose contexts are clones of the same context at the same
 * generation, neither pinned (ctx->pin_count), the two contexts trade
 * tasks instead of being scheduled out and in: the running context stays
 * on the PMUs for the next task.  Every change that makes a context differ
 * from its clones unclones it and bumps its generation
 * (perf_unclone_ctx()); code that needs a task's context to stay that
 * task's pins it (perf_pin_task_ctx()).  task->perf_event_ctxp therefore
 * changes under the two contexts' locks as well as under
 * task->perf_event_mutex: readers that are not the scheduler pin.
 */
#include "swap.h"
#include "time.h"

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

/**
 * perf_ctx_try_swap - let @next take over @prev's running context
 * @ctx: @prev's context, active on this CPU
 * @prev: the outgoing task
 * @next: the incoming task
 *
 * @ctx is active on this CPU for @prev; if @next carries
 * an equivalent clone, the clones trade tasks and @ctx stays scheduled in,
 * now for @next, so that __perf_event_task_sched_in() finds it in place.
 * Counts and times keep running: the same events would have counted the
 * same things for @next.  Runqueue lock held, IRQs off; the two task
 * contexts' locks are taken in (outgoing, incoming) order, which no other
 * path nests.
 *
 * Return: true when the contexts traded tasks.
 */
bool perf_ctx_try_swap(struct perf_event_context *ctx,
		       struct task_struct *prev, struct task_struct *next)
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
	/* a PMU's per-task state stays with its task: no trade */
	if (ctx->nr_task_data || next_ctx->nr_task_data)
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
