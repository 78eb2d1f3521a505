// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the Intel per-model tables (maps.c, and tables.c that
 * rig/tools/gen-intel-tables.py generates): that a model finds its own
 * tables, that the restrictions Intel's event lists document hold, and
 * that events placed with a model's table never leave their counters.
 *
 * The expected restrictions below are read off the event lists by hand
 * (their "Counter" fields), not from the generated file, so that a wrong
 * generator or a wrong lookup fails here. Each test places events on a
 * struct x86_core of its own with eight general-purpose counters and four
 * fixed ones; nothing touches hardware.
 */
#include <kunit/test.h>

#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>

#include "../pmu.h"
#include "intel.h"

#define GP(n)	GENMASK_ULL((n) - 1, 0)
#define FX(i)	BIT_ULL(X86_FIXED(i))
#define NR_GP	8

/* hw.config's other bits, which must not change the answer */
#define FLAGS	(ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_USR | \
		 ARCH_PERFMON_EVENTSEL_OS)

#define ATOM	INTEL_CORE_TYPE_ATOM
#define CORE	INTEL_CORE_TYPE_CORE

/* arch.c's rule: 0xc0 and 0x3c, and the pseudo-encodings event 0/umask n */
static u64 kunit_fixed_for(u64 config)
{
	u64 sel = config & X86_RAW_EVENT_MASK;

	if (sel == 0x00c0)
		return FX(0);
	if (sel == 0x003c)
		return FX(1);
	if (!(sel & ~ARCH_PERFMON_EVENTSEL_UMASK) && (sel >> 8) &&
	    (sel >> 8) <= 4)
		return FX((sel >> 8) - 1);
	return 0;
}

static const struct x86_core_ops kunit_ops = {
	.fixed_for = kunit_fixed_for,
};

/* a PMU described with @m's tables, as intel_model_tables() would */
static struct x86_core *kunit_core(struct kunit *test,
				   const struct intel_model *m)
{
	struct x86_core *core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_ASSERT_NOT_NULL(test, m);
	core->ops = &kunit_ops;
	core->gp = GP(NR_GP);
	core->fixed = FX(0) | FX(1) | FX(2) | FX(3);
	core->constraints = m->constraints;
	return core;
}

/* the counters @config may use, with a real hw.config's other bits */
static u64 allowed(const struct x86_core *core, u64 config)
{
	return x86_allowed_counters(core, config | FLAGS);
}

/* one documented restriction: @config may use the counters @cntrs */
struct kunit_fact {
	u32		vfm;
	u8		cpu_type;
	const char	*name;
	u64		config;
	u64		cntrs;
};

#define CMASK(n)	((u64)(n) << 24)
#define INV		ARCH_PERFMON_EVENTSEL_INV

/*
 * From the lists' "Counter" fields (Linux 6.12's tools/perf/pmu-events):
 * one or more per list, and one unrestricted event per kind where an
 * over-eager table would restrict it.
 */
