// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the branch-stack filter (lbr_filter.c): which entries a
 * selection keeps, the PERF_BR_* type each gets, the privilege rules for
 * both ends of a branch, and the decoding of "other branch" entries from
 * the bytes of the instruction at their source.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "lbr_filter.h"

#define USER_A	0x401000ULL
#define USER_B	0x402000ULL
#define KERN_A	0xffffffff81000000ULL

#define T(x)	X86_LBR_TYPE_##x
#define OTHER	8

/* a stack of @n entries from @e, filtered by @bst; returns what is left */
static u64 filter(struct kunit *test, struct perf_branch_entry *e,
		  const u8 *types, int n, u64 bst,
		  struct perf_branch_entry *out)
{
	struct perf_branch_stack *bs;
	int i;

	bs = kunit_kzalloc(test, struct_size(bs, entries, n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bs);
	bs->nr = n;
	for (i = 0; i < n; i++)
		bs->entries[i] = e[i];
	x86_lbr_filter(bs, types, x86_lbr_wanted(bst) | X86_BR_TYPE_SAVE);
	for (i = 0; i < bs->nr; i++)
		out[i] = bs->entries[i];
	return bs->nr;
}

static void lbr_filter_kinds(struct kunit *test)
{
	struct perf_branch_entry e[6] = {
		{ .from = USER_A, .to = USER_B },	/* Jcc */
		{ .from = USER_A + 1, .to = USER_B },	/* CALL */
		{ .from = USER_A + 2, .to = USER_B },	/* RET */
		{ .from = USER_A + 3, .to = USER_B },	/* JMP *r */
		{ .from = USER_A + 4, .to = USER_B },	/* CALL *r */
		{ .from = USER_A + 5, .to = USER_B },	/* JMP */
	};
	u8 ty[6] = { T(COND), T(REL_CALL), T(RET), T(IND_JMP), T(IND_CALL),
		     T(REL_JMP) };
	struct perf_branch_entry out[8];
	u64 u = PERF_SAMPLE_BRANCH_USER;

	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_ANY, out), 6);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[0].type, PERF_BR_COND);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[1].type, PERF_BR_CALL);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[2].type, PERF_BR_RET);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[3].type, PERF_BR_IND);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[4].type, PERF_BR_IND_CALL);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[5].type, PERF_BR_UNCOND);

	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_COND, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].from, USER_A);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_ANY_CALL, out), 2);
	KUNIT_EXPECT_EQ(test, out[0].from, USER_A + 1);
	KUNIT_EXPECT_EQ(test, out[1].from, USER_A + 4);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_CALL, out), 1);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_IND_CALL, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].from, USER_A + 4);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_ANY_RETURN, out), 1);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_IND_JUMP, out), 1);
	KUNIT_EXPECT_EQ(test, out[0].from, USER_A + 3);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u | PERF_SAMPLE_BRANCH_CALL_STACK, out), 3);
	/* only levels and no kind: nothing (the open refuses it anyway) */
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 6, u, out), 0);
}

/* the target's level must be wanted, and a kernel source needs KERNEL */
static void lbr_filter_levels(struct kunit *test)
{
	struct perf_branch_entry e[3] = {
		{ .from = USER_A, .to = KERN_A },	/* into the kernel */
		{ .from = KERN_A, .to = USER_A },	/* out of it */
		{ .from = KERN_A, .to = KERN_A },
	};
	u8 ty[3] = { T(REL_JMP), T(REL_JMP), T(REL_JMP) };
	struct perf_branch_entry out[8];
	u64 any = PERF_SAMPLE_BRANCH_ANY;

	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 3, any | PERF_SAMPLE_BRANCH_USER, out), 0);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 3, any | PERF_SAMPLE_BRANCH_KERNEL, out), 2);
	KUNIT_EXPECT_EQ(test, out[0].from, USER_A);
	KUNIT_EXPECT_EQ(test, out[1].from, KERN_A);
	KUNIT_EXPECT_EQ(test, out[1].to, KERN_A);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 3, any | PERF_SAMPLE_BRANCH_USER |
				     PERF_SAMPLE_BRANCH_KERNEL, out), 3);
}

/* "other branch" entries: the instruction at the source names the kind */
static void lbr_filter_other_decoded(struct kunit *test)
{
	static const struct {
		u8 bytes[4];
		u8 len;
		bool is64;
		u32 kind;
	} insns[] = {
		{ { 0x0f, 0x05 }, 2, true, X86_BR_SYSCALL },	/* syscall */
		{ { 0x0f, 0x34 }, 2, false, X86_BR_SYSCALL },	/* sysenter */
		{ { 0x48, 0x0f, 0x07 }, 3, true, X86_BR_SYSRET }, /* sysretq */
		{ { 0x0f, 0x35 }, 2, false, X86_BR_SYSRET },	/* sysexit */
		{ { 0x48, 0xcf }, 2, true, X86_BR_IRET },	/* iretq */
		{ { 0xcc }, 1, true, X86_BR_INT },		/* int3 */
		{ { 0xcd, 0x80 }, 2, false, X86_BR_INT },	/* int $0x80 */
		{ { 0xff, 0x18 }, 2, true, X86_BR_IND_CALL },	/* lcall *(%rax) */
		{ { 0xff, 0x28 }, 2, true, X86_BR_IND_JMP },	/* ljmp *(%rax) */
		{ { 0xcb }, 1, true, X86_BR_RET },		/* lret */
		{ { 0xea, 0, 0, 0 }, 4, false, X86_BR_JMP },	/* ljmp, cut */
		{ { 0x0f }, 1, true, X86_BR_ABORT },		/* 0F, cut */
		{ { 0xe8, 0, 0, 0 }, 4, true, X86_BR_ZERO_CALL }, /* cut call */
		{ { 0x90 }, 1, true, 0 },			/* nop */
		{ { 0x0f, 0x0b }, 2, true, 0 },			/* ud2 */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(insns); i++)
		KUNIT_EXPECT_EQ_MSG(test, x86_lbr_insn_kind(insns[i].bytes,
							    insns[i].len,
							    insns[i].is64, NULL),
				    insns[i].kind, "instruction %d", i);
}

