// SPDX-License-Identifier: GPL-2.0
/*
 * The set of uprobes: one struct uprobe per probed (inode, offset), in an
 * rbtree ordered by inode address, then offset.
 *
 * A breakpoint hit looks its uprobe up without taking a lock: under
 * uprobe_srcu it walks the tree with rb_find_rcu().  A writer's
 * rebalancing can hide a node from such a walk for a moment, and a miss
 * there would turn the hit into a SIGTRAP for the task, so a sequence
 * count tells the walker when the tree moved under it; after a few moved
 * walks it looks under the lock.
 *
 * A uprobe is in the tree from its first register until its last consumer
 * unregisters, and the tree holds a reference meanwhile.  Other references
 * (a task single-stepping its instruction, a pending return probe) can
 * outlive the tree's.  The memory goes after an SRCU grace period of
 * uprobe_srcu, so walkers that found the uprobe just before it left the tree
 * are done with it by then.
 */
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "internal.h"

DEFINE_SRCU(uprobe_srcu);

static struct rb_root uprobe_tree = RB_ROOT;
static DEFINE_SPINLOCK(uprobe_tree_lock);
static seqcount_spinlock_t uprobe_tree_seq =
	SEQCNT_SPINLOCK_ZERO(uprobe_tree_seq, &uprobe_tree_lock);

/* lockless walks before the lookup takes the lock */
#define UPROBE_LOOKUP_TRIES	3

struct uprobe_key {
	const struct inode	*inode;
	loff_t			offset;
};

static int uprobe_order(const struct inode *inode, loff_t offset,
			const struct uprobe *u)
{
	if (inode != u->inode)
		return inode < u->inode ? -1 : 1;
	if (offset != u->offset)
		return offset < u->offset ? -1 : 1;
	return 0;
}

static int uprobe_key_order(const void *key, const struct rb_node *n)
{
	const struct uprobe_key *k = key;

	return uprobe_order(k->inode, k->offset,
			    rb_entry(n, struct uprobe, rb));
}

static int uprobe_node_order(struct rb_node *a, const struct rb_node *b)
{
	const struct uprobe *u = rb_entry(a, struct uprobe, rb);

	return uprobe_order(u->inode, u->offset,
			    rb_entry(b, struct uprobe, rb));
}

/**
 * uprobe_find_rcu - the uprobe at (@inode, @offset), without a reference
 * @inode: the file
 * @offset: the offset in it
 *
 * Context: uprobe_srcu held; the result is valid until it is dropped.
 * The uprobe may be leaving the tree: its consumer list is then empty.
 *
 * Return: the uprobe, or NULL.
 */
struct uprobe *uprobe_find_rcu(struct inode *inode, loff_t offset)
{
	struct uprobe_key key = { .inode = inode, .offset = offset };
	struct rb_node *n;
	unsigned int seq;
	int tries;

	RCU_LOCKDEP_WARN(!srcu_read_lock_held(&uprobe_srcu),
			 "uprobe lookup outside uprobe_srcu");

	for (tries = 0; tries < UPROBE_LOOKUP_TRIES; tries++) {
		seq = read_seqcount_begin(&uprobe_tree_seq);
		n = rb_find_rcu(&key, &uprobe_tree, uprobe_key_order);
		/* a node that compares equal is the one, moved tree or not */
		if (n)
			return rb_entry(n, struct uprobe, rb);
		if (!read_seqcount_retry(&uprobe_tree_seq, seq))
			return NULL;
	}

	spin_lock(&uprobe_tree_lock);
	n = rb_find(&key, &uprobe_tree, uprobe_key_order);
	spin_unlock(&uprobe_tree_lock);
	return n ? rb_entry(n, struct uprobe, rb) : NULL;
}

