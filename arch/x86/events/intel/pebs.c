// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: precise samples from PEBS (SDM vol. 3B,
 * "Processor Event Based Sampling").
 *
 * A counter whose bit is set in IA32_PEBS_ENABLE does not interrupt when
 * it wraps: a microcode assist writes a record into a buffer the DS save
 * area (ds.c) describes, reloads the counter from the DS area's reset
 * value for it, and raises the PMI, with IA32_PERF_GLOBAL_STATUS.OvfBuf,
 * only once the buffer's index reaches the interrupt threshold. The
 * record names the instruction that made the counter wrap (the eventing
 * IP), which is what precise_ip asks for.
 *
 * We drive four record formats (pebs_rec.c decodes them). Format 3
 * (Skylake): PEBS on the general-purpose counters, every record alike,
 * with the general registers, the memory info and the TSC; format 2
 * (Haswell, Broadwell) is the same without the TSC, format 1 (Sandy
 * Bridge, Ivy Bridge) without the eventing IP either, which pebs_ip.c
 * then finds from the LBR: such an event uses the LBR (lbr.c) whether or
 * not it samples branch stacks, and has one record per PMI. Format 4
 * with PEBS_BASELINE (Ice Lake and later): every counter can sample
 * precisely and a record is built of groups, chosen for the whole CPU
 * by MSR_PEBS_DATA_CFG and written for a counter only when its
 * Adaptive_Record bit is set: the basic group (format and size, eventing
 * IP, the counters the record is for, TSC), memory info, general
 * registers, XMM registers, LBR entries. Other formats leave precise_ip
 * refused.
 *
 * What a record says of a memory access (data address, data source,
 * latency) becomes the sample's ADDR, DATA_SRC and WEIGHT through
 * pebs_dsrc.c, for the events pebs_mem.c classifies (load latency, with
 * its threshold, and the memory events with a data address).
 *
 * An event with a branch stack gets it from the record's LBR group where
 * there is one (format 4), the LBR entries at the record (lbr.c sets up
 * the recording), else from the LBR MSRs at the PMI.
 *
 * Levels (upstream's ABI): precise_ip 2 gives the eventing IP with
 * PERF_RECORD_MISC_EXACT_IP; 1 gives the IP of the record's registers,
 * the instruction after the eventing one, without the flag. Both are
 * "constant skid". Before Ice Lake only some events can use PEBS, and
 * the cycles event (CPU_CLK_UNHALTED, 3CH) is not one of them: a precise
 * cycles event counts with one that is and that counts every cycle
 * (pebs_cycles_models[]). 3 asks for precise distribution as well, which some
 * counters of the models we know have (pebs_pdist_models[]);
 * x86_pdist_counters() keeps such events there. Format 3 parts report 3
 * too, as upstream does for the precise distribution of their
 * INST_RETIRED.PREC_DIST (counter 1 only: maps.c's constraints): there it
 * is taken as 2, which is all it changes on them.
 *
 * One record per PMI, or many. The interrupt threshold is one record past
 * the buffer's base, so each sample has its own PMI, unless every precise
 * event on the CPU is "large": one whose samples hold nothing the record
 * does not give (pebs_large_ok(): a fixed period, and the sample fields
 * of PEBS_LARGE_SAMPLE). Then the threshold is near the buffer's end and
 * one PMI turns hundreds of records into samples. Records that wait in
 * the buffer belong to the task running now and to the counters' current
 * events, so they are flushed into samples (intel_pebs_flush()) at every
 * context switch (->sched_task), before such an event's counter is
 * stopped or given up, and before its count is read. The counter's reload
 * keeps the count exact: each record says the counter ran from where we
 * last saw it to the wrap and restarted at the reset value we gave it
 * (pebs_wrapped()).
 *
 * A sample's time is the record's TSC, converted as sched_clock() would
 * convert it, when that is the clock perf uses: events on their own
 * clockid, systems whose sched_clock() is not the stable TSC, and format
 * 2, whose records have no TSC, take the time when the record is read,
 * and are never large (their samples would all get the time of the
 * flush).
 *
 * Buffers. The CPU writes records at linear addresses while whatever page
 * tables are loaded, user ones under PTI included, so the DS area and the
 * buffer are reached through the CPU entry area, which every page table
 * maps: the DS area is mapped there at boot (cpu_entry_area.c), the
 * buffer is allocated when the CPU is prepared and mapped into its slot
 * (cpu_debug_buffers.pebs_buffer). A CPU that goes offline keeps its
 * buffer for when it returns; one whose buffer cannot be allocated does
 * not come online (-ENOMEM from the prepare step).
 *
 * Context: pebs_prepare() and the init run in process context; all else
 * on the CPU concerned with interrupts off, the PMI's part in NMI. The
 * per-CPU state is changed by the counters' program op (under the
 * context lock, or in the PMI when it stops a throttled event) and read
 * by the global enable, which both paths call with the PMU disabled.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/bitfield.h>
#include <linux/cpuhotplug.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>

#include <linux/sched/clock.h>

#include <asm/cpu_device_id.h>
#include <asm/cpu_entry_area.h>
#include <asm/cpufeature.h>
#include <asm/intel-family.h>
#include <asm/intel_ds.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/timer.h>
#include <asm/tsc.h>

#include "../pmu.h"
#include "intel.h"

/* the counters IA32_PEBS_ENABLE has bits for under PEBS_BASELINE */
#define PEBS_GP_CNTRS		GENMASK_ULL(MAX_PEBS_EVENTS_FMT4 - 1, 0)
#define PEBS_FIXED_CNTRS	GENMASK_ULL(INTEL_PMC_IDX_FIXED + \
					    MAX_FIXED_PEBS_EVENTS - 1, \
					    INTEL_PMC_IDX_FIXED)

