// SPDX-License-Identifier: GPL-2.0-only
/*
 * arm64 PMUv3 driver: the CPU's architected performance monitors.
 *
 * One struct pmu covers every CPU of the system (the device tree gives one
 * "arm,armv8-pmuv3" node with one per-CPU interrupt). Each CPU owns its
 * counters; per-CPU state (struct pmuv3_cpu) says which counter holds which
 * event. Counter numbering follows the architecture: event counters
 * 0..N-1 (PMEVCNTR<n>_EL0, N from PMCR_EL0.N) and the cycle counter
 * PMCCNTR_EL0 as index 31, which is also its bit in the PMCNTEN, PMINTEN
 * and PMOVS registers.
 *
 * Counter widths. The cycle counter is 64 bits wide (we set PMCR_EL0.LC so
 * that it also overflows at 64 bits). Event counters are 32 bits wide,
 * or 64 bits with FEAT_PMUv3p5 once PMCR_EL0.LP is set. An event is
 * either a 32-bit event (the default) or a 64-bit one (attr.config1 bit 0,
 * "long"). A 32-bit event placed on a 64-bit counter gets its upper 32
 * bits preset to all ones, so that the hardware overflows (and interrupts)
 * exactly when the low 32 bits wrap. A 64-bit event without PMUv3p5 needs
 * two adjacent event counters, 2n (low half) and 2n + 1 (high half,
 * counting the CHAIN event, i.e. the overflows of 2n): "chained".
 *
 * Context. The perf core calls ->add/->del/->start/->stop/->read and
 * ->pmu_enable/->pmu_disable on the CPU whose counters they touch, with
 * interrupts off (the context lock is held for add/del and for the
 * start/stop/read done by scheduling and by cross-CPU function calls).
 * The overflow interrupt is a per-CPU PPI, so the handler only ever sees
 * its own CPU's counters and runs with interrupts off too; nothing here
 * takes a lock, per-CPU data and interrupts-off are the whole story.
 * ->event_init runs in process context, on any CPU, touching no hardware.
 *
 * Not done: user-space counter access (PMUSERENR_EL0 stays 0, no "rdpmc"
 * format bit), the FEAT_PMUv3_ICNTR instruction counter, SPI (one
 * interrupt per CPU) wiring, ACPI probing, CPU PM save/restore.
 */

#define pr_fmt(fmt) "pmuv3: " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/math64.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/platform_device.h>
#include <linux/sched/clock.h>
#include <linux/sched_clock.h>
#include <linux/smp.h>
#include <linux/sysfs.h>

#include <asm/irq_regs.h>
#include <asm/virt.h>

#include <clocksource/arm_arch_timer.h>

/* counter indexes 0..30 are event counters, 31 the cycle counter */
#define PMUV3_NR_COUNTERS	32
#define PMUV3_CYCLE_IDX		ARMV8_PMU_CYCLE_IDX

/* the event number field of PMEVTYPER<n>_EL0 and of the user's config */
#define PMUV3_EVENT_MASK	ARMV8_PMU_EVTYPE_EVENT

/* PMCEID0/1 describe events 0x0000..0x003f and 0x4000..0x403f */
#define PMUV3_COMMON_EVENTS	64
#define PMUV3_EXT_EVENT_BASE	0x4000

/* attr.config1 fields (upstream's format/ names and positions) */
#define PMUV3_CFG1_LONG		BIT_ULL(0)
#define PMUV3_CFG1_TH_COUNT	BIT_ULL(2)
#define PMUV3_CFG1_TH_COMPARE	GENMASK_ULL(4, 3)
#define PMUV3_CFG1_THRESHOLD	GENMASK_ULL(16, 5)

/* hw_perf_event::flags, within PERF_EVENT_FLAG_ARCH */
#define PMUV3_F_LONG		BIT(0)	/* 64-bit event */

/* the filter and event bits we ever write to PMEVTYPER<n>_EL0 */
#define PMUV3_EVTYPER_MASK	(PMUV3_EVENT_MASK | ARMV8_PMU_INCLUDE_EL2 | \
				 ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1 | \
				 ARMV8_PMU_EVTYPE_TC | ARMV8_PMU_EVTYPE_TH)
/* PMCCFILTR_EL0 has the same filter bits but no event or threshold */
#define PMUV3_CCFILTR_MASK	(ARMV8_PMU_INCLUDE_EL2 | \
				 ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1)

/**
 * struct pmuv3_cpu - one CPU's counters
 * @events: the event on each counter; a chained event sits at its odd
 *	(high) index only, the even index below it is marked in @used
 * @used: counters taken, bit n = counter n (the cycle counter is bit 31)
 * @frozen: inside a ->pmu_disable/->pmu_enable section of the core; when
 *	not, ->start must switch the PMU on itself
 *
 * Only touched on its own CPU with interrupts off.
 */
struct pmuv3_cpu {
	struct perf_event	*events[PMUV3_NR_COUNTERS];
	unsigned long		used;
	bool			frozen;
};

/**
 * struct pmuv3 - the PMU of this system
 * @pmu: what the perf core sees
 * @cpu: per-CPU counter state, also the per-CPU IRQ cookie
 * @cntr_mask: counters that exist (event counters 0..N-1 and bit 31)
 * @nr_evcntrs: N, the number of event counters
 * @pmceid: common events 0x00..0x3f the CPU implements (PMCEID0/1 low)
 * @pmceid_ext: common events 0x4000..0x403f it implements (PMCEID0/1 high)
 * @pmuver: ID_AA64DFR0_EL1.PMUVer
 * @pmmir: PMMIR_EL1 (PMUv3p4 and later), else 0
 * @long_evcntr: event counters are 64 bits wide (PMUv3p5, PMCR_EL0.LP)
 * @irq: the per-CPU overflow interrupt, 0 if the device has none
 * @hp_state: our dynamic CPU hotplug state
 * @supported: CPUs this PMU serves
 *
 * Everything but @cpu is written once at probe time and read-only after.
 */
struct pmuv3 {
	struct pmu		pmu;
	struct pmuv3_cpu __percpu *cpu;
	unsigned long		cntr_mask;
	unsigned int		nr_evcntrs;
	u64			pmceid;
	u64			pmceid_ext;
	int			pmuver;
	u64			pmmir;
	bool			long_evcntr;
	int			irq;
	int			hp_state;
	cpumask_t		supported;
};

/*
 * There is one PMUv3 node on the machines we care about; the hotplug
 * callbacks and the sysfs show functions find it here.
 */
static struct pmuv3 *pmuv3_dev;

static inline struct pmuv3 *to_pmuv3(struct pmu *pmu)
{
	return container_of(pmu, struct pmuv3, pmu);
}

/* ------------------------------------------------------------------ */
/* Event encoding: generic events, cache events, raw events            */
/* ------------------------------------------------------------------ */

