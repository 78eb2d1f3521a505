// SPDX-License-Identifier: GPL-2.0
/*
 * Task lifecycle: what happens to a task's events when it forks, execs and
 * exits, and prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE).
 *
 * Inheritance of events into children (attr.inherit) is the event-core
 * issue; until it lands a child starts without events.
 */
#include <linux/sched/task.h>

#include "internal.h"

/**
 * perf_event_init_task - set up a new task's perf state at fork
 * @child: the new task
 * @clone_flags: its clone flags
 *
 * Context: process context (the parent), may sleep.
 * Return: 0.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	memset(child->perf_recursion, 0, sizeof(child->perf_recursion));
	child->perf_event_ctxp = NULL;
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);
	return 0;
}

/**
 * perf_event_free_task - undo perf_event_init_task when fork fails
 * @task: the task that never ran
 */
void perf_event_free_task(struct task_struct *task)
{
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
static void task_ctx_sched_out_current(struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx;
	struct perf_event *event;
	unsigned long flags;

	local_irq_save(flags);
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	perf_ctx_lock(cpuctx, ctx);
	perf_ctx_update_time(ctx);
	list_for_each_entry(event, &ctx->pinned_groups, group_entry)
		perf_group_sched_out(event, ctx);
	list_for_each_entry(event, &ctx->flexible_groups, group_entry)
		perf_group_sched_out(event, ctx);
	if (cpuctx->task_ctx == ctx)
		cpuctx->task_ctx = NULL;
	ctx->is_active = 0;
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
	perf_ctx_unlock(cpuctx, ctx);
	local_irq_restore(flags);
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
	struct perf_event *event, *tmp;

	mutex_lock(&child->perf_event_mutex);
	list_for_each_entry_safe(event, tmp, &child->perf_event_list,
				 owner_entry) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	ctx = child->perf_event_ctxp;
	RCU_INIT_POINTER(child->perf_event_ctxp, NULL);
	mutex_unlock(&child->perf_event_mutex);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	task_ctx_sched_out_current(ctx);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		perf_event_wakeup(event);
	mutex_unlock(&ctx->mutex);

	/* the context held a reference on the task, and the task on it */
	put_task_struct(child);
	perf_put_ctx(ctx);
}

/**
 * perf_event_exec - the current task has execed a new program
 *
 * Events with enable_on_exec start counting now (once); events with
 * remove_on_exec leave the context.
 */
void perf_event_exec(void)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;

	mutex_lock(&current->perf_event_mutex);
	ctx = current->perf_event_ctxp;
	if (ctx)
		perf_get_ctx(ctx);
	mutex_unlock(&current->perf_event_mutex);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (event->attr.remove_on_exec) {
			perf_remove_from_context(event);
			perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
			continue;
		}
		if (!event->attr.enable_on_exec)
			continue;
		event->attr.enable_on_exec = 0;
		if (event->state == PERF_EVENT_STATE_OFF)
			perf_event_do_enable(event);
	}
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
}

/* side-band records: the sampling issue writes these into ring buffers */

void perf_event_comm(struct task_struct *tsk, bool exec)
{
}

void perf_event_namespaces(struct task_struct *tsk)
{
}

void perf_event_fork(struct task_struct *tsk)
{
}

void perf_event_mmap(struct vm_area_struct *vma)
{
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name)
{
}

void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
}

void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
}

/**
 * perf_event_task_tick - scheduler tick (frequency adjustment and rotation
 * are the event-core and sampling issues)
 *
 * Context: hard IRQ.
 */
void perf_event_task_tick(void)
{
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
	struct perf_event_context *ctx = event->ctx;
	struct perf_event *child;

	mutex_lock(&ctx->mutex);
	if (enable)
		perf_event_do_enable(event);
	else
		perf_event_do_disable(event);
	mutex_unlock(&ctx->mutex);

	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list) {
		mutex_lock(&child->ctx->mutex);
		if (enable)
			perf_event_do_enable(child);
		else
			perf_event_do_disable(child);
		mutex_unlock(&child->ctx->mutex);
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
