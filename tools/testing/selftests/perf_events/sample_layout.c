// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE layout: every sample_type field where the ABI puts
 * it, with the size header.size announces, and with the right values.
 *
 * The samples come from the page-fault software event with
 * sample_period 1 and exclude_kernel: it overflows synchronously, in the
 * faulting task, with the user registers of the faulting instruction.
 * Each test faults on one fresh page from a known function (fault_here())
 * and looks for the sample whose ADDR is that page; other faults the
 * process takes meanwhile (stack growth, libc) also produce samples, which
 * must parse just as well, so every record in the buffer is checked for a
 * consistent size and only the test's own sample for values.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <asm/perf_regs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"

#if defined(__x86_64__)
#define REG_IP		PERF_REG_X86_IP
#define REG_SP		PERF_REG_X86_SP
#elif defined(__aarch64__)
#define REG_IP		PERF_REG_ARM64_PC
#define REG_SP		PERF_REG_ARM64_SP
#else
#error "sample_layout: x86_64 and arm64 only"
#endif

/* ring buffer data pages; every test writes far less than this */
#define DATA_PAGES	16
#define CANARY		0x5a17c0debadc0ffeULL
#define STACK_DUMP	1024

static long page_size;

/* where fault_here() returns to, for the callchain test */
static uintptr_t fault_ret;

static void not_a_leaf(void)
{
	asm volatile("" ::: "memory");
}

/*
 * Take one page fault on @p from a frame of our own.  Always called
 * through OPAQUE(), so never inlined.  Not a leaf: its frame record
 * (return address, saved frame pointer) is set up before the store, so a
 * frame-pointer unwinder finds the caller.  The canary, forced onto its
 * stack by handing its address to the asm, lies just above the stack
 * pointer at the fault.
 */
static void fault_here(char *p)
{
	uint64_t canary = CANARY;
	uintptr_t sp, a;

	fault_ret = (uintptr_t)__builtin_return_address(0);
	asm volatile("" : : "r"(&canary) : "memory");
	/*
	 * Read the STACK_DUMP bytes above the stack pointer, which the
	 * sample copies without faulting: each page there must be present
	 * and, on arm64 without hardware access flags (QEMU's TCG), young.
	 * A page this forked test has not touched since the fork is old
	 * (fork ages the child's PTEs) and stopped the copy (992 of 1024
	 * bytes, once in CI); a read here takes the fault the copy cannot.
	 */
#if defined(__aarch64__)
	asm volatile("mov %0, sp" : "=r"(sp));
#else
	asm volatile("mov %%rsp, %0" : "=r"(sp));
#endif
	for (a = sp; a < sp + STACK_DUMP; a += 64)
		(void)__atomic_load_n((const char *)a, __ATOMIC_RELAXED);
	(void)__atomic_load_n((const char *)(sp + STACK_DUMP - 1),
			      __ATOMIC_RELAXED);
	*p = 1;
	asm volatile("" ::: "memory");
	OPAQUE(not_a_leaf)();
	asm volatile("" : : "r"(&canary) : "memory");
}

struct sampler {
	int fd;
	void *base;
	struct perf_event_mmap_page *pg;
	char *data;
	__u64 id;
};

/* The page-fault sampler every test starts from, disabled. */
static void fault_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	perf_attr_user(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = sample_type;
}

/* Open @attr on this task and map its buffer; 0 or -errno. */
static int sampler_open(struct sampler *s, struct perf_event_attr *attr,
			int group_fd)
{
	s->fd = sys_perf_event_open(attr, 0, -1, group_fd, 0);
	if (s->fd < 0)
		return -errno;
	s->base = perf_map_ring(s->fd, DATA_PAGES);
	if (s->base == MAP_FAILED)
		return -errno;
	s->pg = s->base;
	s->data = (char *)s->base + page_size;
	if (ioctl(s->fd, PERF_EVENT_IOC_ID, &s->id))
		return -errno;
	return 0;
}

