// SPDX-License-Identifier: GPL-2.0
/*
 * The group index: which groups of a context may run on which CPU, in
 * what order, and which are on a PMU right now.
 *
 * `perf record -p` opens one event per CPU for every thread it follows, so
 * on a machine with N CPUs a task context holds N groups of which one can
 * run wherever the task is.  Scheduling must not pay for the other N - 1.
 * A context therefore keeps its leaders in buckets: ctx->groups holds the
 * groups that may run on any CPU (attr cpu -1, and every group of a CPU
 * context, whose CPU is fixed), and for a task context ctx->cpu_groups maps
 * a CPU number to the bucket of groups bound to that CPU.  Sched-in on CPU
 * c visits two buckets, "any" and c, and nothing else.
 *
 * Why buckets in an xarray, not one tree keyed by CPU: the common case is
 * the "any" bucket alone (a plain list, no lookup at all); a context with
 * CPU-bound groups pays one xa_load() when its task changes CPU (the last
 * bucket found is kept, perf_groups_here()), and the lists inside a
 * bucket stay lists, which rotation and sched-in walk in order without
 * rebalancing anything.  Buckets are allocated in process context before a
 * group needs one (perf_groups_reserve()), because linking happens under
 * ctx->lock with IRQs off, and live until the context is freed; an empty
 * bucket costs 32 bytes.
 *
 * Order: every leader carries group_seq, taken from ctx->group_seq when it
 * is linked or rotated, and each bucket list is kept in ascending order
 * (new and rotated groups go to the tail with the highest number).  A
 * sched-in merges the two buckets by group_seq, so the relative order of
 * "any" and CPU-bound groups is the order they were added in, and
 * rotation (moving the first running group to the end) is fair across
 * both buckets.
 *
 * On-PMU lists: a leader whose group was put on a PMU sits on
 * ctx->pinned_on or ctx->flexible_on (in the order it went on) until the
 * group comes off, so sched-out, the tick and rotation walk only what is
 * running.
 *
 * Locking: the lists change under ctx->lock with IRQs off; process-context
 * walkers hold ctx->mutex, which every change also holds (install, remove,
 * and fork's inheritance on a context nobody else sees yet).  The xarray
 * changes only in perf_groups_reserve() (its own lock, under ctx->mutex or
 * on a new context) and is read locklessly under ctx->lock.
 */
#include <linux/slab.h>
#include <linux/xarray.h>

#include "exclusive.h"
#include "groups.h"

static void perf_groups_init_one(struct perf_groups *g, int cpu)
{
	g->cpu = cpu;
	INIT_LIST_HEAD(&g->pinned);
	INIT_LIST_HEAD(&g->flexible);
	INIT_LIST_HEAD(&g->sideband);
}

/**
 * perf_groups_init - an empty index for a new context
 * @ctx: the context
 */
void perf_groups_init(struct perf_event_context *ctx)
{
	perf_groups_init_one(&ctx->groups, -1);
	/*
	 * BH: the RCU callback that frees a task context destroys its
	 * xarray in softirq context, so process context must not hold
	 * the xarray's lock with softirqs on (lockdep's class is shared).
	 */
	xa_init_flags(&ctx->cpu_groups, XA_FLAGS_LOCK_BH);
	INIT_LIST_HEAD(&ctx->pinned_on);
	INIT_LIST_HEAD(&ctx->flexible_on);
}

/**
 * perf_groups_free - free a context's per-CPU buckets
 * @ctx: the context, no longer reachable
 *
 * Context: any (the RCU callback that frees a task context).
 */
void perf_groups_free(struct perf_event_context *ctx)
{
	struct perf_groups *g;
	unsigned long cpu;

	xa_for_each(&ctx->cpu_groups, cpu, g)
		kfree(g);
	xa_destroy(&ctx->cpu_groups);
}

static bool perf_ctx_is_task(struct perf_event_context *ctx)
{
	return ctx->cpu < 0;
}

/**
 * perf_groups_reserve - make sure a group bound to @cpu has its bucket
 * @ctx: the context the group will join
 * @cpu: the group's attr CPU (-1: any, which needs nothing)
 *
 * Context: process context, may sleep; before the group is linked.
 * Return: 0 or -ENOMEM.
 */
int perf_groups_reserve(struct perf_event_context *ctx, int cpu)
{
	struct perf_groups *g;
	int err;

	if (cpu < 0 || !perf_ctx_is_task(ctx) || xa_load(&ctx->cpu_groups, cpu))
		return 0;
	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	perf_groups_init_one(g, cpu);
	err = xa_insert_bh(&ctx->cpu_groups, cpu, g, GFP_KERNEL);
	if (err)
		kfree(g);
	/* inserted meanwhile by someone else is as good */
	return err == -EBUSY ? 0 : err;
}

