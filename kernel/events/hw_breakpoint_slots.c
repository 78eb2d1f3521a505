// SPDX-License-Identifier: GPL-2.0
/*
 * Breakpoint slot accounting: may one more breakpoint be accepted without
 * any CPU ever running out of debug registers?  hw_breakpoint.c states
 * the rule and owns the system's instance (struct bp_acct bp_slots); this
 * file keeps the counts that answer it.
 *
 * A debugger, or "perf record -e mem:ADDR -p PID" (an event per CPU for
 * each thread), can hold thousands of breakpoints on a machine with
 * hundreds of CPUs, so a reservation walks neither.  Per class we keep
 * pinned[c] and a histogram over CPUs of it (top: max_pinned); per task
 * (struct bp_task, hashed by task pointer) its count bound to no CPU,
 * "any", and bound[c] for just the CPUs where it has bound ones; a
 * histogram over tasks of "any" (top: A); and per CPU c a histogram, over
 * the tasks with bound ones on c, of any + bound[c] (top: M[c]).  Then
 *
 *	need(c) = pinned[c] + max(A, M[c])
 *
 * since a task with none bound to c brings its "any", and one with some
 * brings any + bound[c], which also covers its "any" counted in A.
 * Histograms are indexed by value, up to the register count (an accepted
 * set never needs more), so a top costs O(registers).  A candidate is
 * checked on the terms it changes (bp_acct_fits()) and counted only if it
 * fits: O(registers) for a task-less one, plus a hash and an xarray lookup
 * for a task's bound one, plus the CPUs where that task has bound ones for
 * its unbound one.  Nothing depends on nr_cpu_ids or on how many
 * breakpoints exist.  Memory: registers + 2 counters per possible CPU and
 * class, allocated at boot.
 *
 * Reserving, releasing, moving and asking run with the instance's lock
 * held (acct->lock, bp_slots_mutex for the system's), which lockdep
 * checks.
 */
#include <linux/hashtable.h>
#include <linux/hw_breakpoint.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "hw_breakpoint.h"

static_assert(TYPE_MAX <= BP_NR_CLASSES);

/*
 * What one task holds.  @bound maps class * nr_cpus + cpu to the number of
 * the task's breakpoints of that class bound to that CPU (a value entry);
 * only non-zero counts are stored, so a walk over one class's range
 * visits just the CPUs where the task has bound breakpoints.
 */
struct bp_task {
	struct hlist_node	node;
	const void		*task;
	unsigned int		nr;
	unsigned int		any[BP_NR_CLASSES];
	struct xarray		bound;
};

static unsigned long bp_bound_index(struct bp_acct *acct, int cpu, int type)
{
	return (unsigned long)type * acct->nr_cpus + cpu;
}

/* CPU @cpu's histogram of the totals of the tasks bound there */
static unsigned int *bp_cpu_row(struct bp_class_acct *cl, unsigned int cpu)
{
	return cl->cpu_hist + (size_t)cpu * (cl->nr_regs + 1);
}

/* One tally moves from value @from to value @to; 0 is "not counted". */
static void bp_hist_move(unsigned int *hist, unsigned int from,
			 unsigned int to)
{
	if (from)
		hist[from]--;
	if (to)
		hist[to]++;
}

/* The largest value counted, or 0: O(registers), whatever the CPUs. */
static unsigned int bp_hist_max(const unsigned int *hist,
				unsigned int nr_regs)
{
	unsigned int v;

	for (v = nr_regs; v; v--)
		if (hist[v])
			return v;
	return 0;
}

static struct bp_task *bp_task_find(struct bp_acct *acct, const void *task)
{
	struct bp_task *t;

	lockdep_assert_held(acct->lock);
	hash_for_each_possible(acct->tasks, t, node, (unsigned long)task)
		if (t->task == task)
			return t;
	return NULL;
}

static struct bp_task *bp_task_new(struct bp_acct *acct, const void *task)
{
	struct bp_task *t;

