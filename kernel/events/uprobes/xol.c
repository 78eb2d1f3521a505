// SPDX-License-Identifier: GPL-2.0
/*
 * The "execute out of line" page of an mm.
 *
 * A task that hit a breakpoint runs the original instruction from a copy
 * in a slot of this page, single-stepping it, then comes back.  Each task
 * in the middle of that owns one slot; a task that finds them all taken
 * waits for one.  Slot 0 holds the return trampoline instead: a return
 * probe makes the probed function return there (task.c).
 *
 * The page is mapped "[uprobes]", executable and not writable by the
 * task, on the first hit that needs it, and is not copied into a forked
 * child (a child with pending return probes gets its own at the same
 * address, from a task_work).  It lives until the mm is freed: __mmput()
 * frees it before exit_mmap() closes the mapping, so the mapping's
 * description is one static object, not part of the area, and its fault
 * handler finds the page through the mm.
 */
#include <linux/highmem.h>
#include <linux/mman.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "internal.h"

#define XOL_SLOTS	(PAGE_SIZE / UPROBE_XOL_SLOT_BYTES)

/**
 * struct xol_area - one mm's XOL page
 * @vaddr: where it is mapped; the trampoline is at @vaddr
 * @page: the page
 * @wq: tasks waiting for a free slot
 * @used: slots taken, the trampoline's included
 * @slots: which slots are taken
 */
struct xol_area {
	unsigned long		vaddr;
	struct page		*page;
	wait_queue_head_t	wq;
	atomic_t		used;
	DECLARE_BITMAP(slots, XOL_SLOTS);
};

/*
 * Every fault of the mapping is answered with the area's one page.  The
 * mapping exists only while its mm, and so the area, does.
 */
static vm_fault_t xol_fault(const struct vm_special_mapping *which,
			    struct vm_area_struct *vma, struct vm_fault *vmf)
{
	struct page *page = vma->vm_mm->uprobes_state.xol_area->page;

	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_special_mapping xol_mapping = {
	.fault	= xol_fault,
	.name	= "[uprobes]",
};

/**
 * arch_uprobe_get_xol_area - where to map the XOL page (arch override)
 *
 * Return: an unmapped address as high as possible, or an errno value.
 */
unsigned long __weak arch_uprobe_get_xol_area(void)
{
	unsigned long top_page = TASK_SIZE - PAGE_SIZE;

	/* a hint: if that page is taken, the usual search picks one */
	return get_unmapped_area(NULL, top_page, PAGE_SIZE, 0, 0);
}

/**
 * arch_uprobe_trampoline - the code a return probe returns through
 * @psize: set to its size
 *
 * By default a breakpoint: the trap at the trampoline's address is the
 * return.  Arches with something cheaper override this.
 *
 * Return: the code.
 */
void * __weak arch_uprobe_trampoline(unsigned long *psize)
{
	static uprobe_opcode_t bp = UPROBE_SWBP_INSN;

	*psize = UPROBE_SWBP_INSN_SIZE;
	return &bp;
}

/**
 * arch_uprobe_copy_ixol - copy instructions into the XOL page
 * @page: the XOL page
 * @vaddr: user address of the slot (its offset in the page is used)
 * @src: the instructions
 * @len: their size
 *
 * Arches whose instruction cache needs more than flush_dcache_page()
 * override this.
 */
void __weak arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
				  void *src, unsigned long len)
{
	memcpy_to_page(page, offset_in_page(vaddr), src, len);
	flush_dcache_page(page);
}

static void xol_area_free(struct xol_area *area)
{
	if (area->page)
		put_page(area->page);
	kfree(area);
}

/* make current->mm's XOL page, at @want if not 0 */
static struct xol_area *xol_area_create(unsigned long want)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct xol_area *area, *had;
	unsigned long size, vaddr;
	void *code;

	area = kzalloc(sizeof(*area), GFP_KERNEL);
	if (!area)
		return NULL;
	area->page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!area->page)
		goto fail;
	init_waitqueue_head(&area->wq);

	/* slot 0 is the trampoline's for the mm's life */
	__set_bit(0, area->slots);
	atomic_set(&area->used, 1);
	code = arch_uprobe_trampoline(&size);
	arch_uprobe_copy_ixol(area->page, 0, code, size);

	if (mmap_write_lock_killable(mm))
		goto fail;
	had = mm->uprobes_state.xol_area;
	if (had) {
		/* another thread of the mm was first */
		mmap_write_unlock(mm);
		xol_area_free(area);
		return had;
	}
	vaddr = want ? want : arch_uprobe_get_xol_area();
	if (IS_ERR_VALUE(vaddr))
		goto unlock;
	vma = _install_special_mapping(mm, vaddr, PAGE_SIZE,
				       VM_EXEC | VM_MAYEXEC | VM_DONTCOPY | VM_IO,
				       &xol_mapping);
	if (IS_ERR(vma))
		goto unlock;
	area->vaddr = vaddr;
	/* pairs with the acquire in uprobe_xol_area() */
	smp_store_release(&mm->uprobes_state.xol_area, area);
	mmap_write_unlock(mm);
	return area;

