// SPDX-License-Identifier: GPL-2.0
/*
 * Precise samples (attr.precise_ip, Intel PEBS) over a user loop whose
 * instructions are known to the byte.
 *
 * loop5_work(n) runs n iterations of five instructions, the last a taken
 * conditional branch. A sample of instructions with a period P names the
 * instruction whose retirement ended the period: with precise_ip 2 that
 * instruction exactly (PERF_RECORD_MISC_EXACT_IP), and consecutive
 * samples inside the loop are P instructions, P mod 5 positions, apart.
 * With precise_ip 1 the IP is the instruction after it, without the
 * flag (upstream's ABI). A sample of branches lands on the loop's branch.
 * The rig's emulated PMU (rig/qemu) writes PEBS records with the exact
 * eventing IP, and its registers after that instruction.
 *
 * Runs where the CPU has PEBS: x86 with "pebs" in /proc/cpuinfo, which
 * the CPU reports (IA32_MISC_ENABLE) whatever perf makes of it.
 * Everywhere else every test SKIPs (rig/xfail.list).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "loop_common.h"
#include "perf_test.h"

#define RING_PAGES	64
#define MAX_SAMPLES	4096
/*
 * Iterations of a run, and the periods: some 250 samples of a run, few
 * enough per tick that none is throttled (a throttled event stops
 * counting until the next tick, which the exact checks would see). The
 * instruction periods are 2 and 1 instructions of the loop past a whole
 * number of iterations.
 */
#define PI_ITERS	1000000UL
#define PI_PERIOD	20012
#define PI_PERIOD2	30011
#define BR_PERIOD	4001

#if defined(__x86_64__)
/*
 * pr_work(n): loop5_work()'s loop with known values in the registers it
 * does not change, saved and restored around it (callee-saved ones
 * included).
 */
asm(".text\n"
	"pr_work:\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	mov $0x1111, %rbx\n"
	"	mov $0x5151, %rsi\n"
	"	mov $0x8888, %r8\n"
	"	mov $0x9999, %r9\n"
	"	mov $0xa0a0, %r10\n"
	"	mov $0xb1b1, %r11\n"
	"	mov $0xc2c2, %r12\n"
	"	mov $0xd3d3, %r13\n"
	"	mov $0xe4e4, %r14\n"
	"	mov $0xf5f5, %r15\n"
	"	xor %eax, %eax\n"
	"pr_i0:	add $1, %rax\n"
	"pr_i1:	xor %rdx, %rcx\n"
	"pr_i2:	nop\n"
	"pr_i3:	dec %rdi\n"
	"pr_i4:	jnz pr_i0\n"
	"pr_out:	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbx\n"
	"	ret\n");

/*
 * px_work(n): XMM0-15 loaded from px_vals (register i: 0xa000 + i in its
 * low quadword, 0xb000 + i in its high one), then n iterations of a
 * two-instruction loop that leaves them alone. All XMM registers are
 * caller-saved, so the compiler keeps nothing in them across the call.
 */
asm(".section .rodata\n"
	".balign 16\n"
	"px_vals:\n"
	".quad 0xa000, 0xb000\n"
	".quad 0xa001, 0xb001\n"
	".quad 0xa002, 0xb002\n"
	".quad 0xa003, 0xb003\n"
	".quad 0xa004, 0xb004\n"
	".quad 0xa005, 0xb005\n"
	".quad 0xa006, 0xb006\n"
	".quad 0xa007, 0xb007\n"
	".quad 0xa008, 0xb008\n"
	".quad 0xa009, 0xb009\n"
	".quad 0xa00a, 0xb00a\n"
	".quad 0xa00b, 0xb00b\n"
	".quad 0xa00c, 0xb00c\n"
	".quad 0xa00d, 0xb00d\n"
	".quad 0xa00e, 0xb00e\n"
	".quad 0xa00f, 0xb00f\n"
	".text\n"
	"px_work:\n"
	"\tlea px_vals(%rip), %rax\n"
	"	movdqu 0(%rax), %xmm0\n"
	"	movdqu 16(%rax), %xmm1\n"
	"	movdqu 32(%rax), %xmm2\n"
	"	movdqu 48(%rax), %xmm3\n"
	"	movdqu 64(%rax), %xmm4\n"
	"	movdqu 80(%rax), %xmm5\n"
	"	movdqu 96(%rax), %xmm6\n"
	"	movdqu 112(%rax), %xmm7\n"
	"	movdqu 128(%rax), %xmm8\n"
	"	movdqu 144(%rax), %xmm9\n"
	"	movdqu 160(%rax), %xmm10\n"
	"	movdqu 176(%rax), %xmm11\n"
	"	movdqu 192(%rax), %xmm12\n"
	"	movdqu 208(%rax), %xmm13\n"
	"	movdqu 224(%rax), %xmm14\n"
	"	movdqu 240(%rax), %xmm15\n"
	"px_top:\tdec %rdi\n"
	"\tjnz px_top\n"
	"px_end:\tret\n");

static void pr_work(unsigned long n)
{
	/* clobbers rax, rcx, rdx, rsi, rdi, r8-r11 (a call does anyway) */
	((loop_fn)LABEL(pr_work))(n);
}

