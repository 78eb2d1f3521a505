// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the AMD event maps (core.c): which Zen generation a
 * family and model is, and the generic events each generation gets.
 *
 * The expected encodings are read off Linux 6.12's amdzen1-5 event lists
 * (tools/perf/pmu-events/arch/x86) by hand. Nothing touches hardware.
 */
#include <kunit/test.h>

#include "../pmu.h"
#include "amd.h"

#define C(x)	PERF_COUNT_HW_CACHE_##x

static void zen_generation_follows_the_mapfile(struct kunit *test)
{
	static const struct {
		unsigned int family, model, zen;
	} cases[] = {
		{ 0x10, 0x02, 0 }, { 0x15, 0x30, 0 }, { 0x16, 0x00, 0 },
		{ 0x17, 0x01, 1 }, { 0x17, 0x18, 1 }, { 0x17, 0x2f, 1 },
		{ 0x17, 0x31, 2 }, { 0x17, 0x71, 2 }, { 0x17, 0xa0, 2 },
		{ 0x18, 0x00, 1 },
		{ 0x19, 0x01, 3 }, { 0x19, 0x21, 3 }, { 0x19, 0x50, 3 },
		{ 0x19, 0x11, 4 }, { 0x19, 0x3f, 4 }, { 0x19, 0x61, 4 },
		{ 0x19, 0x74, 4 }, { 0x19, 0xa0, 4 },
		{ 0x1a, 0x02, 5 }, { 0x1a, 0x44, 5 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, amd_zen(cases[i].family,
						  cases[i].model),
				    cases[i].zen, "family %#x model %#x",
				    cases[i].family, cases[i].model);
}

static struct x86_core *kunit_map(struct kunit *test, unsigned int family,
				  unsigned int model)
{
	struct x86_core *core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, core);
	amd_hw_map(core, family, model);
	KUNIT_ASSERT_NOT_NULL(test, core->cache_map);
	return core;
}

static u64 cache(const struct x86_core *core, int type, int op, int res)
{
	return (*core->cache_map)[type][op][res];
}

static void generic_events_by_generation(struct kunit *test)
{
	struct x86_core *k10 = kunit_map(test, 0x15, 0x02);
	struct x86_core *zen1 = kunit_map(test, 0x17, 0x08);
	struct x86_core *zen2 = kunit_map(test, 0x17, 0x31);
	struct x86_core *zen3 = kunit_map(test, 0x19, 0x21);
	struct x86_core *zen4 = kunit_map(test, 0x19, 0x61);
	struct x86_core *zen5 = kunit_map(test, 0x1a, 0x02);
	struct x86_core *all[] = { zen1, zen2, zen3, zen4, zen5 };
	int i;

	/* every Zen: ex_ret_brn, ex_ret_brn_misp, l2_cache_req_stat.ic_dc_miss_in_l2 */
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		u64 *map = all[i]->hw_map;

		KUNIT_EXPECT_EQ(test, map[PERF_COUNT_HW_CPU_CYCLES], 0x0076);
		KUNIT_EXPECT_EQ(test, map[PERF_COUNT_HW_INSTRUCTIONS], 0x00c0);
		KUNIT_EXPECT_EQ(test, map[PERF_COUNT_HW_BRANCH_INSTRUCTIONS],
				0x00c2);
		KUNIT_EXPECT_EQ(test, map[PERF_COUNT_HW_BRANCH_MISSES], 0x00c3);
		KUNIT_EXPECT_EQ(test, map[PERF_COUNT_HW_CACHE_MISSES], 0x0964);
	}
	KUNIT_EXPECT_EQ(test, k10->hw_map[PERF_COUNT_HW_CACHE_MISSES], 0x077e);

	/* stalls: the fetch on Zen 1, the op queue after */
	KUNIT_EXPECT_EQ(test,
			zen1->hw_map[PERF_COUNT_HW_STALLED_CYCLES_BACKEND],
			0x0187);
	for (i = 1; i < ARRAY_SIZE(all); i++) {
		KUNIT_EXPECT_EQ(test, all[i]->hw_map
				[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND], 0x00a9);
		KUNIT_EXPECT_EQ(test, all[i]->hw_map
				[PERF_COUNT_HW_STALLED_CYCLES_BACKEND], 0);
	}

	/* l2_request_g1.all: no bit 3 on Zen 5 */
	KUNIT_EXPECT_EQ(test, zen4->hw_map[PERF_COUNT_HW_CACHE_REFERENCES],
			0xff60);
	KUNIT_EXPECT_EQ(test, zen5->hw_map[PERF_COUNT_HW_CACHE_REFERENCES],
			0xf760);

	/* the instruction cache: PMCx080/081 to Zen 3, PMCx18E after */
	KUNIT_EXPECT_EQ(test, cache(zen3, C(L1I), C(OP_READ), C(RESULT_MISS)),
			0x0081);
	KUNIT_EXPECT_EQ(test, cache(zen4, C(L1I), C(OP_READ), C(RESULT_MISS)),
			0x10000188eULL);
	KUNIT_EXPECT_EQ(test, cache(zen5, C(L1I), C(OP_READ),
				    C(RESULT_ACCESS)), 0x100001f8eULL);
	/* PMCx040 is gone on Zen 4 and 5: loads dispatched instead */
	KUNIT_EXPECT_EQ(test, cache(zen2, C(L1D), C(OP_READ),
				    C(RESULT_ACCESS)), 0x0040);
	KUNIT_EXPECT_EQ(test, cache(zen5, C(L1D), C(OP_READ),
				    C(RESULT_ACCESS)), 0x0129);
	KUNIT_EXPECT_EQ(test, cache(zen4, C(ITLB), C(OP_READ),
				    C(RESULT_MISS)), 0x0f85);
}

static struct kunit_case amd_maps_cases[] = {
	KUNIT_CASE(zen_generation_follows_the_mapfile),
	KUNIT_CASE(generic_events_by_generation),
	{}
};

static struct kunit_suite amd_maps_suite = {
	.name = "perf_x86_amd_maps",
	.test_cases = amd_maps_cases,
};

kunit_test_suite(amd_maps_suite);
