// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event's period elapses.
 *
 * An overflow is accounted against the CPU's interrupt budget (more than
 * perf_max_samples_per_tick in one tick throttles the event until the next
 * tick), moves a frequency-mode event's period towards its target rate,
 * counts down a REFRESH limit, queues a sigtrap for the task, and calls
 * the event's overflow handler: for events opened from user space that
 * writes a sample into the ring buffer.
 *
 * Context: everything here except the tick may run in NMI context: no
 * locks, no sleeping; what cannot be done there is deferred to the
 * event's irq_work (wakeups, disabling) or to task work (SIGTRAP).  The
 * tick runs in hard IRQ context and takes the contexts' locks.
 */
#include <kunit/visibility.h>
#include <linux/hash.h>
#include <linux/math64.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>
#include <linux/tick.h>

#include "aux.h"
#include "bpf.h"
#include "context.h"
#include "event.h"
#include "overflow.h"
#include "sample.h"
#include "sched.h"
#include "sysctl.h"
#include "time.h"
#include "wakeup.h"

/* hw.interrupts of a throttled event */
#define PERF_THROTTLED		(~0ULL)

/*
 * Each tick starts a new interrupt-accounting period: an event compares
 * its hw.interrupts_seq with the CPU's sequence to know whether its count
 * is from this tick.  perf_throttled_count says an event was throttled, so
 * that the tick knows to restart it.
 */
static DEFINE_PER_CPU(u64, perf_throttled_seq);
static DEFINE_PER_CPU(int, perf_throttled_count);

/**
 * perf_event_log_throttle - write a THROTTLE or UNTHROTTLE record
 * @event: the event
 * @unthrottle: which of the two
 *
 * Context: any, including NMI.
 */
static void perf_event_log_throttle(struct perf_event *event, bool unthrottle)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct {
		struct perf_event_header	header;
		u64				time;
		u64				id;
		u64				stream_id;
	} rec = {
		.header = {
			.type = unthrottle ? PERF_RECORD_UNTHROTTLE :
					     PERF_RECORD_THROTTLE,
			.size = sizeof(rec),
		},
		.time = event->clock(),
		.id = perf_event_primary_id(event),
		.stream_id = event->id,
	};

	perf_sample_data_init(&data, 0, 0);
	perf_event_header_init_id(&rec.header, &data, event);
	if (perf_output_begin(&handle, &data, event, rec.header.size))
		return;
	perf_output_put(&handle, rec);
	perf_event_output_id_sample(event, &handle, &data);
	perf_output_end(&handle);
}

/*
 * Frequency mode.  An event opened with attr.freq asks for sample_freq
 * samples a second, not for a fixed period; the period that delivers that
 * rate is learnt by watching how fast the event counts.  Two observations
 * feed it: each tick (what the event counted in TICK_NSEC) and each
 * overflow that follows a recent one (last_period events since then).
 */

/**
 * perf_freq_period - the next period of a frequency-mode event
 * @cur: the period in use
 * @count: events observed
 * @nsec: over this many nanoseconds
 * @freq: the samples per second asked for
 *
 * The observation implies a period of count / (nsec * freq / 1e9) events.
 * We move only an eighth of the way from @cur towards it, rounding the
 * step away from zero so that a small gap still closes: the rate then
 * settles in a few ticks, and one burst or stall cannot swing it.
 *
 * Context: any.
 * Return: the new period, at least 1.
 */
VISIBLE_IF_KUNIT u64 perf_freq_period(u64 cur, u64 count, u64 nsec, u64 freq)
{
	u64 target = 1;
	u64 gap;

	if (nsec && freq)
		target = max(mul_u64_u64_div_u64(count, NSEC_PER_SEC,
						 nsec * freq), 1ULL);
	if (target >= cur) {
		gap = target - cur;
		return cur + DIV_ROUND_UP_ULL(gap, 8);
	}
	gap = DIV_ROUND_UP_ULL(cur - target, 8);
	return gap < cur ? cur - gap : 1;
}
EXPORT_SYMBOL_IF_KUNIT(perf_freq_period);

