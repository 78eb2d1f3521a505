// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint PMU (type 2, attr.config = the tracefs event id), the
 * kprobe PMU (dynamic type; attr.kprobe_func/kprobe_addr/probe_offset) and
 * the uprobe PMU (dynamic type; attr.uprobe_path/probe_offset, the SDT
 * counter's offset in attr.config bits 32-63).
 *
 * kernel/trace/trace_event_perf.c does the tracing side: perf_trace_init()
 * checks permission and enables the event, perf_trace_add() puts the event
 * on the tracepoint's per-CPU list.  When the tracepoint fires, the
 * generated perf_trace_<event>() fills a record and hands it to
 * perf_trace_run_bpf_submit() / perf_tp_event() below, which count it on
 * every event of that list that matches.
 *
 * Context of perf_tp_event(): the tracepoint's (preemption off, NMI too for
 * the probes), with a recursion context already taken by the caller; we
 * always release it.  A tracepoint about another task (a wakeup) also
 * reaches that task's own events for it, see tp_deliver_to_task().
 */
#include <linux/trace_events.h>

#include "groups.h"
#include "swevent.h"
#include "tracepoint.h"

static void tp_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void tp_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static void tp_read(struct perf_event *event)
{
}

static struct pmu perf_tracepoint;

static bool tp_event_match(struct perf_event *event, void *record,
			   struct pt_regs *regs)
{
	struct perf_event *owner = event->parent ? event->parent : event;

	if (event->hw.state & PERF_HES_STOPPED)
		return false;
	if (event->attr.exclude_kernel && !user_mode(regs))
		return false;
	/* the filter lives on the event user space set it on */
	return !owner->filter || filter_match_preds(owner->filter, record);
}

/* count the hit on @event, with the record as the sample's raw data */
static void tp_count(struct perf_event *event, u64 count,
		     struct perf_raw_record *raw, struct pt_regs *regs)
{
	struct perf_sample_data data;

	perf_sample_data_init(&data, 0, 0);
	perf_sample_save_raw_data(&data, event, raw);
	perf_swevent_event(event, count, &data, regs);
}

/*
 * One member of a group in the named task's context: it takes the hit if
 * it is an enabled tracepoint event for this very tracepoint.  A SIGTRAP
 * could only be sent to the task that hit the event, which is not the
 * named task, so sigtrap events are left out.
 */
static void tp_task_member(struct perf_event *event, u16 id, u64 count,
			   struct perf_raw_record *raw, struct pt_regs *regs)
{
	if (event->pmu != &perf_tracepoint || event->attr.config != id)
		return;
	if (event->attr.sigtrap || event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (tp_event_match(event, raw->frag.data, regs))
		tp_count(event, count, raw, regs);
}

static void tp_task_groups(struct list_head *leaders, u16 id, u64 count,
			   struct perf_raw_record *raw, struct pt_regs *regs)
{
	struct perf_event *leader, *member;

	list_for_each_entry(leader, leaders, group_entry) {
		/* a disabled leader keeps its whole group from counting */
		if (leader->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		tp_task_member(leader, id, count, raw, regs);
		for_each_sibling_event(member, leader)
			tp_task_member(member, id, count, raw, regs);
	}
}

/*
 * The tracepoint is about @task (a wakeup names the task being woken):
 * @task's own events for it count the hit too, although @task is not the
 * one running.  Only events bound to this CPU are visited, as upstream
 * does: the task is not running here, so none of them can be counting on
 * a counter right now, while an event for any CPU could be active where
 * the task runs.  ctx->lock keeps the group lists still; the context
 * itself is freed only after an RCU grace period.
 */
static void tp_deliver_to_task(struct task_struct *task, u16 id, u64 count,
			       struct perf_raw_record *raw,
			       struct pt_regs *regs)
{
	struct perf_event_context *ctx;
	struct perf_groups *bound;
	unsigned long flags;

