/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arm64 core PMUs a machine has, from sysfs: one per CPU type, each
 * named armv8_* or armv9_* with a "cpus" attribute (hw_hetero.c,
 * hw_acpi.c).
 */
#ifndef PERF_EVENTS_SELFTEST_CORE_PMUS_H
#define PERF_EVENTS_SELFTEST_CORE_PMUS_H

#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_test.h"

#define PMU_BUS		"/sys/bus/event_source/devices"
#define MAX_PMUS	8
/* the architected PMUv3 CPU_CYCLES event */
#define PMUV3_CPU_CYCLES	0x11

struct core_pmu {
	char name[256];
	int type;
	cpu_set_t cpus;
};

/* "0-2,5" into @set; false on anything else */
static inline bool parse_cpu_list(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s)
			return false;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				return false;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		s = end;
		if (*s == ',')
			s++;
	}
	return true;
}

/* the arm64 core PMUs: named armv8_* or armv9_*, with a cpus attribute */
static inline int find_core_pmus(struct core_pmu *pmus)
{
	char path[512], buf[256];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	dir = opendir(PMU_BUS);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < MAX_PMUS) {
		struct core_pmu *p = &pmus[n];

		if (strncmp(d->d_name, "armv8_", 6) &&
		    strncmp(d->d_name, "armv9_", 6))
			continue;
		snprintf(path, sizeof(path), PMU_BUS "/%s/cpus", d->d_name);
		if (read_file(path, buf, sizeof(buf)) < 0 ||
		    !parse_cpu_list(buf, &p->cpus))
			continue;
		snprintf(path, sizeof(path), PMU_BUS "/%s/type", d->d_name);
		if (read_file(path, buf, sizeof(buf)) < 0)
			continue;
		p->type = atoi(buf);
		snprintf(p->name, sizeof(p->name), "%s", d->d_name);
		n++;
	}
	closedir(dir);
	return n;
}

static inline int first_cpu(cpu_set_t *set)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			return cpu;
	return -1;
}

/*
 * Step to the next (PMU, CPU of that PMU) pair: *@i indexes @pmus[@n],
 * *@cpu is the CPU; start from *@i = 0, *@cpu = -1. False after the last.
 */
static inline bool next_pmu_cpu(struct core_pmu *pmus, int n, int *i,
				int *cpu)
{
	for (; *i < n; (*i)++, *cpu = -1)
		while (++*cpu < CPU_SETSIZE)
			if (CPU_ISSET(*cpu, &pmus[*i].cpus))
				return true;
	return false;
}

#endif /* PERF_EVENTS_SELFTEST_CORE_PMUS_H */
