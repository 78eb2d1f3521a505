// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the CPUID 0x14 decoder KVM uses (pt_caps.c): each field
 * comes from its sub-leaf, register and bits as the SDM lays the leaf out,
 * shifted down; fields that are not there read 0; and the host, with no PT
 * driver, offers nothing.
 */
#include <kunit/test.h>
#include <asm/intel_pt.h>

/* sub-leaf * 4 + register, as KVM lays out the leaves it passes */
#define W(subleaf, reg)	((subleaf) * PT_CPUID_REGS_NUM + (reg))
#define EAX	0
#define EBX	1
#define ECX	2
#define EDX	3

static void pt_caps_single_bits(struct kunit *test)
{
	u32 caps[PT_CPUID_REGS_NUM * PT_CPUID_LEAVES] = {};

	caps[W(0, EBX)] = BIT(0) | BIT(3) | BIT(8);
	caps[W(0, ECX)] = BIT(0) | BIT(31);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_cr3_filtering), 1);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_psb_cyc), 0);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_mtc), 1);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_tnt_disable), 1);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_event_trace), 0);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_topa_output), 1);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_topa_multiple_entries), 0);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_payloads_lip), 1);
}

static void pt_caps_multi_bit_fields(struct kunit *test)
{
	u32 caps[PT_CPUID_REGS_NUM * PT_CPUID_LEAVES] = {};

	caps[W(0, EAX)] = 1;
	caps[W(1, EAX)] = (0x249u << 16) | 2;
	caps[W(1, EBX)] = (0x003fu << 16) | 0x3fff;
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_max_subleaf), 1);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_num_address_ranges), 2);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_mtc_periods), 0x249);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_cycle_thresholds), 0x3fff);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_psb_periods), 0x3f);
	/* bits of other fields in the same register do not leak in */
	caps[W(1, EAX)] |= BIT(3);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_num_address_ranges), 2);
}

static void pt_caps_unknown_and_host(struct kunit *test)
{
	u32 caps[PT_CPUID_REGS_NUM * PT_CPUID_LEAVES];

	memset(caps, 0xff, sizeof(caps));
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(caps, PT_CAP_psb_periods + 1), 0);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_topa_output), 0);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_max_subleaf), 0);
}

static struct kunit_case pt_caps_cases[] = {
	KUNIT_CASE(pt_caps_single_bits),
	KUNIT_CASE(pt_caps_multi_bit_fields),
	KUNIT_CASE(pt_caps_unknown_and_host),
	{}
};

static struct kunit_suite pt_caps_suite = {
	.name = "perf_x86_pt_caps",
	.test_cases = pt_caps_cases,
};

kunit_test_suite(pt_caps_suite);
