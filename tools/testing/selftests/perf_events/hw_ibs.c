// SPDX-License-Identifier: GPL-2.0
/*
 * AMD Instruction-Based Sampling: the ibs_op and ibs_fetch PMUs, and
 * precise events of the core PMU, which land on ibs_op.
 *
 * loop5_work(n) runs n iterations of five instructions, the last a taken
 * conditional branch, and ls_work(buf, n) five with two loads and a
 * store at fixed offsets of buf. IBS counts one op per instruction on
 * the rig's model (rig/qemu), and tags the op that ends each period of
 * MaxCnt ops: a sample names that op's address exactly
 * (PERF_RECORD_MISC_EXACT_IP), so consecutive samples inside a loop are
 * P mod 5 positions apart, but where the kernel ran between them (IBS
 * has no privilege filter, and its ops count too). For a load or a
 * store the sample has the data address. Fetch samples name the
 * address of the fetch.
 *
 * Runs where the CPU has IBS ("ibs" in /proc/cpuinfo) and the kernel
 * registered ibs_op and ibs_fetch; the rig boots it on the zen3 and zen4
 * identities only (rig/mkinitramfs.sh). Elsewhere every test SKIPs.
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
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "loop_common.h"
#include "perf_test.h"

#define RING_PAGES	128
#define MAX_SAMPLES	8192
#define ITERS		1000000UL
/* periods (multiples of 16): 1 and 2 positions of the loop a period */
#define PERIOD		20016
#define PERIOD2		30032

#define IBS_DIR		"/sys/bus/event_source/devices/"
/* IbsOpCtl / IbsFetchCtl fields (APM vol. 2) */
#define OP_CNT_CTL	0x80000ULL		/* bit 19 */
#define OP_VAL		0x40000ULL		/* bit 18 */
#define OP_EN		0x20000ULL		/* bit 17 */
#define FETCH_VAL	0x2000000000000ULL	/* bit 49 */
#define FETCH_EN	0x1000000000000ULL	/* bit 48 */
/* IbsOpData3 */
#define D3_LD		0x1ULL			/* bit 0 */
#define D3_ST		0x2ULL			/* bit 1 */
#define D3_LIN_VALID	0x20000ULL		/* bit 17 */
/* CPUID 8000_001Bh EAX */
#define CAP_OPCNT	0x10U			/* bit 4 */
#define CAP_BRNTRGT	0x20U			/* bit 5 */
#define CAP_OPDATA4	0x400U			/* bit 10 */
#define CAP_FETCHEXTD	0x200U			/* bit 9 */
#define CAP_OPCNTEXT	0x40U			/* bit 6 */
#define CAP_ZEN4	0x800U			/* bit 11 */
/* IbsOpCtl L3MissOnly, with the Zen 4 extensions */
#define OP_L3MISSONLY	0x10000ULL		/* bit 16 */

typedef void (*ls_fn)(void *buf, unsigned long n);

#if defined(__x86_64__)
asm(".text\n"
	"ls_work:\n"
	"ls_i0:	mov 0(%rdi), %rax\n"
	"ls_i1:	mov %rax, 64(%rdi)\n"
	"ls_i2:	mov 128(%rdi), %rdx\n"
	"ls_i3:	dec %rsi\n"
	"ls_i4:	jnz ls_i0\n"
	"ls_ret:	ret\n");

static void ls_work(void *buf, unsigned long n)
{
	((ls_fn)LABEL(ls_work))(buf, n);
}

/*
 * lv_work(buf, n, mask): n iterations of five instructions, one a load
 * from the next 64-byte line of @buf, wrapping at @mask + 1 bytes (a
 * power of two): a walk whose lines come back after mask / 64 loads.
 */
asm(".text\n"
	"lv_work:\n"
	"	xor %ecx, %ecx\n"
	"lv_i0:	mov (%rdi,%rcx), %rax\n"
	"	add $64, %rcx\n"
	"	and %rdx, %rcx\n"
	"	dec %rsi\n"
	"	jnz lv_i0\n"
	"	ret\n");

static void lv_walk(void *buf, unsigned long n, unsigned long mask)
{
	((void (*)(void *, unsigned long, unsigned long))LABEL(lv_work))
		(buf, n, mask);
}

static void ls_labels(unsigned long *l)
{
	l[0] = LABEL(ls_i0);
	l[1] = LABEL(ls_i1);
	l[2] = LABEL(ls_i2);
	l[3] = LABEL(ls_i3);
	l[4] = LABEL(ls_i4);
	l[5] = LABEL(ls_ret);
}

