// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of IBS's pure parts (ibs.c): the period's MaxCnt fields in
 * IbsFetchCtl and IbsOpCtl, how a long period is cut into hardware
 * rounds, the registers of a raw sample by CPUID, and the
 * perf_mem_data_src of op samples.
 *
 * The expected values are read off the APM vol. 2 (IbsOpCtl: MaxCnt
 * 15:0 is the period's bits 19:4, OpCntExt puts bits 26:20 in 26:20) and
 * the family 19h PPR's IbsOpData2/3 fields, and off the perf_mem_data_src
 * values perf mem reports for each source. Nothing touches hardware.
 */
#include <kunit/test.h>

#include <asm/amd-ibs.h>
#include <asm/perf_event.h>

#include "amd.h"

static void period_fields_round_trip(struct kunit *test)
{
	/* 0x12340: MaxCnt 0x1234 */
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x12340, false, false),
			0x1234ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x12340, true, true),
			0x1234ULL);
	/* 0x7654320 with OpCntExt: 0x5432 in 15:0 and 0x76 << 20 */
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x7654320, true, true),
			0x5432ULL | (0x76ULL << 20));
	/* without OpCntExt, or for fetches, bits above 19 have no field */
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x7654320, true, false),
			0x5432ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x7654320, false, true),
			0x5432ULL);
	/* the largest rounds */
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0xffff0, false, false),
			0xffffULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_ctl_period(0x7fffff0, true, true),
			0xffffULL | IBS_OP_MAX_CNT_EXT_MASK);

	KUNIT_EXPECT_EQ(test, amd_ibs_config_period(0x1234, false, false),
			0x12340ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_config_period(0x5432 | (0x76ULL << 20),
						    true, true), 0x7654320ULL);
	/* config's other fields are not the period */
	KUNIT_EXPECT_EQ(test, amd_ibs_config_period(IBS_OP_CNT_CTL | 0x10,
						    true, true), 0x100ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_config_period(IBS_FETCH_RAND_EN,
						    false, false), 0ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_config_period(0x76ULL << 20, true,
						    false), 0ULL);
}

static void long_periods_take_rounds(struct kunit *test)
{
	const u64 max = 0xffff0;

	KUNIT_EXPECT_EQ(test, amd_ibs_round(0x100, max), 0x100ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_round(max, max), max);
	/* the hardware has no four low bits, and counts at least 16 */
	KUNIT_EXPECT_EQ(test, amd_ibs_round(0x10f, max), 0x100ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_round(1, max), 16ULL);
	KUNIT_EXPECT_EQ(test, amd_ibs_round(-5, max), 16ULL);
	/* longer: whole rounds, the last one never under 16 */
	KUNIT_EXPECT_EQ(test, amd_ibs_round(3 * max, max), max);
	KUNIT_EXPECT_EQ(test, amd_ibs_round(max + 0x100, max), max);
	KUNIT_EXPECT_EQ(test, amd_ibs_round(max + 8, max), max - 16);
}

static void raw_registers_follow_cpuid(struct kunit *test)
{
	unsigned int m[AMD_IBS_RAW_REGS];
	unsigned int n, i;

	n = amd_ibs_raw_msrs(false, IBS_CAPS_DEFAULT, m);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, m[0], 0xc0011030U);
	KUNIT_EXPECT_EQ(test, m[1], 0xc0011031U);
	KUNIT_EXPECT_EQ(test, m[2], 0xc0011032U);
	/* FetchCtlExtd appends IbsFetchCtlExtd */
	n = amd_ibs_raw_msrs(false, IBS_CAPS_DEFAULT | IBS_CAPS_FETCHCTLEXTD |
			     IBS_CAPS_BRNTRGT | IBS_CAPS_OPDATA4, m);
	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, m[3], 0xc001103cU);

	n = amd_ibs_raw_msrs(true, IBS_CAPS_DEFAULT | IBS_CAPS_FETCHCTLEXTD, m);
	KUNIT_ASSERT_EQ(test, n, 7U);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ(test, m[i], 0xc0011033U + i);
	/* then IbsBrTarget, then IbsOpData4, each where CPUID has it */
	n = amd_ibs_raw_msrs(true, IBS_CAPS_DEFAULT | IBS_CAPS_BRNTRGT, m);
	KUNIT_ASSERT_EQ(test, n, 8U);
	KUNIT_EXPECT_EQ(test, m[7], 0xc001103bU);
	n = amd_ibs_raw_msrs(true, IBS_CAPS_DEFAULT | IBS_CAPS_OPDATA4, m);
	KUNIT_ASSERT_EQ(test, n, 8U);
	KUNIT_EXPECT_EQ(test, m[7], 0xc001103dU);
	n = amd_ibs_raw_msrs(true, IBS_CAPS_DEFAULT | IBS_CAPS_BRNTRGT |
			     IBS_CAPS_OPDATA4, m);
	KUNIT_ASSERT_EQ(test, n, (unsigned int)AMD_IBS_RAW_REGS);
	KUNIT_EXPECT_EQ(test, m[7], 0xc001103bU);
	KUNIT_EXPECT_EQ(test, m[8], 0xc001103dU);
}

