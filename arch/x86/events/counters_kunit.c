// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of counter placement (counters.c): which counters an event
 * select may use on a described PMU, and where a set of events goes.
 *
 * The PMU here is a struct x86_core of the test's own, shaped like an
 * Intel part with four general-purpose and three fixed counters; nothing
 * touches hardware.
 */
#include <kunit/test.h>

#include "pmu.h"

#define GP(n)	GENMASK_ULL((n) - 1, 0)
#define FX(i)	BIT_ULL(X86_FIXED(i))

/* instructions and cycles have a fixed counter, as on Intel */
static u64 kunit_fixed_for(u64 config)
{
	switch (config & X86_RAW_EVENT_MASK) {
	case 0x00c0:
		return FX(0);
	case 0x003c:
		return FX(1);
	}
	/* the pseudo-encodings: event 0, unit mask counter + 1 */
	if (!(config & X86_RAW_EVENT_MASK & ~ARCH_PERFMON_EVENTSEL_UMASK) &&
	    (config & ARCH_PERFMON_EVENTSEL_UMASK) &&
	    (config & ARCH_PERFMON_EVENTSEL_UMASK) <= 0x1000)
		return FX(((config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8) - 1);
	return 0;
}

static const struct x86_core_ops kunit_ops = {
	.fixed_for = kunit_fixed_for,
};

static const struct x86_constraint kunit_constraints[] = {
	X86_CONSTRAIN_EVENT_UMASK(0x01c0, 0x2),
	X86_CONSTRAIN_EVENT(0xd0, 0x3),
	{ }
};

static const struct x86_core kunit_core = {
	.ops = &kunit_ops,
	.gp = GP(4),
	.fixed = FX(0) | FX(1) | FX(2),
	.constraints = kunit_constraints,
};

/* the bits a real hw.config carries besides the select must not matter */
#define FLAGS	(ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_USR | \
		 ARCH_PERFMON_EVENTSEL_OS)

static void allowed_follows_fixed_and_constraints(struct kunit *test)
{
	const struct x86_core *c = &kunit_core;

	/* no restriction: every GP counter */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x412e | FLAGS), GP(4));
	/* a fixed counter as well as the GP ones */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x00c0 | FLAGS),
			GP(4) | FX(0));
	/* a pseudo-encoding: its fixed counter only */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x0300 | FLAGS), FX(2));
	/* that of a fixed counter the CPU lacks: none */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x0400 | FLAGS), 0);
	/* event select 0 naming no fixed counter is a GP event */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x0000 | FLAGS), GP(4));
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x9000 | FLAGS), GP(4));
	/* a restricted unit mask, and the same event with another mask */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x01c0 | FLAGS),
			BIT_ULL(1));
	/* 0x02c0 has no fixed counter: edge makes 0x00c0 GP-only too */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x02c0 | FLAGS), GP(4));
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x00c0 | FLAGS |
						   ARCH_PERFMON_EVENTSEL_EDGE),
			GP(4));
	/* a restricted event, any unit mask */
	KUNIT_EXPECT_EQ(test, x86_allowed_counters(c, 0x81d0 | FLAGS), GP(2));
}

static void assign_places_restricted_events_first(struct kunit *test)
{
	/* given first, the free event would take counter 1 on a naive pass */
	u64 allowed[] = { GP(4), GP(4), BIT_ULL(1), BIT_ULL(0) | BIT_ULL(1) };
	int idx[ARRAY_SIZE(allowed)];

	KUNIT_ASSERT_EQ(test, x86_assign(allowed, ARRAY_SIZE(allowed), 0, idx),
			0);
	KUNIT_EXPECT_EQ(test, idx[2], 1);
	KUNIT_EXPECT_EQ(test, idx[3], 0);
	KUNIT_EXPECT_EQ(test, BIT(idx[0]) | BIT(idx[1]), BIT(2) | BIT(3));
}

static void assign_prefers_fixed_counters(struct kunit *test)
{
	u64 allowed[] = { GP(4) | FX(0), GP(4) | FX(1), GP(4) };
	int idx[ARRAY_SIZE(allowed)];

	KUNIT_ASSERT_EQ(test, x86_assign(allowed, ARRAY_SIZE(allowed), 0, idx),
			0);
	KUNIT_EXPECT_EQ(test, idx[0], X86_FIXED(0));
	KUNIT_EXPECT_EQ(test, idx[1], X86_FIXED(1));
	KUNIT_EXPECT_EQ(test, idx[2], 0);
}