/* Enable, fault once on @p from fault_here(), disable. */
static void provoke(struct sampler *s, char *p)
{
	prefault_self();
	ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
	OPAQUE(fault_here)(p);
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* What a sample says, field by field; pointers point into the buffer. */
struct sample {
	__u64 identifier, ip, time, addr, id, stream_id, period;
	__u32 pid, tid, cpu, cpu_res;
	__u64 *read;
	size_t read_len;	/* u64s */
	__u64 *chain;
	__u64 nr;
	__u64 regs_abi;
	__u64 *regs;
	__u64 stack_size, stack_dyn;
	char *stack;
	__u64 weight, data_src, txn, phys, dpsz, cpsz;
	__u16 size;		/* header.size */
};

/*
 * Parse the sample at @rec per @attr.  Returns the bytes consumed, which
 * must equal header.size.
 */
static size_t parse_sample(const struct perf_event_attr *attr, char *rec,
			   struct sample *o)
{
	__u64 t = attr->sample_type, rf = attr->read_format;
	__u64 *v = (__u64 *)(rec + sizeof(struct perf_event_header));

	memset(o, 0, sizeof(*o));
	if (t & PERF_SAMPLE_IDENTIFIER)
		o->identifier = *v++;
	if (t & PERF_SAMPLE_IP)
		o->ip = *v++;
	if (t & PERF_SAMPLE_TID) {
		o->pid = ((__u32 *)v)[0];
		o->tid = ((__u32 *)v)[1];
		v++;
	}
	if (t & PERF_SAMPLE_TIME)
		o->time = *v++;
	if (t & PERF_SAMPLE_ADDR)
		o->addr = *v++;
	if (t & PERF_SAMPLE_ID)
		o->id = *v++;
	if (t & PERF_SAMPLE_STREAM_ID)
		o->stream_id = *v++;
	if (t & PERF_SAMPLE_CPU) {
		o->cpu = ((__u32 *)v)[0];
		o->cpu_res = ((__u32 *)v)[1];
		v++;
	}
	if (t & PERF_SAMPLE_PERIOD)
		o->period = *v++;
	if (t & PERF_SAMPLE_READ) {
		__u64 per = 1 + !!(rf & PERF_FORMAT_ID) +
			    !!(rf & PERF_FORMAT_LOST);
		__u64 times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

		o->read = v;
		if (rf & PERF_FORMAT_GROUP)
			o->read_len = 1 + times + v[0] * per;
		else
			o->read_len = times + per;
		v += o->read_len;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		o->nr = *v++;
		o->chain = v;
		v += o->nr;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		o->regs_abi = *v++;
		o->regs = v;
		if (o->regs_abi)
			v += __builtin_popcountll(attr->sample_regs_user);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		o->stack_size = *v++;
		o->stack = (char *)v;
		if (o->stack_size) {
			v += o->stack_size / 8;
			o->stack_dyn = *v++;
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		o->weight = *v++;
	if (t & PERF_SAMPLE_DATA_SRC)
		o->data_src = *v++;
	if (t & PERF_SAMPLE_TRANSACTION)
		o->txn = *v++;
	if (t & PERF_SAMPLE_PHYS_ADDR)
		o->phys = *v++;
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		o->dpsz = *v++;
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		o->cpsz = *v++;
	return (char *)v - rec;
}

/*
 * Walk every record in the buffer: each sample must parse to exactly its
 * header.size.  Return the number of samples and, in @mine, the sample
 * whose ADDR is @addr (or the first sample when @addr is 0).
 */
static int walk(struct __test_metadata *_metadata, struct sampler *s,
		const struct perf_event_attr *attr, char *addr,
		struct sample *mine, int *found)
{
	__u64 head = __atomic_load_n(&s->pg->data_head, __ATOMIC_ACQUIRE);
	__u64 off = 0;
	int samples = 0;

	*found = 0;
	/* the tests write far less than the buffer: no wrap-around */
	EXPECT_LT(head, (__u64)DATA_PAGES * page_size);
	while (off < head) {
		struct perf_event_header *h = (void *)(s->data + off);
		struct sample smp;

		ASSERT_GE(h->size, sizeof(*h));
		ASSERT_EQ(0, h->size % 8);
		if (h->type == PERF_RECORD_SAMPLE) {
			EXPECT_EQ(h->size, parse_sample(attr, (char *)h, &smp));
			samples++;
			if (!*found && (!addr || smp.addr == (uintptr_t)addr)) {
				*mine = smp;
				mine->size = h->size;
				*found = 1;
				EXPECT_EQ(PERF_RECORD_MISC_USER,
					  h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
			}
		}
		off += h->size;
	}
	return samples;
}

/* IP of a fault in fault_here(): inside its few instructions */
static int ip_in_fault_here(__u64 ip)
{
	uintptr_t f = (uintptr_t)OPAQUE(fault_here);

	return ip >= f && ip < f + 512;
}

TEST(fixed_fields)
{
	__u64 type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		     PERF_SAMPLE_PERIOD;
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	__u64 t0, t1;
	int found;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, type);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	ASSERT_NE(NULL, p);

	t0 = clock_ns(CLOCK_MONOTONIC);
	provoke(&s, p);
	t1 = clock_ns(CLOCK_MONOTONIC);

	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	EXPECT_EQ(s.id, smp.identifier);
	EXPECT_EQ(s.id, smp.id);
	/* not inherited: the stream is the event itself */
	EXPECT_EQ(s.id, smp.stream_id);
	EXPECT_TRUE(ip_in_fault_here(smp.ip));
	EXPECT_EQ((__u32)getpid(), smp.pid);
	EXPECT_EQ((__u32)gettid(), smp.tid);
	EXPECT_EQ((uintptr_t)p, smp.addr);
	EXPECT_LT(smp.cpu, (__u32)sysconf(_SC_NPROCESSORS_CONF));
	EXPECT_EQ(0, smp.cpu_res);
	EXPECT_EQ(1, smp.period);
	/*
	 * The kernel reads CLOCK_MONOTONIC through its NMI-safe fast
	 * accessor, which may trail clock_gettime() by the part of a tick
	 * being folded in; allow a millisecond.
	 */
	EXPECT_GE(smp.time + 1000000, t0);
	EXPECT_LE(smp.time, t1);
	/* 8-byte header, then nine u64 slots (TID and CPU are two u32) */
	EXPECT_EQ(8 + 9 * 8, smp.size);
}

TEST(size_is_header_plus_fields)
{
	__u64 type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct sampler s;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, type);
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	provoke(&s, fresh_pages(1));
	ASSERT_GT(s.pg->data_head, 0);
	h = (void *)s.data;
	/* the first record is a sample; five u64 fields follow its header */
	ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
	EXPECT_EQ(8 + 5 * 8, h->size);
}

TEST(time_is_monotonic)
{
	struct perf_event_attr attr;
	struct sampler s;
	__u64 head, off = 0, last = 0;
	int n = 0, i;
	char *p[4];

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_TIME);
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	for (i = 0; i < 4; i++)
		ASSERT_NE(NULL, p[i] = fresh_pages(1));
	prefault_self();
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 4; i++)
		OPAQUE(fault_here)(p[i]);
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);

	head = s.pg->data_head;
	while (off < head) {
		struct perf_event_header *h = (void *)(s.data + off);

		if (h->type == PERF_RECORD_SAMPLE) {
			__u64 t = *(__u64 *)(h + 1);

			EXPECT_EQ(16, h->size);
			EXPECT_GE(t, last);
			last = t;
			n++;
		}
		off += h->size;
	}
	EXPECT_GE(n, 4);
}

