// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of PEBS data source and weight decoding (pebs_dsrc.c):
 * every load-latency encoding field by field, the TLB, lock and block
 * bits, stores, the events with only a data address, and the weight of
 * format 3 and adaptive records, with the Golden Cove split latency.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#include "intel.h"

static const struct intel_mem_caps caps_client = { };
static const struct intel_mem_caps caps_hsw = { .snb_enc = true };
static const struct intel_mem_caps caps_server = { .pmem = true };
static const struct intel_mem_caps caps_glc = {
	.pmem = true, .blk = true, .split_lat = true,
};

static union perf_mem_data_src dsrc(enum intel_mem_kind kind, u64 dse,
				    const struct intel_mem_caps *caps)
{
	union perf_mem_data_src d;

	d.val = intel_mem_data_src(kind, dse, caps);
	return d;
}

/* one encoding's level, level number, snoop, forward and remote bits */
struct dsrc_want {
	u8	enc;
	u16	lvl;
	u8	num;
	u8	snoop;
	u8	snoopx;
	u8	remote;
};

#define L(x)	PERF_MEM_LVL_##x
#define N(x)	PERF_MEM_LVLNUM_##x
#define S(x)	PERF_MEM_SNOOP_##x

static const struct dsrc_want dsrc_wants[] = {
	{ 0x0, L(MISS), N(L3), S(NA) },
	{ 0x1, L(HIT) | L(L1), N(L1), S(NONE) },
	{ 0x2, L(HIT) | L(LFB), N(LFB), S(NONE) },
	{ 0x3, L(HIT) | L(L2), N(L2), S(NONE) },
	{ 0x4, L(HIT) | L(L3), N(L3), S(NONE) },
	{ 0x5, L(HIT) | L(L3), N(L3), S(MISS) },
	{ 0x6, L(HIT) | L(L3), N(L3), S(HIT) },
	{ 0x7, L(HIT) | L(L3), N(L3), S(HITM) },
	{ 0x8, L(HIT), N(L4), S(HIT) },
	{ 0x9, L(HIT), N(L4), S(HIT), 0, 1 },
	{ 0xa, L(HIT) | L(LOC_RAM), N(RAM), S(HIT) },
	{ 0xb, L(HIT), N(RAM), S(NONE), 0, 1 },
	{ 0xc, L(HIT), N(ANY_CACHE), 0, PERF_MEM_SNOOPX_FWD, 1 },
	{ 0xd, L(HIT), N(ANY_CACHE), S(HITM), 0, 1 },
	{ 0xe, L(HIT) | L(IO), N(NA), S(NONE) },
	{ 0xf, L(HIT) | L(UNC), N(NA), S(NONE) },
};

/* every load-latency encoding of a client part, an L1 DTLB hit */
static void dsrc_load_encodings(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(dsrc_wants); i++) {
		const struct dsrc_want *w = &dsrc_wants[i];
		union perf_mem_data_src d = dsrc(INTEL_MEM_LDLAT, w->enc,
						 &caps_client);

		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_op, PERF_MEM_OP_LOAD,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_lvl, w->lvl, "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_lvl_num, w->num,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_snoop, w->snoop,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_snoopx, w->snoopx,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_remote, w->remote,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_dtlb,
				    PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 |
				    PERF_MEM_TLB_L2, "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_lock, 0, "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_blk, PERF_MEM_BLK_NA,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_hops, 0, "enc %#x", w->enc);
	}
}

/* servers: encodings 8 and 9 are persistent memory; the rest as clients */
static void dsrc_load_pmem(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_LDLAT, 8, &caps_server).mem_lvl_num,
			PERF_MEM_LVLNUM_PMEM);
	KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_LDLAT, 9, &caps_server).mem_lvl_num,
			PERF_MEM_LVLNUM_PMEM);
	KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_LDLAT, 9, &caps_server).mem_remote,
			1);
	KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_LDLAT, 0xa, &caps_server).val,
			dsrc(INTEL_MEM_LDLAT, 0xa, &caps_client).val);
}

/* Haswell and Broadwell: encodings 8 to 0DH as before Skylake */
static const struct dsrc_want dsrc_hsw_wants[] = {
	{ 0x8, L(HIT) | L(REM_CCE1), N(L3), S(HIT), 0, 1 },
	{ 0x9, L(HIT) | L(REM_CCE1), N(L3), S(HITM), 0, 1 },
	{ 0xa, L(HIT) | L(LOC_RAM), N(RAM), S(HIT) },
	{ 0xb, L(HIT) | L(REM_RAM1), N(L3), S(HIT), 0, 1 },
	{ 0xc, L(HIT) | L(LOC_RAM), N(RAM), S(NONE) | S(MISS) },
	{ 0xd, L(HIT) | L(REM_RAM1), N(RAM), S(NONE) | S(MISS), 0, 1 },
};

static void dsrc_load_hsw(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(dsrc_hsw_wants); i++) {
		const struct dsrc_want *w = &dsrc_hsw_wants[i];
		union perf_mem_data_src d = dsrc(INTEL_MEM_LDLAT, w->enc,
						 &caps_hsw);

		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_lvl, w->lvl,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_lvl_num, w->num,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_snoop, w->snoop,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_remote, w->remote,
				    "enc %#x", w->enc);
		KUNIT_EXPECT_EQ_MSG(test, (u64)d.mem_snoopx, 0,
				    "enc %#x", w->enc);
	}
	/* the rest as Skylake's */
	for (i = 0; i < 16; i++) {
		if (i >= 0x8 && i <= 0xd)
			continue;
		KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_LDLAT, i, &caps_hsw).val,
				dsrc(INTEL_MEM_LDLAT, i, &caps_client).val);
	}
}

