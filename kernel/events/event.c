// SPDX-License-Identifier: GPL-2.0
/*
 * Event objects: allocation, membership of a context and a group, enable,
 * disable, reset, read and release.
 *
 * An event is created detached, then installed into one context for its
 * whole life.  Every change to what is on a PMU goes through
 * perf_ctx_call(), so it happens on the CPU that owns the context, under
 * ctx->lock with IRQs off.  Process-context callers hold ctx->mutex around
 * those calls, which keeps the event in its context and its group stable.
 *
 * Lifetime: event->refcount counts the file (or kernel user) and any
 * temporary holders; the last put frees the event after an RCU grace
 * period, because software-event hooks walk their lists under RCU.
 */
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/hw_breakpoint.h>

#include "internal.h"

static atomic64_t perf_event_ids;

static void perf_pending_work(struct irq_work *work);

u64 perf_event_next_id(void)
{
	return atomic64_inc_return(&perf_event_ids);
}

void perf_event_ref(struct perf_event *event)
{
	atomic_long_inc(&event->refcount);
}

static void perf_event_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct perf_event, rcu_head));
}

/**
 * perf_event_free - undo perf_event_alloc()
 * @event: an event no longer in any context
 */
void perf_event_free(struct perf_event *event)
{
	irq_work_sync(&event->pending_irq);
	perf_event_detach_rb(event);
	perf_exclusive_event_release(event);
	if (event->destroy)
		event->destroy(event);
	if (event->pmu)
		module_put(event->pmu->module);
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		put_callchain_buffers();
	if (event->attach_state & PERF_ATTACH_TASK)
		perf_task_events_dec();
	if (event->hw.target)
		put_task_struct(event->hw.target);
	if (event->ns)
		put_pid_ns(event->ns);
	call_rcu(&event->rcu_head, perf_event_free_rcu);
}

void perf_event_unref(struct perf_event *event)
{
	if (atomic_long_dec_and_test(&event->refcount))
		perf_event_free(event);
}

/**
 * perf_read_size - bytes read() returns for a read_format
 * @fmt: the attr.read_format
 * @nr_siblings: group members besides the leader (used with
 *	PERF_FORMAT_GROUP only)
 *
 * Return: the size; PERF_SAMPLE_READ carries the same layout.
 */
u32 perf_read_size(u64 fmt, int nr_siblings)
{
	u32 head = 0, entry = sizeof(u64), nr = 1;

	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head += sizeof(u64);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head += sizeof(u64);
	if (fmt & PERF_FORMAT_ID)
		entry += sizeof(u64);
	if (fmt & PERF_FORMAT_LOST)
		entry += sizeof(u64);
	if (fmt & PERF_FORMAT_GROUP) {
		head += sizeof(u64);
		nr += nr_siblings;
	}
	return head + nr * entry;
}

/**
 * perf_event_calc_read_size - the size of what read() returns
 * @event: the event; its group is stable (ctx->mutex held)
 */
void perf_event_calc_read_size(struct perf_event *event)
{
	event->read_size = perf_read_size(event->attr.read_format,
					  event->group_leader->nr_siblings);
}

/* Sizes of what read() returns and of the event's records. */
void perf_event_calc_sizes(struct perf_event *event)
{
	perf_event_calc_read_size(event);
	perf_event_calc_sample_sizes(event);
}

