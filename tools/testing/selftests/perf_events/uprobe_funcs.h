/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What uprobe_events.c probes: functions written in assembly so that their
 * first instructions are known, and SDT-style semaphores.  Included once.
 *
 * uf_step's first instruction is stepped out of line, uf_emul's is
 * emulated, uf_pcrel's reads relative to the program counter (fixed up or
 * simulated).  uf_call calls uf_step, so a return probe of uf_step returns
 * to uf_after_call.  uf_trap starts with the breakpoint uprobes would
 * write and is never called.
 */
#ifndef PERF_EVENTS_SELFTEST_UPROBE_FUNCS_H
#define PERF_EVENTS_SELFTEST_UPROBE_FUNCS_H

#if defined(__x86_64__)
asm(".pushsection .text\n"
	".p2align 4\n"
	".globl uf_step\n uf_step:\n"
	"	lea 1(%rdi), %rax\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_emul\n uf_emul:\n"
	"	push %rbp\n"
	"	lea 2(%rdi), %rax\n"
	"	pop %rbp\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_pcrel\n uf_pcrel:\n"
	"	mov uf_three(%rip), %rax\n"
	"	add %rdi, %rax\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_call\n uf_call:\n"
	"	call uf_step\n"
	".globl uf_after_call\n uf_after_call:\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_trap\n uf_trap:\n"
	"	int3\n"
	"	ret\n"
	".popsection\n"
	".pushsection .rodata\n"
	"uf_three: .quad 3\n"
	".popsection\n");
#define BP_LEN		1
static const unsigned char bp_insn[] = { 0xcc };
#elif defined(__aarch64__)
asm(".pushsection .text\n"
	".p2align 4\n"
	".globl uf_step\n uf_step:\n"
	"	add x0, x0, #1\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_emul\n uf_emul:\n"
	"	b 1f\n"
	"1:	add x0, x0, #2\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_pcrel\n uf_pcrel:\n"
	"	adr x1, uf_three\n"
	"	ldr x1, [x1]\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_call\n uf_call:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	bl uf_step\n"
	".globl uf_after_call\n uf_after_call:\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".p2align 4\n"
	".globl uf_trap\n uf_trap:\n"
	"	brk #0x5\n"
	"	ret\n"
	".p2align 3\n"
	"uf_three: .quad 3\n"
	".popsection\n");
#define BP_LEN		4
/* BRK64_OPCODE_UPROBES, little-endian */
static const unsigned char bp_insn[] = { 0xa0, 0x00, 0x20, 0xd4 };
#else
#error "uprobe_events: no probed functions for this arch"
#endif

long uf_step(long x);
long uf_emul(long x);
long uf_pcrel(long x);
long uf_call(long x);
void uf_after_call(void);
void uf_trap(void);

/*
 * SDT-style semaphores, in .data so that they are in the file-backed data
 * mapping (a zero-initialized C variable would land in .bss, anonymous
 * memory).  The kernel writes them behind the compiler's back.
 */
asm(".pushsection .data\n"
	".p2align 3\n"
	".globl uf_sema\n uf_sema: .short 0\n"
	".globl uf_sema_other\n uf_sema_other: .short 0\n"
	".popsection\n");
extern short uf_sema, uf_sema_other;

static inline short sema_read(short *sema)
{
	return __atomic_load_n(sema, __ATOMIC_RELAXED);
}

#endif
