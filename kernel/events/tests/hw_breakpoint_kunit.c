// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the breakpoint slot accounting (hw_breakpoint.h).
 *
 * Each case drives an accounting of its own over 8 made-up CPUs, with the
 * registers it wants, so nothing depends on the machine the tests boot on.
 * Tasks are identities only: addresses in task_ids[].
 *
 * Beside the counts under test, the fixture keeps a plain list of what was
 * accepted (the model) and computes the rule from it by brute force:
 * need(c) = task-less breakpoints on c + the most breakpoints any one task
 * may bring to c.  Every reservation, release and class change is checked
 * against it, the verdict and need(c) of every CPU and class.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>

#include "../hw_breakpoint.h"

#define FAKE_CPUS	8
#define NR_TASKS	128
#define MAX_BPS		1024
#define NO_TASK		(-1)

static const char task_ids[NR_TASKS];

/* one accepted breakpoint, as the model sees it */
struct model_bp {
	int	task;		/* index into task_ids[], or NO_TASK */
	int	cpu;
	int	type;
};

struct bp_fixture {
	struct mutex		lock;		/* the accounting's */
	struct bp_acct		acct;
	bool			ready;
	bool			check_each;	/* compare need() after each op */
	unsigned int		nr_regs[BP_NR_CLASSES];
	struct model_bp		bps[MAX_BPS];
	int			nr;
	unsigned int		per_task[NR_TASKS];	/* model scratch */
};

static const void *task_ptr(int task)
{
	return task == NO_TASK ? NULL : &task_ids[task];
}

static int bp_kunit_init(struct kunit *test)
{
	struct bp_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	f->check_each = true;
	test->priv = f;
	return 0;
}

static void bp_kunit_exit(struct kunit *test)
{
	struct bp_fixture *f = test->priv;

	if (f->ready)
		bp_acct_destroy(&f->acct);
}

/* Set the case's accounting up with @inst and @data registers. */
static struct bp_fixture *setup(struct kunit *test, unsigned int inst,
				unsigned int data)
{
	struct bp_fixture *f = test->priv;

	f->nr_regs[0] = inst;
	f->nr_regs[1] = data;
	KUNIT_ASSERT_EQ(test, 0, bp_acct_init(&f->acct, &f->lock, FAKE_CPUS,
					      f->nr_regs));
	f->ready = true;
	return f;
}

/* The rule by brute force, over the model's list. */
static unsigned int model_need(struct bp_fixture *f, int cpu, int type)
{
	unsigned int pinned = 0, most = 0;
	int i;

	memset(f->per_task, 0, sizeof(f->per_task));
	for (i = 0; i < f->nr; i++) {
		const struct model_bp *b = &f->bps[i];

		if (b->type != type)
			continue;
		if (b->task == NO_TASK) {
			pinned += b->cpu == cpu;
			continue;
		}
		if (b->cpu == -1 || b->cpu == cpu)
			most = max(most, ++f->per_task[b->task]);
	}
	return pinned + most;
}

/* Does the list still fit with one more breakpoint, on every CPU? */
static bool model_fits(struct bp_fixture *f, int task, int cpu, int type)
{
	bool fits = true;
	int c;

	f->bps[f->nr++] = (struct model_bp){ task, cpu, type };
	for (c = 0; c < FAKE_CPUS; c++)
		if (model_need(f, c, type) > f->nr_regs[type])
			fits = false;
	f->nr--;
	return fits;
}

static unsigned int need(struct bp_fixture *f, int cpu, int type)
{
	unsigned int n;

	mutex_lock(&f->lock);
	n = bp_acct_need(&f->acct, cpu, type);
	mutex_unlock(&f->lock);
	return n;
}

/* The counts agree with the model on every CPU and class. */
static bool check_all(struct kunit *test)
{
	struct bp_fixture *f = test->priv;
	bool ok = f->acct.nr_bps == f->nr;
	int c, k;

	KUNIT_EXPECT_EQ(test, f->acct.nr_bps, (unsigned long)f->nr);
	for (k = 0; k < BP_NR_CLASSES; k++) {
		for (c = 0; c < FAKE_CPUS; c++) {
			unsigned int got = need(f, c, k);
			unsigned int want = model_need(f, c, k);

			KUNIT_EXPECT_EQ_MSG(test, got, want, "cpu %d class %d",
					    c, k);
			ok &= got == want;
		}
	}
	return ok;
}