	lockdep_assert_held(acct->lock);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->task = task;
	xa_init(&t->bound);
	hash_add(acct->tasks, &t->node, (unsigned long)task);
	return t;
}

static void bp_task_free(struct bp_task *t)
{
	hash_del(&t->node);
	xa_destroy(&t->bound);
	kfree(t);
}

/* Forget @t once it holds nothing (it may have just been made). */
static void bp_task_put(struct bp_acct *acct, struct bp_task *t)
{
	lockdep_assert_held(acct->lock);
	if (!t->nr)
		bp_task_free(t);
}

static unsigned int bp_task_bound(struct bp_acct *acct, struct bp_task *t,
				  int cpu, int type)
{
	void *entry;

	if (!t)
		return 0;
	entry = xa_load(&t->bound, bp_bound_index(acct, cpu, type));
	return entry ? xa_to_value(entry) : 0;
}

/*
 * Store @t's count of @type bound to @cpu.  Only a count that was 0 needs
 * memory, so only a reservation can fail, and it fails before it has
 * changed anything; erasing or replacing an entry always succeeds.
 */
static int bp_task_set_bound(struct bp_acct *acct, struct bp_task *t,
			     int cpu, int type, unsigned int n)
{
	unsigned long idx = bp_bound_index(acct, cpu, type);

	lockdep_assert_held(acct->lock);
	if (!n) {
		xa_erase(&t->bound, idx);
		return 0;
	}
	return xa_err(xa_store(&t->bound, idx, xa_mk_value(n), GFP_KERNEL));
}

/*
 * Change @t's "any" count of @type to @any.  It is part of @t's total on
 * every CPU where @t has bound breakpoints, so those move too.
 */
static void bp_task_set_any(struct bp_acct *acct, struct bp_task *t,
			    int type, unsigned int any)
{
	struct bp_class_acct *cl = &acct->cls[type];
	unsigned long first = bp_bound_index(acct, 0, type);
	unsigned long last = first + acct->nr_cpus - 1;
	unsigned int old = t->any[type];
	unsigned long idx;
	void *entry;

	lockdep_assert_held(acct->lock);
	bp_hist_move(cl->any_hist, old, any);
	xa_for_each_range(&t->bound, idx, entry, first, last) {
		unsigned int b = xa_to_value(entry);

		bp_hist_move(bp_cpu_row(cl, idx - first), old + b, any + b);
	}
	t->any[type] = any;
}

/*
 * Would one more breakpoint fit: of @task's (whose counts are @t, NULL
 * while it holds none), or a task-less one if @task is NULL?  Only the
 * terms of need(c) that it changes are checked, since the rest fit:
 *
 *  - task-less on c:	pinned[c] + 1 + max(A, M[c]);
 *  - @task's, on c:	pinned[c] + max(A, M[c], its any + bound[c] + 1);
 *  - @task's, unbound:	max(A, its any + 1) + max_pinned, and on each CPU
 *			where it has bound ones, pinned[c] + its new total.
 */
static bool bp_acct_fits(struct bp_acct *acct, const void *task,
			 struct bp_task *t, int cpu, int type)
{
	struct bp_class_acct *cl = &acct->cls[type];
	unsigned int regs = cl->nr_regs;
	unsigned int max_any = bp_hist_max(cl->any_hist, regs);
	unsigned int any = t ? t->any[type] : 0;
	unsigned long first, idx;
	void *entry;

	lockdep_assert_held(acct->lock);
	if (!task)
		return cl->pinned[cpu] + 1 +
		       max(max_any, bp_hist_max(bp_cpu_row(cl, cpu), regs)) <=
		       regs;
	if (cpu >= 0)
		return cl->pinned[cpu] +
		       max3(max_any, bp_hist_max(bp_cpu_row(cl, cpu), regs),
			    any + bp_task_bound(acct, t, cpu, type) + 1) <=
		       regs;

