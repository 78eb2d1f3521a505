// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the event core's internal rules: PMU type routing, the
 * software period arithmetic, read() sizes, and group scheduling against a
 * fake PMU with a fixed number of counters (no hardware needed).
 *
 * The fake PMU counts deterministically: every read() adds 1000 to each
 * active event, so a running event always advances and a waiting one never
 * does.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/topology.h>

#include "../context.h"
#include "../control.h"
#include "../overflow.h"
#include "../pmu.h"
#include "../scope.h"

static void pmu_types_are_upstreams(struct kunit *test)
{
	struct pmu *pmu;

	pmu = perf_pmu_by_type(PERF_TYPE_SOFTWARE);
	KUNIT_ASSERT_NOT_NULL(test, pmu);
	KUNIT_EXPECT_STREQ(test, pmu->name, "software");
	pmu = perf_pmu_by_type(PERF_TYPE_TRACEPOINT);
	KUNIT_ASSERT_NOT_NULL(test, pmu);
	KUNIT_EXPECT_STREQ(test, pmu->name, "tracepoint");
#ifdef CONFIG_HAVE_HW_BREAKPOINT
	pmu = perf_pmu_by_type(PERF_TYPE_BREAKPOINT);
	KUNIT_ASSERT_NOT_NULL(test, pmu);
	KUNIT_EXPECT_STREQ(test, pmu->name, "breakpoint");
#endif
	/* the clocks take the first dynamic numbers, as upstream's do */
	pmu = perf_pmu_by_type(PERF_TYPE_MAX);
	KUNIT_ASSERT_NOT_NULL(test, pmu);
	KUNIT_EXPECT_STREQ(test, pmu->name, "cpu_clock");
	pmu = perf_pmu_by_type(PERF_TYPE_MAX + 1);
	KUNIT_ASSERT_NOT_NULL(test, pmu);
	KUNIT_EXPECT_STREQ(test, pmu->name, "task_clock");
}

static void swevent_period_math(struct kunit *test)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, event);
	event->hw.sample_period = 10;
	local64_set(&event->hw.period_left, 3);
	KUNIT_EXPECT_EQ(test, perf_swevent_set_period(event), 0ULL);

	/* 3 left, 25 happen: overflows at 3, 13 and 23; 8 left of the next */
	local64_sub(25, &event->hw.period_left);
	KUNIT_EXPECT_EQ(test, perf_swevent_set_period(event), 3ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&event->hw.period_left), 8LL);

	/* exactly at the boundary is one overflow, a full period left */
	local64_sub(8, &event->hw.period_left);
	KUNIT_EXPECT_EQ(test, perf_swevent_set_period(event), 1ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&event->hw.period_left), 10LL);
}

/*
 * Frequency mode: 1e6 events in each millisecond at 1000 samples a second
 * call for a period of 1e6.  From a period of 1 the steps close an eighth
 * of the gap each, never overshoot, and land on the target exactly.
 */
static void freq_period_steers(struct kunit *test)
{
	const u64 want = 1000000;
	u64 cur = 1, next;
	int i;

	/* an eighth of the gap per step, rounded away from zero */
	KUNIT_EXPECT_EQ(test, perf_freq_period(800, 1600, NSEC_PER_SEC, 1),
			900ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_period(800, 0, NSEC_PER_SEC, 1),
			700ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_period(10, 11, NSEC_PER_SEC, 1), 11ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_period(11, 10, NSEC_PER_SEC, 1), 10ULL);
	/* never 0, and no time observed says nothing but "shorter" */
	KUNIT_EXPECT_EQ(test, perf_freq_period(1, 0, NSEC_PER_SEC, 1), 1ULL);
	KUNIT_EXPECT_EQ(test, perf_freq_period(9, 5, 0, 1000), 8ULL);

	for (i = 0; i < 200; i++) {
		next = perf_freq_period(cur, want, NSEC_PER_MSEC, 1000);
		KUNIT_EXPECT_GE(test, next, cur);
		KUNIT_EXPECT_LE(test, next, want);
		cur = next;
		if (i == 40)
			KUNIT_EXPECT_GE(test, cur, want - want / 100);
	}
	KUNIT_EXPECT_EQ(test, cur, want);
}

/*
 * Lowering the sample rate: the most interrupts of a given cost that fit
 * in the CPU-time share of one tick, and never fewer than one.
 */
