// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, AMD: Instruction-Based Sampling (APM vol. 2, section
 * 13.3 "Instruction-Based Sampling"; the family 19h PPR for the register
 * fields).
 *
 * IBS tags one instruction fetch, or one op, out of every MaxCnt and
 * records what happened to it in a set of MSRs: the fetch engine in
 * IbsFetchCtl (C001_1030h), IbsFetchLinAd and IbsFetchPhysAd; the op
 * engine in IbsOpCtl (C001_1033h), IbsOpRip, IbsOpData 1-3, IbsDcLinAd,
 * IbsDcPhysAd, and where CPUID 8000_001Bh says so IbsBrTarget and
 * IbsOpData4 (and IbsFetchCtlExtd for fetches). When the record is
 * complete the engine sets the control register's valid bit, stops, and
 * raises the interrupt of the local APIC's extended LVT entry whose
 * number IBS_CTL (C001_103Ah) names; we program that entry to deliver
 * an NMI on every CPU. The tagged instruction's address is exact: there
 * is no skid, which is how AMD offers precise_ip.
 *
 * Each engine is a PMU of its own, "ibs_fetch" and "ibs_op", with one
 * event per CPU at a time. The period is the engine's MaxCnt: the
 * hardware counts in units of 16 (its four low bits are implied zero),
 * 20 bits of period for fetches and for ops without OpCntExt, 27 with
 * it. A software period longer than that is counted in several rounds
 * of the hardware's, and only the round that ends it makes a sample.
 *
 * The core PMU hands its precise events here (amd_ibs_forward(): cycles
 * and retired ops, as upstream forwards them), so that cycles:pp opens on
 * AMD and lands on ibs_op.
 *
 * Not done: the firmware-less LVT offset assignment of family 10h (its
 * northbridge PCI register), and anything for guests (KVM's IBS
 * virtualization is not ours).
 */

#define pr_fmt(fmt) "perf: ibs: " fmt

#include <linux/bitfield.h>
#include <linux/cpuhotplug.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/syscore_ops.h>
#include <linux/sysfs.h>

#include <asm/amd-ibs.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "amd.h"

/* the per-CPU side of one engine */
struct ibs_cpu {
	/* the event added on this CPU, NULL when the engine is free */
	struct perf_event	*event;
	/* the hardware period of the round being counted */
	u64			round;
	/*
	 * NMIs a stop may still have coming: the engine may have finished
	 * a record just before it was turned off, and its NMI arrive after
	 * the event no longer runs. Such an NMI is claimed once.
	 */
	unsigned int		late;
};

/**
 * struct ibs_engine - one IBS engine and the PMU that drives it
 * @pmu: what perf knows it by
 * @cpu: its per-CPU state
 * @ctl: the control MSR (IbsFetchCtl or IbsOpCtl)
 * @is_op: the op engine (else the fetch engine)
 * @user_bits: config bits a user may set, MaxCnt among them
 * @cnt_bits: the config bits that hold MaxCnt
 * @max_period: the longest hardware round
 * @nr_msrs: MSRs of the raw record, @msrs[0] being @ctl
 * @msrs: the MSRs of a sample's raw record, in upstream's order
 * @format: sysfs format/ files (NULL-terminated)
 * @caps: sysfs caps/ files (NULL-terminated)
 * @groups: its sysfs groups, as @pmu.attr_groups points at
 */
struct ibs_engine {
	struct pmu		pmu;
	struct ibs_cpu __percpu	*cpu;
	unsigned int		ctl;
	bool			is_op;
	u64			user_bits;
	u64			cnt_bits;
	u64			max_period;
	unsigned int		nr_msrs;
	unsigned int		msrs[AMD_IBS_RAW_REGS];
	struct attribute	*format[3];
	struct attribute	*caps[2];
	struct attribute_group	format_group;
	struct attribute_group	caps_group;
	const struct attribute_group *groups[3];
};

/* CPUID 8000_001Bh EAX, set before the PMUs are registered */
static u32 amd_ibs_caps;
/* both PMUs are registered: precise events go to ibs_op */
static bool amd_ibs_ready;
/* the extended LVT entry IBS interrupts through */
static unsigned int amd_ibs_lvt;
/* family 19h before model 10h: fetch samples without an address are bogus */
static bool amd_ibs_fetch_need_addr;
/* families 16h-18h: a fetch count is only reset by a 0-1 edge of the enable */
static bool amd_ibs_fetch_edge;

static struct ibs_engine ibs_fetch, ibs_op;

static struct ibs_engine *ibs_of(struct perf_event *event)
{
	return container_of(event->pmu, struct ibs_engine, pmu);
}

/**
 * amd_ibs_ctl_period - the control register bits that count one round
 * @period: the round's length (a multiple of 16, within the engine's max)
 * @is_op: for IbsOpCtl (else IbsFetchCtl)
 * @ext: the op engine has OpCntExt (CPUID 8000_001Bh EAX[6])
 *
 * MaxCnt[15:0] holds @period[19:4]; with OpCntExt @period[26:20] go to
 * IbsOpCtl[26:20].
 *
 * Context: any.
 * Return: the MaxCnt fields of the control register.
 */