static const struct kunit_fact facts[] = {
	/* icelake: L1D_PEND_MISS.PENDING, MEM_INST_RETIRED.ALL_LOADS */
	{ INTEL_ICELAKE_L, 0, "icelake", 0x0148, GP(4) },
	{ INTEL_ICELAKE, 0, "icelake", 0x81d0, GP(4) },
	/* CYCLE_ACTIVITY.STALLS_L3_MISS 0-3, .STALLS_TOTAL all */
	{ INTEL_ICELAKE_L, 0, "icelake", CMASK(6) | 0x06a3, GP(4) },
	{ INTEL_ICELAKE_L, 0, "icelake", CMASK(4) | 0x04a3, GP(8) },
	{ INTEL_ROCKETLAKE, 0, "icelake", 0x0148, GP(4) },
	/* icelakex, tigerlake */
	{ INTEL_ICELAKE_X, 0, "icelake", 0x81d0, GP(4) },
	{ INTEL_ICELAKE_D, 0, "icelake", 0x0151, GP(4) },
	{ INTEL_TIGERLAKE_L, 0, "icelake", 0x81d0, GP(4) },
	{ INTEL_TIGERLAKE, 0, "icelake", 0x00c4, GP(8) },
	/*
	 * Golden/Raptor/Redwood Cove: TOPDOWN.BR_MISPREDICT_SLOTS on 0,
	 * MEM_TRANS_RETIRED.LOAD_LATENCY_* on 1-7, .STORE_SAMPLE on 0
	 */
	{ INTEL_ALDERLAKE, CORE, "alderlake_hybrid", 0x08a4, BIT_ULL(0) },
	{ INTEL_ALDERLAKE_L, CORE, "alderlake_hybrid", 0x01cd, GP(8) & ~1ULL },
	{ INTEL_RAPTORLAKE, CORE, "alderlake_hybrid", 0x02cd, BIT_ULL(0) },
	{ INTEL_RAPTORLAKE_P, 0, "alderlake_hybrid", 0x81d0, GP(4) },
	{ INTEL_SAPPHIRERAPIDS_X, 0, "sapphire_rapids", 0x08a4, BIT_ULL(0) },
	{ INTEL_SAPPHIRERAPIDS_X, 0, "sapphire_rapids", 0x81d0, GP(4) },
	{ INTEL_EMERALDRAPIDS_X, 0, "sapphire_rapids", 0x01cd, GP(8) & ~1ULL },
	{ INTEL_GRANITERAPIDS_X, 0, "granite_rapids", 0x02cd, BIT_ULL(0) },
	{ INTEL_GRANITERAPIDS_D, 0, "granite_rapids", 0x0148, GP(4) },
	{ INTEL_METEORLAKE_L, CORE, "meteorlake_hybrid", 0x08a4, BIT_ULL(0) },
	/* Gracemont, Crestmont: MEM_UOPS_RETIRED.LOAD_LATENCY_* on 0-1 */
	{ INTEL_ALDERLAKE, ATOM, "alderlake_hybrid", 0x05d0, GP(2) },
	{ INTEL_ALDERLAKE, ATOM, "alderlake_hybrid", 0x81d0, GP(8) },
	{ INTEL_ALDERLAKE, ATOM, "alderlake_hybrid", 0x08a4, GP(8) },
	{ INTEL_ATOM_GRACEMONT, 0, "gracemont", 0x05d0, GP(2) },
	{ INTEL_METEORLAKE, ATOM, "meteorlake_hybrid", 0x05d0, GP(2) },
	{ INTEL_ATOM_CRESTMONT_X, 0, "crestmont", 0x05d0, GP(2) },
	{ INTEL_ATOM_CRESTMONT, 0, "crestmont", 0x81d0, GP(8) },
	/* Lunar Lake's partial list: MEM_INST_RETIRED.* on 0-3 */
	{ INTEL_LUNARLAKE_M, CORE, "lunarlake_hybrid", 0x81d0, GP(4) },
	{ INTEL_LUNARLAKE_M, ATOM, "lunarlake_hybrid", 0x81d0, GP(8) },
	/* Skylake (by hand): PREC_DIST on 1, TOTAL_CYCLES_PS not on 1 */
	{ INTEL_SKYLAKE_L, 0, "skylake", 0x01c0, BIT_ULL(1) },
	{ INTEL_SKYLAKE, 0, "skylake", CMASK(10) | INV | 0x01c0, 0xd },
	{ INTEL_SKYLAKE_X, 0, "skylake", CMASK(1) | 0x01c0, GP(8) },
	{ INTEL_COMETLAKE, 0, "skylake", 0x81d0, GP(4) },
	{ INTEL_ATOM_GOLDMONT, 0, "goldmont", 0x81d0, GP(8) },
};