/*
 * PERF_TYPE_HARDWARE ids as the PMUv3 common events define them. 0 means
 * "no such event here" (event 0, SW_INCR, is never a generic event).
 * Branch instructions are special-cased in pmuv3_map_hw(): which event
 * counts them depends on what PMCEID says the CPU has.
 */
static const u16 pmuv3_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
	[PERF_COUNT_HW_INSTRUCTIONS]		= ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[PERF_COUNT_HW_CACHE_MISSES]		= ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[PERF_COUNT_HW_BRANCH_MISSES]		= ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	[PERF_COUNT_HW_BUS_CYCLES]		= ARMV8_PMUV3_PERFCTR_BUS_CYCLES,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= ARMV8_PMUV3_PERFCTR_STALL_FRONTEND,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= ARMV8_PMUV3_PERFCTR_STALL_BACKEND,
};

#define CE(x)	PERF_COUNT_HW_CACHE_##x

/* PERF_TYPE_HW_CACHE: only reads have a common-event encoding; 0 = none */
static const u16 pmuv3_cache_map[PERF_COUNT_HW_CACHE_MAX]
				[PERF_COUNT_HW_CACHE_OP_MAX]
				[PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[CE(L1D)][CE(OP_READ)][CE(RESULT_ACCESS)]  = ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[CE(L1D)][CE(OP_READ)][CE(RESULT_MISS)]    = ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[CE(L1I)][CE(OP_READ)][CE(RESULT_ACCESS)]  = ARMV8_PMUV3_PERFCTR_L1I_CACHE,
	[CE(L1I)][CE(OP_READ)][CE(RESULT_MISS)]    = ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL,
	[CE(LL)][CE(OP_READ)][CE(RESULT_ACCESS)]   = ARMV8_PMUV3_PERFCTR_LL_CACHE_RD,
	[CE(LL)][CE(OP_READ)][CE(RESULT_MISS)]     = ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD,
	[CE(DTLB)][CE(OP_READ)][CE(RESULT_ACCESS)] = ARMV8_PMUV3_PERFCTR_L1D_TLB,
	[CE(DTLB)][CE(OP_READ)][CE(RESULT_MISS)]   = ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL,
	[CE(ITLB)][CE(OP_READ)][CE(RESULT_ACCESS)] = ARMV8_PMUV3_PERFCTR_L1I_TLB,
	[CE(ITLB)][CE(OP_READ)][CE(RESULT_MISS)]   = ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL,
	[CE(BPU)][CE(OP_READ)][CE(RESULT_ACCESS)]  = ARMV8_PMUV3_PERFCTR_BR_PRED,
	[CE(BPU)][CE(OP_READ)][CE(RESULT_MISS)]    = ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
};

#undef CE

static bool pmuv3_has_common_event(struct pmuv3 *p, u64 id)
{
	if (id < PMUV3_COMMON_EVENTS)
		return p->pmceid & BIT_ULL(id);
	if (id >= PMUV3_EXT_EVENT_BASE &&
	    id < PMUV3_EXT_EVENT_BASE + PMUV3_COMMON_EVENTS)
		return p->pmceid_ext & BIT_ULL(id - PMUV3_EXT_EVENT_BASE);
	return false;
}

static int pmuv3_map_hw(struct pmuv3 *p, u64 config)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;

	/*
	 * PMUv3 has no one event that is "branch instructions" on every
	 * CPU: prefer the architectural retired-branch count, fall back to
	 * retired writes to the PC (which also counts exception returns).
	 */
	if (config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS) {
		if (pmuv3_has_common_event(p, ARMV8_PMUV3_PERFCTR_BR_RETIRED))
			return ARMV8_PMUV3_PERFCTR_BR_RETIRED;
		if (pmuv3_has_common_event(p, ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED))
			return ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;
		return -ENOENT;
	}

	return pmuv3_hw_map[config] ? pmuv3_hw_map[config] : -ENOENT;
}

static int pmuv3_map_cache(u64 config)
{
	unsigned int type = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	u16 id;

	if (type >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;

	id = pmuv3_cache_map[type][op][result];
	return id ? id : -ENOENT;
}

/*
 * Turn attr.type/attr.config into a PMEVTYPER event number, or a negative
 * errno: -ENOENT tells the core to try another PMU.
 */
static int pmuv3_map_event(struct perf_event *event)
{
	struct pmuv3 *p = to_pmuv3(event->pmu);
	u64 config = event->attr.config;
	u32 type = event->attr.type;
	u64 ext_type;
	int id;

	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) {
		/*
		 * Extended type: config[63:32] may name the PMU that is to
		 * count this generic event (hybrid systems). The core may
		 * already have stripped it; if it did not, honour it here.
		 */
		ext_type = config >> PERF_PMU_TYPE_SHIFT;
		if (ext_type && ext_type != p->pmu.type)
			return -ENOENT;
		config &= PERF_HW_EVENT_MASK;

		if (type == PERF_TYPE_HARDWARE)
			id = pmuv3_map_hw(p, config);
		else
			id = pmuv3_map_cache(config);

		/*
		 * A generic name promises a working event: offer it only if
		 * PMCEID says the CPU implements the common event behind it
		 * (raw encodings are the user's own business).
		 */
		if (id >= 0 && !pmuv3_has_common_event(p, id))
			return -ENOENT;
	} else if (type == PERF_TYPE_RAW || type == p->pmu.type) {
		id = config & PMUV3_EVENT_MASK;
	} else {
		return -ENOENT;
	}

	/*
	 * CHAIN only means something on the odd counter of a pair we set
	 * up ourselves; on its own it would count garbage.
	 */
	if (id == ARMV8_PMUV3_PERFCTR_CHAIN)
		return -EINVAL;

	return id;
}

/* ------------------------------------------------------------------ */
/* Counter widths and placement                                        */
/* ------------------------------------------------------------------ */

static inline bool pmuv3_event_is_long(struct perf_event *event)
{
	return event->hw.flags & PMUV3_F_LONG;
}

/* the wrap-around mask of the event's count, 32 or 64 bits */
static inline u64 pmuv3_event_mask(struct perf_event *event)
{
	return pmuv3_event_is_long(event) ? U64_MAX : U32_MAX;
}

/* a 64-bit event on 32-bit event counters takes a pair: idx and idx - 1 */
static inline bool pmuv3_idx_is_chained(struct pmuv3 *p,
					struct perf_event *event, int idx)
{
	return idx != PMUV3_CYCLE_IDX && pmuv3_event_is_long(event) &&
	       !p->long_evcntr;
}

static inline bool pmuv3_is_chained(struct perf_event *event)
{
	return pmuv3_idx_is_chained(to_pmuv3(event->pmu), event,
				    event->hw.idx);
}

/* is the hardware counter behind this event 64 bits wide? */
static inline bool pmuv3_counter_is_64bit(struct perf_event *event)
{
	int idx = event->hw.idx;

	return idx == PMUV3_CYCLE_IDX || to_pmuv3(event->pmu)->long_evcntr ||
	       pmuv3_is_chained(event);
}

