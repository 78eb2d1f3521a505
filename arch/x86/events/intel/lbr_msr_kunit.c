// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the model-specific LBR's filter: what MSR_LBR_SELECT a
 * branch selection programs (intel_lbr_ctl() then intel_lbr_select()),
 * bit by bit against the SDM's table, the selections refused, the
 * stacks of an LBR that records no branch type, which keep their entries
 * untyped unless the event asks for types, and format 4's flags in
 * FROM_IP.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "intel.h"

/* MSR_LBR_SELECT, SDM vol. 3B: bits 0-8 suppress, 9 enables call stacks */
#define SEL_RING0	BIT_ULL(0)
#define SEL_RING3	BIT_ULL(1)
#define SEL_JCC		BIT_ULL(2)
#define SEL_REL_CALL	BIT_ULL(3)
#define SEL_IND_CALL	BIT_ULL(4)
#define SEL_RET		BIT_ULL(5)
#define SEL_IND_JMP	BIT_ULL(6)
#define SEL_REL_JMP	BIT_ULL(7)
#define SEL_FAR		BIT_ULL(8)
#define SEL_CALLSTACK	BIT_ULL(9)
#define SEL_KINDS	GENMASK_ULL(8, 2)

/* an LBR_FMT 5 LBR: every filter, call stacks, no recorded type */
static const struct intel_lbr_caps skl_caps = {
	.depth = 32, .cpl = true, .filter = true, .call_stack = true,
	.mispred = true, .timed = true,
};

static u64 select_for(struct kunit *test, u64 bst)
{
	s64 ctl = intel_lbr_ctl(bst, &skl_caps);

	KUNIT_ASSERT_GE_MSG(test, ctl, 0, "branch_sample_type %#llx", bst);
	return intel_lbr_select(ctl);
}

static void lbr_select_kinds(struct kunit *test)
{
	static const struct {
		u64 bst;
		u64 kept;	/* the kinds not suppressed */
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_ANY, SEL_KINDS },
		{ PERF_SAMPLE_BRANCH_COND, SEL_JCC },
		{ PERF_SAMPLE_BRANCH_CALL, SEL_REL_CALL },
		{ PERF_SAMPLE_BRANCH_IND_CALL, SEL_IND_CALL },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, SEL_IND_JMP },
		{ PERF_SAMPLE_BRANCH_ANY_CALL,
		  SEL_REL_CALL | SEL_IND_CALL | SEL_FAR },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, SEL_RET | SEL_FAR },
		{ PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_IND_JUMP,
		  SEL_JCC | SEL_IND_JMP },
		/* no kind at all: nothing is recorded */
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
static void lbr_select_levels(struct kunit *test)
{
	u64 any = PERF_SAMPLE_BRANCH_ANY;

	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_USER),
			SEL_RING0);
	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_KERNEL),
			SEL_RING3);
	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_USER |
					 PERF_SAMPLE_BRANCH_KERNEL), 0);
	/* the hypervisor level and output options program nothing */
	KUNIT_EXPECT_EQ(test, select_for(test, any | PERF_SAMPLE_BRANCH_USER |
					 PERF_SAMPLE_BRANCH_HV |
					 PERF_SAMPLE_BRANCH_TYPE_SAVE |
					 PERF_SAMPLE_BRANCH_HW_INDEX |
					 PERF_SAMPLE_BRANCH_NO_CYCLES),
			SEL_RING0);
}

/*
 * Call-stack mode: EN_CALLSTACK, with every kind but near calls and
 * returns suppressed (the only setting the SDM defines); direct calls
 * may be asked for too. The other kinds are -EINVAL; an LBR without
 * call stacks, or without the filters, is -EOPNOTSUPP.
 */
static void lbr_select_call_stack(struct kunit *test)
{
	u64 cs = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER;
	struct intel_lbr_caps no_cs = skl_caps, no_filter = skl_caps;
	u64 want = SEL_RING0 | SEL_CALLSTACK | SEL_JCC | SEL_IND_JMP |
		   SEL_REL_JMP | SEL_FAR;

	KUNIT_EXPECT_EQ(test, select_for(test, cs), want);
	KUNIT_EXPECT_EQ(test, select_for(test, cs | PERF_SAMPLE_BRANCH_CALL),
			want);
	KUNIT_EXPECT_EQ(test, intel_lbr_ctl(cs | PERF_SAMPLE_BRANCH_COND,
					    &skl_caps), -EINVAL);
	KUNIT_EXPECT_EQ(test, intel_lbr_ctl(cs | PERF_SAMPLE_BRANCH_ANY,
					    &skl_caps), -EINVAL);
	no_cs.call_stack = false;
	KUNIT_EXPECT_EQ(test, intel_lbr_ctl(cs, &no_cs), -EOPNOTSUPP);
	no_filter.filter = false;
	KUNIT_EXPECT_EQ(test, intel_lbr_ctl(cs, &no_filter), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, intel_lbr_ctl(PERF_SAMPLE_BRANCH_COND,
					    &no_filter), -EOPNOTSUPP);
}

