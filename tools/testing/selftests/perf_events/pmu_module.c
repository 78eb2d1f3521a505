// SPDX-License-Identifier: GPL-2.0
/*
 * A PMU in a loadable module (module/perf_clock_pmu.c, built by the rig
 * against the kernel under test and put in the initramfs as
 * /tests/modules/perf_clock_pmu.ko):
 *  - loading it registers the PMU: a sysfs directory with a dynamic type;
 *  - its events count (nanoseconds on the CPU, checked against task-clock
 *    over the same stretch);
 *  - the module cannot be removed while one of its events is open, and can
 *    once the last one is closed; its PMU is then gone (ENOENT) and a new
 *    load registers it again;
 *  - its second PMU, perf_clock_pkg, has a package scope: sysfs "cpumask"
 *    names one online CPU per package (the unscoped PMU has no cpumask),
 *    and a group opened there keeps counting, whole, on another CPU of
 *    the package when that CPU goes offline.  It needs a picked CPU that
 *    can go offline with another CPU of its package online: not so in the
 *    rig's x86 guest (one package, and CPU 0 stays), where it skips unless
 *    booted with SMP='4,sockets=2,cores=2'; KUnit's perf_sched_fake_pmu
 *    moves events directly on every arch.
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "module_load.h"
#include "perf_test.h"

#define MOD_PATH	"/tests/modules/perf_clock_pmu.ko"
#define MOD_NAME	"perf_clock_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/perf_clock"
#define PKG_DIR		"/sys/bus/event_source/devices/perf_clock_pkg"
#define CPU_DIR		"/sys/devices/system/cpu/cpu"

static int load_module(void)
{
	return test_module_load(MOD_PATH);
}

static int unload_module(void)
{
	return test_module_unload(MOD_NAME, 0);
}

static long pmu_type(void)
{
	long type;

	return read_long(PMU_DIR "/type", &type) ? -1 : type;
}

static int open_on(__u32 type, __u64 config)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Parse a sysfs CPU list ("0-3,6") into @set.  Return the CPU count. */
static int parse_cpulist(const char *path, cpu_set_t *set)
{
	char buf[256], *p, *end;
	long a, b;

	CPU_ZERO(set);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p && *p != '\n';) {
		a = strtol(p, &end, 10);
		if (end == p)
			return -1;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		p = *end == ',' ? end + 1 : end;
	}
	return CPU_COUNT(set);
}

static int package_of(int cpu, cpu_set_t *set)
{
	char path[96];

	snprintf(path, sizeof(path), CPU_DIR "%d/topology/package_cpus_list",
		 cpu);
	return parse_cpulist(path, set);
}

