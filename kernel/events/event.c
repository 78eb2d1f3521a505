// SPDX-License-Identifier: GPL-2.0
/*
 * Event objects: allocation, the sizes of what they write, references,
 * and release; also the in-kernel counter API's create and release.
 * control.c puts them in a context and changes their state, read.c reads
 * them, wakeup.c wakes their readers.
 *
 * Lifetime: event->refcount counts the file (or kernel user) and any
 * temporary holders; the last put frees the event after an RCU grace
 * period, because software-event hooks walk their lists under RCU.
 */
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/hw_breakpoint.h>

#include "addr_filter.h"
#include "aux.h"
#include "bpf.h"
#include "cgroup.h"
#include "context.h"
#include "control.h"
#include "event.h"
#include "exclusive.h"
#include "groups.h"
#include "pmu.h"
#include "process.h"
#include "rb.h"
#include "sample.h"
#include "sched.h"
#include "syscall.h"
#include "time.h"
#include "wakeup.h"

static atomic64_t perf_event_ids;

static u64 perf_event_next_id(void)
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
	/* still on a PMU: it would keep pointing here after the free */
	WARN_ON_ONCE(READ_ONCE(event->oncpu) != -1);
	irq_work_sync(&event->pending_irq);
	perf_event_detach_rb(event);
	perf_aux_release(event);
	perf_addr_filters_release(event);
	perf_exclusive_event_release(event);
	perf_cgroup_release(event);
	security_perf_event_free(event);
	/* a trace event's program leaves its probe before the probe goes */
	perf_bpf_release(event);
	if (event->destroy)
		event->destroy(event);
	if (event->pmu)
		module_put(event->pmu->module);
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		put_callchain_buffers();
	if (event->attach_state & PERF_ATTACH_SCHED_HOOKS)
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
	if (fmt & PERF_FORMAT_LOSSES)
		entry += PERF_LOSSES_FIELDS * sizeof(u64);
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

/*
 * The AUX-area controls in @event's attr, against what its own PMU can do
 * (aux_group.c checks them against the group's leader at open).
 */
static int perf_check_aux_attr(const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	unsigned int caps = event->pmu->capabilities;
	bool steers = attr->aux_pause || attr->aux_resume;

	if (attr->aux_output) {
		/* samples into an AUX stream cannot steer that stream too */
		if (steers || !(caps & PERF_PMU_CAP_AUX_OUTPUT))
			return -EOPNOTSUPP;
	} else if (attr->aux_pause && attr->aux_resume) {
		return -EINVAL;
	}
	if (attr->aux_start_paused && !(caps & PERF_PMU_CAP_AUX_PAUSE))
		return -EOPNOTSUPP;
	return 0;
}

/* Arguments no event could be made of, whatever its PMU. */
static int perf_alloc_args_ok(const struct perf_event_attr *attr, int cpu,
			      struct task_struct *task)
{
	/* a CPU event needs a CPU; a task event may use any (-1) */
	if ((unsigned int)cpu >= nr_cpu_ids && (!task || cpu != -1))
		return -EINVAL;
	/* synchronous signals go to a task, so there must be one */
	if (attr->sigtrap && !task)
		return -EINVAL;
	/* inherited PERF_SAMPLE_READ samples only make sense per thread */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ) &&
	    !(attr->sample_type & PERF_SAMPLE_TID))
		return -EINVAL;
	return 0;
}

/* The event's lists, locks and wait queue: all empty, all usable. */
static void perf_event_init_links(struct perf_event *event)
{
	struct list_head *lists[] = {
		&event->event_entry, &event->group_entry,
		&event->group_on_entry, &event->sb_entry,
		&event->sibling_list, &event->sibling_entry,
		&event->active_entry, &event->child_list,
		&event->owner_entry, &event->rb_entry,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		INIT_LIST_HEAD(lists[i]);
	INIT_HLIST_NODE(&event->hlist_entry);
	INIT_HLIST_NODE(&event->process_entry);
	mutex_init(&event->child_mutex);
	init_waitqueue_head(&event->waitq);
	init_irq_work(&event->pending_irq, perf_pending_work);
	atomic_long_set(&event->refcount, 1);
}

/*
 * Who handles an overflow: a kernel user's callback, or the ring buffer,
 * written from its end down when the attr asks for a backward buffer.
 */
static void perf_event_set_handler(struct perf_event *event,
				   perf_overflow_handler_t handler,
				   void *context)
{
	if (handler) {
		event->overflow_handler = handler;
		event->overflow_handler_context = context;
		return;
	}
	event->overflow_handler = is_write_backward(event) ?
				  perf_event_output_backward :
				  perf_event_output_forward;
}

/*
 * The first period: the user's, or 1 in frequency mode, from which the
 * tick adapts it toward the asked-for rate (freq.c).
 */
static void perf_event_init_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = event->attr.freq ? 1 : event->attr.sample_period;

	hwc->sample_period = period;
	hwc->last_period = period;
	local64_set(&hwc->period_left, period);
}

