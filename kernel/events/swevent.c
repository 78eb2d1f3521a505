// SPDX-License-Identifier: GPL-2.0
/*
 * Software events: counters the kernel bumps from its own hooks (page
 * faults, context switches, migrations, alignment and emulation faults),
 * and the two clocks, cpu-clock and task-clock.
 *
 * A software event is on its CPU's list for its id only while it is
 * scheduled in, so a hook only has to walk one short list and count every
 * event it finds there: the scheduling core already decided which events
 * belong to this CPU and this task right now.  The lists change only on
 * their own CPU with IRQs off (pmu add/del); hooks walk them under RCU with
 * preemption off, and events are freed after a grace period.
 *
 * Hooks can nest (a fault in an interrupt handler while a fault is being
 * counted): each interrupt level may count at most once at a time, guarded
 * by current->perf_recursion[level].
 */
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/sched/clock.h>
#include <asm/irq_regs.h>

#include "overflow.h"
#include "swevent.h"
#include "time.h"

struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
EXPORT_SYMBOL_GPL(perf_swevent_enabled);

/* registers for hooks that have none (context switch, migrations) */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

struct swevent_lists {
	struct hlist_head	heads[PERF_COUNT_SW_MAX];
};

static DEFINE_PER_CPU(struct swevent_lists, swevent_lists);

/**
 * perf_swevent_get_recursion_context - enter a software-event hook
 *
 * Context: any, including NMI; preemption off, because the level also
 * picks this CPU's scratch buffers (the trace buffers) for the hook.
 * Return: the level to pass to perf_swevent_put_recursion_context(), or -1
 * if this level is already inside a hook (then count nothing).
 */
int perf_swevent_get_recursion_context(void)
{
	unsigned char *level = &current->perf_recursion[interrupt_context_level()];

	lockdep_assert_preemption_disabled();
	if (*level)
		return -1;
	(*level)++;
	barrier();
	return interrupt_context_level();
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

/**
 * perf_swevent_put_recursion_context - leave a software-event hook
 * @rctx: what perf_swevent_get_recursion_context() returned
 */
void perf_swevent_put_recursion_context(int rctx)
{
	barrier();
	current->perf_recursion[rctx]--;
}
EXPORT_SYMBOL_GPL(perf_swevent_put_recursion_context);

/**
 * perf_swevent_set_period - account elapsed periods of a sampling event
 * @event: the event; hw.period_left counts down to the next overflow
 *
 * Return: how many periods have elapsed (0 if none); period_left is moved
 * into the next period.
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);
	u64 nr;

	if (left > 0 || period <= 0)
		return 0;
	nr = div64_u64(-left, period) + 1;
	left += nr * period;
	local64_set(&hwc->period_left, left);
	hwc->last_period = period;
	return nr;
}
EXPORT_SYMBOL_GPL(perf_swevent_set_period);

/**
 * perf_swevent_event - count @nr occurrences on a software-like event
 * @event: the event (software, tracepoint or breakpoint)
 * @nr: how many
 * @data: the sample being described
 * @regs: the registers at the occurrence, or NULL (count only)
 *
 * Context: any; preemption off.
 */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 overflows;
	int throttle = 0;

	lockdep_assert_preemption_disabled();
	local64_add(nr, &event->count);
	if (!regs || !is_sampling_event(event))
		return;

	local64_sub(nr, &hwc->period_left);
	overflows = perf_swevent_set_period(event);
	/* a throttled event keeps counting but delivers no samples */
	if (!overflows || perf_event_is_throttled(event))
		return;
	data->period = hwc->last_period;
	/*
	 * As upstream: only the second and later overflows of one call
	 * count against the throttle, so an event that overflows on every
	 * occurrence is limited by the sample rate of its source only.
	 */
	while (overflows--) {
		if (perf_event_do_overflow(event, data, regs, throttle))
			break;
		throttle = 1;
	}
}

static bool swevent_excluded(struct perf_event *event, struct pt_regs *regs)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return true;
	if (regs) {
		if (event->attr.exclude_user && user_mode(regs))
			return true;
		if (event->attr.exclude_kernel && !user_mode(regs))
			return true;
	}
	return false;
}

/**
 * ___perf_sw_event - count a software event on this CPU's active events
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many
 * @regs: registers at the event, or NULL
 * @addr: data address (page faults)
 *
 * Context: preemption off; the caller holds a recursion context (or is the
 * scheduler, which cannot recurse).
 */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct hlist_head *head;
	struct perf_sample_data data;
	struct perf_event *event;

	lockdep_assert_preemption_disabled();
	if (event_id >= PERF_COUNT_SW_MAX)
		return;
	head = &this_cpu_ptr(&swevent_lists)->heads[event_id];
	if (hlist_empty(head))
		return;

	perf_sample_data_init(&data, addr, 0);
	rcu_read_lock();
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (!swevent_excluded(event, regs))
			perf_swevent_event(event, nr, &data, regs);
	}
	rcu_read_unlock();
}

