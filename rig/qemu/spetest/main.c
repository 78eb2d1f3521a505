// SPDX-License-Identifier: GPL-2.0
/*
 * spetest: conformance of the rig QEMU's Statistical Profiling Extension
 * model (rig/qemu/patches-arm64) against the Arm ARM, bare metal at EL1
 * (entered from EL2 when the board has virtualization=on) with the MMU
 * off, so buffer and data addresses are physical ones. TAP on the
 * PL011; the exit status (semihosting) is the number of failures.
 *
 * The model's choices the checks rely on (its documented behaviour, not
 * the architecture's): one A64 instruction is one operation; COUNT 0 at
 * an operation samples it and reloads COUNT; loads and stores have total
 * latency 4, other operations 1.
 */
#include "spetest.h"

#define PMSCR_EL1	s3_0_c9_c9_0
#define PMSICR_EL1	s3_0_c9_c9_2
#define PMSIRR_EL1	s3_0_c9_c9_3
#define PMSFCR_EL1	s3_0_c9_c9_4
#define PMSEVFR_EL1	s3_0_c9_c9_5
#define PMSLATFR_EL1	s3_0_c9_c9_6
#define PMSIDR_EL1	s3_0_c9_c9_7
#define PMBLIMITR_EL1	s3_0_c9_c10_0
#define PMBPTR_EL1	s3_0_c9_c10_1
#define PMBSR_EL1	s3_0_c9_c10_3
#define PMBIDR_EL1	s3_0_c9_c10_7
#define PMSCR_EL2	s3_4_c9_c9_0

#define E0SPE	BIT(0)
#define E1SPE	BIT(1)
#define CX	BIT(3)
#define PA	BIT(4)
#define TS	BIT(5)
#define PCT	BIT(6)

#define FE	BIT(0)
#define FT	BIT(1)
#define FL	BIT(2)
#define FB	BIT(16)
#define FLD	BIT(17)
#define FST	BIT(18)

#define PMBSR_S	BIT(17)

#define EV_EXC		BIT(0)
#define EV_RETIRED	BIT(1)
#define EV_L1D		BIT(2)
#define EV_TLB		BIT(4)
#define EV_NOT_TAKEN	BIT(6)

/* --- output ------------------------------------------------------------- */
#define UART 0x09000000ul	/* the virt board's PL011 */

static void putc(char c)
{
	if (c == '\n')
		putc('\r');
	while (mmio_read32(UART + 0x18) & BIT(5))	/* FR.TXFF */
		;
	mmio_write32(UART, c);
}

static void puts(const char *s)
{
	while (*s)
		putc(*s++);
}

static void putx(u64 v)
{
	char b[19];
	int i = 18;

	b[i] = 0;
	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	puts(b + i);
}