u64 amd_ibs_ctl_period(u64 period, bool is_op, bool ext)
{
	u64 bits = (period >> 4) & IBS_OP_MAX_CNT;

	if (is_op && ext)
		bits |= period & IBS_OP_MAX_CNT_EXT_MASK;
	return bits;
}

/**
 * amd_ibs_config_period - the period a config's MaxCnt fields ask for
 * @config: attr.config of an ibs_fetch or ibs_op event
 * @is_op: an ibs_op config
 * @ext: the op engine has OpCntExt
 *
 * The inverse of amd_ibs_ctl_period(), for events that give their period
 * in config rather than in attr.sample_period.
 *
 * Context: any.
 * Return: the period, 0 when config has none.
 */
u64 amd_ibs_config_period(u64 config, bool is_op, bool ext)
{
	u64 period = (config & IBS_OP_MAX_CNT) << 4;

	if (is_op && ext)
		period |= config & IBS_OP_MAX_CNT_EXT_MASK;
	return period;
}

/**
 * amd_ibs_round - the next hardware round of a software period
 * @left: what is left of the software period
 * @max: the engine's longest round
 *
 * The hardware counts multiples of 16 from 16 to @max. A longer period
 * is cut into rounds of @max, but never so that the last one would be
 * shorter than 16.
 *
 * Context: any.
 * Return: the round to program.
 */
u64 amd_ibs_round(s64 left, u64 max)
{
	u64 round;

	if (left <= 16)
		return 16;
	round = left;
	if (round > max) {
		round = max;
		if (left - max < 16)
			round = max - 16;
	}
	return round & ~0xfULL;
}

/**
 * amd_ibs_raw_msrs - the registers of a raw sample, in order
 * @is_op: of the op engine (else the fetch engine)
 * @caps: CPUID 8000_001Bh EAX
 * @msrs: filled in, room for AMD_IBS_RAW_REGS
 *
 * PERF_SAMPLE_RAW carries CPUID 8000_001Bh EAX (32 bits) and then these
 * registers, 64 bits each, as perf's IBS decoder reads them: the control
 * register and the ones after it (fetch: IbsFetchCtl, LinAd, PhysAd; op:
 * IbsOpCtl, Rip, Data, Data2, Data3, DcLinAd, DcPhysAd), then the ones
 * that exist only where CPUID says so: IbsBrTarget and IbsOpData4 for
 * ops, IbsFetchCtlExtd for fetches.
 *
 * Context: any.
 * Return: how many.
 */
unsigned int amd_ibs_raw_msrs(bool is_op, u32 caps, unsigned int *msrs)
{
	unsigned int n = 0, i;

	if (!is_op) {
		for (i = 0; i < MSR_AMD64_IBSFETCH_REG_COUNT; i++)
			msrs[n++] = MSR_AMD64_IBSFETCHCTL + i;
		if (caps & IBS_CAPS_FETCHCTLEXTD)
			msrs[n++] = MSR_AMD64_ICIBSEXTDCTL;
		return n;
	}
	for (i = 0; i < MSR_AMD64_IBSOP_REG_COUNT; i++)
		msrs[n++] = MSR_AMD64_IBSOPCTL + i;
	if (caps & IBS_CAPS_BRNTRGT)
		msrs[n++] = MSR_AMD64_IBSBRTARGET;
	if (caps & IBS_CAPS_OPDATA4)
		msrs[n++] = MSR_AMD64_IBSOPDATA4;
	return n;
}

/*
 * perf_mem_data_src pieces. A level that was hit is the level with HIT,
 * in the old mem_lvl field and the newer mem_lvl_num.
 */
#define IBS_LVL(l)	(PERF_MEM_S(LVL, l) | PERF_MEM_S(LVL, HIT))
#define IBS_NUM(n)	PERF_MEM_S(LVLNUM, n)
#define IBS_REMOTE	PERF_MEM_S(REMOTE, REMOTE)
#define IBS_HOPS(h)	PERF_MEM_S(HOPS, h)

/*
 * Where a load's data came from, by IbsOpData2's DataSrc: the 3-bit
 * field of parts before Zen 4, and the 5-bit one (DataSrcHi:DataSrcLo)
 * of Zen 4 (IBS_CAPS_ZEN4). @node_remote is what RmtNode adds when set;
 * 0 there means RmtNode is ignored for that source. Sources missing here
 * say nothing of the level.
 */
struct ibs_src {
	u64	where;
	u64	node_remote;
};

static const struct ibs_src ibs_src_3bit[8] = {
	[IBS_DATA_SRC_LOC_CACHE] = {
		IBS_LVL(L3) | IBS_LVL(REM_CCE1) | IBS_NUM(ANY_CACHE) |
		IBS_HOPS(0) },
	[IBS_DATA_SRC_DRAM] = {
		IBS_LVL(LOC_RAM) | IBS_NUM(RAM),
		IBS_LVL(REM_RAM1) | IBS_NUM(RAM) | IBS_REMOTE | IBS_HOPS(1) },
	[IBS_DATA_SRC_REM_CACHE] = {
		IBS_LVL(REM_CCE2) | IBS_NUM(ANY_CACHE) | IBS_REMOTE |
		IBS_HOPS(1) },
	[IBS_DATA_SRC_IO] = { IBS_LVL(IO) | IBS_NUM(IO) },
};

