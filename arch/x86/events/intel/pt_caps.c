// SPDX-License-Identifier: GPL-2.0-only
/*
 * What KVM asks of Intel PT and LBR support, for a kernel without those
 * drivers: a decoder of PT's CPUID leaf 0x14 (KVM reads the guest's
 * leaves with it), and the host's answers, which are "none".
 *
 * KVM only offers PT to a guest (pt_mode=1) when the host driver reports
 * ToPA output and the other features it needs; LBR only when the host
 * reports a stack depth.  With neither driver built, reporting nothing is
 * what keeps KVM from virtualising hardware we never set up.
 */
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/intel_pt.h>
#include <asm/perf_event.h>

/* word: sub-leaf * 4 + register (EAX, EBX, ECX, EDX) of CPUID 0x14 */
struct pt_cap_field {
	u8	word;
	u32	mask;
};

#define PT_LEAF_REG(subleaf, reg)	((subleaf) * PT_CPUID_REGS_NUM + (reg))
#define PT_EAX	0
#define PT_EBX	1
#define PT_ECX	2

/* the fields of CPUID 0x14, from the SDM's description of the leaf */
static const struct pt_cap_field pt_cap_fields[] = {
	[PT_CAP_max_subleaf]		= { PT_LEAF_REG(0, PT_EAX), ~0u },
	[PT_CAP_cr3_filtering]		= { PT_LEAF_REG(0, PT_EBX), BIT(0) },
	[PT_CAP_psb_cyc]		= { PT_LEAF_REG(0, PT_EBX), BIT(1) },
	[PT_CAP_ip_filtering]		= { PT_LEAF_REG(0, PT_EBX), BIT(2) },
	[PT_CAP_mtc]			= { PT_LEAF_REG(0, PT_EBX), BIT(3) },
	[PT_CAP_ptwrite]		= { PT_LEAF_REG(0, PT_EBX), BIT(4) },
	[PT_CAP_power_event_trace]	= { PT_LEAF_REG(0, PT_EBX), BIT(5) },
	[PT_CAP_event_trace]		= { PT_LEAF_REG(0, PT_EBX), BIT(7) },
	[PT_CAP_tnt_disable]		= { PT_LEAF_REG(0, PT_EBX), BIT(8) },
	[PT_CAP_topa_output]		= { PT_LEAF_REG(0, PT_ECX), BIT(0) },
	[PT_CAP_topa_multiple_entries]	= { PT_LEAF_REG(0, PT_ECX), BIT(1) },
	[PT_CAP_single_range_output]	= { PT_LEAF_REG(0, PT_ECX), BIT(2) },
	[PT_CAP_output_subsys]		= { PT_LEAF_REG(0, PT_ECX), BIT(3) },
	[PT_CAP_payloads_lip]		= { PT_LEAF_REG(0, PT_ECX), BIT(31) },
	[PT_CAP_num_address_ranges]	= { PT_LEAF_REG(1, PT_EAX), GENMASK(2, 0) },
	[PT_CAP_mtc_periods]		= { PT_LEAF_REG(1, PT_EAX), GENMASK(31, 16) },
	[PT_CAP_cycle_thresholds]	= { PT_LEAF_REG(1, PT_EBX), GENMASK(15, 0) },
	[PT_CAP_psb_periods]		= { PT_LEAF_REG(1, PT_EBX), GENMASK(31, 16) },
};

/**
 * intel_pt_validate_cap - one field of a set of PT CPUID leaves
 * @caps: CPUID 0x14 sub-leaves 0 and 1, as EAX, EBX, ECX, EDX each
 * @cap: the field
 *
 * Return: the field's value, shifted down to bit 0; 0 for an unknown field.
 */
u32 intel_pt_validate_cap(u32 *caps, enum pt_capabilities cap)
{
	const struct pt_cap_field *f;

	if ((unsigned int)cap >= ARRAY_SIZE(pt_cap_fields))
		return 0;
	f = &pt_cap_fields[cap];
	return (caps[f->word] & f->mask) >> __ffs(f->mask);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_cap);

/**
 * intel_pt_validate_hw_cap - a PT field of the host, as its driver sees it
 * @cap: the field
 *
 * Return: 0: no PT driver is built, so the host offers no PT feature.
 */
u32 intel_pt_validate_hw_cap(enum pt_capabilities cap)
{
	return 0;
}
EXPORT_SYMBOL_GPL(intel_pt_validate_hw_cap);

/**
 * intel_pt_handle_vmx - VMX operation begins or ends on this CPU
 * @on: 1 on VMXON, 0 on VMXOFF
 *
 * A PT driver would stop tracing where PT cannot run in VMX operation;
 * with none, no trace is running.
 */
void intel_pt_handle_vmx(int on)
{
}
EXPORT_SYMBOL_GPL(intel_pt_handle_vmx);

/**
 * cpu_emergency_stop_pt - stop tracing on this CPU before kdump runs
 *
 * The crash path calls it on every CPU so that PT stops writing to
 * memory the crash kernel may use; with no PT driver, nothing traces.
 *
 * Context: crash shutdown, IRQs off (NMI on the other CPUs).
 */
void cpu_emergency_stop_pt(void)
{
}
