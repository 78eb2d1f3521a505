/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events: allocation, sizes, references, and who they are (event.c).
 */
#ifndef _KERNEL_EVENTS_EVENT_H
#define _KERNEL_EVENTS_EVENT_H

#include <linux/perf_event.h>
#include <linux/sched.h>

/* event.c */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent,
				    perf_overflow_handler_t handler,
				    void *context);
void perf_event_free(struct perf_event *event);
void perf_event_calc_sizes(struct perf_event *event);
void perf_event_calc_read_size(struct perf_event *event);
u32 perf_read_size(u64 fmt, int nr_siblings);
void perf_event_ref(struct perf_event *event);
void perf_event_unref(struct perf_event *event);

/**
 * perf_event_primary_id - the ID user space knows an event by
 * @event: the event; an inherited copy reports its original's
 *
 * Return: the ID read() (PERF_FORMAT_ID), samples and records carry.
 */
static inline u64 perf_event_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/**
 * perf_event_task_pid - a pid or tid as the event's opener sees it
 * @event: the event; an inherited copy uses its original's namespace
 * @task: the task
 * @type: PIDTYPE_TGID for the pid, PIDTYPE_PID for the tid
 *
 * Return: the number in the pid namespace the event was opened in: 0 for
 * a live task that namespace cannot see, -1 for one being reaped.
 */
static inline u32 perf_event_task_pid(struct perf_event *event,
				      struct task_struct *task,
				      enum pid_type type)
{
	struct perf_event *orig = event->parent ?: event;
	u32 nr = __task_pid_nr_ns(task, type, orig->ns);

	if (!nr && !pid_alive(task))
		nr = -1;
	return nr;
}

#endif /* _KERNEL_EVENTS_EVENT_H */