/*
 * Give @event the period its latest observation calls for.  What is left
 * of the old period may be far longer than the new one (the rate was just
 * raised after a quiet spell): then the count restarts from the new
 * period at once rather than after the old one runs out.  @running: the
 * event is counting and has to be stopped around the restart (false from
 * the PMU's own overflow path and from the tick, which stopped it).
 */
static void perf_freq_retune(struct perf_event *event, u64 count, u64 nsec,
			     bool running)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->sample_period = perf_freq_period(hwc->sample_period, count, nsec,
					      event->attr.sample_freq);
	if (local64_read(&hwc->period_left) <= 8 * (s64)hwc->sample_period)
		return;
	if (running)
		event->pmu->stop(event, PERF_EF_UPDATE);
	local64_set(&hwc->period_left, 0);
	if (running)
		event->pmu->start(event, PERF_EF_RELOAD);
}

/*
 * An overflow is an observation too, but only when the previous one was
 * recent: after a long stop (the task slept, the event was multiplexed
 * out) the gap says nothing about the rate.
 */
static void perf_freq_overflowed(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 now = perf_clock();
	s64 since = now - hwc->freq_time_stamp;

	hwc->freq_time_stamp = now;
	if (since > 0 && since < 2 * TICK_NSEC)
		perf_freq_retune(event, hwc->last_period, since, true);
}

/*
 * Count one overflow of @hwc against this tick's budget; true when it is
 * over.  The first overflow after a tick starts a fresh count, which is
 * also what lets a throttled event's count start over once the tick has
 * restarted it.
 */
static bool perf_over_budget(struct hw_perf_event *hwc)
{
	u64 tick = __this_cpu_read(perf_throttled_seq);

	if (hwc->interrupts_seq != tick) {
		hwc->interrupts_seq = tick;
		hwc->interrupts = 0;
	}
	return ++hwc->interrupts > READ_ONCE(perf_max_samples_per_tick);
}

/*
 * Stop @event delivering overflows until the next tick on this CPU, and
 * make sure that tick comes even on a NO_HZ_FULL CPU.
 */
static void perf_throttle(struct perf_event *event)
{
	__this_cpu_inc(perf_throttled_count);
	tick_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	event->hw.interrupts = PERF_THROTTLED;
	/* kept on the original, where read() finds the inherited copies' */
	atomic64_inc(&(event->parent ?: event)->throttled);
	perf_event_log_throttle(event, false);
}

/* Return: 1 when @event was throttled and its counter must stop. */
static int account_interrupt(struct perf_event *event, int throttle)
{
	int stop = 0;

	if (perf_over_budget(&event->hw) && throttle) {
		perf_throttle(event);
		stop = 1;
	}
	if (event->attr.freq)
		perf_freq_overflowed(event);
	return stop;
}

/**
 * perf_event_account_interrupt - count an interrupt for throttling
 * @event: the event
 *
 * For PMU drivers that handle an overflow without perf_event_overflow().
 * Context: the PMU interrupt.
 * Return: 1 when the event is throttled and must be stopped, else 0.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	return account_interrupt(event, 1);
}
EXPORT_SYMBOL_GPL(perf_event_account_interrupt);

static void perf_sigtrap_work(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						pending_task);
	struct perf_event_context *ctx = event->pending_ctx;

	/* an exiting task has no user space left to signal */
	if (event->pending_work && !(current->flags & PF_EXITING))
		send_sig_perf((void __user *)(unsigned long)event->pending_addr,
			      event->orig_type, event->attr.sig_data);
	event->pending_ctx = NULL;
	WRITE_ONCE(event->pending_work, 0);
	/* the context may trade tasks again (perf_ctx_try_swap()) */
	atomic_dec(&ctx->nr_pending_sigtrap);
	perf_put_ctx(ctx);
	perf_event_unref(event);
}

/*
 * Queue SIGTRAP for the current task, sent on its way back to user space.
 * One signal per event is in flight at a time; the event is pinned until
 * the work has run.  Only the interrupted task may be signalled, and it
 * must be the event's task (a copy made by inherit has its own).
 *
 * Until the work runs, the event's context must stay this task's: were it
 * swapped with a sibling's clone on the way out (the task can be
 * preempted between the overflow and its return to user space), the
 * sibling would inherit an event whose one signal is still in flight, and
 * its own hits would be dropped until this task ran again.  The count in
 * ctx->nr_pending_sigtrap makes perf_ctx_try_swap() refuse.
 */
