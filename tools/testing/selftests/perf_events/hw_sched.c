// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling on the CPU's own PMU (x86 "cpu", arm64 PMUv3): the
 * behaviours multiplex.c, exclusive.c and event_states.c check on our
 * test PMU, here on hardware counters, so that upstream runs them too.
 *
 * The events are cycles (PERF_TYPE_HARDWARE), which every such PMU
 * counts on its general-purpose counters and, where it has one, on a
 * cycle counter of its own (Intel's fixed counter 1, arm64's PMCCNTR).
 * How many can count at once is not assumed: the largest group of
 * cycles the driver accepts is the capacity (it refuses one member more
 * with EINVAL, hw_counting checks that), and every test derives its
 * numbers from it. The guests boot without the NMI watchdog, which would
 * hold one of those counters.
 *
 * Cycles count kernel time too (exclude_kernel 0): time_running does, so
 * that a count per nanosecond of running is the same whether rotation
 * (which runs in the kernel) takes a large share of the time or none.
 * Amounts are never assumed: the scaling test compares with a pinned
 * event counting in the same run.
 *
 * Without the CPU's PMU in sysfs every test SKIPs.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

/* no PMU has this many counters */
#define MAX_COUNTERS	32
#define MAX_FDS		(3 * MAX_COUNTERS)

/* CPU time each test burns: the rotation timer (4 ms) runs dozens of times */
#define BURN_NS		(300 * 1000 * 1000ULL)

#define F_PINNED	1
#define F_DISABLED	2
#define F_EXCLUSIVE	4

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* a cycles event of @pid on @cpu, reading its times */
static int open_cycles(pid_t pid, int cpu, int group, int flags)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.pinned = !!(flags & F_PINNED);
	attr.disabled = !!(flags & F_DISABLED);
	attr.exclusive = !!(flags & F_EXCLUSIVE);
	attr.exclude_hv = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, cpu, group, 0);
}

/*
 * How many cycles events count at once: the members of the largest
 * group of them the driver takes. All are enabled, as a disabled member
 * does not count when the driver checks that a group fits. 0 when the
 * first cannot open; -1 when the refusal is not EINVAL, or none comes.
 */
static int cycles_capacity(void)
{
	int fd[MAX_COUNTERS + 1], n, i, err = 0;

	for (n = 0; n <= MAX_COUNTERS; n++) {
		fd[n] = open_cycles(0, -1, n ? fd[0] : -1, 0);
		if (fd[n] < 0) {
			err = errno;
			break;
		}
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	if (n > MAX_COUNTERS || (n && err != EINVAL))
		return -1;
	return n;
}

/*
 * Events that never run at the same time: their time_running adds up
 * to no more than time_enabled. The events are enabled and disabled one
 * after the other, so one may run alone for the moment between two
 * enables or disables: 1% more is allowed. Two that run together add up
 * to twice time_enabled.
 */
static int took_turns(__u64 enabled, __u64 run0, __u64 run1)
{
	return (run0 + run1) * 100 <= enabled * 101;
}

/* |a - b| within @pct percent of b */
static int close_to(double a, double b, int pct)
{
	double d = a > b ? a - b : b - a;

	return d * 100 <= b * pct;
}

FIXTURE(hw) {
	int counters, nr;
	int fds[MAX_FDS];
};

FIXTURE_SETUP(hw)
{
	self->nr = 0;
	if (!hw_pmu_dir())
		SKIP(return, "no CPU PMU in sysfs");
	self->counters = cycles_capacity();
	TH_LOG("%d cycles events count at once", self->counters);
	ASSERT_LT(0, self->counters) TH_LOG("the cycles group probe failed");
	/* two groups of them and a few more must fit in fds[] */
	ASSERT_GE(MAX_FDS / 3, self->counters);
}

FIXTURE_TEARDOWN(hw)
{
	while (self->nr > 0)
		close(self->fds[--self->nr]);
}

/* open a cycles event and keep it for the teardown */
static int add_fd(struct _test_data_hw *self, pid_t pid, int cpu, int group,
		  int flags)
{
	int fd = open_cycles(pid, cpu, group, flags);

	if (fd >= 0)
		self->fds[self->nr++] = fd;
	return fd;
}

/*
 * This task's events, all opened disabled, enabled together around
 * @ns of CPU time, so that every one has the same time_enabled.
 */
static void run_all(struct __test_metadata *_metadata, __u64 ns)
{
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(ns);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
}

static void log_value(struct __test_metadata *_metadata, const char *what,
		      int i, struct perf_value *v)
{
	TH_LOG("%s %d: count %llu enabled %llu running %llu", what, i,
	       (unsigned long long)v->count, (unsigned long long)v->enabled,
	       (unsigned long long)v->running);
}

TEST_F(hw, within_capacity_never_multiplexed)
{
	struct perf_value v;
	int i;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, 0, -1, -1, F_DISABLED));
	run_all(_metadata, BURN_NS);
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		log_value(_metadata, "event", i, &v);
		EXPECT_LT(0, v.running);
		EXPECT_EQ(v.enabled, v.running);
		EXPECT_LT(0, v.count);
	}
}

