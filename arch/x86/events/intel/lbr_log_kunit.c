// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the branch counters' reordering (lbr_log.c): LBR_INFO
 * keeps two bits per general-purpose counter, by counter number; a
 * sample gives them in the group's order, and no entry keeps them in its
 * reserved bits.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "intel.h"

static void lbr_log_counts_in_group_order(struct kunit *test)
{
	DEFINE_RAW_FLEX(struct perf_branch_stack, bs, entries, 3);
	/* counters 0-3 hold 1, 2, 3, 0; then 3, 0, 1, 2; then 0, 0, 0, 3 */
	static const u64 raw[3] = { 0x39, 0x93, 0xc0 };
	/* the group's loggers are on counters 2, 0 and 3, in that order */
	static const int order[3] = { 2, 0, 3 };
	u64 cntrs[3];
	int i;

	bs->nr = 3;
	for (i = 0; i < 3; i++) {
		memset(&bs->entries[i], 0, sizeof(bs->entries[i]));
		bs->entries[i].reserved = raw[i];
	}
	intel_lbr_log_take(bs, order, 3, cntrs);
	KUNIT_EXPECT_EQ(test, cntrs[0], 3 | 1 << 2 | 0 << 4);
	KUNIT_EXPECT_EQ(test, cntrs[1], 1 | 3 << 2 | 2 << 4);
	KUNIT_EXPECT_EQ(test, cntrs[2], 0 | 0 << 2 | 3 << 4);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, (u64)bs->entries[i].reserved, 0);

	/* one logger on counter 1: only its field, at the bottom */
	bs->entries[0].reserved = raw[1];
	bs->nr = 1;
	intel_lbr_log_take(bs, order + 1, 1, cntrs);
	KUNIT_EXPECT_EQ(test, cntrs[0], 3);
}

static struct kunit_case lbr_log_cases[] = {
	KUNIT_CASE(lbr_log_counts_in_group_order),
	{}
};

static struct kunit_suite lbr_log_suite = {
	.name = "perf_x86_lbr_log",
	.test_cases = lbr_log_cases,
};

kunit_test_suite(lbr_log_suite);