static void perf_queue_sigtrap(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct perf_event_context *ctx = event->ctx;
	unsigned int id = 1;

	if (!ctx || ctx->task != current || READ_ONCE(event->pending_work))
		return;
	if (regs)
		id = hash32_ptr((void *)instruction_pointer(regs)) ?: 1;
	/*
	 * Claim the one slot before filling it: an overflow of the same
	 * event can nest inside this one (a watchpoint hit by the kernel
	 * while it writes this sample, say, raises #DB again), and two
	 * claims would queue event->pending_task twice.
	 */
	if (cmpxchg(&event->pending_work, 0, id))
		return;
	if (!atomic_long_inc_not_zero(&event->refcount)) {
		WRITE_ONCE(event->pending_work, 0);
		return;
	}
	event->pending_addr = 0;
	/* the address only when the sample itself may be seen */
	if ((data->sample_flags & PERF_SAMPLE_ADDR) &&
	    !(event->attr.exclude_kernel && regs && !user_mode(regs)))
		event->pending_addr = data->addr;
	/* the event is in @ctx, so @ctx has a reference to spare */
	perf_get_ctx(ctx);
	atomic_inc(&ctx->nr_pending_sigtrap);
	event->pending_ctx = ctx;
	init_task_work(&event->pending_task, perf_sigtrap_work);
	if (task_work_add(current, &event->pending_task,
			  in_nmi() ? TWA_NMI_CURRENT : TWA_RESUME)) {
		event->pending_ctx = NULL;
		atomic_dec(&ctx->nr_pending_sigtrap);
		/*
		 * The task is exiting; neither can be the last reference:
		 * the event is in @ctx, which the task still holds.
		 */
		refcount_dec(&ctx->refcount);
		atomic_long_dec(&event->refcount);
		WRITE_ONCE(event->pending_work, 0);
	}
}

/**
 * perf_event_do_overflow - one period of @event has elapsed
 * @event: the event
 * @data: the sample description
 * @regs: registers at the overflow
 * @throttle: may the event be throttled
 *
 * Context: any, including NMI, on the event's CPU.
 * Return: 1 if the event must stop (throttled, or its refresh limit ran
 * out), else 0.
 */
int perf_event_do_overflow(struct perf_event *event,
			   struct perf_sample_data *data,
			   struct pt_regs *regs, int throttle)
{
	perf_overflow_handler_t handler;
	int limit = atomic_read(&event->event_limit);
	int stop;

	if (unlikely(!is_sampling_event(event)))
		return 0;

	stop = account_interrupt(event, throttle);
	if (unlikely(event->attr.aux_pause))
		perf_aux_pause(event, true);

	/*
	 * A perf_event BPF program decides whether this overflow is a
	 * sample at all: a rejected one neither counts against the refresh
	 * limit nor raises a signal.  Trace events keep their programs in
	 * the probe's array, which ran before we were called.
	 */
	if (unlikely(perf_event_has_bpf(event)) &&
	    !perf_bpf_overflow(event, data, regs))
		goto out;

	WRITE_ONCE(event->pending_kill, POLL_IN);
	if (limit && atomic_dec_and_test(&event->event_limit)) {
		stop = 1;
		WRITE_ONCE(event->pending_kill, POLL_HUP);
		perf_event_disable_inatomic(event);
	}

	if (event->attr.sigtrap)
		perf_queue_sigtrap(event, data, regs);

	handler = READ_ONCE(event->overflow_handler);
	handler(event, data, regs);

	if (*perf_event_fasync(event) && READ_ONCE(event->pending_kill))
		perf_event_queue_wakeup(event);
out:
	if (unlikely(event->attr.aux_resume))
		perf_aux_pause(event, false);
	return stop;
}

/**
 * perf_event_overflow - a PMU driver reports an overflow
 * @event: the event whose counter overflowed
 * @data: sample data from perf_sample_data_init()
 * @regs: the interrupted registers
 *
 * Context: the PMU interrupt (IRQ or NMI), on the event's CPU.
 * Return: non-zero when the driver must stop the event.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return perf_event_do_overflow(event, data, regs, 1);
}
EXPORT_SYMBOL_GPL(perf_event_overflow);

/**
 * perf_event_is_throttled - did the interrupt budget stop @event
 * @event: the event
 *
 * Software events check this before delivering an overflow: they have no
 * counter to stop.
 * Return: true until the next tick unthrottles it.
 */
