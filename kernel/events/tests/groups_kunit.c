// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the group index (groups.c): which groups a sched-in on
 * this CPU visits and in what order, what rotation moves, and the count
 * of pinned groups that compete for counters.
 *
 * The events here are never installed or scheduled: they are zeroed
 * structures with just the fields the index reads (cpu, attr.pinned,
 * event_caps, pmu, the list heads), linked into a context of their own
 * under its lock, as the core links real ones.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../groups.h"

static struct pmu kunit_hw_pmu = { .task_ctx_nr = perf_hw_context };
static struct pmu kunit_hw2_pmu = { .task_ctx_nr = perf_hw_context };
static struct pmu kunit_sw_pmu = { .task_ctx_nr = perf_sw_context };

static struct perf_event_context *kunit_task_ctx(struct kunit *test)
{
	struct perf_event_context *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	raw_spin_lock_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->event_list);
	perf_groups_init(ctx);
	ctx->cpu = -1;		/* a task context */
	return ctx;
}

static struct perf_event *kunit_leader(struct kunit *test, int cpu,
				       struct pmu *pmu, bool pinned)
{
	struct perf_event *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	INIT_LIST_HEAD(&e->group_entry);
	INIT_LIST_HEAD(&e->group_on_entry);
	INIT_LIST_HEAD(&e->sibling_list);
	INIT_LIST_HEAD(&e->sibling_entry);
	INIT_LIST_HEAD(&e->sb_entry);
	e->group_leader = e;
	e->cpu = cpu;
	e->pmu = pmu;
	e->attr.pinned = pinned;
	if (pmu->task_ctx_nr == perf_sw_context)
		e->event_caps |= PERF_EV_CAP_SOFTWARE;
	return e;
}

static void kunit_link(struct kunit *test, struct perf_event_context *ctx,
		       struct perf_event *e)
{
	KUNIT_ASSERT_EQ(test, perf_groups_reserve(ctx, e->cpu), 0);
	raw_spin_lock_irq(&ctx->lock);
	perf_group_link(ctx, e);
	raw_spin_unlock_irq(&ctx->lock);
}

static void kunit_unlink_all(struct perf_event_context *ctx,
			     struct perf_event **ev, int n)
{
	int i;

	raw_spin_lock_irq(&ctx->lock);
	for (i = 0; i < n; i++) {
		perf_group_set_on(ctx, ev[i], false);
		perf_group_unlink(ctx, ev[i]);
	}
	raw_spin_unlock_irq(&ctx->lock);
	perf_groups_free(ctx);
}

/* Collect what a flexible (or pinned) sched-in on this CPU would visit. */
static int kunit_walk(struct perf_event_context *ctx, bool pinned,
		      struct perf_event **out, int max)
{
	struct perf_group_iter it;
	struct perf_event *e;
	int n = 0;

	raw_spin_lock_irq(&ctx->lock);
	perf_group_iter_start(&it, ctx, pinned);
	while ((e = perf_group_iter_next(&it)) && n < max)
		out[n++] = e;
	raw_spin_unlock_irq(&ctx->lock);
	return n;
}

/*
 * Groups bound to other CPUs are not visited; the "any CPU" ones and the
 * ones bound to this CPU come in the order they were added.  The test
 * runs with migration off so that "this CPU" stays one CPU.
 */
static void groups_visit_only_this_cpu_in_order(struct kunit *test)
{
	struct perf_event_context *ctx = kunit_task_ctx(test);
	struct perf_event *ev[6], *seen[8];
	int here, other, n;

	migrate_disable();
	here = smp_processor_id();
	/* the index takes any CPU number; it need not be online */
	other = here + 1;
	ev[0] = kunit_leader(test, -1, &kunit_hw_pmu, false);
	ev[1] = kunit_leader(test, other, &kunit_hw_pmu, false);
	ev[2] = kunit_leader(test, here, &kunit_hw_pmu, false);
	ev[3] = kunit_leader(test, -1, &kunit_hw_pmu, false);
	ev[4] = kunit_leader(test, here, &kunit_hw_pmu, false);
	ev[5] = kunit_leader(test, here, &kunit_hw_pmu, true);
	for (n = 0; n < ARRAY_SIZE(ev); n++)
		kunit_link(test, ctx, ev[n]);

	n = kunit_walk(ctx, false, seen, ARRAY_SIZE(seen));
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_PTR_EQ(test, seen[0], ev[0]);
	KUNIT_EXPECT_PTR_EQ(test, seen[1], ev[2]);
	KUNIT_EXPECT_PTR_EQ(test, seen[2], ev[3]);
	KUNIT_EXPECT_PTR_EQ(test, seen[3], ev[4]);
	n = kunit_walk(ctx, true, seen, ARRAY_SIZE(seen));
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_PTR_EQ(test, seen[0], ev[5]);
	migrate_enable();

	kunit_unlink_all(ctx, ev, ARRAY_SIZE(ev));
}