/* counters (bits of PMCNTEN) the event occupies */
static inline u64 pmuv3_event_cntr_bits(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (pmuv3_is_chained(event))
		return BIT_ULL(idx) | BIT_ULL(idx - 1);
	return BIT_ULL(idx);
}

static u32 pmuv3_threshold_max(struct pmuv3 *p)
{
	/* PMEVTYPER.TH takes values up to 2^PMMIR_EL1.THWIDTH - 1 */
	return (1U << FIELD_GET(ARMV8_PMU_THWIDTH, p->pmmir)) - 1;
}

/**
 * pmuv3_get_idx() - pick a free counter for an event
 * @p: the PMU
 * @used: the counters already taken; updated on success
 * @event: the event, with hw.config_base set up by event_init
 *
 * Used on a CPU's real state by ->add (interrupts off, on that CPU) and on
 * a scratch copy by group validation. The cycle counter is only good for
 * CPU_CYCLES without a threshold (PMCCFILTR has no threshold fields).
 *
 * Return: the counter index (the high one for a chained pair), or -EAGAIN.
 */
static int pmuv3_get_idx(struct pmuv3 *p, unsigned long *used,
			 struct perf_event *event)
{
	unsigned long evtyper = event->hw.config_base;
	unsigned int idx;

	if ((evtyper & PMUV3_EVENT_MASK) == ARMV8_PMUV3_PERFCTR_CPU_CYCLES &&
	    !(evtyper & ARMV8_PMU_EVTYPE_TH) &&
	    !(*used & BIT(PMUV3_CYCLE_IDX))) {
		*used |= BIT(PMUV3_CYCLE_IDX);
		return PMUV3_CYCLE_IDX;
	}

	if (pmuv3_idx_is_chained(p, event, 0)) {
		/* a pair is an even counter and the odd one just above it */
		for (idx = 1; idx < p->nr_evcntrs; idx += 2) {
			unsigned long pair = BIT(idx) | BIT(idx - 1);

			if (!(*used & pair)) {
				*used |= pair;
				return idx;
			}
		}
		return -EAGAIN;
	}

	for (idx = 0; idx < p->nr_evcntrs; idx++) {
		if (!(*used & BIT(idx))) {
			*used |= BIT(idx);
			return idx;
		}
	}
	return -EAGAIN;
}

/* ------------------------------------------------------------------ */
/* Register access; all on the local CPU with interrupts off           */
/* ------------------------------------------------------------------ */

static void pmuv3_write_pmcr(u64 val)
{
	/* earlier counter set-up must take effect before the PMU is (re)started */
	isb();
	write_pmcr(val & ARMV8_PMU_PMCR_MASK);
}

static u64 pmuv3_read_hw(struct perf_event *event)
{
	int idx = event->hw.idx;
	u32 hi, lo, hi2;

	if (idx == PMUV3_CYCLE_IDX)
		return read_pmccntr();
	if (!pmuv3_is_chained(event))
		return read_pmevcntrn(idx);

	/*
	 * The low half may carry into the high half between the two
	 * reads: re-read until the high half is stable around the low.
	 */
	hi = read_pmevcntrn(idx);
	do {
		hi2 = hi;
		lo = read_pmevcntrn(idx - 1);
		hi = read_pmevcntrn(idx);
	} while (hi != hi2);

	return ((u64)hi << 32) | lo;
}

/* the event's count as it stands in hardware, masked to the event's width */
static u64 pmuv3_read_counter(struct perf_event *event)
{
	return pmuv3_read_hw(event) & pmuv3_event_mask(event);
}

static void pmuv3_write_counter(struct perf_event *event, u64 val)
{
	int idx = event->hw.idx;

	/*
	 * A 32-bit event on a 64-bit counter: set the upper half so that
	 * the counter overflows when the low 32 bits wrap.
	 */
	if (!pmuv3_event_is_long(event) && pmuv3_counter_is_64bit(event))
		val |= GENMASK_ULL(63, 32);

	if (idx == PMUV3_CYCLE_IDX) {
		write_pmccntr(val);
	} else if (pmuv3_is_chained(event)) {
		write_pmevcntrn(idx - 1, lower_32_bits(val));
		write_pmevcntrn(idx, upper_32_bits(val));
	} else {
		write_pmevcntrn(idx, val);
	}
}

/* program what the counter(s) count and in which exception levels */
static void pmuv3_write_type(struct perf_event *event)
{
	unsigned long evtyper = event->hw.config_base;
	int idx = event->hw.idx;

	if (idx == PMUV3_CYCLE_IDX) {
		write_pmccfiltr(evtyper & PMUV3_CCFILTR_MASK);
	} else if (pmuv3_is_chained(event)) {
		/*
		 * The low counter counts the event with the user's filters;
		 * the high one counts CHAIN (low-half overflows) at every
		 * exception level, or carries would be lost.
		 */
		write_pmevtypern(idx - 1, evtyper & PMUV3_EVTYPER_MASK);
		write_pmevtypern(idx, ARMV8_PMUV3_PERFCTR_CHAIN |
				 ARMV8_PMU_INCLUDE_EL2);
	} else {
		write_pmevtypern(idx, evtyper & PMUV3_EVTYPER_MASK);
	}
}

static void pmuv3_counters_on(u64 cntrs, u64 irqs)
{
	write_pmintenset(irqs);
	/* the type and value writes must land before counting starts */
	isb();
	write_pmcntenset(cntrs);
}

static void pmuv3_counters_off(u64 cntrs)
{
	write_pmcntenclr(cntrs);
	write_pmintenclr(cntrs);
	isb();
	/* drop an overflow that raced with us so no stale IRQ fires */
	write_pmovsclr(cntrs);
	isb();
}

/* ------------------------------------------------------------------ */
/* Counting: update and period                                         */
/* ------------------------------------------------------------------ */

/*
 * Fold what the counter counted since the last look into event->count.
 * prev_count is exchanged with cmpxchg so that a reader interrupted by
 * the overflow handler (or, with pseudo-NMIs, by an NMI) never adds the
 * same delta twice. Local CPU, interrupts off.
 */
static void pmuv3_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = pmuv3_read_counter(event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & pmuv3_event_mask(event);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/*
 * Program the counter to overflow after what is left of the period.
 * Returns true when a new period began (the last one ran out), which is
 * when an overflow is a sample. Local CPU, interrupts off; the counter is
 * disabled or the PMU stopped.
 */
static bool pmuv3_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = pmuv3_event_mask(event);
	bool elapsed = perf_hw_period_advance(hwc);
	s64 left = local64_read(&hwc->period_left);

	/*
	 * Never ask for more than half the counter range: the value read
	 * back later must not be able to lap the one written here before
	 * we get to look at it (interrupt latency, a long IRQs-off region).
	 */
	if (left > (s64)(mask >> 1))
		left = mask >> 1;

	local64_set(&hwc->prev_count, (u64)(-left) & mask);
	pmuv3_write_counter(event, (u64)(-left) & mask);
	perf_event_update_userpage(event);

	return elapsed;
}

