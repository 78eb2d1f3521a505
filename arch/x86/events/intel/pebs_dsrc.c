// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: what a PEBS record tells of a memory access,
 * as perf's union perf_mem_data_src and sample weight (SDM vol. 3B,
 * "Load Latency Performance Monitoring Facility" with its table of data
 * source encodings, and "Precise Store Facility").
 *
 * A record's data source word is read by the kind of event that wrote
 * it (enum intel_mem_kind, which pebs_mem.c gives each event):
 *
 * - load latency (MEM_TRANS_RETIRED.LOAD_LATENCY): bits 3:0 say where
 *   the load found its data, bit 4 that it missed the second-level TLB,
 *   bit 5 that it was locked; from the Golden Cove cores on, bit 6 that
 *   it waited for a store whose data could not be forwarded, bit 7 for
 *   one whose address might have overlapped.
 * - store latency (Golden Cove's MEM_TRANS_RETIRED.STORE_SAMPLE): the
 *   same low six bits, of a store.
 * - the retired loads and stores with a data address (the
 *   MEM_INST_RETIRED and MEM_LOAD_*_RETIRED families): only whether
 *   they loaded or stored is known, and for a store bit 0, whether it
 *   hit the first-level data cache.
 * - any other event: nothing (PERF_MEM_NA).
 *
 * Nothing here touches hardware: pebs.c calls in with the decoded record
 * (pebs_rec.c), and pebs_dsrc_kunit.c checks the tables.
 *
 * Context: any, NMI included.
 */

#include <linux/bits.h>
#include <linux/bitfield.h>
#include <linux/perf_event.h>

#include "intel.h"

/* the data source word of a load- or store-latency record */
#define DSE_WHERE	GENMASK_ULL(3, 0)
#define DSE_STLB_MISS	BIT_ULL(4)
#define DSE_LOCKED	BIT_ULL(5)
#define DSE_BLK_DATA	BIT_ULL(6)
#define DSE_BLK_ADDR	BIT_ULL(7)
/* ... and of a precise store: it hit the L1 data cache */
#define DSE_ST_L1_HIT	BIT_ULL(0)

/* the whole of two fields of union perf_mem_data_src */
#define MEM_OP_FIELD	((u64)GENMASK(4, 0) << PERF_MEM_OP_SHIFT)
#define MEM_LVL_FIELD	((u64)GENMASK(13, 0) << PERF_MEM_LVL_SHIFT)

/**
 * struct dsrc_where - one data source encoding, in perf's terms
 * @lvl: PERF_MEM_LVL_* bits (the level, hit or miss)
 * @num: PERF_MEM_LVLNUM_*; L4 stands for "L4, or persistent memory
 *	where the part has it" (intel_mem_caps.pmem)
 * @snoop: PERF_MEM_SNOOP_* bits
 * @snoopx: PERF_MEM_SNOOPX_* bits
 * @remote: the data came from another socket
 */
struct dsrc_where {
	u16	lvl;
	u8	num;
	u8	snoop;
	u8	snoopx;
	bool	remote;
};

#define HIT	PERF_MEM_LVL_HIT

/*
 * The encodings of the Skylake and later Core parts (the SDM's table of
 * data source encodings for load latency records; Ice Lake's and
 * Sapphire Rapids' tables read the same), as the Linux ABI reports them.
 */
static const struct dsrc_where dsrc_core[16] = {
	/* the L3 missed and the record does not say what answered */
	[0x0] = { PERF_MEM_LVL_MISS, PERF_MEM_LVLNUM_L3, PERF_MEM_SNOOP_NA },
	/* the first-level data cache, at its least latency */
	[0x1] = { HIT | PERF_MEM_LVL_L1, PERF_MEM_LVLNUM_L1,
		  PERF_MEM_SNOOP_NONE },
	/* a line already on its way in (fill buffer) */
	[0x2] = { HIT | PERF_MEM_LVL_LFB, PERF_MEM_LVLNUM_LFB,
		  PERF_MEM_SNOOP_NONE },
	[0x3] = { HIT | PERF_MEM_LVL_L2, PERF_MEM_LVLNUM_L2,
		  PERF_MEM_SNOOP_NONE },
	/* L3 hits: no other core asked, asked and missed, hit, hit dirty */
	[0x4] = { HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_NONE },
	[0x5] = { HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_MISS },
	[0x6] = { HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_HIT },
	[0x7] = { HIT | PERF_MEM_LVL_L3, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_HITM },
	/* beyond the L3: this socket's, then another's, L4 or PMEM */
	[0x8] = { HIT, PERF_MEM_LVLNUM_L4, PERF_MEM_SNOOP_HIT },
	[0x9] = { HIT, PERF_MEM_LVLNUM_L4, PERF_MEM_SNOOP_HIT, 0, true },
	/* DRAM here, then DRAM of another socket */
	[0xa] = { HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_LVLNUM_RAM,
		  PERF_MEM_SNOOP_HIT },
	[0xb] = { HIT, PERF_MEM_LVLNUM_RAM, PERF_MEM_SNOOP_NONE, 0, true },
	/* a cache of another socket: forwarded clean, or dirty */
	[0xc] = { HIT, PERF_MEM_LVLNUM_ANY_CACHE, 0, PERF_MEM_SNOOPX_FWD,
		  true },
	[0xd] = { HIT, PERF_MEM_LVLNUM_ANY_CACHE, PERF_MEM_SNOOP_HITM, 0,
		  true },
	/* neither cache nor memory: I/O, and uncacheable memory */
	[0xe] = { HIT | PERF_MEM_LVL_IO, PERF_MEM_LVLNUM_NA,
		  PERF_MEM_SNOOP_NONE },
	[0xf] = { HIT | PERF_MEM_LVL_UNC, PERF_MEM_LVLNUM_NA,
		  PERF_MEM_SNOOP_NONE },
};

/*
 * Encodings 8 to 0DH before Skylake (the SDM's table for Sandy Bridge to
 * Broadwell): beyond the L3, a cache of another socket then memory, each
 * by what the snoop found; the others read as Skylake's.
 */
static const struct dsrc_where dsrc_snb[16] = {
	/* another socket's cache: clean, then modified */
	[0x8] = { HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_HIT, 0, true },
	[0x9] = { HIT | PERF_MEM_LVL_REM_CCE1, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_HITM, 0, true },
	/* memory, the line shared: here, then another socket's */
	[0xa] = { HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_LVLNUM_RAM,
		  PERF_MEM_SNOOP_HIT },
	[0xb] = { HIT | PERF_MEM_LVL_REM_RAM1, PERF_MEM_LVLNUM_L3,
		  PERF_MEM_SNOOP_HIT, 0, true },
	/* memory, the line exclusive: here, then another socket's */
	[0xc] = { HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_LVLNUM_RAM,
		  PERF_MEM_SNOOP_NONE | PERF_MEM_SNOOP_MISS },
	[0xd] = { HIT | PERF_MEM_LVL_REM_RAM1, PERF_MEM_LVLNUM_RAM,
		  PERF_MEM_SNOOP_NONE | PERF_MEM_SNOOP_MISS, 0, true },
};

#undef HIT

/* where a load- or store-latency access was served, as a load */
static u64 dsrc_where(u64 dse, const struct intel_mem_caps *caps)
{
	unsigned int enc = FIELD_GET(DSE_WHERE, dse);
	const struct dsrc_where *w = &dsrc_core[enc];
	u64 num;

	if (caps->snb_enc && enc >= 0x8 && enc <= 0xd)
		w = &dsrc_snb[enc];
	num = w->num;

	if (num == PERF_MEM_LVLNUM_L4 && caps->pmem)
		num = PERF_MEM_LVLNUM_PMEM;
	return PERF_MEM_S(OP, LOAD) |
	       (u64)w->lvl << PERF_MEM_LVL_SHIFT |
	       num << PERF_MEM_LVLNUM_SHIFT |
	       (u64)w->snoop << PERF_MEM_SNOOP_SHIFT |
	       (u64)w->snoopx << PERF_MEM_SNOOPX_SHIFT |
	       (w->remote ? PERF_MEM_S(REMOTE, REMOTE) : 0);
}

/* the TLB and lock bits every latency record has */
static u64 dsrc_tlb_lock(u64 dse)
{
	u64 v;

	/* a second-level TLB miss was walked; else one of the TLBs hit */
	if (dse & DSE_STLB_MISS)
		v = PERF_MEM_S(TLB, MISS) | PERF_MEM_S(TLB, L2);
	else
		v = PERF_MEM_S(TLB, HIT) | PERF_MEM_S(TLB, L1) |
		    PERF_MEM_S(TLB, L2);
	if (dse & DSE_LOCKED)
		v |= PERF_MEM_S(LOCK, LOCKED);
	return v;
}

/* the store-forwarding blocks, where the part reports them */
static u64 dsrc_blocked(u64 dse, const struct intel_mem_caps *caps)
{
	u64 v = 0;

	if (caps->blk) {
		if (dse & DSE_BLK_DATA)
			v |= PERF_MEM_S(BLK, DATA);
		if (dse & DSE_BLK_ADDR)
			v |= PERF_MEM_S(BLK, ADDR);
	}
	return v ?: PERF_MEM_S(BLK, NA);
}

/* perf's "nothing known" with the operation, or the level, replaced */
static u64 dsrc_op(u64 v, u64 op)
{
	return (v & ~MEM_OP_FIELD) | op << PERF_MEM_OP_SHIFT;
}

/**
 * intel_mem_data_src - a PEBS record's data source, for perf
 * @kind: what the event that wrote the record measures
 * @dse: the record's data source word (format 3's field, format 4's
 *	memory info "aux" word)
 * @caps: what the part reports
 *
 * Return: a union perf_mem_data_src value.
 */
u64 intel_mem_data_src(enum intel_mem_kind kind, u64 dse,
		       const struct intel_mem_caps *caps)
{
	u64 v;

	switch (kind) {
	case INTEL_MEM_LDLAT:
		return dsrc_where(dse, caps) | dsrc_tlb_lock(dse) |
		       dsrc_blocked(dse, caps);
	case INTEL_MEM_STLAT:
		v = dsrc_where(dse, caps) | dsrc_tlb_lock(dse) |
		    PERF_MEM_S(BLK, NA);
		return dsrc_op(v, PERF_MEM_OP_STORE);
	case INTEL_MEM_LD:
		return dsrc_op(PERF_MEM_NA, PERF_MEM_OP_LOAD);
	case INTEL_MEM_ST:
		v = dsrc_op(PERF_MEM_NA, PERF_MEM_OP_STORE) & ~MEM_LVL_FIELD;
		v |= PERF_MEM_S(LVL, L1);
		v |= dse & DSE_ST_L1_HIT ? PERF_MEM_S(LVL, HIT) :
					   PERF_MEM_S(LVL, MISS);
		return v;
	default:
		return PERF_MEM_NA;
	}
}

/* the meminfo latency word of the Golden Cove and later cores */
#define LAT_INSTR	GENMASK_ULL(15, 0)
#define LAT_CACHE	GENMASK_ULL(47, 32)

/**
 * intel_mem_weight - a sample's weight from a PEBS record
 * @kind: what the event measures
 * @fixed: the record is format 3's (every field always there), not an
 *	adaptive record's memory info group
 * @lat: the record's latency word
 * @tsx: its TSX tuning word (cycles of the last transaction in bits 31:0)
 * @caps: what the part reports
 * @structured: for PERF_SAMPLE_WEIGHT_STRUCT rather than _WEIGHT
 *
 * Format 3 has a latency for load-latency events only, else the TSX
 * cycles. An adaptive record's memory info has a latency for any event
 * (the TSX cycles when it is 0); from the Golden Cove cores on it is two:
 * the cache latency (bits 47:32), which is the weight, and the
 * instruction's (bits 15:0), the second field of a structured weight.
 *
 * Return: the value of union perf_sample_weight.
 */
u64 intel_mem_weight(enum intel_mem_kind kind, bool fixed, u64 lat, u64 tsx,
		     const struct intel_mem_caps *caps, bool structured)
{
	u64 tsx_cycles = lower_32_bits(tsx);
	u64 instr = 0;

	if (fixed)
		return kind == INTEL_MEM_LDLAT ? lat : tsx_cycles;
	if (caps->split_lat) {
		instr = FIELD_GET(LAT_INSTR, lat);
		lat = FIELD_GET(LAT_CACHE, lat);
	}
	if (!structured)
		return lat ?: tsx_cycles;
	/* var1_dw, var2_w; var3_w (retire latency) is not reported */
	return (lower_32_bits(lat) ?: tsx_cycles) | instr << 32;
}