static unsigned int cpuid_ibs_caps(void)
{
	unsigned int a = 0x8000001b, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return a;
}

#else
static void ls_work(void *buf, unsigned long n)
{
}

static void lv_walk(void *buf, unsigned long n, unsigned long mask)
{
}

static void ls_labels(unsigned long *l)
{
	memset(l, 0, 6 * sizeof(*l));
}

static unsigned int cpuid_ibs_caps(void)
{
	return 0;
}
#endif

struct ib_sample {
	__u16 misc;
	__u64 ip;
	__u64 addr;
	__u64 period;
	__u64 nr_chain;
	__u64 chain[8];
	__u32 raw_size;
	__u32 raw_caps;
	__u64 raw[16];
	__u64 weight;
	__u64 data_src;
};

/* the fields of a PERF_RECORD_SAMPLE of @type, in the ABI's order */
static void ib_parse(const struct perf_event_header *h, __u64 type,
		     struct ib_sample *s)
{
	const __u64 *p = (const __u64 *)(h + 1);

	memset(s, 0, sizeof(*s));
	s->misc = h->misc;
	if (type & PERF_SAMPLE_IP)
		s->ip = *p++;
	if (type & PERF_SAMPLE_ADDR)
		s->addr = *p++;
	if (type & PERF_SAMPLE_PERIOD)
		s->period = *p++;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		__u64 nr = *p++;

		s->nr_chain = nr;
		memcpy(s->chain, p, (nr < 8 ? nr : 8) * sizeof(__u64));
		p += nr;
	}
	if (type & PERF_SAMPLE_RAW) {
		const char *r = (const char *)p;
		__u32 size;

		memcpy(&size, r, 4);
		s->raw_size = size;
		if (size >= 4)
			memcpy(&s->raw_caps, r + 4, 4);
		if (size > 4)
			memcpy(s->raw, r + 8,
			       (size - 4 < sizeof(s->raw) ? size - 4 :
				sizeof(s->raw)));
		p = (const __u64 *)(r + ((4 + size + 7) & ~7U));
	}
	if (type & PERF_SAMPLE_WEIGHT)
		s->weight = *p++;
	if (type & PERF_SAMPLE_DATA_SRC)
		s->data_src = *p++;
}

/* the samples in @base's ring, -1 if one is malformed */
static int ib_samples(void *base, __u64 type, struct ib_sample *out, int max,
		      int *throttles)
{
	struct perf_event_header *h;
	bool bad = false;
	__u64 off = 0;
	int n = 0;

	while (n < max && (h = perf_ring_next(base, RING_PAGES, &off, &bad))) {
		if (h->type == PERF_RECORD_SAMPLE)
			ib_parse(h, type, &out[n++]);
		else if (h->type == PERF_RECORD_THROTTLE && throttles)
			(*throttles)++;
	}
	return bad ? -1 : n;
}

static int pmu_type(const char *pmu)
{
	char path[256];

	snprintf(path, sizeof(path), IBS_DIR "%s/type", pmu);
	return read_int(path);
}

static bool has_ibs(void)
{
	return HAVE_LOOP && cpu_has_flag("ibs") && pmu_type("ibs_op") > 0 &&
	       pmu_type("ibs_fetch") > 0;
}

/*
 * Where the samples of a run fell: @hist[i] of them on the loop's
 * instruction i (5 the RET after it). Returns how many were in the loop,
 * -1 on one that is not on an instruction of it or lacks EXACT_IP.
 */
static int ib_hist(const struct ib_sample *s, int n, const unsigned long *l,
		   int *hist)
{
	int i, pos, inside = 0;

	memset(hist, 0, 6 * sizeof(*hist));
	for (i = 0; i < n; i++) {
		if (!loop_inside(l, s[i].ip))
			continue;
		pos = loop_pos(l, s[i].ip);
		if (pos < 0 || !(s[i].misc & PERF_RECORD_MISC_EXACT_IP)) {
			fprintf(stderr, "# sample %d: ip %#llx (pos %d) misc %#x\n",
				i, (unsigned long long)s[i].ip, pos, s[i].misc);
			return -1;
		}
		hist[pos]++;
		inside++;
	}
	return inside;
}

/* the loop instruction most samples fell on, -1 unless 80% did */
static int ib_mode(const int *hist, int inside)
{
	int i, best = 0;

	for (i = 1; i < LOOP_LEN; i++)
		if (hist[i] > hist[best])
			best = i;
	return hist[best] * 10 >= inside * 8 ? best : -1;
}

