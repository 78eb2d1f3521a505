// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs with a scope: one block of counters serving several CPUs, such as
 * a package's uncore, an IOMMU or a DMA engine (struct pmu::scope).
 *
 * Such a PMU's events are CPU events like any other, but one event per
 * instance is enough, and user space must know which CPU to open it on.
 * For each scope the core therefore picks one online CPU per instance
 * (per core, die, cluster, package, or one for the machine) and shows the
 * picks as the PMU's sysfs "cpumask"; `perf stat -a` opens only there.
 * When a picked CPU goes offline, another online CPU of its instance is
 * picked and the events in the leaving CPU's context move to the new one
 * (perf_pmu_migrate_context()), so a system-wide count survives CPU
 * hotplug.  An instance whose last CPU leaves has no pick until one comes
 * back; opening an event there fails with -ENODEV, as upstream's does.
 *
 * The picks change only in the hotplug callbacks, which the hotplug lock
 * serialises, and on the CPU concerned.  Readers (sysfs, event creation)
 * read them without a lock, like cpu_online_mask, and may see either pick
 * across a change.
 *
 * A move keeps every event's state, times and group, and is done with
 * both contexts' mutexes held, the only time an event changes context:
 * paths that lock an event's context from the event use
 * perf_event_ctx_lock() to find the context it is in after the move.
 * Unlike upstream's, a disabled event stays disabled when it moves.
 */
#include <linux/cpumask.h>
#include <linux/topology.h>

#include "context.h"
#include "control.h"
#include "groups.h"
#include "pmu.h"
#include "scope.h"

/* the picked CPUs of each scope; [PERF_PMU_SCOPE_NONE] is unused */
static struct cpumask perf_scope_picks[PERF_PMU_MAX_SCOPE];
static bool perf_scope_started;

/* The CPUs of @cpu's instance of @scope: they share one PMU instance. */
static const struct cpumask *perf_scope_span(unsigned int scope, int cpu)
{
	/* from the widest scope down; the package's mask is "core" */
	if (scope == PERF_PMU_SCOPE_SYS_WIDE)
		return cpu_online_mask;
	if (scope == PERF_PMU_SCOPE_PKG)
		return topology_core_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_DIE)
		return topology_die_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CLUSTER)
		return topology_cluster_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CORE)
		return topology_sibling_cpumask(cpu);
	return NULL;
}

/**
 * perf_scope_pick - the CPU that carries the events of @cpu's instance
 * @scope: a PERF_PMU_SCOPE_* other than NONE
 * @cpu: any CPU of the instance
 *
 * Return: the picked CPU, or nr_cpu_ids when the instance has none.
 */
unsigned int perf_scope_pick(unsigned int scope, int cpu)
{
	const struct cpumask *span;

	if (scope == PERF_PMU_SCOPE_NONE || scope >= PERF_PMU_MAX_SCOPE)
		return nr_cpu_ids;
	span = perf_scope_span(scope, cpu);
	return cpumask_any_and(&perf_scope_picks[scope], span);
}

/**
 * perf_scope_show_cpumask - the sysfs "cpumask" of a PMU with a scope
 * @pmu: the PMU
 * @buf: the sysfs page
 *
 * Return: bytes written.
 */
ssize_t perf_scope_show_cpumask(struct pmu *pmu, char *buf)
{
	if (pmu->scope == PERF_PMU_SCOPE_NONE ||
	    pmu->scope >= PERF_PMU_MAX_SCOPE)
		return 0;
	return cpumap_print_to_pagebuf(true, buf,
				       &perf_scope_picks[pmu->scope]);
}

/**
 * perf_scope_cpu_up - pick @cpu for each instance of it that has no pick
 * @cpu: the CPU coming online, which runs this
 *
 * The boot CPU comes first, before the topology is known: it is picked
 * for every scope, and the others pick themselves as their instances
 * turn out to be new.
 *
 * Context: the CPU's hotplug callback, or the boot CPU at perf init.
 */
void perf_scope_cpu_up(unsigned int cpu)
{
	unsigned int scope;

	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE;
	     scope++) {
		const struct cpumask *span = perf_scope_span(scope, cpu);

		if (!perf_scope_started ||
		    (!cpumask_empty(span) &&
		     cpumask_any_and(&perf_scope_picks[scope], span) >=
		     nr_cpu_ids))
			cpumask_set_cpu(cpu, &perf_scope_picks[scope]);
	}
	perf_scope_started = true;
}

struct perf_scope_handover {
	unsigned int	cpu;
	unsigned int	to[PERF_PMU_MAX_SCOPE];
};

static void perf_scope_move_pmu(struct pmu *pmu, void *data)
{
	struct perf_scope_handover *h = data;

	if (pmu->scope == PERF_PMU_SCOPE_NONE ||
	    pmu->scope >= PERF_PMU_MAX_SCOPE ||
	    h->to[pmu->scope] >= nr_cpu_ids)
		return;
	perf_pmu_migrate_context(pmu, h->cpu, h->to[pmu->scope]);
}