/* ------------------------------------------------------------------ */
/* struct pmu callbacks                                                */
/* ------------------------------------------------------------------ */

/**
 * pmuv3_start() - start counting an event that is on a counter
 * @event: the event; hw.idx is valid
 * @flags: PERF_EF_RELOAD, which we always honour (see below)
 *
 * The count state lives in prev_count/period_left, not in the hardware
 * counter, so we always reprogram the period: after a stop the counter
 * may have been reused or have overflowed with its interrupt off.
 *
 * Context: on the event's CPU, interrupts off (from ->add, from the core
 * under the context lock, or when the core unthrottles the event).
 */
static void pmuv3_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 cntrs = pmuv3_event_cntr_bits(event);

	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;

	pmuv3_counters_off(cntrs);
	pmuv3_write_type(event);
	pmuv3_set_period(event);
	/* a chained pair interrupts on the overflow of its high half only */
	pmuv3_counters_on(cntrs, BIT_ULL(hwc->idx));

	/*
	 * Outside a pmu_disable/pmu_enable section nobody else will set
	 * PMCR_EL0.E for us (pmu_enable leaves it off while idle).
	 */
	if (!this_cpu_ptr(to_pmuv3(event->pmu)->cpu)->frozen)
		pmuv3_write_pmcr(read_pmcr() | ARMV8_PMU_PMCR_E);
}

/**
 * pmuv3_stop() - stop counting an event, keeping its counter
 * @event: the event; hw.idx is valid
 * @flags: PERF_EF_UPDATE; we always fold the count in, as ->start
 *	reprograms the counter from scratch
 *
 * Context: on the event's CPU, interrupts off (from ->del, from the core
 * under the context lock, or from our overflow handler on throttling).
 */
static void pmuv3_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	pmuv3_counters_off(pmuv3_event_cntr_bits(event));
	pmuv3_event_update(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/**
 * pmuv3_add() - put an event on a counter of this CPU
 * @event: the event
 * @flags: PERF_EF_START to start counting right away
 *
 * Context: on the CPU the event is being scheduled in on, interrupts off,
 * context lock held; usually inside a pmu_disable/pmu_enable pair.
 *
 * Return: 0, -EAGAIN when no suitable counter is free (the core then
 * multiplexes), -ENOENT on a CPU this PMU does not serve.
 */
static int pmuv3_add(struct perf_event *event, int flags)
{
	struct pmuv3 *p = to_pmuv3(event->pmu);
	struct pmuv3_cpu *cpuc = this_cpu_ptr(p->cpu);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	/* a task's event may follow it onto a CPU of another kind */
	if (!cpumask_test_cpu(smp_processor_id(), &p->supported))
		return -ENOENT;

	idx = pmuv3_get_idx(p, &cpuc->used, event);
	if (idx < 0)
		return idx;

	WARN_ON_ONCE(cpuc->events[idx]);
	cpuc->events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	if (flags & PERF_EF_START)
		pmuv3_start(event, PERF_EF_RELOAD);

	perf_event_update_userpage(event);
	return 0;
}

/**
 * pmuv3_del() - take an event off its counter
 * @event: the event
 * @flags: unused; the count is always brought up to date
 *
 * Context: on the event's CPU, interrupts off, context lock held.
 */
static void pmuv3_del(struct perf_event *event, int flags)
{
	struct pmuv3 *p = to_pmuv3(event->pmu);
	struct pmuv3_cpu *cpuc = this_cpu_ptr(p->cpu);
	struct hw_perf_event *hwc = &event->hw;

	pmuv3_stop(event, PERF_EF_UPDATE);

	cpuc->events[hwc->idx] = NULL;
	cpuc->used &= ~(unsigned long)pmuv3_event_cntr_bits(event);
	hwc->idx = -1;

	perf_event_update_userpage(event);
}

/**
 * pmuv3_read() - bring event->count up to date
 * @event: an active event
 *
 * Context: on the event's CPU, interrupts off (the core reads an active
 * event locally or through an IPI to its CPU).
 */
static void pmuv3_read(struct perf_event *event)
{
	/* a stopped event was folded in by ->stop; its counter is idle */
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	pmuv3_event_update(event);
}

/**
 * pmuv3_pmu_enable() - let this CPU's counters run (PMCR_EL0.E = 1)
 * @pmu: our pmu
 *
 * Context: the local CPU, interrupts or preemption off; paired with
 * pmuv3_pmu_disable() by the core around scheduling and group changes.
 */
static void pmuv3_pmu_enable(struct pmu *pmu)
{
	struct pmuv3 *p = to_pmuv3(pmu);
	struct pmuv3_cpu *cpuc = this_cpu_ptr(p->cpu);

	if (!cpumask_test_cpu(smp_processor_id(), &p->supported))
		return;
	cpuc->frozen = false;
	/* nothing to count: leave the PMU off */
	if (!cpuc->used)
		return;
	pmuv3_write_pmcr(read_pmcr() | ARMV8_PMU_PMCR_E);
}

/**
 * pmuv3_pmu_disable() - freeze this CPU's counters (PMCR_EL0.E = 0)
 * @pmu: our pmu
 *
 * Context: as pmuv3_pmu_enable().
 */
static void pmuv3_pmu_disable(struct pmu *pmu)
{
	struct pmuv3 *p = to_pmuv3(pmu);

	if (!cpumask_test_cpu(smp_processor_id(), &p->supported))
		return;
	this_cpu_ptr(p->cpu)->frozen = true;
	pmuv3_write_pmcr(read_pmcr() & ~ARMV8_PMU_PMCR_E);
	isb();
}

/* the exception levels an event counts at (pmuv3_counted_els()) */
#define PMUV3_AT_EL0	BIT(0)
#define PMUV3_AT_EL1	BIT(1)
#define PMUV3_AT_EL2	BIT(2)

/*
 * Map the exclude_* attributes onto exception levels.  User space is EL0.
 * A kernel at EL1 (our QEMU guest) has a hypervisor below it at EL2,
 * counted unless exclude_hv.  A kernel at EL2 (VHE) is itself the
 * hypervisor: exclude_kernel covers EL2, exclude_hv is moot, and
 * exclude_host/exclude_guest choose between the host (EL2, and EL0 for its
 * user space) and its guests' kernels (EL1).
 */
static unsigned int pmuv3_counted_els(const struct perf_event_attr *attr)
{
	bool host = !attr->exclude_host;
	unsigned int els = 0;

	if (is_kernel_in_hyp_mode()) {
		if (host && !attr->exclude_kernel)
			els |= PMUV3_AT_EL2;
		if (!attr->exclude_guest && !attr->exclude_kernel)
			els |= PMUV3_AT_EL1;
		if (host && !attr->exclude_user)
			els |= PMUV3_AT_EL0;
	} else {
		if (host && !attr->exclude_hv)
			els |= PMUV3_AT_EL2;
		if (!attr->exclude_kernel)
			els |= PMUV3_AT_EL1;
		if (!attr->exclude_user)
			els |= PMUV3_AT_EL0;
	}
	return els;
}

/*
 * Build PMEVTYPER's filter bits.  EL0 and EL1 count unless excluded; EL2
 * counts only when included (the NSH bit).
 */
static int pmuv3_set_filter(struct pmuv3 *p, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	unsigned int els = pmuv3_counted_els(attr);
	unsigned long evtyper = 0;
	u32 th;

	if (attr->exclude_idle)
		return -EOPNOTSUPP;

	if (!(els & PMUV3_AT_EL0))
		evtyper |= ARMV8_PMU_EXCLUDE_EL0;
	if (!(els & PMUV3_AT_EL1))
		evtyper |= ARMV8_PMU_EXCLUDE_EL1;
	if (els & PMUV3_AT_EL2)
		evtyper |= ARMV8_PMU_INCLUDE_EL2;

	/*
	 * FEAT_PMUv3_TH: count only cycles where the event's per-cycle
	 * increment passes a threshold. Without it THWIDTH is 0 and any
	 * threshold is refused.
	 */
	th = FIELD_GET(PMUV3_CFG1_THRESHOLD, attr->config1);
	if (th > pmuv3_threshold_max(p))
		return -EINVAL;
	if (th) {
		u64 tc = FIELD_GET(PMUV3_CFG1_TH_COMPARE, attr->config1) << 1 |
			 FIELD_GET(PMUV3_CFG1_TH_COUNT, attr->config1);

		evtyper |= FIELD_PREP(ARMV8_PMU_EVTYPE_TH, th);
		evtyper |= FIELD_PREP(ARMV8_PMU_EVTYPE_TC, tc);
	}

	event->hw.config_base = evtyper;
	return 0;
}

/*
 * Take a counter for one group member on the scratch mask @used, as ->add
 * would. Members of another hardware PMU cannot share a group with us;
 * software events take no counter. Members that are off (and will not be
 * switched on by exec) or dead are not counted, as the core will not
 * schedule them; the new event itself is judged by the same rule.
 */
static int pmuv3_validate_member(struct perf_event *event,
				 unsigned long *used, struct perf_event *m)
{
	if (is_software_event(m) || m->pmu->task_ctx_nr == perf_sw_context)
		return 0;
	if (m->pmu != event->pmu)
		return -EINVAL;
	if (m->state < PERF_EVENT_STATE_OFF)
		return 0;
	if (m->state == PERF_EVENT_STATE_OFF && !m->attr.enable_on_exec)
		return 0;
	return pmuv3_get_idx(to_pmuv3(event->pmu), used, m) < 0 ? -EINVAL : 0;
}

/*
 * Would the group, with @event in it, fit on an otherwise empty PMU? If
 * not it could never be scheduled, so refuse it now. Process context,
 * from perf_event_open() before the event joins the group.
 */
static int pmuv3_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	unsigned long used = 0;
	int err;

	err = pmuv3_validate_member(event, &used, leader);
	if (err || event == leader)
		return err;

	for_each_sibling_event(sibling, leader) {
		err = pmuv3_validate_member(event, &used, sibling);
		if (err)
			return err;
	}

	return pmuv3_validate_member(event, &used, event);
}

