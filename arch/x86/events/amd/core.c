// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, AMD: the core performance counters (APM vol. 2,
 * "Performance Monitoring Counters").
 *
 * Three generations share one programming model, a PerfEvtSel/PerfCtr
 * pair per counter, 48 bits wide:
 *
 *  - legacy: four counters at C001_0000 (selects) and C001_0004 (counts);
 *  - PerfCtrExtCore (CPUID 8000_0001:ECX[23]): six counters at
 *    C001_0200 + 2n (select) and C001_0201 + 2n (count), the legacy MSRs
 *    aliasing the first four;
 *  - PerfMonV2 (CPUID 8000_0022:EAX[0]) adds global registers, as many
 *    counters as 8000_0022:EBX[3:0] says: PerfCntrGlobalCtl enables a set
 *    of counters, PerfCntrGlobalStatus says which wrapped and
 *    PerfCntrGlobalStatusClr clears that.
 *
 * Zen 4 and later record branch stacks with LbrExtV2 (lbr.c), which
 * needs PerfMonV2; Zen 3 samples them with BRS (brs.c), without it.
 * Precise events are IBS's (ibs.c): the core counters have no precise
 * mode, and amd_ibs_forward() hands them to ibs_op.
 *
 * Without PerfMonV2 there is no overflow status: a counter is gated by
 * its own enable bit and a wrap is seen in the counter (gated mode, in
 * ../gate.c). The event select is 12 bits, bits 7:0 and 35:32 of PerfEvtSel.
 *
 * HostOnly/GuestOnly (bits 41/40) filter by SVM mode. With EFER.SVME
 * clear a HostOnly counter counts nothing, so HostOnly is masked off
 * until KVM turns SVM on (amd_pmu_enable_virt()).
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/export.h>
#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "amd.h"

/* PerfEvtSel bits this CPU's SVM state says to leave out */
static DEFINE_PER_CPU(u64, amd_virt_mask);

/*
 * exclude_host and exclude_guest select the SVM mode to count in. Both
 * set would read as HostOnly = GuestOnly = 1, which the hardware counts
 * as neither bit set, i.e. always: count at no privilege level instead.
 */
static int amd_hw_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;

	if (attr->exclude_host && attr->exclude_guest)
		hwc->config &= ~(ARCH_PERFMON_EVENTSEL_USR |
				 ARCH_PERFMON_EVENTSEL_OS);
	else if (attr->exclude_host)
		hwc->config |= AMD64_EVENTSEL_GUESTONLY;
	else if (attr->exclude_guest)
		hwc->config |= AMD64_EVENTSEL_HOSTONLY;
	return 0;
}

static void amd_program(struct perf_event *event, bool on)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 sel = hwc->config & ~__this_cpu_read(amd_virt_mask);

	wrmsrl(hwc->config_base,
	       sel | (on ? ARCH_PERFMON_EVENTSEL_ENABLE : 0));
}

/*
 * The LBR records from before the counters start until after they stop,
 * so that a sample's branch stack ends where its counter overflowed. In
 * the PMI the enable also lifts the LBR's freeze, once the samples have
 * read the stack (lbr.c).
 */
static void amd_v2_enable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	amd_lbr_enable();
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, cpuc->used);
}

static void amd_v2_disable_all(struct x86_core *core,
			       struct x86_cpu_pmu *cpuc)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
	amd_lbr_disable();
}

/*
 * Status bits we never asked for are cleared and ignored, but for the
 * LBR's freeze (bit 58): that one stays until the samples have read the
 * LBR, and amd_lbr_enable() clears it.
 */
static u64 amd_v2_overflowed(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	u64 status, stray;

	rdmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, status);
	stray = status & ~(core->gp | BIT_ULL(GLOBAL_STATUS_LBRS_FROZEN_BIT));
	if (stray)
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, stray);
	return status & core->gp;
}

static void amd_v2_ack(u64 cntrs)
{
	wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, cntrs);
}

static void amd_reset_cpu(struct x86_core *core)
{
	unsigned long idx;

	__this_cpu_write(amd_virt_mask, AMD64_EVENTSEL_HOSTONLY);
	if (!core->gated)
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
	for_each_set_bit(idx, (unsigned long *)&core->gp, X86_NR_IDX) {
		wrmsrl(x86_gp_evtsel(core, idx), 0);
		wrmsrl(x86_gp_ctr(core, idx), 0);
	}
	if (!core->gated) {
		wrmsrl(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, core->gp);
		amd_lbr_reset_cpu();
	}
}

