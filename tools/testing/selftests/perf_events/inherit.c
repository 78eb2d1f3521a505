// SPDX-License-Identifier: GPL-2.0
/*
 * attr.inherit: events follow a task into the children it forks, and the
 * children's counts are added to the parent's event, while they run (on
 * read) and when they exit (visible right after wait()).  Also: an event on
 * a task that exits reports POLLHUP once every task that inherited it has
 * exited too.
 *
 * Counts use minor page faults on fresh anonymous pages, which every
 * kernel counts exactly once per first touch.  Only lower bounds are
 * asserted where fork itself adds faults (copy-on-write of the stack).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define NR_PAGES	64
#define NR_CHILDREN	3

static int open_faults(pid_t pid, int inherit)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.disabled = 1;
	attr.inherit = inherit;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

static uint64_t read_count(int fd)
{
	struct perf_value v;

	return perf_read_value(fd, &v) ? v.count : UINT64_MAX;
}

/* touch NR_PAGES fresh pages: NR_PAGES minor faults */
static void touch_pages(void)
{
	if (touch_fresh_pages(NR_PAGES))
		_exit(2);
}

static void fork_toucher(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		touch_pages();
		_exit(0);
	}
}

static void wait_all(void)
{
	while (wait(NULL) > 0)
		;
}

TEST(children_counted_after_wait)
{
	int fd = open_faults(0, 1);
	uint64_t count;
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < NR_CHILDREN; i++)
		fork_toucher();
	wait_all();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = read_count(fd);
	EXPECT_LE(NR_CHILDREN * NR_PAGES, count);
	close(fd);
}

TEST(not_inherited_without_flag)
{
	int fd = open_faults(0, 0);
	uint64_t count;
	int i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < NR_CHILDREN; i++)
		fork_toucher();
	wait_all();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = read_count(fd);
	/* the parent only takes its own few copy-on-write faults */
	EXPECT_GT(NR_PAGES, count);
	close(fd);
}

TEST(live_child_included_in_read)
{
	int fd = open_faults(0, 1), ready[2], go[2];
	uint64_t live, after;
	pid_t pid;
	char c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		touch_pages();
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	live = read_count(fd);
	EXPECT_LE(NR_PAGES, live);
	ASSERT_EQ(1, write(go[1], "g", 1));
	wait_all();
	after = read_count(fd);
	EXPECT_LE(live, after);
	close(fd);
}

TEST(grandchildren_counted)
{
	int fd = open_faults(0, 1);
	uint64_t count;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fork_toucher();
		wait_all();
		_exit(0);
	}
	wait_all();
	count = read_count(fd);
	EXPECT_LE(NR_PAGES, count);
	close(fd);
}

TEST(disabled_parent_children_do_not_count)
{
	int fd = open_faults(0, 1);
	int i;

	ASSERT_LE(0, fd);
	for (i = 0; i < NR_CHILDREN; i++)
		fork_toucher();
	wait_all();
	EXPECT_EQ(0, read_count(fd));
	close(fd);
}

/*
 * POLLHUP means the event will count no more: its task exited and so did
 * every task that inherited it.  The event has a ring buffer (inherited
 * events have one only when bound to a CPU), since without one poll()
 * says POLLHUP in every state.  The monitored child forks a grandchild
 * that outlives it; this process is their subreaper, so that it can
 * reap the grandchild too.
 */
TEST(exited_target_pollhup)
{
	struct perf_event_attr attr;
	int go[2], go2[2], gpid[2], fd;
	struct pollfd pfd;
	pid_t pid, grand;
	void *buf;
	char c;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(go2));
	ASSERT_EQ(0, pipe(gpid));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		grand = fork();
		if (grand == 0) {
			if (read(go2[0], &c, 1) != 1)
				_exit(1);
			_exit(0);
		}
		if (write(gpid[1], &grand, sizeof(grand)) != sizeof(grand))
			_exit(1);
		_exit(0);
	}
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	fd = sys_perf_event_open(&attr, pid, 0, -1, 0);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* the child lives: no POLLHUP */
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(sizeof(grand), read(gpid[0], &grand, sizeof(grand)));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* the child is gone, its inherited copy in the grandchild is not */
	EXPECT_EQ(0, poll(&pfd, 1, 100));

	ASSERT_EQ(1, write(go2[1], "g", 1));
	ASSERT_EQ(grand, waitpid(grand, NULL, 0));
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_TRUE(pfd.revents & POLLHUP);
	/* the final value stays readable */
	EXPECT_NE(UINT64_MAX, read_count(fd));
	perf_unmap_ring(buf, 1);
	close(fd);
}

TEST_HARNESS_MAIN