/**
 * pmuv3_event_init() - accept and set up an event for this PMU
 * @event: the new event; event->pmu is us
 *
 * Accepts our own dynamic type, PERF_TYPE_RAW, PERF_TYPE_HARDWARE and
 * PERF_TYPE_HW_CACHE. Touches no hardware: the counter is chosen at
 * ->add time on the CPU that runs the event.
 *
 * Context: process context (perf_event_open), any CPU, may sleep.
 *
 * Return: 0; -ENOENT for events that are not ours (the core tries the
 * next PMU) or generic events this CPU cannot count; -EINVAL for a bad
 * encoding or a group that can never fit; -EOPNOTSUPP for branch stack
 * sampling and exclude_idle.
 */
static int pmuv3_event_init(struct perf_event *event)
{
	struct pmuv3 *p = to_pmuv3(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int id, err;

	if (event->cpu != -1 && !cpumask_test_cpu(event->cpu, &p->supported))
		return -ENOENT;

	id = pmuv3_map_event(event);
	if (id < 0)
		return id;

	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	hwc->flags = 0;
	if (event->attr.config1 & PMUV3_CFG1_LONG)
		hwc->flags |= PMUV3_F_LONG;
	hwc->idx = -1;
	hwc->config = id;
	hwc->event_base = 0;

	err = pmuv3_set_filter(p, event);
	if (err)
		return err;
	hwc->config_base |= id;

	if (!is_sampling_event(event)) {
		/*
		 * Counting only: still take an interrupt every half counter
		 * range, so the count is folded in before the counter can
		 * lap itself.
		 */
		hwc->sample_period = pmuv3_event_mask(event) >> 1;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}

	return pmuv3_validate_group(event);
}

/**
 * pmuv3_filter() - tell the core which CPUs our events cannot run on
 * @pmu: our pmu
 * @cpu: a CPU
 *
 * Context: any.
 *
 * Return: true when @cpu has no PMU of ours.
 */
static bool pmuv3_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_pmuv3(pmu)->supported);
}

/* ------------------------------------------------------------------ */
/* Overflow interrupt                                                  */
/* ------------------------------------------------------------------ */

/*
 * The per-CPU overflow interrupt: hard IRQ context, interrupts off, on
 * the CPU whose counters overflowed; @dev is this CPU's struct pmuv3_cpu.
 * The PMU is frozen while we walk the counters, so that the members of a
 * group are sampled at the same instant, then put back as it was (the
 * core may have had it disabled).
 */
static irqreturn_t pmuv3_irq_handler(int irq, void *dev)
{
	struct pmuv3_cpu *cpuc = dev;
	struct pmuv3 *p = pmuv3_dev;
	struct perf_sample_data data;
	struct pt_regs *regs;
	unsigned long ovs;
	u64 pmcr, start;
	int idx;

	ovs = read_pmovsclr() & p->cntr_mask;
	if (!ovs)
		return IRQ_NONE;
	start = sched_clock();
	/* acknowledge first: a new overflow during the walk re-raises it */
	write_pmovsclr(ovs);

	pmcr = read_pmcr();
	pmuv3_write_pmcr(pmcr & ~ARMV8_PMU_PMCR_E);

	regs = get_irq_regs();

	for_each_set_bit(idx, &ovs, PMUV3_NR_COUNTERS) {
		struct perf_event *event = cpuc->events[idx];
		struct hw_perf_event *hwc;

		/* the low half of a chain, or an event already gone */
		if (!event)
			continue;
		hwc = &event->hw;
		if (hwc->state & PERF_HES_STOPPED)
			continue;

		pmuv3_event_update(event);

		if (!is_sampling_event(event)) {
			/* just a fold of a counting event's count */
			pmuv3_set_period(event);
			continue;
		}

		perf_sample_data_init(&data, 0, hwc->last_period);
		if (!pmuv3_set_period(event))
			continue;

		/* non-zero: throttled or at its event limit, so stop it */
		if (perf_event_overflow(event, &data, regs))
			pmuv3_stop(event, 0);
	}

	pmuv3_write_pmcr(pmcr);

	/* lets the core lower the sample rate if we hog the CPU */
	perf_sample_event_took(sched_clock() - start);
	return IRQ_HANDLED;
}

