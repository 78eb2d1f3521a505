/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events and groups on and off the PMUs; the context-switch hooks
 * (sched.c).
 */
#ifndef _KERNEL_EVENTS_SCHED_H
#define _KERNEL_EVENTS_SCHED_H

#include <linux/perf_event.h>

/* sched.c */

/* the PMUs one scheduling pass disabled, to enable once at its end */
#define PERF_PMU_BATCH	4
struct perf_pmu_batch {
	int			nr;
	struct pmu		*pmu[PERF_PMU_BATCH];
};

void perf_pmu_batch_enable(struct perf_pmu_batch *b);
void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx);
void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx);
void perf_group_try_sched_in(struct perf_event *leader,
			     struct perf_event_context *ctx);
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx);
void perf_event_sched_out(struct perf_event *event,
			  struct perf_event_context *ctx);
void perf_ctx_sched_in(struct perf_event_context *ctx, bool pinned,
		       struct pmu *pmu, struct perf_pmu_batch *b);
void perf_ctx_sched_out_cgroups(struct perf_event_context *ctx,
				struct perf_pmu_batch *b);
void perf_ctx_sched_out(struct perf_event_context *ctx, bool flexible_only,
			struct pmu *pmu, struct perf_pmu_batch *b);
void perf_ctx_sched_in_all(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *task_ctx,
			   struct perf_pmu_batch *b);
void perf_ctx_resched(struct perf_event_context *ctx);
void perf_task_ctx_sched_in(struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx);
void perf_task_ctx_sched_out(struct perf_cpu_context *cpuctx,
			     struct perf_event_context *ctx);
void perf_task_events_inc(void);
void perf_task_events_dec(void);

/* sched_cb.c: the PMUs' ->sched_task at this CPU's context switches */
void perf_sched_cb_run(struct perf_event_context *ctx, bool sched_in);

#endif /* _KERNEL_EVENTS_SCHED_H */
