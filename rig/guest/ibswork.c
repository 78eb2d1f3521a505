// SPDX-License-Identifier: GPL-2.0
/*
 * ibswork: the workload rig/perf-ibs.sh profiles with Debian's perf mem
 * on AMD IBS. Most of its loads and stores go to one named global
 * array, ibs_array, so a memory profile must name it as the data
 * symbol of the hot accesses.
 *
 * Built static at -O2: the loop's counters live in registers, and a
 * compiler barrier in the loop keeps every access to the array in the
 * code, so that the stack sees none.
 *
 * Usage: ibswork SECONDS
 */
#include "timed.h"

/* initialized: in .data, which the binary's file maps, so perf finds it */
unsigned long ibs_array[4096] = { 1 };

static void ibs_touch(unsigned long rounds)
{
	unsigned long r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < 4096; i += 8) {
			ibs_array[i] += ibs_array[(i + 64) & 4095] + r;
			asm volatile("" : : : "memory");
		}
}

static void ibs_step(void)
{
	ibs_touch(100);
}

int main(int argc, char **argv)
{
	run_for(argc, argv, ibs_step);
	return ibs_array[1] == 42;
}
