// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: event tables.
 *
 * The architectural events (SDM vol. 3B, "Pre-defined Architectural
 * Performance Events") are the same on every part and CPUID.0AH:EBX says
 * which of them a part has. Everything else is model-specific: the
 * generic cache events and the counter restrictions. For Ice Lake and
 * later they are generated from Intel's event lists (tables.c, which says
 * how); those of the older models below are written by hand from the
 * SDM's event lists and the same files. A model in neither gets the
 * architectural events only.
 */

#include <linux/perf_event.h>

#include <asm/cpu.h>
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
 * Skylake: PREC_DIST only on counter 1, and the same event counted as
 * cycles (counter mask 10, inverted) only on 0, 2 and 3 (the event list's
 * "Counter" fields, skylake v59, which know four counters); other counter
 * masks of it are unrestricted. With SMT off, the memory and
 * front-end retirement events only on counters 0-3 (with SMT on there are
 * only four anyway).
 */
static const struct x86_constraint skl_constraints[] = {
	INTEL_CONSTRAIN_EXACT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_CONSTRAIN_EXACT(0x0a8001c0, 0xd),	/* INST_RETIRED.TOTAL_CYCLES_PS */
	X86_CONSTRAIN_EVENT(0xd0, 0xf),		/* MEM_INST_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xd1, 0xf),		/* MEM_LOAD_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xd2, 0xf),		/* MEM_LOAD_L3_HIT_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xcd, 0xf),		/* MEM_TRANS_RETIRED.* */
	X86_CONSTRAIN_EVENT(0xc6, 0xf),		/* FRONTEND_RETIRED.* */
	{ }
};

/*
 * Haswell and Broadwell, client and server (the event lists haswell,
 * haswellx, broadwell, broadwellx and broadwellde, which agree on these
 * codes). As for Skylake, no last-level or node entries.
 */
static const x86_cache_map_t hsw_cache_map = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_UOPS_RETIRED.ALL_LOADS */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0x0151,	/* L1D.REPLACEMENT */
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_UOPS_RETIRED.ALL_STORES */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0280,	/* ICACHE.MISSES */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0,	/* MEM_UOPS_RETIRED.ALL_LOADS */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0e08,	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0,	/* MEM_UOPS_RETIRED.ALL_STORES */
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)] = 0x0e49,	/* DTLB_STORE_MISSES.WALK_COMPL. */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x6085,	/* ITLB_MISSES.STLB_HIT */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0e85,	/* ITLB_MISSES.WALK_COMPLETED */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c4,	/* BR_INST_RETIRED.ALL_BRANCHES */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c5,	/* BR_MISP_RETIRED.ALL_BRANCHES */
};

/*
 * Haswell and Broadwell, by the lists' "Counter" fields: PREC_DIST only
 * on counter 1, the load-latency event only on counter 3, and the L1D
 * miss-pending events (L1D_PEND_MISS.PENDING at any counter mask, the
 * CYCLE_ACTIVITY umasks 08H and 0CH that count them) only on counter 2.
 */
static const struct x86_constraint hsw_constraints[] = {
	INTEL_CONSTRAIN_EXACT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	X86_CONSTRAIN_EVENT_UMASK(0x01cd, 0x8),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	X86_CONSTRAIN_EVENT_UMASK(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING* */
	X86_CONSTRAIN_EVENT_UMASK(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_* */
	X86_CONSTRAIN_EVENT_UMASK(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_* */
	{ }
};

/*
 * Precise, the load-latency event samples on any of counters 0-3, and
 * cycles:ppp, which pebs.c counts as INST_RETIRED.PREC_DIST with a
 * counter mask, stays on PREC_DIST's counter 1
 */
static const struct x86_constraint hsw_pebs_constraints[] = {
	X86_CONSTRAIN_EVENT_UMASK(0x01cd, 0xf),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	INTEL_CONSTRAIN_EXACT(0x108001c0, 0x2),	/* INST_RETIRED.PREC_DIST, c=16, i */
	{ }
};

/* Skylake, and Ivy Bridge: only cycles:ppp (see hsw_pebs_constraints) */
static const struct x86_constraint pdist_cycles_constraints[] = {
	INTEL_CONSTRAIN_EXACT(0x108001c0, 0x2),	/* INST_RETIRED.PREC_DIST, c=16, i */
	{ }
};

/*
 * Sandy Bridge and Ivy Bridge, client and server (the event lists
 * sandybridge, jaketown, ivybridge and ivytown, which agree on these
 * codes but for Ivy Bridge's DTLB_LOAD_MISSES umask). As for Skylake, no
 * last-level or node entries.
 */
/* every entry but the DTLB's load misses, whose umask differs */
#define SNB_CACHE_ENTRIES						\
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0, /* MEM_UOPS_RETIRED.ALL_LOADS */ \
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)] = 0x0151,	/* L1D.REPLACEMENT */ \
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0, /* MEM_UOPS_RETIRED.ALL_STORES */ \
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)] = 0x0280,	/* ICACHE.MISSES */ \
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x81d0, /* MEM_UOPS_RETIRED.ALL_LOADS */ \
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = 0x82d0, /* MEM_UOPS_RETIRED.ALL_STORES */ \
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)] = 0x0249, /* DTLB_STORE_MISSES.WALK_COMPL. */ \
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)] = 0x1085, /* ITLB_MISSES.STLB_HIT */ \
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0285, /* ITLB_MISSES.WALK_COMPLETED */ \
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)] = 0x00c4, /* BR_INST_RETIRED.ALL_BRANCHES */ \
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)] = 0x00c5	/* BR_MISP_RETIRED.ALL_BRANCHES */