FIXTURE(ibs) {
	unsigned long l[6];
	unsigned long ls[6];
	struct ib_sample *s;
	struct sample_limits saved;
	bool raised;
	int op, fetch;
	unsigned int caps;
	char *buf;
};

FIXTURE_SETUP(ibs)
{
	int ret;

	if (!has_ibs())
		SKIP(return, "no IBS on this CPU, or no ibs_op/ibs_fetch PMU");
	ret = sample_limits_raise_as_root(&self->saved, &self->raised);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
	self->s = calloc(MAX_SAMPLES, sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
	self->buf = aligned_alloc(4096, 4096);
	ASSERT_NE(NULL, self->buf);
	memset(self->buf, 0x5a, 4096);
	loop5_labels(self->l);
	ls_labels(self->ls);
	self->op = pmu_type("ibs_op");
	self->fetch = pmu_type("ibs_fetch");
	self->caps = cpuid_ibs_caps();
}

FIXTURE_TEARDOWN_PARENT(ibs)
{
	if (self->raised)
		sample_limits_set(&self->saved);
}

/* a sampling event of this task, opened disabled */
static void ib_attr(struct perf_event_attr *attr, int type, __u64 config,
		    __u64 period, __u64 sample_type)
{
	perf_attr_init(attr, type, config);
	attr->disabled = 1;
	attr->sample_period = period;
	attr->sample_type = sample_type;
}

typedef void (*ib_work_fn)(void *arg, unsigned long iters);

static void ib_loop5(void *arg, unsigned long iters)
{
	loop5_work(iters);
}

static void ib_ls(void *buf, unsigned long iters)
{
	ls_work(buf, iters);
}

/*
 * Open @attr, run @work(@arg, @iters) while it is enabled and collect its
 * samples into @s (room for @max): how many, -1 on error.
 */
static int ib_run_work(struct __test_metadata *_metadata,
		       struct perf_event_attr *attr, struct ib_sample *s,
		       int max, ib_work_fn work, void *arg, unsigned long iters,
		       int *throttles)
{
	int fd, n;
	void *ring;

	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fd < 0) {
		TH_LOG("open type %u config %#llx: %s", attr->type,
		       (unsigned long long)attr->config, strerror(errno));
		return -1;
	}
	ring = perf_map_ring(fd, RING_PAGES);
	if (ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(arg, iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = ib_samples(ring, attr->sample_type, s, max, throttles);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	return n;
}

/* ib_run_work() of loop5_work(@iters), or of ls_work over @buf */
static int ib_run(struct __test_metadata *_metadata,
		  struct perf_event_attr *attr, struct ib_sample *s, int max,
		  char *buf, unsigned long iters, int *throttles)
{
	return ib_run_work(_metadata, attr, s, max,
			   buf ? ib_ls : ib_loop5, buf, iters,
			   throttles);
}

/*
 * The engine stops at each tagged op until the NMI handler re-arms it,
 * the NMI comes at the end of the emulator's translation block (the
 * loop's back edge), and the kernel's ops after the re-arm count: in a
 * steady loop every sample lands on the same instruction, (P - K) mod 5
 * for a K of the kernel's own, as long as nothing else interrupts. So
 * the period shows exactly in where that instruction moves when the
 * period grows by 16: one position (16 mod 5) further per step.
 *
 * For @attr (its period field, or config's MaxCnt when @in_config) at
 * @base + 16 k for k = 0..2: every sample in the loop exact and on an
 * instruction, 80% of them on one instruction, that one k positions past
 * the first run's, and about as many samples as ITERS * 5 ops make
 * periods.
 */
static void ib_periods(struct __test_metadata *_metadata,
		       struct perf_event_attr *attr, struct ib_sample *s,
		       const unsigned long *l, __u64 base, bool in_config)
{
	int k, n, inside, mode, first = -1, hist[6];
	__u64 period, want;

	for (k = 0; k < 3; k++) {
		period = base + 16 * k;
		if (in_config)
			attr->config = (attr->config & ~0xffffULL) |
				       (period >> 4);
		else
			attr->sample_period = period;
		n = ib_run(_metadata, attr, s, MAX_SAMPLES, NULL, ITERS, NULL);
		ASSERT_GT(n, 0);
		inside = ib_hist(s, n, l, hist);
		mode = ib_mode(hist, inside);
		want = ITERS * LOOP_LEN / period;
		TH_LOG("period %llu: %d samples, %d in the loop (%llu wanted)",
		       (unsigned long long)period, n, inside,
		       (unsigned long long)want);
		TH_LOG("by position: %d %d %d %d %d", hist[0], hist[1],
		       hist[2], hist[3], hist[4]);
		ASSERT_GE(inside, 0);
		ASSERT_GE(mode, 0);
		/*
		 * The kernel's ops count too: more samples than the loop's
		 * ops alone make (a debug kernel's re-arm path is longer),
		 * some of them (interrupts, the first run's page faults)
		 * out of the loop
		 */
		ASSERT_GE(n * 10, want * 9);
		ASSERT_GE(inside * 4, want * 3);
		ASSERT_LE(inside * 10, want * 14);
		if (k == 0)
			first = mode;
		else
			ASSERT_EQ((first + k) % LOOP_LEN, mode);
	}
}

/* format/ and caps/ as upstream's: rand_en, cnt_ctl where CPUID has it */
TEST_F(ibs, sysfs_files)
{
	char buf[64];

	ASSERT_EQ(0, read_file(IBS_DIR "ibs_fetch/format/rand_en", buf,
			       sizeof(buf)));
	ASSERT_STREQ("config:57\n", buf);
	if (self->caps & CAP_OPCNT) {
		ASSERT_EQ(0, read_file(IBS_DIR "ibs_op/format/cnt_ctl", buf,
				       sizeof(buf)));
		ASSERT_STREQ("config:19\n", buf);
	} else {
		ASSERT_NE(0, access(IBS_DIR "ibs_op/format/cnt_ctl", F_OK));
	}
	ASSERT_EQ(0, access(IBS_DIR "ibs_op/caps", F_OK));
	ASSERT_EQ(0, access(IBS_DIR "ibs_fetch/caps", F_OK));
	/* the core PMU has no precise mode of its own on AMD */
	ASSERT_EQ(0, hw_pmu_cap("max_precise"));
}

/* cnt_ctl=1 counts ops: exact samples, exactly a period of ops apart */
TEST_F(ibs, op_counts_ops)
{
	struct perf_event_attr attr;

	if (!(self->caps & CAP_OPCNT))
		SKIP(return, "no IbsOpCntCtl");
	ib_attr(&attr, self->op, OP_CNT_CTL, PERIOD, PERF_SAMPLE_IP);
	ib_periods(_metadata, &attr, self->s, self->l, PERIOD, false);
}

/* the period may be given in config's MaxCnt instead */
TEST_F(ibs, op_period_in_config)
{
	struct perf_event_attr attr;

	if (!(self->caps & CAP_OPCNT))
		SKIP(return, "no IbsOpCntCtl");
	ib_attr(&attr, self->op, OP_CNT_CTL, 0, PERF_SAMPLE_IP);
	ib_periods(_metadata, &attr, self->s, self->l, PERIOD, true);
}

/*
 * A period past 20 bits takes OpCntExt (IbsOpCtl[26:20]): as many
 * samples as such periods make, not one every 16 ops
 */
TEST_F(ibs, op_long_period)
{
	struct perf_event_attr attr;
	const __u64 period = (1 << 20) + 0x1230;
	int n, inside, hist[6];

	if (!(self->caps & CAP_OPCNTEXT))
		SKIP(return, "no OpCntExt");
	ib_attr(&attr, self->op, self->caps & CAP_OPCNT ? OP_CNT_CTL : 0,
		period, PERF_SAMPLE_IP);
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, 4 * ITERS,
		   NULL);
	inside = ib_hist(self->s, n, self->l, hist);
	TH_LOG("%d samples, %d in the loop", n, inside);
	ASSERT_GE(inside, 16);
	ASSERT_LE(n, 24);
}

/*
 * cnt_ctl says what the op engine counts, ops or cycles (the model's ops
 * take a cycle each, so both sample alike): IbsOpCtl[19] in the raw
 * record is as asked, and cycle samples are as exact
 */
TEST_F(ibs, op_counts_cycles)
{
	struct perf_event_attr attr;
	int n, i, inside, hist[6];

	ib_attr(&attr, self->op, 0, PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_RAW);
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS, NULL);
	ASSERT_GT(n, 0);
	inside = ib_hist(self->s, n, self->l, hist);
	TH_LOG("cycles: %d samples, %d in the loop", n, inside);
	ASSERT_GE(ib_mode(hist, inside), 0);
	ASSERT_GT(inside, 200);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, self->s[i].raw[0] & OP_CNT_CTL);
	if (!(self->caps & CAP_OPCNT))
		return;
	attr.config = OP_CNT_CTL;
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS, NULL);
	ASSERT_GT(n, 0);
	inside = ib_hist(self->s, n, self->l, hist);
	TH_LOG("ops: %d samples, %d in the loop", n, inside);
	ASSERT_GT(inside, 200);
	for (i = 0; i < n; i++)
		ASSERT_EQ(OP_CNT_CTL, self->s[i].raw[0] & OP_CNT_CTL);
}