static const struct ibs_src ibs_src_5bit[32] = {
	[IBS_DATA_SRC_EXT_LOC_CACHE] = { IBS_LVL(L3) | IBS_NUM(L3) },
	[IBS_DATA_SRC_EXT_NEAR_CCX_CACHE] = {
		IBS_LVL(REM_CCE1) | IBS_NUM(ANY_CACHE) | IBS_REMOTE |
		IBS_HOPS(0) },
	[IBS_DATA_SRC_EXT_DRAM] = {
		IBS_LVL(LOC_RAM) | IBS_NUM(RAM),
		IBS_LVL(REM_RAM1) | IBS_NUM(RAM) | IBS_REMOTE | IBS_HOPS(1) },
	[IBS_DATA_SRC_EXT_FAR_CCX_CACHE] = {
		IBS_LVL(REM_CCE2) | IBS_NUM(ANY_CACHE) | IBS_REMOTE |
		IBS_HOPS(1) },
	[IBS_DATA_SRC_EXT_PMEM] = {
		IBS_NUM(PMEM), IBS_NUM(PMEM) | IBS_REMOTE | IBS_HOPS(1) },
	[IBS_DATA_SRC_EXT_IO] = { IBS_LVL(IO) | IBS_NUM(IO) },
	[IBS_DATA_SRC_EXT_EXT_MEM] = {
		IBS_NUM(CXL), IBS_NUM(CXL) | IBS_REMOTE | IBS_HOPS(1) },
};

/*
 * Zen 3 (family 19h models 00h-0Fh): erratum 1293, IbsOpData2 and the
 * L2 miss bit are not to be trusted for software prefetches and for DC
 * misses that allocated no MAB entry.
 */
static bool ibs_erratum_1293(unsigned int family, unsigned int model,
			     const union ibs_op_data3 *d3)
{
	return family == 0x19 && model < 0x10 &&
	       (d3->sw_pf || d3->dc_miss_no_mab_alloc);
}

/* the mem_lvl and mem_lvl_num bits of a load or store */
static u64 ibs_src_level(u32 caps, unsigned int family, unsigned int model,
			 bool load, union ibs_op_data2 d2,
			 union ibs_op_data3 d3)
{
	bool zen4 = caps & IBS_CAPS_ZEN4;
	unsigned int src = d2.data_src_lo;
	const struct ibs_src *s;

	if (zen4)
		src |= d2.data_src_hi << 3;
	/* uncached: the miss and source bits say nothing, but for I/O */
	if (d3.dc_uc_mem_acc && src != IBS_DATA_SRC_EXT_IO)
		return IBS_LVL(UNC) | IBS_NUM(UNC);
	if (!d3.dc_miss)
		return IBS_LVL(L1) | IBS_NUM(L1);
	if (!d3.l2_miss && !ibs_erratum_1293(family, model, &d3))
		return IBS_LVL(L2) | IBS_NUM(L2);
	/* DataSrc is defined for loads only */
	if (load) {
		s = zen4 ? &ibs_src_5bit[src] : &ibs_src_3bit[src & 7];
		if (s->where) {
			if (d2.rmt_node && s->node_remote)
				return s->node_remote;
			return s->where;
		}
	}
	/* the miss went to a fill buffer already waiting for the line */
	if (d3.dc_miss_no_mab_alloc)
		return IBS_LVL(LFB) | IBS_NUM(LFB);
	return PERF_MEM_S(LVL, NA) | IBS_NUM(NA);
}

/*
 * CacheHitSt (IbsOpData2[5]): clear when a load from another cache found
 * the line modified there. Zen 3 parts (family 19h models 00h-0Fh and
 * 20h-5Fh) do not report it reliably.
 */
static bool ibs_hit_state_valid(unsigned int family, unsigned int model)
{
	return !(family == 0x19 &&
		 (model <= 0x0f || (model >= 0x20 && model <= 0x5f)));
}

/**
 * amd_ibs_data_src - the PERF_SAMPLE_DATA_SRC of an op sample
 * @caps: CPUID 8000_001Bh EAX
 * @family: the CPU family
 * @model: the CPU model
 * @data2: IbsOpData2
 * @data3: IbsOpData3
 *
 * For loads and stores (IbsOpData3 LdOp, StOp): the operation, the level
 * the data came from (L1 and L2 from the miss bits, further ones from
 * DataSrc, with RmtNode for another node), a HITM snoop where the line
 * was modified in another cache, the TLB level from the TLB miss bits
 * and the lock bit. Every other op is PERF_MEM_NA.
 *
 * Context: any, including NMI.
 * Return: the perf_mem_data_src value.
 */
