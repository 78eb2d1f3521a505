// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: event tables.
 *
 * The architectural events (SDM vol. 3B, "Pre-defined Architectural
 * Performance Events") are the same on every part and CPUID.0AH:EBX says
 * which of them a part has. Everything else is model-specific: the
 * generic cache events and the counter restrictions below are taken from
 * the event lists of the SDM and Intel's perfmon event files for each
 * model family. A model we do not list gets the architectural events only.
 */

#include <linux/perf_event.h>

#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>

#include "../pmu.h"
#include "intel.h"

/*
 * The architectural events by their CPUID.0AH:EBX bit, and the generic
 * event each one implements (bit 7, topdown slots, has none).
 */
const struct intel_arch_event intel_arch_events[INTEL_NR_ARCH_EVENTS] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x003c },
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },
	{ PERF_COUNT_HW_BUS_CYCLES,		0x013c },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x4f2e },
	{ PERF_COUNT_HW_CACHE_MISSES,		0x412e },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c4 },
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c5 },
};

#define C(x)	PERF_COUNT_HW_CACHE_##x

/*
 * Skylake and its client/server derivatives up to Comet Lake. The last
 * level and node entries need the off-core response MSRs, which we do not
 * program, so they are not offered.
 */
static const x86_cache_map_t skl_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_INST_RETIRED.ALL_LOADS */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0x0151,	/* L1D.REPLACEMENT */
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_INST_RETIRED.ALL_STORES */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0283,	/* ICACHE_64B.IFTAG_MISS */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_INST_RETIRED.ALL_LOADS */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0e08,	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_INST_RETIRED.ALL_STORES */
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)] = 0x0e49,	/* DTLB_STORE_MISSES.WALK_COMPL. */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x2085,	/* ITLB_MISSES.STLB_HIT */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0e85,	/* ITLB_MISSES.WALK_COMPLETED */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c4,	/* BR_INST_RETIRED.ALL_BRANCHES */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c5,	/* BR_MISP_RETIRED.ALL_BRANCHES */
};

/*
 * Skylake: PREC_DIST only on counter 1; with SMT off, the memory and
 * front-end retirement events only on counters 0-3 (with SMT on there are
 * only four anyway).
 */
static const struct x86_constraint skl_constraints[] = {
	INTEL_PSEUDO_FIXED_ONLY,
	X86_CONSTRAIN_EVENT_UMASK(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	X86_CONSTRAIN_EVENT(0xd0, 0xf),		/* MEM_INST_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xd1, 0xf),		/* MEM_LOAD_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xd2, 0xf),		/* MEM_LOAD_L3_HIT_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xcd, 0xf),		/* MEM_TRANS_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xc6, 0xf),		/* FRONTEND_RETIRED.* */
	{ }
};

/* Goldmont, Goldmont Plus and Tremont Atom (E-)cores */
static const x86_cache_map_t glm_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_UOPS_RETIRED.ALL_LOADS */
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_UOPS_RETIRED.ALL_STORES */
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)] = 0x0380,	/* ICACHE.ACCESSES */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0280,	/* ICACHE.MISSES */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_UOPS_RETIRED.ALL_LOADS */
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_UOPS_RETIRED.ALL_STORES */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c0,	/* INST_RETIRED.ANY_P */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0481,	/* ITLB.MISS */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c4,	/* BR_INST_RETIRED.ALL_BRANCHES */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c5,	/* BR_MISP_RETIRED.ALL_BRANCHES */
};

/* every model: the pseudo-encodings of fixed counters have no GP form */
static const struct x86_constraint arch_constraints[] = {
	INTEL_PSEUDO_FIXED_ONLY,
	{ }
};

/**
 * intel_model_tables - pick the tables of the boot CPU's model
 * @core: the PMU being described; name, cache_map and constraints are set
 *
 * Context: boot.
 */
void intel_model_tables(struct x86_core *core)
{
	core->constraints = arch_constraints;

	switch (boot_cpu_data.x86_vfm) {
	case INTEL_SKYLAKE:
	case INTEL_SKYLAKE_L:
	case INTEL_SKYLAKE_X:
	case INTEL_KABYLAKE:
	case INTEL_KABYLAKE_L:
	case INTEL_COMETLAKE:
	case INTEL_COMETLAKE_L:
		core->name = "skylake";
		core->cache_map = &skl_cache_map;
		core->constraints = skl_constraints;
		break;
	case INTEL_ATOM_GOLDMONT:
	case INTEL_ATOM_GOLDMONT_D:
		core->name = "goldmont";
		core->cache_map = &glm_cache_map;
		break;
	case INTEL_ATOM_GOLDMONT_PLUS:
		core->name = "goldmont_plus";
		core->cache_map = &glm_cache_map;
		break;
	case INTEL_ATOM_TREMONT_D:
	case INTEL_ATOM_TREMONT:
	case INTEL_ATOM_TREMONT_L:
		core->name = "Tremont";
		core->cache_map = &glm_cache_map;
		break;
	default:
		if (core->version == 1)
			core->name = "generic_arch_v1";
		else if (core->version < 5)
			core->name = "generic_arch_v2+";
		else
			core->name = "generic_arch_v5+";
		break;
	}
}