static int set_online(int cpu, bool on)
{
	char path[64];

	snprintf(path, sizeof(path), CPU_DIR "%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

FIXTURE(module) {
	long type;
	int offline_cpu;
};

FIXTURE_SETUP(module)
{
	/* a module left loaded by an earlier failure goes first */
	unload_module();
	ASSERT_EQ(access(PMU_DIR, F_OK), -1);
	ASSERT_EQ(load_module(), 0) TH_LOG("load %s: %s", MOD_PATH,
					   strerror(errno));
	self->type = pmu_type();
	ASSERT_GE(self->type, PERF_TYPE_MAX);
	self->offline_cpu = -1;
}

FIXTURE_TEARDOWN(module)
{
	/* a failed check must not leave a CPU offline for later tests */
	if (self->offline_cpu >= 0)
		set_online(self->offline_cpu, true);
	unload_module();
}

/* Its event counts time on the CPU, as task-clock does. */
TEST_F(module, counts_like_task_clock)
{
	int fd = open_on(self->type, 0);
	int tc = open_on(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	__u64 ns, ref;

	ASSERT_GE(fd, 0);
	ASSERT_GE(tc, 0);
	ioctl(tc, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	burn_cpu(50 * 1000 * 1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(tc, PERF_EVENT_IOC_DISABLE, 0);
	ns = perf_read_count(fd);
	ref = perf_read_count(tc);
	EXPECT_GT(ns, 40 * 1000 * 1000ull);
	/* the two bracket each other's window: within 10% */
	EXPECT_LT(ns, ref + ref / 10);
	EXPECT_GT(ns, ref - ref / 10);
	close(fd);
	close(tc);
}

/* What the PMU refuses: a config it has not, and sampling. */
TEST_F(module, refuses_what_it_cannot_do)
{
	struct perf_event_attr attr;

	EXPECT_EQ(open_on(self->type, 1), -1);
	EXPECT_EQ(errno, EINVAL);
	perf_attr_init(&attr, self->type, 0);
	attr.sample_period = 1000;
	EXPECT_EQ(sys_perf_event_open(&attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EINVAL);
}

/* An open event holds the module; closing the last one lets it go. */
TEST_F(module, event_holds_module)
{
	int fd = open_on(self->type, 0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(unload_module(), -1);
	EXPECT_EQ(errno, EWOULDBLOCK);
	EXPECT_EQ(access(PMU_DIR, F_OK), 0);
	close(fd);
	EXPECT_EQ(unload_module(), 0) TH_LOG("unload: %s", strerror(errno));
	EXPECT_EQ(access(PMU_DIR, F_OK), -1);
	/* its type now reaches no PMU */
	EXPECT_EQ(open_on(self->type, 0), -1);
	EXPECT_EQ(errno, ENOENT);

	/* and a new load registers it again, and it counts */
	ASSERT_EQ(load_module(), 0);
	fd = open_on(pmu_type(), 0);
	ASSERT_GE(fd, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	burn_cpu(5 * 1000 * 1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_GT(perf_read_count(fd), 0);
	close(fd);
}

/*
 * A PMU with a package scope publishes one online CPU per package, and
 * one without a scope publishes none.
 */
TEST_F(module, scope_cpumask_one_cpu_per_package)
{
	cpu_set_t picks, pkg, online;
	int cpu, n, in_pkg;

	EXPECT_EQ(access(PMU_DIR "/cpumask", F_OK), -1);
	ASSERT_GT(parse_cpulist(PKG_DIR "/cpumask", &picks), 0);
	ASSERT_GT(parse_cpulist("/sys/devices/system/cpu/online", &online), 0);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &picks))
			EXPECT_TRUE(CPU_ISSET(cpu, &online)) TH_LOG("cpu %d", cpu);
		if (!CPU_ISSET(cpu, &online))
			continue;
		n = package_of(cpu, &pkg);
		ASSERT_GT(n, 0);
		CPU_AND(&pkg, &pkg, &picks);
		in_pkg = CPU_COUNT(&pkg);
		EXPECT_EQ(in_pkg, 1) TH_LOG("package of cpu %d", cpu);
	}
}

struct pkg_read {
	__u64 nr, enabled, running, val[2];
};

/*
 * A group on the picked CPU of a package keeps counting when that CPU
 * goes offline: the pick moves to another CPU of the package, the group
 * moves with it, and a CPU coming back does not take the pick back.
 */
TEST_F(module, scope_events_follow_the_pick_offline)
{
	struct pkg_read r0, r1, r2;
	struct perf_event_attr attr;
	cpu_set_t picks, pkg, others;
	char path[64];
	int cpu, next, fd[2], i;
	long type;

	ASSERT_EQ(read_long(PKG_DIR "/type", &type), 0);
	ASSERT_GT(parse_cpulist(PKG_DIR "/cpumask", &picks), 0);
	/* a pick that can go offline and has another CPU to hand over to */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &picks))
			continue;
		snprintf(path, sizeof(path), CPU_DIR "%d/online", cpu);
		ASSERT_GT(package_of(cpu, &pkg), 0);
		CPU_XOR(&others, &pkg, &picks);
		CPU_AND(&others, &others, &pkg);
		if (!access(path, W_OK) && CPU_COUNT(&others))
			break;
	}
	if (cpu == CPU_SETSIZE)
		SKIP(return, "no picked CPU can go offline with another CPU of its package online");

	perf_attr_init(&attr, type, 0);
	attr.read_format = PERF_FORMAT_GROUP | READ_FORMAT_TIMES;
	fd[0] = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd[0], 0) TH_LOG("open on cpu %d: %s", cpu, strerror(errno));
	fd[1] = sys_perf_event_open(&attr, -1, cpu, fd[0], PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd[1], 0);
	usleep(20 * 1000);
	ASSERT_EQ(read(fd[0], &r0, sizeof(r0)), sizeof(r0));
	EXPECT_EQ(r0.nr, 2);
	EXPECT_GT(r0.val[0], 0);

	ASSERT_EQ(set_online(cpu, false), 0) TH_LOG("%s", strerror(errno));
	self->offline_cpu = cpu;

	/* the package's new pick: exactly one other CPU of it */
	ASSERT_GT(parse_cpulist(PKG_DIR "/cpumask", &picks), 0);
	CPU_AND(&picks, &picks, &pkg);
	ASSERT_EQ(CPU_COUNT(&picks), 1);
	for (next = 0; !CPU_ISSET(next, &picks); next++)
		;
	EXPECT_NE(next, cpu);

	ASSERT_EQ(read(fd[0], &r1, sizeof(r1)), sizeof(r1));
	usleep(50 * 1000);
	ASSERT_EQ(read(fd[0], &r2, sizeof(r2)), sizeof(r2));
	EXPECT_EQ(r2.nr, 2);
	/* the whole group counts on: enabled, running and both values */
	EXPECT_GT(r2.enabled - r1.enabled, 25 * 1000 * 1000ull);
	EXPECT_GT(r2.running - r1.running, 25 * 1000 * 1000ull);
	for (i = 0; i < 2; i++) {
		EXPECT_GE(r1.val[i], r0.val[i]);
		EXPECT_GT(r2.val[i] - r1.val[i], 25 * 1000 * 1000ull)
			TH_LOG("member %d", i);
	}

	ASSERT_EQ(set_online(cpu, true), 0);
	self->offline_cpu = -1;
	ASSERT_GT(parse_cpulist(PKG_DIR "/cpumask", &picks), 0);
	EXPECT_TRUE(CPU_ISSET(next, &picks)) TH_LOG("the pick went back");
	EXPECT_FALSE(CPU_ISSET(cpu, &picks));
	close(fd[1]);
	close(fd[0]);
}

TEST_HARNESS_MAIN
