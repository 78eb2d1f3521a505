/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the side-band record files (sb_walk.c, sb_mmap.c, sb_kernel.c)
 * share: the walk that offers a record to the events that may want it,
 * and opening and closing a record; and the hooks the rest of the core
 * calls in sb_walk.c.  See sb_walk.c for the rules.
 */
#ifndef _KERNEL_EVENTS_SIDEBAND_H
#define _KERNEL_EVENTS_SIDEBAND_H

#include <linux/perf_event.h>

#include "event.h"

/* kinds of record, for the counts that let hooks skip the walk */
enum perf_sb_kind {
	PERF_SB_TASK,		/* FORK, EXIT */
	PERF_SB_COMM,
	PERF_SB_NS,
	PERF_SB_MMAP,
	PERF_SB_SWITCH,
	PERF_SB_KSYMBOL,
	PERF_SB_BPF,
	PERF_SB_POKE,
	PERF_SB_CGROUP,
	PERF_SB_KINDS
};

/* Does @event want the record described by @data? */
typedef bool (*sb_match_t)(struct perf_event *event, void *data);
/* Write the record described by @data to @event's buffer. */
typedef void (*sb_emit_t)(struct perf_event *event, void *data);

int sb_walk(enum perf_sb_kind kind, sb_match_t match, sb_emit_t emit,
	    void *data);
bool perf_sb_wanted(enum perf_sb_kind kind);
int sb_begin(struct perf_output_handle *handle,
	     struct perf_sample_data *sample, struct perf_event *event,
	     struct perf_event_header *hdr);
void sb_end(struct perf_output_handle *handle,
	    struct perf_sample_data *sample, struct perf_event *event);

/* pid and tid of @p as @event's opener sees them */
static inline u32 sb_pid(struct perf_event *event, struct task_struct *p)
{
	return perf_event_task_pid(event, p, PIDTYPE_TGID);
}

static inline u32 sb_tid(struct perf_event *event, struct task_struct *p)
{
	return perf_event_task_pid(event, p, PIDTYPE_PID);
}

/* sb_walk.c */
void perf_sb_attach(struct perf_event_context *ctx, struct perf_event *event);
void perf_sb_detach(struct perf_event_context *ctx, struct perf_event *event);
void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in);
void perf_event_task_record(struct task_struct *task, bool fork);
void perf_event_read_record(struct perf_event *event,
			    struct task_struct *task);

#endif /* _KERNEL_EVENTS_SIDEBAND_H */
