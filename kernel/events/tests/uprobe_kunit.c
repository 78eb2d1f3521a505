// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the uprobe set (uprobes/tree.c) and the vma arithmetic of
 * uprobes/mm.c: lookups by (inode, offset), one uprobe per pair however
 * often it is asked for, the counter-offset mismatch, range walks in
 * offset order and per inode, unlinking, and the consumers' filters.
 *
 * The inodes are zeroed structures that are never used as files: the set
 * only compares their addresses (and prints i_ino on a mismatch).  Every
 * uprobe a test adds leaves the set before the test ends.
 */
#include <kunit/test.h>
#include <linux/fs.h>

#include "../uprobes/internal.h"

static struct inode *fake_inode(struct kunit *test)
{
	struct inode *inode = kunit_kzalloc(test, sizeof(*inode), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, inode);
	inode->i_ino = 4242;
	return inode;
}

static struct uprobe *add(struct kunit *test, struct inode *inode,
			  loff_t offset)
{
	struct uprobe *u = uprobe_get_or_add(inode, offset, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(u));
	return u;
}

/* what unregistering the last consumer does: out of the set, refs gone */
static void drop(struct uprobe *u)
{
	down_write(&u->register_rwsem);
	uprobe_unlink(u);
	up_write(&u->register_rwsem);
	uprobe_put(u);		/* the reference uprobe_get_or_add() gave */
}

static struct uprobe *find(struct inode *inode, loff_t offset)
{
	struct uprobe *u;
	int idx;

	idx = srcu_read_lock(&uprobe_srcu);
	u = uprobe_find_rcu(inode, offset);
	srcu_read_unlock(&uprobe_srcu, idx);
	return u;
}

static void uprobe_set_lookup(struct kunit *test)
{
	struct inode *a = fake_inode(test), *b = fake_inode(test);
	struct uprobe *a10 = add(test, a, 0x10);
	struct uprobe *a20 = add(test, a, 0x20);
	struct uprobe *b10 = add(test, b, 0x10);

	KUNIT_EXPECT_PTR_EQ(test, find(a, 0x10), a10);
	KUNIT_EXPECT_PTR_EQ(test, find(a, 0x20), a20);
	KUNIT_EXPECT_PTR_EQ(test, find(b, 0x10), b10);
	KUNIT_EXPECT_NULL(test, find(a, 0x18));
	KUNIT_EXPECT_NULL(test, find(b, 0x20));

	drop(a20);
	KUNIT_EXPECT_NULL(test, find(a, 0x20));
	KUNIT_EXPECT_PTR_EQ(test, find(a, 0x10), a10);
	drop(a10);
	drop(b10);
	KUNIT_EXPECT_NULL(test, find(b, 0x10));
}

static void uprobe_set_one_per_pair(struct kunit *test)
{
	struct inode *a = fake_inode(test);
	struct uprobe *u = add(test, a, 0x40), *again, *other;

	/* the set's reference and ours */
	KUNIT_EXPECT_EQ(test, refcount_read(&u->ref), 2);
	again = add(test, a, 0x40);
	KUNIT_EXPECT_PTR_EQ(test, again, u);
	KUNIT_EXPECT_EQ(test, refcount_read(&u->ref), 3);
	uprobe_put(again);

	/* the same probe with another SDT counter offset is refused */
	other = uprobe_get_or_add(a, 0x40, 0x100);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(other), -EINVAL);
	KUNIT_EXPECT_EQ(test, refcount_read(&u->ref), 2);
	drop(u);
}

