// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling, groups and multiplexing as user space sees them, on the
 * test PMU of our kernel (CONFIG_PERF_TEST_PMU): a few counters that count
 * running nanoseconds times a rate, so that every count is predictable
 * from time_running.  On a kernel without it (upstream, production
 * configs) every test skips.
 *
 * Such a count comes from the same context clock as time_running, so it
 * cannot tell whether time_running is right.  The scaling tests use the
 * PMU's "tick" counters instead (config:9): they count the expiries of the
 * PMU's own hrtimer while they are on, a measure the core does not take.
 * Scaled by time_enabled / time_running, such a count estimates what the
 * event would have counted alone, as on hardware, and time_enabled is
 * checked against the test's own clock.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define FIRST		0x100ULL	/* config:8 */
#define TICKS		0x200ULL	/* config:9 */
#define MAX_FDS		40
/* a tick count may be off by a tick per start and stop; TCG adds jitter */
#define TOLERANCE_PCT	10

#define F_PINNED	1
#define F_DISABLED	2

static int open_test(int type, __u64 config, int group, int flags)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.pinned = !!(flags & F_PINNED);
	attr.disabled = !!(flags & F_DISABLED);
	attr.read_format = READ_FORMAT_TIMES;
	/* CPU 0, every task: the counters are busy whatever runs there */
	return sys_perf_event_open(&attr, -1, 0, group, 0);
}

#define RUN_NS		(300 * 1000 * 1000ULL)

/* let the rotation timer (4 ms by default) run a few dozen times */
static void let_it_run(void)
{
	struct timespec ts = { 0, RUN_NS };

	nanosleep(&ts, NULL);
}

/* |a - b| within TOLERANCE_PCT percent of b */
static int close_to(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d * 100 <= b * TOLERANCE_PCT;
}

FIXTURE(mux) {
	int type, counters, nr;
	int fds[MAX_FDS];
};

FIXTURE_SETUP(mux)
{
	self->nr = 0;
	self->type = read_int(TEST_PMU_DIR "/type");
	self->counters = read_int(TEST_PMU_DIR "/caps/counters");
	if (self->type < 0 || self->counters < 1)
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
	ASSERT_GE(MAX_FDS / 3, self->counters);
}

FIXTURE_TEARDOWN(mux)
{
	while (self->nr > 0)
		close(self->fds[--self->nr]);
}

/* open one test_pmu event and remember it for the teardown */
static int add_fd(int *fds, int *nr, int type, __u64 config, int group,
		  int flags)
{
	int fd = open_test(type, config, group, flags);

	if (fd >= 0)
		fds[(*nr)++] = fd;
	return fd;
}

/*
 * As many tick counters as counters: none ever has to give its counter
 * up. Between two reads a sleep apart, time_running grows exactly as
 * time_enabled does, and the ticks counted (the PMU's measure, not the
 * core's) cover that whole stretch of the test's clock: an event switched
 * out for a while would have missed the ticks of that while.
 */
TEST_F(mux, within_capacity_never_multiplexed)
{
	struct perf_value v0[MAX_FDS], v1;
	uint64_t t0, t1, wall;
	int i;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type,
				    TICKS | 1, -1, 0));
	t0 = now_ns();
	for (i = 0; i < self->nr; i++)
		ASSERT_TRUE(perf_read_value(self->fds[i], &v0[i]));
	let_it_run();
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v1));
		t1 = now_ns();
		wall = t1 - t0;
		EXPECT_LT(0, v1.running);
		EXPECT_EQ(v1.enabled, v1.running);
		EXPECT_EQ(v1.enabled - v0[i].enabled,
			  v1.running - v0[i].running);
		EXPECT_LE(v1.enabled - v0[i].enabled, wall);
		EXPECT_TRUE(close_to(v1.count - v0[i].count, wall))
			TH_LOG("event %d: %llu ticks-ns in %llu ns of the clock",
			       i, (unsigned long long)(v1.count - v0[i].count),
			       (unsigned long long)wall);
	}
}

/*
 * Tick counters that always have a counter: the count (ticks of the
 * PMU's own timer) agrees with time_running, and both with the clock.
 */
TEST_F(mux, tick_count_matches_running)
{
	uint64_t t0, t1;
	struct perf_value v;
	int i;

	t0 = now_ns();
	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type,
				    TICKS | 1, -1, 0));
	let_it_run();
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		t1 = now_ns();
		EXPECT_EQ(v.enabled, v.running);
		EXPECT_LE(v.enabled, t1 - t0);
		EXPECT_LE(RUN_NS, v.enabled);
		EXPECT_TRUE(close_to(v.count, v.running))
			TH_LOG("event %d: %llu ticks-ns in %llu ns running", i,
			       (unsigned long long)v.count,
			       (unsigned long long)v.running);
	}
}

/*
 * More tick counters than counters: each runs part of the time, and its
 * count scaled by enabled / running estimates the whole enabled time (at
 * rate 3), which the test's clock bounds.
 */
