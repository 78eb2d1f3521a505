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
 *    load registers it again.
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define MOD_PATH	"/tests/modules/perf_clock_pmu.ko"
#define MOD_NAME	"perf_clock_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/perf_clock"

static int load_module(void)
{
	int fd = open(MOD_PATH, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = syscall(__NR_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

static int unload_module(void)
{
	return syscall(__NR_delete_module, MOD_NAME, O_NONBLOCK);
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

FIXTURE(module) {
	long type;
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
}

FIXTURE_TEARDOWN(module)
{
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

TEST_HARNESS_MAIN
