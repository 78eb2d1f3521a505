/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waking readers and the work an overflow defers (wakeup.c).
 */
#ifndef _KERNEL_EVENTS_WAKEUP_H
#define _KERNEL_EVENTS_WAKEUP_H

#include <linux/perf_event.h>

/* wakeup.c */
void perf_event_output_wakeup(struct perf_event *event,
			      struct perf_buffer *rb);
void perf_event_queue_wakeup(struct perf_event *event);
void perf_pending_work(struct irq_work *work);
void perf_event_wakeup(struct perf_event *event);
__poll_t perf_event_rb_poll(struct perf_event *event);

#endif /* _KERNEL_EVENTS_WAKEUP_H */