static void lookup_finds_each_models_tables(struct kunit *test)
{
	const struct kunit_fact *f;
	const struct intel_model *m;
	struct x86_core *core;

	for (f = facts; f < facts + ARRAY_SIZE(facts); f++) {
		m = intel_model_find(f->vfm, f->cpu_type);
		KUNIT_ASSERT_NOT_NULL_MSG(test, m, "vfm %#x type %#x",
					  f->vfm, f->cpu_type);
		KUNIT_EXPECT_STREQ_MSG(test, m->name, f->name, "vfm %#x",
				       f->vfm);
		core = kunit_core(test, m);
		KUNIT_EXPECT_EQ_MSG(test, allowed(core, f->config), f->cntrs,
				    "vfm %#x type %#x config %#llx",
				    f->vfm, f->cpu_type, f->config);
	}
}

static void lookup_tells_kinds_and_unknown_models_apart(struct kunit *test)
{
	const struct intel_model *core, *atom, *plain;

	/* the two kinds of a hybrid model have their own tables */
	core = intel_model_find(INTEL_ALDERLAKE, CORE);
	atom = intel_model_find(INTEL_ALDERLAKE, ATOM);
	plain = intel_model_find(INTEL_ALDERLAKE, 0);
	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_ASSERT_NOT_NULL(test, atom);
	KUNIT_EXPECT_PTR_NE(test, core->constraints, atom->constraints);
	/* one kind only (not hybrid): the Core tables */
	KUNIT_EXPECT_PTR_EQ(test, plain, core);
	/* server and client lists differ: their own tables */
	core = intel_model_find(INTEL_ICELAKE_X, 0);
	plain = intel_model_find(INTEL_ICELAKE_L, 0);
	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_EXPECT_PTR_NE(test, core->constraints, plain->constraints);
	/*
	 * the rig's emulated CPU (family 0xf model 0x6b), and parts none of
	 * the lists covers: the architectural tables
	 */
	KUNIT_EXPECT_NULL(test, intel_model_find(IFM(0xf, 0x6b), 0));
	KUNIT_EXPECT_NULL(test, intel_model_find(INTEL_ICELAKE_NNPI, 0));
	KUNIT_EXPECT_NULL(test, intel_model_find(INTEL_ARROWLAKE, CORE));
	/* a kind the model does not have */
	KUNIT_EXPECT_NULL(test, intel_model_find(INTEL_SAPPHIRERAPIDS_X,
						 ATOM));
}

/*
 * Every table: fixed counter 0 and 1's events keep their fixed counter and
 * every GP one; the pseudo-encodings (reference cycles, topdown slots)
 * get their fixed counter only.
 */
static void fixed_events_keep_fixed_counters(struct kunit *test)
{
	const struct intel_model *m;
	struct x86_core *core;

	for (m = intel_json_models; m->vfm; m++) {
		core = kunit_core(test, m);
		KUNIT_EXPECT_EQ_MSG(test, allowed(core, 0x00c0), GP(NR_GP) | FX(0),
				    "vfm %#x", m->vfm);
		KUNIT_EXPECT_EQ_MSG(test, allowed(core, 0x003c), GP(NR_GP) | FX(1),
				    "vfm %#x", m->vfm);
		KUNIT_EXPECT_EQ_MSG(test, allowed(core, 0x0300), FX(2),
				    "vfm %#x", m->vfm);
		KUNIT_EXPECT_EQ_MSG(test, allowed(core, 0x0400), FX(3),
				    "vfm %#x", m->vfm);
	}
}

/* an event no list restricts, on any of them */
#define FREE_EVENT	0x00c4	/* BR_INST_RETIRED.ALL_BRANCHES */

/*
 * Every restriction of every table, on eight GP counters: as many events
 * of it as it has counters, given after as many free events as fill the
 * rest, all fit, each on a counter of its own set; one more does not fit
 * (it multiplexes), and every one of them still fits alone beside the
 * free ones.
 */
