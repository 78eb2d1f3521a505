// SPDX-License-Identifier: GPL-2.0
/*
 * Group members that act on their group's AUX event (the leader, a
 * tracer's event with an AUX area):
 *
 *  - aux_output: the member's PMU writes its samples into the leader's
 *    trace (Intel PEBS records inside the PT stream); its PMU decides,
 *    through pmu::aux_output_match(), which tracers it can write into;
 *  - aux_pause / aux_resume: an overflow of the member pauses or resumes
 *    the leader's tracing (pmu::stop(PERF_EF_PAUSE) / start(PERF_EF_RESUME)),
 *    so that a trace covers only what lies between two events;
 *  - aux_sample_size: the member's samples carry the newest AUX data
 *    (the leader's pmu::snapshot_aux()).  Its sample path is not built:
 *    no PMU of ours has snapshot_aux, so the link is refused (EINVAL),
 *    as for any leader without it.
 *
 * The member holds a reference to its leader in event->aux_event from
 * open (or inheritance) until it is freed.  When the leader leaves the
 * group first, the members that act on it go to ERROR: they have nothing
 * to act on any more, and only an enable brings them back (as members of
 * no group, acting on nothing).
 */
#include "aux.h"
#include "event.h"
#include "sched.h"
#include "time.h"

/**
 * perf_aux_needs_leader - does @attr ask for an AUX-event leader?
 * @attr: the attributes
 */
bool perf_aux_needs_leader(const struct perf_event_attr *attr)
{
	return attr->aux_output || attr->aux_sample_size ||
	       attr->aux_pause || attr->aux_resume;
}

/**
 * perf_aux_link - tie a new member to the AUX event leading its group
 * @event: the new event, asking for aux_output, aux_pause, aux_resume or
 *	aux_sample_size
 * @leader: its group leader, or NULL
 *
 * Context: process context, the leader's ctx->mutex held (the group does
 * not change).
 * Return: 0, or -EINVAL when the leader cannot serve what @event asks.
 */
int perf_aux_link(struct perf_event *event, struct perf_event *leader)
{
	const struct perf_event_attr *attr = &event->attr;

	if (!leader || !leader->pmu->setup_aux)
		return -EINVAL;
	/* samples into the trace, or a copy of the trace in samples */
	if (attr->aux_output && attr->aux_sample_size)
		return -EINVAL;
	if (attr->aux_output && (!event->pmu->aux_output_match ||
				 !event->pmu->aux_output_match(leader)))
		return -EINVAL;
	if ((attr->aux_pause || attr->aux_resume) &&
	    !(leader->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		return -EINVAL;
	if (attr->aux_sample_size && !leader->pmu->snapshot_aux)
		return -EINVAL;
	perf_event_ref(leader);
	event->aux_event = leader;
	return 0;
}

/**
 * perf_aux_inherit_link - the copy of a member acts on the copy of its leader
 * @orig: the member being copied
 * @copy: its copy
 * @orig_leader: the original group's leader
 * @copy_leader: the copy's leader
 */
void perf_aux_inherit_link(struct perf_event *orig, struct perf_event *copy,
			   struct perf_event *orig_leader,
			   struct perf_event *copy_leader)
{
	if (orig->aux_event != orig_leader)
		return;
	perf_event_ref(copy_leader);
	copy->aux_event = copy_leader;
}

/**
 * perf_aux_leader_leaves - the members acting on @leader lose it
 * @leader: a group leader leaving its context
 * @member: one of its former members, no longer in the group
 * @ctx: the context; ctx->lock held, on its CPU if it is active
 *
 * Return: true when @member acted on @leader: it is now off, in ERROR.
 */
bool perf_aux_leader_leaves(struct perf_event *leader,
			    struct perf_event *member,
			    struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (member->aux_event != leader)
		return false;
	member->aux_event = NULL;
	/* never the last reference: whoever removes @leader holds one */
	atomic_long_dec(&leader->refcount);
	perf_event_sched_out(member, ctx);
	perf_event_set_state(member, PERF_EVENT_STATE_ERROR);
	return true;
}

/**
 * perf_aux_release - a freed member lets go of its leader
 * @event: the event being freed
 *
 * Context: process context.
 */
void perf_aux_release(struct perf_event *event)
{
	struct perf_event *leader = event->aux_event;

	if (!leader)
		return;
	event->aux_event = NULL;
	perf_event_unref(leader);
}

/* the tracer's own pause state: also set at open by aux_start_paused */
static void perf_aux_set_paused(struct perf_event *leader, bool pause)
{
	if (!!leader->hw.aux_paused == pause)
		return;
	leader->hw.aux_paused = pause;
	if (pause)
		leader->pmu->stop(leader, PERF_EF_PAUSE);
	else
		leader->pmu->start(leader, PERF_EF_RESUME);
}

static DEFINE_PER_CPU(int, perf_aux_pausing);

/**
 * perf_aux_pause - an overflow of @event pauses or resumes its AUX leader
 * @event: a member with aux_pause or aux_resume
 * @pause: pause (true) or resume (false)
 *
 * The leader is paused or resumed only while it has a buffer to trace
 * into (an inherited copy's is its parent's).  An overflow of another member
 * that interrupts the pause (an NMI) leaves the leader alone, as the
 * driver's callbacks do not nest.
 *
 * Context: the overflow, IRQs off or NMI, on the event's CPU.
 */
void perf_aux_pause(struct perf_event *event, bool pause)
{
	struct perf_event *leader = READ_ONCE(event->aux_event);
	unsigned long flags;

	if (!leader || !rcu_access_pointer((leader->parent ?: leader)->rb))
		return;
	local_irq_save(flags);
	if (!this_cpu_read(perf_aux_pausing)) {
		this_cpu_write(perf_aux_pausing, 1);
		barrier();
		perf_aux_set_paused(leader, pause);
		barrier();
		this_cpu_write(perf_aux_pausing, 0);
	}
	local_irq_restore(flags);
}
