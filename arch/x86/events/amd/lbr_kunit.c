// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of AMD's LbrExtV2 (lbr.c): the LBR_SELECT a branch
 * selection programs, bit by bit against the APM's layout, the selections
 * refused, and how an LBR_FROM/LBR_TO pair becomes a branch entry.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "amd.h"

/*
 * LBR_SELECT, APM vol. 2: each bit set suppresses. Written out here, not
 * taken from amd.h, so that a wrong bit there shows.
 */
#define SEL_RING0	BIT_ULL(0)	/* ending at CPL 0 */
#define SEL_RING3	BIT_ULL(1)	/* ending at CPL > 0 */
#define SEL_JCC		BIT_ULL(2)
#define SEL_REL_CALL	BIT_ULL(3)
#define SEL_IND_CALL	BIT_ULL(4)
#define SEL_RET		BIT_ULL(5)
#define SEL_IND_JMP	BIT_ULL(6)
#define SEL_REL_JMP	BIT_ULL(7)
#define SEL_FAR		BIT_ULL(8)
#define SEL_KINDS	GENMASK_ULL(8, 2)

static u64 select_for(struct kunit *test, u64 bst)
{
	s64 sel = amd_lbr_select(bst);

	KUNIT_ASSERT_GE_MSG(test, sel, 0, "branch_sample_type %#llx", bst);
	return sel;
}

/* each kind on its own, user level: the other kinds and ring 0 suppressed */
static void amd_lbr_select_kinds(struct kunit *test)
{
	static const struct {
		u64 bst;
		u64 kept;
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_ANY, SEL_KINDS },
		{ PERF_SAMPLE_BRANCH_COND, SEL_JCC },
		{ PERF_SAMPLE_BRANCH_CALL, SEL_REL_CALL },
		{ PERF_SAMPLE_BRANCH_IND_CALL, SEL_IND_CALL },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, SEL_IND_JMP },
		{ PERF_SAMPLE_BRANCH_ANY_CALL,
		  SEL_REL_CALL | SEL_IND_CALL | SEL_FAR },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, SEL_RET | SEL_FAR },
		{ PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_IND_CALL,
		  SEL_REL_CALL | SEL_IND_CALL },
		{ PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_ANY_RETURN,
		  SEL_JCC | SEL_RET | SEL_FAR },
		/* no kind: nothing recorded (the core refuses it anyway) */
		{ 0, 0 },
	};
	u64 u = PERF_SAMPLE_BRANCH_USER;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, select_for(test, cases[i].bst | u),
				    SEL_RING0 | (SEL_KINDS & ~cases[i].kept),
				    "case %d", i);
}

/* the levels suppress the ring a branch ends in */
static void amd_lbr_select_levels(struct kunit *test)
{
	u64 any = PERF_SAMPLE_BRANCH_ANY;

	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_USER),
			SEL_RING0);
	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_KERNEL),
			SEL_RING3);
	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_USER |
					 PERF_SAMPLE_BRANCH_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, select_for(test, PERF_SAMPLE_BRANCH_COND |
					 PERF_SAMPLE_BRANCH_KERNEL),
			SEL_RING3 | (SEL_KINDS & ~SEL_JCC));
}

/*
 * Upstream's answers: the hypervisor level and the output options are
 * accepted and program nothing; transaction states, call-stack mode and
 * NO_FLAGS/NO_CYCLES are -EOPNOTSUPP whatever they come with.
 */
