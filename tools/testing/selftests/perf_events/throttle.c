// SPDX-License-Identifier: GPL-2.0
/*
 * Throttling (F59, F84): an event that overflows more often in one tick
 * than perf_event_max_sample_rate allows (rate / HZ) is stopped until the
 * next tick, and its buffer says so with PERF_RECORD_THROTTLE, then
 * PERF_RECORD_UNTHROTTLE when the tick restarts it.
 *
 * The sampler is task-clock with a 10 us period (the shortest a clock
 * event allows) and the limit is lowered to 1000 samples a second for the
 * test, so any kernel HZ throttles it many times in a fraction of a
 * second of spinning.
 */
#define _GNU_SOURCE
#include <stddef.h>
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

#define LOW_RATE	1000
#define PERIOD_NS	10000ULL
#define SPIN_NS		200000000ULL
#define RB_PAGES	64

/* THROTTLE/UNTHROTTLE, with the TID|TIME sample_id_all trailer or not */
struct throttle_rec {
	struct perf_event_header header;
	__u64 time;
	__u64 id;
	__u64 stream_id;
	__u32 pid, tid;		/* trailer, when sample_id_all */
	__u64 trailer_time;
};

/* What one walk of the buffer found. */
struct walk {
	int samples, throttle, unthrottle, bad;
	int alternates;		/* records came THROTTLE, UNTHROTTLE, ... */
	__u64 last_time;
	struct throttle_rec first;
};

static void walk_buffer(struct rb_map *rb, __u64 id, int with_trailer,
			struct walk *w)
{
	__u64 head = rb_head(rb), off = rb->pg->data_tail;
	__u16 want = with_trailer ? sizeof(struct throttle_rec) :
				    offsetof(struct throttle_rec, pid);
	int expect = PERF_RECORD_THROTTLE;

	memset(w, 0, sizeof(*w));
	w->alternates = 1;
	while (off < head) {
		struct throttle_rec r;
		struct perf_event_header h;

		rb_copy(rb, off, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - off) {
			w->bad++;
			break;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			w->samples++;
		} else if (h.type == PERF_RECORD_THROTTLE ||
			   h.type == PERF_RECORD_UNTHROTTLE) {
			memset(&r, 0, sizeof(r));
			rb_copy(rb, off, &r, h.size < sizeof(r) ? h.size :
								  sizeof(r));
			if (h.size != want || r.id != id ||
			    r.stream_id != id || !r.time ||
			    r.time < w->last_time)
				w->bad++;
			if (with_trailer &&
			    (r.pid != getpid() || r.tid != gettid() ||
			     r.trailer_time < r.time))
				w->bad++;
			if (h.type != expect)
				w->alternates = 0;
			expect = h.type == PERF_RECORD_THROTTLE ?
				 PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE;
			if (!w->throttle && !w->unthrottle)
				w->first = r;
			w->last_time = r.time;
			if (h.type == PERF_RECORD_THROTTLE)
				w->throttle++;
			else
				w->unthrottle++;
		} else if (h.type != PERF_RECORD_LOST) {
			w->bad++;
		}
		off += h.size;
	}
	rb_set_tail(rb, head);
}

static void walk_add(struct walk *sum, const struct walk *w)
{
	sum->samples += w->samples;
	sum->bad += w->bad;
	sum->throttle += w->throttle;
	sum->unthrottle += w->unthrottle;
}

FIXTURE(throttle) {
	struct sample_limits saved;
	int fd;
	struct rb_map rb;
};

/*
 * The sysctls exist on every kernel with perf events: only a missing
 * privilege skips; a limit that cannot be read or set fails the test.
 */
