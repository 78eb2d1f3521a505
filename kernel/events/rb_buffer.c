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
 * Lifetime: the buffer is refcounted; every event attached to it holds a
 * reference, through event->rb (an RCU pointer: writers run with
 * preemption or IRQs off and read it under rcu_read_lock()), and it is
 * freed an RCU grace period after the last reference goes.
 *
 * Attachment: perf_rb_mutex serialises mmap(), munmap(), SET_OUTPUT and
 * detaching at close for all events (rb_mmap.c has the mapping side).
 *
 * Files: this one has the buffer object, attaching events to it, the
 * user page, PAUSE_OUTPUT and SET_OUTPUT; rb_output.c writes records into
 * it; rb_mmap.c maps it; wakeup.c wakes its readers; rb.h is what they
 * share.
 */
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "rb.h"
#include "time.h"

/* mmap, munmap, SET_OUTPUT and detaching at close, for every event */
DEFINE_MUTEX(perf_rb_mutex);

/**
 * rb_alloc - a new buffer: the user page and @nr_pages zeroed data pages
 * @nr_pages: data pages, 0 or a power of two
 * @watermark: attr.wakeup_watermark in bytes, 0 for half the buffer
 * @cpu: the event's CPU (its memory node), or -1
 * @overwrite: mapped read-only: an overwrite ring
 * @shared: written from many CPUs at once (rb_shared.c)
 *
 * Context: process, may sleep.
 * Return: the buffer with one reference, or NULL.
 */
struct perf_buffer *rb_alloc(int nr_pages, long watermark, int cpu,
			     bool overwrite, bool shared)
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
	rb->shared = shared;
	/* a buffer with no data pages can hold nothing: never write to it */
	rb->paused = !nr_pages;
	rb->watermark = rb_data_size(rb) / 2;
	if (watermark)
		rb->watermark = min_t(long, watermark, rb_data_size(rb));
	refcount_set(&rb->refcount, 1);
	INIT_LIST_HEAD(&rb->event_list);
	rb_aux_init(rb);

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

/**
 * rb_put - drop a reference; the last one frees the buffer after a grace
 *	period (writers read event->rb under RCU)
 * @rb: the buffer
 */
void rb_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->refcount))
		call_rcu(&rb->rcu_head, rb_free_rcu);
}

/*
 * Point @event at @rb (or at nothing).  The event's old buffer loses the
 * event's reference; @rb's reference is the caller's and passes to the
 * event.  Context: process, perf_rb_mutex held.
 */
void rb_attach(struct perf_event *event, struct perf_buffer *rb)
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

/* PAUSE_OUTPUT */

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
 * itself, and @output_event's buffer must be mapped, and be a shared one
 * if @event asked for that (its copies write from every CPU).
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
		if ((event->ext_flags & PERF_FLAG_SHARED_BUFFER) && !rb->shared)
			goto unlock;
		refcount_inc(&rb->refcount);
	}
	rb_attach(event, rb);
	ret = 0;
unlock:
	mutex_unlock(&perf_rb_mutex);
	return ret;
}

