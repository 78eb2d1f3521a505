/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One PMU's state on one CPU (pmu->pmu_cpu_context): its multiplexing
 * rotation (rotate.c) and the exclusive group holding it (exclusive.c).
 */
#ifndef _KERNEL_EVENTS_PMU_CPU_H
#define _KERNEL_EVENTS_PMU_CPU_H

#include <linux/hrtimer.h>
#include <linux/perf_event.h>

/**
 * struct perf_pmu_cpu - one PMU's state on one CPU
 * @timer: the rotation timer; fires every interval while armed
 * @entry: on the CPU's cpuctx->rotating while armed
 * @pmu: the PMU
 * @armed: the timer is running
 * @needed: a flexible group of @pmu did not fit since the last rotation
 * @exclusive: the exclusive group on @pmu on this CPU, if any
 * @sched_cb: perf_sched_cb_inc() count: @pmu's ->sched_task runs at this
 *	CPU's context switches while it is non-zero
 * @sched_cb_entry: on the CPU's cpuctx->sched_cb list while it is
 *
 * Changed only on its CPU, with IRQs off.
 */
struct perf_pmu_cpu {
	struct hrtimer		timer;
	struct list_head	entry;
	struct pmu		*pmu;
	bool			armed;
	bool			needed;
	struct perf_event	*exclusive;
	int			sched_cb;
	struct list_head	sched_cb_entry;
};

/* @pmu's state on this CPU; IRQs off, so that it stays this CPU's */
static inline struct perf_pmu_cpu *perf_pmu_this_cpu(struct pmu *pmu)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr((struct perf_pmu_cpu __percpu *)pmu->pmu_cpu_context);
}

#endif /* _KERNEL_EVENTS_PMU_CPU_H */
