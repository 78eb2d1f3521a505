/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process-wide events (PERF_FLAG_PID_PROCESS, our extension W4): one event
 * that counts in every thread of a process (process.c), and the copy
 * primitive they share with fork's inheritance (task.c).
 */
#ifndef _KERNEL_EVENTS_PROCESS_H
#define _KERNEL_EVENTS_PROCESS_H

#include <linux/perf_event.h>

/* the open flags an event keeps (event->ext_flags) */
#define PERF_EXT_FLAGS		(PERF_FLAG_PID_PROCESS | PERF_FLAG_SHARED_BUFFER)

/* @event (an original, not a copy) follows every thread of its process */
static inline bool perf_event_process_wide(struct perf_event *event)
{
	return event->ext_flags & PERF_FLAG_PID_PROCESS;
}

/* task.c */
struct perf_event *perf_inherit_event(struct perf_event *parent_event,
				      struct task_struct *child,
				      struct perf_event_context *child_ctx,
				      struct perf_event *leader);

/* process.c */
int perf_process_follow(struct perf_event *event, struct task_struct *task);
void perf_process_forget(struct perf_event *event);
void perf_process_fork(struct task_struct *task);
int perf_process_read_threads(struct perf_event *event,
			      struct perf_event_thread_values __user *uv);

#endif /* _KERNEL_EVENTS_PROCESS_H */