/*
 * Rotation sends the first running group of the rotated PMU to the back,
 * across both buckets, and leaves another PMU's groups where they are.
 */
static void groups_rotate_first_running_of_pmu(struct kunit *test)
{
	struct perf_event_context *ctx = kunit_task_ctx(test);
	struct perf_event *ev[4], *seen[4];
	int here, i, n;

	migrate_disable();
	here = smp_processor_id();
	ev[0] = kunit_leader(test, here, &kunit_hw_pmu, false);
	ev[1] = kunit_leader(test, -1, &kunit_hw2_pmu, false);
	ev[2] = kunit_leader(test, -1, &kunit_hw_pmu, false);
	ev[3] = kunit_leader(test, here, &kunit_hw_pmu, false);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		kunit_link(test, ctx, ev[i]);

	/* as if a sched-in put ev[0..2] on and ev[3] did not fit */
	raw_spin_lock_irq(&ctx->lock);
	for (i = 0; i < 3; i++)
		perf_group_set_on(ctx, ev[i], true);
	perf_group_rotate(ctx, &kunit_hw_pmu);
	raw_spin_unlock_irq(&ctx->lock);

	n = kunit_walk(ctx, false, seen, ARRAY_SIZE(seen));
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_PTR_EQ(test, seen[0], ev[1]);
	KUNIT_EXPECT_PTR_EQ(test, seen[1], ev[2]);
	KUNIT_EXPECT_PTR_EQ(test, seen[2], ev[3]);
	KUNIT_EXPECT_PTR_EQ(test, seen[3], ev[0]);

	/* the other PMU's rotation moves its own group only */
	raw_spin_lock_irq(&ctx->lock);
	perf_group_rotate(ctx, &kunit_hw2_pmu);
	raw_spin_unlock_irq(&ctx->lock);
	n = kunit_walk(ctx, false, seen, ARRAY_SIZE(seen));
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_PTR_EQ(test, seen[0], ev[2]);
	KUNIT_EXPECT_PTR_EQ(test, seen[1], ev[3]);
	KUNIT_EXPECT_PTR_EQ(test, seen[2], ev[0]);
	KUNIT_EXPECT_PTR_EQ(test, seen[3], ev[1]);
	migrate_enable();

	kunit_unlink_all(ctx, ev, ARRAY_SIZE(ev));
}

/*
 * A pinned group competes for counters when any member is not software:
 * a software leader counts once a hardware member joins, and stops
 * counting when it leaves.  Software-only pinned groups never count.
 */
static void groups_count_pinned_hw(struct kunit *test)
{
	struct perf_event_context *ctx = kunit_task_ctx(test);
	struct perf_event *sw = kunit_leader(test, -1, &kunit_sw_pmu, true);
	struct perf_event *hw = kunit_leader(test, -1, &kunit_hw_pmu, true);
	struct perf_event *member = kunit_leader(test, -1, &kunit_hw_pmu,
						 false);
	bool held;

	kunit_link(test, ctx, sw);
	KUNIT_EXPECT_EQ(test, ctx->nr_pinned_hw, 0);
	kunit_link(test, ctx, hw);
	KUNIT_EXPECT_EQ(test, ctx->nr_pinned_hw, 1);

	raw_spin_lock_irq(&ctx->lock);
	held = perf_group_edit_begin(ctx, sw);
	member->group_leader = sw;
	list_add_tail(&member->sibling_entry, &sw->sibling_list);
	perf_group_edit_end(ctx, sw, held);
	raw_spin_unlock_irq(&ctx->lock);
	KUNIT_EXPECT_FALSE(test, held);
	KUNIT_EXPECT_EQ(test, ctx->nr_pinned_hw, 2);
	KUNIT_EXPECT_PTR_EQ(test, perf_group_pmu(sw), &kunit_hw_pmu);

	raw_spin_lock_irq(&ctx->lock);
	held = perf_group_edit_begin(ctx, sw);
	list_del_init(&member->sibling_entry);
	perf_group_edit_end(ctx, sw, held);
	perf_group_unlink(ctx, sw);
	perf_group_unlink(ctx, hw);
	raw_spin_unlock_irq(&ctx->lock);
	KUNIT_EXPECT_EQ(test, ctx->nr_pinned_hw, 0);
	KUNIT_EXPECT_PTR_EQ(test, perf_group_pmu(sw), &kunit_sw_pmu);
	perf_groups_free(ctx);
}

static struct kunit_case perf_groups_cases[] = {
	KUNIT_CASE(groups_visit_only_this_cpu_in_order),
	KUNIT_CASE(groups_rotate_first_running_of_pmu),
	KUNIT_CASE(groups_count_pinned_hw),
	{}
};

static struct kunit_suite perf_groups_suite = {
	.name = "perf_groups",
	.test_cases = perf_groups_cases,
};

kunit_test_suites(&perf_groups_suite);
