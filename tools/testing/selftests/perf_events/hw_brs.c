// SPDX-License-Identifier: GPL-2.0
/*
 * AMD Branch Sampling (BRS, Zen 3): branch stacks of the retired taken
 * branch event, which BRS fills with the 16 taken branches that follow
 * the counter's overflow before the PMI goes out.
 *
 * brs_work(n) runs n iterations of two taken branches, a JMP and the
 * JNZ back (the last JNZ is not taken), so a user-only stack taken in
 * it holds those two, alternating, youngest first. The rig's model of
 * BRS (rig/qemu) records exactly, under -icount.
 *
 * What a sample carries is the branches after its period ended, so the
 * event must count what BRS records: cpu/branch-brs/ (event 0xc4), with
 * a fixed period above 16, selecting all branches. The kernel ends each
 * period 16 branches early, so that a sample's count is at its period.
 *
 * Runs where the CPU has BRS ("brs" in /proc/cpuinfo, which the CPU says
 * whatever perf does); the rig boots it on the zen3 identity only
 * (rig/mkinitramfs.sh). Elsewhere every test SKIPs.
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
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define DEPTH		16
#define BRS_EVENT	0xc4
#define RING_PAGES	256
#define MAX_SAMPLES	4096

typedef void (*brs_fn)(unsigned long n);

#if defined(__x86_64__)
asm(".text\n"
	"brs_loop:\n"
	"brs_top:\n"
	"brs_j1:	jmp brs_t1\n"
	"	int3\n"
	"brs_t1:	dec %rdi\n"
	"brs_jn:	jnz brs_top\n"
	"brs_ret:	ret\n");

#define LABEL(sym) ({							\
	unsigned long __a;						\
	asm("lea " #sym "(%%rip), %0" : "=r" (__a));			\
	__a;								\
})

static void brs_work(unsigned long n)
{
	((brs_fn)LABEL(brs_loop))(n);
}

#define HAVE_LOOP 1
#else
#define HAVE_LOOP 0
#define LABEL(sym) (sizeof(#sym) * 0UL)
static void brs_work(unsigned long n)
{
}
#endif

struct brs_sample {
	__u64 ip;
	__u64 count;	/* PERF_SAMPLE_READ: the event's count */
	__u64 nr;
	struct perf_branch_entry e[DEPTH];
};

static bool kernel_addr(__u64 a)
{
	return (__s64)a < 0;
}

/*
 * A sampling event of taken branches with a branch stack of @bst, on
 * this thread, opened disabled; @user_only: it counts in user mode only.
 */
static int brs_open(__u64 bst, __u64 period, bool user_only, int group)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_RAW, BRS_EVENT);
	attr.exclude_kernel = user_only;
	attr.exclude_hv = 1;
	attr.disabled = group < 0;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ |
			   PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = bst;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, 0, -1, group, 0);
}