/**
 * perf_event_alloc - create an event, not yet in any context
 * @attr: the validated attributes
 * @cpu: the CPU it counts on, or -1
 * @task: the task it counts, or NULL for a CPU event
 * @group_leader: the leader it joins, or NULL to lead its own group
 * @parent: the event it was inherited from, or NULL
 * @handler: overflow handler (kernel users), or NULL for the default
 * @context: handler's private data
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR; the PMU's event_init has run.
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent,
				    perf_overflow_handler_t handler,
				    void *context)
{
	struct perf_event *event;
	struct hw_perf_event *hwc;
	int err;

	/* a CPU event needs a CPU; a task event may use any (-1) */
	if ((unsigned int)cpu >= nr_cpu_ids && (!task || cpu != -1))
		return ERR_PTR(-EINVAL);
	/* synchronous signals go to a task, so there must be one */
	if (attr->sigtrap && !task)
		return ERR_PTR(-EINVAL);
	/* inherited PERF_SAMPLE_READ samples only make sense per thread */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ) &&
	    !(attr->sample_type & PERF_SAMPLE_TID))
		return ERR_PTR(-EINVAL);

	event = kzalloc(sizeof(*event), GFP_KERNEL);
	if (!event)
		return ERR_PTR(-ENOMEM);

	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->group_entry);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->sibling_entry);
	INIT_LIST_HEAD(&event->active_entry);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->owner_entry);
	INIT_HLIST_NODE(&event->hlist_entry);
	mutex_init(&event->child_mutex);
	mutex_init(&event->mmap_mutex);
	INIT_LIST_HEAD(&event->rb_entry);
	init_waitqueue_head(&event->waitq);
	init_irq_work(&event->pending_irq, perf_pending_work);
	atomic_long_set(&event->refcount, 1);

	event->attr = *attr;
	event->cpu = cpu;
	event->oncpu = -1;
	event->group_leader = group_leader ? group_leader : event;
	event->parent = parent;
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF :
					PERF_EVENT_STATE_INACTIVE;
	event->id = perf_event_next_id();
	event->clock = perf_clock;
	event->ns = get_pid_ns(task_active_pid_ns(current));

	if (handler) {
		event->overflow_handler = handler;
		event->overflow_handler_context = context;
	} else if (is_write_backward(event)) {
		event->overflow_handler = perf_event_output_backward;
	} else {
		event->overflow_handler = perf_event_output_forward;
	}

	hwc = &event->hw;
	if (task) {
		get_task_struct(task);
		hwc->target = task;
	}
	if (!attr->freq) {
		hwc->sample_period = attr->sample_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	} else {
		/* frequency mode starts at period 1 and adapts (sampling) */
		hwc->sample_period = 1;
		hwc->last_period = 1;
		local64_set(&hwc->period_left, 1);
	}

	if (!has_branch_stack(event))
		event->attr.branch_sample_type = 0;

	err = perf_init_event(event);
	if (err) {
		event->pmu = NULL;
		goto fail;
	}

	/* no PMU of ours has an AUX area: refuse its controls as upstream */
	if (event->attr.aux_output &&
	    (!(event->pmu->capabilities & PERF_PMU_CAP_AUX_OUTPUT) ||
	     event->attr.aux_pause || event->attr.aux_resume)) {
		err = -EOPNOTSUPP;
		goto fail_pmu;
	}
	if (event->attr.aux_pause && event->attr.aux_resume) {
		err = -EINVAL;
		goto fail_pmu;
	}
	if (event->attr.aux_start_paused &&
	    !(event->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE)) {
		err = -EOPNOTSUPP;
		goto fail_pmu;
	}
	if (!parent && (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		err = get_callchain_buffers(event->attr.sample_max_stack);
		if (err)
			goto fail_pmu;
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	}

	/*
	 * The scheduler hooks run only while some event needs them: task
	 * events, and CPU-wide events that record context switches.
	 */
	if (task || attr->context_switch) {
		event->attach_state |= PERF_ATTACH_TASK;
		perf_task_events_inc();
	}
	return event;

fail_pmu:
	perf_exclusive_event_release(event);
	if (event->destroy)
		event->destroy(event);
	module_put(event->pmu->module);
fail:
	if (hwc->target)
		put_task_struct(hwc->target);
	put_pid_ns(event->ns);
	kfree(event);
	return ERR_PTR(err);
}

/* Add @event to @ctx's lists.  ctx->lock held. */
static void ctx_add_event(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&ctx->lock);
	event->tstamp = ctx->time;
	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	if (!(event->event_caps & PERF_EV_CAP_SOFTWARE))
		ctx->nr_hw_events++;
	if (event->attr.inherit_stat)
		ctx->nr_stat++;
	/* the tick re-derives the periods of frequency-mode events */
	if (event->attr.freq)
		ctx->nr_freq++;
	event->attach_state |= PERF_ATTACH_CONTEXT;

	if (leader == event) {
		list_add_tail(&event->group_entry, event->attr.pinned ?
			      &ctx->pinned_groups : &ctx->flexible_groups);
	} else {
		list_add_tail(&event->sibling_entry, &leader->sibling_list);
		leader->nr_siblings++;
		leader->group_generation++;
		event->attach_state |= PERF_ATTACH_GROUP;
	}
}

