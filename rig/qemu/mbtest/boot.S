/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mbtest: entry, descriptor tables, ring changes and the AP trampoline.
 * 32-bit protected mode, flat segments, no paging.
 */
#define KCODE	0x08
#define KDATA	0x10
#define UCODE	0x1b
#define UDATA	0x23
#define TSSSEL	0x28
#define AP_BASE	0x8000

	.section .multiboot, "a"
	.align 4
	.long 0x1BADB002
	.long 0
	.long -0x1BADB002

	.text
	.globl _start
_start:
	cli
	mov %ebx, mb_info		/* the multiboot information */
	lgdt gdtr
	ljmp $KCODE, $1f
1:	mov $KDATA, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov %ax, %fs
	mov %ax, %gs
	mov $stack_top, %esp
	call main
2:	cli
	hlt
	jmp 2b

/* Exception entries: #GP and #UD skip the 2-byte instruction that faulted
 * (rdmsr, wrmsr, rdpmc, ud2) and record the vector. */
	.globl nmi_entry, gp_entry, ud_entry, int80_entry, timer_entry
nmi_entry:
	pusha
	push %ds
	push %es
	mov $KDATA, %ax
	mov %ax, %ds
	mov %ax, %es
	lea 40(%esp), %eax		/* the interrupted EIP, CS, EFLAGS */
	push %eax
	call nmi_handler
	add $4, %esp
	pop %es
	pop %ds
	popa
	iret
gp_entry:
	add $4, %esp			/* error code */
	addl $2, (%esp)
	movl $13, %ss:fault
	.globl gp_iret, ud_iret
gp_iret:
	iret
ud_entry:
	addl $2, (%esp)
	movl $6, %ss:fault
ud_iret:
	iret
/* vector 0x41 (an extended LVT entry's, fixed): counted and acknowledged */
	.globl eilvt_entry
eilvt_entry:
	incl %ss:eilvt_irqs
	movl $0, %ss:0xfee000b0		/* EOI */
	iret
/* the local APIC timer (vector 0x40): counted and acknowledged */
timer_entry:
	incl %ss:timer_irqs
	movl $0, %ss:0xfee000b0		/* EOI */
	iret

/*
 * measure(msr, lo, hi, n): wrmsr(msr, hi:lo) starts counting, a LOOP of n
 * iterations runs, wrmsr(msr, 0) stops it: n + 5 instructions counted
 * (MOV, n LOOPs, MOV, XOR, XOR, WRMSR), as KVM's pmu_counters_test has it.
 */
	.globl measure
measure:
	push %esi
	push %edi
	mov 12(%esp), %ecx
	mov 16(%esp), %eax
	mov 20(%esp), %edx
	mov 24(%esp), %edi
	mov %ecx, %esi
	wrmsr
	mov %edi, %ecx
1:	loop 1b
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %edi
	pop %esi
	ret

/*
 * nop_block(msr, lo, hi): wrmsr(msr, hi:lo) starts counting, 32 NOPs
 * (one straight-line TB) run, wrmsr(msr, 0) stops it.  A counter that
 * overflows at the kth NOP interrupts at nop_block_nops + k.
 */
	.globl nop_block, nop_block_nops
nop_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
nop_block_nops:
	.rept 32
	nop
	.endr
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %esi
	ret

/*
 * pebs_block(msr, lo, hi): as nop_block, with known values in EBX, EBP,
 * ESI and EDI and EFLAGS 2 (IF clear) while the 32 NOPs run, ESP then
 * in pebs_esp.  A counter that overflows at the kth NOP has its PEBS
 * record at pebs_block_nops + k - 1, with EIP pebs_block_nops + k.
 */
	.globl pebs_block, pebs_block_nops
pebs_block:
	push %ebx
	push %ebp
	push %esi
	push %edi
	pushf
	mov 24(%esp), %ecx
	mov 28(%esp), %eax
	mov 32(%esp), %edx
	mov $0x11223344, %ebx
	mov $0x55667788, %ebp
	mov $0x99aabbcc, %esi
	mov $0xddeeff00, %edi
	mov %esp, pebs_esp
	push $2
	popf
	wrmsr
