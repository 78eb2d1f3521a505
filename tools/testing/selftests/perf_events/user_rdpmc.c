// SPDX-License-Identifier: GPL-2.0
/*
 * Self-monitoring without a syscall: the user page of a hardware event
 * offers its counter (cap_user_rdpmc, index, offset, pmc_width), and user
 * space reads the counter itself.
 *
 * x86: RDPMC at CPL 3 works while the task has the event mapped, under
 * the default rdpmc policy (/sys/bus/event_source/devices/cpu/rdpmc = 1).
 *
 * arm64: MRS of PMEVCNTR<n>_EL0 / PMCCNTR_EL0 works while the running
 * task has events opened with the "rdpmc" format bit (config1 bit 1), once
 * the administrator allows it (sysctl kernel.perf_user_access = 1; these
 * tests set it and put 0 back).
 *
 * A read follows the protocol of include/uapi/linux/perf_event.h: under
 * the page's sequence count, count = offset + the counter's value
 * sign-extended from pmc_width bits, when index is non-zero; else offset
 * alone is the count as of the event's last stop.
 *
 * Needs the x86 "cpu" or the arm64 "armv8_pmuv3" PMU; elsewhere SKIP.
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

#if defined(__x86_64__)
#define HAVE_RDPMC	1
/* the policy file, and the policy every test starts from and restores */
#define RDPMC_POLICY	"/sys/bus/event_source/devices/cpu/rdpmc"
#define POLICY_DEFAULT	1
#define POLICY_USE	1
/* no opt-in per event */
#define USER_CONFIG1	0
/* RDPMC without permission is #GP */
#define FAULT_SIG	SIGSEGV

static inline uint64_t rdpmc(uint32_t idx)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}
#elif defined(__aarch64__)
#define HAVE_RDPMC	1
#define RDPMC_POLICY	"/proc/sys/kernel/perf_user_access"
#define POLICY_DEFAULT	0
#define POLICY_USE	1
/* the "rdpmc" format bit of armv8_pmuv3 */
#define USER_CONFIG1	2
/* a PMU register read that EL0 may not do is an undefined instruction */
#define FAULT_SIG	SIGILL
#define ARM64_CYCLE_IDX	31

#define MRS_EVCNTR(n)							\
	case n:								\
		asm volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v));	\
		break

/*
 * The counter by its own register, not through PMSELR_EL0: a select
 * register could be changed by whatever runs between select and read.
 */
static inline uint64_t rdpmc(uint32_t idx)
{
	uint64_t v = 0;

	switch (idx) {
	MRS_EVCNTR(0); MRS_EVCNTR(1); MRS_EVCNTR(2); MRS_EVCNTR(3);
	MRS_EVCNTR(4); MRS_EVCNTR(5); MRS_EVCNTR(6); MRS_EVCNTR(7);
	MRS_EVCNTR(8); MRS_EVCNTR(9); MRS_EVCNTR(10); MRS_EVCNTR(11);
	MRS_EVCNTR(12); MRS_EVCNTR(13); MRS_EVCNTR(14); MRS_EVCNTR(15);
	MRS_EVCNTR(16); MRS_EVCNTR(17); MRS_EVCNTR(18); MRS_EVCNTR(19);
	MRS_EVCNTR(20); MRS_EVCNTR(21); MRS_EVCNTR(22); MRS_EVCNTR(23);
	MRS_EVCNTR(24); MRS_EVCNTR(25); MRS_EVCNTR(26); MRS_EVCNTR(27);
	MRS_EVCNTR(28); MRS_EVCNTR(29); MRS_EVCNTR(30);
	case ARM64_CYCLE_IDX:
		asm volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}
#else
#define HAVE_RDPMC	0
#define RDPMC_POLICY	"/nonexistent"
#define POLICY_DEFAULT	0
#define POLICY_USE	0
#define USER_CONFIG1	0
#define FAULT_SIG	SIGSEGV

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
	attr.config1 = USER_CONFIG1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	/*
	 * QEMU's arm64 PMU has instructions only with -icount; every CPU
	 * PMU has cycles, so a refusal of those is the kernel's.
	 */
	if (fd < 0 && config != PERF_COUNT_HW_CPU_CYCLES &&
	    (errno == ENOENT || errno == EOPNOTSUPP))
		SKIP(return -1, "no hardware event %llu: %s",
		     (unsigned long long)config, strerror(errno));
	ASSERT_GE(fd, 0) TH_LOG("hardware event %llu: %s",
				(unsigned long long)config, strerror(errno));
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

/* whether a read of counter @idx faults in this task right now */
static bool rdpmc_faults(uint32_t idx)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;

	sigaction(FAULT_SIG, &sa, &old);
	if (sigsetjmp(fault_jmp, 1)) {
		sigaction(FAULT_SIG, &old, NULL);
		return true;
	}
	rdpmc(idx);
	sigaction(FAULT_SIG, &old, NULL);
	return false;
}

FIXTURE(rdpmc) {
	bool have_pmu;
};

FIXTURE_SETUP(rdpmc)
{
	self->have_pmu = HAVE_RDPMC && !access(RDPMC_POLICY, F_OK);
	if (!self->have_pmu)
		SKIP(return, "no CPU PMU with a user-access policy");
	/* every test starts from the default policy */
	ASSERT_EQ(POLICY_DEFAULT, read_int(RDPMC_POLICY));
	if (POLICY_USE != POLICY_DEFAULT) {
		if (geteuid())
			SKIP(return, "allowing user access needs root");
		ASSERT_EQ(0, write_long(RDPMC_POLICY, POLICY_USE));
	}
}

