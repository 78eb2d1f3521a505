// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl(PERF_EVENT_IOC_REFRESH) and ioctl(PERF_EVENT_IOC_PERIOD).
 *
 * REFRESH(n) adds n to the event's overflow limit and enables it; the
 * overflow that uses up the limit disables the event and signals POLL_HUP
 * to its fasync owner (every earlier one POLL_IN).  With F_SETSIG the
 * band arrives as si_code.  PERIOD changes a sampling event's period and
 * the new one applies from then on.
 *
 * Two sources of overflows: minor page faults with sample_period (every
 * kernel; a fault on a fresh page is exact), and our test PMU, whose
 * counter counts running nanoseconds and interrupts from an hrtimer when
 * it crosses the period (skipped where there is no test_pmu).
 *
 * The limit is checked in the overflow path but the disable itself is
 * deferred to an irq_work on both kernels, so a few more counts may land
 * after the last overflow: the tests assert that the counter stopped (two
 * reads apart agree), not where.
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
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define SIG		(SIGRTMIN + 1)
#define BIG_PERIOD	0x10000000000ULL	/* never reached here */

static int open_event(__u32 type, __u64 config, __u64 period, int inherit)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.sample_period = period;
	attr.disabled = 1;
	attr.inherit = inherit;
	attr.exclude_kernel = type == PERF_TYPE_SOFTWARE;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static int open_faults(__u64 period)
{
	return open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
			  period, 0);
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

/*
 * Collect the queued signals: return how many had si_code POLL_HUP,
 * waiting up to @ms for the first one.
 */
static int hups(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	siginfo_t si;
	sigset_t set;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, SIG);
	while (sigtimedwait(&set, &si, &ts) == SIG) {
		if (si.si_code == POLL_HUP)
			n++;
		ts.tv_sec = 0;
		ts.tv_nsec = 0;
	}
	return n;
}

/* burn CPU (the test PMU counts running time) until a POLL_HUP or @ms */
static int spin_for_hup(int ms)
{
	uint64_t end = now_ns() + ms * 1000000ULL;
	int n = 0;

	while (!n && now_ns() < end)
		n = hups(0);
	return n;
}

TEST(refresh_needs_a_sampling_event)
{
	int fd = open_faults(0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(refresh_refused_with_inherit)
{
	int fd = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
			    1, 1);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* upstream adds 0 to the limit and enables: no limit, no error */
TEST(refresh_zero_enables_without_limit)
{
	int fd = open_faults(1);
	uint64_t c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 0));
	touch_fresh_pages(20);
	c = perf_read_count(fd);
	EXPECT_LE(20, c);
	EXPECT_EQ(0, hups(0));
	close(fd);
}

TEST(refresh_disables_after_n_overflows)
{
	uint64_t c1, c2;
	int fd = open_faults(1);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	touch_fresh_pages(30);
	/* the third fault used the limit up: POLL_HUP, and the event is off */
	EXPECT_EQ(1, hups(2000));
	c1 = perf_read_count(fd);
	EXPECT_LE(3, c1);
	EXPECT_GT(30, c1);
	touch_fresh_pages(30);
	c2 = perf_read_count(fd);
	EXPECT_EQ(c1, c2);

	/* a new REFRESH counts again, up to the new limit */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	touch_fresh_pages(30);
	EXPECT_EQ(1, hups(2000));
	c2 = perf_read_count(fd);
	EXPECT_LE(c1 + 2, c2);
	EXPECT_GT(c1 + 30, c2);
	close(fd);
}

/*
 * The overflow that uses up the limit can come from inside the context
 * switch that takes the event off the CPU (a context-switch event counts
 * in the outgoing task's switch).  The deferred disable then finds the
 * event no longer on the CPU: the switch itself must apply it, or the
 * event goes back on at the next switch in and counts on without limit.
 */
