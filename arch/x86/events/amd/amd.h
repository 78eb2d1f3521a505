/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events, AMD: what core.c, lbr.c, ibs.c and their KUnit tests
 * share.
 */
#ifndef _ARCH_X86_EVENTS_AMD_AMD_H
#define _ARCH_X86_EVENTS_AMD_AMD_H

#include <linux/bits.h>

#include <asm/msr-index.h>

#include "../pmu.h"

unsigned int amd_zen(unsigned int family, unsigned int model);
void amd_hw_map(struct x86_core *core, unsigned int family,
		unsigned int model);

/*
 * LBR_SELECT (APM vol. 2, LbrExtV2): each bit set suppresses the branches
 * it names: those ending at CPL 0 or at CPL > 0, conditional, near
 * relative calls, near indirect calls, near returns, near indirect jumps
 * (not calls or returns), near relative jumps (not calls), far branches
 */
#define AMD_LBR_SEL_CPL_EQ_0		BIT_ULL(0)
#define AMD_LBR_SEL_CPL_NEQ_0		BIT_ULL(1)
#define AMD_LBR_SEL_JCC			BIT_ULL(2)
#define AMD_LBR_SEL_NEAR_REL_CALL	BIT_ULL(3)
#define AMD_LBR_SEL_NEAR_IND_CALL	BIT_ULL(4)
#define AMD_LBR_SEL_NEAR_RET		BIT_ULL(5)
#define AMD_LBR_SEL_NEAR_IND_JMP	BIT_ULL(6)
#define AMD_LBR_SEL_NEAR_REL_JMP	BIT_ULL(7)
#define AMD_LBR_SEL_FAR			BIT_ULL(8)
#define AMD_LBR_SEL_KINDS		GENMASK_ULL(8, 2)
#define AMD_LBR_SEL_ALL			GENMASK_ULL(8, 0)

/*
 * The branch record pairs of LbrExtV2 and of Zen 3's Branch Sampling,
 * which use the same MSRs: entry @i's source and target
 */
static inline unsigned int amd_br_from_msr(unsigned int i)
{
	return MSR_AMD_SAMP_BR_FROM + 2 * i;
}

static inline unsigned int amd_br_to_msr(unsigned int i)
{
	return MSR_AMD_SAMP_BR_FROM + 2 * i + 1;
}

/* lbr.c: LbrExtV2 */
s64 amd_lbr_select(u64 bst);
bool amd_lbr_decode(u64 from, u64 to, unsigned int va_bits,
		    struct perf_branch_entry *e);
void amd_lbr_probe(struct x86_core *core);
int amd_lbr_init(struct perf_event *event);
int amd_lbr_add(struct perf_event *event);
void amd_lbr_del(struct perf_event *event);
void amd_lbr_sched_in(void);
void amd_lbr_enable(void);
void amd_lbr_disable(void);
void amd_lbr_reset_cpu(void);
void amd_lbr_sample(struct perf_event *event, struct perf_sample_data *data);
unsigned int amd_lbr_snapshot(struct perf_branch_entry *entries,
			      unsigned int cnt);

/* brs.c: Zen 3's Branch Sampling, when CONFIG_PERF_EVENTS_AMD_BRS */
bool amd_brs_event_ok(u64 config, u64 bst, u64 sample_period, bool freq);
bool amd_brs_keep(u64 bst, u64 from, u64 to);
#ifdef CONFIG_PERF_EVENTS_AMD_BRS
bool amd_brs_probe(struct x86_core *core);
int amd_brs_init(struct perf_event *event);
int amd_brs_add(struct perf_event *event);
void amd_brs_del(struct perf_event *event);
void amd_brs_start(void);
void amd_brs_stop(void);
void amd_brs_reset_cpu(void);
void amd_brs_sample(struct perf_event *event, struct perf_sample_data *data);
#else
static inline bool amd_brs_probe(struct x86_core *core) { return false; }
#define amd_brs_init		NULL
#define amd_brs_add		NULL
#define amd_brs_del		NULL
#define amd_brs_sample		NULL
static inline void amd_brs_start(void) { }
static inline void amd_brs_stop(void) { }
static inline void amd_brs_reset_cpu(void) { }
#endif

/*
 * ibs.c: Instruction-Based Sampling. A raw sample holds at most the op
 * engine's seven registers, IbsBrTarget and IbsOpData4.
 */
#define AMD_IBS_RAW_REGS	9

int amd_ibs_forward(struct perf_event *event);
u64 amd_ibs_ctl_period(u64 period, bool is_op, bool ext);
u64 amd_ibs_config_period(u64 config, bool is_op, bool ext);
u64 amd_ibs_round(s64 left, u64 max);
unsigned int amd_ibs_raw_msrs(bool is_op, u32 caps, unsigned int *msrs);
u64 amd_ibs_data_src(u32 caps, unsigned int family, unsigned int model,
		     u64 data2, u64 data3);

#endif /* _ARCH_X86_EVENTS_AMD_AMD_H */
