// SPDX-License-Identifier: GPL-2.0
/*
 * Exclusive PMUs (PERF_PMU_CAP_EXCLUSIVE): hardware that can trace for one
 * user at a time.  Per-task events and CPU events of such a PMU never
 * coexist (EBUSY at open, whichever came second), and within one context
 * two events conflict when their CPUs can meet (equal, or either is -1).
 * Different tasks may each have one.
 *
 * Our test PMU becomes exclusive while /sys/module/test_pmu/parameters/
 * exclusive is 1 (it can be changed only while the PMU has no events).
 * Kernels without the test PMU skip every test.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define PARAM		"/sys/module/test_pmu/parameters/exclusive"

/* a bool parameter reads back as Y or N */
static int read_param(void)
{
	FILE *f = fopen(PARAM, "r");
	int c;

	if (!f)
		return -1;
	c = fgetc(f);
	fclose(f);
	return c == 'Y' || c == '1';
}

static int write_param(const char *val)
{
	return write_file(PARAM, val) ? -1 : 0;
}

static int open_ex(int type, pid_t pid, int cpu, int group)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, 0);
	attr.disabled = 1;
	return sys_perf_event_open(&attr, pid, cpu, group, 0);
}

FIXTURE(excl) {
	int type;
	int set;
};

FIXTURE_SETUP(excl)
{
	self->set = 0;
	self->type = read_int(TEST_PMU_DIR "/type");
	if (self->type < 0)
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
	if (access(PARAM, W_OK))
		SKIP(return, "test_pmu cannot be made exclusive");
	/*
	 * No assertion after the switch is set: the teardown does not run
	 * when the setup fails, and the switch must not stay on.
	 */
	self->set = 1;
	if (write_param("1") || read_param() != 1) {
		write_param("0");
		self->set = 0;
		ASSERT_TRUE(0);
	}
}

FIXTURE_TEARDOWN(excl)
{
	if (self->set)
		write_param("0");
}

TEST_F(excl, task_event_blocks_cpu_events)
{
	int t, c;

	t = open_ex(self->type, 0, -1, -1);
	ASSERT_LE(0, t);
	EXPECT_EQ(-1, open_ex(self->type, -1, 0, -1));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open_ex(self->type, -1, 1, -1));
	EXPECT_EQ(EBUSY, errno);
	close(t);
	/* the last task event gone, CPU events may come */
	c = open_ex(self->type, -1, 0, -1);
	EXPECT_LE(0, c);
	close(c);
}

TEST_F(excl, cpu_event_blocks_task_events)
{
	int t, c;

	c = open_ex(self->type, -1, 0, -1);
	ASSERT_LE(0, c);
	EXPECT_EQ(-1, open_ex(self->type, 0, -1, -1));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open_ex(self->type, 0, 1, -1));
	EXPECT_EQ(EBUSY, errno);
	close(c);
	t = open_ex(self->type, 0, -1, -1);
	EXPECT_LE(0, t);
	close(t);
}

TEST_F(excl, one_per_cpu)
{
	int a, b;

	a = open_ex(self->type, -1, 0, -1);
	ASSERT_LE(0, a);
	EXPECT_EQ(-1, open_ex(self->type, -1, 0, -1));
	EXPECT_EQ(EBUSY, errno);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		b = open_ex(self->type, -1, 1, -1);
		EXPECT_LE(0, b);
		close(b);
	}
	close(a);
}

TEST_F(excl, one_per_task_where_cpus_meet)
{
	int a, b;

	a = open_ex(self->type, 0, -1, -1);
	ASSERT_LE(0, a);
	/* any CPU meets -1 */
	EXPECT_EQ(-1, open_ex(self->type, 0, -1, -1));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open_ex(self->type, 0, 0, -1));
	EXPECT_EQ(EBUSY, errno);
	/* as a group member too: the whole context is checked */
	EXPECT_EQ(-1, open_ex(self->type, 0, -1, a));
	EXPECT_EQ(EBUSY, errno);
	close(a);

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	a = open_ex(self->type, 0, 0, -1);
	ASSERT_LE(0, a);
	b = open_ex(self->type, 0, 1, -1);
	EXPECT_LE(0, b);
	EXPECT_EQ(-1, open_ex(self->type, 0, 0, -1));
	EXPECT_EQ(EBUSY, errno);
	close(b);
	close(a);
}

TEST_F(excl, different_tasks_each_have_one)
{
	int a, b, status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	a = open_ex(self->type, 0, -1, -1);
	EXPECT_LE(0, a);
	b = open_ex(self->type, pid, -1, -1);
	EXPECT_LE(0, b);
	close(b);
	close(a);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

TEST_F(excl, software_events_unaffected)
{
	struct perf_event_attr attr;
	int a, s;

	a = open_ex(self->type, 0, -1, -1);
	ASSERT_LE(0, a);
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	s = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_LE(0, s);
	close(s);
	s = sys_perf_event_open(&attr, 0, -1, a, 0);
	EXPECT_LE(0, s);
	close(s);
	close(a);
}

/* not exclusive: the same opens all succeed */
TEST_F(excl, not_exclusive_when_cleared)
{
	int fds[4], i;

	ASSERT_EQ(0, write_param("0"));
	fds[0] = open_ex(self->type, 0, -1, -1);
	fds[1] = open_ex(self->type, 0, -1, -1);
	fds[2] = open_ex(self->type, -1, 0, -1);
	fds[3] = open_ex(self->type, -1, 0, -1);
	for (i = 0; i < 4; i++) {
		EXPECT_LE(0, fds[i]);
		close(fds[i]);
	}
	/* and the switch refuses while the PMU has events */
	fds[0] = open_ex(self->type, 0, -1, -1);
	ASSERT_LE(0, fds[0]);
	EXPECT_EQ(-1, write_param("1"));
	close(fds[0]);
	EXPECT_EQ(0, write_param("1"));
}

TEST_HARNESS_MAIN