unlock:
	mmap_write_unlock(mm);
fail:
	xol_area_free(area);
	return NULL;
}

/**
 * uprobe_xol_area - current->mm's XOL page, mapped now if it is not yet
 * @want: the address to map it at, or 0 for anywhere
 *
 * Context: process context, may sleep; current has an mm.
 *
 * Return: the area, or NULL when it could not be made.
 */
struct xol_area *uprobe_xol_area(unsigned long want)
{
	struct xol_area *area;

	/* pairs with the release in xol_area_create(): the area is set up */
	area = smp_load_acquire(&current->mm->uprobes_state.xol_area);
	return area ?: xol_area_create(want);
}

/**
 * uprobe_xol_take - a slot for current, filled with @uprobe's instruction
 * @uprobe: the uprobe whose original instruction is to be stepped
 *
 * Waits while every slot is taken.
 *
 * Context: process context, may sleep.
 *
 * Return: the slot's user address, or 0.
 */
unsigned long uprobe_xol_take(struct uprobe *uprobe)
{
	struct xol_area *area = uprobe_xol_area(0);
	unsigned long vaddr;
	unsigned int nr;

	if (!area)
		return 0;

	for (;;) {
		nr = find_first_zero_bit(area->slots, XOL_SLOTS);
		if (nr < XOL_SLOTS) {
			if (!test_and_set_bit(nr, area->slots))
				break;
			continue;
		}
		wait_event(area->wq, atomic_read(&area->used) < XOL_SLOTS);
	}
	atomic_inc(&area->used);

	vaddr = area->vaddr + nr * UPROBE_XOL_SLOT_BYTES;
	arch_uprobe_copy_ixol(area->page, vaddr, &uprobe->arch.ixol,
			      sizeof(uprobe->arch.ixol));
	return vaddr;
}

/**
 * uprobe_xol_release - give back @t's slot, if it has one
 * @t: the task (current, or one being freed)
 */
void uprobe_xol_release(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;
	struct xol_area *area;
	unsigned long nr;

	if (!t->mm || !utask || !utask->xol_vaddr)
		return;
	area = t->mm->uprobes_state.xol_area;
	if (!area || utask->xol_vaddr < area->vaddr)
		return;
	nr = (utask->xol_vaddr - area->vaddr) / UPROBE_XOL_SLOT_BYTES;
	if (nr == 0 || nr >= XOL_SLOTS)
		return;

	clear_bit(nr, area->slots);
	atomic_dec(&area->used);
	/* the slot is free before the check; prepare_to_wait() pairs */
	smp_mb__after_atomic();
	/* a waiter that did not see the slot free is queued by now */
	if (waitqueue_active(&area->wq))
		wake_up(&area->wq);
	utask->xol_vaddr = 0;
}

/**
 * uprobe_xol_free - free an mm's XOL page
 * @mm: the mm, being freed; no task uses it any more (its mappings are
 *	closed after this)
 *
 * Context: any, must not sleep.
 */
void uprobe_xol_free(struct mm_struct *mm)
{
	struct xol_area *area = mm->uprobes_state.xol_area;

	mm->uprobes_state.xol_area = NULL;
	if (area)
		xol_area_free(area);
}

/**
 * uprobe_get_trampoline_vaddr - where current's return probes return to
 *
 * Return: the trampoline's address, or UPROBE_NO_TRAMPOLINE_VADDR while
 * current's mm has no XOL page.
 */
unsigned long uprobe_get_trampoline_vaddr(void)
{
	struct xol_area *area;

	if (!current->mm)
		return UPROBE_NO_TRAMPOLINE_VADDR;
	/* pairs with the release in xol_area_create() */
	area = smp_load_acquire(&current->mm->uprobes_state.xol_area);
	return area ? area->vaddr : UPROBE_NO_TRAMPOLINE_VADDR;
}