/*
 * No recorded type: every kind at every level keeps the stack as read,
 * untyped; asking for the types (or a narrower selection) classifies
 * each entry.
 */
static void lbr_select_untyped_stacks(struct kunit *test)
{
	const u64 all = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			PERF_SAMPLE_BRANCH_KERNEL;
	u8 ty[2] = { X86_LBR_TYPE_RET, X86_LBR_TYPE_COND };
	struct perf_branch_stack *bs;

	bs = kunit_kzalloc(test, struct_size(bs, entries, 2), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bs);
	bs->nr = 2;
	bs->entries[0] = (struct perf_branch_entry){ .from = 0x401000,
						     .to = 0x402000 };
	bs->entries[1] = (struct perf_branch_entry){ .from = 0x401010,
						     .to = 0x402000 };
	x86_lbr_filter(bs, ty, x86_lbr_wanted(all));
	KUNIT_EXPECT_EQ(test, bs->nr, 2);
	KUNIT_EXPECT_EQ(test, (unsigned int)bs->entries[0].type,
			PERF_BR_UNKNOWN);

	x86_lbr_filter(bs, ty, x86_lbr_wanted(PERF_SAMPLE_BRANCH_ANY |
						  PERF_SAMPLE_BRANCH_USER));
	KUNIT_EXPECT_EQ(test, bs->nr, 2);
	KUNIT_EXPECT_EQ(test, (unsigned int)bs->entries[1].type,
			PERF_BR_UNKNOWN);

	x86_lbr_filter(bs, ty, x86_lbr_wanted(all |
					PERF_SAMPLE_BRANCH_TYPE_SAVE));
	KUNIT_EXPECT_EQ(test, bs->nr, 2);
	KUNIT_EXPECT_EQ(test, (unsigned int)bs->entries[0].type, PERF_BR_RET);
	KUNIT_EXPECT_EQ(test, (unsigned int)bs->entries[1].type,
			PERF_BR_COND);
}

/*
 * LBR_FMT 4 (Haswell, Broadwell): FROM_IP holds MISPRED (63), IN_TX (62)
 * and TSX_ABORT (61) above an address sign-extended from bit 60; without
 * TSX, 62:61 are sign extension as well, on read and on write. LBR_FMT 3
 * (Sandy Bridge, Ivy Bridge): MISPRED (63) above an address sign-extended
 * from bit 62.
 */
static void lbr_from_flags(struct kunit *test)
{
	static const struct {
		u64 raw;
		unsigned int fmt;
		bool tsx;
		u64 from, info;
	} cases[] = {
		/* a user address, mispredicted, in a transaction */
		{ 0xc000000000401000ULL, 4, true, 0x401000,
		  BIT_ULL(63) | BIT_ULL(62) },
		/* a kernel address on a part without TSX: 62:61 are sign */
		{ 0x7fffffff81000000ULL, 4, false, 0xffffffff81000000ULL, 0 },
		{ 0xffffffff81000000ULL, 4, false, 0xffffffff81000000ULL,
		  BIT_ULL(63) },
		/* with TSX, an aborted kernel-address entry */
		{ 0x3fffffff81000000ULL, 4, true, 0xffffffff81000000ULL,
		  BIT_ULL(61) },
		{ 0x0000000000401000ULL, 4, false, 0x401000, 0 },
		/* format 3: bits 62:61 are the address's */
		{ 0x8000000000401000ULL, 3, false, 0x401000, BIT_ULL(63) },
		{ 0x7fffffff81000000ULL, 3, false, 0xffffffff81000000ULL, 0 },
		{ 0xffffffff81000000ULL, 3, false, 0xffffffff81000000ULL,
		  BIT_ULL(63) },
		{ 0x1fffffff81000000ULL, 3, false, 0x1fffffff81000000ULL, 0 },
	};
	struct intel_lbr_rec rec;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		intel_lbr_from_split(cases[i].raw, cases[i].fmt, cases[i].tsx,
				     &rec);
		KUNIT_EXPECT_EQ_MSG(test, rec.from, cases[i].from, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, rec.info, cases[i].info, "case %d", i);
		/* what goes back is what was read */
		if (cases[i].fmt == 4)
			KUNIT_EXPECT_EQ_MSG(test,
					    intel_lbr_from_join(&rec, cases[i].tsx),
					    cases[i].raw, "case %d", i);
	}
}

static struct kunit_case lbr_select_cases[] = {
	KUNIT_CASE(lbr_select_kinds),
	KUNIT_CASE(lbr_select_levels),
	KUNIT_CASE(lbr_select_call_stack),
	KUNIT_CASE(lbr_select_untyped_stacks),
	KUNIT_CASE(lbr_from_flags),
	{}
};

static struct kunit_suite lbr_select_suite = {
	.name = "perf_x86_lbr_select",
	.test_cases = lbr_select_cases,
};

kunit_test_suite(lbr_select_suite);
