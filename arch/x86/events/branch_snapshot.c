// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: bpf_get_branch_snapshot().
 *
 * A BPF program (a kprobe, fentry or tracepoint program, which runs where
 * the thing it watches happens) may ask for the branches that led to it:
 * the helper calls the perf_snapshot_branch_stack static call, which the
 * core PMU points here when its vendor has a branch recorder (Intel's LBR
 * or Arch LBR, AMD's LbrExtV2). The recorder only records while some
 * perf event with a branch stack uses it on this CPU, so the program's
 * user keeps one open (typically per CPU, kernel branches included);
 * without one the snapshot is empty and the helper returns -ENOENT, as
 * it does on upstream's kernels.
 *
 * The snapshot should end as close to the program as it can: every
 * branch taken between the helper's entry and the recorder stopping
 * pushes an older one out. So the counters and the recorder stop first
 * (the PMU is frozen as the core's pmu_disable freezes it, which also
 * keeps a PMI that was already on its way from starting them again
 * behind our back), then the vendor reads the entries, youngest first,
 * unfiltered, and everything runs again.
 *
 * Context: any, with the helper's caller's preemption rules; interrupts
 * are disabled here. In NMI (a program run from the PMI, or from another
 * NMI) nothing is stopped or started: the PMI has the counters frozen
 * already and restarts them itself, and another NMI gets the entries of
 * a recorder that is still running.
 */

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>

#include "pmu.h"

static int x86_branch_snapshot(struct perf_branch_entry *entries,
			       unsigned int cnt)
{
	struct x86_core *core;
	unsigned long flags;
	bool freeze;
	int nr = 0;

	local_irq_save(flags);
	core = this_cpu_read(x86_cpu_core);
	if (!core || !core->ops->branch_snapshot)
		goto out;
	freeze = !in_nmi() && !x86_cpuc(core)->frozen;
	if (freeze)
		x86_pmu_disable(&core->pmu);
	nr = core->ops->branch_snapshot(entries, cnt);
	if (freeze)
		x86_pmu_enable(&core->pmu);
out:
	local_irq_restore(flags);
	return nr;
}

/**
 * x86_branch_snapshot_init - offer the snapshot where there is a recorder
 * @core: a core PMU its vendor's probe has filled in
 *
 * Context: boot, once the PMU is set up.
 */
void __init x86_branch_snapshot_init(const struct x86_core *core)
{
	if (core->branches && core->ops->branch_snapshot)
		static_call_update(perf_snapshot_branch_stack,
				   x86_branch_snapshot);
}
