// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the breakpoint slot-accounting rule (hw_breakpoint.h).
 *
 * The rule is exercised on made-up reservations, with as many CPUs and
 * registers as each case wants, so the results do not depend on the
 * machine the tests boot on.  Tasks are identities only: the addresses of
 * the task_* markers below.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/module.h>

#include "hw_breakpoint.h"

#define NR_REGS		4
#define MAX_SLOTS	32

static const char task_a, task_b, task_c;

/* one case's list and the storage for its records */
struct bp_fixture {
	struct list_head	slots;
	struct bp_slot		rec[MAX_SLOTS];
	int			nr;
};

static int bp_kunit_init(struct kunit *test)
{
	struct bp_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	INIT_LIST_HEAD(&f->slots);
	test->priv = f;
	return 0;
}

/*
 * Reserve like the real code does: check against what is there, and keep
 * the record only if it fits.  Returns the check's verdict.
 */
static int try_add(struct kunit *test, const void *task, int cpu, int type,
		   unsigned int nr_cpus)
{
	struct bp_fixture *f = test->priv;
	struct bp_slot *s;
	int err;

	KUNIT_ASSERT_LT(test, f->nr, MAX_SLOTS);
	s = &f->rec[f->nr];
	s->task = task;
	s->cpu = cpu;
	s->type = type;
	s->weight = 1;
	err = bp_slot_check(&f->slots, s, nr_cpus, NR_REGS);
	if (!err) {
		bp_slot_insert(&f->slots, s);
		f->nr++;
	}
	return err;
}

/* 4 registers: a task's 4 breakpoints fit, its 5th does not */
static void bp_task_fills_registers(struct kunit *test)
{
	int i;

	for (i = 0; i < NR_REGS; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));
	/* bound to one CPU it is still the same task on that CPU */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, 1, 0, 2));
}

/* tasks never run on one CPU together: each gets every register */
static void bp_tasks_share_registers(struct kunit *test)
{
	struct bp_fixture *f = test->priv;
	int i;

	for (i = 0; i < NR_REGS; i++) {
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_b, -1, 0, 2));
	}
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_b, -1, 0, 2));
	/* interleaved additions: totals per task, not per list */
	KUNIT_EXPECT_EQ(test, NR_REGS,
			bp_slot_cpu_usage(&f->slots, NULL, 0, 0));
	KUNIT_EXPECT_EQ(test, NR_REGS,
			bp_slot_cpu_usage(&f->slots, NULL, 1, 0));
}

/* a CPU breakpoint on CPU0 takes a register from every task there only */
static void bp_cpu_bp_limits_one_cpu(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, 0, try_add(test, NULL, 0, 0, 2));

	/* may run on CPU0: 3 left */
	for (i = 0; i < NR_REGS - 1; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));

	/* bound to CPU0: same limit, and task_a's 3 do not count for it */
	for (i = 0; i < NR_REGS - 1; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_b, 0, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_b, 0, 0, 2));

	/* bound to CPU1: all 4 */
	for (i = 0; i < NR_REGS; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_c, 1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_c, 1, 0, 2));

	/* task_c uses all of CPU1: no CPU breakpoint fits there now */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NULL, 1, 0, 2));
}

/* CPU breakpoints add up; a task that could run there is refused */
static void bp_cpu_bps_add_up(struct kunit *test)
{
	int i;

	for (i = 0; i < NR_REGS; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NULL, 3, 0, 4));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NULL, 3, 0, 4));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 4));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, 3, 0, 4));
	/* other CPUs are untouched */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, 2, 0, 4));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NULL, 0, 0, 4));
}

/* a task at the limit everywhere leaves no room for a CPU breakpoint */
static void bp_full_task_blocks_cpu_bp(struct kunit *test)
{
	int i;

	for (i = 0; i < NR_REGS; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NULL, 0, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NULL, 1, 0, 2));
}

/* separate register banks (arm64): classes do not compete */
static void bp_classes_are_separate(struct kunit *test)
{
	int i;

	for (i = 0; i < NR_REGS; i++) {
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 1, 2));
	}
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 1, 2));
}

/* taking a reservation off the list gives its register back */
static void bp_release_returns_slot(struct kunit *test)
{
	struct bp_fixture *f = test->priv;
	int i;

	for (i = 0; i < NR_REGS; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));
	list_del(&f->rec[1].entry);
	KUNIT_EXPECT_EQ(test, NR_REGS - 1,
			bp_slot_cpu_usage(&f->slots, NULL, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, &task_a, -1, 0, 2));
}

/* the candidate counts with its own task, and weights add */
static void bp_usage_counts_extra(struct kunit *test)
{
	struct bp_fixture *f = test->priv;
	struct bp_slot heavy = { .task = &task_b, .cpu = -1, .weight = 3 };
	struct bp_slot extra = { .task = &task_a, .cpu = -1, .weight = 1 };
	struct bp_slot cpu1 = { .task = NULL, .cpu = 1, .weight = 1 };

	KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, -1, 0, 2));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, &task_a, 0, 0, 2));
	bp_slot_insert(&f->slots, &heavy);

	/* CPU0: task_a 2, task_b 3; CPU1: task_a 1, task_b 3 */
	KUNIT_EXPECT_EQ(test, 3, bp_slot_cpu_usage(&f->slots, NULL, 0, 0));
	KUNIT_EXPECT_EQ(test, 3, bp_slot_cpu_usage(&f->slots, NULL, 1, 0));
	/* one more for task_a: 3 on CPU0, still 3 on CPU1 */
	KUNIT_EXPECT_EQ(test, 3, bp_slot_cpu_usage(&f->slots, &extra, 0, 0));
	extra.weight = 2;
	KUNIT_EXPECT_EQ(test, 4, bp_slot_cpu_usage(&f->slots, &extra, 0, 0));
	KUNIT_EXPECT_EQ(test, 3, bp_slot_cpu_usage(&f->slots, &extra, 1, 0));
	/* a CPU candidate adds to its CPU only; other classes count 0 */
	KUNIT_EXPECT_EQ(test, 3, bp_slot_cpu_usage(&f->slots, &cpu1, 0, 0));
	KUNIT_EXPECT_EQ(test, 4, bp_slot_cpu_usage(&f->slots, &cpu1, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, bp_slot_cpu_usage(&f->slots, &cpu1, 1, 1));
}

static struct kunit_case bp_slot_cases[] = {
	KUNIT_CASE(bp_task_fills_registers),
	KUNIT_CASE(bp_tasks_share_registers),
	KUNIT_CASE(bp_cpu_bp_limits_one_cpu),
	KUNIT_CASE(bp_cpu_bps_add_up),
	KUNIT_CASE(bp_full_task_blocks_cpu_bp),
	KUNIT_CASE(bp_classes_are_separate),
	KUNIT_CASE(bp_release_returns_slot),
	KUNIT_CASE(bp_usage_counts_extra),
	{}
};

static struct kunit_suite bp_slot_suite = {
	.name		= "perf_hw_breakpoint_slots",
	.init		= bp_kunit_init,
	.test_cases	= bp_slot_cases,
};

kunit_test_suite(bp_slot_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of perf breakpoint slot accounting");
MODULE_LICENSE("GPL");