/* bits 4 and 5; 6 and 7 only where the part reports blocks */
static void dsrc_load_bits(struct kunit *test)
{
	union perf_mem_data_src d;

	d = dsrc(INTEL_MEM_LDLAT, 0x10 | 0x3, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L2);
	d = dsrc(INTEL_MEM_LDLAT, 0x20 | 0x1, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lock, PERF_MEM_LOCK_LOCKED);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_L1);

	/* a client ignores bits 6 and 7 */
	d = dsrc(INTEL_MEM_LDLAT, 0xc1, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_L1);
	d = dsrc(INTEL_MEM_LDLAT, 0x41, &caps_glc);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_DATA);
	d = dsrc(INTEL_MEM_LDLAT, 0x81, &caps_glc);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_ADDR);
	d = dsrc(INTEL_MEM_LDLAT, 0xc1, &caps_glc);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR);
	d = dsrc(INTEL_MEM_LDLAT, 0x01, &caps_glc);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_NA);
}

/* store latency: a load's encoding, as a store, never blocked */
static void dsrc_store_latency(struct kunit *test)
{
	union perf_mem_data_src d = dsrc(INTEL_MEM_STLAT, 0xd1, &caps_glc);

	KUNIT_EXPECT_EQ(test, (u64)d.mem_op, PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_blk, PERF_MEM_BLK_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lock, 0);
}

/* data address only: the operation; a store's L1 hit; else nothing */
static void dsrc_address_only(struct kunit *test)
{
	union perf_mem_data_src na = { .val = PERF_MEM_NA }, d;

	d = dsrc(INTEL_MEM_LD, 0xffff, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_op, PERF_MEM_OP_LOAD);
	KUNIT_EXPECT_EQ(test, d.val & ~0x1fULL, na.val & ~0x1fULL);

	d = dsrc(INTEL_MEM_ST, 1, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_op, PERF_MEM_OP_STORE);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_snoop, PERF_MEM_SNOOP_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_dtlb, PERF_MEM_TLB_NA);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl_num, PERF_MEM_LVLNUM_NA);
	d = dsrc(INTEL_MEM_ST, 0x1e, &caps_client);
	KUNIT_EXPECT_EQ(test, (u64)d.mem_lvl, PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS);

	KUNIT_EXPECT_EQ(test, (u64)dsrc(INTEL_MEM_NONE, 0x1, &caps_glc).val,
			PERF_MEM_NA);
}

/* the weight of format 3 and of adaptive records */
static void dsrc_weight(struct kunit *test)
{
	union perf_sample_weight w;

	/* format 3: the latency for load latency, else the TSX cycles */
	KUNIT_EXPECT_EQ(test, intel_mem_weight(INTEL_MEM_LDLAT, true, 321,
					       0x5000000077ULL, &caps_client,
					       false), 321);
	KUNIT_EXPECT_EQ(test, intel_mem_weight(INTEL_MEM_LD, true, 321,
					       0x5000000077ULL, &caps_client,
					       false), 0x77);
	/* adaptive: the latency of any event, the TSX cycles when it is 0 */
	KUNIT_EXPECT_EQ(test, intel_mem_weight(INTEL_MEM_LD, false, 45, 9,
					       &caps_server, false), 45);
	KUNIT_EXPECT_EQ(test, intel_mem_weight(INTEL_MEM_LD, false, 0, 9,
					       &caps_server, false), 9);
	w.full = intel_mem_weight(INTEL_MEM_LDLAT, false, 45, 0,
				  &caps_server, true);
	KUNIT_EXPECT_EQ(test, w.var1_dw, 45);
	KUNIT_EXPECT_EQ(test, w.var2_w, 0);
	KUNIT_EXPECT_EQ(test, w.var3_w, 0);
	/* Golden Cove: cache latency in 47:32, the instruction's in 15:0 */
	KUNIT_EXPECT_EQ(test, intel_mem_weight(INTEL_MEM_LDLAT, false,
					       0x0000012300000017ULL, 0,
					       &caps_glc, false), 0x123);
	w.full = intel_mem_weight(INTEL_MEM_LDLAT, false,
				  0x0000012300000017ULL, 0, &caps_glc, true);
	KUNIT_EXPECT_EQ(test, w.var1_dw, 0x123);
	KUNIT_EXPECT_EQ(test, w.var2_w, 0x17);
	KUNIT_EXPECT_EQ(test, w.var3_w, 0);
}

static struct kunit_case dsrc_cases[] = {
	KUNIT_CASE(dsrc_load_encodings),
	KUNIT_CASE(dsrc_load_pmem),
	KUNIT_CASE(dsrc_load_hsw),
	KUNIT_CASE(dsrc_load_bits),
	KUNIT_CASE(dsrc_store_latency),
	KUNIT_CASE(dsrc_address_only),
	KUNIT_CASE(dsrc_weight),
	{}
};

static struct kunit_suite dsrc_suite = {
	.name = "perf_x86_pebs_data_source",
	.test_cases = dsrc_cases,
};

kunit_test_suite(dsrc_suite);