u64 amd_ibs_data_src(u32 caps, unsigned int family, unsigned int model,
		     u64 data2, u64 data3)
{
	union ibs_op_data3 d3 = { .val = data3 };
	union ibs_op_data2 d2 = { .val = data2 };
	union perf_mem_data_src ds = { .val = PERF_MEM_NA };
	bool zen4 = caps & IBS_CAPS_ZEN4;
	unsigned int src;

	if (d3.ld_op)
		ds.mem_op = PERF_MEM_OP_LOAD;
	else if (d3.st_op)
		ds.mem_op = PERF_MEM_OP_STORE;
	else
		return ds.val;
	if (ibs_erratum_1293(family, model, &d3))
		d2.val = 0;

	ds.mem_lvl = 0;
	ds.mem_lvl_num = 0;
	ds.val |= ibs_src_level(caps, family, model, d3.ld_op, d2, d3);

	src = d2.data_src_lo | (zen4 ? d2.data_src_hi << 3 : 0);
	ds.mem_snoop = PERF_MEM_SNOOP_NA;
	if (ibs_hit_state_valid(family, model) && d3.ld_op &&
	    !(ds.mem_lvl & (PERF_MEM_LVL_L1 | PERF_MEM_LVL_L2)) &&
	    !d2.cache_hit_st) {
		if (zen4 ? (src == IBS_DATA_SRC_EXT_LOC_CACHE ||
			    src == IBS_DATA_SRC_EXT_NEAR_CCX_CACHE ||
			    src == IBS_DATA_SRC_EXT_FAR_CCX_CACHE) :
			   src == IBS_DATA_SRC_LOC_CACHE)
			ds.mem_snoop = PERF_MEM_SNOOP_HITM;
	}

	ds.mem_dtlb = PERF_MEM_TLB_NA;
	if (d3.dc_lin_addr_valid) {
		if (!d3.dc_l1tlb_miss)
			ds.mem_dtlb = PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT;
		else if (!d3.dc_l2tlb_miss)
			ds.mem_dtlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT;
		else
			ds.mem_dtlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS;
	}
	ds.mem_lock = d3.dc_locked_op ? PERF_MEM_LOCK_LOCKED :
					PERF_MEM_LOCK_NA;
	return ds.val;
}

/**
 * amd_ibs_forward - hand a precise event of the core PMU to ibs_op
 * @event: a new event of the core PMU with attr.precise_ip set
 *
 * IBS is AMD's precise sampling. Precise cycles (PERF_COUNT_HW_CPU_CYCLES
 * or raw 0x76) become an ibs_op event counting cycles, precise retired
 * ops (raw 0xC1) one counting ops (cnt_ctl); the new type and config are
 * written into attr and the core PMU declines the event, so that perf
 * offers it to ibs_op. Other events it declines as they are, which perf
 * reports as ENOENT, and precise_ip 3 is refused.
 *
 * Context: perf_event_open(), process context.
 * Return: 0 when there is no IBS (the core PMU goes on), -ENOENT when the
 * core PMU must decline the event, -EOPNOTSUPP for precise_ip 3.
 */
int amd_ibs_forward(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 config;

	if (!READ_ONCE(amd_ibs_ready))
		return 0;
	if (attr->precise_ip > 2)
		return -EOPNOTSUPP;
	if ((attr->type == PERF_TYPE_HARDWARE &&
	     attr->config == PERF_COUNT_HW_CPU_CYCLES) ||
	    (attr->type == PERF_TYPE_RAW && attr->config == 0x76))
		config = 0;
	else if (attr->type == PERF_TYPE_RAW && attr->config == 0xc1)
		config = IBS_OP_CNT_CTL;
	else
		return -ENOENT;
	attr->type = ibs_op.pmu.type;
	attr->config = config;
	return -ENOENT;
}

/**
 * get_ibs_caps - what IBS this system has
 *
 * Context: any.
 * Return: CPUID 8000_001Bh EAX (IBS_CAPS_*) once the IBS PMUs are
 * registered, 0 without them.
 */
u32 get_ibs_caps(void)
{
	return READ_ONCE(amd_ibs_ready) ? amd_ibs_caps : 0;
}
EXPORT_SYMBOL(get_ibs_caps);

/* one IBS event of an engine per group: there is one engine per CPU */
static bool ibs_group_has_room(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *m;

	if (leader == event)
		return true;
	if (leader->pmu == event->pmu)
		return false;
	for_each_sibling_event(m, leader) {
		if (m->pmu == event->pmu)
			return false;
	}
	return true;
}

static int ibs_event_init(struct perf_event *event)
{
	struct ibs_engine *e = ibs_of(event);
	struct hw_perf_event *hwc = &event->hw;
	u64 config = event->attr.config;
	bool ext = amd_ibs_caps & IBS_CAPS_OPCNTEXT;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (config & ~e->user_bits)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (!ibs_group_has_room(event))
		return -EINVAL;

	if (hwc->sample_period) {
		/* the period is given once, here or in config */
		if (config & e->cnt_bits)
			return -EINVAL;
		/*
		 * The hardware has no four low bits: a period is rounded
		 * down to a multiple of 16, never refused for them (upstream
		 * takes 20017 as 20016 too, and frequency mode needs it).
		 */
		hwc->sample_period = max(hwc->sample_period & ~0xfULL, 16ULL);
	} else {
		/*
		 * No sample_period: the period is config's MaxCnt, and the
		 * event samples at it; without one there is nothing a
		 * counting-only event could count.
		 */
		u64 period = amd_ibs_config_period(config, e->is_op, ext);

		if (!period)
			return -EINVAL;
		config &= ~e->cnt_bits;
		event->attr.sample_period = period;
		hwc->sample_period = period;
	}
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
	hwc->config_base = e->ctl;
	hwc->config = config;
	return 0;
}

