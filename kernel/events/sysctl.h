/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sysctl knobs other files read (sysctl.c).
 */
#ifndef _KERNEL_EVENTS_SYSCTL_H
#define _KERNEL_EVENTS_SYSCTL_H

#include <linux/perf_event.h>

/* sysctl.c */
extern int perf_max_samples_per_tick;

#endif /* _KERNEL_EVENTS_SYSCTL_H */
