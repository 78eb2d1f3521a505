// SPDX-License-Identifier: GPL-2.0
/*
 * Breakpoints in address spaces.
 *
 * Writing one is what a debugger's PTRACE_POKETEXT does: a FOLL_FORCE |
 * FOLL_WRITE get_user_pages_remote() breaks copy-on-write of the text
 * page, and the breakpoint goes into this mm's private anonymous copy.
 * The file's page cache is never written, so other mms and the file
 * itself keep the original bytes.  When a breakpoint is taken out and the
 * private copy is again byte for byte the file's page, the copy is zapped
 * so the mm maps the shared page again instead of keeping a page of its
 * own for good.
 *
 * A uprobe with a reference counter (an SDT semaphore: a short in the
 * file's writable data that tells the program someone listens) has it
 * incremented in an mm whenever its breakpoint goes in there, and
 * decremented when it comes out.  Text is often mapped before data, so an
 * increment that finds no data mapping waits on a list until uprobe_mmap()
 * sees the mapping appear.
 *
 * Locking: everything here runs with the mm's mmap_lock held, for writing
 * except where a hit removes its own breakpoint (reading), which
 * get_user_pages_remote() and zap_page_range_single() both allow.
 */
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/userfaultfd_k.h>

#include "internal.h"

/**
 * uprobe_vma_ok - can @vma carry a uprobe breakpoint?
 * @vma: the mapping
 * @installing: a new breakpoint (false: one may be there to take out)
 *
 * Only private, executable-capable file mappings have a private copy to
 * write into.  A writable one gets no new breakpoint: the program could
 * write over it, and its data is no place for a probe.
 *
 * Return: true if it can.
 */
bool uprobe_vma_ok(struct vm_area_struct *vma, bool installing)
{
	if (!vma->vm_file || !(vma->vm_flags & VM_MAYEXEC))
		return false;
	if (vma->vm_flags & (VM_HUGETLB | VM_MAYSHARE))
		return false;
	return !(installing && (vma->vm_flags & VM_WRITE));
}

/**
 * uprobe_vma_offset - the file offset @vaddr maps in @vma
 * @vma: a file mapping
 * @vaddr: an address in it
 *
 * Return: the offset.
 */
loff_t uprobe_vma_offset(struct vm_area_struct *vma, unsigned long vaddr)
{
	return ((loff_t)vma->vm_pgoff << PAGE_SHIFT) + (vaddr - vma->vm_start);
}

/**
 * uprobe_vma_vaddr - the address @vma maps file offset @offset at
 * @vma: a file mapping
 * @offset: an offset inside its window of the file
 *
 * Return: the address.
 */
unsigned long uprobe_vma_vaddr(struct vm_area_struct *vma, loff_t offset)
{
	return vma->vm_start + (offset - ((loff_t)vma->vm_pgoff << PAGE_SHIFT));
}

/* does @vma map @offset of @inode? */
static bool uprobe_vma_covers(struct vm_area_struct *vma,
			      struct inode *inode, loff_t offset)
{
	loff_t first;

	if (!vma->vm_file || file_inode(vma->vm_file) != inode)
		return false;
	first = uprobe_vma_offset(vma, vma->vm_start);
	return offset >= first && offset < first + (vma->vm_end - vma->vm_start);
}

/* a page of the file, from the page cache */
static struct page *uprobe_file_page(struct file *file, struct inode *inode,
				     pgoff_t index)
{
	struct address_space *mapping = inode->i_mapping;

	if (shmem_mapping(mapping))
		return shmem_read_mapping_page(mapping, index);
	return read_mapping_page(mapping, index, file);
}