/* the loop's instructions, in order, then the one after it */
static void pi_labels(unsigned long *l, bool regs)
{
	if (regs) {
		l[0] = LABEL(pr_i0);
		l[1] = LABEL(pr_i1);
		l[2] = LABEL(pr_i2);
		l[3] = LABEL(pr_i3);
		l[4] = LABEL(pr_i4);
		l[5] = LABEL(pr_out);
	} else {
		loop5_labels(l);
	}
}
#else
static void pr_work(unsigned long n)
{
}

static void pi_labels(unsigned long *l, bool regs)
{
	memset(l, 0, 6 * sizeof(*l));
}
#endif

/* x86 perf_regs bits (arch/x86/include/uapi/asm/perf_regs.h) */
enum { R_AX, R_BX, R_CX, R_DX, R_SI, R_DI, R_BP, R_SP, R_IP, R_FLAGS,
	R_CS, R_SS, R_DS, R_ES, R_FS, R_GS, R_R8, R_R9, R_R10, R_R11, R_R12,
	R_R13, R_R14, R_R15 };

#define REGS_MASK ((1ULL << R_AX) | (1ULL << R_BX) | (1ULL << R_SI) | \
		   (1ULL << R_DI) | (1ULL << R_IP) | (1ULL << R_R8) | \
		   (1ULL << R_R9) | (1ULL << R_R10) | (1ULL << R_R11) | \
		   (1ULL << R_R12) | (1ULL << R_R13) | (1ULL << R_R14) | \
		   (1ULL << R_R15))

struct pi_sample {
	__u16 misc;
	__u64 ip;
	__u64 abi;
	__u64 regs[24];
};

/*
 * A user-mode sampling event of @config (PERF_TYPE_HARDWARE) with
 * @precise and @period, sampling the IP and, with @regs, REGS_MASK.
 */
static int pi_open(__u64 config, int precise, __u64 period, bool regs,
		   int group)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, config);
	attr.precise_ip = precise;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP;
	if (regs) {
		attr.sample_type |= PERF_SAMPLE_REGS_INTR;
		attr.sample_regs_intr = REGS_MASK;
	}
	attr.read_format = READ_FORMAT_TIMES;
	if (group >= 0)
		attr.disabled = 0;
	return sys_perf_event_open(&attr, 0, -1, group, 0);
}

/* the samples in @base's ring (never consumed), -1 if one is malformed */
static int pi_samples(void *base, bool regs, struct pi_sample *out, int max)
{
	int nregs = __builtin_popcountll(REGS_MASK);
	struct perf_event_header *h;
	bool bad = false;
	__u64 off = 0;
	int n = 0;

	while (n < max && (h = perf_ring_next(base, RING_PAGES, &off, &bad))) {
		__u64 *p = (__u64 *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].misc = h->misc;
		out[n].ip = p[0];
		if (regs) {
			out[n].abi = p[1];
			if (out[n].abi)
				memcpy(out[n].regs, p + 2, nregs * sizeof(__u64));
		}
		n++;
	}
	return bad ? -1 : n;
}

/*
 * Check the samples of an instructions event with @period: each one in
 * the loop on an instruction of it, with EXACT_IP iff @exact, and each
 * P mod 5 positions past the one before it in the loop. Returns how
 * many were in the loop, -1 on a mismatch (explained on stderr).
 */
static int pi_check(const struct pi_sample *s, int n, const unsigned long *l,
		    __u64 period, bool exact)
{
	int i, pos, prev = -1, inside = 0;

	for (i = 0; i < n; i++) {
		if (!loop_inside(l, s[i].ip)) {
			prev = -1;
			continue;
		}
		pos = loop_pos(l, s[i].ip);
		if (pos < 0 ||
		    !(s[i].misc & PERF_RECORD_MISC_EXACT_IP) != !exact) {
			fprintf(stderr, "# sample %d: ip %#llx (pos %d) misc %#x, want exact %d\n",
				i, (unsigned long long)s[i].ip, pos, s[i].misc,
				exact);
			return -1;
		}
		/* the RET after the loop may end a period too */
		if (prev >= 0 && pos < LOOP_LEN &&
		    pos != (prev + (int)(period % LOOP_LEN)) % LOOP_LEN) {
			fprintf(stderr, "# sample %d at pos %d after pos %d, period %llu\n",
				i, pos, prev, (unsigned long long)period);
			return -1;
		}
		prev = pos;
		inside++;
	}
	return inside;
}

FIXTURE(pebs) {
	int max;
	unsigned long l[6];
	struct pi_sample *s;
	struct sample_limits saved;
	bool raised;
};

/*
 * The checks need every period's sample: with the sample rate the kernel
 * lowers after a slow PMI (the rig's PEBS records are costly), a
 * throttled event would stop counting until the next tick. As root, the
 * limits are raised, and the lowering turned off, for each test.
 */
