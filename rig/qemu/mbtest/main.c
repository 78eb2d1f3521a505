// SPDX-License-Identifier: GPL-2.0
/*
 * mbtest: a bare-metal conformance test of QEMU's emulated x86 PMU
 * (rig/qemu/patches), booted with -kernel as a multiboot image under
 * -icount shift=0, and without icount when its command line (-append)
 * says "noicount". Prints TAP on the debug console (port 0xe9) and exits
 * through isa-debug-exit (port 0xf4): status 1 when every test passed.
 *
 * Instructions count exactly either way; cycles are one per instruction
 * under icount and follow the virtual clock (host time) without it, where
 * their checks are only that they count.
 *
 * The Intel model's architectural LBRs (CPUID leaf 1CH, IA32_LBR_*) are
 * checked too: every kind of branch recorded exactly, the filters,
 * call-stack mode, freeze on PMI; "nolbr" on the command line says the
 * model has arch-lbr=off, where they must not exist (nor on AMD).
 *
 * On -cpu max, their event logging too (patch 0024: CPUID.1CH:ECX[19:16],
 * IA32_PERFEVTSELx bit 35, the counts in IA32_LBR_x_INFO bits 39:32; see
 * test_lbr_log()); on every other Intel run, bit 35 must #GP.
 *
 * So is its PEBS (DS save area, record format 4, adaptive records): the
 * eventing IP of each record exactly, its groups, the reload from the DS
 * area, the threshold PMI, a full buffer; "nopebs" says the model has
 * pebs=off, where DS and the PEBS MSRs must not exist (nor on AMD).
 *
 * On the Skylake and Ice Lake identities ("id=skl", "id=icl"): their
 * model-specific LBRs (LBR_FMT 5, patch 0015: MSR_LBR_SELECT's every
 * filter bit, the TOS ring of 32, call-stack mode, freeze on PMI with
 * LBR_FRZ, the MSRs written and read back), and on Skylake its PEBS
 * record format 3 (the 0C8H record field by field, EventingIP and the
 * trap-like RIP, PMC0-3 only, the reload, the threshold, a full buffer).
 *
 * On the Zen 4 identity ("id=zen4"): AMD's LbrExtV2 (patch 0016: CPUID
 * 8000_0022H, DBG_EXTN_CFG.LBRV2EN, LBR_SELECT's every filter bit, the 16
 * LBR_FROM/LBR_TO pairs with entry 0 the youngest, TO's Valid and Spec
 * bits, freeze on PMI with PerfCntrGlobalStatus.LbrFreeze); no other AMD
 * model may have it.
 *
 * With "ibs" (the zen3 and zen4 runs, -cpu ...,ibs=on): AMD's
 * Instruction-Based Sampling (patch 0017: CPUID, the MSRs, the local
 * APIC's extended LVT and its NMI, the op and fetch samples at their exact
 * instruction; see test_ibs()); without it, on every other AMD run, its
 * MSRs must #GP.
 *
 * With "brs" (the zen3 run, -cpu ...,brs=on): AMD's Branch Sampling
 * (patch 0022: CPUID 8000_0008H EBX[31], DBG_EXTN_CFG's fields, the 16
 * BRS_FROM/BRS_TO pairs, the 16 taken branches after a counter's
 * overflow, its PMI held until then; see test_brs()); without it, on every
 * other AMD run, CPUID must not show it, and where there is no LbrExtV2
 * its MSRs must #GP.
 *
 * Exact-count conventions (as KVM's pmu_counters_test.c has them): the
 * WRMSR that enables a counter does not count, the one that disables it
 * does; an instruction counts at the privilege level it started at.
 */
#include "mbtest.h"

/*
 * Written by the exception handlers (boot.S) and the NMI handler; read
 * after an asm statement with a memory clobber or a call, so the
 * compiler reads them again.
 */
u32 fault;
u64 user_pmc;
u32 timer_irqs;
u32 eilvt_irqs;

/* booted under -icount (the command line has no "noicount") */
static int icount = 1;
/* "nolbr": the Intel model has arch-lbr=off */
static int nolbr;
/* "nopebs": the Intel model has pebs=off */
static int nopebs;
/* "ibs": the AMD model has ibs=on (IBS, patch 0017) */
static int ibs;
/* "brs": the AMD model has brs=on (Branch Sampling, patch 0022) */
static int brs;
/* the identity has model-specific LBRs (LBR_FMT 5): Skylake, Ice Lake */
static int legacy_lbr;
/*
 * "id=NAME": a real part's identity (patch 0014: the PMU follows
 * CPUID.01H's family and model); none: -cpu max, the full model
 */
enum { ID_MAX, ID_SKL, ID_ICL, ID_SPR, ID_ZEN3, ID_ZEN4, ID_BDW, ID_IVB };
static int ident;
static const char *const ident_name[] = {
	"max", "id=skl", "id=icl", "id=spr", "id=zen3", "id=zen4", "id=bdw", "id=ivb",
};

/* display family and model of each identity */
static const u32 ident_fm[][2] = {
	{ 0, 0 }, { 6, 0x5e }, { 6, 0x6a }, { 6, 0x8f }, { 0x19, 0x01 }, { 0x19, 0x11 },
	{ 6, 0x3d }, { 6, 0x3a },
};

/*
 * PEBS with a fixed record: format 3 (Skylake), 2 (Broadwell) or 1 (Ivy
 * Bridge)
 */
static int pebs_fixed_rec(void)
{
	return ident == ID_SKL || ident == ID_BDW || ident == ID_IVB;
}

/* model-specific LBRs of 16 entries: LBR_FMT 4 (Broadwell), 3 (Ivy Bridge) */
static int lbr16(void)
{
	return ident == ID_BDW || ident == ID_IVB;
}

/* Intel: GP counters, perfmon version */
static u32 ngp = 4, pmu_ver = 5;

static inline void out8(u16 p, u8 v)
{
	__asm__ volatile("outb %0,%1" :: "a"(v), "Nd"(p));
}

static void puts(const char *s)
{
	while (*s)
		out8(0xe9, *s++);
}

static u64 divmod10(u64 v, u32 *rem)
{
	u32 hi = v >> 32, lo = v, qh = hi / 10, r = hi % 10, ql;

	__asm__("divl %4" : "=a"(ql), "=d"(r) : "a"(lo), "d"(r), "r"(10u));
	*rem = r;
	return ((u64)qh << 32) | ql;
}

static void putdec(u64 v)
{
	char b[24];
	int i = 23;
	u32 r;

	b[i] = 0;
	do {
		v = divmod10(v, &r);
		b[--i] = '0' + r;
	} while (v);
	puts(b + i);
}

static void puthex(u64 v)
{
	char b[19];
	int i;

	b[0] = '0';
	b[1] = 'x';
	for (i = 0; i < 16; i++)
		b[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	b[18] = 0;
	puts(b);
}

static u64 rdmsr(u32 m)
{
	u32 lo, hi;

	fault = 0;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(m), "a"(0), "d"(0) : "memory");
	return ((u64)hi << 32) | lo;
}

static void wrmsr(u32 m, u64 v)
{
	fault = 0;
	__asm__ volatile("wrmsr" :: "c"(m), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

static u64 rdpmc(u32 c)
{
	u32 lo, hi;

	fault = 0;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(c), "a"(0), "d"(0) : "memory");
	return ((u64)hi << 32) | lo;
}

static void cpuid(u32 l, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(l), "c"(0));
}

static u32 read_cr4(void)
{
	u32 v;

	__asm__ volatile("mov %%cr4,%0" : "=r"(v));
	return v;
}

static void write_cr4(u32 v)
{
	__asm__ volatile("mov %0,%%cr4" :: "r"(v));
}

/* the local APIC, at its reset base */
static u32 apic_read(u32 reg)
{
	u32 v;

	__asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*(u32 *)(0xfee00000 + reg)));
	return v;
}

static void apic_write(u32 reg, u32 v)
{
	__asm__ volatile("movl %1, %0" : "=m"(*(u32 *)(0xfee00000 + reg)) : "r"(v) : "memory");
}

#define LVTPC 0x340
#define EN BIT(22)
#define INT BIT(20)
#define USR BIT(16)
#define OS BIT(17)
#define MASK48 (BIT_ULL(48) - 1)

/* Intel */
#define PMC0 0xc1
#define EVTSEL0 0x186
#define FIX0 0x309
#define FIXCTRL 0x38d
#define GSTATUS 0x38e
#define GCTRL 0x38f
#define GRESET 0x390
#define GSET 0x391
#define GINUSE 0x392
#define PERFCAP 0x345
#define APMC0 0x4c1
#define DEBUGCTL 0x1d9
/* AMD */
#define K7_SEL0 0xc0010000
#define K7_CTR0 0xc0010004
#define F15_SEL(i) (0xc0010200 + 2 * (i))
#define F15_CTR(i) (0xc0010201 + 2 * (i))
#define A_GSTATUS 0xc0000300
#define A_GCTL 0xc0000301
#define A_GCLR 0xc0000302
#define A_GSET 0xc0000303

static u64 idt[256];
static u16 idtr[3];			/* limit, base */
static u32 tss[26];

/* a 32-bit interrupt gate to f in KCODE, callable from ring dpl */
static void setgate(int v, void (*f)(void), int dpl)
{
	u32 off = (u32)f;

	idt[v] = (off & 0xffff) | (0x08 << 16) | ((u64)(0x8e | (dpl << 5)) << 40) |
		 ((u64)(off >> 16) << 48);
}

/* what the last NMI saw; written by nmi_handler */
u32 nmis, nmi_cs, nmi_eip;
u64 nmi_status, nmi_ctr, nmi_lvtpc, nmi_x;
static u32 nmi_status_msr, nmi_ctr_msr, nmi_ack_msr;	/* 0: none */
static u32 nmi_x_msr;		/* another MSR to read (nmi_x), 0: none */

void nmi_handler(u32 *frame)
{
	nmis++;
	nmi_eip = frame[0];
	nmi_cs = frame[1];
	nmi_status = nmi_status_msr ? rdmsr(nmi_status_msr) : 0;
	nmi_ctr = rdmsr(nmi_ctr_msr);
	nmi_x = nmi_x_msr ? rdmsr(nmi_x_msr) : 0;
	nmi_lvtpc = apic_read(LVTPC);
	if (nmi_ack_msr)
		wrmsr(nmi_ack_msr, nmi_status);
}

static int ntests, nfailed;

static void report(int pass, const char *what)
{
	ntests++;
	nfailed += !pass;
	puts(pass ? "ok " : "not ok ");
	putdec(ntests);
	puts(" - ");
	puts(what);
	puts("\n");
}

static void eq(u64 got, u64 want, const char *what)
{
	report(got == want, what);
	if (got != want) {
		puts("#   got ");
		putdec(got);
		puts(" (");
		puthex(got);
		puts("), want ");
		putdec(want);
		puts(" (");
		puthex(want);
		puts(")\n");
	}
}

static void note(const char *s, u64 v)
{
	puts("# ");
	puts(s);
	putdec(v);
	puts("\n");
}

/*
 * A cycles count: one per instruction under icount (want), the virtual
 * clock without it, where it must only have counted.
 */
static void cycles_eq(u64 got, u64 want, const char *what, const char *noicount)
{
	if (icount) {
		eq(got, want, what);
		return;
	}
	report(got > 0, noicount);
	note("cycles counted: ", got);
}

/* the last RDMSR, WRMSR or RDPMC raised #GP */
static void gp(int pass, const char *what)
{
	report(pass && fault == 13, what);
}

/* the second CPU: spins, counting its iterations */
static u32 ap_started, ap_iters;

void ap_main(void)
{
	u32 i = 0;

	__atomic_store_n(&ap_started, 1, __ATOMIC_RELEASE);
	for (;;)
		__atomic_store_n(&ap_iters, ++i, __ATOMIC_RELAXED);
}

static int ap_up(void)
{
	return __atomic_load_n(&ap_started, __ATOMIC_ACQUIRE);
}

static void delay(u32 n)
{
	while (n-- && !ap_up())
		__asm__ volatile("pause");
}

static void start_ap(void)
{
	u32 i, n = ap_tramp_end - ap_tramp;

	for (i = 0; i < n; i++)
		((char *)0x8000)[i] = ap_tramp[i];
	apic_write(0x310, BIT(24));		/* ICR high: APIC ID 1 */
	apic_write(0x300, 0x4500);		/* INIT */
	delay(1000);
	apic_write(0x300, 0x4600 | (0x8000 >> 12));	/* SIPI */
	delay(100000);
	if (!ap_up())
		apic_write(0x300, 0x4600 | (0x8000 >> 12));
	delay(10000000);
}

static void pmi_setup(u32 status, u32 ctr, u32 ack)
{
	nmi_eip = 0;
	nmi_status_msr = status;
	nmi_ctr_msr = ctr;
	nmi_ack_msr = ack;
	nmi_x_msr = 0;
	nmi_x = 0;
	apic_write(LVTPC, 0x400);		/* NMI, unmasked */
	nmis = 0;
	nmi_status = 0;
	nmi_ctr = 0;
	nmi_lvtpc = 0;
}

/* a + b, in one of two buffers (a test name) */
static const char *cat(const char *a, const char *b)
{
	static char buf[2][160];
	static int which;
	char *p = buf[which ^= 1], *e = p + sizeof(buf[0]) - 1;

	while (*a && p < e)
		*p++ = *a++;
	while (*b && p < e)
		*p++ = *b++;
	*p = 0;
	return buf[which];
}

/*
 * The PMI comes right after the instruction that overflows its counter:
 * ctr (started by wrmsr(ctl, hi:lo), selected by wrmsr(sel, selval))
 * at -k overflows at the kth NOP of a straight line, one TB, which
 * without icount is cut there; then at a HLT, whose PMI must wake the
 * vCPU (the local APIC timer would, 0.1 s later).
 */
static void test_pmi_at(const char *name, u32 ctl, u32 lo, u32 hi, u32 sel,
			u32 selval, u32 ctr, u32 status, u32 ack)
{
	static const u32 ks[] = { 1, 7, 32 };
	static const char *const what[] = {
		": PMI after the 1st NOP of a TB, at the 2nd",
		": PMI after the 7th NOP of a TB, at the 8th",
		": PMI after the 32nd NOP of a TB, at the MOV after it",
	};
	u32 i;

	for (i = 0; i < 3; i++) {
		pmi_setup(status, ctr, ack);
		wrmsr(ctr, -(u64)ks[i] & MASK48);
		wrmsr(sel, selval);
		nop_block(ctl, lo, hi);
		report(nmis == 1 && nmi_eip == (u32)nop_block_nops + ks[i],
		       cat(name, what[i]));
		if (nmis != 1 || nmi_eip != (u32)nop_block_nops + ks[i]) {
			note("PMIs: ", nmis);
			note("at NOP + ", nmi_eip - (u32)nop_block_nops);
		}
	}
	pmi_setup(status, ctr, ack);
	timer_irqs = 0;
	apic_write(0x3e0, 0xb);			/* timer: divide by 1 */
	apic_write(0x320, 0x40);		/* one-shot, vector 0x40 */
	apic_write(0x380, 100000000);		/* 1e8 ns */
	wrmsr(ctr, -3ull & MASK48);
	wrmsr(sel, selval);
	hlt_block(ctl, lo, hi);
	apic_write(0x380, 0);
	report(nmis == 1 && nmi_eip == (u32)hlt_block_after && !timer_irqs,
	       cat(name, ": overflow at HLT: its PMI wakes it, right after it"));
	if (nmis != 1 || nmi_eip != (u32)hlt_block_after || timer_irqs) {
		note("PMIs: ", nmis);
		note("timer interrupts: ", timer_irqs);
	}
}

/* legacy-mode SYSCALL/SYSRET: EFER.SCE, STAR */
static void syscall_setup(void)
{
	wrmsr(0xc0000080, rdmsr(0xc0000080) | 1);	/* EFER.SCE */
	wrmsr(0xc0000081, ((u64)0x0008 << 32) | ((u64)0x0018 << 48) |
			  (u32)syscall_entry);		/* STAR */
}

/*
 * SYSEXIT/SYSENTER and SYSRET/SYSCALL round trips, counters usr, os and
 * both (MSRs) started and stopped by ctl = on.
 */
static void test_fast_syscalls(u32 ctl, u32 on, u32 usr, u32 os, u32 both)
{
	wrmsr(0x174, 0x08);			/* SYSENTER_CS */
	wrmsr(0x175, (u32)kstack_top);		/* SYSENTER_ESP */
	wrmsr(0x176, (u32)sysenter_entry);	/* SYSENTER_EIP */
	wrmsr(usr, 0); wrmsr(os, 0); wrmsr(both, 0);
	run_user_sysexit(ctl, on, 0, 5000);
	eq(rdmsr(usr), 5002, "SYSEXIT/SYSENTER: USR 5002 (SYSENTER counts as user)");
	eq(rdmsr(os), 7, "SYSEXIT/SYSENTER: OS 7 (SYSEXIT counts as kernel)");
	eq(rdmsr(both), 5009, "SYSEXIT/SYSENTER: USR|OS 5009");
	syscall_setup();
	wrmsr(usr, 0); wrmsr(os, 0); wrmsr(both, 0);
	run_user_sysret(ctl, on, 0, 5000);
	eq(rdmsr(usr), 5002, "SYSRET/SYSCALL (legacy mode): USR 5002 (SYSCALL counts as user)");
	eq(rdmsr(os), 6, "SYSRET/SYSCALL: OS 6 (SYSRET counts as kernel)");
	eq(rdmsr(both), 5008, "SYSRET/SYSCALL: USR|OS 5008");
}

/* a per-vCPU count: exact while the other vCPU runs */
static void test_other_cpu(u32 ctl, u32 on, u32 ctr)
{
	u32 before;
	u64 v;

	if (!ap_up()) {
		report(0, "second vCPU started");
		return;
	}
	wrmsr(ctr, 0);
	before = __atomic_load_n(&ap_iters, __ATOMIC_RELAXED);
	measure(ctl, on, 0, 200000000);
	v = rdmsr(ctr);
	eq(v, 200000005, "per-vCPU: 2e8 LOOPs count 2e8 + 5 while the other vCPU runs");
	before = __atomic_load_n(&ap_iters, __ATOMIC_RELAXED) - before;
	report(before > 1000000, "per-vCPU: the other vCPU ran meanwhile");
	note("other vCPU iterations meanwhile: ", before);
}

/*
 * Branch events: Intel's branch instructions retired (0xC4), its umask 1,
 * conditional branches (BR_INST_RETIRED.CONDITIONAL), and branch misses
 * retired (0xC5); AMD's retired branch instructions (0xC2), retired
 * conditional branches (0xD1) and retired mispredicted branches (0xC3).
 * The model never mispredicts. LOOP and JECXZ are conditional branches;
 * far transfers (IRET, INT n, SYSCALL, SYSRET, SYSENTER, SYSEXIT) are
 * branches, counted at the CPL they started at, as instructions are;
 * exceptions and interrupts are not instructions and do not count.
 */
struct br_pmu {
	u32 sel, ctr;		/* counter 0's PERFEVTSEL and counter MSRs */
	u32 gctl;		/* the global enable MSR; 0: EN starts a counter */
	u32 status, ack;	/* overflow status and its clear MSR; 0: none */
	u32 br, cbr, miss;	/* the event selects */
};

/*
 * Counters 0..nr-1 programmed with sel[i], zeroed, and run over fn(...,
 * n): together, started by the global enable, or without one each in
 * a run of its own, started by its EN. got[i]: what each counted.
 */
static void br_count(const struct br_pmu *p, const u32 *sel, int nr,
		     void (*fn)(u32, u32, u32, u32), u32 n, u64 *got)
{
	int i;

	for (i = 0; i < nr; i++) {
		wrmsr(p->sel + i, p->gctl ? sel[i] : 0);
		wrmsr(p->ctr + i, 0);
	}
	if (p->gctl)
		fn(p->gctl, BIT(nr) - 1, 0, n);
	else
		for (i = 0; i < nr; i++)
			fn(p->sel + i, sel[i], 0, n);
	for (i = 0; i < nr; i++) {
		got[i] = rdmsr(p->ctr + i);
		wrmsr(p->sel + i, 0);
	}
}

/* counter 0 programmed with sel and started by fn(..., n) */
static void br_run(const struct br_pmu *p, u32 sel, void (*fn)(u32, u32, u32, u32), u32 n)
{
	if (p->gctl) {
		wrmsr(p->sel, sel);
		fn(p->gctl, 1, 0, n);
	} else {
		wrmsr(p->sel, 0);
		fn(p->sel, sel, 0, n);
	}
}

static void br_block(u32 msr, u32 lo, u32 hi, u32 n)
{
	branch_block(msr, lo, hi);
}

static void test_branches(const struct br_pmu *p)
{
	static const u32 ks[] = { 1, 7, 32 };
	static const char *const at[] = {
		"branch events: overflow at the 1st JMP: PMI at the 2nd",
		"branch events: overflow at the 7th JMP: PMI at the 8th",
		"branch events: overflow at the 32nd JMP: PMI at the MOV after it",
	};
	u32 s[4], i;
	u64 g[4];

	s[0] = p->br | USR | OS | EN;
	s[1] = p->cbr | USR | OS | EN;
	s[2] = p->miss | USR | OS | EN;
	s[3] = p->br | USR | OS;		/* not enabled */
	br_count(p, s, 4, measure, 1000, g);
	eq(g[0], 1000, "branch events: 1000 LOOPs count 1000 branches");
	eq(g[1], 1000, "branch events: 1000 LOOPs count 1000 conditional branches");
	eq(g[2], 0, "branch events: mispredicted branches count 0");
	eq(g[3], 0, "branch events: a counter without EN counts 0");
	br_count(p, s, 3, measure, 100000, g);
	eq(g[0], 100000, "branch events: 100000 LOOPs count 100000 branches");
	eq(g[1], 100000, "branch events: 100000 LOOPs count 100000 conditional branches");
	br_count(p, s, 3, branch_mix, 1000, g);
	eq(g[0], 7000, "branch events: JMP, CALL, JMP *, RET, JECXZ, JZ, JNZ x 1000: 7000");
	eq(g[1], 3000, "branch events: JECXZ, JZ, JNZ x 1000: 3000 conditional");
	eq(g[2], 0, "branch events: no mispredicted branch there either");
	br_count(p, s, 2, br_block, 0, g);
	eq(g[0], 32, "branch events: 32 JMPs count 32 branches");
	eq(g[1], 0, "branch events: 32 JMPs count no conditional branch");
	if (p->gctl) {
		wrmsr(p->sel, s[0]);
		wrmsr(p->ctr, 0);
		measure(p->gctl, 2, 0, 1000);
		eq(rdmsr(p->ctr), 0, "branch events: a counter off in the global control counts 0");
		wrmsr(p->sel, 0);
	}

	/* user/kernel: IRET to CPL 3, n LOOPs, INT back */
	s[0] = p->br | USR | EN;
	s[1] = p->br | OS | EN;
	s[2] = p->cbr | USR | EN;
	s[3] = p->cbr | OS | EN;
	br_count(p, s, 4, run_user, 5000, g);
	eq(g[0], 5001, "branch events: USR only, 5000 LOOPs and the INT at CPL 3: 5001");
	eq(g[1], 1, "branch events: OS only, the IRET to CPL 3: 1");
	eq(g[2], 5000, "branch events: conditional, USR only: 5000");
	eq(g[3], 0, "branch events: conditional, OS only: 0");
	br_count(p, s, 4, run_user_fault, 5000, g);
	eq(g[0], 5001, "branch events: faults at CPL 3 (UD2, RDMSR) are no branches: USR 5001");
	eq(g[1], 3, "branch events: faults at CPL 3: OS 3 (IRET, the handlers' IRETs)");
	eq(g[2], 5000, "branch events: faults at CPL 3: conditional USR 5000");
	eq(g[3], 0, "branch events: faults at CPL 3: conditional OS 0");
	wrmsr(0x174, 0x08);			/* SYSENTER_CS */
	wrmsr(0x175, (u32)kstack_top);		/* SYSENTER_ESP */
	wrmsr(0x176, (u32)sysenter_entry);	/* SYSENTER_EIP */
	br_count(p, s, 2, run_user_sysexit, 5000, g);
	eq(g[0], 5001, "branch events: SYSEXIT/SYSENTER: USR 5001 (SYSENTER counts as user)");
	eq(g[1], 1, "branch events: SYSEXIT/SYSENTER: OS 1 (SYSEXIT counts as kernel)");
	syscall_setup();
	br_count(p, s, 2, run_user_sysret, 5000, g);
	eq(g[0], 5001, "branch events: SYSRET/SYSCALL: USR 5001 (SYSCALL counts as user)");
	eq(g[1], 1, "branch events: SYSRET/SYSCALL: OS 1 (SYSRET counts as kernel)");

	/* overflow at exactly the kth branch: the PMI comes right after it */
	for (i = 0; i < 3; i++) {
		pmi_setup(p->status, p->ctr, p->ack);
		wrmsr(p->ctr, -(u64)ks[i] & MASK48);
		br_run(p, p->br | USR | OS | INT | EN, br_block, 0);
		report(nmis == 1 && nmi_eip == (u32)branch_block_jmps + 2 * ks[i], at[i]);
		if (nmis != 1 || nmi_eip != (u32)branch_block_jmps + 2 * ks[i]) {
			note("PMIs: ", nmis);
			note("at JMP + ", nmi_eip - (u32)branch_block_jmps);
		}
		if (p->status)
			eq(nmi_status, 1, "branch events: overflow status bit 0 at the PMI");
	}
	pmi_setup(p->status, p->ctr, p->ack);
	wrmsr(p->ctr, -2500ull & MASK48);
	br_run(p, p->br | USR | INT | EN, run_user, 5000);
	eq(nmis, 1, "branch events: overflow at CPL 3 (USR only): one PMI");
	eq(nmi_cs & 3, 3, "branch events: the PMI interrupted CPL 3");
	eq(rdmsr(p->ctr), 2501, "branch events: USR count exact across the PMI: 5001 - 2500");
	pmi_setup(p->status, p->ctr, p->ack);
	wrmsr(p->ctr, -2500ull & MASK48);
	br_run(p, p->cbr | USR | INT | EN, run_user, 5000);
	eq(nmis, 1, "branch events: conditional overflow at CPL 3: one PMI");
	eq(nmi_cs & 3, 3, "branch events: conditional: the PMI interrupted CPL 3");
	eq(rdmsr(p->ctr), 2500, "branch events: conditional count exact: 5000 - 2500");
	/* overflowing at a far transfer that changes CPL: the PMI after it */
	pmi_setup(p->status, p->ctr, p->ack);
	wrmsr(p->ctr, -1ull & MASK48);
	br_run(p, p->br | OS | INT | EN, run_user, 5000);
	eq(nmis, 1, "branch events: overflow at IRET to CPL 3 (OS only): one PMI");
	eq(nmi_cs & 3, 3, "branch events: overflow at IRET: the PMI comes after it, at CPL 3");
	pmi_setup(p->status, p->ctr, p->ack);
	wrmsr(p->ctr, -5001ull & MASK48);
	br_run(p, p->br | USR | INT | EN, run_user_sysret, 5000);
	eq(nmis, 1, "branch events: overflow at SYSCALL (USR only): one PMI");
	eq(nmi_cs & 3, 0, "branch events: overflow at SYSCALL: the PMI comes after it, at CPL 0");
	eq(rdmsr(p->ctr), 0, "branch events: overflow at SYSCALL: USR count wrapped to 0");
	wrmsr(p->sel, 0);
}

/*
 * Architectural LBRs (SDM vol. 3B, "Last Branch Records"): CPUID leaf 1CH,
 * IA32_LBR_CTL, IA32_LBR_DEPTH, IA32_LBR_x_FROM_IP/TO_IP/INFO; entry 0 is
 * the youngest record. The model never mispredicts and has no cycle
 * counts: INFO holds only BR_TYPE (59:56).
 */
#define LBR_CTL 0x14ce
#define LBR_DEPTH 0x14cf
#define LBR_FROM(x) (0x1500 + (x))
#define LBR_TO(x) (0x1600 + (x))
#define LBR_INFO(x) (0x1200 + (x))
#define LBREN BIT(0)
#define LBR_OS BIT(1)
#define LBR_USR BIT(2)
#define LBR_CALL_STACK BIT(3)
#define LBR_COND BIT(16)
#define LBR_REL_JMP BIT(17)
#define LBR_IND_JMP BIT(18)
#define LBR_REL_CALL BIT(19)
#define LBR_IND_CALL BIT(20)
#define LBR_RET BIT(21)
#define LBR_OTHER BIT(22)
#define LBR_ALL (0x7fu << 16)
/* BR_TYPE */
enum {
	BR_COND, BR_IND_JMP, BR_REL_JMP, BR_IND_CALL, BR_REL_CALL, BR_RET,
	BR_OTHER = 8
};

struct lbr_rec {
	u64 from, to;
	u32 type;
};

/* FROM of an operation from a CPL filtered out to one recorded */
#define LBR_FROM_HIDDEN (~0ull)

static u32 lbr_type_bit(u32 type)
{
	static const u32 bits[] = { LBR_COND, LBR_IND_JMP, LBR_REL_JMP,
				    LBR_IND_CALL, LBR_REL_CALL, LBR_RET };

	return type < 6 ? bits[type] : LBR_OTHER;
}

/*
 * The entries are want[0..n-1], oldest first (entry 0 is want[n-1]), and
 * the entries after them, up to the depth, are 0.
 */
static void lbr_check(const struct lbr_rec *want, int n, u32 depth, const char *what)
{
	int x, bad = -1;
	u64 f, t, i;

	for (x = 0; x < (int)depth && bad < 0; x++) {
		f = rdmsr(LBR_FROM(x));
		t = rdmsr(LBR_TO(x));
		i = rdmsr(LBR_INFO(x));
		if (x < n) {
			const struct lbr_rec *r = &want[n - 1 - x];

			if (f != r->from || t != r->to || i != (u64)r->type << 56 || fault)
				bad = x;
		} else if (f || t || i || fault) {
			bad = x;
		}
	}
	report(bad < 0, what);
	if (bad >= 0) {
		note("first wrong entry: ", bad);
		puts("#   from "); puthex(f); puts(" to "); puthex(t);
		puts(" info "); puthex(i); puts("\n");
		if (bad < n) {
			puts("#   want from "); puthex(want[n - 1 - bad].from);
			puts(" to "); puthex(want[n - 1 - bad].to);
			puts(" type "); puthex(want[n - 1 - bad].type); puts("\n");
		}
	}
}

/*
 * The branches one pass of the LBR loop takes, oldest first: each
 * architectural and legacy LBR test filters these
 */
#define LBR_NR_BRANCHES 14
static int lbr_branches(struct lbr_rec *all)
{
	const struct lbr_rec taken[LBR_NR_BRANCHES] = {
		{ (u32)lbr_jmp, (u32)lbr_jmp_t, BR_REL_JMP },
		{ (u32)lbr_jz, (u32)lbr_jz_t, BR_COND },
		{ (u32)lbr_call, (u32)lbr_func, BR_REL_CALL },
		{ (u32)lbr_ret, (u32)lbr_call_ret, BR_RET },
		{ (u32)lbr_icall, (u32)lbr_func, BR_IND_CALL },
		{ (u32)lbr_ret, (u32)lbr_icall_ret, BR_RET },
		{ (u32)lbr_ijmp, (u32)lbr_ijmp_t, BR_IND_JMP },
		{ (u32)lbr_loop, (u32)lbr_loop, BR_COND },
		{ (u32)lbr_jecxz, (u32)lbr_jecxz_t, BR_COND },
		{ (u32)lbr_int, (u32)int82_entry, BR_OTHER },
		{ (u32)int82_entry, (u32)lbr_int_ret, BR_OTHER },
		{ (u32)lbr_ljmp, (u32)lbr_ljmp_t, BR_OTHER },
		{ (u32)lbr_lcall, (u32)lbr_lfunc, BR_OTHER },
		{ (u32)lbr_lfunc, (u32)lbr_lcall_ret, BR_OTHER },
	};
	int i;

	for (i = 0; i < LBR_NR_BRANCHES; i++)
		all[i] = taken[i];
	return LBR_NR_BRANCHES;
}

/* want[] filtered by the types ctl selects */
static int lbr_filter(const struct lbr_rec *all, int n, u32 ctl, struct lbr_rec *out)
{
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (ctl & lbr_type_bit(all[i].type))
			out[m++] = all[i];
	return m;
}

/* CPUID.07H:EDX[19] clear, leaf 1CH empty (where it exists), MSRs #GP */
static void test_no_arch_lbr(u32 maxleaf)
{
	u32 a, b, c, d;

	cpuid(7, &a, &b, &c, &d);
	eq((d >> 19) & 1, 0, "no arch LBR: CPUID.07H:EDX[19] (ARCH_LBR) clear");
	if (maxleaf >= 0x1c) {
		cpuid(0x1c, &a, &b, &c, &d);
		report(!a && !b && !c && !d, "no arch LBR: CPUID leaf 1CH is 0");
	}
	rdmsr(LBR_CTL); gp(1, "no arch LBR: RDMSR IA32_LBR_CTL #GP");
	wrmsr(LBR_CTL, LBREN | LBR_OS); gp(1, "no arch LBR: WRMSR IA32_LBR_CTL #GP");
	rdmsr(LBR_DEPTH); gp(1, "no arch LBR: RDMSR IA32_LBR_DEPTH #GP");
	rdmsr(LBR_FROM(0)); gp(1, "no arch LBR: RDMSR IA32_LBR_0_FROM_IP #GP");
	wrmsr(LBR_INFO(0), 0); gp(1, "no arch LBR: WRMSR IA32_LBR_0_INFO #GP");
}