static void rate_for_cost_fits(struct kunit *test)
{
	u64 budget = (u64)TICK_NSEC * 25 / 100;
	u64 costs[] = { 1, 1000, 12345, budget / 3, budget - 1 };
	int i;

	for (i = 0; i < ARRAY_SIZE(costs); i++) {
		u64 n = perf_rate_for_cost(costs[i], 25);

		KUNIT_EXPECT_GE(test, n, 1ULL);
		KUNIT_EXPECT_LE(test, n * costs[i], budget);
		KUNIT_EXPECT_GT(test, (n + 1) * costs[i], budget);
	}
	KUNIT_EXPECT_EQ(test, perf_rate_for_cost(budget, 25), 1ULL);
	KUNIT_EXPECT_EQ(test, perf_rate_for_cost(10 * budget, 25), 1ULL);
	KUNIT_EXPECT_EQ(test, perf_rate_for_cost(0, 25), 1ULL);
}

/* the fake PMU: FAKE_COUNTERS counters on every CPU */
#define FAKE_COUNTERS	2

static DEFINE_PER_CPU(int, fake_used);
/* how often the core disabled the whole fake PMU, per CPU */
static DEFINE_PER_CPU(int, fake_disables);

static void fake_pmu_disable(struct pmu *pmu)
{
	this_cpu_inc(fake_disables);
}

static void fake_pmu_enable(struct pmu *pmu)
{
}

static int fake_event_init(struct perf_event *event)
{
	return event->attr.type == event->pmu->type ? 0 : -ENOENT;
}

static int fake_add(struct perf_event *event, int flags)
{
	int *used = this_cpu_ptr(&fake_used);

	if (*used >= FAKE_COUNTERS)
		return -EAGAIN;
	(*used)++;
	event->hw.state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;
	return 0;
}

static void fake_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		local64_add(1000, &event->count);
}

static void fake_del(struct perf_event *event, int flags)
{
	fake_read(event);
	(*this_cpu_ptr(&fake_used))--;
}

static void fake_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void fake_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static struct pmu fake_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.pmu_disable	= fake_pmu_disable,
	.pmu_enable	= fake_pmu_enable,
	.event_init	= fake_event_init,
	.add		= fake_add,
	.del		= fake_del,
	.start		= fake_start,
	.stop		= fake_stop,
	.read		= fake_read,
};

/* the same, as one instance for the whole machine (an IOMMU's, say) */
static struct pmu scoped_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.scope		= PERF_PMU_SCOPE_SYS_WIDE,
	.event_init	= fake_event_init,
	.add		= fake_add,
	.del		= fake_del,
	.start		= fake_start,
	.stop		= fake_stop,
	.read		= fake_read,
};

static int fake_pmu_init(struct kunit *test)
{
	return perf_pmu_register(&fake_pmu, NULL, -1);
}

static void fake_pmu_exit(struct kunit *test)
{
	perf_pmu_unregister(&fake_pmu);
}

static struct perf_event *fake_counter_on(struct kunit *test, int cpu,
					  bool pinned, bool disabled)
{
	struct perf_event_attr attr = {
		.type = fake_pmu.type,
		.size = sizeof(attr),
		.pinned = pinned,
		.disabled = disabled,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	return event;
}

static struct perf_event *fake_counter(struct kunit *test, bool pinned)
{
	return fake_counter_on(test, 0, pinned, false);
}

static void fake_counters_fill_then_wait(struct kunit *test)
{
	struct perf_event *ev[FAKE_COUNTERS + 1];
	u64 enabled, running, val;
	int i, active, waiting;

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		ev[i] = fake_counter(test, false);

	/*
	 * FAKE_COUNTERS of them got counters and one waits.  Which one
	 * waits is the last opened's until the rotation timer first fires
	 * (4 ms), which a vCPU the host preempts can reach before the
	 * checks: count the states instead of naming the events.
	 */
	active = 0;
	waiting = 0;
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		active += ev[i]->state == PERF_EVENT_STATE_ACTIVE;
		waiting += ev[i]->state == PERF_EVENT_STATE_INACTIVE;
	}
	KUNIT_EXPECT_EQ(test, active, FAKE_COUNTERS);
	KUNIT_EXPECT_EQ(test, waiting, 1);

	val = perf_event_read_value(ev[0], &enabled, &running);
	KUNIT_EXPECT_GT(test, val, 0ULL);
	KUNIT_EXPECT_LE(test, running, enabled);
	/* the last one waited from its open at least until the rotation */
	val = perf_event_read_value(ev[FAKE_COUNTERS], &enabled, &running);
	KUNIT_EXPECT_LT(test, running, enabled);
	if (!running)
		KUNIT_EXPECT_EQ(test, val, 0ULL);

	perf_event_release_kernel(ev[0]);
	for (i = 1; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);
}