/* PerfMonV2; the branch stacks are LbrExtV2's, where the CPU has it */
static const struct x86_core_ops amd_v2_ops = {
	.hw_config	= amd_hw_config,
	.program	= amd_program,
	.enable_all	= amd_v2_enable_all,
	.disable_all	= amd_v2_disable_all,
	.overflowed	= amd_v2_overflowed,
	.ack		= amd_v2_ack,
	.reset_cpu	= amd_reset_cpu,
	.branch_init	= amd_lbr_init,
	.branch_add	= amd_lbr_add,
	.branch_del	= amd_lbr_del,
	.branch_sample	= amd_lbr_sample,
	.branch_sched_in = amd_lbr_sched_in,
	.branch_snapshot = amd_lbr_snapshot,
	.precise_forward = amd_ibs_forward,
};

/*
 * Zen 3's Branch Sampling (brs.c) is armed as the counters start and
 * stopped after them, so that an interrupt it holds goes out while the
 * counter that raised it still has its event.
 */
static void amd_brs_enable_all(struct x86_core *core,
			       struct x86_cpu_pmu *cpuc)
{
	amd_brs_start();
	x86_gate_enable_all(core, cpuc);
}

static void amd_brs_disable_all(struct x86_core *core,
				struct x86_cpu_pmu *cpuc)
{
	x86_gate_disable_all(core, cpuc);
	amd_brs_stop();
}

static void amd_brs_reset(struct x86_core *core)
{
	amd_reset_cpu(core);
	amd_brs_reset_cpu();
}

/* no PerfMonV2, with BRS: gated, the branch stacks BRS's */
static const struct x86_core_ops amd_brs_ops = {
	.hw_config	= amd_hw_config,
	.program	= amd_program,
	.enable_all	= amd_brs_enable_all,
	.disable_all	= amd_brs_disable_all,
	.overflowed	= x86_gate_overflowed,
	.ack		= x86_gate_ack,
	.reset_cpu	= amd_brs_reset,
	.branch_init	= amd_brs_init,
	.branch_add	= amd_brs_add,
	.branch_del	= amd_brs_del,
	.branch_sample	= amd_brs_sample,
	.precise_forward = amd_ibs_forward,
};

static const struct x86_core_ops amd_gated_ops = {
	.hw_config	= amd_hw_config,
	.program	= amd_program,
	.enable_all	= x86_gate_enable_all,
	.disable_all	= x86_gate_disable_all,
	.overflowed	= x86_gate_overflowed,
	.ack		= x86_gate_ack,
	.reset_cpu	= amd_reset_cpu,
	.precise_forward = amd_ibs_forward,
};

/* re-program every running counter with this CPU's current virt mask */
static void amd_reload_virt(void)
{
	struct x86_core *core = this_cpu_read(x86_cpu_core);
	struct x86_cpu_pmu *cpuc;
	unsigned long flags, idx;

	if (!core || (core->ops != &amd_v2_ops && core->ops != &amd_gated_ops &&
		      core->ops != &amd_brs_ops))
		return;
	cpuc = x86_cpuc(core);
	local_irq_save(flags);
	for_each_set_bit(idx, (unsigned long *)&cpuc->running, X86_NR_IDX)
		amd_program(cpuc->events[idx], !(core->gated && cpuc->frozen));
	local_irq_restore(flags);
}

/**
 * amd_pmu_enable_virt - SVM is on: honour HostOnly
 *
 * Called by KVM (SVM) on each CPU as it enables virtualization there.
 * Context: the CPU concerned, preemption off.
 */
