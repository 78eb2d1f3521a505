// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() under the lockdown LSM in confidentiality mode (F90),
 * as a distribution's secure-boot kernel runs.  The rig runs this in a
 * boot of its own with lockdown=confidentiality on the command line
 * (rig/qemu.sh MODE lockdown): lockdown cannot be lifted at run time.
 *
 * Refused, as upstream refuses them: samples of the interrupted kernel
 * registers (PERF_SAMPLE_REGS_INTR: EPERM) and kprobe events (the kprobe
 * PMU: EPERM).  Allowed: everything else, here a sampling software event,
 * user registers and a uprobe.  (Tracepoint events open too, but their
 * ids are in tracefs, which this lockdown closes.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define SECURITYFS	"/sys/kernel/security"
#define PMU_DIR		"/sys/bus/event_source/devices/"

static int pmu_type(const char *name)
{
	char path[128];
	long type;

	snprintf(path, sizeof(path), PMU_DIR "%s/type", name);
	return read_long(path, &type) ? -1 : type;
}

static void sampling_attr(struct perf_event_attr *attr)
{
	perf_attr_init(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr->sample_period = 100000;
	attr->sample_type = PERF_SAMPLE_IP;
}

static int open_self(struct perf_event_attr *attr)
{
	return sys_perf_event_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

FIXTURE(lockdown) {
	int dummy;
};

FIXTURE_SETUP(lockdown)
{
	char mode[128];

	mkdir(SECURITYFS, 0755);
	mount("securityfs", SECURITYFS, "securityfs", 0, NULL);
	ASSERT_EQ(read_file(SECURITYFS "/lockdown", mode, sizeof(mode)), 0);
	/* this boot exists to be locked down: anything else is a rig bug */
	ASSERT_NE(strstr(mode, "[confidentiality]"), NULL)
		TH_LOG("lockdown is '%s', not confidentiality", mode);
}

FIXTURE_TEARDOWN(lockdown)
{
}

TEST_F(lockdown, regs_intr_refused)
{
	struct perf_event_attr attr;

	sampling_attr(&attr);
	attr.sample_type |= PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = 1;
	EXPECT_EQ(open_self(&attr), -1);
	EXPECT_EQ(errno, EPERM);
}

TEST_F(lockdown, kprobe_refused)
{
	struct perf_event_attr attr;
	int type = pmu_type("kprobe");

	ASSERT_GE(type, 0);
	perf_attr_init(&attr, type, 0);
	attr.kprobe_func = (__u64)(uintptr_t)"do_sys_openat2";
	EXPECT_EQ(open_self(&attr), -1);
	EXPECT_EQ(errno, EPERM);
}

/* what lockdown does not cover still opens */
TEST_F(lockdown, the_rest_allowed)
{
	struct perf_event_attr attr;
	char exe[4096];
	int fd, type;
	ssize_t n;

	sampling_attr(&attr);
	fd = open_self(&attr);
	EXPECT_GE(fd, 0) TH_LOG("sampling: %s", strerror(errno));
	close(fd);

	sampling_attr(&attr);
	attr.sample_type |= PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = 1;
	fd = open_self(&attr);
	EXPECT_GE(fd, 0) TH_LOG("user regs: %s", strerror(errno));
	close(fd);

	type = pmu_type("uprobe");
	ASSERT_GE(type, 0);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	perf_attr_init(&attr, type, 0);
	attr.uprobe_path = (__u64)(uintptr_t)exe;
	attr.probe_offset = self_file_offset(sampling_attr);
	ASSERT_GT(attr.probe_offset, 0);
	fd = open_self(&attr);
	EXPECT_GE(fd, 0) TH_LOG("uprobe: %s", strerror(errno));
	close(fd);
}

TEST_HARNESS_MAIN