/* write the control register: counting a round of @round when @on */
static void ibs_write(struct ibs_engine *e, struct perf_event *event,
		      u64 round, bool on)
{
	u64 enable = e->is_op ? IBS_OP_ENABLE : IBS_FETCH_ENABLE;
	u64 ctl = event->hw.config;

	if (!on) {
		/* family 10h, erratum 420: drop MaxCnt before the enable */
		if (boot_cpu_data.x86 == 0x10)
			wrmsrl(e->ctl, ctl | enable);
		wrmsrl(e->ctl, ctl);
		return;
	}
	ctl |= amd_ibs_ctl_period(round, e->is_op,
				  amd_ibs_caps & IBS_CAPS_OPCNTEXT);
	if (!e->is_op && amd_ibs_fetch_edge)
		wrmsrl(e->ctl, ctl);
	wrmsrl(e->ctl, ctl | enable);
}

/* arm the next round of what is left of the period */
static void ibs_arm(struct ibs_engine *e, struct ibs_cpu *c,
		    struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);

	/* a period changed under a long-stopped event: start afresh */
	if (left <= 0 || left > hwc->sample_period) {
		left = hwc->sample_period;
		local64_set(&hwc->period_left, left);
	}
	c->round = amd_ibs_round(left, e->max_period);
	ibs_write(e, event, c->round, true);
}

/* ops (or fetches) counted so far in the round, from the control register */
static u64 ibs_counted(struct ibs_engine *e, struct ibs_cpu *c, u64 ctl)
{
	u64 n = 0;

	if (ctl & (e->is_op ? IBS_OP_VAL : IBS_FETCH_VAL))
		return c->round;
	if (!e->is_op)
		n = FIELD_GET(IBS_FETCH_CNT, ctl) << 4;
	else if (amd_ibs_caps & IBS_CAPS_RDWROPCNT)
		n = FIELD_GET(GENMASK_ULL(58, 32), ctl);
	return min(n, c->round);
}

static void ibs_account(struct perf_event *event, u64 n)
{
	local64_add(n, &event->count);
	local64_sub(n, &event->hw.period_left);
}

static void ibs_start(struct perf_event *event, int flags)
{
	struct ibs_engine *e = ibs_of(event);
	struct ibs_cpu *c = this_cpu_ptr(e->cpu);

	lockdep_assert_irqs_disabled();
	if (WARN_ON_ONCE(!(event->hw.state & PERF_HES_STOPPED)))
		return;
	/* the NMI handler may serve the event from here on */
	WRITE_ONCE(event->hw.state, 0);
	barrier();
	ibs_arm(e, c, event);
	perf_event_update_userpage(event);
}

/*
 * Also called from the NMI handler when an overflow throttles the event,
 * which may interrupt this very function in task context: every step is
 * safe to repeat.
 */
static void ibs_stop(struct perf_event *event, int flags)
{
	struct ibs_engine *e = ibs_of(event);
	struct ibs_cpu *c = this_cpu_ptr(e->cpu);
	struct hw_perf_event *hwc = &event->hw;
	u64 ctl;

	lockdep_assert_irqs_disabled();
	if (hwc->state & PERF_HES_STOPPED)
		return;
	/*
	 * Owe one NMI, and let the NMI handler leave the event alone, before
	 * the engine goes off: a record it completes from now on interrupts
	 * after the event has stopped.
	 */
	WRITE_ONCE(c->late, 1);
	WRITE_ONCE(hwc->state, PERF_HES_STOPPED | PERF_HES_UPTODATE);
	barrier();
	rdmsrl(e->ctl, ctl);
	ibs_write(e, event, 0, false);
	/* the part of the round done (all of it if a record waits) */
	ibs_account(event, ibs_counted(e, c, ctl));
	c->round = 0;
}

static int ibs_add(struct perf_event *event, int flags)
{
	struct ibs_engine *e = ibs_of(event);
	struct ibs_cpu *c = this_cpu_ptr(e->cpu);

	lockdep_assert_irqs_disabled();
	if (c->event)
		return -ENOSPC;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	WRITE_ONCE(c->event, event);
	if (flags & PERF_EF_START)
		ibs_start(event, PERF_EF_RELOAD);
	return 0;
}

static void ibs_del(struct perf_event *event, int flags)
{
	struct ibs_engine *e = ibs_of(event);
	struct ibs_cpu *c = this_cpu_ptr(e->cpu);

	lockdep_assert_irqs_disabled();
	if (c->event != event)
		return;
	ibs_stop(event, PERF_EF_UPDATE);
	WRITE_ONCE(c->event, NULL);
	perf_event_update_userpage(event);
}

/* the count moves at the end of each round and at stop only */
static void ibs_read(struct perf_event *event)
{
}

/* a kernel address is linear as it is; user ones we take as flat */
static void ibs_set_ip(struct pt_regs *regs, u64 ip)
{
	regs->ip = ip;
	regs->cs = ip >= TASK_SIZE_MAX ? __KERNEL_CS : __USER_CS;
	regs->flags = (regs->flags & ~X86_VM_MASK) | PERF_EFLAGS_EXACT;
}