	/* where @t has no bound ones, it counts in A only */
	if (max(max_any, any + 1) + bp_hist_max(cl->pinned_hist, regs) > regs)
		return false;
	if (!t)
		return true;
	/* where it has, its total there grows: a few CPUs, one by one */
	first = bp_bound_index(acct, 0, type);
	xa_for_each_range(&t->bound, idx, entry, first,
			  first + acct->nr_cpus - 1) {
		if (cl->pinned[idx - first] + any + 1 + xa_to_value(entry) >
		    regs)
			return false;
	}
	return true;
}

static bool bp_acct_valid(struct bp_acct *acct, const void *task, int cpu,
			  int type)
{
	if (type < 0 || type >= BP_NR_CLASSES)
		return false;
	if (cpu < -1 || cpu >= (int)acct->nr_cpus)
		return false;
	return task || cpu >= 0;
}

/**
 * bp_acct_reserve - count one more breakpoint, if it always fits
 * @acct: the accounting
 * @task: the task it follows (an identity, never dereferenced), or NULL
 * @cpu: the CPU it is bound to, or -1 (task breakpoints only)
 * @type: its register class
 *
 * Context: @acct->lock held; may sleep (allocates).
 * Return: 0; -ENOSPC if some CPU could then run out of registers; -ENOMEM;
 * -EINVAL for a CPU or class out of range, or neither task nor CPU.
 */
int bp_acct_reserve(struct bp_acct *acct, const void *task, int cpu,
		    int type)
{
	struct bp_class_acct *cl;
	struct bp_task *t = NULL;
	unsigned int any, b;
	int err;

	lockdep_assert_held(acct->lock);
	if (!bp_acct_valid(acct, task, cpu, type))
		return -EINVAL;
	cl = &acct->cls[type];
	if (task)
		t = bp_task_find(acct, task);
	if (!bp_acct_fits(acct, task, t, cpu, type))
		return -ENOSPC;

	if (!task) {
		bp_hist_move(cl->pinned_hist, cl->pinned[cpu],
			     cl->pinned[cpu] + 1);
		cl->pinned[cpu]++;
		acct->nr_bps++;
		return 0;
	}

	if (!t) {
		t = bp_task_new(acct, task);
		if (!t)
			return -ENOMEM;
	}
	any = t->any[type];
	if (cpu >= 0) {
		b = bp_task_bound(acct, t, cpu, type);
		err = bp_task_set_bound(acct, t, cpu, type, b + 1);
		if (err) {
			bp_task_put(acct, t);
			return err;
		}
		bp_hist_move(bp_cpu_row(cl, cpu), b ? any + b : 0, any + b + 1);
	} else {
		bp_task_set_any(acct, t, type, any + 1);
	}
	t->nr++;
	acct->nr_bps++;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_reserve);

/**
 * bp_acct_release - uncount a breakpoint counted by bp_acct_reserve()
 * @acct: the accounting
 * @task: as reserved
 * @cpu: as reserved
 * @type: as reserved
 *
 * Context: @acct->lock held.
 */
void bp_acct_release(struct bp_acct *acct, const void *task, int cpu,
		     int type)
{
	struct bp_class_acct *cl;
	struct bp_task *t;
	unsigned int any, b;

	lockdep_assert_held(acct->lock);
	if (WARN_ON_ONCE(!bp_acct_valid(acct, task, cpu, type)))
		return;
	cl = &acct->cls[type];

	if (!task) {
		if (WARN_ON_ONCE(!cl->pinned[cpu]))
			return;
		bp_hist_move(cl->pinned_hist, cl->pinned[cpu],
			     cl->pinned[cpu] - 1);
		cl->pinned[cpu]--;
		acct->nr_bps--;
		return;
	}

	t = bp_task_find(acct, task);
	if (WARN_ON_ONCE(!t))
		return;
	any = t->any[type];
	if (cpu >= 0) {
		b = bp_task_bound(acct, t, cpu, type);
		if (WARN_ON_ONCE(!b))
			return;
		bp_hist_move(bp_cpu_row(cl, cpu), any + b,
			     b > 1 ? any + b - 1 : 0);
		bp_task_set_bound(acct, t, cpu, type, b - 1);
	} else {
		if (WARN_ON_ONCE(!any))
			return;
		bp_task_set_any(acct, t, type, any - 1);
	}
	t->nr--;
	acct->nr_bps--;
	bp_task_put(acct, t);
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_release);