/* the sample fields the memory info group gives, or the core derives */
#define PEBS_MEM_SAMPLE		(PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_WEIGHT | \
				 PERF_SAMPLE_WEIGHT_STRUCT | \
				 PERF_SAMPLE_TRANSACTION | \
				 PERF_SAMPLE_PHYS_ADDR | \
				 PERF_SAMPLE_DATA_PAGE_SIZE)
/* those that need the data address */
#define PEBS_ADDR_SAMPLE	(PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | \
				 PERF_SAMPLE_DATA_PAGE_SIZE)

/*
 * Which counters of a format 4 model sample with precise distribution
 * (precise_ip 3): from Ice Lake on, fixed counter 0 for the instructions
 * it counts (PDIR); from the Golden Cove cores on, and on the Tremont and
 * later efficiency cores, general-purpose counter 0 for any event too
 * (the SDM's PDist and reduced-skid PEBS, on IA32_PMC0 only). A model not
 * listed gets neither, and max_precise 2.
 */
#define PDIST_FIXED0	BIT(0)
#define PDIST_GP0	BIT(1)
#define PDIST_BOTH	(PDIST_FIXED0 | PDIST_GP0)

/*
 * Format 1 and 2 parts with INST_RETIRED.PREC_DIST on counter 1, which
 * upstream reports as precise_ip 3 (Sandy Bridge, and Silvermont and
 * Airmont, also format 2, lack it)
 */
static const struct x86_cpu_id pebs_old_pdist_models[] __initconst = {
	X86_MATCH_VFM(INTEL_IVYBRIDGE, 0),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X, 0),
	X86_MATCH_VFM(INTEL_HASWELL, 0),
	X86_MATCH_VFM(INTEL_HASWELL_X, 0),
	X86_MATCH_VFM(INTEL_HASWELL_L, 0),
	X86_MATCH_VFM(INTEL_HASWELL_G, 0),
	X86_MATCH_VFM(INTEL_BROADWELL, 0),
	X86_MATCH_VFM(INTEL_BROADWELL_D, 0),
	X86_MATCH_VFM(INTEL_BROADWELL_G, 0),
	X86_MATCH_VFM(INTEL_BROADWELL_X, 0),
	{}
};

/* the format 1 parts we have event tables and an LBR for (maps.c) */
static const struct x86_cpu_id pebs_fmt1_models[] __initconst = {
	X86_MATCH_VFM(INTEL_SANDYBRIDGE, 0),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X, 0),
	X86_MATCH_VFM(INTEL_IVYBRIDGE, 0),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X, 0),
	{}
};

/*
 * Precise cycles before Ice Lake. CPU_CLK_UNHALTED is no PEBS event
 * there, so a precise cycles event counts with one that is, with INV
 * and a counter mask of 16: it then counts the cycles in which fewer
 * than 16 uops (Sandy Bridge to Broadwell: UOPS_RETIRED.ALL) or
 * instructions (Skylake: INST_RETIRED.ANY_P) retired, which is every
 * cycle, as no core retires that many at once. precise_ip 3 takes
 * INST_RETIRED.PREC_DIST the same way, on its counter 1.
 */
#define PEBS_EVERY_CYCLE(code)	((code) | ARCH_PERFMON_EVENTSEL_INV | \
				 16ULL << 24)	/* CMASK, bits 31:24 */
#define PEBS_CYC_UOPS		PEBS_EVERY_CYCLE(0x01c2)
#define PEBS_CYC_INSNS		PEBS_EVERY_CYCLE(0x00c0)
#define PEBS_CYC_PREC_DIST	PEBS_EVERY_CYCLE(0x01c0)

static const struct x86_cpu_id pebs_cycles_models[] __initconst = {
	X86_MATCH_VFM(INTEL_SANDYBRIDGE, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_IVYBRIDGE, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_HASWELL, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_HASWELL_X, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_HASWELL_L, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_HASWELL_G, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_BROADWELL, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_BROADWELL_D, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_BROADWELL_G, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_BROADWELL_X, PEBS_CYC_UOPS),
	X86_MATCH_VFM(INTEL_SKYLAKE, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_SKYLAKE_L, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_SKYLAKE_X, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_KABYLAKE, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_KABYLAKE_L, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_COMETLAKE, PEBS_CYC_INSNS),
	X86_MATCH_VFM(INTEL_COMETLAKE_L, PEBS_CYC_INSNS),
	{}
};

static const struct x86_cpu_id pebs_pdist_models[] __initconst = {
	X86_MATCH_VFM(INTEL_ICELAKE, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_ICELAKE_L, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_ICELAKE_X, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_ICELAKE_D, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_TIGERLAKE, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_ROCKETLAKE, PDIST_FIXED0),
	X86_MATCH_VFM(INTEL_ALDERLAKE, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ALDERLAKE_L, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_RAPTORLAKE, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_P, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_S, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_METEORLAKE, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_METEORLAKE_L, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ARROWLAKE, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ARROWLAKE_H, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ARROWLAKE_U, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_LUNARLAKE_M, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_X, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_D, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_D, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_L, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_GRACEMONT, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_CRESTMONT, PDIST_BOTH),
	X86_MATCH_VFM(INTEL_ATOM_CRESTMONT_X, PDIST_BOTH),
	{ }
};

/* the most LBR entries a record's LBR group holds */
#define PEBS_MAX_LBRS		32

