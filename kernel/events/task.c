// SPDX-License-Identifier: GPL-2.0
/*
 * Task lifecycle: what happens to a task's events when it forks, execs and
 * exits, and prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE).
 *
 * Inheritance (attr.inherit): at fork, every group whose leader asks for it
 * is copied into the child's context.  Each copy points at the original
 * event (event->parent, never a copy of a copy) and is on its child_list.
 * When the child exits, the copy's count and times are added to the
 * original's child_count and child times, so the parent sees them after
 * wait(); while the child lives, reads of the original add the copy's
 * current value.
 *
 * Who frees a copy: whoever unlinks it from the original's child_list
 * under child_mutex -- the child's exit here, or the original's release
 * (event.c).  Lock order: ctx->mutex before child_mutex is never held the
 * other way round with the child's own ctx->mutex; see design.rst.
 */
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "addr_filter.h"
#include "aux.h"
#include "bpf.h"
#include "context.h"
#include "control.h"
#include "event.h"
#include "groups.h"
#include "process.h"
#include "sched.h"
#include "sideband.h"
#include "time.h"
#include "wakeup.h"

/*
 * Does the child of a fork with @clone_flags get a copy of @leader's group?
 * A process-wide group (process.c) goes to every new thread, and to a new
 * process only with attr.inherit.
 */
static bool should_inherit(struct perf_event *leader, u64 clone_flags)
{
	bool thread = clone_flags & CLONE_THREAD;

	if (!leader->attr.inherit &&
	    !(thread && perf_event_process_wide(leader->parent ?: leader)))
		return false;
	if (leader->attr.inherit_thread && !thread)
		return false;
	/* signals would go to handlers the child no longer has */
	if (leader->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND))
		return false;
	return leader->state > PERF_EVENT_STATE_EXIT;
}

/**
 * perf_inherit_event - copy an event into another task's context
 * @parent_event: the event or copy to copy
 * @child: the task
 * @child_ctx: its context, referenced by the caller
 * @leader: the copy of @parent_event's group leader in @child_ctx, or NULL
 *	to make the copy a leader
 *
 * At fork the child does not run yet; process.c also copies into threads
 * that do.  Either way the copy goes in through perf_install_in_context().
 *
 * Context: process; @parent_event's ctx->mutex held.
 * Return: the copy, or an ERR_PTR.
 */
struct perf_event *perf_inherit_event(struct perf_event *parent_event,
				      struct task_struct *child,
				      struct perf_event_context *child_ctx,
				      struct perf_event *leader)
{
	struct perf_event *orig = parent_event->parent ?: parent_event;
	enum perf_event_state state = parent_event->state;
	struct perf_event *event;

	lockdep_assert_held(&parent_event->ctx->mutex);
	event = perf_event_alloc(&orig->attr, orig->cpu, child, leader, orig,
				 orig->overflow_handler,
				 orig->overflow_handler_context);
	if (IS_ERR(event))
		return event;
	perf_bpf_inherit(event, orig);

	/* follow the parent's state, not its attr.disabled bit */
	event->state = state >= PERF_EVENT_STATE_INACTIVE ?
		       PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
	event->hw.sample_period = parent_event->hw.sample_period;
	event->hw.last_period = event->hw.sample_period;
	local64_set(&event->hw.period_left, event->hw.sample_period);

	perf_get_ctx(child_ctx);
	event->ctx = child_ctx;
	mutex_lock_nested(&child_ctx->mutex, SINGLE_DEPTH_NESTING);
	perf_install_in_context(child_ctx, event);
	mutex_unlock(&child_ctx->mutex);

	/* the copy holds a reference on the original until it is folded */
	perf_event_ref(orig);
	mutex_lock(&orig->child_mutex);
	list_add_tail(&event->child_list, &orig->child_list);
	mutex_unlock(&orig->child_mutex);
	return event;
}

static int inherit_group(struct perf_event *leader, struct task_struct *child,
			 struct perf_event_context **child_ctx)
{
	struct perf_event *copy, *sibling;
	int err;