/*
 * A fused pair's first half as the source (X86_BR_FUSED): the kind is the
 * branch's after it, and *skip the bytes before it; without a branch in
 * the bytes, every instruction that decoded is skipped.
 */
static void lbr_filter_fused_decoded(struct kunit *test)
{
	/* cmp %rsi,%rdi; jne .; then test %eax,%eax; ret */
	static const u8 cmp_jne[] = { 0x48, 0x39, 0xf7, 0x75, 0xfe };
	static const u8 test_ret[] = { 0x85, 0xc0, 0xc3 };
	static const u8 nops[] = { 0x90, 0x90, 0x90 };
	unsigned int skip = 99;

	KUNIT_EXPECT_EQ(test, x86_lbr_insn_kind(cmp_jne, sizeof(cmp_jne), true,
						&skip), X86_BR_COND);
	KUNIT_EXPECT_EQ(test, skip, 3);
	KUNIT_EXPECT_EQ(test, x86_lbr_insn_kind(test_ret, sizeof(test_ret),
						true, &skip), X86_BR_RET);
	KUNIT_EXPECT_EQ(test, skip, 2);
	/* the branch itself: nothing to skip */
	KUNIT_EXPECT_EQ(test, x86_lbr_insn_kind(cmp_jne + 3, 2, true, &skip),
			X86_BR_COND);
	KUNIT_EXPECT_EQ(test, skip, 0);
	/* no branch: all three decoded, then the bytes end (no opcode) */
	KUNIT_EXPECT_EQ(test, x86_lbr_insn_kind(nops, sizeof(nops), true,
						&skip), X86_BR_ABORT);
	KUNIT_EXPECT_EQ(test, skip, 3);
	/* without @skip only the first instruction counts */
	KUNIT_EXPECT_EQ(test, x86_lbr_insn_kind(cmp_jne, sizeof(cmp_jne), true,
						NULL), 0);
}

/* the hardware's type wins; no source or no target is no branch */
static void lbr_filter_hw_type(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, x86_lbr_kind(KERN_A, KERN_A, T(RET)),
			X86_BR_RET | X86_BR_KERNEL);
	KUNIT_EXPECT_EQ(test, x86_lbr_kind(USER_A, USER_B, T(IND_CALL)),
			X86_BR_IND_CALL | X86_BR_USER);
	KUNIT_EXPECT_EQ(test, x86_lbr_kind(0, KERN_A, T(RET)), 0);
	KUNIT_EXPECT_EQ(test, x86_lbr_kind(KERN_A, 0, T(RET)), 0);
}

/*
 * From user to kernel by something other than SYSCALL or INT: an
 * interrupt or exception, when the user text can be read. A kernel
 * thread has no user text: the entry is dropped.
 */
static void lbr_filter_user_to_kernel(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, x86_lbr_kind(USER_A, KERN_A, OTHER), 0);
}

/* With a selection by transaction state, NO_TX ranks above IND_JMP. */
static void lbr_filter_tx(struct kunit *test)
{
	struct perf_branch_entry e[2] = {
		{ .from = USER_A, .to = USER_B },
		{ .from = USER_A + 1, .to = USER_B, .in_tx = 1 },
	};
	u8 ty[2] = { T(IND_JMP), T(COND) };
	struct perf_branch_entry out[8];
	u64 sel = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY;

	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 2, sel | PERF_SAMPLE_BRANCH_NO_TX, out), 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[0].type, PERF_BR_NO_TX);
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 2, sel | PERF_SAMPLE_BRANCH_IN_TX, out), 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[0].type, PERF_BR_COND);
	/* inside a transaction an indirect jump reports no type */
	e[1].in_tx = 0;
	e[0].in_tx = 1;
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 2, sel | PERF_SAMPLE_BRANCH_IN_TX, out), 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[0].type, PERF_BR_UNKNOWN);
	e[0].in_tx = 0;
	KUNIT_EXPECT_EQ(test, filter(test, e, ty, 2, sel, out), 2);
	KUNIT_EXPECT_EQ(test, (unsigned int)out[0].type, PERF_BR_IND);
}

static struct kunit_case lbr_filter_cases[] = {
	KUNIT_CASE(lbr_filter_kinds),
	KUNIT_CASE(lbr_filter_levels),
	KUNIT_CASE(lbr_filter_other_decoded),
	KUNIT_CASE(lbr_filter_fused_decoded),
	KUNIT_CASE(lbr_filter_hw_type),
	KUNIT_CASE(lbr_filter_user_to_kernel),
	KUNIT_CASE(lbr_filter_tx),
	{}
};

static struct kunit_suite lbr_filter_suite = {
	.name = "perf_x86_lbr_filter",
	.test_cases = lbr_filter_cases,
};

kunit_test_suite(lbr_filter_suite);
