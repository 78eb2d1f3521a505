/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events, Intel: what arch.c and maps.c share.
 */
#ifndef _ARCH_X86_EVENTS_INTEL_INTEL_H
#define _ARCH_X86_EVENTS_INTEL_INTEL_H

#include "../pmu.h"

/* the architectural events CPUID.0AH:EBX bits 0-6 enumerate */
#define INTEL_NR_ARCH_EVENTS	7

struct intel_arch_event {
	unsigned int	id;	/* PERF_COUNT_HW_* */
	u64		sel;	/* event select and unit mask */
};

extern const struct intel_arch_event intel_arch_events[INTEL_NR_ARCH_EVENTS];

/*
 * Match an event select and unit mask with edge, invert and counter mask
 * too: for the events whose restriction depends on those (Skylake's
 * INST_RETIRED.PREC_DIST and INST_RETIRED.TOTAL_CYCLES_PS)
 */
#define INTEL_CONSTRAIN_EXACT(c, n) \
	{ .code = (c), .mask = ARCH_PERFMON_EVENTSEL_EVENT | \
			       ARCH_PERFMON_EVENTSEL_UMASK | \
			       ARCH_PERFMON_EVENTSEL_EDGE | \
			       ARCH_PERFMON_EVENTSEL_INV | \
			       ARCH_PERFMON_EVENTSEL_CMASK, .cntrs = (n) }

/* the kinds of core of a hybrid part, as CPUID.1AH:EAX[31:24] names them */
#define INTEL_CORE_TYPE_ATOM	0x20
#define INTEL_CORE_TYPE_CORE	0x40

/**
 * struct intel_model - the event tables of one model, or of one kind of
 *	core of a hybrid model
 * @vfm: the model, as boot_cpu_data.x86_vfm holds it (INTEL_*)
 * @cpu_type: INTEL_CORE_TYPE_* for one kind of core of a hybrid model,
 *	0 for a model with one kind
 * @name: caps/pmu_name (ABI: the name upstream gives the model)
 * @cache_map: PERF_TYPE_HW_CACHE events, or NULL for none
 * @constraints: counter restrictions, or NULL for only the architectural
 *	ones
 */
struct intel_model {
	u32				vfm;
	u8				cpu_type;
	const char			*name;
	const x86_cache_map_t		*cache_map;
	const struct x86_constraint	*constraints;
};

/* tables.c (generated from Intel's event lists); ends at vfm 0 */
extern const struct intel_model intel_json_models[];

/* maps.c */
const struct intel_model *intel_model_find(u32 vfm, u8 cpu_type);
void intel_model_tables(struct x86_core *core);

/*
 * Branch kinds, as the software filter of branch stacks sees them
 * (lbr_filter.c): the level of a branch's target, what it was, and with a
 * selection by transaction state, that state.
 */
#define INTEL_BR_USER		BIT(0)
#define INTEL_BR_KERNEL		BIT(1)
#define INTEL_BR_COND		BIT(2)	/* Jcc, LOOPcc, JCXZ */
#define INTEL_BR_JMP		BIT(3)	/* direct JMP, near or far */
#define INTEL_BR_IND_JMP	BIT(4)
#define INTEL_BR_CALL		BIT(5)	/* direct CALL, near or far */
#define INTEL_BR_ZERO_CALL	BIT(6)	/* CALL to the next instruction */
#define INTEL_BR_IND_CALL	BIT(7)
#define INTEL_BR_RET		BIT(8)	/* RET, near or far */
#define INTEL_BR_SYSCALL	BIT(9)	/* SYSCALL, SYSENTER */
#define INTEL_BR_SYSRET		BIT(10)	/* SYSRET, SYSEXIT */
#define INTEL_BR_INT		BIT(11)	/* INT3, INT n, INTO */
#define INTEL_BR_IRET		BIT(12)
#define INTEL_BR_IRQ		BIT(13)	/* interrupt or exception */
#define INTEL_BR_ABORT		BIT(14)	/* transaction abort */
#define INTEL_BR_IN_TX		BIT(15)
#define INTEL_BR_NO_TX		BIT(16)
#define INTEL_BR_ANY		GENMASK(14, 2)

/* IA32_LBR_x_INFO.BR_TYPE (Arch LBR); 8 and up: other branch */
#define INTEL_LBR_TYPE_COND	0
#define INTEL_LBR_TYPE_IND_JMP	1
#define INTEL_LBR_TYPE_REL_JMP	2
#define INTEL_LBR_TYPE_IND_CALL	3
#define INTEL_LBR_TYPE_REL_CALL	4
#define INTEL_LBR_TYPE_RET	5

/* lbr_filter.c */
u32 intel_lbr_wanted(u64 bst);
u32 intel_lbr_insn_kind(const u8 *buf, unsigned int len, bool is64);
u32 intel_lbr_kind(u64 from, u64 to, unsigned int type);
void intel_lbr_filter(struct perf_branch_stack *bs, const u8 *types,
		      u32 wanted);

/* lbr.c */
void intel_lbr_probe(struct x86_core *core);
int intel_lbr_init(struct perf_event *event);
void intel_lbr_free(struct perf_event *event);
int intel_lbr_add(struct perf_event *event);
void intel_lbr_del(struct perf_event *event);
void intel_lbr_enable(void);
void intel_lbr_disable(void);
void intel_lbr_sched_in(void);
void intel_lbr_reset_cpu(void);
void intel_lbr_sample(struct perf_event *event, struct perf_sample_data *data);
u8 intel_lbr_decode(u64 from, u64 to, u64 info, struct perf_branch_entry *e);
void intel_lbr_save_stack(struct perf_event *event,
			  struct perf_sample_data *data,
			  struct perf_branch_stack *bs, unsigned int nr,
			  const u8 *types);

/* ds.c */
struct debug_store;
void intel_ds_load(struct debug_store *cea_ds);

/* pebs.c */
void intel_pebs_probe(struct x86_core *core, u64 caps);
bool intel_pebs_present(void);
int intel_pebs_init(struct perf_event *event);
void intel_pebs_program(struct perf_event *event, bool on);
bool intel_pebs_adaptive(struct perf_event *event);
void intel_pebs_enable(void);
void intel_pebs_disable(void);
u64 intel_pebs_guest_enable(void);
void intel_pebs_reset_cpu(void);
void intel_pebs_flush(struct x86_core *core, struct x86_cpu_pmu *cpuc);
int intel_pebs_drain(struct x86_core *core, struct x86_cpu_pmu *cpuc,
		     u64 status, struct pt_regs *iregs);

#endif /* _ARCH_X86_EVENTS_INTEL_INTEL_H */