TEST(read_single)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
			   PERF_FORMAT_LOST;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	ASSERT_EQ(5, smp.read_len);
	/* value: this fault at least; enabled >= running > 0 */
	EXPECT_GE(smp.read[0], 1);
	EXPECT_GT(smp.read[1], 0);
	EXPECT_GE(smp.read[1], smp.read[2]);
	EXPECT_EQ(s.id, smp.read[3]);
	EXPECT_EQ(0, smp.read[4]);
}

TEST(read_group)
{
	struct perf_event_attr attr, sib;
	struct sampler s;
	struct sample smp;
	__u64 sib_id;
	int found, sfd;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));

	/* a counting sibling of the same kind: it sees the same faults */
	perf_attr_init(&sib, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	sib.exclude_kernel = 1;
	sib.exclude_hv = 1;
	sfd = sys_perf_event_open(&sib, 0, -1, s.fd, 0);
	ASSERT_GE(sfd, 0);
	ASSERT_EQ(0, ioctl(sfd, PERF_EVENT_IOC_ID, &sib_id));

	p = fresh_pages(1);
	prefault_self();
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	OPAQUE(fault_here)(p);
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	/* nr, enabled, running, {value, id} x 2 */
	ASSERT_EQ(7, smp.read_len);
	EXPECT_EQ(2, smp.read[0]);
	EXPECT_GE(smp.read[1], smp.read[2]);
	EXPECT_GE(smp.read[3], 1);
	EXPECT_EQ(s.id, smp.read[4]);
	EXPECT_EQ(sib_id, smp.read[6]);
	/*
	 * Both count the same faults, but the sibling may count the fault
	 * being sampled after the leader's overflow wrote the sample.
	 */
	EXPECT_LE(smp.read[5], smp.read[3]);
	EXPECT_GE(smp.read[5] + 1, smp.read[3]);
	close(sfd);
}