/**
 * perf_scope_cpu_down - hand @cpu's picks and their events over
 * @cpu: the CPU going offline, which runs this while still online
 *
 * Context: the CPU's hotplug callback, process context; sleeps.
 */
void perf_scope_cpu_down(unsigned int cpu)
{
	struct perf_scope_handover h = { .cpu = cpu };
	bool moving = false;
	unsigned int scope;

	might_sleep();
	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE;
	     scope++) {
		h.to[scope] = nr_cpu_ids;
		if (!cpumask_test_and_clear_cpu(cpu, &perf_scope_picks[scope]))
			continue;
		h.to[scope] = cpumask_any_but(perf_scope_span(scope, cpu), cpu);
		if (h.to[scope] < nr_cpu_ids) {
			cpumask_set_cpu(h.to[scope], &perf_scope_picks[scope]);
			moving = true;
		}
	}
	if (moving)
		perf_pmu_for_each(perf_scope_move_pmu, &h);
}

/*
 * The next group of @src after @pos (NULL: from the start) whose PMU is
 * @pmu.  src->mutex held, which keeps event_list as it is but for what
 * the caller lifts.
 */
static struct perf_event *perf_scope_next_group(struct perf_event_context *src,
						struct pmu *pmu,
						struct perf_event *pos)
{
	lockdep_assert_held(&src->mutex);
	pos = list_prepare_entry(pos, &src->event_list, event_entry);
	list_for_each_entry_continue(pos, &src->event_list, event_entry) {
		if (pos->group_leader == pos && perf_group_pmu(pos) == pmu)
			return pos;
	}
	return NULL;
}

/* Point @event at its new context; both contexts' mutexes held. */
static void perf_scope_retarget(struct perf_event *event,
				struct perf_event_context *dst)
{
	struct perf_event_context *src = event->ctx;

	lockdep_assert_held(&src->mutex);
	lockdep_assert_held(&dst->mutex);
	perf_get_ctx(dst);
	WRITE_ONCE(event->cpu, dst->cpu);
	WRITE_ONCE(event->ctx, dst);
	perf_put_ctx(src);
}

/**
 * perf_pmu_migrate_context - move a PMU's events from one CPU to another
 * @pmu: the PMU
 * @src_cpu: the CPU whose context holds the events
 * @dst_cpu: the CPU to move them to, which must be online
 *
 * Every group of @src_cpu's context that schedules on @pmu moves, whole,
 * to @dst_cpu's context: members, states, counts and times go with it.
 * Drivers of uncore-like PMUs call this when the CPU that carries their
 * events goes offline; for a PMU with a scope the core does it itself.
 *
 * Context: process context, may sleep; not under either context's mutex.
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu(perf_cpu_ctx, src_cpu).ctx;
	struct perf_event_context *dst = &per_cpu(perf_cpu_ctx, dst_cpu).ctx;
	struct perf_event *leader, *tmp, *sibling, *prev = NULL;
	LIST_HEAD(moving);

	might_sleep();
	if (src_cpu == dst_cpu)
		return;

	/* two CPU contexts: take them in address order */
	if (src < dst) {
		mutex_lock(&src->mutex);
		mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&dst->mutex);
		mutex_lock_nested(&src->mutex, SINGLE_DEPTH_NESTING);
	}

	/*
	 * One pass over the context: each search resumes after the event
	 * before the group just lifted.  That event stays (members follow
	 * their leader in event_list), but start over if it ever did not.
	 * A lifted leader is in no group index, so its group_entry is free:
	 * it holds the leader on this list until it lands.
	 */
	while ((leader = perf_scope_next_group(src, pmu, prev))) {
		prev = list_is_first(&leader->event_entry, &src->event_list) ?
		       NULL : list_prev_entry(leader, event_entry);
		perf_group_lift(leader);
		list_add_tail(&leader->group_entry, &moving);
		if (prev && !(prev->attach_state & PERF_ATTACH_CONTEXT))
			prev = NULL;
	}
	if (list_empty(&moving))
		goto out;

	/*
	 * A software member was on @src_cpu's event hash until it came off
	 * its PMU, and a lockless walk there may still hold it: let those
	 * walks finish before it joins @dst_cpu's hash.
	 */
	synchronize_rcu();

	list_for_each_entry_safe(leader, tmp, &moving, group_entry) {
		list_del_init(&leader->group_entry);
		perf_scope_retarget(leader, dst);
		for_each_sibling_event(sibling, leader)
			perf_scope_retarget(sibling, dst);
		perf_group_land(leader);
	}
out:
	mutex_unlock(&src->mutex);
	mutex_unlock(&dst->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);