void amd_pmu_enable_virt(void)
{
	lockdep_assert_preemption_disabled();
	__this_cpu_write(amd_virt_mask, 0);
	amd_reload_virt();
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

/**
 * amd_pmu_disable_virt - SVM is off: HostOnly would stop counting
 *
 * Context: as amd_pmu_enable_virt().
 */
void amd_pmu_disable_virt(void)
{
	__this_cpu_write(amd_virt_mask, AMD64_EVENTSEL_HOSTONLY);
	amd_reload_virt();
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);

/* the PerfEvtSeln fields (APM Vol. 2), by name */
PMU_FORMAT_ATTR(cmask, "config:24-31");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(event, "config:0-7,32-35");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(umask, "config:8-15");

static struct attribute *amd_format[] = {
	&format_attr_cmask.attr,
	&format_attr_edge.attr,
	&format_attr_event.attr,
	&format_attr_inv.attr,
	&format_attr_umask.attr,
	NULL,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x

/* families 10h to 16h */
static const x86_cache_map_t amd_k10_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0040,	/* Data Cache Accesses */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0x0141,	/* Data Cache Misses */
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = 0x0267,	/* Data Prefetcher :attempts */
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_MISS)] = 0x0167,	/* Data Prefetcher :cancelled */
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0080,	/* Instruction cache fetches */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0081,	/* Instruction cache misses */
	[C(LL)][C(OP_READ)][C(RESULT_ACCESS)] = 0x037d,	/* Requests to L2 Cache :IC+DC */
	[C(LL)][C(OP_READ)][C(RESULT_MISS)] = 0x037e,	/* L2 Cache Misses : IC+DC */
	[C(LL)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x017f,	/* L2 Fill/Writeback */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0040,	/* Data Cache Accesses */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0746,	/* L1_DTLB_AND_L2_DLTB_MISS.ALL */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0080,	/* Instruction fetches */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0385,	/* L1_ITLB_AND_L2_ITLB_MISS.ALL */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c2,	/* Retired Branch Instr. */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c3,	/* Retired Mispredicted BI */
};

/* Zen 1 to Zen 3 (amdzen1-3: PMCx080/081 count instruction fetches) */
static const x86_cache_map_t amd_zen_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0040,	/* Data Cache Accesses */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0xc860,	/* L2$ access from DC Miss */
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = 0xff5a,	/* h/w prefetch DC Fills */
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0080,	/* Instruction cache fetches */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0081,	/* Instruction cache misses */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0xff45,	/* All L2 DTLB accesses */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0xf045,	/* L2 DTLB misses (PT walks) */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0084,	/* L1 ITLB misses, L2 ITLB hits */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0xff85,	/* L1 ITLB misses, L2 misses */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c2,	/* Retired Branch Instr. */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c3,	/* Retired Mispredicted BI */
};

/*
 * Zen 4 and Zen 5, by the event names of Linux 6.12's amdzen4 and amdzen5
 * lists (tools/perf/pmu-events/arch/x86): they no longer have PMCx040,
 * 080 and 081; the instruction cache is counted by PMCx18E, whose select
 * needs bits 35:32.
 */
static const x86_cache_map_t amd_zen4_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0129,	/* ls_dispatch.ld_dispatch */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0xff43,	/* ls_dmnd_fills_from_sys.all */
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x0229,	/* ls_dispatch.store_dispatch */
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = 0xdf5a,	/* ls_hw_pf_dc_fills.all */
	/* ic_tag_hit_miss.all_instruction_cache_accesses, .instruction_cache_miss */
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)] = 0x100001f8eULL,
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x10000188eULL,
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0xff45,	/* ls_l1_d_tlb_miss.all */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0xf045,	/* ls_l1_d_tlb_miss.all_l2_miss */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0084,	/* bp_l1_tlb_miss_l2_tlb_hit */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0f85,	/* bp_l1_tlb_miss_l2_tlb_miss.all */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c2,	/* ex_ret_brn */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c3,	/* ex_ret_brn_misp */
};

/**
 * amd_zen - the Zen generation of a family and model
 * @family: the CPU family (boot_cpu_data.x86)
 * @model: the model
 *
 * As Linux 6.12's tools/perf/pmu-events/arch/x86/mapfile.csv gives each
 * AMD model its event list (amdzen1-5): family 17h models 00h-2Fh Zen 1
 * and the rest Zen 2; 19h models 00h-0Fh, 20h-2Fh and 40h-5Fh Zen 3 and
 * the rest Zen 4; 1Ah Zen 5. Hygon's 18h, which the lists do not cover,
 * is a Zen 1 core; later families get the latest events we know.
 *
 * Context: any.
 * Return: 1 to 5, or 0 before Zen (families 10h-16h and older).
 */
