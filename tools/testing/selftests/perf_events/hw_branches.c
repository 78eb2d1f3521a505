// SPDX-License-Identifier: GPL-2.0
/*
 * Branch events of the CPU's PMU, counted over a user-mode loop whose
 * branches are known: PERF_COUNT_HW_BRANCH_INSTRUCTIONS, the raw
 * conditional-branches event (Intel's BR_INST_RETIRED.CONDITIONAL, event
 * 0xC4 umask 1, which rr programs as raw 0x5101c4; AMD's retired
 * conditional branches, 0xD1, rr's 0x5100d1) and
 * PERF_COUNT_HW_BRANCH_MISSES.
 *
 * On x86 the rig's emulated PMU (rig/qemu) counts every retired branch
 * exactly, with or without -icount, and never mispredicts, so these are
 * exact checks there, not meant for real hardware: a missing or silent
 * branch event is a failure. Elsewhere (arm64: QEMU's PMUv3 has no
 * branch event) every test SKIPs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

/* iterations of the loop: tens of ms under TCG */
#define BR_N		1000000UL
/*
 * What a count holds beside the loop: the branches of the two ioctl()
 * calls in user mode (the libc wrapper's, the SYSCALL that enters the
 * kernel to disable the event, the call and return of the loop), a few
 * dozen at most; the same every time.
 */
#define BR_OVERHEAD	1000

/*
 * Branches per iteration of br_loop(): JZ (never taken), JMP and JNZ
 * (taken but the last time); the conditional ones are JZ and JNZ.
 */
#define BR_PER_ITER	3
#define CBR_PER_ITER	2

#if defined(__x86_64__)
static void br_loop_body(unsigned long n)
{
	asm volatile("1:	test %0, %0\n"
		     "	jz 2f\n"
		     "	jmp 3f\n"
		     "3:	dec %0\n"
		     "	jnz 1b\n"
		     "2:\n"
		     : "+r" (n) : : "cc");
}

/* out of line, so the compiler can neither unroll nor drop the loop */
#define br_loop(n)	OPAQUE(br_loop_body)(n)

/* Is this an AMD (or Hygon) CPU? */
static bool cpu_is_amd(void)
{
	char line[256];
	bool amd = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "vendor_id", 9))
			continue;
		amd = strstr(line, "AuthenticAMD") || strstr(line, "HygonGenuine");
		break;
	}
	if (f)
		fclose(f);
	return amd;
}

/* Intel: event 0xC4 umask 0x01; AMD: event 0xD1 */
#define RAW_CONDITIONAL		(cpu_is_amd() ? 0xd1 : 0x01c4)
#else
/* no loop of known branches here: every test SKIPs at open */
#define br_loop(n)		((void)(n))
#define RAW_CONDITIONAL		0
#endif

/*
 * Open @config of @type for user mode only on the calling task, disabled.
 * Returns -1 after SKIPping where the PMU lacks it (not x86); on x86 any
 * refusal fails the test.
 */
static int open_user(struct __test_metadata *_metadata, __u32 type,
		     __u64 config)
{
	struct perf_event_attr attr;
	int fd;

#if !defined(__x86_64__)
	SKIP(return -1, "x86 only: the loop and the exact counts are x86's");
#endif
	if (!hw_pmu_dir())
		SKIP(return -1, "no CPU PMU in sysfs");
	perf_attr_user(&attr, type, config);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_LE(0, fd) TH_LOG("type %u config %#llx: %s", type,
				(unsigned long long)config, strerror(errno));
	return fd;
}

/* @fd's count over br_loop(@n), from a reset, enabled around it only */
static __u64 count_loop(struct __test_metadata *_metadata, int fd,
			unsigned long n)
{
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	br_loop(n);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	return perf_read_count(fd);
}

/*
 * A loop of n iterations counts @per * n and the fixed overhead around
 * it; one of 2n exactly @per * n more, every time (the overhead is the
 * same code each time, and what the kernel runs meanwhile, interrupts
 * included, is not user mode).
 */
static void check_loop(struct __test_metadata *_metadata, __u32 type,
		       __u64 config, unsigned long per)
{
	__u64 one, two, again;
	int fd, i;

	fd = open_user(_metadata, type, config);
	if (fd < 0)
		return;
	one = count_loop(_metadata, fd, BR_N);
	TH_LOG("type %u config %#llx: %llu for %lu iterations", type,
	       (unsigned long long)config, (unsigned long long)one, BR_N);
	EXPECT_LE(per * BR_N, one);
	EXPECT_GT(per * BR_N + BR_OVERHEAD, one);
	for (i = 0; i < 4; i++) {
		two = count_loop(_metadata, fd, 2 * BR_N);
		again = count_loop(_metadata, fd, BR_N);
		EXPECT_EQ(per * BR_N, two - again)
			TH_LOG("run %d: %llu - %llu", i, (unsigned long long)two,
			       (unsigned long long)again);
		EXPECT_EQ(one, again);
	}
	close(fd);
}

