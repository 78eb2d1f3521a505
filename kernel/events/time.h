/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Context time and the events' enabled and running times (time.c).
 */
#ifndef _KERNEL_EVENTS_TIME_H
#define _KERNEL_EVENTS_TIME_H

#include <linux/perf_event.h>

/* time.c */
u64 perf_clock(void);
void perf_ctx_update_time(struct perf_event_context *ctx);
void perf_ctx_activate(struct perf_event_context *ctx);
void perf_ctx_deactivate(struct perf_event_context *ctx);
void perf_event_update_time(struct perf_event *event);
void perf_event_start_time(struct perf_event *event);
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state);
void perf_event_times_now(struct perf_event *event, u64 *now,
			  u64 *enabled, u64 *running);

#endif /* _KERNEL_EVENTS_TIME_H */