unsigned int amd_zen(unsigned int family, unsigned int model)
{
	switch (family) {
	case 0x17:
		return model < 0x30 ? 1 : 2;
	case 0x18:
		return 1;
	case 0x19:
		if (model < 0x10 || (model >= 0x20 && model < 0x30) ||
		    (model >= 0x40 && model < 0x60))
			return 3;
		return 4;
	}
	return family > 0x19 ? 5 : 0;
}

/**
 * amd_hw_map - the generic and cache events of a family and model
 * @core: its hw_map and cache_map are set
 * @family: the CPU family (boot_cpu_data.x86)
 * @model: the model
 *
 * Before Zen, the family 10h-16h events; Zen 1 counts stalls at the
 * instruction fetch, Zen 2 and later at the op queue (PMCx0A9); Zen 5's
 * L2 request umask has no bit 3 (l2_request_g1.all is 0xf7).
 *
 * Context: boot, or a test's own @core.
 */
void amd_hw_map(struct x86_core *core, unsigned int family,
		unsigned int model)
{
	unsigned int zen = amd_zen(family, model);
	u64 *map = core->hw_map;

	map[PERF_COUNT_HW_CPU_CYCLES] = 0x0076;
	map[PERF_COUNT_HW_INSTRUCTIONS] = 0x00c0;
	map[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = 0x00c2;
	map[PERF_COUNT_HW_BRANCH_MISSES] = 0x00c3;

	if (!zen) {
		map[PERF_COUNT_HW_CACHE_REFERENCES] = 0x077d;
		map[PERF_COUNT_HW_CACHE_MISSES] = 0x077e;
		map[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 0x00d0;
		map[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 0x00d1;
		core->cache_map = &amd_k10_cache_map;
		return;
	}

	map[PERF_COUNT_HW_CACHE_REFERENCES] = zen >= 5 ? 0xf760 : 0xff60;
	map[PERF_COUNT_HW_CACHE_MISSES] = 0x0964;
	if (zen == 1) {
		map[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 0x0287;
		map[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 0x0187;
	} else {
		map[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 0x00a9;
	}
	core->cache_map = zen >= 4 ? &amd_zen4_cache_map : &amd_zen_cache_map;
}

/**
 * amd_core_probe - describe an AMD (or Hygon) CPU's core counters
 * @core: filled in on success
 *
 * Context: boot CPU, at early_initcall.
 * Return: 0, or -ENODEV on other vendors and families before 6.
 */
int __init amd_core_probe(struct x86_core *core)
{
	unsigned int nr = AMD64_NUM_COUNTERS;

	if ((boot_cpu_data.x86_vendor != X86_VENDOR_AMD &&
	     boot_cpu_data.x86_vendor != X86_VENDOR_HYGON) ||
	    boot_cpu_data.x86 < 6)
		return -ENODEV;

	core->vendor = "AMD";
	core->gp_width = 48;
	core->max_period = (1ULL << 47) - 1;
	core->raw_mask = AMD64_RAW_EVENT_MASK;
	core->format = amd_format;
	core->evtsel_msr = MSR_K7_EVNTSEL0;
	core->ctr_msr = MSR_K7_PERFCTR0;
	core->msr_stride = 1;
	core->gated = true;
	core->ops = &amd_gated_ops;

	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE)) {
		nr = AMD64_NUM_COUNTERS_CORE;
		core->evtsel_msr = MSR_F15H_PERF_CTL;
		core->ctr_msr = MSR_F15H_PERF_CTR;
		core->msr_stride = 2;
	}

	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE) &&
	    boot_cpu_has(X86_FEATURE_PERFMON_V2)) {
		union cpuid_0x80000022_ebx ebx;

		ebx.full = cpuid_ebx(0x80000022);
		nr = clamp_t(unsigned int, ebx.split.num_core_pmc, 1,
			     AMD64_NUM_COUNTERS_CORE);
		core->version = 2;
		core->gated = false;
		core->ops = &amd_v2_ops;
		amd_lbr_probe(core);
	}

	if (core->gated && amd_brs_probe(core))
		core->ops = &amd_brs_ops;

	core->gp = GENMASK_ULL(nr - 1, 0);
	amd_hw_map(core, boot_cpu_data.x86, boot_cpu_data.x86_model);
	return 0;
}