static void test_arch_lbr(u32 maxleaf)
{
	static const u32 types[] = { LBR_COND, LBR_REL_JMP, LBR_IND_JMP, LBR_REL_CALL,
				     LBR_IND_CALL, LBR_RET, LBR_OTHER };
	static const char *const type_names[] = {
		"LBR: COND alone: the taken JZ, LOOP and JECXZ",
		"LBR: NEAR_REL_JMP alone: the JMP rel8",
		"LBR: NEAR_IND_JMP alone: the JMP *%eax",
		"LBR: NEAR_REL_CALL alone: the CALL rel32",
		"LBR: NEAR_IND_CALL alone: the CALL *%eax",
		"LBR: NEAR_RET alone: the two RETs",
		"LBR: OTHER_BRANCH alone: INT, IRET, far JMP, CALL and RET",
	};
	struct lbr_rec all[LBR_NR_BRANCHES];
	int n = lbr_branches(all), m;
	struct lbr_rec sub[32];
	u32 a, b, c, d, i;
	u64 v;

	cpuid(0, &a, &b, &c, &d);
	eq(a >= 0x1c, 1, "arch LBR: CPUID max basic leaf covers 1CH");
	cpuid(0x1c, &a, &b, &c, &d);
	puts("# cpuid 0x1c: eax="); puthex(a); puts(" ebx="); puthex(b);
	puts(" ecx="); puthex(c); puts(" edx="); puthex(d); puts("\n");
	eq(a, 0x0f, "CPUID 1CH EAX: depths 8, 16, 24, 32; no deep C-state reset; EIPs, not LIPs");
	eq(b, 0x7, "CPUID 1CH EBX: CPL filtering, branch filtering, call-stack mode");
	eq(c & ~0xf0000, 0x5, "CPUID 1CH ECX: mispredict bit, no timed LBRs, branch type field");
	eq(d, 0, "CPUID 1CH EDX: 0");
	cpuid(0xd, &a, &b, &c, &d);
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(1));
	eq((c >> 15) & 1, 0, "CPUID.(0DH,1).ECX[15]: LBR state is not XSAVES-managed");

	/* depth, reset values, #GP */
	eq(rdmsr(LBR_DEPTH), 32, "IA32_LBR_DEPTH after RESET: 32 (the deepest)");
	eq(rdmsr(LBR_CTL), 0, "IA32_LBR_CTL after RESET: 0");
	for (i = 8; i <= 32; i += 8) {
		wrmsr(LBR_DEPTH, i);
		report(!fault && rdmsr(LBR_DEPTH) == i,
		       i == 8 ? "IA32_LBR_DEPTH 8 written, read back" :
		       i == 16 ? "IA32_LBR_DEPTH 16 written, read back" :
		       i == 24 ? "IA32_LBR_DEPTH 24 written, read back" :
		       "IA32_LBR_DEPTH 32 written, read back");
	}
	wrmsr(LBR_DEPTH, 0); gp(1, "IA32_LBR_DEPTH 0 #GP");
	wrmsr(LBR_DEPTH, 12); gp(1, "IA32_LBR_DEPTH 12 #GP");
	wrmsr(LBR_DEPTH, 40); gp(1, "IA32_LBR_DEPTH 40 #GP");
	wrmsr(LBR_DEPTH, (1ull << 32) | 8); gp(1, "IA32_LBR_DEPTH bit 32 #GP");
	eq(rdmsr(LBR_DEPTH), 32, "IA32_LBR_DEPTH unchanged by the faulting writes");
	wrmsr(LBR_CTL, BIT(4)); gp(1, "IA32_LBR_CTL bit 4 (reserved) #GP");
	wrmsr(LBR_CTL, BIT(15)); gp(1, "IA32_LBR_CTL bit 15 (reserved) #GP");
	wrmsr(LBR_CTL, BIT(23)); gp(1, "IA32_LBR_CTL bit 23 (reserved) #GP");
	wrmsr(LBR_CTL, 1ull << 63); gp(1, "IA32_LBR_CTL bit 63 (reserved) #GP");
	wrmsr(LBR_CTL, LBR_OS | LBR_USR | LBR_CALL_STACK | LBR_ALL);
	report(!fault && rdmsr(LBR_CTL) == (LBR_OS | LBR_USR | LBR_CALL_STACK | LBR_ALL),
	       "IA32_LBR_CTL: every defined bit but LBREn written, read back");
	wrmsr(LBR_CTL, 0);

	/* entries: written and read back; a depth write zeroes them all */
	wrmsr(LBR_FROM(5), 0x123456789abcull);
	wrmsr(LBR_TO(5), 0xffffffff81000000ull);
	wrmsr(LBR_INFO(5), (0xffull << 56) | 0xffff);
	report(!fault, "IA32_LBR_5_FROM_IP, TO_IP, INFO written");
	eq(rdmsr(LBR_FROM(5)), 0x123456789abcull, "IA32_LBR_5_FROM_IP reads back");
	eq(rdmsr(LBR_TO(5)), 0xffffffff81000000ull, "IA32_LBR_5_TO_IP reads back");
	eq(rdmsr(LBR_INFO(5)), (0xffull << 56) | 0xffff, "IA32_LBR_5_INFO reads back");
	wrmsr(LBR_INFO(5), 1ull << 16); gp(1, "IA32_LBR_x_INFO bit 16 (reserved) #GP");
	wrmsr(LBR_INFO(5), 1ull << 55); gp(1, "IA32_LBR_x_INFO bit 55 (reserved) #GP");
	wrmsr(LBR_FROM(31), 0x31); wrmsr(LBR_TO(31), 0x32); wrmsr(LBR_INFO(31), 0x33);
	eq(rdmsr(LBR_FROM(31)) + rdmsr(LBR_TO(31)) + rdmsr(LBR_INFO(31)), 0x96,
	   "IA32_LBR_31_*: written and read back at depth 32");
	wrmsr(LBR_DEPTH, 32);
	v = rdmsr(LBR_FROM(5)) | rdmsr(LBR_TO(5)) | rdmsr(LBR_INFO(5)) |
	    rdmsr(LBR_FROM(31)) | rdmsr(LBR_TO(31)) | rdmsr(LBR_INFO(31));
	eq(v, 0, "a write of IA32_LBR_DEPTH resets the entries to 0");
	wrmsr(LBR_DEPTH, 8);
	rdmsr(LBR_FROM(7)); report(!fault, "depth 8: IA32_LBR_7_FROM_IP readable");
	rdmsr(LBR_FROM(8)); gp(1, "depth 8: RDMSR IA32_LBR_8_FROM_IP #GP");
	rdmsr(LBR_TO(8)); gp(1, "depth 8: RDMSR IA32_LBR_8_TO_IP #GP");
	wrmsr(LBR_INFO(8), 0); gp(1, "depth 8: WRMSR IA32_LBR_8_INFO #GP");

	/* every kind of branch, exact FROM, TO and BR_TYPE */
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_USR | LBR_ALL, 0);
	/* JMP, JZ (JNZ not taken), CALL, RET, CALL *, RET, JMP *, LOOP, JECXZ, INT, IRET... */
	lbr_check(all, n, 32, "LBR: every kind of branch: exact FROM, TO, BR_TYPE, 0 youngest");
	eq(rdmsr(LBR_CTL), 0, "LBR: IA32_LBR_CTL as written (0) after the block");
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	lbr_check(all, n, 32, "LBR: OS alone at CPL 0: the same");
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_USR | LBR_ALL, 0);
	lbr_check(all, 0, 32, "LBR: USR alone at CPL 0: nothing recorded");
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_USR, 0);
	lbr_check(all, 0, 32, "LBR: no branch type selected: nothing recorded");
	lbr_block(LBR_CTL, LBR_OS | LBR_USR | LBR_ALL, 0);
	lbr_check(all, 0, 32, "LBR: LBREn clear: nothing recorded");
	for (i = 0; i < 7; i++) {
		wrmsr(LBR_DEPTH, 32);
		lbr_block(LBR_CTL, LBREN | LBR_OS | types[i], 0);
		m = lbr_filter(all, n, types[i], sub);
		lbr_check(sub, m, 32, type_names[i]);
	}
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_RET | LBR_OTHER, 0);
	m = lbr_filter(all, n, LBR_COND | LBR_RET | LBR_OTHER, sub);
	lbr_check(sub, m, 32, "LBR: COND | NEAR_RET | OTHER_BRANCH together");

	/* IA32_DEBUGCTL.LBR (bit 0), the legacy enable, records nothing */
	wrmsr(LBR_DEPTH, 32);
	wrmsr(LBR_CTL, LBR_OS | LBR_ALL);
	lbr_block(DEBUGCTL, 1, 0);
	report(!fault, "IA32_DEBUGCTL.LBR written: no #GP");
	lbr_check(all, 0, 32, "IA32_DEBUGCTL.LBR (legacy) records nothing: LBR_CTL.LBREn does");
	wrmsr(LBR_CTL, 0);

	/* order and wrap: 32 JMPs at depth 8 keep the last 8, youngest first */
	wrmsr(LBR_DEPTH, 8);
	branch_block(LBR_CTL, LBREN | LBR_OS | LBR_REL_JMP, 0);
	for (i = 0; i < 8; i++) {
		sub[i].from = (u32)branch_block_jmps + 2 * (24 + i);
		sub[i].to = sub[i].from + 2;
		sub[i].type = BR_REL_JMP;
	}
	lbr_check(sub, 8, 8, "LBR: 32 JMPs at depth 8: entries 0-7 are JMPs 32..25");
	wrmsr(LBR_DEPTH, 16);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	for (i = 0; i < 16; i++)
		sub[i] = all[(i + 2 * n - 16) % n];
	lbr_check(sub, 16, 16, "LBR: 28 records at depth 16: the oldest 12 dropped");

	/* CPL: the CPL an operation ends at is what OS and USR filter */
	wrmsr(LBR_DEPTH, 32);
	run_user(LBR_CTL, LBREN | LBR_OS | LBR_USR | LBR_ALL, 0, 2);
	sub[0].from = (u32)user_iret; sub[0].to = (u32)user_entry; sub[0].type = BR_OTHER;
	sub[1].from = (u32)user_entry + 2; sub[1].to = sub[1].from; sub[1].type = BR_COND;
	sub[2].from = (u32)user_entry + 4; sub[2].to = (u32)int80_entry; sub[2].type = BR_OTHER;
	lbr_check(sub, 3, 32, "LBR at CPL 3: IRET to CPL 3, LOOP, INT $0x80 to CPL 0");
	/*
	 * From a CPL filtered out to one recorded, FROM is
	 * 0FFFFFFFFFFFFFFFFH (the SDM's Arch LBR CPL filtering)
	 */
	wrmsr(LBR_DEPTH, 32);
	run_user(LBR_CTL, LBREN | LBR_USR | LBR_ALL, 0, 2);
	sub[0].from = LBR_FROM_HIDDEN;
	lbr_check(sub, 2, 32, "LBR: USR alone: the IRET (to CPL 3, FROM ~0) and the LOOP");
	wrmsr(LBR_DEPTH, 32);
	run_user(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0, 2);
	sub[2].from = LBR_FROM_HIDDEN;
	lbr_check(sub + 2, 1, 32, "LBR: OS alone: the INT from CPL 3 (to CPL 0, FROM ~0)");

	/*
	 * Faults: FROM is the faulting instruction (the EIP pushed), TO
	 * the handler; the handlers' IRETs go back to the next one.
	 */
	wrmsr(LBR_DEPTH, 32);
	run_user_fault(LBR_CTL, LBREN | LBR_OS | LBR_USR | LBR_ALL, 0, 2);
	{
		u32 e = (u32)user_fault_entry;
		struct lbr_rec f[] = {
			{ (u32)user_fault_iret, e, BR_OTHER },
			{ e + 2, e + 2, BR_COND },		/* LOOP */
			{ e + 4, (u32)ud_entry, BR_OTHER },	/* #UD at UD2 */
			{ (u32)ud_iret, e + 6, BR_OTHER },
			{ e + 6, (u32)gp_entry, BR_OTHER },	/* #GP at RDMSR */
			{ (u32)gp_iret, e + 8, BR_OTHER },
			{ e + 8, (u32)int80_entry, BR_OTHER },	/* INT $0x80 */
		};

		lbr_check(f, 7, 32, "LBR: #UD, #GP at CPL 3: FROM the faulting insn; their IRETs");
		wrmsr(LBR_DEPTH, 32);
		run_user_fault(LBR_CTL, LBREN | LBR_USR | LBR_ALL, 0, 2);
		f[0].from = LBR_FROM_HIDDEN;
		f[2] = f[3];
		f[2].from = LBR_FROM_HIDDEN;
		f[3] = f[5];
		f[3].from = LBR_FROM_HIDDEN;
		lbr_check(f, 4, 32, "LBR: faults, USR alone: IRETs to CPL 3 (FROM ~0), LOOP");
	}
	/* SYSEXIT/SYSENTER and SYSRET/SYSCALL */
	wrmsr(0x174, 0x08);			/* SYSENTER_CS */
	wrmsr(0x175, (u32)kstack_top);		/* SYSENTER_ESP */
	wrmsr(0x176, (u32)sysenter_entry);	/* SYSENTER_EIP */
	wrmsr(LBR_DEPTH, 32);
	run_user_sysexit(LBR_CTL, LBREN | LBR_OS | LBR_USR | LBR_ALL, 0, 2);
	sub[0].from = (u32)user_sysexit; sub[0].to = (u32)user_sysexit_entry;
	sub[0].type = BR_OTHER;
	sub[1].from = (u32)user_sysexit_entry + 2;
	sub[1].to = sub[1].from;
	sub[1].type = BR_COND;
	sub[2].from = (u32)user_sysenter; sub[2].to = (u32)sysenter_entry;
	sub[2].type = BR_OTHER;
	lbr_check(sub, 3, 32, "LBR: SYSEXIT, LOOP, SYSENTER");
	syscall_setup();
	wrmsr(LBR_DEPTH, 32);
	run_user_sysret(LBR_CTL, LBREN | LBR_OS | LBR_USR | LBR_ALL, 0, 2);
	sub[0].from = (u32)user_sysret; sub[0].to = (u32)user_sysret_entry;
	sub[1].from = (u32)user_sysret_entry + 2;
	sub[1].to = sub[1].from;
	sub[2].from = (u32)user_syscall; sub[2].to = (u32)syscall_entry;
	lbr_check(sub, 3, 32, "LBR: SYSRET, LOOP, SYSCALL (legacy mode)");
	wrmsr(LBR_DEPTH, 32);
	run_user_sysret(LBR_CTL, LBREN | LBR_OS | LBR_OTHER, 0, 2);
	sub[2].from = LBR_FROM_HIDDEN;
	lbr_check(sub + 2, 1, 32, "LBR: OS alone: SYSCALL (to CPL 0, FROM ~0), not SYSRET");
	wrmsr(LBR_DEPTH, 32);
	run_user_sysret(LBR_CTL, LBREN | LBR_USR | LBR_OTHER, 0, 2);
	sub[0].from = LBR_FROM_HIDDEN;
	lbr_check(sub, 1, 32, "LBR: USR alone: SYSRET (to CPL 3, FROM ~0), not SYSCALL");

	/* a debug exception (#DB) clears LBREn and is not recorded */
	wrmsr(LBR_DEPTH, 32);
	lbr_db_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	eq(rdmsr(LBR_CTL), LBR_OS | LBR_ALL, "LBR: a #DB (single step) clears LBR_CTL.LBREn");
	sub[0].from = (u32)lbr_db_jmp; sub[0].to = (u32)lbr_db_jmp_t; sub[0].type = BR_REL_JMP;
	lbr_check(sub, 1, 32, "LBR: the JMP before the #DB; not the #DB nor what follows");
	wrmsr(LBR_CTL, 0);

	/* call-stack mode */
	wrmsr(LBR_DEPTH, 32);
	lbr_cs_block(LBR_CTL, LBREN | LBR_OS | LBR_CALL_STACK | LBR_REL_CALL |
		     LBR_IND_CALL | LBR_RET, 0);
	sub[0].from = (u32)lbr_cs_c1; sub[0].to = (u32)lbr_cs_f1; sub[0].type = BR_REL_CALL;
	sub[1].from = (u32)lbr_cs_c2; sub[1].to = (u32)lbr_cs_f2; sub[1].type = BR_REL_CALL;
	/* f3's and f4's CALLs popped by their RETs, f1's and f2's left, the rest 0 */
	lbr_check(sub, 2, 32, "LBR call stack: the CALLs not returned from, the rest 0");
	wrmsr(LBR_DEPTH, 32);
	lbr_cs_block(LBR_CTL, LBREN | LBR_OS | LBR_REL_CALL | LBR_IND_CALL | LBR_RET, 0);
	sub[2].from = (u32)lbr_cs_c3; sub[2].to = (u32)lbr_cs_f3; sub[2].type = BR_REL_CALL;
	sub[3].from = (u32)lbr_cs_f3; sub[3].to = (u32)lbr_cs_c3 + 5; sub[3].type = BR_RET;
	sub[4].from = (u32)lbr_cs_c4; sub[4].to = (u32)lbr_cs_f4; sub[4].type = BR_IND_CALL;
	sub[5].from = (u32)lbr_cs_f4; sub[5].to = (u32)lbr_cs_c4 + 2; sub[5].type = BR_RET;
	lbr_check(sub, 6, 32, "LBR without call-stack mode: the same CALLs and RETs all recorded");
	wrmsr(LBR_CTL, 0);
}

/*
 * Freeze on PMI: the model is perfmon v5, whose streamlined freeze
 * replaces the legacy one (which cleared the LBR enable): with
 * IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI, the overflow that raises the PMI sets
 * IA32_PERF_GLOBAL_STATUS.LBR_FRZ (58), after the branch that overflowed
 * the counter is recorded, and nothing is recorded while it is set: entry
 * 0 is the kth JMP; the PMI's delivery is not recorded; IA32_LBR_CTL is
 * left alone. Resetting LBR_FRZ lets the LBRs record again. The NMI
 * handler does not acknowledge the status here.
 */
#define LBR_FRZ BIT_ULL(58)

/* an entry of the 32 is the kth JMP of branch_block (from k = 1) */
static int lbr_has_jmp(u32 k)
{
	int x;

	for (x = 0; x < 32; x++)
		if (rdmsr(LBR_FROM(x)) == (u32)branch_block_jmps + 2 * (k - 1) &&
		    rdmsr(LBR_TO(x)) == (u32)branch_block_jmps + 2 * k)
			return 1;
	return 0;
}

static void test_lbr_freeze(void)
{
	static const u32 ks[] = { 7, 32 };
	u32 i, k;
	u64 ctl = LBREN | LBR_OS | LBR_USR | LBR_ALL, got;

	for (i = 0; i < 2; i++) {
		k = ks[i];
		wrmsr(LBR_DEPTH, 32);
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(DEBUGCTL, 1u << 11);
		wrmsr(PMC0, -(u64)k & MASK48);
		wrmsr(EVTSEL0, 0xc4 | USR | OS | INT | EN);
		wrmsr(LBR_CTL, ctl);
		branch_block(GCTRL, 1, 0);
		report(nmis == 1 && nmi_status == (1 | LBR_FRZ), k == 7 ?
		       "LBR freeze on PMI (JMP 7): one PMI, GLOBAL_STATUS bit 0 and LBR_FRZ" :
		       "LBR freeze on PMI (JMP 32): one PMI, GLOBAL_STATUS bit 0 and LBR_FRZ");
		eq(rdmsr(LBR_CTL), ctl, "LBR freeze on PMI: LBR_CTL left alone (LBREn set)");
		eq(rdmsr(LBR_FROM(0)), (u32)branch_block_jmps + 2 * (k - 1), k == 7 ?
		   "LBR freeze on PMI: entry 0 is the 7th JMP, whose count overflowed" :
		   "LBR freeze on PMI: entry 0 is the 32nd JMP, whose count overflowed");
		eq(rdmsr(LBR_TO(0)), (u32)branch_block_jmps + 2 * k,
		   "LBR freeze on PMI: entry 0's TO");
		eq(rdmsr(LBR_FROM(1)), (u32)branch_block_jmps + 2 * (k - 2),
		   "LBR freeze on PMI: entry 1 is the JMP before it");
		eq(rdmsr(GSTATUS) & LBR_FRZ, LBR_FRZ, "LBR freeze on PMI: LBR_FRZ stays set");
		wrmsr(GRESET, 1 | LBR_FRZ);
		wrmsr(EVTSEL0, 0);
		wrmsr(LBR_DEPTH, 32);
		branch_block(GCTRL, 0, 0);
		wrmsr(LBR_CTL, 0);
		report(lbr_has_jmp(32), "LBR freeze: recording again once LBR_FRZ is reset");
	}
	/* IA32_PERF_GLOBAL_STATUS_SET.LBR_FRZ freezes them too */
	wrmsr(LBR_DEPTH, 32);
	wrmsr(GSET, LBR_FRZ);
	branch_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	wrmsr(GRESET, LBR_FRZ);
	report(!lbr_has_jmp(32), "LBR_FRZ set by GLOBAL_STATUS_SET: nothing recorded");

	/*
	 * A branch counter overflowing at a far transfer that changes CPL:
	 * the transfer is recorded, then recording stops (the PMI comes
	 * after it). OS only, at the IRET to CPL 3; USR only, at SYSCALL.
	 */
	wrmsr(LBR_DEPTH, 32);
	pmi_setup(GSTATUS, PMC0, 0);
	wrmsr(DEBUGCTL, 1u << 11);
	wrmsr(PMC0, -1ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | OS | INT | EN);
	wrmsr(LBR_CTL, ctl);
	run_user(GCTRL, 1, 0, 5000);
	wrmsr(LBR_CTL, 0);
	report(nmis == 1 && (nmi_cs & 3) == 3 && (nmi_status & LBR_FRZ),
	       "LBR freeze at IRET to CPL 3: one PMI, at CPL 3, LBR_FRZ");
	eq(rdmsr(LBR_FROM(0)), (u32)user_iret, "LBR freeze at IRET: entry 0 is the IRET");
	eq(rdmsr(LBR_TO(0)), (u32)user_entry, "LBR freeze at IRET: to CPL 3");
	eq(rdmsr(LBR_TO(1)), (u32)run_user, "LBR freeze at IRET: entry 1 is the CALL of run_user");
	wrmsr(GRESET, 1 | LBR_FRZ);
	syscall_setup();
	wrmsr(LBR_DEPTH, 32);
	pmi_setup(GSTATUS, PMC0, 0);
	wrmsr(PMC0, -5001ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | USR | INT | EN);
	wrmsr(LBR_CTL, ctl);
	run_user_sysret(GCTRL, 1, 0, 5000);
	wrmsr(LBR_CTL, 0);
	report(nmis == 1 && (nmi_cs & 3) == 0 && (nmi_status & LBR_FRZ),
	       "LBR freeze at SYSCALL: one PMI, at CPL 0, LBR_FRZ");
	eq(rdmsr(LBR_FROM(0)), (u32)user_syscall, "LBR freeze at SYSCALL: entry 0 is the SYSCALL");
	eq(rdmsr(LBR_TO(0)), (u32)syscall_entry, "LBR freeze at SYSCALL: to its entry point");
	eq(rdmsr(LBR_FROM(1)), (u32)user_sysret_entry + 2,
	   "LBR freeze at SYSCALL: entry 1 is the last taken LOOP");
	wrmsr(GRESET, 1 | LBR_FRZ);
	wrmsr(DEBUGCTL, 0);
	wrmsr(EVTSEL0, 0);

	/*
	 * Without FREEZE_LBRS_ON_PMI recording goes on: the PMI's delivery
	 * is recorded (OTHER_BRANCH from the 29th JMP, which it interrupts,
	 * to the NMI handler), between the 28th and the 29th JMP.
	 */
	wrmsr(LBR_DEPTH, 32);
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(DEBUGCTL, 0);
	wrmsr(PMC0, -28ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | USR | OS | INT | EN);
	wrmsr(LBR_CTL, ctl);
	branch_block(GCTRL, 1, 0);
	got = rdmsr(LBR_CTL);
	wrmsr(LBR_CTL, 0);
	report(nmis == 1 && !(nmi_status & LBR_FRZ), "LBR without freeze: one PMI, no LBR_FRZ");
	eq(got, ctl, "LBR without freeze: LBR_CTL unchanged");
	for (i = 0; i < 32; i++)
		if (rdmsr(LBR_TO(i)) == (u32)nmi_entry)
			break;
	report(i < 31 && rdmsr(LBR_FROM(i)) == (u32)branch_block_jmps + 56 &&
	       rdmsr(LBR_INFO(i)) == (u64)BR_OTHER << 56 &&
	       rdmsr(LBR_FROM(i + 1)) == (u32)branch_block_jmps + 54,
	       "LBR without freeze: the PMI: OTHER from the 29th JMP, after the 28th");
	if (i < 32)
		note("the PMI's record: entry ", i);
	wrmsr(EVTSEL0, 0);
	wrmsr(GRESET, 1);
}

/* what recording costs: ns (cycles) per 1e7 LOOPs, LBRs on and off */
static void test_lbr_cost(void)
{
	u64 on, off;

	wrmsr(FIXCTRL, 0x3 << 4);
	wrmsr(LBR_DEPTH, 32);
	wrmsr(LBR_CTL, LBREN | LBR_OS | LBR_COND);
	wrmsr(FIX0 + 1, 0);
	measure(GCTRL, 0, 2, 10000000);
	on = rdmsr(FIX0 + 1);
	wrmsr(LBR_CTL, 0);
	wrmsr(FIX0 + 1, 0);
	measure(GCTRL, 0, 2, 10000000);
	off = rdmsr(FIX0 + 1);
	note("1e7 LOOPs, ns with LBRs recording: ", on);
	note("1e7 LOOPs, ns without: ", off);
	wrmsr(FIXCTRL, 0);
}

/*
 * LBR event logging (patch 0024; SDM vol. 3B, "LBR Event Logging" of the
 * architectural LBRs; CPUID.(EAX=1CH,ECX=0):ECX[19:16]), on -cpu max
 * only: PMC0-3 can log. With IA32_PERFEVTSELx bit 35 set, each record
 * written carries in INFO bits 33:32 + 2x the events counter x counted
 * since the previous record, up to and including the branch recorded,
 * saturated at 3; 0 for a counter not logging. Only records take and
 * restart the counts (the LBR's filtering holds); so do setting LBREn and
 * a change of bit 35 or EN. The identities and arch-lbr=off: no bitmap,
 * bit 35 #GPs.
 */
#define EVT_LBR_LOG BIT_ULL(35)
static u64 log_cnt(int x, u64 c)
{
	return (c > 3 ? 3 : c) << (32 + 2 * x);
}

/* as lbr_check(), with the counts of each record (cnt[i], of want[i]) */
static void lbrlog_check(const struct lbr_rec *want, const u64 *cnt, int n,
			 const char *what)
{
	int x, bad = -1;
	u64 f = 0, t = 0, i = 0, wi = 0;

	for (x = 0; x < n && bad < 0; x++) {
		const struct lbr_rec *r = &want[n - 1 - x];

		f = rdmsr(LBR_FROM(x));
		t = rdmsr(LBR_TO(x));
		i = rdmsr(LBR_INFO(x));
		wi = ((u64)r->type << 56) | cnt[n - 1 - x];
		if (f != r->from || t != r->to || i != wi || fault)
			bad = x;
	}
	report(bad < 0, what);
	if (bad >= 0) {
		note("first wrong entry: ", bad);
		puts("#   from "); puthex(f); puts(" to "); puthex(t);
		puts(" info "); puthex(i); puts(", want info "); puthex(wi); puts("\n");
	}
}

/*
 * lbr_block()'s 14 taken branches (lbr_branches()): the instructions,
 * branches and conditional branches from the one before (from the WRMSR
 * for the first) up to and including each
 */
static const u8 lbr_block_ev[LBR_NR_BRANCHES][3] = {
	{ 1, 1, 0 },	/* JMP */
	{ 3, 2, 2 },	/* XOR, JNZ (not taken), JZ */
	{ 1, 1, 0 },	/* CALL */
	{ 1, 1, 0 },	/* RET */
	{ 2, 1, 0 },	/* MOV, CALL * */
	{ 1, 1, 0 },	/* RET */
	{ 2, 1, 0 },	/* MOV, JMP * */
	{ 2, 1, 1 },	/* MOV, LOOP */
	{ 2, 2, 2 },	/* LOOP (not taken), JECXZ */
	{ 1, 1, 0 },	/* INT $0x82 */
	{ 1, 1, 0 },	/* IRET */
	{ 1, 1, 0 },	/* far JMP */
	{ 1, 1, 0 },	/* far CALL */
	{ 1, 1, 0 },	/* far RET */
};

/*
 * The records lbr_block() leaves with ctl's types, PMC0 logging branches,
 * PMC1 conditional branches, PMC2 instructions, PMC3 not logging
 */
static int lbrlog_block_want(u32 ctl, struct lbr_rec *out, u64 *cnt)
{
	struct lbr_rec all[LBR_NR_BRANCHES];
	u32 ins = 0, br = 0, cbr = 0;
	int i, m = 0;

	lbr_branches(all);
	for (i = 0; i < LBR_NR_BRANCHES; i++) {
		ins += lbr_block_ev[i][0];
		br += lbr_block_ev[i][1];
		cbr += lbr_block_ev[i][2];
		if (!(ctl & lbr_type_bit(all[i].type)))
			continue;
		out[m] = all[i];
		cnt[m++] = log_cnt(0, br) | log_cnt(1, cbr) | log_cnt(2, ins);
		ins = 0;
		br = 0;
		cbr = 0;
	}
	return m;
}

/*
 * lbrlog_loop()'s records of n iterations (COND and NEAR_REL_JMP
 * recorded), oldest first: n JMPs and n - 1 JNZs; PMC0 logging branches
 * (c0), PMC1 instructions (c1) and, if they log, PMC2 and PMC3 0
 */
static int lbrlog_loop_want(u32 n, struct lbr_rec *out, u64 *cnt, int c0, int c1)
{
	u32 i;
	int m = 0;

	for (i = 0; i < n; i++) {
		out[m].from = (u32)lbrlog_jmp;
		out[m].to = (u32)lbrlog_jmp_t;
		out[m].type = BR_REL_JMP;
		/* from the WRMSR: MOV, TEST, JZ, NOP, JMP; else from a JNZ */
		cnt[m++] = (c0 ? log_cnt(0, 2) : 0) | (c1 ? log_cnt(1, i ? 4 : 5) : 0);
		if (i == n - 1)
			break;
		out[m].from = (u32)lbrlog_jnz;
		out[m].to = (u32)lbrlog_top;
		out[m].type = BR_COND;
		cnt[m++] = (c0 ? log_cnt(0, 1) : 0) | (c1 ? log_cnt(1, 2) : 0);
	}
	return m;
}

/* where there is no LBR event logging: CPUID shows none, bit 35 #GPs */
static void test_no_lbr_log(u32 maxleaf)
{
	u32 a, b, c, d, x;

	c = 0;
	if (maxleaf >= 0x1c)
		cpuid(0x1c, &a, &b, &c, &d);
	eq((c >> 16) & 0xf, 0, maxleaf >= 0x1c ?
	   "no LBR event logging: CPUID.1CH:ECX[19:16] = 0" :
	   "no LBR event logging: no CPUID leaf 1CH (max basic leaf below it)");
	for (x = 0; x < 4; x++) {
		wrmsr(EVTSEL0 + x, EVT_LBR_LOG | 0xc4);
		if (!fault)
			break;
	}
	gp(x == 4, "no LBR event logging: IA32_PERFEVTSEL0-3 bit 35 #GP");
	for (x = 0; x < 4; x++)
		wrmsr(EVTSEL0 + x, 0);
}

static void test_lbr_log(u32 maxleaf)
{
	struct lbr_rec want[32];
	u64 cnt[32];
	u32 a, b, c, d, x;
	int m, ok;

	if (ident != ID_MAX) {
		test_no_lbr_log(maxleaf);
		return;
	}
	cpuid(0x1c, &a, &b, &c, &d);
	eq((c >> 16) & 0xf, 0xf, "LBR event logging: CPUID.1CH:ECX[19:16] = 0xF (PMC0-3)");
	for (ok = 1, x = 0; x < 4; x++) {
		wrmsr(EVTSEL0 + x, EVT_LBR_LOG | 0xc4);
		ok &= !fault && rdmsr(EVTSEL0 + x) == (EVT_LBR_LOG | 0xc4);
		wrmsr(EVTSEL0 + x, 0);
	}
	report(ok, "LBR event logging: IA32_PERFEVTSEL0-3 bit 35 written, read back");
	wrmsr(EVTSEL0, BIT_ULL(36) | 0xc4);
	gp(1, "LBR event logging: IA32_PERFEVTSEL0 bit 36 still #GPs");
	wrmsr(LBR_DEPTH, 32);
	wrmsr(LBR_INFO(3), (0xffull << 32) | 2);
	report(!fault && rdmsr(LBR_INFO(3)) == ((0xffull << 32) | 2),
	       "LBR event logging: IA32_LBR_x_INFO bits 39:32 written, read back");
	wrmsr(LBR_INFO(3), 1ull << 40);
	gp(1, "LBR event logging: IA32_LBR_x_INFO bit 40 #GPs");

	/* lbr_block's 14 records: near and far branches, INT, IRET */
	wrmsr(GCTRL, 0);
	wrmsr(EVTSEL0, EVT_LBR_LOG | 0xc4 | EN | USR | OS);
	wrmsr(EVTSEL0 + 1, EVT_LBR_LOG | 0x1c4 | EN | USR | OS);
	wrmsr(EVTSEL0 + 2, EVT_LBR_LOG | 0xc0 | EN | USR | OS);
	wrmsr(EVTSEL0 + 3, 0xc0 | EN | USR | OS);
	wrmsr(GCTRL, 0xf);
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_ALL, 0);
	m = lbrlog_block_want(LBR_ALL, want, cnt);
	lbrlog_check(want, cnt, m, "LBR log: any branch: their counts; PMC3 (not logging) 0");
	wrmsr(LBR_DEPTH, 32);
	lbr_block(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_OTHER, 0);
	m = lbrlog_block_want(LBR_COND | LBR_OTHER, want, cnt);
	lbrlog_check(want, cnt, m, "LBR log: COND | OTHER: the filtered count in the next");
	wrmsr(LBR_DEPTH, 32);
	wrmsr(GCTRL, 0);
	for (x = 0; x < 4; x++)
		wrmsr(EVTSEL0 + x, 0);

	/* the loop: PMC0 logs branches, PMC1 instructions, PMC2 and PMC3 do not count */
	wrmsr(EVTSEL0, EVT_LBR_LOG | 0xc4 | EN | USR | OS);
	wrmsr(EVTSEL0 + 1, EVT_LBR_LOG | 0xc0 | EN | USR | OS);
	wrmsr(EVTSEL0 + 2, 0xc4 | EN | USR | OS);		/* not logging */
	wrmsr(EVTSEL0 + 3, EVT_LBR_LOG | 0xc4 | EN | USR);	/* CPL 0 not counted */
	wrmsr(GCTRL, 0xf);
	wrmsr(LBR_DEPTH, 32);
	lbrlog_loop(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP, 0, 5);
	m = lbrlog_loop_want(5, want, cnt, 1, 1);
	lbrlog_check(want, cnt, m, "LBR log: loop: JMP 2 br, 3 insns; JNZ 1, 2; PMC2-3 0");
	lbrlog_loop(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP, 0, 5);
	lbrlog_check(want, cnt, m, "LBR log: LBREn set again restarts the counts");
	/* a change of bit 35 restarts: PMC0 starts logging at the WRMSR */
	wrmsr(EVTSEL0, 0xc4 | EN | USR | OS);
	wrmsr(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP);
	lbrlog_loop(EVTSEL0, 0xc4 | EN | USR | OS, EVT_LBR_LOG >> 32, 3);
	/* PMC1 logs on: its first count (from the loop before) saturated */
	m = lbrlog_loop_want(3, want, cnt, 1, 1);
	lbrlog_check(want, cnt, m, "LBR log: setting bit 35 restarts the counts");
	/* EN set again restarts too */
	wrmsr(EVTSEL0, EVT_LBR_LOG | 0xc4 | USR | OS);
	wrmsr(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP);
	lbrlog_loop(EVTSEL0, 0xc4 | EN | USR | OS, EVT_LBR_LOG >> 32, 3);
	lbrlog_check(want, cnt, m, "LBR log: setting EN restarts the counts");
	/* bit 35 clear: PMC0's counts read 0, PMC1's go on */
	wrmsr(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP);
	lbrlog_loop(EVTSEL0, 0xc4 | EN | USR | OS, 0, 3);
	m = lbrlog_loop_want(3, want, cnt, 0, 1);
	lbrlog_check(want, cnt, m, "LBR log: PMC0 without bit 35: 0; PMC1 as before");
	wrmsr(GCTRL, 0);
	for (x = 0; x < 4; x++)
		wrmsr(EVTSEL0 + x, 0);
	/* no counter logging: nothing in bits 39:32 */
	wrmsr(EVTSEL0, 0xc4 | EN | USR | OS);
	wrmsr(GCTRL, 1);
	lbrlog_loop(LBR_CTL, LBREN | LBR_OS | LBR_COND | LBR_REL_JMP, 0, 3);
	m = lbrlog_loop_want(3, want, cnt, 0, 0);
	lbrlog_check(want, cnt, m, "LBR log: no counter logging: the counts are 0");
	wrmsr(GCTRL, 0);
	wrmsr(EVTSEL0, 0);
	wrmsr(LBR_DEPTH, 32);
}