/* ------------------------------------------------------------------ */
/* sysfs: format/, events/, caps/, cpus                                */
/* ------------------------------------------------------------------ */

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(long, "config1:0");
PMU_FORMAT_ATTR(threshold_count, "config1:2");
PMU_FORMAT_ATTR(threshold_compare, "config1:3-4");
PMU_FORMAT_ATTR(threshold, "config1:5-16");

static struct attribute *pmuv3_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_long.attr,
	&format_attr_threshold.attr,
	&format_attr_threshold_compare.attr,
	&format_attr_threshold_count.attr,
	NULL,
};

static const struct attribute_group pmuv3_format_group = {
	.name = "format",
	.attrs = pmuv3_format_attrs,
};

static ssize_t pmuv3_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ea =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%04llx\n", ea->id);
}

#define PMUV3_EVENT(_name, _id)	PMU_EVENT_ATTR_ID(_name, pmuv3_event_show, _id)

/*
 * The architecture's common events, by their sysfs names; each is shown
 * only if PMCEID says the CPU implements it. SW_INCR (software increment,
 * written from EL0 only with PMUSERENR access) and CHAIN (meaningless on
 * its own) are left out on purpose.
 */
static struct attribute *pmuv3_event_attrs[] = {
	PMUV3_EVENT(l1i_cache_refill, 0x0001),
	PMUV3_EVENT(l1i_tlb_refill, 0x0002),
	PMUV3_EVENT(l1d_cache_refill, 0x0003),
	PMUV3_EVENT(l1d_cache, 0x0004),
	PMUV3_EVENT(l1d_tlb_refill, 0x0005),
	PMUV3_EVENT(ld_retired, 0x0006),
	PMUV3_EVENT(st_retired, 0x0007),
	PMUV3_EVENT(inst_retired, 0x0008),
	PMUV3_EVENT(exc_taken, 0x0009),
	PMUV3_EVENT(exc_return, 0x000A),
	PMUV3_EVENT(cid_write_retired, 0x000B),
	PMUV3_EVENT(pc_write_retired, 0x000C),
	PMUV3_EVENT(br_immed_retired, 0x000D),
	PMUV3_EVENT(br_return_retired, 0x000E),
	PMUV3_EVENT(unaligned_ldst_retired, 0x000F),
	PMUV3_EVENT(br_mis_pred, 0x0010),
	PMUV3_EVENT(cpu_cycles, 0x0011),
	PMUV3_EVENT(br_pred, 0x0012),
	PMUV3_EVENT(mem_access, 0x0013),
	PMUV3_EVENT(l1i_cache, 0x0014),
	PMUV3_EVENT(l1d_cache_wb, 0x0015),
	PMUV3_EVENT(l2d_cache, 0x0016),
	PMUV3_EVENT(l2d_cache_refill, 0x0017),
	PMUV3_EVENT(l2d_cache_wb, 0x0018),
	PMUV3_EVENT(bus_access, 0x0019),
	PMUV3_EVENT(memory_error, 0x001A),
	PMUV3_EVENT(inst_spec, 0x001B),
	PMUV3_EVENT(ttbr_write_retired, 0x001C),
	PMUV3_EVENT(bus_cycles, 0x001D),
	PMUV3_EVENT(l1d_cache_allocate, 0x001F),
	PMUV3_EVENT(l2d_cache_allocate, 0x0020),
	PMUV3_EVENT(br_retired, 0x0021),
	PMUV3_EVENT(br_mis_pred_retired, 0x0022),
	PMUV3_EVENT(stall_frontend, 0x0023),
	PMUV3_EVENT(stall_backend, 0x0024),
	PMUV3_EVENT(l1d_tlb, 0x0025),
	PMUV3_EVENT(l1i_tlb, 0x0026),
	PMUV3_EVENT(l2i_cache, 0x0027),
	PMUV3_EVENT(l2i_cache_refill, 0x0028),
	PMUV3_EVENT(l3d_cache_allocate, 0x0029),
	PMUV3_EVENT(l3d_cache_refill, 0x002A),
	PMUV3_EVENT(l3d_cache, 0x002B),
	PMUV3_EVENT(l3d_cache_wb, 0x002C),
	PMUV3_EVENT(l2d_tlb_refill, 0x002D),
	PMUV3_EVENT(l2i_tlb_refill, 0x002E),
	PMUV3_EVENT(l2d_tlb, 0x002F),
	PMUV3_EVENT(l2i_tlb, 0x0030),
	PMUV3_EVENT(remote_access, 0x0031),
	PMUV3_EVENT(ll_cache, 0x0032),
	PMUV3_EVENT(ll_cache_miss, 0x0033),
	PMUV3_EVENT(dtlb_walk, 0x0034),
	PMUV3_EVENT(itlb_walk, 0x0035),
	PMUV3_EVENT(ll_cache_rd, 0x0036),
	PMUV3_EVENT(ll_cache_miss_rd, 0x0037),
	PMUV3_EVENT(remote_access_rd, 0x0038),
	PMUV3_EVENT(l1d_cache_lmiss_rd, 0x0039),
	PMUV3_EVENT(op_retired, 0x003A),
	PMUV3_EVENT(op_spec, 0x003B),
	PMUV3_EVENT(stall, 0x003C),
	PMUV3_EVENT(stall_slot_backend, 0x003D),
	PMUV3_EVENT(stall_slot_frontend, 0x003E),
	PMUV3_EVENT(stall_slot, 0x003F),
	PMUV3_EVENT(sample_pop, 0x4000),
	PMUV3_EVENT(sample_feed, 0x4001),
	PMUV3_EVENT(sample_filtrate, 0x4002),
	PMUV3_EVENT(sample_collision, 0x4003),
	PMUV3_EVENT(cnt_cycles, 0x4004),
	PMUV3_EVENT(stall_backend_mem, 0x4005),
	PMUV3_EVENT(l1i_cache_lmiss, 0x4006),
	PMUV3_EVENT(l2d_cache_lmiss_rd, 0x4009),
	PMUV3_EVENT(l2i_cache_lmiss, 0x400A),
	PMUV3_EVENT(l3d_cache_lmiss_rd, 0x400B),
	PMUV3_EVENT(trb_wrap, 0x400C),
	PMUV3_EVENT(trb_trig, 0x400E),
	PMUV3_EVENT(trcextout0, 0x4010),
	PMUV3_EVENT(trcextout1, 0x4011),
	PMUV3_EVENT(trcextout2, 0x4012),
	PMUV3_EVENT(trcextout3, 0x4013),
	PMUV3_EVENT(cti_trigout4, 0x4018),
	PMUV3_EVENT(cti_trigout5, 0x4019),
	PMUV3_EVENT(cti_trigout6, 0x401A),
	PMUV3_EVENT(cti_trigout7, 0x401B),
	PMUV3_EVENT(ldst_align_lat, 0x4020),
	PMUV3_EVENT(ld_align_lat, 0x4021),
	PMUV3_EVENT(st_align_lat, 0x4022),
	PMUV3_EVENT(mem_access_checked, 0x4024),
	PMUV3_EVENT(mem_access_checked_rd, 0x4025),
	PMUV3_EVENT(mem_access_checked_wr, 0x4026),
	NULL,
};