	if (!*child_ctx) {
		*child_ctx = perf_alloc_task_ctx(child);
		if (!*child_ctx)
			return -ENOMEM;
		rcu_assign_pointer(child->perf_event_ctxp, *child_ctx);
	}
	err = perf_groups_reserve(*child_ctx, leader->cpu);
	if (err)
		return err;
	copy = perf_inherit_event(leader, child, *child_ctx, NULL);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	for_each_sibling_event(sibling, leader) {
		struct perf_event *c = perf_inherit_event(sibling, child,
							  *child_ctx, copy);

		if (IS_ERR(c))
			return PTR_ERR(c);
		if (c)
			perf_aux_inherit_link(sibling, c, leader, copy);
	}
	return 0;
}

/* fork copied the parent's task_struct: none of its perf state is ours */
static void perf_task_clear(struct task_struct *t)
{
	INIT_LIST_HEAD(&t->perf_event_list);
	mutex_init(&t->perf_event_mutex);
	t->perf_event_ctxp = NULL;
	memset(t->perf_recursion, 0, sizeof(t->perf_recursion));
}

/**
 * perf_event_init_task - set up a new task's perf state at fork
 * @child: the new task
 * @clone_flags: its clone flags
 *
 * Copies the parent's inheritable groups into the child.
 * Context: process context (the parent), may sleep.
 * Return: 0 or a negative errno (fork fails; what was copied is freed).
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *parent_ctx, *child_ctx = NULL;
	struct perf_event *leader;
	int ret = 0;

	bool inherited_all = true;

	perf_task_clear(child);

	/* pinned: the parent may sleep here, and must not trade contexts */
	parent_ctx = perf_pin_task_ctx(current);
	if (!parent_ctx)
		return 0;

	mutex_lock(&parent_ctx->mutex);
	/* every leader, in the order the events were added */
	list_for_each_entry(leader, &parent_ctx->event_list, event_entry) {
		if (leader->group_leader != leader)
			continue;
		if (!should_inherit(leader, clone_flags)) {
			inherited_all = false;
			continue;
		}
		ret = inherit_group(leader, child, &child_ctx);
		if (ret)
			break;
	}
	/*
	 * A child that got every group is equivalent to its parent's other
	 * clones of the same generation: the scheduler may swap them.
	 */
	if (!ret && child_ctx && inherited_all)
		perf_clone_ctx(child_ctx, parent_ctx);
	mutex_unlock(&parent_ctx->mutex);
	perf_unpin_ctx(parent_ctx);
	perf_put_ctx(parent_ctx);
	/* fork does not call perf_event_free_task() when we fail */
	if (ret)
		perf_event_free_task(child);
	return ret;
}

/*
 * Add an exited copy's count and times to its original and free the copy,
 * unless the original's release got to it first.  The caller pinned both.
 */
static void perf_event_fold(struct perf_event *copy)
{
	struct perf_event *orig = copy->parent;
	bool owned;

	mutex_lock(&orig->child_mutex);
	owned = !list_empty(&copy->child_list);
	if (owned) {
		struct task_struct *task = READ_ONCE(copy->ctx->task);

		/*
		 * inherit_stat: the child's own values in a READ record, for
		 * a task still attached to the context.  As in 6.12 the exit
		 * path detaches it (TASK_TOMBSTONE) before folding, so exit
		 * itself writes none.
		 */
		if (copy->attr.inherit_stat && task && task != TASK_TOMBSTONE)
			perf_event_read_record(copy, task);
		list_del_init(&copy->child_list);
		atomic64_add(local64_read(&copy->count) +
			     atomic64_read(&copy->child_count),
			     &orig->child_count);
		atomic64_add(copy->total_time_enabled +
			     atomic64_read(&copy->child_total_time_enabled),
			     &orig->child_total_time_enabled);
		atomic64_add(copy->total_time_running +
			     atomic64_read(&copy->child_total_time_running),
			     &orig->child_total_time_running);
	}
	mutex_unlock(&orig->child_mutex);

	if (owned) {
		perf_put_ctx(copy->ctx);
		perf_event_unref(copy);		/* its life */
		perf_event_unref(orig);		/* its hold on the original */
		/* the original's task may be waiting for this in poll() */
		perf_event_wakeup(orig);
	}
	perf_event_unref(copy);			/* our pin */
	perf_event_unref(orig);
}