/*
 * Model-specific ("legacy") LBRs, LBR_FMT 5, on the Skylake and Ice Lake
 * identities (SDM vol. 3B, "Last Branch Records" of the Skylake
 * microarchitecture, "Filtering of Last Branch Records", "LBR Call
 * Stack"): IA32_DEBUGCTL.LBR enables; MSR_LBR_SELECT's bits suppress;
 * MSR_LASTBRANCH_TOS is the slot of the youngest of 32 records;
 * MSR_LASTBRANCH_x_FROM_IP/_TO_IP and MSR_LBR_INFO_x (MISPRED 63, IN_TX
 * 62, TSX_ABORT 61, cycles 15:0: all 0 in the model).  The same recorder
 * as the arch LBRs, another view: FROM is recorded whatever CPL the
 * operation comes from.
 */
#define LBR_SELECT 0x1c8
#define LBR_TOS 0x1c9
#define LEG_FROM(x) (0x680 + (x))
#define LEG_TO(x) (0x6c0 + (x))
#define LEG_INFO(x) (0xdc0 + (x))
#define SEL_CPL_EQ_0 BIT(0)
#define SEL_CPL_NEQ_0 BIT(1)
#define SEL_JCC BIT(2)
#define SEL_REL_CALL BIT(3)
#define SEL_IND_CALL BIT(4)
#define SEL_RET BIT(5)
#define SEL_IND_JMP BIT(6)
#define SEL_REL_JMP BIT(7)
#define SEL_FAR BIT(8)
#define SEL_CALLSTACK BIT(9)
#define SEL_TYPES (0x7fu << 2)
#define DEBUGCTL_LBR BIT(0)
#define DEBUGCTL_FRZ_LBR BIT(11)

/* the MSR_LBR_SELECT bit that suppresses a BR_TYPE */
static u32 sel_bit(u32 type)
{
	static const u32 bits[] = { SEL_JCC, SEL_IND_JMP, SEL_REL_JMP,
				    SEL_IND_CALL, SEL_REL_CALL, SEL_RET };

	return type < 6 ? bits[type] : SEL_FAR;
}

/* every entry 0, the TOS 0 (as a driver resets them) */
static void leg_reset(void)
{
	u32 x;

	for (x = 0; x < 32; x++) {
		wrmsr(LEG_FROM(x), 0);
		wrmsr(LEG_TO(x), 0);
		wrmsr(LEG_INFO(x), 0);
	}
	wrmsr(LBR_TOS, 0);
}

/*
 * want[0..n-1] oldest first: the TOS slot is want[n-1], the slot below it
 * want[n-2], ...; the other slots 0; INFO 0 (no mispredicts, no TSX, no
 * cycle counts).  tos: the TOS it must read (-1: do not check).
 */
static void leg_check(const struct lbr_rec *want, int n, int tos, const char *what)
{
	u32 t0 = rdmsr(LBR_TOS);
	int x, s = 0, bad = -1;
	u64 f = 0, t = 0, i = 0;

	for (x = 0; x < 32 && bad < 0; x++) {
		s = (t0 - x) & 31;
		f = rdmsr(LEG_FROM(s));
		t = rdmsr(LEG_TO(s));
		i = rdmsr(LEG_INFO(s));
		if (x < n) {
			const struct lbr_rec *r = &want[n - 1 - x];

			if (f != r->from || t != r->to || i || fault)
				bad = x;
		} else if (f || t || i || fault) {
			bad = x;
		}
	}
	report(bad < 0 && (tos < 0 || (int)t0 == tos), what);
	if (bad >= 0 || (tos >= 0 && (int)t0 != tos)) {
		note("TOS ", t0);
		note("first wrong record (0 the youngest): ", bad);
		note("  in slot ", s);
		puts("#   from "); puthex(f); puts(" to "); puthex(t);
		puts(" info "); puthex(i); puts("\n");
		if (bad >= 0 && bad < n) {
			puts("#   want from "); puthex(want[n - 1 - bad].from);
			puts(" to "); puthex(want[n - 1 - bad].to); puts("\n");
		}
	}
}

/* want[] less the types sel suppresses */
static int leg_filter(const struct lbr_rec *all, int n, u32 sel, struct lbr_rec *out)
{
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (!(sel & sel_bit(all[i].type)))
			out[m++] = all[i];
	return m;
}

static void test_legacy_lbr(void)
{
	static const u32 types[] = { SEL_JCC, SEL_REL_JMP, SEL_IND_JMP, SEL_REL_CALL,
				     SEL_IND_CALL, SEL_RET, SEL_FAR };
	static const char *const only_names[] = {
		"legacy LBR: all but JCC suppressed: the taken JZ, LOOP and JECXZ",
		"legacy LBR: all but NEAR_REL_JMP suppressed: the JMP rel8",
		"legacy LBR: all but NEAR_IND_JMP suppressed: the JMP *%eax",
		"legacy LBR: all but NEAR_REL_CALL suppressed: the CALL rel32",
		"legacy LBR: all but NEAR_IND_CALL suppressed: the CALL *%eax",
		"legacy LBR: all but NEAR_RET suppressed: the two RETs",
		"legacy LBR: all but FAR_BRANCH suppressed: INT, IRET, far JMP, CALL, RET",
	};
	static const char *const not_names[] = {
		"legacy LBR: JCC (bit 2) suppresses the conditional branches alone",
		"legacy LBR: NEAR_REL_JMP (bit 7) suppresses the JMP rel8 alone",
		"legacy LBR: NEAR_IND_JMP (bit 6) suppresses the JMP *%eax alone",
		"legacy LBR: NEAR_REL_CALL (bit 3) suppresses the CALL rel32 alone",
		"legacy LBR: NEAR_IND_CALL (bit 4) suppresses the CALL *%eax alone",
		"legacy LBR: NEAR_RET (bit 5) suppresses the RETs alone",
		"legacy LBR: FAR_BRANCH (bit 8) suppresses the far transfers alone",
	};
	struct lbr_rec all[LBR_NR_BRANCHES];
	int n = lbr_branches(all), m;
	struct lbr_rec sub[64];
	u32 i;
	u64 v;

	eq(rdmsr(PERFCAP) & 0x3f, 5, "legacy LBR: PERF_CAPABILITIES LBR_FMT (5:0) is 5");
	if (ident == ID_ICL)
		eq(rdmsr(PERFCAP), 0x64c5,
		   "PERF_CAPABILITIES of the Ice Lake identity: 64C5H (LBR_FMT 5, PEBS fmt 4)");
	eq(rdmsr(LBR_SELECT), 0, "MSR_LBR_SELECT after RESET: 0 (everything recorded)");
	eq(rdmsr(LBR_TOS), 0, "MSR_LASTBRANCH_TOS after RESET: 0");
	eq(rdmsr(DEBUGCTL), 0, "IA32_DEBUGCTL after RESET: 0");

	/* the MSRs: written and read back, reserved bits #GP */
	wrmsr(LBR_SELECT, 0x3ff);
	report(!fault && rdmsr(LBR_SELECT) == 0x3ff,
	       "MSR_LBR_SELECT: bits 9:0 written, read back");
	wrmsr(LBR_SELECT, BIT(10)); gp(1, "MSR_LBR_SELECT bit 10 (reserved) #GP");
	wrmsr(LBR_SELECT, BIT_ULL(63)); gp(1, "MSR_LBR_SELECT bit 63 (reserved) #GP");
	eq(rdmsr(LBR_SELECT), 0x3ff, "MSR_LBR_SELECT unchanged by the faulting writes");
	wrmsr(LBR_SELECT, 0);
	wrmsr(LBR_TOS, 31);
	report(!fault && rdmsr(LBR_TOS) == 31, "MSR_LASTBRANCH_TOS: 31 written, read back");
	wrmsr(LBR_TOS, 32); gp(1, "MSR_LASTBRANCH_TOS: 32 (bit 5, reserved) #GP");
	wrmsr(LBR_TOS, BIT_ULL(63)); gp(1, "MSR_LASTBRANCH_TOS: bit 63 #GP");
	wrmsr(LBR_TOS, 0);
	wrmsr(LEG_FROM(5), 0xffffffff81234567ull);
	wrmsr(LEG_TO(5), 0x7fff12345678ull);
	wrmsr(LEG_INFO(5), (7ull << 61) | 0xffff);
	report(!fault, "MSR_LASTBRANCH_5_FROM_IP, _TO_IP, MSR_LBR_INFO_5 written");
	eq(rdmsr(LEG_FROM(5)), 0xffffffff81234567ull, "MSR_LASTBRANCH_5_FROM_IP reads back");
	eq(rdmsr(LEG_TO(5)), 0x7fff12345678ull, "MSR_LASTBRANCH_5_TO_IP reads back");
	eq(rdmsr(LEG_INFO(5)), (7ull << 61) | 0xffff,
	   "MSR_LBR_INFO_5: MISPRED, IN_TX, TSX_ABORT, cycles read back");
	wrmsr(LEG_INFO(5), BIT_ULL(16)); gp(1, "MSR_LBR_INFO_x bit 16 (reserved) #GP");
	wrmsr(LEG_INFO(5), BIT_ULL(60)); gp(1, "MSR_LBR_INFO_x bit 60 (reserved) #GP");
	wrmsr(LEG_FROM(31), 0x31); wrmsr(LEG_TO(31), 0x32); wrmsr(LEG_INFO(31), 0x33);
	eq(rdmsr(LEG_FROM(31)) + rdmsr(LEG_TO(31)) + rdmsr(LEG_INFO(31)), 0x96,
	   "MSR_LASTBRANCH_31_*, MSR_LBR_INFO_31: written and read back");
	wrmsr(DEBUGCTL, DEBUGCTL_LBR | DEBUGCTL_FRZ_LBR);
	eq(rdmsr(DEBUGCTL), DEBUGCTL_LBR | DEBUGCTL_FRZ_LBR,
	   "IA32_DEBUGCTL: LBR (0) and FREEZE_LBRS_ON_PMI (11) read back");
	wrmsr(DEBUGCTL, 0);
	leg_reset();
	v = 0;
	for (i = 0; i < 32; i++)
		v |= rdmsr(LEG_FROM(i)) | rdmsr(LEG_TO(i)) | rdmsr(LEG_INFO(i));
	eq(v, 0, "legacy LBR: the 96 entry MSRs written 0, read 0");

	/* every kind of branch, FROM and TO exact, the TOS incremented each */
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	leg_check(all, n, n, "legacy LBR: every kind of branch, 14 records, TOS 14");
	eq(rdmsr(DEBUGCTL), 0, "legacy LBR: IA32_DEBUGCTL as written (0) after the block");
	leg_reset();
	lbr_block(DEBUGCTL, 0, 0);
	leg_check(all, 0, 0, "legacy LBR: IA32_DEBUGCTL.LBR clear: nothing recorded");
	wrmsr(LBR_SELECT, SEL_CPL_NEQ_0);
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	leg_check(all, n, n, "legacy LBR: CPL_NEQ_0 (bit 1) at CPL 0: everything recorded");
	leg_reset();
	wrmsr(LBR_SELECT, SEL_CPL_EQ_0);
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	leg_check(all, 0, 0, "legacy LBR: CPL_EQ_0 (bit 0) at CPL 0: nothing recorded");
	wrmsr(LBR_SELECT, SEL_TYPES);
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	leg_check(all, 0, 0, "legacy LBR: every type suppressed: nothing recorded");
	for (i = 0; i < 7; i++) {
		leg_reset();
		wrmsr(LBR_SELECT, SEL_TYPES & ~types[i]);
		lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
		m = leg_filter(all, n, SEL_TYPES & ~types[i], sub);
		leg_check(sub, m, m, only_names[i]);
		leg_reset();
		wrmsr(LBR_SELECT, types[i]);
		lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
		m = leg_filter(all, n, types[i], sub);
		leg_check(sub, m, m, not_names[i]);
	}
	wrmsr(LBR_SELECT, 0);

	/* the ring: 32 JMPs, then 14 more records, the TOS wrapping past 31 */
	leg_reset();
	wrmsr(LBR_SELECT, SEL_TYPES & ~SEL_REL_JMP);
	branch_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	for (i = 0; i < 32; i++) {
		sub[i].from = (u32)branch_block_jmps + 2 * i;
		sub[i].to = sub[i].from + 2;
	}
	leg_check(sub, 32, 0, "legacy LBR: 32 JMPs fill the 32 slots, the TOS back at 0");
	eq(rdmsr(LEG_FROM(1)), (u32)branch_block_jmps,
	   "legacy LBR: the 1st JMP in slot 1 (the TOS was 0: the 1st record goes to 1)");
	wrmsr(LBR_SELECT, 0);
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	for (i = 0; i < (u32)n; i++)
		sub[32 + i] = all[i];
	leg_check(sub + 14, 32, 14, "legacy LBR: 14 more: TOS 14, the oldest 14 JMPs dropped");
	/* a TOS written: the next record goes to the slot after it */
	leg_reset();
	wrmsr(LBR_TOS, 30);
	wrmsr(LBR_SELECT, SEL_TYPES & ~SEL_REL_JMP);
	lbr_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	eq(rdmsr(LBR_TOS), 31, "legacy LBR: TOS written 30, one JMP recorded: TOS 31");
	eq(rdmsr(LEG_FROM(31)), (u32)lbr_jmp, "legacy LBR: the JMP in slot 31");
	wrmsr(LBR_SELECT, 0);

	/* CPL: FROM as it is, also from a CPL suppressed */
	leg_reset();
	run_user(DEBUGCTL, DEBUGCTL_LBR, 0, 2);
	sub[0].from = (u32)user_iret; sub[0].to = (u32)user_entry; sub[0].type = BR_OTHER;
	sub[1].from = (u32)user_entry + 2; sub[1].to = sub[1].from; sub[1].type = BR_COND;
	sub[2].from = (u32)user_entry + 4; sub[2].to = (u32)int80_entry; sub[2].type = BR_OTHER;
	leg_check(sub, 3, 3, "legacy LBR at CPL 3: IRET to CPL 3, LOOP, INT $0x80 to CPL 0");
	leg_reset();
	wrmsr(LBR_SELECT, SEL_CPL_EQ_0);
	run_user(DEBUGCTL, DEBUGCTL_LBR, 0, 2);
	leg_check(sub, 2, 2, "legacy LBR: CPL_EQ_0: the IRET to CPL 3 (its FROM as is), the LOOP");
	leg_reset();
	wrmsr(LBR_SELECT, SEL_CPL_NEQ_0);
	run_user(DEBUGCTL, DEBUGCTL_LBR, 0, 2);
	leg_check(sub + 2, 1, 1, "legacy LBR: CPL_NEQ_0: the INT from CPL 3 (its FROM as is)");
	wrmsr(LBR_SELECT, 0);

	/* a #DB clears IA32_DEBUGCTL.LBR and is not recorded */
	leg_reset();
	lbr_db_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	eq(rdmsr(DEBUGCTL), 0, "legacy LBR: a #DB (single step) clears IA32_DEBUGCTL.LBR");
	sub[0].from = (u32)lbr_db_jmp; sub[0].to = (u32)lbr_db_jmp_t;
	leg_check(sub, 1, 1, "legacy LBR: the JMP before the #DB; not the #DB nor what follows");

	/* call-stack mode: a RET zeroes the TOS slot and decrements the TOS */
	leg_reset();
	wrmsr(LBR_SELECT, SEL_CALLSTACK | SEL_JCC | SEL_IND_JMP | SEL_REL_JMP | SEL_FAR);
	lbr_cs_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	sub[0].from = (u32)lbr_cs_c1; sub[0].to = (u32)lbr_cs_f1;
	sub[1].from = (u32)lbr_cs_c2; sub[1].to = (u32)lbr_cs_f2;
	leg_check(sub, 2, 2, "legacy LBR call stack: the CALLs not returned, TOS 2, the rest 0");
	leg_reset();
	wrmsr(LBR_SELECT, SEL_JCC | SEL_IND_JMP | SEL_REL_JMP | SEL_FAR);
	lbr_cs_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	sub[2].from = (u32)lbr_cs_c3; sub[2].to = (u32)lbr_cs_f3;
	sub[3].from = (u32)lbr_cs_f3; sub[3].to = (u32)lbr_cs_c3 + 5;
	sub[4].from = (u32)lbr_cs_c4; sub[4].to = (u32)lbr_cs_f4;
	sub[5].from = (u32)lbr_cs_f4; sub[5].to = (u32)lbr_cs_c4 + 2;
	leg_check(sub, 6, 6, "legacy LBR without EN_CALLSTACK: every CALL and RET recorded");
	/* a call stack restored by writes, then grown and popped */
	leg_reset();
	wrmsr(LBR_TOS, 9);
	wrmsr(LEG_FROM(9), 0x1111); wrmsr(LEG_TO(9), 0x2222);
	wrmsr(LBR_SELECT, SEL_CALLSTACK | SEL_JCC | SEL_IND_JMP | SEL_REL_JMP | SEL_FAR);
	lbr_cs_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	eq(rdmsr(LBR_TOS), 11, "legacy LBR call stack on a restored one: TOS 9 + 2");
	report(rdmsr(LEG_FROM(9)) == 0x1111 && rdmsr(LEG_TO(9)) == 0x2222 &&
	       rdmsr(LEG_FROM(10)) == (u32)lbr_cs_c1 && rdmsr(LEG_FROM(11)) == (u32)lbr_cs_c2 &&
	       rdmsr(LEG_FROM(12)) == 0,
	       "legacy LBR call stack: the restored entry kept under the two CALLs");
	wrmsr(LBR_SELECT, 0);
	leg_reset();
}

/* a slot holds the kth JMP of branch_block (from k = 1) */
static int leg_has_jmp(u32 k)
{
	int x;

	for (x = 0; x < 32; x++)
		if (rdmsr(LEG_FROM(x)) == (u32)branch_block_jmps + 2 * (k - 1) &&
		    rdmsr(LEG_TO(x)) == (u32)branch_block_jmps + 2 * k)
			return 1;
	return 0;
}

/*
 * Broadwell's LBRs (patch 0020): LBR_FMT 4, 16 entries (680H-68FH,
 * 6C0H-6CFH, the TOS bits 3:0), no MSR_LBR_INFO_x, FROM's bits 63:61
 * the MISPRED, IN_TX and ABORT flags (0; the test's 32-bit addresses do
 * not reach them); the v3 legacy freeze: the PMI clears
 * IA32_DEBUGCTL.LBR.  Ivy Bridge's (patch 0023): the same with LBR_FMT
 * 3: FROM's bit 63 MISPRED (0) above the address's bits 62:0, and no
 * EN_CALLSTACK (MSR_LBR_SELECT bit 9 #GP).
 */
static int bdw_has_jmp(u32 k)
{
	int x;

	for (x = 0; x < 16; x++)
		if (rdmsr(LEG_FROM(x)) == (u32)branch_block_jmps + 2 * (k - 1) &&
		    rdmsr(LEG_TO(x)) == (u32)branch_block_jmps + 2 * k)
			return 1;
	return 0;
}

static void bdw_lbr_reset(void)
{
	u32 x;

	for (x = 0; x < 16; x++) {
		wrmsr(LEG_FROM(x), 0);
		wrmsr(LEG_TO(x), 0);
	}
	wrmsr(LBR_TOS, 0);
}

static void test_bdw_lbr(void)
{
	const char *p = ident == ID_IVB ? "Ivy Bridge LBR" : "Broadwell LBR";
	u32 k, x, ok = 1;

	if (ident == ID_IVB)
		eq(rdmsr(PERFCAP) & 0x3f, 3,
		   "Ivy Bridge LBR: PERF_CAPABILITIES LBR_FMT (5:0) is 3");
	else
		eq(rdmsr(PERFCAP) & 0x3f, 4, "Broadwell LBR: PERF_CAPABILITIES LBR_FMT (5:0) is 4");
	eq(rdmsr(LBR_TOS), 0, cat(p, ": MSR_LASTBRANCH_TOS after RESET: 0"));
	rdmsr(LEG_FROM(16)); gp(1, cat(p, ": MSR_LASTBRANCH_16_FROM_IP #GP (16 entries)"));
	rdmsr(LEG_TO(16)); gp(1, cat(p, ": MSR_LASTBRANCH_16_TO_IP #GP"));
	if (ident == ID_IVB) {
		rdmsr(LEG_FROM(31)); gp(1, "Ivy Bridge LBR: MSR_LASTBRANCH_31_FROM_IP #GP");
		wrmsr(LEG_TO(31), 0); gp(1, "Ivy Bridge LBR: WRMSR MSR_LASTBRANCH_31_TO_IP #GP");
		rdmsr(LEG_INFO(31)); gp(1, "Ivy Bridge LBR: no MSR_LBR_INFO_31: #GP");
		wrmsr(LEG_INFO(0), 0); gp(1, "Ivy Bridge LBR: WRMSR MSR_LBR_INFO_0 #GP");
	}
	rdmsr(LEG_INFO(0));
	gp(1, ident == ID_IVB ? "Ivy Bridge LBR: no MSR_LBR_INFO_0 (LBR_FMT 3): #GP" :
	   "Broadwell LBR: no MSR_LBR_INFO_0 (LBR_FMT 4): #GP");
	wrmsr(LBR_TOS, 15);
	report(!fault && rdmsr(LBR_TOS) == 15, cat(p, ": TOS 15 written, read back"));
	wrmsr(LBR_TOS, 16); gp(1, cat(p, ": TOS 16 (bit 4, reserved) #GP"));
	wrmsr(LEG_FROM(15), 0x1234);
	eq(rdmsr(LEG_FROM(15)), 0x1234, cat(p, ": MSR_LASTBRANCH_15_FROM_IP reads back"));
	if (ident == ID_IVB) {
		wrmsr(LEG_FROM(15), BIT_ULL(63) | 0x1234);
		eq(rdmsr(LEG_FROM(15)), BIT_ULL(63) | 0x1234,
		   "Ivy Bridge LBR: FROM written with MISPRED (bit 63) reads back");
		wrmsr(LBR_SELECT, 0x1ff);
		eq(rdmsr(LBR_SELECT), 0x1ff, "Ivy Bridge LBR: MSR_LBR_SELECT bits 8:0");
		wrmsr(LBR_SELECT, 0x3ff);
		gp(1, "Ivy Bridge LBR: MSR_LBR_SELECT bit 9 (EN_CALLSTACK: none) #GP");
		wrmsr(LBR_SELECT, BIT(10));
		gp(1, "Ivy Bridge LBR: MSR_LBR_SELECT bit 10 #GP");
		eq(rdmsr(LBR_SELECT), 0x1ff, "Ivy Bridge LBR: MSR_LBR_SELECT unchanged by them");
	} else {
		wrmsr(LBR_SELECT, 0x3ff);
		eq(rdmsr(LBR_SELECT), 0x3ff,
		   "Broadwell LBR: MSR_LBR_SELECT bits 9:0 (EN_CALLSTACK)");
	}
	wrmsr(LBR_SELECT, 0);

	/* 32 JMPs from TOS 0: the last 16 stay, the TOS wraps to 0 */
	bdw_lbr_reset();
	branch_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	for (k = 1; k <= 32; k++)
		ok &= bdw_has_jmp(k) == (k > 16);
	report(ok, cat(p, ": 32 JMPs leave the last 16, FROM the JMP, TO its target"));
	eq(rdmsr(LBR_TOS), 0, cat(p, ": 32 records from TOS 0 wrap to 0"));
	report(rdmsr(LEG_FROM(0)) == (u32)branch_block_jmps + 62,
	       cat(p, ": the TOS slot holds the 32nd JMP"));
	if (ident == ID_IVB) {
		/* LBR_FMT 3: FROM's bit 63 MISPRED, 0; bits 62:0 the address */
		for (x = 0, ok = 1; x < 16; x++)
			ok &= rdmsr(LEG_FROM(x)) >> 63 == 0 &&
			      (rdmsr(LEG_FROM(x)) & ~BIT_ULL(63)) ==
			      (u32)branch_block_jmps + 2 * (16 + x - 1) + (x ? 0 : 32);
		report(ok, "Ivy Bridge LBR: FROM bit 63 (MISPRED) 0, bits 62:0 the JMP's address");
		eq(rdmsr(LEG_TO(1)), (u32)branch_block_jmps + 2 * 17,
		   "Ivy Bridge LBR: TO the target's address (slot 1: the 17th JMP's)");
	}

	/* v3 legacy freeze: the PMI at the 7th JMP clears DEBUGCTL.LBR */
	bdw_lbr_reset();
	pmi_setup(GSTATUS, PMC0, 0);
	wrmsr(DEBUGCTL, DEBUGCTL_LBR | DEBUGCTL_FRZ_LBR);
	wrmsr(PMC0, -7ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | EN | INT | USR | OS);
	branch_block(GCTRL, 1, 0);
	eq(nmis, 1, cat(p, " freeze (v3): one PMI at the 7th JMP"));
	eq(nmi_status, 1, cat(p, " freeze (v3): GLOBAL_STATUS bit 0, no LBR_FRZ"));
	eq(rdmsr(DEBUGCTL), DEBUGCTL_FRZ_LBR,
	   cat(p, " freeze (v3): the PMI cleared IA32_DEBUGCTL.LBR"));
	report(bdw_has_jmp(7) && !bdw_has_jmp(8),
	       cat(p, " freeze (v3): recorded up to the 7th JMP, nothing after"));
	wrmsr(GRESET, 1);
	wrmsr(EVTSEL0, 0);
	wrmsr(DEBUGCTL, 0);
	bdw_lbr_reset();
}

/*
 * Freeze on PMI, perfmon v4's streamlined freeze: with
 * IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI the PMI sets LBR_FRZ (58) in
 * IA32_PERF_GLOBAL_STATUS, after the branch that overflowed the counter
 * is recorded; nothing is recorded while it is set; IA32_DEBUGCTL.LBR
 * stays set; resetting LBR_FRZ lets the LBRs record again.
 */
static void test_legacy_lbr_freeze(void)
{
	static const u32 ks[] = { 7, 32 };
	u32 i, k, tos;

	for (i = 0; i < 2; i++) {
		k = ks[i];
		leg_reset();
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(PMC0, -(u64)k & MASK48);
		wrmsr(EVTSEL0, 0xc4 | USR | OS | INT | EN);
		wrmsr(DEBUGCTL, DEBUGCTL_LBR | DEBUGCTL_FRZ_LBR);
		branch_block(GCTRL, 1, 0);
		report(nmis == 1 && nmi_status == (1 | LBR_FRZ), k == 7 ?
		       "legacy LBR freeze on PMI (JMP 7): one PMI, status bit 0, LBR_FRZ" :
		       "legacy LBR freeze on PMI (JMP 32): one PMI, status bit 0, LBR_FRZ");
		eq(rdmsr(DEBUGCTL), DEBUGCTL_LBR | DEBUGCTL_FRZ_LBR,
		   "legacy LBR freeze: IA32_DEBUGCTL.LBR stays set (v4 streamlined freeze)");
		tos = rdmsr(LBR_TOS);
		eq(rdmsr(LEG_FROM(tos)), (u32)branch_block_jmps + 2 * (k - 1), k == 7 ?
		   "legacy LBR freeze: the TOS slot is the 7th JMP, whose count overflowed" :
		   "legacy LBR freeze: the TOS slot is the 32nd JMP, whose count overflowed");
		eq(rdmsr(LEG_TO(tos)), (u32)branch_block_jmps + 2 * k,
		   "legacy LBR freeze: the TOS slot's TO");
		eq(rdmsr(LEG_FROM((tos - 1) & 31)), (u32)branch_block_jmps + 2 * (k - 2),
		   "legacy LBR freeze: the slot below is the JMP before it");
		eq(rdmsr(GSTATUS) & LBR_FRZ, LBR_FRZ, "legacy LBR freeze: LBR_FRZ stays set");
		wrmsr(GRESET, 1 | LBR_FRZ);
		wrmsr(EVTSEL0, 0);
		leg_reset();
		branch_block(GCTRL, 0, 0);
		wrmsr(DEBUGCTL, 0);
		report(leg_has_jmp(32), "legacy LBR freeze: recording again once LBR_FRZ is reset");
	}
	/* IA32_PERF_GLOBAL_STATUS_SET.LBR_FRZ freezes them too */
	leg_reset();
	wrmsr(GSET, LBR_FRZ);
	branch_block(DEBUGCTL, DEBUGCTL_LBR, 0);
	wrmsr(GRESET, LBR_FRZ);
	report(!leg_has_jmp(32) && !rdmsr(LBR_TOS),
	       "legacy LBR: LBR_FRZ set by GLOBAL_STATUS_SET: nothing recorded");

	/* without FREEZE_LBRS_ON_PMI: the PMI's delivery and its IRET */
	leg_reset();
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(LBR_SELECT, SEL_TYPES & ~SEL_FAR);
	wrmsr(PMC0, -28ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | USR | OS | INT | EN);
	wrmsr(DEBUGCTL, DEBUGCTL_LBR);
	branch_block(GCTRL, 1, 0);
	wrmsr(DEBUGCTL, 0);
	report(nmis == 1 && !(nmi_status & LBR_FRZ),
	       "legacy LBR without freeze: one PMI, no LBR_FRZ");
	tos = rdmsr(LBR_TOS);
	report(tos == 2 && rdmsr(LEG_FROM(1)) == (u32)branch_block_jmps + 56 &&
	       rdmsr(LEG_TO(1)) == (u32)nmi_entry &&
	       rdmsr(LEG_TO(2)) == (u32)branch_block_jmps + 56,
	       "legacy LBR without freeze, FAR_BRANCH alone: the PMI at the 29th JMP, its IRET");
	if (tos != 2)
		note("TOS ", tos);
	wrmsr(EVTSEL0, 0);
	wrmsr(GRESET, 1);
	wrmsr(LBR_SELECT, 0);
	leg_reset();
}

/* Intel: 0xC4, its umask 1 (BR_INST_RETIRED.CONDITIONAL), 0xC5 */
/*
 * PEBS (pebs=on, the default): record format 4 with PEBS_BASELINE,
 * adaptive records, the DS save area in its 64-bit format (DTES64).  The
 * DS area and the buffer are identity-mapped (no paging).  Reset values:
 * GP counter i at DS + 40H + 8i, fixed counter j at DS + 80H + 8j.
 */
#define DS_AREA 0x600
#define PEBS_ENABLE 0x3f1
#define PEBS_DATA_CFG 0x3f2
#define PEBS_LD_LAT 0x3f6
#define MISC_ENABLE 0x1a0
#define OVFBUF BIT_ULL(62)
#define ADAPTIVE BIT_ULL(34)
#define FIX_ADAPTIVE(j) BIT_ULL(32 + 4 * (j))
#define CFG_MEM BIT(0)
#define CFG_GPR BIT(1)
#define CFG_XMM BIT(2)
#define CFG_LBR BIT(3)
#define BASIC 0x20

u32 pebs_esp;
/* format 5 keeps 32 GP counters' reset values: the fixed ones at 140H */
static u64 ds_area[48];
#define FIXED_RESET(j)	(ds_area[(ident == ID_SPR ? 40 : 16) + (j)])
static u64 pebs_buf[1024];
static const u64 fill = 0xa5a5a5a5a5a5a5a5ull;

/* an empty buffer of max bytes, threshold at thr bytes */
static void pebs_ds(u32 max, u32 thr)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(pebs_buf); i++)
		pebs_buf[i] = fill;
	ds_area[4] = (u32)pebs_buf;
	ds_area[5] = (u32)pebs_buf;
	ds_area[6] = (u32)pebs_buf + max;
	ds_area[7] = (u32)pebs_buf + thr;
	wrmsr(DS_AREA, (u32)ds_area);
}

/*
 * bytes written: the PEBS index from the base (the model writes the DS
 * area and the buffer: read them again after the code that ran)
 */
static u32 pebs_used(void)
{
	__asm__ volatile("" ::: "memory");
	return (u32)ds_area[5] - (u32)pebs_buf;
}

/* the qword at byte off of the buffer */
static u64 pebs_q(u32 off)
{
	__asm__ volatile("" ::: "memory");
	return pebs_buf[off / 8];
}

static void pebs_off(void)
{
	wrmsr(PEBS_ENABLE, 0);
	if (!pebs_fixed_rec())
		wrmsr(PEBS_DATA_CFG, 0);	/* none in formats 2, 3 */
	wrmsr(EVTSEL0, 0);
	wrmsr(FIXCTRL, 0);
	wrmsr(GRESET, OVFBUF | 0xf | (7ull << 32));
}

/* pebs=off, or AMD (intel = 0: CPUID only; the MSRs are not the PMU's) */
static void test_no_pebs(const char *why, int intel)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	eq(d & BIT(21), 0, cat(why, ": CPUID.01H:EDX[21] DS is 0"));
	eq(c & BIT(2), 0, cat(why, ": CPUID.01H:ECX[2] DTES64 is 0"));
	if (!intel)
		return;
	eq(rdmsr(MISC_ENABLE) & (3 << 11), 3 << 11,
	   cat(why, ": MISC_ENABLE: BTS and PEBS unavailable (bits 11, 12)"));
	eq(rdmsr(PERFCAP) & 0x4fc0, 0, cat(why, ": PERF_CAPABILITIES: no PEBS fields"));
	rdmsr(DS_AREA);
	gp(1, cat(why, ": RDMSR IA32_DS_AREA #GP"));
	wrmsr(PEBS_ENABLE, 1);
	gp(1, cat(why, ": WRMSR IA32_PEBS_ENABLE #GP"));
	rdmsr(PEBS_DATA_CFG);
	gp(1, cat(why, ": RDMSR MSR_PEBS_DATA_CFG #GP"));
	wrmsr(EVTSEL0, 0xc0 | ADAPTIVE);
	gp(1, cat(why, ": PERFEVTSEL bit 34 (Adaptive_Record) #GP"));
	wrmsr(FIXCTRL, FIX_ADAPTIVE(0));
	gp(1, cat(why, ": FIXED_CTR_CTRL bit 32 (Adaptive_Record) #GP"));
}