/**
 * __perf_sw_event - slow path of perf_sw_event()
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many
 * @regs: registers at the event, or NULL
 * @addr: data address
 *
 * Context: any.
 */
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int rctx;

	preempt_disable_notrace();
	rctx = perf_swevent_get_recursion_context();
	if (rctx >= 0) {
		___perf_sw_event(event_id, nr, regs, addr);
		perf_swevent_put_recursion_context(rctx);
	}
	preempt_enable_notrace();
}

/* the software PMU */

static int swevent_add(struct perf_event *event, int flags)
{
	struct swevent_lists *lists = this_cpu_ptr(&swevent_lists);

	event->hw.state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;
	hlist_add_head_rcu(&event->hlist_entry,
			   &lists->heads[event->attr.config]);
	return 0;
}

static void swevent_del(struct perf_event *event, int flags)
{
	hlist_del_rcu(&event->hlist_entry);
}

static void swevent_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void swevent_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static void swevent_read(struct perf_event *event)
{
	/* the hooks update event->count directly */
}

static void swevent_destroy(struct perf_event *event)
{
	static_key_slow_dec(&perf_swevent_enabled[event->attr.config]);
}

static struct pmu perf_swevent;
static struct pmu perf_cpu_clock;
static struct pmu perf_task_clock;

/*
 * -ENOENT for an event of another type, -EOPNOTSUPP for one asking for a
 * branch stack, which no software event records; 0 when @event is ours.
 */
static int swevent_claim(struct perf_event *event, u32 type)
{
	if (event->attr.type != type)
		return -ENOENT;
	return has_branch_stack(event) ? -EOPNOTSUPP : 0;
}

static int swevent_init(struct perf_event *event)
{
	u64 id = event->attr.config;
	struct pmu *clock;
	int err = swevent_claim(event, PERF_TYPE_SOFTWARE);

	if (err)
		return err;
	switch (id) {
	case PERF_COUNT_SW_CPU_CLOCK:
		clock = &perf_cpu_clock;
		break;
	case PERF_COUNT_SW_TASK_CLOCK:
		clock = &perf_task_clock;
		break;
	default:
		if (id >= PERF_COUNT_SW_MAX)
			return -ENOENT;
		static_key_slow_inc(&perf_swevent_enabled[id]);
		event->destroy = swevent_destroy;
		return 0;
	}
	/*
	 * The clocks are PMUs of their own: name the clock's type, as
	 * upstream does, and refuse, so that the core hands the event to
	 * it.  A SIGTRAP still reports the type user space opened
	 * (event->orig_type).
	 */
	event->attr.type = clock->type;
	return -ENOENT;
}

static struct pmu perf_swevent = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= swevent_init,
	.add		= swevent_add,
	.del		= swevent_del,
	.start		= swevent_start,
	.stop		= swevent_stop,
	.read		= swevent_read,
};

/*
 * The clocks.  cpu-clock counts wall time on the CPU, task-clock counts the
 * context's time (for a task: while it runs).  hw.prev_count holds the
 * clock value at the last update; both are read on the CPU the event is
 * active on, so updates never race.
 */

/*
 * Sampling clocks fire from a per-event hrtimer in hard-IRQ context, on
 * the CPU the event runs on.  The timer runs while the event is started;
 * stopping it keeps what was left of the period for the next start.  The
 * shortest period is 10 us, as upstream's.
 */
#define CLOCK_MIN_PERIOD_NS	10000ULL

/* does a clock sample taken with @regs count, given the event's excludes */
static bool clock_sample_wanted(struct perf_event *event, struct pt_regs *regs)
{
	if (!regs || swevent_excluded(event, regs))
		return false;
	return !(event->attr.exclude_idle && is_idle_task(current));
}

static enum hrtimer_restart clock_hrtimer_fn(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						hw.hrtimer);
	struct pt_regs *regs = get_irq_regs();
	struct perf_sample_data data;
	bool stop = false;
	u64 next;

	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	/* the sample carries the count up to this very tick */
	event->pmu->read(event);
	if (clock_sample_wanted(event, regs)) {
		perf_sample_data_init(&data, 0, event->hw.last_period);
		stop = perf_event_do_overflow(event, &data, regs, 1);
	}
	next = max(CLOCK_MIN_PERIOD_NS, event->hw.sample_period);
	hrtimer_forward_now(timer, ns_to_ktime(next));
	return stop ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

static void clock_hrtimer_start(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);

	if (!is_sampling_event(event))
		return;
	if (left)
		local64_set(&hwc->period_left, 0);
	else
		left = hwc->sample_period;
	left = max_t(s64, left, CLOCK_MIN_PERIOD_NS);
	hrtimer_start(&hwc->hrtimer, ns_to_ktime(left),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void clock_hrtimer_stop(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!is_sampling_event(event))
		return;
	local64_set(&hwc->period_left,
		    ktime_to_ns(hrtimer_get_remaining(&hwc->hrtimer)));
	hrtimer_cancel(&hwc->hrtimer);
}