pebs_block_nops:
	.rept 32
	nop
	.endr
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	popf
	pop %edi
	pop %esi
	pop %ebp
	pop %ebx
	ret

/*
 * hlt_block(msr, lo, hi): wrmsr(msr, hi:lo) starts counting, then NOP,
 * STI, HLT (the 3rd instruction counted), CLI, and wrmsr(msr, 0).  A
 * counter that overflows at the HLT must wake it with its PMI, at
 * hlt_block_after; the local APIC timer wakes it otherwise.
 */
	.globl hlt_block, hlt_block_after
hlt_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
	nop
	sti
	hlt
hlt_block_after:
	cli
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %esi
	ret

/*
 * branch_block(msr, lo, hi): wrmsr(msr, hi:lo) starts counting, 32 JMPs
 * to the next instruction (2 bytes each: 32 branches, one per TB) run,
 * wrmsr(msr, 0) stops it.  A branch counter that overflows at the kth
 * JMP interrupts at branch_block_jmps + 2k.
 */
	.globl branch_block, branch_block_jmps
branch_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
branch_block_jmps:
	.rept 32
	jmp 1f
1:
	.endr
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %esi
	ret

/*
 * branch_mix(msr, lo, hi, n): as measure(), but each of the n iterations
 * runs every kind of near branch: JMP rel8, CALL, an indirect JMP, RET,
 * JECXZ and JZ (not taken) and JNZ (taken but the last time): 7 branches,
 * 3 of them conditional (JECXZ, JZ, JNZ).
 */
	.globl branch_mix
branch_mix:
	push %esi
	push %edi
	mov 12(%esp), %ecx
	mov 16(%esp), %eax
	mov 20(%esp), %edx
	mov 24(%esp), %edi
	mov %ecx, %esi
	wrmsr
	mov %edi, %ecx
1:	jmp 2f
2:	call 3f
	mov $4f, %eax
	jmp *%eax
3:	ret
4:	jecxz 5f
	test %ecx, %ecx
	jz 5f
5:	dec %ecx
	jnz 1b
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %edi
	pop %esi
	ret

/*
 * The entry of a run_user* test (msr, lo, hi, n): save the caller's
 * registers and stack, load msr into %esi, lo:hi into %eax:%edx and n into
 * %edi, and switch the data segments to ring 3's.  A macro, not a call, so
 * that what each test counts at CPL 0 stays a straight line.
 */
.macro enter_test
	pusha
	mov %esp, saved_esp
	mov 36(%esp), %esi
	mov 40(%esp), %eax
	mov 44(%esp), %edx
	mov 48(%esp), %edi
	mov $UDATA, %bx
	mov %bx, %ds
	mov %bx, %es
.endm

/*
 * Back at CPL 0 from a run_user* test: stop the counter (wrmsr(msr, 0))
 * and switch the data segments back to ring 0's.
 */
.macro leave_test
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	mov $KDATA, %bx
	mov %bx, %ds
	mov %bx, %es
.endm

/*
 * run_user(msr, lo, hi, n): wrmsr(msr, hi:lo) in ring 0, IRET to ring 3,
 * a LOOP of n there, INT $0x80 back to ring 0, wrmsr(msr, 0).
 * Counted at CPL 0: PUSH x5, IRET, then MOV, XOR, XOR, WRMSR = 10.
 * Counted at CPL 3: MOV, n LOOPs, INT = n + 2.
 */
	.globl run_user
run_user:
	enter_test
	mov %esi, %ecx
	wrmsr
	push $UDATA
	push $user_stack_top
	push $0x2			/* EFLAGS: IF=0 */
	push $UCODE
	push $user_entry
	.globl user_entry, user_iret
user_iret:
	iret
user_entry:
	mov %edi, %ecx
1:	loop 1b
	int $0x80
int80_entry:
	leave_test
	mov saved_esp, %esp
	popa
	ret

