// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: the architectural performance-monitoring
 * counters, versions 1 to 5 (SDM vol. 3B, "Architectural Performance
 * Monitoring").
 *
 * CPUID leaf 0AH enumerates them: the version, the number and width of
 * general-purpose counters (IA32_PMCx, selected by IA32_PERFEVTSELx), the
 * architectural events present, and from version 2 the fixed-function
 * counters (IA32_FIXED_CTRx, controlled four bits each by
 * IA32_FIXED_CTR_CTRL) with the global registers: IA32_PERF_GLOBAL_CTRL
 * enables counters as a set, IA32_PERF_GLOBAL_STATUS says which wrapped
 * and IA32_PERF_GLOBAL_OVF_CTRL clears that. Version 1 has none of the
 * global registers: each counter is gated by its own EN bit and a wrap is
 * seen in the counter itself (gated mode, ../gate.c). Version 5 may leave holes in the
 * fixed counters (CPUID.0AH:ECX) and deprecates AnyThread (EDX bit 15).
 *
 * IA32_PMCx take 32 sign-extended bits on a write; with
 * IA32_PERF_CAPABILITIES.FW_WRITE the IA32_A_PMCx aliases take the full
 * width, which lets one write program a period up to half the counter.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "intel.h"

/* IA32_PERF_CAPABILITIES: full-width writes through IA32_A_PMCx */
#define INTEL_CAP_FW_WRITE	BIT_ULL(13)
/* CPUID.0AH:EDX: AnyThread is deprecated (the bit in selects is reserved) */
#define INTEL_EDX_ANY_DEPRECATED	BIT(15)

/*
 * The control bits of fixed counter i in IA32_FIXED_CTR_CTRL: its four
 * low ones and its Adaptive_Record bit (32 + 4i, PEBS)
 */
#define INTEL_FIXED_FIELD(i)	((0xfULL | ICL_FIXED_0_ADAPTIVE) << \
				 ((i) * INTEL_FIXED_BITS_STRIDE))

/* x86_core.quirks: AnyThread is deprecated (CPUID.0AH:EDX[15]) */
#define INTEL_QUIRK_NO_ANY	BIT(0)

static DEFINE_PER_CPU(struct perf_guest_switch_msr, intel_guest_msrs[2]);

/*
 * Memory sampling's checks and setup (pebs_mem.c); raw AnyThread needs
 * the right to watch the whole CPU (both threads)
 */
static int intel_hw_config(struct perf_event *event)
{
	const struct x86_core *core = x86_event_core(event);
	struct perf_event_attr *attr = &event->attr;
	int ret;

	ret = intel_mem_hw_config(event);
	if (ret)
		return ret;
	if (attr->type != event->pmu->type ||
	    !(attr->config & ARCH_PERFMON_EVENTSEL_ANY))
		return 0;
	if (core->version < 3 || (core->quirks & INTEL_QUIRK_NO_ANY))
		return -EINVAL;
	ret = perf_allow_cpu();
	if (ret)
		return ret;
	event->hw.config |= ARCH_PERFMON_EVENTSEL_ANY;
	return 0;
}

/*
 * Fixed counter 0 counts INST_RETIRED.ANY and 1 CPU_CLK_UNHALTED.CORE,
 * each also available as a GP event; any fixed counter i is selected by
 * its pseudo-encoding, event 0 with unit mask i + 1. Edge, invert and
 * counter mask have no fixed-counter form.
 */
static u64 intel_fixed_for(u64 config)
{
	u64 sel = config & X86_RAW_EVENT_MASK;
	u64 umask = FIELD_GET(ARCH_PERFMON_EVENTSEL_UMASK, sel);

	if (sel == 0x00c0)
		return BIT_ULL(X86_FIXED(0));
	if (sel == 0x003c)
		return BIT_ULL(X86_FIXED(1));
	if (!(sel & ~ARCH_PERFMON_EVENTSEL_UMASK) && umask &&
	    umask <= INTEL_PMC_MAX_FIXED)
		return BIT_ULL(X86_FIXED(umask - 1));
	return 0;
}

/*
 * Write this CPU's fixed-counter control with field @i set to @bits. The
 * PMI may change another field between our computing the value and
 * writing it (stopping a throttled event), so the shadow is updated with
 * cmpxchg and the register written until it matches the latest shadow.
 */
