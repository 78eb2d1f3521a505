/* SPDX-License-Identifier: GPL-2.0 */
/* spetest: what boot.S provides to main.c, and register access */
#ifndef SPETEST_H
#define SPETEST_H

typedef unsigned long u64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

#define BIT(n) (1ul << (n))

#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
/* by encoding (s3_...), which every assembler knows */
#define read_sysreg(r) ({					\
	u64 __v;						\
	asm volatile("mrs %0, " __stringify(r) : "=r"(__v));	\
	__v;							\
})
#define write_sysreg(v, r) ({					\
	asm volatile("msr " __stringify(r) ", %0" : : "r"((u64)(v)));	\
})

/* the compiler keeps memory accesses on their side of it */
static inline void barrier(void)
{
	asm volatile("" : : : "memory");
}

static inline void isb(void)
{
	asm volatile("isb" : : : "memory");
}

static inline u32 mmio_read32(u64 addr)
{
	u32 v;

	asm volatile("ldr %w0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void mmio_write32(u64 addr, u32 v)
{
	asm volatile("str %w0, [%1]" : : "r"(v), "r"(addr) : "memory");
}

/* PMSCR_EL1 = pmscr, ISB, 2048 NOPs, PMSCR_EL1 = 0 */
void nop_block(u64 pmscr);
/* the same around 512 x {LDR, STR (post-index), B, NOP, CBNZ XZR} */
void mix_block(u64 pmscr, u64 unused, u64 *ld, u64 unused2, u64 *st);
/* fn at EL0 until it does SVC */
void run_el0(void (*fn)(void));
extern char nop_block_nops[], mix_ops[], el0_nops[];

#endif