TEST(callchain_user)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found, has_ret = 0;
	__u64 i;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		   PERF_SAMPLE_CALLCHAIN);
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	/* a user-mode fault: no kernel part, the user part starts at once */
	ASSERT_GE(smp.nr, 2);
	EXPECT_LE(smp.nr, PERF_MAX_STACK_DEPTH + PERF_MAX_CONTEXTS_PER_STACK);
	EXPECT_EQ(PERF_CONTEXT_USER, smp.chain[0]);
	EXPECT_EQ(smp.ip, smp.chain[1]);
	/* built with frame pointers: the caller's frame is found */
	for (i = 2; i < smp.nr; i++)
		if (smp.chain[i] == fault_ret)
			has_ret = 1;
	EXPECT_TRUE(has_ret);
}

TEST(callchain_max_stack)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	attr.sample_max_stack = 1;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	/* one frame, plus the context marker that does not count */
	ASSERT_EQ(2, smp.nr);
	EXPECT_EQ(PERF_CONTEXT_USER, smp.chain[0]);
}

TEST(callchain_exclude_user)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_CALLCHAIN);
	attr.exclude_callchain_user = 1;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	/* user-mode registers and no user frames: nothing at all */
	EXPECT_EQ(0, smp.nr);
}

TEST(regs_user)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		   PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = (1ULL << REG_IP) | (1ULL << REG_SP);
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, smp.regs_abi);
	/* in register-number order: SP before IP on both arches */
	EXPECT_EQ(smp.ip, smp.regs[1]);
	EXPECT_NE(0, smp.regs[0]);
}

TEST(stack_user)
{
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found, has_canary = 0;
	__u64 i;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_REGS_USER |
		   PERF_SAMPLE_STACK_USER);
	attr.sample_regs_user = 1ULL << REG_SP;
	attr.sample_stack_user = STACK_DUMP;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	p = fresh_pages(1);
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, smp.regs_abi);
	ASSERT_EQ(STACK_DUMP, smp.stack_size);
	/* the stack above sp is mapped: all of it was read */
	EXPECT_EQ(STACK_DUMP, smp.stack_dyn);
	/* fault_here()'s own frame is in the dump */
	for (i = 0; i + 8 <= smp.stack_dyn; i += 8)
		if (*(__u64 *)(smp.stack + i) == CANARY)
			has_canary = 1;
	EXPECT_TRUE(has_canary);
}