FIXTURE_TEARDOWN(rdpmc)
{
	if (self->have_pmu)
		write_long(RDPMC_POLICY, POLICY_DEFAULT);
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
#ifdef __x86_64__
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
#endif /* __x86_64__ */

#ifdef __aarch64__
/* whether a freshly exec'd copy of us faults reading counter @idx */
static bool exec_probe_faults(struct __test_metadata *_metadata, uint32_t idx)
{
	char probe[32];
	int status;
	pid_t pid;

	snprintf(probe, sizeof(probe), "RDPMC_PROBE=%u", idx);
	pid = fork();
	if (!pid) {
		execle("/proc/self/exe", "user_rdpmc", NULL,
		       (char *[]){ probe, NULL });
		_exit(2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return false;
	return WEXITSTATUS(status) == 0;
}

/*
 * Access follows the task's own events: another task (a new program,
 * with no events) faults, also on the same CPU right after this one while
 * its event is disabled (nothing of it on a counter then), and so does
 * this one once its last event that asked for access is closed. munmap()
 * changes nothing on arm64.
 */
TEST_F(rdpmc, allowed_only_with_own_event)
{
	struct perf_event_mmap_page *pc;
	uint32_t idx;
	int fd;

	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	idx = pc->index;
	ASSERT_NE(0, idx);
	EXPECT_FALSE(rdpmc_faults(idx - 1));
	EXPECT_TRUE(exec_probe_faults(_metadata, idx - 1))
		TH_LOG("a task without events read a counter");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_TRUE(exec_probe_faults(_metadata, idx - 1))
		TH_LOG("the next task read a counter: access outlived its owner");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	ASSERT_EQ(0, munmap((void *)pc, getpagesize()));
	EXPECT_FALSE(rdpmc_faults(idx - 1));
	close(fd);
	EXPECT_TRUE(rdpmc_faults(idx - 1));
}

/*
 * kernel.perf_user_access = 0 (the default): an event still asks for
 * access (cap_user_rdpmc), but its page offers no counter and reads
 * fault. Switching it on opens access at the next reschedule of the
 * task's events; switching it off closes it at once. Only 0 and 1 are
 * values.
 */
TEST_F(rdpmc, sysctl_gates_access)
{
	struct perf_event_mmap_page *pc;
	int fd;

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 0));
	fd = open_mapped(_metadata, PERF_COUNT_HW_CPU_CYCLES, &pc);
	if (fd < 0)
		return;
	spin(10000);
	EXPECT_EQ(1, (int)pc->cap_user_rdpmc);
	EXPECT_EQ(0, pc->index);
	EXPECT_TRUE(rdpmc_faults(ARM64_CYCLE_IDX));

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 1));
	/* a disable and enable reschedules the event */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0, pc->index);
	EXPECT_FALSE(rdpmc_faults(pc->index - 1));

	ASSERT_EQ(0, write_long(RDPMC_POLICY, 0));
	EXPECT_TRUE(rdpmc_faults(ARM64_CYCLE_IDX));

	EXPECT_NE(0, write_long(RDPMC_POLICY, 2));
	EXPECT_EQ(0, read_int(RDPMC_POLICY));
	close(fd);
}

/*
 * Without the format bit an event offers nothing; with it, an event of
 * no task (CPU-wide, whose counter anyone running there could read) is
 * refused.
 */
TEST_F(rdpmc, opt_in_per_task_event)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc;
	int fd;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(pc, MAP_FAILED);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	spin(10000);
	EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
	EXPECT_EQ(0, pc->index);
	EXPECT_TRUE(rdpmc_faults(ARM64_CYCLE_IDX));
	munmap((void *)pc, getpagesize());
	close(fd);

	attr.config1 = USER_CONFIG1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}
#endif /* __aarch64__ */

/*
 * Exact under icount, where the emulated PMU counts a vCPU's instructions
 * one by one: RDPMC around a loop sees the loop's instructions and a fixed
 * few more, the same every time, and twice the loop costs exactly one
 * loop more. The page's count is the kernel's own: a read() between two
 * page reads lies between them, a few user instructions (the read()
 * call's) from each. Without icount the emulated PMU counts no
 * instructions at all: SKIP then. (Real hardware is not exact; this test
 * is for the rig.)
 */
TEST_F(rdpmc, instructions_exact_around_a_loop)
{
	enum { LOOP = 1000000, FEW = 1000 };
	struct perf_event_mmap_page *pc;
	uint64_t d[3], a, b, r, per_loop, overhead;
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
	ASSERT_LT(d[0], d[2]);
	per_loop = d[2] - d[0];
	EXPECT_EQ(0, per_loop % LOOP);
	EXPECT_GE(per_loop / LOOP, 1);
	EXPECT_LE(per_loop / LOOP, 8);
	/* what is not the loop is a small overhead */
	ASSERT_LE(per_loop, d[0]);
	overhead = d[0] - per_loop;
	EXPECT_LT(overhead, FEW);

	/* the same loop, with read() at its end as the kernel's word */
	a = page_read(pc).count;
	spin(LOOP);
	r = perf_read_count(fd);
	b = page_read(pc).count;
	TH_LOG("page %llu, read() %llu, page %llu",
	       (unsigned long long)a, (unsigned long long)r,
	       (unsigned long long)b);
	ASSERT_NE(~0ULL, r);
	ASSERT_LE(a, r);
	ASSERT_LE(r, b);
	/* read() saw the loop and no more than the call's few instructions */
	EXPECT_LE(per_loop, r - a);
	EXPECT_GT(d[0] + FEW, r - a);
	EXPECT_GT(FEW, b - r);
	close(fd);
}

TEST_HARNESS_MAIN
