/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiplexing: the per-PMU, per-CPU rotation timers, and the
 * exclusive group a PMU runs (rotate.c).
 */
#ifndef _KERNEL_EVENTS_ROTATE_H
#define _KERNEL_EVENTS_ROTATE_H

#include <linux/perf_event.h>

/* rotate.c */
void perf_rotation_needed(struct pmu *pmu);
struct perf_event *perf_pmu_exclusive(struct pmu *pmu);
void perf_pmu_set_exclusive(struct pmu *pmu, struct perf_event *leader);
void perf_rotation_stop_cpu(void);
int perf_rotation_init(struct pmu *pmu);
void perf_rotation_free(struct pmu *pmu);

#endif /* _KERNEL_EVENTS_ROTATE_H */