/* one run of nop_block (or pebs_block) counting instructions in PMC0 */
static u64 insns_after(void (*fn)(u32, u32, u32))
{
	wrmsr(PMC0, 0);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	fn(GCTRL, 1, 0);
	wrmsr(EVTSEL0, 0);
	return rdmsr(PMC0) - 32;
}

/*
 * The eventing IP of every kind of branch: lbr_block's 16 branches in
 * order (0xC4), and its 5 conditional ones (0x1C4), the counter at -k
 * overflowing at the kth.
 */
static void test_pebs_branch_kinds(void)
{
	char *const all[] = {
		lbr_jmp, lbr_jnz, lbr_jz, lbr_call, lbr_ret, lbr_icall, lbr_ret,
		lbr_ijmp, lbr_loop, lbr_loop, lbr_jecxz, lbr_int, (char *)int82_entry,
		lbr_ljmp, lbr_lcall, lbr_lfunc,
	};
	char *const cond[] = { lbr_jnz, lbr_jz, lbr_loop, lbr_loop, lbr_jecxz };
	u32 k, ok, ok_all = 1, ok_cond = 1;

	for (k = 1; k <= ARRAY_SIZE(all) + ARRAY_SIZE(cond); k++) {
		int c = k > ARRAY_SIZE(all);
		u32 i = c ? k - ARRAY_SIZE(all) : k;
		char *want = c ? cond[i - 1] : all[i - 1];

		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		wrmsr(PMC0, -(u64)i & MASK48);
		wrmsr(EVTSEL0, (c ? 0x1c4 : 0xc4) | EN | USR | OS);
		wrmsr(PEBS_ENABLE, 1);
		lbr_block(GCTRL, 1, 0);
		wrmsr(PEBS_ENABLE, 0);
		ok = pebs_used() == BASIC && pebs_q(8) == (u32)want && pebs_q(16) == 1;
		if (!ok) {
			note(c ? "0x1C4, branch " : "0xC4, branch ", i);
			note("records ", pebs_used() / BASIC);
			note("IP - lbr_block ", pebs_q(8) - (u32)lbr_block);
			note("want - lbr_block ", (u32)want - (u32)lbr_block);
		}
		if (c)
			ok_cond &= ok;
		else
			ok_all &= ok;
	}
	report(ok_all,
	       "PEBS 0xC4: the eventing IP of 16 branches: near, indirect, not taken, INT n, far");
	report(ok_cond, "PEBS 0x1C4: the eventing IP of each of 5 conditional branches");
}

static void test_pebs_basic(void)
{
	static const u32 ks[] = { 1, 7, 32 };
	u64 tail = insns_after(nop_block), v;
	u32 i, k, ok;

	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		k = ks[i];
		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(PMC0, -(u64)k & MASK48);
		wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | INT);
		wrmsr(PEBS_ENABLE, 1);
		nop_block(GCTRL, 1, 0);
		v = rdmsr(PMC0);
		wrmsr(PEBS_ENABLE, 0);
		puts("# 0xC0 at -"); putdec(k); puts("\n");
		eq(pebs_used(), BASIC, "PEBS 0xC0: one basic record (index + 20H)");
		eq(pebs_q(0), (u64)BASIC << 48, "PEBS basic record: format 0, size 20H");
		eq(pebs_q(8), (u32)nop_block_nops + k - 1,
		   "PEBS 0xC0: eventing IP, the NOP that overflowed it");
		eq(pebs_q(16), 1, "PEBS 0xC0: applicable counters: PMC0");
		report(pebs_q(24) != 0 && pebs_q(24) != fill, "PEBS basic record: a TSC");
		eq(pebs_q(32), fill, "PEBS: nothing written past the record");
		eq(v, (-1000ull + 32 - k + tail) & MASK48,
		   "PEBS 0xC0: reloaded from the DS reset value at the overflow");
		eq(nmis, 0, "PEBS 0xC0: no PMI of its own (INT set), threshold not reached");
		eq(rdmsr(GSTATUS), 0, "PEBS 0xC0: no GLOBAL_STATUS bit");
	}
	/* fixed counter 0, alone and with PMC0 */
	pebs_ds(4096, 4096);
	FIXED_RESET(0) = -1000ull & MASK48;
	wrmsr(FIX0, -6ull & MASK48);
	wrmsr(FIXCTRL, 0x3);
	wrmsr(PEBS_ENABLE, BIT_ULL(32));
	nop_block(GCTRL, 0, 1);
	v = rdmsr(FIX0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_used(), BASIC, "PEBS fixed counter 0: one record");
	eq(pebs_q(8), (u32)nop_block_nops + 5, "PEBS fixed counter 0: eventing IP, the 6th NOP");
	eq(pebs_q(16), BIT_ULL(32), "PEBS fixed counter 0: applicable counters: bit 32");
	eq(v, (-1000ull + 32 - 6 + tail) & MASK48,
	   "PEBS fixed counter 0: reloaded from DS + 80H");
	pebs_ds(4096, 4096);
	ds_area[8] = -1000ull & MASK48;
	FIXED_RESET(0) = -2000ull & MASK48;
	wrmsr(FIX0, -5ull & MASK48);
	wrmsr(PMC0, -5ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1 | BIT_ULL(32));
	nop_block(GCTRL, 1, 1);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_used(), BASIC, "PEBS PMC0 and fixed 0 overflowing together: one record");
	eq(pebs_q(8), (u32)nop_block_nops + 4, "PEBS two counters: eventing IP, the 5th NOP");
	eq(pebs_q(16), 1 | BIT_ULL(32), "PEBS two counters: applicable counters: bits 0 and 32");
	eq(rdmsr(PMC0), (-1000ull + 27 + tail) & MASK48, "PEBS two counters: PMC0 reloaded");
	eq(rdmsr(FIX0), (-2000ull + 27 + tail) & MASK48, "PEBS two counters: fixed 0 reloaded");
	/* cycles: one per instruction under icount */
	pebs_ds(4096, 4096);
	FIXED_RESET(1) = -100000ull & MASK48;
	wrmsr(FIX0 + 1, -4ull & MASK48);
	wrmsr(FIXCTRL, 0x3 << 4);
	wrmsr(PEBS_ENABLE, BIT_ULL(33));
	nop_block(GCTRL, 0, 2);
	wrmsr(PEBS_ENABLE, 0);
	if (icount) {
		eq(pebs_used(), BASIC, "PEBS fixed counter 1 (cycles): one record");
		eq(pebs_q(8), (u32)nop_block_nops + 3, "PEBS cycles: eventing IP, the 4th NOP");
		eq(pebs_q(16), BIT_ULL(33), "PEBS cycles: applicable counters: bit 33");
	} else {
		note("PEBS cycles (virtual clock): bytes of records ", pebs_used());
	}
	/* branches: JMP k of branch_block; 0xC4 umask 0 */
	for (k = 1; k <= 9; k += 8) {
		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		wrmsr(PMC0, -(u64)k & MASK48);
		wrmsr(EVTSEL0, 0xc4 | EN | USR | OS | INT);
		wrmsr(PEBS_ENABLE, 1);
		pmi_setup(GSTATUS, PMC0, 0);
		branch_block(GCTRL, 1, 0);
		v = rdmsr(PMC0);
		wrmsr(PEBS_ENABLE, 0);
		ok = pebs_used() == BASIC && pebs_q(8) == (u32)branch_block_jmps + 2 * (k - 1) &&
		     pebs_q(16) == 1 && v == ((-1000ull + 32 - k) & MASK48) && !nmis;
		report(ok, k == 1 ? "PEBS 0xC4: record at the 1st JMP, reloaded, no PMI" :
		       "PEBS 0xC4: record at the 9th JMP, reloaded, no PMI");
		if (!ok) {
			note("used ", pebs_used());
			note("JMP + ", pebs_q(8) - (u32)branch_block_jmps);
			note("applicable ", pebs_q(16));
			note("counter ", v);
		}
	}
	test_pebs_branch_kinds();
	wrmsr(EVTSEL0, 0);
	wrmsr(FIXCTRL, 0);
	wrmsr(GCTRL, 0);
}

/* the size of a record with the groups of cfg */
static u32 pebs_size(u32 cfg)
{
	return BASIC + (cfg & CFG_MEM ? 0x20 : 0) + (cfg & CFG_GPR ? 0x90 : 0) +
	       (cfg & CFG_XMM ? 0x100 : 0) +
	       (cfg & CFG_LBR ? 0x18 * ((cfg >> 24) + 1) : 0);
}

static void test_pebs_adaptive(void)
{
	static const u32 want_gpr[] = {
		0x2, 0, 1, GCTRL, 0, 0x11223344, 0, 0x55667788, 0x99aabbcc, 0xddeeff00,
	};
	static const char *const gpr_name[] = {
		"RFLAGS", "RIP", "RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI",
	};
	static const char *const groups[] = {
		"none", "M", "G", "MG", "X", "MX", "GX", "MGX",
		"L", "ML", "GL", "MGL", "XL", "MXL", "GXL", "MGXL",
	};
	static u32 xmm[8];
	u32 cfg, i, off, ok;
	u64 want;

	/* every combination of groups: the format and size word, the index */
	for (cfg = 0; cfg < 16; cfg++) {
		u32 c = cfg | (3u << 24);	/* 4 LBR entries */

		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		wrmsr(PEBS_DATA_CFG, c);
		wrmsr(PMC0, -1ull & MASK48);
		wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | ADAPTIVE);
		wrmsr(PEBS_ENABLE, 1);
		nop_block(GCTRL, 1, 0);
		wrmsr(PEBS_ENABLE, 0);
		ok = pebs_q(0) == (c | (u64)pebs_size(c) << 48) &&
		     pebs_used() == pebs_size(c) && pebs_q(8) == (u32)nop_block_nops &&
		     pebs_q(pebs_size(c)) == fill;
		report(ok, cat("PEBS adaptive: record format/size word and index, groups ",
			       groups[cfg]));
		if (!ok) {
			note("format word >> 48: ", pebs_q(0) >> 48);
			note("format word & 0xffffffff: ", pebs_q(0) & 0xffffffff);
			note("used ", pebs_used());
		}
		if (cfg == CFG_MEM) {
			eq(pebs_q(0x20) | pebs_q(0x28) | pebs_q(0x30) | pebs_q(0x38), 0,
			   "PEBS memory group: 0 (no memory events)");
		}
	}
	/* more LBR entries than the deepest LBRs (32): 32 */
	pebs_ds(4096, 4096);
	wrmsr(PEBS_DATA_CFG, CFG_LBR | (255u << 24));
	wrmsr(PMC0, -1ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | ADAPTIVE);
	wrmsr(PEBS_ENABLE, 1);
	nop_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_q(0), CFG_LBR | (31u << 24) | (u64)pebs_size(CFG_LBR | (31u << 24)) << 48,
	   "PEBS LBR group: 256 entries asked, 32 recorded, the format word says 32");
	eq(pebs_used(), pebs_size(CFG_LBR | (31u << 24)), "PEBS LBR group of 32: index");

	/* without Adaptive_Record: a basic record */
	pebs_ds(4096, 4096);
	wrmsr(PEBS_DATA_CFG, CFG_GPR | CFG_MEM);
	wrmsr(PMC0, -1ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	nop_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_q(0), (u64)BASIC << 48, "PEBS without Adaptive_Record: a basic record");
	eq(pebs_used(), BASIC, "PEBS without Adaptive_Record: index + 20H");

	/* the GPRs after the eventing instruction, the 3rd NOP */
	for (i = 0; i < 2; i++) {
		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		FIXED_RESET(0) = -1000ull & MASK48;
		wrmsr(PEBS_DATA_CFG, CFG_GPR);
		if (i == 0) {
			wrmsr(PMC0, -3ull & MASK48);
			wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | ADAPTIVE);
			wrmsr(PEBS_ENABLE, 1);
			pebs_block(GCTRL, 1, 0);
		} else {
			wrmsr(FIX0, -3ull & MASK48);
			wrmsr(FIXCTRL, 0x3 | FIX_ADAPTIVE(0));
			wrmsr(PEBS_ENABLE, BIT_ULL(32));
			pebs_block(GCTRL, 0, 1);
		}
		wrmsr(PEBS_ENABLE, 0);
		eq(pebs_q(0), CFG_GPR | (u64)(BASIC + 0x90) << 48,
		   i ? "PEBS GPR group, fixed counter 0: format/size word" :
		   "PEBS GPR group: format/size word");
		eq(pebs_q(8), (u32)pebs_block_nops + 2, "PEBS GPR group: eventing IP, the 3rd NOP");
		for (off = 0; off < ARRAY_SIZE(want_gpr); off++) {
			want = want_gpr[off];
			if (off == 1)
				want = (u32)pebs_block_nops + 3;
			if (off == 2)
				want = i ? 0 : 1;
			if (off == 4)
				want = i;
			if (off == 6)
				want = pebs_esp;
			eq(pebs_q(BASIC + 8 * off), want, cat("PEBS GPR group: ", gpr_name[off]));
		}
		want = 0;
		for (off = 10; off < 18; off++)
			want |= pebs_q(BASIC + 8 * off);
		eq(want, 0, "PEBS GPR group: R8-R15 are 0 outside IA-32e mode");
	}
	wrmsr(FIXCTRL, 0);

	/* the XMMs: XMM0 and XMM7 known, XMM8-15 0 outside IA-32e mode */
	write_cr4(read_cr4() | BIT(9));		/* OSFXSR */
	for (i = 0; i < 8; i++)
		xmm[i] = 0x01010101 * (i + 1);
	__asm__ volatile("movups (%0), %%xmm0\n\tmovups 16(%0), %%xmm7"
			 :: "r"(xmm) : "memory");
	pebs_ds(4096, 4096);
	wrmsr(PEBS_DATA_CFG, CFG_XMM);
	wrmsr(PMC0, -2ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | ADAPTIVE);
	wrmsr(PEBS_ENABLE, 1);
	nop_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_q(BASIC), 0x0202020201010101ull, "PEBS XMM group: XMM0 low");
	eq(pebs_q(BASIC + 8), 0x0404040403030303ull, "PEBS XMM group: XMM0 high");
	eq(pebs_q(BASIC + 7 * 16), 0x0606060605050505ull, "PEBS XMM group: XMM7 low");
	eq(pebs_q(BASIC + 7 * 16 + 8), 0x0808080807070707ull, "PEBS XMM group: XMM7 high");
	want = 0;
	for (off = 16 * 8; off < 16 * 16; off += 8)
		want |= pebs_q(BASIC + off);
	eq(want, 0, "PEBS XMM group: XMM8-15 are 0 outside IA-32e mode");
	write_cr4(read_cr4() & ~BIT(9));

	/* the LBRs: the 3 youngest, at the 3rd JMP of branch_block */
	if (!nolbr) {
		wrmsr(LBR_DEPTH, 8);
		pebs_ds(4096, 4096);
		wrmsr(PEBS_DATA_CFG, CFG_LBR | CFG_GPR | (2u << 24));
		wrmsr(PMC0, -3ull & MASK48);
		wrmsr(EVTSEL0, 0xc4 | EN | USR | OS | ADAPTIVE);
		wrmsr(PEBS_ENABLE, 1);
		wrmsr(LBR_CTL, LBREN | LBR_OS | LBR_ALL);
		branch_block(GCTRL, 1, 0);
		wrmsr(LBR_CTL, 0);
		wrmsr(PEBS_ENABLE, 0);
		off = BASIC + 0x90;
		eq(pebs_q(0), CFG_LBR | CFG_GPR | (2u << 24) | (u64)(off + 3 * 0x18) << 48,
		   "PEBS LBR group, 3 entries: format/size word");
		eq(pebs_q(8), (u32)branch_block_jmps + 4, "PEBS 0xC4: eventing IP, the 3rd JMP");
		eq(pebs_q(BASIC + 8), (u32)branch_block_jmps + 6,
		   "PEBS GPR group: RIP, the JMP's target");
		for (i = 0; i < 3; i++) {
			ok = pebs_q(off) == (u32)branch_block_jmps + 2 * (2 - i) &&
			     pebs_q(off + 8) == (u32)branch_block_jmps + 2 * (3 - i) &&
			     pebs_q(off + 16) == 2ull << 56;
			report(ok, i == 0 ? "PEBS LBR group: entry 0, the eventing JMP" :
			       i == 1 ? "PEBS LBR group: entry 1, the JMP before" :
			       "PEBS LBR group: entry 2");
			if (!ok) {
				note("FROM - jmps ", pebs_q(off) - (u32)branch_block_jmps);
				note("TO - jmps ", pebs_q(off + 8) - (u32)branch_block_jmps);
				note("INFO >> 56 ", pebs_q(off + 16) >> 56);
			}
			off += 0x18;
		}
		wrmsr(LBR_DEPTH, 32);
	} else if (legacy_lbr) {
		/* the model-specific LBRs: youngest (the TOS) first, INFO 0 */
		leg_reset();
		pebs_ds(4096, 4096);
		wrmsr(PEBS_DATA_CFG, CFG_LBR | (2u << 24));
		wrmsr(PMC0, -3ull & MASK48);
		wrmsr(EVTSEL0, 0xc4 | EN | USR | OS | ADAPTIVE);
		wrmsr(PEBS_ENABLE, 1);
		wrmsr(DEBUGCTL, DEBUGCTL_LBR);
		branch_block(GCTRL, 1, 0);
		wrmsr(DEBUGCTL, 0);
		wrmsr(PEBS_ENABLE, 0);
		off = BASIC;
		eq(pebs_q(0), CFG_LBR | (2u << 24) | (u64)(off + 3 * 0x18) << 48,
		   "PEBS LBR group (legacy LBRs), 3 entries: format/size word");
		for (i = 0; i < 3; i++) {
			ok = pebs_q(off) == (u32)branch_block_jmps + 2 * (2 - i) &&
			     pebs_q(off + 8) == (u32)branch_block_jmps + 2 * (3 - i) &&
			     pebs_q(off + 16) == 0;
			report(ok, i == 0 ? "PEBS LBR group (legacy): entry 0, the eventing JMP" :
			       i == 1 ? "PEBS LBR group (legacy): entry 1, the JMP before" :
			       "PEBS LBR group (legacy): entry 2; INFO 0 in all three");
			if (!ok) {
				note("FROM - jmps ", pebs_q(off) - (u32)branch_block_jmps);
				note("TO - jmps ", pebs_q(off + 8) - (u32)branch_block_jmps);
				note("INFO ", pebs_q(off + 16));
			}
			off += 0x18;
		}
		leg_reset();
	}
	pebs_off();
}

/*
 * The reload, the threshold and a full buffer, with records of rec bytes
 * whose eventing IP is at byte ipoff (basic records: 20H, 8; format 3:
 * 0C8H, 0B0H).  Format 1 (Ivy Bridge, 0B0H bytes) has no eventing IP:
 * ipoff is its RIP's (8), the instruction after the eventing one (a NOP,
 * of 1 byte; after the 32 NOPs the WRMSR, of 2).
 */
static void test_pebs_buffer(u32 rec, u32 ipoff)
{
	u64 st, tail = insns_after(pebs_block);
	u32 i, ok, rip = ident == ID_IVB;

	/* reload and index: at -3, reset -10, records at NOP 3, 13, 23, 33 */
	pebs_ds(4096, 4096);
	ds_area[8] = -10ull & MASK48;
	wrmsr(PMC0, -3ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	pebs_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_used(), 4 * rec, "PEBS reload from DS: period 10, four records");
	for (i = 0, ok = 1; i < 4; i++)
		ok &= pebs_q(i * rec + ipoff) ==
		      (u32)pebs_block_nops + 2 + 10 * i + rip + (rip && i == 3);
	report(ok, "PEBS reload from DS: records at the 3rd, 13th, 23rd and 33rd instruction");
	eq(pebs_q(4 * rec), fill, "PEBS reload from DS: nothing more written");

	/* the threshold: a PMI right after the record that reaches it */
	pebs_ds(4096, 2 * rec);
	ds_area[8] = -10ull & MASK48;
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -3ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	pebs_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	st = rdmsr(GSTATUS);
	eq(nmis, 1, "PEBS threshold: one PMI (LVTPC masked by it)");
	eq(nmi_eip, (u32)pebs_block_nops + 13,
	   "PEBS threshold: PMI right after the 2nd record's NOP");
	eq(nmi_status, OVFBUF, "PEBS threshold: GLOBAL_STATUS OvfBuf (bit 62), no counter bit");
	eq(st, OVFBUF, "PEBS threshold: later records at or past it set OvfBuf again");
	wrmsr(GRESET, OVFBUF);
	eq(rdmsr(GSTATUS), 0, "PEBS: GLOBAL_STATUS_RESET clears OvfBuf");
	if (pmu_ver >= 4) {
		wrmsr(GSET, OVFBUF);
		eq(rdmsr(GSTATUS), OVFBUF, "PEBS: GLOBAL_STATUS_SET sets OvfBuf");
		wrmsr(GRESET, OVFBUF);
	}
	/* the NMI handler's instructions count (OS) too */
	report(pebs_used() >= 4 * rec && pebs_used() % rec == 0,
	       "PEBS threshold: the records go on after it");
	note("records, the NMI handler's included: ", pebs_used() / rec);

	/* the buffer full: two records fit, the next two are dropped */
	pebs_ds(2 * rec + rec / 2, 4096);
	ds_area[8] = -10ull & MASK48;
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -3ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	pebs_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	eq(pebs_used(), 2 * rec, "PEBS buffer full: index stops at the last record that fits");
	ok = pebs_q(ipoff) == (u32)pebs_block_nops + 2 + rip &&
	     pebs_q(rec + ipoff) == (u32)pebs_block_nops + 12 + rip;
	report(ok, "PEBS buffer full: the first two records written");
	eq(pebs_q(2 * rec), fill, "PEBS buffer full: a record that does not fit is dropped");
	eq(nmis, 0, "PEBS buffer full: below the threshold, no PMI");
	/* the 4th overflow at the 33rd instruction, the 1st after the NOPs */
	eq(rdmsr(PMC0), (-10ull + tail - 1) & MASK48,
	   "PEBS buffer full: the counter is still reloaded");
	pebs_off();
}

/*
 * PEBS record format 3 (the Skylake identity; SDM vol. 3B, the PEBS
 * facility of the 6th generation Intel Core processors): PMC0-3 only, no
 * adaptive records, a record of 0C8H bytes: RFLAGS, RIP (the next
 * instruction: trap-like), RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP,
 * R8-R15, applicable counters (90H), data linear address, data source,
 * latency (0: no memory events), EventingIP (B0H), TSX abort info, TSC.
 * Format 2 (Broadwell) is the same without the TSC, 0C0H bytes; format 1
 * (Ivy Bridge, patch 0023) without EventingIP and TSX abort info either,
 * 0B0H bytes: its only IP is the RIP, the instruction after the eventing
 * one.
 */
/* format 3's record, 0C8H bytes; format 2's (Broadwell) has no TSC */
#define FMT3 (ident == ID_IVB ? 0xb0 : ident == ID_BDW ? 0xc0 : 0xc8)
#define F3_RIP 0x08
#define F3_APPLICABLE 0x90
#define F3_EVENTING_IP 0xb0
#define F3_TSC 0xc0

/*
 * The record's IP is the eventing instruction's, ev (EventingIP, B0H), or
 * in format 1 the next one's, next (RIP, 08H; B0H is past the record)
 */
static int pebs_rec_ip(u32 ev, u32 next)
{
	if (ident == ID_IVB)
		return pebs_q(F3_RIP) == next && pebs_q(F3_EVENTING_IP) == fill;
	return pebs_q(F3_EVENTING_IP) == ev;
}

/*
 * Formats 1 to 3: CPU_CLK_UNHALTED (3CH) is not a PEBS event.  With its
 * PEBS_EN bit (and INT) set the counter counts, but its overflow writes
 * no record, sets no status bit and raises no PMI.
 */
static void test_pebs_cycles_strict(u64 tail)
{
	static const u32 umask[] = { 0, 0x100 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(umask); i++) {
		pebs_ds(4096, 0);		/* threshold 0: any record, a PMI */
		ds_area[9] = -100000ull & MASK48;
		pmi_setup(GSTATUS, PMC0 + 1, 0);
		wrmsr(PMC0 + 1, -4ull & MASK48);
		wrmsr(EVTSEL0 + 1, 0x3c | umask[i] | EN | INT | USR | OS);
		wrmsr(PEBS_ENABLE, 2);
		nop_block(GCTRL, 2, 0);
		wrmsr(PEBS_ENABLE, 0);
		wrmsr(EVTSEL0 + 1, 0);
		report(pebs_used() == 0 && pebs_q(0) == fill,
		       i ? "PEBS fmt1-3: cycles (013CH) on PMC1 with PEBS_EN: no record" :
		       "PEBS fmt1-3: cycles (3CH) on PMC1 with PEBS_EN: no record");
		eq(nmis, 0, i ? "PEBS fmt1-3: 013CH with PEBS_EN and INT: no PMI" :
		   "PEBS fmt1-3: 3CH with PEBS_EN and INT: no PMI");
		eq(rdmsr(GSTATUS), 0, i ? "PEBS fmt1-3: 013CH overflow: no status bit" :
		   "PEBS fmt1-3: 3CH overflow: no status bit, no OvfBuf");
		if (icount)
			eq(rdmsr(PMC0 + 1), (-4ull + 32 + tail) & MASK48,
			   i ? "PEBS fmt1-3: 013CH counted on, wrapped, not reloaded" :
			   "PEBS fmt1-3: 3CH counted on, wrapped, not reloaded");
		else
			report(rdmsr(PMC0 + 1) < (1ull << 32),
			       i ? "PEBS fmt1-3: 013CH counted on, wrapped" :
			       "PEBS fmt1-3: 3CH counted on, wrapped");
	}
	/* the same counter without PEBS_EN: its status bit and PMI */
	wrmsr(GRESET, OVFBUF | 2);
	pmi_setup(GSTATUS, PMC0 + 1, GRESET);
	wrmsr(PMC0 + 1, -4ull & MASK48);
	wrmsr(EVTSEL0 + 1, 0x3c | EN | INT | USR | OS);
	nop_block(GCTRL, 2, 0);
	wrmsr(EVTSEL0 + 1, 0);
	report(nmis == 1 && nmi_status == 2,
	       "PEBS fmt1-3: 3CH without PEBS_EN: its PMI and status bit 1");
	wrmsr(GRESET, 2);
	wrmsr(GCTRL, 0);
}

/*
 * Sandy Bridge to Broadwell (formats 1, 2): the PEBS encodings of cycles,
 * UOPS_RETIRED.ALL (C2H umask 01H) with INV and CMASK 16 (108001C2H:
 * cycles:pp) and, on Ivy Bridge, INST_RETIRED.PREC_DIST with them
 * (108001C0H: cycles:ppp), count cycles: under icount one per
 * instruction, the faulting ones included, where instructions (01C0H,
 * C0H) leave them out.
 */
static void test_pebs_cycles_encodings(u64 tail)
{
	static const struct {
		u32 sel, want;
		const char *what;
	} ev[] = {
		{ 0x3c, 5004, "3CH (cycles), USR: 5004, the faults included" },
		{ 0x108001c2, 5004, "108001C2H (UOPS_RETIRED.ALL, INV, CMASK 16): cycles, 5004" },
		{ 0x108001c0, 5004, "108001C0H (PREC_DIST, INV, CMASK 16) counts cycles: 5004" },
		{ 0x1c0, 5002, "01C0H (INST_RETIRED.PREC_DIST) counts instructions: 5002" },
		{ 0x1c2, 0, "01C2H (UOPS_RETIRED.ALL) alone: not modelled, 0" },
	};
	static const u32 sels[] = { 0x108001c2, 0x108001c0 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		wrmsr(PMC0, 0);
		wrmsr(EVTSEL0, ev[i].sel | EN | USR);
		run_user_fault(GCTRL, 1, 0, 5000);
		wrmsr(EVTSEL0, 0);
		eq(rdmsr(PMC0), ev[i].want, ev[i].what);
	}
	/* PEBS records of both, at the 4th NOP, on PMC1 */
	for (i = 0; i < ARRAY_SIZE(sels); i++) {
		pebs_ds(4096, 4096);
		ds_area[9] = -100000ull & MASK48;
		wrmsr(PMC0 + 1, -4ull & MASK48);
		wrmsr(EVTSEL0 + 1, sels[i] | EN | USR | OS);
		wrmsr(PEBS_ENABLE, 2);
		nop_block(GCTRL, 2, 0);
		wrmsr(PEBS_ENABLE, 0);
		wrmsr(EVTSEL0 + 1, 0);
		report(pebs_used() == FMT3 && pebs_q(F3_APPLICABLE) == 2 &&
		       pebs_rec_ip((u32)nop_block_nops + 3, (u32)nop_block_nops + 4),
		       i ? "PEBS 108001C0H (cycles:ppp) on PMC1: the record of the 4th NOP" :
		       "PEBS 108001C2H (cycles:pp) on PMC1: the record of the 4th NOP");
		eq(rdmsr(PMC0 + 1), (-100000ull + 28 + tail) & MASK48,
		   i ? "PEBS 108001C0H: reloaded, counted on" :
		   "PEBS 108001C2H: reloaded, counted on");
	}
}

static void test_pebs_fmt3_record(void)
{
	static const u32 want_gpr[] = {
		/* RFLAGS, RIP, RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP */
		0x2, 0, 1, 0x11223344, GCTRL, 0, 0x99aabbcc, 0xddeeff00, 0x55667788, 0,
	};
	static const char *const gpr_name[] = {
		"RFLAGS", "RIP", "RAX", "RBX", "RCX", "RDX", "RSI", "RDI", "RBP", "RSP",
	};
	static const u32 ks[] = { 1, 7, 32 };
	u64 tail = insns_after(nop_block), v, want;
	u32 i, k, off, ok;

	/* the record, field by field: PMC0 at -3 over pebs_block */
	pebs_ds(4096, 4096);
	ds_area[8] = -1000ull & MASK48;
	wrmsr(PMC0, -3ull & MASK48);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	pebs_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	if (ident == ID_IVB)
		eq(pebs_used(), FMT3, "PEBS fmt1: one record of 0B0H bytes (the index)");
	else
		eq(pebs_used(), FMT3, "PEBS fmt3: one record of 0C8H bytes (the index)");
	for (off = 0; off < ARRAY_SIZE(want_gpr); off++) {
		want = want_gpr[off];
		if (off == 1)
			want = (u32)pebs_block_nops + 3;
		if (off == 9)
			want = pebs_esp;
		eq(pebs_q(8 * off), want, cat("PEBS fmt3 record: ", gpr_name[off]));
	}
	for (off = 0x50, want = 0; off < 0x90; off += 8)
		want |= pebs_q(off);
	eq(want, 0, "PEBS fmt3 record: R8-R15 (50H-88H) are 0 outside IA-32e mode");
	if (ident == ID_IVB)
		eq(pebs_q(F3_APPLICABLE), 1,
		   "PEBS fmt1 record: IA32_PERF_GLOBAL_STATUS (90H): PMC0's bit");
	else
		eq(pebs_q(F3_APPLICABLE), 1, "PEBS fmt3 record: applicable counters (90H): PMC0");
	eq(pebs_q(0x98), 0, "PEBS fmt3 record: data linear address (98H): 0");
	eq(pebs_q(0xa0), 0, "PEBS fmt3 record: data source (A0H): 0");
	eq(pebs_q(0xa8), 0, "PEBS fmt3 record: latency (A8H): 0");
	if (ident == ID_IVB) {
		eq(pebs_q(F3_EVENTING_IP), fill,
		   "PEBS fmt1 record: no EventingIP (B0H not written: the record ends at A8H)");
		eq(pebs_q(0xb8), fill, "PEBS fmt1 record: no TSX abort information (B8H)");
		eq(pebs_q(F3_RIP), (u32)pebs_block_nops + 3,
		   "PEBS fmt1 record: RIP the instruction after the 3rd NOP (its only IP)");
	} else {
		eq(pebs_q(F3_EVENTING_IP), (u32)pebs_block_nops + 2,
		   "PEBS fmt3 record: EventingIP (B0H): the 3rd NOP itself");
		eq(pebs_q(0xb8), 0, "PEBS fmt3 record: TX abort information (B8H): 0");
	}
	if (ident == ID_BDW || ident == ID_IVB)
		eq(pebs_q(F3_TSC), fill, "PEBS fmt2 record: no TSC (0C0H bytes)");
	else
		report(pebs_q(F3_TSC) != 0 && pebs_q(F3_TSC) != fill,
		       "PEBS fmt3 record: a TSC (C0H)");
	eq(pebs_q(FMT3), fill, "PEBS fmt3: nothing written past the record");
	eq(rdmsr(GSTATUS), 0, "PEBS fmt3: no GLOBAL_STATUS bit");

	/* EventingIP exact, RIP trap-like, the reload: NOPs 1, 7, 32 */
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		k = ks[i];
		pebs_ds(4096, 4096);
		ds_area[8] = -1000ull & MASK48;
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(PMC0, -(u64)k & MASK48);
		wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | INT);
		wrmsr(PEBS_ENABLE, 1);
		nop_block(GCTRL, 1, 0);
		v = rdmsr(PMC0);
		wrmsr(PEBS_ENABLE, 0);
		ok = pebs_used() == FMT3 &&
		     pebs_rec_ip((u32)nop_block_nops + k - 1, (u32)nop_block_nops + k) &&
		     pebs_q(F3_RIP) == (u32)nop_block_nops + k;
		if (ident == ID_IVB)
			report(ok, k == 1 ? "PEBS fmt1 0xC0 at the 1st NOP: RIP the next" :
			       k == 7 ? "PEBS fmt1 0xC0 at the 7th NOP: RIP the next" :
			       "PEBS fmt1 0xC0 at the 32nd NOP: RIP the next");
		else
			report(ok, k == 1 ?
			       "PEBS fmt3 0xC0 at the 1st NOP: EventingIP it, RIP the next" :
			       k == 7 ?
			       "PEBS fmt3 0xC0 at the 7th NOP: EventingIP it, RIP the next" :
			       "PEBS fmt3 0xC0 at the 32nd NOP: EventingIP it, RIP the next");
		if (!ok) {
			note("used ", pebs_used());
			note("EventingIP - nops ", pebs_q(F3_EVENTING_IP) - (u32)nop_block_nops);
			note("RIP - nops ", pebs_q(F3_RIP) - (u32)nop_block_nops);
		}
		eq(v, (-1000ull + 32 - k + tail) & MASK48,
		   "PEBS fmt3: reloaded from the DS reset value (40H) at the overflow");
		eq(nmis, 0, "PEBS fmt3: no PMI of its own (INT set), threshold not reached");
	}
	/* branches: the kth JMP, RIP its target */
	pebs_ds(4096, 4096);
	ds_area[8] = -1000ull & MASK48;
	wrmsr(PMC0, -9ull & MASK48);
	wrmsr(EVTSEL0, 0xc4 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 1);
	branch_block(GCTRL, 1, 0);
	wrmsr(PEBS_ENABLE, 0);
	report(pebs_used() == FMT3 &&
	       pebs_rec_ip((u32)branch_block_jmps + 16, (u32)branch_block_jmps + 18) &&
	       pebs_q(F3_RIP) == (u32)branch_block_jmps + 18,
	       ident == ID_IVB ? "PEBS fmt1 0xC4 at the 9th JMP: RIP its target" :
	       "PEBS fmt3 0xC4 at the 9th JMP: EventingIP the JMP, RIP its target");
	/*
	 * cycles (3CH) is no PEBS event in formats 1-3: no record, no PMI
	 * (its PEBS records, under icount at the 4th NOP, are format 4's)
	 */
	test_pebs_cycles_strict(tail);
	/*
	 * Skylake's PEBS encodings of cycles (C0H, umask 0 or 01H, INV,
	 * CMASK 16: cycles:pp and cycles:ppp) count cycles, and
	 * INST_RETIRED.PREC_DIST (01C0H) instructions
	 */
	wrmsr(PMC0 + 1, 0);
	wrmsr(EVTSEL0 + 1, 0x1c0 | EN | USR | OS);
	nop_block(GCTRL, 2, 0);
	wrmsr(EVTSEL0 + 1, 0);
	eq(rdmsr(PMC0 + 1), 32 + tail, "Skylake: 01C0H (INST_RETIRED.PREC_DIST) counts insns");
	if (icount && ident == ID_SKL) {
		static const u32 umask[] = { 0, 0x100 };

		for (i = 0; i < 2; i++) {
			pebs_ds(4096, 4096);
			ds_area[9] = -100000ull & MASK48;
			wrmsr(PMC0 + 1, -4ull & MASK48);
			wrmsr(EVTSEL0 + 1, 0x108000c0ull | umask[i] | EN | USR | OS);
			wrmsr(PEBS_ENABLE, 2);
			nop_block(GCTRL, 2, 0);
			wrmsr(PEBS_ENABLE, 0);
			wrmsr(EVTSEL0 + 1, 0);
			report(pebs_used() == FMT3 && pebs_q(F3_APPLICABLE) == 2 &&
			       pebs_q(F3_EVENTING_IP) == (u32)nop_block_nops + 3, i ?
			       "PEBS fmt3 108001C0H (cycles:ppp) on PMC1: the 4th NOP" :
			       "PEBS fmt3 108000C0H (cycles:pp) on PMC1: the 4th NOP");
		}
	}
	/* Sandy Bridge to Broadwell: cycles as UOPS_RETIRED.ALL, PREC_DIST */
	if (icount && (ident == ID_BDW || ident == ID_IVB))
		test_pebs_cycles_encodings(tail);
	/* PMC3, with its own reset value at 58H */
	pebs_ds(4096, 4096);
	ds_area[11] = -2000ull & MASK48;
	wrmsr(PMC0 + 3, -5ull & MASK48);
	wrmsr(EVTSEL0 + 3, 0xc0 | EN | USR | OS);
	wrmsr(PEBS_ENABLE, 8);
	nop_block(GCTRL, 8, 0);
	wrmsr(PEBS_ENABLE, 0);
	wrmsr(EVTSEL0 + 3, 0);
	report(pebs_used() == FMT3 && pebs_q(F3_APPLICABLE) == 8 &&
	       pebs_rec_ip((u32)nop_block_nops + 4, (u32)nop_block_nops + 5) &&
	       rdmsr(PMC0 + 3) == ((-2000ull + 27 + tail) & MASK48),
	       "PEBS fmt3 on PMC3: the 5th NOP, bit 3, reloaded from DS + 58H");

	/*
	 * No fixed-counter PEBS in format 3: bit 32 of IA32_PEBS_ENABLE is
	 * PMC0's load latency enable; fixed counter 0 overflows as without
	 * PEBS: its status bit and its PMI, no record.
	 */
	pebs_ds(4096, 4096);
	FIXED_RESET(0) = -1000ull & MASK48;
	pmi_setup(GSTATUS, FIX0, GRESET);
	wrmsr(FIX0, -6ull & MASK48);
	wrmsr(FIXCTRL, 0xb);
	wrmsr(PEBS_ENABLE, BIT_ULL(32));
	nop_block(GCTRL, 0, 1);
	wrmsr(PEBS_ENABLE, 0);
	wrmsr(FIXCTRL, 0);
	report(pebs_used() == 0 && nmis == 1 && nmi_status == BIT_ULL(32) &&
	       nmi_eip == (u32)nop_block_nops + 6,
	       "PEBS fmt3: IA32_PEBS_ENABLE bit 32 is no fixed-counter PEBS: a PMI, no record");
	wrmsr(GCTRL, 0);
}