/* PERF_SAMPLE_RAW: CPUID 8000_001Bh EAX, then the registers */
struct ibs_raw {
	u32	pad;
	u32	caps;
	u64	regs[AMD_IBS_RAW_REGS];
};

/* what an op record says of its memory access */
static void ibs_op_memory(struct perf_event *event, struct ibs_raw *r,
			  struct perf_sample_data *data)
{
	u64 type = event->attr.sample_type;
	union ibs_op_data3 d3 = { .val = r->regs[4] };
	union ibs_op_data d1 = { .val = r->regs[2] };

	if (!d3.ld_op && !d3.st_op)
		return;
	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = amd_ibs_data_src(amd_ibs_caps,
						      boot_cpu_data.x86,
						      boot_cpu_data.x86_model,
						      r->regs[3], r->regs[4]);
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	/* a load's weight: its DC miss latency (and tag-to-retire) */
	if ((type & PERF_SAMPLE_WEIGHT_TYPE) && d3.ld_op && d3.dc_miss) {
		if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
			data->weight.var1_dw = d3.dc_miss_lat;
			data->weight.var2_w = d1.tag_to_ret_ctr;
		} else {
			data->weight.full = d3.dc_miss_lat;
		}
		data->sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	}
	if ((type & PERF_SAMPLE_ADDR) && d3.dc_lin_addr_valid) {
		data->addr = r->regs[5];
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
	if ((type & PERF_SAMPLE_PHYS_ADDR) && d3.dc_phy_addr_valid) {
		data->phys_addr = r->regs[6];
		data->sample_flags |= PERF_SAMPLE_PHYS_ADDR;
	}
}

/* the sample of a finished period; returns whether to throttle */
static int ibs_sample(struct ibs_engine *e, struct perf_event *event,
		      struct ibs_raw *r, struct pt_regs *iregs)
{
	struct perf_sample_data data;
	struct perf_raw_record raw;
	struct pt_regs regs = *iregs;
	unsigned int i;
	u64 ip;

	for (i = 1; i < e->nr_msrs; i++)
		rdmsrl(e->msrs[i], r->regs[i]);
	r->caps = amd_ibs_caps;
	ip = r->regs[1];
	if (!e->is_op && amd_ibs_fetch_need_addr && !ip)
		return 0;

	perf_sample_data_init(&data, 0, event->hw.last_period);
	/* with RipInvalidChk, IbsOpData[38] says the RIP is not known */
	if (e->is_op && (amd_ibs_caps & IBS_CAPS_RIPINVALIDCHK) &&
	    (r->regs[2] & BIT_ULL(38)))
		regs.flags &= ~PERF_EFLAGS_EXACT;
	else
		ibs_set_ip(&regs, ip);

	if (event->attr.sample_type & PERF_SAMPLE_RAW) {
		raw = (struct perf_raw_record) {
			.frag = {
				.size = sizeof(u32) + e->nr_msrs * sizeof(u64),
				.data = &r->caps,
			},
		};
		perf_sample_save_raw_data(&data, event, &raw);
	}
	if (e->is_op)
		ibs_op_memory(event, r, &data);
	/* the unwinder needs the interrupted frame, not the op's IP */
	if (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		rcu_read_lock();
		data.callchain = perf_callchain(event, iregs);
		rcu_read_unlock();
		data.sample_flags |= PERF_SAMPLE_CALLCHAIN;
	}
	return perf_event_overflow(event, &data, &regs);
}

/*
 * An NMI for @e on this CPU: 1 when it was the engine's.  *@start is
 * when the first engine with a record began handling it (0 before):
 * the clock is read only for an NMI that has IBS work, as every other
 * PMI of the CPU passes through here first.
 */
static int ibs_engine_nmi(struct ibs_engine *e, struct pt_regs *iregs,
			  u64 *start)
{
	struct ibs_cpu *c = this_cpu_ptr(e->cpu);
	struct perf_event *event = READ_ONCE(c->event);
	struct hw_perf_event *hwc;
	struct ibs_raw r;
	s64 left;

	if (!event || (READ_ONCE(event->hw.state) & PERF_HES_STOPPED))
		goto not_running;
	rdmsrl(e->ctl, r.regs[0]);
	if (!(r.regs[0] & (e->is_op ? IBS_OP_VAL : IBS_FETCH_VAL)))
		goto not_running;
	if (!*start)
		*start = sched_clock();

	hwc = &event->hw;
	ibs_account(event, c->round);
	c->round = 0;
	left = local64_read(&hwc->period_left);
	/*
	 * Less than the shortest round left (a frequency's period is no
	 * multiple of 16) is the end of the period too: a round of 16 for
	 * the rest would tag an op of this very handler. The difference
	 * carries over to the next period.
	 */
	if (left < 16) {
		/* a period ended: sample it and start the next */
		local64_set(&hwc->period_left, hwc->sample_period + left);
		if (ibs_sample(e, event, &r, iregs)) {
			/* throttled: off until the core restarts it */
			ibs_stop(event, 0);
			/* the engine halted at this record: no NMI to come */
			WRITE_ONCE(c->late, 0);
			goto done;
		}
		hwc->last_period = hwc->sample_period;
	}
	ibs_arm(e, c, event);
done:
	perf_event_update_userpage(event);
	return 1;

not_running:
	if (READ_ONCE(c->late)) {
		WRITE_ONCE(c->late, 0);
		return 1;
	}
	return 0;
}

