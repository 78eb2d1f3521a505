/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The software PMUs (swevent.c).
 */
#ifndef _KERNEL_EVENTS_SWEVENT_H
#define _KERNEL_EVENTS_SWEVENT_H

#include <linux/perf_event.h>

/* swevent.c */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs);
int perf_swevent_register(void);

/*
 * Is @event counting on this CPU for the current context?  Software events
 * call this from their hooks before counting: they are on a per-CPU list
 * only while scheduled in, so only the hardware-state bit needs checking.
 */
static inline bool perf_event_is_counting(struct perf_event *event)
{
	return !(event->hw.state & PERF_HES_STOPPED);
}

#endif /* _KERNEL_EVENTS_SWEVENT_H */