static void __perf_install(struct perf_event *event,
			   struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader;

	ctx_add_event(event, ctx);
	if (!ctx->is_active)
		return;
	if (leader == event && event->attr.pinned &&
	    !(event->event_caps & PERF_EV_CAP_SOFTWARE)) {
		/* pinned outranks flexible: let everything go back in order */
		perf_ctx_resched(ctx);
	} else if (leader == event) {
		perf_group_try_sched_in(event, ctx);
	} else if (leader->state == PERF_EVENT_STATE_ACTIVE) {
		/* a new member: the group goes back on as a whole */
		perf_group_sched_out(leader, ctx);
		perf_group_try_sched_in(leader, ctx);
	}
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

	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;

	perf_event_sched_out(event, ctx);
	perf_event_update_time(event);

	if (leader != event) {
		list_del_init(&event->sibling_entry);
		leader->nr_siblings--;
		leader->group_generation++;
		event->group_leader = event;
	} else {
		list_del_init(&event->group_entry);
		/* members become groups of their own, keeping their state */
		list_for_each_entry_safe(sibling, tmp, &event->sibling_list,
					 sibling_entry) {
			list_del_init(&sibling->sibling_entry);
			sibling->group_leader = sibling;
			sibling->attach_state &= ~PERF_ATTACH_GROUP;
			list_add_tail(&sibling->group_entry,
				      sibling->attr.pinned ?
				      &ctx->pinned_groups :
				      &ctx->flexible_groups);
		}
		event->nr_siblings = 0;
	}

	list_del_init(&event->event_entry);
	ctx->nr_events--;
	if (!(event->event_caps & PERF_EV_CAP_SOFTWARE))
		ctx->nr_hw_events--;
	if (event->attr.inherit_stat)
		ctx->nr_stat--;
	if (event->attr.freq)
		ctx->nr_freq--;
	event->attach_state &= ~(PERF_ATTACH_CONTEXT | PERF_ATTACH_GROUP);
	if (event->state > PERF_EVENT_STATE_EXIT)
		perf_event_set_state(event, PERF_EVENT_STATE_OFF);
}

/**
 * perf_remove_from_context - take an event out of its context for good
 * @event: the event
 *
 * Context: process context, ctx->mutex held.
 */
void perf_remove_from_context(struct perf_event *event)
{
	perf_ctx_call(event, __perf_remove, NULL);
}

static void __perf_enable(struct perf_event *event,
			  struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader;

	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT)
		return;
	if (event->state == PERF_EVENT_STATE_ERROR)
		perf_event_set_state(event, PERF_EVENT_STATE_OFF);
	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
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

/**
 * perf_event_do_enable - enable one event
 * @event: the event
 *
 * Context: process context, ctx->mutex held.
 */
void perf_event_do_enable(struct perf_event *event)
{
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
 * Context: process context, ctx->mutex held.
 */
void perf_event_do_disable(struct perf_event *event)
{
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
	perf_ctx_call(leader, enable ? __perf_group_enable :
				       __perf_group_disable, NULL);
}

/**
 * perf_event_enable - enable an event (kernel users)
 * @event: the event
 */
void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	mutex_lock(&ctx->mutex);
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
	struct perf_event_context *ctx = event->ctx;

	mutex_lock(&ctx->mutex);
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

static void perf_pending_work(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);

	/*
	 * Queued on the CPU the event overflowed on.  If it has been taken
	 * off since, perf_event_sched_out() applied the disable already.
	 */
	if (READ_ONCE(event->pending_disable) &&
	    READ_ONCE(event->oncpu) == smp_processor_id()) {
		WRITE_ONCE(event->pending_disable, 0);
		perf_event_disable_local(event);
	}
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}
}

/**
 * perf_event_queue_wakeup - wake @event's pollers from atomic context
 * @event: the event
 *
 * Context: any, including NMI and under ctx->lock (a raw spinlock, inside
 * which the wait queue's lock may not be taken).
 */
