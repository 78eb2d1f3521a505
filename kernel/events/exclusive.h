/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exclusive PMUs and exclusive groups (exclusive.c).
 */
#ifndef _KERNEL_EVENTS_EXCLUSIVE_H
#define _KERNEL_EVENTS_EXCLUSIVE_H

#include <linux/perf_event.h>

/* exclusive.c */
int perf_exclusive_claim(struct perf_event *event);
void perf_exclusive_event_release(struct perf_event *event);
bool perf_exclusive_installable(struct perf_event *event,
				struct perf_event_context *ctx);
bool perf_exclusive_hold(struct perf_event *leader, bool take);
bool perf_exclusive_may_share(struct perf_event *leader,
			      struct perf_event_context *ctx);

#endif /* _KERNEL_EVENTS_EXCLUSIVE_H */
