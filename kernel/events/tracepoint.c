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
 * Context of perf_tp_event(): the tracepoint's (any, including NMI), with a
 * recursion context already taken by the caller; we always release it.
 */
#include <linux/trace_events.h>

#include "internal.h"

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

/**
 * perf_tp_event - a tracepoint fired
 * @event_type: the tracefs event id
 * @count: how many to count (usually 1)
 * @record: the trace record
 * @entry_size: its size
 * @regs: registers at the tracepoint
 * @head: the tracepoint's list of events on this CPU
 * @rctx: the recursion context the caller took
 * @task: a task the tracepoint is about, or NULL (not handled yet: only
 *	events on @head count)
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_raw_record raw = {
		.frag = { .size = entry_size, .data = record },
	};
	struct perf_sample_data data;
	struct perf_event *event;

	perf_trace_buf_update(record, event_type);
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (!tp_event_match(event, record, regs))
			continue;
		perf_sample_data_init(&data, 0, 0);
		perf_sample_save_raw_data(&data, event, &raw);
		perf_swevent_event(event, count, &data, regs);
	}
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - deliver a tracepoint record to perf
 * @raw_data: the record
 * @size: its size
 * @rctx: the recursion context taken by perf_trace_buf_alloc()
 * @call: the trace event
 * @count: how many
 * @regs: registers
 * @head: the per-CPU list of perf events on this tracepoint
 * @task: a target task or NULL
 *
 * BPF programs attached to the trace event run first, on the record with
 * the registers stored in its first word (where their context expects
 * them).  A program that returns 0 drops the record for perf too, as does
 * a hit with no perf event on this CPU (only the programs wanted it).
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	if (bpf_prog_array_valid(call)) {
		*(struct pt_regs **)raw_data = regs;
		if (!trace_call_bpf(call, raw_data) || hlist_empty(head)) {
			perf_swevent_put_recursion_context(rctx);
			return;
		}
	}
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

static void tp_destroy(struct perf_event *event)
{
	perf_trace_destroy(event);
}

static int tp_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	err = perf_trace_init(event);
	if (err)
		return err;
	event->destroy = tp_destroy;
	return 0;
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
	int err;

	if (event->attr.type != perf_kprobe.type)
		return -ENOENT;
	if (!perfmon_capable())
		return -EACCES;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	err = perf_kprobe_init(event,
			       event->attr.config & PERF_PROBE_RETPROBE);
	if (err)
		return err;
	event->destroy = kprobe_destroy;
	return 0;
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
	int err;

	if (event->attr.type != perf_uprobe.type)
		return -ENOENT;
	/* a probe in any binary of the system: more than CAP_PERFMON */
	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	err = perf_uprobe_init(event, config >> PERF_UPROBE_REF_CTR_SHIFT,
			       config & PERF_PROBE_RETPROBE);
	if (err)
		return err;
	event->destroy = uprobe_destroy;
	return 0;
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
