// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of perf_output_copy() and perf_output_skip() (rb_output.c)
 * at the edges of a ring buffer's pages: a record's bytes go on at the
 * start of the next page, and the last page wraps to the first.
 *
 * A driver that writes through handle->addr itself (pmu::snapshot_aux())
 * may leave the handle at the very end of a page, with no room left in
 * it; the next copy must move to the next page rather than find no room
 * and try again forever (it did, before the copy moved when it needed
 * room instead of when a page filled).
 *
 * The buffer is a real one (rb_alloc(), two data pages); the handle is
 * set up by hand, where perf_output_begin() would have left it.
 */
#include <kunit/test.h>

#include "../rb.h"

static void output_exit(void *data)
{
	rb_put(data);
}

static struct perf_buffer *output_rb(struct kunit *test)
{
	struct perf_buffer *rb = rb_alloc(2, PAGE_SIZE, -1, false, false);

	KUNIT_ASSERT_NOT_NULL(test, rb);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, output_exit,
							   rb));
	return rb;
}

/* a handle at @off bytes into data page @page, with the rest of it left */
static void output_at(struct perf_output_handle *h, struct perf_buffer *rb,
		      int page, unsigned long off)
{
	memset(h, 0, sizeof(*h));
	h->rb = rb;
	h->page = page;
	h->addr = rb->data_pages[page] + off;
	h->size = PAGE_SIZE - off;
}

/* at the very end of page 0: the bytes land at the start of page 1 */
static void output_copy_from_page_end(struct kunit *test)
{
	struct perf_buffer *rb = output_rb(test);
	struct perf_output_handle h;
	u64 v = 0x1122334455667788ULL;

	output_at(&h, rb, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, perf_output_copy(&h, &v, sizeof(v)), 0);
	KUNIT_EXPECT_EQ(test, h.page, 1);
	KUNIT_EXPECT_EQ(test, h.size, PAGE_SIZE - sizeof(v));
	KUNIT_EXPECT_EQ(test, *(u64 *)rb->data_pages[1], v);
}

/* a copy across the boundary: the first part ends page 0, the rest starts 1 */
static void output_copy_across_pages(struct kunit *test)
{
	struct perf_buffer *rb = output_rb(test);
	struct perf_output_handle h;
	u8 buf[16], *p0, *p1;
	int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i + 1;
	output_at(&h, rb, 0, PAGE_SIZE - 8);
	perf_output_copy(&h, buf, sizeof(buf));
	p0 = rb->data_pages[0];
	p1 = rb->data_pages[1];
	KUNIT_EXPECT_EQ(test, memcmp(p0 + PAGE_SIZE - 8, buf, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p1, buf + 8, 8), 0);
	KUNIT_EXPECT_PTR_EQ(test, h.addr, (void *)(p1 + 8));
}

/* the last page wraps to the first, for a copy and for a skip */
static void output_wraps(struct kunit *test)
{
	struct perf_buffer *rb = output_rb(test);
	struct perf_output_handle h;
	u32 v = 0xabcdef01;

	output_at(&h, rb, 1, PAGE_SIZE);
	perf_output_copy(&h, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, h.page, 0);
	KUNIT_EXPECT_EQ(test, *(u32 *)rb->data_pages[0], v);

	output_at(&h, rb, 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, perf_output_skip(&h, 24), 0);
	KUNIT_EXPECT_EQ(test, h.page, 0);
	KUNIT_EXPECT_PTR_EQ(test, h.addr, rb->data_pages[0] + 24);
}

/* a skip from the end of a page, then a copy after it */
static void output_skip_then_copy(struct kunit *test)
{
	struct perf_buffer *rb = output_rb(test);
	struct perf_output_handle h;
	u64 v = 42;

	output_at(&h, rb, 0, PAGE_SIZE);
	perf_output_skip(&h, 8);
	perf_output_copy(&h, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, h.page, 1);
	KUNIT_EXPECT_EQ(test, *(u64 *)(rb->data_pages[1] + 8), v);
}

static struct kunit_case output_cases[] = {
	KUNIT_CASE(output_copy_from_page_end),
	KUNIT_CASE(output_copy_across_pages),
	KUNIT_CASE(output_wraps),
	KUNIT_CASE(output_skip_then_copy),
	{}
};

static struct kunit_suite output_suite = {
	.name = "perf_rb_output",
	.test_cases = output_cases,
};

kunit_test_suite(output_suite);
