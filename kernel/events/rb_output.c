// SPDX-License-Identifier: GPL-2.0
/*
 * Writing records into a ring buffer (rb_buffer.c has the buffer).
 *
 * Writers: perf_output_begin*() reserve space with a cmpxchg on rb->head,
 * so that an NMI may nest inside an IRQ which nests inside a task writing
 * to the same buffer on the same CPU.  Only the outermost writer publishes
 * data_head, and only after every nested record is complete: rb->nest
 * counts the writers in flight.  Buffers are written only from the CPU
 * their events run on, so head, nest and the counters are local_t.  The
 * exception, a buffer shared by writers on many CPUs, is rb_shared.c's.
 */
#include <linux/mm.h>

#include "rb.h"
#include "sample.h"
#include "wakeup.h"

static bool rb_has_space(unsigned long head, unsigned long tail,
			 unsigned long size, unsigned int len, bool backward)
{
	/* both directions: the free space lies between head and tail */
	if (!backward)
		return size - (head - tail) >= len;
	return size - (tail - head) >= len;
}

/*
 * A writer is done with its record: make it visible to user space.
 *
 * Writers on one CPU only ever nest (a task's record interrupted by an
 * IRQ's, that by an NMI's), so the writer that began first finishes last.
 * An inner writer leaves data_head alone: the outer one has older bytes
 * still being written below the new head.  The outermost writer publishes
 * the head as it finds it, holding its place in rb->nest until the store
 * is done so that writers arriving meanwhile leave it to us; having let
 * go, it checks whether one of them moved the head after our read, and
 * if so publishes again on its behalf.
 */
static void rb_publish(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	if (local_read(&rb->nest) > 1) {
		local_dec(&rb->nest);
		preempt_enable();
		return;
	}
	for (;;) {
		head = local_read(&rb->head);
		/* the records' bytes before the head that covers them */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, head);
		barrier();
		local_set(&rb->nest, 0);
		barrier();
		if (likely(head == local_read(&rb->head)))
			break;
		local_set(&rb->nest, 1);
	}

	if (handle->wakeup != local_read(&rb->wakeup))
		perf_event_output_wakeup(handle->event, handle->rb);
	preempt_enable();
}

static void rb_handle_seek(struct perf_output_handle *handle,
			   unsigned long offset)
{
	struct perf_buffer *rb = handle->rb;

	handle->page = (offset >> PAGE_SHIFT) & (rb->nr_pages - 1);
	handle->addr = rb->data_pages[handle->page] + offset_in_page(offset);
	handle->size = PAGE_SIZE - offset_in_page(offset);
}

/* a record that did not fit (or a paused buffer): count it for both */
static inline void rb_count_loss(struct perf_buffer *rb,
				 struct perf_event *event)
{
	if (rb->shared)
		atomic_long_inc(&rb->sh_lost);
	else
		local_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
}

/**
 * rb_lost_prepare - size the PERF_RECORD_LOST that goes ahead of a record
 * @rec: the record, its header.size set here (sample_id trailer included)
 * @data: the record's sample data, or NULL
 * @spare: sample data to use when @data is NULL
 * @event: the event the buffer belongs to
 *
 * Context: any, including NMI.
 * Return: the sample data for rb_lost_put().
 */
struct perf_sample_data *rb_lost_prepare(struct rb_lost_record *rec,
					 struct perf_sample_data *data,
					 struct perf_sample_data *spare,
					 struct perf_event *event)
{
	if (!data) {
		data = spare;
		perf_sample_data_init(data, 0, 0);
	}
	rec->header.size = sizeof(*rec);
	perf_event_header_init_id(&rec->header, data, event);
	return data;
}

/**
 * rb_lost_put - write the PERF_RECORD_LOST rb_lost_prepare() sized
 * @handle: at the start of the space reserved for it
 * @rec: the record
 * @data: what rb_lost_prepare() returned
 * @lost: the records it reports
 *
 * Context: any, including NMI.
 */
void rb_lost_put(struct perf_output_handle *handle, struct rb_lost_record *rec,
		 struct perf_sample_data *data, u64 lost)
{
	rec->header.type = PERF_RECORD_LOST;
	rec->header.misc = 0;
	rec->id = handle->event->id;
	rec->lost = lost;
	perf_output_put(handle, *rec);
	perf_event_output_id_sample(handle->event, handle, data);
}