/*
 * run_user_fault(msr, lo, hi, n): as run_user, but at CPL 3 a UD2 (#UD)
 * and a RDMSR (#GP) come after the LOOP. Neither retires: CPL 3 counts
 * n + 2 still; CPL 0 counts 10 plus the handlers' 3 (#UD: ADD, MOV,
 * IRET) and 4 (#GP: ADD, ADD, MOV, IRET).
 */
	.globl run_user_fault
run_user_fault:
	enter_test
	mov %esi, %ecx
	wrmsr
	push $UDATA
	push $user_stack_top
	push $0x2
	push $UCODE
	push $1f
	.globl user_fault_iret, user_fault_entry
user_fault_iret:
	iret
user_fault_entry:
1:	mov %edi, %ecx
2:	loop 2b
	ud2
	rdmsr
	int $0x80

/*
 * run_user_sysexit(msr, lo, hi, n): SYSEXIT to ring 3, a LOOP, SYSENTER
 * back (SYSENTER_CS = KCODE: the GDT has the layout SYSEXIT needs).
 * CPL 0 counts MOV, MOV, SYSEXIT, then MOV, XOR, XOR, WRMSR = 7;
 * CPL 3 counts MOV, n LOOPs, SYSENTER = n + 2.
 */
	.globl run_user_sysexit, sysenter_entry
run_user_sysexit:
	enter_test
	mov %esi, %ecx
	wrmsr
	mov $1f, %edx
	mov $user_stack_top, %ecx
	.globl user_sysexit, user_sysexit_entry, user_sysenter
user_sysexit:
	sysexit
user_sysexit_entry:
1:	mov %edi, %ecx
2:	loop 2b
user_sysenter:
	sysenter
sysenter_entry:
	leave_test
	mov saved_esp, %esp
	popa
	ret

/*
 * run_user_sysret(msr, lo, hi, n): legacy-mode SYSRET to ring 3, a LOOP,
 * SYSCALL back (STAR: SYSCALL CS = KCODE, SYSRET CS = UCODE).
 * CPL 0 counts MOV, SYSRET, then MOV, XOR, XOR, WRMSR = 6;
 * CPL 3 counts MOV, n LOOPs, SYSCALL = n + 2.
 */
	.globl run_user_sysret, syscall_entry
run_user_sysret:
	enter_test
	mov %esp, %ebp
	mov $user_stack_top, %esp
	mov %esi, %ecx
	wrmsr
	mov $1f, %ecx
	.globl user_sysret, user_sysret_entry, user_syscall
user_sysret:
	sysret
user_sysret_entry:
1:	mov %edi, %ecx
2:	loop 2b
user_syscall:
	syscall
syscall_entry:
	leave_test
	mov %bx, %ss
	mov saved_esp, %esp
	popa
	ret

/* user_rdpmc(ecx): RDPMC at CPL 3 (CR4.PCE must be set); result in
 * user_pmc, the vector of a fault in fault. */
	.globl user_rdpmc
user_rdpmc:
	pusha
	mov %esp, saved_esp
	mov 36(%esp), %esi
	mov $UDATA, %bx
	mov %bx, %ds
	mov %bx, %es
	push $UDATA
	push $user_stack_top
	push $0x2
	push $UCODE
	push $1f
	iret
1:	mov %esi, %ecx
	rdpmc
	mov %eax, user_pmc
	mov %edx, user_pmc + 4
	int $0x81
	.globl int81_entry
int81_entry:
	mov $KDATA, %bx
	mov %bx, %ds
	mov %bx, %es
	mov saved_esp, %esp
	popa
	ret