/*
 * The sample fields a large event may ask for: those a record gives
 * (IP, registers, memory info, branch stack, time; PHYS_ADDR and
 * CODE_PAGE_SIZE are derived from them), and those that hold wherever
 * the flush runs, as it runs on the event's CPU in its task. As
 * upstream, not the data page size.
 */
#define PEBS_LARGE_SAMPLE	((PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
				  PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
				  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU | \
				  PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_PERIOD | \
				  PERF_SAMPLE_REGS_INTR | PEBS_MEM_SAMPLE | \
				  PERF_SAMPLE_CODE_PAGE_SIZE) & \
				 ~PERF_SAMPLE_DATA_PAGE_SIZE)

/* the registers the GPR group holds, as PERF_REG_X86_* bits */
#define PEBS_GPR_REGS		(GENMASK_ULL(PERF_REG_X86_FLAGS, \
					     PERF_REG_X86_AX) | \
				 GENMASK_ULL(PERF_REG_X86_R15, \
					     PERF_REG_X86_R8))

/* what the probe found; max_precise 0 while PEBS is off */
static struct {
	unsigned int	max_precise;
	unsigned int	fmt;		/* the records' layout, 1 to 4 */
	u64		cycles;		/* precise cycles' event, 0: 3CH */
	unsigned int	reset_fixed;	/* fixed counter 0's DS reset slot */
	u64		cntrs;		/* counters with a PEBS_ENABLE bit */
	unsigned int	lbrs;		/* entries of the LBR group, 0: none */
} pebs __ro_after_init;

/* one record of the format the CPU writes; a direct call, once a record */
static bool pebs_decode(const void *raw, u64 left, struct intel_pebs_rec *r)
{
	if (pebs.fmt == 4)
		return intel_pebs_rec_fmt4(raw, left, r);
	return intel_pebs_rec_fixed(pebs.fmt, raw, left, r);
}

/*
 * Where a sample's branch stack from a record is built, one per CPU: the
 * PMI is the only user and does not nest. @types holds each entry's
 * LBR_INFO type for the filter, @cntrs its branch counters; the stack's
 * flexible entries[] is the room @entries gives it, which directly
 * follows it.
 */
struct pebs_brs {
	u8				types[PEBS_MAX_LBRS];
	u64				cntrs[PEBS_MAX_LBRS];
	struct perf_branch_stack	stack;
	struct perf_branch_entry	entries[PEBS_MAX_LBRS];
};

static DEFINE_PER_CPU(struct pebs_brs, pebs_brs);

/**
 * struct pebs_cpu - one CPU's PEBS
 * @buf: its buffer, at the kernel's address (the CPU writes it at the
 *	entry area's)
 * @enable: PEBS_ENABLE bits of the counters counting precise events
 * @groups: MSR_PEBS_DATA_CFG bits each of those events needs, by counter
 * @large: those of @enable whose events are large (X86_EVENT_FLAG_LARGE_PEBS)
 * @ll: the load-latency enables (bit 32 + n) of those of @enable whose
 *	events are load-latency ones, before PEBS_BASELINE (formats 2, 3)
 * @msr_enable: what IA32_PEBS_ENABLE holds
 * @msr_cfg: what MSR_PEBS_DATA_CFG holds
 * @flushing: intel_pebs_flush() is at work, and an event it stops must
 *	not flush again
 */
struct pebs_cpu {
	void	*buf;
	u64	enable;
	u64	large;
	u64	ll;
	u64	groups[X86_NR_IDX];
	u64	msr_enable;
	u64	msr_cfg;
	bool	flushing;
};

static DEFINE_PER_CPU(struct pebs_cpu, pebs_cpu);

/*
 * The DS area's slot of a counter's reset value: GP counter i's is i;
 * the fixed counters' follow 8 GP slots, or 32 from format 5 on.
 */
static unsigned int pebs_reset_slot(int idx)
{
	if (X86_IS_FIXED(idx))
		return pebs.reset_fixed + idx - INTEL_PMC_IDX_FIXED;
	return idx;
}

/* where the CPU sees this CPU's DS area and buffer */
static struct debug_store *pebs_cea_ds(int cpu)
{
	return &get_cpu_entry_area(cpu)->cpu_debug_store;
}

static void *pebs_cea_buf(int cpu)
{
	return get_cpu_entry_area(cpu)->cpu_debug_buffers.pebs_buffer;
}

/*
 * CPUHP_PERF_X86_PREPARE: a CPU is about to come up; give it a buffer
 * and map it where the CPU will write it. Process context, on another
 * CPU. A buffer, once mapped, stays with its CPU.
 */
static int pebs_prepare(unsigned int cpu)
{
	struct pebs_cpu *pc = per_cpu_ptr(&pebs_cpu, cpu);
	void *cea = pebs_cea_buf(cpu);
	struct page *page;
	unsigned int i;
	phys_addr_t pa;

	if (pc->buf)
		return 0;
	page = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL | __GFP_ZERO,
				get_order(PEBS_BUFFER_SIZE));
	if (!page)
		return -ENOMEM;
	pa = page_to_phys(page);
	for (i = 0; i < PEBS_BUFFER_SIZE; i += PAGE_SIZE)
		cea_set_pte(cea + i, pa + i, PAGE_KERNEL);
	pc->buf = page_address(page);
	return 0;
}