/**
 * uprobe_get_or_add - the uprobe at (@inode, @offset), made if missing
 * @inode: the file; the caller keeps it alive while the uprobe is
 *	registered
 * @offset: the offset in it
 * @ref_ctr_offset: its SDT counter; must match an existing uprobe's
 *
 * Context: process context, may sleep.
 *
 * Return: the uprobe with a reference for the caller, or an ERR_PTR:
 * -ENOMEM, or -EINVAL when the uprobe exists with another counter.
 */
struct uprobe *uprobe_get_or_add(struct inode *inode, loff_t offset,
				 loff_t ref_ctr_offset)
{
	struct uprobe *fresh, *u;
	struct rb_node *n;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return ERR_PTR(-ENOMEM);
	fresh->inode = inode;
	fresh->offset = offset;
	fresh->ref_ctr_offset = ref_ctr_offset;
	INIT_LIST_HEAD(&fresh->consumers);
	init_rwsem(&fresh->register_rwsem);
	init_rwsem(&fresh->consumer_rwsem);
	mutex_init(&fresh->prep_lock);
	/* one for the tree, one for the caller */
	refcount_set(&fresh->ref, 2);

	spin_lock(&uprobe_tree_lock);
	write_seqcount_begin(&uprobe_tree_seq);
	n = rb_find_add_rcu(&fresh->rb, &uprobe_tree, uprobe_node_order);
	write_seqcount_end(&uprobe_tree_seq);
	u = n ? rb_entry(n, struct uprobe, rb) : fresh;
	/* a linked uprobe holds the tree's reference, so this cannot be 0 */
	if (n)
		refcount_inc(&u->ref);
	spin_unlock(&uprobe_tree_lock);

	if (u == fresh)
		return u;
	kfree(fresh);

	if (u->ref_ctr_offset != ref_ctr_offset) {
		pr_warn("ref_ctr_offset mismatch. inode: 0x%lx offset: 0x%llx ref_ctr_offset(old): 0x%llx ref_ctr_offset(new): 0x%llx\n",
			inode->i_ino, (unsigned long long)offset,
			(unsigned long long)u->ref_ctr_offset,
			(unsigned long long)ref_ctr_offset);
		uprobe_put(u);
		return ERR_PTR(-EINVAL);
	}
	return u;
}

/**
 * uprobe_unlink - take a uprobe out of the set and drop the set's reference
 * @uprobe: a uprobe whose last consumer is gone
 *
 * Context: @uprobe->register_rwsem held for writing; the caller holds its
 * own reference.
 */
void uprobe_unlink(struct uprobe *uprobe)
{
	lockdep_assert_held_write(&uprobe->register_rwsem);

	spin_lock(&uprobe_tree_lock);
	write_seqcount_begin(&uprobe_tree_seq);
	rb_erase(&uprobe->rb, &uprobe_tree);
	write_seqcount_end(&uprobe_tree_seq);
	uprobe->unlinked = true;
	spin_unlock(&uprobe_tree_lock);

	uprobe_put(uprobe);
}

/**
 * uprobe_tryget - a reference on a uprobe found under uprobe_srcu
 * @uprobe: the uprobe
 *
 * Return: false if its last reference is already gone.
 */
bool uprobe_tryget(struct uprobe *uprobe)
{
	return refcount_inc_not_zero(&uprobe->ref);
}

/**
 * uprobe_get - another reference on a uprobe the caller holds one on
 * @uprobe: the uprobe
 */
void uprobe_get(struct uprobe *uprobe)
{
	refcount_inc(&uprobe->ref);
}

static void uprobe_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct uprobe, rcu));
}

/**
 * uprobe_put - drop a reference; the last one frees after a grace period
 * @uprobe: the uprobe
 *
 * Context: any; the last reference can only go once the uprobe is out of
 * the set.
 */
void uprobe_put(struct uprobe *uprobe)
{
	if (refcount_dec_and_test(&uprobe->ref)) {
		WARN_ON_ONCE(!uprobe->unlinked);
		call_srcu(&uprobe_srcu, &uprobe->rcu, uprobe_free_rcu);
	}
}