/* IbsOpData3 bits (PPR) */
#define LD		BIT_ULL(0)
#define ST		BIT_ULL(1)
#define L1TLB_MISS	BIT_ULL(2)
#define L2TLB_MISS	BIT_ULL(3)
#define DC_MISS		BIT_ULL(7)
#define UC		BIT_ULL(14)
#define LOCKED		BIT_ULL(15)
#define NO_MAB		BIT_ULL(16)
#define LIN_VALID	BIT_ULL(17)
#define L2_MISS		BIT_ULL(20)
#define SW_PF		BIT_ULL(21)
/* IbsOpData2 */
#define SRC(lo)		((u64)(lo) & 7)
#define RMT_NODE	BIT_ULL(4)
#define HIT_ST		BIT_ULL(5)

#define CAPS		IBS_CAPS_DEFAULT
#define CAPS4		(IBS_CAPS_DEFAULT | IBS_CAPS_ZEN4)

/* Zen 4's 5-bit DataSrc: DataSrcHi (7:6) above DataSrcLo (2:0) */
static u64 src_ext(unsigned int v)
{
	return (v & 7) | (u64)((v >> 3) & 3) << 6;
}

enum part { ZEN2, ZEN3, ZEN4 };

/* the data source of an op of @part (family 17h model 31h, 19h 01h, 19h 11h) */
static union perf_mem_data_src src(u32 caps, enum part part, u64 d2, u64 d3)
{
	static const unsigned int fm[][2] = {
		[ZEN2] = { 0x17, 0x31 },
		[ZEN3] = { 0x19, 0x01 },
		[ZEN4] = { 0x19, 0x11 },
	};

	return (union perf_mem_data_src) {
		.val = amd_ibs_data_src(caps, fm[part][0], fm[part][1], d2, d3)
	};
}

static void data_source_of_loads_and_stores(struct kunit *test)
{
	union perf_mem_data_src s;

	/* not a memory op: nothing is known */
	KUNIT_EXPECT_EQ(test, src(CAPS, ZEN2, 0, 0).val, (u64)PERF_MEM_NA);

	/* an L1 hit, load; its TLB level from the miss bits */
	s = src(CAPS, ZEN2, 0, LD | LIN_VALID);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_op, (u64)PERF_MEM_OP_LOAD);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_L1);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_dtlb, (u64)(PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_snoop, (u64)PERF_MEM_SNOOP_NA);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lock, (u64)PERF_MEM_LOCK_NA);

	/* a store that missed L1 and hit L2, locked, L2 TLB hit */
	s = src(CAPS, ZEN2, 0, ST | DC_MISS | LOCKED | LIN_VALID | L1TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_op, (u64)PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_L2);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lock, (u64)PERF_MEM_LOCK_LOCKED);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_dtlb, (u64)(PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT));

	/* no linear address: no TLB level */
	s = src(CAPS, ZEN2, 0, LD | L1TLB_MISS | L2TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_dtlb, (u64)PERF_MEM_TLB_NA);
	s = src(CAPS, ZEN2, 0, LD | LIN_VALID | L1TLB_MISS | L2TLB_MISS);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_dtlb, (u64)(PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS));

	/* uncached */
	s = src(CAPS, ZEN2, 0, LD | UC | DC_MISS | L2_MISS);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_UNC | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_UNC);
}

