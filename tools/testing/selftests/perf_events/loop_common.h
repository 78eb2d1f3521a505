/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user loop that the precise-sampling suites (hw_pebs, hw_ibs) count
 * positions in: loop5_work(n) runs n iterations of five instructions, the
 * last a taken conditional branch (rdi counts down), so a sample that
 * names the instruction ending a period of P instructions lands P mod 5
 * positions after the one before it. LABEL() gives the address of a
 * label of an asm block, this one's or a suite's own.
 *
 * Off x86_64 there is no loop (HAVE_LOOP 0), and the suites SKIP.
 */
#ifndef _PERF_EVENTS_LOOP_COMMON_H
#define _PERF_EVENTS_LOOP_COMMON_H

#include <stdbool.h>
#include <string.h>
#include <linux/types.h>

/* instructions per iteration of loop5_work() */
#define LOOP_LEN	5

typedef void (*loop_fn)(unsigned long n);

#if defined(__x86_64__)
asm(".text\n"
	"loop5_work:\n"
	"loop5_i0:	add $1, %rax\n"
	"loop5_i1:	xor %rdx, %rcx\n"
	"loop5_i2:	nop\n"
	"loop5_i3:	dec %rdi\n"
	"loop5_i4:	jnz loop5_i0\n"
	"loop5_ret:	ret\n");

#define LABEL(sym) ({							\
	unsigned long __a;						\
	asm("lea " #sym "(%%rip), %0" : "=r" (__a));			\
	__a;								\
})

static inline void loop5_work(unsigned long n)
{
	((loop_fn)LABEL(loop5_work))(n);
}

/* the loop's instructions, in order, then the RET after it */
static inline void loop5_labels(unsigned long *l)
{
	l[0] = LABEL(loop5_i0);
	l[1] = LABEL(loop5_i1);
	l[2] = LABEL(loop5_i2);
	l[3] = LABEL(loop5_i3);
	l[4] = LABEL(loop5_i4);
	l[5] = LABEL(loop5_ret);
}

#define HAVE_LOOP 1
#else
#define HAVE_LOOP 0
#define LABEL(sym) (sizeof(#sym) * 0UL)

static inline void loop5_work(unsigned long n)
{
}

static inline void loop5_labels(unsigned long *l)
{
	memset(l, 0, 6 * sizeof(*l));
}
#endif

/* the position of @ip among the six labels @l (0-5), -1 for none */
static inline int loop_pos(const unsigned long *l, __u64 ip)
{
	int i;

	for (i = 0; i < 6; i++)
		if (ip == l[i])
			return i;
	return -1;
}

static inline bool loop_inside(const unsigned long *l, __u64 ip)
{
	return ip >= l[0] && ip <= l[5];
}

#endif /* _PERF_EVENTS_LOOP_COMMON_H */
