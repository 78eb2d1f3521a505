// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: which counter an event goes on.
 *
 * Every event has a set of counters that can count it: the general-purpose
 * ones unless the model restricts the event (struct x86_constraint), plus
 * the fixed-function counter that counts the same thing, if any. Placing a
 * set of events is a matching problem; we solve it greedily, placing the
 * events with the fewest choices first. That finds a placement whenever the
 * choices are nested (a restricted event's counters are a subset of an
 * unrestricted one's), which covers the constraints real models have; a
 * set it misses is multiplexed rather than refused, since the core retries
 * with fewer groups.
 *
 * Nothing here touches hardware; hw.c applies the result.
 */

#include <linux/bitops.h>
#include <linux/perf_event.h>

#include "pmu.h"

/* the first restriction of table @c that @config matches, or NULL */
static const struct x86_constraint *
x86_constraint_for(const struct x86_constraint *c, u64 config)
{
	for (; c && c->mask; c++) {
		if ((config & c->mask) == c->code)
			return c;
	}
	return NULL;
}

/**
 * x86_allowed_counters - the counters that can count an event select
 * @core: the PMU
 * @config: the event's control value (hw.config)
 *
 * Context: any; reads only boot-time tables.
 * Return: a set of counter indexes, possibly empty.
 */
u64 x86_allowed_counters(const struct x86_core *core, u64 config)
{
	const struct x86_constraint *c = core->constraints;
	u64 gp = core->gp, fixed = 0;

	if (core->ops->fixed_for) {
		fixed = core->ops->fixed_for(config);
		/*
		 * Event select 0 naming a fixed counter is that counter's
		 * pseudo-encoding: no general-purpose counter counts it, and
		 * on a CPU without that counter nothing does. Any other
		 * event select 0 is an ordinary (if useless) GP event.
		 */
		if (fixed && !(config & ARCH_PERFMON_EVENTSEL_EVENT))
			return fixed & core->fixed;
		fixed &= core->fixed;
	}

	c = x86_constraint_for(c, config);
	if (c)
		gp &= c->cntrs;
	return gp | fixed;
}

/**
 * x86_pdist_counters - where a precise_ip 3 event may go
 * @core: the PMU
 * @cntrs: the counters that can sample the event precisely
 *
 * precise_ip 3 asks for precise distribution: samples spread over the
 * instructions as the events are, which only some counters give
 * (@core->pdist_cntrs). A fixed counter has it for the one event it
 * counts, so an event a distributing fixed counter can count goes there
 * and nowhere else. A general-purpose counter with it has it for every
 * event, so where there is one, every other event goes there or cannot
 * be scheduled. Where there is neither, 3 means what 2 does.
 *
 * Context: any; pure.
 * Return: a set of counter indexes, possibly empty.
 */
u64 x86_pdist_counters(const struct x86_core *core, u64 cntrs)
{
	u64 fixed = GENMASK_ULL(63, INTEL_PMC_IDX_FIXED);
	u64 on_fixed = cntrs & core->pdist_cntrs & fixed;

	if (on_fixed)
		return on_fixed;
	if (core->pdist_cntrs & ~fixed)
		return cntrs & core->pdist_cntrs & ~fixed;
	return cntrs;
}

/**
 * x86_event_counters - the counters an event may go on
 * @core: the event's PMU
 * @event: an event of @core, its hw.config and hw.flags set
 *
 * Those that can count its event select, and of them only those the
 * branch recorder samples with for an event with a branch stack where the
 * recorder says (@core->branch_cntrs), and those that can log into it for
 * an event that asks for branch counters (@core->log_cntrs); for a precise event, only those
 * the PMU can also sample precisely with (its general-purpose ones as
 * @core->precise_constraints says, where they say), and for precise_ip 3
 * those of them x86_pdist_counters() leaves.
 *
 * Context: any; reads only boot-time tables and the event's own state.
 * Return: a set of counter indexes, possibly empty.
 */
u64 x86_event_counters(const struct x86_core *core, struct perf_event *event)
{
	u64 cntrs = x86_allowed_counters(core, event->hw.config);

	if ((event->hw.flags & X86_EVENT_FLAG_LBR) && core->branch_cntrs)
		cntrs &= core->branch_cntrs;
	if (event->hw.flags & X86_EVENT_FLAG_BR_CNTR)
		cntrs &= core->log_cntrs;
	if (event->hw.flags & X86_EVENT_FLAG_PEBS) {
		const struct x86_constraint *c =
			x86_constraint_for(core->precise_constraints,
					   event->hw.config);

		if (c)
			cntrs = (cntrs & ~core->gp) | (core->gp & c->cntrs);
		cntrs &= core->precise_cntrs;
		if (event->attr.precise_ip == 3)
			cntrs = x86_pdist_counters(core, cntrs);
	}
	return cntrs;
}

/* take one counter of @avail: a fixed one when possible, else the lowest */
static int x86_pick(u64 avail)
{
	u64 fixed = avail & GENMASK_ULL(63, INTEL_PMC_IDX_FIXED);

	return __ffs64(fixed ? fixed : avail);
}

/**
 * x86_assign - place events on counters
 * @allowed: for each event, the counters it may use
 * @n: the number of events
 * @busy: counters not available to any of them
 * @idx: out: the counter of each event, valid only on success
 *
 * The events with the fewest allowed counters are placed first (ties in
 * the order given), each on a free fixed counter if it may use one, else
 * on its lowest free general-purpose counter.
 *
 * Context: any; pure.
 * Return: 0 when every event got a counter, -EAGAIN otherwise.
 */
int x86_assign(u64 *allowed, int n, u64 busy, int *idx)
{
	int order[X86_NR_IDX];
	int i, j;

	if (n > X86_NR_IDX)
		return -EAGAIN;

	/* insertion sort by weight: n is at most a few dozen */
	for (i = 0; i < n; i++) {
		int w = hweight64(allowed[i]);

		for (j = i; j > 0 && hweight64(allowed[order[j - 1]]) > w; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}

	for (i = 0; i < n; i++) {
		int e = order[i];
		u64 avail = allowed[e] & ~busy;

		if (!avail)
			return -EAGAIN;
		idx[e] = x86_pick(avail);
		busy |= BIT_ULL(idx[e]);
	}
	return 0;
}

/*
 * Whether @m takes a counter when its group is scheduled: members of
 * another hardware PMU never share a group with ours, software members
 * take no counter, and a sibling that is off or dead is not scheduled.
 * The leader always counts, whatever its state: enabling it schedules
 * the group.
 */
static int x86_member_counts(struct perf_event *event, struct perf_event *m)
{
	if (is_software_event(m) || m->pmu->task_ctx_nr == perf_sw_context)
		return 0;
	if (m->pmu != event->pmu)
		return -EINVAL;
	if (m != m->group_leader && m->state <= PERF_EVENT_STATE_OFF)
		return 0;
	return 1;
}

/**
 * x86_validate_group - refuse a group that could never be scheduled
 * @event: the new event, already initialised; its group_leader is set
 *
 * Places the group, with @event in it, on an otherwise empty PMU. A group
 * that does not fit there never will, so perf_event_open() fails now
 * instead of leaving a group that never counts.
 *
 * Context: process context, from event_init before @event joins the group.
 * Return: 0, or -EINVAL.
 */
int x86_validate_group(struct perf_event *event)
{
	const struct x86_core *core = x86_event_core(event);
	struct perf_event *leader = event->group_leader;
	struct perf_event *m;
	u64 allowed[X86_NR_IDX];
	int idx[X86_NR_IDX];
	int n = 0, ret;

	ret = x86_member_counts(event, leader);
	if (ret < 0)
		return ret;
	if (ret)
		allowed[n++] = x86_event_counters(core, leader);

	if (leader != event) {
		for_each_sibling_event(m, leader) {
			ret = x86_member_counts(event, m);
			if (ret < 0)
				return ret;
			if (!ret)
				continue;
			if (n == X86_NR_IDX)
				return -EINVAL;
			allowed[n++] = x86_event_counters(core, m);
		}
		if (n == X86_NR_IDX)
			return -EINVAL;
		allowed[n++] = x86_event_counters(core, event);
	}

	return x86_assign(allowed, n, 0, idx) ? -EINVAL : 0;
}
