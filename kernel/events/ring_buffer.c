// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring buffer: where samples and side-band records go.
 *
 * Layout seen by user space: one control page (struct perf_event_mmap_page)
 * followed by 2^n data pages.  The kernel moves data_head forward (or, for
 * write_backward events, backward) and user space moves data_tail.  When
 * the mapping is writable the kernel never overwrites what user space has
 * not consumed (records that do not fit are counted and later reported in a
 * PERF_RECORD_LOST); a read-only mapping is an overwrite ring in which the
 * newest data wins.
 *
 * Writers: perf_output_begin*() reserve space with a cmpxchg on rb->head,
 * so that an NMI may nest inside an IRQ which nests inside a task writing
 * to the same buffer on the same CPU.  Only the outermost writer publishes
 * data_head, and only after every nested record is complete: rb->nest
 * counts the writers in flight.  Buffers are written only from the CPU
 * their events run on, so head, nest and the counters are local_t.
 *
 * Lifetime: the buffer is refcounted; every event attached to it holds a
 * reference, through event->rb (an RCU pointer: writers run with
 * preemption or IRQs off and read it under rcu_read_lock()), and it is
 * freed an RCU grace period after the last reference goes.
 *
 * Attachment and mapping: perf_rb_mutex serialises mmap(), munmap(),
 * SET_OUTPUT and detaching at close for all events.  These are rare
 * operations, so one mutex is simpler than ordering per-event mutexes.  It
 * nests inside mm->mmap_lock (mmap and munmap run under it) and is never
 * held while taking it; SET_OUTPUT, at open as by ioctl, takes it without
 * ctx->mutex.
 */
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"

struct perf_buffer {
	refcount_t			refcount;
	struct rcu_head			rcu_head;

	int				nr_pages;	/* data pages: 0 or 2^n */
	bool				overwrite;	/* mapped read-only */
	int				paused;
	long				watermark;	/* wakeup distance */

	local_t				head;		/* write position */
	local_t				nest;		/* writers in flight */
	local_t				events;		/* samples since wakeup */
	local_t				wakeup;		/* moves: wake readers */
	local_t				lost;		/* not yet reported */

	atomic_t			poll;		/* EPOLL* for poll() */
	atomic_t			mmap_count;	/* VMAs mapping us */
	unsigned long			mmap_locked;	/* pages charged to mm */
	struct user_struct		*mmap_user;	/* pages charged here */

	/* events writing here: for wakeups (RCU list, perf_rb_mutex) */
	struct list_head		event_list;

	struct perf_event_mmap_page	*user_page;
	void				*data_pages[];
};

static DEFINE_MUTEX(perf_rb_mutex);

static unsigned long rb_data_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->nr_pages << PAGE_SHIFT;
}

static struct perf_buffer *rb_alloc(int nr_pages, long watermark, int cpu,
				    bool overwrite)
{
	int node = cpu == -1 ? NUMA_NO_NODE : cpu_to_node(cpu);
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	struct perf_buffer *rb;
	struct page *page;
	int i;

	rb = kvzalloc_node(struct_size(rb, data_pages, nr_pages), GFP_KERNEL,
			   node);
	if (!rb)
		return NULL;
	page = alloc_pages_node(node, gfp, 0);
	if (!page)
		goto fail;
	rb->user_page = page_address(page);
	for (i = 0; i < nr_pages; i++) {
		page = alloc_pages_node(node, gfp, 0);
		if (!page)
			goto fail;
		rb->data_pages[i] = page_address(page);
	}
	rb->nr_pages = nr_pages;
	rb->overwrite = overwrite;
	/* a buffer with no data pages can hold nothing: never write to it */
	rb->paused = !nr_pages;
	rb->watermark = rb_data_size(rb) / 2;
	if (watermark)
		rb->watermark = min_t(long, watermark, rb_data_size(rb));
	refcount_set(&rb->refcount, 1);
	INIT_LIST_HEAD(&rb->event_list);

	rb->user_page->cap_bit0_is_deprecated = 1;
	rb->user_page->size = offsetof(struct perf_event_mmap_page,
				       __reserved);
	rb->user_page->data_offset = PAGE_SIZE;
	rb->user_page->data_size = rb_data_size(rb);
	return rb;

fail:
	while (i--)
		free_page((unsigned long)rb->data_pages[i]);
	if (rb->user_page)
		free_page((unsigned long)rb->user_page);
	kvfree(rb);
	return NULL;
}

