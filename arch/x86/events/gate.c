// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: gated mode, for core PMUs without global control.
 *
 * Intel's architectural perfmon version 1 and AMD's counters before
 * PerfMonV2 have no register that enables, or reports the overflow of,
 * all counters at once: each counter runs while the enable bit of its
 * own control is set, and the only trace of a wrap is the counter value.
 * A vendor part marks such a PMU @gated and puts the operations below in
 * its struct x86_core_ops; the rest of the driver then works unchanged:
 *
 *  - freezing the PMU (pmu_disable, the PMI) clears the enable bit of
 *    every started counter, and unfreezing sets it again;
 *  - starting an event while the PMU is frozen leaves its counter off
 *    until the thaw (x86_pmu_start());
 *  - the PMI finds the counters that wrapped by their top bit, and has no
 *    status to clear: programming the next period clears the wrap.
 *
 * All of it runs on the CPU whose counters it touches, with interrupts
 * off or in NMI, and reads only that CPU's struct x86_cpu_pmu of @core.
 */

#include <linux/bitops.h>
#include <linux/perf_event.h>

#include <asm/msr.h>

#include "pmu.h"

/**
 * x86_gate_enable_all - start every running counter by its own enable bit
 * @core: the PMU
 * @cpuc: its counters on this CPU
 *
 * Context: local CPU, interrupts off or in NMI.
 */
void x86_gate_enable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	unsigned long idx;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(idx, (unsigned long *)&cpuc->running, X86_NR_IDX)
		core->ops->program(cpuc->events[idx], true);
}

/**
 * x86_gate_disable_all - stop every running counter by its own enable bit
 * @core: the PMU
 * @cpuc: its counters on this CPU
 *
 * The running set is left as it is: it says what x86_gate_enable_all()
 * restarts.
 *
 * Context: as x86_gate_enable_all().
 */
void x86_gate_disable_all(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	unsigned long idx;

	for_each_set_bit(idx, (unsigned long *)&cpuc->running, X86_NR_IDX)
		core->ops->program(cpuc->events[idx], false);
}

/**
 * x86_gate_overflowed - the running counters that have wrapped
 * @core: the PMU
 * @cpuc: its counters on this CPU
 *
 * A counter is written to minus what is left of its period, so its top
 * bit stays set until it wraps through 0; a clear top bit means it
 * wrapped. The interrupt of a counter stopped since is lost with this
 * method, but stopping folded its count in already.
 *
 * Context: local CPU, in NMI with the counters frozen.
 * Return: the set of wrapped counters.
 */
u64 x86_gate_overflowed(struct x86_core *core, struct x86_cpu_pmu *cpuc)
{
	u64 top = BIT_ULL(core->gp_width - 1);
	unsigned long idx;
	u64 wrapped = 0;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(idx, (unsigned long *)&cpuc->running, X86_NR_IDX) {
		struct hw_perf_event *hwc = &cpuc->events[idx]->hw;

		if (!(native_read_pmc(hwc->event_base_rdpmc) & top))
			wrapped |= BIT_ULL(idx);
	}
	return wrapped;
}

/**
 * x86_gate_ack - nothing to clear
 * @cntrs: the counters x86_gate_overflowed() found wrapped
 *
 * Without a status register the wrap is in the counter itself, and the
 * PMI handler clears it by programming the next period.
 */
void x86_gate_ack(u64 cntrs)
{
}