/*
 * ls_work's samples at five periods, 16 ops apart, which put them on
 * each of its five instructions in turn: how many, into @s
 */
static int ls_collect(struct __test_metadata *_metadata,
		      struct perf_event_attr *attr, struct ib_sample *s,
		      char *buf)
{
	int k, n, total = 0;

	for (k = 0; k < LOOP_LEN; k++) {
		attr->sample_period = PERIOD + 16 * k;
		n = ib_run(_metadata, attr, s + total, MAX_SAMPLES - total,
			   buf, ITERS / 2, NULL);
		if (n < 0)
			return -1;
		total += n;
	}
	return total;
}

/* loads and stores: the data address and the operation, exactly */
TEST_F(ibs, loads_and_stores_give_the_address)
{
	struct perf_event_attr attr;
	unsigned long base = (unsigned long)self->buf;
	int n, i, pos, mem[3] = { 0 };

	ib_attr(&attr, self->op, self->caps & CAP_OPCNT ? OP_CNT_CTL : 0,
		PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_DATA_SRC);
	n = ls_collect(_metadata, &attr, self->s, self->buf);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		union perf_mem_data_src ds = { .val = self->s[i].data_src };

		pos = loop_pos(self->ls, self->s[i].ip);
		if (pos < 0)
			continue;
		ASSERT_TRUE(self->s[i].misc & PERF_RECORD_MISC_EXACT_IP);
		switch (pos) {
		case 0:
		case 2:
			ASSERT_EQ(base + 64 * pos, self->s[i].addr);
			ASSERT_EQ(PERF_MEM_OP_LOAD, (__u64)ds.mem_op);
			mem[pos]++;
			break;
		case 1:
			ASSERT_EQ(base + 64, self->s[i].addr);
			ASSERT_EQ(PERF_MEM_OP_STORE, (__u64)ds.mem_op);
			mem[1]++;
			break;
		default:
			ASSERT_EQ(0, self->s[i].addr);
			ASSERT_EQ(PERF_MEM_OP_NA, (__u64)ds.mem_op);
		}
	}
	TH_LOG("%d samples: %d, %d, %d on the loads and the store", n,
	       mem[0], mem[2], mem[1]);
	ASSERT_GT(mem[0], 10);
	ASSERT_GT(mem[1], 10);
	ASSERT_GT(mem[2], 10);
}

