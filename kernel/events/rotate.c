// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing: sharing a PMU's counters between more flexible groups than
 * fit at once.
 *
 * When a flexible group does not fit, its PMU's rotation timer on this CPU
 * is armed (struct perf_pmu_cpu, one per PMU per CPU, in
 * pmu->pmu_cpu_context).  Every perf_event_mux_interval_ms of that PMU the
 * timer takes the PMU's flexible groups off, sends the first one that ran
 * to the back of the order (groups.c) and schedules again, so that every
 * group gets its share of counter time.  time_enabled keeps running for a
 * waiting group while time_running does not, which is what lets user
 * space scale the counts.  Other PMUs' groups, software ones included,
 * are not touched.  The timer stops by itself once everything fits.
 *
 * An exclusive group (attr.exclusive) does not share its PMU: while it is
 * on, no other group of that PMU goes on that CPU (sched.c), so groups
 * wait and rotate around it as they would around a full PMU
 * (exclusive.c).
 *
 * Context: the timers are pinned hard-IRQ timers on their own CPU; the
 * state of a CPU's rotations changes only on that CPU with IRQs off.
 * Armed rotations are on cpuctx->rotating, so that CPU hot-unplug can
 * cancel them before hrtimer migration would move them to a CPU they do
 * not belong to.
 */
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "context.h"
#include "groups.h"
#include "pmu_cpu.h"
#include "rotate.h"
#include "sched.h"
#include "time.h"

static ktime_t perf_rotation_interval(struct pmu *pmu)
{
	return ms_to_ktime(max(READ_ONCE(pmu->hrtimer_interval_ms), 1));
}

/**
 * perf_rotation_needed - a flexible group of @pmu did not fit on this CPU
 * @pmu: the PMU it competes on
 *
 * Context: IRQs off, this CPU's context lock held.
 */
void perf_rotation_needed(struct pmu *pmu)
{
	struct perf_pmu_cpu *r = perf_pmu_this_cpu(pmu);

	lockdep_assert_irqs_disabled();
	r->needed = true;
	if (r->armed)
		return;
	r->armed = true;
	list_add_tail(&r->entry, &this_cpu_ptr(&perf_cpu_ctx)->rotating);
	hrtimer_start(&r->timer, perf_rotation_interval(pmu),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static enum hrtimer_restart perf_rotation_fn(struct hrtimer *timer)
{
	struct perf_pmu_cpu *r = container_of(timer, struct perf_pmu_cpu,
					       timer);
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;
	struct perf_pmu_batch b = { };
	struct pmu *pmu = r->pmu;
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	perf_ctx_lock(cpuctx, task_ctx);
	if (r->needed && cpuctx->online) {
		r->needed = false;
		perf_ctx_update_time(&cpuctx->ctx);
		if (task_ctx) {
			perf_ctx_update_time(task_ctx);
			perf_group_rotate(task_ctx, pmu);
			perf_ctx_sched_out(task_ctx, true, pmu, &b);
		}
		perf_group_rotate(&cpuctx->ctx, pmu);
		perf_ctx_sched_out(&cpuctx->ctx, true, pmu, &b);
		/* CPU flexible before task flexible; a failure sets needed */
		perf_ctx_sched_in(&cpuctx->ctx, false, pmu, &b);
		if (task_ctx)
			perf_ctx_sched_in(task_ctx, false, pmu, &b);
		perf_pmu_batch_enable(&b);
	}
	if (r->needed) {
		hrtimer_forward_now(timer, perf_rotation_interval(pmu));
		ret = HRTIMER_RESTART;
	} else {
		r->armed = false;
		list_del_init(&r->entry);
	}
	perf_ctx_unlock(cpuctx, task_ctx);
	return ret;
}

/**
 * perf_rotation_stop_cpu - cancel every rotation armed on this CPU
 *
 * For CPU hot-unplug: nothing of this CPU is on a PMU any more, and a
 * timer left armed would migrate to another CPU.
 *
 * Context: on the CPU, IRQs off, its context lock held.
 */
void perf_rotation_stop_cpu(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_pmu_cpu *r, *tmp;

	lockdep_assert_held(&cpuctx->ctx.lock);
	list_for_each_entry_safe(r, tmp, &cpuctx->rotating, entry) {
		/* our own hard-IRQ timer cannot be running with IRQs off */
		hrtimer_try_to_cancel(&r->timer);
		r->armed = false;
		r->needed = false;
		list_del_init(&r->entry);
	}
}

/**
 * perf_rotation_init - set up a new PMU's per-CPU rotation state
 * @pmu: the PMU being registered
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int perf_rotation_init(struct pmu *pmu)
{
	struct perf_pmu_cpu __percpu *rot;
	int cpu;

	rot = alloc_percpu(struct perf_pmu_cpu);
	if (!rot)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct perf_pmu_cpu *r = per_cpu_ptr(rot, cpu);

		hrtimer_init(&r->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		r->timer.function = perf_rotation_fn;
		INIT_LIST_HEAD(&r->entry);
		INIT_LIST_HEAD(&r->sched_cb_entry);
		r->pmu = pmu;
	}
	pmu->pmu_cpu_context = (void __percpu *)rot;
	return 0;
}

static void perf_rotation_stop_pmu_local(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct pmu *pmu = info;
	struct perf_pmu_cpu *r = perf_pmu_this_cpu(pmu);

	raw_spin_lock(&cpuctx->ctx.lock);
	if (r->armed) {
		hrtimer_try_to_cancel(&r->timer);
		r->armed = false;
		r->needed = false;
		list_del_init(&r->entry);
	}
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/**
 * perf_rotation_free - tear down a PMU's rotation state
 * @pmu: the PMU being unregistered; it has no events left
 *
 * Armed timers are stopped on their own CPUs (offline CPUs stopped theirs
 * when they went down) before the state is freed.
 *
 * Context: process context, may sleep.
 */
void perf_rotation_free(struct pmu *pmu)
{
	int cpu;

	if (!pmu->pmu_cpu_context)
		return;
	/*
	 * No cpus_read_lock(): a driver may unregister from a hotplug
	 * callback.  A CPU going down cancels its own rotations, and one
	 * coming up has none armed.
	 */
	on_each_cpu(perf_rotation_stop_pmu_local, pmu, 1);
	/* a callback that was running when we cancelled has finished now */
	for_each_possible_cpu(cpu) {
		struct perf_pmu_cpu *r = per_cpu_ptr(pmu->pmu_cpu_context,
						      cpu);

		hrtimer_cancel(&r->timer);
	}
	free_percpu(pmu->pmu_cpu_context);
	pmu->pmu_cpu_context = NULL;
}