/* every branch of the loop, taken or not, conditional or not */
TEST(branch_instructions_user_exact)
{
	check_loop(_metadata, PERF_TYPE_HARDWARE,
		   PERF_COUNT_HW_BRANCH_INSTRUCTIONS, BR_PER_ITER);
}

/* only the conditional ones: JZ and JNZ, not the JMP */
TEST(raw_conditional_branches_user_exact)
{
	check_loop(_metadata, PERF_TYPE_RAW, RAW_CONDITIONAL, CBR_PER_ITER);
}

/* the emulated PMU never mispredicts: not one miss in user mode */
TEST(branch_misses_none)
{
	__u64 v;
	int fd;

	fd = open_user(_metadata, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	if (fd < 0)
		return;
	v = count_loop(_metadata, fd, BR_N);
	EXPECT_EQ(0, v);
	close(fd);
}

/*
 * Sampling: the PMI of a branch counter comes right after the branch that
 * overflows it, so every sample of a period of 1e5 over the loop has its
 * ip in the loop, and there are exactly as many as whole periods in the
 * count: 30 for the 3e6 branches (and the few around them) of 1e6
 * iterations, 20 for their 2e6 conditional ones. A slow PMI under TCG may
 * have lowered perf_event_max_sample_rate in earlier tests, and the core
 * would then throttle: the fixture raises it and stops the lowering for
 * the test, and its teardown (in the parent, also after a crash) puts
 * both back.
 */
#define SAMPLE_PERIOD	100000ULL
#define RING_PAGES	16
/* br_loop_body()'s code is shorter than this */
#define BR_LOOP_BYTES	64

FIXTURE(branch_sampling) {
	struct sample_limits saved;
};

FIXTURE_SETUP(branch_sampling)
{
	int ret;

#if !defined(__x86_64__)
	SKIP(return, "x86 only: the loop and the exact counts are x86's");
#endif
	if (geteuid())
		SKIP(return, "raising %s needs root", SAMPLE_RATE_PATH);
	ret = sample_limits_raise(&self->saved);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
}

FIXTURE_TEARDOWN_PARENT(branch_sampling)
{
	sample_limits_set(&self->saved);
}

/* the samples in @base's ring, each checked to be in the loop */
static int loop_samples(struct __test_metadata *_metadata, void *base)
{
	struct perf_event_mmap_page *pg = base;
	size_t page = sysconf(_SC_PAGESIZE), size = RING_PAGES * page;
	char *data = (char *)base + page;
	struct perf_event_header *h;
	__u64 head, off, ip;
	int n = 0;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	EXPECT_GT(size, head) TH_LOG("the ring wrapped");
	for (off = pg->data_tail; off < head; off += h->size) {
		h = (void *)(data + off % size);
		if (!h->size)
			break;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		memcpy(&ip, h + 1, sizeof(ip));
#if defined(__x86_64__)
		EXPECT_LE((uintptr_t)br_loop_body, ip) TH_LOG("ip %#llx", ip);
		EXPECT_GT((uintptr_t)br_loop_body + BR_LOOP_BYTES, ip)
			TH_LOG("ip %#llx", ip);
#endif
	}
	return n;
}

static void check_samples(struct __test_metadata *_metadata, __u32 type,
			  __u64 config, unsigned long per)
{
	struct perf_event_attr attr;
	void *ring;
	int fd;

	perf_attr_user(&attr, type, config);
	attr.sample_period = SAMPLE_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("type %u config %#llx: %s", type,
				(unsigned long long)config, strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	br_loop(BR_N);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(per * BR_N / SAMPLE_PERIOD, loop_samples(_metadata, ring));
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

TEST_F(branch_sampling, branch_instructions_exact_period)
{
	check_samples(_metadata, PERF_TYPE_HARDWARE,
		      PERF_COUNT_HW_BRANCH_INSTRUCTIONS, BR_PER_ITER);
}

TEST_F(branch_sampling, conditional_branches_exact_period)
{
	check_samples(_metadata, PERF_TYPE_RAW, RAW_CONDITIONAL, CBR_PER_ITER);
}

TEST_HARNESS_MAIN
