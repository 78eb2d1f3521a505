// SPDX-License-Identifier: GPL-2.0
/*
 * Registering uprobe consumers, and putting their breakpoints into every
 * mm that maps the probed file, or taking them out.
 *
 * The mms are found through the file's reverse map (i_mmap), then visited
 * one at a time under their mmap_lock.  Mappings made after the listing
 * are covered by uprobe_mmap(), which sees the uprobe and its consumer
 * because both were published before the listing.  Forks are held off for
 * the whole walk (uprobe_fork_sem): a child copied from a listed parent
 * after its breakpoint went in, or came out, would otherwise keep the
 * other state, and a breakpoint nobody knows of is a SIGTRAP.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/percpu-rwsem.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include "internal.h"

DEFINE_STATIC_PERCPU_RWSEM(uprobe_fork_sem);

/**
 * uprobe_start_dup_mmap - fork begins copying an mm
 *
 * Context: process context; pairs with uprobe_end_dup_mmap().
 */
void uprobe_start_dup_mmap(void)
{
	percpu_down_read(&uprobe_fork_sem);
}

/**
 * uprobe_end_dup_mmap - fork is done copying the mm
 */
void uprobe_end_dup_mmap(void)
{
	percpu_up_read(&uprobe_fork_sem);
}

/* an mm that maps the probed offset, and where */
struct uprobe_target {
	struct mm_struct	*mm;		/* holds an mm_users reference */
	unsigned long		vaddr;
};

static void uprobe_targets_put(struct uprobe_target *t, int nr)
{
	while (nr--)
		mmput(t[nr].mm);
	kvfree(t);
}

/*
 * List the mms that map @u's offset.  No allocation under i_mmap_rwsem
 * (reclaim takes it too): when the array is too small, drop it, size it
 * from what was counted, and list again.
 */
static int uprobe_targets(struct uprobe *u, bool installing,
			  struct uprobe_target **out)
{
	struct address_space *mapping = u->inode->i_mapping;
	pgoff_t pgoff = u->offset >> PAGE_SHIFT;
	struct uprobe_target *t = NULL;
	struct vm_area_struct *vma;
	int room = 0, nr;

	for (;;) {
		nr = 0;
		i_mmap_lock_read(mapping);
		vma_interval_tree_foreach(vma, &mapping->i_mmap, pgoff, pgoff) {
			if (!uprobe_vma_ok(vma, installing))
				continue;
			if (nr < room) {
				if (!mmget_not_zero(vma->vm_mm))
					continue;
				t[nr].mm = vma->vm_mm;
				t[nr].vaddr = uprobe_vma_vaddr(vma, u->offset);
			}
			nr++;
		}
		i_mmap_unlock_read(mapping);

		if (nr <= room) {
			*out = t;
			return nr;
		}
		uprobe_targets_put(t, room);
		room = nr + nr / 4 + 4;
		t = kvmalloc_array(room, sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
	}
}

/*
 * Put @add's breakpoint into every mm it wants, or (@add NULL) take the
 * breakpoint out of every mm that no remaining consumer wants.  Installing
 * stops at the first error; removing goes on.
 */
static int uprobe_walk(struct uprobe *u, struct uprobe_consumer *add)
{
	struct uprobe_target *t;
	int nr, i, err = 0;

	lockdep_assert_held_write(&u->register_rwsem);

	percpu_down_write(&uprobe_fork_sem);
	nr = uprobe_targets(u, add, &t);
	if (nr < 0) {
		percpu_up_write(&uprobe_fork_sem);
		return nr;
	}

	for (i = 0; i < nr && !err; i++) {
		struct mm_struct *mm = t[i].mm;
		unsigned long vaddr = t[i].vaddr;
		struct vm_area_struct *vma;

		mmap_write_lock(mm);
		if (check_stable_address_space(mm))
			goto next;
		/* the mapping may have changed since it was listed */
		vma = vma_lookup(mm, vaddr);
		if (!vma || !uprobe_vma_ok(vma, add) ||
		    file_inode(vma->vm_file) != u->inode ||
		    uprobe_vma_offset(vma, vaddr) != u->offset)
			goto next;

		if (add) {
			if (uprobe_consumer_wants(u, add, mm))
				err = uprobe_install(u, vma, vaddr);
		} else if (!uprobe_wanted(u, mm)) {
			uprobe_remove(u, mm, vaddr);
		}
next:
		mmap_write_unlock(mm);
	}
	uprobe_targets_put(t, nr);
	percpu_up_write(&uprobe_fork_sem);
	return err;
}

/* take @uc off @u, its breakpoints with it, and @u out of the set if last */
static void uprobe_detach(struct uprobe *u, struct uprobe_consumer *uc)
{
	struct uprobe_consumer *c;
	bool found = false;

	lockdep_assert_held_write(&u->register_rwsem);

	down_write(&u->consumer_rwsem);
	list_for_each_entry(c, &u->consumers, cons_node) {
		if (c == uc) {
			list_del_rcu(&uc->cons_node);
			found = true;
			break;
		}
	}
	up_write(&u->consumer_rwsem);
	if (WARN_ON_ONCE(!found))
		return;

	if (uprobe_walk(u, NULL)) {
		/*
		 * Breakpoints may be left behind: keep the uprobe in the set
		 * so their hits still find it (and step the original).
		 */
		if (list_empty(&u->consumers))
			uprobe_task_warn(current, "unregister, leaking uprobe");
		return;
	}
	if (list_empty(&u->consumers)) {
		uprobe_forget_delayed(u);
		uprobe_unlink(u);
	}
}

/*
 * What uprobe_register() refuses up front: 0, or the errno.  A consumer
 * needs a handler of some kind; the original instruction is read through
 * the page cache; neither the breakpoint nor the counter may straddle a
 * page.
 */
static int uprobe_register_check(struct inode *inode, loff_t offset,
				 loff_t ref_ctr_offset,
				 const struct uprobe_consumer *uc)
{
	struct address_space *mapping = inode->i_mapping;
	bool cached = shmem_mapping(mapping) || mapping->a_ops->read_folio;

	if (!(uc->handler || uc->ret_handler))
		return -EINVAL;
	if (!cached)
		return -EIO;
	/* i_size can change at any time: this catches plain mistakes only */
	if (offset > i_size_read(inode) ||
	    !IS_ALIGNED(offset, UPROBE_SWBP_INSN_SIZE) ||
	    !IS_ALIGNED(ref_ctr_offset, sizeof(short)))
		return -EINVAL;
	return 0;
}

/**
 * uprobe_register - add a consumer to the uprobe at (@inode, @offset)
 * @inode: the file; the caller keeps it (and its mount) alive until it
 *	unregisters
 * @offset: offset of the probed instruction in the file
 * @ref_ctr_offset: offset in the file of its SDT counter (a short), or 0
 * @uc: the consumer, with a handler, a ret_handler or both
 *
 * The breakpoint goes into every mm that maps @offset executably and that
 * @uc's filter accepts, now and whenever one is mapped later.
 *
 * Context: process context, may sleep.
 *
 * Return: the uprobe, to pass to uprobe_unregister_nosync() and
 * uprobe_apply(); or an ERR_PTR: -EINVAL for a consumer without handlers,
 * an offset past the end, misaligned offsets or a counter that differs
 * from the existing uprobe's, -EIO when the file cannot be read through
 * its page cache, -ENOTSUPP for an instruction the arch cannot probe, or
 * what writing an mm gave.
 */
struct uprobe *uprobe_register(struct inode *inode, loff_t offset,
			       loff_t ref_ctr_offset,
			       struct uprobe_consumer *uc)
{
	struct uprobe *u;
	int err;