FIXTURE_SETUP(pebs)
{
	int ret;

	if (!HAVE_LOOP || !cpu_has_flag("pebs"))
		SKIP(return, "no PEBS on this CPU (x86 only)");
	ret = sample_limits_raise_as_root(&self->saved, &self->raised);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
	self->max = hw_pmu_cap("max_precise");
	self->s = calloc(MAX_SAMPLES, sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
	pi_labels(self->l, false);
}

FIXTURE_TEARDOWN_PARENT(pebs)
{
	if (self->raised)
		sample_limits_set(&self->saved);
}

/*
 * Sample instructions:u at @precise with @period over @iters iterations
 * of the plain loop; returns the number of samples in it, -1 on error.
 */
static int pi_run(struct __test_metadata *_metadata, struct pi_sample *smp,
		  __u64 config, int precise, __u64 period, unsigned long iters)
{
	int fd, n;
	void *ring;

	fd = pi_open(config, precise, period, false, -1);
	if (fd < 0) {
		TH_LOG("open precise_ip %d: %s", precise, strerror(errno));
		return -1;
	}
	ring = perf_map_ring(fd, RING_PAGES);
	if (ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop5_work(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = pi_samples(ring, false, smp, MAX_SAMPLES);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	return n;
}

/*
 * The next PERF_RECORD_SAMPLE of the ring @ring (never consumed, never
 * wrapped: the tests size it so) at or after *@off, whose payload is
 * *@p; NULL at the end, or at a record that runs past the head.
 */
static struct perf_event_header *pi_next_sample(void *ring, __u64 *off,
						__u64 **p)
{
	struct perf_event_header *h;
	bool bad = false;

	while ((h = perf_ring_next(ring, RING_PAGES, off, &bad))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			*p = (__u64 *)(h + 1);
			return h;
		}
	}
	return NULL;
}

/* Map @fd's ring and run @work(@iters) with the event enabled. */
static void *pi_record(int fd, loop_fn work, unsigned long iters)
{
	void *ring = perf_map_ring(fd, RING_PAGES);

	if (ring == MAP_FAILED)
		return ring;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return ring;
}

/* caps/max_precise says 2 or more, and precise_ip beyond it is refused */
TEST_F(pebs, max_precise)
{
	struct perf_event_attr attr;
	int fd;

	ASSERT_GE(self->max, 2);
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = 100003;
	attr.precise_ip = self->max;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("precise_ip %d: %s", self->max,
				strerror(errno));
	close(fd);
	if (self->max < 3) {
		attr.precise_ip = 3;
		ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
		ASSERT_EQ(EOPNOTSUPP, errno);
	}
}

/* a precise event that never samples is refused: -EINVAL */
TEST_F(pebs, counting_refused)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
}

/* instructions:upp: every sample on the very instruction, exact */
TEST_F(pebs, instructions_exact_ip)
{
	int n = pi_run(_metadata, self->s, PERF_COUNT_HW_INSTRUCTIONS, 2,
		       PI_PERIOD, PI_ITERS);

	ASSERT_GT(n, 0);
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, true), 100);
}

/*
 * Sample branches:u at @precise: every sample in the loop is on the
 * loop's label @pos, with EXACT_IP iff @exact.
 */
static void br_check(struct __test_metadata *_metadata, struct pi_sample *s,
		     const unsigned long *l, int precise, int pos, bool exact)
{
	int n = pi_run(_metadata, s, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		       precise, BR_PERIOD, PI_ITERS);
	int i, inside = 0;

	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		if (!loop_inside(l, s[i].ip))
			continue;
		inside++;
		ASSERT_EQ(l[pos], s[i].ip);
		ASSERT_EQ(exact, !!(s[i].misc & PERF_RECORD_MISC_EXACT_IP));
	}
	ASSERT_GT(inside, 100)
		TH_LOG("%d samples, the first at %#llx (misc %#x), the loop at %#lx-%#lx",
		       n, (unsigned long long)s[0].ip, s[0].misc, l[0], l[5]);
}

/*
 * branches:up: the IP is the instruction after the branch, its target
 * (the loop's first), without EXACT_IP
 */
TEST_F(pebs, branches_precise_1)
{
	br_check(_metadata, self->s, self->l, 1, 0, false);
}

/* branches:upp: every sample in the loop is its branch */
TEST_F(pebs, branches_on_branch)
{
	br_check(_metadata, self->s, self->l, 2, 4, true);
}

/*
 * cycles:upp. Before Ice Lake the cycles event is no PEBS event, and a
 * precise one counts with one that is and counts every cycle (as the
 * rig's model does, one instruction a cycle under -icount): its samples
 * land on the loop's instructions as instructions:upp's do. A driver that
 * arms PEBS on CPU_CLK_UNHALTED itself gets no record there.
 */
TEST_F(pebs, cycles_exact_ip)
{
	int n = pi_run(_metadata, self->s, PERF_COUNT_HW_CPU_CYCLES, 2,
		       PI_PERIOD, PI_ITERS);

	ASSERT_GT(n, 0);
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, true), 100);
}

/*
 * Does the CPU write the fixed PEBS record of formats 1 to 3, rather
 * than format 4's groups? The family 6 models of Sandy and Ivy Bridge
 * (format 1), Haswell and Broadwell (format 2) and the Skylake class
 * (format 3: Skylake, Skylake-SP, Kaby, Coffee and Comet Lake); the CPU
 * does not enumerate it otherwise.
 */
static bool pebs_fixed_record(void)
{
	static const long models[] = {
		0x2a, 0x2d, 0x3a, 0x3e,
		0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56,
		0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,
	};

	return intel_model_in(models, ARRAY_SIZE(models));
}

/* Does PEBS cover the fixed counters? From format 4 on. */
static bool pebs_on_fixed(void)
{
	return !pebs_fixed_record();
}

/*
 * Two instructions:upp events in one group: where PEBS covers fixed
 * counters one takes fixed counter 0, the other a general-purpose
 * counter (only fixed counter 0 counts instructions), and elsewhere two
 * general-purpose counters; both sample exactly, each with its own
 * period.
 */