FIXTURE_SETUP(throttle)
{
	struct sample_limits low = { .rate = LOW_RATE, .pct = -1 };
	int ret;

	self->fd = -1;
	memset(&self->rb, 0, sizeof(self->rb));
	if (geteuid())
		SKIP(return, "setting %s needs root", SAMPLE_RATE_PATH);
	ASSERT_EQ(0, sample_limits_get(&self->saved));
	ret = sample_limits_set(&low);
	if (ret) {
		/* the teardown runs only after a setup that went through */
		sample_limits_set(&self->saved);
		ASSERT_EQ(0, ret) TH_LOG("%s = %d: %s", SAMPLE_RATE_PATH,
					 LOW_RATE, strerror(-ret));
	}
}

/*
 * In the parent, so that the limits come back even when the test dies
 * of a signal; the test's own descriptor and buffer went with it.
 */
FIXTURE_TEARDOWN_PARENT(throttle)
{
	sample_limits_set(&self->saved);
}

static int open_sampler(int *fd, struct rb_map *rb, __u64 period,
			int sample_id_all)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME;
	attr.sample_id_all = sample_id_all;
	attr.disabled = 1;
	*fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (*fd < 0)
		return -1;
	return rb_mmap(rb, *fd, RB_PAGES, PROT_READ | PROT_WRITE);
}

/* Over the limit: throttled, then restarted, again and again. */
TEST_F(throttle, records_alternate_and_name_the_event)
{
	struct walk w;
	__u64 id;

	ASSERT_EQ(0, open_sampler(&self->fd, &self->rb, PERIOD_NS, 0));
	id = perf_event_id(self->fd);
	ASSERT_NE(0, id);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(SPIN_NS);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	walk_buffer(&self->rb, id, 0, &w);

	EXPECT_EQ(0, w.bad);
	EXPECT_GE(w.throttle, 2);
	/* the last throttle may still wait for its tick */
	EXPECT_GE(w.unthrottle, w.throttle - 1);
	EXPECT_LE(w.unthrottle, w.throttle);
	EXPECT_TRUE(w.alternates);
	/* throttled: far fewer samples than one per 10 us of spinning */
	EXPECT_LT(w.samples * 10ULL, SPIN_NS / PERIOD_NS);
	EXPECT_GT(w.samples, 0);
}

/* With sample_id_all, the records carry the trailer the attr asks for. */
TEST_F(throttle, sample_id_all_trailer)
{
	struct walk w;
	__u64 id;

	ASSERT_EQ(0, open_sampler(&self->fd, &self->rb, PERIOD_NS, 1));
	id = perf_event_id(self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(SPIN_NS / 4);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	walk_buffer(&self->rb, id, 1, &w);

	EXPECT_EQ(0, w.bad);
	EXPECT_GE(w.throttle, 1);
	EXPECT_EQ(getpid(), w.first.pid);
	EXPECT_EQ(gettid(), w.first.tid);
}

/* Well under the limit nothing is throttled. */
TEST_F(throttle, none_under_the_limit)
{
	struct sample_limits high = { .rate = 1000000, .pct = -1 };
	struct walk w, sum = { };
	__u64 id;
	int i;

	/* 1 ms: one sample a millisecond, the limit's own rate at most */
	ASSERT_EQ(0, sample_limits_set(&high));
	ASSERT_EQ(0, open_sampler(&self->fd, &self->rb, 1000000, 0));
	id = perf_event_id(self->fd);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	/*
	 * Until 50 samples are in (at most 20 times as long as that takes
	 * on a quiet host): a vCPU the host preempts for many periods gets
	 * one timer interrupt for all of them, so a fixed spin may see few.
	 */
	for (i = 0; i < 40 && sum.samples < 50; i++) {
		burn_cpu(SPIN_NS / 16);
		walk_buffer(&self->rb, id, 0, &w);	/* consumes what it read */
		walk_add(&sum, &w);
	}
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	walk_buffer(&self->rb, id, 0, &w);
	walk_add(&sum, &w);

	EXPECT_EQ(0, sum.bad);
	EXPECT_EQ(0, sum.throttle);
	EXPECT_EQ(0, sum.unthrottle);
	EXPECT_GE(sum.samples, 50);
}

TEST_HARNESS_MAIN