/*
 * Take inherited copy @copy out of its context, pinned with its original
 * so that neither is freed once ctx->mutex is dropped.  The fold itself
 * (perf_fold_copies()) waits for that: child_mutex is never taken under a
 * copy's ctx->mutex.
 */
static void perf_detach_copy(struct perf_event *copy, bool to_exit,
			     struct list_head *copies)
{
	lockdep_assert_held(&copy->ctx->mutex);
	perf_event_ref(copy);
	perf_event_ref(copy->parent);
	perf_remove_from_context(copy, to_exit);
	list_add_tail(&copy->active_entry, copies);
}

/*
 * A dying context: its inherited copies are detached for the fold, and
 * the originals it holds stay, woken so that poll() sees POLLHUP.
 */
static void perf_ctx_detach_copies(struct perf_event_context *ctx,
				   struct list_head *copies)
{
	struct perf_event *event, *tmp;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (event->parent)
			perf_detach_copy(event, false, copies);
		else
			perf_event_wakeup(event);
	}
}

/* Fold what perf_detach_copy() collected; no ctx->mutex held. */
static void perf_fold_copies(struct list_head *copies)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, copies, active_entry) {
		list_del_init(&event->active_entry);
		perf_event_fold(event);
	}
}

/**
 * perf_event_free_task - undo perf_event_init_task when fork fails
 * @task: the task that never ran
 *
 * Its inherited copies are folded (they counted nothing) and freed.
 */
void perf_event_free_task(struct task_struct *task)
{
	struct perf_event_context *ctx = task->perf_event_ctxp;
	LIST_HEAD(copies);

	if (!ctx)
		return;
	/* the task never ran: nothing can have swapped its context */
	RCU_INIT_POINTER(task->perf_event_ctxp, NULL);
	perf_unclone_ctx(ctx);
	mutex_lock(&ctx->mutex);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	/* all of them copies: a task that never ran opened nothing */
	perf_ctx_detach_copies(ctx, &copies);
	mutex_unlock(&ctx->mutex);
	perf_fold_copies(&copies);
	put_task_struct(task);
	perf_put_ctx(ctx);
}

/**
 * perf_event_delayed_put - last look at a task being freed
 * @task: the task
 *
 * perf_event_exit_task() has already detached everything.
 */
void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(task->perf_event_ctxp);
}

/* The task stops counting: take its context off this CPU (it is current). */
static void task_ctx_sched_out_current(struct task_struct *task,
				       struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx;
	struct perf_event *event;
	unsigned long flags;

	local_irq_save(flags);
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	perf_ctx_lock(cpuctx, ctx);
	perf_ctx_update_time(ctx);
	if (ctx->is_active)
		perf_task_ctx_sched_out(cpuctx, ctx);
	/* pinned by the caller, so still @task's: detach it for good */
	RCU_INIT_POINTER(task->perf_event_ctxp, NULL);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
	perf_ctx_unlock(cpuctx, ctx);
	local_irq_restore(flags);
}

/* The events @t created lose their owner: prctl no longer reaches them. */
static void perf_task_disown(struct task_struct *t)
{
	struct perf_event *event;

	mutex_lock(&t->perf_event_mutex);
	while (!list_empty(&t->perf_event_list)) {
		event = list_first_entry(&t->perf_event_list,
					 struct perf_event, owner_entry);
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&t->perf_event_mutex);
}

/**
 * perf_event_exit_task - the task exits (or execs a setuid binary)
 * @child: the task; always current
 *
 * Its events stop counting and enter the EXIT state: read() still returns
 * their final values, poll() reports POLLHUP.  Events it created lose
 * their owner.
 */