/* the samples in @base's ring (never consumed), -1 if one is malformed */
static int brs_samples(void *base, struct brs_sample *out, int max)
{
	struct perf_event_header *h;
	bool bad = false;
	__u64 off = 0;
	int n = 0;

	while (n < max && (h = perf_ring_next(base, RING_PAGES, &off, &bad))) {
		__u64 *p = (__u64 *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		/* ip, then value, time_enabled, time_running, then nr */
		out[n].ip = p[0];
		out[n].count = p[1];
		/* without a branch stack: ip, value, enabled, running */
		out[n].nr = h->size == sizeof(*h) + 32 ? 0 : p[4];
		if (out[n].nr > DEPTH ||
		    (h->size != sizeof(*h) + 32 &&
		     h->size != sizeof(*h) + 40 + out[n].nr * sizeof(out[n].e[0])))
			return -1;
		memcpy(out[n].e, p + 5, out[n].nr * sizeof(out[n].e[0]));
		n++;
	}
	return bad ? -1 : n;
}

FIXTURE(brs) {
	struct brs_sample *s;
	struct sample_limits saved;
	bool raised;
	__u64 j1, t1, jn, top;
};

/*
 * BRS holds the PMI for 16 branches and the samples come fast: as root
 * the sampling limits are raised for each test so that nothing throttles,
 * and put back by the parent.
 */
FIXTURE_SETUP(brs)
{
	int ret;

	if (!HAVE_LOOP || !cpu_has_flag("brs"))
		SKIP(return, "no AMD Branch Sampling on this CPU");
	ret = sample_limits_raise_as_root(&self->saved, &self->raised);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
	self->s = calloc(MAX_SAMPLES, sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
	self->j1 = LABEL(brs_j1);
	self->t1 = LABEL(brs_t1);
	self->jn = LABEL(brs_jn);
	self->top = LABEL(brs_top);
}

FIXTURE_TEARDOWN_PARENT(brs)
{
	if (self->raised)
		sample_limits_set(&self->saved);
}

/* open @bst at @period, run @work(@n), and parse the samples */
static int brs_run(struct __test_metadata *_metadata, struct brs_sample *s,
		   __u64 bst, __u64 period, bool user_only,
		   void (*work)(unsigned long), unsigned long n, __u64 *count)
{
	void *ring;
	int fd, nr;

	fd = brs_open(bst, period, user_only, -1);
	EXPECT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	if (fd < 0)
		return -1;
	ring = perf_map_ring(fd, RING_PAGES);
	EXPECT_NE(NULL, ring);
	if (!ring) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (count) {
		struct perf_value v;

		EXPECT_TRUE(perf_read_value(fd, &v));
		*count = v.count;
	}
	nr = brs_samples(ring, s, MAX_SAMPLES);
	EXPECT_LE(0, nr) TH_LOG("malformed sample record");
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	return nr;
}

TEST_F(brs, sysfs_files)
{
	char buf[64];

	ASSERT_EQ(0, read_file("/sys/bus/event_source/devices/cpu/events/branch-brs",
			       buf, sizeof(buf)));
	/* upstream's file ends in two newlines, ours in one */
	buf[strcspn(buf, "\n")] = '\0';
	EXPECT_STREQ("event=0xc4", buf);
	EXPECT_EQ(DEPTH, hw_pmu_cap("branches"));
}

/* what BRS cannot sample, with upstream's errno */
TEST_F(brs, errors)
{
	struct perf_event_attr attr;
	int fd;

	/* another event */
	perf_attr_init(&attr, PERF_TYPE_RAW, 0xc2);
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	attr.config = 0x1c4;	/* a umask */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);

	/* counting only, frequency mode, a period the fill would eat */
	attr.config = BRS_EVENT;
	attr.sample_period = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	attr.freq = 1;
	attr.sample_freq = 1000;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	attr.freq = 0;
	attr.sample_period = DEPTH;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);

	/* any selection but all branches */
	attr.sample_period = DEPTH + 1;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_TYPE_SAVE;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);

	/* and what it can */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * Every user-only stack taken in the loop holds its two branches,
 * alternating, youngest first (the sample's IP follows the youngest);
 * nearly all hold 16 (an interrupt's own
 * branches, which BRS also records, are left out), and the count of
 * every sample is within a few branches after a multiple of the period.
 */
TEST_F(brs, user_stacks_are_the_loops_branches)
{
	const __u64 period = 5003;
	const unsigned long iters = 500000;
	int nr, i, j, full = 0, in = 0;
	__u64 count;

	nr = brs_run(_metadata, self->s, PERF_SAMPLE_BRANCH_ANY |
		     PERF_SAMPLE_BRANCH_USER, period, true, brs_work, iters,
		     &count);
	ASSERT_LT(0, nr);
	/* 2 taken branches an iteration, and the calls around the loop */
	EXPECT_LE(2 * iters - 1, count);
	EXPECT_GE(2 * iters + 64, count);
	EXPECT_LE(count / period - 1, (__u64)nr);
	EXPECT_GE(count / period, (__u64)nr);

	for (i = 0; i < nr; i++) {
		const struct brs_sample *s = &self->s[i];

		if (s->ip < self->top || s->ip > LABEL(brs_ret))
			continue;
		in++;
		full += s->nr == DEPTH;
		for (j = 0; j < (int)s->nr; j++) {
			const struct perf_branch_entry *e = &s->e[j];
			bool is_j1 = e->from == self->j1 && e->to == self->t1;
			bool is_jn = e->from == self->jn && e->to == self->top;

			if (!is_j1 && !is_jn) {
				/* the call into the loop, in the first sample */
				if (i == 0)
					break;
				ASSERT_TRUE(is_j1 || is_jn)
					TH_LOG("sample %d entry %d: %#llx->%#llx",
					       i, j,
					       (unsigned long long)e->from,
					       (unsigned long long)e->to);
			}
			if (j)
				ASSERT_NE(e->from, s->e[j - 1].from)
					TH_LOG("sample %d: entries %d, %d alike",
					       i, j - 1, j);
		}
		/*
		 * youngest first: the sample's IP lies between the youngest
		 * branch's target and the branch after it
		 */
		if (s->nr == DEPTH) {
			bool j1 = s->e[0].from == self->j1;

			EXPECT_TRUE(j1 ? s->ip >= self->t1 && s->ip <= self->jn :
				    s->ip >= self->top && s->ip <= self->j1)
				TH_LOG("sample %d at %#llx, youngest %#llx->%#llx",
				       i, (unsigned long long)s->ip,
				       (unsigned long long)s->e[0].from,
				       (unsigned long long)s->e[0].to);
		}
		/* the count: the period's end, then the fill's 16 and skid */
		EXPECT_GT(DEPTH, (int)(s->count % period))
			TH_LOG("sample %d at count %llu, period %llu", i,
			       (unsigned long long)s->count,
			       (unsigned long long)period);
	}
	EXPECT_LE(nr * 9 / 10, in);
	EXPECT_LE(in * 9 / 10, full) TH_LOG("%d of %d stacks full", full, in);
}

/*
 * n system calls, each followed by 100 user branches: a debug kernel's
 * system call takes thousands of branches, and a user-level stack needs
 * some windows of 16 to fall in user code
 */
static void sys_work(unsigned long n)
{
	while (n--) {
		syscall(SYS_getppid);
		brs_work(50);
	}
}

/*
 * Around system calls: a user-only stack has no kernel address, a
 * kernel-only one only branches that end in the kernel, and both
 * levels give both.
 */
TEST_F(brs, levels_around_syscalls)
{
	static const struct {
		__u64 bst;
		bool user, kernel;
	} t[] = {
		{ PERF_SAMPLE_BRANCH_USER, true, false },
		{ PERF_SAMPLE_BRANCH_KERNEL, false, true },
		{ PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL, true, true },
	};
	unsigned int k;

	if (geteuid())
		SKIP(return, "kernel branches need privilege");
	for (k = 0; k < 3; k++) {
		int nr, i, j, users = 0, kernels = 0;

		nr = brs_run(_metadata, self->s, t[k].bst | PERF_SAMPLE_BRANCH_ANY,
			     1009, false, sys_work, 5000, NULL);
		ASSERT_LT(10, nr) TH_LOG("selection %u", k);
		for (i = 0; i < nr; i++) {
			for (j = 0; j < (int)self->s[i].nr; j++) {
				const struct perf_branch_entry *e =
					&self->s[i].e[j];

				if (!kernel_addr(e->to) && !kernel_addr(e->from))
					users++;
				else if (kernel_addr(e->to))
					kernels++;
				if (!t[k].kernel)
					ASSERT_TRUE(!kernel_addr(e->to) &&
						    !kernel_addr(e->from))
						TH_LOG("user only: %#llx->%#llx",
						       (unsigned long long)e->from,
						       (unsigned long long)e->to);
				if (!t[k].user)
					ASSERT_TRUE(kernel_addr(e->to))
						TH_LOG("kernel only: %#llx->%#llx",
						       (unsigned long long)e->from,
						       (unsigned long long)e->to);
			}
		}
		EXPECT_EQ(t[k].user, users > 0) TH_LOG("selection %u", k);
		EXPECT_EQ(t[k].kernel, kernels > 0) TH_LOG("selection %u", k);
	}
}

/*
 * One BRS per CPU, armed by one counter: two such events of a task take
 * turns, and a group cannot hold two.
 */
TEST_F(brs, two_events_take_turns)
{
	const __u64 bst = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	struct perf_value v[2];
	int fd[2], g, i;

	for (i = 0; i < 2; i++) {
		fd[i] = brs_open(bst, 100003, true, -1);
		ASSERT_LE(0, fd[i]) TH_LOG("open: %s", strerror(errno));
	}
	g = brs_open(bst, 100003, true, fd[0]);
	EXPECT_EQ(-1, g);
	EXPECT_EQ(EINVAL, errno);

	for (i = 0; i < 2; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	brs_work(5000000);
	for (i = 0; i < 2; i++) {
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		ASSERT_TRUE(perf_read_value(fd[i], &v[i]));
		EXPECT_LT(0, v[i].running);
		EXPECT_GT(v[i].enabled, v[i].running);
		EXPECT_LT(0, v[i].count);
		close(fd[i]);
	}
}

/* a counting event beside it in its group goes on another counter */
TEST_F(brs, group_with_a_counting_member)
{
	struct perf_event_attr attr;
	struct perf_value v;
	int lead, member;
	__u64 a, b;

	lead = brs_open(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
			10007, true, -1);
	ASSERT_LE(0, lead) TH_LOG("open: %s", strerror(errno));
	perf_attr_init(&attr, PERF_TYPE_RAW, BRS_EVENT);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	member = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, member) TH_LOG("open: %s", strerror(errno));
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	brs_work(200000);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	EXPECT_TRUE(perf_read_value(lead, &v));
	a = v.count;
	b = perf_read_count(member);
	EXPECT_LE(400000 - 1, a);
	EXPECT_EQ(a, b);
	close(member);
	close(lead);
}

/*
 * A BRS event that stopped itself (PERF_EVENT_IOC_REFRESH 1: one
 * overflow, then the kernel disables it) and then went away leaves BRS
 * off: a plain sampling event on counter 0 after it gets its PMIs at its
 * overflows, not 16 taken branches later.
 */
TEST_F(brs, gone_event_leaves_brs_off)
{
	struct perf_event_attr attr;
	const __u64 period = 5003;
	int fd, nr, i;
	void *ring;

	fd = brs_open(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 1009,
		      true, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	brs_work(100000);
	close(fd);

	perf_attr_user(&attr, PERF_TYPE_RAW, BRS_EVENT);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ;
	attr.read_format = READ_FORMAT_TIMES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(NULL, ring);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	brs_work(200000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	nr = brs_samples(ring, self->s, MAX_SAMPLES);
	ASSERT_LT(10, nr);
	for (i = 0; i < nr; i++)
		EXPECT_GT(DEPTH, (int)(self->s[i].count % period))
			TH_LOG("sample %d at count %llu, period %llu", i,
			       (unsigned long long)self->s[i].count,
			       (unsigned long long)period);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

TEST_HARNESS_MAIN