static u64 cpu_clock_now(struct perf_event *event)
{
	return local_clock();
}

static u64 task_clock_now(struct perf_event *event)
{
	return event->ctx->time;
}

static void clock_update(struct perf_event *event,
			 u64 (*now)(struct perf_event *event))
{
	u64 t = now(event);
	u64 prev = local64_xchg(&event->hw.prev_count, t);

	local64_add(t - prev, &event->count);
}

static void cpu_clock_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, cpu_clock_now(event));
	event->hw.state = 0;
	clock_hrtimer_start(event);
}

static void cpu_clock_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED)) {
		clock_hrtimer_stop(event);
		clock_update(event, cpu_clock_now);
	}
	event->hw.state = PERF_HES_STOPPED;
}

static int cpu_clock_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		cpu_clock_start(event, flags);
	return 0;
}

static void cpu_clock_del(struct perf_event *event, int flags)
{
	cpu_clock_stop(event, flags);
}

static void cpu_clock_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		clock_update(event, cpu_clock_now);
}

static void task_clock_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, task_clock_now(event));
	event->hw.state = 0;
	clock_hrtimer_start(event);
}

static void task_clock_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED)) {
		clock_hrtimer_stop(event);
		clock_update(event, task_clock_now);
	}
	event->hw.state = PERF_HES_STOPPED;
}

static int task_clock_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		task_clock_start(event, flags);
	return 0;
}

static void task_clock_del(struct perf_event *event, int flags)
{
	task_clock_stop(event, flags);
}

/*
 * ctx->time is brought up to date only when something settles the
 * context's times (a switch, a cross-CPU call, rotation).  A read from the
 * sampling hrtimer comes between two such points: extend the context's
 * time by what has elapsed since, so that a sample carries the count at
 * the overflow rather than the one at the last switch.  The context is
 * active on this CPU and IRQs are off, so its time cannot move under us.
 */
static u64 task_clock_live(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	lockdep_assert_irqs_disabled();
	if (!ctx->is_active)
		return ctx->time;
	return ctx->time + (perf_clock() - ctx->timestamp);
}

static void task_clock_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		clock_update(event, task_clock_live);
}

static int clock_init(struct perf_event *event, struct pmu *pmu, u64 id)
{
	int err;

	if (event->attr.config != id)
		return -ENOENT;
	err = swevent_claim(event, pmu->type);
	if (err)
		return err;
	if (is_sampling_event(event)) {
		struct hw_perf_event *hwc = &event->hw;

		hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		hwc->hrtimer.function = clock_hrtimer_fn;
		/*
		 * The timer's period is in ns, so a frequency is simply a
		 * fixed period; the tick never needs to adjust it.
		 */
		if (event->attr.freq) {
			u64 freq = event->attr.sample_freq;

			event->attr.sample_period = NSEC_PER_SEC / freq;
			event->attr.freq = 0;
			hwc->sample_period = event->attr.sample_period;
			hwc->last_period = hwc->sample_period;
			local64_set(&hwc->period_left, hwc->sample_period);
		}
	}
	return 0;
}

static int cpu_clock_init(struct perf_event *event)
{
	return clock_init(event, &perf_cpu_clock, PERF_COUNT_SW_CPU_CLOCK);
}

static int task_clock_init(struct perf_event *event)
{
	return clock_init(event, &perf_task_clock, PERF_COUNT_SW_TASK_CLOCK);
}

static struct pmu perf_cpu_clock = {
	.event_init	= cpu_clock_init,
	.add		= cpu_clock_add,
	.del		= cpu_clock_del,
	.start		= cpu_clock_start,
	.stop		= cpu_clock_stop,
	.read		= cpu_clock_read,
	/* a software PMU like perf_swevent, without a sysfs device */
	.task_ctx_nr	= perf_sw_context,
	.dev		= PMU_NULL_DEV,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
};

static struct pmu perf_task_clock = {
	.event_init	= task_clock_init,
	.add		= task_clock_add,
	.del		= task_clock_del,
	.start		= task_clock_start,
	.stop		= task_clock_stop,
	.read		= task_clock_read,
	/* a software PMU like perf_swevent, without a sysfs device */
	.task_ctx_nr	= perf_sw_context,
	.dev		= PMU_NULL_DEV,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
};

/**
 * perf_swevent_register - register the software PMUs, in upstream's order
 * so that the dynamic types the clocks get are the same numbers
 *
 * Return: 0 or a negative errno.
 */
int perf_swevent_register(void)
{
	int ret;

	ret = perf_pmu_register(&perf_swevent, "software", PERF_TYPE_SOFTWARE);
	if (!ret)
		ret = perf_pmu_register(&perf_cpu_clock, "cpu_clock", -1);
	if (!ret)
		ret = perf_pmu_register(&perf_task_clock, "task_clock", -1);
	return ret;
}