/*
 * Two more flexible events than the counters left beside one pinned
 * event: each flexible one runs part of the time; scaled by enabled /
 * running its count estimates, within 5%, what the pinned one (always
 * on, in the same run, under the same rotation) counted in the same
 * time_enabled; and the counters were never idle, so the flexible
 * events' time_running adds up to (capacity - 1) * time_enabled.
 *
 * The reference is measured in the same run, not by a lone event
 * before it: on a debug kernel every rotation is slow, and the time the
 * PMU spends disabled around it is running time for every event on
 * the CPU, so cycles per running nanosecond drop for pinned and
 * flexible alike, by 20% and more under lockdep and KASAN.
 */
TEST_F(hw, overcommit_rotates_and_scales)
{
	double scaled, expect, sum_running = 0;
	struct perf_value pin, v;
	int i, flexible;

	if (self->counters < 2)
		SKIP(return, "one counter: a pinned event leaves none to share");
	ASSERT_LE(0, add_fd(self, 0, -1, -1, F_DISABLED | F_PINNED));
	flexible = self->counters + 1;
	for (i = 0; i < flexible; i++)
		ASSERT_LE(0, add_fd(self, 0, -1, -1, F_DISABLED));
	run_all(_metadata, BURN_NS);
	ASSERT_TRUE(perf_read_value(self->fds[0], &pin));
	log_value(_metadata, "pinned", 0, &pin);
	ASSERT_EQ(pin.enabled, pin.running);
	ASSERT_LT(0, pin.count);
	for (i = 1; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		log_value(_metadata, "event", i, &v);
		EXPECT_LT(0, v.running);
		EXPECT_LT(v.running, v.enabled);
		ASSERT_LT(0, v.running);
		sum_running += v.running;
		scaled = (double)v.count * v.enabled / v.running;
		expect = (double)pin.count * v.enabled / pin.enabled;
		EXPECT_TRUE(close_to(scaled, expect, 5))
			TH_LOG("event %d: scaled %.0f, pinned %.0f", i, scaled,
			       expect);
	}
	EXPECT_TRUE(close_to(sum_running,
			     (double)(self->counters - 1) * v.enabled, 10))
		TH_LOG("running %.0f in all, %d counters * %llu enabled",
		       sum_running, self->counters - 1,
		       (unsigned long long)v.enabled);
}

/*
 * Two groups that each take every counter: only one can be on at a
 * time. Every member runs exactly when its leader does, the members
 * count together (their counts agree within 5%), and the two groups
 * take turns: their time_running adds up to time_enabled, no more.
 */
