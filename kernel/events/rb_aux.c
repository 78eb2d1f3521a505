// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area: a second mapping of an event's ring buffer that a
 * hardware tracer (Intel PT and BTS, Arm SPE, CoreSight ETM/TRBE) fills
 * with its own data, while the ring buffer carries PERF_RECORD_AUX records
 * saying which bytes are new.
 *
 * User space maps the ring buffer, writes aux_offset and aux_size into the
 * user page, and maps that range (rb_mmap.c).  Writable, the area is a
 * ring like the data pages: the kernel moves aux_head, the reader
 * aux_tail, and the driver is given only the room between them; a
 * driver that runs out flags PERF_AUX_FLAG_TRUNCATED and the event is
 * disabled until the reader makes room and enables it.  Read-only, the
 * area is a snapshot ring the driver overwrites at will: it owns the head,
 * and user space copies out what it wants when it wants.
 *
 * Drivers write in transactions: perf_aux_output_begin() hands out the
 * position and the room, perf_aux_output_end() publishes what was written
 * and logs it.  A transaction runs on the event's CPU, either inside one
 * PMU callback or interrupt with IRQs off, or from pmu::add()/::start()
 * to pmu::stop()/::del(), and there is at most one per buffer at a time:
 * a buffer with an AUX area is written from one CPU only (an AUX mapping
 * needs a CPU-bound or non-inherited event, and is refused on our shared
 * buffers).
 *
 * Lifetime: the pages live while the area is mapped and while a
 * transaction is open (aux_refcount).  Unmapping the last AUX mapping stops
 * every transaction on the buffer first (an IPI to each CPU stops the
 * events writing there until they are next scheduled in), so the pages
 * normally go at munmap() time; should a driver keep
 * one open regardless, its perf_aux_output_end() frees them later, from a
 * work item, as freeing may sleep.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "context.h"
#include "rb.h"
#include "sideband.h"
#include "wakeup.h"

#define AUX_GFP	(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN | __GFP_NORETRY)

/* the AUX pages and the driver's state: process context */
static void rb_aux_free_pages(struct perf_buffer *rb)
{
	int i;

	might_sleep();
	if (rb->aux_priv)
		rb->free_aux(rb->aux_priv);
	rb->aux_priv = NULL;
	for (i = 0; i < rb->aux_nr_pages; i++) {
		struct page *page = virt_to_page(rb->aux_pages[i]);

		/* the first page of a high-order run carries its order */
		if (PagePrivate(page)) {
			set_page_private(page, 0);
			ClearPagePrivate(page);
		}
		__free_page(page);
	}
	kvfree(rb->aux_pages);
	rb->aux_pages = NULL;
	WRITE_ONCE(rb->aux_nr_pages, 0);
}

static void rb_aux_free_work(struct work_struct *work)
{
	struct perf_buffer *rb = container_of(work, struct perf_buffer,
					      aux_free_work);

	rb_aux_free_pages(rb);
	rb_put(rb);
}

/*
 * A writer drops its reference to the area.  Normally the mapping still
 * holds one; a writer that outlived the unmapping (a driver that kept a
 * transaction open through pmu::stop()) frees the area from a work item,
 * as it may be in an interrupt, and the work keeps the buffer alive until
 * it has run.
 */
static void rb_aux_put_atomic(struct perf_buffer *rb)
{
	if (!refcount_dec_and_test(&rb->aux_refcount))
		return;
	refcount_inc(&rb->refcount);
	schedule_work(&rb->aux_free_work);
}

/**
 * rb_aux_put - drop the mapping's reference to the AUX area
 * @rb: the buffer
 *
 * Frees the area unless a writer still holds it.
 * Context: process.
 */
void rb_aux_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->aux_refcount))
		rb_aux_free_pages(rb);
}

/**
 * rb_aux_init - a new buffer has no AUX area
 * @rb: the buffer
 */
void rb_aux_init(struct perf_buffer *rb)
{
	INIT_WORK(&rb->aux_free_work, rb_aux_free_work);
}