/* @len bytes of the file at @pos; the range may cross a page */
static int uprobe_read_file(struct file *file, struct inode *inode,
			    loff_t pos, void *buf, size_t len)
{
	while (len) {
		size_t off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;

		page = uprobe_file_page(file, inode, pos >> PAGE_SHIFT);
		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy_from_page(buf, page, off, n);
		put_page(page);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/*
 * The first install copies the original instruction from the file (not
 * from an mm, where a breakpoint may already sit) and lets the arch decide
 * how to single-step or emulate it.  Later hits read @arch without a lock
 * once @prepared is seen set.
 */
static int uprobe_prepare(struct uprobe *u, struct vm_area_struct *vma,
			  unsigned long vaddr)
{
	loff_t size;
	int err = 0;

	/* pairs with the release below: a set flag means @arch is complete */
	if (smp_load_acquire(&u->prepared))
		return 0;

	mutex_lock(&u->prep_lock);
	if (u->prepared)
		goto out;

	size = i_size_read(u->inode);
	if (u->offset >= size) {
		err = -EINVAL;
		goto out;
	}
	err = uprobe_read_file(vma->vm_file, u->inode, u->offset, &u->arch.insn,
			       min_t(loff_t, sizeof(u->arch.insn),
				     size - u->offset));
	if (err)
		goto out;

	/* a trap already in the file cannot be stepped out of line */
	if (is_trap_insn((uprobe_opcode_t *)&u->arch.insn)) {
		err = -ENOTSUPP;
		goto out;
	}
	err = arch_uprobe_analyze_insn(&u->arch, vma->vm_mm, vaddr);
	if (!err) {
		/* publish @arch before the flag; hits read it with acquire */
		smp_store_release(&u->prepared, true);
	}
out:
	mutex_unlock(&u->prep_lock);
	return err;
}

/* the page of @mm at @vaddr with @flags, and a reference on it */
static int uprobe_mm_page(struct mm_struct *mm, unsigned long vaddr,
			  unsigned int flags, struct page **page)
{
	long got = get_user_pages_remote(mm, vaddr, 1, flags, page, NULL);

	if (got == 1)
		return 0;
	return got < 0 ? got : -EFAULT;
}

/* read @len bytes of @mm at @vaddr; the range stays inside one page */
static int uprobe_peek(struct mm_struct *mm, unsigned long vaddr,
		       void *buf, size_t len)
{
	struct page *page;
	int err;

	err = uprobe_mm_page(mm, vaddr, FOLL_FORCE, &page);
	if (err)
		return err;
	memcpy_from_page(buf, page, offset_in_page(vaddr), len);
	put_page(page);
	return 0;
}

/*
 * Write @len bytes into @mm at @vaddr, breaking copy-on-write first;
 * copy_to_user_page() keeps the instruction cache coherent where the arch
 * needs it.
 */
static int uprobe_poke(struct mm_struct *mm, unsigned long vaddr,
		       const void *buf, size_t len)
{
	struct vm_area_struct *vma;
	struct page *page;
	void *kaddr;
	int err;

	err = uprobe_mm_page(mm, vaddr, FOLL_FORCE | FOLL_WRITE, &page);
	if (err)
		return err;
	vma = vma_lookup(mm, vaddr);
	if (vma) {
		kaddr = kmap_local_page(page);
		copy_to_user_page(vma, page, vaddr,
				  kaddr + offset_in_page(vaddr), buf, len);
		kunmap_local(kaddr);
		set_page_dirty_lock(page);
	} else {
		err = -EFAULT;
	}
	put_page(page);
	return err;
}

/*
 * After a breakpoint came out: if @mm's private copy of the page equals
 * the file's page again, drop the copy; the next access maps the shared
 * page.  Not for locked or userfaultfd mappings, where a missing page
 * means something else.
 */
static void uprobe_drop_copy(struct mm_struct *mm, unsigned long vaddr)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);
	struct page *mine, *theirs;
	void *a, *b;
	bool same;

	if (!vma || !vma->vm_file || userfaultfd_armed(vma) ||
	    (vma->vm_flags & (VM_LOCKED | VM_WRITE)))
		return;
	if (uprobe_mm_page(mm, vaddr, FOLL_FORCE, &mine))
		return;
	if (!PageAnon(mine) || PageCompound(mine)) {
		put_page(mine);
		return;
	}
	theirs = uprobe_file_page(vma->vm_file, file_inode(vma->vm_file),
				  linear_page_index(vma, vaddr));
	if (IS_ERR(theirs)) {
		put_page(mine);
		return;
	}
	a = kmap_local_page(mine);
	b = kmap_local_page(theirs);
	same = !memcmp(a, b, PAGE_SIZE);
	kunmap_local(b);
	kunmap_local(a);
	put_page(theirs);
	put_page(mine);

	if (same)
		zap_page_range_single(vma, vaddr & PAGE_MASK, PAGE_SIZE, NULL);
}

