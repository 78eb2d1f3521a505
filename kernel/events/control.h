/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changing what is in a context and what runs: install and remove,
 * lift and land, enable, disable, reset (control.c).
 */
#ifndef _KERNEL_EVENTS_CONTROL_H
#define _KERNEL_EVENTS_CONTROL_H

#include <linux/perf_event.h>

/* control.c */
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event);
void perf_remove_from_context(struct perf_event *event, bool exited);
void perf_group_lift(struct perf_event *leader);
void perf_group_land(struct perf_event *leader);
void perf_event_do_enable(struct perf_event *event);
void perf_event_do_disable(struct perf_event *event);
void perf_event_group_switch(struct perf_event *leader, bool enable);
void perf_event_reset(struct perf_event *event);

#endif /* _KERNEL_EVENTS_CONTROL_H */