TEST(defaults_without_pmu_data)
{
	__u64 type = PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
		     PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
		     PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
		     PERF_SAMPLE_CODE_PAGE_SIZE;
	__u64 na = PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |
		   PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |
		   PERF_MEM_S(TLB, NA) | PERF_MEM_S(LVLNUM, NA);
	struct perf_event_attr attr;
	struct sampler s;
	struct sample smp;
	int found, fd;
	char *p;

	page_size = sysconf(_SC_PAGESIZE);
	fault_attr(&attr, type);
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));

	/*
	 * A write to a private file page already mapped read-only: a
	 * copy-on-write fault on a present page, so its physical address
	 * and page size can be looked up at the time of the sample.
	 */
	fd = open("/proc/self/exe", O_RDONLY);
	ASSERT_GE(fd, 0);
	p = mmap(NULL, page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* a read fault maps the page-cache page read-only */
	asm volatile("" : : "r"(p[0]) : "memory");
	provoke(&s, p);
	ASSERT_GE(walk(_metadata, &s, &attr, p, &smp, &found), 1);
	ASSERT_TRUE(found);
	EXPECT_EQ(0, smp.weight);
	EXPECT_EQ(na, smp.data_src);
	EXPECT_EQ(0, smp.txn);
	EXPECT_NE(0, smp.phys);
	EXPECT_EQ(0, smp.phys % page_size);
	/* a page-table leaf: a power of two, at least a base page */
	EXPECT_GE(smp.dpsz, page_size);
	EXPECT_EQ(0, smp.dpsz & (smp.dpsz - 1));
	EXPECT_GE(smp.cpsz, page_size);
	EXPECT_EQ(0, smp.cpsz & (smp.cpsz - 1));
	close(fd);
}

TEST(sample_id_all_on_comm)
{
	__u64 type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		     PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr attr;
	struct sampler s;
	__u64 head, off = 0;
	int comms = 0;

	page_size = sysconf(_SC_PAGESIZE);
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.sample_type = type;
	attr.sample_id_all = 1;
	attr.comm = 1;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	ASSERT_EQ(0, sampler_open(&s, &attr, -1));
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(0, prctl(PR_SET_NAME, "sample_layout"));
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);

	head = s.pg->data_head;
	while (off < head) {
		struct perf_event_header *h = (void *)(s.data + off);
		/* the trailer: pid/tid, time, id, stream_id, cpu, identifier */
		__u64 *tr = (__u64 *)((char *)h + h->size) - 6;

		ASSERT_GE(h->size, 8);
		if (h->type == PERF_RECORD_COMM) {
			__u32 *pt = (__u32 *)(h + 1);

			comms++;
			/* header, pid, tid, "sample_layout\0" in 16, trailer */
			EXPECT_EQ(8 + 8 + 16 + 6 * 8, h->size);
			EXPECT_EQ(0, strcmp((char *)(pt + 2), "sample_layout"));
			EXPECT_EQ((__u32)getpid(), ((__u32 *)tr)[0]);
			EXPECT_EQ((__u32)gettid(), ((__u32 *)tr)[1]);
			EXPECT_NE(0, tr[1]);
			EXPECT_EQ(s.id, tr[2]);
			EXPECT_EQ(s.id, tr[3]);
			EXPECT_LT(((__u32 *)&tr[4])[0],
				  (__u32)sysconf(_SC_NPROCESSORS_CONF));
			EXPECT_EQ(s.id, tr[5]);
		}
		off += h->size;
	}
	EXPECT_EQ(1, comms);
}

TEST_HARNESS_MAIN