/*
 * What the event takes from outside itself: its PMU (event_init), the
 * callchain buffers, the LSM's blob and the scheduler hooks.  On failure
 * everything this took is given back; the caller frees the rest.
 */
static int perf_event_attach(struct perf_event *event, bool inherited)
{
	struct perf_event_attr *attr = &event->attr;
	int err;

	/* what SIGTRAP reports, before a PMU may redirect the type */
	event->orig_type = attr->type;
	err = perf_init_event(event);
	if (err) {
		event->pmu = NULL;
		return err;
	}

	err = perf_check_aux_attr(event);
	if (err)
		goto put_pmu;
	/* the tracer starts paused, until a member's overflow resumes it */
	if (attr->aux_start_paused)
		event->hw.aux_paused = 1;
	err = perf_addr_filters_init(event);
	if (err)
		goto put_pmu;
	/* an inherited event uses the buffers its parent took */
	if (!inherited && (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		err = get_callchain_buffers(attr->sample_max_stack);
		if (err)
			goto put_pmu;
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	}

	/* the LSM's blob: SELinux labels the event with its creator */
	err = security_perf_event_alloc(event);
	if (err)
		goto put_callchain;

	/*
	 * The scheduler hooks run only while some event needs them: task
	 * events, CPU-wide events that record context switches, and events
	 * whose PMU asked for ->sched_task at event_init.
	 */
	if (event->hw.target)
		event->attach_state |= PERF_ATTACH_TASK;
	if (event->hw.target || attr->context_switch ||
	    (event->attach_state & PERF_ATTACH_SCHED_CB)) {
		event->attach_state |= PERF_ATTACH_SCHED_HOOKS;
		perf_task_events_inc();
	}
	return 0;

put_callchain:
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		put_callchain_buffers();
put_pmu:
	perf_addr_filters_release(event);
	perf_exclusive_event_release(event);
	if (event->destroy)
		event->destroy(event);
	module_put(event->pmu->module);
	return err;
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
	int err;

	might_sleep();
	err = perf_alloc_args_ok(attr, cpu, task);
	if (err)
		return ERR_PTR(err);

	event = kzalloc(sizeof(*event), GFP_KERNEL);
	if (!event)
		return ERR_PTR(-ENOMEM);
	perf_event_init_links(event);

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
	if (task)
		event->hw.target = get_task_struct(task);
	/* no branch stack asked for: its filter bits mean nothing */
	if (!has_branch_stack(event))
		event->attr.branch_sample_type = 0;
	perf_event_set_handler(event, handler, context);
	perf_event_init_period(event);

	err = perf_event_attach(event, !!parent);
	if (err) {
		if (task)
			put_task_struct(task);
		put_pid_ns(event->ns);
		kfree(event);
		return ERR_PTR(err);
	}
	return event;
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
	struct perf_event_context *ctx;
	struct perf_event *child;

	perf_event_drop_owner(event);
	/* before the copies go: no new thread may get one behind our back */
	perf_process_forget(event);

	if (!event->ctx) {
		perf_event_unref(event);
		return 0;
	}

	/* the context it is in now: see perf_event_ctx_lock_nested() */
	ctx = perf_event_ctx_lock(event);
	perf_remove_from_context(event, false);
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
		perf_remove_from_context(child, false);
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
 * @handler: the overflow handler
 * @context: its private data
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR.
 */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t handler, void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	if (attr->aux_output)
		return ERR_PTR(-EINVAL);
	if (!task && (cpu < 0 || (unsigned int)cpu >= nr_cpu_ids))
		return ERR_PTR(-EINVAL);

	event = perf_event_alloc(attr, cpu, task, NULL, NULL, handler,
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
	err = perf_groups_reserve(ctx, event->cpu);
	if (err)
		goto err_unlock;
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