/* Reserve, expecting the model's verdict; returns the accounting's. */
static int try_add(struct kunit *test, int task, int cpu, int type)
{
	struct bp_fixture *f = test->priv;
	int err, want;

	KUNIT_ASSERT_LT(test, f->nr, MAX_BPS);
	want = model_fits(f, task, cpu, type) ? 0 : -ENOSPC;
	mutex_lock(&f->lock);
	err = bp_acct_reserve(&f->acct, task_ptr(task), cpu, type);
	mutex_unlock(&f->lock);
	KUNIT_EXPECT_EQ_MSG(test, err, want, "task %d cpu %d class %d",
			    task, cpu, type);
	if (!err)
		f->bps[f->nr++] = (struct model_bp){ task, cpu, type };
	if (f->check_each)
		check_all(test);
	return err;
}

/* Release the model's record @i. */
static void release_nr(struct kunit *test, int i)
{
	struct bp_fixture *f = test->priv;
	struct model_bp b = f->bps[i];

	mutex_lock(&f->lock);
	bp_acct_release(&f->acct, task_ptr(b.task), b.cpu, b.type);
	mutex_unlock(&f->lock);
	f->bps[i] = f->bps[--f->nr];
	if (f->check_each)
		check_all(test);
}

/* The model's index of a breakpoint like this; there must be one. */
static int find_nr(struct kunit *test, int task, int cpu, int type)
{
	struct bp_fixture *f = test->priv;
	int i;

	for (i = 0; i < f->nr; i++)
		if (f->bps[i].task == task && f->bps[i].cpu == cpu &&
		    f->bps[i].type == type)
			return i;
	KUNIT_FAIL(test, "no breakpoint task %d cpu %d class %d",
		   task, cpu, type);
	return -1;
}

static void release(struct kunit *test, int task, int cpu, int type)
{
	int i = find_nr(test, task, cpu, type);

	if (i >= 0)
		release_nr(test, i);
}

/* Move the model's record @i to class @to, expecting the model's verdict. */
static int move_nr(struct kunit *test, int i, int to)
{
	struct bp_fixture *f = test->priv;
	struct model_bp *b = &f->bps[i];
	int err, want = 0;

	/* as if new in @to: its record in another class plays no part */
	if (b->type != to && !model_fits(f, b->task, b->cpu, to))
		want = -ENOSPC;
	mutex_lock(&f->lock);
	err = bp_acct_move(&f->acct, task_ptr(b->task), b->cpu, b->type, to);
	mutex_unlock(&f->lock);
	KUNIT_EXPECT_EQ(test, err, want);
	if (!err)
		b->type = to;
	if (f->check_each)
		check_all(test);
	return err;
}

static int move(struct kunit *test, int task, int cpu, int from, int to)
{
	int i = find_nr(test, task, cpu, from);

	return i < 0 ? -ENOENT : move_nr(test, i, to);
}

static void expect_need_all(struct kunit *test, int type, unsigned int n)
{
	int c;

	for (c = 0; c < FAKE_CPUS; c++)
		KUNIT_EXPECT_EQ(test, need(test->priv, c, type), n);
}

/* A task's unbound breakpoints take a register on every CPU. */
static void bp_task_any_cpu(struct kunit *test)
{
	int i;

	setup(test, 4, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	expect_need_all(test, 0, 4);
	expect_need_all(test, 1, 0);
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	/* bound to one CPU it is still the same task there */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 3, 0));
	/* the other class has registers of its own */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 1));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 5, 1));
}

/* A task's bound breakpoints count on their CPU only. */
static void bp_task_bound_cpu(struct kunit *test)
{
	int i;

	setup(test, 4, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 2, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 2, 0));
	KUNIT_EXPECT_EQ(test, 4, need(test->priv, 2, 0));
	KUNIT_EXPECT_EQ(test, 0, need(test->priv, 1, 0));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 5, 0));
	/* CPU2 and CPU5 are full for task 0: nothing unbound fits */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	/* another task's fit beside them: they never run together */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, -1, 0));
	expect_need_all(test, 0, 4);
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 0, 0));
	release(test, 1, -1, 0);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 2, 0));
}

/* Task-less breakpoints add up on their CPU and leave others alone. */
static void bp_cpu_bound(struct kunit *test)
{
	int i;

	setup(test, 4, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 3, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 3, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 3, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 2, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 0, 0));
	KUNIT_EXPECT_EQ(test, 4, need(test->priv, 3, 0));
	KUNIT_EXPECT_EQ(test, 1, need(test->priv, 2, 0));
	KUNIT_EXPECT_EQ(test, 1, need(test->priv, 0, 0));
	/* the other class is untouched */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 3, 1));
}

