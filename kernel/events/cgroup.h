/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup events (cgroup.c), and their stubs without CONFIG_CGROUP_PERF.
 */
#ifndef _KERNEL_EVENTS_CGROUP_H
#define _KERNEL_EVENTS_CGROUP_H

#include <linux/perf_event.h>

/* cgroup.c */
#ifdef CONFIG_CGROUP_PERF
void perf_cgroup_ctx_time(struct perf_event_context *ctx, u64 now);
void perf_cgroup_ctx_active(struct perf_event_context *ctx, bool active,
			    u64 now);
u64 perf_cgroup_event_time(struct perf_event *event);
u64 perf_cgroup_event_time_now(struct perf_event *event, u64 now);
bool perf_cgroup_match(struct perf_event *event);
void perf_cgroup_event_added(struct perf_event_context *ctx,
			     struct perf_event *event);
void perf_cgroup_event_removed(struct perf_event_context *ctx,
			       struct perf_event *event);
void perf_cgroup_switch(struct task_struct *task);
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *leader);
void perf_cgroup_release(struct perf_event *event);
u64 perf_cgroup_sample_id(void);

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return event->cgrp;
}

/* do the CPU context's cgroup clocks move with it? */
static inline bool perf_ctx_has_cgroups(struct perf_event_context *ctx)
{
	return !ctx->task && ctx->nr_cgroups;
}
#else
static inline void perf_cgroup_ctx_time(struct perf_event_context *ctx,
					u64 now) { }
static inline void perf_cgroup_ctx_active(struct perf_event_context *ctx,
					  bool active, u64 now) { }
static inline u64 perf_cgroup_event_time(struct perf_event *event)
{
	return 0;
}

static inline u64 perf_cgroup_event_time_now(struct perf_event *event,
					     u64 now)
{
	return 0;
}

static inline bool perf_cgroup_match(struct perf_event *event)
{
	return true;
}

static inline void perf_cgroup_event_added(struct perf_event_context *ctx,
					   struct perf_event *event) { }
static inline void perf_cgroup_event_removed(struct perf_event_context *ctx,
					     struct perf_event *event) { }
static inline void perf_cgroup_switch(struct task_struct *task) { }
static inline int perf_cgroup_connect(int fd, struct perf_event *event,
				      struct perf_event *leader)
{
	return -EINVAL;		/* as upstream without CONFIG_CGROUP_PERF */
}

static inline void perf_cgroup_release(struct perf_event *event) { }
static inline u64 perf_cgroup_sample_id(void)
{
	return 0;
}

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return false;
}

static inline bool perf_ctx_has_cgroups(struct perf_event_context *ctx)
{
	return false;
}
#endif

#endif /* _KERNEL_EVENTS_CGROUP_H */
