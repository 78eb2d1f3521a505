// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: the hooks the rest of arch/x86 calls, for a kernel that
 * has no hardware PMU driver yet.
 *
 * With no driver, every event on x86 is a software, tracepoint, kprobe or
 * breakpoint event: no counter is ever programmed, no PMI is ever
 * expected, and no /sys/bus/event_source/devices/cpu is registered. The
 * hooks below keep the callers (APIC setup, the TLB switch path, the
 * microcode loader) linked and give them the behaviour of "no PMU": they
 * do nothing, and the rdpmc policy keys stay off so CR4.PCE stays clear.
 *
 * A hardware driver (F93 Intel, F94 AMD) takes these over: it programs
 * the LVTPC, tracks dirty counters per CPU and flips the rdpmc keys.
 */

#define pr_fmt(fmt) "perf: x86: " fmt

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/perf_event.h>
#include <linux/printk.h>

#include <asm/mmu_context.h>
#include <asm/perf_event.h>

/*
 * The rdpmc policy, read by cr4_update_pce_mm() in arch/x86/mm/tlb.c on
 * every switch to a new mm (interrupts off):
 *
 *  - rdpmc_always_available_key: CR4.PCE on for every task;
 *  - rdpmc_never_available_key: CR4.PCE off for every task, even one that
 *    has an rdpmc-capable counter mmapped;
 *  - neither: CR4.PCE follows mm->context.perf_rdpmc_allowed.
 *
 * Both start off. Nothing enables them while there is no PMU driver: the
 * sysfs "rdpmc" knob that would (F71) belongs to the driver's PMU.
 */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

/**
 * perf_events_lapic_init - point the local APIC's perf counter LVT at NMI
 *
 * Called by setup_local_APIC() on each CPU as it comes up (boot and CPU
 * hotplug, interrupts off), and by a PMU driver after it has found its
 * hardware. A PMU driver wants counter overflow delivered as NMI; with no
 * driver the LVTPC entry is left as the APIC setup left it (masked), so a
 * stray overflow from firmware-programmed counters cannot raise an NMI
 * nobody claims.
 */
void perf_events_lapic_init(void)
{
}

/**
 * perf_clear_dirty_counters - zero counters a previous task left behind
 *
 * Called from the mm switch path (cr4_update_pce_mm(), interrupts off) just
 * before CR4.PCE is set for a task allowed to use rdpmc, so that the task
 * cannot read counts another task's events left in counters it does not
 * own. Without a PMU driver no counter is ever written by perf, so there
 * is nothing dirty to clear.
 */
void perf_clear_dirty_counters(void)
{
}

/**
 * perf_check_microcode - re-evaluate PMU quirks after a microcode update
 *
 * Called by microcode_check() after a late microcode load, with the CPU
 * hotplug lock held. Some PMU errata (and the workarounds a driver applies)
 * depend on the microcode revision; with no driver there is nothing whose
 * behaviour can change.
 */
void perf_check_microcode(void)
{
}

/*
 * Say at boot that x86 has only the software PMUs, as an early_initcall
 * like the point where a hardware driver would probe, so a boot log shows
 * why /sys/bus/event_source/devices/cpu is absent.
 */
static int __init x86_perf_no_pmu_init(void)
{
	pr_info("no hardware PMU driver, software events only\n");
	return 0;
}
early_initcall(x86_perf_no_pmu_init);
