/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spetest: entry, exception vectors, EL0 entry and the measured blocks.
 * The blocks enable profiling themselves (x0 to PMSCR_ELx) so that the
 * operations between the enable and the block are known exactly.
 */
#define PMSCR_EL1	s3_0_c9_c9_0

	.section .text.boot
	.global _start
_start:
	ldr	x0, =stack_top
	mov	sp, x0
	ldr	x0, =vectors
	msr	vbar_el1, x0
	isb
	mrs	x0, CurrentEL
	lsr	x0, x0, #2
	cmp	x0, #2
	b.ne	1f
	/* at EL2 (virtualization=on): what a kernel does, then EL1 */
	bl	el2_setup
	ldr	x0, =stack_top
	msr	sp_el1, x0
	adr	x0, 1f
	msr	elr_el2, x0
	mov	x0, #0x3c5		/* EL1h, DAIF masked */
	msr	spsr_el2, x0
	eret
1:	bl	main
	/* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit with main's value */
	ldr	x1, =exit_block
	str	x0, [x1, #8]
	mov	x0, #0x18
	hlt	#0xf000
2:	wfi
	b	2b

	.text
/* Exceptions: a lower EL's SVC returns to run_el0's caller; others stop */
	.balign	2048
vectors:
	.rept	4
	.balign	128
	b	unexpected
	.endr
	/* current EL with SP_ELx: synchronous */
	.balign	128
	b	sync_el1
	/* current EL with SP_ELx: IRQ */
	.balign	128
	b	irq_entry
	.rept	2
	.balign	128
	b	unexpected
	.endr
	/* lower EL, AArch64: synchronous */
	.balign	128
	b	el0_return
	.rept	7
	.balign	128
	b	unexpected
	.endr

/* an undefined instruction main.c expects: note it, skip it */
sync_el1:
	stp	x0, x1, [sp, #-16]!
	ldr	x0, =expect_undef
	ldr	x1, [x0]
	cbz	x1, 1f
	str	xzr, [x0]
	mrs	x1, esr_el1
	ldr	x0, =undef_esr
	str	x1, [x0]
	mrs	x1, elr_el1
	add	x1, x1, #4
	msr	elr_el1, x1
	ldp	x0, x1, [sp], #16
	eret
1:	ldp	x0, x1, [sp], #16

unexpected:
	ldr	x1, =stack_top
	mov	sp, x1
	mrs	x0, esr_el1
	mrs	x1, elr_el1
	mrs	x2, far_el1
	bl	report_unexpected
	ldr	x1, =exit_block
	mov	x0, #99
	str	x0, [x1, #8]
	mov	x0, #0x18
	hlt	#0xf000

/* an IRQ at EL1: irq_handler() with the caller-saved registers kept */
irq_entry:
	sub	sp, sp, #192
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	mrs	x0, elr_el1
	mrs	x1, spsr_el1
	stp	x30, x0, [sp, #160]
	str	x1, [sp, #176]
	bl	irq_handler
	ldr	x1, [sp, #176]
	ldp	x30, x0, [sp, #160]
	msr	elr_el1, x0
	msr	spsr_el1, x1
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x29, [sp, #144]
	add	sp, sp, #192
	eret

/* void run_el0(void (*fn)(void)): fn at EL0 until it does SVC */
	.global run_el0
run_el0:
	stp	x29, x30, [sp, #-16]!
	stp	x19, x20, [sp, #-16]!
	mov	x1, sp
	ldr	x2, =saved_sp
	str	x1, [x2]
	msr	elr_el1, x0
	msr	spsr_el1, xzr		/* EL0t */
	ldr	x1, =el0_stack_top
	msr	sp_el0, x1
	eret
el0_return:
	ldr	x2, =saved_sp
	ldr	x1, [x2]
	mov	sp, x1
	ldp	x19, x20, [sp], #16
	ldp	x29, x30, [sp], #16
	ret

/* void nop_block(u64 pmscr): PMSCR_EL1 = pmscr, ISB, 2048 NOPs, PMSCR_EL1 = 0 */
	.global nop_block, nop_block_nops
nop_block:
	msr	PMSCR_EL1, x0
	isb
nop_block_nops:
	.rept	2048
	nop
	.endr
	msr	PMSCR_EL1, xzr
	isb
	ret

/* EL0: 2048 NOPs, SVC */
	.global el0_nops
el0_nops:
	.rept	2048
	nop
	.endr
	svc	#0

/*
 * void mix_block(u64 pmscr, u64 unused, u64 *ld, u64 unused, u64 *st):
 * PMSCR_EL1 = pmscr, ISB, 512 times {LDR post-index, STR post-index,
 * B to the next, NOP, CBNZ XZR (never taken)}, PMSCR_EL1 = 0
 */
	.global mix_block, mix_ops
mix_block:
	msr	PMSCR_EL1, x0
	isb
mix_ops:
	.rept	512
	ldr	x3, [x2], #8
	str	x3, [x4], #8
	b	1f
1:	nop
	cbnz	xzr, 2f
2:
	.endr
	msr	PMSCR_EL1, xzr
	isb
	ret

	.data
	.balign	8
exit_block:
	.quad	0x20026, 0
saved_sp:
	.quad	0