static const x86_cache_map_t snb_cache_map = {
	SNB_CACHE_ENTRIES,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x0208,	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
};

static const x86_cache_map_t ivb_cache_map = {
	SNB_CACHE_ENTRIES,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)] = 0x8208,	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
};

/*
 * Sandy Bridge and Ivy Bridge, by the lists' "Counter" fields and the
 * SDM: PREC_DIST only on counter 1, L1D_PEND_MISS.PENDING only on
 * counter 2, the load-latency and precise-store events only on counter
 * 3, precise or not.
 */
static const struct x86_constraint snb_constraints[] = {
	INTEL_CONSTRAIN_EXACT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	X86_CONSTRAIN_EVENT_UMASK(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING* */
	X86_CONSTRAIN_EVENT(0xcd, 0x8),		/* MEM_TRANS_RETIRED.* */
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

/* the models written by hand; ends at vfm 0 */
static const struct intel_model intel_sdm_models[] = {
	{ INTEL_SANDYBRIDGE, 0, "sandybridge", &snb_cache_map,
	  snb_constraints },
	{ INTEL_SANDYBRIDGE_X, 0, "sandybridge", &snb_cache_map,
	  snb_constraints },
	{ INTEL_IVYBRIDGE, 0, "ivybridge", &ivb_cache_map, snb_constraints,
	  pdist_cycles_constraints },
	{ INTEL_IVYBRIDGE_X, 0, "ivybridge", &ivb_cache_map, snb_constraints,
	  pdist_cycles_constraints },
	{ INTEL_HASWELL, 0, "haswell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_HASWELL_X, 0, "haswell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_HASWELL_L, 0, "haswell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_HASWELL_G, 0, "haswell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_BROADWELL, 0, "broadwell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_BROADWELL_D, 0, "broadwell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_BROADWELL_G, 0, "broadwell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_BROADWELL_X, 0, "broadwell", &hsw_cache_map, hsw_constraints,
	  hsw_pebs_constraints },
	{ INTEL_SKYLAKE, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_SKYLAKE_L, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_SKYLAKE_X, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_KABYLAKE, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_KABYLAKE_L, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_COMETLAKE, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_COMETLAKE_L, 0, "skylake", &skl_cache_map, skl_constraints,
	  pdist_cycles_constraints },
	{ INTEL_ATOM_GOLDMONT, 0, "goldmont", &glm_cache_map, NULL },
	{ INTEL_ATOM_GOLDMONT_D, 0, "goldmont", &glm_cache_map, NULL },
	{ INTEL_ATOM_GOLDMONT_PLUS, 0, "goldmont_plus", &glm_cache_map, NULL },
	{ INTEL_ATOM_TREMONT_D, 0, "Tremont", &glm_cache_map, NULL },
	{ INTEL_ATOM_TREMONT, 0, "Tremont", &glm_cache_map, NULL },
	{ INTEL_ATOM_TREMONT_L, 0, "Tremont", &glm_cache_map, NULL },
	{ }
};

static const struct intel_model *intel_model_in(const struct intel_model *m,
						u32 vfm, u8 cpu_type)
{
	for (; m->vfm; m++) {
		if (m->vfm == vfm && m->cpu_type == cpu_type)
			return m;
	}
	return NULL;
}

/**
 * intel_model_find - the event tables of a model
 * @vfm: the model (x86_vfm: vendor, family, model)
 * @cpu_type: on a hybrid part, the kind of core (INTEL_CORE_TYPE_*) as
 *	CPUID.1AH reports it on one of its CPUs; 0 on a part that is not
 *	hybrid
 *
 * A part of a hybrid model whose CPUs are all of one kind
 * (X86_FEATURE_HYBRID_CPU clear, so @cpu_type 0: an Alder Lake without
 * Atom cores, say) gets the tables of the model's Core kind.
 *
 * Context: any; reads only constant tables.
 * Return: the tables, or NULL for a model we have none for.
 */
const struct intel_model *intel_model_find(u32 vfm, u8 cpu_type)
{
	const struct intel_model *m;

	m = intel_model_in(intel_json_models, vfm, cpu_type);
	if (!m && !cpu_type)
		m = intel_model_in(intel_json_models, vfm,
				   INTEL_CORE_TYPE_CORE);
	if (!m)
		m = intel_model_in(intel_sdm_models, vfm, cpu_type);
	return m;
}

/**
 * intel_model_tables - pick the tables of the boot CPU's model
 * @core: the PMU being described; name, cache_map and constraints are set
 *
 * On a hybrid part, those of the boot CPU's kind of core: until there is
 * a PMU per kind (pmu.h), the one PMU serves both kinds with them.
 *
 * Context: boot.
 */
void intel_model_tables(struct x86_core *core)
{
	const struct intel_model *m;

	m = intel_model_find(boot_cpu_data.x86_vfm, get_this_hybrid_cpu_type());
	core->constraints = NULL;
	if (m) {
		core->name = m->name;
		core->cache_map = m->cache_map;
		if (m->constraints)
			core->constraints = m->constraints;
		core->precise_constraints = m->pebs_constraints;
	} else if (core->version == 1) {
		core->name = "generic_arch_v1";
	} else if (core->version < 5) {
		core->name = "generic_arch_v2+";
	} else {
		core->name = "generic_arch_v5+";
	}
}