static int amd_ibs_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 start = 0;
	int handled;

	handled = ibs_engine_nmi(&ibs_fetch, regs, &start) +
		  ibs_engine_nmi(&ibs_op, regs, &start);
	if (!handled)
		return NMI_DONE;
	inc_irq_stat(apic_perf_irqs);
	if (start)
		perf_sample_event_took(sched_clock() - start);
	return handled;
}

/* sysfs: format/ and caps/ files with a fixed text */
struct ibs_text_attr {
	struct device_attribute	attr;
	const char		*text;
};

static ssize_t ibs_text_show(struct device *dev, struct device_attribute *a,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  container_of(a, struct ibs_text_attr, attr)->text);
}

#define IBS_TEXT(var, file, str)					\
	static struct ibs_text_attr var = {				\
		.attr = __ATTR(file, 0444, ibs_text_show, NULL),	\
		.text = str,						\
	}

/* the IbsFetchCtl and IbsOpCtl fields users set by name */
IBS_TEXT(ibs_rand_en, rand_en, "config:57");
IBS_TEXT(ibs_fetch_l3missonly, l3missonly, "config:59");
IBS_TEXT(ibs_cnt_ctl, cnt_ctl, "config:19");
IBS_TEXT(ibs_op_l3missonly, l3missonly, "config:16");
IBS_TEXT(ibs_fetch_zen4, zen4_ibs_extensions, "1");
IBS_TEXT(ibs_op_zen4, zen4_ibs_extensions, "1");

static struct ibs_engine ibs_fetch = {
	.ctl		= MSR_AMD64_IBSFETCHCTL,
	.cnt_bits	= IBS_FETCH_MAX_CNT,
	.user_bits	= IBS_FETCH_MAX_CNT | IBS_FETCH_RAND_EN,
	.max_period	= IBS_FETCH_MAX_CNT << 4,
};

static struct ibs_engine ibs_op = {
	.ctl		= MSR_AMD64_IBSOPCTL,
	.is_op		= true,
	.cnt_bits	= IBS_OP_MAX_CNT,
	.user_bits	= IBS_OP_MAX_CNT,
	.max_period	= IBS_OP_MAX_CNT << 4,
};

/* the engine's fields, files and callbacks for what @caps offers */
static void __init ibs_engine_describe(struct ibs_engine *e, u32 caps)
{
	struct pmu *pmu = &e->pmu;
	unsigned int nf = 0, nc = 0;
	bool zen4 = caps & IBS_CAPS_ZEN4;

	if (e->is_op) {
		if (caps & IBS_CAPS_OPCNT) {
			e->user_bits |= IBS_OP_CNT_CTL;
			e->format[nf++] = &ibs_cnt_ctl.attr.attr;
		}
		if (caps & IBS_CAPS_OPCNTEXT) {
			e->user_bits |= IBS_OP_MAX_CNT_EXT_MASK;
			e->cnt_bits |= IBS_OP_MAX_CNT_EXT_MASK;
			e->max_period |= IBS_OP_MAX_CNT_EXT_MASK;
		}
		if (zen4) {
			e->user_bits |= IBS_OP_L3MISSONLY;
			e->format[nf++] = &ibs_op_l3missonly.attr.attr;
			e->caps[nc++] = &ibs_op_zen4.attr.attr;
		}
	} else {
		e->format[nf++] = &ibs_rand_en.attr.attr;
		if (zen4) {
			e->user_bits |= IBS_FETCH_L3MISSONLY;
			e->format[nf++] = &ibs_fetch_l3missonly.attr.attr;
			e->caps[nc++] = &ibs_fetch_zen4.attr.attr;
		}
	}
	e->nr_msrs = amd_ibs_raw_msrs(e->is_op, caps, e->msrs);

	/* both directories exist even when empty, as upstream's do */
	e->format_group.name = "format";
	e->format_group.attrs = e->format;
	e->caps_group.name = "caps";
	e->caps_group.attrs = e->caps;
	e->groups[0] = &e->format_group;
	e->groups[1] = &e->caps_group;

	pmu->task_ctx_nr = perf_hw_context;
	pmu->capabilities = PERF_PMU_CAP_NO_EXCLUDE;
	pmu->attr_groups = e->groups;
	pmu->event_init = ibs_event_init;
	pmu->add = ibs_add;
	pmu->start = ibs_start;
	pmu->read = ibs_read;
	pmu->stop = ibs_stop;
	pmu->del = ibs_del;
}

/* the per-CPU state, which the NMI handler reads from its first NMI on */
static int __init ibs_engine_alloc(struct ibs_engine *e)
{
	e->cpu = alloc_percpu(struct ibs_cpu);
	return e->cpu ? 0 : -ENOMEM;
}

static void __init ibs_engine_free(struct ibs_engine *e)
{
	free_percpu(e->cpu);
	e->cpu = NULL;
}

