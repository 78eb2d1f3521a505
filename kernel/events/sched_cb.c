// SPDX-License-Identifier: GPL-2.0
/*
 * Context-switch callbacks for PMU drivers (pmu->sched_task).
 *
 * Some hardware state belongs to whatever ran last rather than to an
 * event: a branch record (LBR) holds the outgoing task's branches, and
 * must be cleared, or swapped for the incoming task's, when the CPU
 * switches tasks, whether the events using it are the tasks' own or the
 * CPU's. A driver asks for this per CPU with perf_sched_cb_inc() while it
 * has such events on that CPU (from ->add, say) and stops with
 * perf_sched_cb_dec(); in between, each context switch on the CPU calls
 * its ->sched_task: with sched_in false before the outgoing task's events
 * leave the counters, and true before the incoming task's arrive.
 *
 * The hooks themselves only run while perf_sched_events is on, so an
 * event whose driver will want them says so at event_init with
 * PERF_ATTACH_SCHED_CB, and holds the key on like a task event.
 *
 * Everything here runs on the CPU concerned with IRQs off: the count and
 * the list of PMUs are per CPU and change only under IRQs off.
 */
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>

#include "context.h"
#include "pmu_cpu.h"
#include "sched.h"

/**
 * perf_sched_cb_inc - have @pmu's ->sched_task called at context switches
 * @pmu: a PMU with a ->sched_task
 *
 * Counted: each call needs its perf_sched_cb_dec().
 *
 * Context: this CPU, IRQs off (a driver's ->add).
 */
void perf_sched_cb_inc(struct pmu *pmu)
{
	struct perf_pmu_cpu *pc = perf_pmu_this_cpu(pmu);

	if (!pc->sched_cb++)
		list_add(&pc->sched_cb_entry,
			 &this_cpu_ptr(&perf_cpu_ctx)->sched_cb);
}

/**
 * perf_sched_cb_dec - undo a perf_sched_cb_inc()
 * @pmu: the PMU
 *
 * Context: as perf_sched_cb_inc().
 */
void perf_sched_cb_dec(struct pmu *pmu)
{
	struct perf_pmu_cpu *pc = perf_pmu_this_cpu(pmu);

	if (!--pc->sched_cb)
		list_del_init(&pc->sched_cb_entry);
}

/**
 * perf_sched_cb_run - call the PMUs that asked for context switches
 * @ctx: the task context involved, or NULL
 * @sched_in: the incoming task's turn (else the outgoing one's)
 *
 * The PMU's own pmu_disable/pmu_enable frame each call, so that the
 * driver changes its hardware with the counters stopped.
 *
 * Context: the scheduler's hooks, IRQs off.
 */
void perf_sched_cb_run(struct perf_event_context *ctx, bool sched_in)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_pmu_cpu *pc;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(pc, &cpuctx->sched_cb, sched_cb_entry) {
		struct pmu *pmu = pc->pmu;

		pmu->pmu_disable(pmu);
		pmu->sched_task(ctx, sched_in);
		pmu->pmu_enable(pmu);
	}
}