static void rb_free_rcu(struct rcu_head *head)
{
	struct perf_buffer *rb = container_of(head, struct perf_buffer,
					      rcu_head);
	int i;

	for (i = 0; i < rb->nr_pages; i++)
		free_page((unsigned long)rb->data_pages[i]);
	free_page((unsigned long)rb->user_page);
	kvfree(rb);
}

static void rb_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->refcount))
		call_rcu(&rb->rcu_head, rb_free_rcu);
}

/*
 * Point @event at @rb (or at nothing).  The event's old buffer loses the
 * event's reference; @rb's reference is the caller's and passes to the
 * event.  Context: process, perf_rb_mutex held.
 */
static void rb_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old;

	lockdep_assert_held(&perf_rb_mutex);
	old = rcu_dereference_protected(event->rb,
					lockdep_is_held(&perf_rb_mutex));
	if (old) {
		list_del_rcu(&event->rb_entry);
		/*
		 * A wakeup may be walking the old list through our entry;
		 * let it finish before the entry joins another list.
		 */
		if (rb)
			synchronize_rcu();
	}
	if (rb)
		list_add_rcu(&event->rb_entry, &rb->event_list);
	rcu_assign_pointer(event->rb, rb);
	if (old) {
		/* pollers must see that this buffer is no longer theirs */
		wake_up_all(&event->waitq);
		rb_put(old);
	}
}

/*
 * The mapping's pages go back to the mm and user they were charged to.
 * Context: perf_rb_mutex held, the last mapping of @rb gone.
 */
static void rb_uncharge(struct perf_buffer *rb, struct mm_struct *mm)
{
	if (!rb->mmap_user)
		return;
	atomic_long_sub(rb->nr_pages + 1 - rb->mmap_locked,
			&rb->mmap_user->locked_vm);
	atomic64_sub(rb->mmap_locked, &mm->pinned_vm);
	free_uid(rb->mmap_user);
	rb->mmap_user = NULL;
	rb->mmap_locked = 0;
}

/**
 * perf_event_detach_rb - the event is going away: leave its buffer
 * @event: the event, no longer in any context
 *
 * Context: process, may sleep.
 */
void perf_event_detach_rb(struct perf_event *event)
{
	if (!rcu_access_pointer(event->rb))
		return;
	mutex_lock(&perf_rb_mutex);
	rb_attach(event, NULL);
	mutex_unlock(&perf_rb_mutex);
}

/* the event whose buffer a write goes to: copies write to their parent's */
static struct perf_event *output_event(struct perf_event *event)
{
	return event->parent ? event->parent : event;
}

/**
 * perf_event_times_now - an event's enabled and running time at this instant
 * @event: the event
 * @now: set to the perf_clock() time the values are for
 * @enabled: set to the total enabled time
 * @running: set to the total running time
 *
 * Context: any, including NMI, without ctx->lock.  The times are folded
 * into the event only under ctx->lock with IRQs off on the event's CPU, so
 * a reader on that CPU sees a consistent pair except from an NMI that hit
 * in the middle of such an update; the values are then off by that update.
 */
void perf_event_times_now(struct perf_event *event, u64 *now,
			  u64 *enabled, u64 *running)
{
	struct perf_event_context *ctx = READ_ONCE(event->ctx);
	int state = READ_ONCE(event->state);
	u64 ctx_time = 0, delta;

	*now = perf_clock();
	*enabled = READ_ONCE(event->total_time_enabled);
	*running = READ_ONCE(event->total_time_running);
	if (!ctx)
		return;
	ctx_time = READ_ONCE(ctx->time);
	if (READ_ONCE(ctx->is_active))
		ctx_time += *now - READ_ONCE(ctx->timestamp);
	delta = ctx_time - READ_ONCE(event->tstamp);
	if ((s64)delta < 0)
		delta = 0;
	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (state == PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}

/**
 * arch_perf_update_userpage - arch hook for the control page's time fields
 * @event: the event
 * @userpg: the page
 * @now: the perf_clock() time of the update
 *
 * The default provides no clock conversion: cap_user_time stays 0.
 */
void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg,
				      u64 now)
{
}