static void test_pebs_fmt3(void)
{
	u32 a, b, c, d;
	u64 cap;

	cpuid(1, &a, &b, &c, &d);
	report(d & BIT(21), "PEBS fmt3: CPUID.01H:EDX[21]: DS");
	report(c & BIT(2), "PEBS fmt3: CPUID.01H:ECX[2]: DTES64");
	eq(rdmsr(MISC_ENABLE) & (3 << 11), 1 << 11,
	   "PEBS fmt3: MISC_ENABLE: PEBS available (bit 12 clear), BTS not (bit 11 set)");
	cap = rdmsr(PERFCAP);
	eq((cap >> 8) & 0xf, ident == ID_IVB ? 1 : ident == ID_BDW ? 2 : 3,
	   "PERF_CAPABILITIES: PEBS record format 3 (2 on Broadwell, 1 on Ivy Bridge)");
	eq(cap & BIT(14), 0, "PERF_CAPABILITIES: no PEBS_BASELINE (bit 14)");
	eq(cap & 0xc0, 0xc0, "PERF_CAPABILITIES: PEBS trap-like (6), saves GPRs (7)");
	report(cap & BIT(13), "PERF_CAPABILITIES: FW_WRITE still (bit 13)");
	if (ident == ID_IVB)
		eq(cap, 0x21c3,
		   "PERF_CAPABILITIES of the Ivy Bridge identity: 21C3H (LBR_FMT 3, PEBS fmt 1)");
	else if (ident == ID_BDW)
		eq(cap, 0x22c4,
		   "PERF_CAPABILITIES of the Broadwell identity: 22C4H (LBR_FMT 4, PEBS fmt 2)");
	else
		eq(cap, 0x23c5, "PERF_CAPABILITIES of the Skylake identity: 23C5H");

	wrmsr(PEBS_ENABLE, 0xf | (0xfull << 32));
	eq(rdmsr(PEBS_ENABLE), 0xf | (0xfull << 32),
	   "IA32_PEBS_ENABLE fmt3: PMC0-3 (3:0), load latency PMC0-3 (35:32)");
	wrmsr(PEBS_ENABLE, BIT(4));
	gp(1, "IA32_PEBS_ENABLE fmt3: bit 4 (PEBS on PMC4: none) #GP");
	wrmsr(PEBS_ENABLE, BIT_ULL(36));
	gp(1, "IA32_PEBS_ENABLE fmt3: bit 36 #GP");
	wrmsr(PEBS_ENABLE, BIT_ULL(63));
	gp(1, "IA32_PEBS_ENABLE fmt3: bit 63 #GP");
	wrmsr(PEBS_ENABLE, 0);
	rdmsr(PEBS_DATA_CFG);
	gp(1, "PEBS fmt3: RDMSR MSR_PEBS_DATA_CFG #GP (no adaptive PEBS)");
	wrmsr(PEBS_DATA_CFG, 0);
	gp(1, "PEBS fmt3: WRMSR MSR_PEBS_DATA_CFG #GP");
	wrmsr(EVTSEL0, 0xc0 | ADAPTIVE);
	gp(1, "PEBS fmt3: PERFEVTSEL bit 34 (Adaptive_Record) #GP");
	wrmsr(FIXCTRL, FIX_ADAPTIVE(0));
	gp(1, "PEBS fmt3: FIXED_CTR_CTRL bit 32 (Adaptive_Record) #GP");
	wrmsr(PEBS_LD_LAT, 0xffff);
	eq(rdmsr(PEBS_LD_LAT), 0xffff, "PEBS fmt3: MSR_PEBS_LD_LAT_THRESHOLD: 16 bits");
	wrmsr(PEBS_LD_LAT, 0);
	wrmsr(EVTSEL0, 0);
	wrmsr(FIXCTRL, 0);

	test_pebs_fmt3_record();
	test_pebs_buffer(FMT3, ident == ID_IVB ? F3_RIP : F3_EVENTING_IP);
	wrmsr(DS_AREA, 0);
}

static void test_pebs(void)
{
	u32 a, b, c, d;
	u64 cap;

	cpuid(1, &a, &b, &c, &d);
	report(d & BIT(21), "CPUID.01H:EDX[21]: DS");
	report(c & BIT(2), "CPUID.01H:ECX[2]: DTES64");
	eq(rdmsr(MISC_ENABLE) & (3 << 11), 1 << 11,
	   "MISC_ENABLE: PEBS available (bit 12 clear), BTS not (bit 11 set)");
	cap = rdmsr(PERFCAP);
	if (ident == ID_SPR)
		eq((cap >> 8) & 0xf, 5, "PERF_CAPABILITIES: PEBS record format 5 (SPR)");
	else
		eq((cap >> 8) & 0xf, 4, "PERF_CAPABILITIES: PEBS record format 4");
	report(cap & BIT(14), "PERF_CAPABILITIES: PEBS_BASELINE (bit 14)");
	report(cap & BIT(13), "PERF_CAPABILITIES: FW_WRITE still (bit 13)");
	eq(cap & 0xc0, 0xc0, "PERF_CAPABILITIES: PEBS trap-like (6), saves GPRs (7)");

	wrmsr(DS_AREA, 0x12345678);
	eq(rdmsr(DS_AREA), 0x12345678, "IA32_DS_AREA: written and read");
	wrmsr(DS_AREA, BIT_ULL(47));
	gp(1, "IA32_DS_AREA: a non-canonical address #GP");
	wrmsr(PEBS_ENABLE, ((1u << ngp) - 1) | (7ull << 32));
	eq(rdmsr(PEBS_ENABLE), ((1u << ngp) - 1) | (7ull << 32),
	   "IA32_PEBS_ENABLE: every PMC and fixed 0-2");
	wrmsr(PEBS_ENABLE, BIT(ngp));
	gp(1, "IA32_PEBS_ENABLE: bit n (no PMCn) #GP");
	wrmsr(PEBS_ENABLE, BIT_ULL(35));
	gp(1, "IA32_PEBS_ENABLE: bit 35 (no fixed 3) #GP");
	wrmsr(PEBS_ENABLE, BIT_ULL(63));
	gp(1, "IA32_PEBS_ENABLE: bit 63 #GP");
	wrmsr(PEBS_ENABLE, 0);
	wrmsr(PEBS_DATA_CFG, 0xff00000f);
	eq(rdmsr(PEBS_DATA_CFG), 0xff00000f, "MSR_PEBS_DATA_CFG: groups and LBR entries");
	wrmsr(PEBS_DATA_CFG, BIT(4));
	gp(1, "MSR_PEBS_DATA_CFG: bit 4 #GP");
	wrmsr(PEBS_DATA_CFG, BIT_ULL(32));
	gp(1, "MSR_PEBS_DATA_CFG: bit 32 #GP");
	wrmsr(PEBS_DATA_CFG, 0);
	wrmsr(PEBS_LD_LAT, 0xffff);
	eq(rdmsr(PEBS_LD_LAT), 0xffff, "MSR_PEBS_LD_LAT_THRESHOLD: 16 bits");
	wrmsr(PEBS_LD_LAT, 0x10000);
	gp(1, "MSR_PEBS_LD_LAT_THRESHOLD: bit 16 #GP");
	wrmsr(EVTSEL0, 0xc0 | ADAPTIVE);
	eq(rdmsr(EVTSEL0), 0xc0 | ADAPTIVE, "PERFEVTSEL: bit 34 Adaptive_Record");
	if (ident == ID_MAX && !nolbr) {
		/* bit 35 logs the counter's events in the LBRs (patch 0024) */
		wrmsr(EVTSEL0, BIT_ULL(36));
		gp(1, "PERFEVTSEL: bit 36 #GP");
	} else {
		wrmsr(EVTSEL0, BIT_ULL(35));
		gp(1, "PERFEVTSEL: bit 35 #GP (no LBR event logging)");
	}
	wrmsr(EVTSEL0, 0);
	wrmsr(FIXCTRL, FIX_ADAPTIVE(0) | FIX_ADAPTIVE(1) | FIX_ADAPTIVE(2));
	eq(rdmsr(FIXCTRL), 0x11100000000ull, "FIXED_CTR_CTRL: bits 32, 36, 40 Adaptive_Record");
	wrmsr(FIXCTRL, BIT_ULL(33));
	gp(1, "FIXED_CTR_CTRL: bit 33 #GP");
	wrmsr(FIXCTRL, 0);
	wrmsr(GCTRL, 0);

	test_pebs_basic();
	test_pebs_adaptive();
	test_pebs_buffer(BASIC, 8);
	wrmsr(DS_AREA, 0);
}

/*
 * Intel memory events (patch 0019): MEM_INST_RETIRED.ALL_LOADS (81D0H)
 * and .ALL_STORES (82D0H) count instructions with a load, a store;
 * MEM_TRANS_RETIRED.LOAD_LATENCY (1CDH) loads above
 * MSR_PEBS_LD_LAT_THRESHOLD, on Skylake only with LL_EN_PMCn
 * (IA32_PEBS_ENABLE bit 32 + n); on Sapphire Rapids STORE_SAMPLE (2CDH)
 * stores, with their data source.  The model of the caches gives a line
 * from DRAM latency 200 and data source 0AH, an L2 hit 14 and 03H, an
 * L1D hit 4 and 01H; a store's status is bit 0, L1D hit.  mem_block()
 * runs over lines never accessed before: a fresh piece of mem_area each
 * time (and its line 8000H on, in the same L1D sets).
 */
#define ALL_LOADS 0x81d0
#define ALL_STORES 0x82d0
#define LD_LAT 0x1cd
#define MEM_AUX 0x8203
#define ST_SAMPLE 0x2cd
#define MEMINFO 0x20
#define MEM_REC (BASIC + MEMINFO)

/* 64 KB of lines, and room to align them */
static u8 mem_area[0x10000 + 64];
static u32 mem_next;
/* the counters mem_pebs() enables (IA32_PERF_GLOBAL_CTRL) */
static u32 mem_gctl = 1;

static u32 mem_base(void)
{
	u32 b = (((u32)mem_area + 63) & ~63u) + mem_next;

	mem_next = (mem_next + 0x100) & 0x7fff;
	return b;
}

/* what PMC0 counts of sel over mem_block (pebs: IA32_PEBS_ENABLE) */
static u64 mem_count(u32 sel, u32 thr, u64 pebs)
{
	if (!nopebs)
		wrmsr(PEBS_LD_LAT, thr);
	wrmsr(PMC0, 0);
	wrmsr(EVTSEL0, sel | EN | USR | OS);
	if (pebs)
		wrmsr(PEBS_ENABLE, pebs);
	mem_block(GCTRL, 1, 0, mem_base());
	wrmsr(EVTSEL0, 0);
	if (pebs)
		wrmsr(PEBS_ENABLE, 0);
	return rdmsr(PMC0);
}

struct mem_rec {
	u64 ip, dla, aux, lat;
};

/*
 * The instruction after each memory access of mem_block: format 1's
 * only IP (RIP).  The NOPs after mem_ld1, mem_st1 and mem_rmw are 1
 * byte, mem_ld4 (MOV (%esi), %eax) 2.
 */
static u32 mem_after(const char *ip)
{
	static const struct {
		const char *ip, *next;
		u32 back;
	} after[] = {
		{ mem_ld1, mem_st1, 1 }, { mem_st1, mem_rmw, 1 }, { mem_rmw, mem_ld2, 1 },
		{ mem_ld2, mem_push, 0 }, { mem_push, mem_pop, 0 }, { mem_pop, mem_st2, 0 },
		{ mem_st2, mem_ld3, 0 }, { mem_ld3, mem_ld4, 0 },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(after); i++)
		if (after[i].ip == ip)
			return (u32)after[i].next - after[i].back;
	return (u32)mem_ld4 + 2;
}

/*
 * PMC0 counting sel at -k over mem_block at base, with PEBS (and the
 * memory info group; on Skylake LL_EN_PMC0 for 1CDH): 1 if it wrote one
 * record, its fields in r
 */
static int mem_pebs(u32 sel, u32 k, u32 thr, u32 base, struct mem_rec *r)
{
	u64 en = 1, adaptive = 0;
	u32 size = MEM_REC;

	pebs_ds(4096, 4096);
	ds_area[8] = -1000ull & MASK48;
	wrmsr(PEBS_LD_LAT, thr);
	wrmsr(PMC0, -(u64)k & MASK48);
	if (pebs_fixed_rec()) {
		size = FMT3;
		if (sel == LD_LAT)
			en |= BIT_ULL(32);
	} else {
		wrmsr(PEBS_DATA_CFG, CFG_MEM);
		adaptive = ADAPTIVE;
	}
	wrmsr(EVTSEL0, sel | EN | USR | OS | adaptive);
	wrmsr(PEBS_ENABLE, en);
	mem_block(GCTRL, mem_gctl, 0, base);
	pebs_off();
	if (pebs_fixed_rec()) {
		/* format 1: no EventingIP, RIP the next instruction */
		r->ip = pebs_q(ident == ID_IVB ? F3_RIP : F3_EVENTING_IP);
		r->dla = pebs_q(0x98);
		r->aux = pebs_q(0xa0);
		r->lat = pebs_q(0xa8);
	} else {
		r->ip = pebs_q(8);
		r->dla = pebs_q(BASIC);
		r->aux = pebs_q(BASIC + 8);
		r->lat = pebs_q(BASIC + 16);
		if (pebs_q(0) != (CFG_MEM | (u64)MEM_REC << 48) ||
		    pebs_q(BASIC + 24) != 0)
			return 0;
	}
	return pebs_used() == size && pebs_q(size) == fill;
}

struct mem_want {
	const char *ip;
	u32 off;	/* DLA - base; ~0: not checked (the stack) */
	u32 aux, lat;
	const char *what;
};

/* the kth record of sel for each of n wants */
static void mem_pebs_check(const char *name, u32 sel, u32 thr,
			   const struct mem_want *w, u32 n)
{
	struct mem_rec r;
	u32 k, base, ok;
	u64 lat;

	for (k = 1; k <= n; k++, w++) {
		base = mem_base();
		ok = mem_pebs(sel, k, thr, base, &r);
		puts("# "); puts(name); puts(" at -"); putdec(k); puts("\n");
		report(ok, cat(name, ": one record with the memory info"));
		if (ident == ID_IVB)
			eq(r.ip, mem_after(w->ip),
			   cat(name, cat(": RIP (fmt1), the next instruction, ", w->what)));
		else
			eq(r.ip, (u32)w->ip, cat(name, cat(": eventing IP, ", w->what)));
		if (w->off != ~0u)
			eq(r.dla, base + w->off,
			   cat(name, cat(": data linear address, ", w->what)));
		if (w->aux != ~0u)
			eq(r.aux, w->aux,
			   cat(name, cat(": aux info (data source, store status), ", w->what)));
		/* Sapphire Rapids: the cache latency in 47:32, the instruction's 15:0 */
		lat = ident == ID_SPR ? (u64)w->lat << 32 | w->lat : w->lat;
		if (w->lat != ~0u)
			eq(r.lat, lat, cat(name, cat(": latency, ", w->what)));
	}
}

static void test_mem_events(void)
{
	static const struct mem_want loads[] = {
		{ mem_ld1, 0, 0x0a, 200, "1st load: from DRAM" },
		{ mem_rmw, 0x80, 0x0a, 200, "2nd: read-modify-write, from DRAM" },
		{ mem_ld2, 8, 0x01, 4, "3rd: an L1D hit" },
		{ mem_pop, ~0u, 0x01, 4, "4th: POP, an L1D hit" },
		{ mem_ld3, 0x8000, 0x0a, 200, "5th: from DRAM" },
		{ mem_ld4, 0, 0x03, 14, "6th: evicted from the L1D, an L2 hit" },
	};
	static const struct mem_want stores[] = {
		{ mem_st1, 0x48, 0, 0, "1st store: an L1D miss" },
		{ mem_rmw, 0x80, 1, 0, "2nd: read-modify-write, an L1D hit" },
		{ mem_push, ~0u, ~0u, 0, "3rd: PUSH" },
		{ mem_st2, 0x40, 1, 0, "4th: an L1D hit" },
	};
	static const struct mem_want ldlat30[] = {
		{ mem_ld1, 0, 0x0a, 200, "1st load above 30: from DRAM" },
		{ mem_rmw, 0x80, 0x0a, 200, "2nd: read-modify-write" },
		{ mem_ld3, 0x8000, 0x0a, 200, "3rd: the 5th load" },
	};
	static const struct mem_want ldlat4[] = {
		{ mem_ld1, 0, 0x0a, 200, "1st load above 4" },
		{ mem_rmw, 0x80, 0x0a, 200, "2nd" },
		{ mem_ld3, 0x8000, 0x0a, 200, "3rd" },
		{ mem_ld4, 0, 0x03, 14, "4th: an L2 hit" },
	};
	static const struct mem_want ldlat3[] = {
		{ mem_ld1, 0, 0x0a, 200, "1st load above 3" },
		{ mem_rmw, 0x80, 0x0a, 200, "2nd" },
		{ mem_ld2, 8, 0x01, 4, "3rd: an L1D hit, latency 4" },
	};
	/* Sapphire Rapids' STORE_SAMPLE: the store's data source, latency */
	static const struct mem_want st_sample[] = {
		{ mem_st1, 0x48, 0x0a, 200, "1st store: a line from DRAM" },
		{ mem_rmw, 0x80, 0x01, 4, "2nd: read-modify-write, an L1D hit" },
		{ mem_push, ~0u, ~0u, ~0u, "3rd: PUSH" },
		{ mem_st2, 0x40, 0x01, 4, "4th: an L1D hit" },
	};
	u64 ll = pebs_fixed_rec() ? BIT_ULL(32) : 0;
	struct mem_rec r;

	eq(mem_count(ALL_LOADS, 0, 0), 6, "MEM_INST_RETIRED.ALL_LOADS: 6 instructions that load");
	/* without PEBS, the PMI comes right after the overflowing load */
	pmi_setup(GSTATUS, PMC0, 0);
	wrmsr(PMC0, -2ull & MASK48);
	wrmsr(EVTSEL0, ALL_LOADS | EN | INT | USR | OS);
	mem_block(GCTRL, 1, 0, mem_base());
	wrmsr(EVTSEL0, 0);
	eq(nmis, 1, "ALL_LOADS overflow at the 2nd load: one PMI");
	eq(nmi_eip, (u32)mem_ld2 - 1,
	   "ALL_LOADS overflow: the PMI right after the 2nd load (the read-modify-write)");
	eq(nmi_status, 1, "ALL_LOADS overflow: GLOBAL_STATUS bit 0");
	wrmsr(GRESET, 1);
	eq(mem_count(ALL_STORES, 0, 0), 4, "MEM_INST_RETIRED.ALL_STORES: 4 that store");
	eq(mem_count(MEM_AUX, 0, 0), 0, "mem-loads-aux (03H umask 82H): counts nothing");
	if (ident == ID_SPR)
		eq(mem_count(ST_SAMPLE, 0, 0), 4,
		   "MEM_TRANS_RETIRED.STORE_SAMPLE (CDH umask 02H, Sapphire Rapids): 4 stores");
	else
		eq(mem_count(ST_SAMPLE, 0, 0), 0,
		   "MEM_TRANS_RETIRED.STORE_SAMPLE (CDH umask 02H): Sapphire Rapids only");
	if (nopebs) {
		/* no MSR_PEBS_LD_LAT_THRESHOLD: every load is above 0 */
		eq(mem_count(LD_LAT, 0, 0), 6,
		   "MEM_TRANS_RETIRED.LOAD_LATENCY above 0: every load");
		return;
	}
	eq(mem_count(LD_LAT, 3, ll), 6, "LOAD_LATENCY above 3 (the minimum): every load");
	eq(mem_count(LD_LAT, 4, ll), 4, "LOAD_LATENCY above 4: not the L1D hits (4)");
	eq(mem_count(LD_LAT, 14, ll), 3, "LOAD_LATENCY above 14: not the L2 hit (14)");
	eq(mem_count(LD_LAT, 199, ll), 3, "LOAD_LATENCY above 199: the 3 from DRAM (200)");
	eq(mem_count(LD_LAT, 200, ll), 0, "LOAD_LATENCY above 200: none");
	if (pebs_fixed_rec())
		eq(mem_count(LD_LAT, 3, 0), 0,
		   "LOAD_LATENCY on Skylake without LL_EN_PMC0 (PEBS_ENABLE bit 32): nothing");

	mem_pebs_check("PEBS ALL_LOADS", ALL_LOADS, 0, loads, ARRAY_SIZE(loads));
	mem_pebs_check("PEBS ALL_STORES", ALL_STORES, 0, stores, ARRAY_SIZE(stores));
	mem_pebs_check("PEBS LOAD_LATENCY>30", LD_LAT, 30, ldlat30, ARRAY_SIZE(ldlat30));
	mem_pebs_check("PEBS LOAD_LATENCY>4", LD_LAT, 4, ldlat4, ARRAY_SIZE(ldlat4));
	mem_pebs_check("PEBS LOAD_LATENCY>3", LD_LAT, 3, ldlat3, ARRAY_SIZE(ldlat3));
	if (ident == ID_SPR)
		mem_pebs_check("PEBS STORE_SAMPLE", ST_SAMPLE, 0, st_sample,
			       ARRAY_SIZE(st_sample));
	report(!mem_pebs(LD_LAT, 1, 200, mem_base(), &r) && pebs_used() == 0,
	       "PEBS LOAD_LATENCY above 200: no record");

	/* the auxiliary event beside it (Sapphire Rapids' perf mem group) */
	wrmsr(EVTSEL0 + 1, MEM_AUX | EN | USR | OS);
	wrmsr(PMC0 + 1, 0);
	mem_gctl = 3;
	report(mem_pebs(LD_LAT, 1, 30, mem_base(), &r) &&
	       r.ip == (ident == ID_IVB ? mem_after(mem_ld1) : (u32)mem_ld1),
	       "PEBS LOAD_LATENCY with mem-loads-aux on PMC1: its record");
	mem_gctl = 1;
	eq(rdmsr(PMC0 + 1), 0, "mem-loads-aux on PMC1: 0");
	wrmsr(EVTSEL0 + 1, 0);
	wrmsr(PEBS_LD_LAT, 0);
	wrmsr(DS_AREA, 0);
}

static const struct br_pmu intel_br = {
	.sel = EVTSEL0, .ctr = PMC0, .gctl = GCTRL, .status = GSTATUS, .ack = GRESET,
	.br = 0xc4, .cbr = 0x1c4, .miss = 0xc5,
};