/*
 * One run of 2^@order physically contiguous pages, or a shorter one when
 * memory is fragmented.  A run longer than a page is split into order-0
 * pages (each is mapped and freed on its own) and its first page records
 * the run's order in page_private(), which drivers that program physical
 * ranges (PT's ToPA, TRBE) read.
 */
static struct page *rb_aux_alloc_run(int node, int order, int *got)
{
	struct page *page;

	for (order = min(order, MAX_PAGE_ORDER); order >= 0; order--) {
		page = alloc_pages_node(node, AUX_GFP, order);
		if (page)
			break;
	}
	if (!page)
		return NULL;
	if (order) {
		split_page(page, order);
		SetPagePrivate(page);
		set_page_private(page, order);
	}
	*got = order;
	return page;
}

/**
 * rb_aux_alloc - give @rb an AUX area and hand it to @event's driver
 * @rb: the event's buffer, mapped, with no AUX area
 * @event: the event being mapped
 * @pgoff: where the area is mapped, in pages
 * @nr_pages: its size, a power of two
 * @overwrite: mapped read-only: snapshot mode
 *
 * PMUs that need physically contiguous memory (PERF_PMU_CAP_AUX_NO_SG) or
 * prefer it get runs as long as the wakeup distance (or, in snapshot
 * mode, the whole area); a NO_SG PMU in snapshot mode must get the area
 * in one run.
 *
 * Context: process, perf_rb_mutex held.
 * Return: 0, -EOPNOTSUPP when the PMU has no AUX area, or -ENOMEM.
 */
int rb_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
		 pgoff_t pgoff, int nr_pages, bool overwrite)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	unsigned int caps = event->pmu->capabilities;
	bool runs = caps & (PERF_PMU_CAP_AUX_NO_SG |
			    PERF_PMU_CAP_AUX_PREFER_LARGE);
	unsigned long watermark = event->attr.aux_watermark;
	int max_order = 0, first_order = -1, n = 0, order, i;
	struct page *page;

	lockdep_assert_held(&perf_rb_mutex);
	if (!event->pmu->setup_aux)
		return -EOPNOTSUPP;
	if (overwrite) {
		watermark = 0;
		if (runs)
			max_order = ilog2(nr_pages);
	} else {
		/* half the area by default: drivers can double-buffer */
		if (!watermark)
			watermark = min_t(unsigned long, U32_MAX,
					  (unsigned long)nr_pages <<
					  (PAGE_SHIFT - 1));
		if (runs)
			max_order = get_order(watermark);
	}

	/* the page array is bounded as upstream bounds it */
	if (get_order((unsigned long)nr_pages * sizeof(void *)) >
	    MAX_PAGE_ORDER)
		return -ENOMEM;
	rb->aux_pages = kvcalloc_node(nr_pages, sizeof(void *), GFP_KERNEL,
				      node);
	if (!rb->aux_pages)
		return -ENOMEM;
	rb->free_aux = event->pmu->free_aux;

	while (n < nr_pages) {
		page = rb_aux_alloc_run(node,
					min(max_order, ilog2(nr_pages - n)),
					&order);
		if (!page)
			goto fail;
		if (first_order < 0)
			first_order = order;
		for (i = 0; i < 1 << order; i++)
			rb->aux_pages[n++] = page_address(page + i);
		rb->aux_nr_pages = n;
	}
	if ((caps & PERF_PMU_CAP_AUX_NO_SG) && overwrite &&
	    first_order != max_order)
		goto fail;

	rb->aux_priv = event->pmu->setup_aux(event, rb->aux_pages, nr_pages,
					     overwrite);
	if (!rb->aux_priv)
		goto fail;

	rb->aux_overwrite = overwrite;
	rb->aux_watermark = watermark;
	rb->aux_pgoff = pgoff;
	refcount_set(&rb->aux_refcount, 1);
	return 0;

fail:
	rb_aux_free_pages(rb);
	return -ENOMEM;
}