/**
 * bp_acct_move - move a counted breakpoint to another register class
 * @acct: the accounting
 * @task: as reserved
 * @cpu: as reserved
 * @from: its class now
 * @to: the class it should have
 *
 * It is checked in @to as if new; its count in @from plays no part there,
 * since the classes are counted apart.  Nothing changes on failure.
 *
 * Context: @acct->lock held; may sleep (allocates).
 * Return: 0, or an error from bp_acct_reserve().
 */
int bp_acct_move(struct bp_acct *acct, const void *task, int cpu, int from,
		 int to)
{
	int err;

	lockdep_assert_held(acct->lock);
	if (from == to)
		return 0;
	err = bp_acct_reserve(acct, task, cpu, to);
	if (!err)
		bp_acct_release(acct, task, cpu, from);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_move);

/**
 * bp_acct_need - registers of a class needed on one CPU now
 * @acct: the accounting
 * @cpu: the CPU
 * @type: the class
 *
 * Context: @acct->lock held.
 * Return: need(@cpu) for @type (see the top of this file); 0 for a CPU or
 * class out of range.
 */
unsigned int bp_acct_need(struct bp_acct *acct, int cpu, int type)
{
	struct bp_class_acct *cl;

	lockdep_assert_held(acct->lock);
	if (WARN_ON_ONCE(!bp_acct_valid(acct, NULL, cpu, type)))
		return 0;
	cl = &acct->cls[type];
	return cl->pinned[cpu] +
	       max(bp_hist_max(cl->any_hist, cl->nr_regs),
		   bp_hist_max(bp_cpu_row(cl, cpu), cl->nr_regs));
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_need);

/**
 * bp_acct_destroy - free an accounting and whatever it still counts
 * @acct: the accounting (also one whose bp_acct_init() failed)
 */
void bp_acct_destroy(struct bp_acct *acct)
{
	struct hlist_node *tmp;
	struct bp_task *t;
	int bkt, k;

	hash_for_each_safe(acct->tasks, bkt, tmp, t, node)
		bp_task_free(t);
	for (k = 0; k < BP_NR_CLASSES; k++) {
		kvfree(acct->cls[k].pinned);
		acct->cls[k].pinned = NULL;
	}
	acct->nr_bps = 0;
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_destroy);

/**
 * bp_acct_init - set up an empty accounting
 * @acct: the accounting
 * @lock: the mutex its users will hold around every call
 * @nr_cpus: CPU ids are 0 to @nr_cpus - 1
 * @nr_regs: registers per CPU of each of the BP_NR_CLASSES classes (0 for
 *	a class that does not exist: it accepts nothing)
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int bp_acct_init(struct bp_acct *acct, struct mutex *lock,
		 unsigned int nr_cpus, const unsigned int *nr_regs)
{
	int k;

	memset(acct, 0, sizeof(*acct));
	acct->lock = lock;
	acct->nr_cpus = nr_cpus;
	hash_init(acct->tasks);
	for (k = 0; k < BP_NR_CLASSES; k++) {
		struct bp_class_acct *cl = &acct->cls[k];
		size_t row = (size_t)nr_regs[k] + 1;
		unsigned int *mem;

		/* pinned[], pinned_hist[], any_hist[], then a row per CPU */
		mem = kvcalloc(size_add(size_mul(nr_cpus, row + 1), 2 * row),
			       sizeof(*mem), GFP_KERNEL);
		if (!mem) {
			bp_acct_destroy(acct);
			return -ENOMEM;
		}
		cl->nr_regs = nr_regs[k];
		cl->pinned = mem;
		cl->pinned_hist = mem + nr_cpus;
		cl->any_hist = cl->pinned_hist + row;
		cl->cpu_hist = cl->any_hist + row;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bp_acct_init);