/*
 * lbr_block(msr, lo, hi): wrmsr(msr, hi:lo) starts recording, then one of
 * each kind of branch, each at a global label (the TO of each is the
 * label after it, or the named target), and wrmsr(msr, 0) stops it.
 * Taken: JMP rel8, JZ, CALL rel32, RET, CALL *%eax, RET, JMP *%eax, LOOP
 * (once, of two), JECXZ, INT $0x82 and its handler's IRET, a far JMP, a
 * far CALL and its far RET: 14 records.  Not taken: a JNZ, the second
 * LOOP.
 */
	.globl lbr_ljmp, lbr_ljmp_t, lbr_lcall, lbr_lcall_ret, lbr_lfunc
	.globl lbr_block, lbr_jmp, lbr_jmp_t, lbr_jnz, lbr_jz, lbr_jz_t
	.globl lbr_call, lbr_call_ret, lbr_func, lbr_ret, lbr_icall
	.globl lbr_icall_ret, lbr_ijmp, lbr_ijmp_t, lbr_loop, lbr_loop_end
	.globl lbr_jecxz, lbr_jecxz_t, lbr_int, lbr_int_ret, int82_entry
lbr_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
lbr_jmp:
	jmp lbr_jmp_t
	nop
lbr_jmp_t:
	xor %eax, %eax			/* ZF = 1 */
lbr_jnz:
	jnz lbr_jmp_t			/* not taken */
lbr_jz:
	jz lbr_jz_t
	nop
lbr_jz_t:
lbr_call:
	call lbr_func
lbr_call_ret:
	mov $lbr_func, %eax
lbr_icall:
	call *%eax
lbr_icall_ret:
	mov $lbr_ijmp_t, %eax
lbr_ijmp:
	jmp *%eax
	nop
lbr_ijmp_t:
	mov $2, %ecx
lbr_loop:
	loop lbr_loop			/* taken once, then not */
lbr_loop_end:
lbr_jecxz:
	jecxz lbr_jecxz_t
	nop
lbr_jecxz_t:
lbr_int:
	int $0x82
lbr_int_ret:
lbr_ljmp:
	ljmp $KCODE, $lbr_ljmp_t
	nop
lbr_ljmp_t:
lbr_lcall:
	lcall $KCODE, $lbr_lfunc
lbr_lcall_ret:
	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	pop %esi
	ret
lbr_func:
lbr_ret:
	ret
int82_entry:
	iret
lbr_lfunc:
	lret

/*
 * lbrlog_loop(msr, lo, hi, n): LBR event logging (patch 0024).
 * wrmsr(msr, hi:lo) (IA32_LBR_CTL or an IA32_PERFEVTSELx: either
 * restarts the counts), then n iterations of: TEST, JZ (not taken), NOP,
 * JMP (taken), DEC, JNZ (taken but the last time); then IA32_LBR_CTL and
 * msr are written 0.  From the WRMSR to the first JMP: 5 instructions, 2
 * branches; from a JMP to the JNZ: 2 and 1; from a JNZ to the next JMP:
 * 4 and 2.
 */
	.globl lbrlog_loop, lbrlog_jmp, lbrlog_jmp_t, lbrlog_jnz, lbrlog_top
lbrlog_loop:
	push %esi
	push %edi
	push %ebx
	mov 16(%esp), %ecx
	mov 20(%esp), %eax
	mov 24(%esp), %edx
	mov 28(%esp), %edi
	mov %ecx, %esi
	mov $1, %ebx
	wrmsr
	mov %edi, %ecx
lbrlog_top:
	test %ebx, %ebx
	jz lbrlog_out			/* not taken */
	nop
lbrlog_jmp:
	jmp lbrlog_jmp_t
	nop
lbrlog_jmp_t:
	dec %ecx
lbrlog_jnz:
	jnz lbrlog_top
lbrlog_out:
	mov $0x14ce, %ecx		/* IA32_LBR_CTL */
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	mov %esi, %ecx
	wrmsr
	pop %ebx
	pop %edi
	pop %esi
	ret

/*
 * lbr_db_block(msr, lo, hi): wrmsr(msr, hi:lo), a JMP, then a single-step
 * trap (EFLAGS.TF set by POPF) after a NOP: the #DB handler (db_entry)
 * clears TF and returns; a JMP and the RET follow.  Recording is left
 * as the #DB leaves it.
 */
	.globl lbr_db_block, lbr_db_jmp, lbr_db_jmp_t, db_entry