static umode_t pmuv3_event_visible(struct kobject *kobj,
				   struct attribute *attr, int unused)
{
	struct perf_pmu_events_attr *ea =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	return pmuv3_has_common_event(pmuv3_dev, ea->id) ? attr->mode : 0;
}

static const struct attribute_group pmuv3_events_group = {
	.name = "events",
	.attrs = pmuv3_event_attrs,
	.is_visible = pmuv3_event_visible,
};

/* caps/: PMMIR_EL1 fields, all 0 before PMUv3p4 */
static ssize_t slots_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  (u32)FIELD_GET(ARMV8_PMU_SLOTS, pmuv3_dev->pmmir));
}
static DEVICE_ATTR_RO(slots);

static ssize_t bus_slots_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  (u32)FIELD_GET(ARMV8_PMU_BUS_SLOTS, pmuv3_dev->pmmir));
}
static DEVICE_ATTR_RO(bus_slots);

static ssize_t bus_width_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	u32 enc = FIELD_GET(ARMV8_PMU_BUS_WIDTH, pmuv3_dev->pmmir);

	/* the field is log2(bytes) + 1; values outside 3..12 are reserved */
	return sysfs_emit(page, "0x%08x\n",
			  enc >= 3 && enc <= 12 ? 1U << (enc - 1) : 0);
}
static DEVICE_ATTR_RO(bus_width);

static ssize_t threshold_max_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n", pmuv3_threshold_max(pmuv3_dev));
}
static DEVICE_ATTR_RO(threshold_max);

static struct attribute *pmuv3_caps_attrs[] = {
	&dev_attr_slots.attr,
	&dev_attr_bus_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_threshold_max.attr,
	NULL,
};

static const struct attribute_group pmuv3_caps_group = {
	.name = "caps",
	.attrs = pmuv3_caps_attrs,
};

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, &pmuv3_dev->supported);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *pmuv3_common_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group pmuv3_common_group = {
	.attrs = pmuv3_common_attrs,
};

static const struct attribute_group *pmuv3_attr_groups[] = {
	&pmuv3_common_group,
	&pmuv3_events_group,
	&pmuv3_format_group,
	&pmuv3_caps_group,
	NULL,
};

/* ------------------------------------------------------------------ */
/* CPU bring-up and teardown                                           */
/* ------------------------------------------------------------------ */

/*
 * Put this CPU's PMU in a known state: counter enables, interrupt enables
 * and overflow flags are UNKNOWN out of reset. Counters already handed to
 * events (the core's own hotplug step runs before ours and may have
 * scheduled some) are left alone. Local CPU, interrupts off.
 */
static void pmuv3_reset_cpu(struct pmuv3 *p, struct pmuv3_cpu *cpuc)
{
	u64 idle = p->cntr_mask & ~cpuc->used;
	u64 pmcr = ARMV8_PMU_PMCR_LC;

	pmuv3_counters_off(idle);

	if (p->long_evcntr)
		pmcr |= ARMV8_PMU_PMCR_LP;
	if (cpuc->used)
		pmcr |= read_pmcr() & ARMV8_PMU_PMCR_E;
	else
		pmcr |= ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C;
	pmuv3_write_pmcr(pmcr);

	/* no EL0 access to the PMU: user counter reads are not offered */
	write_pmuserenr(0);
	isb();
}

/* CPU hotplug, dynamic AP online state: runs on @cpu, may sleep */
static int pmuv3_cpu_online(unsigned int cpu)
{
	struct pmuv3 *p = pmuv3_dev;
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, &p->supported))
		return 0;

	local_irq_save(flags);
	pmuv3_reset_cpu(p, this_cpu_ptr(p->cpu));
	local_irq_restore(flags);

	if (p->irq)
		enable_percpu_irq(p->irq, IRQ_TYPE_NONE);
	return 0;
}

/* CPU hotplug teardown: runs on @cpu before it goes away */
static int pmuv3_cpu_offline(unsigned int cpu)
{
	struct pmuv3 *p = pmuv3_dev;

	if (!cpumask_test_cpu(cpu, &p->supported))
		return 0;

	if (p->irq)
		disable_percpu_irq(p->irq);
	pmuv3_write_pmcr(read_pmcr() & ~ARMV8_PMU_PMCR_E);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Probe                                                               */
/* ------------------------------------------------------------------ */

/* runs on one CPU of the PMU through an IPI: interrupts off */
static void pmuv3_read_ids(void *info)
{
	struct pmuv3 *p = info;
	u64 ceid0, ceid1;

	p->pmuver = read_pmuver();
	if (!pmuv3_implemented(p->pmuver))
		return;

	p->nr_evcntrs = FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr());
	p->cntr_mask = (BIT(p->nr_evcntrs) - 1) | BIT(PMUV3_CYCLE_IDX);

	/* low words: events 0x00..0x3f; high words: 0x4000..0x403f */
	ceid0 = read_pmceid0();
	ceid1 = read_pmceid1();
	p->pmceid = lower_32_bits(ceid0) | (u64)lower_32_bits(ceid1) << 32;
	p->pmceid_ext = upper_32_bits(ceid0) | (u64)upper_32_bits(ceid1) << 32;

	p->pmmir = is_pmuv3p4(p->pmuver) ? read_pmmir() : 0;
	p->long_evcntr = is_pmuv3p5(p->pmuver);
}

