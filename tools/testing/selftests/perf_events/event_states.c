// SPDX-License-Identifier: GPL-2.0
/*
 * Event states as user space can see them.
 *
 *  OFF       disabled: read() works, the count does not move
 *  INACTIVE  enabled, waiting for its context to run
 *  ACTIVE    counting
 *  ERROR     a pinned group that could not get its counters: read()
 *            returns 0 bytes and poll() POLLHUP until ioctl(ENABLE)
 *            brings it back (ioctl(DISABLE) leaves it in ERROR)
 *  EXIT      the watched task exited: read() returns the final value,
 *            poll() POLLHUP, ioctl(ENABLE) changes nothing
 *  DEAD      being freed, after the last close: not visible
 *
 * poll() of an event without a ring buffer is POLLHUP in every state on
 * upstream, so the poll checks below map a buffer first: then a live
 * event with nothing to report polls as nothing, and only ERROR or EXIT
 * poll as POLLHUP.
 *
 * ERROR needs counters that run out: our test PMU (skipped without it).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define MAX_FDS		20

static int open_ev(__u32 type, __u64 config, pid_t pid, int cpu, int pinned)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.pinned = pinned;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* a child that burns CPU until the pipe @ctl writes to is closed */
static pid_t spawn_spinner(int *ctl)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char c;

		close(p[1]);
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		/* EAGAIN while the writer is open, end of file after */
		while (read(p[0], &c, 1) < 0)
			;
		_exit(0);
	}
	close(p[0]);
	*ctl = p[1];
	return pid;
}

TEST(exit_state_read_final_value_poll_hup)
{
	struct perf_value v1, v2;
	int fd, ctl, status;
	void *buf;
	pid_t pid;

	pid = spawn_spinner(&ctl);
	ASSERT_LT(0, pid);
	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, pid, -1, 0);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	sleep_ms(50);
	/* alive, with a buffer and nothing in it: no event */
	EXPECT_EQ(0, poll_now(fd));

	close(ctl);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(poll_now(fd) & POLLHUP);
	ASSERT_TRUE(perf_read_value(fd, &v1));
	EXPECT_LT(0, v1.count);
	EXPECT_LT(0, v1.enabled);

	/* nothing brings an exited event back */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_EQ(v1.count, v2.count);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_TRUE(poll_now(fd) & POLLHUP);
	perf_unmap_ring(buf, 1);
	close(fd);
}

TEST(off_state_holds_count_and_time)
{
	struct perf_value v1, v2;
	int fd;
	void *buf;

	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_TRUE(perf_read_value(fd, &v1));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_EQ(v1.count, v2.count);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(v1.running, v2.running);
	/* disabled is not hung up */
	EXPECT_EQ(0, poll_now(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(0, poll_now(fd));
	perf_unmap_ring(buf, 1);
	close(fd);
}

FIXTURE(tpmu) {
	int type, counters, nr;
	int fds[MAX_FDS];
};

FIXTURE_SETUP(tpmu)
{
	self->nr = 0;
	self->type = read_int(TEST_PMU_DIR "/type");
	self->counters = read_int(TEST_PMU_DIR "/caps/counters");
	if (self->type < 0 || self->counters < 1)
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
	ASSERT_GT(MAX_FDS, self->counters);
}

FIXTURE_TEARDOWN(tpmu)
{
	while (self->nr > 0)
		close(self->fds[--self->nr]);
}

TEST_F(tpmu, error_state_until_enabled_again)
{
	struct perf_value v1, v2;
	int i, fd;
	void *buf;

	/* every counter of CPU 0 pinned by a CPU event */
	for (i = 0; i < self->counters; i++) {
		fd = open_ev(self->type, 0, -1, 0, 1);
		ASSERT_LE(0, fd);
		self->fds[self->nr++] = fd;
	}
	fd = open_ev(self->type, 0, -1, 0, 1);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	sleep_ms(20);
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));
	EXPECT_TRUE(poll_now(fd) & POLLHUP);

	/* DISABLE does not leave ERROR */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));
	EXPECT_TRUE(poll_now(fd) & POLLHUP);

	/* a counter frees up, but ERROR stays until ENABLE */
	close(self->fds[--self->nr]);
	sleep_ms(20);
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v1));
	EXPECT_LT(0, v1.running);
	EXPECT_EQ(v1.enabled, v1.running);
	EXPECT_EQ(v1.running, v1.count);
	EXPECT_EQ(0, poll_now(fd));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_LT(v1.count, v2.count);
	perf_unmap_ring(buf, 1);
	close(fd);
}

/* a task's pinned event in ERROR comes back the same way */
TEST_F(tpmu, task_pinned_error_and_back)
{
	struct perf_value v;
	int i, fd;

	for (i = 0; i < self->counters; i++) {
		fd = open_ev(self->type, 0, -1, 0, 1);
		ASSERT_LE(0, fd);
		self->fds[self->nr++] = fd;
	}
	/* this task on CPU 0 only, so that it meets the full counters */
	fd = open_ev(self->type, 0, 0, 0, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pin_to_cpu(0));
	sleep_ms(20);
	EXPECT_EQ(0, read(fd, &v, sizeof(v)));
	close(self->fds[--self->nr]);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v));
	/* enabled time may include a spell on CPU 1 before the move */
	EXPECT_LT(0, v.running);
	EXPECT_EQ(v.running, v.count);
	close(fd);
}

TEST_HARNESS_MAIN
