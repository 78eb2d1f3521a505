// SPDX-License-Identifier: GPL-2.0
/*
 * Waking an event's readers, and what an overflow defers.
 *
 * Records are written and overflows happen in any context, NMI included,
 * often under ctx->lock (a raw spinlock): neither may take a wait queue's
 * lock or send a signal there.  They set a flag on the event and queue its
 * irq_work (perf_event_queue_wakeup(), perf_event_disable_inatomic());
 * the irq_work (perf_pending_work()) runs in hard IRQ on the same CPU and
 * does the rest: disables the event, wakes poll() on every event sharing
 * its buffer, and sends SIGIO to a fasync owner.  The whole path is in
 * this file: a record that crosses the watermark (rb_output.c) ends up
 * here through perf_event_output_wakeup().
 */
#include <linux/poll.h>

#include "rb.h"
#include "wakeup.h"

/**
 * perf_event_output_wakeup - a buffer has new data for its readers
 * @event: the event whose record crossed the wakeup threshold
 * @rb: its buffer
 *
 * Context: any, including NMI.
 */
void perf_event_output_wakeup(struct perf_event *event, struct perf_buffer *rb)
{
	atomic_set(&rb->poll, EPOLLIN | EPOLLRDNORM);
	if (*perf_event_fasync(event) && !READ_ONCE(event->pending_kill))
		WRITE_ONCE(event->pending_kill, POLL_IN);
	perf_event_queue_wakeup(event);
}

/**
 * perf_pending_work - the event's irq_work: what an overflow could not do
 *	where it happened
 * @work: event->pending_irq
 *
 * Context: hard IRQ (irq_work) on the CPU that queued it.
 */
void perf_pending_work(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);

	/*
	 * Queued on the CPU the event overflowed on.  If it has been taken
	 * off since, perf_event_sched_out() applied the disable already.
	 */
	if (READ_ONCE(event->pending_disable) &&
	    READ_ONCE(event->oncpu) == smp_processor_id()) {
		WRITE_ONCE(event->pending_disable, 0);
		perf_event_disable_local(event);
	}
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}
}

/**
 * perf_event_queue_wakeup - wake @event's pollers from atomic context
 * @event: the event
 *
 * Context: any, including NMI and under ctx->lock (a raw spinlock, inside
 * which the wait queue's lock may not be taken).
 */
void perf_event_queue_wakeup(struct perf_event *event)
{
	WRITE_ONCE(event->pending_wakeup, 1);
	irq_work_queue(&event->pending_irq);
}

/**
 * perf_event_disable_inatomic - disable an event from any context
 * @event: the event
 *
 * Context: any, including NMI; the work is deferred to an irq_work on this
 * CPU.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_irq);
}

/**
 * perf_event_rb_poll - what poll() reports from @event's buffer
 * @event: the event
 *
 * Reading the readiness clears it, as the next wakeup sets it again.
 * Return: EPOLLIN | EPOLLRDNORM after a wakeup, else 0; EPOLLHUP when the
 * event has no buffer at all.
 */
__poll_t perf_event_rb_poll(struct perf_event *event)
{
	struct perf_buffer *rb;
	__poll_t ret = EPOLLHUP;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb)
		ret = atomic_xchg(&rb->poll, 0);
	rcu_read_unlock();
	return ret;
}

/*
 * Wake every poller of the buffer @event writes to; false when @event has
 * no buffer (then it has nobody but its own pollers).  Process or IRQ
 * context: the wait queues' locks are taken.
 */
static bool perf_event_wakeup_rb(struct perf_event *event)
{
	struct perf_event *reader;
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb) {
		list_for_each_entry_rcu(reader, &rb->event_list, rb_entry)
			wake_up_all(&reader->waitq);
	}
	rcu_read_unlock();
	return rb;
}

/**
 * perf_event_wakeup - wake poll() and SIGIO waiters
 * @event: the event
 *
 * Context: process or IRQ context, not under ctx->lock (use
 * perf_event_queue_wakeup() there).
 */
void perf_event_wakeup(struct perf_event *event)
{
	int kill = READ_ONCE(event->pending_kill);

	/* pollers of every event sharing the buffer, or just this one */
	if (!perf_event_wakeup_rb(event))
		wake_up_all(&event->waitq);
	if (kill) {
		WRITE_ONCE(event->pending_kill, 0);
		kill_fasync(perf_event_fasync(event), SIGIO, kill);
	}
}
