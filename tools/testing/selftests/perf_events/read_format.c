// SPDX-License-Identifier: GPL-2.0
/*
 * read() on a perf event fd: the size and layout for every combination of
 * read_format bits, for a lone event and for a group, as the uapi header
 * documents them:
 *
 *   without PERF_FORMAT_GROUP      with PERF_FORMAT_GROUP
 *     value                          nr
 *     [time_enabled]                 [time_enabled]
 *     [time_running]                 [time_running]
 *     [id]                           nr times { value, [id], [lost] }
 *     [lost]
 *
 * plus ENOSPC for a buffer smaller than that, and enabled time that only
 * advances while the event is enabled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"

#define NR_PAGES	16
#define ALL_FORMATS	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
			 PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

static int open_sw(__u64 config, __u64 read_format, int group_fd)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = read_format;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* Bytes a read returns for @fmt with @nr events in the group. */
static size_t expected_size(__u64 fmt, int nr)
{
	size_t per = 8, size = 8;

	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		size += 8;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		size += 8;
	if (fmt & PERF_FORMAT_ID)
		per += 8;
	if (fmt & PERF_FORMAT_LOST)
		per += 8;
	if (fmt & PERF_FORMAT_GROUP)
		return size + nr * per;
	return size + per - 8;
}

/*
 * Keep an event enabled across a clock tick. perf's times come from
 * sched_clock(), which counts jiffies once the TSC is found unstable (as
 * QEMU's TCG TSC can be on a loaded host: "Marking TSC unstable due to
 * clocksource watchdog"), so a shorter window may account no time.
 */
static void outlast_a_tick(void)
{
	struct timespec a, b;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec;
	} while (ns < 20000000);
}

/*
 * The measured regions below must take no fault but the ones asked for.
 * A test runs in a freshly forked process, where the first write to a
 * stack page and the first call into a code page fault; one pass through
 * the same path beforehand takes those faults outside the region.
 */
static void warm_up(void)
{
	int fd;

	prefault_self();
	fd = open_sw(PERF_COUNT_SW_DUMMY, 0, -1);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_fresh_pages(1);
	outlast_a_tick();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(fd);
}

/* One parsed entry of a read, whatever the layout. */
struct entry {
	__u64 value, id, lost;
};

struct parsed {
	__u64 nr, enabled, running;
	struct entry e[3];
};

static void parse(const __u64 *buf, __u64 fmt, struct parsed *out)
{
	int i = 0, k;

	memset(out, 0, sizeof(*out));
	if (fmt & PERF_FORMAT_GROUP) {
		out->nr = buf[i++];
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out->enabled = buf[i++];
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out->running = buf[i++];
		for (k = 0; k < (int)out->nr && k < 3; k++) {
			out->e[k].value = buf[i++];
			if (fmt & PERF_FORMAT_ID)
				out->e[k].id = buf[i++];
			if (fmt & PERF_FORMAT_LOST)
				out->e[k].lost = buf[i++];
		}
		return;
	}
	out->nr = 1;
	out->e[0].value = buf[i++];
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->enabled = buf[i++];
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->running = buf[i++];
	if (fmt & PERF_FORMAT_ID)
		out->e[0].id = buf[i++];
	if (fmt & PERF_FORMAT_LOST)
		out->e[0].lost = buf[i++];
}

/*
 * The poison value fills the buffer beyond what read() should write, to
 * catch a read that writes more than it reports.
 */
#define POISON	0xa5a5a5a5a5a5a5a5ULL

TEST(single_event_all_formats)
{
	__u64 fmt, buf[32];
	struct parsed r;
	size_t want;
	ssize_t n;
	int fd, i;

	warm_up();
	for (fmt = 0; fmt <= ALL_FORMATS; fmt++) {
		fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, fmt, -1);
		ASSERT_LE(0, fd) TH_LOG("read_format %#llx", (unsigned long long)fmt);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		touch_fresh_pages(NR_PAGES);
		outlast_a_tick();
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

		want = expected_size(fmt, 1);
		for (i = 0; i < 32; i++)
			buf[i] = POISON;
		n = read(fd, buf, sizeof(buf));
		ASSERT_EQ((ssize_t)want, n)
			TH_LOG("read_format %#llx", (unsigned long long)fmt);
		EXPECT_EQ(POISON, buf[want / 8]);
		parse(buf, fmt, &r);
		if (fmt & PERF_FORMAT_GROUP)
			EXPECT_EQ(1, r.nr);
		EXPECT_EQ(NR_PAGES, r.e[0].value);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			EXPECT_LT(0, r.enabled);
		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
		    (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING))
			EXPECT_LE(r.running, r.enabled);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			EXPECT_LT(0, r.running);
		if (fmt & PERF_FORMAT_ID)
			EXPECT_EQ(perf_event_id(fd), r.e[0].id);
		if (fmt & PERF_FORMAT_LOST)
			EXPECT_EQ(0, r.e[0].lost);

		/* one byte short of the full record */
		errno = 0;
		EXPECT_EQ(-1, read(fd, buf, want - 1));
		EXPECT_EQ(ENOSPC, errno);
		close(fd);
	}
}