TEST_F(pebs, fixed_and_gp)
{
	struct perf_event_mmap_page *pa, *pb;
	int a, b, na, nb;
	void *ra, *rb;
	__u32 ia, ib;

	a = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 2, PI_PERIOD, false, -1);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	b = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 2, PI_PERIOD2, false, a);
	ASSERT_GE(b, 0) TH_LOG("open member: %s", strerror(errno));
	ra = perf_map_ring(a, RING_PAGES);
	rb = perf_map_ring(b, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ra);
	ASSERT_NE(MAP_FAILED, rb);
	ioctl(a, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	loop5_work(PI_ITERS);
	pa = ra;
	pb = rb;
	ia = pa->index;
	ib = pb->index;
	ioctl(a, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	/* RDPMC index + 1: fixed counters have bit 30 */
	if (ia && ib && pebs_on_fixed())
		ASSERT_NE((ia - 1) & (1U << 30), (ib - 1) & (1U << 30))
			TH_LOG("indexes %#x and %#x", ia, ib);
	if (ia && ib && !pebs_on_fixed())
		ASSERT_EQ(0, ((ia - 1) | (ib - 1)) & (1U << 30))
			TH_LOG("indexes %#x and %#x", ia, ib);
	na = pi_samples(ra, false, self->s, MAX_SAMPLES);
	ASSERT_GT(pi_check(self->s, na, self->l, PI_PERIOD, true), 100);
	nb = pi_samples(rb, false, self->s, MAX_SAMPLES);
	ASSERT_GT(pi_check(self->s, nb, self->l, PI_PERIOD2, true), 100);
	perf_unmap_ring(ra, RING_PAGES);
	perf_unmap_ring(rb, RING_PAGES);
	close(b);
	close(a);
}

/*
 * Which counters distribute precisely (precise_ip 3) on a PEBS format 4
 * part, by the CPU's model: none on a model upstream does not know (the
 * rig's default CPU), fixed counter 0 for instructions from Ice Lake on,
 * and general-purpose counter 0 for any event too on the Golden Cove and
 * Tremont cores and their successors.
 */
enum pdist { PDIST_NONE, PDIST_FIXED0, PDIST_GP0 };

static enum pdist pdist_kind(void)
{
	static const long fixed0[] = { 0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d,
				       0xa7 };
	static const long gp0[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac,
				    0xc5, 0xc6, 0xb5, 0xbd, 0x8f, 0xcf, 0xad,
				    0xae, 0x86, 0x96, 0x9c, 0xbe, 0xaf, 0xb6 };

	if (intel_model_in(fixed0, ARRAY_SIZE(fixed0)))
		return PDIST_FIXED0;
	if (intel_model_in(gp0, ARRAY_SIZE(gp0)))
		return PDIST_GP0;
	return PDIST_NONE;
}

/* Sandy Bridge: format 1 records, no INST_RETIRED.PREC_DIST */
static bool sandy_bridge(void)
{
	static const long models[] = { 0x2a, 0x2d };

	return intel_model_in(models, ARRAY_SIZE(models));
}

/*
 * Is precise_ip 3 offered? Before format 4, from Ivy Bridge on
 * (INST_RETIRED.PREC_DIST on counter 1); from format 4 on, where a
 * counter distributes precisely.
 */
static bool ppp_offered(void)
{
	if (pebs_fixed_record())
		return !sandy_bridge();
	return pdist_kind() != PDIST_NONE;
}

/*
 * precise_ip 3 on a model without precise distribution: caps say 2 and 3
 * is -EOPNOTSUPP, as upstream has it on a model it does not know, and on
 * Sandy Bridge.
 */
static void ppp_refused(struct __test_metadata *_metadata, int max,
			__u64 config)
{
	ASSERT_EQ(2, max);
	ASSERT_EQ(-1, pi_open(config, 3, PI_PERIOD, false, -1));
	ASSERT_EQ(EOPNOTSUPP, errno);
}

/*
 * instructions:uppp. Where PEBS covers the fixed counters and fixed
 * counter 0 distributes precisely, the event goes there alone, so a
 * group of two cannot be scheduled (-EINVAL at the second open), while
 * :upp pairs fit (fixed_and_gp). On format 3 (Skylake) precise_ip 3 is
 * accepted and placed as 2 is. Either way its samples are exact.
 */
TEST_F(pebs, ppp_instructions_on_fixed_0)
{
	int a, b, n;
	void *ra;

	if (!ppp_offered()) {
		ppp_refused(_metadata, self->max, PERF_COUNT_HW_INSTRUCTIONS);
		return;
	}
	ASSERT_EQ(3, self->max);
	a = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 3, PI_PERIOD, false, -1);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	b = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 3, PI_PERIOD2, false, a);
	if (pebs_on_fixed()) {
		ASSERT_EQ(-1, b);
		ASSERT_EQ(EINVAL, errno);
	} else {
		ASSERT_GE(b, 0) TH_LOG("open member: %s", strerror(errno));
		close(b);
	}
	ra = perf_map_ring(a, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ra);
	ioctl(a, PERF_EVENT_IOC_ENABLE, 0);
	loop5_work(PI_ITERS);
	ioctl(a, PERF_EVENT_IOC_DISABLE, 0);
	n = pi_samples(ra, false, self->s, MAX_SAMPLES);
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, true), 100);
	perf_unmap_ring(ra, RING_PAGES);
	close(a);
}