static void intel_fixed_ctrl(struct x86_cpu_pmu *cpuc, int i, u64 bits)
{
	u64 *shadow = &cpuc->fixed_ctrl;
	u64 old, new, written;

	do {
		old = READ_ONCE(*shadow);
		new = (old & ~INTEL_FIXED_FIELD(i)) |
		      (bits << (i * INTEL_FIXED_BITS_STRIDE));
	} while (cmpxchg_local(shadow, old, new) != old);

	do {
		written = READ_ONCE(*shadow);
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, written);
	} while (READ_ONCE(*shadow) != written);
}

/*
 * A precise event's counter also gets its PEBS state (pebs.c): armed
 * before the counter is enabled, disarmed after it stops, and with its
 * Adaptive_Record bit when its records need more than the basic group.
 */
static void intel_program(struct perf_event *event, bool on)
{
	struct hw_perf_event *hwc = &event->hw;
	bool pebs = hwc->flags & X86_EVENT_FLAG_PEBS;
	bool adaptive = pebs && intel_pebs_adaptive(event);
	u64 bits = 0;

	if (pebs && on)
		intel_pebs_program(event, true);
	if (!X86_IS_FIXED(hwc->idx)) {
		wrmsrl(hwc->config_base, hwc->config |
		       (adaptive ? ICL_EVENTSEL_ADAPTIVE : 0) |
		       (on ? ARCH_PERFMON_EVENTSEL_ENABLE : 0));
		if (pebs && !on)
			intel_pebs_program(event, false);
		return;
	}

	/* a fixed counter is off when it counts at neither privilege level */
	if (on) {
		if (hwc->config & ARCH_PERFMON_EVENTSEL_OS)
			bits |= INTEL_FIXED_0_KERNEL;
		if (hwc->config & ARCH_PERFMON_EVENTSEL_USR)
			bits |= INTEL_FIXED_0_USER;
		if (hwc->config & ARCH_PERFMON_EVENTSEL_ANY)
			bits |= INTEL_FIXED_0_ANYTHREAD;
		if (hwc->config & ARCH_PERFMON_EVENTSEL_INT)
			bits |= INTEL_FIXED_0_ENABLE_PMI;
		if (adaptive)
			bits |= ICL_FIXED_0_ADAPTIVE;
	}
	intel_fixed_ctrl(x86_cpuc(x86_event_core(event)),
			 hwc->idx - INTEL_PMC_IDX_FIXED, bits);
	if (pebs && !on)
		intel_pebs_program(event, false);
}

/*
 * The host's global enable: every counter that holds an event, except
 * events that count only while a guest runs (exclude_host); KVM swaps in
 * the guest's value at VM entry (perf_guest_get_msrs()). PEBS is armed
 * before the counters run, so that no precise counter wraps without it.
 */
static void intel_enable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	intel_lbr_enable();
	intel_pebs_enable();
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, cpuc->used & ~cpuc->guest_only);
}

/*
 * The LBR and PEBS stop after the counters, so the LBR ends with what
 * they counted and no record is left half armed.
 */
static void intel_disable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	intel_pebs_disable();
	intel_lbr_disable();
}

static u64 intel_overflowed(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	u64 cntrs = core->gp | core->fixed;
	u64 status;

	/* a PEBS buffer at its threshold: pebs.c's drain serves it */
	if (core->max_precise)
		cntrs |= GLOBAL_STATUS_BUFFER_OVF;
	rdmsrl(MSR_CORE_PERF_GLOBAL_STATUS, status);
	/* bits we never asked for (buffers, tracing): clear and ignore */
	if (status & ~cntrs)
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status & ~cntrs);
	return status & cntrs;
}

static void intel_ack(u64 cntrs)
{
	wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, cntrs);
}