/* the counter index user space may read directly; 0 means "use read()" */
static u32 userpage_index(struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED ||
	    READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE ||
	    !event->pmu->event_idx)
		return 0;
	return event->pmu->event_idx(event);
}

/**
 * perf_event_update_userpage - refresh the counter fields of the user page
 * @event: the event
 *
 * The page's lock field is a sequence count: user space retries a read of
 * index, offset and the times while it changes.
 *
 * Context: any, including NMI.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *userpg;
	struct perf_buffer *rb;
	u64 now, enabled, running;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (!rb)
		goto out;
	perf_event_times_now(event, &now, &enabled, &running);
	userpg = rb->user_page;

	preempt_disable();
	WRITE_ONCE(userpg->lock, userpg->lock + 1);
	barrier();
	userpg->index = userpage_index(event);
	userpg->offset = local64_read(&event->count);
	if (userpg->index)
		userpg->offset -= local64_read(&event->hw.prev_count);
	userpg->time_enabled = enabled;
	userpg->time_running = running;
	arch_perf_update_userpage(event, userpg, now);
	barrier();
	WRITE_ONCE(userpg->lock, userpg->lock + 1);
	preempt_enable();
out:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

/* writing records */

static bool rb_has_space(unsigned long head, unsigned long tail,
			 unsigned long size, unsigned int len, bool backward)
{
	/* both directions: the free space lies between head and tail */
	if (!backward)
		return size - (head - tail) >= len;
	return size - (tail - head) >= len;
}

static void rb_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;

	atomic_set(&handle->rb->poll, EPOLLIN | EPOLLRDNORM);
	if (*perf_event_fasync(event) && !READ_ONCE(event->pending_kill))
		WRITE_ONCE(event->pending_kill, POLL_IN);
	perf_event_queue_wakeup(event);
}

/*
 * Publish data_head when the outermost writer finishes.  A writer that
 * interrupted us may have moved head after we read it; it saw nest > 1
 * and left publishing to us, so look again after dropping nest.
 */