static void restricted_events_stay_on_their_counters(struct kunit *test)
{
	const struct x86_constraint *c;
	const struct intel_model *m;
	u64 cntrs[NR_GP + 1];
	int idx[NR_GP + 1];
	struct x86_core *core;
	int i, n, nr;

	for (m = intel_json_models; m->vfm; m++) {
		core = kunit_core(test, m);
		KUNIT_ASSERT_EQ(test, x86_allowed_counters(core, FREE_EVENT),
				GP(NR_GP));
		for (c = m->constraints; c && c->mask; c++) {
			u64 set = c->cntrs & GP(NR_GP);
			u64 got = allowed(core, c->code);

			/* the entry is reached: no earlier one shadows it */
			KUNIT_EXPECT_EQ_MSG(test, got, set,
					    "vfm %#x code %#llx", m->vfm,
					    c->code);
			if (got != set || !set || set == GP(NR_GP))
				continue;

			n = hweight64(set);
			nr = NR_GP - n;
			for (i = 0; i < nr; i++)
				cntrs[i] = GP(NR_GP);
			for (; i < NR_GP; i++)
				cntrs[i] = set;
			KUNIT_ASSERT_EQ_MSG(test, x86_assign(cntrs, NR_GP, 0,
							     idx), 0,
					    "vfm %#x code %#llx", m->vfm,
					    c->code);
			for (i = nr; i < NR_GP; i++)
				KUNIT_EXPECT_TRUE_MSG(test,
						      set & BIT_ULL(idx[i]),
						      "vfm %#x code %#llx on %d",
						      m->vfm, c->code, idx[i]);
			/* one restricted event more than its counters */
			cntrs[NR_GP] = set;
			KUNIT_EXPECT_EQ(test, x86_assign(&cntrs[nr], n + 1,
							 0, idx), -EAGAIN);
		}
	}
}

/*
 * The case of the issue: on Ice Lake, memory events restricted to 0-3
 * opened after four free events take 0-3 and push the free ones to 4-7;
 * a fifth memory event cannot be placed with them.
 */
static void icelake_memory_events_never_on_4_to_7(struct kunit *test)
{
	static const u64 configs[] = {
		0x00c4, 0x00c5, 0x01c2, 0x00c4,	/* free */
		0x81d0, 0x82d0, 0x01d1, 0x0148,	/* restricted to 0-3 */
	};
	u64 cntrs[ARRAY_SIZE(configs) + 1];
	int idx[ARRAY_SIZE(configs) + 1];
	struct x86_core *core;
	int i;

	core = kunit_core(test, intel_model_find(INTEL_ICELAKE_X, 0));
	for (i = 0; i < ARRAY_SIZE(configs); i++)
		cntrs[i] = allowed(core, configs[i]);
	KUNIT_ASSERT_EQ(test, x86_assign(cntrs, ARRAY_SIZE(configs), 0,
					 idx), 0);
	for (i = 4; i < ARRAY_SIZE(configs); i++)
		KUNIT_EXPECT_LT(test, idx[i], 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_GE(test, idx[i], 4);

	cntrs[ARRAY_SIZE(configs)] = allowed(core, 0x01d2);
	KUNIT_EXPECT_EQ(test, x86_assign(&cntrs[4], 5, 0, idx), -EAGAIN);
	KUNIT_EXPECT_EQ(test, x86_assign(cntrs, ARRAY_SIZE(cntrs), 0,
					 idx), -EAGAIN);
}

static struct kunit_case intel_models_cases[] = {
	KUNIT_CASE(lookup_finds_each_models_tables),
	KUNIT_CASE(lookup_tells_kinds_and_unknown_models_apart),
	KUNIT_CASE(fixed_events_keep_fixed_counters),
	KUNIT_CASE(restricted_events_stay_on_their_counters),
	KUNIT_CASE(icelake_memory_events_never_on_4_to_7),
	{}
};

static struct kunit_suite intel_models_suite = {
	.name = "perf_x86_intel_models",
	.test_cases = intel_models_cases,
};

kunit_test_suite(intel_models_suite);