TEST_F(hw, groups_run_as_a_unit)
{
	struct perf_value v, first[2];
	int lead[2], g, i, base;

	/* as perf does: leaders disabled, members enabled */
	for (g = 0; g < 2; g++) {
		lead[g] = add_fd(self, 0, -1, -1, F_DISABLED);
		ASSERT_LE(0, lead[g]);
		for (i = 1; i < self->counters; i++)
			ASSERT_LE(0, add_fd(self, 0, -1, lead[g], 0));
	}
	run_all(_metadata, BURN_NS);
	for (g = 0; g < 2; g++) {
		base = g * self->counters;
		ASSERT_TRUE(perf_read_value(self->fds[base], &first[g]));
		log_value(_metadata, "leader", g, &first[g]);
		EXPECT_LT(0, first[g].running);
		EXPECT_LT(first[g].running, first[g].enabled);
		for (i = 1; i < self->counters; i++) {
			ASSERT_TRUE(perf_read_value(self->fds[base + i], &v));
			EXPECT_EQ(first[g].running, v.running)
				TH_LOG("group %d member %d", g, i);
			EXPECT_TRUE(close_to(v.count, first[g].count, 5))
				TH_LOG("group %d member %d: %llu, leader %llu",
				       g, i, (unsigned long long)v.count,
				       (unsigned long long)first[g].count);
		}
	}
	EXPECT_TRUE(took_turns(first[0].enabled, first[0].running,
			       first[1].running))
		TH_LOG("the groups ran at the same time");
	EXPECT_TRUE(close_to(first[0].running + first[1].running,
			     first[0].enabled, 10))
		TH_LOG("the counters were idle while a group waited");
}

/*
 * One pinned event more than counters: the last cannot go on and is in
 * ERROR, where read() returns 0 bytes. The others count undisturbed.
 */
TEST_F(hw, pinned_that_cannot_fit_is_in_error)
{
	struct perf_value v;
	int i, fd;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, 0, -1, -1, F_PINNED));
	fd = add_fd(self, 0, -1, -1, F_PINNED);
	ASSERT_LE(0, fd);
	burn_cpu(BURN_NS / 3);
	EXPECT_EQ(0, read(fd, &v, sizeof(v)));
	for (i = 0; i < self->counters; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		EXPECT_LT(0, v.running);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("pinned event %d", i);
	}
}

/*
 * poll() of a pinned event in ERROR says POLLHUP, in ERROR only, and
 * DISABLE leaves it there. Ring buffers on it and on an event that fits:
 * without one, poll() says POLLHUP in any state.
 *
 * Our kernel's behaviour (Documentation/perf_events/design.rst); 6.12's
 * perf_poll() looks at the ring buffer only, so upstream polls an event
 * in ERROR as 0 (rig/xfail.list).
 */
TEST_F(hw, pinned_error_polls_hup)
{
	struct pollfd pfd[2];
	void *buf[2];
	int i, fd;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, 0, -1, -1, F_PINNED));
	fd = add_fd(self, 0, -1, -1, F_PINNED);
	ASSERT_LE(0, fd);
	buf[0] = perf_map_ring(self->fds[0], 1);
	ASSERT_NE(MAP_FAILED, buf[0]);
	buf[1] = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf[1]);
	burn_cpu(BURN_NS / 10);
	pfd[0].fd = self->fds[0];
	pfd[1].fd = fd;
	pfd[0].events = POLLIN;
	pfd[1].events = POLLIN;
	EXPECT_EQ(1, poll(pfd, 2, 0));
	EXPECT_EQ(0, pfd[0].revents);
	EXPECT_TRUE(pfd[1].revents & POLLHUP);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_TRUE(poll_now(fd) & POLLHUP);

	/* a counter free and ENABLE: out of ERROR, no longer hung up */
	close(self->fds[self->counters - 1]);
	self->fds[self->counters - 1] = fd;
	self->nr--;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS / 10);
	EXPECT_EQ(0, poll_now(fd));
	perf_unmap_ring(buf[0], 1);
	perf_unmap_ring(buf[1], 1);
}