bool perf_event_is_throttled(struct perf_event *event)
{
	return event->hw.interrupts == PERF_THROTTLED;
}

/**
 * perf_event_unthrottle - let a throttled event deliver overflows again
 * @event: the event, about to be (re)started
 *
 * Context: ctx->lock held, IRQs off.
 */
void perf_event_unthrottle(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);
	event->hw.interrupts = 0;
	perf_event_log_throttle(event, true);
}

/*
 * A frequency-mode event at the tick: fold in what its counter holds,
 * retune from the events counted since the last tick, and restart it (on
 * the new period when one was set).  An event that counted nothing keeps
 * its period: no observation, no change.
 */
static void perf_tick_retune(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 count;
	s64 counted;

	event->pmu->stop(event, PERF_EF_UPDATE);
	count = local64_read(&event->count);
	counted = count - hwc->freq_count_stamp;
	hwc->freq_count_stamp = count;
	if (counted > 0) {
		perf_freq_retune(event, counted, TICK_NSEC, false);
		event->pmu->start(event, PERF_EF_RELOAD);
	} else {
		event->pmu->start(event, 0);
	}
}

/*
 * The tick's work on one running event: a throttled event gets its
 * overflows back, and a frequency-mode one a period derived from what it
 * counted since the last tick.  Both touch the counter, so the PMU is
 * held off around them.  Hard IRQ, ctx->lock held.
 */
static void perf_tick_event(struct perf_event *event, bool unthrottle)
{
	struct hw_perf_event *hwc = &event->hw;
	bool throttled = unthrottle && hwc->interrupts == PERF_THROTTLED;
	bool freq = event->attr.freq && event->attr.sample_freq;

	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    event->oncpu != smp_processor_id() || !(freq || throttled))
		return;

	perf_pmu_disable(event->pmu);
	if (throttled)
		perf_event_unthrottle(event);
	if (freq)
		perf_tick_retune(event);
	else
		event->pmu->start(event, 0);
	perf_pmu_enable(event->pmu);
}

static void perf_tick_groups(struct list_head *on, bool unthrottle)
{
	struct perf_event *leader, *sibling;

	list_for_each_entry(leader, on, group_on_entry) {
		perf_tick_event(leader, unthrottle);
		for_each_sibling_event(sibling, leader)
			perf_tick_event(sibling, unthrottle);
	}
}

/*
 * The tick's work on one context: only the groups on a PMU can have
 * counted or been throttled since the last tick, so only they are
 * visited.  Hard IRQ, ctx->lock held.
 */
static void perf_tick_ctx(struct perf_event_context *ctx, bool unthrottle)
{
	if (!ctx || !ctx->is_active || !(ctx->nr_freq || unthrottle))
		return;
	lockdep_assert_held(&ctx->lock);
	perf_tick_groups(&ctx->pinned_on, unthrottle);
	perf_tick_groups(&ctx->flexible_on, unthrottle);
}

/**
 * perf_event_task_tick - the scheduler tick
 *
 * Starts a new interrupt-accounting period and adjusts the events of this
 * CPU and of the task running on it.
 *
 * Context: hard IRQ.
 */
void perf_event_task_tick(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx;
	bool unthrottle;

	lockdep_assert_irqs_disabled();

	__this_cpu_inc(perf_throttled_seq);
	unthrottle = __this_cpu_xchg(perf_throttled_count, 0);
	if (unthrottle)
		tick_dep_clear_cpu(smp_processor_id(),
				   TICK_DEP_BIT_PERF_EVENTS);

	task_ctx = cpuctx->task_ctx;
	if (!(unthrottle || cpuctx->ctx.nr_freq ||
	      (task_ctx && task_ctx->nr_freq)))
		return;
	perf_ctx_lock(cpuctx, task_ctx);
	perf_tick_ctx(&cpuctx->ctx, unthrottle);
	perf_tick_ctx(task_ctx, unthrottle);
	perf_ctx_unlock(cpuctx, task_ctx);
}
