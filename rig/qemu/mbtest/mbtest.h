/* SPDX-License-Identifier: GPL-2.0 */
/* mbtest: what boot.S provides to main.c */
#ifndef MBTEST_H
#define MBTEST_H

typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned short u16;
typedef unsigned char u8;

#define BIT(n) (1u << (n))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT_ULL(n) (1ull << (n))

/* exception and interrupt entries */
void nmi_entry(void);
void gp_entry(void);
void ud_entry(void);
void int80_entry(void);
void int81_entry(void);
void timer_entry(void);
void eilvt_entry(void);
void sysenter_entry(void);
void syscall_entry(void);

/* WRMSR(msr, hi:lo), a LOOP of n, WRMSR(msr, 0): n + 5 counted */
void measure(u32 msr, u32 lo, u32 hi, u32 n);
/* WRMSR(msr, hi:lo), 32 NOPs, WRMSR(msr, 0) */
void nop_block(u32 msr, u32 lo, u32 hi);
extern char nop_block_nops[];
/* WRMSR(msr, hi:lo), NOP, STI, HLT, CLI, WRMSR(msr, 0) */
void hlt_block(u32 msr, u32 lo, u32 hi);
extern char hlt_block_after[];
/* WRMSR(msr, hi:lo), 32 JMPs to the next instruction, WRMSR(msr, 0) */
void branch_block(u32 msr, u32 lo, u32 hi);
extern char branch_block_jmps[];
/* as measure(), n iterations of 7 branches, 3 of them conditional */
void branch_mix(u32 msr, u32 lo, u32 hi, u32 n);
/* the same with the LOOP at CPL 3, entered and left in several ways */
void run_user(u32 msr, u32 lo, u32 hi, u32 n);
void run_user_fault(u32 msr, u32 lo, u32 hi, u32 n);
void run_user_sysexit(u32 msr, u32 lo, u32 hi, u32 n);
void run_user_sysret(u32 msr, u32 lo, u32 hi, u32 n);
/* the far transfers of the run_user* tests, and where they go */
extern char user_iret[], user_entry[], user_fault_iret[], user_fault_entry[];
extern char gp_iret[], ud_iret[];
extern char user_sysexit[], user_sysexit_entry[], user_sysenter[];
extern char user_sysret[], user_sysret_entry[], user_syscall[];
/* architectural LBRs: see boot.S */
void int82_entry(void);
void lbr_block(u32 msr, u32 lo, u32 hi);
extern char lbr_jmp[], lbr_jmp_t[], lbr_jnz[], lbr_jz[], lbr_jz_t[];
extern char lbr_call[], lbr_call_ret[], lbr_func[], lbr_ret[], lbr_icall[];
extern char lbr_icall_ret[], lbr_ijmp[], lbr_ijmp_t[], lbr_loop[], lbr_loop_end[];
extern char lbr_jecxz[], lbr_jecxz_t[], lbr_int[], lbr_int_ret[];
extern char lbr_ljmp[], lbr_ljmp_t[], lbr_lcall[], lbr_lcall_ret[], lbr_lfunc[];
/* LBR event logging: see boot.S */
void lbrlog_loop(u32 msr, u32 lo, u32 hi, u32 n);
extern char lbrlog_jmp[], lbrlog_jmp_t[], lbrlog_jnz[], lbrlog_top[];
void lbr_cs_block(u32 msr, u32 lo, u32 hi);
void lbr_db_block(u32 msr, u32 lo, u32 hi);
void db_entry(void);
extern char lbr_db_jmp[], lbr_db_jmp_t[];
extern char lbr_cs_c1[], lbr_cs_f1[], lbr_cs_c2[], lbr_cs_f2[];
extern char lbr_cs_c3[], lbr_cs_f3[], lbr_cs_c4[], lbr_cs_f4[];
/* WRMSR(msr, hi:lo), 32 NOPs with known GPRs, WRMSR(msr, 0) */
void pebs_block(u32 msr, u32 lo, u32 hi);
extern char pebs_block_nops[];
extern u32 pebs_esp;
/* AMD IBS: see boot.S */
void ibs_block(u32 msr, u32 lo, u32 hi);
extern char ibs_seq[], ibs_ld[], ibs_st[], ibs_rmw[], ibs_jmp[], ibs_jmp_t[];
extern char ibs_jnz[], ibs_call[], ibs_call_ret[], ibs_func[], ibs_ijmp[];
extern char ibs_ijmp_t[], ibs_end[], ibs_data[];
u64 ibs_count(u32 msr, u32 lo, u32 hi);
void ibs_loop(u32 msr, u32 lo, u32 hi, u32 n);
extern char ibs_loop_insn[];
/* Intel memory events: see boot.S */
void mem_block(u32 msr, u32 lo, u32 hi, u32 base);
extern char mem_ld1[], mem_st1[], mem_rmw[], mem_ld2[], mem_push[];
extern char mem_pop[], mem_st2[], mem_ld3[], mem_ld4[];
/* RDPMC at CPL 3: the value in user_pmc */
void user_rdpmc(u32 ecx);

/* main.c, called from boot.S */
void nmi_handler(u32 *frame);
void ap_main(void);

extern char ap_tramp[];
extern char ap_tramp_end[];
extern char kstack_top[];
extern u64 tss_desc;
extern u32 mb_info;

#endif