void perf_event_queue_wakeup(struct perf_event *event)
{
	WRITE_ONCE(event->pending_wakeup, 1);
	irq_work_queue(&event->pending_irq);
}

/**
 * perf_event_disable_inatomic - disable an event from any context
 * @event: the event
 *
 * Context: any, including NMI; the work is deferred to an irq_work on this
 * CPU.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_irq);
}

struct perf_read_data {
	bool	group;
};

static void __perf_read(struct perf_event *event,
			struct perf_event_context *ctx, void *data)
{
	struct perf_read_data *rd = data;
	struct perf_event *sibling;
	struct pmu *pmu = event->pmu;

	if (rd->group && pmu->start_txn)
		pmu->start_txn(pmu, PERF_PMU_TXN_READ);
	if (event->state == PERF_EVENT_STATE_ACTIVE)
		pmu->read(event);
	perf_event_update_time(event);
	if (rd->group) {
		for_each_sibling_event(sibling, event) {
			if (sibling->state == PERF_EVENT_STATE_ACTIVE)
				sibling->pmu->read(sibling);
			perf_event_update_time(sibling);
		}
		if (pmu->commit_txn)
			pmu->commit_txn(pmu);
	}
}

/**
 * perf_event_sync - bring an event's (and optionally its group's) count
 * and times up to date
 * @event: the event
 * @group: also its siblings (@event must be the leader)
 *
 * Context: process context, ctx->mutex held.
 */
static void perf_event_sync(struct perf_event *event, bool group)
{
	struct perf_read_data rd = { .group = group };

	perf_ctx_call_read(event, __perf_read, &rd);
}

/**
 * perf_event_read_children - perf_event_read_total() for an event that
 * has inherited copies
 * @event: the event, already synchronised by the caller
 * @enabled: its enabled time, children included
 * @running: its running time, children included
 *
 * Context: process context, the event's ctx->mutex held.  Takes
 * child_mutex, which keeps the copies alive; never a copy's ctx->mutex
 * (a forking task holds that one while it takes child_mutex).
 * Return: the count.
 */
u64 perf_event_read_children(struct perf_event *event, u64 *enabled,
			     u64 *running)
{
	struct perf_read_data rd = { .group = false };
	struct perf_event *child;
	u64 val, e, r;

	/*
	 * A copy that exits folds its count into ours and leaves the list
	 * under child_mutex: read both under it, or its count is missed.
	 */
	mutex_lock(&event->child_mutex);
	val = perf_event_read_count(event, enabled, running);
	list_for_each_entry(child, &event->child_list, child_list) {
		perf_ctx_call_read(child, __perf_read, &rd);
		val += perf_event_read_count(child, &e, &r);
		*enabled += e;
		*running += r;
	}
	mutex_unlock(&event->child_mutex);
	return val;
}

/**
 * perf_event_read_value - read an event (kernel users)
 * @event: the event
 * @enabled: its enabled time
 * @running: its running time
 *
 * Return: the count.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx = event->ctx;
	u64 val;

	mutex_lock(&ctx->mutex);
	perf_event_sync(event, false);
	val = perf_event_read_total(event, enabled, running);
	mutex_unlock(&ctx->mutex);
	return val;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/* exported for file.c */
void perf_event_sync_group(struct perf_event *event, bool group)
{
	perf_event_sync(event, group);
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
 * Context: process context, ctx->mutex held.
 */
void perf_event_reset(struct perf_event *event)
{
	perf_ctx_call(event, __perf_reset, NULL);
	perf_event_update_userpage(event);
}

/* Unlink @event from the task that created it (prctl enable/disable). */
static void perf_event_drop_owner(struct perf_event *event)
{
	struct task_struct *owner;

	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	if (owner && !refcount_inc_not_zero(&owner->usage))
		owner = NULL;
	rcu_read_unlock();
	if (!owner)
		return;

	mutex_lock(&owner->perf_event_mutex);
	if (event->owner) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&owner->perf_event_mutex);
	put_task_struct(owner);
}