static void test_intel(void)
{
	u32 a, b, c, d, ver, maxleaf;
	u64 v1, v2, f1, f2, c1;

	cpuid(0xa, &a, &b, &c, &d);
	ver = a & 0xff;
	puts("# cpuid 0xa: eax="); puthex(a); puts(" ebx="); puthex(b);
	puts(" ecx="); puthex(c); puts(" edx="); puthex(d); puts("\n");
	report(ver >= 2, "CPUID 0xA: architectural perfmon version >= 2");
	eq(ver, pmu_ver, "CPUID 0xA: the identity's perfmon version");
	eq((a >> 8) & 0xff, ngp, "CPUID 0xA: the identity's GP counters (4, 8)");
	eq((a >> 16) & 0xff, 48, "CPUID 0xA: 48-bit GP counters");
	eq(d & 0x1f, 3, "CPUID 0xA: 3 fixed counters");
	eq((d >> 5) & 0xff, 48, "CPUID 0xA: 48-bit fixed counters");
	eq(b & 3, 0, "CPUID 0xA: core cycles and instructions available");
	report((a >> 24) >= 7, "CPUID 0xA: EBX length covers the branch events (bits 5, 6)");
	eq(b & 0x60, 0, "CPUID 0xA: branch instructions and branch misses available");
	if (ver >= 5) {
		eq(c, 7, "CPUID 0xA v5: ECX enumerates fixed counters 0-2");
		report(d & (1u << 15), "CPUID 0xA v5: AnyThread deprecated");
	} else {
		eq(c, 0, "CPUID 0xA v4: ECX reserved (0)");
		eq(d & (1u << 15), 0, "CPUID 0xA v4: AnyThread not deprecated");
	}
	eq(rdmsr(GCTRL), (1u << ngp) - 1, "GLOBAL_CTRL after RESET: GP counters enabled");

	/* exact counts */
	wrmsr(GCTRL, 0);
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	wrmsr(FIXCTRL, 0x3 | (0x3 << 4));
	wrmsr(PMC0, 0); wrmsr(FIX0, 0); wrmsr(FIX0 + 1, 0);
	measure(GCTRL, 1, 3, 1000);
	v1 = rdmsr(PMC0); f1 = rdmsr(FIX0); c1 = rdmsr(FIX0 + 1);
	eq(v1, 1005, "GP counter, event 0xC0: 1000 LOOPs count 1005");
	eq(f1, 1005, "fixed counter 0: 1000 LOOPs count 1005");
	cycles_eq(c1, 1005, "fixed counter 1 (cycles): one per instruction under icount",
		  "fixed counter 1 (cycles): counts");
	wrmsr(PMC0, 0); wrmsr(FIX0, 0);
	measure(GCTRL, 1, 1, 100000);
	v2 = rdmsr(PMC0); f2 = rdmsr(FIX0);
	eq(v2, 100005, "GP counter: 100000 LOOPs count 100005");
	eq(f2, 100005, "fixed counter 0: 100000 LOOPs count 100005");
	eq(rdmsr(PMC0), v2, "counter frozen once GLOBAL_CTRL is 0");
	if (!icount) {
		/* instructions per cycle, cycles being the virtual clock */
		wrmsr(FIX0, 0); wrmsr(FIX0 + 1, 0);
		measure(GCTRL, 0, 3, 10000000);
		f2 = rdmsr(FIX0); c1 = rdmsr(FIX0 + 1);
		eq(f2, 10000005, "fixed counter 0: 1e7 LOOPs count 1e7 + 5");
		report(c1 >= 1000 && c1 < (1ull << 32),
		       "fixed counter 1: 1e7 LOOPs take 1 us to 4 s");
		if (c1 >= 1000 && c1 < (1ull << 32))
			note("instructions per 1000 cycles: ", (u32)f2 / ((u32)c1 / 1000));
		/* what counting costs: the same LOOPs, cycles only */
		wrmsr(FIX0 + 1, 0);
		measure(GCTRL, 0, 2, 10000000);
		f1 = rdmsr(FIX0 + 1);
		if (f1 >= 1000 && f1 < (1ull << 32))
			note("the same, instructions not counted, per 1000 cycles: ",
			     10000005u / ((u32)f1 / 1000));
	}
	wrmsr(EVTSEL0 + 1, 0x3c | EN | USR | OS); wrmsr(PMC0 + 1, 0);
	measure(GCTRL, 2, 0, 1000);
	cycles_eq(rdmsr(PMC0 + 1), 1005, "GP counter, event 0x3C (cycles): 1005",
		  "GP counter, event 0x3C (cycles): counts");
	wrmsr(EVTSEL0 + 1, 0);
	wrmsr(PMC0, 0);
	measure(GCTRL, 2, 0, 1000);
	eq(rdmsr(PMC0), 0, "GLOBAL_CTRL gates: counter 0 not enabled there, no count");
	wrmsr(EVTSEL0, 0xc0 | USR | OS);
	measure(GCTRL, 1, 0, 1000);
	eq(rdmsr(PMC0), 0, "EVTSEL.EN gates: no count without it");
	wrmsr(EVTSEL0, 0xc0 | EN);
	measure(GCTRL, 1, 0, 1000);
	eq(rdmsr(PMC0), 0, "neither USR nor OS: no count");

	/* RDPMC */
	wrmsr(PMC0, 0x1234567);
	eq(rdpmc(0), 0x1234567, "RDPMC(0) == IA32_PMC0"); report(!fault, "RDPMC(0) no fault");
	wrmsr(FIX0, 0xabcdef);
	eq(rdpmc(1u << 30), 0xabcdef, "RDPMC(1<<30) == IA32_FIXED_CTR0");
	rdpmc(ngp); gp(1, "RDPMC(number of GP counters) #GP");
	rdpmc((1u << 30) | 3); gp(1, "RDPMC(fixed 3) #GP");
	rdpmc(1u << 31); gp(1, "RDPMC fast mode (bit 31) #GP");
	write_cr4(read_cr4() & ~(1u << 8));
	fault = 0; user_pmc = 0; user_rdpmc(0);
	eq(fault, 13, "RDPMC at CPL 3 without CR4.PCE: #GP");
	write_cr4(read_cr4() | (1u << 8));
	fault = 0; user_pmc = 0; user_rdpmc(0);
	report(!fault && user_pmc == 0x1234567, "RDPMC at CPL 3 with CR4.PCE == RDMSR");

	/* #GP on what does not exist or is reserved */
	/* IA32_PMC0-7, IA32_PERFEVTSEL0-7: none beyond (8 counters: none) */
	if (ngp < 8) {
		rdmsr(PMC0 + ngp); gp(1, "RDMSR IA32_PMCn #GP (n: GP counters)");
		rdmsr(EVTSEL0 + ngp); gp(1, "RDMSR IA32_PERFEVTSELn #GP");
	}
	rdmsr(FIX0 + 3); gp(1, "RDMSR IA32_FIXED_CTR3 #GP");
	wrmsr(GSTATUS, 1); gp(1, "WRMSR GLOBAL_STATUS (read-only) #GP");
	if (pmu_ver >= 5) {
		wrmsr(EVTSEL0, 0xc0 | (1u << 21)); gp(1, "WRMSR PERFEVTSEL AnyThread #GP");
		wrmsr(FIXCTRL, 1u << 2); gp(1, "WRMSR FIXED_CTR_CTRL AnyThread #GP");
	} else {
		/* v4: AnyThread accepted; one thread per core: the thread's count */
		wrmsr(GCTRL, 0);
		wrmsr(EVTSEL0, 0xc0 | EN | USR | OS | (1u << 21));
		report(!fault, "v4: WRMSR PERFEVTSEL AnyThread accepted");
		wrmsr(FIXCTRL, 0x7);
		report(!fault, "v4: WRMSR FIXED_CTR_CTRL AnyThread accepted");
		wrmsr(PMC0, 0); wrmsr(FIX0, 0);
		measure(GCTRL, 1, 1, 1000);
		eq(rdmsr(PMC0), 1005, "v4: AnyThread GP counter: 1000 LOOPs count 1005");
		eq(rdmsr(FIX0), 1005, "v4: AnyThread fixed counter 0: 1000 LOOPs count 1005");
		wrmsr(EVTSEL0, 0); wrmsr(FIXCTRL, 0);
	}
	wrmsr(EVTSEL0, 1ull << 32); gp(1, "WRMSR PERFEVTSEL bit 32 #GP");
	wrmsr(FIXCTRL, 1u << 12); gp(1, "WRMSR FIXED_CTR_CTRL counter 3 #GP");
	wrmsr(GCTRL, 1u << ngp); gp(1, "WRMSR GLOBAL_CTRL bit n #GP (n: GP counters)");
	wrmsr(GCTRL, 1ull << 35); gp(1, "WRMSR GLOBAL_CTRL bit 35 #GP");

	/* legacy counter writes */
	wrmsr(PMC0, 0x1234567890ull);
	eq(rdmsr(PMC0), 0x34567890, "IA32_PMC0 write: low 32 bits");
	wrmsr(PMC0, 0x80000000ull);
	eq(rdmsr(PMC0), 0xffff80000000ull, "IA32_PMC0 write: bit 31 sign-extends to 48 bits");

	/* full-width writes, PERF_CAPABILITIES */
	cpuid(1, &a, &b, &c, &d);
	report(c & (1u << 15), "CPUID.1:ECX.PDCM");
	report(rdmsr(PERFCAP) & (1u << 13), "PERF_CAPABILITIES.FW_WRITE");
	report(!fault, "RDMSR PERF_CAPABILITIES no fault");
	wrmsr(PERFCAP, 0); gp(1, "WRMSR PERF_CAPABILITIES (read-only) #GP");
	wrmsr(APMC0, 0x123456789aull);
	report(!fault, "WRMSR IA32_A_PMC0 no fault");
	eq(rdmsr(PMC0), 0x123456789aull, "IA32_A_PMC0 write: full width, read via IA32_PMC0");
	eq(rdmsr(APMC0), 0x123456789aull, "IA32_A_PMC0 reads the counter");
	eq(rdpmc(0), 0x123456789aull, "RDPMC after a full-width write");
	wrmsr(APMC0, 1ull << 48); gp(1, "IA32_A_PMC0 write beyond 48 bits #GP");
	if (ngp < 8) {
		rdmsr(APMC0 + ngp); gp(1, "RDMSR IA32_A_PMCn #GP (n: GP counters)");
	}

	/* v4: STATUS_SET, STATUS_RESET, INUSE; v3 (Broadwell) has neither */
	if (ver < 4) {
		wrmsr(GSET, 1); gp(1, "v3: GLOBAL_STATUS_SET (391H) #GP");
		rdmsr(GINUSE); gp(1, "v3: GLOBAL_INUSE (392H) #GP");
		goto v3;
	}
	wrmsr(GSET, 0x5 | (1ull << 33));
	eq(rdmsr(GSTATUS), 0x5 | (1ull << 33), "GLOBAL_STATUS_SET sets status bits");
	wrmsr(GRESET, 0x1);
	eq(rdmsr(GSTATUS), 0x4 | (1ull << 33), "GLOBAL_STATUS_RESET clears status bits");
	wrmsr(GRESET, 0x4 | (1ull << 33));
	eq(rdmsr(GSTATUS), 0, "GLOBAL_STATUS_RESET clears the rest");
	wrmsr(GSET, 1ull << 40); gp(1, "GLOBAL_STATUS_SET reserved bit #GP");
	wrmsr(EVTSEL0, 0xc0); wrmsr(EVTSEL0 + 1, 0); wrmsr(FIXCTRL, 0x30);
	eq(rdmsr(GINUSE), 1 | (1ull << 33), "GLOBAL_INUSE: PERFEVTSEL0, FIXED_CTR1");
	wrmsr(EVTSEL0, 0xc0 | INT);
	eq(rdmsr(GINUSE) >> 63, 1, "GLOBAL_INUSE: PMI in use");
v3:
	wrmsr(EVTSEL0, 0); wrmsr(FIXCTRL, 0);

	/* user/kernel filtering across ring changes */
	wrmsr(EVTSEL0, 0xc0 | EN | USR);
	wrmsr(EVTSEL0 + 1, 0xc0 | EN | OS);
	wrmsr(EVTSEL0 + 2, 0xc0 | EN | USR | OS);
	wrmsr(EVTSEL0 + 3, 0x3c | EN | USR);
	wrmsr(FIXCTRL, 0x2 | (0x1 << 4) | (0x3 << 8));
	wrmsr(PMC0, 0); wrmsr(PMC0 + 1, 0); wrmsr(PMC0 + 2, 0); wrmsr(PMC0 + 3, 0);
	wrmsr(FIX0, 0); wrmsr(FIX0 + 1, 0); wrmsr(FIX0 + 2, 0);
	run_user(GCTRL, 0xf, 7, 5000);
	eq(rdmsr(PMC0), 5002, "USR only: 5000 LOOPs at CPL 3 count 5002 (MOV, LOOPs, INT)");
	eq(rdmsr(PMC0 + 1), 10, "OS only: 10 (PUSH x5, IRET, MOV, XOR, XOR, WRMSR)");
	eq(rdmsr(PMC0 + 2), 5012, "USR|OS: 5012");
	cycles_eq(rdmsr(PMC0 + 3), 5002, "cycles, USR only: 5002", "cycles, USR only: counts");
	eq(rdmsr(FIX0), 5002, "fixed counter 0, USR only: 5002");
	cycles_eq(rdmsr(FIX0 + 1), 10, "fixed counter 1 (cycles), OS only: 10",
		  "fixed counter 1 (cycles), OS only: counts");
	cycles_eq(rdmsr(FIX0 + 2), 5012, "fixed counter 2 (ref cycles), both: 5012",
		  "fixed counter 2 (ref cycles), both: counts");
	wrmsr(PMC0, 0); wrmsr(PMC0 + 1, 0); wrmsr(PMC0 + 2, 0); wrmsr(PMC0 + 3, 0);
	wrmsr(FIX0, 0); wrmsr(FIX0 + 1, 0); wrmsr(FIX0 + 2, 0);
	run_user_fault(GCTRL, 0xf, 7, 5000);
	eq(rdmsr(PMC0), 5002, "faults at CPL 3 (UD2, RDMSR) do not retire: USR 5002");
	eq(rdmsr(PMC0 + 1), 17, "faults at CPL 3: OS counts the #UD and #GP handlers: 17");
	eq(rdmsr(PMC0 + 2), 5019, "faults at CPL 3: USR|OS 5019");
	cycles_eq(rdmsr(PMC0 + 3), 5004,
		  "faults at CPL 3: cycles (USR) include the faulting instructions",
		  "faults at CPL 3: cycles (USR) count");
	test_fast_syscalls(GCTRL, 7, PMC0, PMC0 + 1, PMC0 + 2);
	wrmsr(EVTSEL0 + 1, 0); wrmsr(EVTSEL0 + 2, 0); wrmsr(EVTSEL0 + 3, 0);
	wrmsr(FIXCTRL, 0);

	/* overflow: status bit and one PMI (NMI) */
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -1000ull); wrmsr(EVTSEL0, 0xc0 | EN | INT | USR | OS);
	measure(GCTRL, 1, 0, 5000);
	eq(nmis, 1, "overflow: one PMI, delivered as NMI");
	eq(nmi_status, 1, "overflow: GLOBAL_STATUS bit 0 set at the PMI");
	report(nmi_lvtpc & 0x10000, "PMI delivery masks LVTPC (Intel)");
	report(nmi_ctr < 64, "PMI comes at the overflow (counter small at the NMI)");
	note("counter at the NMI: ", nmi_ctr);
	eq(rdmsr(GSTATUS), 0, "GLOBAL_STATUS_RESET from the handler cleared it");
	/* in ring 3, USR only: the handler's instructions do not count */
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -2500ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | USR);
	run_user(GCTRL, 1, 0, 5000);
	eq(nmis, 1, "overflow at CPL 3: one PMI");
	eq(nmi_cs & 3, 3, "the PMI interrupted CPL 3");
	eq(rdmsr(PMC0), 2502, "USR-only count exact across the PMI: 5002 - 2500");
	/*
	 * A PMI due at an instruction that changes CPL: the fold of the
	 * ring change finds the overflow inside a TB, where QEMU may not
	 * raise an interrupt under icount. It comes right after the
	 * instruction, once; the counts stay exact. OS only, overflowing
	 * at the IRET to ring 3 (the 6th OS instruction of run_user); a
	 * USR and an OS counter without INT beside it.
	 */
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -6ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | OS);
	wrmsr(PMC0 + 1, 0); wrmsr(EVTSEL0 + 1, 0xc0 | EN | USR);
	wrmsr(PMC0 + 2, 0); wrmsr(EVTSEL0 + 2, 0xc0 | EN | OS);
	run_user(GCTRL, 7, 0, 5000);
	eq(nmis, 1, "overflow at IRET to CPL 3 (OS only): one PMI");
	eq(nmi_status, 1, "overflow at IRET: GLOBAL_STATUS bit 0 at the PMI");
	eq(nmi_cs & 3, 3, "overflow at IRET: the PMI comes after it, at CPL 3");
	eq(rdmsr(PMC0), rdmsr(PMC0 + 2) - 6,
	   "overflow at IRET: OS count exact (the other OS counter's - 6)");
	eq(rdmsr(PMC0 + 1), 5002, "overflow at IRET: USR count exact, 5002");
	wrmsr(EVTSEL0 + 1, 0); wrmsr(EVTSEL0 + 2, 0);
	/* USR only, overflowing at SYSCALL (the (n + 2)th USR instruction) */
	syscall_setup();
	pmi_setup(GSTATUS, PMC0, GRESET);
	wrmsr(PMC0, -5002ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | USR);
	run_user_sysret(GCTRL, 1, 0, 5000);
	eq(nmis, 1, "overflow at SYSCALL (USR only): one PMI");
	eq(nmi_status, 1, "overflow at SYSCALL: GLOBAL_STATUS bit 0 at the PMI");
	eq(nmi_cs & 3, 0, "overflow at SYSCALL: the PMI comes after it, at CPL 0");
	eq(rdmsr(PMC0), 0, "overflow at SYSCALL: USR count exact, wrapped to 0");
	/* fixed counter */
	pmi_setup(GSTATUS, FIX0, GRESET);
	wrmsr(EVTSEL0, 0);
	wrmsr(FIX0, -100ull & MASK48); wrmsr(FIXCTRL, 0xb);
	measure(GCTRL, 0, 1, 1000);
	eq(nmis, 1, "fixed counter 0 overflow: one PMI");
	eq(nmi_status, 1ull << 32, "fixed counter 0 overflow: GLOBAL_STATUS bit 32");
	wrmsr(FIXCTRL, 0);
	/* the PMI right at the overflow */
	test_pmi_at("GP counter", GCTRL, 1, 0, EVTSEL0, 0xc0 | EN | INT | USR | OS,
		    PMC0, GSTATUS, GRESET);
	wrmsr(EVTSEL0, 0);
	test_pmi_at("fixed counter 0", GCTRL, 0, 1, FIXCTRL, 0xb, FIX0, GSTATUS, GRESET);
	wrmsr(FIXCTRL, 0);
	/* v4 freeze on PMI */
	if (ver >= 4) {
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(DEBUGCTL, 1u << 12);
		eq(rdmsr(DEBUGCTL), 1u << 12, "DEBUGCTL.FREEZE_PERFMON_ON_PMI reads back");
		wrmsr(PMC0, -100ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | USR | OS);
		wrmsr(PMC0 + 1, 0); wrmsr(EVTSEL0 + 1, 0xc0 | EN | USR | OS);
		wrmsr(GCTRL, 3);
		measure(GCTRL, 3, 0, 1000);
		eq(nmis, 1, "freeze: one PMI");
		eq(nmi_status, 1 | (1ull << 59),
		   "freeze: GLOBAL_STATUS has bit 0 and CTR_Frz (59)");
		eq(rdmsr(PMC0 + 1), 100, "freeze: the other counter stopped at the PMI");
		wrmsr(GRESET, 1 | (1ull << 59));
		wrmsr(PMC0 + 1, 0);
		measure(GCTRL, 2, 0, 1000);
		eq(rdmsr(PMC0 + 1), 1005, "freeze: counting again once CTR_Frz is reset");
		/* the freeze comes at an overflow at IRET, the PMI after it */
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(PMC0, -6ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | OS);
		wrmsr(PMC0 + 1, 0); wrmsr(EVTSEL0 + 1, 0xc0 | EN | USR);
		wrmsr(PMC0 + 2, 0); wrmsr(EVTSEL0 + 2, 0xc0 | EN | OS);
		run_user(GCTRL, 7, 0, 5000);
		eq(nmis, 1, "freeze at IRET: one PMI");
		eq(nmi_status, 1 | (1ull << 59), "freeze at IRET: bit 0 and CTR_Frz at the PMI");
		eq(rdmsr(PMC0 + 2), 6, "freeze at IRET: OS counter stopped at the IRET: 6");
		eq(rdmsr(PMC0 + 1), 0, "freeze at IRET: USR counter stopped before CPL 3: 0");
		wrmsr(GRESET, 1 | (1ull << 59));
		wrmsr(DEBUGCTL, 0); wrmsr(EVTSEL0 + 1, 0); wrmsr(EVTSEL0 + 2, 0);
	} else {
		/* v3: the legacy freeze clears GLOBAL_CTRL at the PMI */
		pmi_setup(GSTATUS, PMC0, 0);
		wrmsr(DEBUGCTL, 1u << 12);
		wrmsr(PMC0, -100ull & MASK48); wrmsr(EVTSEL0, 0xc0 | EN | INT | USR | OS);
		wrmsr(PMC0 + 1, 0); wrmsr(EVTSEL0 + 1, 0xc0 | EN | USR | OS);
		measure(GCTRL, 3, 0, 1000);
		eq(nmis, 1, "v3 freeze: one PMI");
		eq(nmi_status, 1, "v3 freeze: GLOBAL_STATUS bit 0, no CTR_Frz");
		eq(rdmsr(PMC0 + 1), 100, "v3 freeze: the other counter stopped at the PMI");
		eq(rdmsr(GCTRL), 0, "v3 freeze: GLOBAL_CTRL cleared by the PMI");
		wrmsr(GRESET, 1);
		wrmsr(DEBUGCTL, 0); wrmsr(EVTSEL0, 0); wrmsr(EVTSEL0 + 1, 0);
	}
	wrmsr(EVTSEL0, 0xc0 | EN | USR | OS);
	test_other_cpu(GCTRL, 1, PMC0);
	wrmsr(EVTSEL0, 0);
	wrmsr(GCTRL, 0);
	test_branches(&intel_br);
	if (ident == ID_ICL || ident == ID_SPR) {
		/* Ice Lake on: BR_INST_RETIRED.COND is umask 11H (rr's ticks) */
		struct br_pmu icl_br = intel_br;

		icl_br.cbr = 0x11c4;
		puts("# the branch events again, conditional as C4H umask 11H\n");
		test_branches(&icl_br);
	}
	cpuid(0, &maxleaf, &b, &c, &d);
	cpuid(7, &a, &b, &c, &d);
	if (lbr16()) {
		test_bdw_lbr();
	} else if (legacy_lbr) {
		test_legacy_lbr();
		test_legacy_lbr_freeze();
	} else if (ident) {
		/* an identity without legacy LBRs: their MSRs #GP */
		rdmsr(0x1c9); gp(1, "identity: RDMSR MSR_LASTBRANCH_TOS (legacy LBR) #GP");
		wrmsr(0x1c8, 1); gp(1, "identity: WRMSR MSR_LBR_SELECT (legacy LBR) #GP");
		rdmsr(0x680); gp(1, "identity: RDMSR MSR_LASTBRANCH_0_FROM_IP #GP");
		wrmsr(0x6df, 0); gp(1, "identity: WRMSR MSR_LASTBRANCH_31_TO_IP #GP");
		rdmsr(0xdc0); gp(1, "identity: RDMSR MSR_LBR_INFO_0 #GP");
	}
	if (nolbr) {
		test_no_arch_lbr(maxleaf);
		test_no_lbr_log(maxleaf);
	} else {
		report((d >> 19) & 1, "CPUID.07H:EDX[19]: architectural LBRs");
		if ((d >> 19) & 1) {
			test_arch_lbr(maxleaf);
			test_lbr_freeze();
			test_lbr_log(maxleaf);
			if (!icount)
				test_lbr_cost();
		}
	}
	if (nopebs)
		test_no_pebs("pebs=off", 1);
	else if (pebs_fixed_rec())
		test_pebs_fmt3();
	else
		test_pebs();
	test_mem_events();
	if (!icount) {
		u64 on, off;

		/* what counting branches costs: ns (cycles) per 1e7 LOOPs */
		wrmsr(FIXCTRL, 0x3 << 4);
		wrmsr(EVTSEL0, 0xc4 | EN | USR | OS);
		wrmsr(FIX0 + 1, 0);
		measure(GCTRL, 1, 2, 10000000);
		on = rdmsr(FIX0 + 1);
		wrmsr(FIX0 + 1, 0);
		measure(GCTRL, 0, 2, 10000000);
		off = rdmsr(FIX0 + 1);
		note("1e7 LOOPs, ns with branches counted: ", on);
		note("1e7 LOOPs, ns without: ", off);
		wrmsr(EVTSEL0, 0);
		wrmsr(FIXCTRL, 0);
	}
}

/*
 * AMD's Last Branch Record Extension Version 2 (APM vol. 2, "Last Branch
 * Record Stack"), on the Zen 4 identity only: CPUID 8000_0022H EAX[1]
 * LbrExtV2 and EAX[2] LbrAndPmcFreeze, EBX[9:4] LbrV2StackSz 16;
 * DBG_EXTN_CFG.LBRV2EN (bit 6) enables; LBR_SELECT's bits 8:0 suppress
 * what they name; LBR_FROM(i)/LBR_TO(i) at C001_0300H + 2i/+ 2i + 1, entry
 * 0 the youngest (no TOS register); FROM bit 63 the mispredict flag (0),
 * TO bit 63 Valid (1), bit 62 Spec (0: a retired branch), bit 61
 * reserved (0).  The same recorder as the Intel LBRs: FROM as it is, also
 * from a CPL suppressed.  Freeze on PMI: IA32_DEBUGCTL bit 11, and
 * PerfCntrGlobalStatus bit 58 (LbrFreeze) until PerfCntrGlobalStatusClr
 * clears it.
 */
#define A_LBR_SELECT 0xc000010e
#define A_DBG_EXTN_CFG 0xc000010f
#define A_LBR_FROM(i) (0xc0010300 + 2 * (i))
#define A_LBR_TO(i) (0xc0010301 + 2 * (i))
#define A_LBR_NR 16
#define LBRV2EN BIT(6)
#define A_TO_VALID BIT_ULL(63)
#define A_TO_SPEC BIT_ULL(62)

/* every entry 0, as a driver resets them */
static void albr_reset(void)
{
	u32 x;

	for (x = 0; x < A_LBR_NR; x++) {
		wrmsr(A_LBR_FROM(x), 0);
		wrmsr(A_LBR_TO(x), 0);
	}
}

/*
 * want[0..n-1] oldest first: entry 0 is want[n-1], entry 1 want[n-2], ...
 * (the youngest 16), FROM as it is, TO with Valid set and Spec clear; the
 * entries after them 0
 */
static void albr_check(const struct lbr_rec *want, int n, const char *what)
{
	int x, bad = -1;
	u64 f = 0, t = 0;

	for (x = 0; x < A_LBR_NR && bad < 0; x++) {
		f = rdmsr(A_LBR_FROM(x));
		t = rdmsr(A_LBR_TO(x));
		if (x < n) {
			const struct lbr_rec *r = &want[n - 1 - x];

			if (f != r->from || t != (r->to | A_TO_VALID) || fault)
				bad = x;
		} else if (f || t || fault) {
			bad = x;
		}
	}
	report(bad < 0, what);
	if (bad >= 0) {
		note("first wrong entry (0 the youngest): ", bad);
		puts("#   from "); puthex(f); puts(" to "); puthex(t); puts("\n");
		if (bad < n) {
			puts("#   want from "); puthex(want[n - 1 - bad].from);
			puts(" to "); puthex(want[n - 1 - bad].to | A_TO_VALID); puts("\n");
		}
	}
}

/* an entry holds the kth JMP of branch_block (from k = 1) */
static int albr_has_jmp(u32 k)
{
	u32 x;

	for (x = 0; x < A_LBR_NR; x++)
		if (rdmsr(A_LBR_FROM(x)) == (u32)branch_block_jmps + 2 * (k - 1) &&
		    rdmsr(A_LBR_TO(x)) == (A_TO_VALID | ((u32)branch_block_jmps + 2 * k)))
			return 1;
	return 0;
}

/* entries 0 to min(k, 16) - 1 are the kth JMP of branch_block, k - 1, ... */
static void albr_top(u32 k, const char *what)
{
	u32 x, n = k < A_LBR_NR ? k : A_LBR_NR;
	u64 f = 0, t = 0;

	for (x = 0; x < n; x++) {
		f = rdmsr(A_LBR_FROM(x));
		t = rdmsr(A_LBR_TO(x));
		if (f != (u32)branch_block_jmps + 2 * (k - 1 - x) ||
		    t != (A_TO_VALID | ((u32)branch_block_jmps + 2 * (k - x))))
			break;
	}
	report(x == n, what);
	if (x < n) {
		note("first wrong entry: ", x);
		puts("#   from "); puthex(f); puts(" to "); puthex(t); puts("\n");
	}
}

static void test_amd_lbr(u32 eax, u32 ebx)
{
	static const u32 types[] = { SEL_JCC, SEL_REL_JMP, SEL_IND_JMP, SEL_REL_CALL,
				     SEL_IND_CALL, SEL_RET, SEL_FAR };
	static const char *const only_names[] = {
		"LbrExtV2: all but Jcc (bit 2) suppressed: the taken JZ, LOOP and JECXZ",
		"LbrExtV2: all but near rel JMP (bit 7) suppressed: the JMP rel8",
		"LbrExtV2: all but near ind JMP (bit 6) suppressed: the JMP *%eax",
		"LbrExtV2: all but near rel CALL (bit 3) suppressed: the CALL rel32",
		"LbrExtV2: all but near ind CALL (bit 4) suppressed: the CALL *%eax",
		"LbrExtV2: all but near RET (bit 5) suppressed: the two RETs",
		"LbrExtV2: all but far (bit 8) suppressed: INT, IRET, far JMP, CALL, RET",
	};
	static const char *const not_names[] = {
		"LbrExtV2: Jcc (bit 2) suppresses the conditional branches alone",
		"LbrExtV2: near rel JMP (bit 7) suppresses the JMP rel8 alone",
		"LbrExtV2: near ind JMP (bit 6) suppresses the JMP *%eax alone",
		"LbrExtV2: near rel CALL (bit 3) suppresses the CALL rel32 alone",
		"LbrExtV2: near ind CALL (bit 4) suppresses the CALL *%eax alone",
		"LbrExtV2: near RET (bit 5) suppresses the RETs alone",
		"LbrExtV2: far (bit 8) suppresses the far transfers alone",
	};
	static const u32 ks[] = { 7, 16, 32 };
	struct lbr_rec all[LBR_NR_BRANCHES];
	int n = lbr_branches(all), m;
	struct lbr_rec sub[64];
	u32 i, k;
	u64 v;

	eq((eax >> 1) & 3, 3, "CPUID 8000_0022H EAX: LbrExtV2 (1), LbrAndPmcFreeze (2)");
	eq((ebx >> 4) & 0x3f, A_LBR_NR, "CPUID 8000_0022H EBX[9:4]: LbrV2StackSz 16");
	eq(ebx & 0xf, 6, "CPUID 8000_0022H EBX[3:0]: still 6 core counters");
	wrmsr(A_GCTL, 0);
	wrmsr(A_GCLR, ~0ull);

	/* reset values */
	eq(rdmsr(A_LBR_SELECT), 0, "LBR_SELECT after RESET: 0 (everything recorded)");
	eq(rdmsr(A_DBG_EXTN_CFG), 0, "DBG_EXTN_CFG after RESET: 0 (LBRV2EN clear)");
	eq(rdmsr(DEBUGCTL), 0, "AMD IA32_DEBUGCTL after RESET: 0");
	v = 0;
	for (i = 0; i < A_LBR_NR; i++)
		v |= rdmsr(A_LBR_FROM(i)) | rdmsr(A_LBR_TO(i));
	report(!v && !fault, "LBR_FROM/LBR_TO 0-15 after RESET: 0, no #GP");

	/* written and read back, reserved bits #GP */
	wrmsr(A_LBR_SELECT, 0x1ff);
	report(!fault && rdmsr(A_LBR_SELECT) == 0x1ff, "LBR_SELECT: bits 8:0 written, read back");
	wrmsr(A_LBR_SELECT, BIT(9)); gp(1, "LBR_SELECT bit 9 (reserved: no call stack) #GP");
	wrmsr(A_LBR_SELECT, BIT_ULL(63)); gp(1, "LBR_SELECT bit 63 (reserved) #GP");
	eq(rdmsr(A_LBR_SELECT), 0x1ff, "LBR_SELECT unchanged by the faulting writes");
	wrmsr(A_LBR_SELECT, 0);
	wrmsr(A_DBG_EXTN_CFG, LBRV2EN);
	v = rdmsr(A_DBG_EXTN_CFG);
	wrmsr(A_DBG_EXTN_CFG, 0);
	report(!fault && v == LBRV2EN, "DBG_EXTN_CFG: LBRV2EN (bit 6) written, read back");
	wrmsr(A_DBG_EXTN_CFG, BIT(0)); gp(1, "DBG_EXTN_CFG bit 0 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT(7)); gp(1, "DBG_EXTN_CFG bit 7 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT_ULL(63) | LBRV2EN); gp(1, "DBG_EXTN_CFG bit 63 (reserved) #GP");
	eq(rdmsr(A_DBG_EXTN_CFG), 0, "DBG_EXTN_CFG unchanged by the faulting writes");
	wrmsr(DEBUGCTL, BIT(11));
	eq(rdmsr(DEBUGCTL), BIT(11), "AMD IA32_DEBUGCTL: FREEZE_LBRS_ON_PMI (11) reads back");
	wrmsr(DEBUGCTL, 0);
	wrmsr(A_LBR_FROM(5), 0xffffffff81234567ull);
	wrmsr(A_LBR_TO(5), A_TO_VALID | 0x1fffffff81234568ull);
	report(!fault, "LBR_FROM(5), LBR_TO(5) written");
	eq(rdmsr(A_LBR_FROM(5)), 0xffffffff81234567ull, "LBR_FROM(5) (C001_030AH) reads back");
	eq(rdmsr(A_LBR_TO(5)), A_TO_VALID | 0x1fffffff81234568ull,
	   "LBR_TO(5) (C001_030BH) reads back");
	wrmsr(A_LBR_FROM(15), 0x15); wrmsr(A_LBR_TO(15), 0x16);
	eq(rdmsr(A_LBR_FROM(15)) + rdmsr(A_LBR_TO(15)), 0x2b,
	   "LBR_FROM(15), LBR_TO(15) (C001_031EH, C001_031FH): written, read back");
	albr_reset();
	v = 0;
	for (i = 0; i < A_LBR_NR; i++)
		v |= rdmsr(A_LBR_FROM(i)) | rdmsr(A_LBR_TO(i));
	eq(v, 0, "LbrExtV2: the 32 entry MSRs written 0, read 0");

	/* every kind of branch: entry 0 the youngest, Valid, not Spec */
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	albr_check(all, n, "LbrExtV2: every kind of branch, 14 records, entry 0 the youngest");
	report(rdmsr(A_LBR_TO(0)) & A_TO_VALID && !(rdmsr(A_LBR_TO(0)) & A_TO_SPEC) &&
	       !(rdmsr(A_LBR_FROM(0)) >> 63),
	       "LbrExtV2: a record: TO Valid (63) set, Spec (62) clear; FROM mispredict (63) 0");
	eq(rdmsr(A_DBG_EXTN_CFG), 0, "LbrExtV2: DBG_EXTN_CFG as written (0) after the block");
	albr_reset();
	lbr_block(A_DBG_EXTN_CFG, 0, 0);
	albr_check(all, 0, "LbrExtV2: LBRV2EN clear: nothing recorded");
	lbr_block(DEBUGCTL, 1, 0);
	albr_check(all, 0, "LbrExtV2: IA32_DEBUGCTL.LBR (bit 0) does not enable the stack");
	wrmsr(A_LBR_SELECT, SEL_CPL_NEQ_0);
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	albr_check(all, n, "LbrExtV2: CPL > 0 suppressed (bit 1) at CPL 0: everything recorded");
	albr_reset();
	wrmsr(A_LBR_SELECT, SEL_CPL_EQ_0);
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	albr_check(all, 0, "LbrExtV2: CPL 0 suppressed (bit 0) at CPL 0: nothing recorded");
	wrmsr(A_LBR_SELECT, SEL_TYPES);
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	albr_check(all, 0, "LbrExtV2: every branch type suppressed: nothing recorded");
	for (i = 0; i < 7; i++) {
		albr_reset();
		wrmsr(A_LBR_SELECT, SEL_TYPES & ~types[i]);
		lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
		m = leg_filter(all, n, SEL_TYPES & ~types[i], sub);
		albr_check(sub, m, only_names[i]);
		albr_reset();
		wrmsr(A_LBR_SELECT, types[i]);
		lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
		m = leg_filter(all, n, types[i], sub);
		albr_check(sub, m, not_names[i]);
	}
	wrmsr(A_LBR_SELECT, 0);

	/* 16 deep: 32 JMPs leave the last 16; 14 more push out 14 of them */
	albr_reset();
	wrmsr(A_LBR_SELECT, SEL_TYPES & ~SEL_REL_JMP);
	branch_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	for (i = 0; i < 32; i++) {
		sub[i].from = (u32)branch_block_jmps + 2 * i;
		sub[i].to = sub[i].from + 2;
	}
	albr_check(sub, 32, "LbrExtV2: 32 JMPs: entries 0-15 the 32nd to the 17th");
	wrmsr(A_LBR_SELECT, 0);
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	for (i = 0; i < (u32)n; i++)
		sub[32 + i] = all[i];
	albr_check(sub + 14, 32, "LbrExtV2: 14 more: entries 14 and 15 the 32nd and 31st JMP");
	/* entries written are kept under the new records */
	albr_reset();
	wrmsr(A_LBR_FROM(0), 0x1111);
	wrmsr(A_LBR_TO(0), A_TO_VALID | 0x2222);
	wrmsr(A_LBR_SELECT, SEL_TYPES & ~SEL_REL_JMP);
	lbr_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	wrmsr(A_LBR_SELECT, 0);
	report(rdmsr(A_LBR_FROM(0)) == (u32)lbr_jmp && rdmsr(A_LBR_FROM(1)) == 0x1111 &&
	       rdmsr(A_LBR_TO(1)) == (A_TO_VALID | 0x2222) && !rdmsr(A_LBR_TO(2)),
	       "LbrExtV2: a written entry 0 becomes entry 1 under the next record");

	/* CPL: FROM as it is, also from a CPL suppressed */
	albr_reset();
	run_user(A_DBG_EXTN_CFG, LBRV2EN, 0, 2);
	sub[0].from = (u32)user_iret; sub[0].to = (u32)user_entry;
	sub[1].from = (u32)user_entry + 2; sub[1].to = sub[1].from;
	sub[2].from = (u32)user_entry + 4; sub[2].to = (u32)int80_entry;
	albr_check(sub, 3, "LbrExtV2 at CPL 3: IRET to CPL 3, LOOP, INT $0x80 to CPL 0");
	albr_reset();
	wrmsr(A_LBR_SELECT, SEL_CPL_EQ_0);
	run_user(A_DBG_EXTN_CFG, LBRV2EN, 0, 2);
	albr_check(sub, 2, "LbrExtV2: CPL 0 suppressed: the IRET to CPL 3 (FROM as is), the LOOP");
	albr_reset();
	wrmsr(A_LBR_SELECT, SEL_CPL_NEQ_0);
	run_user(A_DBG_EXTN_CFG, LBRV2EN, 0, 2);
	albr_check(sub + 2, 1, "LbrExtV2: CPL > 0 suppressed: the INT from CPL 3 (FROM as is)");
	wrmsr(A_LBR_SELECT, 0);

	/*
	 * Freeze on PMI: branches retired (0xC2) overflow at the kth JMP;
	 * the PMI sets LbrFreeze (58) with the counter's bit, entry 0 is that
	 * JMP, nothing more is recorded (not the PMI either) until
	 * PerfCntrGlobalStatusClr clears it. The handler does not clear it.
	 * Near relative JMPs only: the CALL of branch_block() is not kept.
	 */
	wrmsr(A_LBR_SELECT, SEL_TYPES & ~SEL_REL_JMP);
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		k = ks[i];
		albr_reset();
		pmi_setup(A_GSTATUS, K7_CTR0, 0);
		wrmsr(K7_CTR0, -(u64)k & MASK48);
		wrmsr(K7_SEL0, 0xc2 | USR | OS | INT | EN);
		wrmsr(DEBUGCTL, BIT(11));
		wrmsr(A_DBG_EXTN_CFG, LBRV2EN);
		branch_block(A_GCTL, 1, 0);
		report(nmis == 1 && nmi_status == (1 | LBR_FRZ), k == 7 ?
		       "LbrExtV2 freeze on PMI (JMP 7): one PMI, GlobalStatus bits 0 and 58" :
		       k == 16 ?
		       "LbrExtV2 freeze on PMI (JMP 16): one PMI, GlobalStatus bits 0 and 58" :
		       "LbrExtV2 freeze on PMI (JMP 32): one PMI, GlobalStatus bits 0 and 58");
		if (nmis != 1 || nmi_status != (1 | LBR_FRZ)) {
			note("PMIs: ", nmis);
			puts("#   status "); puthex(nmi_status); puts("\n");
		}
		albr_top(k, k == 7 ?
			   "LbrExtV2 freeze: entry 0 the 7th JMP (it overflowed), then 6-1" :
			   k == 16 ?
			   "LbrExtV2 freeze: entry 0 the 16th JMP (it overflowed), then 15-1" :
			   "LbrExtV2 freeze: entry 0 the 32nd JMP (it overflowed), then 31-17");
		eq(rdmsr(A_GSTATUS) & LBR_FRZ, LBR_FRZ, "LbrExtV2 freeze: LbrFreeze stays set");
		eq(rdmsr(A_DBG_EXTN_CFG), LBRV2EN, "LbrExtV2 freeze: LBRV2EN left alone");
		branch_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
		albr_top(k, "LbrExtV2 freeze: frozen, more JMPs are not recorded");
		wrmsr(A_GCLR, 1 | LBR_FRZ);
		eq(rdmsr(A_GSTATUS), 0,
		   "LbrExtV2 freeze: PerfCntrGlobalStatusClr clears LbrFreeze");
		wrmsr(K7_SEL0, 0);
		albr_reset();
		branch_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
		report(albr_has_jmp(32),
		       "LbrExtV2 freeze: recording again once LbrFreeze is cleared");
	}
	wrmsr(DEBUGCTL, 0);
	wrmsr(A_LBR_SELECT, 0);
	/* PerfCntrGlobalStatusSet.LbrFreeze freezes the stack too */
	albr_reset();
	wrmsr(A_GSET, LBR_FRZ);
	eq(rdmsr(A_GSTATUS), LBR_FRZ, "PerfCntrGlobalStatusSet sets LbrFreeze (58)");
	branch_block(A_DBG_EXTN_CFG, LBRV2EN, 0);
	wrmsr(A_GCLR, LBR_FRZ);
	report(!albr_has_jmp(32) && !rdmsr(A_LBR_TO(0)),
	       "LbrExtV2: LbrFreeze set by PerfCntrGlobalStatusSet: nothing recorded");

	/* without FREEZE_LBRS_ON_PMI: the PMI's delivery and its IRET */
	albr_reset();
	pmi_setup(A_GSTATUS, K7_CTR0, A_GCLR);
	wrmsr(A_LBR_SELECT, SEL_TYPES & ~SEL_FAR);
	wrmsr(K7_CTR0, -28ull & MASK48);
	wrmsr(K7_SEL0, 0xc2 | USR | OS | INT | EN);
	wrmsr(A_DBG_EXTN_CFG, LBRV2EN);
	branch_block(A_GCTL, 1, 0);
	wrmsr(A_DBG_EXTN_CFG, 0);
	report(nmis == 1 && !(nmi_status & LBR_FRZ),
	       "LbrExtV2 without freeze: one PMI, no LbrFreeze");
	report(rdmsr(A_LBR_FROM(1)) == (u32)branch_block_jmps + 56 &&
	       rdmsr(A_LBR_TO(1)) == (A_TO_VALID | (u32)nmi_entry) &&
	       rdmsr(A_LBR_TO(0)) == (A_TO_VALID | ((u32)branch_block_jmps + 56)) &&
	       !rdmsr(A_LBR_TO(2)),
	       "LbrExtV2 without freeze, far alone: the PMI at the 29th JMP, then its IRET");
	wrmsr(K7_SEL0, 0);
	wrmsr(A_GCLR, ~0ull);
	wrmsr(A_LBR_SELECT, 0);
	albr_reset();
}

