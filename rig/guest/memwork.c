// SPDX-License-Identifier: GPL-2.0
/*
 * memwork: the workload rig/perf-mem.sh profiles with Debian's perf mem
 * on Intel PEBS (load latency and retired stores). Nearly all its loads
 * and stores go to one named global array, mem_array, of 2 MiB: twice
 * the second-level cache of the rig's model (rig/qemu patch 0019), so
 * that a stream through it misses both caches on every line and each
 * load takes longer than perf mem's default threshold (30 cycles). A
 * memory profile must name mem_array as the data symbol of the hot
 * accesses.
 *
 * Built static at -O2: the loop's counters live in registers, and a
 * compiler barrier in the loop keeps every access to the array in the
 * code, so that the stack sees none.
 *
 * Usage: memwork SECONDS
 */
#include "timed.h"

#define WORDS	((2UL << 20) / sizeof(unsigned long))

/* initialized: in .data, which the binary's file maps, so perf finds it */
unsigned long mem_array[WORDS] = { 1 };

/* one load and one store per 64-byte line, in a stream */
static void mem_stream(unsigned long rounds)
{
	unsigned long r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < WORDS; i += 8) {
			mem_array[i] += r;
			asm volatile("" : : : "memory");
		}
}

static void mem_step(void)
{
	mem_stream(4);
}

int main(int argc, char **argv)
{
	run_for(argc, argv, mem_step);
	return mem_array[1] == 42;
}
