/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiplexing: the per-PMU, per-CPU rotation timers (rotate.c).
 */
#ifndef _KERNEL_EVENTS_ROTATE_H
#define _KERNEL_EVENTS_ROTATE_H

#include <linux/perf_event.h>

/* rotate.c */
void perf_rotation_needed(struct pmu *pmu);
void perf_rotation_stop_cpu(void);
int perf_rotation_init(struct pmu *pmu);
void perf_rotation_free(struct pmu *pmu);

#endif /* _KERNEL_EVENTS_ROTATE_H */