/* the first uprobe of @inode at or after @first, tree lock held */
static struct uprobe *uprobe_first_from(struct inode *inode, loff_t first)
{
	struct rb_node *n = uprobe_tree.rb_node;
	struct uprobe *best = NULL;

	lockdep_assert_held(&uprobe_tree_lock);

	while (n) {
		struct uprobe *u = rb_entry(n, struct uprobe, rb);

		if (uprobe_order(inode, first, u) <= 0) {
			best = u;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best && best->inode == inode ? best : NULL;
}

/**
 * uprobes_in_range - does any uprobe sit in [@first, @last] of @inode?
 * @inode: the file
 * @first: first offset
 * @last: last offset, inclusive
 *
 * Return: true if one does (it may be leaving the set).
 */
bool uprobes_in_range(struct inode *inode, loff_t first, loff_t last)
{
	struct uprobe *u;
	bool found;

	/* no reference is taken: @u is only safe to look at under the lock */
	spin_lock(&uprobe_tree_lock);
	u = uprobe_first_from(inode, first);
	found = u && u->offset <= last;
	spin_unlock(&uprobe_tree_lock);
	return found;
}

/**
 * uprobes_collect - references on the uprobes in [@first, @last] of @inode
 * @inode: the file
 * @first: first offset
 * @last: last offset, inclusive
 * @batch: filled with up to @max uprobes, in offset order, each with a
 *	reference the caller drops
 * @max: size of @batch
 *
 * The caller continues after the last offset returned when it gets @max.
 *
 * Return: how many were filled in.
 */
int uprobes_collect(struct inode *inode, loff_t first, loff_t last,
		    struct uprobe **batch, int max)
{
	struct rb_node *n;
	struct uprobe *u;
	int nr = 0;

	spin_lock(&uprobe_tree_lock);
	u = uprobe_first_from(inode, first);
	while (u && u->inode == inode && u->offset <= last && nr < max) {
		uprobe_get(u);
		batch[nr++] = u;
		n = rb_next(&u->rb);
		u = n ? rb_entry(n, struct uprobe, rb) : NULL;
	}
	spin_unlock(&uprobe_tree_lock);
	return nr;
}

/**
 * uprobes_none - is the set empty?
 *
 * A racy answer that is good enough for the mmap hook: a register that
 * adds the first uprobe after this said "empty" walks the file's mappings
 * after adding it, and that walk sees the new vma.
 *
 * Return: true when no uprobe exists.
 */
bool uprobes_none(void)
{
	return RB_EMPTY_ROOT(&uprobe_tree);
}

/**
 * uprobe_consumer_wants - does @uc want its breakpoint in @mm?
 * @uprobe: the uprobe @uc is on
 * @uc: the consumer
 * @mm: the address space
 *
 * A consumer without a filter wants every mm.
 *
 * Return: the consumer's answer.
 */
bool uprobe_consumer_wants(struct uprobe *uprobe,
			   struct uprobe_consumer *uc, struct mm_struct *mm)
{
	return !uc->filter || uc->filter(uc, mm);
}

/**
 * uprobe_wanted - does any consumer of @uprobe want it in @mm?
 * @uprobe: the uprobe
 * @mm: the address space
 *
 * Context: may sleep (takes consumer_rwsem); filters are called with it
 * held for reading.
 *
 * Return: true if one does.
 */
bool uprobe_wanted(struct uprobe *uprobe, struct mm_struct *mm)
{
	struct uprobe_consumer *uc;
	bool wanted = false;

	down_read(&uprobe->consumer_rwsem);
	list_for_each_entry(uc, &uprobe->consumers, cons_node) {
		if (uprobe_consumer_wants(uprobe, uc, mm)) {
			wanted = true;
			break;
		}
	}
	up_read(&uprobe->consumer_rwsem);
	return wanted;
}
