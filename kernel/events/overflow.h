/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Overflows: refresh limits, throttling, frequency mode (overflow.c).
 */
#ifndef _KERNEL_EVENTS_OVERFLOW_H
#define _KERNEL_EVENTS_OVERFLOW_H

#include <linux/perf_event.h>

/* overflow.c */
int perf_event_do_overflow(struct perf_event *event,
			   struct perf_sample_data *data,
			   struct pt_regs *regs, int throttle);
bool perf_event_is_throttled(struct perf_event *event);
void perf_event_unthrottle(struct perf_event *event);
#if IS_ENABLED(CONFIG_KUNIT)
u64 perf_freq_period(u64 cur, u64 count, u64 nsec, u64 freq);
u64 perf_rate_for_cost(u64 cost_ns, int pct);
#endif

#endif /* _KERNEL_EVENTS_OVERFLOW_H */