static int pmuv3_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct pmuv3 *p;
	int nirqs, ret;

	/* one system-wide PMU; a second node would be another CPU type */
	if (pmuv3_dev)
		return dev_err_probe(dev, -EBUSY, "only one PMUv3 supported\n");

	p = devm_kzalloc(dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	/*
	 * A single per-CPU interrupt (PPI) serves every CPU. With none,
	 * the PMU still counts but cannot sample.
	 */
	cpumask_copy(&p->supported, cpu_possible_mask);
	nirqs = platform_irq_count(pdev);
	if (nirqs < 0)
		return dev_err_probe(dev, nirqs, "cannot count IRQs\n");
	if (nirqs == 0) {
		dev_warn(dev, "no interrupt: sampling events not supported\n");
	} else {
		p->irq = platform_get_irq(pdev, 0);
		if (p->irq < 0)
			return p->irq;
		if (nirqs > 1 || !irq_is_percpu_devid(p->irq))
			return dev_err_probe(dev, -EINVAL,
					     "only a single per-CPU interrupt is supported\n");
	}

	ret = smp_call_function_any(&p->supported, pmuv3_read_ids, p, 1);
	if (ret)
		return ret;
	if (!pmuv3_implemented(p->pmuver))
		return dev_err_probe(dev, -ENODEV, "no PMUv3 on this CPU\n");

	p->cpu = alloc_percpu(struct pmuv3_cpu);
	if (!p->cpu)
		return -ENOMEM;

	p->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.parent		= dev,
		.attr_groups	= pmuv3_attr_groups,
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= PERF_PMU_CAP_EXTENDED_REGS |
				  PERF_PMU_CAP_EXTENDED_HW_TYPE,
		.pmu_enable	= pmuv3_pmu_enable,
		.pmu_disable	= pmuv3_pmu_disable,
		.event_init	= pmuv3_event_init,
		.add		= pmuv3_add,
		.del		= pmuv3_del,
		.start		= pmuv3_start,
		.stop		= pmuv3_stop,
		.read		= pmuv3_read,
		.filter		= pmuv3_filter,
	};
	if (!p->irq)
		p->pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;

	if (p->irq) {
		ret = request_percpu_irq(p->irq, pmuv3_irq_handler, "arm-pmu",
					 p->cpu);
		if (ret) {
			dev_err(dev, "cannot request IRQ %d: %d\n", p->irq, ret);
			goto free_cpu;
		}
	}

	/* the hotplug and sysfs callbacks find us through this */
	pmuv3_dev = p;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/arm64/pmuv3:online",
				pmuv3_cpu_online, pmuv3_cpu_offline);
	if (ret < 0)
		goto free_irq;
	p->hp_state = ret;

	ret = perf_pmu_register(&p->pmu, "armv8_pmuv3", -1);
	if (ret)
		goto remove_hp;

	dev_info(dev, "PMUv3 (ID_AA64DFR0_EL1.PMUVer %#x): %u event counters + cycle counter%s\n",
		 p->pmuver, p->nr_evcntrs,
		 p->long_evcntr ? ", 64-bit event counters" : "");
	return 0;

remove_hp:
	cpuhp_remove_state(p->hp_state);
free_irq:
	pmuv3_dev = NULL;
	if (p->irq)
		free_percpu_irq(p->irq, p->cpu);
free_cpu:
	free_percpu(p->cpu);
	return ret;
}

static const struct of_device_id pmuv3_of_match[] = {
	{ .compatible = "arm,armv8-pmuv3" },
	/* CPU-specific compatibles: same architecture, same driver here */
	{ .compatible = "arm,cortex-a34-pmu" },
	{ .compatible = "arm,cortex-a35-pmu" },
	{ .compatible = "arm,cortex-a53-pmu" },
	{ .compatible = "arm,cortex-a55-pmu" },
	{ .compatible = "arm,cortex-a57-pmu" },
	{ .compatible = "arm,cortex-a65-pmu" },
	{ .compatible = "arm,cortex-a72-pmu" },
	{ .compatible = "arm,cortex-a73-pmu" },
	{ .compatible = "arm,cortex-a75-pmu" },
	{ .compatible = "arm,cortex-a76-pmu" },
	{ .compatible = "arm,cortex-a77-pmu" },
	{ .compatible = "arm,cortex-a78-pmu" },
	{ .compatible = "arm,neoverse-n1-pmu" },
	{ .compatible = "arm,neoverse-v1-pmu" },
	{ }
};

static struct platform_driver pmuv3_driver = {
	.driver = {
		.name			= "armv8-pmu",
		.of_match_table		= pmuv3_of_match,
		/* the PMU cannot be unregistered under running events */
		.suppress_bind_attrs	= true,
	},
	.probe = pmuv3_probe,
};

static int __init pmuv3_driver_init(void)
{
	return platform_driver_register(&pmuv3_driver);
}
device_initcall(pmuv3_driver_init);

/* ------------------------------------------------------------------ */
/* Hooks the perf core calls                                           */
/* ------------------------------------------------------------------ */

/**
 * arch_perf_update_userpage() - fill the time fields of the mmap page
 * @event: the event whose page is updated
 * @userpg: the page
 * @now: the core's current time for this event (sched_clock based)
 *
 * Self-monitoring user space converts raw counter-timer values (CNTVCT)
 * into perf time with time_mult/time_shift/time_zero, as long as
 * sched_clock is the architected timer. User counter access (rdpmc) is
 * not offered, so cap_user_rdpmc stays 0.
 *
 * Context: called by the core with interrupts off, from any context in
 * which the page is updated.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct clock_read_data *rd;
	unsigned int seq;

	userpg->cap_user_rdpmc = 0;
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_time_short = 0;

	do {
		rd = sched_clock_read_begin(&seq);
		if (rd->read_sched_clock != arch_timer_read_counter)
			return;

		userpg->time_mult = rd->mult;
		userpg->time_shift = rd->shift;
		userpg->time_cycles = rd->epoch_cyc;
		userpg->time_mask = rd->sched_clock_mask;
		/*
		 * time_zero is the time at counter value 0, so that readers
		 * unaware of time_cycles/time_mask get it right until the
		 * counter wraps.
		 */
		userpg->time_zero = rd->epoch_ns -
			mul_u64_u32_shr(rd->epoch_cyc, rd->mult, rd->shift);
	} while (sched_clock_read_retry(seq));

	userpg->time_offset = userpg->time_zero - now;

	/* the documented conversion shifts a 32-bit quantity: keep < 32 */
	if (userpg->time_shift == 32) {
		userpg->time_shift = 31;
		userpg->time_mult >>= 1;
	}

	userpg->cap_user_time = 1;
	userpg->cap_user_time_zero = 1;
	userpg->cap_user_time_short = 1;
}

/**
 * perf_event_print_debug() - dump this CPU's PMU registers (SysRq-p)
 *
 * Context: any; reads only the local CPU's registers, with interrupts off.
 */
void perf_event_print_debug(void)
{
	unsigned long flags;

	if (!pmuv3_dev)
		return;

	local_irq_save(flags);
	pr_info("CPU%d PMCR %#llx CNTEN %#llx INTEN %#llx OVS %#llx CCNT %#llx\n",
		smp_processor_id(), read_pmcr(), read_sysreg(pmcntenset_el0),
		read_sysreg(pmintenset_el1), read_pmovsclr(), read_pmccntr());
	local_irq_restore(flags);
}