/* A task with unbound and bound ones: its total per CPU counts. */
static void bp_task_mixed(struct kunit *test)
{
	setup(test, 4, 4);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 3, 0));
	KUNIT_EXPECT_EQ(test, 3, need(test->priv, 3, 0));
	KUNIT_EXPECT_EQ(test, 2, need(test->priv, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 3, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 3, 0));
	/* CPU3 is full for it, so one more unbound does not fit either */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 5, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, 5, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 5, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 3, 0));
	/* one unbound less frees a register on every CPU */
	release(test, 0, -1, 0);
	KUNIT_EXPECT_EQ(test, 3, need(test->priv, 0, 0));
	KUNIT_EXPECT_EQ(test, 3, need(test->priv, 3, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 3, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 0, 0));
	/* a second task: unbound, it meets CPU0's three task-less ones */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 1, -1, 0));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, 6, 0));
}

/* Tasks share the registers: their breakpoints never add up. */
static void bp_tasks_share(struct kunit *test)
{
	int i;

	setup(test, 4, 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, -1, 0));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 2, 1, 0));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 3, 1, 0));
	}
	expect_need_all(test, 0, 4);
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 2, 1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 7, 0));
	/* bound elsewhere, task 2 meets only the others' unbound ones */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 2, 2, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 2, -1, 0));
	release(test, 0, -1, 0);
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 7, 0));
	release(test, 1, -1, 0);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 7, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 1, 0));
}

/* Released breakpoints give their registers back, to the last one. */
static void bp_release_restores(struct kunit *test)
{
	struct bp_fixture *f;
	int i;

	f = setup(test, 4, 2);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));
	release(test, 0, -1, 0);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 0));

	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, 4, 1));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, -1, 1));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 1, 4, 1));
	release(test, 1, -1, 1);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, 4, 1));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 2, 1));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 4, 1));

	while (f->nr)
		release_nr(test, f->nr - 1);
	expect_need_all(test, 0, 0);
	expect_need_all(test, 1, 0);
	KUNIT_EXPECT_EQ(test, 0UL, f->acct.nr_bps);
	KUNIT_EXPECT_TRUE(test, hash_empty(f->acct.tasks));
	/* and all of it can be had again */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 4, 0));
}

/* A class change is checked in the new class as if new. */
static void bp_class_change(struct kunit *test)
{
	struct bp_fixture *f;

	f = setup(test, 4, 2);
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 1));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 1));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 0, -1, 0));
	/* data is full for task 0: the move is refused, nothing changes */
	KUNIT_EXPECT_EQ(test, -ENOSPC, move(test, 0, -1, 0, 1));
	KUNIT_EXPECT_EQ(test, 1, need(f, 0, 0));
	KUNIT_EXPECT_EQ(test, 2, need(f, 0, 1));
	/* the same class: nothing to do */
	KUNIT_EXPECT_EQ(test, 0, move(test, 0, -1, 0, 0));
	/* data to instruction: fits, and frees a data register */
	KUNIT_EXPECT_EQ(test, 0, move(test, 0, -1, 1, 0));
	expect_need_all(test, 0, 2);
	expect_need_all(test, 1, 1);
	KUNIT_EXPECT_EQ(test, 0, move(test, 0, -1, 0, 1));
	expect_need_all(test, 0, 1);
	expect_need_all(test, 1, 2);

	/* bound and task-less ones move too */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 1, 4, 0));
	KUNIT_EXPECT_EQ(test, 0, move(test, 1, 4, 0, 1));
	KUNIT_EXPECT_EQ(test, 2, need(f, 4, 1));
	KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, 4, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, move(test, NO_TASK, 4, 0, 1));
	release(test, 0, -1, 1);
	KUNIT_EXPECT_EQ(test, 0, move(test, NO_TASK, 4, 0, 1));
	KUNIT_EXPECT_EQ(test, 2, need(f, 4, 1));
	KUNIT_EXPECT_EQ(test, 1, need(f, 3, 1));
	KUNIT_EXPECT_EQ(test, 1, need(f, 4, 0));
}