/* the groups beyond the basic one that @event's samples need */
static u64 pebs_groups_for(struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	u64 groups = 0;

	/* format 2 and 3 records have everything, always */
	if (pebs.fmt != 4)
		return 0;
	if (type & PEBS_MEM_SAMPLE)
		groups |= PEBS_DATACFG_MEMINFO;
	/* precise_ip 1 reports the IP of the register group */
	if ((type & (PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_REGS_USER)) ||
	    event->attr.precise_ip < 2)
		groups |= PEBS_DATACFG_GP;
	/* the XMM registers exist nowhere else */
	if (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK)
		groups |= PEBS_DATACFG_XMMS;
	/* the stack at the record, rather than at the PMI */
	if (has_branch_stack(event) && pebs.lbrs)
		groups |= PEBS_DATACFG_LBRS |
			  (u64)(pebs.lbrs - 1) << PEBS_DATACFG_LBR_SHIFT;
	return groups;
}

/* whether sample times can come from the records' TSC (format 3 on) */
static bool pebs_tsc_time(struct perf_event *event)
{
	return pebs.fmt >= 3 && !event->attr.use_clockid &&
	       using_native_sched_clock() && sched_clock_stable();
}

/*
 * Whether @event's records may wait in the buffer: its period is fixed
 * (a frequency needs each sample's count as it comes), and each of its
 * samples is whole from the record and the task it is flushed in. A
 * branch stack qualifies only from the record's LBR group.
 */
static bool pebs_large_ok(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 ok = PEBS_LARGE_SAMPLE;

	if (attr->freq)
		return false;
	/* the LBR must still hold the branch before the record */
	if (pebs.fmt < 2 && attr->precise_ip > 1)
		return false;
	if (!pebs_tsc_time(event))
		ok &= ~PERF_SAMPLE_TIME;
	if (attr->sample_regs_intr & ~PEBS_GPR_REGS)
		ok &= ~PERF_SAMPLE_REGS_INTR;
	if (has_branch_stack(event) && pebs.lbrs)
		ok |= PERF_SAMPLE_BRANCH_STACK;
	return !(attr->sample_type & ~ok);
}

/**
 * intel_pebs_init - accept a new precise event
 * @event: an event of the core PMU with 0 < precise_ip <= max_precise,
 *	sampling
 *
 * Any event may be precise; only the counters with a PEBS_ENABLE bit
 * take it, which x86_event_counters() applies. Before Ice Lake cycles
 * are counted with an event PEBS takes (pebs_cycles_models[]). An event
 * whose records lack the eventing IP asks for the LBR to find it. A
 * large one asks for the context switches, where its waiting records
 * are flushed.
 *
 * Context: perf_event_open(), may sleep.
 * Return: 0, or intel_lbr_init_ip()'s errno.
 */
int intel_pebs_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int ret;

	if (pebs.cycles && (hwc->config & X86_RAW_EVENT_MASK) == 0x003c)
		hwc->config = (hwc->config & ~X86_RAW_EVENT_MASK) |
			      (event->attr.precise_ip == 3 ?
			       PEBS_CYC_PREC_DIST : pebs.cycles);
	/* the eventing IP of a record that has none comes from the LBR */
	if (pebs.fmt < 2 && event->attr.precise_ip > 1) {
		ret = intel_lbr_init_ip(event);
		if (ret)
			return ret;
	}
	event->hw.flags |= X86_EVENT_FLAG_PEBS;
	event->hw.extra_reg.config = pebs_groups_for(event);
	if (pebs_large_ok(event)) {
		event->hw.flags |= X86_EVENT_FLAG_LARGE_PEBS;
		event->attach_state |= PERF_ATTACH_SCHED_CB;
	}
	return 0;
}

/**
 * intel_pebs_program - arm or disarm PEBS on a precise event's counter
 * @event: the precise event, on its counter (hw.idx)
 * @on: arming, the counter's period just set (x86_set_period())
 *
 * The reset value, which the assist reloads at each record: for a large
 * event the whole sample period, as its records wait for a later PMI;
 * for any other the PMI that each record raises sets the next period, so
 * the counter goes on from 0 meanwhile, and writes no record of what the
 * CPU does on its way to the PMI (the NMI's entry: stores, say), as
 * upstream's does not. The first period is what x86_set_period() wrote.
 * The MSRs follow at the next global enable (intel_pebs_enable()).
 *
 * Context: the counter's CPU, interrupts off or in NMI, with the counter
 * stopped or the PMU disabled.
 */
void intel_pebs_program(struct perf_event *event, bool on)
{
	struct x86_core *core = x86_event_core(event);
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);
	struct hw_perf_event *hwc = &event->hw;
	struct debug_store *ds = this_cpu_ptr(&cpu_debug_store);
	u64 period = clamp_t(u64, hwc->sample_period, 2, core->max_period);
	int idx = hwc->idx;

	lockdep_assert_irqs_disabled();
	if (!on) {
		pc->enable &= ~BIT_ULL(idx);
		pc->large &= ~BIT_ULL(idx);
		pc->ll &= ~BIT_ULL(idx + 32);
		return;
	}
	ds->pebs_event_reset[pebs_reset_slot(idx)] =
		hwc->flags & X86_EVENT_FLAG_LARGE_PEBS ?
		(u64)(-period) & x86_cntr_mask(core, idx) : 0;
	pc->groups[idx] = hwc->extra_reg.config;
	pc->enable |= BIT_ULL(idx);
	if (hwc->flags & X86_EVENT_FLAG_LARGE_PEBS)
		pc->large |= BIT_ULL(idx);
	/* formats 2, 3: a load-latency counter's second enable (GP only) */
	if (pebs.fmt != 4 && hwc->extra_reg.idx == INTEL_MEM_LDLAT)
		pc->ll |= BIT_ULL(idx + 32);
}

/**
 * intel_pebs_adaptive - whether @event's records need groups beyond basic
 * @event: a precise event
 *
 * The counter's Adaptive_Record bit is set when they do; never with
 * format 3, which has no groups.
 */
