// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the eventing IP's recovery from the LBR (pebs_ip.c):
 * the walk over a run of code held in a buffer here, read through a
 * reader of our own at made-up user addresses, in 64-bit and 32-bit
 * mode; a branch that is itself the eventing instruction; and the walks
 * that must fail (the target after the RIP or too far before it, a RIP
 * inside an instruction, code that cannot be read, address spaces that
 * differ).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "intel.h"

/* where the test's code "is" */
#define CODE_BASE	0x401000ULL

/*
 * mov $1,%eax (5 bytes); mov %rax,%rbx (3; in 32-bit mode a DEC and a
 * 2-byte MOV); xor %eax,%eax (2); nop (1); add $8,%rsp (4; in 32-bit
 * mode a DEC and a 3-byte ADD); ret (1)
 */
static const u8 code[] = {
	0xb8, 0x01, 0x00, 0x00, 0x00,
	0x48, 0x89, 0xc3,
	0x31, 0xc0,
	0x90,
	0x48, 0x83, 0xc4, 0x08,
	0xc3,
};

static bool reader_is64;
static unsigned int reader_limit;

static unsigned int test_read(u64 addr, u8 *buf, unsigned int len,
			      bool *is64)
{
	u64 off = addr - CODE_BASE;

	*is64 = reader_is64;
	if (addr < CODE_BASE || off >= reader_limit)
		return 0;
	len = min_t(u64, len, reader_limit - off);
	memcpy(buf, code + off, len);
	return len;
}

static void reader_reset(void)
{
	reader_is64 = true;
	reader_limit = sizeof(code);
}

static void pebs_ip_walks_the_run(struct kunit *test)
{
	/* the IP after each instruction, and the instruction's own */
	static const struct {
		u64 next, ip;
	} cases[] = {
		{ 5, 0 }, { 8, 5 }, { 10, 8 }, { 11, 10 }, { 15, 11 },
		{ 16, 15 },
	};
	bool found;
	u64 ip;
	int i;

	reader_reset();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ip = 0;
		found = intel_pebs_ip_walk(0x400f00, CODE_BASE,
					   CODE_BASE + cases[i].next, test_read,
					   &ip);
		KUNIT_EXPECT_TRUE_MSG(test, found, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ip, CODE_BASE + cases[i].ip,
				    "case %d", i);
	}
}

static void pebs_ip_32bit_mode(struct kunit *test)
{
	u64 ip = 0;

	reader_reset();
	reader_is64 = false;
	/* 0x48 is an instruction of its own: the MOV starts at 6 */
	KUNIT_EXPECT_TRUE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						   CODE_BASE + 8, test_read,
						   &ip));
	KUNIT_EXPECT_EQ(test, ip, CODE_BASE + 6);
	/* and 64-bit mode's ADD ends where 32-bit mode's does */
	KUNIT_EXPECT_TRUE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						   CODE_BASE + 15, test_read,
						   &ip));
	KUNIT_EXPECT_EQ(test, ip, CODE_BASE + 12);
}

static void pebs_ip_branch_is_the_event(struct kunit *test)
{
	u64 ip = 0;

	reader_reset();
	reader_limit = 0;	/* nothing needs reading */
	KUNIT_EXPECT_TRUE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						   CODE_BASE, test_read, &ip));
	KUNIT_EXPECT_EQ(test, ip, 0x400f00ULL);
}

static void pebs_ip_walks_that_fail(struct kunit *test)
{
	u64 ip = 0x1234;

	reader_reset();
	/* the RIP inside the MOV's bytes */
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						    CODE_BASE + 7, test_read,
						    &ip));
	/* the branch's target after the RIP */
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE + 5,
						    CODE_BASE + 3, test_read,
						    &ip));
	/* too far */
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						    CODE_BASE + 0x10000,
						    test_read, &ip));
	/* a kernel target for a user RIP */
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00,
						    0xffffffff81000000ULL,
						    CODE_BASE + 5, test_read,
						    &ip));
	/* no entry */
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0, 0, CODE_BASE + 5,
						    test_read, &ip));
	/* the code cannot be read past the first instruction */
	reader_limit = 5;
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						    CODE_BASE + 8, test_read,
						    &ip));
	/* nor at all */
	reader_limit = 0;
	KUNIT_EXPECT_FALSE(test, intel_pebs_ip_walk(0x400f00, CODE_BASE,
						    CODE_BASE + 5, test_read,
						    &ip));
	KUNIT_EXPECT_EQ(test, ip, 0x1234ULL);
}

static struct kunit_case pebs_ip_cases[] = {
	KUNIT_CASE(pebs_ip_walks_the_run),
	KUNIT_CASE(pebs_ip_32bit_mode),
	KUNIT_CASE(pebs_ip_branch_is_the_event),
	KUNIT_CASE(pebs_ip_walks_that_fail),
	{}
};

static struct kunit_suite pebs_ip_suite = {
	.name = "perf_x86_pebs_ip",
	.test_cases = pebs_ip_cases,
};

kunit_test_suite(pebs_ip_suite);