TEST(refresh_limit_reached_at_context_switch)
{
	struct timespec nap = { 0, 200000 };
	struct perf_event_attr attr;
	uint64_t c1, c2;
	int fd, i;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	attr.sample_period = 1;
	attr.disabled = 1;
	/* a switch happens in the kernel: exclude_kernel would count none */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	/* every nap switches this task out once */
	for (i = 0; i < 50; i++)
		nanosleep(&nap, NULL);
	EXPECT_EQ(1, hups(2000));
	c1 = perf_read_count(fd);
	EXPECT_LE(2, c1);
	EXPECT_GT(10, c1) TH_LOG("%llu context switches counted after the limit of 2",
				 (unsigned long long)c1);
	for (i = 0; i < 50; i++)
		nanosleep(&nap, NULL);
	c2 = perf_read_count(fd);
	EXPECT_EQ(c1, c2);
	close(fd);
}

TEST(period_takes_effect_on_running_event)
{
	uint64_t period = 1, c1, c2;
	int fd = open_faults(BIG_PERIOD);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	touch_fresh_pages(20);
	EXPECT_EQ(0, hups(0));
	EXPECT_LE(20, perf_read_count(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	touch_fresh_pages(20);
	EXPECT_EQ(1, hups(2000));
	c1 = perf_read_count(fd);
	touch_fresh_pages(20);
	c2 = perf_read_count(fd);
	EXPECT_EQ(c1, c2);
	close(fd);
}

TEST(period_errors)
{
	struct perf_event_attr attr;
	uint64_t v;
	int fd, nfd;

	nfd = open_faults(0);
	ASSERT_LE(0, nfd);
	v = 10;
	EXPECT_EQ(-1, ioctl(nfd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	close(nfd);

	fd = open_faults(1000);
	ASSERT_LE(0, fd);
	v = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	v = 1ULL << 63;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	v = (1ULL << 63) - 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);

	/* in frequency mode the value is a frequency, capped by the sysctl */
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.freq = 1;
	attr.sample_freq = 10;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	v = read_int(SYSCTL("perf_event_max_sample_rate"));
	ASSERT_LT(0, (int64_t)v);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	v++;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* the test PMU: overflows from its hrtimer, as from a PMU interrupt */

FIXTURE(tpmu) {
	int type;
};

FIXTURE_SETUP(tpmu)
{
	self->type = read_int(TEST_PMU_DIR "/type");
	if (self->type < 0)
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
}

FIXTURE_TEARDOWN(tpmu)
{
}

/* period 1 ms of running time at rate 1 */
#define TPMU_PERIOD	1000000ULL

TEST_F(tpmu, refresh_disables_after_n_overflows)
{
	uint64_t c1, c2;
	int fd = open_event(self->type, 1, TPMU_PERIOD, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	ASSERT_EQ(1, spin_for_hup(5000));
	c1 = perf_read_count(fd);
	/* three periods went by before the third overflow */
	EXPECT_LE(3 * TPMU_PERIOD, c1);
	spin_for_hup(50);
	c2 = perf_read_count(fd);
	EXPECT_EQ(c1, c2);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(1, spin_for_hup(5000));
	c2 = perf_read_count(fd);
	EXPECT_LE(c1 + TPMU_PERIOD, c2);
	close(fd);
}

TEST_F(tpmu, period_takes_effect_on_running_event)
{
	uint64_t period = TPMU_PERIOD, c1, c2;
	int fd = open_event(self->type, 1, BIG_PERIOD, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_async(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(0, spin_for_hup(50));
	c1 = perf_read_count(fd);
	EXPECT_LT(0, c1);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(1, spin_for_hup(5000));
	c1 = perf_read_count(fd);
	spin_for_hup(50);
	c2 = perf_read_count(fd);
	EXPECT_EQ(c1, c2);
	close(fd);
}

TEST_F(tpmu, sampling_without_buffer_counts)
{
	uint64_t c1, c2;
	int fd = open_event(self->type, 2, TPMU_PERIOD, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin_for_hup(30);
	c1 = perf_read_count(fd);
	spin_for_hup(30);
	c2 = perf_read_count(fd);
	/* no limit: overflows do not stop it */
	EXPECT_LT(c1, c2);
	close(fd);
}

TEST_HARNESS_MAIN