static void data_source_beyond_l2(struct kunit *test)
{
	const u64 miss = LD | DC_MISS | L2_MISS;
	union perf_mem_data_src s;

	/* before Zen 4, DataSrc 3 is DRAM, on this node or another */
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_DRAM), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_RAM);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_remote, 0ULL);
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_DRAM) | RMT_NODE, miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_remote, (u64)PERF_MEM_REMOTE_REMOTE);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_hops, (u64)PERF_MEM_HOPS_1);
	/* another cache of this CCX, modified there (CacheHitSt clear) */
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_LOC_CACHE), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_L3 | PERF_MEM_LVL_REM_CCE1 |
					       PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_ANY_CACHE);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_snoop, (u64)PERF_MEM_SNOOP_HITM);
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_LOC_CACHE) | HIT_ST, miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_snoop, (u64)PERF_MEM_SNOOP_NA);
	/* Zen 3 does not report CacheHitSt reliably: no HITM */
	s = src(CAPS, ZEN3, SRC(IBS_DATA_SRC_LOC_CACHE), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_snoop, (u64)PERF_MEM_SNOOP_NA);
	/* I/O */
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_IO), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_IO | PERF_MEM_LVL_HIT));
	/* a store has no DataSrc: the level is not known */
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_DRAM), ST | DC_MISS | L2_MISS);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)PERF_MEM_LVL_NA);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_NA);
	/* a miss without a MAB entry: the line was already coming */
	s = src(CAPS, ZEN2, 0, miss | NO_MAB);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_LFB | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_LFB);

	/* Zen 3's erratum 1293: no L2 hit, no DataSrc for prefetches */
	s = src(CAPS, ZEN3, SRC(IBS_DATA_SRC_DRAM), LD | DC_MISS | SW_PF);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)PERF_MEM_LVL_NA);
	s = src(CAPS, ZEN2, SRC(IBS_DATA_SRC_DRAM), LD | DC_MISS | SW_PF);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT));

	/* Zen 4's 5-bit DataSrc */
	s = src(CAPS4, ZEN4, src_ext(IBS_DATA_SRC_EXT_LOC_CACHE), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_L3);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_snoop, (u64)PERF_MEM_SNOOP_HITM);
	s = src(CAPS4, ZEN4, src_ext(IBS_DATA_SRC_EXT_EXT_MEM) | RMT_NODE, miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_CXL);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_remote, (u64)PERF_MEM_REMOTE_REMOTE);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_hops, (u64)PERF_MEM_HOPS_1);
	s = src(CAPS4, ZEN4, src_ext(IBS_DATA_SRC_EXT_FAR_CCX_CACHE), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl, (u64)(PERF_MEM_LVL_REM_CCE2 | PERF_MEM_LVL_HIT));
	KUNIT_EXPECT_EQ(test, (u64)s.mem_hops, (u64)PERF_MEM_HOPS_1);
	/* RmtNode means nothing for a cache of this node */
	s = src(CAPS4, ZEN4, src_ext(IBS_DATA_SRC_EXT_LOC_CACHE) | RMT_NODE, miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_remote, 0ULL);
	/* DataSrc 8 read as 3 bits would be 0: the high bits count */
	s = src(CAPS, ZEN2, src_ext(IBS_DATA_SRC_EXT_EXT_MEM), miss);
	KUNIT_EXPECT_EQ(test, (u64)s.mem_lvl_num, (u64)PERF_MEM_LVLNUM_NA);
}

static struct kunit_case amd_ibs_cases[] = {
	KUNIT_CASE(period_fields_round_trip),
	KUNIT_CASE(long_periods_take_rounds),
	KUNIT_CASE(raw_registers_follow_cpuid),
	KUNIT_CASE(data_source_of_loads_and_stores),
	KUNIT_CASE(data_source_beyond_l2),
	{}
};

static struct kunit_suite amd_ibs_suite = {
	.name = "perf_x86_amd_ibs",
	.test_cases = amd_ibs_cases,
};

kunit_test_suite(amd_ibs_suite);
