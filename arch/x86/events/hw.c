// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: events on counters.
 *
 * The struct pmu callbacks that put an event on one of this CPU's
 * counters, start and stop it, and fold what the counter counted into
 * event->count; and the enable/disable pair the core brackets scheduling
 * with. All of it runs on the CPU that owns the counters with interrupts
 * off; the PMI (pmi.c) can still arrive in NMI between any two
 * instructions, which is why prev_count is only ever exchanged with
 * cmpxchg and a counter is stopped before its slot is changed.
 *
 * Each callback finds the PMU from the event (x86_event_core()) or from
 * the struct pmu it is given, and that PMU's counters on this CPU with
 * x86_cpuc(): with more than one core PMU, each has its own.
 *
 * A counter counts up from minus what is left of the period and
 * interrupts when it wraps through 0; the kernel's copy of the last value
 * read (hw.prev_count) makes every read a delta, independent of where
 * the counter started.
 */

#include <linux/bitops.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>

#include <asm/msr.h>

#include "pmu.h"

/*
 * x86_counter_msrs - point an event's hw state at counter @idx
 * @core: the event's PMU
 * @hwc: the event's hardware state
 * @idx: a counter index (GP from 0, fixed from 32)
 *
 * Sets hw.idx, the count MSR (event_base), the control MSR (config_base;
 * the shared fixed-counter control for a fixed counter) and the RDPMC
 * index: fixed counters are read with bit 30 set.
 *
 * Context: any; no hardware access.
 */
static void x86_counter_msrs(const struct x86_core *core,
			     struct hw_perf_event *hwc, int idx)
{
	hwc->idx = idx;
	if (X86_IS_FIXED(idx)) {
		int i = idx - INTEL_PMC_IDX_FIXED;

		hwc->config_base = MSR_ARCH_PERFMON_FIXED_CTR_CTRL;
		hwc->event_base = MSR_ARCH_PERFMON_FIXED_CTR0 + i;
		hwc->event_base_rdpmc = INTEL_PMC_FIXED_RDPMC_BASE | i;
	} else {
		hwc->config_base = x86_gp_evtsel(core, idx);
		hwc->event_base = x86_gp_ctr(core, idx);
		hwc->event_base_rdpmc = idx;
	}
}

/*
 * hw.prev_count holds the counter's last value as user space sees it:
 * sign-extended from the counter's width, as the RDPMC read protocol of
 * the user page does (count = offset + sign-extended RDPMC). The page's
 * offset is count - prev_count, so whenever the core refreshes the page
 * the two agree, however far the counter is from wrapping.
 */
static u64 x86_sext(const struct x86_core *core, u64 raw, int idx)
{
	return (u64)sign_extend64(raw, x86_cntr_width(core, idx) - 1);
}

/**
 * x86_event_update - fold the counter's progress into the event
 * @event: an event on a counter of this CPU
 *
 * Context: the counter's CPU, interrupts off or in NMI.
 * Return: the raw counter value read.
 */
