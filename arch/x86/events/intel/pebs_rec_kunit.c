// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of PEBS record decoding (pebs_rec.c): a format 3 record
 * laid out word by word as the SDM's Skylake table gives it, format 2
 * (the same without the TSC), format 1 (nor the eventing IP), and format 4
 * records of several groups; what each field becomes, and records cut
 * short or whose groups overrun their size refused.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/perf_event.h>

#include <asm/perf_event.h>

#include "intel.h"

/* the words of a format 3 record, by offset / 8 (SDM vol. 3B) */
enum {
	F3_RFLAGS, F3_RIP, F3_RAX, F3_RBX, F3_RCX, F3_RDX, F3_RSI, F3_RDI,
	F3_RBP, F3_RSP, F3_R8, F3_R15 = F3_R8 + 7, F3_STATUS, F3_DLA,
	F3_DSE, F3_LAT, F3_EVENTING_IP, F3_TX, F3_TSC, F3_WORDS
};

static void pebs_rec_fmt3_fields(struct kunit *test)
{
	u64 raw[F3_WORDS + 1];
	struct intel_pebs_rec r;
	u32 size;
	int i;

	for (i = 0; i < ARRAY_SIZE(raw); i++)
		raw[i] = 0x1000 + i;
	raw[F3_STATUS] = BIT_ULL(2);
	KUNIT_ASSERT_EQ(test, F3_WORDS * 8, 0xc8);
	KUNIT_ASSERT_TRUE(test, intel_pebs_rec_fixed(3, raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, r.size, 0xc8);
	KUNIT_EXPECT_EQ(test, r.cntrs, BIT_ULL(2));
	/* the eventing IP, and the RIP after it for precise_ip 1 */
	KUNIT_EXPECT_EQ(test, r.ip, 0x1000ULL + F3_EVENTING_IP);
	KUNIT_EXPECT_EQ(test, r.next_ip, 0x1000ULL + F3_RIP);
	KUNIT_EXPECT_EQ(test, r.flags, 0x1000ULL + F3_RFLAGS);
	KUNIT_EXPECT_EQ(test, r.tsc, 0x1000ULL + F3_TSC);
	KUNIT_EXPECT_TRUE(test, r.has_gprs);
	KUNIT_EXPECT_TRUE(test, r.has_mem);
	KUNIT_EXPECT_EQ(test, r.addr, 0x1000ULL + F3_DLA);
	KUNIT_EXPECT_EQ(test, r.latency, 0x1000ULL + F3_LAT);
	KUNIT_EXPECT_EQ(test, r.dse, 0x1000ULL + F3_DSE);
	KUNIT_EXPECT_EQ(test, r.tsx, 0x1000ULL + F3_TX);
	KUNIT_EXPECT_NULL(test, r.lbrs);
	/* by register number: RAX RCX RDX RBX RSP RBP RSI RDI R8-R15 */
	KUNIT_EXPECT_EQ(test, r.gpr[0], 0x1000ULL + F3_RAX);
	KUNIT_EXPECT_EQ(test, r.gpr[1], 0x1000ULL + F3_RCX);
	KUNIT_EXPECT_EQ(test, r.gpr[2], 0x1000ULL + F3_RDX);
	KUNIT_EXPECT_EQ(test, r.gpr[3], 0x1000ULL + F3_RBX);
	KUNIT_EXPECT_EQ(test, r.gpr[4], 0x1000ULL + F3_RSP);
	KUNIT_EXPECT_EQ(test, r.gpr[5], 0x1000ULL + F3_RBP);
	KUNIT_EXPECT_EQ(test, r.gpr[6], 0x1000ULL + F3_RSI);
	KUNIT_EXPECT_EQ(test, r.gpr[7], 0x1000ULL + F3_RDI);
	for (i = 8; i < 16; i++)
		KUNIT_EXPECT_EQ(test, r.gpr[i], 0x1000ULL + F3_R8 + i - 8);

	/* one byte short of a record: none */
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fixed(3, raw, 0xc7, &r));
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_size(3, 0), 0xc8);
	/* the drain's first pass: the same size and counters */
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(3, raw, sizeof(raw), &size),
			BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, size, 0xc8);
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(3, raw, 0xc0, &size), 0);
	KUNIT_EXPECT_EQ(test, size, 0);
}

