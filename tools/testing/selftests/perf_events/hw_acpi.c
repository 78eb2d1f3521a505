// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 core PMUs of an ACPI system: no PMU device exists there, the
 * kernel builds one PMU per CPU type from the MADT (each CPU's PMU
 * interrupt) and the CPUs' MIDR_EL1, and names them armv8_pmuv3_<n>.
 *
 * Runs in the rig's arm64 "acpi" boot (UEFI firmware, acpi=force): every
 * CPU type gets its PMU, every CPU counts, and every CPU's overflow
 * interrupt arrives (samples reach the ring buffer). With no
 * armv8_pmuv3_<n> PMU the kernel did not probe ACPI and every test SKIPs
 * (a failure in that boot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "core_pmus.h"

#define BURN_NS		(20 * 1000 * 1000ULL)
#define RING_PAGES	4

FIXTURE(acpi) {
	struct core_pmu pmus[MAX_PMUS];
	int n;
};

FIXTURE_SETUP(acpi)
{
	int i;

	self->n = find_core_pmus(self->pmus);
	for (i = 0; i < self->n; i++)
		if (strncmp(self->pmus[i].name, "armv8_pmuv3_", 12))
			break;
	if (!self->n || i < self->n)
		SKIP(return, "not the PMUs of an ACPI system (%d core PMUs)",
		     self->n);
}

FIXTURE_TEARDOWN(acpi)
{
}

/* MIDR_EL1 of @cpu from sysfs, 0 when unknown */
static unsigned long long cpu_midr(int cpu)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	if (read_file(path, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 0);
}

/*
 * The PMUs split the online CPUs by MIDR: each PMU's CPUs share one MIDR
 * that no other PMU's CPUs have, and every online CPU has a PMU.
 */
TEST_F(acpi, one_pmu_per_cpu_type)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long midr[MAX_PMUS];
	int i, j, cpu, covered = 0;

	for (i = 0; i < self->n; i++) {
		cpu = first_cpu(&self->pmus[i].cpus);
		ASSERT_GE(cpu, 0) TH_LOG("%s has no CPUs", self->pmus[i].name);
		midr[i] = cpu_midr(cpu);
		ASSERT_NE(midr[i], 0);
		for (; cpu < CPU_SETSIZE; cpu++) {
			if (!CPU_ISSET(cpu, &self->pmus[i].cpus))
				continue;
			covered++;
			EXPECT_EQ(cpu_midr(cpu), midr[i])
				TH_LOG("CPU%d in %s", cpu, self->pmus[i].name);
		}
		for (j = 0; j < i; j++)
			EXPECT_NE(midr[j], midr[i]);
	}
	EXPECT_EQ(covered, online);
}

/* A CPU-wide cycles event of its PMU counts on every CPU. */
TEST_F(acpi, counts_on_every_cpu)
{
	struct perf_event_attr attr;
	int i, cpu, fd;

	for (i = 0, cpu = -1; next_pmu_cpu(self->pmus, self->n, &i, &cpu);) {
		perf_attr_init(&attr, self->pmus[i].type, PMUV3_CPU_CYCLES);
		fd = sys_perf_event_open(&attr, -1, cpu, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("%s CPU%d: %m", self->pmus[i].name, cpu);
		ASSERT_EQ(pin_to_cpu(cpu), 0);
		burn_cpu(BURN_NS);
		EXPECT_GT(perf_read_count(fd), 0)
			TH_LOG("%s CPU%d", self->pmus[i].name, cpu);
		close(fd);
	}
}

/*
 * Each CPU's overflow interrupt arrives: a sampling cycles event of the
 * thread, pinned to the CPU, fills the ring buffer with samples.
 */
TEST_F(acpi, samples_on_every_cpu)
{
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	int i, cpu, fd;

	for (i = 0, cpu = -1; next_pmu_cpu(self->pmus, self->n, &i, &cpu);) {
		ASSERT_EQ(pin_to_cpu(cpu), 0);
		perf_attr_init(&attr, self->pmus[i].type, PMUV3_CPU_CYCLES);
		attr.sample_period = 1000000;
		attr.sample_type = PERF_SAMPLE_IP;
		attr.disabled = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("%s: %m", self->pmus[i].name);
		pg = perf_map_ring(fd, RING_PAGES);
		ASSERT_NE(pg, MAP_FAILED);
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
		burn_cpu(BURN_NS);
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
		EXPECT_GT(__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), 0)
			TH_LOG("no samples from %s on CPU%d",
			       self->pmus[i].name, cpu);
		perf_unmap_ring(pg, RING_PAGES);
		close(fd);
	}
}

TEST_HARNESS_MAIN
