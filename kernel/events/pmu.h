/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU registry (pmu.c).
 */
#ifndef _KERNEL_EVENTS_PMU_H
#define _KERNEL_EVENTS_PMU_H

#include <linux/perf_event.h>

/* pmu.c */
int perf_init_event(struct perf_event *event);
struct pmu *perf_pmu_by_type(int type);
int perf_pmu_sysfs_init(void);
void perf_pmu_for_each(void (*fn)(struct pmu *pmu, void *data), void *data);

#endif /* _KERNEL_EVENTS_PMU_H */