static int rb_output_begin(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event, unsigned int size,
			   bool backward)
{
	struct rb_lost_record lost_rec;
	struct perf_sample_data lost_data;
	unsigned long old_head, new_head, tail, start, written;
	struct perf_buffer *rb;
	bool report_lost;

	/* inherited copies write to their original's buffer */
	event = event->parent ?: event;
	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (unlikely(!rb))
		goto out;
	if (unlikely(READ_ONCE(rb->paused))) {
		/* a mapping without data pages never holds records to lose */
		if (rb->nr_pages)
			rb_count_loss(rb, event);
		goto out;
	}
	if (unlikely(rb->shared)) {
		/* the RCU read side stays held until perf_output_end() */
		if (!rb_shared_begin(handle, rb, data, event, size))
			return 0;
		goto out;
	}

	/* report earlier losses ahead of this record */
	report_lost = local_read(&rb->lost);
	if (unlikely(report_lost)) {
		data = rb_lost_prepare(&lost_rec, data, &lost_data, event);
		size += lost_rec.header.size;
	}

	handle->event = event;
	handle->rb = rb;
	preempt_disable();
	local_inc(&rb->nest);
	handle->wakeup = local_read(&rb->wakeup);

	old_head = local_read(&rb->head);
	do {
		tail = READ_ONCE(rb->user_page->data_tail);
		/*
		 * The tail read is ordered before our writes into the space
		 * it frees by the control dependency on the check; it pairs
		 * with user space's barrier before it stores data_tail.
		 */
		if (!rb->overwrite &&
		    unlikely(!rb_has_space(old_head, tail, rb_data_size(rb),
					   size, backward)))
			goto fail;
		new_head = backward ? old_head - size : old_head + size;
	} while (!local_try_cmpxchg(&rb->head, &old_head, new_head));

	/*
	 * A forward record starts at the old head; a backward one at the new
	 * head, and its buffer's byte count is the head's distance below 0.
	 */
	if (backward) {
		start = new_head;
		written = -new_head;
	} else {
		start = old_head;
		written = new_head;
	}
	/* one more watermark's worth since the last step: wake the reader */
	if (unlikely(written - local_read(&rb->wakeup) > rb->watermark))
		local_add(rb->watermark, &rb->wakeup);

	rb_handle_seek(handle, start);
	if (report_lost) {
		rb_lost_put(handle, &lost_rec, data,
			    local_xchg(&rb->lost, 0));
		start += lost_rec.header.size;
	}
	handle->start = start;
	return 0;

fail:
	rb_count_loss(rb, event);
	rb_publish(handle);
out:
	rcu_read_unlock();
	return -ENOSPC;
}

/**
 * perf_output_begin - reserve a record in @event's buffer
 * @handle: filled in
 * @data: the sample, or NULL
 * @event: the event writing
 * @size: the record's size in bytes
 *
 * Context: any, including NMI.
 * Return: 0 or -ENOSPC.
 */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	return rb_output_begin(handle, data, event, size,
			       event->attr.write_backward);
}

/**
 * perf_output_begin_forward - reserve a record in a forward buffer
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample (or a sample_id_all description), or NULL
 * @event: the event writing; an inherited copy writes to its parent's
 * @size: the record's size in bytes, a multiple of 8
 *
 * Context: any, including NMI.
 * Return: 0, or -ENOSPC (no buffer, paused or full: the loss is counted).
 */
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return rb_output_begin(handle, data, event, size, false);
}

/**
 * perf_output_begin_backward - reserve a record in a write_backward buffer
 * @handle: filled in
 * @data: the sample, or NULL
 * @event: the event writing
 * @size: the record's size in bytes
 *
 * Context: any, including NMI.
 * Return: 0 or -ENOSPC.
 */
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return rb_output_begin(handle, data, event, size, true);
}

/* One more sample towards the event's wakeup_events. */
static void rb_count_sample(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	int wakeup_events = rb_wakeup_events(handle);

	if (!wakeup_events)
		return;
	if (local_inc_return(&rb->events) >= wakeup_events) {
		local_sub(wakeup_events, &rb->events);
		local_inc(&rb->wakeup);
	}
}

/**
 * perf_output_end - finish a record reserved by perf_output_begin*()
 * @handle: the handle
 *
 * Context: any, including NMI; on the CPU that began the record.
 */
void perf_output_end(struct perf_output_handle *handle)
{
	if (unlikely(handle->rb->shared)) {
		rb_shared_end(handle);
	} else {
		rb_count_sample(handle);
		rb_publish(handle);
	}
	rcu_read_unlock();
}

/*
 * The handle's page is used up: go on at the start of the next one.  Done
 * when more is to be written, not when a page fills: a driver that writes
 * through handle->addr itself (pmu::snapshot_aux()) may leave a handle at
 * the very end of a page, as the inline perf_output_put() does.
 */
static void rb_handle_next_page(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	handle->page = (handle->page + 1) & (rb->nr_pages - 1);
	handle->addr = rb->data_pages[handle->page];
	handle->size = PAGE_SIZE;
}

/**
 * perf_output_copy - append bytes to the current record
 * @handle: the handle
 * @buf: the bytes
 * @len: how many
 *
 * Context: any, including NMI.
 * Return: 0 (the space was reserved by perf_output_begin*()).
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	while (len) {
		unsigned int n;

		if (!handle->size)
			rb_handle_next_page(handle);
		n = min_t(unsigned long, len, handle->size);
		memcpy(handle->addr, buf, n);
		handle->addr += n;
		handle->size -= n;
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * perf_output_skip - advance over bytes of the record without writing them
 * @handle: the handle
 * @len: how many
 *
 * Context: any, including NMI.
 * Return: 0.
 */
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	while (len) {
		unsigned int n;

		if (!handle->size)
			rb_handle_next_page(handle);
		n = min_t(unsigned long, len, handle->size);
		handle->addr += n;
		handle->size -= n;
		len -= n;
	}
	return 0;
}
