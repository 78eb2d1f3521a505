// SPDX-License-Identifier: GPL-2.0
/*
 * time_enabled and time_running: an event that is never multiplexed out
 * has exactly equal times, however often its task sleeps and runs again;
 * tools divide one by the other to scale counts, so any gap shows up as a
 * bogus "(99.9%)" next to every count.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

static int open_sw(__u64 config, pid_t pid, int disabled, int on_exec)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = disabled;
	attr.enable_on_exec = on_exec;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

/* sleep and wake many times: every wake-up is a context switch */
static void sleepy(int n)
{
	int i;

	for (i = 0; i < n; i++)
		usleep(200);
}

TEST(self_sleeping_enabled_equals_running)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0);
	struct perf_value v;

	ASSERT_LE(0, fd);
	sleepy(200);
	ASSERT_TRUE(perf_read_value(fd, &v));
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(other_task_enabled_equals_running)
{
	int go[2], fd;
	struct perf_value v;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		sleepy(200);
		_exit(0);
	}
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, pid, 0, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_TRUE(perf_read_value(fd, &v));
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(enable_on_exec_enabled_equals_running)
{
	int go[2], fd;
	struct perf_value v;
	pid_t pid;
	char c;

	/* the one reason to skip: nothing to exec */
	if (access("/bin/sh", X_OK))
		SKIP(return, "no /bin/sh to exec");
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static char * const argv[] = { "/bin/sh", "-c",
					       "for i in 1 2 3; do :; done",
					       NULL };

		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execv(argv[0], argv);
		_exit(127);
	}
	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, pid, 1, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_TRUE(perf_read_value(fd, &v));
	/* the exec enabled it: it ran the shell for a while */
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST_HARNESS_MAIN
