/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of this directory's header that code elsewhere in arch/x86
 * includes by relative path, under the name it includes, so that it
 * builds unchanged:
 *  - the Xen PV PMU glue (arch/x86/xen/pmu.c) runs the PMU interrupt
 *    handler through x86_pmu.handle_irq when Xen forwards an overflow;
 *  - resctrl's cache pseudo-locking (arch/x86/kernel/cpu/resctrl/
 *    pseudo_lock.c) writes raw event selects with X86_CONFIG().
 * Our own drivers use pmu.h; only pmi.c includes this, to define x86_pmu.
 * It brings <linux/perf_event.h> along, since xen/pmu.c uses the guest
 * callbacks without including it itself.
 */
#ifndef _ARCH_X86_EVENTS_PERF_EVENT_H
#define _ARCH_X86_EVENTS_PERF_EVENT_H

/* its users rely on it for the perf API too */
#include <linux/perf_event.h>

/*
 * An event select register (Intel IA32_PERFEVTSELx, AMD PerfEvtSeln), bit
 * 0 first.  The field names are the ones callers spell in
 * X86_CONFIG(.event = ..., .umask = ...).
 */
union x86_pmu_config {
	struct {
		/* bits 15:0: what to count, event code and unit mask */
		u64 event:8, umask:8;
		/* bits 21:16: privilege filters, edge detect, pin control, PMI */
		u64 usr:1, os:1, edge:1, pc:1, interrupt:1, __reserved1:1;
		/* bits 31:22: enable, invert and the counter mask */
		u64 en:1, inv:1, cmask:8;
		/* bits 41:32 (AMD): event code bits 11:8, guest-/host-only */
		u64 event2:4, __reserved2:4, go:1, ho:1;
	} bits;
	u64 value;
};

/* a raw config from named fields: X86_CONFIG(.event = 0x2e, .umask = 0x41) */
#define X86_CONFIG(args...) (((union x86_pmu_config){ .bits = { args } }).value)

/**
 * struct x86_pmu - the PMU hooks other x86 code calls
 * @handle_irq: serve this CPU's counter overflows as the PMI would, with
 *	@regs as the interrupted state; returns how many it served (0: none)
 */
struct x86_pmu {
	int (*handle_irq)(struct pt_regs *regs);
};

extern struct x86_pmu x86_pmu;

#endif /* _ARCH_X86_EVENTS_PERF_EVENT_H */
