// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl(PERF_EVENT_IOC_REFRESH) and ioctl(PERF_EVENT_IOC_PERIOD) on the
 * CPU's own PMU (x86 "cpu", arm64 PMUv3): the tests refresh_period.c
 * runs on our test PMU, on overflows that come from the PMU interrupt
 * of a hardware counter, so that upstream runs them too.
 *
 * The events sample cycles:u every PERIOD cycles, with no ring buffer;
 * their overflows signal the fasync owner (F_SETSIG: the band arrives as
 * si_code): POLL_IN for each, POLL_HUP for the one that uses up the
 * REFRESH limit, which also disables the event. The disable is deferred
 * to an irq_work, so the tests assert where the counter stopped only
 * from below, and that it stopped: two reads apart agree.
 *
 * hw_counting checks the exact counts under x86's -icount (a sample
 * every period, the REFRESH limit in samples); these need no exact
 * count and run on both arches in any boot. Without the CPU's PMU in
 * sysfs every test SKIPs.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define SIG		(SIGRTMIN + 1)
/* 10 ms of a 1 GHz clock (QEMU's cycles on both arches); 100 PMIs/s */
#define PERIOD		10000000ULL
/* never reached here, and more than a 32-bit counter holds */
#define BIG_PERIOD	0x10000000000ULL
/* a millisecond of CPU time: about 1e6 cycles on QEMU */
#define MS		1000000ULL
/* how long to wait for an overflow that should come */
#define WAIT_NS		(5000 * MS)

/* the signals an event sent: how many of each band, and the last one */
struct sigs {
	int in, hup, other, last;
};

static int open_sampling(__u64 period)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.sample_period = period;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* route @fd's fasync signal to this process as SIG, blocked for sigwait */
static int set_async(int fd)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIG);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	if (fcntl(fd, F_SETOWN, getpid()) ||
	    fcntl(fd, F_SETSIG, SIG) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC))
		return -1;
	return 0;
}

/* add the signals queued now (all from @fd) to @s */
static void collect(struct __test_metadata *_metadata, int fd, struct sigs *s)
{
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIG);
	while (sigtimedwait(&set, &si, &zero) == SIG) {
		EXPECT_EQ(fd, si.si_fd);
		if (si.si_code == POLL_IN)
			s->in++;
		else if (si.si_code == POLL_HUP)
			s->hup++;
		else
			s->other++;
		s->last = si.si_code;
	}
}

/*
 * Spin in user mode for @ns of CPU time. burn_cpu() would not do: it
 * reads the thread's CPU clock, a system call, so that most of its time
 * is kernel time, which cycles:u does not count.
 */
static void user_burn(__u64 ns)
{
	__u64 end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	unsigned long i;

	do {
		for (i = 0; i < 50000; i++)
			asm volatile("" : "+r" (i));
	} while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end);
}

/*
 * Burn CPU in user mode, where cycles:u counts, collecting @fd's
 * signals into @s, until a POLL_HUP came or @ns of CPU time went by.
 */
static void burn_until_hup(struct __test_metadata *_metadata, int fd,
			   struct sigs *s, __u64 ns)
{
	__u64 end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	do {
		user_burn(MS);
		collect(_metadata, fd, s);
	} while (!s->hup && clock_ns(CLOCK_THREAD_CPUTIME_ID) < end);
}

static void log_sigs(struct __test_metadata *_metadata, const char *what,
		     struct sigs *s, __u64 count)
{
	TH_LOG("%s: %d POLL_IN, %d POLL_HUP, %d other, count %llu", what,
	       s->in, s->hup, s->other, (unsigned long long)count);
}

FIXTURE(hw) {
	int fd;
};

FIXTURE_SETUP(hw)
{
	self->fd = -1;
	if (!hw_pmu_dir())
		SKIP(return, "no CPU PMU in sysfs");
}

FIXTURE_TEARDOWN(hw)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * REFRESH 3: three overflows, the first two POLL_IN, the third POLL_HUP
 * and the event off; at least three periods counted, and no more after.
 * REFRESH 2 then counts to the fifth overflow and stops again.
 */
