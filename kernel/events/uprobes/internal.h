/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the files of kernel/events/uprobes/.
 *
 * A uprobe is a breakpoint at one offset of one file.  Every process
 * that maps that offset executably gets the architecture's breakpoint
 * instruction written into its private copy of the page; a hit traps,
 * the consumers' handlers run on the way back to user mode, and the
 * original instruction is then single-stepped from a per-process
 * "execute out of line" (XOL) page, or emulated by the arch code.
 *
 * Files and what they own:
 *  tree.c      the set of uprobes (inode, offset), references,
 *              consumers and their filters
 *  register.c  uprobe_register/apply/unregister: walking every
 *              mm that maps the file
 *  mm.c        writing the breakpoint into an mm, the reference
 *              counters (SDT semaphores), the mmap/munmap/fork hooks
 *  xol.c       the XOL page of an mm: slots and the return
 *              trampoline
 *  task.c      what a task does on a hit: handlers, single-step,
 *              return probes, signals, fork and exit
 *
 * Lock order, outermost first:
 *   uprobe->register_rwsem
 *     mm->mmap_lock
 *       uprobe->prep_lock
 *       uprobe->consumer_rwsem
 *       uprobe_delayed_lock, uprobe_tree_lock (spinlocks, innermost)
 * The mapping's i_mmap_rwsem is taken only to list the mms that map a
 * file, with no other of these held but register_rwsem.
 */
#ifndef _KERNEL_EVENTS_UPROBES_INTERNAL_H
#define _KERNEL_EVENTS_UPROBES_INTERNAL_H

#include <linux/mm.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/srcu.h>
#include <linux/uprobes.h>

/**
 * struct uprobe - one probed (inode, offset)
 * @inode: the probed file; its user keeps it alive while registered
 * @offset: the probed offset in @inode
 * @ref_ctr_offset: offset in @inode of a short counted up while the
 *	breakpoint is in an mm (an SDT semaphore), or 0
 * @rb: link in the set, ordered by inode then offset
 * @unlinked: out of the set; a register that finds it must start over
 * @ref: references; the set holds one while @rb is linked
 * @rcu: the free waits for uprobe_srcu readers of the set
 * @consumers: the uprobe_consumers; the hit path walks it under
 *	uprobe_srcu
 * @consumer_rwsem: writers change @consumers; the filter walk reads
 * @register_rwsem: one register/unregister/apply at a time (write); a
 *	hit that asks to remove its breakpoint from the current mm (read)
 * @prep_lock: serializes the one-time copy and analysis of @arch
 * @prepared: @arch is filled in (release/acquire)
 * @arch: the original instruction and how to step or emulate it; last,
 *	and found from arch code's pointer with container_of()
 */
struct uprobe {
	/* what is probed */
	struct inode		*inode;
	loff_t			offset;
	loff_t			ref_ctr_offset;

	/* membership of the set and lifetime */
	struct rb_node		rb;
	bool			unlinked;
	refcount_t		ref;
	struct rcu_head		rcu;

	/* who is attached */
	struct list_head	consumers;
	struct rw_semaphore	consumer_rwsem;
	struct rw_semaphore	register_rwsem;

	/* the original instruction, read in once */
	struct mutex		prep_lock;
	bool			prepared;
	struct arch_uprobe	arch;
};

/*
 * Readers of the set and of consumer lists: the hit path, which sleeps in
 * handlers.  uprobe_unregister_sync() waits for them.
 */
extern struct srcu_struct uprobe_srcu;

/* tree.c */
struct uprobe *uprobe_find_rcu(struct inode *inode, loff_t offset);
struct uprobe *uprobe_get_or_add(struct inode *inode, loff_t offset,
				 loff_t ref_ctr_offset);
void uprobe_unlink(struct uprobe *uprobe);
bool uprobe_tryget(struct uprobe *uprobe);
void uprobe_get(struct uprobe *uprobe);
void uprobe_put(struct uprobe *uprobe);
bool uprobes_in_range(struct inode *inode, loff_t first, loff_t last);
int uprobes_collect(struct inode *inode, loff_t first, loff_t last,
		    struct uprobe **batch, int max);
bool uprobes_none(void);
bool uprobe_wanted(struct uprobe *uprobe, struct mm_struct *mm);
bool uprobe_consumer_wants(struct uprobe *uprobe,
			   struct uprobe_consumer *uc, struct mm_struct *mm);

/* mm.c */
bool uprobe_vma_ok(struct vm_area_struct *vma, bool installing);
loff_t uprobe_vma_offset(struct vm_area_struct *vma, unsigned long vaddr);
unsigned long uprobe_vma_vaddr(struct vm_area_struct *vma, loff_t offset);
int uprobe_install(struct uprobe *uprobe, struct vm_area_struct *vma,
		   unsigned long vaddr);
int uprobe_remove(struct uprobe *uprobe, struct mm_struct *mm,
		  unsigned long vaddr);
void uprobe_remove_from_mm(struct uprobe *uprobe, struct mm_struct *mm);
void uprobe_forget_delayed(struct uprobe *uprobe);
void uprobe_mm_recalc(struct mm_struct *mm);
int uprobe_trap_at(struct mm_struct *mm, unsigned long vaddr);

/* xol.c */
struct xol_area;
struct xol_area *uprobe_xol_area(unsigned long want_vaddr);
unsigned long uprobe_xol_take(struct uprobe *uprobe);
void uprobe_xol_release(struct task_struct *t);
void uprobe_xol_free(struct mm_struct *mm);

/* task.c */
void uprobe_task_warn(struct task_struct *t, const char *what);

#endif /* _KERNEL_EVENTS_UPROBES_INTERNAL_H */