/* reference counters ------------------------------------------------- */

/* an increment waiting for the counter's mapping to appear in @mm */
struct uprobe_delayed {
	struct list_head	node;
	struct uprobe		*uprobe;	/* holds a reference */
	struct mm_struct	*mm;		/* dropped by uprobe_clear_state() */
};

static LIST_HEAD(uprobe_delayed_list);
static DEFINE_SPINLOCK(uprobe_delayed_lock);

/* does @vma hold @u's counter: a private, writable mapping of the file */
static bool uprobe_ctr_vma(struct uprobe *u, struct vm_area_struct *vma)
{
	if ((vma->vm_flags & (VM_WRITE | VM_SHARED)) != VM_WRITE)
		return false;
	return uprobe_vma_covers(vma, u->inode, u->ref_ctr_offset);
}

static int uprobe_ctr_add(struct mm_struct *mm, unsigned long vaddr, short d)
{
	struct page *page;
	short *ctr;
	int err;

	err = uprobe_mm_page(mm, vaddr, FOLL_WRITE, &page);
	if (err)
		return err;
	ctr = kmap_local_page(page) + offset_in_page(vaddr);
	if (*ctr + d < 0) {
		pr_warn("ref_ctr going negative. vaddr: 0x%lx, curr val: %d, delta: %d\n",
			vaddr, *ctr, d);
		err = -EINVAL;
	} else {
		*ctr += d;
	}
	kunmap_local(ctr);
	put_page(page);
	return err;
}

static void uprobe_ctr_warn(struct uprobe *u, struct mm_struct *mm, short d)
{
	pr_warn("ref_ctr %s failed for inode: 0x%lx offset: 0x%llx ref_ctr_offset: 0x%llx of mm: 0x%pK\n",
		d > 0 ? "increment" : "decrement", u->inode->i_ino,
		(unsigned long long)u->offset,
		(unsigned long long)u->ref_ctr_offset, mm);
}

static int uprobe_delay_inc(struct uprobe *u, struct mm_struct *mm)
{
	struct uprobe_delayed *d, *fresh;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;

	spin_lock(&uprobe_delayed_lock);
	list_for_each_entry(d, &uprobe_delayed_list, node) {
		if (d->uprobe == u && d->mm == mm) {
			spin_unlock(&uprobe_delayed_lock);
			kfree(fresh);
			return 0;
		}
	}
	uprobe_get(u);
	fresh->uprobe = u;
	fresh->mm = mm;
	list_add(&fresh->node, &uprobe_delayed_list);
	spin_unlock(&uprobe_delayed_lock);
	return 0;
}

/* drop the delayed increments of @u (or any) in @mm (or any) */
static void uprobe_delayed_drop(struct uprobe *u, struct mm_struct *mm)
{
	struct uprobe_delayed *d, *tmp;
	LIST_HEAD(gone);

	spin_lock(&uprobe_delayed_lock);
	list_for_each_entry_safe(d, tmp, &uprobe_delayed_list, node) {
		if ((!u || d->uprobe == u) && (!mm || d->mm == mm))
			list_move(&d->node, &gone);
	}
	spin_unlock(&uprobe_delayed_lock);

	list_for_each_entry_safe(d, tmp, &gone, node) {
		uprobe_put(d->uprobe);
		kfree(d);
	}
}

/**
 * uprobe_forget_delayed - drop the waiting counter increments of a uprobe
 * @uprobe: a uprobe leaving the set; its inode may go after this
 */
void uprobe_forget_delayed(struct uprobe *uprobe)
{
	uprobe_delayed_drop(uprobe, NULL);
}

/* a new writable file mapping: apply the increments that waited for it */
static void uprobe_delayed_apply(struct vm_area_struct *vma)
{
	struct uprobe_delayed *d, *tmp;
	LIST_HEAD(due);

	spin_lock(&uprobe_delayed_lock);
	list_for_each_entry_safe(d, tmp, &uprobe_delayed_list, node) {
		if (d->mm == vma->vm_mm && uprobe_ctr_vma(d->uprobe, vma))
			list_move(&d->node, &due);
	}
	spin_unlock(&uprobe_delayed_lock);

	list_for_each_entry_safe(d, tmp, &due, node) {
		unsigned long vaddr = uprobe_vma_vaddr(vma, d->uprobe->ref_ctr_offset);

		if (uprobe_ctr_add(vma->vm_mm, vaddr, 1))
			uprobe_ctr_warn(d->uprobe, vma->vm_mm, 1);
		uprobe_put(d->uprobe);
		kfree(d);
	}
}