/**
 * perf_groups_of - the bucket an event belongs in
 * @ctx: its context
 * @leader: the event (a group's members share their leader's CPU)
 *
 * Return: the bucket; reserved beforehand (perf_groups_reserve()).
 */
struct perf_groups *perf_groups_of(struct perf_event_context *ctx,
				   struct perf_event *leader)
{
	struct perf_groups *g;

	if (leader->cpu < 0 || !perf_ctx_is_task(ctx))
		return &ctx->groups;
	g = xa_load(&ctx->cpu_groups, leader->cpu);
	/* a caller that skipped perf_groups_reserve(): still correct, slower */
	if (WARN_ON_ONCE(!g))
		return &ctx->groups;
	return g;
}

static struct list_head *perf_groups_list(struct perf_groups *g, bool pinned)
{
	return pinned ? &g->pinned : &g->flexible;
}

/**
 * perf_group_hw_pmu - the PMU with counters a group competes for
 * @leader: the group leader
 *
 * The leader's, unless it is a software event and a member is not (a
 * group has at most one such PMU: perf_event_open() refuses a second).
 * Return: the PMU, or NULL for an all-software group.
 */
struct pmu *perf_group_hw_pmu(struct perf_event *leader)
{
	struct perf_event *sibling;

	if (!(leader->event_caps & PERF_EV_CAP_SOFTWARE))
		return leader->pmu;
	for_each_sibling_event(sibling, leader)
		if (!(sibling->event_caps & PERF_EV_CAP_SOFTWARE))
			return sibling->pmu;
	return NULL;
}

/**
 * perf_group_pmu - the PMU a group is scheduled and multiplexed on
 * @leader: the group leader
 *
 * A software leader with a hardware member competes for the member's
 * counters: that member's PMU decides whether the group fits.
 * Return: the PMU.
 */
struct pmu *perf_group_pmu(struct perf_event *leader)
{
	return perf_group_hw_pmu(leader) ?: leader->pmu;
}

/*
 * Count a group in (@delta 1) or out (-1) of ctx->nr_pinned_hw, the pinned
 * groups that compete for counters: a task whose context has none need
 * not move the CPU's flexible groups out of its way at sched-in.  A member
 * joining or leaving can change that, so the group is counted out before
 * and in again after (perf_group_edit_begin()).  ctx->lock held.
 */
static void perf_group_count(struct perf_event_context *ctx,
			     struct perf_event *leader, int delta)
{
	lockdep_assert_held(&ctx->lock);
	if (leader->attr.pinned && perf_group_hw_pmu(leader))
		ctx->nr_pinned_hw += delta;
}

/**
 * perf_group_link - add a leader to its context's index, last in order
 * @ctx: the context; ctx->lock held
 * @leader: the group leader (a new group, or a member left on its own)
 */
void perf_group_link(struct perf_event_context *ctx, struct perf_event *leader)
{
	lockdep_assert_held(&ctx->lock);
	leader->group_seq = ++ctx->group_seq;
	list_add_tail(&leader->group_entry,
		      perf_groups_list(perf_groups_of(ctx, leader),
				       leader->attr.pinned));
	perf_group_count(ctx, leader, 1);
}

/**
 * perf_group_unlink - take a leader out of the index
 * @ctx: the context; ctx->lock held
 * @leader: the group leader; its group is off the PMUs
 */
void perf_group_unlink(struct perf_event_context *ctx,
		       struct perf_event *leader)
{
	lockdep_assert_held(&ctx->lock);
	perf_group_count(ctx, leader, -1);
	list_del_init(&leader->group_entry);
}

/**
 * perf_group_edit_begin - a member is about to join or leave a group
 * @ctx: the context; ctx->lock held, and on its CPU if it is active
 * @leader: the group leader
 *
 * A member can change what the group competes for (perf_group_hw_pmu()):
 * the group is counted out of ctx->nr_pinned_hw and, when it is on and
 * holds its PMU as an exclusive group, gives the PMU back, so that
 * perf_group_edit_end() settles both for the group as it is after.
 * Without that, a software-led exclusive group whose one hardware member
 * left while it was on would hold that PMU of this CPU for good.
 * Return: whether the group held a PMU; pass it to perf_group_edit_end().
 */
bool perf_group_edit_begin(struct perf_event_context *ctx,
			   struct perf_event *leader)
{
	lockdep_assert_held(&ctx->lock);
	perf_group_count(ctx, leader, -1);
	return !list_empty(&leader->group_on_entry) &&
	       perf_exclusive_hold(leader, false);
}

/**
 * perf_group_edit_end - a member joined or left a group
 * @ctx: the context; ctx->lock held, and on its CPU if it is active
 * @leader: the group leader
 * @held: what perf_group_edit_begin() returned
 *
 * Counts the group in again and, if it held a PMU before, lets it hold
 * its PMU now, if it still competes for one.
 */
