/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Contexts: lifetime, references, pins, clones, locking (context.c).
 */
#ifndef _KERNEL_EVENTS_CONTEXT_H
#define _KERNEL_EVENTS_CONTEXT_H

#include <linux/perf_event.h>

/* the task of a context whose task has exited */
#define TASK_TOMBSTONE	((struct task_struct *)-1L)

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/* an event its PMU lets user space read while its task context runs */
static inline bool perf_event_user_read_ctx(struct perf_event *event)
{
	return (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT) &&
	       (event->pmu->capabilities & PERF_PMU_CAP_USER_READ_CTX);
}

/* context.c */
struct perf_event_context *perf_find_get_context(struct task_struct *task,
						 int cpu);
struct perf_event_context *perf_alloc_task_ctx(struct task_struct *task);
void perf_get_ctx(struct perf_event_context *ctx);
struct perf_event_context *perf_pin_task_ctx(struct task_struct *task);
void perf_unpin_ctx(struct perf_event_context *ctx);
void perf_unclone_ctx(struct perf_event_context *ctx);
void perf_clone_ctx(struct perf_event_context *child_ctx,
		    struct perf_event_context *parent_ctx);
void perf_put_ctx(struct perf_event_context *ctx);
struct perf_event_context *perf_event_ctx_lock_nested(struct perf_event *event,
						      int subclass);

static inline struct perf_event_context *
perf_event_ctx_lock(struct perf_event *event)
{
	return perf_event_ctx_lock_nested(event, 0);
}

/*
 * What keeps @event in its context while process context changes or reads
 * it: its ctx->mutex or, for an inherited copy reached from its original,
 * the original's child_mutex.
 */
static inline void perf_event_assert_locked(struct perf_event *event)
{
	lockdep_assert(lockdep_is_held(&event->ctx->mutex) ||
		       (event->parent &&
			lockdep_is_held(&event->parent->child_mutex)));
}

int perf_cpu_ctx_init(void);

#endif /* _KERNEL_EVENTS_CONTEXT_H */
