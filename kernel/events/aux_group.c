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
 *  - aux_sample_size: the member's samples carry the newest AUX data,
 *    up to that many bytes, which the leader's pmu::snapshot_aux() copies
 *    into the sample (PERF_SAMPLE_AUX); a leader without it is refused.
 *
 * The member holds a reference to its leader in event->aux_event from
 * open (or inheritance) until it is freed.  When the leader leaves the
 * group first, the members that act on it go to ERROR: they have nothing
 * to act on any more, and only an enable brings them back (as members of
 * no group, acting on nothing).
 */
#include "aux.h"
#include "event.h"
#include "rb.h"
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

/*
 * A CPU is inside a driver callback of an AUX leader (a pause, a resume
 * or a snapshot), which do not nest: an NMI overflow that comes in the
 * middle leaves the leader alone.
 */
static DEFINE_PER_CPU(int, perf_aux_in_driver);

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
	if (!this_cpu_read(perf_aux_in_driver)) {
		this_cpu_write(perf_aux_in_driver, 1);
		barrier();
		perf_aux_set_paused(leader, pause);
		barrier();
		this_cpu_write(perf_aux_in_driver, 0);
	}
	local_irq_restore(flags);
}

/*
 * The leader whose trace a sample of @event may copy now: on a PMU here,
 * with an AUX area of its own (an inherited copy writes into its
 * parent's, and so, as on upstream, has none to copy from).
 */
static struct perf_event *perf_aux_sampler(struct perf_event *event,
					   struct perf_buffer **rbp)
{
	struct perf_event *leader = READ_ONCE(event->aux_event);
	struct perf_buffer *rb;

	if (!leader || READ_ONCE(leader->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(leader->oncpu) != smp_processor_id())
		return NULL;
	rb = rcu_dereference(leader->rb);
	if (!rb || !READ_ONCE(rb->aux_nr_pages))
		return NULL;
	*rbp = rb;
	return leader;
}

/**
 * perf_aux_sample_size - how much AUX data a sample of @event carries
 * @event: a member with aux_sample_size, sampling
 * @room: bytes the record may still grow by (its size is a u16)
 *
 * aux_sample_size bytes, fewer when the record or the leader's AUX area
 * has less room, in whole u64s; none when the leader is not on this CPU
 * or this CPU is inside one of its driver callbacks (an NMI in the
 * middle of a snapshot).  perf_aux_sample_output() writes exactly this.
 *
 * Context: the sample path, preemption off (IRQs off or NMI for
 * hardware events).
 * Return: the size of the AUX data, a multiple of 8.
 */
u32 perf_aux_sample_size(struct perf_event *event, u32 room)
{
	struct perf_buffer *rb;
	u64 size = 0;

	lockdep_assert_preemption_disabled();
	if (this_cpu_read(perf_aux_in_driver))
		return 0;
	/* perf_sample_prepare() for a BPF program has no RCU section */
	rcu_read_lock();
	if (perf_aux_sampler(event, &rb))
		size = min3((u64)room, event->attr.aux_sample_size,
			    (u64)rb_aux_size(rb));
	rcu_read_unlock();
	return round_down(size, sizeof(u64));
}

/**
 * perf_aux_sample_output - write the AUX data of a sample
 * @event: the sampling member
 * @handle: the sample's handle, at the AUX data
 * @size: what perf_aux_sample_size() gave
 *
 * The leader's driver copies its newest @size bytes of trace through
 * @handle.  Whatever it does not write (it had less, or the leader left
 * since the sample was sized) is zeros, so the record always holds the
 * size it announced.
 *
 * Context: as perf_aux_sample_size(), on the same CPU since then, inside
 * the sample's rcu_read_lock().
 */
void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle, u32 size)
{
	static const u64 zeros[8];
	struct perf_event *leader;
	struct perf_buffer *rb;
	unsigned long flags;
	long done = 0;

	local_irq_save(flags);
	leader = perf_aux_sampler(event, &rb);
	if (leader && !this_cpu_read(perf_aux_in_driver)) {
		this_cpu_write(perf_aux_in_driver, 1);
		barrier();
		done = leader->pmu->snapshot_aux(leader, handle, size);
		barrier();
		this_cpu_write(perf_aux_in_driver, 0);
	}
	local_irq_restore(flags);

	/* a driver that wrote more has overwritten what follows: say so */
	if (WARN_ON_ONCE(done > size) || done < 0)
		done = 0;
	while (done < size) {
		u32 n = min_t(u32, size - done, sizeof(zeros));

		perf_output_copy(handle, zeros, n);
		done += n;
	}
}