/*
 * PERF_SAMPLE_RAW: CPUID 8000_001Bh EAX, then IbsOpCtl (valid), IbsOpRip
 * (the sample's IP), the data registers, IbsBrTarget and IbsOpData4
 * where CPUID has them; IbsOpData3 and IbsDcLinAd say what the sample
 * said of a load, IbsBrTarget where the loop's branch goes
 */
TEST_F(ibs, raw_op_record)
{
	struct perf_event_attr attr;
	unsigned int regs = 7;
	int n, i, loads = 0, branches = 0;

	if (self->caps & CAP_BRNTRGT)
		regs++;
	if (self->caps & CAP_OPDATA4)
		regs++;
	ib_attr(&attr, self->op, self->caps & CAP_OPCNT ? OP_CNT_CTL : 0,
		PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_RAW);
	n = ls_collect(_metadata, &attr, self->s, self->buf);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct ib_sample *s = &self->s[i];

		ASSERT_EQ(4 + 8 * regs, s->raw_size);
		ASSERT_EQ(self->caps, s->raw_caps);
		ASSERT_TRUE(s->raw[0] & OP_VAL);
		if (!(s->misc & PERF_RECORD_MISC_EXACT_IP))
			continue;
		ASSERT_EQ(s->ip, s->raw[1]);
		if (s->ip == self->ls[0]) {
			ASSERT_TRUE(s->raw[4] & D3_LD);
			ASSERT_TRUE(s->raw[4] & D3_LIN_VALID);
			ASSERT_EQ(s->addr, s->raw[5]);
			loads++;
		}
		if (s->ip == self->ls[4] && (self->caps & CAP_BRNTRGT)) {
			ASSERT_EQ(self->ls[0], s->raw[7]);
			branches++;
		}
	}
	TH_LOG("%d samples, %d of the first load, %d of the branch", n,
	       loads, branches);
	ASSERT_GT(loads, 10);
	if (self->caps & CAP_BRNTRGT)
		ASSERT_GT(branches, 10);
}

