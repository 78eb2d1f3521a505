/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 perf_events, AMD: what core.c shares with its KUnit test.
 */
#ifndef _ARCH_X86_EVENTS_AMD_AMD_H
#define _ARCH_X86_EVENTS_AMD_AMD_H

#include "../pmu.h"

unsigned int amd_zen(unsigned int family, unsigned int model);
void amd_hw_map(struct x86_core *core, unsigned int family,
		unsigned int model);

#endif /* _ARCH_X86_EVENTS_AMD_AMD_H */