bool intel_pebs_adaptive(struct perf_event *event)
{
	return event->hw.extra_reg.config;
}

/*
 * Where the PMI comes: one record in while any precise event here needs
 * a PMI per sample; with only large ones, once the buffer is full but
 * for room for one more record of each PEBS counter, which may each
 * write one before the PMI is taken.
 */
static void pebs_set_threshold(struct pebs_cpu *pc, u64 cfg)
{
	struct debug_store *ds = this_cpu_ptr(&cpu_debug_store);
	unsigned int size = intel_pebs_rec_size(pebs.fmt, cfg);
	u64 thr = ds->pebs_buffer_base + size;

	if (pc->enable && !(pc->enable & ~pc->large))
		thr = ds->pebs_absolute_maximum -
		      (u64)size * (hweight64(pebs.cntrs) + 1);
	ds->pebs_interrupt_threshold = thr;
}

/**
 * intel_pebs_enable - PEBS on for the counters about to be enabled
 *
 * Part of the global enable, before IA32_PERF_GLOBAL_CTRL: the groups the
 * CPU's precise events need (format 4), the buffer's interrupt
 * threshold, and their PEBS_ENABLE bits (with format 3's load-latency
 * ones). Each MSR is written only when
 * it changes: MSR_PEBS_DATA_CFG, which format 3 lacks, never there, as
 * its events need no groups.
 *
 * Context: this CPU, interrupts off or NMI, the counters stopped.
 */
void intel_pebs_enable(void)
{
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);
	unsigned long idx;
	u64 cfg = 0, want;

	if (!pebs.max_precise)
		return;
	for_each_set_bit(idx, (unsigned long *)&pc->enable, X86_NR_IDX)
		cfg |= pc->groups[idx];
	if (cfg != pc->msr_cfg) {
		wrmsrl(MSR_PEBS_DATA_CFG, cfg);
		pc->msr_cfg = cfg;
	}
	if (pc->enable)
		pebs_set_threshold(pc, cfg);
	want = pc->enable | pc->ll;
	if (want != pc->msr_enable) {
		wrmsrl(MSR_IA32_PEBS_ENABLE, want);
		pc->msr_enable = want;
	}
}

/**
 * intel_pebs_disable - PEBS off
 *
 * Part of the global disable, after IA32_PERF_GLOBAL_CTRL: nothing can
 * write a record until the next intel_pebs_enable().
 *
 * Context: as intel_pebs_enable().
 */
void intel_pebs_disable(void)
{
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);

	if (pc->msr_enable) {
		wrmsrl(MSR_IA32_PEBS_ENABLE, 0);
		pc->msr_enable = 0;
	}
}

/**
 * intel_pebs_guest_enable - PEBS_ENABLE as the host wants it
 *
 * For KVM's MSR switch: a guest never runs with the host's PEBS, whose
 * records would land in the host's buffer with the guest's IPs.
 *
 * Context: this CPU, interrupts off.
 * Return: the host's IA32_PEBS_ENABLE when PEBS exists, else 0.
 */
u64 intel_pebs_guest_enable(void)
{
	return this_cpu_read(pebs_cpu.enable) | this_cpu_read(pebs_cpu.ll);
}

/**
 * intel_pebs_present - whether the CPU has the PEBS we drive
 */
bool intel_pebs_present(void)
{
	return pebs.max_precise;
}

/**
 * intel_pebs_reset_cpu - this CPU's DS area and PEBS in a known state
 *
 * Points IA32_DS_AREA at the entry area's view of the DS area, the
 * buffer empty, its threshold one record in; PEBS off.
 *
 * Context: the CPU coming up or going down, interrupts off.
 */
void intel_pebs_reset_cpu(void)
{
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);
	struct debug_store *ds = this_cpu_ptr(&cpu_debug_store);
	int cpu = smp_processor_id();
	u64 base = (unsigned long)pebs_cea_buf(cpu);

	lockdep_assert_irqs_disabled();
	if (!pebs.max_precise)
		return;
	wrmsrl(MSR_IA32_PEBS_ENABLE, 0);
	if (pebs.fmt == 4)
		wrmsrl(MSR_PEBS_DATA_CFG, 0);
	pc->enable = 0;
	pc->large = 0;
	pc->ll = 0;
	pc->msr_enable = 0;
	pc->msr_cfg = 0;
	memset(ds, 0, sizeof(*ds));
	ds->pebs_buffer_base = base;
	ds->pebs_index = base;
	ds->pebs_absolute_maximum = base + PEBS_BUFFER_SIZE;
	ds->pebs_interrupt_threshold = base + intel_pebs_rec_size(pebs.fmt, 0);
	intel_ds_load(pebs_cea_ds(cpu));
}

/*
 * The record says @event's counter wrapped and was reloaded with the
 * DS area's reset value: count what it counted up to the wrap, and go on
 * from the reset value. The sample period ends there.
 */
static void pebs_wrapped(struct x86_core *core, struct perf_event *event,
			 struct debug_store *ds)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;
	u64 mask = x86_cntr_mask(core, idx);
	u64 reset = ds->pebs_event_reset[pebs_reset_slot(idx)];
	u64 delta;

	delta = -local64_read(&hwc->prev_count) & mask;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	local64_set(&hwc->prev_count,
		    (u64)sign_extend64(reset, x86_cntr_width(core, idx) - 1));
}

/* a pt_regs member as an index into the struct, read as an array */
#define PT_SLOT(r)	(offsetof(struct pt_regs, r) / sizeof(unsigned long))