void perf_group_edit_end(struct perf_event_context *ctx,
			 struct perf_event *leader, bool held)
{
	lockdep_assert_held(&ctx->lock);
	perf_group_count(ctx, leader, 1);
	if (held)
		perf_exclusive_hold(leader, true);
}

/**
 * perf_group_set_on - note that a group went on, or came off, the PMUs
 * @ctx: the context; ctx->lock held
 * @leader: the group leader
 * @on: true when it went on
 */
void perf_group_set_on(struct perf_event_context *ctx,
		       struct perf_event *leader, bool on)
{
	lockdep_assert_held(&ctx->lock);
	if (!on)
		list_del_init(&leader->group_on_entry);
	else if (list_empty(&leader->group_on_entry))
		list_add_tail(&leader->group_on_entry, leader->attr.pinned ?
			      &ctx->pinned_on : &ctx->flexible_on);
	perf_exclusive_hold(leader, on);
}

/**
 * perf_groups_here - the bucket of groups bound to this CPU
 * @ctx: the context; ctx->lock held, IRQs off
 *
 * A task mostly runs where it last ran, and every sched-in and side-band
 * walk asks this, so the last bucket found is kept in ctx->groups_here:
 * one pointer, read and written whole, whose bucket names its own CPU.
 * Two CPUs can hold ctx->lock for the same context one after the other
 * (a CPU context is only ever on its CPU; a task context moves with its
 * task), so a kept bucket of another CPU only costs a lookup.  A bucket never changes
 * CPU and lives as long as the context, so a kept one is never stale.
 *
 * Return: the bucket, or NULL when the context has none for this CPU.
 */
struct perf_groups *perf_groups_here(struct perf_event_context *ctx)
{
	int cpu = smp_processor_id();
	struct perf_groups *g = READ_ONCE(ctx->groups_here);

	lockdep_assert_held(&ctx->lock);
	if (g && g->cpu == cpu)
		return g;
	if (xa_empty(&ctx->cpu_groups))
		return NULL;
	g = xa_load(&ctx->cpu_groups, cpu);
	if (g)
		WRITE_ONCE(ctx->groups_here, g);
	return g;
}

/**
 * perf_group_iter_start - walk the groups that may run on this CPU
 * @it: the iterator
 * @ctx: the context; ctx->lock held, IRQs off
 * @pinned: the pinned groups, or the flexible ones
 *
 * perf_group_iter_next() returns them in scheduling order; the group it
 * returned may be unlinked before the next call.
 */
void perf_group_iter_start(struct perf_group_iter *it,
			   struct perf_event_context *ctx, bool pinned)
{
	struct perf_groups *g = perf_groups_here(ctx);

	lockdep_assert_held(&ctx->lock);
	it->head[0] = perf_groups_list(&ctx->groups, pinned);
	it->pos[0] = it->head[0]->next;
	if (g) {
		it->head[1] = perf_groups_list(g, pinned);
		it->pos[1] = it->head[1]->next;
	} else {
		it->head[1] = NULL;
		it->pos[1] = NULL;
	}
}

/**
 * perf_group_iter_next - the next group in scheduling order
 * @it: the iterator
 * Return: a leader, or NULL at the end.
 */
struct perf_event *perf_group_iter_next(struct perf_group_iter *it)
{
	struct perf_event *a = NULL, *b = NULL;

	if (it->pos[0] != it->head[0])
		a = list_entry(it->pos[0], struct perf_event, group_entry);
	if (it->head[1] && it->pos[1] != it->head[1])
		b = list_entry(it->pos[1], struct perf_event, group_entry);
	if (a && (!b || a->group_seq < b->group_seq)) {
		it->pos[0] = it->pos[0]->next;
		return a;
	}
	if (b)
		it->pos[1] = it->pos[1]->next;
	return b;
}

/**
 * perf_group_rotate - send a context's first running flexible group of
 *	@pmu to the back of the order
 * @ctx: the context; ctx->lock held, its flexible groups of @pmu still on
 *	the PMUs (the caller takes them off next)
 * @pmu: the PMU being multiplexed
 *
 * The group that went on first has had its turn; the next sched-in starts
 * with the one after it.  When none of @pmu's groups is running, nothing
 * had a turn and the order stays.
 */
void perf_group_rotate(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event *leader;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(leader, &ctx->flexible_on, group_on_entry) {
		if (perf_group_pmu(leader) != pmu)
			continue;
		leader->group_seq = ++ctx->group_seq;
		list_move_tail(&leader->group_entry,
			       perf_groups_list(perf_groups_of(ctx, leader),
						false));
		return;
	}
}
