/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events, Intel: what arch.c and maps.c share.
 */
#ifndef _ARCH_X86_EVENTS_INTEL_INTEL_H
#define _ARCH_X86_EVENTS_INTEL_INTEL_H

#include "../lbr_filter.h"
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
 * @pebs_constraints: those of precise events where they differ, or NULL
 */
struct intel_model {
	u32				vfm;
	u8				cpu_type;
	const char			*name;
	const x86_cache_map_t		*cache_map;
	const struct x86_constraint	*constraints;
	const struct x86_constraint	*pebs_constraints;
};

/* tables.c (generated from Intel's event lists); ends at vfm 0 */
extern const struct intel_model intel_json_models[];

/* maps.c */
const struct intel_model *intel_model_find(u32 vfm, u8 cpu_type);
void intel_model_tables(struct x86_core *core);

/*
 * What an event wants the LBR to record, in IA32_LBR_CTL's layout
 * whichever LBR the CPU has: the model-specific LBR's backend turns it
 * into MSR_LBR_SELECT (intel_lbr_select()).
 */
#define LBR_CTL_OS		BIT_ULL(1)
#define LBR_CTL_USR		BIT_ULL(2)
#define LBR_CTL_CALL_STACK	BIT_ULL(3)
#define LBR_CTL_COND		BIT_ULL(16)
#define LBR_CTL_REL_JMP		BIT_ULL(17)
#define LBR_CTL_IND_JMP		BIT_ULL(18)
#define LBR_CTL_REL_CALL	BIT_ULL(19)
#define LBR_CTL_IND_CALL	BIT_ULL(20)
#define LBR_CTL_RET		BIT_ULL(21)
#define LBR_CTL_OTHER		BIT_ULL(22)
#define LBR_CTL_TYPES		GENMASK_ULL(22, 16)

/* one LBR entry, as the MSRs and a PEBS record's LBR group hold it */
struct intel_lbr_rec {
	u64	from, to, info;
};

/**
 * struct intel_lbr_ops - what differs between the kinds of LBR
 * @encode: the filter MSR's value for a wanted LBR_CTL_* set
 * @start: record, filtered by @hw (from @encode)
 * @stop: stop recording; the entries stay
 * @clear: every entry empty
 * @read: the entries, youngest first, up to the first empty one, into
 *	@rec (room for the depth); returns how many, and in @hw_idx the
 *	hardware index of the youngest (PERF_SAMPLE_BRANCH_HW_INDEX)
 * @write: @nr entries, youngest first, back into an LBR that has been
 *	stopped, as @read found them at @hw_idx; the rest empty
 * @youngest: the youngest entry alone, false when it is empty; NULL
 *	where no PEBS record needs it (pebs_ip.c)
 *
 * Context: all on the CPU concerned with interrupts off, all but @write
 * also in the PMI (NMI).
 */
struct intel_lbr_ops {
	u64		(*encode)(u64 ctl);
	void		(*start)(u64 hw);
	void		(*stop)(void);
	void		(*clear)(void);
	unsigned int	(*read)(struct intel_lbr_rec *rec, u64 *hw_idx);
	void		(*write)(const struct intel_lbr_rec *rec,
				 unsigned int nr, u64 hw_idx);
	bool		(*youngest)(struct intel_lbr_rec *rec);
};

/**
 * struct intel_lbr_caps - one CPU's LBR, as its probe found it
 * @ops: how to drive it; NULL with no LBR
 * @depth: entries
 * @from: first FROM_IP MSR (for KVM)
 * @to: first TO_IP MSR
 * @info: first LBR_INFO MSR
 * @filter_msr: the MSR @ops->encode programs
 * @cpl: filters by privilege level
 * @filter: filters by kind of branch
 * @call_stack: has call-stack mode
 * @mispred: LBR_INFO.MISPRED is valid
 * @timed: LBR_INFO has the cycles since the last entry
 * @timed_valid: ... and they count only with LBR_INFO.CYC_CNT_VALID
 * @br_type: LBR_INFO has the kind of branch (BR_TYPE)
 * @log_cntrs: the GP counters whose events LBR_INFO can count (event
 *	logging), 0 for none
 */
struct intel_lbr_caps {
	const struct intel_lbr_ops	*ops;
	unsigned int			depth;
	u32				from, to, info, filter_msr;
	bool				cpl, filter, call_stack;
	bool				mispred, timed, timed_valid, br_type;
	u64				log_cntrs;
};

/* lbr.c */
s64 intel_lbr_ctl(u64 bst, const struct intel_lbr_caps *caps);
void intel_lbr_probe(struct x86_core *core, u64 perf_caps);
int intel_lbr_init(struct perf_event *event);
int intel_lbr_init_ip(struct perf_event *event);
bool intel_lbr_youngest(struct intel_lbr_rec *rec);
void intel_lbr_free(struct perf_event *event);
int intel_lbr_add(struct perf_event *event);
void intel_lbr_del(struct perf_event *event);
void intel_lbr_enable(void);
void intel_lbr_disable(void);
void intel_lbr_sched_in(void);
void intel_lbr_reset_cpu(void);
void intel_lbr_sample(struct perf_event *event, struct perf_sample_data *data);
unsigned int intel_lbr_snapshot(struct perf_branch_entry *entries,
				unsigned int cnt);
u8 intel_lbr_decode(const struct intel_lbr_rec *rec,
		    struct perf_branch_entry *e);
void intel_lbr_save_stack(struct perf_event *event,
			  struct perf_sample_data *data,
			  struct perf_branch_stack *bs, unsigned int nr,
			  const u8 *types, const struct intel_lbr_rec *rec,
			  u64 *cntrs, u64 hw_idx);