/* where each general register, by its number, goes in a pt_regs */
static const u8 pebs_gpr_slot[] = {
	PT_SLOT(ax), PT_SLOT(cx), PT_SLOT(dx), PT_SLOT(bx),
	PT_SLOT(sp), PT_SLOT(bp), PT_SLOT(si), PT_SLOT(di),
	PT_SLOT(r8), PT_SLOT(r9), PT_SLOT(r10), PT_SLOT(r11),
	PT_SLOT(r12), PT_SLOT(r13), PT_SLOT(r14), PT_SLOT(r15),
};

/*
 * The registers of a sample from its record: the PMI's, with the IP the
 * precise level asks for, and the general registers of the record when
 * the sample reports registers and the record has them. The code segment
 * follows the IP, as the PMI may have come in at another privilege level
 * than the eventing instruction ran at.
 */
static void pebs_regs(struct perf_event *event, struct pt_regs *regs,
		      const struct intel_pebs_rec *r)
{
	unsigned long *slots = (unsigned long *)regs;
	bool exact = true;
	u64 ip = r->ip;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(pebs_gpr_slot) != ARRAY_SIZE(r->gpr));
	if (r->has_gprs && (event->attr.sample_type &
			    (PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_REGS_USER))) {
		regs->flags = r->flags;
		for (i = 0; i < ARRAY_SIZE(pebs_gpr_slot); i++)
			slots[pebs_gpr_slot[i]] = r->gpr[i];
	}
	if (event->attr.precise_ip < 2 && r->has_gprs) {
		ip = r->next_ip;
		exact = false;
	} else if (!r->has_ip) {
		exact = intel_pebs_lbr_ip(r->next_ip, &ip);
	}
	if (exact)
		regs->flags |= PERF_EFLAGS_EXACT;
	else
		regs->flags &= ~PERF_EFLAGS_EXACT;
	regs->ip = ip;
	regs->cs = ip >= TASK_SIZE_MAX ? __KERNEL_CS : __USER_CS;
}

/*
 * The branch stack of a sample from the record's LBR group of @nr
 * entries at @lbrs, youngest first, up to the first empty one, and only
 * the branches @event selects (../lbr_filter.c), as intel_lbr_sample()
 * gives it from the LBR MSRs. A record holds no hardware index.
 */
static void pebs_brstack(struct perf_event *event,
			 struct perf_sample_data *data,
			 const struct intel_lbr_rec *lbrs, unsigned int nr)
{
	struct pebs_brs *buf = this_cpu_ptr(&pebs_brs);
	struct perf_branch_stack *bs = &buf->stack;
	unsigned int i;

	BUILD_BUG_ON(offsetof(struct pebs_brs, entries) !=
		     offsetof(struct pebs_brs, stack.entries));
	nr = min(nr, PEBS_MAX_LBRS);
	for (i = 0; i < nr && lbrs[i].from; i++)
		buf->types[i] = intel_lbr_decode(&lbrs[i], &bs->entries[i]);
	intel_lbr_save_stack(event, data, bs, i, buf->types, lbrs, buf->cntrs,
			     -1ULL);
}

/*
 * What a record's memory info gives a sample of @event that asks for
 * some of it: the data address (which PERF_SAMPLE_PHYS_ADDR and
 * _DATA_PAGE_SIZE are found from), the data source and the weight, as
 * the event's kind reads them (pebs_dsrc.c). Only for such samples:
 * others pay nothing for it.
 */
static noinline void pebs_mem_sample(struct perf_event *event,
				     const struct intel_pebs_rec *r,
				     struct perf_sample_data *data)
{
	enum intel_mem_kind kind = event->hw.extra_reg.idx;
	u64 type = event->attr.sample_type;
	u64 wt = type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT);

	if (type & PEBS_ADDR_SAMPLE) {
		data->addr = r->addr;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = intel_mem_data_src(kind, r->dse,
							intel_mem_caps());
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if (wt) {
		data->weight.full = intel_mem_weight(kind, pebs.fmt != 4,
						     r->latency, r->tsx,
						     intel_mem_caps(),
						     wt & PERF_SAMPLE_WEIGHT_STRUCT);
		data->sample_flags |= wt;
	}
}

/*
 * One sample of @event from the record @r. The event's @last record of
 * this drain is its overflow: it counts against the interrupt budget and
 * the refresh limit, runs the overflow program and signal, as one
 * interrupt's should; those before it are only written out. Returns
 * whether the overflow wants the event stopped.
 */
static bool pebs_sample(struct perf_event *event,
			const struct intel_pebs_rec *r,
			struct pt_regs *iregs, bool last)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 type = event->attr.sample_type;
	struct perf_sample_data data;
	/* perf_reg_value() finds XMM registers around the pt_regs */
	struct x86_perf_regs xregs = { .regs = *iregs };
	struct pt_regs *regs = &xregs.regs;

	perf_sample_data_init(&data, 0, hwc->last_period);
	if ((type & PERF_SAMPLE_TIME) && pebs_tsc_time(event)) {
		data.time = native_sched_clock_from_tsc(r->tsc) +
			    __sched_clock_offset;
		data.sample_flags |= PERF_SAMPLE_TIME;
	}
	/*
	 * The callchain starts from the registers the PMI interrupted (zero
	 * in a flush: the flush's own stack), as upstream's does: a
	 * record's RSP and RBP are past by now, and the unwinder would take
	 * them for a live kernel frame.
	 */
	if (type & PERF_SAMPLE_CALLCHAIN) {
		rcu_read_lock();
		data.callchain = perf_callchain(event, iregs);
		rcu_read_unlock();
		data.sample_flags |= PERF_SAMPLE_CALLCHAIN;
	}
	pebs_regs(event, regs, r);
	if (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK)
		xregs.xmm_regs = (u64 *)r->xmm;
	if (r->has_mem && (type & PEBS_MEM_SAMPLE))
		pebs_mem_sample(event, r, &data);
	if ((hwc->flags & X86_EVENT_FLAG_LBR) && has_branch_stack(event)) {
		if (r->lbrs)
			pebs_brstack(event, &data, r->lbrs, r->nr_lbrs);
		else
			x86_event_core(event)->ops->branch_sample(event, &data);
	}
	if (!last) {
		perf_event_output(event, &data, regs);
		return false;
	}
	return perf_event_overflow(event, &data, regs);
}