/* this CPU's extended LVT entry for IBS: NMI when @on, else masked */
static int ibs_lvt(bool on)
{
	if (on)
		return setup_APIC_eilvt(amd_ibs_lvt, 0, APIC_EILVT_MSG_NMI, 0);
	return setup_APIC_eilvt(amd_ibs_lvt, 0, APIC_EILVT_MSG_FIX, 1);
}

/* CPUHP_AP_PERF_X86_AMD_IBS_STARTING: on the CPU, interrupts off */
static int amd_ibs_cpu_starting(unsigned int cpu)
{
	lockdep_assert_irqs_disabled();
	if (ibs_lvt(true))
		pr_warn("CPU %u: cannot route IBS interrupts to NMI\n", cpu);
	return 0;
}

static int amd_ibs_cpu_dying(unsigned int cpu)
{
	lockdep_assert_irqs_disabled();
	ibs_lvt(false);
	return 0;
}

#ifdef CONFIG_PM
/* across suspend the boot CPU's entry is masked, and set up again after */
static int amd_ibs_suspend(void)
{
	ibs_lvt(false);
	return 0;
}

static void amd_ibs_resume(void)
{
	ibs_lvt(true);
}

static struct syscore_ops amd_ibs_syscore = {
	.suspend	= amd_ibs_suspend,
	.resume		= amd_ibs_resume,
};
#endif

/* CPUID 8000_001Bh EAX, or the first parts' default, or 0 without IBS */
static u32 __init ibs_cpuid_caps(void)
{
	u32 caps;

	if (!boot_cpu_has(X86_FEATURE_IBS))
		return 0;
	if (boot_cpu_data.extended_cpuid_level < IBS_CPUID_FEATURES)
		return IBS_CAPS_DEFAULT;
	caps = cpuid_eax(IBS_CPUID_FEATURES);
	return caps & IBS_CAPS_AVAIL ? caps : IBS_CAPS_DEFAULT;
}

/*
 * The LVT offset firmware gave IBS (IBS_CTL), reserved for it on the
 * boot CPU so that nothing else takes the entry; -ENODEV without one.
 */
static int __init ibs_reserve_lvt(void)
{
	u64 ctl;
	int ret;

	rdmsrl(MSR_AMD64_IBSCTL, ctl);
	if (!(ctl & IBSCTL_LVT_OFFSET_VALID)) {
		pr_err(FW_BUG "IBS_CTL %#llx names no interrupt offset\n", ctl);
		return -ENODEV;
	}
	amd_ibs_lvt = ctl & IBSCTL_LVT_OFFSET_MASK;
	preempt_disable();
	ret = setup_APIC_eilvt(amd_ibs_lvt, 0, APIC_EILVT_MSG_NMI, 1);
	preempt_enable();
	if (ret)
		pr_err(FW_BUG "IBS interrupt offset %u is taken\n", amd_ibs_lvt);
	return ret;
}

/* a device_initcall, after the core PMU's early_initcall, as upstream's */
static int __init amd_ibs_init(void)
{
	u32 caps = ibs_cpuid_caps();
	int ret;

	if (!caps)
		return 0;
	ret = ibs_reserve_lvt();
	if (ret)
		return 0;

	amd_ibs_fetch_need_addr = boot_cpu_data.x86 == 0x19 &&
				  boot_cpu_data.x86_model < 0x10;
	amd_ibs_fetch_edge = boot_cpu_data.x86 >= 0x16 &&
			     boot_cpu_data.x86 <= 0x18;
	ibs_engine_describe(&ibs_fetch, caps);
	ibs_engine_describe(&ibs_op, caps);
	amd_ibs_caps = caps;

	ret = ibs_engine_alloc(&ibs_fetch);
	if (ret)
		goto fail;
	ret = ibs_engine_alloc(&ibs_op);
	if (ret)
		goto fail_fetch;
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_AMD_IBS_STARTING,
				"perf/x86/amd/ibs:starting",
				amd_ibs_cpu_starting, amd_ibs_cpu_dying);
	if (ret)
		goto fail_op;
	/* the NMI handler first: an event may start once a PMU is there */
	ret = register_nmi_handler(NMI_LOCAL, amd_ibs_nmi, 0, "perf_ibs");
	if (ret)
		goto fail_cpuhp;
	ret = perf_pmu_register(&ibs_fetch.pmu, "ibs_fetch", -1);
	if (ret)
		goto fail_nmi;
	ret = perf_pmu_register(&ibs_op.pmu, "ibs_op", -1);
	if (ret)
		goto fail_fetch_pmu;
#ifdef CONFIG_PM
	register_syscore_ops(&amd_ibs_syscore);
#endif
	WRITE_ONCE(amd_ibs_ready, true);
	pr_info("AMD IBS, capabilities %#x, interrupt offset %u\n", caps,
		amd_ibs_lvt);
	return 0;

fail_fetch_pmu:
	perf_pmu_unregister(&ibs_fetch.pmu);
fail_nmi:
	unregister_nmi_handler(NMI_LOCAL, "perf_ibs");
fail_cpuhp:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_AMD_IBS_STARTING);
fail_op:
	ibs_engine_free(&ibs_op);
fail_fetch:
	ibs_engine_free(&ibs_fetch);
fail:
	pr_err("cannot register the IBS PMUs: %d\n", ret);
	return 0;
}
device_initcall(amd_ibs_init);
