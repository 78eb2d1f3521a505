// SPDX-License-Identifier: GPL-2.0
/*
 * BPF and perf events: what the BPF subsystem calls in us, and where a BPF
 * program runs on an event.
 *
 * Two kinds of attachment, chosen by the event:
 *  - tracing events (tracepoint, kprobe and uprobe PMUs): the program goes
 *    into the trace event's program array (kernel/trace/bpf_trace.c) and
 *    runs for every hit of the probe, before perf sees the record
 *    (perf_trace_run_bpf_submit() in tracepoint.c);
 *  - every other sampling event: a BPF_PROG_TYPE_PERF_EVENT program in
 *    event->prog runs at each overflow, and a zero return drops the sample
 *    (perf_bpf_overflow(), called from overflow.c).
 *
 * The program reference: perf_event_set_bpf_prog() takes over the caller's
 * reference on success; perf_event_free_bpf_prog() drops it.  event->prog
 * is written under ctx->mutex and read locklessly at overflow; the program
 * itself outlives that reader by RCU (bpf_prog_put() frees after a grace
 * period).
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "bpf.h"
#include "context.h"
#include "sample.h"
#include "time.h"

/* the events whose programs live in their trace event's program array */
static bool perf_event_is_tracing(struct perf_event *event)
{
#ifdef CONFIG_EVENT_TRACING
	return event->tp_event;
#else
	return false;
#endif
}

/**
 * perf_bpf_overflow - run an event's perf_event program on an overflow
 * @event: the sampling event, with event->prog set
 * @data: the sample
 * @regs: registers at the overflow
 *
 * The program sees the sample as perf would write it, so @data is filled
 * first (callchain, addresses: bpf_get_stack() and the context's fields
 * read them from there).  A program already running on this CPU (an
 * overflow inside a BPF program) is not entered again: the sample is then
 * dropped, as the program could not approve it.
 *
 * Context: the overflow path (any, including NMI).
 * Return: the program's verdict: 0 drops the sample.  1 when the event's
 * program is not a perf_event one (a trace event's: it ran in the probe).
 */
int perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	struct bpf_perf_event_data_kern ctx = {
		.regs	= perf_arch_bpf_user_pt_regs(regs),
		.data	= data,
		.event	= event,
	};
	struct bpf_prog *prog = READ_ONCE(event->prog);
	int verdict = 0;

	if (!prog || prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return 1;
	if (__this_cpu_inc_return(bpf_prog_active) == 1) {
		rcu_read_lock();
		prog = READ_ONCE(event->prog);
		if (prog) {
			perf_sample_prepare(data, event, regs);
			verdict = bpf_prog_run(prog, &ctx);
		}
		rcu_read_unlock();
	}
	__this_cpu_dec(bpf_prog_active);
	return verdict;
}

/* a perf_event program on a sampling event */
static int perf_bpf_attach_sampler(struct perf_event *event,
				   struct bpf_prog *prog, u64 cookie)
{
	/* kernel counters and breakpoints keep their own handler */
	bool kernel_owned = event->overflow_handler_context;

	if (event->prog && !kernel_owned)
		return -EEXIST;
	if (kernel_owned || prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return -EINVAL;
	/*
	 * bpf_get_stack() on a precise event must use the sample's own
	 * callchain (unwinding from PEBS registers is not safe), so the
	 * event has to collect a whole one.
	 */
	if (event->attr.precise_ip && prog->call_get_stack &&
	    (!(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) ||
	     event->attr.exclude_callchain_kernel ||
	     event->attr.exclude_callchain_user))
		return -EPROTO;

	event->bpf_cookie = cookie;
	WRITE_ONCE(event->prog, prog);
	return 0;
}

#ifdef CONFIG_EVENT_TRACING
/* a kprobe, uprobe, tracepoint or syscall program on a trace event */
static int perf_bpf_attach_tracer(struct perf_event *event,
				  struct bpf_prog *prog, u64 cookie)
{
	unsigned int flags = event->tp_event->flags;
	bool kprobe = flags & TRACE_EVENT_FL_KPROBE;
	bool uprobe = flags & TRACE_EVENT_FL_UPROBE;
	bool tracepoint = (flags & TRACE_EVENT_FL_TRACEPOINT) ||
			  is_syscall_trace_event(event->tp_event);

