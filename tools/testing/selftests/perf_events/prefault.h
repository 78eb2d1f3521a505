/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for tests that count page faults exactly: take every fault the
 * test process itself would take before the measured region, and fault in
 * a known number of fresh pages inside it (touch_fresh_pages(), in
 * perf_test.h).
 */
#ifndef PERF_EVENTS_SELFTEST_PREFAULT_H
#define PERF_EVENTS_SELFTEST_PREFAULT_H

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_test.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#define MADV_POPULATE_WRITE	23
#endif

/* Grow the stack well past anything the tests below will use. */
static inline void grow_stack(void)
{
	char buf[64 * 1024];

	memset(buf, 0, sizeof(buf));
	asm volatile("" : : "r"(buf) : "memory");
}

/*
 * Map in every page this process has, before anything is measured. A
 * test runs in a freshly forked process: none of its code pages are
 * mapped yet, and its data and stack pages are shared copy-on-write
 * with the parent, so the first call into a code page and the first
 * write to a data or stack page would each be a page fault inside the
 * measured region. Afterwards the only faults left are on memory the
 * test maps itself, which must be mapped after this call.
 */
static inline void prefault_self(void)
{
	unsigned long start, end;
	char line[512], perm[8];
	FILE *f;

	grow_stack();
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perm) != 3)
			continue;
		/* [vdso], [vvar], [vsyscall]: special, not ours to fault */
		if (strstr(line, "[v") || perm[0] != 'r')
			continue;
		madvise((void *)start, end - start,
			perm[1] == 'w' ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
	}
	fclose(f);
}

#endif /* PERF_EVENTS_SELFTEST_PREFAULT_H */