/*
 * The PEBS counters a record applies to.  Before format 3 the field can
 * read 0 when the assist raced with the clearing of GLOBAL_STATUS (SDM,
 * the Haswell PEBS record's IA32_PERF_GLOBAL_STATUS field); with one PEBS
 * counter armed the record can only be that counter's.
 */
static u64 pebs_rec_cntrs(const struct pebs_cpu *pc, u64 cntrs)
{
	cntrs &= pebs.cntrs;
	if (!cntrs && pebs.fmt < 3 && is_power_of_2(pc->enable))
		cntrs = pc->enable;
	return cntrs;
}

/*
 * Every record in the buffer, and in it every counter it applies to whose
 * event is still precise and running here, gives that event one sample,
 * with @iregs for what the record does not hold. The buffer is empty
 * afterwards, and each event that had records starts its next period on
 * its counter as x86_set_period() programs it. Returns the number of
 * records taken.
 */
static int pebs_drain_records(struct x86_core *core, struct x86_cpu_pmu *cpuc,
			      struct pt_regs *iregs)
{
	struct debug_store *ds = this_cpu_ptr(&cpu_debug_store);
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);
	u64 len, off, cntrs, seen = 0;
	struct intel_pebs_rec r;
	u32 size;
	u32 last[X86_NR_IDX];
	struct perf_event *event;
	unsigned long idx;
	int n = 0;

	len = ds->pebs_index - ds->pebs_buffer_base;
	if (len > PEBS_BUFFER_SIZE)
		len = 0;
	/* first where each counter's last record is */
	for (off = 0; off < len; off += size) {
		cntrs = intel_pebs_rec_peek(pebs.fmt, pc->buf + off, len - off,
					    &size);
		cntrs = pebs_rec_cntrs(pc, cntrs);
		if (!size)
			break;
		for_each_set_bit(idx, (unsigned long *)&cntrs, X86_NR_IDX)
			last[idx] = off;
	}
	len = off;
	for (off = 0; off < len; off += r.size) {
		u64 mine;

		pebs_decode(pc->buf + off, len - off, &r);
		mine = pebs_rec_cntrs(pc, r.cntrs);
		for_each_set_bit(idx, (unsigned long *)&mine, X86_NR_IDX) {
			event = cpuc->events[idx];
			if (!event || !(event->hw.flags & X86_EVENT_FLAG_PEBS) ||
			    (event->hw.state & PERF_HES_STOPPED))
				continue;
			pebs_wrapped(core, event, ds);
			seen |= BIT_ULL(idx);
			n++;
			if (!perf_hw_period_advance(&event->hw))
				continue;
			if (pebs_sample(event, &r, iregs, last[idx] == off))
				x86_pmu_stop(event, 0);
		}
	}
	ds->pebs_index = ds->pebs_buffer_base;

	/* fold in what counted since the reload and set the next period */
	for_each_set_bit(idx, (unsigned long *)&seen, X86_NR_IDX) {
		event = cpuc->events[idx];
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		x86_event_update(event);
		x86_set_period(event);
		intel_pebs_program(event, true);
	}
	return n;
}

/**
 * intel_pebs_drain - turn the buffer's records into samples
 * @core: this CPU's core PMU
 * @cpuc: its counters here
 * @status: what the PMI found in IA32_PERF_GLOBAL_STATUS
 * @iregs: the registers the PMI interrupted
 *
 * Records are read whenever the buffer holds any, OvfBuf or not: a
 * record whose PMI we already served with another overflow's is still a
 * sample.
 *
 * Context: the PMI (NMI), the counters frozen; no locks.
 * Return: the number of samples taken, at least 1 when OvfBuf was set.
 */
int intel_pebs_drain(struct x86_core *core, struct x86_cpu_pmu *cpuc,
		     u64 status, struct pt_regs *iregs)
{
	int n;

	if (!pebs.max_precise)
		return 0;
	n = pebs_drain_records(core, cpuc, iregs);
	if (!n && (status & GLOBAL_STATUS_BUFFER_OVF))
		n = 1;
	return n;
}

/**
 * intel_pebs_flush - the records large events left waiting, as samples
 * @core: this CPU's core PMU
 * @cpuc: its counters here
 *
 * The counters are frozen meanwhile, so that no record is written behind
 * the drain. What a sample takes from the registers and the record lacks
 * is zero (the records of large events lack nothing they ask for); the
 * code segment follows the record's IP. An event a sample stops comes
 * back here through x86_pmu_stop(), and finds nothing to do.
 *
 * Context: this CPU, interrupts off, not in NMI: a context switch, an
 * event stopped or read.
 */