/* every counter off and zero, no overflow pending */
static void intel_reset_cpu(struct x86_core *core)
{
	unsigned long idx;

	if (!core->gated)
		wrmsrl(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for_each_set_bit(idx, (unsigned long *)&core->gp, X86_NR_IDX) {
		wrmsrl(x86_gp_evtsel(core, idx), 0);
		wrmsrl(x86_gp_ctr(core, idx), 0);
	}
	if (core->fixed) {
		wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
		for_each_set_bit(idx, (unsigned long *)&core->fixed,
				 X86_NR_IDX)
			wrmsrl(MSR_ARCH_PERFMON_FIXED_CTR0 +
			       (idx - INTEL_PMC_IDX_FIXED), 0);
	}
	if (!core->gated)
		wrmsrl(MSR_CORE_PERF_GLOBAL_OVF_CTRL, core->gp | core->fixed);
	intel_pebs_reset_cpu();
	intel_mem_reset_cpu();
	intel_lbr_reset_cpu();
}

static const struct x86_core_ops intel_ops = {
	.hw_config	= intel_hw_config,
	.fixed_for	= intel_fixed_for,
	.program	= intel_program,
	.enable_all	= intel_enable_all,
	.disable_all	= intel_disable_all,
	.overflowed	= intel_overflowed,
	.ack		= intel_ack,
	.reset_cpu	= intel_reset_cpu,
	.branch_init	= intel_lbr_init,
	.branch_free	= intel_lbr_free,
	.branch_add	= intel_lbr_add,
	.branch_del	= intel_lbr_del,
	.branch_sample	= intel_lbr_sample,
	.branch_sched_in = intel_lbr_sched_in,
	.branch_snapshot = intel_lbr_snapshot,
	.precise_init	= intel_pebs_init,
	.drain		= intel_pebs_drain,
	.precise_flush	= intel_pebs_flush,
	.shared_get	= intel_mem_shared_get,
	.shared_put	= intel_mem_shared_put,
};

/* version 1: no global registers, no fixed counters, no LBR we drive */
static const struct x86_core_ops intel_v1_ops = {
	.hw_config	= intel_hw_config,
	.program	= intel_program,
	.enable_all	= x86_gate_enable_all,
	.disable_all	= x86_gate_disable_all,
	.overflowed	= x86_gate_overflowed,
	.ack		= x86_gate_ack,
	.reset_cpu	= intel_reset_cpu,
};

/**
 * perf_guest_get_msrs - the PMU MSRs KVM switches at VM entry and exit
 * @nr: out: the number of entries
 * @data: KVM's vPMU (unused: the guest's own counters are perf events)
 *
 * IA32_PERF_GLOBAL_CTRL: in the host the counters of events that exclude
 * the host are off, in the guest those of events that exclude guests.
 * With PEBS, IA32_PEBS_ENABLE too: off in the guest, whose records would
 * land in the host's buffer.
 *
 * The core PMU of this CPU answers, from its counters on this CPU.
 *
 * Context: the CPU about to enter the guest, interrupts off.
 * Return: this CPU's array, or NULL (with *nr = 0) with no global control.
 */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	struct perf_guest_switch_msr *arr = this_cpu_ptr(&intel_guest_msrs[0]);
	struct x86_core *core = this_cpu_read(x86_cpu_core);
	struct x86_cpu_pmu *cpuc;

	lockdep_assert_irqs_disabled();
	*nr = 0;
	if (!core || core->ops != &intel_ops)
		return NULL;
	cpuc = x86_cpuc(core);
	arr->msr = MSR_CORE_PERF_GLOBAL_CTRL;
	arr->host = cpuc->used & ~cpuc->guest_only;
	arr->guest = cpuc->used & ~cpuc->host_only;
	*nr = 1;
	if (intel_pebs_present()) {
		arr[1].msr = MSR_IA32_PEBS_ENABLE;
		arr[1].host = intel_pebs_guest_enable();
		arr[1].guest = 0;
		*nr = 2;
	}
	return arr;
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);

/* the IA32_PERFEVTSELx fields (SDM Vol. 3B), by name */
PMU_FORMAT_ATTR(any, "config:21");
PMU_FORMAT_ATTR(cmask, "config:24-31");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(event, "config:0-7");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(pc, "config:19");
PMU_FORMAT_ATTR(umask, "config:8-15");

static struct attribute *intel_format[] = {
	&format_attr_cmask.attr,
	&format_attr_edge.attr,
	&format_attr_event.attr,
	&format_attr_inv.attr,
	&format_attr_pc.attr,
	&format_attr_umask.attr,
	NULL,
};