/*
 * Format 2 (Haswell, Broadwell) is format 3 up to its TSC: 0C0H bytes,
 * the same fields, no time.
 */
static void pebs_rec_fmt2_fields(struct kunit *test)
{
	u64 raw[F3_TSC];
	struct intel_pebs_rec r;
	u32 size;
	int i;

	for (i = 0; i < ARRAY_SIZE(raw); i++)
		raw[i] = 0x2000 + i;
	raw[F3_STATUS] = BIT_ULL(3);
	KUNIT_ASSERT_TRUE(test, intel_pebs_rec_fixed(2, raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, r.size, 0xc0);
	KUNIT_EXPECT_EQ(test, r.cntrs, BIT_ULL(3));
	KUNIT_EXPECT_TRUE(test, r.has_ip);
	KUNIT_EXPECT_EQ(test, r.ip, 0x2000ULL + F3_EVENTING_IP);
	KUNIT_EXPECT_EQ(test, r.next_ip, 0x2000ULL + F3_RIP);
	KUNIT_EXPECT_EQ(test, r.addr, 0x2000ULL + F3_DLA);
	KUNIT_EXPECT_EQ(test, r.latency, 0x2000ULL + F3_LAT);
	KUNIT_EXPECT_EQ(test, r.gpr[15], 0x2000ULL + F3_R15);
	KUNIT_EXPECT_EQ(test, r.tsc, 0);
	/* a format 3 decoder would want 8 bytes more */
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fixed(3, raw, sizeof(raw), &r));
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fixed(2, raw, 0xbf, &r));
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_size(2, 0), 0xc0);
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(2, raw, sizeof(raw), &size),
			BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, size, 0xc0);
}

/* format 1: format 3's record up to the latency, no eventing IP */
static void pebs_rec_fmt1_fields(struct kunit *test)
{
	u64 raw[F3_EVENTING_IP];
	struct intel_pebs_rec r;
	u32 size;
	int i;

	for (i = 0; i < ARRAY_SIZE(raw); i++)
		raw[i] = 0x3000 + i;
	raw[F3_STATUS] = BIT_ULL(1);
	KUNIT_ASSERT_TRUE(test, intel_pebs_rec_fixed(1, raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, r.size, 0xb0);
	KUNIT_EXPECT_EQ(test, r.cntrs, BIT_ULL(1));
	/* only the RIP after the eventing instruction */
	KUNIT_EXPECT_FALSE(test, r.has_ip);
	KUNIT_EXPECT_EQ(test, r.ip, 0x3000ULL + F3_RIP);
	KUNIT_EXPECT_EQ(test, r.next_ip, 0x3000ULL + F3_RIP);
	KUNIT_EXPECT_EQ(test, r.gpr[0], 0x3000ULL + F3_RAX);
	KUNIT_EXPECT_EQ(test, r.addr, 0x3000ULL + F3_DLA);
	KUNIT_EXPECT_EQ(test, r.dse, 0x3000ULL + F3_DSE);
	KUNIT_EXPECT_EQ(test, r.latency, 0x3000ULL + F3_LAT);
	KUNIT_EXPECT_EQ(test, r.tsx, 0);
	KUNIT_EXPECT_EQ(test, r.tsc, 0);
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fixed(2, raw, sizeof(raw), &r));
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fixed(1, raw, 0xaf, &r));
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_size(1, 0), 0xb0);
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(1, raw, sizeof(raw), &size),
			BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, size, 0xb0);
}

/* a format 4 record's first word: its groups and its size */
static u64 f4_word(u64 groups, u64 size)
{
	return groups | size << 48;
}

