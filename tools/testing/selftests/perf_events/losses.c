// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_FORMAT_LOSSES (our extension, W3): read() gives, after each value's
 * id and lost fields, what the event missed: samples lost to a full ring
 * buffer, times it was throttled, and the ns it was enabled but not
 * counting.  Upstream has no such bit and must say EINVAL, which each test
 * checks there instead.
 *
 * Each count is checked against what another interface reports for the
 * same thing: PERF_FORMAT_LOST, PERF_RECORD_THROTTLE records in the
 * buffer, time_enabled - time_running.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"
#include "ext_common.h"

/* the three u64s PERF_FORMAT_LOSSES appends to a value */
struct losses {
	__u64 lost;
	__u64 throttled;
	__u64 unscheduled;
};

/* The layout, alone and in a group, with every other bit around it. */
TEST(layout_single_and_group)
{
	__u64 fmt = READ_FORMAT_TIMES | PERF_FORMAT_ID | PERF_FORMAT_LOST |
		    PERF_FORMAT_LOSSES;
	struct perf_event_attr attr;
	__u64 buf[32];
	int leader, sib, i;

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_LOSSES;
	leader = open_ext(_metadata, &attr, 0, -1, -1, 0);
	if (leader < 0)
		return;
	/* value, then the three losses */
	ASSERT_EQ(4 * sizeof(__u64), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(0, buf[1]);
	EXPECT_EQ(0, buf[2]);
	close(leader);

	attr.read_format = fmt;
	attr.disabled = 0;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader);
	/* value, enabled, running, id, lost, then lost again and the rest */
	burn_cpu(2000000);
	ASSERT_EQ(8 * sizeof(__u64), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(perf_event_id(leader), buf[3]);
	EXPECT_EQ(buf[4], buf[5]);
	EXPECT_EQ(buf[1] - buf[2], buf[7]);

	attr.read_format = fmt | PERF_FORMAT_GROUP;
	close(leader);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader);
	sib = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_LE(0, sib);
	burn_cpu(2000000);
	/* nr, enabled, running, then per member: value, id, lost, losses */
	ASSERT_EQ((3 + 2 * 6) * sizeof(__u64), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);
	for (i = 0; i < 2; i++) {
		__u64 *e = buf + 3 + 6 * i;

		EXPECT_EQ(perf_event_id(i ? sib : leader), e[1]);
		EXPECT_EQ(e[2], e[3]);
		EXPECT_EQ(0, e[4]);
		EXPECT_EQ(buf[1] - buf[2], e[5]);
	}
	/* a buffer one u64 short of all that is refused */
	EXPECT_EQ(-1, read(leader, buf, (3 + 2 * 6 - 1) * sizeof(__u64)));
	EXPECT_EQ(ENOSPC, errno);
	close(sib);
	close(leader);
}

/* A full buffer: the lost field is PERF_FORMAT_LOST's count, not 0. */
TEST(lost_is_the_full_buffers_count)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	__u64 buf[8];
	int fd, old_rate;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = PERF_FORMAT_LOST | PERF_FORMAT_LOSSES;
	fd = open_ext(_metadata, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return;
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	old_rate = rb_raise_sample_rate();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* a page holds ~100 samples; nobody reads them */
	ASSERT_EQ(0, touch_fresh_pages(1000));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rb_restore_sample_rate(old_rate);

	ASSERT_EQ(5 * sizeof(__u64), read(fd, buf, sizeof(buf)));
	EXPECT_LT(500, buf[1]) TH_LOG("only %llu lost", buf[1]);
	EXPECT_EQ(buf[1], buf[2]);
	rb_unmap(&rb);
	close(fd);
}

/* THROTTLE records of the event's own buffer, and its samples */
static void count_throttles(const union rb_record *rec, void *arg)
{
	if (rec->h.type == PERF_RECORD_THROTTLE)
		(*(int *)arg)++;
}

/*
 * Over perf_event_max_sample_rate the event is throttled, each time with
 * a PERF_RECORD_THROTTLE: the throttled field counts exactly those.
 */
TEST(throttled_counts_throttle_records)
{
	struct sample_limits saved, low = { .rate = 1000, .pct = -1 };
	struct perf_event_attr attr;
	struct rb_stats st = { };
	struct rb_map rb;
	struct losses *l;
	__u64 buf[8];
	int fd, throttles = 0;

	if (geteuid())
		SKIP(return, "setting %s needs root", SAMPLE_RATE_PATH);
	/* kernel mode too: a debug kernel spends much of the spin there */
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	attr.sample_period = 10000;
	attr.sample_type = RB_SAMPLE_TYPE;
	attr.read_format = PERF_FORMAT_LOSSES;
	fd = open_ext(_metadata, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return;
	ASSERT_EQ(0, rb_mmap(&rb, fd, 64, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, sample_limits_get(&saved));
	ASSERT_EQ(0, sample_limits_set(&low));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(200000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	sample_limits_set(&saved);

	rb_drain(&rb, &st, count_throttles, &throttles);
	EXPECT_EQ(0, st.bad);
	EXPECT_EQ(0, st.lost_records);
	ASSERT_EQ(4 * sizeof(__u64), read(fd, buf, sizeof(buf)));
	l = (struct losses *)(buf + 1);
	EXPECT_LT(0, throttles);
	EXPECT_EQ(throttles, l->throttled);
	EXPECT_EQ(0, l->lost);
	rb_unmap(&rb);
	close(fd);
}

#define MAX_MUX		16

/*
 * More test_pmu events on CPU 0 than it has counters: they take turns, and
 * each one's unscheduled time is exactly what its times say it missed.
 * As many events as counters: nothing is ever unscheduled.
 */
TEST(unscheduled_is_multiplexed_time)
{
	int type = read_int(TEST_PMU_DIR "/type");
	int counters = read_int(TEST_PMU_DIR "/caps/counters");
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	struct perf_event_attr attr;
	int fds[MAX_MUX], n, i, pass;
	__u64 buf[8];

	if (kperf_ours() && (type < 0 || counters < 1))
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
	if (geteuid())
		SKIP(return, "a CPU-wide event needs root here");
	ASSERT_GT(MAX_MUX, counters + 1);

	for (pass = 0; pass < 2; pass++) {
		n = counters + pass;
		/* upstream has no test_pmu: a clock shows its EINVAL */
		if (type > 0)
			perf_attr_init(&attr, type, 0);
		else
			perf_attr_init(&attr, PERF_TYPE_SOFTWARE,
				       PERF_COUNT_SW_CPU_CLOCK);
		attr.read_format = READ_FORMAT_TIMES | PERF_FORMAT_LOSSES;
		for (i = 0; i < n; i++) {
			fds[i] = open_ext(_metadata, &attr, -1, 0, -1, 0);
			if (fds[i] < 0)
				return;
		}
		nanosleep(&ts, NULL);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(6 * sizeof(__u64),
				  read(fds[i], buf, sizeof(buf)));
			EXPECT_EQ(buf[1] - buf[2], buf[5]);
			if (!pass) {
				EXPECT_EQ(0, buf[5]);
				continue;
			}
			/* each misses about 1 / n of the time */
			EXPECT_LT(buf[1] / (2 * n), buf[5])
				TH_LOG("event %d of %d: %llu of %llu ns",
				       i, n, buf[5], buf[1]);
		}
		for (i = 0; i < n; i++)
			close(fds[i]);
	}
}

/* The bit after ours has no meaning on either kernel. */
TEST(next_bit_is_einval)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_LOSSES << 1;
	errno = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
