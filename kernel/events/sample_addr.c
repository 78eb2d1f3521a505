// SPDX-License-Identifier: GPL-2.0
/*
 * What a sample says about an address: PERF_SAMPLE_PHYS_ADDR and the
 * size of the page that maps it (PERF_SAMPLE_DATA_PAGE_SIZE,
 * PERF_SAMPLE_CODE_PAGE_SIZE).  Both run in the overflow's context, NMI
 * included, so neither may sleep, fault or take a lock: they answer 0
 * when they cannot tell.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/uaccess.h>

#include "sample.h"

/**
 * perf_sample_phys_addr - physical address for PERF_SAMPLE_PHYS_ADDR
 * @virt: the sampled data address
 *
 * Context: any, including NMI.
 * Return: the address, or 0 when it cannot be found without sleeping:
 * vmalloc and other non-linear kernel memory, user memory that is not
 * present, a kernel thread's "user" address.
 */
u64 perf_sample_phys_addr(u64 virt)
{
	struct page *page;
	u64 phys = 0;

	if (!virt)
		return 0;
	if (virt >= TASK_SIZE) {
		void *p = (void *)(uintptr_t)virt;

		if (virt_addr_valid(p) &&
		    !(virt >= VMALLOC_START && virt < VMALLOC_END))
			phys = virt_to_phys(p);
		return phys;
	}
	if (!is_user_task(current))
		return 0;
	/* the fast GUP walk is IRQ- and NMI-safe and never sleeps */
	pagefault_disable();
	if (get_user_page_fast_only(virt, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(virt);
		put_page(page);
	}
	pagefault_enable();
	return phys;
}

#ifdef CONFIG_HAVE_GUP_FAST
/*
 * The size of the mapping of @addr, found by descending the page tables
 * one level per function, each answering for its entry: 0 when nothing is
 * mapped there, the entry's own size when it maps a huge page, else
 * whatever the level below answers.  Some architectures give a leaf entry
 * a size other than the level's span (arm64's contiguous hint), so the
 * size is always asked of the entry.
 *
 * Lockless: the caller has interrupts off, which holds off the TLB
 * shootdown (or RCU grace period) that page-table freeing waits for.
 * Every entry is read once into a copy and only the copy is looked at,
 * since the tables can change under us at any time.
 */
/*
 * The size at @addr below a PMD entry that points to a PTE table, in
 * @size.  False when that table was freed before it could be mapped.
 */
static bool sample_pte_size(pmd_t pmd, unsigned long addr, u64 *size)
{
	pte_t *ptep = pte_offset_map(&pmd, addr);
	pte_t pte;

	if (!ptep)
		return false;
	pte = ptep_get_lockless(ptep);
	pte_unmap(ptep);
	*size = pte_present(pte) ? __pte_leaf_size(pmd, pte) : 0;
	return true;
}

static u64 sample_pmd_size(pud_t *pudp, pud_t pud, unsigned long addr)
{
	pmd_t *pmdp = pmd_offset_lockless(pudp, pud, addr);
	u64 size = 0;
	int attempt;

	/*
	 * A PTE table can vanish between reading the PMD and mapping the
	 * table (THP collapse): read the PMD again, but not forever.
	 */
	for (attempt = 0; attempt < 3; attempt++) {
		pmd_t pmd = pmdp_get_lockless(pmdp);

		if (!pmd_present(pmd))
			break;
		if (pmd_leaf(pmd))
			return pmd_leaf_size(pmd);
		if (sample_pte_size(pmd, addr, &size))
			break;
	}
	return size;
}

static u64 sample_pud_size(p4d_t *p4dp, p4d_t p4d, unsigned long addr)
{
	pud_t *pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud_t pud = READ_ONCE(*pudp);

	if (!pud_present(pud))
		return 0;
	return pud_leaf(pud) ? pud_leaf_size(pud) :
			       sample_pmd_size(pudp, pud, addr);
}

static u64 sample_p4d_size(pgd_t *pgdp, pgd_t pgd, unsigned long addr)
{
	p4d_t *p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d_t p4d = READ_ONCE(*p4dp);

	if (!p4d_present(p4d))
		return 0;
	return p4d_leaf(p4d) ? p4d_leaf_size(p4d) :
			       sample_pud_size(p4dp, p4d, addr);
}

static u64 sample_pgtable_size(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgdp = pgd_offset(mm, addr);
	pgd_t pgd = READ_ONCE(*pgdp);

	if (pgd_none(pgd))
		return 0;
	return pgd_leaf(pgd) ? pgd_leaf_size(pgd) :
			       sample_p4d_size(pgdp, pgd, addr);
}
#else
static u64 sample_pgtable_size(struct mm_struct *mm, unsigned long addr)
{
	return 0;
}
#endif

/**
 * perf_sample_page_size - the size of the page that maps @addr
 * @addr: a data address (DATA_PAGE_SIZE) or an IP (CODE_PAGE_SIZE)
 *
 * Context: any, including NMI.
 * Return: the size in bytes, 0 when unknown.
 */
u64 perf_sample_page_size(unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags;
	u64 size;

	if (!addr)
		return 0;
	/* a kernel thread's addresses are kernel ones: walk init_mm */
	if (!mm)
		mm = &init_mm;
	local_irq_save(flags);
	size = sample_pgtable_size(mm, addr);
	local_irq_restore(flags);
	return size;
}
