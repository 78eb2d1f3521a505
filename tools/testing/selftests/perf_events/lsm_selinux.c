// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() and the event file under an enforcing SELinux policy
 * (F90): the perf_event class's permissions decide, as on upstream.
 *
 * The rig runs this in a boot of its own with SELinux on (rig/qemu.sh
 * MODE selinux).  The test loads rig/guest/selinux-perf.cil (compiled to
 * /tests/selinux/policy) and turns enforcing on, so the rest of that boot
 * runs under it.  The policy lets the one domain open and read its perf
 * events and nothing more:
 *  - a task event of user mode opens (open) and reads and maps (read);
 *  - an ioctl on it is refused (write: EACCES);
 *  - a CPU-wide event, kernel-mode counting and a tracepoint event are
 *    refused at open (cpu, kernel, tracepoint: EACCES).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define SELINUXFS	"/sys/fs/selinux"
#define POLICY		"/tests/selinux/policy"

/* load the policy once per boot and enforce it */
static int selinux_enforce(void)
{
	static char buf[1 << 16];
	struct stat st;
	ssize_t n;
	int in, out;

	mkdir(SELINUXFS, 0755);
	if (stat(SELINUXFS "/enforce", &st) &&
	    mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL))
		return -1;
	if (stat(SELINUXFS "/class/perf_event", &st)) {
		in = open(POLICY, O_RDONLY);
		if (in < 0)
			return -1;
		n = read(in, buf, sizeof(buf));
		close(in);
		out = open(SELINUXFS "/load", O_WRONLY);
		if (n <= 0 || out < 0)
			return -1;
		if (write(out, buf, n) != n) {
			close(out);
			return -1;
		}
		close(out);
	}
	return write_file(SELINUXFS "/enforce", "1");
}

static void task_attr(struct perf_event_attr *attr)
{
	perf_attr_user(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr->disabled = 0;
}

FIXTURE(se) {
	int dummy;
};

FIXTURE_SETUP(se)
{
	char mode[8] = "";

	ASSERT_EQ(selinux_enforce(), 0)
		TH_LOG("cannot load %s and enforce it: %s", POLICY, strerror(errno));
	ASSERT_EQ(read_file(SELINUXFS "/enforce", mode, sizeof(mode)), 0);
	ASSERT_EQ(mode[0], '1');
}

FIXTURE_TEARDOWN(se)
{
}

/* open and read are allowed: a user-mode task event counts and maps */
TEST_F(se, task_event_opens_and_reads)
{
	struct perf_event_attr attr;
	void *rb;
	int fd;

	task_attr(&attr);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	burn_cpu(1000000);
	EXPECT_GT(perf_read_count(fd), 0);
	rb = perf_map_ring(fd, 1);
	EXPECT_NE(rb, MAP_FAILED) TH_LOG("%s", strerror(errno));
	if (rb != MAP_FAILED)
		perf_unmap_ring(rb, 1);
	close(fd);
}

/* ioctl needs write */
TEST_F(se, ioctl_refused)
{
	struct perf_event_attr attr;
	int fd;

	task_attr(&attr);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), -1);
	EXPECT_EQ(errno, EACCES);
	close(fd);
}

TEST_F(se, cpu_event_refused)
{
	struct perf_event_attr attr;

	task_attr(&attr);
	EXPECT_EQ(sys_perf_event_open(&attr, -1, 0, -1, 0), -1);
	EXPECT_EQ(errno, EACCES);
}

TEST_F(se, kernel_counting_refused)
{
	struct perf_event_attr attr;

	task_attr(&attr);
	attr.exclude_kernel = 0;
	EXPECT_EQ(sys_perf_event_open(&attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EACCES);
}

TEST_F(se, tracepoint_refused)
{
	struct perf_event_attr attr;
	char id[32];

	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	ASSERT_EQ(read_file("/sys/kernel/tracing/events/sched/sched_switch/id",
			    id, sizeof(id)), 0);
	/* counting alone is no leak: the check is for samples with RAW data */
	perf_attr_init(&attr, PERF_TYPE_TRACEPOINT, strtoull(id, NULL, 10));
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.exclude_kernel = 1;
	EXPECT_EQ(sys_perf_event_open(&attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EACCES);
}

TEST_HARNESS_MAIN