/*
 * AMD Instruction-Based Sampling (patch 0017), with ibs=on ("ibs" on the
 * command line; the zen3 and zen4 runs): CPUID 8000_0001H ECX[10] and [3],
 * 8000_001BH; the MSRs C001_1030H-C001_103BH, their reserved bits, the
 * read-only IBS_CTL and its LVT offset; the local APIC's extended space
 * (APIC_EFEAT, the extended LVT entries) and the NMI it delivers, or not
 * when masked; the op sample exactly at the (MaxCnt - CurCnt + 1)th
 * instruction after the arming WRMSR (ops and cycles, MaxCnt's OpCntExt
 * bits), its RIP, branch flags and target, load/store and data address;
 * IbsOpVal holding the sample; re-arming; the fetch sample.  Without ibs
 * (every other AMD run) the MSRs #GP and CPUID has none of it.
 */
#define IBS_FETCH_CTL 0xc0011030
#define IBS_FETCH_LIN 0xc0011031
#define IBS_FETCH_PHYS 0xc0011032
#define IBS_OP_CTL 0xc0011033
#define IBS_OP_RIP 0xc0011034
#define IBS_OP_DATA 0xc0011035
#define IBS_OP_DATA2 0xc0011036
#define IBS_OP_DATA3 0xc0011037
#define IBS_DC_LIN 0xc0011038
#define IBS_DC_PHYS 0xc0011039
#define IBS_CTL 0xc001103a
#define IBS_BR_TARGET 0xc001103b
#define IBS_OP_EN BIT(17)
#define IBS_OP_VAL BIT(18)
#define IBS_OP_CNT_CTL BIT(19)
#define IBS_FETCH_EN BIT_ULL(48)
#define IBS_FETCH_VAL BIT_ULL(49)
#define IBS_FETCH_COMP BIT_ULL(50)
#define IBS_PHY_VALID BIT_ULL(52)
#define IBS_RAND_EN BIT_ULL(57)
#define OP_RETURN BIT_ULL(34)
#define OP_TAKEN BIT_ULL(35)
#define OP_BRN_RET BIT_ULL(37)
#define LD_OP BIT(0)
#define ST_OP BIT(1)
#define DC_LIN_VALID BIT(17)
#define DC_PHY_VALID BIT(18)
#define DC_MISS BIT(7)
#define DC_L2_MISS BIT(20)
#define DC_MISS_LAT(n) ((u64)(n) << 32)
#define DC_CACHE_BITS (DC_MISS | DC_L2_MISS | DC_MISS_LAT(0xffff))
#define DATA_SRC_DRAM 3
#define IBS_OP_L3_MISS_ONLY BIT(16)
#define IBS_FETCH_L3_MISS_ONLY BIT_ULL(59)
#define APIC_EFEAT 0x400
#define APIC_ECTRL 0x410
#define APIC_EILVT(n) (0x500 + 0x10 * (n))

/* IBS_OP_CTL: IbsOpEn, a maximum count of max (a multiple of 16), CurCnt cur */
static u64 ibs_op(u32 max, u32 cur, int cycles)
{
	return ((max >> 4) & 0xffff) | (max & (0x7fu << 20)) | IBS_OP_EN |
	       (cycles ? 0 : IBS_OP_CNT_CTL) | ((u64)cur << 32);
}

static void ibs_off(void)
{
	wrmsr(IBS_OP_CTL, 0);
	wrmsr(IBS_FETCH_CTL, 0);
}

/* the op sample's RIP, after ibs_block() armed with max and cur */
static u64 ibs_op_at(u32 max, u32 cur, int cycles)
{
	u64 ctl = ibs_op(max, cur, cycles);

	wrmsr(IBS_OP_RIP, 0);
	ibs_block(IBS_OP_CTL, (u32)ctl, ctl >> 32);
	return rdmsr(IBS_OP_RIP);
}

/* the kth instruction of ibs_block() (1: the first after the WRMSR) */
static void ibs_op_sample(u32 k, const char *what)
{
	ibs_off();
	ibs_op_at(128, 129 - k, 0);
	report(!!(rdmsr(IBS_OP_CTL) & IBS_OP_VAL), cat(what, ": IbsOpVal"));
}

static void test_ibs_absent(void)
{
	u32 a, b, c, d, xlevel, i;
	int gps = 0;

	cpuid(0x80000000, &xlevel, &b, &c, &d);
	cpuid(0x80000001, &a, &b, &c, &d);
	eq(c & (BIT(10) | BIT(3)), 0,
	   "ibs=off: no IBS, no ExtApicSpace (CPUID 8000_0001H ECX[10], [3])");
	if (xlevel >= 0x8000001b) {
		cpuid(0x8000001b, &a, &b, &c, &d);
		eq(a, 0, "ibs=off: CPUID 8000_001BH EAX 0");
	}
	for (i = IBS_FETCH_CTL; i <= IBS_BR_TARGET; i++) {
		rdmsr(i);
		gps += fault == 13;
		wrmsr(i, 0);
		gps += fault == 13;
	}
	eq(gps, 24, "ibs=off: RDMSR and WRMSR of C001_1030H-C001_103BH #GP");
}

/*
 * The op sample of the kth instruction of mem_block() at a fresh base
 * (k >= 2), IBS_OP_CTL |= extra; IBS_OP_RIP is 0 if none was taken.
 */
static u32 ibs_mem_at(u32 k, u64 extra, u32 *base)
{
	u64 ctl = ibs_op(16, 17 - k, 0) | extra;

	*base = mem_base();
	for (u32 i = IBS_OP_RIP; i <= IBS_DC_PHYS; i++)
		wrmsr(i, 0);
	mem_block(IBS_OP_CTL, (u32)ctl, ctl >> 32, *base);
	return rdmsr(IBS_OP_RIP);
}

/*
 * Patch 0021: the op sample's data access as the cache model (patch
 * 0019) saw it (mem_block(): loads from DRAM, an L2 hit, an L1D hit;
 * stores), and on the Zen 4 identity the L3MissOnly filters.
 */
static void test_ibs_cache(void)
{
	u64 lin_phy = DC_LIN_VALID | DC_PHY_VALID, v, rip;
	u32 base, i;

	eq(ibs_mem_at(11, 0, &base), (u32)mem_ld3,
	   "cache: the 11th of mem_block, the load from DRAM");
	eq(rdmsr(IBS_OP_DATA3), LD_OP | DC_MISS | DC_L2_MISS | lin_phy | DC_MISS_LAT(200),
	   "load from DRAM: IbsDcMiss, IbsDcL2Miss, IbsDcMissLat 200");
	eq(rdmsr(IBS_OP_DATA2), DATA_SRC_DRAM,
	   "load from DRAM: DataSrc 3 (DRAM), RmtNode 0, CacheHitSt 0");
	eq(rdmsr(IBS_DC_LIN), base + 0x8000, "load from DRAM: IBS_DC_LINADDR");
	eq(rdmsr(IBS_OP_DATA), 0, "load from DRAM: IBS_OP_DATA 0 (TagToRet, CompToRet 0)");
	eq(ibs_mem_at(12, 0, &base), (u32)mem_ld4, "cache: the 12th, the load from the L2");
	eq(rdmsr(IBS_OP_DATA3), LD_OP | DC_MISS | lin_phy | DC_MISS_LAT(14),
	   "load from the L2: IbsDcMiss, not IbsDcL2Miss, IbsDcMissLat 14");
	eq(rdmsr(IBS_OP_DATA2), 0, "load from the L2: DataSrc 0");
	eq(ibs_mem_at(7, 0, &base), (u32)mem_ld2, "cache: the 7th, an L1D hit");
	eq(rdmsr(IBS_OP_DATA3), LD_OP | lin_phy, "L1D hit: no miss bits, IbsDcMissLat 0");
	eq(rdmsr(IBS_OP_DATA2), 0, "L1D hit: DataSrc 0");
	eq(ibs_mem_at(5, 0, &base), (u32)mem_rmw, "cache: the 5th, a read-modify-write from DRAM");
	eq(rdmsr(IBS_OP_DATA3), LD_OP | ST_OP | DC_MISS | DC_L2_MISS | lin_phy | DC_MISS_LAT(200),
	   "read-modify-write from DRAM: its load's miss, latency 200");
	eq(rdmsr(IBS_OP_DATA2), DATA_SRC_DRAM, "read-modify-write from DRAM: DataSrc 3");
	eq(ibs_mem_at(3, 0, &base), (u32)mem_st1, "cache: the 3rd, a store to a line in DRAM");
	eq(rdmsr(IBS_OP_DATA3), ST_OP | DC_MISS | DC_L2_MISS | lin_phy,
	   "store missing the L2: IbsDcMiss, IbsDcL2Miss, no latency");
	eq(rdmsr(IBS_OP_DATA2), 0, "store: DataSrc 0 (loads only)");
	eq(ibs_mem_at(10, 0, &base), (u32)mem_st2, "cache: the 10th, a store hitting the L1D");
	eq(rdmsr(IBS_OP_DATA3), ST_OP | lin_phy, "store hitting the L1D: no miss bits");

	if (ident != ID_ZEN4) {
		ibs_off();
		return;
	}
	/* L3MissOnly: a tagged op that does not miss the L3 is discarded */
	eq(ibs_mem_at(11, IBS_OP_L3_MISS_ONLY, &base), (u32)mem_ld3,
	   "L3MissOnly: the load from DRAM is sampled");
	eq(rdmsr(IBS_OP_DATA3), LD_OP | DC_MISS | DC_L2_MISS | lin_phy | DC_MISS_LAT(200),
	   "L3MissOnly: its IbsDcMiss, IbsDcL2Miss, IbsDcMissLat 200");
	eq(rdmsr(IBS_OP_DATA2), DATA_SRC_DRAM, "L3MissOnly: its DataSrc 3");
	eq(ibs_mem_at(3, IBS_OP_L3_MISS_ONLY, &base), (u32)mem_st1,
	   "L3MissOnly: a store to a line in DRAM is sampled");
	eq(ibs_mem_at(12, IBS_OP_L3_MISS_ONLY, &base), 0, "L3MissOnly: the L2 hit is not sampled");
	eq(ibs_mem_at(7, IBS_OP_L3_MISS_ONLY, &base), 0, "L3MissOnly: the L1D hit is not sampled");
	eq(ibs_mem_at(4, IBS_OP_L3_MISS_ONLY, &base), 0,
	   "L3MissOnly: a NOP is not sampled (nor the 21st, after its restart)");
	ibs_off();
	wrmsr(IBS_OP_RIP, 0);
	v = ibs_count(IBS_OP_CTL, (u32)(ibs_op(16, 0, 0) | IBS_OP_L3_MISS_ONLY), 0);
	/*
	 * stopped before reporting: a load of the report's own code (a
	 * string not cached yet) would miss the L3 and be sampled
	 */
	rip = rdmsr(IBS_OP_RIP);
	ibs_off();
	eq(v, ibs_op(16, 6, 0) | IBS_OP_L3_MISS_ONLY,
	   "L3MissOnly, 40 NOPs: 17th, 34th discarded, counter restarted: CurCnt 6, no IbsOpVal");
	eq(rip, 0, "L3MissOnly, 40 NOPs: no sample");
	/* fetches: no instruction cache model, none misses the L3 */
	wrmsr(IBS_FETCH_LIN, 0);
	v = ibs_count(IBS_FETCH_CTL, 1, (u32)((IBS_FETCH_EN | IBS_FETCH_L3_MISS_ONLY) >> 32));
	eq(v, 1 | IBS_FETCH_EN | IBS_FETCH_L3_MISS_ONLY,
	   "fetch L3MissOnly, MaxCnt 16, 40 NOPs: no IbsFetchVal, IbsFetchCnt restarted (6: 0)");
	eq(rdmsr(IBS_FETCH_LIN), 0, "fetch L3MissOnly: no sample");
	v = ibs_count(IBS_FETCH_CTL, 1, (u32)(IBS_FETCH_EN >> 32));
	report(!!(v & IBS_FETCH_VAL), "fetch without L3MissOnly, MaxCnt 16, 40 NOPs: a sample");
	ibs_off();
	for (i = IBS_FETCH_LIN; i <= IBS_BR_TARGET; i++)
		if (i != IBS_OP_CTL && i != IBS_CTL)
			wrmsr(i, 0);
}

static void test_ibs(void)
{
	u32 a, b, c, d, i, n;
	u64 v, ctl;

	cpuid(0x80000001, &a, &b, &c, &d);
	eq(c & (BIT(10) | BIT(3)), BIT(10) | BIT(3),
	   "ibs: CPUID 8000_0001H ECX IBS (10) and ExtApicSpace (3)");
	cpuid(0x8000001b, &a, &b, &c, &d);
	if (ident == ID_ZEN4)
		eq(a, 0x9ff,
		   "ibs: CPUID 8000_001BH EAX: IBSFFV..OpBrnFuse, Zen4IbsExtensions (11)");
	else
		eq(a, 0x1ff, "ibs: CPUID 8000_001BH EAX: IBSFFV..OpBrnFuse, nothing of Zen 4's");

	/* the MSRs */
	eq(rdmsr(IBS_CTL), 0x100, "IBS_CTL: LvtOffsetVal, offset 0");
	wrmsr(IBS_CTL, 0x100); gp(1, "IBS_CTL is read-only: WRMSR #GP");
	for (i = IBS_FETCH_CTL; i <= IBS_BR_TARGET; i++) {
		if (i == IBS_CTL)
			continue;
		eq(rdmsr(i), 0, "IBS MSR 0 after RESET");
	}
	wrmsr(IBS_OP_RIP, 0xffffffff80001234ull);
	eq(rdmsr(IBS_OP_RIP), 0xffffffff80001234ull, "IBS_OP_RIP written and read back");
	wrmsr(IBS_BR_TARGET, 0xffffffff80005678ull);
	eq(rdmsr(IBS_BR_TARGET), 0xffffffff80005678ull, "IBS_BR_TARGET written and read back");
	wrmsr(IBS_DC_LIN, 0x00007fff12345678ull);
	eq(rdmsr(IBS_DC_LIN), 0x00007fff12345678ull, "IBS_DC_LINADDR written and read back");
	wrmsr(IBS_DC_PHYS, 0x000fffff12345678ull);
	eq(rdmsr(IBS_DC_PHYS), 0x000fffff12345678ull, "IBS_DC_PHYSADDR: 52 bits kept");
	wrmsr(IBS_DC_PHYS, BIT_ULL(52)); gp(1, "IBS_DC_PHYSADDR bit 52 #GP");
	wrmsr(IBS_FETCH_PHYS, BIT_ULL(63)); gp(1, "IBS_FETCH_PHYSADDR bit 63 #GP");
	wrmsr(IBS_OP_DATA, 0xfc00000000ull | 0xffffffffull);
	eq(rdmsr(IBS_OP_DATA), 0xfc00000000ull | 0xffffffffull,
	   "IBS_OP_DATA: 39:34 and 31:0 written and read back");
	wrmsr(IBS_OP_DATA, BIT_ULL(32)); gp(1, "IBS_OP_DATA bit 32 (reserved) #GP");
	wrmsr(IBS_OP_DATA, BIT_ULL(40)); gp(1, "IBS_OP_DATA bit 40 (reserved) #GP");
	wrmsr(IBS_OP_DATA2, BIT(3)); gp(1, "IBS_OP_DATA2 bit 3 (reserved) #GP");
	wrmsr(IBS_OP_DATA3, BIT(9)); gp(1, "IBS_OP_DATA3 bit 9 (reserved) #GP");
	if (ident != ID_ZEN4) {
		wrmsr(IBS_OP_CTL, BIT(16));
		gp(1, "IBS_OP_CTL L3MissOnly (16: Zen 4's) #GP");
		wrmsr(IBS_FETCH_CTL, BIT_ULL(59));
		gp(1, "IBS_FETCH_CTL L3MissOnly (59: Zen 4's) #GP");
	} else {
		wrmsr(IBS_OP_CTL, BIT(16));
		report(!fault, "Zen 4: IBS_OP_CTL L3MissOnly (16) written");
		eq(rdmsr(IBS_OP_CTL), BIT(16), "Zen 4: IBS_OP_CTL L3MissOnly read back");
		wrmsr(IBS_FETCH_CTL, BIT_ULL(59));
		report(!fault, "Zen 4: IBS_FETCH_CTL L3MissOnly (59) written");
		eq(rdmsr(IBS_FETCH_CTL), BIT_ULL(59), "Zen 4: IBS_FETCH_CTL L3MissOnly read back");
		ibs_off();
	}
	wrmsr(IBS_OP_CTL, BIT(27)); gp(1, "IBS_OP_CTL bit 27 (reserved) #GP");
	wrmsr(IBS_OP_CTL, BIT_ULL(59)); gp(1, "IBS_OP_CTL bit 59 (reserved) #GP");
	wrmsr(IBS_FETCH_CTL, BIT_ULL(62)); gp(1, "IBS_FETCH_CTL bit 62 (reserved) #GP");
	wrmsr(IBS_OP_CTL, 0x07ffffff07f0fff0ull | IBS_OP_CNT_CTL);
	eq(rdmsr(IBS_OP_CTL), 0x07ffffff07f0fff0ull | IBS_OP_CNT_CTL,
	   "IBS_OP_CTL: MaxCnt, OpCntExt, CurCnt (27 bits) read back, not enabled");
	wrmsr(IBS_FETCH_CTL, 0xabcd1234ull | IBS_RAND_EN);
	eq(rdmsr(IBS_FETCH_CTL), 0xabcd1234ull | IBS_RAND_EN,
	   "IBS_FETCH_CTL: MaxCnt, FetchCnt, IbsRandEn read back, not enabled");
	ibs_off();
	for (i = IBS_OP_DATA; i <= IBS_DC_PHYS; i++)
		wrmsr(i, 0);

	/* the local APIC's extended space */
	report(!!(apic_read(0x30) & BIT(31)), "APIC version: EAS (extended APIC space, bit 31)");
	eq(apic_read(APIC_EFEAT), 4 << 16, "APIC_EFEAT: 4 extended LVT entries, no IER/SEOI");
	eq(apic_read(APIC_ECTRL), 0, "APIC_ECTRL: 0");
	for (i = 0, n = 0; i < 4; i++)
		n += apic_read(APIC_EILVT(i)) == 0x10000;
	eq(n, 4, "EILVT0-3 masked at RESET");
	apic_write(APIC_EILVT(3), 0xffffffff);
	eq(apic_read(APIC_EILVT(3)), 0x107ff,
	   "EILVT3: vector, message type and mask kept, the rest reserved");
	apic_write(APIC_EILVT(3), 0x10000);

	/* counting: 40 instructions between WRMSR and RDMSR */
	v = ibs_count(IBS_OP_CTL, (u32)ibs_op(0x100000, 0, 0), 0);
	eq(v >> 32, 40, "IbsOpCurCnt counts ops: 40 instructions, 40");
	v = ibs_count(IBS_OP_CTL, (u32)ibs_op(0x100000, 0, 1), 0);
	eq(v >> 32, 40, "IbsOpCurCnt counts cycles (IbsOpCntCtl 0): 40, one per instruction");
	ctl = ibs_op(0x100000, 1000, 0);
	v = ibs_count(IBS_OP_CTL, (u32)ctl, ctl >> 32);
	eq(v >> 32, 1040, "IbsOpCurCnt written (RdWrOpCnt): 1000 + 40");
	ibs_off();
	v = ibs_count(IBS_FETCH_CTL, 0xffff, (u32)(IBS_FETCH_EN >> 32));
	eq((v >> 16) & 0xffff, 40 >> 4, "IbsFetchCnt counts fetches: 40, bits 19:4 read");
	v = ibs_count(IBS_FETCH_CTL, 0xffff | (3 << 16), (u32)(IBS_FETCH_EN >> 32));
	eq((v >> 16) & 0xffff, (48 + 40) >> 4, "IbsFetchCnt written: 48 + 40");
	ibs_off();

	/* the op sample, at the NMI of EILVT0 */
	apic_write(APIC_EILVT(0), 0x400);
	pmi_setup(0, IBS_OP_CTL, 0);
	v = ibs_op_at(16, 0, 0);
	eq(v, (u32)ibs_seq + 16, "op sample, MaxCnt 16 (period 16 ops): at the 17th instruction");
	eq(nmis, 1, "op sample: one NMI through EILVT0 (message type NMI)");
	report(!!(nmi_ctr & IBS_OP_VAL), "op sample: IbsOpVal set at the NMI");
	report(nmi_eip > v && nmi_eip <= (u32)ibs_end,
	       "op sample: the NMI comes after the sampled instruction");
	ctl = rdmsr(IBS_OP_CTL);
	eq(ctl, ibs_op(16, 0, 0) | IBS_OP_VAL, "op sample: IbsOpVal, IbsOpCurCnt rolled over to 0");
	eq(rdmsr(IBS_OP_DATA), 0, "op sample of a NOP: no branch flags, latencies 0");
	eq(rdmsr(IBS_OP_DATA3), 0, "op sample of a NOP: no load, no store");
	eq(rdmsr(IBS_BR_TARGET), 0, "op sample of a NOP: IBS_BR_TARGET 0");
	/* IbsOpVal holds it: nothing counts, no second sample */
	ibs_block(K7_CTR0 + 3, 0, 0);
	eq(rdmsr(IBS_OP_RIP), v, "IbsOpVal set: a second period makes no sample");
	eq(rdmsr(IBS_OP_CTL), ctl, "IbsOpVal set: IbsOpCurCnt does not count");
	eq(nmis, 1, "IbsOpVal set: no second NMI");
	/* re-armed: WRMSR with IbsOpVal clear */
	pmi_setup(0, IBS_OP_CTL, 0);
	eq(ibs_op_at(32, 0, 0), (u32)ibs_seq + 32, "re-armed, MaxCnt 32: at the 33rd instruction");
	eq(nmis, 1, "re-armed: one NMI");
	ibs_off();
	eq(ibs_op_at(16, 5, 0), (u32)ibs_seq + 11, "MaxCnt 16, CurCnt 5: at the 12th instruction");
	ibs_off();
	eq(ibs_op_at(16, 15, 0), (u32)ibs_seq + 1, "MaxCnt 16, CurCnt 15: at the 2nd instruction");
	ibs_off();
	eq(ibs_op_at(16, 16, 0), (u32)ibs_seq + 1, "CurCnt at MaxCnt: at the 2nd instruction");
	ibs_off();
	eq(ibs_op_at(16, 1000, 0), (u32)ibs_seq + 1, "CurCnt above MaxCnt: at the 2nd instruction");
	ibs_off();
	eq(ibs_op_at(16, 0, 1), (u32)ibs_seq + 16,
	   "cycles (IbsOpCntCtl 0), MaxCnt 16: at the 17th instruction");
	ibs_off();
	eq(ibs_op_at(48, 7, 1), (u32)ibs_seq + 41, "cycles, MaxCnt 48, CurCnt 7: at the 42nd");
	ibs_off();
	/* OpCntExt: a period of 2^20 + 16 */
	pmi_setup(0, IBS_OP_CTL, 0);
	wrmsr(IBS_OP_RIP, 0);
	ctl = ibs_op(0x100010, 0, 0);
	ibs_loop(IBS_OP_CTL, (u32)ctl, ctl >> 32, 0x100010 + 100);
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_loop_insn,
	   "MaxCnt 2^20 + 16 (OpCntExt bits): at the 2^20 + 17th, the LOOP");
	eq(rdmsr(IBS_OP_CTL), ctl | IBS_OP_VAL, "OpCntExt: IbsOpVal, MaxCnt kept");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET | OP_TAKEN, "the LOOP: a taken branch");
	eq(rdmsr(IBS_BR_TARGET), (u32)ibs_loop_insn, "the LOOP: IBS_BR_TARGET itself");
	eq(nmis, 1, "OpCntExt: one NMI");

	/* what the sample says of loads, stores and branches */
	ibs_op_sample(49, "load");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_ld, "load: IBS_OP_RIP");
	/* the cache bits (patch 0021) are test_ibs_cache()'s */
	eq(rdmsr(IBS_OP_DATA3) & ~DC_CACHE_BITS, LD_OP | DC_LIN_VALID | DC_PHY_VALID,
	   "load: IbsLdOp, IbsDcLinAddrValid, IbsDcPhyAddrValid");
	eq(rdmsr(IBS_DC_LIN), (u32)ibs_data, "load: IBS_DC_LINADDR exact");
	eq(rdmsr(IBS_DC_PHYS), (u32)ibs_data, "load: IBS_DC_PHYSADDR (no paging: the same)");
	eq(rdmsr(IBS_OP_DATA), 0, "load: no branch");
	ibs_op_sample(50, "store");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_st, "store: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA3) & ~DC_CACHE_BITS, ST_OP | DC_LIN_VALID | DC_PHY_VALID,
	   "store: IbsStOp, IbsDcLinAddrValid, IbsDcPhyAddrValid");
	eq(rdmsr(IBS_DC_LIN), (u32)ibs_data + 8, "store: IBS_DC_LINADDR exact");
	eq(rdmsr(IBS_DC_PHYS), (u32)ibs_data + 8, "store: IBS_DC_PHYSADDR");
	ibs_op_sample(51, "read-modify-write");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_rmw, "read-modify-write: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA3) & ~DC_CACHE_BITS, LD_OP | ST_OP | DC_LIN_VALID | DC_PHY_VALID,
	   "read-modify-write: IbsLdOp and IbsStOp");
	eq(rdmsr(IBS_DC_LIN), (u32)ibs_data + 16, "read-modify-write: IBS_DC_LINADDR exact");
	ibs_op_sample(52, "JMP");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_jmp, "JMP: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET | OP_TAKEN, "JMP: IbsOpBrnRet, IbsOpBrnTaken");
	eq(rdmsr(IBS_BR_TARGET), (u32)ibs_jmp_t, "JMP: IBS_BR_TARGET exact");
	eq(rdmsr(IBS_OP_DATA3), 0, "JMP: no load, no store");
	ibs_op_sample(53, "XOR after the JMP");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_jmp_t, "the JMP's target is the next instruction");
	eq(rdmsr(IBS_OP_DATA), 0, "XOR: no branch");
	eq(rdmsr(IBS_BR_TARGET), 0, "XOR: IBS_BR_TARGET 0");
	ibs_op_sample(54, "JNZ not taken");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_jnz, "JNZ not taken: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET, "JNZ not taken: IbsOpBrnRet, not IbsOpBrnTaken");
	eq(rdmsr(IBS_BR_TARGET), 0, "JNZ not taken: IBS_BR_TARGET 0");
	ibs_op_sample(55, "CALL");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_call, "CALL: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET | OP_TAKEN, "CALL: a taken branch, not a return");
	eq(rdmsr(IBS_BR_TARGET), (u32)ibs_func, "CALL: IBS_BR_TARGET exact");
	eq(rdmsr(IBS_OP_DATA3) & (LD_OP | ST_OP), ST_OP, "CALL: a store (the return address)");
	ibs_op_sample(56, "RET");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_func, "RET: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET | OP_TAKEN | OP_RETURN,
	   "RET: IbsOpReturn, IbsOpBrnRet, IbsOpBrnTaken");
	eq(rdmsr(IBS_BR_TARGET), (u32)ibs_call_ret, "RET: IBS_BR_TARGET exact");
	eq(rdmsr(IBS_OP_DATA3) & (LD_OP | ST_OP), LD_OP, "RET: a load (the return address)");
	ibs_op_sample(58, "indirect JMP");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_ijmp, "indirect JMP: IBS_OP_RIP");
	eq(rdmsr(IBS_OP_DATA), OP_BRN_RET | OP_TAKEN, "indirect JMP: a taken branch");
	eq(rdmsr(IBS_BR_TARGET), (u32)ibs_ijmp_t, "indirect JMP: IBS_BR_TARGET exact");
	ibs_op_sample(122, "the last NOP");
	eq(rdmsr(IBS_OP_RIP), (u32)ibs_end - 2, "the 122nd instruction: the last NOP");
	ibs_off();

	/* the fetch sample */
	pmi_setup(0, IBS_FETCH_CTL, 0);
	wrmsr(IBS_FETCH_LIN, 0);
	ibs_block(IBS_FETCH_CTL, 1, (u32)(IBS_FETCH_EN >> 32));
	eq(rdmsr(IBS_FETCH_LIN), (u32)ibs_seq + 16,
	   "fetch sample, MaxCnt 16: IBS_FETCH_LINADDR the 17th instruction's");
	eq(rdmsr(IBS_FETCH_PHYS), (u32)ibs_seq + 16, "fetch sample: IBS_FETCH_PHYSADDR");
	eq(rdmsr(IBS_FETCH_CTL), 1 | (1 << 16) | IBS_FETCH_EN | IBS_FETCH_VAL |
	   IBS_FETCH_COMP | IBS_PHY_VALID,
	   "fetch sample: IbsFetchVal, IbsFetchComp, IbsPhyAddrValid, IbsFetchCnt at MaxCnt");
	eq(nmis, 1, "fetch sample: one NMI");
	report(!!(nmi_ctr & IBS_FETCH_VAL), "fetch sample: IbsFetchVal set at the NMI");
	ibs_block(K7_CTR0 + 3, 0, 0);
	eq(rdmsr(IBS_FETCH_LIN), (u32)ibs_seq + 16, "IbsFetchVal set: no second sample");
	eq(nmis, 1, "IbsFetchVal set: no second NMI");
	wrmsr(IBS_FETCH_LIN, 0);
	ibs_block(IBS_FETCH_CTL, 2 | (1 << 16), (u32)((IBS_FETCH_EN | IBS_RAND_EN) >> 32));
	eq(rdmsr(IBS_FETCH_LIN), (u32)ibs_seq + 16,
	   "fetch re-armed, MaxCnt 32, FetchCnt 16, IbsRandEn: the 17th");
	eq(nmis, 2, "fetch re-armed: a second NMI");
	ibs_off();

	/* masked, the entry delivers nothing; the sample is taken */
	apic_write(APIC_EILVT(0), 0x10400);
	pmi_setup(0, IBS_OP_CTL, 0);
	eq(ibs_op_at(16, 0, 0), (u32)ibs_seq + 16, "EILVT0 masked: the sample is taken");
	report(!!(rdmsr(IBS_OP_CTL) & IBS_OP_VAL), "EILVT0 masked: IbsOpVal");
	eq(nmis, 0, "EILVT0 masked: no NMI");
	ibs_off();
	/* message type fixed: vector 0x41, taken once interrupts are enabled */
	apic_write(APIC_EILVT(0), 0x41);
	pmi_setup(0, IBS_OP_CTL, 0);
	eilvt_irqs = 0;
	ibs_op_at(16, 0, 0);
	__asm__ volatile("sti; nop; cli" ::: "memory");
	report(eilvt_irqs == 1 && !nmis, "EILVT0 fixed, vector 0x41: one interrupt, no NMI");
	ibs_off();
	apic_write(APIC_EILVT(0), 0x10400);
	/* the interrupt takes IBS_CTL's offset, not another entry */
	apic_write(APIC_EILVT(1), 0x400);
	ibs_op_at(16, 0, 0);
	eq(nmis, 0, "EILVT1 unmasked, EILVT0 masked: no NMI");
	ibs_off();
	apic_write(APIC_EILVT(1), 0x10000);
	apic_write(APIC_EILVT(0), 0x10000);
	for (i = IBS_FETCH_LIN; i <= IBS_BR_TARGET; i++)
		if (i != IBS_OP_CTL && i != IBS_CTL)
			wrmsr(i, 0);
	test_ibs_cache();
}

/*
 * AMD Branch Sampling (patch 0022), with brs=on ("brs" on the command
 * line; the zen3 run): CPUID 8000_0008H EBX[31]; DBG_EXTN_CFG (C000_010FH)
 * BrsMEn (2), bits 4:3 (written 11b), VB (5), MsrOff (19:16), Pmc
 * (26:24), the other bits #GP; BRS_FROM_n/BRS_TO_n (C001_0300H + 2n,
 * + 2n + 1). While BrsMEn is set, the overflow of counter Pmc arms it and
 * holds the PMI; the next 16 taken branches are written at MsrOff, VB
 * set; the 16th clears BrsMEn, MsrOff wraps to 0 and the PMI comes.
 */
#define BRS_MEN BIT(2)
#define BRS_SBO (3u << 3)	/* bits 4:3: reserved, written 11b */
#define BRS_VB BIT(5)
#define BRS_OFF(n) ((u32)(n) << 16)
#define BRS_PMC(n) ((u32)(n) << 24)
#define BRS_POISON 0xfffffffffffffffeull

/* entries: FROM 0, TO the poison (a stale entry, as a driver marks it) */
static void brs_reset(void)
{
	u32 x;

	for (x = 0; x < A_LBR_NR; x++) {
		wrmsr(A_LBR_FROM(x), 0);
		wrmsr(A_LBR_TO(x), BRS_POISON);
	}
}

/*
 * entries 0..n-1 are JMPs first..first+n-1 of branch_block (from 1), in
 * order; the others as brs_reset() left them
 */
