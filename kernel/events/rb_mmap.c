// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping a ring buffer: mmap() of an event's fd creates its buffer,
 * charges its pages to the mapping user (RLIMIT_MEMLOCK, then
 * perf_event_mlock_kb, then CAP_IPC_LOCK) and maps them; the VMA's
 * open and close follow copies and the last unmap detaches the buffer.
 *
 * The AUX area (rb_aux.c) is a second mapping of the same buffer, at the
 * offset user space wrote to the user page; it counts as one more mapping
 * of the buffer and of the event, so the data pages outlive it.
 *
 * Charges go to the user's perf_mlock: the allowance is perf's own, apart
 * from the locked_vm that RLIMIT_MEMLOCK users such as io_uring share.
 *
 * Attachment and mapping: perf_rb_mutex serialises mmap(), munmap(),
 * SET_OUTPUT and detaching at close for all events.  These are rare
 * operations, so one mutex is simpler than ordering per-event mutexes.  It
 * nests inside mm->mmap_lock (mmap and munmap run under it) and is never
 * held while taking it; SET_OUTPUT, at open as by ioctl, takes it without
 * ctx->mutex.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "rb.h"

/*
 * The mapping's pages go back to the mm and user they were charged to.
 * Context: perf_rb_mutex held, the last mapping of @rb gone.
 */
static void rb_uncharge(struct perf_buffer *rb, struct mm_struct *mm)
{
	lockdep_assert_held(&perf_rb_mutex);
	if (!rb->mmap_user)
		return;
	atomic_long_sub(rb->nr_pages + 1 - rb->mmap_locked,
			&rb->mmap_user->perf_mlock);
	atomic64_sub(rb->mmap_locked, &mm->pinned_vm);
	free_uid(rb->mmap_user);
	rb->mmap_user = NULL;
	rb->mmap_locked = 0;
}

static struct perf_event *vma_event(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

/*
 * The PMU hears of every VMA that maps an event's buffer, as it comes and
 * goes: x86 lets a task read its counters with RDPMC while it has one
 * (arch/x86/events/rdpmc.c).  mmap_lock is held for writing in all three
 * places: mmap, VMA copies and unmaps.
 */
static void perf_pmu_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, mm);
}

static void perf_pmu_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, mm);
}

/* a VMA was copied (mremap): it maps the buffer too */
static void perf_mmap_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma_event(vma);
	struct perf_buffer *rb;

	perf_pmu_mapped(event, vma->vm_mm);

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	atomic_inc(&event->mmap_count);
	atomic_inc(&rb->mmap_count);
	if (vma->vm_pgoff)
		atomic_inc(&rb->aux_mmap_count);
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

	perf_pmu_unmapped(event, vma->vm_mm);
	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	refcount_inc(&rb->refcount);
	/* the data pages are mapped at offset 0, the AUX area never */
	if (vma->vm_pgoff && atomic_dec_and_test(&rb->aux_mmap_count))
		rb_aux_unmap(rb, vma->vm_mm);
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
static int rb_vma_no_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

/*
 * Only the control page is user space's to write (data_tail, aux_tail): a
 * store into the data or AUX pages of a writable mapping is SIGBUS.  The
 * pages go in write-protected (rb_vma_prepare()), and the first store to
 * the control page makes its entry writable.  The folio is locked here
 * because it belongs to no address_space the fault code could lock it by.
 */
static vm_fault_t rb_vma_mkwrite(struct vm_fault *vmf)
{
	if (vmf->pgoff)
		return VM_FAULT_SIGBUS;
	folio_lock(page_folio(vmf->page));
	return VM_FAULT_LOCKED;
}

static const struct vm_operations_struct rb_vm_ops = {
	.may_split	= rb_vma_no_split,
	.page_mkwrite	= rb_vma_mkwrite,
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
};

/*
 * How many of @pages exceed the user's perf_event_mlock_kb allowance (per
 * online CPU): those are charged to the mm's pinned pages and need
 * RLIMIT_MEMLOCK room or CAP_IPC_LOCK.  Context: perf_rb_mutex held.
 * Return: the excess, or -EPERM.
 */