static void rb_publish(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	for (;;) {
		if (local_read(&rb->nest) > 1) {
			local_dec(&rb->nest);
			goto out;
		}
		head = local_read(&rb->head);
		/* the record's bytes before the head that covers them */
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
		rb_wakeup(handle);
out:
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

static int rb_output_begin(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event, unsigned int size,
			   bool backward)
{
	struct perf_sample_data lost_data;
	struct perf_buffer *rb;
	struct {
		struct perf_event_header	header;
		u64				id;
		u64				lost;
	} lost_rec;
	unsigned long tail, offset, head;
	u64 lost = 0;

	event = output_event(event);
	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (unlikely(!rb))
		goto out;
	if (unlikely(READ_ONCE(rb->paused))) {
		if (rb->nr_pages) {
			local_inc(&rb->lost);
			atomic64_inc(&event->lost_samples);
		}
		goto out;
	}

	handle->rb = rb;
	handle->event = event;

	/* report earlier losses ahead of this record */
	if (unlikely(local_read(&rb->lost))) {
		if (!data) {
			data = &lost_data;
			perf_sample_data_init(data, 0, 0);
		}
		lost_rec.header.size = sizeof(lost_rec);
		perf_event_header_init_id(&lost_rec.header, data, event);
		size += lost_rec.header.size;
		lost = 1;
	}

	preempt_disable();
	local_inc(&rb->nest);
	handle->wakeup = local_read(&rb->wakeup);

	offset = local_read(&rb->head);
	do {
		head = offset;
		tail = READ_ONCE(rb->user_page->data_tail);
		/*
		 * The tail read is ordered before our writes into the space
		 * it frees by the control dependency on the check; it pairs
		 * with user space's barrier before it stores data_tail.
		 */
		if (!rb->overwrite &&
		    unlikely(!rb_has_space(head, tail, rb_data_size(rb), size,
					   backward)))
			goto fail;
		head = backward ? head - size : head + size;
	} while (!local_try_cmpxchg(&rb->head, &offset, head));

	/* a backward record starts at the new head; count bytes either way */
	if (backward) {
		offset = head;
		head = -head;
	}
	if (unlikely(head - local_read(&rb->wakeup) > rb->watermark))
		local_add(rb->watermark, &rb->wakeup);

	rb_handle_seek(handle, offset);
	if (lost) {
		lost_rec.header.type = PERF_RECORD_LOST;
		lost_rec.header.misc = 0;
		lost_rec.id = event->id;
		lost_rec.lost = local_xchg(&rb->lost, 0);
		perf_output_put(handle, lost_rec);
		perf_event_output_id_sample(event, handle, data);
		offset += lost_rec.header.size;
	}
	handle->start = offset;
	return 0;

fail:
	local_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
	rb_publish(handle);
out:
	rcu_read_unlock();
	return -ENOSPC;
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

/*
 * wakeup_events counts samples only; side-band records never wake a reader
 * on their own.  The record's header is 8-byte aligned and so never spans
 * two pages.
 */
static void rb_count_sample(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	struct perf_event_header *header;
	int wakeup_events = event->attr.wakeup_events;

	if (event->attr.watermark || !wakeup_events)
		return;
	header = rb->data_pages[(handle->start >> PAGE_SHIFT) &
				(rb->nr_pages - 1)] +
		 offset_in_page(handle->start);
	if (header->type != PERF_RECORD_SAMPLE)
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
	rb_count_sample(handle);
	rb_publish(handle);
	rcu_read_unlock();
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
		unsigned int n = min_t(unsigned long, len, handle->size);

		memcpy(handle->addr, buf, n);
		buf += n;
		len -= n;
		perf_output_skip(handle, n);
	}
	return 0;
}

/**
 * perf_output_copy_user - append bytes from user memory
 * @handle: the handle
 * @ubuf: user address
 * @len: how many bytes
 *
 * Faults are not taken: what cannot be read without one is left as it was
 * in the buffer.
 *
 * Context: any, including NMI.
 * Return: the number of bytes that could not be copied.
 */
unsigned int perf_output_copy_user(struct perf_output_handle *handle,
				   const void __user *ubuf, unsigned int len)
{
	unsigned int missed = 0;

	while (len) {
		unsigned int n = min_t(unsigned long, len, handle->size);

		if (copy_from_user_nofault(handle->addr, ubuf, n))
			missed += n;
		ubuf += n;
		len -= n;
		perf_output_skip(handle, n);
	}
	return missed;
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
	struct perf_buffer *rb = handle->rb;

	while (len) {
		unsigned int n = min_t(unsigned long, len, handle->size);

		handle->addr += n;
		handle->size -= n;
		len -= n;
		if (!handle->size) {
			handle->page = (handle->page + 1) & (rb->nr_pages - 1);
			handle->addr = rb->data_pages[handle->page];
			handle->size = PAGE_SIZE;
		}
	}
	return 0;
}

/* wakeups, poll, PAUSE_OUTPUT */

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

/**
 * perf_event_wakeup_rb - wake every poller of the buffer @event writes to
 * @event: the event
 *
 * Context: process or IRQ context (the wait queues' locks are taken).
 * Return: false when @event has no buffer (nobody but its own pollers).
 */
bool perf_event_wakeup_rb(struct perf_event *event)
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
 * perf_event_pause_output - PERF_EVENT_IOC_PAUSE_OUTPUT
 * @event: the event
 * @pause: stop (true) or resume (false) writing to its buffer
 *
 * Return: 0, or -EINVAL when the event has no buffer with data pages.
 */
int perf_event_pause_output(struct perf_event *event, bool pause)
{
	struct perf_buffer *rb;
	int ret = -EINVAL;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && rb->nr_pages) {
		WRITE_ONCE(rb->paused, pause);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

/* SET_OUTPUT */

/**
 * perf_event_set_output - redirect @event's records into another's buffer
 * @event: the event
 * @output_event: the event whose buffer to write to, or NULL to stop
 *
 * The two must write the same direction with the same clock, on the same
 * CPU, and, when per-task, for the same task.  @event must not be mapped
 * itself, and @output_event's buffer must be mapped.
 *
 * Context: process; takes perf_rb_mutex.
 * Return: 0 or -EINVAL.
 */
int perf_event_set_output(struct perf_event *event,
			  struct perf_event *output_event)
{
	struct perf_buffer *rb = NULL;
	int ret = -EINVAL;

	if (output_event) {
		if (event == output_event ||
		    output_event->cpu != event->cpu ||
		    (output_event->cpu == -1 &&
		     output_event->hw.target != event->hw.target) ||
		    output_event->clock != event->clock ||
		    output_event->attr.write_backward !=
		    event->attr.write_backward)
			return -EINVAL;
	}

	mutex_lock(&perf_rb_mutex);
	if (atomic_read(&event->mmap_count))
		goto unlock;
	if (output_event) {
		rb = rcu_dereference_protected(output_event->rb,
					       lockdep_is_held(&perf_rb_mutex));
		if (!rb || !atomic_read(&rb->mmap_count))
			goto unlock;
		refcount_inc(&rb->refcount);
	}
	rb_attach(event, rb);
	ret = 0;
unlock:
	mutex_unlock(&perf_rb_mutex);
	return ret;
}

/* mmap */

static struct perf_event *vma_event(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

/* a VMA was copied (mremap): it maps the buffer too */
static void perf_mmap_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma_event(vma);
	struct perf_buffer *rb;

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	atomic_inc(&event->mmap_count);
	atomic_inc(&rb->mmap_count);
	mutex_unlock(&perf_rb_mutex);
}

/*
 * A mapping went away.  The event leaves its buffer when its own last
 * mapping goes; every event leaves it when the buffer's last mapping goes,
 * as nobody can read it any more.
 */
static void perf_mmap_close(struct vm_area_struct *vma)
{
	struct perf_event *event = vma_event(vma);
	struct perf_event *other, *tmp;
	struct perf_buffer *rb;

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	refcount_inc(&rb->refcount);
	if (atomic_dec_and_test(&rb->mmap_count)) {
		rb_uncharge(rb, vma->vm_mm);
		list_for_each_entry_safe(other, tmp, &rb->event_list, rb_entry)
			rb_attach(other, NULL);
	}
	if (atomic_dec_and_test(&event->mmap_count) &&
	    rcu_access_pointer(event->rb) == rb)
		rb_attach(event, NULL);
	mutex_unlock(&perf_rb_mutex);
	rb_put(rb);
}

/* splitting a mapping would leave a piece we cannot account for */
static int perf_mmap_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct perf_mmap_vmops = {
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
	.may_split	= perf_mmap_may_split,
};

/*
 * How many of @pages exceed the user's perf_event_mlock_kb allowance (per
 * online CPU): those are charged to the mm's pinned pages and need
 * RLIMIT_MEMLOCK room or CAP_IPC_LOCK.  Context: perf_rb_mutex held.
 * Return: the excess, or -EPERM.
 */
static long rb_charge_check(struct vm_area_struct *vma, unsigned long pages)
{
	unsigned long user_limit, user_locked, extra = 0, lock_limit;

	user_limit = (sysctl_perf_event_mlock >> (PAGE_SHIFT - 10)) *
		     num_online_cpus();
	/* the sysctl may have shrunk below what is already charged */
	user_locked = min_t(unsigned long,
			    atomic_long_read(&current_user()->locked_vm),
			    user_limit) + pages;
	if (user_locked > user_limit)
		extra = user_locked - user_limit;

	lock_limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	if (atomic64_read(&vma->vm_mm->pinned_vm) + extra > lock_limit &&
	    perf_is_paranoid() && !capable(CAP_IPC_LOCK))
		return -EPERM;
	return extra;
}

static void rb_charge(struct perf_buffer *rb, struct vm_area_struct *vma,
		      unsigned long pages, unsigned long extra)
{
	atomic_long_add(pages - extra, &current_user()->locked_vm);
	atomic64_add(extra, &vma->vm_mm->pinned_vm);
	rb->mmap_user = get_current_user();
	rb->mmap_locked = extra;
}

static int rb_map_pages(struct perf_buffer *rb, struct vm_area_struct *vma)
{
	int i, ret;

	ret = vm_insert_page(vma, vma->vm_start,
			     virt_to_page(rb->user_page));
	for (i = 0; !ret && i < rb->nr_pages; i++)
		ret = vm_insert_page(vma, vma->vm_start + (i + 1) * PAGE_SIZE,
				     virt_to_page(rb->data_pages[i]));
	return ret;
}

/*
 * The AUX area (vm_pgoff != 0) needs a PMU that writes one; none of ours
 * does, and such events are refused at open, so only the geometry checks
 * upstream makes before asking the PMU are reproduced here.
 */
static int perf_mmap_aux(struct perf_event *event, struct vm_area_struct *vma)
{
	struct perf_event_mmap_page *userpg;
	unsigned long size = vma->vm_end - vma->vm_start;
	struct perf_buffer *rb;
	int ret = -EINVAL;

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	if (!rb)
		goto out;
	userpg = rb->user_page;
	if (READ_ONCE(userpg->aux_offset) < rb_data_size(rb) + PAGE_SIZE ||
	    READ_ONCE(userpg->aux_offset) != vma->vm_pgoff << PAGE_SHIFT ||
	    READ_ONCE(userpg->aux_size) != size ||
	    !is_power_of_2(size >> PAGE_SHIFT))
		goto out;
	ret = -EOPNOTSUPP;
out:
	mutex_unlock(&perf_rb_mutex);
	return ret;
}

/**
 * perf_mmap - map an event's ring buffer (the file's ->mmap)
 * @file: the event file
 * @vma: the new mapping: one control page and 2^n data pages
 *
 * Context: process, mm->mmap_lock held for writing.
 * Return: 0 or a negative errno as upstream gives.
 */
int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long nr_pages = vma_pages(vma) - 1;
	struct perf_buffer *rb;
	long watermark, extra;
	int ret;

	/* inherited per-task events would all write into one buffer */
	if (event->cpu == -1 && event->attr.inherit)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	ret = security_perf_event_read(event);
	if (ret)
		return ret;
	if (vma->vm_pgoff)
		return perf_mmap_aux(event, vma);
	if (nr_pages && !is_power_of_2(nr_pages))
		return -EINVAL;

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	if (rb) {
		/* another mapping of the buffer this event already writes */
		ret = -EINVAL;
		if (rb->nr_pages != nr_pages || !atomic_read(&rb->mmap_count))
			goto unlock;
		ret = rb_map_pages(rb, vma);
		if (ret)
			goto unlock;
		atomic_inc(&rb->mmap_count);
		atomic_inc(&event->mmap_count);
		goto done;
	}

	extra = rb_charge_check(vma, nr_pages + 1);
	if (extra < 0) {
		ret = extra;
		goto unlock;
	}
	/* the page array is bounded as upstream bounds it */
	ret = -ENOMEM;
	if (order_base_2(struct_size(rb, data_pages, nr_pages)) >
	    PAGE_SHIFT + MAX_PAGE_ORDER)
		goto unlock;
	watermark = event->attr.watermark ? event->attr.wakeup_watermark : 0;
	rb = rb_alloc(nr_pages, watermark, event->cpu,
		      !(vma->vm_flags & VM_WRITE));
	if (!rb)
		goto unlock;
	ret = rb_map_pages(rb, vma);
	if (ret) {
		rb_put(rb);
		goto unlock;
	}
	rb_charge(rb, vma, nr_pages + 1, extra);
	atomic_set(&rb->mmap_count, 1);
	atomic_set(&event->mmap_count, 1);
	rb_attach(event, rb);
done:
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &perf_mmap_vmops;
unlock:
	mutex_unlock(&perf_rb_mutex);
	if (!ret)
		perf_event_update_userpage(event);
	return ret;
}
