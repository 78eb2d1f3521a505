/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMUs with a scope: the CPU each event counts on (scope.c).
 */
#ifndef _KERNEL_EVENTS_SCOPE_H
#define _KERNEL_EVENTS_SCOPE_H

#include <linux/perf_event.h>

/* scope.c */
unsigned int perf_scope_pick(unsigned int scope, int cpu);
ssize_t perf_scope_show_cpumask(struct pmu *pmu, char *buf);
void perf_scope_cpu_up(unsigned int cpu);
void perf_scope_cpu_down(unsigned int cpu);

#endif /* _KERNEL_EVENTS_SCOPE_H */
