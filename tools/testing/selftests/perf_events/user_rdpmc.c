// SPDX-License-Identifier: GPL-2.0
/*
 * Self-monitoring without a syscall on x86: the user page of a hardware
 * event offers its counter (cap_user_rdpmc, index, offset, pmc_width), and
 * RDPMC at CPL 3 works while the task has the event mapped, under the
 * default rdpmc policy (/sys/bus/event_source/devices/cpu/rdpmc = 1).
 *
 * A read follows the protocol of include/uapi/linux/perf_event.h: under
 * the page's sequence count, count = offset + the counter's value
 * sign-extended from pmc_width bits, when index is non-zero; else offset
 * alone is the count as of the event's last stop.
 *
 * Needs the x86 "cpu" PMU; other architectures SKIP (arm64's user access
 * is a different mechanism, F71).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define CPU_PMU		"/sys/bus/event_source/devices/cpu"
#define RDPMC_POLICY	CPU_PMU "/rdpmc"

#ifdef __x86_64__
#define HAVE_RDPMC	1

static inline uint64_t rdpmc(uint32_t idx)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}
#else
#define HAVE_RDPMC	0

static inline uint64_t rdpmc(uint32_t idx)
{
	return 0;
}
#endif

/* one read of the page: the count, and whether RDPMC was used for it */
struct upread {
	uint64_t count;
	bool used_rdpmc;
};

/* the page changes under us: every field is loaded afresh */
#define PG_LOAD(p)	__atomic_load_n(p, __ATOMIC_RELAXED)

static struct upread page_read(struct perf_event_mmap_page *pc)
{
	struct upread r;
	uint32_t seq, idx;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		idx = PG_LOAD(&pc->index);
		r.count = PG_LOAD(&pc->offset);
		r.used_rdpmc = pc->cap_user_rdpmc && idx;
		if (r.used_rdpmc) {
			unsigned int shift = 64 - PG_LOAD(&pc->pmc_width);
			int64_t pmc = rdpmc(idx - 1);

			r.count += (uint64_t)((pmc << shift) >> shift);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (PG_LOAD(&pc->lock) != seq);
	return r;
}

/* a user-mode cycles (or @config) counter of this task, enabled, mapped */
static int open_mapped(struct __test_metadata *_metadata, __u64 config,
		       struct perf_event_mmap_page **pc)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, config);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP))
		SKIP(return -1, "no hardware event %llu: %s",
		     (unsigned long long)config, strerror(errno));
	ASSERT_GE(fd, 0);
	*pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(*pc, MAP_FAILED);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	return fd;
}

static void spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		asm volatile("" : "+r" (i));
}

static sigjmp_buf fault_jmp;

static void on_segv(int sig)
{
	siglongjmp(fault_jmp, 1);
}

/* whether RDPMC of counter @idx faults in this task right now */
static bool rdpmc_faults(uint32_t idx)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(fault_jmp, 1)) {
		sigaction(SIGSEGV, &old, NULL);
		return true;
	}
	rdpmc(idx);
	sigaction(SIGSEGV, &old, NULL);
	return false;
}

FIXTURE(rdpmc) {
	bool have_pmu;
};

FIXTURE_SETUP(rdpmc)
{
	self->have_pmu = HAVE_RDPMC && !access(RDPMC_POLICY, F_OK);
	if (!self->have_pmu)
		SKIP(return, "no x86 cpu PMU with an rdpmc policy");
	/* every test starts from the default policy */
	ASSERT_EQ(1, read_int(RDPMC_POLICY));
}

FIXTURE_TEARDOWN(rdpmc)
{
	if (self->have_pmu)
		write_long(RDPMC_POLICY, 1);
}

/* the page offers the counter, and RDPMC of it lies between two read()s */
TEST_F(rdpmc, page_offers_counter_between_reads)
{
	struct perf_event_mmap_page *pc;
	uint64_t before, after;
	struct upread r;
	int fd;

	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	spin(100000);
	before = perf_read_count(fd);
	r = page_read(pc);
	spin(100000);
	after = perf_read_count(fd);

	ASSERT_EQ(1, (int)pc->cap_user_rdpmc);
	ASSERT_GE(pc->pmc_width, 32);
	ASSERT_LE(pc->pmc_width, 64);
	ASSERT_TRUE(r.used_rdpmc);
	EXPECT_LE(before, r.count);
	EXPECT_LE(r.count, after);
	EXPECT_GT(after, before);
	close(fd);
}

/*
 * More cycles counters than the PMU has counters: each is on a counter
 * only part of the time. Its page then says index 0 and the offset is
 * the count; either way the count never goes backwards and never passes
 * what read() says after it.
 */
TEST_F(rdpmc, multiplexed_counts_stay_consistent)
{
	enum { N = 12, ROUNDS = 400 };
	struct perf_event_mmap_page *pc[N];
	uint64_t last[N] = { 0 };
	int fd[N], i, k, via_rdpmc = 0, via_offset = 0;

	for (i = 0; i < N; i++) {
		fd[i] = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc[i]);
		if (fd[i] < 0)
			return;
	}
	for (k = 0; k < ROUNDS; k++) {
		for (i = 0; i < N; i++) {
			struct upread r = page_read(pc[i]);

			ASSERT_GE(r.count, last[i]) TH_LOG("event %d round %d", i, k);
			last[i] = r.count;
			via_rdpmc += r.used_rdpmc;
			via_offset += !r.used_rdpmc;
		}
		spin(20000);
	}
	for (i = 0; i < N; i++) {
		EXPECT_LE(last[i], perf_read_count(fd[i]));
		close(fd[i]);
	}
	/* rotation happened: both kinds of read were seen */
	EXPECT_GT(via_rdpmc, 0);
	EXPECT_GT(via_offset, 0);
}

