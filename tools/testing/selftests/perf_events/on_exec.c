// SPDX-License-Identifier: GPL-2.0
/*
 * remove_on_exec on inherited copies.
 *
 * A monitor opens an inherit + remove_on_exec event on a target task; the
 * target forks a child, which gets a copy, and the child execs.  The exec
 * removes the copy from the child, and the copy must then be done with:
 * its count folded into the original (visible in the original's read
 * after the child is gone) and the copy taken off the original's list of
 * children, so that when the target exits too the monitor's poll() reports
 * POLLHUP.  A copy left on that list would hold POLLHUP back for as long
 * as the monitor keeps the event open.
 *
 * The event has a ring buffer, so POLLHUP can only come from the
 * hang-up condition: an event without one reports POLLHUP always.  An
 * inherited event may have one only when it is bound to a CPU, so the
 * event counts on CPU 0 and the target and its child run there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define EXEC_ENV	"PERF_ON_EXEC_CHILD"
#define CHILD_PAGES	64

/* the execed child: touch some pages (not counted: removed) and leave */
__attribute__((constructor)) static void exec_child(void)
{
	if (getenv(EXEC_ENV))
		_exit(0);
}

/* the target: wait for the go, fork a child that faults and execs, exit */
static void target(int go_fd)
{
	char c;
	pid_t pid;
	int status;

	if (pin_to_cpu(0))
		_exit(7);
	if (read(go_fd, &c, 1) != 1)
		_exit(2);
	pid = fork();
	if (pid == 0) {
		static const char * const argv[] = { "on_exec", NULL };
		static const char * const envp[] = { EXEC_ENV "=1", NULL };

		if (touch_fresh_pages(CHILD_PAGES))
			_exit(3);
		execve("/proc/self/exe", (char **)argv, (char **)envp);
		_exit(4);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		_exit(5);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 6);
}

TEST(exec_folds_inherited_copy_and_hangs_up)
{
	struct perf_event_attr attr;
	int go[2], fd, status;
	struct pollfd pfd;
	void *rb;
	uint64_t count;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		target(go[0]);
	}
	close(go[0]);

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.exclude_kernel = 1;
	attr.inherit = 1;
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, pid, 0, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	rb = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, rb);

	/* the target still lives: no hang-up yet */
	pfd.fd = fd;
	pfd.events = POLLIN;
	ASSERT_EQ(0, poll(&pfd, 1, 0));

	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	/* the child's faults before its exec reached the original */
	ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
	EXPECT_LE(CHILD_PAGES, count);

	/* target and child both gone, the copy folded: hang-up */
	EXPECT_EQ(1, poll(&pfd, 1, 2000));
	EXPECT_TRUE(pfd.revents & POLLHUP)
		TH_LOG("revents 0x%x: an inherited copy is still attached",
		       pfd.revents);

	perf_unmap_ring(rb, 1);
	close(fd);
	close(go[1]);
}

TEST_HARNESS_MAIN
