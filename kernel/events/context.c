// SPDX-License-Identifier: GPL-2.0
/*
 * Event contexts: their lifetime, and the CPU contexts' hotplug.
 *
 * A context holds the events of one task (task->perf_event_ctxp) or of one
 * CPU (perf_cpu_ctx.ctx).  Group leaders are indexed by groups.c; members
 * hang off their leader.  A context is "active" (ctx->is_active) while it
 * is scheduled in on a CPU: a CPU's own context whenever the CPU is
 * online, a task's context while the task runs.  Only an active context
 * has events on a PMU, and only the CPU it is active on may touch them:
 * other CPUs go through perf_ctx_call() (remote.c).  Scheduling is in
 * sched.c, multiplexing in rotate.c, the cheap swap of cloned contexts in
 * swap.c and time accounting in time.c.
 *
 * Locking:
 *  - ctx->lock (raw, IRQs off) protects is_active, the event states and
 *    times, and the group lists while scheduling walks them.  When both are
 *    needed the CPU context's lock is taken before a task context's.
 *  - ctx->mutex serialises list changes made from process context; it is
 *    taken before ctx->lock.
 *  - The scheduler hooks run with the runqueue lock held and IRQs off.
 *
 * Lifetime: a task context is referenced by its task (until exit), by each
 * of its events, and by clones (ctx->parent_ctx); it is freed an RCU grace
 * period after the last reference goes, since the scheduler hooks read
 * task->perf_event_ctxp under RCU-sched.  CPU contexts are static.
 */
#include <linux/slab.h>
#include <linux/cpu.h>

#include "context.h"
#include "groups.h"
#include "rotate.h"
#include "sched.h"
#include "scope.h"
#include "time.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/*
 * CPU contexts' locks are a class of their own for lockdep: a task
 * context's lock is taken inside its CPU context's (perf_ctx_lock()).
 */
static struct lock_class_key perf_cpu_ctx_lock_key;
static struct lock_class_key perf_cpu_ctx_mutex_key;

static void perf_ctx_init(struct perf_event_context *ctx)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->event_list);
	perf_groups_init(ctx);
	refcount_set(&ctx->refcount, 1);
}

void perf_get_ctx(struct perf_event_context *ctx)
{
	refcount_inc(&ctx->refcount);
}

static void perf_free_ctx_rcu(struct rcu_head *head)
{
	struct perf_event_context *ctx =
		container_of(head, struct perf_event_context, rcu_head);

	perf_groups_free(ctx);
	kfree(ctx);
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

	lockdep_assert_not_held(&ctx->lock);
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

/**
 * perf_event_ctx_lock_nested - lock the mutex of the context @event is in
 * @event: the event; the caller holds a reference
 * @subclass: the lockdep subclass of the mutex
 *
 * An event spends its life in one context, with one exception: the CPU
 * events of a PMU with a scope move to another CPU's context when theirs
 * goes offline (scope.c), and the move changes event->ctx with both
 * contexts' mutexes held.  So the context read before the mutex is taken
 * is read again after; a second pass happens only across such a move.
 * CPU contexts are never freed, so the stale one is safe to lock.
 *
 * Context: process context, may sleep.
 * Return: the context, its mutex held.
 */
struct perf_event_context *perf_event_ctx_lock_nested(struct perf_event *event,
						      int subclass)
{
	struct perf_event_context *ctx;

	for (;;) {
		ctx = READ_ONCE(event->ctx);
		mutex_lock_nested(&ctx->mutex, subclass);
		if (likely(ctx == READ_ONCE(event->ctx)))
			return ctx;
		mutex_unlock(&ctx->mutex);
	}
}

/* CPU hotplug: a CPU's context is active exactly while the CPU is online */

static void perf_cpu_up_local(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	struct perf_pmu_batch b = { };

	raw_spin_lock(&cpuctx->ctx.lock);
	if (!cpuctx->online) {
		cpuctx->online = 1;
		perf_ctx_activate(&cpuctx->ctx);
		perf_ctx_sched_in_all(cpuctx, NULL, &b);
		perf_pmu_batch_enable(&b);
	}
	raw_spin_unlock(&cpuctx->ctx.lock);
}

static void perf_cpu_down_local(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;
	struct perf_pmu_batch b = { };

	perf_ctx_lock(cpuctx, task_ctx);
	if (task_ctx) {
		perf_ctx_update_time(task_ctx);
		perf_task_ctx_sched_out(cpuctx, task_ctx);
	}
	if (cpuctx->online) {
		perf_ctx_update_time(&cpuctx->ctx);
		perf_ctx_sched_out(&cpuctx->ctx, false, NULL, &b);
		perf_pmu_batch_enable(&b);
		perf_ctx_deactivate(&cpuctx->ctx);
		cpuctx->online = 0;
	}
	perf_rotation_stop_cpu();
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
	if (cpu == smp_processor_id() && cpu_online(cpu)) {
		unsigned long flags;

		perf_scope_cpu_up(cpu);
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

		/* while this CPU can still run the moves */
		perf_scope_cpu_down(cpu);
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
		INIT_LIST_HEAD(&cpuctx->rotating);
		INIT_LIST_HEAD(&cpuctx->sched_cb);
	}
	perf_event_init_cpu(smp_processor_id());
	return 0;
}
