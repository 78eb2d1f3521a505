// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping a ring buffer: mmap() of an event's fd creates its buffer,
 * charges its pages to the mapping user (RLIMIT_MEMLOCK, then
 * perf_event_mlock_kb, then CAP_IPC_LOCK) and maps them; the VMA's
 * open and close follow copies and the last unmap detaches the buffer.
 *
 * Attachment and mapping: perf_rb_mutex serialises mmap(), munmap(),
 * SET_OUTPUT and detaching at close for all events.  These are rare
 * operations, so one mutex is simpler than ordering per-event mutexes.  It
 * nests inside mm->mmap_lock (mmap and munmap run under it) and is never
 * held while taking it; SET_OUTPUT, at open as by ioctl, takes it without
 * ctx->mutex.
 */
#include <linux/mm.h>
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
			&rb->mmap_user->locked_vm);
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

static const struct vm_operations_struct rb_vm_ops = {
	.may_split	= rb_vma_no_split,
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
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

	lockdep_assert_held(&perf_rb_mutex);
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
	vma->vm_ops = &rb_vm_ops;
unlock:
	mutex_unlock(&perf_rb_mutex);
	if (!ret) {
		perf_pmu_mapped(event, vma->vm_mm);
		perf_event_update_userpage(event);
	}
	return ret;
}
