// SPDX-License-Identifier: GPL-2.0
/*
 * Controlling counting events: the ENABLE, DISABLE, RESET and ID ioctls
 * (alone and with PERF_IOC_FLAG_GROUP), an unknown ioctl, the
 * PR_TASK_PERF_EVENTS_DISABLE/ENABLE prctls, enable_on_exec, and that
 * close() gives everything back.
 *
 * Counts use the page-faults software event on fresh anonymous pages,
 * one write per page: exactly one fault each, so counts are exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"

#define NR_PAGES	16
/* environment variable that turns an exec'd copy of us into a helper */
#define EXEC_CHILD_ENV	"PERF_IOCTL_PRCTL_EXEC_CHILD"
#define EXEC_CHILD_PAGES 32

static int open_event(__u64 config, pid_t pid, int group_fd, int disabled,
		      __u64 read_format)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = disabled;
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, pid, -1, group_fd, 0);
}

/*
 * Run once before any exact count: a test runs in a freshly forked
 * process, where the first write to a stack page and the first call into
 * a code page each fault. Going through the same calls once takes those
 * faults before anything is measured.
 */
static void warm_up(void)
{
	int fd;

	prefault_self();
	fd = open_event(PERF_COUNT_SW_DUMMY, 0, -1, 1, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	touch_fresh_pages(1);
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_read_count(fd);
	close(fd);
}

/*
 * The exec'd copy: fault in a known number of pages and leave, before
 * the harness's main() ever runs.
 */
static void __attribute__((constructor)) exec_child(void)
{
	if (!getenv(EXEC_CHILD_ENV))
		return;
	touch_fresh_pages(EXEC_CHILD_PAGES);
	_exit(0);
}

TEST(enable_disable)
{
	int fd;

	warm_up();
	fd = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd);

	/* opened disabled: nothing counted */
	touch_fresh_pages(NR_PAGES);
	EXPECT_EQ(0, perf_read_count(fd));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd));

	/* disabled again: the count stays where it stopped */
	touch_fresh_pages(NR_PAGES);
	EXPECT_EQ(NR_PAGES, perf_read_count(fd));

	/* and carries on from there */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd));

	/* enabling twice, disabling twice: no error, no change */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd));
}

TEST(group_flag_enables_whole_group)
{
	int fd[3], i;

	warm_up();
	fd[0] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd[0]);
	for (i = 1; i < 3; i++) {
		fd[i] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, fd[0], 1, 0);
		ASSERT_LE(0, fd[i]);
	}

	/* without the flag only the leader starts */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(0, perf_read_count(fd[1]));
	EXPECT_EQ(0, perf_read_count(fd[2]));

	/* with it, every member */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[2]));

	/* and the group disable stopped every member */
	touch_fresh_pages(NR_PAGES);
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[2]));
}

TEST(reset_zeroes)
{
	int fd[3], i;

	warm_up();
	fd[0] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd[0]);
	for (i = 1; i < 3; i++) {
		fd[i] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, fd[0], 1, 0);
		ASSERT_LE(0, fd[i]);
	}
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_fresh_pages(NR_PAGES);

	/* reset of one event, while it counts: back to zero, then on */
	ASSERT_EQ(0, ioctl(fd[1], PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(0, perf_read_count(fd[1]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[2]));
	touch_fresh_pages(NR_PAGES);
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd[0]));

	/* reset of the leader with the group flag: all of them */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, perf_read_count(fd[i]));
}

TEST(id_stable_and_unique)
{
	__u64 id[4], again;
	int fd[4], i, j;

	fd[0] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd[0]);
	fd[1] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, fd[0], 1, 0);
	ASSERT_LE(0, fd[1]);
	/* the same event twice, still two ids */
	fd[2] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd[2]);
	fd[3] = open_event(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1, 0);
	ASSERT_LE(0, fd[3]);
	for (i = 0; i < 4; i++) {
		id[i] = 0;
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	}
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			EXPECT_NE(id[i], id[j]);

	/* stable across enable, disable and reset */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 4; i++) {
		again = 0;
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ID, &again));
		EXPECT_EQ(id[i], again);
	}

	/* a bad pointer is reported, not written through */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd[0], PERF_EVENT_IOC_ID, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST(unknown_ioctl_enotty)
{
	int fd;

	fd = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1, 0);
	ASSERT_LE(0, fd);
	/* perf's own ioctl type, a number it does not use */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0x7f), 0));
	EXPECT_EQ(ENOTTY, errno);
	/* some other driver's */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IOR('T', 0x42, int), 0));
	EXPECT_EQ(ENOTTY, errno);
}

TEST(prctl_disable_enable)
{
	int fd[2];

	warm_up();
	fd[0] = open_event(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 0, 0);
	ASSERT_LE(0, fd[0]);
	fd[1] = open_event(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, -1, 0, 0);
	ASSERT_LE(0, fd[1]);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd[1], PERF_EVENT_IOC_RESET, 0));
	touch_fresh_pages(NR_PAGES);
	EXPECT_EQ(0, perf_read_count(fd[0]));
	EXPECT_EQ(0, perf_read_count(fd[1]));

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));

	/* the ioctl still works on an event the prctl disabled */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(2 * NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));
}

TEST(enable_on_exec)
{
	__u64 fmt = PERF_FORMAT_TOTAL_TIME_ENABLED, v[2];
	struct perf_event_attr attr;
	int go[2], ready[2], fd, status;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static char *const argv[] = { "ioctl_prctl", NULL };
		static char *const envp[] = { EXEC_CHILD_ENV "=1", NULL };

		/* fault before the exec, then become the helper */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		touch_fresh_pages(4 * NR_PAGES);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	close(go[0]);
	close(ready[1]);

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = fmt;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_LE(0, fd);

	c = 'g';
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	/* the child faulted, but has not exec'd: nothing counted yet */
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(0, v[1]);

	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	/*
	 * After the exec the event was on: it saw at least the helper's
	 * own pages (plus the faults of loading the program, which we do
	 * not try to predict). The count survives the task's exit.
	 */
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_LE(EXEC_CHILD_PAGES, v[0]);
	EXPECT_LT(0, v[1]);
}

#define OPEN_CLOSE_LOOPS	10000
#define OPEN_CLOSE_MIN_LOOPS	500
#define OPEN_CLOSE_SECONDS	15

TEST(open_close_releases_everything)
{
	int fd, first, i, fails = 0;
	time_t end = time(NULL) + OPEN_CLOSE_SECONDS;

	/*
	 * If close() leaked the file, the fd number would climb: the next
	 * open would already get another number. A leaked event is for
	 * kmemleak (DEBUG=1) to report. The loop also stops after 15 s,
	 * well inside the harness's 30 s: a KASAN kernel under emulation
	 * opens and closes a few hundred events a second.
	 */
	first = open_event(PERF_COUNT_SW_CPU_CLOCK, 0, -1, 0, 0);
	ASSERT_LE(0, first);
	close(first);
	for (i = 0; i < OPEN_CLOSE_LOOPS; i++) {
		fd = open_event(i & 1 ? PERF_COUNT_SW_TASK_CLOCK :
			       PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 0, 0);
		if (fd != first) {
			fails++;
			if (fd < 0)
				break;
		}
		close(fd);
		if (!(i % 100) && time(NULL) > end)
			break;
	}
	EXPECT_EQ(0, fails) TH_LOG("stopped at %d: %s", i, strerror(errno));
	EXPECT_LE(OPEN_CLOSE_MIN_LOOPS, i);
}

TEST_HARNESS_MAIN
