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
 * Event select 0 with a unit mask is the pseudo-encoding of a fixed
 * counter (umask = counter + 1): no general-purpose counter counts it.
 */
#define INTEL_PSEUDO_FIXED_ONLY \
	{ .code = 0, .mask = ARCH_PERFMON_EVENTSEL_EVENT, .cntrs = 0 }

void intel_model_tables(struct x86_core *core);

#endif /* _ARCH_X86_EVENTS_INTEL_INTEL_H */