/*
 * A flexible event and then enough pinned ones to fill the counters:
 * the pinned ones run all the time, and rotation never puts the
 * flexible one ahead of them (it runs at most the moment before the last
 * pinned event was enabled).
 */
TEST_F(hw, pinned_beats_flexible)
{
	struct perf_value v;
	int i, flex;

	flex = add_fd(self, 0, -1, -1, F_DISABLED);
	ASSERT_LE(0, flex);
	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, 0, -1, -1, F_PINNED | F_DISABLED));
	run_all(_metadata, BURN_NS);
	for (i = 1; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		EXPECT_LT(0, v.running);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("pinned event %d", i);
	}
	ASSERT_TRUE(perf_read_value(flex, &v));
	log_value(_metadata, "flexible", 0, &v);
	EXPECT_LT(0, v.enabled);
	EXPECT_GT(v.enabled / 20, v.running);
}

#if defined(__x86_64__)
/*
 * An event only one counter takes: Intel's ref-cycles, fixed counter 2
 * alone (the PMU refuses a group of two). Two of them take turns on it
 * while general-purpose counters stay free. x86 only: arm64's PMUv3 has
 * no event tied to a single counter.
 */
TEST_F(hw, counter_constraint_multiplexes)
{
	struct perf_event_attr attr;
	struct perf_value v[2];
	int lead, sib, i;

	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
	attr.disabled = 1;
	attr.exclude_hv = 1;
	attr.read_format = READ_FORMAT_TIMES;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (lead < 0 && errno == ENOENT)
		SKIP(return, "no ref-cycles on this CPU (AMD Zen, on either kernel)");
	ASSERT_LE(0, lead) TH_LOG("ref-cycles: %s", strerror(errno));
	attr.disabled = 0;
	sib = sys_perf_event_open(&attr, 0, -1, lead, 0);
	if (sib >= 0) {
		close(sib);
		close(lead);
		SKIP(return, "ref-cycles has more than one counter (AMD)");
	}
	EXPECT_EQ(EINVAL, errno);
	close(lead);

	attr.disabled = 1;
	for (i = 0; i < 2; i++) {
		sib = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, sib);
		self->fds[self->nr++] = sib;
	}
	run_all(_metadata, BURN_NS);
	for (i = 0; i < 2; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v[i]));
		log_value(_metadata, "ref-cycles", i, &v[i]);
		EXPECT_LT(0, v[i].running);
		EXPECT_LT(v[i].running, v[i].enabled);
	}
	EXPECT_TRUE(took_turns(v[0].enabled, v[0].running, v[1].running))
		TH_LOG("both had the counter at once");
}
#endif

/*
 * attr.exclusive: while an exclusive group is on, no other group of its
 * PMU goes on that CPU, and it goes on only when none is. Software events
 * are not affected. A pinned exclusive event keeps a flexible cycles
 * event off all the time, though a counter is free for it.
 */
TEST_F(hw, exclusive_pinned_keeps_others_off)
{
	struct perf_event_attr attr;
	struct perf_value v;
	int ex, flex, sw;

	flex = add_fd(self, 0, -1, -1, F_DISABLED);
	ASSERT_LE(0, flex);
	ex = add_fd(self, 0, -1, -1, F_DISABLED | F_PINNED | F_EXCLUSIVE);
	ASSERT_LE(0, ex);
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	attr.read_format = READ_FORMAT_TIMES;
	sw = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, sw);
	self->fds[self->nr++] = sw;
	run_all(_metadata, BURN_NS);

	ASSERT_TRUE(perf_read_value(ex, &v));
	log_value(_metadata, "exclusive", 0, &v);
	EXPECT_LT(0, v.running);
	EXPECT_EQ(v.enabled, v.running);
	ASSERT_TRUE(perf_read_value(flex, &v));
	log_value(_metadata, "flexible", 0, &v);
	EXPECT_LT(0, v.enabled);
	EXPECT_GT(v.enabled / 20, v.running) TH_LOG("ran beside an exclusive group");
	ASSERT_TRUE(perf_read_value(sw, &v));
	EXPECT_LT(0, v.running);
	EXPECT_EQ(v.enabled, v.running) TH_LOG("a software event was kept off");
}

