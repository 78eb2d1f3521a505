// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_AUX: a group member with aux_sample_size carries, in each
 * of its samples, the newest AUX data of its group's leader, which the
 * leader's driver copies in (pmu::snapshot_aux()).  The record holds a
 * u64 size and then that many bytes: aux_sample_size rounded down to
 * whole u64s, none when the leader has no AUX area.
 *
 * The leader is module/perf_aux_pmu.c's "perf_aux_snap": a read() of it
 * writes one chunk of the known pattern (aux_common.h) into its AUX area,
 * its count is the bytes written so far, and its snapshot is the pattern
 * at the newest heads, [count - size, count).  "perf_aux_test" is the same
 * tracer without a snapshot.  The member is a page-fault event sampling
 * every fault into a buffer of its own; the records there are sized so
 * that none crosses a page (a module's snapshot cannot: see the module).
 *
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "aux_common.h"
#include "module_load.h"
#include "perf_test.h"
#include "prefault.h"
#include "rb_common.h"

#define MOD_PATH	"/tests/modules/perf_aux_pmu.ko"
#define MOD_NAME	"perf_aux_pmu"
#define SNAP_DIR	"/sys/bus/event_source/devices/perf_aux_snap"
#define PLAIN_DIR	"/sys/bus/event_source/devices/perf_aux_test"

#define CFG_CHUNK(n)	((__u64)(n) & 0xffff)
#define SEED		0x5a
#define DATA_PAGES	8
#define AUX_PAGES	4
#define MAX_SAMPLES	8

/* One sample of the member: header, the AUX size, the AUX bytes. */
struct aux_sample {
	struct perf_event_header h;
	__u64 size;
	unsigned char data[4096];
};

FIXTURE(snap) {
	long type, plain_type;
	int leader, member;
	struct rb_map lead_rb, member_rb;
	void *aux;
	size_t aux_len;
	struct aux_sample s[MAX_SAMPLES];
};

FIXTURE_SETUP(snap)
{
	test_module_unload(MOD_NAME, 2000);
	ASSERT_EQ(test_module_load(MOD_PATH), 0)
		TH_LOG("load %s: %s", MOD_PATH, strerror(errno));
	ASSERT_EQ(read_long(SNAP_DIR "/type", &self->type), 0);
	ASSERT_EQ(read_long(PLAIN_DIR "/type", &self->plain_type), 0);
	self->leader = -1;
	self->member = -1;
	self->aux = NULL;
	memset(&self->lead_rb, 0, sizeof(self->lead_rb));
	memset(&self->member_rb, 0, sizeof(self->member_rb));
}

FIXTURE_TEARDOWN(snap)
{
	if (self->aux)
		munmap(self->aux, self->aux_len);
	rb_unmap(&self->member_rb);
	rb_unmap(&self->lead_rb);
	if (self->member >= 0)
		close(self->member);
	if (self->leader >= 0)
		close(self->leader);
	test_module_unload(MOD_NAME, 2000);
}

/*
 * Open the leader of @type (chunks of @chunk bytes) with its data buffer
 * and, when @aux_pages, an AUX area; then the member sampling every user
 * page fault with PERF_SAMPLE_AUX and @sample_size into its own buffer.
 * Both disabled.  0, or -errno of the first step that failed.
 */
static int snap_open(struct _test_data_snap *self, long type, int aux_pages,
		     __u64 chunk, __u32 sample_size)
{
	struct perf_event_attr attr;
	void *p;

	perf_attr_init(&attr, type, CFG_CHUNK(chunk));
	attr.config1 = SEED;
	attr.disabled = 1;
	self->leader = sys_perf_event_open(&attr, 0, -1, -1,
					   PERF_FLAG_FD_CLOEXEC);
	if (self->leader < 0)
		return -errno;
	if (rb_mmap(&self->lead_rb, self->leader, DATA_PAGES,
		    PROT_READ | PROT_WRITE))
		return -errno;
	if (aux_pages) {
		self->aux_len = (size_t)aux_pages * rb_page_size();
		self->lead_rb.pg->aux_offset = self->lead_rb.len;
		self->lead_rb.pg->aux_size = self->aux_len;
		p = mmap(NULL, self->aux_len, PROT_READ | PROT_WRITE,
			 MAP_SHARED, self->leader, self->lead_rb.len);
		if (p == MAP_FAILED)
			return -errno;
		self->aux = p;
	}

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = sample_size;
	self->member = sys_perf_event_open(&attr, 0, -1, self->leader,
					   PERF_FLAG_FD_CLOEXEC);
	if (self->member < 0)
		return -errno;
	if (rb_mmap(&self->member_rb, self->member, DATA_PAGES,
		    PROT_READ | PROT_WRITE))
		return -errno;
	prefault_self();
	return 0;
}

/*
 * Let the member sample @n page faults with the leader on: the leader goes
 * off and on around the member's enable, so that the whole group is
 * scheduled in again (enabling a member alone schedules only its own PMU
 * on upstream).  0 or -1.
 */
static int sample_faults(struct _test_data_snap *self, int n)
{
	if (ioctl(self->leader, PERF_EVENT_IOC_DISABLE, 0) ||
	    ioctl(self->member, PERF_EVENT_IOC_ENABLE, 0) ||
	    ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	if (touch_fresh_pages(n))
		return -1;
	return ioctl(self->member, PERF_EVENT_IOC_DISABLE, 0) ? -1 : 0;
}

/*
 * Copy the member's records out and consume them: how many, or -1 at one
 * that is not a sample or does not fit struct aux_sample.
 */
static int drain(struct _test_data_snap *self)
{
	struct rb_map *rb = &self->member_rb;
	__u64 head = rb_head(rb), off = rb->pg->data_tail;
	int n = 0;

	while (off != head) {
		struct aux_sample *s = &self->s[n];

		if (n == MAX_SAMPLES || head - off < sizeof(s->h))
			return -1;
		rb_copy(rb, off, &s->h, sizeof(s->h));
		if (s->h.type != PERF_RECORD_SAMPLE ||
		    s->h.size < sizeof(s->h) + sizeof(s->size) ||
		    s->h.size > sizeof(*s) || s->h.size > head - off)
			return -1;
		rb_copy(rb, off, s, s->h.size);
		off += s->h.size;
		n++;
	}
	rb_set_tail(rb, head);
	return n;
}

/* The first byte of @s's AUX data that is not the pattern ending at @end. */
static long first_wrong(const struct aux_sample *s, __u64 end)
{
	__u64 i;

	for (i = 0; i < s->size; i++)
		if (s->data[i] != pattern(end - s->size + i, SEED))
			return i;
	return -1;
}

/*
 * Each sample holds the leader's newest bytes at the time of the fault:
 * after one chunk, the end of that chunk; after the next, the end of the
 * next, for every sample taken then.  16 + 112 bytes a record.
 */
TEST_F(snap, samples_carry_newest_aux_bytes)
{
	int i, n;

	ASSERT_EQ(snap_open(self, self->type, AUX_PAGES, 256, 112), 0)
		TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0), 0);

	ASSERT_EQ(perf_read_count(self->leader), 256);
	ASSERT_EQ(sample_faults(self, 1), 0);
	n = drain(self);
	ASSERT_EQ(n, 1);
	EXPECT_EQ(self->s[0].h.size, 128);
	EXPECT_EQ(self->s[0].size, 112);
	EXPECT_EQ(first_wrong(&self->s[0], 256), -1);

	ASSERT_EQ(perf_read_count(self->leader), 512);
	ASSERT_EQ(perf_read_count(self->leader), 768);
	ASSERT_EQ(sample_faults(self, 3), 0);
	n = drain(self);
	ASSERT_EQ(n, 3);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(self->s[i].h.size, 128);
		EXPECT_EQ(self->s[i].size, 112);
		EXPECT_EQ(first_wrong(&self->s[i], 768), -1)
			TH_LOG("sample %d", i);
	}
}

