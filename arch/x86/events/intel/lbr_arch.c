// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: the Architectural LBR's registers, one backend
 * of lbr.c.
 *
 * A CPU with Arch LBR (CPUID.(EAX=7,ECX=0):EDX[19]; SDM vol. 3B, "Last
 * Branch Records") keeps its last N taken branches in IA32_LBR_x_FROM_IP,
 * _TO_IP and _INFO, entry 0 the youngest. IA32_LBR_CTL starts recording
 * (LBREn) and filters by privilege level and kind of branch, or turns on
 * call-stack mode, where a return takes its call off the stack instead of
 * being recorded: its layout is the one lbr.c describes what an event
 * wants in (LBR_CTL_*). IA32_LBR_DEPTH sets N, and a write of it clears
 * every entry. CPUID leaf 1CH says which depths, filters and LBR_INFO
 * fields the CPU has.
 *
 * Context: as struct intel_lbr_ops says; the probe at boot.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../pmu.h"
#include "intel.h"

static unsigned int arch_depth __ro_after_init;

static u64 arch_encode(u64 ctl)
{
	return ctl;
}

static void arch_start(u64 hw)
{
	wrmsrl(MSR_ARCH_LBR_CTL, hw | ARCH_LBR_CTL_LBREN);
}

static void arch_stop(void)
{
	wrmsrl(MSR_ARCH_LBR_CTL, 0);
}

/* a write of the depth clears every entry (SDM) */
static void arch_clear(void)
{
	wrmsrl(MSR_ARCH_LBR_DEPTH, arch_depth);
}

/* entry 0 is always the youngest: the index is 0 */
static unsigned int arch_read(struct intel_lbr_rec *rec, u64 *hw_idx)
{
	unsigned int i;
	u64 from;

	for (i = 0; i < arch_depth; i++) {
		rdmsrl(MSR_ARCH_LBR_FROM_0 + i, from);
		if (!from)
			break;
		rec[i].from = from;
		rdmsrl(MSR_ARCH_LBR_TO_0 + i, rec[i].to);
		rdmsrl(MSR_ARCH_LBR_INFO_0 + i, rec[i].info);
	}
	*hw_idx = 0;
	return i;
}

static void arch_write(const struct intel_lbr_rec *rec, unsigned int nr,
		       u64 hw_idx)
{
	unsigned int i;

	arch_clear();
	for (i = 0; i < nr; i++) {
		wrmsrl(MSR_ARCH_LBR_FROM_0 + i, rec[i].from);
		wrmsrl(MSR_ARCH_LBR_TO_0 + i, rec[i].to);
		wrmsrl(MSR_ARCH_LBR_INFO_0 + i, rec[i].info);
	}
}

static const struct intel_lbr_ops arch_ops = {
	.encode	= arch_encode,
	.start	= arch_start,
	.stop	= arch_stop,
	.clear	= arch_clear,
	.read	= arch_read,
	.write	= arch_write,
};

/**
 * intel_lbr_arch_probe - find Arch LBR and size it
 * @caps: filled in when there is one
 *
 * The deepest depth CPUID offers is programmed. A depth that cannot be
 * written (a hypervisor that lists the feature and lacks the MSRs) is no
 * Arch LBR.
 *
 * Context: boot CPU, at early_initcall.
 * Return: whether the CPU has Arch LBR.
 */
bool __init intel_lbr_arch_probe(struct intel_lbr_caps *caps)
{
	unsigned int eax, ebx, ecx, edx, depth;

	if (!boot_cpu_has(X86_FEATURE_ARCH_LBR))
		return false;
	cpuid(0x1c, &eax, &ebx, &ecx, &edx);
	/* CPUID.1CH:EAX[7:0] names depths 8, 16, ... 64 */
	depth = fls(eax & 0xff) * 8;
	if (!depth || wrmsrl_safe(MSR_ARCH_LBR_DEPTH, depth))
		return false;

	arch_depth = depth;
	*caps = (struct intel_lbr_caps) {
		.ops		= &arch_ops,
		.depth		= depth,
		.from		= MSR_ARCH_LBR_FROM_0,
		.to		= MSR_ARCH_LBR_TO_0,
		.info		= MSR_ARCH_LBR_INFO_0,
		.filter_msr	= MSR_ARCH_LBR_CTL,
		.cpl		= ebx & BIT(0),
		.filter		= ebx & BIT(1),
		.call_stack	= ebx & BIT(2),
		.mispred	= ecx & BIT(0),
		.timed		= ecx & BIT(1),
		.timed_valid	= true,
		.br_type	= ecx & BIT(2),
		/* CPUID.1CH:ECX[19:16]: the GP counters event logging has */
		.log_cntrs	= (ecx >> 16) & 0xf,
	};
	pr_info("Architectural LBR, %u entries\n", depth);
	return true;
}
