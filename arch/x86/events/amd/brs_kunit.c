// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of AMD's Branch Sampling (brs.c): which events may sample
 * with it, and which recorded branches a stack keeps for each privilege
 * selection.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include <asm/perf_event.h>

#include "amd.h"

#define ANY	PERF_SAMPLE_BRANCH_ANY
#define USER	PERF_SAMPLE_BRANCH_USER
#define KERNEL	PERF_SAMPLE_BRANCH_KERNEL
#define HV	PERF_SAMPLE_BRANCH_HV

/* hw.config of retired taken branches, as event.c builds it (INT, USR, OS) */
#define TAKEN	(0xc4ULL | ARCH_PERFMON_EVENTSEL_INT | \
		 ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS)

static void amd_brs_event_ok_takes_taken_branches(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, amd_brs_event_ok(TAKEN, ANY | USER, 17, false));
	KUNIT_EXPECT_TRUE(test, amd_brs_event_ok(TAKEN & ~ARCH_PERFMON_EVENTSEL_USR,
						 ANY | KERNEL | HV, 1000003,
						 false));
	/* no privilege bit: the core fills them in from exclude_* */
	KUNIT_EXPECT_TRUE(test, amd_brs_event_ok(TAKEN, ANY, 100, false));
}

static void amd_brs_event_ok_refuses(struct kunit *test)
{
	/* other events, or 0xC4 with any other select bit */
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(0x00c2 | TAKEN, ANY, 100,
						  false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(0x0076, ANY, 100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN | 0x0100, ANY, 100,
						  false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN | 0x100000000ULL, ANY,
						  100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN |
						  ARCH_PERFMON_EVENTSEL_INV,
						  ANY, 100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN | (1ULL << 24), ANY,
						  100, false));
	/* a period the 16 entries would eat, and frequency mode */
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY, 16, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY, 1, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY, 4000, true));
	/* any selection but all branches */
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, USER, 100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN,
						  PERF_SAMPLE_BRANCH_ANY_CALL,
						  100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY |
						  PERF_SAMPLE_BRANCH_COND,
						  100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY |
						  PERF_SAMPLE_BRANCH_TYPE_SAVE,
						  100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY |
						  PERF_SAMPLE_BRANCH_HW_INDEX,
						  100, false));
	KUNIT_EXPECT_FALSE(test, amd_brs_event_ok(TAKEN, ANY |
						  PERF_SAMPLE_BRANCH_CALL_STACK,
						  100, false));
}

/* every pair of levels against every selection */
static void amd_brs_keep_levels(struct kunit *test)
{
	const u64 u = 0x0000000000401000ULL, k = 0xffffffff81000000ULL;
	static const struct {
		u64 bst;
		bool uu, uk, ku, kk;	/* from-to: user/kernel */
	} t[] = {
		{ USER,			true,  false, false, false },
		{ KERNEL,		false, true,  false, true  },
		{ HV,			false, true,  false, true  },
		{ USER | KERNEL,	true,  true,  true,  true  },
		{ USER | HV,		true,  true,  true,  true  },
		{ 0,			false, false, false, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		u64 bst = t[i].bst | ANY;

		KUNIT_EXPECT_EQ_MSG(test, amd_brs_keep(bst, u, u), t[i].uu,
				    "bst %#llx user->user", bst);
		KUNIT_EXPECT_EQ_MSG(test, amd_brs_keep(bst, u, k), t[i].uk,
				    "bst %#llx user->kernel", bst);
		KUNIT_EXPECT_EQ_MSG(test, amd_brs_keep(bst, k, u), t[i].ku,
				    "bst %#llx kernel->user", bst);
		KUNIT_EXPECT_EQ_MSG(test, amd_brs_keep(bst, k, k), t[i].kk,
				    "bst %#llx kernel->kernel", bst);
	}
}

static struct kunit_case amd_brs_cases[] = {
	KUNIT_CASE(amd_brs_event_ok_takes_taken_branches),
	KUNIT_CASE(amd_brs_event_ok_refuses),
	KUNIT_CASE(amd_brs_keep_levels),
	{}
};

static struct kunit_suite amd_brs_suite = {
	.name = "perf_x86_amd_brs",
	.test_cases = amd_brs_cases,
};

kunit_test_suite(amd_brs_suite);