lbr_db_block:
	mov 4(%esp), %ecx
	mov 8(%esp), %eax
	mov 12(%esp), %edx
	wrmsr
lbr_db_jmp:
	jmp lbr_db_jmp_t
lbr_db_jmp_t:
	pushf
	orl $0x100, (%esp)
	popf
	nop
	jmp 1f
1:	ret
db_entry:
	andl $~0x100, 8(%esp)		/* the saved EFLAGS: TF off */
	iret

/*
 * lbr_cs_block(msr, lo, hi): call-stack mode.  wrmsr(msr, hi:lo), then
 * nested calls: lbr_cs_c1 calls f1, whose lbr_cs_c2 calls f2; f2 calls f3
 * (lbr_cs_c3), which returns, then f4 (lbr_cs_c4, indirect), which
 * returns, jumps once, and stops recording (wrmsr(msr, 0)) before it
 * returns: the CALLs of f1 and f2 are left, the others popped.
 */
	.globl lbr_cs_block, lbr_cs_c1, lbr_cs_f1, lbr_cs_c2, lbr_cs_f2
	.globl lbr_cs_c3, lbr_cs_f3, lbr_cs_c4, lbr_cs_f4
lbr_cs_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
lbr_cs_c1:
	call lbr_cs_f1
	pop %esi
	ret
lbr_cs_f1:
lbr_cs_c2:
	call lbr_cs_f2
	ret
lbr_cs_f2:
lbr_cs_c3:
	call lbr_cs_f3
	mov $lbr_cs_f4, %eax
lbr_cs_c4:
	call *%eax
	jmp 1f
1:	mov %esi, %ecx
	xor %eax, %eax
	xor %edx, %edx
	wrmsr
	ret
lbr_cs_f3:
	ret
lbr_cs_f4:
	ret

/*
 * ibs_block(msr, lo, hi): wrmsr(msr, hi:lo) arms IBS, then a straight line
 * of known instructions, numbered from the first after the WRMSR: NOPs
 * 1-48 (ibs_seq + k - 1 is the kth), a load (49th), a store (50th), a
 * read-modify-write (51st) of ibs_data, a JMP (52nd) over a UD2, an XOR
 * (53rd), a JNZ not taken (54th), a CALL (55th) of ibs_func, whose RET
 * (56th) returns to a MOV (57th), an indirect JMP (58th), NOPs 59-122,
 * then POP (123rd) and RET (124th).  IBS is left as it is: a sample
 * stays for the caller to read.
 */
	.globl ibs_block, ibs_seq, ibs_ld, ibs_st, ibs_rmw, ibs_jmp, ibs_jmp_t
	.globl ibs_jnz, ibs_call, ibs_call_ret, ibs_func, ibs_ijmp, ibs_ijmp_t
	.globl ibs_end, ibs_data
ibs_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
ibs_seq:
	.rept 48
	nop
	.endr
ibs_ld:
	mov ibs_data, %eax
ibs_st:
	mov %eax, ibs_data + 8
ibs_rmw:
	addl $1, ibs_data + 16
ibs_jmp:
	jmp ibs_jmp_t
	ud2
ibs_jmp_t:
	xor %eax, %eax			/* ZF = 1 */
ibs_jnz:
	jnz ibs_jmp_t			/* not taken */
ibs_call:
	call ibs_func
ibs_call_ret:
	mov $ibs_ijmp_t, %eax
ibs_ijmp:
	jmp *%eax
	ud2
ibs_ijmp_t:
	.rept 64
	nop
	.endr
	pop %esi
ibs_end:
	ret
ibs_func:
	ret