/**
 * rb_aux_map - insert the AUX pages into a new mapping of them
 * @rb: the buffer, with an AUX area
 * @vma: the mapping, as long as the area
 *
 * Context: process, mmap_lock held for writing, perf_rb_mutex held.
 * Return: 0 or a negative errno.
 */
int rb_aux_map(struct perf_buffer *rb, struct vm_area_struct *vma)
{
	int i, ret = 0;

	lockdep_assert_held(&perf_rb_mutex);
	for (i = 0; !ret && i < rb->aux_nr_pages; i++)
		ret = vm_insert_page(vma, vma->vm_start + i * PAGE_SIZE,
				     virt_to_page(rb->aux_pages[i]));
	return ret;
}

static void rb_aux_stop_event(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_event *owner = event->parent ?: event;

	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    !event->pmu->setup_aux ||
	    rcu_dereference(owner->rb) != rb ||
	    event->hw.state & PERF_HES_STOPPED)
		return;
	/*
	 * The driver ends its transaction.  The event stays stopped until it
	 * is next scheduled in, as upstream leaves it: a driver restarted now
	 * could not begin another transaction anyway.
	 */
	event->pmu->stop(event, PERF_EF_UPDATE);
}

static void rb_aux_stop_ctx(struct perf_event_context *ctx,
			    struct perf_buffer *rb)
{
	struct list_head *lists[] = { &ctx->pinned_on, &ctx->flexible_on };
	struct perf_event *leader, *sibling;
	int i;