/*
 * A flexible exclusive event and a flexible plain one, which would
 * both fit: they take turns, so each runs part of the time and their
 * time_running adds up to time_enabled, no more.
 */
TEST_F(hw, exclusive_flexible_takes_turns)
{
	struct perf_value v[2];
	int i;

	ASSERT_LE(0, add_fd(self, 0, -1, -1, F_DISABLED | F_EXCLUSIVE));
	ASSERT_LE(0, add_fd(self, 0, -1, -1, F_DISABLED));
	run_all(_metadata, BURN_NS);
	for (i = 0; i < 2; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v[i]));
		log_value(_metadata, i ? "plain" : "exclusive", 0, &v[i]);
		EXPECT_LT(0, v[i].running);
		EXPECT_LT(v[i].running, v[i].enabled);
	}
	EXPECT_TRUE(took_turns(v[0].enabled, v[0].running, v[1].running))
		TH_LOG("both were on at once");
}

/*
 * An exclusive group led by a software event holds the CPU's PMU through
 * its cycles member. The member is closed while the group is on, then
 * the leader: nothing exclusive is left, so a plain cycles event counts
 * all the time on that CPU again (not only in this test: the PMU of the
 * CPU stays held for every later user otherwise).
 */
TEST_F(hw, exclusive_group_gives_back_pmu_its_member_left)
{
	struct perf_event_attr attr;
	struct perf_value v;
	int sw, member, fd;

	ASSERT_EQ(0, pin_to_cpu(0));
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclusive = 1;
	sw = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, sw);
	member = open_cycles(0, -1, sw, 0);
	ASSERT_LE(0, member);
	/* off and on again at a context switch, as a group that holds */
	sleep_ms(10);
	burn_cpu(BURN_NS / 30);
	ASSERT_TRUE(perf_read_value(member, &v));
	EXPECT_LT(0, v.running) TH_LOG("the exclusive group never ran");
	close(member);
	close(sw);

	fd = add_fd(self, 0, -1, -1, F_DISABLED);
	ASSERT_LE(0, fd);
	run_all(_metadata, BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v));
	log_value(_metadata, "after", 0, &v);
	EXPECT_LT(0, v.running) TH_LOG("the PMU is still held");
	EXPECT_EQ(v.enabled, v.running);
}

/*
 * The CPU PMU is not an exclusive PMU (PERF_PMU_CAP_EXCLUSIVE): task
 * events and CPU events of it coexist and all count.
 */
TEST_F(hw, task_and_cpu_events_coexist)
{
	struct perf_value v;
	int i;

	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_LE(0, add_fd(self, 0, -1, -1, 0));
	ASSERT_LE(0, add_fd(self, 0, 0, -1, 0));
	ASSERT_LE(0, add_fd(self, -1, 0, -1, 0));
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		ASSERT_LE(0, add_fd(self, -1, 1, -1, 0));
	burn_cpu(BURN_NS / 3);
	for (i = 0; i < self->nr; i++) {
		ASSERT_TRUE(perf_read_value(self->fds[i], &v));
		EXPECT_LT(0, v.count) TH_LOG("event %d", i);
		EXPECT_EQ(v.enabled, v.running) TH_LOG("event %d", i);
	}
}

/*
 * The event states of event_states.c on cycles events: OFF holds count
 * and times, and is not hung up.
 */