static int uprobe_ctr_change(struct uprobe *u, struct mm_struct *mm, short d)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;
	int err = 0;

	for_each_vma(vmi, vma) {
		if (!uprobe_ctr_vma(u, vma))
			continue;
		err = uprobe_ctr_add(mm, uprobe_vma_vaddr(vma, u->ref_ctr_offset), d);
		if (err)
			uprobe_ctr_warn(u, mm, d);
		if (d > 0)
			return err;
		break;
	}

	if (d > 0)
		return uprobe_delay_inc(u, mm);
	uprobe_delayed_drop(u, mm);
	return err;
}

/* writing the breakpoint ---------------------------------------------- */

/**
 * uprobe_write_opcode - put a breakpoint in, or the original back
 * @auprobe: the arch part of the uprobe
 * @mm: the address space
 * @vaddr: where; the opcode does not cross a page
 * @opcode: UPROBE_SWBP_INSN to install, the original opcode to remove
 *
 * Nothing happens when the address already holds what is asked for (a
 * fork copied the breakpoint, or another path took it out).  Only a real
 * change moves the uprobe's reference counter.
 *
 * Context: @mm's mmap_lock held.
 *
 * Return: 0 or a negative errno.
 */
int uprobe_write_opcode(struct arch_uprobe *auprobe, struct mm_struct *mm,
			unsigned long vaddr, uprobe_opcode_t opcode)
{
	struct uprobe *u = container_of(auprobe, struct uprobe, arch);
	bool install = is_swbp_insn(&opcode);
	uprobe_opcode_t now;
	int err;

	mmap_assert_locked(mm);

	err = uprobe_peek(mm, vaddr, &now, sizeof(now));
	if (err)
		return err;
	if (is_swbp_insn(&now) == install)
		return 0;

	if (u->ref_ctr_offset) {
		err = uprobe_ctr_change(u, mm, install ? 1 : -1);
		if (err && install)
			return err;
	}

	err = uprobe_poke(mm, vaddr, &opcode, sizeof(opcode));
	if (err) {
		if (install && u->ref_ctr_offset)
			uprobe_ctr_change(u, mm, -1);
		return err;
	}
	if (!install)
		uprobe_drop_copy(mm, vaddr);
	return 0;
}

/**
 * set_swbp - install a breakpoint (arch override possible)
 * @auprobe: the arch part of the uprobe
 * @mm: the address space
 * @vaddr: where
 *
 * Return: 0 or a negative errno.
 */
int __weak set_swbp(struct arch_uprobe *auprobe, struct mm_struct *mm,
		    unsigned long vaddr)
{
	return uprobe_write_opcode(auprobe, mm, vaddr, UPROBE_SWBP_INSN);
}

/**
 * set_orig_insn - put the original instruction back (arch override possible)
 * @auprobe: the arch part of the uprobe
 * @mm: the address space
 * @vaddr: where
 *
 * Return: 0 or a negative errno.
 */
int __weak set_orig_insn(struct arch_uprobe *auprobe, struct mm_struct *mm,
			 unsigned long vaddr)
{
	return uprobe_write_opcode(auprobe, mm, vaddr,
				   *(uprobe_opcode_t *)&auprobe->insn);
}

/**
 * is_swbp_insn - is @insn the breakpoint uprobes write?
 * @insn: an opcode
 *
 * Return: true if it is.
 */
bool __weak is_swbp_insn(uprobe_opcode_t *insn)
{
	return *insn == UPROBE_SWBP_INSN;
}

/**
 * uprobe_install - put @uprobe's breakpoint into @vma at @vaddr
 * @uprobe: the uprobe
 * @vma: a mapping of its file that passes uprobe_vma_ok()
 * @vaddr: where its offset is mapped
 *
 * Context: the mm's mmap_lock held for writing.
 *
 * Return: 0 or a negative errno (the instruction cannot be probed, or
 * memory could not be written).
 */