static void assign_respects_busy_and_runs_out(struct kunit *test)
{
	u64 allowed[] = { GP(4), GP(4), GP(4) | FX(0), GP(4) };
	int idx[ARRAY_SIZE(allowed)];
	u64 busy = BIT_ULL(0) | FX(0);

	/* two GP counters and no fixed one left for four events */
	KUNIT_EXPECT_EQ(test, x86_assign(allowed, 4, busy, idx), -EAGAIN);
	/* three fit: the one that could use fixed 0 falls back to GP */
	KUNIT_ASSERT_EQ(test, x86_assign(allowed, 3, busy, idx), 0);
	KUNIT_EXPECT_EQ(test, BIT_ULL(idx[0]) | BIT_ULL(idx[1]) |
			BIT_ULL(idx[2]), GP(4) & ~BIT_ULL(0));
	/* an event no counter can take */
	allowed[0] = 0;
	KUNIT_EXPECT_EQ(test, x86_assign(allowed, 1, 0, idx), -EAGAIN);
}

/*
 * precise_ip 3: an event fixed counter 0 counts stays there where it
 * distributes precisely; any other goes on GP counter 0 where that one
 * does, and is left alone where only the fixed counter does.
 */
static void pdist_keeps_precise_3_on_its_counters(struct kunit *test)
{
	struct x86_core c = kunit_core;
	u64 insn = x86_allowed_counters(&c, 0x00c0 | FLAGS);
	u64 cycles = x86_allowed_counters(&c, 0x003c | FLAGS);
	u64 restricted = x86_allowed_counters(&c, 0xd0 | FLAGS);
	u64 stores = x86_allowed_counters(&c, 0x82d0 | FLAGS) & ~BIT_ULL(0);

	/* none: 3 is 2 */
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, insn), insn);
	/* fixed counter 0 only (Ice Lake) */
	c.pdist_cntrs = FX(0);
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, insn), FX(0));
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, cycles), cycles);
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, restricted), restricted);
	/* and GP counter 0 (Sapphire Rapids) */
	c.pdist_cntrs = FX(0) | BIT_ULL(0);
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, insn), FX(0));
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, cycles), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, restricted), BIT_ULL(0));
	/* an event GP counter 0 cannot take has nowhere to go */
	KUNIT_EXPECT_EQ(test, x86_pdist_counters(&c, stores), 0);
}

/* Haswell-like: the load-latency event counts on 3, samples on 0-3 */
static const struct x86_constraint kunit_ll_constraints[] = {
	X86_CONSTRAIN_EVENT_UMASK(0x01cd, 0x8),
	X86_CONSTRAIN_EVENT(0xd0, 0x3),
	{ }
};

static const struct x86_constraint kunit_ll_precise[] = {
	X86_CONSTRAIN_EVENT_UMASK(0x01cd, 0xf),
	{ }
};

/*
 * A precise event that precise_constraints match gets their GP counters
 * instead of the general table's; other precise events and counting ones
 * keep the general table's
 */
static void precise_constraints_replace_gp(struct kunit *test)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	struct x86_core c = kunit_core;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	c.constraints = kunit_ll_constraints;
	c.precise_cntrs = GP(4) | FX(0);
	ev->hw.config = 0x01cd | FLAGS;
	KUNIT_EXPECT_EQ(test, x86_event_counters(&c, ev), BIT_ULL(3));
	ev->hw.flags = X86_EVENT_FLAG_PEBS;
	ev->attr.precise_ip = 2;
	KUNIT_EXPECT_EQ(test, x86_event_counters(&c, ev), BIT_ULL(3));
	c.precise_constraints = kunit_ll_precise;
	KUNIT_EXPECT_EQ(test, x86_event_counters(&c, ev), GP(4));
	ev->hw.config = 0x81d0 | FLAGS;
	KUNIT_EXPECT_EQ(test, x86_event_counters(&c, ev), GP(2));
	ev->hw.config = 0x01cd | FLAGS;
	ev->hw.flags = 0;
	ev->attr.precise_ip = 0;
	KUNIT_EXPECT_EQ(test, x86_event_counters(&c, ev), BIT_ULL(3));
}

static struct kunit_case x86_counters_cases[] = {
	KUNIT_CASE(allowed_follows_fixed_and_constraints),
	KUNIT_CASE(assign_places_restricted_events_first),
	KUNIT_CASE(assign_prefers_fixed_counters),
	KUNIT_CASE(assign_respects_busy_and_runs_out),
	KUNIT_CASE(pdist_keeps_precise_3_on_its_counters),
	KUNIT_CASE(precise_constraints_replace_gp),
	{}
};

static struct kunit_suite x86_counters_suite = {
	.name = "perf_x86_counters",
	.test_cases = x86_counters_cases,
};

kunit_test_suite(x86_counters_suite);