static void brs_check_jmps(u32 first, u32 n, const char *what)
{
	u32 x;
	u64 f = 0, t = 0, wf = 0, wt = 0;

	for (x = 0; x < A_LBR_NR; x++) {
		f = rdmsr(A_LBR_FROM(x));
		t = rdmsr(A_LBR_TO(x));
		wf = x < n ? (u32)branch_block_jmps + 2 * (first - 1 + x) : 0;
		wt = x < n ? wf + 2 : BRS_POISON;
		if (f != wf || t != wt)
			break;
	}
	report(x == A_LBR_NR, what);
	if (x < A_LBR_NR) {
		note("first wrong entry: ", x);
		puts("#   from "); puthex(f); puts(" to "); puthex(t); puts("\n");
		puts("#   want from "); puthex(wf); puts(" to "); puthex(wt); puts("\n");
	}
}

/* counter ctr on taken branches (0xC4) written -k, started by branch_block */
static void brs_run(u32 ctr, u32 k, u32 cfg)
{
	pmi_setup(0, F15_CTR(ctr), 0);
	nmi_x_msr = A_DBG_EXTN_CFG;
	wrmsr(F15_CTR(ctr), -(u64)k & MASK48);
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO);		/* MsrOff, VB 0 */
	wrmsr(A_DBG_EXTN_CFG, cfg);
	branch_block(F15_SEL(ctr), 0xc4 | USR | OS | INT | EN, 0);
}

static void test_brs(void)
{
	static const u32 ks[] = { 1, 7, 16 };
	u32 a, b, c, d, i, k, off;
	u64 v, skid;

	cpuid(0x80000008, &a, &b, &c, &d);
	eq(b >> 31, 1, "brs: CPUID 8000_0008H EBX[31] BRS");
	eq(rdmsr(A_DBG_EXTN_CFG), 0, "brs: DBG_EXTN_CFG after RESET: 0");
	v = 0;
	for (i = 0; i < A_LBR_NR; i++)
		v |= rdmsr(A_LBR_FROM(i)) | rdmsr(A_LBR_TO(i));
	report(!v && !fault, "brs: BRS_FROM/BRS_TO 0-15 after RESET: 0, no #GP");

	/* the fields written and read back; reserved bits #GP */
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO);
	eq(rdmsr(A_DBG_EXTN_CFG), BRS_SBO, "brs: DBG_EXTN_CFG bits 4:3 written 11b, read back");
	v = BRS_SBO | BRS_VB | BRS_OFF(9) | BRS_PMC(5);
	wrmsr(A_DBG_EXTN_CFG, v);
	report(!fault && rdmsr(A_DBG_EXTN_CFG) == v,
	       "brs: DBG_EXTN_CFG VB, MsrOff 9, Pmc 5 written, read back");
	wrmsr(A_DBG_EXTN_CFG, 0);
	wrmsr(A_DBG_EXTN_CFG, BIT(0)); gp(1, "brs: DBG_EXTN_CFG bit 0 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT(6)); gp(1, "brs: DBG_EXTN_CFG bit 6 (LBRV2EN: not on Zen 3) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT(15)); gp(1, "brs: DBG_EXTN_CFG bit 15 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT(20)); gp(1, "brs: DBG_EXTN_CFG bit 20 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT(27)); gp(1, "brs: DBG_EXTN_CFG bit 27 (reserved) #GP");
	wrmsr(A_DBG_EXTN_CFG, BIT_ULL(63) | BRS_MEN);
	gp(1, "brs: DBG_EXTN_CFG bit 63 (reserved) #GP");
	eq(rdmsr(A_DBG_EXTN_CFG), 0, "brs: DBG_EXTN_CFG unchanged by the faulting writes");
	wrmsr(A_LBR_FROM(3), 0xffffffff81234567ull);
	wrmsr(A_LBR_TO(3), BRS_POISON);
	report(!fault, "brs: BRS_FROM_3, BRS_TO_3 written");
	eq(rdmsr(A_LBR_FROM(3)), 0xffffffff81234567ull, "brs: BRS_FROM_3 (C001_0306H) reads back");
	eq(rdmsr(A_LBR_TO(3)), BRS_POISON, "brs: BRS_TO_3 (C001_0307H): the poison reads back");
	wrmsr(A_LBR_FROM(15), 0x15); wrmsr(A_LBR_TO(15), 0x16);
	eq(rdmsr(A_LBR_FROM(15)) + rdmsr(A_LBR_TO(15)), 0x2b,
	   "brs: BRS_FROM_15, BRS_TO_15 (C001_031EH, C001_031FH) written, read back");

	/* without BrsMEn: nothing recorded, the PMI at the overflow */
	brs_reset();
	brs_run(0, 7, BRS_SBO);
	wrmsr(F15_SEL(0), 0);
	report(nmis == 1 && nmi_eip == (u32)branch_block_jmps + 2 * 7,
	       "brs: BrsMEn clear: the PMI at the overflow (JMP 7), at JMP 8");
	brs_check_jmps(0, 0, "brs: BrsMEn clear: nothing recorded");
	eq(nmi_x, BRS_SBO, "brs: BrsMEn clear: DBG_EXTN_CFG at the PMI as written");
	/* the taken branches counted between the PMI and the handler's RDMSR */
	skid = nmi_ctr;
	report(skid < 16, "brs: BrsMEn clear: the counter small at the PMI");
	note("taken branches from the PMI to the handler's RDMSR: ", skid);

	/*
	 * BrsMEn, Pmc 0: PMC0 overflows at the kth JMP, the PMI is held; JMPs
	 * k+1..k+16 are recorded, entry 0 the oldest; at the 16th BrsMEn is
	 * cleared, MsrOff wraps to 0, VB is set and the PMI comes right after
	 * it; the counter counted on: 16 more than at a PMI at the overflow.
	 */
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		k = ks[i];
		brs_reset();
		brs_run(0, k, BRS_SBO | BRS_MEN | BRS_PMC(0));
		report(nmis == 1 && nmi_eip == (u32)branch_block_jmps + 2 * (k + 16),
		       k == 1 ? "brs: overflow at JMP 1: one PMI, after JMP 17 (16 more)" :
		       k == 7 ? "brs: overflow at JMP 7: one PMI, after JMP 23 (16 more)" :
		       "brs: overflow at JMP 16: one PMI, after JMP 32 (16 more)");
		if (nmis != 1 || nmi_eip != (u32)branch_block_jmps + 2 * (k + 16)) {
			note("PMIs: ", nmis);
			note("at JMP + ", nmi_eip - (u32)branch_block_jmps);
		}
		eq(nmi_x, BRS_SBO | BRS_VB,
		   k == 1 ? "brs: at the PMI (k=1): BrsMEn 0, MsrOff 0, VB 1" :
		   k == 7 ? "brs: at the PMI (k=7): BrsMEn 0, MsrOff 0, VB 1" :
		   "brs: at the PMI (k=16): BrsMEn 0, MsrOff 0, VB 1");
		eq(nmi_ctr, 16 + skid,
		   k == 1 ? "brs: counter at the PMI (k=1): P + 16 since written -P" :
		   k == 7 ? "brs: counter at the PMI (k=7): P + 16 since written -P" :
		   "brs: counter at the PMI (k=16): P + 16 since written -P");
		brs_check_jmps(k + 1, 16,
			       k == 1 ? "brs: entries 0-15: JMPs 2-17 exact, oldest first" :
			       k == 7 ? "brs: entries 0-15: JMPs 8-23 exact, oldest first" :
			       "brs: entries 0-15: JMPs 17-32 exact, oldest first");
		eq(rdmsr(A_DBG_EXTN_CFG), BRS_SBO | BRS_VB,
		   "brs: after the block: BrsMEn still 0, nothing more recorded");
	}

	/*
	 * Held PMI: PMC0 overflows at JMP 26, 6 JMPs recorded, then the block
	 * disables the counter (the PMI stays held) and returns (its RET and
	 * what follows are recorded too: BRS has no filter); clearing BrsMEn
	 * (and only it, as a driver does: what it read of MsrOff and VB
	 * written back) delivers the PMI.
	 */
	brs_reset();
	brs_run(0, 26, BRS_SBO | BRS_MEN | BRS_PMC(0));
	k = nmis;
	v = rdmsr(A_DBG_EXTN_CFG);
	wrmsr(A_DBG_EXTN_CFG, v & ~BRS_MEN);
	eq(k, 0, "brs: counter disabled before 16 branches: the PMI stays held");
	eq(nmis, 1, "brs: clearing BrsMEn delivers the held PMI");
	off = (v >> 16) & 0xf;
	report((v & ~(u64)(0xf << 16)) == (BRS_SBO | BRS_MEN | BRS_VB) && off > 6 &&
	       nmi_x == (v & ~BRS_MEN),
	       "brs: held: BrsMEn, VB, MsrOff past the 6 JMPs; at the PMI as written");
	note("entries written when DBG_EXTN_CFG was read: ", off);
	v = rdmsr(A_LBR_FROM(6));
	report(v > (u32)branch_block_jmps + 62 && v < (u32)branch_block_jmps + 80,
	       "brs: entry 6: the RET of the block, after the 32nd JMP");
	for (i = 6; i < A_LBR_NR; i++) {
		wrmsr(A_LBR_FROM(i), 0);
		wrmsr(A_LBR_TO(i), BRS_POISON);
	}
	brs_check_jmps(27, 6, "brs: entries 0-5: JMPs 27-32; the poison left in the others");

	/* Pmc 1: PMC1 arms it; PMC0's overflow raises its PMI as usual */
	brs_reset();
	brs_run(1, 7, BRS_SBO | BRS_MEN | BRS_PMC(1));
	report(nmis == 1 && nmi_eip == (u32)branch_block_jmps + 2 * 23 &&
	       nmi_x == (BRS_SBO | BRS_VB | BRS_PMC(1)),
	       "brs: Pmc 1: PMC1's overflow at JMP 7 arms it, PMI after JMP 23");
	if (nmis != 1 || nmi_eip != (u32)branch_block_jmps + 2 * 23) {
		note("PMIs: ", nmis);
		note("at JMP + ", nmi_eip - (u32)branch_block_jmps);
	}
	brs_check_jmps(8, 16, "brs: Pmc 1: entries 0-15 JMPs 8-23");
	brs_reset();
	brs_run(0, 7, BRS_SBO | BRS_MEN | BRS_PMC(1));
	v = rdmsr(A_DBG_EXTN_CFG);
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO);
	report(nmis == 1 && nmi_eip == (u32)branch_block_jmps + 2 * 7 &&
	       nmi_x == (BRS_SBO | BRS_MEN | BRS_PMC(1)) && v == nmi_x,
	       "brs: Pmc 1: PMC0's overflow is not held: its PMI at JMP 8, BRS not armed");
	brs_check_jmps(0, 0, "brs: Pmc 1: PMC0's overflow: nothing recorded");
	/* without INT the overflow arms nothing */
	brs_reset();
	pmi_setup(0, F15_CTR(0), 0);
	wrmsr(F15_CTR(0), -7ull & MASK48);
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO | BRS_MEN);
	branch_block(F15_SEL(0), 0xc4 | USR | OS | EN, 0);
	v = rdmsr(A_DBG_EXTN_CFG);
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO);
	report(!nmis && v == (BRS_SBO | BRS_MEN), "brs: a counter without INT does not arm it");
	brs_check_jmps(0, 0, "brs: a counter without INT: nothing recorded");

	/*
	 * Far transfers, at any CPL: an OS-only counter overflows at the IRET
	 * to CPL 3 (not recorded: it armed BRS); then the LOOPs taken at CPL 3
	 * and the INT $0x80 back to CPL 0 are recorded.
	 */
	brs_reset();
	pmi_setup(0, F15_CTR(0), 0);
	wrmsr(F15_CTR(0), -1ull & MASK48);
	wrmsr(A_DBG_EXTN_CFG, BRS_SBO | BRS_MEN);
	run_user(F15_SEL(0), 0xc4 | OS | INT | EN, 0, 3);
	k = nmis;
	wrmsr(A_DBG_EXTN_CFG, rdmsr(A_DBG_EXTN_CFG) & ~BRS_MEN);
	report(!k && nmis == 1, "brs: overflow at IRET to CPL 3: PMI held, delivered at the clear");
	report(rdmsr(A_LBR_FROM(0)) == (u32)user_entry + 2 &&
	       rdmsr(A_LBR_TO(0)) == (u32)user_entry + 2 &&
	       rdmsr(A_LBR_FROM(1)) == (u32)user_entry + 2 &&
	       rdmsr(A_LBR_TO(1)) == (u32)user_entry + 2 &&
	       rdmsr(A_LBR_FROM(2)) == (u32)user_entry + 4 &&
	       rdmsr(A_LBR_TO(2)) == (u32)int80_entry,
	       "brs: the IRET not recorded; the 2 LOOPs at CPL 3, the INT $0x80 to CPL 0");
	wrmsr(F15_SEL(0), 0);
	brs_reset();
	wrmsr(A_DBG_EXTN_CFG, 0);
	for (i = 0; i < A_LBR_NR; i++) {
		wrmsr(A_LBR_FROM(i), 0);
		wrmsr(A_LBR_TO(i), 0);
	}
}

/* without brs=on: no CPUID bit; without LbrExtV2 too, no MSRs */
static void test_brs_absent(int lbrv2)
{
	u32 a, b, c, d;
	u32 gps = 0, i;

	cpuid(0x80000008, &a, &b, &c, &d);
	eq(b >> 31, 0, "brs=off: CPUID 8000_0008H EBX[31] (BRS) clear");
	if (lbrv2) {
		/* Zen 4: DBG_EXTN_CFG is LbrExtV2's, where BrsMEn is reserved */
		wrmsr(A_DBG_EXTN_CFG, BIT(2));
		gp(1, "brs=off, LbrExtV2: DBG_EXTN_CFG bit 2 (BrsMEn) #GP");
		return;
	}
	rdmsr(A_DBG_EXTN_CFG); gps += fault == 13;
	wrmsr(A_DBG_EXTN_CFG, BIT(2)); gps += fault == 13;
	for (i = 0; i < 2 * A_LBR_NR; i += 9) {
		rdmsr(A_LBR_FROM(0) + i); gps += fault == 13;
		wrmsr(A_LBR_FROM(0) + i, 0); gps += fault == 13;
	}
	eq(gps, 10, "brs=off: RDMSR and WRMSR of DBG_EXTN_CFG, C001_0300H-C001_031FH #GP");
}

static void test_amd(void)
{
	u32 a, b, c, d, xlevel, i, n, v2 = 0, core, ncore = 0, lbrv2 = 0;
	u32 e22a = 0, e22b = 0;
	u32 ctl, on;
	/* 0xC2, 0xD1 (conditional), 0xC3 (mispredicted) */
	struct br_pmu amd_br = {
		.sel = K7_SEL0, .ctr = K7_CTR0, .br = 0xc2, .cbr = 0xd1, .miss = 0xc3,
	};

	cpuid(0x80000000, &xlevel, &b, &c, &d);
	cpuid(0x80000001, &a, &b, &c, &d);
	core = (c >> 23) & 1;
	if (core && xlevel >= 0x80000022) {
		cpuid(0x80000022, &a, &b, &c, &d);
		v2 = a & 1;
		ncore = b & 0xf;
		lbrv2 = v2 && (a & 2);
		e22a = a;
		e22b = b;
		puts("# cpuid 0x80000022: eax="); puthex(a); puts(" ebx="); puthex(b); puts("\n");
	}
	n = core ? 6 : 4;
	note("PerfCtrExtCore: ", core);
	note("PerfMonV2: ", v2);
	if (ident == ID_ZEN3 || ident == ID_ZEN4) {
		eq(core, 1, "identity: PerfCtrExtCore (CPUID 8000_0001H:ECX[23])");
		eq(v2, ident == ID_ZEN4, "identity: PerfMonV2 on Zen 4, not on Zen 3");
		eq(lbrv2, ident == ID_ZEN4, "identity: LbrExtV2 on Zen 4, not on Zen 3");
	} else {
		eq(lbrv2, 0, "no LbrExtV2 but on a Zen 4 identity (CPUID 8000_0022H EAX[1])");
	}
	cpuid(0xa, &a, &b, &c, &d);
	eq(a, 0, "CPUID 0xA is 0 on AMD");
	if (v2) {
		eq(ncore, 6, "CPUID 0x80000022: 6 core counters");
		eq(rdmsr(A_GCTL), 0x3f, "PerfCntrGlobalCtl after RESET: all counters enabled");
		wrmsr(A_GCTL, 0);
	}
	/* with PerfMonV2 counting is started by GlobalCtl; else by EN */
	ctl = v2 ? A_GCTL : K7_SEL0;

	/* exact counts through the legacy MSRs */
	wrmsr(K7_SEL0, 0xc0 | USR | OS | (v2 ? EN : 0));
	wrmsr(K7_CTR0, 0);
	on = v2 ? 1 : (0xc0 | USR | OS | EN);
	measure(ctl, on, 0, 1000);
	eq(rdmsr(K7_CTR0), 1005, "PerfCtr0 (legacy MSR), event 0xC0: 1000 LOOPs count 1005");
	wrmsr(K7_CTR0, 0);
	measure(ctl, on, 0, 100000);
	eq(rdmsr(K7_CTR0), 100005, "PerfCtr0: 100000 LOOPs count 100005");
	eq(rdpmc(0), 100005, "RDPMC(0) == RDMSR");
	if (v2) {
		wrmsr(K7_SEL0 + 1, 0x76 | USR | OS | EN); wrmsr(K7_CTR0 + 1, 0);
		measure(A_GCTL, 2, 0, 1000);
		cycles_eq(rdmsr(K7_CTR0 + 1), 1005,
			  "event 0x76 (cycles): one per instruction under icount",
			  "event 0x76 (cycles): counts");
		wrmsr(K7_SEL0 + 1, 0);
	}
	rdpmc(n); gp(1, "RDPMC past the last counter #GP");
	wrmsr(K7_CTR0 + 2, 0xffff123456789abcull);
	eq(rdmsr(K7_CTR0 + 2), 0x123456789abcull, "PerfCtr write keeps 48 bits");
	eq(rdpmc(2), 0x123456789abcull, "RDPMC(2) == RDMSR");
	if (core) {
		eq(rdmsr(F15_CTR(2)), 0x123456789abcull, "PerfCtr2 aliases MSR C001_0205");
		wrmsr(F15_SEL(3), 0x1234c0);
		eq(rdmsr(K7_SEL0 + 3), 0x1234c0, "PerfEvtSel3 aliases MSR C001_0206");
		wrmsr(F15_SEL(3), 0);
		for (i = 4; i < 6; i++) {
			wrmsr(F15_SEL(i), 0xc0 | USR | OS | (v2 ? EN : 0));
			wrmsr(F15_CTR(i), 0);
			if (v2)
				measure(A_GCTL, BIT(i), 0, 1000);
			else
				measure(F15_SEL(i), 0xc0 | USR | OS | EN, 0, 1000);
			eq(rdmsr(F15_CTR(i)), 1005,
			   i == 4 ? "extended counter 4: 1005" : "extended counter 5: 1005");
			eq(rdpmc(i), 1005, i == 4 ? "RDPMC(4) == RDMSR" : "RDPMC(5) == RDMSR");
			wrmsr(F15_SEL(i), 0);
		}
		rdmsr(F15_CTR(6)); gp(1, "RDMSR C001_020D (counter 6) #GP");
		wrmsr(F15_SEL(6), 0); gp(1, "WRMSR C001_020C (counter 6) #GP");
	} else {
		rdmsr(F15_CTR(0)); gp(1, "no PerfCtrExtCore: RDMSR C001_0201 #GP");
	}
	if (v2) {
		wrmsr(K7_CTR0, 0);
		wrmsr(K7_SEL0, 0xc0 | USR | OS | EN);
		measure(A_GCTL, 2, 0, 1000);
		eq(rdmsr(K7_CTR0), 0, "GlobalCtl gates: counter 0 not enabled there, no count");
		wrmsr(K7_SEL0, 0xc0 | USR | OS);
		measure(A_GCTL, 1, 0, 1000);
		eq(rdmsr(K7_CTR0), 0, "PerfEvtSel.En gates: no count without it");
		/* AMD ignores writes to reserved bits and read-only MSRs */
		wrmsr(A_GSTATUS, 1);
		report(!fault && rdmsr(A_GSTATUS) == 0,
		       "WRMSR PerfCntrGlobalStatus (read-only): ignored, no #GP");
		wrmsr(A_GCTL, 0x41);
		report(!fault && rdmsr(A_GCTL) == 1,
		       "WRMSR PerfCntrGlobalCtl bit 6 (reserved): dropped, no #GP");
		wrmsr(A_GCTL, 0);
		wrmsr(A_GSET, 0x21);
		eq(rdmsr(A_GSTATUS), 0x21, "PerfCntrGlobalStatusSet sets bits");
		wrmsr(A_GCLR, 0x1);
		eq(rdmsr(A_GSTATUS), 0x20, "PerfCntrGlobalStatusClr clears bits");
		wrmsr(A_GCLR, ~0ull);
		report(!fault && rdmsr(A_GSTATUS) == 0,
		       "PerfCntrGlobalStatusClr of every bit (as Linux does): no #GP");
		wrmsr(A_GSET, 1u << 6);
		report(!fault && rdmsr(A_GSTATUS) == 0,
		       "PerfCntrGlobalStatusSet bit 6 (reserved): dropped, no #GP");
	} else {
		rdmsr(A_GCTL); gp(1, "no PerfMonV2: RDMSR PerfCntrGlobalCtl #GP");
	}

	/* user/kernel filtering: 10 kernel instructions, n + 2 user ones */
	if (v2) {
		wrmsr(K7_SEL0, 0xc0 | USR | EN);
		wrmsr(K7_SEL0 + 1, 0xc0 | OS | EN);
		wrmsr(K7_SEL0 + 2, 0xc0 | USR | OS | EN);
		wrmsr(K7_CTR0, 0); wrmsr(K7_CTR0 + 1, 0); wrmsr(K7_CTR0 + 2, 0);
		run_user(A_GCTL, 7, 0, 5000);
		eq(rdmsr(K7_CTR0), 5002, "USR only: 5000 LOOPs at CPL 3 count 5002");
		eq(rdmsr(K7_CTR0 + 1), 10, "OS only: 10 (PUSH x5, IRET, MOV, XOR, XOR, WRMSR)");
		eq(rdmsr(K7_CTR0 + 2), 5012, "USR|OS: 5012");
		wrmsr(K7_CTR0, 0); wrmsr(K7_CTR0 + 1, 0); wrmsr(K7_CTR0 + 2, 0);
		run_user_fault(A_GCTL, 7, 0, 5000);
		eq(rdmsr(K7_CTR0), 5002, "faults at CPL 3 (UD2, RDMSR) do not retire: USR 5002");
		eq(rdmsr(K7_CTR0 + 1), 17,
		   "faults at CPL 3: OS counts the #UD and #GP handlers: 17");
		eq(rdmsr(K7_CTR0 + 2), 5019, "faults at CPL 3: USR|OS 5019");
		test_fast_syscalls(A_GCTL, 7, K7_CTR0, K7_CTR0 + 1, K7_CTR0 + 2);
		wrmsr(K7_SEL0 + 1, 0); wrmsr(K7_SEL0 + 2, 0);
	} else {
		/* started and stopped by PerfEvtSel0 itself */
		wrmsr(K7_CTR0, 0);
		run_user(K7_SEL0, 0xc0 | USR | EN, 0, 5000);
		eq(rdmsr(K7_CTR0), 5002, "USR only: 5000 LOOPs at CPL 3 count 5002");
		wrmsr(K7_CTR0, 0);
		run_user(K7_SEL0, 0xc0 | OS | EN, 0, 5000);
		eq(rdmsr(K7_CTR0), 10, "OS only: 10 (PUSH x5, IRET, MOV, XOR, XOR, WRMSR)");
		wrmsr(K7_CTR0, 0);
		run_user(K7_SEL0, 0xc0 | USR | OS | EN, 0, 5000);
		eq(rdmsr(K7_CTR0), 5012, "USR|OS: 5012");
	}

	/* overflow */
	pmi_setup(v2 ? A_GSTATUS : 0, K7_CTR0, v2 ? A_GCLR : 0);
	wrmsr(K7_CTR0, -1000ull & MASK48);
	wrmsr(K7_SEL0, 0xc0 | USR | OS | INT | (v2 ? EN : 0));
	measure(ctl, v2 ? 1 : (0xc0 | USR | OS | INT | EN), 0, 5000);
	eq(nmis, 1, "overflow: one PMI, delivered as NMI");
	if (v2)
		eq(nmi_status, 1, "overflow: PerfCntrGlobalStatus bit 0 at the PMI");
	report(!(nmi_lvtpc & 0x10000), "PMI delivery leaves LVTPC unmasked (AMD)");
	report(nmi_ctr < 64, "PMI comes at the overflow (counter small at the NMI)");
	if (v2)
		eq(rdmsr(A_GSTATUS), 0, "PerfCntrGlobalStatusClr from the handler cleared it");
	pmi_setup(v2 ? A_GSTATUS : 0, K7_CTR0, v2 ? A_GCLR : 0);
	wrmsr(K7_CTR0, -2500ull & MASK48);
	wrmsr(K7_SEL0, 0xc0 | USR | INT | (v2 ? EN : 0));
	if (v2)
		run_user(A_GCTL, 1, 0, 5000);
	else
		run_user(K7_SEL0, 0xc0 | USR | INT | EN, 0, 5000);
	eq(nmis, 1, "overflow at CPL 3: one PMI");
	eq(nmi_cs & 3, 3, "the PMI interrupted CPL 3");
	eq(rdmsr(K7_CTR0), 2502, "USR-only count exact across the PMI: 5002 - 2500");
	/* a PMI due at IRET and at SYSCALL (see test_intel()) */
	pmi_setup(v2 ? A_GSTATUS : 0, K7_CTR0, v2 ? A_GCLR : 0);
	wrmsr(K7_CTR0, -6ull & MASK48);
	wrmsr(K7_SEL0, 0xc0 | OS | INT | (v2 ? EN : 0));
	if (v2) {
		wrmsr(K7_CTR0 + 1, 0); wrmsr(K7_SEL0 + 1, 0xc0 | USR | EN);
		wrmsr(K7_CTR0 + 2, 0); wrmsr(K7_SEL0 + 2, 0xc0 | OS | EN);
		run_user(A_GCTL, 7, 0, 5000);
	} else {
		run_user(K7_SEL0, 0xc0 | OS | INT | EN, 0, 5000);
	}
	eq(nmis, 1, "overflow at IRET to CPL 3 (OS only): one PMI");
	if (v2)
		eq(nmi_status, 1, "overflow at IRET: PerfCntrGlobalStatus bit 0 at the PMI");
	eq(nmi_cs & 3, 3, "overflow at IRET: the PMI comes after it, at CPL 3");
	if (v2) {
		eq(rdmsr(K7_CTR0), rdmsr(K7_CTR0 + 2) - 6,
		   "overflow at IRET: OS count exact (the other OS counter's - 6)");
		eq(rdmsr(K7_CTR0 + 1), 5002, "overflow at IRET: USR count exact, 5002");
		wrmsr(K7_SEL0 + 1, 0); wrmsr(K7_SEL0 + 2, 0);
	}
	syscall_setup();
	pmi_setup(v2 ? A_GSTATUS : 0, K7_CTR0, v2 ? A_GCLR : 0);
	wrmsr(K7_CTR0, -5002ull & MASK48);
	wrmsr(K7_SEL0, 0xc0 | USR | INT | (v2 ? EN : 0));
	if (v2)
		run_user_sysret(A_GCTL, 1, 0, 5000);
	else
		run_user_sysret(K7_SEL0, 0xc0 | USR | INT | EN, 0, 5000);
	eq(nmis, 1, "overflow at SYSCALL (USR only): one PMI");
	if (v2)
		eq(nmi_status, 1, "overflow at SYSCALL: PerfCntrGlobalStatus bit 0 at the PMI");
	eq(nmi_cs & 3, 0, "overflow at SYSCALL: the PMI comes after it, at CPL 0");
	eq(rdmsr(K7_CTR0), 0, "overflow at SYSCALL: USR count exact, wrapped to 0");
	/* the PMI right at the overflow */
	if (v2)
		test_pmi_at("PerfCtr0", A_GCTL, 1, 0, K7_SEL0, 0xc0 | USR | OS | INT | EN,
			    K7_CTR0, A_GSTATUS, A_GCLR);
	else
		test_pmi_at("PerfCtr0", K7_SEL0, 0xc0 | USR | OS | INT | EN, 0, K7_SEL0,
			    0xc0 | USR | OS | INT, K7_CTR0, 0, 0);

	wrmsr(K7_SEL0, 0xc0 | USR | OS | (v2 ? EN : 0));
	wrmsr(K7_CTR0, 0);
	test_other_cpu(ctl, on, K7_CTR0);
	wrmsr(K7_SEL0, 0);
	if (v2)
		wrmsr(A_GCTL, 0);
	/* without PerfMonV2 no global control or status: EN starts it */
	amd_br.gctl = v2 ? A_GCTL : 0;
	amd_br.status = v2 ? A_GSTATUS : 0;
	amd_br.ack = v2 ? A_GCLR : 0;
	test_branches(&amd_br);
	/* 0xC4: taken branches (patch 0022) */
	{
		u32 s[2];
		u64 g[2];

		s[0] = 0xc4 | USR | OS | EN;
		s[1] = 0xc2 | USR | OS | EN;
		br_count(&amd_br, s, 2, measure, 1000, g);
		eq(g[0], 999, "event 0xC4: 1000 LOOPs, 999 taken");
		eq(g[1], 1000, "event 0xC4: with 0xC2 beside it counting 1000");
		br_count(&amd_br, s, 2, branch_mix, 1000, g);
		eq(g[0], 4999, "event 0xC4: JMP, CALL, JMP *, RET, JNZ but the last x 1000: 4999");
		eq(g[1], 7000, "event 0xC4: with 0xC2 beside it counting 7000");
		s[0] = 0xc4 | USR | EN;
		s[1] = 0xc4 | OS | EN;
		br_count(&amd_br, s, 2, run_user, 5000, g);
		eq(g[0], 5000, "event 0xC4: USR only, 4999 LOOPs taken and the INT at CPL 3: 5000");
		eq(g[1], 1, "event 0xC4: OS only, the IRET to CPL 3: 1");
	}
	if (lbrv2)
		test_amd_lbr(e22a, e22b);
	if (ibs)
		test_ibs();
	else
		test_ibs_absent();
	if (ident == ID_ZEN3)
		eq(brs, 1, "identity: zen3 is run with brs=on (\"brs\" on the command line)");
	if (brs)
		test_brs();
	else
		test_brs_absent(lbrv2);
	cpuid(0, &a, &b, &c, &d);
	test_no_arch_lbr(a);
	test_no_pebs("AMD", 0);
}

/* w is one of the space-separated words of s */
static int has_word(const char *s, const char *w)
{
	const char *p, *q;

	for (p = s; *p; p++) {
		if (p != s && p[-1] != ' ')
			continue;
		for (q = w; *q && p[q - w] == *q; q++)
			;
		if (!*q && (p[q - w] == ' ' || !p[q - w]))
			return 1;
	}
	return 0;
}

void main(void)
{
	u32 a, b, c, d, *mbi;
	u64 *t = &tss_desc;

	setgate(1, db_entry, 0);
	setgate(2, nmi_entry, 0);
	setgate(6, ud_entry, 0);
	setgate(13, gp_entry, 0);
	setgate(0x80, int80_entry, 3);
	setgate(0x81, int81_entry, 3);
	setgate(0x82, int82_entry, 0);
	setgate(0x40, timer_entry, 0);
	setgate(0x41, eilvt_entry, 0);
	idtr[0] = sizeof(idt) - 1;
	idtr[1] = (u32)idt;
	idtr[2] = (u32)idt >> 16;
	__asm__ volatile("lidt %0" :: "m"(idtr));
	tss[1] = (u32)kstack_top;		/* esp0 */
	tss[2] = 0x10;				/* ss0 */
	tss[25] = sizeof(tss) << 16;		/* no I/O bitmap */
	*t = (sizeof(tss) - 1) | (((u64)(u32)tss & 0xffffff) << 16) |
	     (0x89ull << 40) | ((u64)((u32)tss >> 24) << 56);
	__asm__ volatile("ltr %w0" :: "r"(0x28));
	out8(0x21, 0xff);			/* 8259s masked: SYSRET sets IF */
	out8(0xa1, 0xff);
	apic_write(0xf0, 0x1ff);		/* SVR: APIC enabled */
	start_ap();

	/* multiboot information: flags bit 2, the command line at +16 */
	mbi = (u32 *)mb_info;
	if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], "noicount"))
		icount = 0;
	if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], "nolbr"))
		nolbr = 1;
	if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], "nopebs"))
		nopebs = 1;
	if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], "ibs"))
		ibs = 1;
	if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], "brs"))
		brs = 1;
	for (a = 1; a < ARRAY_SIZE(ident_name); a++)
		if (mbi && (mbi[0] & BIT(2)) && has_word((char *)mbi[4], ident_name[a]))
			ident = a;
	if (ident == ID_SKL)
		pmu_ver = 4;
	if (ident == ID_BDW || ident == ID_IVB) {
		pmu_ver = 3;
		nolbr = 1;			/* LBR_FMT 4, 3: test_bdw_lbr() */
	}
	if (ident == ID_ICL || ident == ID_SPR)
		ngp = 8;
	/* Skylake and Ice Lake have model-specific LBRs, no arch LBR */
	if (ident == ID_SKL || ident == ID_ICL) {
		nolbr = 1;
		legacy_lbr = 1;
	}
	puts("TAP version 13\n");
	if (ident) {
		u32 fam, model;

		cpuid(1, &a, &b, &c, &d);
		fam = (a >> 8) & 0xf;
		model = (a >> 4) & 0xf;
		if (fam == 0xf)
			fam += (a >> 20) & 0xff;
		if (fam == 6 || fam >= 0xf)
			model |= ((a >> 16) & 0xf) << 4;
		puts("# identity "); puts(ident_name[ident]); puts(": cpuid 1 eax=");
		puthex(a); puts("\n");
		eq(fam, ident_fm[ident][0], "identity: CPUID.01H display family");
		eq(model, ident_fm[ident][1], "identity: CPUID.01H display model");
		cpuid(1, &a, &b, &c, &d);
		puts("# cpuid 1: ecx="); puthex(c); puts(" edx="); puthex(d); puts("\n");
	}
	cpuid(0, &a, &b, &c, &d);
	puts(icount ? "# under -icount\n" : "# without icount\n");
	if (b == 0x756e6547) {			/* "Genu" */
		puts("# GenuineIntel\n");
		test_intel();
	} else if (b == 0x68747541) {		/* "Auth" */
		puts("# AuthenticAMD\n");
		test_amd();
	} else {
		report(0, "known vendor");
	}
	puts("1..");
	putdec(ntests);
	puts("\n");
	puts(nfailed ? "# FAIL\n" : "# PASS\n");
	out8(0xf4, nfailed ? 1 : 0);		/* isa-debug-exit: status 1 = pass */
}