int uprobe_install(struct uprobe *uprobe, struct vm_area_struct *vma,
		   unsigned long vaddr)
{
	struct mm_struct *mm = vma->vm_mm;
	bool first;
	int err;

	mmap_assert_write_locked(mm);

	err = uprobe_prepare(uprobe, vma, vaddr);
	if (err)
		return err;

	/* before the breakpoint can trap: the trap notifier looks at it */
	first = !test_and_set_bit(MMF_HAS_UPROBES, &mm->flags);
	err = set_swbp(&uprobe->arch, mm, vaddr);
	if (!err)
		clear_bit(MMF_RECALC_UPROBES, &mm->flags);
	else if (first)
		clear_bit(MMF_HAS_UPROBES, &mm->flags);
	return err;
}

/**
 * uprobe_remove - take @uprobe's breakpoint out of @mm at @vaddr
 * @uprobe: the uprobe
 * @mm: the address space
 * @vaddr: where
 *
 * Context: @mm's mmap_lock held.
 *
 * Return: 0 or a negative errno.
 */
int uprobe_remove(struct uprobe *uprobe, struct mm_struct *mm,
		  unsigned long vaddr)
{
	mmap_assert_locked(mm);

	/* MMF_HAS_UPROBES may now be stale; the next miss recounts */
	set_bit(MMF_RECALC_UPROBES, &mm->flags);
	return set_orig_insn(&uprobe->arch, mm, vaddr);
}

/**
 * uprobe_remove_from_mm - take @uprobe's breakpoints out of one mm
 * @uprobe: the uprobe
 * @mm: the address space, current's
 *
 * For a hit whose consumers all asked to be removed from this process.
 *
 * Context: may sleep; takes the mmap_lock for reading.
 */
void uprobe_remove_from_mm(struct uprobe *uprobe, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long vaddr;

	mmap_read_lock(mm);
	/* the file may be mapped more than once: visit every mapping */
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		if (!uprobe_vma_ok(vma, false) ||
		    !uprobe_vma_covers(vma, uprobe->inode, uprobe->offset))
			continue;
		vaddr = uprobe_vma_vaddr(vma, uprobe->offset);
		uprobe_remove(uprobe, mm, vaddr);
	}
	mmap_read_unlock(mm);
}

/**
 * is_trap_insn - is @insn any breakpoint (ours or someone else's)?
 * @insn: an opcode
 *
 * Return: true if it is.
 */
bool __weak is_trap_insn(uprobe_opcode_t *insn)
{
	return is_swbp_insn(insn);
}

/**
 * uprobe_trap_at - is there a breakpoint instruction at @vaddr of @mm?
 * @mm: current's mm
 * @vaddr: the address
 *
 * Context: @mm's mmap_lock held.
 *
 * Return: 1 if there is, 0 if not, or a negative errno.
 */
int uprobe_trap_at(struct mm_struct *mm, unsigned long vaddr)
{
	uprobe_opcode_t op;
	unsigned long left;
	int err;

	mmap_assert_locked(mm);
	if (WARN_ON_ONCE(!IS_ALIGNED(vaddr, UPROBE_SWBP_INSN_SIZE)))
		return -EINVAL;

	pagefault_disable();
	left = __copy_from_user_inatomic(&op, (void __user *)vaddr, sizeof(op));
	pagefault_enable();
	if (left) {
		err = uprobe_peek(mm, vaddr, &op, sizeof(op));
		if (err)
			return err;
	}
	return is_trap_insn(&op);
}

/**
 * uprobe_mm_recalc - clear MMF_HAS_UPROBES if no mapping has a uprobe left
 * @mm: the address space
 *
 * Context: @mm's mmap_lock held.
 */
void uprobe_mm_recalc(struct mm_struct *mm)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);

	for_each_vma(vmi, vma) {
		loff_t first;

		if (!uprobe_vma_ok(vma, false))
			continue;
		first = uprobe_vma_offset(vma, vma->vm_start);
		if (uprobes_in_range(file_inode(vma->vm_file), first,
				     first + (vma->vm_end - vma->vm_start) - 1))
			return;
	}
	clear_bit(MMF_HAS_UPROBES, &mm->flags);
}