/*
 * mem_block(msr, lo, hi, base): wrmsr(msr, hi:lo), the data accesses of
 * the memory event tests at base (64-byte aligned, its lines and those of
 * base + 8000H never accessed before), wrmsr(msr, 0):
 *   mem_ld1   loads base              (a line from DRAM)
 *   mem_st1   stores base + 48H       (a line not in the L1D)
 *   mem_rmw   loads and stores base + 80H (from DRAM; the store hits)
 *   mem_ld2   loads base + 8          (an L1D hit)
 *   mem_push  stores to the stack
 *   mem_pop   loads from the stack    (an L1D hit)
 *   mem_st2   stores base + 40H       (an L1D hit)
 *   mem_ld3   loads base + 8000H      (from DRAM, in base's L1D set)
 *   mem_ld4   loads base              (evicted from the L1D: an L2 hit)
 * 6 instructions that load, 4 that store, NOPs between some of them.
 */
	.globl mem_block, mem_ld1, mem_st1, mem_rmw, mem_ld2, mem_push
	.globl mem_pop, mem_st2, mem_ld3, mem_ld4
mem_block:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov 20(%esp), %esi
	wrmsr
mem_ld1:
	mov (%esi), %eax
	nop
mem_st1:
	mov %eax, 0x48(%esi)
	nop
mem_rmw:
	addl $1, 0x80(%esi)
	nop
mem_ld2:
	mov 8(%esi), %eax
mem_push:
	push %eax
mem_pop:
	pop %eax
mem_st2:
	mov %eax, 0x40(%esi)
mem_ld3:
	mov 0x8000(%esi), %eax
mem_ld4:
	mov (%esi), %eax
	xor %eax, %eax
	xor %edx, %edx
	wrmsr				/* ECX is still msr */
	pop %esi
	ret

/*
 * ibs_count(msr, lo, hi): wrmsr(msr, hi:lo), 40 NOPs, then rdmsr(msr),
 * returned: the count of 40 instructions.
 */
	.globl ibs_count
ibs_count:
	push %esi
	mov 8(%esp), %ecx
	mov 12(%esp), %eax
	mov 16(%esp), %edx
	mov %ecx, %esi
	wrmsr
	.rept 40
	nop
	.endr
	rdmsr				/* ECX is still msr */
	pop %esi
	ret

/*
 * ibs_loop(msr, lo, hi, n): wrmsr(msr, hi:lo), MOV (the 1st instruction),
 * then a LOOP of n (the kth LOOP the (k + 1)th instruction, at
 * ibs_loop_insn, jumping to itself but the last).
 */
	.globl ibs_loop, ibs_loop_insn
ibs_loop:
	push %esi
	push %edi
	mov 12(%esp), %ecx
	mov 16(%esp), %eax
	mov 20(%esp), %edx
	mov 24(%esp), %edi
	wrmsr
	mov %edi, %ecx
ibs_loop_insn:
	loop ibs_loop_insn
	pop %edi
	pop %esi
	ret

/* AP trampoline, copied to AP_BASE: real mode -> protected mode -> ap_main */
	.globl ap_tramp, ap_tramp_end
	.code16
ap_tramp:
	cli
	xor %ax, %ax
	mov %ax, %ds
	lgdtl AP_BASE + (ap_gdtr - ap_tramp)
	mov %cr0, %eax
	or $1, %eax
	mov %eax, %cr0
	ljmpl $KCODE, $ap_pm32
ap_gdtr:
	.word gdt_end - gdt - 1
	.long gdt
ap_tramp_end:
	.code32
ap_pm32:
	mov $KDATA, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov $ap_stack_top, %esp
	call ap_main
3:	hlt
	jmp 3b

	.data
	.align 8
	.globl gdt, tss_desc
gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* KCODE */
	.quad 0x00cf92000000ffff	/* KDATA */
	.quad 0x00cffa000000ffff	/* UCODE */
	.quad 0x00cff2000000ffff	/* UDATA */
tss_desc:
	.quad 0				/* TSS, filled in by main */
gdt_end:
gdtr:
	.word gdt_end - gdt - 1
	.long gdt
saved_esp:
	.long 0
	.globl mb_info
mb_info:
	.long 0
	.align 8
ibs_data:
	.quad 0x1111, 0x2222, 0x3333

	.bss
	.align 16
	.space 16384
stack_top:
	.globl kstack_top
	.space 8192
kstack_top:
	.space 4096
user_stack_top:
	.space 8192
ap_stack_top:

	.section .note.GNU-stack, "", @progbits