static void pebs_rec_fmt4_groups(struct kunit *test)
{
	u64 groups = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP |
		     PEBS_DATACFG_XMMS | PEBS_DATACFG_LBRS |
		     FIELD_PREP(PEBS_DATACFG_LBR_NR, 1);
	/* basic 4, meminfo 4, gprs 18, XMM0-15 32, two LBR entries 6 */
	u64 raw[64] = {};
	struct intel_pebs_rec r;
	u32 size;
	int i;

	KUNIT_ASSERT_EQ(test, intel_pebs_rec_size(4, groups), sizeof(raw));
	raw[0] = f4_word(groups, sizeof(raw));
	raw[1] = 0x401000;		/* eventing IP */
	raw[2] = BIT_ULL(32);		/* fixed counter 0 */
	raw[3] = 12345;			/* TSC */
	raw[4] = 0xdada;		/* data address */
	raw[5] = 0x31;			/* data source (aux) */
	raw[6] = 77;			/* latency */
	raw[7] = 0x7ab;			/* TSX tuning */
	raw[8] = 0x246;			/* RFLAGS */
	raw[9] = 0x401004;		/* RIP */
	for (i = 0; i < 16; i++)
		raw[10 + i] = 0x100 + i;
	for (i = 0; i < 32; i++)	/* XMM0 low, XMM0 high, XMM1 low... */
		raw[26 + i] = 0x200 + i;
	raw[58] = 0x401010;		/* youngest LBR entry */
	raw[61] = 0x401020;
	KUNIT_ASSERT_TRUE(test, intel_pebs_rec_fmt4(raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, r.size, sizeof(raw));
	KUNIT_EXPECT_EQ(test, r.ip, 0x401000ULL);
	KUNIT_EXPECT_EQ(test, r.next_ip, 0x401004ULL);
	KUNIT_EXPECT_EQ(test, r.cntrs, BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, r.tsc, 12345ULL);
	KUNIT_EXPECT_EQ(test, r.addr, 0xdadaULL);
	KUNIT_EXPECT_EQ(test, r.latency, 77ULL);
	KUNIT_EXPECT_EQ(test, r.dse, 0x31ULL);
	KUNIT_EXPECT_EQ(test, r.tsx, 0x7abULL);
	KUNIT_EXPECT_EQ(test, r.flags, 0x246ULL);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, r.gpr[i], 0x100ULL + i);
	KUNIT_ASSERT_NOT_NULL(test, r.xmm);
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, r.xmm[i], 0x200ULL + i);
	KUNIT_EXPECT_EQ(test, r.nr_lbrs, 2);
	KUNIT_ASSERT_NOT_NULL(test, r.lbrs);
	KUNIT_EXPECT_EQ(test, r.lbrs[0].from, 0x401010ULL);
	KUNIT_EXPECT_EQ(test, r.lbrs[1].from, 0x401020ULL);

	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(4, raw, sizeof(raw), &size),
			BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, size, sizeof(raw));

	/* cut short, or a size too small for its groups: no record */
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fmt4(raw, sizeof(raw) - 8, &r));
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(4, raw, sizeof(raw) - 8,
						  &size), 0);
	KUNIT_EXPECT_EQ(test, size, 0);
	raw[0] = f4_word(groups, sizeof(raw) - 8);
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fmt4(raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, intel_pebs_rec_peek(4, raw, sizeof(raw), &size),
			0);
	KUNIT_EXPECT_EQ(test, size, 0);
}

/* only the basic group: no registers, no memory info, no LBR */
static void pebs_rec_fmt4_basic(struct kunit *test)
{
	u64 raw[4] = { f4_word(0, 32), 0xffffffff81000000ULL, 1, 99 };
	struct intel_pebs_rec r;

	KUNIT_ASSERT_TRUE(test, intel_pebs_rec_fmt4(raw, sizeof(raw), &r));
	KUNIT_EXPECT_EQ(test, r.size, 32);
	KUNIT_EXPECT_FALSE(test, r.has_gprs);
	KUNIT_EXPECT_FALSE(test, r.has_mem);
	KUNIT_EXPECT_NULL(test, r.xmm);
	KUNIT_EXPECT_NULL(test, r.lbrs);
	KUNIT_EXPECT_EQ(test, r.cntrs, 1ULL);
	KUNIT_EXPECT_FALSE(test, intel_pebs_rec_fmt4(raw, 24, &r));
}

static struct kunit_case pebs_rec_cases[] = {
	KUNIT_CASE(pebs_rec_fmt3_fields),
	KUNIT_CASE(pebs_rec_fmt2_fields),
	KUNIT_CASE(pebs_rec_fmt1_fields),
	KUNIT_CASE(pebs_rec_fmt4_groups),
	KUNIT_CASE(pebs_rec_fmt4_basic),
	{}
};

static struct kunit_suite pebs_rec_suite = {
	.name = "perf_x86_pebs_records",
	.test_cases = pebs_rec_cases,
};

kunit_test_suite(pebs_rec_suite);