/* A size that is not whole u64s is rounded down: 100 bytes give 96. */
TEST_F(snap, size_rounds_down_to_u64)
{
	ASSERT_EQ(snap_open(self, self->type, AUX_PAGES, 200, 100), 0)
		TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(perf_read_count(self->leader), 200);
	ASSERT_EQ(sample_faults(self, 2), 0);
	ASSERT_EQ(drain(self), 2);
	EXPECT_EQ(self->s[0].size, 96);
	EXPECT_EQ(self->s[0].h.size, 16 + 96);
	EXPECT_EQ(first_wrong(&self->s[0], 200), -1);
	EXPECT_EQ(self->s[1].size, 96);
	EXPECT_EQ(first_wrong(&self->s[1], 200), -1);
}

/* A leader with no AUX area has nothing to copy: size 0, no bytes. */
TEST_F(snap, no_aux_area_no_bytes)
{
	ASSERT_EQ(snap_open(self, self->type, 0, 256, 64), 0)
		TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(sample_faults(self, 2), 0);
	ASSERT_EQ(drain(self), 2);
	EXPECT_EQ(self->s[0].h.size, 16);
	EXPECT_EQ(self->s[0].size, 0);
	EXPECT_EQ(self->s[1].h.size, 16);
	EXPECT_EQ(self->s[1].size, 0);
}

/*
 * aux_sample_size needs a leader whose PMU can snapshot: EINVAL under the
 * same tracer without one, and with no leader at all.
 */
TEST_F(snap, needs_a_snapshot_leader)
{
	struct perf_event_attr attr;
	int fd;

	EXPECT_EQ(snap_open(self, self->plain_type, AUX_PAGES, 256, 64),
		  -EINVAL);

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_AUX;
	attr.aux_sample_size = 64;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	EXPECT_EQ(fd, -1);
	EXPECT_EQ(errno, EINVAL);
	if (fd >= 0)
		close(fd);
}

/*
 * Without PERF_SAMPLE_AUX in sample_type the link is made but the
 * samples carry no AUX part at all: 8 bytes of header and the id.
 */
TEST_F(snap, no_sample_aux_no_part)
{
	struct perf_event_attr attr;
	struct aux_sample s;
	__u64 head;

	ASSERT_EQ(snap_open(self, self->type, AUX_PAGES, 256, 64), 0);
	close(self->member);
	rb_unmap(&self->member_rb);
	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ID;
	attr.aux_sample_size = 64;
	self->member = sys_perf_event_open(&attr, 0, -1, self->leader,
					   PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(self->member, 0) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(rb_mmap(&self->member_rb, self->member, DATA_PAGES,
			  PROT_READ | PROT_WRITE), 0);
	prefault_self();
	ASSERT_EQ(ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(perf_read_count(self->leader), 256);
	ASSERT_EQ(sample_faults(self, 1), 0);
	head = rb_head(&self->member_rb);
	ASSERT_EQ(head, 16);
	rb_copy(&self->member_rb, 0, &s, 16);
	EXPECT_EQ(s.h.type, PERF_RECORD_SAMPLE);
	EXPECT_EQ(s.h.size, 16);
}

TEST_HARNESS_MAIN