/*
 * branches:uppp: where general-purpose counter 0 distributes precisely
 * every such event must go there, so two in a group cannot be scheduled;
 * on Ice Lake, whose only distributing counter is fixed 0, and on format
 * 3, they fit as :upp ones do. The samples are on the branch itself.
 */
TEST_F(pebs, ppp_branches_on_counter_0)
{
	int a, b;

	if (!ppp_offered()) {
		ppp_refused(_metadata, self->max, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
		return;
	}
	ASSERT_EQ(3, self->max);
	a = pi_open(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 3, BR_PERIOD, false,
		    -1);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	b = pi_open(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 3, BR_PERIOD, false,
		    a);
	if (pdist_kind() == PDIST_GP0) {
		ASSERT_EQ(-1, b);
		ASSERT_EQ(EINVAL, errno);
	} else {
		ASSERT_GE(b, 0) TH_LOG("open member: %s", strerror(errno));
		close(b);
	}
	close(a);
	br_check(_metadata, self->s, self->l, 3, 4, true);
}

/*
 * cycles:uppp before format 4 (Ivy Bridge to the Skylake class): the
 * cycles counted with INST_RETIRED.PREC_DIST, which only counter 1 has,
 * so two in a group cannot be scheduled (-EINVAL at the second open);
 * the samples are exact. Format 4 models place precise cycles
 * otherwise (ppp_instructions_on_fixed_0, ppp_branches_on_counter_0).
 */
TEST_F(pebs, cycles_ppp_on_counter_1)
{
	int a, b, n;
	void *ra;

	if (!pebs_fixed_record())
		SKIP(return, "PEBS format 4: no INST_RETIRED.PREC_DIST cycles");
	if (!ppp_offered()) {
		ppp_refused(_metadata, self->max, PERF_COUNT_HW_CPU_CYCLES);
		return;
	}
	a = pi_open(PERF_COUNT_HW_CPU_CYCLES, 3, PI_PERIOD, false, -1);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	b = pi_open(PERF_COUNT_HW_CPU_CYCLES, 3, PI_PERIOD2, false, a);
	ASSERT_EQ(-1, b);
	ASSERT_EQ(EINVAL, errno);
	ra = pi_record(a, loop5_work, PI_ITERS);
	ASSERT_NE(MAP_FAILED, ra);
	n = pi_samples(ra, false, self->s, MAX_SAMPLES);
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, true), 100);
	perf_unmap_ring(ra, RING_PAGES);
	close(a);
}

/*
 * Before format 2 a record has no eventing IP, which precise_ip 2 then
 * takes from the LBR: an event that also samples branch stacks must
 * record every branch at its own levels (-EOPNOTSUPP otherwise, as
 * upstream), and then samples exactly. Elsewhere any selection is taken.
 */
TEST_F(pebs, fmt1_branch_stack_must_see_every_branch)
{
	static const long fmt1[] = { 0x2a, 0x2d, 0x3a, 0x3e };
	bool need = intel_model_in(fmt1, ARRAY_SIZE(fmt1));
	struct perf_event_attr attr;
	int fd, n;
	void *ring;

	if (!cpu_has_lbr())
		SKIP(return, "no LBR");
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	attr.sample_period = PI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL |
				  PERF_SAMPLE_BRANCH_USER;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (need) {
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(EOPNOTSUPP, errno);
	} else {
		ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
		close(fd);
	}
	/* every branch, but at both levels for a user-only event */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_KERNEL;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (need) {
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(EOPNOTSUPP, errno);
	} else if (fd >= 0) {
		close(fd);
	}
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = pi_record(fd, loop5_work, PI_ITERS);
	ASSERT_NE(MAP_FAILED, ring);
	n = pi_samples(ring, false, self->s, MAX_SAMPLES);
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, true), 100);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * REGS_INTR of a precise sample: the registers at the eventing
 * instruction (after it, as the record has them; the loop leaves all but
 * rax, rcx and rdi alone), and its IP the eventing IP, exact.
 */
TEST_F(pebs, regs_intr)
{
	static const struct { int bit; __u64 val; } want[] = {
		{ R_BX, 0x1111 }, { R_SI, 0x5151 }, { R_R8, 0x8888 },
		{ R_R9, 0x9999 }, { R_R10, 0xa0a0 }, { R_R11, 0xb1b1 },
		{ R_R12, 0xc2c2 }, { R_R13, 0xd3d3 }, { R_R14, 0xe4e4 },
		{ R_R15, 0xf5f5 },
	};
	const unsigned long iters = PI_ITERS;
	unsigned long l[6];
	int fd, n, i, j, pos, inside = 0;
	void *ring;

	pi_labels(l, true);
	fd = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 2, PI_PERIOD, true, -1);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pr_work(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = pi_samples(ring, true, self->s, MAX_SAMPLES);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct pi_sample *s = &self->s[i];
		/* the values in REGS_MASK order: AX BX SI DI IP R8..R15 */
		__u64 v[24] = { 0 };
		int k = 0;

		if (!loop_inside(l, s->ip))
			continue;
		inside++;
		for (j = 0; j < 24; j++)
			if (REGS_MASK & (1ULL << j))
				v[j] = s->regs[k++];
		pos = loop_pos(l, s->ip);
		ASSERT_TRUE(pos >= 0 && pos < 5);
		ASSERT_NE(0, s->abi);
		ASSERT_EQ(s->ip, v[R_IP]);
		for (j = 0; j < (int)ARRAY_SIZE(want); j++) {
			int bit = want[j].bit;

			ASSERT_EQ(want[j].val, v[bit])
				TH_LOG("sample %d, perf_regs bit %d", i, bit);
		}
		ASSERT_TRUE(s->misc & PERF_RECORD_MISC_EXACT_IP);
		/*
		 * rax counts the iterations begun (its ADD is the first
		 * instruction), rdi those left (its DEC the fourth): after
		 * the first three their sum is one more than after the rest.
		 */
		ASSERT_TRUE(v[R_DI] <= iters);
		ASSERT_EQ(iters + (pos < 3), v[R_AX] + v[R_DI])
			TH_LOG("rax %llu rdi %llu after pos %d",
			       (unsigned long long)v[R_AX],
			       (unsigned long long)v[R_DI], pos);
	}
	ASSERT_GT(inside, 100);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * A precise sample's branch stack (user branches, any kind): in the loop
 * its only taken branch is the back edge, so every entry of a sample
 * taken there, whose IP is exact, is that branch.
 */