void intel_pebs_flush(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	struct debug_store *ds = this_cpu_ptr(&cpu_debug_store);
	struct pebs_cpu *pc = this_cpu_ptr(&pebs_cpu);
	bool frozen = cpuc->frozen;
	struct pt_regs regs;

	lockdep_assert_irqs_disabled();
	if (!pc->large || pc->flushing ||
	    ds->pebs_index == ds->pebs_buffer_base)
		return;
	memset(&regs, 0, sizeof(regs));
	/* ->sched_task runs with the PMU disabled, but not counted as such */
	if (!frozen)
		x86_pmu_disable(&core->pmu);
	pc->flushing = true;
	pebs_drain_records(core, cpuc, &regs);
	pc->flushing = false;
	if (!frozen)
		x86_pmu_enable(&core->pmu);
}

/**
 * intel_pebs_probe - find PEBS with the record format we drive
 * @core: the PMU; max_precise and precise_cntrs on success
 * @caps: IA32_PERF_CAPABILITIES
 *
 * Needs the DS area (DS, with DTES64 for its 64-bit layout), PEBS not
 * marked unavailable (IA32_MISC_ENABLE, X86_FEATURE_PEBS), record
 * format 2 or 3, 1 on the models whose tables we have, or 4 to 6 with
 * PEBS_BASELINE, and a buffer for every CPU up.
 * Formats 5 (Sapphire Rapids on) and 6 write format 4's records, and
 * keep reset values for 32 GP counters in the DS area, so the fixed
 * counters' slots move; what else they add, PEBS through EPT for guests
 * and counter snapshots that MSR_PEBS_DATA_CFG must ask for, nothing
 * here uses.
 * Which counters have a PEBS_ENABLE bit is asked of the MSR itself:
 * before format 4 only general-purpose counters can have one.
 *
 * Context: boot CPU, at early_initcall, before the CPUs' starting step.
 */
void __init intel_pebs_probe(struct x86_core *core, u64 caps)
{
	unsigned int fmt = FIELD_GET(PERF_CAP_PEBS_FORMAT, caps);
	bool baseline = caps & PERF_CAP_PEBS_BASELINE;
	const struct x86_cpu_id *m;
	u64 cntrs = 0, want, bit;
	unsigned long idx;
	int ret;

	if (!boot_cpu_has(X86_FEATURE_DS) || !boot_cpu_has(X86_FEATURE_DTES64) ||
	    !boot_cpu_has(X86_FEATURE_PEBS))
		return;
	if (fmt >= 4 && fmt <= 6 && baseline) {
		want = (core->gp & PEBS_GP_CNTRS) |
		       (core->fixed & PEBS_FIXED_CNTRS);
		pebs.fmt = 4;
		pebs.reset_fixed = fmt >= 5 ? MAX_PEBS_EVENTS :
					      MAX_PEBS_EVENTS_FMT4;
	} else if (fmt == 2 || fmt == 3 ||
		   (fmt == 1 && x86_match_cpu(pebs_fmt1_models))) {
		want = core->gp & PEBS_GP_CNTRS;
		pebs.fmt = fmt;
	} else {
		pr_info("PEBS record format %u%s: not driven, no precise_ip\n",
			fmt, baseline ? "" : " without baseline");
		return;
	}

	for_each_set_bit(idx, (unsigned long *)&want, X86_NR_IDX) {
		bit = BIT_ULL(idx);
		if (!wrmsrl_safe(MSR_IA32_PEBS_ENABLE, bit))
			cntrs |= bit;
	}
	wrmsrl_safe(MSR_IA32_PEBS_ENABLE, 0);
	if (!cntrs)
		return;

	ret = cpuhp_setup_state(CPUHP_PERF_X86_PREPARE, "perf/x86/pebs:prepare",
				pebs_prepare, NULL);
	if (ret < 0) {
		pr_warn("no PEBS buffers (%d): no precise_ip\n", ret);
		return;
	}
	pebs.cntrs = cntrs;
	/* format 4's LBR group copies the LBR, as deep as perf reads it */
	if (pebs.fmt == 4 && core->branches)
		pebs.lbrs = min(core->branches, PEBS_MAX_LBRS);
	/*
	 * Constant skid (1), the eventing IP (2) and precise distribution
	 * (3), as upstream counts them. Format 1 finds the eventing IP only
	 * with the LBR. Format 3, and formats 1 and 2 from Ivy Bridge to
	 * Broadwell, have the last only on counter 1, for one event, which
	 * maps.c's constraints place.
	 */
	pebs.max_precise = 2;
	m = x86_match_cpu(pebs_cycles_models);
	if (m)
		pebs.cycles = m->driver_data;
	if (pebs.fmt == 1 && !core->branches) {
		pebs.max_precise = 1;
	} else if (pebs.fmt == 3 ||
		   (pebs.fmt < 3 && x86_match_cpu(pebs_old_pdist_models))) {
		pebs.max_precise = 3;
	} else if (pebs.fmt == 4) {
		m = x86_match_cpu(pebs_pdist_models);
		if (m && (m->driver_data & PDIST_FIXED0))
			core->pdist_cntrs |= cntrs & BIT_ULL(X86_FIXED(0));
		if (m && (m->driver_data & PDIST_GP0))
			core->pdist_cntrs |= cntrs & BIT_ULL(0);
		if (core->pdist_cntrs)
			pebs.max_precise = 3;
	}
	core->max_precise = pebs.max_precise;
	core->precise_cntrs = cntrs;
	/* format 4 records can carry XMM0-15: see x86_event_init() */
	if (pebs.fmt == 4)
		core->pmu.capabilities |= PERF_PMU_CAP_EXTENDED_REGS;
	pr_info("PEBS record format %u%s, counters %#llx\n", fmt,
		pebs.fmt == 4 ? ", baseline" : "", cntrs);
}