/* callchains start at the interrupted user code */
TEST_F(ibs, callchain)
{
	struct perf_event_attr attr;
	int n, i, user = 0;

	ib_attr(&attr, self->op, self->caps & CAP_OPCNT ? OP_CNT_CTL : 0,
		PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS, NULL);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct ib_sample *s = &self->s[i];

		/* an NMI in the kernel starts with the kernel's frames */
		if (!loop_inside(self->l, s->ip) || s->nr_chain < 2 ||
		    s->chain[0] != PERF_CONTEXT_USER)
			continue;
		/* the interrupted IP: in the loop, past the sampled op */
		if (loop_inside(self->l, s->chain[1]))
			user++;
	}
	TH_LOG("%d samples, %d with a user callchain in the loop", n, user);
	ASSERT_GT(user, 200);
}

/*
 * cycles:pp and cycles:p of the core PMU are ibs_op's: exact samples;
 * raw 0xC1:p counts ops; precise_ip 3 and other events are refused
 */
TEST_F(ibs, core_precise_events_go_to_ibs_op)
{
	struct perf_event_attr attr;
	int n, fd, inside, hist[6];

	ib_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERIOD,
		PERF_SAMPLE_IP | PERF_SAMPLE_RAW);
	for (attr.precise_ip = 1; attr.precise_ip <= 2; attr.precise_ip++) {
		n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS,
			   NULL);
		ASSERT_GT(n, 0);
		inside = ib_hist(self->s, n, self->l, hist);
		TH_LOG("cycles precise_ip %d: %d samples, %d in the loop",
		       attr.precise_ip, n, inside);
		ASSERT_GE(ib_mode(hist, inside), 0);
		ASSERT_GT(inside, 200);
		/* an IbsOpCtl of the cycles kind */
		ASSERT_EQ(4 + 8 * (7 + !!(self->caps & CAP_BRNTRGT) +
				   !!(self->caps & CAP_OPDATA4)),
			  self->s[0].raw_size);
		ASSERT_EQ(0, self->s[0].raw[0] & OP_CNT_CTL);
	}

	if (self->caps & CAP_OPCNT) {
		ib_attr(&attr, PERF_TYPE_RAW, 0xc1, PERIOD, PERF_SAMPLE_IP);
		attr.precise_ip = 2;
		ib_periods(_metadata, &attr, self->s, self->l, PERIOD, false);
	}

	ib_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERIOD,
		PERF_SAMPLE_IP);
	attr.precise_ip = 3;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EOPNOTSUPP, errno);
	/* only cycles and retired ops have an IBS form */
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.precise_ip = 2;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(ENOENT, errno);
	/* IBS filters no privilege level */
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* counting only: ibs_op has no such event */
	attr.exclude_kernel = 0;
	attr.sample_period = 0;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* without precise_ip it stays a core counter */
	attr.precise_ip = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
}

/* ibs_fetch: samples at the address of the fetch, exact */
TEST_F(ibs, fetch_samples_the_fetch_address)
{
	struct perf_event_attr attr;
	int n, i, inside, hist[6];

	ib_attr(&attr, self->fetch, 0, PERIOD,
		PERF_SAMPLE_IP | PERF_SAMPLE_RAW);
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS, NULL);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct ib_sample *s = &self->s[i];

		ASSERT_EQ(4 + 8 * (3 + !!(self->caps & CAP_FETCHEXTD)),
			  s->raw_size);
		ASSERT_TRUE(s->raw[0] & FETCH_VAL);
		ASSERT_TRUE(s->misc & PERF_RECORD_MISC_EXACT_IP);
		ASSERT_EQ(s->ip, s->raw[1]);
	}
	inside = ib_hist(self->s, n, self->l, hist);
	TH_LOG("%d fetch samples, %d in the loop", n, inside);
	ASSERT_GE(ib_mode(hist, inside), 0);
	ASSERT_GT(inside, 200);
}

/*
 * Frequency mode: the period starts at 16 ops and the core steers it
 * towards the rate asked for; within the run it must have grown far
 * past the ops the kernel spends on a sample, and most samples be the
 * loop's
 */
TEST_F(ibs, freq_mode_steers_the_period)
{
	struct perf_event_attr attr;
	int n, i, inside, hist[6];

	ib_attr(&attr, self->op, 0, 0, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	attr.freq = 1;
	attr.sample_freq = 4000;
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, 4 * ITERS,
		   NULL);
	ASSERT_GT(n, 10);
	inside = ib_hist(self->s, n, self->l, hist);
	for (i = 0; i < n; i += n / 8)
		TH_LOG("sample %d: period %llu ip %#llx", i,
		       (unsigned long long)self->s[i].period,
		       (unsigned long long)self->s[i].ip);
	TH_LOG("%d samples, %d in the loop, last period %llu", n, inside,
	       (unsigned long long)self->s[n - 1].period);
	ASSERT_GT(self->s[n - 1].period, 10000);
	ASSERT_GE(inside * 10, n * 5);
}