static void uprobe_set_ranges(struct kunit *test)
{
	struct inode *a = fake_inode(test), *b = fake_inode(test);
	loff_t offs[] = { 0x300, 0x100, 0x200, 0x400, 0x250 };
	struct uprobe *u[ARRAY_SIZE(offs)], *batch[3], *bu;
	int i, nr;

	for (i = 0; i < ARRAY_SIZE(offs); i++)
		u[i] = add(test, a, offs[i]);
	bu = add(test, b, 0x200);

	KUNIT_EXPECT_TRUE(test, uprobes_in_range(a, 0x100, 0x100));
	KUNIT_EXPECT_TRUE(test, uprobes_in_range(a, 0x201, 0x250));
	KUNIT_EXPECT_FALSE(test, uprobes_in_range(a, 0x401, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobes_in_range(a, 0x0, 0xff));
	KUNIT_EXPECT_FALSE(test, uprobes_in_range(b, 0x201, 0x1000));

	/* offset order, this inode only, at most the batch */
	nr = uprobes_collect(a, 0x150, 0x400, batch, ARRAY_SIZE(batch));
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, batch[0]->offset, 0x200);
	KUNIT_EXPECT_EQ(test, batch[1]->offset, 0x250);
	KUNIT_EXPECT_EQ(test, batch[2]->offset, 0x300);
	for (i = 0; i < nr; i++)
		uprobe_put(batch[i]);
	/* the caller goes on after the last one it got */
	nr = uprobes_collect(a, 0x301, 0x400, batch, ARRAY_SIZE(batch));
	KUNIT_ASSERT_EQ(test, nr, 1);
	KUNIT_EXPECT_PTR_EQ(test, batch[0], u[3]);
	uprobe_put(batch[0]);
	KUNIT_EXPECT_EQ(test, uprobes_collect(b, 0, 0x1ff, batch, 3), 0);

	for (i = 0; i < ARRAY_SIZE(offs); i++)
		drop(u[i]);
	drop(bu);
	KUNIT_EXPECT_FALSE(test, uprobes_in_range(a, 0, LLONG_MAX));
}

static bool only_mm(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	return mm == (struct mm_struct *)0x1000;
}

static int nop_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	return 0;
}

static void uprobe_set_filters(struct kunit *test)
{
	struct uprobe_consumer picky = { .handler = nop_handler, .filter = only_mm };
	struct uprobe_consumer all = { .handler = nop_handler };
	struct mm_struct *mm1 = (struct mm_struct *)0x1000;
	struct mm_struct *mm2 = (struct mm_struct *)0x2000;
	struct uprobe *u = add(test, fake_inode(test), 0);

	KUNIT_EXPECT_FALSE(test, uprobe_wanted(u, mm1));
	list_add(&picky.cons_node, &u->consumers);
	KUNIT_EXPECT_TRUE(test, uprobe_wanted(u, mm1));
	KUNIT_EXPECT_FALSE(test, uprobe_wanted(u, mm2));
	KUNIT_EXPECT_FALSE(test, uprobe_consumer_wants(u, &picky, mm2));
	list_add(&all.cons_node, &u->consumers);
	KUNIT_EXPECT_TRUE(test, uprobe_wanted(u, mm2));
	KUNIT_EXPECT_TRUE(test, uprobe_consumer_wants(u, &all, mm2));
	INIT_LIST_HEAD(&u->consumers);
	drop(u);
}

static void uprobe_vma_math(struct kunit *test)
{
	struct vm_area_struct vma = {
		.vm_start = 0x400000,
		.vm_end = 0x403000,
		.vm_pgoff = 2,
	};

	KUNIT_EXPECT_EQ(test, uprobe_vma_offset(&vma, 0x400000),
			2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, uprobe_vma_offset(&vma, 0x401234),
			3 * PAGE_SIZE + 0x234);
	KUNIT_EXPECT_EQ(test, uprobe_vma_vaddr(&vma, 3 * PAGE_SIZE + 0x234),
			0x401234UL);
}

static struct kunit_case uprobe_set_cases[] = {
	KUNIT_CASE(uprobe_set_lookup),
	KUNIT_CASE(uprobe_set_one_per_pair),
	KUNIT_CASE(uprobe_set_ranges),
	KUNIT_CASE(uprobe_set_filters),
	KUNIT_CASE(uprobe_vma_math),
	{}
};

static struct kunit_suite uprobe_set_suite = {
	.name = "perf_uprobe_set",
	.test_cases = uprobe_set_cases,
};

kunit_test_suite(uprobe_set_suite);