/* moving to another CPU moves the event; the page follows it */
TEST_F(rdpmc, count_survives_migration)
{
	struct perf_event_mmap_page *pc;
	uint64_t prev = 0;
	int fd, k;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	for (k = 0; k < 8; k++) {
		struct upread r;

		ASSERT_EQ(0, pin_to_cpu(k % 2));
		spin(50000);
		r = page_read(pc);
		ASSERT_TRUE(r.used_rdpmc);
		ASSERT_GT(r.count, prev);
		prev = r.count;
	}
	EXPECT_LE(prev, perf_read_count(fd));
	close(fd);
}

/*
 * Started again by exec with RDPMC_PROBE=<counter> in the environment:
 * report by exit status whether RDPMC of that counter faults here (0 when
 * it does), before the harness runs anything.
 */
__attribute__((constructor)) static void rdpmc_probe(void)
{
	const char *idx = getenv("RDPMC_PROBE");

	if (idx)
		_exit(rdpmc_faults(strtoul(idx, NULL, 0)) ? 0 : 1);
}

/*
 * Policy 1: RDPMC works only while the task's mm has an event mapped.
 * An exec starts a new mm without the mapping, so it faults there; after
 * munmap it faults here too.
 */
TEST_F(rdpmc, allowed_only_while_mapped)
{
	struct perf_event_mmap_page *pc;
	char probe[32];
	uint32_t idx;
	int fd, status;
	pid_t pid;

	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	idx = pc->index;
	ASSERT_NE(0, idx);
	EXPECT_FALSE(rdpmc_faults(idx - 1));

	snprintf(probe, sizeof(probe), "RDPMC_PROBE=%u", idx - 1);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		execle("/proc/self/exe", "user_rdpmc", NULL,
		       (char *[]){ probe, NULL });
		_exit(2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("after exec, without the mapping, RDPMC did not fault");

	ASSERT_EQ(0, munmap((void *)pc, getpagesize()));
	EXPECT_TRUE(rdpmc_faults(idx - 1));
	close(fd);
}

/*
 * Policy 0: events created under it offer no counter, and RDPMC faults
 * even with one mapped. Policy 2: RDPMC works with nothing mapped.
 */
TEST_F(rdpmc, policy_never_and_always)
{
	struct perf_event_mmap_page *pc;
	int fd;

	if (geteuid())
		SKIP(return, "changing the rdpmc policy needs root");

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 0));
	ASSERT_EQ(0, read_int(RDPMC_POLICY));
	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	spin(10000);
	EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
	EXPECT_EQ(0, pc->index);
	EXPECT_TRUE(rdpmc_faults(0));
	close(fd);
	munmap((void *)pc, getpagesize());

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 2));
	EXPECT_FALSE(rdpmc_faults(0));

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 1));
	EXPECT_TRUE(rdpmc_faults(0));

	/* only 0, 1 and 2 are policies */
	EXPECT_NE(0, write_long(RDPMC_POLICY, 3));
	EXPECT_EQ(1, read_int(RDPMC_POLICY));
}

/*
 * Exact under icount, where the emulated PMU counts a vCPU's instructions
 * one by one: RDPMC around a loop sees the loop's instructions and a fixed
 * few more, the same every time, and twice the loop costs exactly one
 * loop more. Without icount the emulated PMU counts no instructions at
 * all: SKIP then. (Real hardware is not exact; this test is for the rig.)
 */
TEST_F(rdpmc, instructions_exact_around_a_loop)
{
	enum { LOOP = 1000000 };
	struct perf_event_mmap_page *pc;
	uint64_t d[3], a;
	int fd, i;

	fd = open_mapped(_metadata, PERF_COUNT_HW_INSTRUCTIONS, &pc);
	if (fd < 0)
		return;
	a = page_read(pc).count;
	spin(LOOP);
	if (page_read(pc).count == a) {
		close(fd);
		SKIP(return, "instructions do not count (QEMU without -icount)");
	}

	for (i = 0; i < 3; i++) {
		a = page_read(pc).count;
		spin(i == 2 ? 2 * LOOP : LOOP);
		d[i] = page_read(pc).count - a;
	}
	TH_LOG("loop of %d: %llu, again %llu, twice as long %llu", LOOP,
	       (unsigned long long)d[0], (unsigned long long)d[1],
	       (unsigned long long)d[2]);
	EXPECT_EQ(d[0], d[1]);
	/* a whole number of instructions per iteration, a few of them */
	EXPECT_EQ(0, (d[2] - d[0]) % LOOP);
	EXPECT_GE((d[2] - d[0]) / LOOP, 1);
	EXPECT_LE((d[2] - d[0]) / LOOP, 8);
	/* what is not the loop is the same small overhead both times */
	EXPECT_EQ(d[0] - (d[2] - d[0]), d[2] - 2 * (d[2] - d[0]));
	EXPECT_LT(d[0] - (d[2] - d[0]), 1000);
	close(fd);
}

TEST_HARNESS_MAIN