	if (kprobe || uprobe) {
		if (prog->type != BPF_PROG_TYPE_KPROBE)
			return -EINVAL;
		/* only a uprobe may sleep; only a kprobe may override */
		if ((prog->sleepable && !uprobe) ||
		    (prog->kprobe_override && !kprobe))
			return -EINVAL;
	} else if (tracepoint) {
		if (prog->type != BPF_PROG_TYPE_TRACEPOINT ||
		    prog->kprobe_override)
			return -EINVAL;
		/* the program may not read past the record's fields */
		if (prog->aux->max_ctx_offset >
		    trace_event_get_offsets(event->tp_event))
			return -EACCES;
	} else {
		return -EINVAL;
	}
	return perf_event_attach_bpf_prog(event, prog, cookie);
}

/**
 * perf_event_set_bpf_prog - attach a BPF program to an event
 * @event: the event
 * @prog: the program; on success the event owns the caller's reference
 * @bpf_cookie: the value bpf_get_attach_cookie() returns in the program
 *
 * Called by PERF_EVENT_IOC_SET_BPF and by BPF links of type perf_event.
 *
 * Context: process context; takes the event's ctx->mutex.
 * Return: 0, -EINVAL for a program of the wrong type, -EEXIST when a
 * sampling event has a program already, -EPROTO and -EACCES as above.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret;

	if (perf_event_is_tracing(event))
		ret = perf_bpf_attach_tracer(event, prog, bpf_cookie);
	else
		ret = perf_bpf_attach_sampler(event, prog, bpf_cookie);
	mutex_unlock(&ctx->mutex);
	return ret;
}

/**
 * perf_event_free_bpf_prog - detach an event's BPF program, if any
 * @event: the event
 *
 * Context: process context; the event's last user (release) or the BPF
 * link's release.
 */
void perf_event_free_bpf_prog(struct perf_event *event)
{
	struct bpf_prog *prog;

	if (perf_event_is_tracing(event)) {
		perf_event_detach_bpf_prog(event);
		return;
	}
	prog = event->prog;
	if (!prog)
		return;
	WRITE_ONCE(event->prog, NULL);
	bpf_prog_put(prog);
}
#else
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	/* as upstream: without trace events there is nothing to attach to */
	return -ENOENT;
}

void perf_event_free_bpf_prog(struct perf_event *event)
{
}
#endif

/**
 * perf_bpf_inherit - give an inherited copy its parent's program
 * @child: the new copy
 * @parent: the event it copies
 *
 * A sampling event's program filters the copies' samples too.  Trace
 * events need nothing: their programs belong to the probe, not the event.
 */
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent)
{
	struct bpf_prog *prog = parent->prog;

	if (!prog || perf_event_is_tracing(parent))
		return;
	bpf_prog_inc(prog);
	child->prog = prog;
	child->bpf_cookie = parent->bpf_cookie;
}

/**
 * perf_bpf_ioctl - PERF_EVENT_IOC_SET_BPF and PERF_EVENT_IOC_QUERY_BPF
 * @event: the event
 * @cmd: the ioctl
 * @arg: a BPF program fd (SET) or a struct perf_event_query_bpf (QUERY)
 *
 * Context: process context, without the event's ctx->mutex.
 * Return: 0 or a negative errno.
 */
long perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
		    unsigned long arg)
{
	struct bpf_prog *prog;
	int err;

	if (cmd == PERF_EVENT_IOC_QUERY_BPF)
		return perf_event_query_prog_array(event, (void __user *)arg);

	prog = bpf_prog_get(arg);
	if (IS_ERR(prog))
		return PTR_ERR(prog);
	err = perf_event_set_bpf_prog(event, prog, 0);
	if (err)
		bpf_prog_put(prog);
	return err;
}

/**
 * perf_event_read_local - read an event from where it counts, atomically
 * @event: a CPU event of this CPU, or an event of current
 * @value: the count
 * @enabled: if not NULL, the enabled time
 * @running: if not NULL, the running time
 *
 * For BPF programs (bpf_perf_event_read*() on perf_event_array maps),
 * which run with preemption off and may not sleep or send IPIs: only an
 * event this CPU can read by itself is allowed.
 *
 * Context: any, including NMI.
 * Return: 0; -EOPNOTSUPP for an inherited event (its copies cannot be
 * summed here); -EINVAL for another task's event or another CPU's;
 * -EBUSY for a pinned event that is not on this CPU.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	unsigned long flags;
	int this_cpu, oncpu;
	int ret = 0;
	u64 now, e, r;

	if (event->attr.inherit)
		return -EOPNOTSUPP;

	local_irq_save(flags);
	this_cpu = smp_processor_id();
	oncpu = READ_ONCE(event->oncpu);
	if (event->attach_state & PERF_ATTACH_TASK) {
		if (event->hw.target != current) {
			ret = -EINVAL;
			goto out;
		}
	} else if (event->cpu != this_cpu) {
		ret = -EINVAL;
		goto out;
	}
	if (event->attr.pinned && oncpu != this_cpu) {
		ret = -EBUSY;
		goto out;
	}
	/* on this CPU means active here: bring the count up to date */
	if (oncpu == this_cpu)
		event->pmu->read(event);
	*value = local64_read(&event->count);
	if (enabled || running) {
		perf_event_times_now(event, &now, &e, &r);
		if (enabled)
			*enabled = e;
		if (running)
			*running = r;
	}
out:
	local_irq_restore(flags);
	return ret;
}