static void fake_pinned_overcommit_is_error(struct kunit *test)
{
	struct perf_event *ev[FAKE_COUNTERS + 1];
	int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		ev[i] = fake_counter(test, true);
	KUNIT_EXPECT_EQ(test, ev[FAKE_COUNTERS]->state,
			PERF_EVENT_STATE_ERROR);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);
}

static void fake_disable_frees_counter(struct kunit *test)
{
	struct perf_event *a = fake_counter(test, false);
	struct perf_event *b = fake_counter(test, false);
	u64 enabled, running, before;

	perf_event_disable(a);
	KUNIT_EXPECT_EQ(test, a->state, PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 1);
	before = perf_event_read_value(a, &enabled, &running);
	KUNIT_EXPECT_EQ(test, perf_event_read_value(a, &enabled, &running),
			before);
	perf_event_enable(a);
	KUNIT_EXPECT_EQ(test, a->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_GT(test, perf_event_read_value(a, &enabled, &running),
			before);
	perf_event_release_kernel(a);
	perf_event_release_kernel(b);
}

/*
 * A reschedule (here: enabling a pinned event, which makes the flexible
 * ones step off and come back after it) disables the PMU once for the
 * whole pass, not once per group going off and on.
 */
static void fake_resched_disables_pmu_once(struct kunit *test)
{
	struct perf_event *pinned = fake_counter(test, true);
	struct perf_event *flexible = fake_counter(test, false);
	int before;

	perf_event_disable(pinned);
	KUNIT_EXPECT_EQ(test, flexible->state, PERF_EVENT_STATE_ACTIVE);
	before = per_cpu(fake_disables, 0);
	perf_event_enable(pinned);
	KUNIT_EXPECT_EQ(test, pinned->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, flexible->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_disables, 0) - before, 1);
	perf_event_release_kernel(pinned);
	perf_event_release_kernel(flexible);
}

/* three flexible events on two counters take turns: all run, none always */
static void fake_rotation_shares_counters(struct kunit *test)
{
	struct perf_event *ev[FAKE_COUNTERS + 1];
	u64 enabled, running;
	int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		ev[i] = fake_counter(test, false);
	/* the default interval is 4 ms: this is a few dozen rotations */
	msleep(100);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		perf_event_read_value(ev[i], &enabled, &running);
		KUNIT_EXPECT_GT(test, running, 0ULL);
		KUNIT_EXPECT_LT(test, running, enabled);
	}
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);
}

/*
 * An inherited copy is enabled from its original's side (an ioctl on the
 * original) under child_mutex, which does not order it against the
 * child's exec taking the copy out of its context (remove_on_exec).  The
 * enable may come between the removal and the fold: the copy must stay
 * off its PMU, whichever state the removal left it in.  (The fuzzer found
 * a copy re-added that way and freed on a CPU's software event list.)
 */
static void fake_removed_event_stays_off(struct kunit *test)
{
	struct perf_event *ev[2];
	int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ev[i] = fake_counter(test, false);
		KUNIT_EXPECT_EQ(test, ev[i]->state, PERF_EVENT_STATE_ACTIVE);
	}
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 2);

	mutex_lock(&ev[0]->ctx->mutex);
	/* as exec does: EXIT in the same pass that takes it off */
	perf_remove_from_context(ev[0], true);
	KUNIT_EXPECT_EQ(test, ev[0]->state, PERF_EVENT_STATE_EXIT);
	/* as release does: OFF */
	perf_remove_from_context(ev[1], false);
	KUNIT_EXPECT_EQ(test, ev[1]->state, PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_do_enable(ev[i]);
	mutex_unlock(&ev[0]->ctx->mutex);
	KUNIT_EXPECT_EQ(test, ev[0]->state, PERF_EVENT_STATE_EXIT);
	KUNIT_EXPECT_EQ(test, ev[1]->state, PERF_EVENT_STATE_OFF);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
}

/*
 * perf_pmu_migrate_context() moves a PMU's events from one CPU's context
 * to another's as they are: the running ones run on the new CPU, a
 * disabled one stays disabled (upstream's enables it), and counts and
 * times carry on from where they were.
 */
