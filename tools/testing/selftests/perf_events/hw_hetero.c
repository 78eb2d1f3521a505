// SPDX-License-Identifier: GPL-2.0
/*
 * Heterogeneous core PMUs (F22): a machine with more than one kind of CPU
 * has one core PMU per kind, each with its own type and its own "cpus"
 * attribute, and an event of one PMU only counts on that PMU's CPUs.
 *
 * Runs in the rig's arm64 "hetero" boot, whose device tree splits the CPUs
 * between two PMU nodes (rig/arm64-hetero-dtb.py: a Cortex-A55 PMU on
 * CPU0 and a Cortex-A76 PMU on CPU1, each with its own SPI). QEMU wires
 * the PMU's overflow to a PPI, so those SPIs never fire: everything here
 * counts, nothing samples. With fewer than two core PMUs there is nothing
 * to test and every test SKIPs (a failure in that boot).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "core_pmus.h"

#define BURN_NS		(30 * 1000 * 1000ULL)

FIXTURE(hetero) {
	struct core_pmu pmus[MAX_PMUS];
	int n;
	/* two PMUs and a CPU of each */
	struct core_pmu *a, *b;
	int cpu_a, cpu_b;
};

FIXTURE_SETUP(hetero)
{
	self->n = find_core_pmus(self->pmus);
	if (self->n < 2)
		SKIP(return, "%d core PMU(s): not a heterogeneous system",
		     self->n);
	self->a = &self->pmus[0];
	self->b = &self->pmus[1];
	self->cpu_a = first_cpu(&self->a->cpus);
	self->cpu_b = first_cpu(&self->b->cpus);
	ASSERT_GE(self->cpu_a, 0);
	ASSERT_GE(self->cpu_b, 0);
}

FIXTURE_TEARDOWN(hetero)
{
}

/*
 * A cycles event of @type for the calling thread, any CPU, enabled once
 * the thread is on @cpu; -1 on failure.
 */
static int open_task_cycles(__u32 type, __u64 config, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, type, config);
	attr.read_format = READ_FORMAT_TIMES;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	if (pin_to_cpu(cpu) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* spin on @cpu; then the event's count and times */
static bool burn_on(int cpu, int fd, struct perf_value *v)
{
	if (pin_to_cpu(cpu))
		return false;
	burn_cpu(BURN_NS);
	return perf_read_value(fd, v);
}

/* Every CPU is in exactly one core PMU's cpus, and every PMU has some. */
TEST_F(hetero, cpus_partition_the_machine)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int i, j, cpu;

	for (i = 0; i < self->n; i++) {
		EXPECT_GT(CPU_COUNT(&self->pmus[i].cpus), 0)
			TH_LOG("%s has no CPUs", self->pmus[i].name);
		for (j = i + 1; j < self->n; j++) {
			cpu_set_t both;

			CPU_AND(&both, &self->pmus[i].cpus, &self->pmus[j].cpus);
			EXPECT_EQ(CPU_COUNT(&both), 0)
				TH_LOG("%s and %s share CPUs", self->pmus[i].name,
				       self->pmus[j].name);
		}
	}
	for (cpu = 0; cpu < online; cpu++) {
		int owners = 0;

		for (i = 0; i < self->n; i++)
			owners += !!CPU_ISSET(cpu, &self->pmus[i].cpus);
		EXPECT_EQ(owners, 1) TH_LOG("CPU%d is in %d PMUs", cpu, owners);
	}
	EXPECT_NE(self->a->type, self->b->type);
}

/* A CPU-wide event of a PMU opens on its CPUs and nowhere else (ENOENT). */
TEST_F(hetero, cpu_event_only_on_own_cpus)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, self->a->type, PMUV3_CPU_CYCLES);
	fd = sys_perf_event_open(&attr, -1, self->cpu_a, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s on CPU%d: %m", self->a->name, self->cpu_a);
	close(fd);

	fd = sys_perf_event_open(&attr, -1, self->cpu_b, -1, 0);
	EXPECT_EQ(fd, -1) TH_LOG("%s opened on CPU%d", self->a->name,
				 self->cpu_b);
	EXPECT_EQ(errno, ENOENT);
	if (fd >= 0)
		close(fd);
}

/*
 * A task event of PMU a counts while its task runs on a's CPUs and is
 * not scheduled at all (time_running stands still) while it runs on b's.
 */