TEST_F(pebs, branch_stack)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 off = 0, nr, i, *p;
	int fd, inside = 0;
	void *ring;

	if (!cpu_has_lbr())
		SKIP(return, "no LBR on this CPU");
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	attr.sample_period = PI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = pi_record(fd, loop5_work, PI_ITERS);
	ASSERT_NE(MAP_FAILED, ring);

	while ((h = pi_next_sample(ring, &off, &p))) {
		struct perf_branch_entry *e = (void *)(p + 2);

		if (!loop_inside(self->l, p[0]))
			continue;
		inside++;
		nr = p[1];
		ASSERT_TRUE(h->misc & PERF_RECORD_MISC_EXACT_IP);
		ASSERT_GE(nr, 8);
		ASSERT_EQ(sizeof(*h) + 16 + nr * sizeof(*e), h->size);
		for (i = 0; i < nr; i++) {
			ASSERT_EQ(self->l[4], e[i].from)
				TH_LOG("entry %llu", (unsigned long long)i);
			ASSERT_EQ(self->l[0], e[i].to);
		}
	}
	ASSERT_GT(inside, 100);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * read() of a precise event counts exactly: the same as a counting
 * event beside it in its group, enabled and disabled with it, while the
 * hardware reloads the precise counter at every record; and a loop
 * twice as long counts exactly its extra instructions.
 */
