/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The group index: groups by CPU, scheduling order, on-PMU lists
 * (groups.c).
 */
#ifndef _KERNEL_EVENTS_GROUPS_H
#define _KERNEL_EVENTS_GROUPS_H

#include <linux/perf_event.h>

/* groups.c */

/* walks the "any CPU" bucket and this CPU's, merged by group_seq */
struct perf_group_iter {
	struct list_head	*head[2];
	struct list_head	*pos[2];
};

void perf_groups_init(struct perf_event_context *ctx);
void perf_groups_free(struct perf_event_context *ctx);
int perf_groups_reserve(struct perf_event_context *ctx, int cpu);
struct perf_groups *perf_groups_of(struct perf_event_context *ctx,
				   struct perf_event *leader);
struct perf_groups *perf_groups_here(struct perf_event_context *ctx);
struct pmu *perf_group_hw_pmu(struct perf_event *leader);
struct pmu *perf_group_pmu(struct perf_event *leader);
bool perf_group_edit_begin(struct perf_event_context *ctx,
			   struct perf_event *leader);
void perf_group_edit_end(struct perf_event_context *ctx,
			 struct perf_event *leader, bool held);
void perf_group_link(struct perf_event_context *ctx,
		     struct perf_event *leader);
void perf_group_unlink(struct perf_event_context *ctx,
		       struct perf_event *leader);
void perf_group_set_on(struct perf_event_context *ctx,
		       struct perf_event *leader, bool on);
void perf_group_iter_start(struct perf_group_iter *it,
			   struct perf_event_context *ctx, bool pinned);
struct perf_event *perf_group_iter_next(struct perf_group_iter *it);
void perf_group_rotate(struct perf_event_context *ctx, struct pmu *pmu);

#endif /* _KERNEL_EVENTS_GROUPS_H */