TEST_F(hw, refresh_disables_after_n_overflows)
{
	struct sigs s = { 0 };
	__u64 c1, c2;

	self->fd = open_sampling(PERIOD);
	ASSERT_LE(0, self->fd) TH_LOG("cycles:u: %s", strerror(errno));
	ASSERT_EQ(0, set_async(self->fd));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_REFRESH, 3));
	burn_until_hup(_metadata, self->fd, &s, WAIT_NS);
	c1 = perf_read_count(self->fd);
	log_sigs(_metadata, "REFRESH 3", &s, c1);
	ASSERT_EQ(1, s.hup) TH_LOG("no POLL_HUP: the limit did not stop it");
	EXPECT_EQ(POLL_HUP, s.last);
	/* an irq_work may take two overflows' wakeups at once, not all */
	EXPECT_LE(1, s.in);
	EXPECT_GE(2, s.in);
	EXPECT_EQ(0, s.other);
	EXPECT_LE(3 * PERIOD, c1);

	user_burn(50 * MS);
	collect(_metadata, self->fd, &s);
	c2 = perf_read_count(self->fd);
	EXPECT_EQ(c1, c2) TH_LOG("counted on after the limit");
	EXPECT_EQ(1, s.hup);
	EXPECT_GE(2, s.in) TH_LOG("overflowed after the limit");

	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_REFRESH, 2));
	burn_until_hup(_metadata, self->fd, &s, WAIT_NS);
	c2 = perf_read_count(self->fd);
	log_sigs(_metadata, "REFRESH 2", &s, c2);
	EXPECT_EQ(1, s.hup);
	EXPECT_GE(1, s.in);
	/*
	 * Overflows come every PERIOD of the count, wherever the disable
	 * stopped it: five in all by now.
	 */
	EXPECT_LE(5 * PERIOD, c2);
}

/*
 * ENABLE without REFRESH: no limit; the overflows signal POLL_IN, never
 * POLL_HUP, and the counter goes on over many periods.
 */
TEST_F(hw, sampling_without_limit_keeps_counting)
{
	struct sigs s = { 0 };
	__u64 c1, c2;

	self->fd = open_sampling(PERIOD);
	ASSERT_LE(0, self->fd) TH_LOG("cycles:u: %s", strerror(errno));
	ASSERT_EQ(0, set_async(self->fd));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_until_hup(_metadata, self->fd, &s, 100 * MS);
	c1 = perf_read_count(self->fd);
	burn_until_hup(_metadata, self->fd, &s, 100 * MS);
	c2 = perf_read_count(self->fd);
	log_sigs(_metadata, "no limit", &s, c2);
	EXPECT_EQ(0, s.hup);
	EXPECT_EQ(0, s.other);
	EXPECT_LE(3, s.in) TH_LOG("the overflows sent no POLL_IN");
	EXPECT_LT(c1, c2);
	EXPECT_LE(5 * PERIOD, c2);
}

/*
 * PERIOD on a running event: with a period it never reaches, REFRESH 1
 * counts on without an overflow; PERIOD then brings the overflow within
 * the new period, and the event stops.
 */
TEST_F(hw, period_takes_effect_on_running_event)
{
	struct sigs s = { 0 };
	__u64 period = PERIOD, c1, c2;

	self->fd = open_sampling(BIG_PERIOD);
	ASSERT_LE(0, self->fd) TH_LOG("cycles:u: %s", strerror(errno));
	ASSERT_EQ(0, set_async(self->fd));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_REFRESH, 1));
	burn_until_hup(_metadata, self->fd, &s, 50 * MS);
	c1 = perf_read_count(self->fd);
	log_sigs(_metadata, "big period", &s, c1);
	EXPECT_EQ(0, s.hup + s.in + s.other);
	EXPECT_LT(PERIOD, c1);

	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_PERIOD, &period));
	burn_until_hup(_metadata, self->fd, &s, WAIT_NS);
	c1 = perf_read_count(self->fd);
	log_sigs(_metadata, "PERIOD", &s, c1);
	ASSERT_EQ(1, s.hup) TH_LOG("the new period never overflowed");
	user_burn(50 * MS);
	c2 = perf_read_count(self->fd);
	EXPECT_EQ(c1, c2);
}

/*
 * PERIOD before the enable: the new period is the first one. With 8
 * periods, REFRESH 1 stops the event after at least 8 * PERIOD cycles;
 * the old period would have stopped it after one.
 */
TEST_F(hw, period_before_enable_sets_first_overflow)
{
	struct sigs s = { 0 };
	__u64 period = 8 * PERIOD, c;

	self->fd = open_sampling(PERIOD);
	ASSERT_LE(0, self->fd) TH_LOG("cycles:u: %s", strerror(errno));
	ASSERT_EQ(0, set_async(self->fd));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_REFRESH, 1));
	burn_until_hup(_metadata, self->fd, &s, WAIT_NS);
	c = perf_read_count(self->fd);
	log_sigs(_metadata, "8 periods", &s, c);
	ASSERT_EQ(1, s.hup);
	EXPECT_EQ(0, s.in);
	EXPECT_LE(8 * PERIOD, c);
	/* stopped soon after: well before a ninth period */
	EXPECT_GT(9 * PERIOD, c);
}

TEST_HARNESS_MAIN
