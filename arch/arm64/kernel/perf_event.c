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
 * and PMOVS registers. This file holds the events and counters; the other
 * perf_event_*.c files are listed in perf_event_pmuv3.h.
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
 * hw.prev_count holds the counter's last value sign-extended from the
 * event's width, the way a reader of the user page extends what it reads
 * from the counter (perf_event_user.c), so that count - prev_count is the
 * page's offset whenever the core refreshes it.
 *
 * Context. The perf core calls ->add/->del/->start/->stop/->read and
 * ->pmu_enable/->pmu_disable on the CPU whose counters they touch, with
 * interrupts off (the context lock is held for add/del and for the
 * start/stop/read done by scheduling and by cross-CPU function calls).
 * The overflow interrupt is a per-CPU PPI, so the handler only ever sees
 * its own CPU's counters. Nothing here takes a lock: per-CPU data and
 * interrupts-off are the whole story, except that with pseudo-NMIs the
 * handler may run between any two instructions of this code. So
 * prev_count changes only by cmpxchg, a counter is off (and its overflow
 * flag clear) before its slot in pmuv3_cpu changes, and the handler puts
 * PMCR_EL0 back exactly as it found it. ->event_init runs in process
 * context, on any CPU, touching no hardware.
 *
 * Not done: the FEAT_PMUv3_ICNTR instruction counter, SPI (one interrupt
 * per CPU) wiring, one PMU per CPU type, ACPI probing, KVM's vPMU hooks.
 */

#define pr_fmt(fmt) "pmuv3: " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>

#include <asm/irq_regs.h>
#include <asm/virt.h>

#include "perf_event_pmuv3.h"

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
	/* in the order of the common event numbers */
	[PERF_COUNT_HW_CACHE_MISSES]		= ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[PERF_COUNT_HW_INSTRUCTIONS]		= ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	[PERF_COUNT_HW_BRANCH_MISSES]		= ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	[PERF_COUNT_HW_CPU_CYCLES]		= ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
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

bool pmuv3_has_common_event(struct pmuv3 *p, u64 id)
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
		if (ext_type && ext_type != p->arm.pmu.type)
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
	} else if (type == PERF_TYPE_RAW || type == p->arm.pmu.type) {
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

u32 pmuv3_threshold_max(struct pmuv3 *p)
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
		/*
		 * EL0 cannot read a pair as one value: an event user space
		 * reads directly gets the cycle counter or nothing.
		 */
		if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
			return -EAGAIN;
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

void pmuv3_write_pmcr(u64 val)
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

void pmuv3_counters_off(u64 cntrs)
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

/* a counter value as prev_count keeps it: sign-extended from its width */
static inline u64 pmuv3_prev_value(struct perf_event *event, u64 val)
{
	return pmuv3_event_is_long(event) ? val : (u64)(s64)(s32)val;
}

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
		now = pmuv3_prev_value(event, pmuv3_read_counter(event));
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

	/* -left is already sign-extended, as prev_count wants it */
	local64_set(&hwc->prev_count, (u64)-left);
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
void pmuv3_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 cntrs = pmuv3_event_cntr_bits(event);

	lockdep_assert_irqs_disabled();
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;

	pmuv3_counters_off(cntrs);
	pmuv3_write_type(event);
	pmuv3_set_period(event);
	/* a chained pair interrupts on the overflow of its high half only */
	pmuv3_counters_on(cntrs, BIT_ULL(hwc->idx));
	/*
	 * A host-only or guest-only event: KVM switches its counters on and
	 * off (or their EL0 filter, with VHE) as it enters and leaves guests.
	 */
	kvm_set_pmu_events(cntrs, &event->attr);

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
void pmuv3_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	lockdep_assert_irqs_disabled();
	if (hwc->state & PERF_HES_STOPPED)
		return;

	pmuv3_counters_off(pmuv3_event_cntr_bits(event));
	kvm_clr_pmu_events(pmuv3_event_cntr_bits(event));
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

	lockdep_assert_irqs_disabled();
	/* a task's event may follow it onto a CPU of another kind */
	if (!cpumask_test_cpu(smp_processor_id(), &p->arm.supported_cpus))
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

	lockdep_assert_irqs_disabled();
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
	lockdep_assert_irqs_disabled();
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

	lockdep_assert_preemption_disabled();
	if (!cpumask_test_cpu(smp_processor_id(), &p->arm.supported_cpus))
		return;
	cpuc->frozen = false;
	/* the events now on this CPU decide what EL0 may read */
	pmuv3_user_access_update(p, cpuc);
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

	if (!cpumask_test_cpu(smp_processor_id(), &p->arm.supported_cpus))
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

	if (event->cpu != -1 && !cpumask_test_cpu(event->cpu, &p->arm.supported_cpus))
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

	err = pmuv3_user_event_init(p, event);
	if (err)
		return err;

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
	return !cpumask_test_cpu(cpu, &to_pmuv3(pmu)->arm.supported_cpus);
}

/* ------------------------------------------------------------------ */
/* Overflow interrupt                                                  */
/* ------------------------------------------------------------------ */

/*
 * The per-CPU overflow interrupt: hard IRQ context with interrupts off, or
 * NMI context when the GIC gives us a pseudo-NMI (perf_event_probe.c), on
 * the CPU whose counters overflowed; @dev is this CPU's struct pmuv3_cpu.
 * The PMU is frozen while we walk the counters, so that the members of a
 * group are sampled at the same instant, then put back as it was (the
 * core may have had it disabled).
 */
irqreturn_t pmuv3_irq_handler(int irq, void *dev)
{
	struct pmuv3_cpu *cpuc = dev;
	struct pmuv3 *p = cpuc->pmu;
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

/**
 * pmuv3_setup_pmu() - fill in the struct pmu the core will see
 * @p: the PMU being probed; @p->has_irq already known
 * @dev: its platform device
 *
 * Context: process context, at probe.
 */
void pmuv3_setup_pmu(struct pmuv3 *p, struct device *dev)
{
	p->arm.pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.parent		= dev,
		.attr_groups	= pmuv3_attr_groups,
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= PERF_PMU_CAP_EXTENDED_REGS |
				  PERF_PMU_CAP_EXTENDED_HW_TYPE |
				  PERF_PMU_CAP_USER_READ_CTX,
		.pmu_enable	= pmuv3_pmu_enable,
		.pmu_disable	= pmuv3_pmu_disable,
		.event_init	= pmuv3_event_init,
		.add		= pmuv3_add,
		.del		= pmuv3_del,
		.start		= pmuv3_start,
		.stop		= pmuv3_stop,
		.read		= pmuv3_read,
		.event_idx	= pmuv3_event_idx,
		.filter		= pmuv3_filter,
	};
	if (!p->has_irq)
		p->arm.pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;

	/* what KVM's vPMU reads: the guest's PMU is modelled on this one */
	bitmap_from_u64(p->arm.cntr_mask, p->cntr_mask);
	bitmap_from_u64(p->arm.pmceid_bitmap, p->pmceid);
	bitmap_from_u64(p->arm.pmceid_ext_bitmap, p->pmceid_ext);
	p->arm.pmuver = p->pmuver;
	p->arm.reg_pmmir = p->pmmir;
}