/* version 3 and 4, where AnyThread exists */
static struct attribute *intel_any_format[] = {
	&format_attr_any.attr,
	&format_attr_cmask.attr,
	&format_attr_edge.attr,
	&format_attr_event.attr,
	&format_attr_inv.attr,
	&format_attr_pc.attr,
	&format_attr_umask.attr,
	NULL,
};

/* the generic events: the architectural ones CPUID says are present */
static void __init intel_hw_map(struct x86_core *core, u32 absent,
				unsigned int len)
{
	int i;

	for (i = 0; i < INTEL_NR_ARCH_EVENTS; i++) {
		if (i < len && !(absent & BIT(i)))
			core->hw_map[intel_arch_events[i].id] =
				intel_arch_events[i].sel;
	}
	/* reference cycles: fixed counter 2 only (pseudo-encoding) */
	if (core->fixed & BIT_ULL(X86_FIXED(2)))
		core->hw_map[PERF_COUNT_HW_REF_CPU_CYCLES] = 0x0300;
}

/**
 * intel_core_probe - describe an Intel CPU's architectural PMU
 * @core: filled in on success
 *
 * Context: boot CPU, at early_initcall.
 * Return: 0, or -ENODEV when this is not an Intel CPU with architectural
 * performance monitoring.
 */
int __init intel_core_probe(struct x86_core *core)
{
	union cpuid10_eax eax;
	union cpuid10_edx edx;
	unsigned int ebx, ecx, nr_fixed, fixed;
	u64 caps = 0;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    !boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
		return -ENODEV;

	cpuid(0xa, &eax.full, &ebx, &ecx, &edx.full);
	if (!eax.split.version_id || !eax.split.num_counters)
		return -ENODEV;

	core->vendor = "Intel";
	core->version = eax.split.version_id;
	core->gp = GENMASK_ULL(min_t(unsigned int, eax.split.num_counters,
				     INTEL_PMC_MAX_GENERIC) - 1, 0);
	core->gp_width = eax.split.bit_width;
	core->evtsel_msr = MSR_ARCH_PERFMON_EVENTSEL0;
	core->ctr_msr = MSR_ARCH_PERFMON_PERFCTR0;
	core->msr_stride = 1;
	core->raw_mask = X86_RAW_EVENT_MASK;
	core->arch_events_absent = ebx;
	core->arch_events_len = eax.split.mask_length;
	core->max_period = (1ULL << 31) - 1;

	if (core->version == 1) {
		core->gated = true;
		core->ops = &intel_v1_ops;
		core->format = intel_format;
	} else {
		core->ops = &intel_ops;
		nr_fixed = edx.split.num_counters_fixed;
		/* some version 2 parts report no fixed counters but have 3 */
		if (core->version == 2 && !nr_fixed)
			nr_fixed = 3;
		nr_fixed = min_t(unsigned int, nr_fixed, INTEL_PMC_MAX_FIXED);
		fixed = nr_fixed ? GENMASK(nr_fixed - 1, 0) : 0;
		/* version 5 may have fixed counters beyond the first few */
		if (core->version >= 5)
			fixed |= ecx;
		fixed &= GENMASK(INTEL_PMC_MAX_FIXED - 1, 0);
		core->fixed = (u64)fixed << INTEL_PMC_IDX_FIXED;
		core->fixed_width = edx.split.bit_width_fixed;
		if (core->version >= 5 &&
		    (edx.full & INTEL_EDX_ANY_DEPRECATED))
			core->quirks |= INTEL_QUIRK_NO_ANY;
		core->format = core->version >= 3 &&
			       !(core->quirks & INTEL_QUIRK_NO_ANY) ?
			       intel_any_format : intel_format;
	}

	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl_safe(MSR_IA32_PERF_CAPABILITIES, &caps);
	if (caps & INTEL_CAP_FW_WRITE) {
		core->ctr_msr = MSR_IA32_PMC0;
		core->max_period = (1ULL << (core->gp_width - 1)) - 1;
	}

	intel_hw_map(core, ebx, eax.split.mask_length);
	intel_model_tables(core);
	if (!core->gated) {
		intel_lbr_probe(core, caps);
		intel_pebs_probe(core, caps);
		intel_mem_probe(core);
	}
	return 0;
}
