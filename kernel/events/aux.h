/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Group members acting on their AUX-event leader: aux_output, aux_pause,
 * aux_resume, aux_sample_size (aux_group.c).
 */
#ifndef _KERNEL_EVENTS_AUX_H
#define _KERNEL_EVENTS_AUX_H

#include <linux/perf_event.h>

bool perf_aux_needs_leader(const struct perf_event_attr *attr);
int perf_aux_link(struct perf_event *event, struct perf_event *leader);
void perf_aux_inherit_link(struct perf_event *orig, struct perf_event *copy,
			   struct perf_event *orig_leader,
			   struct perf_event *copy_leader);
bool perf_aux_leader_leaves(struct perf_event *leader,
			    struct perf_event *member,
			    struct perf_event_context *ctx);
void perf_aux_release(struct perf_event *event);
void perf_aux_pause(struct perf_event *event, bool pause);
u32 perf_aux_sample_size(struct perf_event *event, u32 room);
void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle, u32 size);

#endif /* _KERNEL_EVENTS_AUX_H */