TEST_F(mux, overcommit_rotates_and_scales)
{
	uint64_t t0, t1, scaled, sum_running = 0;
	struct perf_value v;
	int i;

	t0 = now_ns();
	for (i = 0; i < self->counters + 2; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type,
				    TICKS | 3, -1, 0));
	let_it_run();
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		t1 = now_ns();
		EXPECT_LT(0, v.running);
		EXPECT_LT(v.running, v.enabled);
		EXPECT_LE(v.enabled, t1 - t0);
		EXPECT_LE(RUN_NS, v.enabled);
		ASSERT_LT(0, v.running);
		sum_running += v.running;
		/* the estimate of what it would have counted alone */
		scaled = (uint64_t)((double)v.count * v.enabled / v.running);
		EXPECT_TRUE(close_to(scaled, 3 * v.enabled))
			TH_LOG("event %d: count %llu enabled %llu running %llu",
			       i, (unsigned long long)v.count,
			       (unsigned long long)v.enabled,
			       (unsigned long long)v.running);
	}
	/* the counters were busy all the time: running adds up to them */
	EXPECT_TRUE(close_to(sum_running, self->counters * v.enabled))
		TH_LOG("running %llu in all, %d counters * %llu enabled",
		       (unsigned long long)sum_running, self->counters,
		       (unsigned long long)v.enabled);
}

TEST_F(mux, group_too_big_is_einval)
{
	int leader, i;

	leader = add_fd(self->fds, &self->nr, self->type, 0, -1, 0);
	ASSERT_LE(0, leader);
	for (i = 1; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type, 0, leader, 0));
	EXPECT_EQ(-1, open_test(self->type, 0, leader, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(mux, groups_run_as_a_unit)
{
	int lead[2], g, i, base;
	struct perf_value v, first;

	/*
	 * Two full-size groups, so only one can be on at a time.  As perf
	 * does, the leaders start disabled and the members enabled: enabling
	 * a leader puts its whole group on at once.
	 */
	for (g = 0; g < 2; g++) {
		lead[g] = add_fd(self->fds, &self->nr, self->type, 0, -1,
				 F_DISABLED);
		ASSERT_LE(0, lead[g]);
		for (i = 1; i < self->counters; i++)
			ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type,
					    0, lead[g], 0));
	}
	for (g = 0; g < 2; g++)
		ASSERT_EQ(0, ioctl(lead[g], PERF_EVENT_IOC_ENABLE, 0));
	let_it_run();
	for (g = 0; g < 2; g++)
		ASSERT_EQ(0, ioctl(lead[g], PERF_EVENT_IOC_DISABLE, 0));
	for (g = 0; g < 2; g++) {
		base = g * self->counters;
		ASSERT_TRUE(perf_read_value(self->fds[base], &first));
		EXPECT_LT(0, first.running);
		EXPECT_LT(first.running, first.enabled);
		/* every member ran exactly when its leader did */
		for (i = 1; i < self->counters; i++) {
			ASSERT_TRUE(perf_read_value(self->fds[base + i], &v));
			EXPECT_EQ(first.running, v.running);
		}
	}
}

TEST_F(mux, pinned_that_cannot_fit_is_in_error)
{
	struct pollfd pfd[2];
	void *buf[2];
	struct perf_value v;
	int i, fd;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type, 0, -1, 1));
	fd = add_fd(self->fds, &self->nr, self->type, 0, -1, 1);
	ASSERT_LE(0, fd);
	/*
	 * Ring buffers on the last event and on one that fits: without
	 * one, poll() says POLLHUP in any state, so only with one does
	 * POLLHUP say something about the state.
	 */
	buf[0] = perf_map_ring(self->fds[0], 1);
	ASSERT_NE(MAP_FAILED, buf[0]);
	buf[1] = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf[1]);
	let_it_run();
	/* a pinned event that could not go on reads as end of file */
	EXPECT_EQ(0, read(fd, &v, sizeof(v)));
	pfd[0].fd = self->fds[0];
	pfd[1].fd = fd;
	pfd[0].events = POLLIN;
	pfd[1].events = POLLIN;
	ASSERT_EQ(1, poll(pfd, 2, 0));
	EXPECT_EQ(0, pfd[0].revents);
	EXPECT_TRUE(pfd[1].revents & POLLHUP);
	/* the others count undisturbed */
	ASSERT_TRUE(perf_read_value(self->fds[0], &v));
	EXPECT_EQ(v.enabled, v.running);
	perf_unmap_ring(buf[0], 1);
	perf_unmap_ring(buf[1], 1);
}

TEST_F(mux, pinned_beats_flexible)
{
	struct perf_value v;
	int i, flex;

	flex = add_fd(self->fds, &self->nr, self->type, 0, -1, 0);
	ASSERT_LE(0, flex);
	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type, 0, -1, 1));
	let_it_run();
	for (i = 1; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		EXPECT_EQ(v.enabled, v.running);
	}
	/* the flexible event gave its counter to the pinned ones */
	ASSERT_TRUE(perf_read_value(flex, &v));
	EXPECT_LT(v.running, v.enabled);
}

TEST_F(mux, counter_constraint_multiplexes)
{
	struct perf_value v;
	int i;

	/* both want counter 0 although the others are free */
	ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type, FIRST, -1, 0));
	ASSERT_LE(0, add_fd(self->fds, &self->nr, self->type, FIRST, -1, 0));
	let_it_run();
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		EXPECT_LT(0, v.running);
		EXPECT_LT(v.running, v.enabled);
	}
}

/*
 * The test PMU interrupts from an hrtimer, so sampling events open (their
 * overflows are tested in refresh_period.c), in frequency mode too (freq.c).
 */
TEST_F(mux, sampling_and_freq_accepted)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, self->type, 0);
	attr.sample_period = 1000000;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_LE(0, fd);
	close(fd);
	attr.freq = 1;
	attr.sample_freq = 100;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
