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

#include "internal.h"

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
 * Size of the page-table entry that maps @addr in @mm: a huge mapping at
 * any level, else the PTE's (which may itself cover a contiguous range).
 * 0 when nothing maps it.
 *
 * Lockless: the caller has interrupts off, which holds off the TLB
 * shootdown (or RCU grace period) that page-table freeing waits for, and
 * every level is read once into a local copy before it is looked at.
 */
static u64 sample_pgtable_size(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;
	u64 size = 0;
	int tries;

	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd))
		return 0;
	if (pgd_leaf(pgd))
		return pgd_leaf_size(pgd);

	p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d = READ_ONCE(*p4dp);
	if (!p4d_present(p4d))
		return 0;
	if (p4d_leaf(p4d))
		return p4d_leaf_size(p4d);

	pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud = READ_ONCE(*pudp);
	if (!pud_present(pud))
		return 0;
	if (pud_leaf(pud))
		return pud_leaf_size(pud);

	pmdp = pmd_offset_lockless(pudp, pud, addr);
	/* the PMD can change under us (THP collapse): re-read it a few times */
	for (tries = 0; tries < 3; tries++) {
		pmd = pmdp_get_lockless(pmdp);
		if (!pmd_present(pmd))
			return 0;
		if (pmd_leaf(pmd))
			return pmd_leaf_size(pmd);
		ptep = pte_offset_map(&pmd, addr);
		if (!ptep)
			continue;
		pte = ptep_get_lockless(ptep);
		if (pte_present(pte))
			size = __pte_leaf_size(pmd, pte);
		pte_unmap(ptep);
		break;
	}
	return size;
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