static void amd_lbr_select_refused(struct kunit *test)
{
	static const u64 refused[] = {
		PERF_SAMPLE_BRANCH_ABORT_TX, PERF_SAMPLE_BRANCH_IN_TX,
		PERF_SAMPLE_BRANCH_NO_TX, PERF_SAMPLE_BRANCH_CALL_STACK,
		PERF_SAMPLE_BRANCH_NO_FLAGS, PERF_SAMPLE_BRANCH_NO_CYCLES,
	};
	u64 base = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, amd_lbr_select(base | refused[i]),
				    (s64)-EOPNOTSUPP, "bit %#llx", refused[i]);
	KUNIT_EXPECT_EQ(test, amd_lbr_select(PERF_SAMPLE_BRANCH_CALL_STACK |
					     PERF_SAMPLE_BRANCH_CALL |
					     PERF_SAMPLE_BRANCH_USER),
			(s64)-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, select_for(test, base | PERF_SAMPLE_BRANCH_HV |
					 PERF_SAMPLE_BRANCH_TYPE_SAVE |
					 PERF_SAMPLE_BRANCH_HW_INDEX |
					 PERF_SAMPLE_BRANCH_PRIV_SAVE |
					 PERF_SAMPLE_BRANCH_COUNTERS),
			SEL_RING0);
}

#define TO_VALID	BIT_ULL(63)
#define TO_SPEC		BIT_ULL(62)
#define TO_IGNORE	BIT_ULL(61)
#define FROM_MISPRED	BIT_ULL(63)

/* valid and spec: whether there is a branch, and on which path */
static void amd_lbr_decode_flags(struct kunit *test)
{
	struct perf_branch_entry e;
	u64 from = 0x401000, to = 0x402000;

	KUNIT_EXPECT_FALSE(test, amd_lbr_decode(from, to, 48, &e));
	KUNIT_EXPECT_FALSE(test, amd_lbr_decode(0, 0, 48, &e));
	KUNIT_EXPECT_FALSE(test, amd_lbr_decode(from, to | TO_VALID | TO_IGNORE,
						48, &e));

	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(from, to | TO_VALID, 48, &e));
	KUNIT_EXPECT_EQ(test, e.from, from);
	KUNIT_EXPECT_EQ(test, e.to, to);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.spec,
			PERF_BR_NON_SPEC_CORRECT_PATH);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.mispred, 0);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.predicted, 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.type, PERF_BR_UNKNOWN);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.cycles, 0);

	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(from | FROM_MISPRED,
					       to | TO_VALID | TO_SPEC, 48, &e));
	KUNIT_EXPECT_EQ(test, e.from, from);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.spec, PERF_BR_SPEC_CORRECT_PATH);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.mispred, 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)e.predicted, 0);

	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(from, to | TO_SPEC, 48, &e));
	KUNIT_EXPECT_EQ(test, (unsigned int)e.spec, PERF_BR_SPEC_WRONG_PATH);
}

/* the addresses are sign-extended from the virtual address width */
static void amd_lbr_decode_addresses(struct kunit *test)
{
	struct perf_branch_entry e;
	u64 k48 = 0x0000ffff81000000ULL, k57 = 0x01ffffff81000000ULL;

	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(k48 | FROM_MISPRED,
					       k48 | TO_VALID, 48, &e));
	KUNIT_EXPECT_EQ(test, e.from, 0xffffffff81000000ULL);
	KUNIT_EXPECT_EQ(test, e.to, 0xffffffff81000000ULL);
	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(k57, k57 | TO_VALID, 57, &e));
	KUNIT_EXPECT_EQ(test, e.from, 0xffffffff81000000ULL);
	/* a 57-bit user address stays as it is */
	KUNIT_ASSERT_TRUE(test, amd_lbr_decode(0x00ff000000001000ULL,
					       0x00ff000000002000ULL | TO_VALID,
					       57, &e));
	KUNIT_EXPECT_EQ(test, e.from, 0x00ff000000001000ULL);
	KUNIT_EXPECT_EQ(test, e.to, 0x00ff000000002000ULL);
}

static struct kunit_case amd_lbr_cases[] = {
	KUNIT_CASE(amd_lbr_select_kinds),
	KUNIT_CASE(amd_lbr_select_levels),
	KUNIT_CASE(amd_lbr_select_refused),
	KUNIT_CASE(amd_lbr_decode_flags),
	KUNIT_CASE(amd_lbr_decode_addresses),
	{}
};

static struct kunit_suite amd_lbr_suite = {
	.name = "perf_x86_amd_lbr",
	.test_cases = amd_lbr_cases,
};

kunit_test_suite(amd_lbr_suite);
