/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address filters of tracer PMUs (addr_filter.c).
 */
#ifndef _KERNEL_EVENTS_ADDR_FILTER_H
#define _KERNEL_EVENTS_ADDR_FILTER_H

#include <linux/perf_event.h>

int perf_addr_filters_init(struct perf_event *event);
void perf_addr_filters_release(struct perf_event *event);
int perf_event_set_addr_filter(struct perf_event *event, char *str);
void perf_addr_filters_mmap(struct vm_area_struct *vma);
void perf_addr_filters_exec(void);

#endif /* _KERNEL_EVENTS_ADDR_FILTER_H */
