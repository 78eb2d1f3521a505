// SPDX-License-Identifier: GPL-2.0
/*
 * A ring buffer that many CPUs write at once (PERF_FLAG_SHARED_BUFFER, our
 * extension W5): the buffer of an inherited or process-wide event with
 * cpu == -1, whose copies run in threads on every CPU.
 *
 * The reader's protocol is the documented one, unchanged: records lie
 * whole, in the order their space was reserved, below data_head, and
 * data_tail gives space back.  What changes is how writers agree:
 *
 *   sh_state holds the reserved head (bytes, modulo 2^48) shifted left by
 *   16, and the number of writers between reserving and finishing in the
 *   low 16 bits.  Reserving is one cmpxchg that moves the head and counts
 *   the writer in; finishing is one that counts it out.  The writer whose
 *   finish leaves no writer in flight knows that every byte below the head
 *   it saw in that same word is written, since each of those bytes was
 *   reserved by a writer that has since finished: it publishes that head.
 *   Publishers race, so data_head only ever moves forward (a cmpxchg on it
 *   that refuses to go back).
 *
 * No writer waits for another, so NMIs on any CPU may write.  While
 * writers keep overlapping, data_head waits for the first moment none is
 * in flight: a record becomes visible late, never early.  Measured against
 * per-CPU sub-buffers in one mapping, this keeps every existing reader
 * working and costs two cmpxchgs on one cache line per record (see
 * design.rst, "Shared buffers").
 *
 * Needs a 64-bit long for the state word: CONFIG_64BIT only (the open
 * refuses the flag elsewhere).
 */
#include <linux/atomic.h>
#include <linux/mm.h>

#include "rb.h"
#include "sample.h"
#include "wakeup.h"

#define SH_WRITER	1UL
#define SH_WRITERS	0xffffUL
#define SH_HEAD_SHIFT	16
#define SH_HEAD_MASK	(~0UL >> SH_HEAD_SHIFT)

static inline unsigned long sh_head(unsigned long state)
{
	return state >> SH_HEAD_SHIFT;
}

/* @to lies ahead of @from on the 48-bit circle of heads */
static inline unsigned long sh_ahead(unsigned long from, unsigned long to)
{
	return (to - from) & SH_HEAD_MASK;
}

/* Advance data_head to @head unless another publisher got further. */
static void sh_publish(struct perf_buffer *rb, unsigned long head)
{
	u64 cur = READ_ONCE(rb->user_page->data_head);
	unsigned long step;

	do {
		step = sh_ahead(cur, head);
		/* already there, or behind a later publisher's head */
		if (!step || step > SH_HEAD_MASK / 2)
			return;
	} while (!try_cmpxchg64(&rb->user_page->data_head, &cur, cur + step));
}

/*
 * One more watermark's worth written since the wakeup count last moved:
 * move it, once, however many writers see it together.
 */
static void sh_watermark(struct perf_buffer *rb, unsigned long written)
{
	long w = atomic_long_read(&rb->sh_wakeup);

	if (sh_ahead(w, written) > rb->watermark)
		atomic_long_try_cmpxchg(&rb->sh_wakeup, &w,
					(w + rb->watermark) & SH_HEAD_MASK);
}

/**
 * rb_shared_begin - reserve a record in a shared buffer
 * @handle: filled in for perf_output_copy() and rb_shared_end()
 * @rb: the buffer, shared
 * @data: the sample (or sample_id_all description), or NULL
 * @event: the event the records belong to (the original, not a copy)
 * @size: the record's size in bytes
 *
 * A PERF_RECORD_LOST for earlier losses goes ahead of the record, as in a
 * buffer of one CPU.
 *
 * Context: any, including NMI; in an RCU read-side section that the
 * caller ends after rb_shared_end(), or at once on failure.
 * Return: 0, or -ENOSPC (full: the loss is counted).
 */
int rb_shared_begin(struct perf_output_handle *handle, struct perf_buffer *rb,
		    struct perf_sample_data *data, struct perf_event *event,
		    unsigned int size)
{
	struct rb_lost_record lost_rec;
	struct perf_sample_data lost_data;
	unsigned long state, next, head, tail;
	bool report_lost;

	/*
	 * Preemption stays off from reserving to finishing, as for a buffer
	 * of one CPU: a writer scheduled out in between would hold data_head
	 * back for every CPU until it ran again.
	 */
	preempt_disable();
	report_lost = atomic_long_read(&rb->sh_lost);
	if (unlikely(report_lost)) {
		data = rb_lost_prepare(&lost_rec, data, &lost_data, event);
		size += lost_rec.header.size;
	}
	handle->event = event;
	handle->rb = rb;

	state = atomic_long_read(&rb->sh_state);
	do {
		head = sh_head(state);
		/* pairs with the reader's barrier before its data_tail store */
		tail = READ_ONCE(rb->user_page->data_tail);
		if (!rb->overwrite &&
		    rb_data_size(rb) - sh_ahead(tail, head) < size)
			goto full;
		if (WARN_ON_ONCE((state & SH_WRITERS) == SH_WRITERS))
			goto full;
		next = state + ((unsigned long)size << SH_HEAD_SHIFT) +
		       SH_WRITER;
	} while (!atomic_long_try_cmpxchg(&rb->sh_state, &state, next));

	sh_watermark(rb, sh_head(next));
	handle->page = (head >> PAGE_SHIFT) & (rb->nr_pages - 1);
	handle->addr = rb->data_pages[handle->page] + offset_in_page(head);
	handle->size = PAGE_SIZE - offset_in_page(head);
	handle->start = head;
	if (report_lost) {
		/* another writer may have reported them meanwhile: then 0 */
		rb_lost_put(handle, &lost_rec, data,
			    atomic_long_xchg(&rb->sh_lost, 0));
		handle->start += lost_rec.header.size;
	}
	return 0;

full:
	atomic_long_inc(&rb->sh_lost);
	atomic64_inc(&event->lost_samples);
	preempt_enable();
	return -ENOSPC;
}

/**
 * rb_shared_end - finish a record of a shared buffer; the last writer in
 * flight publishes the head and wakes the readers
 * @handle: the handle rb_shared_begin() filled in
 *
 * Only the publisher wakes anyone: a reader woken earlier would find
 * data_head where it was.  Every writer moves sh_wakeup (watermark,
 * wakeup_events) before it counts itself out, so the publisher, counting
 * itself out last, sees each of those moves.
 *
 * Context: any, including NMI; the CPU that began the record.
 */
void rb_shared_end(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	int wakeup_events = rb_wakeup_events(handle);
	unsigned long state, next;
	long wakeup;

	if (wakeup_events &&
	    !(atomic_long_inc_return(&rb->sh_samples) % wakeup_events))
		atomic_long_inc(&rb->sh_wakeup);

	/*
	 * Fully ordered: the record's bytes come before the publisher's
	 * data_head store, whichever CPU that publisher is on.
	 */
	state = atomic_long_read(&rb->sh_state);
	do {
		next = state - SH_WRITER;
	} while (!atomic_long_try_cmpxchg(&rb->sh_state, &state, next));
	if (!(next & SH_WRITERS)) {
		sh_publish(rb, sh_head(next));
		wakeup = atomic_long_read(&rb->sh_wakeup);
		if (atomic_long_xchg(&rb->sh_woken, wakeup) != wakeup)
			perf_event_output_wakeup(handle->event, rb);
	}
	preempt_enable();
}
