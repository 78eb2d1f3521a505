/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a function against an event's context, on whichever CPU
 * the context is active (remote.c).
 */
#ifndef _KERNEL_EVENTS_REMOTE_H
#define _KERNEL_EVENTS_REMOTE_H

#include <linux/perf_event.h>

/*
 * A function run against an event's context with ctx->lock held and IRQs
 * off, on the CPU where the context is active, or on any CPU when it is
 * not active.  @ctx->is_active tells which.
 */
typedef void (*perf_ctx_fn_t)(struct perf_event *event,
			      struct perf_event_context *ctx, void *data);

/* remote.c */
void perf_ctx_call(struct perf_event *event, perf_ctx_fn_t fn, void *data);
void perf_ctx_call_read(struct perf_event *event, perf_ctx_fn_t fn,
			void *data);

#endif /* _KERNEL_EVENTS_REMOTE_H */
