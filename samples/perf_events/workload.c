// SPDX-License-Identifier: GPL-2.0
/*
 * workload: a CPU-bound program with known hot functions, for profiling
 * demos and tests. About two thirds of its time is in hot_multiply() and
 * one third in hot_divide(); it also touches fresh pages (page faults) and
 * yields a few times (context switches).
 *
 * Usage: workload [iterations]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/*
 * The hot functions are called through a pointer the compiler cannot see
 * through, so they stay real functions that a profile can name.
 */
#define OPAQUE(f) ({ __auto_type __p = (f); __asm__("" : "+r"(__p)); __p; })

/*
 * Results go to an opaque sink so that the compiler cannot drop the work:
 * an empty asm that claims to read the value.
 */
static void sink(unsigned long v)
{
	__asm__ __volatile__("" : : "r"(v) : "memory");
}

static unsigned long hot_multiply(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static unsigned long hot_divide(unsigned long n)
{
	unsigned long x = ~0UL, i;

	for (i = 1; i < n; i++)
		x ^= (x / i) + i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	size_t len = 64 * 4096;
	char *mem;
	int i;

	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (i = 0; i < 64; i++)
		mem[i * 4096] = i;
	for (i = 0; i < 4; i++) {
		sink(OPAQUE(hot_multiply)(iters / 2));
		sink(OPAQUE(hot_divide)(iters / 16));
		sched_yield();
	}
	munmap(mem, len);
	return 0;
}