/* lbr_log.c: branch counters (LBR event logging) */
int intel_lbr_log_init(struct perf_event *event, u64 log_cntrs);
unsigned int intel_lbr_log_stash(struct perf_event *event,
				 struct perf_branch_stack *bs,
				 const struct intel_lbr_rec *rec, int *order);
void intel_lbr_log_take(struct perf_branch_stack *bs, const int *order,
			unsigned int n, u64 *cntrs);

/* lbr_arch.c: Architectural LBR */
bool intel_lbr_arch_probe(struct intel_lbr_caps *caps);

/* lbr_msr.c: the model-specific LBR (LBR_FMT 3 to 5) */
u64 intel_lbr_select(u64 ctl);
void intel_lbr_from_split(u64 raw, unsigned int fmt, bool tsx,
			  struct intel_lbr_rec *rec);
u64 intel_lbr_from_join(const struct intel_lbr_rec *rec, bool tsx);
bool intel_lbr_msr_probe(struct intel_lbr_caps *caps, u64 perf_caps);

/* ds.c */
struct debug_store;
void intel_ds_load(struct debug_store *cea_ds);

/**
 * struct intel_pebs_rec - one PEBS record, decoded whatever its format
 * @size: its bytes in the buffer
 * @cntrs: the counters it is for (its applicable counters)
 * @ip: the eventing IP: the instruction that made the counter wrap;
 *	without @has_ip the instruction after it
 * @has_ip: the record names the eventing IP (from format 2 on)
 * @tsc: the TSC when it was written
 * @has_gprs: @flags, @next_ip and @gpr hold its general registers
 * @flags: RFLAGS after the eventing instruction
 * @next_ip: RIP after it
 * @gpr: RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8-R15: by register
 *	number, as instructions encode them
 * @has_mem: @addr, @dse, @latency and @tsx hold its memory info
 * @addr: the data linear address
 * @dse: the data source word (format 4: the memory info's second word)
 * @latency: the latency word
 * @tsx: the TSX tuning word
 * @lbrs: its LBR entries, youngest first, or NULL
 * @nr_lbrs: how many
 */
struct intel_pebs_rec {
	u32				size;
	u64				cntrs;
	u64				ip;
	bool				has_ip;
	u64				tsc;
	bool				has_gprs;
	u64				flags;
	u64				next_ip;
	u64				gpr[16];
	bool				has_mem;
	u64				addr;
	u64				dse;
	u64				latency;
	u64				tsx;
	const u64			*xmm;
	const struct intel_lbr_rec	*lbrs;
	unsigned int			nr_lbrs;
};

/* MSR_PEBS_DATA_CFG (and a format 4 record's groups): LBR entries - 1 */
#define PEBS_DATACFG_LBR_NR	GENMASK_ULL(31, 24)

/* pebs_ip.c: reads code as x86_read_text() does */
typedef unsigned int (*intel_text_reader_t)(u64 addr, u8 *buf,
					    unsigned int len, bool *is64);
bool intel_pebs_ip_walk(u64 from, u64 to, u64 next_ip,
			intel_text_reader_t read, u64 *ip);
bool intel_pebs_lbr_ip(u64 next_ip, u64 *ip);

/* pebs_rec.c */
bool intel_pebs_rec_fixed(unsigned int fmt, const void *raw, u64 left,
			  struct intel_pebs_rec *r);
bool intel_pebs_rec_fmt4(const void *raw, u64 left, struct intel_pebs_rec *r);
unsigned int intel_pebs_rec_size(unsigned int fmt, u64 cfg);
u64 intel_pebs_rec_peek(unsigned int fmt, const void *raw, u64 left,
			u32 *size);

/**
 * enum intel_mem_kind - what a precise event's records say of memory
 * @INTEL_MEM_NONE: nothing
 * @INTEL_MEM_LDLAT: a load-latency event's: data source, latency
 * @INTEL_MEM_STLAT: a store-latency event's (Golden Cove servers)
 * @INTEL_MEM_LD: a retired load's data address
 * @INTEL_MEM_ST: a retired store's, and whether it hit the L1
 *
 * An event's is in hw.extra_reg.idx (pebs_mem.c sets it).
 */
enum intel_mem_kind {
	INTEL_MEM_NONE,
	INTEL_MEM_LDLAT,
	INTEL_MEM_STLAT,
	INTEL_MEM_LD,
	INTEL_MEM_ST,
};

/**
 * struct intel_mem_caps - how a part's memory records read
 * @pmem: data source encodings 8 and 9 are persistent memory, not L4
 * @snb_enc: encodings 8 to 0DH read as before Skylake (Haswell, Broadwell)
 * @blk: load-latency data sources report store-forwarding blocks
 * @split_lat: the memory info's latency word holds the instruction's
 *	latency (bits 15:0) and the cache latency (47:32)
 */
struct intel_mem_caps {
	bool	pmem;
	bool	snb_enc;
	bool	blk;
	bool	split_lat;
};

/* pebs_dsrc.c */
u64 intel_mem_data_src(enum intel_mem_kind kind, u64 dse,
		       const struct intel_mem_caps *caps);
u64 intel_mem_weight(enum intel_mem_kind kind, bool fixed, u64 lat, u64 tsx,
		     const struct intel_mem_caps *caps, bool structured);

/* pebs_mem.c */
void intel_mem_probe(struct x86_core *core);
const struct intel_mem_caps *intel_mem_caps(void);
int intel_mem_hw_config(struct perf_event *event);
int intel_mem_shared_get(struct perf_event *event);
void intel_mem_shared_put(struct perf_event *event);
void intel_mem_reset_cpu(void);

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