u64 x86_event_update(struct perf_event *event)
{
	const struct x86_core *core = x86_event_core(event);
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = x86_cntr_mask(core, hwc->idx);
	u64 prev, now, delta;

	lockdep_assert_irqs_disabled();
	/* a PMI between the read and the exchange must not count twice */
	do {
		prev = local64_read(&hwc->prev_count);
		now = native_read_pmc(hwc->event_base_rdpmc);
	} while (local64_cmpxchg(&hwc->prev_count, prev,
				 x86_sext(core, now, hwc->idx)) != prev);

	delta = (now - prev) & mask;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/**
 * x86_set_period - program the counter to wrap at the end of the period
 * @event: an event on a counter of this CPU, its counter not counting
 *
 * The longest distance one write can set is the PMU's max_period (legacy
 * counter writes take 32 sign-extended bits); a longer period is covered
 * by several wraps, of which only the last is a sample. Two events is the
 * shortest distance: a counter written to -1 may not interrupt reliably.
 *
 * Context: the counter's CPU, interrupts off or in NMI.
 * Return: true when a period had ended (the caller's overflow is a sample).
 */
bool x86_set_period(struct perf_event *event)
{
	const struct x86_core *core = x86_event_core(event);
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = x86_cntr_mask(core, hwc->idx);
	bool elapsed;
	s64 left;
	u64 val;

	lockdep_assert_irqs_disabled();
	elapsed = perf_hw_period_advance(hwc);
	left = local64_read(&hwc->period_left);

	/*
	 * A branch recorder that holds the PMI back while it fills (AMD
	 * BRS) lets the counter run on for core->branch_lead events: end
	 * the period that much early, so the sample comes about when asked.
	 */
	if ((hwc->flags & X86_EVENT_FLAG_LBR) && left > core->branch_lead)
		left -= core->branch_lead;
	if (left > (s64)core->max_period)
		left = core->max_period;
	if (left < 2)
		left = 2;

	local64_set(&hwc->prev_count, (u64)-left);
	val = (u64)(-left) & mask;
	wrmsrl(hwc->event_base, val);
	perf_event_update_userpage(event);
	return elapsed;
}

/**
 * x86_pmu_start - start counting an event that is on a counter
 * @event: the event; hw.idx is valid
 * @flags: PERF_EF_RELOAD; the period is reprogrammed in any case, since
 *	the count lives in prev_count/period_left, not in the counter
 *
 * Context: the event's CPU, interrupts off.
 */
void x86_pmu_start(struct perf_event *event, int flags)
{
	struct x86_core *core = x86_event_core(event);
	struct x86_cpu_pmu *cpuc = x86_cpuc(core);
	struct hw_perf_event *hwc = &event->hw;

	lockdep_assert_irqs_disabled();
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;

	x86_set_period(event);
	cpuc->running |= BIT_ULL(hwc->idx);
	if (core->gated) {
		/* the counter's own enable is the only gate (gate.c) */
		if (!cpuc->frozen)
			core->ops->program(event, true);
		return;
	}
	core->ops->program(event, true);
	/* outside a disabled section nobody else sets the global enable */
	if (!cpuc->frozen)
		core->ops->enable_all(core, cpuc);
}

/*
 * An event with X86_EVENT_FLAG_LARGE_PEBS may have records waiting in the
 * buffer: the periods they ended are not in its count yet, and they name
 * its counter, which another event may take next. Turn them into samples
 * now. Not in NMI: there the PMI drains the buffer first, and the drain
 * itself stops events.
 */
static void x86_flush_waiting(struct perf_event *event)
{
	struct x86_core *core = x86_event_core(event);

	if ((event->hw.flags & X86_EVENT_FLAG_LARGE_PEBS) && !in_nmi())
		core->ops->precise_flush(core, x86_cpuc(core));
}

/**
 * x86_pmu_stop - stop counting an event, keeping its counter
 * @event: the event; hw.idx is valid
 * @flags: PERF_EF_UPDATE; the count is always folded in, as ->start
 *	reprograms the counter from scratch
 *
 * Context: the event's CPU, interrupts off or in NMI (throttling).
 */
void x86_pmu_stop(struct perf_event *event, int flags)
{
	struct x86_core *core = x86_event_core(event);
	struct hw_perf_event *hwc = &event->hw;

	lockdep_assert_irqs_disabled();
	if (hwc->state & PERF_HES_STOPPED)
		return;
	/* its waiting records are of this counter; a sample may stop it */
	x86_flush_waiting(event);
	if (hwc->state & PERF_HES_STOPPED)
		return;

	core->ops->program(event, false);
	x86_cpuc(core)->running &= ~BIT_ULL(hwc->idx);
	x86_event_update(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* put @event on counter @idx, which is free */
static void x86_place(const struct x86_core *core, struct x86_cpu_pmu *cpuc,
		      struct perf_event *event, int idx)
{
	u64 bit = BIT_ULL(idx);

	x86_counter_msrs(core, &event->hw, idx);
	cpuc->events[idx] = event;
	cpuc->used |= bit;
	cpuc->dirty &= ~bit;
	if (event->attr.exclude_host)
		cpuc->guest_only |= bit;
	if (event->attr.exclude_guest)
		cpuc->host_only |= bit;
}

/* take @event off its counter, which it has stopped */
static void x86_unplace(struct x86_cpu_pmu *cpuc, struct perf_event *event)
{
	int idx = event->hw.idx;
	u64 bit = BIT_ULL(idx);

	cpuc->events[idx] = NULL;
	cpuc->used &= ~bit;
	cpuc->guest_only &= ~bit;
	cpuc->host_only &= ~bit;
	cpuc->dirty |= bit;
	event->hw.idx = -1;
}

/*
 * No free counter suits a new event that may use @allowed_new: place it
 * and every event already here from scratch, and move those whose
 * counter changes. Each moved event is stopped (its count folded in)
 * before any is put back, so no two share a counter at any time.
 * Returns the new event's counter or -EAGAIN.
 */
static int x86_repack(const struct x86_core *core, struct x86_cpu_pmu *cpuc,
		      u64 allowed_new)
{
	struct perf_event *ev[X86_NR_IDX];
	u64 allowed[X86_NR_IDX], was_running = 0;
	int idx[X86_NR_IDX];
	unsigned long bit;
	int i, n = 0;

	for_each_set_bit(bit, (unsigned long *)&cpuc->used, X86_NR_IDX) {
		ev[n] = cpuc->events[bit];
		allowed[n] = x86_event_counters(core, ev[n]);
		n++;
	}
	if (n == X86_NR_IDX)
		return -EAGAIN;
	allowed[n] = allowed_new;
	if (x86_assign(allowed, n + 1, 0, idx))
		return -EAGAIN;

	for (i = 0; i < n; i++) {
		if (idx[i] == ev[i]->hw.idx)
			continue;
		if (!(ev[i]->hw.state & PERF_HES_STOPPED))
			was_running |= BIT_ULL(i);
		x86_pmu_stop(ev[i], PERF_EF_UPDATE);
		x86_unplace(cpuc, ev[i]);
	}
	for (i = 0; i < n; i++) {
		if (ev[i]->hw.idx >= 0)
			continue;
		x86_place(core, cpuc, ev[i], idx[i]);
		if (was_running & BIT_ULL(i))
			x86_pmu_start(ev[i], PERF_EF_RELOAD);
		else
			perf_event_update_userpage(ev[i]);
	}
	return idx[n];
}

/**
 * x86_pmu_add - put an event on a counter of this CPU
 * @event: the event
 * @flags: PERF_EF_START to start counting right away
 *
 * A free counter the event may use is taken; when none is free the
 * events already here are re-placed if that makes room (x86_repack()).
 * An event with a branch stack also needs the vendor's branch recorder,
 * and one with X86_EVENT_FLAG_SHARED_REG the register it shares.
 *
 * Context: the CPU the event is scheduled in on, interrupts off, the
 * context lock held; usually within pmu_disable/pmu_enable.
 * Return: 0, or -EAGAIN when it does not fit, or the branch recorder or
 * the shared register is set up for other events (the core multiplexes).
 */
int x86_pmu_add(struct perf_event *event, int flags)
{
	struct x86_core *core = x86_event_core(event);
	struct x86_cpu_pmu *cpuc = x86_cpuc(core);
	struct hw_perf_event *hwc = &event->hw;
	u64 allowed = x86_event_counters(core, event);
	int idx, ret;

	lockdep_assert_irqs_disabled();
	if (x86_assign(&allowed, 1, cpuc->used, &idx)) {
		idx = x86_repack(core, cpuc, allowed);
		if (idx < 0)
			return idx;
	}
	/*
	 * Last, as they may change the branch recorder and the shared
	 * register: a failure leaves at most the others re-placed by
	 * x86_repack(), which is harmless.
	 */
	if (hwc->flags & X86_EVENT_FLAG_SHARED_REG) {
		ret = core->ops->shared_get(event);
		if (ret)
			return ret;
	}
	if (hwc->flags & X86_EVENT_FLAG_LBR) {
		ret = core->ops->branch_add(event);
		if (ret) {
			if (hwc->flags & X86_EVENT_FLAG_SHARED_REG)
				core->ops->shared_put(event);
			return ret;
		}
	}

	x86_place(core, cpuc, event, idx);
	/* a task's waiting records go before another task runs */
	if (hwc->flags & X86_EVENT_FLAG_LARGE_PEBS)
		perf_sched_cb_inc(event->pmu);
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* starting programs the period, which refreshes the user page */
	if (flags & PERF_EF_START)
		x86_pmu_start(event, PERF_EF_RELOAD);
	else
		perf_event_update_userpage(event);
	return 0;
}

/**
 * x86_pmu_del - take an event off its counter
 * @event: the event
 * @flags: unused; the count is always brought up to date
 *
 * The counter is left holding the event's last value, so it is marked
 * dirty: perf_clear_dirty_counters() zeroes it before a task that may
 * read counters with RDPMC runs here.
 *
 * Context: the event's CPU, interrupts off, the context lock held.
 */
void x86_pmu_del(struct perf_event *event, int flags)
{
	struct x86_core *core = x86_event_core(event);

	lockdep_assert_irqs_disabled();
	x86_pmu_stop(event, PERF_EF_UPDATE);
	x86_unplace(x86_cpuc(core), event);
	if (event->hw.flags & X86_EVENT_FLAG_LARGE_PEBS)
		perf_sched_cb_dec(event->pmu);
	if (event->hw.flags & X86_EVENT_FLAG_LBR)
		core->ops->branch_del(event);
	if (event->hw.flags & X86_EVENT_FLAG_SHARED_REG)
		core->ops->shared_put(event);
	perf_event_update_userpage(event);
}

/**
 * x86_pmu_read - bring event->count up to date
 * @event: an active event
 *
 * Context: the event's CPU, interrupts off, or in NMI when a sample of
 * a group member reads the rest of its group.
 */
void x86_pmu_read(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	x86_flush_waiting(event);
	if (!(event->hw.state & PERF_HES_STOPPED))
		x86_event_update(event);
}

/**
 * x86_pmu_enable - let this CPU's counters run again
 * @pmu: a core PMU
 *
 * Context: local CPU, interrupts off; pairs with x86_pmu_disable(), which
 * the core does not nest.
 */
void x86_pmu_enable(struct pmu *pmu)
{
	struct x86_core *core = x86_pmu_core(pmu);
	struct x86_cpu_pmu *cpuc = x86_cpuc(core);

	lockdep_assert_irqs_disabled();
	cpuc->frozen = false;
	if (cpuc->running)
		core->ops->enable_all(core, cpuc);
}

/**
 * x86_pmu_disable - freeze this CPU's counters
 * @pmu: a core PMU
 *
 * With nothing counting there is nothing to freeze and no MSR is written.
 *
 * Context: as x86_pmu_enable().
 */
void x86_pmu_disable(struct pmu *pmu)
{
	struct x86_core *core = x86_pmu_core(pmu);
	struct x86_cpu_pmu *cpuc = x86_cpuc(core);

	lockdep_assert_irqs_disabled();
	cpuc->frozen = true;
	if (cpuc->running)
		core->ops->disable_all(core, cpuc);
}

/**
 * x86_pmu_sched_task - a context switch on this CPU
 * @ctx: the task's context, or NULL
 * @sched_in: the incoming task's turn
 *
 * Called while an event with a branch stack (the vendor's branch_add
 * asked for it) or with X86_EVENT_FLAG_LARGE_PEBS is on this CPU's
 * counters: the records waiting in the buffer become samples of the
 * outgoing task, whose they are, and the vendor's branch recorder forgets
 * that task before the incoming one runs.
 *
 * Context: the scheduler's hook, interrupts off, the PMU disabled.
 */
void x86_pmu_sched_task(struct perf_event_context *ctx, bool sched_in)
{
	struct x86_core *core = this_cpu_read(x86_cpu_core);

	lockdep_assert_irqs_disabled();
	if (!core)
		return;
	if (!sched_in && core->ops->precise_flush)
		core->ops->precise_flush(core, x86_cpuc(core));
	if (sched_in && core->ops->branch_sched_in)
		core->ops->branch_sched_in();
}