/**
 * perf_event_release_kernel - destroy an event
 * @event: the event (its last file or kernel reference)
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int perf_event_release_kernel(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_event *child;

	perf_event_drop_owner(event);

	if (!ctx) {
		perf_event_unref(event);
		return 0;
	}

	mutex_lock(&ctx->mutex);
	perf_remove_from_context(event);
	mutex_unlock(&ctx->mutex);

	/*
	 * Children inherited into other tasks go with their parent.  Whoever
	 * unlinks a child from child_list under child_mutex owns it: this
	 * loop, or the child task's exit (task.c), never both.  The child's
	 * context mutex is taken without child_mutex held, as exit does.
	 */
	for (;;) {
		struct perf_event_context *cctx;

		mutex_lock(&event->child_mutex);
		child = list_first_entry_or_null(&event->child_list,
						 struct perf_event, child_list);
		if (child)
			list_del_init(&child->child_list);
		mutex_unlock(&event->child_mutex);
		if (!child)
			break;

		cctx = child->ctx;
		mutex_lock(&cctx->mutex);
		perf_remove_from_context(child);
		mutex_unlock(&cctx->mutex);
		perf_put_ctx(cctx);
		perf_event_unref(child);
		/* the child's reference on its parent; ours keeps it alive */
		atomic_long_dec(&event->refcount);
	}

	event->ctx = NULL;
	perf_put_ctx(ctx);
	perf_event_unref(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);

/**
 * perf_event_create_kernel_counter - an event for an in-kernel user
 * @attr: the attributes
 * @cpu: the CPU, or -1 with @task
 * @task: the task, or NULL for a CPU event
 * @callback: the overflow handler
 * @context: its private data
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR.
 */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	if (attr->aux_output)
		return ERR_PTR(-EINVAL);
	if (!task && (cpu < 0 || (unsigned int)cpu >= nr_cpu_ids))
		return ERR_PTR(-EINVAL);

	event = perf_event_alloc(attr, cpu, task, NULL, NULL, callback,
				 context);
	if (IS_ERR(event))
		return event;

	ctx = perf_find_get_context(task, cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto err_free;
	}

	mutex_lock(&ctx->mutex);
	if (task && READ_ONCE(ctx->task) == TASK_TOMBSTONE) {
		err = -ESRCH;
		goto err_unlock;
	}
	if (!task && !cpu_online(cpu)) {
		err = -ENODEV;
		goto err_unlock;
	}
	if (!perf_exclusive_installable(event, ctx)) {
		err = -EBUSY;
		goto err_unlock;
	}
	event->ctx = ctx;
	perf_install_in_context(ctx, event);
	mutex_unlock(&ctx->mutex);
	return event;

err_unlock:
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
err_free:
	perf_event_free(event);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);

/*
 * The new period applies at once: a running event is stopped, its pending
 * remainder dropped and the counter restarted with the new period.  A
 * throttled event gets a fresh start too.  ctx->lock held, on the event's
 * CPU when it is active.
 */
static void __perf_event_period(struct perf_event *event,
				struct perf_event_context *ctx, void *data)
{
	u64 value = *(u64 *)data;
	bool active = event->state == PERF_EVENT_STATE_ACTIVE;

	if (event->attr.freq) {
		event->attr.sample_freq = value;
	} else {
		event->attr.sample_period = value;
		event->hw.sample_period = value;
	}
	if (active) {
		perf_pmu_disable(event->pmu);
		event->hw.interrupts = 0;
		event->pmu->stop(event, PERF_EF_UPDATE);
	}
	local64_set(&event->hw.period_left, 0);
	if (active) {
		event->pmu->start(event, PERF_EF_RELOAD);
		perf_pmu_enable(event->pmu);
	}
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

	mutex_lock(&event->ctx->mutex);
	perf_ctx_call(event, __perf_event_period, &value);
	mutex_unlock(&event->ctx->mutex);
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
	struct perf_event_context *ctx = event->ctx;
	u64 enabled, running, count;

	mutex_lock(&ctx->mutex);
	perf_event_do_disable(event);
	count = perf_event_read_count(event, &enabled, &running);
	if (reset)
		local64_set(&event->count, 0);
	mutex_unlock(&ctx->mutex);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);