TEST_F(hetero, task_counts_only_on_own_cpus)
{
	struct perf_value v0, v1, v2;
	int fd;

	fd = open_task_cycles(self->a->type, PMUV3_CPU_CYCLES, self->cpu_b);
	ASSERT_GE(fd, 0) TH_LOG("%s: %m", self->a->name);

	ASSERT_TRUE(burn_on(self->cpu_b, fd, &v0));
	EXPECT_EQ(v0.count, 0);
	EXPECT_EQ(v0.running, 0);
	EXPECT_GE(v0.enabled, BURN_NS);

	ASSERT_TRUE(burn_on(self->cpu_a, fd, &v1));
	EXPECT_GT(v1.count, 0);
	EXPECT_GE(v1.running, BURN_NS);
	EXPECT_LT(v1.running, v1.enabled);

	/* and back: nothing more while on b (but the way there) */
	ASSERT_TRUE(burn_on(self->cpu_b, fd, &v2));
	EXPECT_LT(v2.count - v1.count, v1.count / 4);
	EXPECT_LT(v2.running - v1.running, BURN_NS / 2);
	close(fd);
}

/*
 * PERF_TYPE_HARDWARE with the PMU's type in config[63:32] (the extended
 * type perf uses on hybrid machines) goes to that PMU: it counts cycles
 * on that PMU's CPU and not on the other's.
 */
TEST_F(hetero, extended_hw_type_picks_pmu)
{
	struct perf_value va, vb;
	__u64 config = (__u64)self->b->type << PERF_PMU_TYPE_SHIFT |
		       PERF_COUNT_HW_CPU_CYCLES;
	int fd;

	fd = open_task_cycles(PERF_TYPE_HARDWARE, config, self->cpu_a);
	ASSERT_GE(fd, 0) TH_LOG("cycles of %s: %m", self->b->name);

	ASSERT_TRUE(burn_on(self->cpu_a, fd, &va));
	EXPECT_EQ(va.count, 0);
	EXPECT_EQ(va.running, 0);

	ASSERT_TRUE(burn_on(self->cpu_b, fd, &vb));
	EXPECT_GT(vb.count, 0);
	EXPECT_GE(vb.running, BURN_NS);
	close(fd);
}

/* the number of the first "arm-pmu" interrupt after @after, or -1 */
static int next_pmu_irq(int after)
{
	char line[4096];
	FILE *f = fopen("/proc/interrupts", "r");
	int irq = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = line;
		int n;

		while (isspace(*s))
			s++;
		if (!isdigit(*s) || !strstr(line, "arm-pmu"))
			continue;
		n = atoi(s);
		if (n > after) {
			irq = n;
			break;
		}
	}
	fclose(f);
	return irq;
}

/*
 * With one SPI per CPU, each PMU interrupt is routed to its own CPU only:
 * one "arm-pmu" interrupt per CPU, each with a one-CPU affinity, together
 * covering every CPU.
 */
TEST_F(hetero, one_interrupt_per_cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char path[64], buf[64];
	cpu_set_t seen, one;
	int irq = -1, n = 0;

	CPU_ZERO(&seen);
	while ((irq = next_pmu_irq(irq)) >= 0) {
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
			 irq);
		ASSERT_GE(read_file(path, buf, sizeof(buf)), 0);
		ASSERT_TRUE(parse_cpu_list(buf, &one));
		EXPECT_EQ(CPU_COUNT(&one), 1) TH_LOG("IRQ %d on CPUs %s",
						     irq, buf);
		CPU_OR(&seen, &seen, &one);
		n++;
	}
	EXPECT_EQ(n, online);
	EXPECT_EQ(CPU_COUNT(&seen), online);
}

/*
 * Taking a CPU down and up again brings its PMU back: its events count
 * there again afterwards, and the PMU still lists it.
 */
TEST_F(hetero, cpu_hotplug_keeps_pmu)
{
	struct core_pmu *p = self->cpu_b ? self->b : self->a;
	int cpu = self->cpu_b ? self->cpu_b : self->cpu_a;
	struct core_pmu again[MAX_PMUS];
	struct perf_value v;
	char path[96];
	int fd, i;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (access(path, W_OK))
		SKIP(return, "CPU%d cannot be taken offline", cpu);
	ASSERT_EQ(pin_to_cpu(cpu ? 0 : 1), 0);
	ASSERT_EQ(write_file(path, "0"), 0);
	ASSERT_EQ(write_file(path, "1"), 0);

	ASSERT_EQ(find_core_pmus(again), self->n);
	for (i = 0; i < self->n; i++)
		if (again[i].type == p->type)
			EXPECT_TRUE(CPU_ISSET(cpu, &again[i].cpus));

	fd = open_task_cycles(p->type, PMUV3_CPU_CYCLES, cpu);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(burn_on(cpu, fd, &v));
	EXPECT_GT(v.count, 0);
	EXPECT_GE(v.running, BURN_NS);
	close(fd);
}

TEST_HARNESS_MAIN