/* a buffer lv_walk() walks: where it is, and its size */
struct lv_buf {
	char *base;
	unsigned long size;
};

static void lv_run(void *arg, unsigned long iters)
{
	struct lv_buf *b = arg;

	lv_walk(b->base, iters, b->size - 1);
}

/*
 * Of the load samples from @b among @s: how many, how many from @level,
 * how many of those with weight @weight; the lowest and highest weight
 */
struct lv_count {
	int loads, at_level, weighed;
	__u64 min_weight, max_weight;
};

static void lv_tally(const struct ib_sample *s, int n, const struct lv_buf *b,
		     __u64 level, __u64 weight, struct lv_count *c)
{
	unsigned long base = (unsigned long)b->base;
	int i;

	for (i = 0; i < n; i++) {
		union perf_mem_data_src ds = { .val = s[i].data_src };

		if (s[i].addr < base || s[i].addr >= base + b->size ||
		    ds.mem_op != PERF_MEM_OP_LOAD)
			continue;
		if (!c->loads || s[i].weight < c->min_weight)
			c->min_weight = s[i].weight;
		if (s[i].weight > c->max_weight)
			c->max_weight = s[i].weight;
		c->loads++;
		if (ds.mem_lvl_num != level || !(ds.mem_lvl & PERF_MEM_LVL_HIT))
			continue;
		c->at_level++;
		if (s[i].weight == weight)
			c->weighed++;
	}
}

/*
 * Sample the loads of lv_walk() over @b at five periods 16 ops apart
 * (one of them puts the samples on the load) with @config: the tally of
 * those at @level
 */
static void lv_sample(struct __test_metadata *_metadata, int op,
		      struct ib_sample *s, __u64 config, struct lv_buf *b,
		      __u64 level, __u64 weight, struct lv_count *c)
{
	struct perf_event_attr attr;
	int k, n;

	memset(c, 0, sizeof(*c));
	ib_attr(&attr, op, config, PERIOD, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC);
	for (k = 0; k < LOOP_LEN; k++) {
		attr.sample_period = PERIOD + 16 * k;
		n = ib_run_work(_metadata, &attr, s, MAX_SAMPLES, lv_run, b,
				ITERS / 2, NULL);
		ASSERT_GE(n, 0);
		lv_tally(s, n, b, level, weight, c);
	}
}

static void lv_alloc(struct __test_metadata *_metadata, struct lv_buf *b,
		     unsigned long size)
{
	b->size = size;
	b->base = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, b->base);
	memset(b->base, 1, size);
}

/*
 * Where each load's data came from, by the emulator's caches (rig/qemu
 * patches 19 and 21: a direct-mapped 32 KB L1D and 1 MB L2, by linear
 * address, memory behind them): walked over and over, a 4 KB buffer's
 * lines stay in L1, a 256 KB one's in L2 only, an 8 MB one's in neither.
 * A load that missed L1 weighs its latency (IbsOpData3 DcMissLat: the
 * model's 14 cycles from L2, 200 from memory), one that hit nothing.
 * Nine in ten of each buffer's load samples, as the handler's own loads
 * evict a few lines.
 */
TEST_F(ibs, load_sources_follow_the_caches)
{
	static const struct {
		unsigned long size;
		__u64 level, weight;
	} walk[] = {
		{ 4096, PERF_MEM_LVLNUM_L1, 0 },
		{ 256 << 10, PERF_MEM_LVLNUM_L2, 14 },
		{ 8 << 20, PERF_MEM_LVLNUM_RAM, 200 },
	};
	__u64 cfg = self->caps & CAP_OPCNT ? OP_CNT_CTL : 0;
	struct lv_count c;
	struct lv_buf b;
	int i;

	for (i = 0; i < ARRAY_SIZE(walk); i++) {
		lv_alloc(_metadata, &b, walk[i].size);
		lv_sample(_metadata, self->op, self->s, cfg, &b, walk[i].level,
			  walk[i].weight, &c);
		munmap(b.base, b.size);
		TH_LOG("%lu KB: %d loads, %d from level %llu, %d weigh %llu (%llu-%llu)",
		       walk[i].size >> 10, c.loads, c.at_level,
		       (unsigned long long)walk[i].level, c.weighed,
		       (unsigned long long)walk[i].weight,
		       (unsigned long long)c.min_weight,
		       (unsigned long long)c.max_weight);
		ASSERT_GT(c.loads, 20);
		ASSERT_GE(c.at_level * 10, c.loads * 9);
		ASSERT_EQ(c.weighed, c.at_level);
	}
}