	raw_spin_lock(&ctx->lock);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(leader, lists[i], group_on_entry) {
			rb_aux_stop_event(leader, rb);
			for_each_sibling_event(sibling, leader)
				rb_aux_stop_event(sibling, rb);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/* IPI: stop this CPU's writers of the buffer in @info */
static void rb_aux_stop_local(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx;
	struct perf_buffer *rb = info;

	rcu_read_lock();
	rb_aux_stop_ctx(&cpuctx->ctx, rb);
	task_ctx = READ_ONCE(cpuctx->task_ctx);
	if (task_ctx)
		rb_aux_stop_ctx(task_ctx, rb);
	rcu_read_unlock();
}

/**
 * rb_aux_unmap - the last mapping of the AUX area went away
 * @rb: the buffer
 * @mm: the mm it was charged to
 *
 * New transactions fail from here on (aux_mmap_count is 0); the open ones
 * are ended by stopping their events, then the pages are uncharged and
 * freed.
 *
 * Context: process, perf_rb_mutex held.
 */
void rb_aux_unmap(struct perf_buffer *rb, struct mm_struct *mm)
{
	lockdep_assert_held(&perf_rb_mutex);
	/* aux_mmap_count is 0: pairs with the check in begin() */
	smp_mb();
	on_each_cpu(rb_aux_stop_local, rb, 1);

	atomic_long_sub(rb->aux_nr_pages - rb->aux_locked,
			&rb->aux_user->perf_mlock);
	atomic64_sub(rb->aux_locked, &mm->pinned_vm);
	free_uid(rb->aux_user);
	rb->aux_user = NULL;
	rb->aux_locked = 0;
	rb_aux_put(rb);
}

/* PERF_RECORD_AUX: @size new bytes at @offset of the AUX area */
static void rb_aux_record(struct perf_event *event, unsigned long offset,
			  unsigned long size, u64 flags)
{
	struct perf_sample_data sample;
	struct perf_output_handle handle;
	struct {
		struct perf_event_header header;
		u64 offset;
		u64 size;
		u64 flags;
	} rec = {
		.header = {
			.type = PERF_RECORD_AUX,
			.size = sizeof(rec),
		},
		.offset = offset,
		.size = size,
		.flags = flags,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	sb_end(&handle, &sample, event);
}

/*
 * Has the head moved a watermark's worth since the reader was last woken?
 * Snapshot readers are never woken by AUX data.
 */
static bool rb_aux_wakeup_due(struct perf_buffer *rb)
{
	if (rb->aux_overwrite || rb->aux_head - rb->aux_wakeup <
	    rb->aux_watermark)
		return false;
	rb->aux_wakeup = rb->aux_head - rb->aux_head % rb->aux_watermark;
	return true;
}

/* the head, for the reader */
static void rb_aux_publish_head(struct perf_buffer *rb)
{
	/* after the data it covers; pairs with the reader's acquire */
	smp_store_release(&rb->user_page->aux_head, rb->aux_head);
}

/**
 * perf_aux_output_begin - open an AUX transaction
 * @handle: the driver's handle, filled in
 * @event: the event whose AUX area to write (an inherited copy writes
 *	its parent's)
 *
 * On success @handle->head is where to write and, in ring mode,
 * @handle->size how many bytes may be written before the reader's tail
 * (one byte short of it, so a full area never looks empty); in snapshot
 * mode @handle->size is 0 and the driver may write anywhere, moving
 * @handle->head itself.  A ring with no room at all disables the event
 * and wakes the reader instead.
 *
 * Context: the event's CPU with IRQs off (a PMU callback or interrupt).
 * Return: the driver's state from setup_aux(), or NULL when there is no
 * AUX area to write (none mapped, unmapping, or full).
 */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	struct perf_event *owner = event->parent ?: event;
	struct perf_buffer *rb;
	unsigned long used;

	handle->event = NULL;
	rcu_read_lock();
	rb = rcu_dereference(owner->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	if (!rb)
		return NULL;
	/* pairs with the barrier in rb_aux_unmap() */
	smp_mb();
	if (!atomic_read(&rb->aux_mmap_count) ||
	    !refcount_inc_not_zero(&rb->aux_refcount))
		goto put_rb;
	/* one transaction per buffer: a nested one is a driver bug */
	if (READ_ONCE(rb->aux_busy))
		goto put_aux;
	WRITE_ONCE(rb->aux_busy, true);

	handle->rb = rb;
	handle->head = rb->aux_head;
	handle->size = 0;
	handle->aux_flags = 0;
	if (!rb->aux_overwrite) {
		/* the driver's stores come after the reader freed the room */
		used = smp_load_acquire(&rb->user_page->aux_tail);
		used = rb->aux_head - used;
		if (used < rb_aux_size(rb))
			handle->size = rb_aux_size(rb) - used - 1;
		handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
		if (!handle->size) {
			perf_event_disable_inatomic(event);
			perf_event_output_wakeup(event, rb);
			WRITE_ONCE(rb->aux_busy, false);
			goto put_aux;
		}
	}
	handle->event = event;
	return rb->aux_priv;

put_aux:
	rb_aux_put_atomic(rb);
put_rb:
	rb_put(rb);
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

/**
 * perf_aux_output_end - publish what a transaction wrote and close it
 * @handle: the handle perf_aux_output_begin() opened
 * @size: bytes written; in ring mode they follow the old head, in
 *	snapshot mode they end at @handle->head, which the driver moved
 *
 * A PERF_RECORD_AUX tells the reader, unless nothing was written and no
 * flag but OVERWRITE (or the PMU's format bits) is set.  A TRUNCATED
 * transaction disables the event and wakes the reader, as does crossing
 * the wakeup watermark.
 *
 * Context: the CPU and context the transaction was opened in.
 */
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	u64 flags = handle->aux_flags;
	unsigned long offset;
	bool wake;

	if (rb->aux_overwrite) {
		flags |= PERF_AUX_FLAG_OVERWRITE;
		rb->aux_head = handle->head;
		offset = rb->aux_head;
	} else {
		flags &= ~(u64)PERF_AUX_FLAG_OVERWRITE;
		offset = rb->aux_head;
		rb->aux_head += size;
	}
	if (size || flags & ~(u64)(PERF_AUX_FLAG_OVERWRITE |
				   PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK))
		rb_aux_record(event, offset, size, flags);
	rb_aux_publish_head(rb);

	wake = rb_aux_wakeup_due(rb);
	if (flags & PERF_AUX_FLAG_TRUNCATED) {
		perf_event_disable_inatomic(event);
		wake = true;
	}
	if (wake)
		perf_event_output_wakeup(event, rb);

	handle->event = NULL;
	WRITE_ONCE(rb->aux_busy, false);
	rb_aux_put_atomic(rb);
	rb_put(rb);
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/**
 * perf_aux_output_skip - leave a gap in the AUX area
 * @handle: an open transaction, in ring mode
 * @size: bytes to skip (an alignment the hardware needs)
 *
 * The gap is published at once and no record describes it.
 *
 * Return: 0, or -ENOSPC when @size exceeds the room left.
 */
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_buffer *rb = handle->rb;

	/* the gap must fit in the room the transaction was given */
	if (handle->size < size)
		return -ENOSPC;
	handle->size -= size;
	handle->head = rb->aux_head + size;
	rb->aux_head = handle->head;
	rb_aux_publish_head(rb);
	if (!rb_aux_wakeup_due(rb))
		return 0;
	/* the driver's next wakeup point moves on with the reader's */
	handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
	perf_event_output_wakeup(handle->event, rb);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

/**
 * perf_aux_output_flag - add PERF_AUX_FLAG_* bits to the transaction's record
 * @handle: an open transaction
 * @flags: TRUNCATED, PARTIAL, COLLISION or PMU format bits; OVERWRITE is
 *	the core's to set and is ignored here
 */
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	handle->aux_flags |= flags & ~(u64)PERF_AUX_FLAG_OVERWRITE;
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/**
 * perf_get_aux - the driver's AUX state of an open transaction
 * @handle: the handle
 *
 * Return: what setup_aux() returned, or NULL outside a transaction.
 */
void *perf_get_aux(struct perf_output_handle *handle)
{
	return handle->event ? handle->rb->aux_priv : NULL;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

/**
 * perf_report_aux_output_id - log the hardware id of an event's AUX data
 * @event: the event (an inherited copy logs into its parent's buffer)
 * @hw_id: the id under which its data appears in the AUX stream
 *
 * Writes PERF_RECORD_AUX_OUTPUT_HW_ID.  Context: any.
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct perf_sample_data sample;
	struct perf_output_handle handle;
	struct {
		struct perf_event_header header;
		u64 hw_id;
	} rec = {
		.header = {
			.type = PERF_RECORD_AUX_OUTPUT_HW_ID,
			.size = sizeof(rec),
		},
		.hw_id = hw_id,
	};

	event = event->parent ?: event;
	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	sb_end(&handle, &sample, event);
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

/**
 * perf_event_itrace_started - the driver logged the start of its trace
 * @event: the event
 *
 * No more PERF_RECORD_ITRACE_START for it at sched-in.
 */
void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

/**
 * perf_aux_itrace_start - PERF_RECORD_ITRACE_START as a tracer goes on
 * @event: an event of a PERF_PMU_CAP_ITRACE PMU being scheduled in
 *
 * Tells the reader which task the trace that follows belongs to, at each
 * sched-in until the driver says it has started (then only the driver
 * knows when a new trace begins).
 *
 * Context: IRQs off, ctx->lock held, on the CPU going to count.
 */
void perf_aux_itrace_start(struct perf_event *event)
{
	struct perf_event *owner = event->parent ?: event;
	struct perf_sample_data sample;
	struct perf_output_handle handle;
	struct {
		struct perf_event_header header;
		u32 pid;
		u32 tid;
	} rec = {
		.header = {
			.type = PERF_RECORD_ITRACE_START,
			.size = sizeof(rec),
		},
	};

	lockdep_assert_irqs_disabled();
	if (owner->attach_state & PERF_ATTACH_ITRACE)
		return;
	rec.pid = sb_pid(owner, current);
	rec.tid = sb_tid(owner, current);
	if (sb_begin(&handle, &sample, owner, &rec.header))
		return;
	perf_output_put(&handle, rec);
	sb_end(&handle, &sample, owner);
}