static void fake_migrate_keeps_events(struct kunit *test)
{
	struct perf_cpu_context *to = &per_cpu(perf_cpu_ctx, 1);
	u64 before[3], enabled[3], en, run, val;
	struct perf_event *ev[3];
	int i;

	if (!cpu_online(1))
		kunit_skip(test, "needs CPU 1 online");
	ev[0] = fake_counter_on(test, 0, false, false);
	ev[1] = fake_counter_on(test, 0, true, false);
	ev[2] = fake_counter_on(test, 0, false, true);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		before[i] = perf_event_read_value(ev[i], &enabled[i], &run);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 2);

	perf_pmu_migrate_context(&fake_pmu, 0, 1);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 1), 2);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		KUNIT_EXPECT_EQ(test, ev[i]->cpu, 1);
		KUNIT_EXPECT_PTR_EQ(test, ev[i]->ctx, &to->ctx);
	}
	KUNIT_EXPECT_EQ(test, ev[0]->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, ev[1]->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, ev[2]->state, PERF_EVENT_STATE_OFF);
	for (i = 0; i < 2; i++) {
		val = perf_event_read_value(ev[i], &en, &run);
		KUNIT_EXPECT_GT(test, val, before[i]);
		KUNIT_EXPECT_GE(test, en, enabled[i]);
	}
	KUNIT_EXPECT_EQ(test, perf_event_read_value(ev[2], &en, &run),
			before[2]);

	/* and back: nothing stays behind */
	perf_pmu_migrate_context(&fake_pmu, 1, 0);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 1), 0);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 2);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
	KUNIT_EXPECT_EQ(test, per_cpu(fake_used, 0), 0);
}

/*
 * A PMU with a scope: the CPU it picks for an instance is online and in
 * that instance, the same one for every CPU of it, and an event opened
 * on any CPU of the instance may be read from any of them.
 */
static void scoped_pmu_picks_one_cpu(struct kunit *test)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perf_event *event;
	unsigned int pick, cpu;

	for_each_online_cpu(cpu) {
		pick = perf_scope_pick(PERF_PMU_SCOPE_PKG, cpu);
		KUNIT_EXPECT_TRUE(test, cpu_online(pick));
		KUNIT_EXPECT_TRUE(test,
				  cpumask_test_cpu(pick, topology_core_cpumask(cpu)));
		KUNIT_EXPECT_EQ(test, perf_scope_pick(PERF_PMU_SCOPE_PKG, pick),
				pick);
		KUNIT_EXPECT_EQ(test,
				perf_scope_pick(PERF_PMU_SCOPE_SYS_WIDE, cpu),
				perf_scope_pick(PERF_PMU_SCOPE_SYS_WIDE, 0));
	}
	KUNIT_EXPECT_EQ(test, perf_scope_pick(PERF_PMU_SCOPE_NONE, 0),
			nr_cpu_ids);

	KUNIT_ASSERT_EQ(test, perf_pmu_register(&scoped_pmu, NULL, -1), 0);
	attr.type = scoped_pmu.type;
	event = perf_event_create_kernel_counter(&attr,
						 cpumask_last(cpu_online_mask),
						 NULL, NULL, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(event));
	if (!IS_ERR(event)) {
		KUNIT_EXPECT_TRUE(test,
				  event->event_caps & PERF_EV_CAP_READ_SCOPE);
		perf_event_release_kernel(event);
	}
	perf_pmu_unregister(&scoped_pmu);
}

static struct kunit_case perf_core_cases[] = {
	KUNIT_CASE(pmu_types_are_upstreams),
	KUNIT_CASE(swevent_period_math),
	KUNIT_CASE(freq_period_steers),
	KUNIT_CASE(rate_for_cost_fits),
	{}
};

static struct kunit_suite perf_core_suite = {
	.name = "perf_core",
	.test_cases = perf_core_cases,
};

static struct kunit_case perf_sched_cases[] = {
	KUNIT_CASE(fake_counters_fill_then_wait),
	KUNIT_CASE(fake_pinned_overcommit_is_error),
	KUNIT_CASE(fake_disable_frees_counter),
	KUNIT_CASE(fake_resched_disables_pmu_once),
	KUNIT_CASE(fake_rotation_shares_counters),
	KUNIT_CASE(fake_removed_event_stays_off),
	KUNIT_CASE(fake_migrate_keeps_events),
	KUNIT_CASE(scoped_pmu_picks_one_cpu),
	{}
};

static struct kunit_suite perf_sched_suite = {
	.name = "perf_sched_fake_pmu",
	.init = fake_pmu_init,
	.exit = fake_pmu_exit,
	.test_cases = perf_sched_cases,
};

kunit_test_suites(&perf_core_suite, &perf_sched_suite);