TEST(group_leader_all_formats)
{
	__u64 fmt, buf[32], ids[3];
	int fd[3], i;
	struct parsed r;
	size_t want;
	ssize_t n;

	warm_up();
	for (fmt = 0; fmt <= ALL_FORMATS; fmt++) {
		/*
		 * Distinct values per position: leader and second sibling
		 * count the faults, the first sibling (major faults) stays
		 * zero, so a value in the wrong slot shows.
		 */
		fd[0] = open_sw(PERF_COUNT_SW_PAGE_FAULTS, fmt, -1);
		ASSERT_LE(0, fd[0]);
		fd[1] = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MAJ, fmt, fd[0]);
		ASSERT_LE(0, fd[1]);
		fd[2] = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, fmt, fd[0]);
		ASSERT_LE(0, fd[2]);
		for (i = 0; i < 3; i++)
			ids[i] = perf_event_id(fd[i]);
		EXPECT_NE(ids[0], ids[1]);
		EXPECT_NE(ids[0], ids[2]);
		EXPECT_NE(ids[1], ids[2]);

		ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE,
				   PERF_IOC_FLAG_GROUP));
		touch_fresh_pages(NR_PAGES);
		outlast_a_tick();
		ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE,
				   PERF_IOC_FLAG_GROUP));

		want = expected_size(fmt, 3);
		for (i = 0; i < 32; i++)
			buf[i] = POISON;
		n = read(fd[0], buf, sizeof(buf));
		ASSERT_EQ((ssize_t)want, n)
			TH_LOG("read_format %#llx", (unsigned long long)fmt);
		EXPECT_EQ(POISON, buf[want / 8]);
		parse(buf, fmt, &r);
		EXPECT_EQ(NR_PAGES, r.e[0].value);
		if (fmt & PERF_FORMAT_GROUP) {
			EXPECT_EQ(3, r.nr);
			EXPECT_EQ(0, r.e[1].value);
			EXPECT_EQ(NR_PAGES, r.e[2].value);
			for (i = 0; i < 3; i++) {
				if (fmt & PERF_FORMAT_ID)
					EXPECT_EQ(ids[i], r.e[i].id);
				if (fmt & PERF_FORMAT_LOST)
					EXPECT_EQ(0, r.e[i].lost);
			}
		} else {
			if (fmt & PERF_FORMAT_ID)
				EXPECT_EQ(ids[0], r.e[0].id);
			if (fmt & PERF_FORMAT_LOST)
				EXPECT_EQ(0, r.e[0].lost);
		}
		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
		    (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING))
			EXPECT_LE(r.running, r.enabled);

		errno = 0;
		EXPECT_EQ(-1, read(fd[0], buf, want - 1));
		EXPECT_EQ(ENOSPC, errno);
		for (i = 0; i < 3; i++)
			close(fd[i]);
	}
}

TEST(group_read_through_sibling)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID, buf[16];
	int leader, sib;
	struct parsed r;

	/* a sibling's group read reports the whole group, leader first */
	warm_up();
	leader = open_sw(PERF_COUNT_SW_PAGE_FAULTS, fmt, -1);
	ASSERT_LE(0, leader);
	sib = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MAJ, fmt, leader);
	ASSERT_LE(0, sib);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_fresh_pages(NR_PAGES);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ((ssize_t)expected_size(fmt, 2), read(sib, buf, sizeof(buf)));
	parse(buf, fmt, &r);
	EXPECT_EQ(2, r.nr);
	EXPECT_EQ(perf_event_id(leader), r.e[0].id);
	EXPECT_EQ(NR_PAGES, r.e[0].value);
	EXPECT_EQ(perf_event_id(sib), r.e[1].id);
	EXPECT_EQ(0, r.e[1].value);
}

TEST(unknown_read_format_bit)
{
	int fd;

	/* the bit after our PERF_FORMAT_LOSSES means nothing to any kernel */
	errno = 0;
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, PERF_FORMAT_LOSSES << 1, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
}

TEST(enabled_time_frozen_while_disabled)
{
	__u64 fmt = READ_FORMAT_TIMES;
	__u64 a[3], b[3];
	int fd;

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, fmt, -1);
	ASSERT_LE(0, fd);

	/* opened disabled and never enabled: no time at all */
	burn_cpu(20000000ULL);
	ASSERT_EQ(sizeof(a), read(fd, a, sizeof(a)));
	EXPECT_EQ(0, a[0]);
	EXPECT_EQ(0, a[1]);
	EXPECT_EQ(0, a[2]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(20000000ULL);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(a), read(fd, a, sizeof(a)));
	/*
	 * A task event's times advance only while the task runs; it ran
	 * for 20ms of CPU time. Half of that is the loose bound: the perf
	 * clock and the thread CPU clock are read at different moments.
	 */
	EXPECT_LE(10000000ULL, a[1]);
	EXPECT_LE(a[2], a[1]);
	EXPECT_LT(0, a[0]);

	/* the task keeps running, the disabled event keeps still */
	burn_cpu(20000000ULL);
	ASSERT_EQ(sizeof(b), read(fd, b, sizeof(b)));
	EXPECT_EQ(a[0], b[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_EQ(a[2], b[2]);
}

TEST_HARNESS_MAIN