	err = uprobe_register_check(inode, offset, ref_ctr_offset, uc);
	if (err)
		return ERR_PTR(err);

	for (;;) {
		u = uprobe_get_or_add(inode, offset, ref_ctr_offset);
		if (IS_ERR(u))
			return u;
		down_write(&u->register_rwsem);
		if (!u->unlinked)
			break;
		/* its last consumer left while we waited: start over */
		up_write(&u->register_rwsem);
		uprobe_put(u);
	}

	down_write(&u->consumer_rwsem);
	list_add_rcu(&uc->cons_node, &u->consumers);
	up_write(&u->consumer_rwsem);

	err = uprobe_walk(u, uc);
	if (err)
		uprobe_detach(u, uc);
	up_write(&u->register_rwsem);
	uprobe_put(u);

	if (err) {
		/* a hit may have seen @uc; the caller may free it on return */
		uprobe_unregister_sync();
		return ERR_PTR(err);
	}
	/* the set's reference covers @u while @uc is registered */
	return u;
}
EXPORT_SYMBOL_GPL(uprobe_register);

/**
 * uprobe_apply - re-run @uc's filter over the mms that map the uprobe
 * @uprobe: the uprobe @uc is registered on
 * @uc: the consumer
 * @add: put breakpoints into the mms @uc now wants (false: take them out
 *	of the mms no consumer wants any more)
 *
 * Context: process context, may sleep.
 *
 * Return: 0, -ENOENT if @uc is not on @uprobe, or the error of an install.
 */
int uprobe_apply(struct uprobe *uprobe, struct uprobe_consumer *uc, bool add)
{
	struct uprobe_consumer *c;
	int err = -ENOENT;

	down_write(&uprobe->register_rwsem);
	down_read(&uprobe->consumer_rwsem);
	list_for_each_entry(c, &uprobe->consumers, cons_node) {
		if (c == uc) {
			err = 0;
			break;
		}
	}
	up_read(&uprobe->consumer_rwsem);
	if (!err)
		err = uprobe_walk(uprobe, add ? uc : NULL);
	up_write(&uprobe->register_rwsem);
	return err;
}

/**
 * uprobe_unregister_nosync - remove a consumer from its uprobe
 * @uprobe: what uprobe_register() returned
 * @uc: the consumer
 *
 * Its breakpoints come out of the mms no other consumer wants.  Hits that
 * already started may still call @uc until uprobe_unregister_sync()
 * returns, so the caller must call that before freeing @uc (once for a
 * batch of unregisters).
 *
 * Context: process context, may sleep.
 */
void uprobe_unregister_nosync(struct uprobe *uprobe, struct uprobe_consumer *uc)
{
	uprobe_get(uprobe);
	down_write(&uprobe->register_rwsem);
	uprobe_detach(uprobe, uc);
	up_write(&uprobe->register_rwsem);
	uprobe_put(uprobe);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_nosync);

/**
 * uprobe_unregister_sync - wait until no hit can still call an unregistered
 * consumer
 *
 * Handlers run under uprobe_srcu; this waits for all of them.
 *
 * Context: process context, sleeps.
 */
void uprobe_unregister_sync(void)
{
	synchronize_srcu(&uprobe_srcu);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_sync);