/*
 * L3MissOnly (Zen 4 extensions): only ops whose data missed the last
 * cache are tagged, so of the same walks the 8 MB one gives samples, all
 * of them from memory, and the 256 KB one (L2 hits but for its first
 * pass) next to none. Without the extensions the bit is refused, as
 * upstream refuses it: -EINVAL.
 */
TEST_F(ibs, l3missonly_samples_only_misses)
{
	__u64 cfg = (self->caps & CAP_OPCNT ? OP_CNT_CTL : 0) | OP_L3MISSONLY;
	struct perf_event_attr attr;
	struct lv_count warm, cold;
	struct lv_buf b;

	if (!(self->caps & CAP_ZEN4)) {
		ib_attr(&attr, self->op, cfg, PERIOD, PERF_SAMPLE_IP);
		ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
		ASSERT_EQ(EINVAL, errno);
		return;
	}
	lv_alloc(_metadata, &b, 256 << 10);
	lv_sample(_metadata, self->op, self->s, cfg, &b, PERF_MEM_LVLNUM_RAM,
		  200, &warm);
	munmap(b.base, b.size);
	lv_alloc(_metadata, &b, 8 << 20);
	lv_sample(_metadata, self->op, self->s, cfg, &b, PERF_MEM_LVLNUM_RAM,
		  200, &cold);
	munmap(b.base, b.size);
	TH_LOG("256 KB: %d load samples; 8 MB: %d, %d from memory",
	       warm.loads, cold.loads, cold.at_level);
	ASSERT_GT(cold.loads, 20);
	ASSERT_EQ(cold.at_level, cold.loads);
	ASSERT_LE(warm.loads * 10, cold.loads);
}

/* what both PMUs refuse, with upstream's errnos */
TEST_F(ibs, errors)
{
	struct perf_event_attr attr, lead;
	int fd, gfd;

	/* counting only: no period anywhere */
	ib_attr(&attr, self->op, 0, 0, 0);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	ib_attr(&attr, self->fetch, 0, 0, 0);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* bits no user may set: the enable, the valid bit, reserved ones */
	ib_attr(&attr, self->op, OP_EN, PERIOD, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	attr.config = 1ULL << 63;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	ib_attr(&attr, self->fetch, FETCH_EN, PERIOD, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* the period twice */
	ib_attr(&attr, self->op, 0x100, PERIOD, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* one that is no multiple of 16 is rounded down, not refused */
	ib_attr(&attr, self->op, 0, PERIOD + 1, PERF_SAMPLE_IP);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	/* no privilege filter */
	ib_attr(&attr, self->op, 0, PERIOD, PERF_SAMPLE_IP);
	attr.exclude_user = 1;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* no branch stack */
	ib_attr(&attr, self->op, 0, PERIOD, PERF_SAMPLE_BRANCH_STACK);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EOPNOTSUPP, errno);
	/* one event per engine in a group */
	ib_attr(&lead, self->op, 0, PERIOD, PERF_SAMPLE_IP);
	gfd = sys_perf_event_open(&lead, 0, -1, -1, 0);
	ASSERT_GE(gfd, 0);
	ib_attr(&attr, self->op, 0, PERIOD, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, gfd, 0));
	ASSERT_EQ(EINVAL, errno);
	close(gfd);
	/* a period of 16 opens */
	ib_attr(&attr, self->op, 0, 16, PERF_SAMPLE_IP);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
}

/*
 * A tiny period throttles through the core's overflow path: the event
 * stops until the next tick (PERF_RECORD_THROTTLE), and runs again
 */
TEST_F(ibs, tiny_period_throttles)
{
	struct perf_event_attr attr;
	struct sample_limits slow = { .rate = 1000, .pct = -1 };
	int n, throttles = 0;

	if (!self->raised)
		SKIP(return, "needs root to lower the sample rate");
	ASSERT_EQ(0, sample_limits_set(&slow));
	ib_attr(&attr, self->op, 0, 64, PERF_SAMPLE_IP);
	n = ib_run(_metadata, &attr, self->s, MAX_SAMPLES, NULL, ITERS,
		   &throttles);
	TH_LOG("%d samples, %d throttles", n, throttles);
	ASSERT_GT(n, 0);
	ASSERT_GT(throttles, 0);
}

TEST_HARNESS_MAIN