long rb_charge_check(struct vm_area_struct *vma, unsigned long pages)
{
	unsigned long user_limit, user_locked, extra = 0, lock_limit;

	lockdep_assert_held(&perf_rb_mutex);
	user_limit = (sysctl_perf_event_mlock >> (PAGE_SHIFT - 10)) *
		     num_online_cpus();
	/* the sysctl may have shrunk below what is already charged */
	user_locked = min_t(unsigned long,
			    atomic_long_read(&current_user()->perf_mlock),
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
	atomic_long_add(pages - extra, &current_user()->perf_mlock);
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
 * Before any page goes in: with page_mkwrite in the ops, a shared
 * writable mapping's protection is write-protected (write notify), so
 * stores fault into rb_vma_mkwrite().  A failed mmap() never calls the
 * ops, so setting them early is harmless.
 */
static void rb_vma_prepare(struct vm_area_struct *vma)
{
	vma->vm_ops = &rb_vm_ops;
	vma_set_page_prot(vma);
}

/*
 * Map the AUX area (vm_pgoff != 0): at the offset and size user space put
 * in the user page, above the data pages, a power of two of pages; the
 * same range again once it exists.  The first mapping allocates it, writable
 * for a ring, read-only for snapshots.
 */
static int perf_mmap_aux(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long nr_pages = vma_pages(vma);
	struct perf_event_mmap_page *userpg;
	struct perf_buffer *rb;
	int ret = -EINVAL;
	long extra;

	mutex_lock(&perf_rb_mutex);
	rb = rcu_dereference_protected(event->rb,
				       lockdep_is_held(&perf_rb_mutex));
	if (!rb || !atomic_read(&rb->mmap_count))
		goto out;
	userpg = rb->user_page;
	if (READ_ONCE(userpg->aux_offset) < rb_data_size(rb) + PAGE_SIZE ||
	    READ_ONCE(userpg->aux_offset) != vma->vm_pgoff << PAGE_SHIFT ||
	    READ_ONCE(userpg->aux_size) != nr_pages << PAGE_SHIFT ||
	    !is_power_of_2(nr_pages))
		goto out;
	if (rb->aux_nr_pages) {
		/* another mapping of the area, or the old one still going */
		if (rb->aux_pgoff != vma->vm_pgoff ||
		    rb->aux_nr_pages != nr_pages)
			goto out;
		ret = -EBUSY;
		if (!atomic_read(&rb->aux_mmap_count))
			goto out;
		ret = rb_aux_map(rb, vma);
		if (ret)
			goto out;
		atomic_inc(&rb->aux_mmap_count);
		goto mapped;
	}
	ret = -ENOMEM;
	if (nr_pages > INT_MAX)
		goto out;
	/* many CPUs write a shared buffer at once: no AUX writer does that */
	ret = -EOPNOTSUPP;
	if (rb->shared)
		goto out;
	extra = rb_charge_check(vma, nr_pages);
	if (extra < 0) {
		ret = extra;
		goto out;
	}
	ret = rb_aux_alloc(rb, event, vma->vm_pgoff, nr_pages,
			   !(vma->vm_flags & VM_WRITE));
	if (ret)
		goto out;
	ret = rb_aux_map(rb, vma);
	if (ret) {
		/* nobody else has seen the area: this frees it */
		rb_aux_put(rb);
		goto out;
	}
	atomic_long_add(nr_pages - extra, &current_user()->perf_mlock);
	atomic64_add(extra, &vma->vm_mm->pinned_vm);
	rb->aux_user = get_current_user();
	rb->aux_locked = extra;
	atomic_set(&rb->aux_mmap_count, 1);
mapped:
	atomic_inc(&rb->mmap_count);
	atomic_inc(&event->mmap_count);
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	ret = 0;
out:
	mutex_unlock(&perf_rb_mutex);
	if (!ret)
		perf_pmu_mapped(event, vma->vm_mm);
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

	mmap_assert_write_locked(vma->vm_mm);
	/*
	 * Inherited per-task events would all write into one buffer from
	 * every CPU: only a shared buffer (our extension) takes that.
	 */
	if (event->cpu == -1 && event->attr.inherit &&
	    !(event->ext_flags & PERF_FLAG_SHARED_BUFFER))
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	ret = security_perf_event_read(event);
	if (ret)
		return ret;
	rb_vma_prepare(vma);
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
		      !(vma->vm_flags & VM_WRITE),
		      event->ext_flags & PERF_FLAG_SHARED_BUFFER);
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
unlock:
	mutex_unlock(&perf_rb_mutex);
	if (!ret) {
		perf_pmu_mapped(event, vma->vm_mm);
		perf_event_update_userpage(event);
	}
	return ret;
}