void perf_event_exit_task(struct task_struct *child)
{
	struct perf_event_context *ctx;
	LIST_HEAD(copies);

	/* PERF_RECORD_EXIT, while the task's own events can still see it */
	perf_event_task_record(child, false);
	perf_task_disown(child);
	/*
	 * Pinned, the context stays the exiting task's (no swap) until it is
	 * detached under its lock; uncloned, it is never swapped again.
	 */
	ctx = perf_pin_task_ctx(child);
	if (!ctx)
		return;
	perf_unclone_ctx(ctx);

	mutex_lock(&ctx->mutex);
	task_ctx_sched_out_current(child, ctx);
	perf_ctx_detach_copies(ctx, &copies);
	mutex_unlock(&ctx->mutex);
	perf_fold_copies(&copies);

	/* the context held a reference on the task, and the task on it */
	put_task_struct(child);
	perf_put_ctx(ctx);
	/* and the pin's */
	perf_unpin_ctx(ctx);
	perf_put_ctx(ctx);
}

/**
 * perf_event_exec - the current task has execed a new program
 *
 * Events with enable_on_exec start counting now (once); events with
 * remove_on_exec leave the context.  A removed original enters EXIT, as at
 * the task's exit; a removed inherited copy is folded into its original
 * and freed, as at exit, so that it neither lingers on the original's
 * child_list (which would keep POLLHUP from its owner) nor leaks.
 */
void perf_event_exec(void)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;
	bool changes = false;
	LIST_HEAD(copies);

	/* the old mappings are gone: file filters wait for the new ones */
	perf_addr_filters_exec();
	ctx = perf_pin_task_ctx(current);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		changes |= event->attr.remove_on_exec ||
			   event->attr.enable_on_exec;
	/* this task's context will no longer match its clones */
	if (changes)
		perf_unclone_ctx(ctx);
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (event->attr.remove_on_exec) {
			/* EXIT under ctx->lock: see perf_remove_from_context() */
			if (event->parent) {
				perf_detach_copy(event, true, &copies);
			} else {
				perf_remove_from_context(event, true);
				perf_event_wakeup(event);
			}
			continue;
		}
		if (!event->attr.enable_on_exec)
			continue;
		event->attr.enable_on_exec = 0;
		if (event->state == PERF_EVENT_STATE_OFF)
			perf_event_do_enable(event);
	}
	mutex_unlock(&ctx->mutex);
	perf_fold_copies(&copies);
	perf_unpin_ctx(ctx);
	perf_put_ctx(ctx);
}

/**
 * perf_event_print_debug - sysrq dump of the PMU state (arch override)
 */
void __weak perf_event_print_debug(void)
{
}

typedef void (*perf_owner_op_t)(struct perf_event *event);

static void owner_apply(struct perf_event *event, bool enable)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	struct perf_event *child;

	if (enable)
		perf_event_do_enable(event);
	else
		perf_event_do_disable(event);
	mutex_unlock(&ctx->mutex);

	/* copies are reached under child_mutex alone: see perf_ctx_call() */
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list) {
		if (enable)
			perf_event_do_enable(child);
		else
			perf_event_do_disable(child);
	}
	mutex_unlock(&event->child_mutex);
}

static int perf_owned_apply(bool enable)
{
	struct perf_event *event;

	mutex_lock(&current->perf_event_mutex);
	list_for_each_entry(event, &current->perf_event_list, owner_entry)
		owner_apply(event, enable);
	mutex_unlock(&current->perf_event_mutex);
	return 0;
}

/**
 * perf_event_task_enable - prctl(PR_TASK_PERF_EVENTS_ENABLE)
 *
 * Enables every event the calling task created, wherever it counts.
 * Return: 0.
 */
int perf_event_task_enable(void)
{
	return perf_owned_apply(true);
}

/**
 * perf_event_task_disable - prctl(PR_TASK_PERF_EVENTS_DISABLE)
 *
 * Return: 0.
 */
int perf_event_task_disable(void)
{
	return perf_owned_apply(false);
}
