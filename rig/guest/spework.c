// SPDX-License-Identifier: GPL-2.0
/*
 * spework: the workload rig/perf-spe.sh records with Debian's perf and
 * arm_spe.  spework_loop runs ITERATIONS (argv[1]) times over 64 loads
 * and 64 stores at fixed offsets of spework_array, so that every sample
 * perf decodes there has a known PC and data address: the load of pair
 * k at spework_loop + 8k reads spework_array + 16k, its store at
 * spework_loop + 8k + 4 writes spework_array + 16k + 8.  It prints the
 * addresses perf-spe.sh checks the samples against.  Static, arm64 only.
 * The array is initialised data, not bss, so that it lies in the file's
 * mapping, where perf report finds its symbol.
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long spework_array[128] = { 1 };

asm(".text\n"
	"	.balign	64\n"
	"	.globl	spework_loop\n"
	"	.type	spework_loop, %function\n"
	"spework_loop:\n"
	"	.set	spework_k, 0\n"
	"	.rept	64\n"
	"	ldr	x3, [x0, #(spework_k * 16)]\n"
	"	str	x3, [x0, #(spework_k * 16 + 8)]\n"
	"	.set	spework_k, spework_k + 1\n"
	"	.endr\n"
	"	subs	x1, x1, #1\n"
	"	b.ne	spework_loop\n"
	"	ret\n"
	"spework_loop_end:\n"
	"	.size	spework_loop, . - spework_loop\n");

/* the address of a label of the asm above */
#define LABEL(sym) ({							\
	unsigned long __a;						\
	asm("adr %0, " #sym : "=r" (__a));				\
	__a;								\
})

typedef void (*loop_fn)(unsigned long *array, long iterations);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;

	printf("loop %lx %lx array %lx %lx\n", LABEL(spework_loop),
	       LABEL(spework_loop_end), (unsigned long)spework_array,
	       (unsigned long)spework_array + sizeof(spework_array));
	fflush(stdout);
	((loop_fn)LABEL(spework_loop))(spework_array, n);
	return 0;
}