/* the mm hooks -------------------------------------------------------- */

/* uprobes handled per reference batch in uprobe_mmap() */
#define UPROBE_MMAP_BATCH	16

/**
 * uprobe_mmap - a file mapping appeared: put in the uprobes it covers
 * @vma: the new (or resized) mapping
 *
 * Installing is idempotent, so a vma that merely changed shape is fine.
 * Errors are not reported: the mapping itself succeeded.
 *
 * Context: the mm's mmap_lock held for writing.
 *
 * Return: 0.
 */
int uprobe_mmap(struct vm_area_struct *vma)
{
	struct uprobe *batch[UPROBE_MMAP_BATCH];
	struct inode *inode;
	loff_t first, last;
	int nr, i;

	mmap_assert_write_locked(vma->vm_mm);
	if (uprobes_none())
		return 0;

	if (vma->vm_file && (vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE &&
	    !list_empty_careful(&uprobe_delayed_list))
		uprobe_delayed_apply(vma);

	if (!uprobe_vma_ok(vma, true))
		return 0;

	inode = file_inode(vma->vm_file);
	first = uprobe_vma_offset(vma, vma->vm_start);
	last = first + (vma->vm_end - vma->vm_start) - 1;
	do {
		nr = uprobes_collect(inode, first, last, batch, ARRAY_SIZE(batch));
		for (i = 0; i < nr; i++) {
			struct uprobe *u = batch[i];

			if (!fatal_signal_pending(current) &&
			    uprobe_wanted(u, vma->vm_mm))
				uprobe_install(u, vma, uprobe_vma_vaddr(vma, u->offset));
			first = u->offset + 1;
			uprobe_put(u);
		}
	} while (nr == ARRAY_SIZE(batch));
	return 0;
}

/**
 * uprobe_munmap - part of a file mapping goes away
 * @vma: the mapping
 * @start: first address going
 * @end: end of the range going
 *
 * Breakpoints in the range go with it; MMF_HAS_UPROBES may then be stale,
 * which the next breakpoint miss in this mm recounts.
 *
 * Context: process context.  The mm's mmap_lock is held for writing when
 * mappings change, for reading when pages are zapped (munmap after the
 * downgrade, madvise, exit_mmap()); unmap_mapping_range() zaps holding
 * only the file's i_mmap_rwsem.  None of them is needed here: the mm's
 * flags are atomic bits and the set of uprobes has its own lock.
 */
void uprobe_munmap(struct vm_area_struct *vma, unsigned long start,
		   unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;

	mmap_assert_locked(mm);
	if (uprobes_none() || !uprobe_vma_ok(vma, false))
		return;
	/* exit_mmap(): the whole mm goes, nothing to keep count of */
	if (!atomic_read(&mm->mm_users))
		return;
	if (!test_bit(MMF_HAS_UPROBES, &mm->flags) ||
	    test_bit(MMF_RECALC_UPROBES, &mm->flags))
		return;
	if (uprobes_in_range(file_inode(vma->vm_file),
			     uprobe_vma_offset(vma, start),
			     uprobe_vma_offset(vma, end) - 1))
		set_bit(MMF_RECALC_UPROBES, &mm->flags);
}

/**
 * uprobe_dup_mmap - fork copied @oldmm into @newmm
 * @oldmm: the parent's mm
 * @newmm: the child's
 *
 * The child's private text pages, breakpoints included, are copies of the
 * parent's; the XOL mapping is not copied (VM_DONTCOPY), so the flag may
 * be stale from the start.
 */
void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	if (!test_bit(MMF_HAS_UPROBES, &oldmm->flags))
		return;
	/* counted afresh at the child's first breakpoint miss */
	set_bit(MMF_RECALC_UPROBES, &newmm->flags);
	set_bit(MMF_HAS_UPROBES, &newmm->flags);
}

/**
 * uprobe_clear_state - an mm is freed: drop its XOL page and waiting
 * counter increments
 * @mm: the mm
 *
 * Context: __mmput(), with no user of @mm left and before exit_mmap()
 * closes its mappings.
 */
void uprobe_clear_state(struct mm_struct *mm)
{
	uprobe_delayed_drop(NULL, mm);
	uprobe_xol_free(mm);
}