	rcu_read_lock();
	ctx = rcu_dereference(task->perf_event_ctxp);
	if (ctx) {
		raw_spin_lock_irqsave(&ctx->lock, flags);
		bound = perf_groups_here(ctx);
		if (bound) {
			tp_task_groups(&bound->pinned, id, count, raw, regs);
			tp_task_groups(&bound->flexible, id, count, raw, regs);
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	rcu_read_unlock();
}

/**
 * perf_tp_event - a tracepoint fired
 * @event_type: the tracefs event id
 * @count: how many to count (usually 1)
 * @record: the trace record
 * @entry_size: its size
 * @regs: registers at the tracepoint
 * @head: the tracepoint's list of events on this CPU
 * @rctx: the recursion context the caller took
 * @task: a task the tracepoint is about, or NULL; when it is not current,
 *	its own events for this tracepoint count the hit as well
 *
 * Context: the tracepoint's, preemption off.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_raw_record raw = {
		.frag = { .size = entry_size, .data = record },
	};
	struct perf_event *event;

	lockdep_assert_preemption_disabled();
	perf_trace_buf_update(record, event_type);
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (tp_event_match(event, record, regs))
			tp_count(event, count, &raw, regs);
	}
	if (task && task != current)
		tp_deliver_to_task(task, event_type, count, &raw, regs);
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - deliver a tracepoint record to perf
 * @record: the record
 * @size: its size
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @call: the trace event
 * @count: how many
 * @regs: registers
 * @head: the per-CPU list of perf events on this tracepoint
 * @task: a target task or NULL
 *
 * BPF programs attached to the trace event see the record first.  Their
 * context expects the registers in the record's first word.  When a
 * program returns 0 the record is dropped for perf too; so it is when no
 * perf event on this CPU wants it (only the programs did).
 */
void perf_trace_run_bpf_submit(void *record, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	bool for_perf = true;

	if (bpf_prog_array_valid(call)) {
		*(struct pt_regs **)record = regs;
		for_perf = trace_call_bpf(call, record) && !hlist_empty(head);
	}
	if (!for_perf) {
		perf_swevent_put_recursion_context(rctx);
		return;
	}
	perf_tp_event(call->event.type, count, record, size, regs, head, rctx,
		      task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

/* who may open an event of one of the tracing PMUs */
enum tp_privilege {
	TP_ANYONE,	/* perf_trace_init() decides, per trace event */
	TP_PERFMON,	/* a kprobe: kernel code of the caller's choice */
	TP_ADMIN,	/* a uprobe: in any binary of the system */
};

/*
 * The checks every tracing PMU makes before setting up the probe, in the
 * order that decides which errno wins: -ENOENT for another PMU's event,
 * -EACCES without the privilege, -EOPNOTSUPP for a branch stack.
 */
static int tp_claim(struct perf_event *event, struct pmu *pmu,
		    enum tp_privilege need)
{
	bool allowed;

	if (event->attr.type != pmu->type)
		return -ENOENT;
	switch (need) {
	case TP_PERFMON:
		allowed = perfmon_capable();
		break;
	case TP_ADMIN:
		allowed = capable(CAP_SYS_ADMIN);
		break;
	default:
		allowed = true;
		break;
	}
	if (!allowed)
		return -EACCES;
	return has_branch_stack(event) ? -EOPNOTSUPP : 0;
}

static void tp_destroy(struct perf_event *event)
{
	perf_trace_destroy(event);
}

static int tp_event_init(struct perf_event *event)
{
	int err = tp_claim(event, &perf_tracepoint, TP_ANYONE);

	if (!err)
		err = perf_trace_init(event);
	if (!err)
		event->destroy = tp_destroy;
	return err;
}

static struct pmu perf_tracepoint = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= tp_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= tp_start,
	.stop		= tp_stop,
	.read		= tp_read,
};

#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)
/* attr.config bit 0 asks for a return probe */
#define PERF_PROBE_RETPROBE	BIT(0)

PMU_FORMAT_ATTR(retprobe, "config:0");
#endif

#ifdef CONFIG_KPROBE_EVENTS
static struct attribute *kprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group kprobe_format_group = {
	.name	= "format",
	.attrs	= kprobe_format_attrs,
};

static const struct attribute_group *kprobe_attr_groups[] = {
	&kprobe_format_group,
	NULL,
};

static struct pmu perf_kprobe;

static void kprobe_destroy(struct perf_event *event)
{
	perf_kprobe_destroy(event);
}

static int kprobe_event_init(struct perf_event *event)
{
	bool retprobe = event->attr.config & PERF_PROBE_RETPROBE;
	int err = tp_claim(event, &perf_kprobe, TP_PERFMON);

	if (!err)
		err = perf_kprobe_init(event, retprobe);
	if (!err)
		event->destroy = kprobe_destroy;
	return err;
}

static struct pmu perf_kprobe = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= kprobe_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= tp_start,
	.stop		= tp_stop,
	.read		= tp_read,
	.attr_groups	= kprobe_attr_groups,
};
#endif

#ifdef CONFIG_UPROBE_EVENTS
/* attr.config bits 32-63: file offset of the probe's SDT counter */
#define PERF_UPROBE_REF_CTR_SHIFT	32

PMU_FORMAT_ATTR(ref_ctr_offset, "config:32-63");

static struct attribute *uprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	&format_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group uprobe_format_group = {
	.name	= "format",
	.attrs	= uprobe_format_attrs,
};

static const struct attribute_group *uprobe_attr_groups[] = {
	&uprobe_format_group,
	NULL,
};

static struct pmu perf_uprobe;

static void uprobe_destroy(struct perf_event *event)
{
	perf_uprobe_destroy(event);
}

static int uprobe_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	unsigned long ref_ctr = config >> PERF_UPROBE_REF_CTR_SHIFT;
	int err = tp_claim(event, &perf_uprobe, TP_ADMIN);

	if (!err)
		err = perf_uprobe_init(event, ref_ctr,
				       config & PERF_PROBE_RETPROBE);
	if (!err)
		event->destroy = uprobe_destroy;
	return err;
}

static struct pmu perf_uprobe = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= uprobe_event_init,
	.add		= perf_trace_add,
	.del		= perf_trace_del,
	.start		= tp_start,
	.stop		= tp_stop,
	.read		= tp_read,
	.attr_groups	= uprobe_attr_groups,
};
#endif

/**
 * perf_tp_register - register the tracepoint, kprobe and uprobe PMUs
 *
 * Return: 0 or a negative errno.
 */
int perf_tp_register(void)
{
	int ret;

	ret = perf_pmu_register(&perf_tracepoint, "tracepoint",
				PERF_TYPE_TRACEPOINT);
#ifdef CONFIG_KPROBE_EVENTS
	if (!ret)
		ret = perf_pmu_register(&perf_kprobe, "kprobe", -1);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (!ret)
		ret = perf_pmu_register(&perf_uprobe, "uprobe", -1);
#endif
	return ret;
}
