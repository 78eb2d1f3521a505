/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint, kprobe and uprobe PMUs (tracepoint.c).
 */
#ifndef _KERNEL_EVENTS_TRACEPOINT_H
#define _KERNEL_EVENTS_TRACEPOINT_H

#include <linux/perf_event.h>

/* tracepoint.c */
int perf_tp_register(void);

#endif /* _KERNEL_EVENTS_TRACEPOINT_H */