static void putu(u64 v)
{
	char b[21];
	int i = 20;

	b[i] = 0;
	do {
		b[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	puts(b + i);
}

static int tests, failed;

static void report(int cond, const char *name)
{
	tests++;
	if (!cond) {
		failed++;
		puts("not ");
	}
	puts("ok ");
	putu(tests);
	puts(" - ");
	puts(name);
	putc('\n');
}

static void note(const char *what, u64 v)
{
	puts("#   ");
	puts(what);
	puts(" ");
	putx(v);
	putc('\n');
}

void report_unexpected(u64 esr, u64 elr, u64 far)
{
	puts("not ok - unexpected exception: ESR ");
	putx(esr);
	puts(" ELR ");
	putx(elr);
	puts(" FAR ");
	putx(far);
	putc('\n');
}

/* --- records ------------------------------------------------------------ */
struct rec {
	u64 pc, va, pa, target, ts, ctx;
	int el, ns, cls, op, has_va, has_pa, has_target, has_ts, has_ctx;
	u32 events, lat;
};

#define MAXREC 64
static struct rec recs[MAXREC];
static int nrec, parse_err;

static u64 le(const u8 *p, int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Decode the buffer from @start to PMBPTR_EL1 into recs[] */
static void parse(const u8 *start, const u8 *end)
{
	const u8 *p = start;
	struct rec *r = &recs[0];

	nrec = 0;
	parse_err = 0;
	for (int i = 0; i < MAXREC; i++)
		recs[i] = (struct rec){ 0 };
	while (p < end && nrec < MAXREC) {
		u8 h = *p++;
		u64 v;

		if (h == 0x00)		/* padding */
			continue;
		if (h == 0x01) {	/* End */
			r = &recs[++nrec];
			continue;
		}
		if (h == 0x71) {	/* timestamp: ends the record too */
			r->ts = le(p, 8);
			r->has_ts = 1;
			p += 8;
			r = &recs[++nrec];
			continue;
		}
		if ((h & 0xf8) == 0xb0) {	/* address */
			v = le(p, 8);
			p += 8;
			switch (h & 7) {
			case 0:
				r->pc = v & ((1ul << 56) - 1);
				r->el = (v >> 61) & 3;
				r->ns = v >> 63;
				break;
			case 1:
				r->target = v & ((1ul << 56) - 1);
				r->has_target = 1;
				break;
			case 2:
				r->va = v;
				r->has_va = 1;
				break;
			case 3:
				r->pa = v;
				r->has_pa = 1;
				break;
			}
			continue;
		}
		if ((h & 0xf8) == 0x98) {	/* counter */
			if ((h & 7) == 0)
				r->lat = le(p, 2);
			p += 2;
			continue;
		}
		if ((h & 0xfc) == 0x48) {	/* operation type */
			r->cls = h & 3;
			r->op = *p++;
			continue;
		}
		if ((h & 0xcf) == 0x42) {	/* events */
			int n = 1 << ((h >> 4) & 3);

			r->events = le(p, n);
			p += n;
			continue;
		}
		if ((h & 0xfc) == 0x64) {	/* context */
			r->ctx = le(p, 4);
			r->has_ctx = 1;
			p += 4;
			continue;
		}
		parse_err = 1;
		note("unknown packet header", h);
		return;
	}
	if (p != end)
		parse_err = 1;
}

/* the profiling buffers: free RAM above the image (link.ld) */
#define BUF_SIZE 16384
static u8 * const buf = (u8 *)0x40800000;
static u8 * const fullbuf = (u8 *)0x40810000;
static u64 ld_area[512], st_area[512];

/* Start a run: buffer at buf, counter at 0, filters @fcr */
static void setup(u64 interval, u64 fcr, u64 evfr, u64 lat)
{
	write_sysreg(0, PMSCR_EL1);
	write_sysreg(0, PMBSR_EL1);
	write_sysreg(interval, PMSIRR_EL1);
	write_sysreg(0, PMSICR_EL1);
	write_sysreg(fcr, PMSFCR_EL1);
	write_sysreg(evfr, PMSEVFR_EL1);
	write_sysreg(lat, PMSLATFR_EL1);
	write_sysreg((u64)buf, PMBPTR_EL1);
	write_sysreg(((u64)buf + BUF_SIZE) | 1, PMBLIMITR_EL1);
	isb();
}

static void collect(void)
{
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	parse(buf, (u8 *)read_sysreg(PMBPTR_EL1));
}

/* mix_block: what the sample at mix_ops[j] must look like */
static int mix_check(const struct rec *r, u64 j, int what)
{
	u64 pc = (u64)mix_ops + 4 * j, g = j / 5;

	if (r->pc != pc)
		return 0;
	switch (j % 5) {
	case 0:		/* LDR x3, [x2], #8 */
		if (what == 0)
			return r->has_va && r->va == (u64)&ld_area[g];
		if (what == 1)
			return r->cls == 1 && r->op == 0;
		if (what == 2)
			return r->events == (EV_RETIRED | EV_L1D | EV_TLB);
		return !r->has_target;
	case 1:		/* STR x3, [x4], #8 */
		if (what == 0)
			return r->has_va && r->va == (u64)&st_area[g];
		if (what == 1)
			return r->cls == 1 && r->op == 1;
		if (what == 2)
			return r->events == (EV_RETIRED | EV_L1D | EV_TLB);
		return !r->has_target;
	case 2:		/* B to the next instruction */
		if (what == 0)
			return !r->has_va;
		if (what == 1)
			return r->cls == 2 && r->op == 0;
		if (what == 2)
			return r->events == EV_RETIRED;
		return r->has_target && r->target == pc + 4;
	case 3:		/* NOP */
		if (what == 0)
			return !r->has_va;
		if (what == 1)
			return r->cls == 0 && r->op == 0;
		if (what == 2)
			return r->events == EV_RETIRED;
		return !r->has_target;
	default:	/* CBNZ XZR: conditional, not taken */
		if (what == 0)
			return !r->has_va;
		if (what == 1)
			return r->cls == 2 && r->op == 1;
		if (what == 2)
			return r->events == (EV_RETIRED | EV_NOT_TAKEN);
		return !r->has_target;
	}
}

/*
 * The mix block under a filter: the counter runs on, so samples are at
 * mix_ops[256k - 1] (k = 1..10) whatever is filtered, the ISB first; a
 * record must be there exactly for the kinds @keep (bit per j % 5).
 */
static int mix_filtered(u64 fcr, u64 evfr, u64 lat, u32 keep, int keep_isb)
{
	int i = 0, good = 1;

	setup(256, fcr, evfr, lat);
	mix_block(E1SPE, 0, ld_area, 0, st_area);
	collect();
	if (keep_isb) {
		good &= recs[0].pc == (u64)mix_ops - 4;
		i = 1;
	}
	for (u64 k = 1; k <= 10; k++) {
		u64 j = 256 * k - 1;

		if (!(keep & BIT(j % 5)))
			continue;
		good &= i < nrec && mix_check(&recs[i], j, 0) &&
			mix_check(&recs[i], j, 1);
		i++;
	}
	if (!good || i != nrec || parse_err)
		note("records", nrec);
	return good && i == nrec && !parse_err;
}

/* --- the buffer management interrupt through the GICv3 --------------- */
#define GICD		0x08000000ul
#define GICR_SGI	(0x080a0000ul + 0x10000)	/* CPU 0's SGI/PPI frame */
#define ICC_IAR1_EL1	s3_0_c12_c12_0
#define ICC_EOIR1_EL1	s3_0_c12_c12_1
#define ICC_SRE_EL1	s3_0_c12_c12_5
#define ICC_IGRPEN1_EL1	s3_0_c12_c12_7
#define ICC_PMR_EL1	s3_0_c4_c6_0
#define ICC_SRE_EL2	s3_4_c12_c9_5
#define PMBIRQ		21

static u64 irq_intid = 1023, irq_pmbsr, irq_pmbptr;
static int irqs;

/* PMBIRQ: what the buffer said, then stop it and clear S */
void irq_handler(void)
{
	u64 intid = read_sysreg(ICC_IAR1_EL1) & 0xffffff;

	irqs++;
	irq_intid = intid;
	irq_pmbsr = read_sysreg(PMBSR_EL1);
	irq_pmbptr = read_sysreg(PMBPTR_EL1);
	/* no room: the buffer off, else it fills again at once */
	write_sysreg(0, PMBLIMITR_EL1);
	write_sysreg(0, PMBSR_EL1);
	isb();
	write_sysreg(intid, ICC_EOIR1_EL1);
	isb();
}

static void gic_init(void)
{
	/* affinity routing, group 1 (one security state: no EL3) */
	mmio_write32(GICD, BIT(4) | BIT(1) | BIT(0));
	/* wake redistributor 0 */
	mmio_write32(GICR_SGI - 0x10000 + 0x14, 0);
	while (mmio_read32(GICR_SGI - 0x10000 + 0x14) & BIT(2))
		;
	mmio_write32(GICR_SGI + 0x80, BIT(PMBIRQ));	/* IGROUPR0: group 1 */
	mmio_write32(GICR_SGI + 0x400 + PMBIRQ / 4 * 4, 0x80u << (PMBIRQ % 4 * 8));
	mmio_write32(GICR_SGI + 0x100, BIT(PMBIRQ));	/* ISENABLER0 */
	write_sysreg(read_sysreg(ICC_SRE_EL1) | 1, ICC_SRE_EL1);
	isb();
	write_sysreg(0xff, ICC_PMR_EL1);
	write_sysreg(1, ICC_IGRPEN1_EL1);
	isb();
}

int el2_pmbidr = -1;
static int el2_vhe_recs = -1, el2_vhe_good, el2_el12_good;

#define PMSCR_EL12	s3_5_c9_c9_0
#define HCR_RW		BIT(31)
#define HCR_E2H		BIT(34)

/*
 * At EL2 (virtualization=on), first as a VHE kernel runs: with
 * HCR_EL2.E2H, MDCR_EL2.E2PB 0b00 (EL2 owns the buffer), the PMSCR_EL1
 * encoding is PMSCR_EL2 (E1SPE is E2SPE) and PMSCR_EL12 is EL1's
 */
static void el2_vhe(void)
{
	write_sysreg(HCR_RW | HCR_E2H, hcr_el2);
	isb();
	setup(256, 0, 0, 0);
	write_sysreg(0x31, PMSCR_EL12);
	el2_el12_good = read_sysreg(PMSCR_EL12) == 0x31 &&
			read_sysreg(PMSCR_EL2) == 0 && read_sysreg(PMSCR_EL1) == 0;
	nop_block(E1SPE);
	el2_el12_good &= read_sysreg(PMSCR_EL12) == 0x31;
	write_sysreg(0, PMSCR_EL12);
	collect();
	el2_vhe_recs = nrec;
	el2_vhe_good = nrec == 9 && !parse_err;
	for (int i = 0; el2_vhe_good && i < 9; i++)
		el2_vhe_good = recs[i].el == 2 &&
			recs[i].pc == (u64)nop_block_nops + (i ? 4 * (256 * i - 1) : -4);
	write_sysreg(HCR_RW, hcr_el2);
	isb();
}

/* At EL2 (virtualization=on): give EL1 the buffer as a kernel does */
void el2_setup(void)
{
	el2_pmbidr = read_sysreg(PMBIDR_EL1);
	el2_vhe();
	write_sysreg(BIT(31), hcr_el2);		/* EL1 is AArch64 */
	write_sysreg(3ul << 12, mdcr_el2);	/* E2PB 0b11: EL1&0 owns it */
	write_sysreg(PA | PCT, PMSCR_EL2);
	write_sysreg(0x9, ICC_SRE_EL2);		/* SRE, and EL1 may use it */
	isb();
}

/* expected UNDEF (boot.S): set before the instruction, ESR after */
u64 expect_undef, undef_esr;

/* semihosting SYS_GET_CMDLINE: spe-test.sh's arguments */
static void get_cmdline(char *cmd, u64 len)
{
	u64 block[2] = { (u64)cmd, len };
	u64 ret;

	asm volatile("mov x0, #0x15\n\tmov x1, %1\n\thlt #0xf000\n\tmov %0, x0"
		     : "=r"(ret) : "r"(block) : "x0", "x1", "memory");
	if (ret)
		cmd[0] = 0;
}

static int contains(const char *s, u64 len, const char *w)
{
	for (u64 i = 0; i < len; i++) {
		int j = 0;

		while (w[j] && i + j < len && s[i + j] == w[j])
			j++;
		if (!w[j])
			return 1;
	}
	return 0;
}

/* QEMU puts a bare-metal image's device tree at the start of RAM (1 MB) */
static int dt_has_spe(void)
{
	return contains((const char *)0x40000000, 0x100000,
			"arm,statistical-profiling-extension-v1");
}

/* -cpu max without spe=on: what Debian's QEMU presents */
static int spe_off(void)
{
	report(((read_sysreg(id_aa64dfr0_el1) >> 32) & 15) == 0,
	       "ID_AA64DFR0_EL1.PMSVer is 0 without spe=on");
	expect_undef = 1;
	undef_esr = 0;
	barrier();
	read_sysreg(PMSIDR_EL1);
	barrier();
	report(!expect_undef && (undef_esr >> 26) == 0,
	       "PMSIDR_EL1 is undefined");
	expect_undef = 1;
	undef_esr = 0;
	barrier();
	write_sysreg(0, PMBLIMITR_EL1);
	barrier();
	report(!expect_undef && (undef_esr >> 26) == 0,
	       "PMBLIMITR_EL1 is undefined");
	report(!dt_has_spe(), "no SPE node in the device tree");
	puts("1..");
	putu(tests);
	putc('\n');
	puts(failed ? "# FAIL\n" : "# PASS\n");
	return failed;
}

int main(void)
{
	static char cmd[128];
	u64 v, ptr, limit;
	int good;

	puts("TAP version 13\n");
	get_cmdline(cmd, sizeof(cmd));
	if (contains(cmd, sizeof(cmd), " off"))
		return spe_off();
	if (el2_pmbidr >= 0)
		puts("# entered at EL2: MDCR_EL2.E2PB 0b11, PMSCR_EL2 PA|PCT\n");

	v = read_sysreg(id_aa64dfr0_el1);
	report(((v >> 32) & 15) == 2, "id: ID_AA64DFR0_EL1.PMSVer is 2 (SPEv1p1)");
	v = read_sysreg(PMSIDR_EL1);
	report(v == 0x2600f, "id: PMSIDR_EL1 FE FT FL ArchInst, interval 256, MaxSize 64, 12-bit");
	report(read_sysreg(PMBIDR_EL1) == 0, "id: PMBIDR_EL1 P=0, Align 0");
	report(dt_has_spe(), "id: the device tree has arm,statistical-profiling-extension-v1");
	if (el2_pmbidr >= 0)
		report(el2_pmbidr == 0, "el2: PMBIDR_EL1 read at EL2: P=0");
	if (el2_pmbidr >= 0) {
		report(el2_vhe_good, "el2: VHE, E2PB 0b00: E2SPE samples EL2 exactly");
		if (!el2_vhe_good)
			note("records", el2_vhe_recs);
		report(el2_el12_good, "el2: VHE: PMSCR_EL12 is PMSCR_EL1, PMSCR_EL1 is PMSCR_EL2");
	}

	/* the interval: exactly every 256th operation, the ISB first */
	setup(256, 0, 0, 0);
	nop_block(E1SPE);
	v = read_sysreg(PMSICR_EL1);
	collect();
	good = nrec == 9 && !parse_err;
	for (int i = 0; good && i < 9; i++)
		good = recs[i].pc == (u64)nop_block_nops + (i ? 4 * (256 * i - 1) : -4);
	if (!good)
		note("records", nrec);
	report(good, "interval 256: 9 records, at the ISB and NOPs 255, 511, ... 2047");
	report((v & 0xffffffff) == 254, "interval 256: PMSICR_EL1.COUNT 254 after the block");
	good = nrec == 9;
	for (int i = 0; i < nrec; i++)
		good &= recs[i].el == 1 && recs[i].ns == 1 && recs[i].cls == 0 &&
			recs[i].events == EV_RETIRED && recs[i].lat == 1 &&
			!recs[i].has_ts && !recs[i].has_va;
	report(good, "records: EL1, NS, class other, retired, latency 1, End packet");

	setup(512, 0, 0, 0);
	nop_block(E1SPE);
	collect();
	good = nrec == 5 && !parse_err;
	for (int i = 0; good && i < 5; i++)
		good = recs[i].pc == (u64)nop_block_nops + (i ? 4 * (512 * i - 1) : -4);
	report(good, "interval 512: 5 records, 512 operations apart");

	/* RND: each reload 0 to 255 longer, pseudo-randomly */
	setup(256 | 1, 0, 0, 0);
	nop_block(E1SPE);
	collect();
	good = nrec >= 5 && nrec <= 9 && !parse_err && recs[0].pc == (u64)nop_block_nops - 4;
	{
		int varied = 0;

		for (int i = 1; good && i < nrec; i++) {
			u64 d = (recs[i].pc - recs[i - 1].pc) / 4;

			good = d >= 256 && d <= 511;
			varied |= i > 1 && recs[i].pc - recs[i - 1].pc !=
					   recs[1].pc - recs[0].pc;
		}
		good &= varied;
	}
	if (!good)
		note("records", nrec);
	report(good, "interval 256 with RND: samples 256 to 511 operations apart, not all alike");

	/* loads, stores, branches: addresses, types, events */
	setup(256, 0, 0, 0);
	mix_block(E1SPE, 0, ld_area, 0, st_area);
	collect();
	{
		int g[4] = { 1, 1, 1, 1 };
		int whole = nrec == 11 && recs[0].pc == (u64)mix_ops - 4;

		for (u64 k = 1; k <= 10 && k < (u64)nrec; k++)
			for (int w = 0; w < 4; w++)
				g[w] &= mix_check(&recs[k], 256 * k - 1, w);
		report(whole && g[0], "data address: the VA of each sampled LDR and STR, no other");
		report(whole && g[1], "op type: load, store, branch, conditional branch, other");
		report(whole && g[2],
		       "events: retired; L1D, TLB access on LDR, STR; CBNZ not taken");
		report(whole && g[3], "branch target: B's, none for the not-taken CBNZ");
	}

	/* filters */
	report(mix_filtered(FT | FLD, 0, 0, BIT(0), 0), "filter FT+LD: only the loads");
	report(mix_filtered(FT | FST, 0, 0, BIT(1), 0), "filter FT+ST: only the stores");
	report(mix_filtered(FT | FB, 0, 0, BIT(2) | BIT(4), 0), "filter FT+B: only the branches");
	report(mix_filtered(FT | FLD | FST, 0, 0, BIT(0) | BIT(1), 0),
	       "filter FT+LD+ST: loads and stores");
	report(mix_filtered(FE, EV_NOT_TAKEN, 0, BIT(4), 0), "filter FE not-taken: only the CBNZ");
	report(mix_filtered(FE, EV_RETIRED, 0, 0x1f, 1), "filter FE retired: all");
	report(mix_filtered(FL, 0, 2, BIT(0) | BIT(1), 0),
	       "filter FL MINLAT 2: only loads and stores (latency 4, others 1)");

	/* Exception levels */
	setup(256, 0, 0, 0);
	write_sysreg(E0SPE, PMSCR_EL1);
	run_el0((void (*)(void))el0_nops);
	write_sysreg(0, PMSCR_EL1);
	isb();
	collect();
	good = nrec == 9 && !parse_err;
	for (int i = 0; good && i < 9; i++)
		good = recs[i].pc == (u64)el0_nops + 4 * 256 * i && recs[i].el == 0 &&
			recs[i].events == (i < 8 ? EV_RETIRED : EV_EXC | EV_RETIRED);
	if (!good)
		note("records", nrec);
	report(good, "EL0: E0SPE: 9 EL0 records, NOPs 0, 256, ... the SVC (exception, retired)");

	setup(256, 0, 0, 0);
	write_sysreg(E1SPE, PMSCR_EL1);
	run_el0((void (*)(void))el0_nops);
	write_sysreg(0, PMSCR_EL1);
	isb();
	v = read_sysreg(PMSICR_EL1);
	collect();
	good = !parse_err && nrec >= 1 && (v & 0xffffffff) > 200;
	for (int i = 0; i < nrec; i++)
		good &= recs[i].el == 1 && (recs[i].pc < (u64)el0_nops ||
					    recs[i].pc > (u64)el0_nops + 8192);
	report(good, "EL0 excluded: E1SPE only: EL1 records, none at EL0, EL0 not counted");

	setup(256, 0, 0, 0);
	nop_block(0);
	v = read_sysreg(PMSICR_EL1);
	report(read_sysreg(PMBPTR_EL1) == (u64)buf && v == 0,
	       "off: E0SPE=E1SPE=0: no record, the counter does not run");

	/* the buffer fills: 2 records of 21 bytes fit in 50, the third not */
	setup(256, 0, 0, 0);
	limit = (u64)fullbuf + 4096;
	write_sysreg(limit - 50, PMBPTR_EL1);
	write_sysreg(limit | 1, PMBLIMITR_EL1);
	isb();
	nop_block(E1SPE);
	v = read_sysreg(PMBSR_EL1);
	ptr = read_sysreg(PMBPTR_EL1);
	report(v == (PMBSR_S | 1) && ptr == limit - 8,
	       "buffer full: PMBSR_EL1 S, EC 0, BSC 1; PMBPTR_EL1 after 2 records");
	if (v != (PMBSR_S | 1) || ptr != limit - 8) {
		note("PMBSR_EL1", v);
		note("PMBPTR_EL1 - limit", ptr - limit);
	}
	report((read_sysreg(PMSICR_EL1) & 0xffffffff) == 255,
	       "buffer full: profiling stops (COUNT stays 255)");
	/* GICv3 redistributor 0: SGI_base + GICR_ISPENDR0, INTID 21 */
	v = mmio_read32(0x080a0000 + 0x10000 + 0x200);
	write_sysreg(0, PMBSR_EL1);
	isb();
	report((v & BIT(21)) && !(mmio_read32(0x080b0200) & BIT(21)),
	       "buffer full: PPI 5 (INTID 21) pending while PMBSR_EL1.S, not after");
	parse(fullbuf + 4096 - 50, fullbuf + 4096 - 8);
	report(nrec == 2 && recs[1].pc == (u64)nop_block_nops + 4 * 255,
	       "buffer full: the records before it are whole");
	write_sysreg(0, PMBLIMITR_EL1);

	/* the same, with the interrupt taken (PMBIRQ through the GIC) */
	gic_init();
	setup(256, 0, 0, 0);
	write_sysreg(limit - 50, PMBPTR_EL1);
	write_sysreg(limit | 1, PMBLIMITR_EL1);
	isb();
	asm volatile("msr daifclr, #2" : : : "memory");
	nop_block(E1SPE);
	asm volatile("msr daifset, #2" : : : "memory");
	report(irqs == 1 && irq_intid == PMBIRQ && irq_pmbsr == (PMBSR_S | 1) &&
	       irq_pmbptr == limit - 8,
	       "buffer full: one interrupt, INTID 21, PMBSR_EL1 and PMBPTR_EL1 right");
	if (irqs != 1 || irq_intid != PMBIRQ) {
		note("interrupts", irqs);
		note("INTID", irq_intid);
	}
	write_sysreg(0, PMBLIMITR_EL1);

	/* a buffer the owning regime cannot translate */
	setup(256, 0, 0, 0);
	write_sysreg(1ul << 55, PMBPTR_EL1);
	write_sysreg((1ul << 55) + 4096 + 1, PMBLIMITR_EL1);
	isb();
	nop_block(E1SPE);
	v = read_sysreg(PMBSR_EL1);
	report((v & PMBSR_S) && (v >> 26) == 0x24 && read_sysreg(PMBPTR_EL1) == 1ul << 55,
	       "fault: buffer outside the PA space: PMBSR_EL1 S, EC 0x24, PMBPTR_EL1 kept");
	if ((v >> 26) != 0x24)
		note("PMBSR_EL1", v);
	write_sysreg(0, PMBSR_EL1);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();

	/* timestamp, physical address, context */
	setup(256, 0, 0, 0);
	write_sysreg(0x1234, contextidr_el1);
	mix_block(E1SPE | TS | PCT | PA | CX, 0, ld_area, 0, st_area);
	collect();
	good = nrec == 11 && !parse_err;
	for (int i = 0; good && i < nrec; i++)
		good = recs[i].has_ts && recs[i].ts != 0 &&
			(i == 0 || recs[i].ts >= recs[i - 1].ts);
	report(good, "timestamp: TS: every record ends with a count, nondecreasing");
	good = nrec == 11;
	for (int i = 0; good && i < nrec; i++)
		good = recs[i].has_pa == recs[i].has_va &&
			(!recs[i].has_pa || recs[i].pa == (recs[i].va | BIT(63)));
	report(good && recs[1].has_pa, "PA: data physical address packets (MMU off: PA = VA, NS)");
	good = nrec == 11;
	for (int i = 0; good && i < nrec; i++)
		good = recs[i].has_ctx && recs[i].ctx == 0x1234;
	report(good, "CX: CONTEXTIDR_EL1 in every record");

	puts("1..");
	putu(tests);
	putc('\n');
	puts(failed ? "# FAIL\n" : "# PASS\n");
	return failed;
}