/* Out-of-range requests are refused; a class without registers is full. */
static void bp_bad_requests(struct kunit *test)
{
	struct bp_fixture *f = setup(test, 4, 0);
	int err[4];

	mutex_lock(&f->lock);
	err[0] = bp_acct_reserve(&f->acct, NULL, -1, 0);
	err[1] = bp_acct_reserve(&f->acct, task_ptr(0), FAKE_CPUS, 0);
	err[2] = bp_acct_reserve(&f->acct, task_ptr(0), -2, 0);
	err[3] = bp_acct_reserve(&f->acct, task_ptr(0), 0, BP_NR_CLASSES);
	mutex_unlock(&f->lock);
	KUNIT_EXPECT_EQ(test, -EINVAL, err[0]);
	KUNIT_EXPECT_EQ(test, -EINVAL, err[1]);
	KUNIT_EXPECT_EQ(test, -EINVAL, err[2]);
	KUNIT_EXPECT_EQ(test, -EINVAL, err[3]);
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, -1, 1));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 0, 1, 1));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, 1, 1));
	KUNIT_EXPECT_TRUE(test, hash_empty(f->acct.tasks));
}

/* perf record -p over a process: one bound breakpoint per CPU and thread */
static void bp_many_tasks(struct kunit *test)
{
	struct bp_fixture *f = setup(test, 4, 4);
	int t, c;

	f->check_each = false;
	for (t = 0; t < 100; t++)
		for (c = 0; c < FAKE_CPUS; c++)
			KUNIT_EXPECT_EQ(test, 0, try_add(test, t, c, 0));
	expect_need_all(test, 0, 1);
	for (c = 0; c < FAKE_CPUS; c++) {
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, c, 0));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, c, 0));
		KUNIT_EXPECT_EQ(test, 0, try_add(test, NO_TASK, c, 0));
		KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, NO_TASK, c, 0));
	}
	/* 3 task-less + its bound one + one more: too many */
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 7, -1, 0));
	/* a task with no bound ones only meets the task-less */
	KUNIT_EXPECT_EQ(test, 0, try_add(test, 100, -1, 0));
	KUNIT_EXPECT_EQ(test, -ENOSPC, try_add(test, 100, -1, 0));
	KUNIT_EXPECT_TRUE(test, check_all(test));
	while (f->nr)
		release_nr(test, f->nr - 1);
	KUNIT_EXPECT_TRUE(test, check_all(test));
	KUNIT_EXPECT_TRUE(test, hash_empty(f->acct.tasks));
}

/*
 * Thousands of random reservations, releases and class changes, each
 * checked against the brute-force rule: verdicts and need() everywhere.
 */
static void bp_random_vs_model(struct kunit *test)
{
	struct bp_fixture *f = setup(test, 4, 2);
	int i, i2, ok = 0, refused = 0, moves = 0;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 0x6270736c6f7473ULL);
	for (i = 0; i < 4000; i++) {
		u32 r = prandom_u32_state(&rnd);
		int op = r % 100, task, cpu, type = (r >> 8) & 1;

		if (op < 55 || !f->nr) {
			/* 6 tasks and "none"; a third of task ones unbound */
			task = (int)((r >> 9) % 7) - 1;
			cpu = (r >> 12) % FAKE_CPUS;
			if (task != NO_TASK && (r >> 16) % 3 == 0)
				cpu = -1;
			if (try_add(test, task, cpu, type))
				refused++;
			else
				ok++;
		} else if (op < 90) {
			release_nr(test, (r >> 9) % f->nr);
		} else {
			i2 = (r >> 9) % f->nr;
			moves += !move_nr(test, i2, !f->bps[i2].type);
		}
		if (!check_all(test)) {
			KUNIT_FAIL(test, "diverged at operation %d", i);
			return;
		}
	}
	/* the walk went through full and empty states alike */
	KUNIT_EXPECT_GT(test, ok, 500);
	KUNIT_EXPECT_GT(test, refused, 500);
	KUNIT_EXPECT_GT(test, moves, 50);
	while (f->nr)
		release_nr(test, 0);
	KUNIT_EXPECT_TRUE(test, hash_empty(f->acct.tasks));
}

static struct kunit_case bp_slot_cases[] = {
	KUNIT_CASE(bp_task_any_cpu),
	KUNIT_CASE(bp_task_bound_cpu),
	KUNIT_CASE(bp_cpu_bound),
	KUNIT_CASE(bp_task_mixed),
	KUNIT_CASE(bp_tasks_share),
	KUNIT_CASE(bp_release_restores),
	KUNIT_CASE(bp_class_change),
	KUNIT_CASE(bp_bad_requests),
	KUNIT_CASE(bp_many_tasks),
	KUNIT_CASE(bp_random_vs_model),
	{}
};

static struct kunit_suite bp_slot_suite = {
	.name		= "perf_hw_breakpoint_slots",
	.init		= bp_kunit_init,
	.exit		= bp_kunit_exit,
	.test_cases	= bp_slot_cases,
};

kunit_test_suite(bp_slot_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of perf breakpoint slot accounting");
MODULE_LICENSE("GPL");
