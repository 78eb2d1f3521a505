// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the shared ring buffer's writers (rb_shared.c): when
 * data_head moves, what a full buffer does, and the head's 48-bit wrap.
 *
 * The buffer is a real one (rb_alloc(), one data page); the event is a
 * zeroed structure, which is all the writers read of it when nothing is
 * lost before a record and no wakeup is due.  Writers are interleaved by
 * hand, in the orders that CPUs running at once could produce.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../rb.h"

#define REC	16

struct shared_fixture {
	struct perf_buffer *rb;
	struct perf_event *event;
};

static void shared_exit(void *data)
{
	rb_put(data);
}

/* a shared buffer of one page whose watermark never wakes anyone */
static void shared_init(struct kunit *test, struct shared_fixture *f)
{
	f->rb = rb_alloc(1, PAGE_SIZE, -1, false, true);
	KUNIT_ASSERT_NOT_NULL(test, f->rb);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, shared_exit,
							   f->rb));
	f->event = kunit_kzalloc(test, sizeof(*f->event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->event);
}

static int shared_begin(struct shared_fixture *f,
			struct perf_output_handle *h)
{
	memset(h, 0, sizeof(*h));
	return rb_shared_begin(h, f->rb, NULL, f->event, REC);
}

static u64 shared_head(struct shared_fixture *f)
{
	return READ_ONCE(f->rb->user_page->data_head);
}

/*
 * Two writers overlap: whichever finishes first, data_head stays put
 * until neither is in flight, then covers both records at once.
 */
static void shared_publish_waits_for_every_writer(struct kunit *test)
{
	struct perf_output_handle a, b;
	struct shared_fixture f;

	shared_init(test, &f);
	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &a));
	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &b));
	KUNIT_EXPECT_EQ(test, 0, a.start);
	KUNIT_EXPECT_EQ(test, REC, b.start);
	rb_shared_end(&b);
	KUNIT_EXPECT_EQ(test, 0, shared_head(&f));
	rb_shared_end(&a);
	KUNIT_EXPECT_EQ(test, 2 * REC, shared_head(&f));

	/* alone again: each record is published as it ends */
	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &a));
	rb_shared_end(&a);
	KUNIT_EXPECT_EQ(test, 3 * REC, shared_head(&f));
}

/*
 * A publisher that lost the race must not move data_head back: a later
 * publisher's head stands.
 */
static void shared_head_never_goes_back(struct kunit *test)
{
	struct perf_output_handle a;
	struct shared_fixture f;

	shared_init(test, &f);
	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &a));
	/* as if another CPU had already published further */
	WRITE_ONCE(f.rb->user_page->data_head, 5 * REC);
	f.rb->user_page->data_tail = 5 * REC;
	rb_shared_end(&a);
	KUNIT_EXPECT_EQ(test, 5 * REC, shared_head(&f));
}

/* Full: the record is refused and counted, for the event and the buffer. */
static void shared_full_counts_the_loss(struct kunit *test)
{
	struct perf_output_handle h;
	struct shared_fixture f;
	int i;

	shared_init(test, &f);
	for (i = 0; i < PAGE_SIZE / REC; i++) {
		KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &h));
		rb_shared_end(&h);
	}
	KUNIT_EXPECT_EQ(test, PAGE_SIZE, shared_head(&f));
	KUNIT_EXPECT_EQ(test, -ENOSPC, shared_begin(&f, &h));
	KUNIT_EXPECT_EQ(test, 1, atomic64_read(&f.event->lost_samples));
	KUNIT_EXPECT_EQ(test, 1, atomic_long_read(&f.rb->sh_lost));
	/* no writer was left in flight by the refusal */
	KUNIT_EXPECT_EQ(test, 0, atomic_long_read(&f.rb->sh_state) & 0xffff);
}

/*
 * The state word keeps 48 bits of head; data_head is 64 bits and goes on
 * past 2^48 where the word wraps.
 */
static void shared_head_wraps_at_48_bits(struct kunit *test)
{
	unsigned long start = (1UL << 48) - REC;
	u64 head = (3ULL << 48) + start;
	struct perf_output_handle a, b;
	struct shared_fixture f;

	shared_init(test, &f);
	atomic_long_set(&f.rb->sh_state, start << 16);
	atomic_long_set(&f.rb->sh_wakeup, start);
	atomic_long_set(&f.rb->sh_woken, start);
	f.rb->user_page->data_head = head;
	f.rb->user_page->data_tail = head;

	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &a));
	KUNIT_ASSERT_EQ(test, 0, shared_begin(&f, &b));
	/* the second record starts where the word wrapped, at offset 0 */
	KUNIT_EXPECT_EQ(test, 0, b.start);
	KUNIT_EXPECT_PTR_EQ(test, f.rb->data_pages[0], b.addr);
	rb_shared_end(&a);
	rb_shared_end(&b);
	KUNIT_EXPECT_EQ(test, head + 2 * REC, shared_head(&f));
}

static struct kunit_case rb_shared_cases[] = {
	KUNIT_CASE(shared_publish_waits_for_every_writer),
	KUNIT_CASE(shared_head_never_goes_back),
	KUNIT_CASE(shared_full_counts_the_loss),
	KUNIT_CASE(shared_head_wraps_at_48_bits),
	{}
};

static struct kunit_suite rb_shared_suite = {
	.name = "perf_rb_shared",
	.test_cases = rb_shared_cases,
};

kunit_test_suite(rb_shared_suite);
