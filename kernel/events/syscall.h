/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open(): the attr and its checks (syscall.c).
 */
#ifndef _KERNEL_EVENTS_SYSCALL_H
#define _KERNEL_EVENTS_SYSCALL_H

#include <linux/perf_event.h>

/* valid attr.read_format bits (upstream's and our extension's), sample_type */
#define PERF_FORMAT_VALID	((u64)(PERF_FORMAT_MAX - 1) | PERF_FORMAT_LOSSES)
#define PERF_SAMPLE_VALID	(PERF_SAMPLE_MAX - 1)

/* u64s PERF_FORMAT_LOSSES adds to each value: lost, throttled, unscheduled */
#define PERF_LOSSES_FIELDS	3

/* syscall.c */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);

#endif /* _KERNEL_EVENTS_SYSCALL_H */
