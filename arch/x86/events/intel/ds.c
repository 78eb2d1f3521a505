// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: the per-CPU Debug Store (DS) save area.
 *
 * Intel BTS and PEBS write their records through the DS area that
 * MSR_IA32_DS_AREA points at. The area must stay mapped while user space
 * runs with PTI, so arch/x86/mm/cpu_entry_area.c maps this per-CPU
 * variable into every CPU's entry area at boot (Intel CPUs only), and the
 * CPU is given that mapping's address. Without PEBS (pebs.c) the area is
 * reserved but never handed to the CPU: MSR_IA32_DS_AREA is never written.
 */

#include <linux/percpu.h>
#include <linux/perf_event.h>

#include <asm/intel_ds.h>
#include <asm/msr.h>

#include "../pmu.h"
#include "intel.h"

/*
 * Page aligned and a whole number of pages: the entry area maps it page
 * by page (a BUILD_BUG_ON in cpu_entry_area.c checks the size).
 */
DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);

/* the address this CPU was given in MSR_IA32_DS_AREA, 0 for none */
static DEFINE_PER_CPU(unsigned long, ds_loaded);

/**
 * intel_ds_load - hand this CPU its DS area
 * @cea_ds: the entry area's mapping of this CPU's cpu_debug_store
 *
 * Context: this CPU, interrupts off (CPU bring-up).
 */
void intel_ds_load(struct debug_store *cea_ds)
{
	this_cpu_write(ds_loaded, (unsigned long)cea_ds);
	wrmsrl(MSR_IA32_DS_AREA, (unsigned long)cea_ds);
}

/**
 * perf_restore_debug_store - reload MSR_IA32_DS_AREA after a CPU resume
 *
 * Called from the suspend/resume path (arch/x86/power/cpu.c, interrupts
 * off) because the MSR does not survive a sleep state. It only needs
 * restoring where intel_ds_load() set it; elsewhere nothing is written.
 */
void perf_restore_debug_store(void)
{
	unsigned long ds = this_cpu_read(ds_loaded);

	if (ds)
		wrmsrl(MSR_IA32_DS_AREA, ds);
}