TEST_F(hw, off_state_holds_count_and_time)
{
	struct perf_value v1, v2;
	void *buf;
	int fd;

	fd = add_fd(self, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	burn_cpu(BURN_NS / 10);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_TRUE(perf_read_value(fd, &v1));
	EXPECT_LT(0, v1.count);
	burn_cpu(BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_EQ(v1.count, v2.count);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(v1.running, v2.running);
	EXPECT_EQ(0, poll_now(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_LT(v1.count, v2.count);
	EXPECT_LT(v1.running, v2.running);
	EXPECT_EQ(0, poll_now(fd));
	perf_unmap_ring(buf, 1);
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

/*
 * EXIT: the watched task exited; read() returns the final value (the
 * hardware counter's last count), poll() POLLHUP, ENABLE changes nothing.
 */
TEST_F(hw, exit_state_read_final_value_poll_hup)
{
	struct perf_value v1, v2;
	int fd, ctl, status;
	void *buf;
	pid_t pid;

	pid = spawn_spinner(&ctl);
	ASSERT_LT(0, pid);
	fd = add_fd(self, pid, -1, -1, 0);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	sleep_ms(50);
	EXPECT_EQ(0, poll_now(fd));

	close(ctl);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(poll_now(fd) & POLLHUP);
	ASSERT_TRUE(perf_read_value(fd, &v1));
	log_value(_metadata, "exited", 0, &v1);
	EXPECT_LT(0, v1.count);
	EXPECT_LT(0, v1.running);

	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	sleep_ms(20);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_EQ(v1.count, v2.count);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(v1.running, v2.running);
	EXPECT_TRUE(poll_now(fd) & POLLHUP);
	perf_unmap_ring(buf, 1);
}

/*
 * ERROR: a pinned CPU event with every counter of CPU 0 already pinned.
 * DISABLE leaves it in ERROR, and so does a counter freeing up; ENABLE
 * brings it back, counting all the time from then on, and with nothing
 * in its ring buffer it polls as 0 (its POLLHUP in ERROR, which 6.12
 * lacks, is pinned_error_polls_hup's).
 */
TEST_F(hw, error_state_until_enabled_again)
{
	struct perf_value v1, v2;
	void *buf;
	int i, fd;

	/* the counts grow while this task burns CPU 0 */
	ASSERT_EQ(0, pin_to_cpu(0));
	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, -1, 0, -1, F_PINNED));
	fd = open_cycles(-1, 0, -1, F_PINNED);
	ASSERT_LE(0, fd);
	buf = perf_map_ring(fd, 1);
	ASSERT_NE(MAP_FAILED, buf);
	sleep_ms(20);
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));

	close(self->fds[--self->nr]);
	sleep_ms(20);
	EXPECT_EQ(0, read(fd, &v1, sizeof(v1)));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v1));
	log_value(_metadata, "enabled again", 0, &v1);
	EXPECT_LT(0, v1.running);
	EXPECT_EQ(v1.enabled, v1.running);
	EXPECT_LT(0, v1.count);
	EXPECT_EQ(0, poll_now(fd));
	burn_cpu(BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v2));
	EXPECT_LT(v1.count, v2.count);
	perf_unmap_ring(buf, 1);
	close(fd);
}

/* a task's pinned event in ERROR comes back the same way */
TEST_F(hw, task_pinned_error_and_back)
{
	struct perf_value v;
	int i, fd;

	for (i = 0; i < self->counters; i++)
		ASSERT_LE(0, add_fd(self, -1, 0, -1, F_PINNED));
	/* this task on CPU 0 only, so that it meets the full counters */
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_cycles(0, 0, -1, F_PINNED);
	ASSERT_LE(0, fd);
	burn_cpu(BURN_NS / 10);
	EXPECT_EQ(0, read(fd, &v, sizeof(v)));
	close(self->fds[--self->nr]);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS / 10);
	ASSERT_TRUE(perf_read_value(fd, &v));
	log_value(_metadata, "enabled again", 0, &v);
	EXPECT_LT(0, v.running);
	EXPECT_EQ(v.enabled, v.running);
	EXPECT_LT(0, v.count);
	close(fd);
}

TEST_HARNESS_MAIN