TEST_F(pebs, count_exact_in_group)
{
	struct perf_event_attr attr;
	struct perf_value c1, c2, m1, m2;
	int a, b;

	a = pi_open(PERF_COUNT_HW_INSTRUCTIONS, 2, PI_PERIOD, false, -1);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = READ_FORMAT_TIMES;
	b = sys_perf_event_open(&attr, 0, -1, a, 0);
	ASSERT_GE(b, 0) TH_LOG("open member: %s", strerror(errno));

	ioctl(a, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	loop5_work(PI_ITERS);
	ioctl(a, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_TRUE(perf_read_value(a, &c1));
	ASSERT_TRUE(perf_read_value(b, &m1));
	ioctl(a, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(a, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	loop5_work(2 * PI_ITERS);
	ioctl(a, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_TRUE(perf_read_value(a, &c2));
	ASSERT_TRUE(perf_read_value(b, &m2));
	/* the precise one ran the whole time: no multiplexing */
	ASSERT_EQ(c2.enabled, c2.running);

	ASSERT_EQ(m1.count, c1.count);
	ASSERT_EQ(m2.count, c2.count);
	ASSERT_EQ((__u64)PI_ITERS * LOOP_LEN, c2.count - c1.count);
	close(b);
	close(a);
}

/*
 * Large PEBS: an event whose samples the record alone describes (fixed
 * period; here IP with TID or TIME) may leave its records in the buffer
 * until it is nearly full, so that one PMI takes many. The kernel must
 * still give every sample exactly, with the time it was taken, the task
 * it was taken in, and a count that includes the records still waiting.
 */

/* the "PMI:" line of /proc/interrupts, summed over the CPUs; -1: none */
static long pmi_count(void)
{
	char line[4096], *p, *end;
	long sum = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, "PMI:", 4))
			continue;
		sum = 0;
		for (p += 4;; p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}

/* the IP and the next u64 (TID or TIME) of each sample in @base's ring */
static int pl_samples(void *base, __u64 *ip, __u64 *x, int max)
{
	struct perf_event_header *h;
	bool bad = false;
	__u64 off = 0;
	int n = 0;

	while (n < max && (h = perf_ring_next(base, RING_PAGES, &off, &bad))) {
		__u64 *p = (__u64 *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		ip[n] = p[0];
		x[n] = p[1];
		n++;
	}
	return bad ? -1 : n;
}

/*
 * The precise level of the large events: 2, but 1 where records lack the
 * eventing IP (format 1: Sandy and Ivy Bridge), whose precise_ip 2 takes
 * it from the LBR at the PMI, so that each record has a PMI of its own
 * (for precise_ip 1 they still wait in the buffer).
 */
static int pl_precise(void)
{
	static const long fmt1[] = { 0x2a, 0x2d, 0x3a, 0x3e };

	return intel_model_in(fmt1, ARRAY_SIZE(fmt1)) ? 1 : 2;
}

/* instructions:upp with @type beside the IP, disabled, -1 on error */
static int pl_open(__u64 type, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = pl_precise();
	attr.sample_period = PI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | type;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/*
 * Hundreds of samples from a handful of PMIs, each still on its exact
 * instruction: the records waited in the buffer (upstream: "large PEBS").
 */
TEST_F(pebs, large_records_share_a_pmi)
{
	__u64 *ip = calloc(MAX_SAMPLES, sizeof(*ip));
	__u64 *x = calloc(MAX_SAMPLES, sizeof(*x));
	long before, after;
	int fd, n, i;
	void *ring;

	ASSERT_TRUE(ip && x);
	fd = pl_open(PERF_SAMPLE_TID, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	before = pmi_count();
	ASSERT_GE(before, 0) TH_LOG("no PMI line in /proc/interrupts");
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop5_work(4 * PI_ITERS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	after = pmi_count();
	n = pl_samples(ring, ip, x, MAX_SAMPLES);
	ASSERT_GT(n, 900);
	for (i = 0; i < n; i++) {
		memset(&self->s[i], 0, sizeof(self->s[i]));
		self->s[i].ip = ip[i];
		self->s[i].misc = pl_precise() == 2 ? PERF_RECORD_MISC_EXACT_IP : 0;
	}
	ASSERT_GT(pi_check(self->s, n, self->l, PI_PERIOD, pl_precise() == 2),
		  900);
	TH_LOG("%d samples, %ld PMIs", n, after - before);
	ASSERT_LT((after - before) * 10, n);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	free(ip);
	free(x);
}

/*
 * The time of each sample is when its record was written, not when the
 * buffer was read: strictly increasing, and spread over the whole run
 * (at least half the time the loop took, by CLOCK_MONOTONIC, which runs
 * at the rate of perf's clock), where times taken as the buffer is read
 * would span only the read.
 */
TEST_F(pebs, large_sample_times_from_the_records)
{
	__u64 *ip = calloc(MAX_SAMPLES, sizeof(*ip));
	__u64 *t = calloc(MAX_SAMPLES, sizeof(*t));
	struct timespec a, b;
	long long run;
	int fd, n, i;
	void *ring;

	ASSERT_TRUE(ip && t);
	fd = pl_open(PERF_SAMPLE_TIME, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	loop5_work(2 * PI_ITERS);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	run = (b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec;
	n = pl_samples(ring, ip, t, MAX_SAMPLES);
	ASSERT_GT(n, 400);
	for (i = 1; i < n; i++)
		ASSERT_GT(t[i], t[i - 1]) TH_LOG("sample %d at %llu, %d at %llu",
						 i - 1, (unsigned long long)t[i - 1],
						 i, (unsigned long long)t[i]);
	TH_LOG("%d samples over %llu ns of a %lld ns run", n,
	       (unsigned long long)(t[n - 1] - t[0]), run);
	ASSERT_GT((long long)(t[n - 1] - t[0]), run / 2);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	free(ip);
	free(t);
}

/*
 * read() while the event runs counts the periods whose records still
 * wait: the same as a plain counter beside it in its group, read in the
 * same read().
 */
TEST_F(pebs, large_count_read_while_running)
{
	struct perf_event_attr attr;
	__u64 v[3];
	int a, b, i;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	attr.sample_period = PI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.read_format = PERF_FORMAT_GROUP;
	a = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(a, 0) TH_LOG("open: %s", strerror(errno));
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	b = sys_perf_event_open(&attr, 0, -1, a, 0);
	ASSERT_GE(b, 0) TH_LOG("open member: %s", strerror(errno));
	ASSERT_NE(MAP_FAILED, perf_map_ring(a, RING_PAGES));

	ioctl(a, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 3; i++) {
		loop5_work(PI_ITERS);
		ASSERT_EQ(sizeof(v), read(a, v, sizeof(v)));
		ASSERT_EQ(2, v[0]);
		ASSERT_GT(v[1], (__u64)PI_ITERS * LOOP_LEN * (i + 1));
		ASSERT_EQ(v[2], v[1]) TH_LOG("read %d: precise %llu, plain %llu",
					     i, (unsigned long long)v[1],
					     (unsigned long long)v[2]);
	}
	ioctl(a, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	close(b);
	close(a);
}

/*
 * A child that runs the plain loop (the one with known registers, with
 * @regs) in rounds, taking turns with its sibling.
 */
static void pl_turns(bool regs, int in, int out, int rounds)
{
	char c = 0;
	int i;

	for (i = 0; i < rounds; i++) {
		if (read(in, &c, 1) != 1)
			_exit(1);
		if (regs)
			pr_work(PI_ITERS / 4);
		else
			loop5_work(PI_ITERS / 4);
		if (write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/*
 * A CPU-wide event on one CPU where two tasks take turns, each in its own
 * loop: every sample in a loop has the TID of the task that ran it. The
 * records of the outgoing task must become its samples at the switch,
 * before the other task's records join them in the buffer.
 */
TEST_F(pebs, large_samples_keep_their_task)
{
	__u64 *ip = calloc(MAX_SAMPLES, sizeof(*ip));
	__u64 *x = calloc(MAX_SAMPLES, sizeof(*x));
	unsigned long lr[6];
	int ab[2], ba[2], fd, n, i, st, in_a = 0, in_b = 0;
	pid_t a, b;
	cpu_set_t one;
	void *ring;

	ASSERT_TRUE(ip && x);
	pi_labels(lr, true);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	fd = pl_open(PERF_SAMPLE_TID, -1, 0);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "CPU-wide events need privilege");
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ASSERT_EQ(0, pipe(ab));
	ASSERT_EQ(0, pipe(ba));

	a = fork();
	ASSERT_GE(a, 0);
	if (!a) {
		sched_setaffinity(0, sizeof(one), &one);
		pl_turns(false, ba[0], ab[1], 8);
	}
	b = fork();
	ASSERT_GE(b, 0);
	if (!b) {
		sched_setaffinity(0, sizeof(one), &one);
		pl_turns(true, ab[0], ba[1], 8);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* a's first turn */
	ASSERT_EQ(1, write(ba[1], "", 1));
	ASSERT_EQ(a, waitpid(a, &st, 0));
	ASSERT_EQ(0, st);
	ASSERT_EQ(b, waitpid(b, &st, 0));
	ASSERT_EQ(0, st);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	n = pl_samples(ring, ip, x, MAX_SAMPLES);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		__u32 tid = x[i] >> 32;

		if (loop_inside(self->l, ip[i])) {
			ASSERT_EQ(a, tid) TH_LOG("sample %d in a's loop, tid %u",
						 i, tid);
			in_a++;
		} else if (loop_inside(lr, ip[i])) {
			ASSERT_EQ(b, tid) TH_LOG("sample %d in b's loop, tid %u",
						 i, tid);
			in_b++;
		}
	}
	TH_LOG("%d samples: %d in a's loop, %d in b's", n, in_a, in_b);
	ASSERT_GT(in_a, 200);
	ASSERT_GT(in_b, 200);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	free(ip);
	free(x);
}

/*
 * Precise samples in the kernel with callchains, around system calls:
 * the chain must start at the registers the PMI interrupted, never at the
 * record's RSP and RBP, which are past by the time the record is read and
 * are user values when the eventing instruction was the SYSRET (the
 * kernel's unwinder then warns of a bad 'bp', which fails the run:
 * guest/clean-log). Every kernel sample has a chain, of the kernel or,
 * when the PMI came after the return to user mode, of the user stack.
 * Root only, as kernel samples need privilege.
 */
static void ppid_work(unsigned long n)
{
	while (n--)
		getppid();
}

TEST_F(pebs, kernel_callchain)
{
	struct perf_event_attr attr;
	int fd, kernel = 0;
	__u64 off = 0, *p;
	void *ring;

	if (geteuid())
		SKIP(return, "kernel samples need privilege");
	perf_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 1;
	attr.exclude_hv = 1;
	attr.precise_ip = 2;
	attr.sample_period = 997;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = pi_record(fd, ppid_work, 50000);
	ASSERT_NE(MAP_FAILED, ring);

	while (pi_next_sample(ring, &off, &p)) {
		if (!(p[0] >> 63))
			continue;
		kernel++;
		ASSERT_GE(p[1], 2);
		ASSERT_TRUE(p[2] == (__u64)PERF_CONTEXT_KERNEL ||
			    p[2] == (__u64)PERF_CONTEXT_USER);
	}
	EXPECT_GT(kernel, 10);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

#if defined(__x86_64__)
/* the XMM registers' bits in sample_regs_*: PERF_REG_X86_XMM0 (32) on */
#define XMM_MASK	(~0ULL << 32)

/*
 * XMM registers in REGS_INTR come only from a PEBS record's XMM group
 * (format 4): of a precise event's interrupt registers, then, and never
 * of user registers; anything else is -EINVAL, as upstream gives it,
 * and on Haswell to Skylake-class cores (format 2 and 3 records, no such
 * group) even the precise event's. Where records have the group, each sample in the loop
 * has the values the loop holds in XMM0-15, low quadword first.
 */
TEST_F(pebs, regs_intr_xmm)
{
	struct perf_event_attr attr, bad;
	__u64 off = 0, lo = LABEL(px_top), hi = LABEL(px_end), *p;
	struct perf_event_header *h;
	int fd, i, inside = 0;
	void *ring;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	attr.sample_period = PI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = XMM_MASK;

	bad = attr;
	bad.sample_type |= PERF_SAMPLE_REGS_USER;
	bad.sample_regs_user = 1ULL << 32;
	ASSERT_EQ(-1, sys_perf_event_open(&bad, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	bad = attr;
	bad.precise_ip = 0;
	ASSERT_EQ(-1, sys_perf_event_open(&bad, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (pebs_fixed_record()) {
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(EINVAL, errno);
		return;
	}
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = pi_record(fd, (loop_fn)LABEL(px_work), PI_ITERS);
	ASSERT_NE(MAP_FAILED, ring);

	while ((h = pi_next_sample(ring, &off, &p))) {
		if (p[0] < lo || p[0] >= hi)
			continue;
		inside++;
		ASSERT_EQ(sizeof(*h) + 34 * sizeof(__u64), h->size);
		ASSERT_EQ(PERF_SAMPLE_REGS_ABI_64, p[1]);
		for (i = 0; i < 16; i++) {
			ASSERT_EQ(0xa000 + i, p[2 + 2 * i])
				TH_LOG("xmm%d low, sample at %#llx", i,
				       (unsigned long long)p[0]);
			ASSERT_EQ(0xb000 + i, p[3 + 2 * i])
				TH_LOG("xmm%d high", i);
		}
	}
	ASSERT_GT(inside, 50);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}
#endif

TEST_HARNESS_MAIN
