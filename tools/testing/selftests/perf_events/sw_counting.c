// SPDX-License-Identifier: GPL-2.0
/*
 * Software events must count the right number, not merely something.
 *
 * Every count asserted exactly here is exact by construction: the
 * measured region is entered and left with ioctl() on an event opened
 * disabled, every page the process already has is mapped in beforehand
 * (prefault_self()) and the region's path is run once unmeasured (a
 * warm-up pass through the same functions), so the only page faults
 * inside are the ones the test provokes on purpose.
 * Where upstream itself is inexact (context switches taken by timer
 * ticks, clock granularity) the slack is stated next to the assertion.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"

/* pages touched by one measured region */
#define NR_PAGES	64
/* pages touched by the warm-up pass */
#define NR_WARM		4

static long page_size;

/* A counting software event, opened disabled. */
static int open_sw(__u64 config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = 1;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* One write per page: on a fresh anonymous mapping, one fault per page. */
static void touch_pages(char *p, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		p[i * page_size] = 1;
		compiler_barrier();
	}
}

/*
 * Reset and enable @fds, touch @n pages of @p, disable @fds. Called once
 * on a warm-up mapping before the measured call, so that the ioctl path,
 * touch_pages() and the stack below this frame are all mapped already.
 * Calls go through OPAQUE(): the warm-up pass and the measured pass then
 * run the very same code pages.
 */
static void measure_touch(int *fds, int nfds, char *p, long n)
{
	int i;

	for (i = 0; i < nfds; i++)
		ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
	for (i = 0; i < nfds; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	OPAQUE(touch_pages)(p, n);
	for (i = 0; i < nfds; i++)
		ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

/* true when CPUs 0 and 1 both exist and we may run on them */
static int have_two_cpus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return 0;
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/*
 * Child side of the fault protocol used by the pid > 0 and per-CPU tests.
 * The child runs rounds: wait for a byte on @go, touch the round's pages,
 * answer on @done. Round 0 is the warm-up (not measured): it faults in
 * everything later rounds execute, including the copy-on-write breaks of
 * the stack and the code pages a fork leaves unmapped in the child.
 */
static int child_round(int go, int done, char *p, long n)
{
	char c;

	if (read(go, &c, 1) != 1 || c == 'q')
		return 1;
	OPAQUE(touch_pages)(p, n);
	if (write(done, &c, 1) != 1)
		return 1;
	return 0;
}

static void fault_child(int cpu, int go, int done)
{
	char *p;

	if (cpu >= 0 && pin_to_cpu(cpu))
		_exit(2);
	prefault_self();
	p = fresh_pages(NR_WARM + NR_PAGES);
	if (!p)
		_exit(2);
	if (OPAQUE(child_round)(go, done, p, NR_WARM))
		_exit(3);
	/* the measured round, then wait for 'q' */
	if (OPAQUE(child_round)(go, done, p + NR_WARM * page_size, NR_PAGES))
		_exit(4);
	OPAQUE(child_round)(go, done, p, 0);
	_exit(0);
}

struct fault_child {
	pid_t pid;
	int go;		/* parent's write end */
	int done;	/* parent's read end */
};

static int start_fault_child(struct fault_child *fc, int cpu)
{
	int go[2], done[2];

	if (pipe(go) || pipe(done))
		return -1;
	fc->pid = fork();
	if (fc->pid < 0)
		return -1;
	if (fc->pid == 0) {
		close(go[1]);
		close(done[0]);
		fault_child(cpu, go[0], done[1]);
	}
	close(go[0]);
	close(done[1]);
	fc->go = go[1];
	fc->done = done[0];
	return 0;
}

/* Run one round of the child; 0 when it answered. */
static int child_step(struct fault_child *fc)
{
	char c = 'r';

	if (write(fc->go, &c, 1) != 1 || read(fc->done, &c, 1) != 1)
		return -1;
	return 0;
}

/* Tell the child to leave and reap it; its exit status (0 is good). */
static int stop_fault_child(struct fault_child *fc)
{
	char c = 'q';
	int status;

	if (write(fc->go, &c, 1) != 1)
		kill(fc->pid, SIGKILL);
	if (waitpid(fc->pid, &status, 0) != fc->pid)
		return -1;
	close(fc->go);
	close(fc->done);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

TEST(faults_pid0_exact)
{
	char *warm, *p;
	int fds[3];

	page_size = sysconf(_SC_PAGESIZE);
	fds[0] = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	fds[1] = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, -1);
	fds[2] = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, -1);
	ASSERT_LE(0, fds[0]);
	ASSERT_LE(0, fds[1]);
	ASSERT_LE(0, fds[2]);
	prefault_self();
	warm = fresh_pages(NR_WARM);
	p = fresh_pages(NR_PAGES);
	ASSERT_NE(NULL, warm);
	ASSERT_NE(NULL, p);

	OPAQUE(measure_touch)(fds, 3, warm, NR_WARM);
	OPAQUE(measure_touch)(fds, 3, p, NR_PAGES);
	EXPECT_EQ(NR_PAGES, perf_read_count(fds[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fds[1]));
	EXPECT_EQ(0, perf_read_count(fds[2]));

	/* the same pages again: already present, no fault at all */
	OPAQUE(measure_touch)(fds, 3, p, NR_PAGES);
	EXPECT_EQ(0, perf_read_count(fds[0]));
	EXPECT_EQ(0, perf_read_count(fds[1]));
	EXPECT_EQ(0, perf_read_count(fds[2]));
}

TEST(faults_pid0_on_one_cpu)
{
	char *warm, *p, *q;
	int fd;

	page_size = sysconf(_SC_PAGESIZE);
	if (!have_two_cpus())
		SKIP(return, "needs CPUs 0 and 1");
	/* counts this task, but only while it runs on CPU 1 */
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, 1);
	ASSERT_LE(0, fd);
	prefault_self();
	warm = fresh_pages(NR_WARM);
	p = fresh_pages(NR_PAGES);
	q = fresh_pages(NR_PAGES);
	ASSERT_NE(NULL, warm);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, q);

	ASSERT_EQ(0, pin_to_cpu(0));
	OPAQUE(measure_touch)(&fd, 1, warm, NR_WARM);
	OPAQUE(measure_touch)(&fd, 1, p, NR_PAGES);
	EXPECT_EQ(0, perf_read_count(fd));

	ASSERT_EQ(0, pin_to_cpu(1));
	OPAQUE(measure_touch)(&fd, 1, warm, NR_WARM);
	OPAQUE(measure_touch)(&fd, 1, q, NR_PAGES);
	EXPECT_EQ(NR_PAGES, perf_read_count(fd));
}

TEST(faults_child_pid)
{
	struct fault_child fc;
	int fd[2];

	page_size = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, start_fault_child(&fc, -1));
	fd[0] = open_sw(PERF_COUNT_SW_PAGE_FAULTS, fc.pid, -1);
	fd[1] = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, fc.pid, -1);
	ASSERT_LE(0, fd[0]);
	ASSERT_LE(0, fd[1]);

	ASSERT_EQ(0, child_step(&fc));		/* warm-up, not counted */
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd[1], PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(0, child_step(&fc));
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd[1], PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[0]));
	EXPECT_EQ(NR_PAGES, perf_read_count(fd[1]));
	EXPECT_EQ(0, stop_fault_child(&fc));
}

TEST(faults_cpu_wide)
{
	struct fault_child fc;
	int fd;

	page_size = sysconf(_SC_PAGESIZE);
	if (!have_two_cpus())
		SKIP(return, "needs CPUs 0 and 1");
	/*
	 * Every task on CPU 1 is counted: the child runs there, we stay on
	 * CPU 0, and nothing else in the guest takes user page faults.
	 */
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, start_fault_child(&fc, 1));
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, -1, 1);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, child_step(&fc));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(0, child_step(&fc));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(NR_PAGES, perf_read_count(fd));
	EXPECT_EQ(0, stop_fault_child(&fc));
}

#define ROUND_TRIPS	500

TEST(context_switches_pingpong)
{
	int ab[2], ba[2], fd, i;
	pid_t pid;
	__u64 n;
	char c;

	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, pipe(ab));
	ASSERT_EQ(0, pipe(ba));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* echo every byte back until EOF; inherits the CPU 0 pin */
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1)
			if (write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	fd = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1);
	ASSERT_LE(0, fd);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < ROUND_TRIPS; i++) {
		c = (char)i;
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(ROUND_TRIPS, i);
	close(ab[1]);
	waitpid(pid, NULL, 0);

	/*
	 * With both tasks on one CPU we must give the CPU away once per
	 * round trip (the answer cannot come before the echo task has run).
	 * Ticks, kworkers and wake-up preemption may add a few more; the
	 * upper bound only catches counting on the wrong side of a switch
	 * or counting both sides.
	 */
	n = perf_read_count(fd);
	TH_LOG("%d round trips: %llu context switches", ROUND_TRIPS,
	       (unsigned long long)n);
	EXPECT_LE(ROUND_TRIPS, n);
	EXPECT_GE(ROUND_TRIPS + ROUND_TRIPS / 2, n);
}

#define MIGRATIONS	20

TEST(cpu_migrations_exact)
{
	int fd, i;
	__u64 n;

	if (!have_two_cpus())
		SKIP(return, "needs CPUs 0 and 1");
	/*
	 * Pinned to one CPU at a time, nothing but our own affinity
	 * changes can move us: each change is exactly one migration.
	 */
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_sw(PERF_COUNT_SW_CPU_MIGRATIONS, 0, -1);
	ASSERT_LE(0, fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 1; i <= MIGRATIONS; i++)
		if (pin_to_cpu(i & 1))
			break;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(MIGRATIONS + 1, i);
	n = perf_read_count(fd);
	EXPECT_EQ(MIGRATIONS, n);

	/* no migration while staying put */
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 10; i++)
		sched_yield();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(0, perf_read_count(fd));
}

TEST(task_clock_and_cpu_clock)
{
	__u64 cpu0, cpu1, mono0, mono1, busy, wall, tc, cc;
	int fd_task, fd_cpu;

	fd_task = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	fd_cpu = open_sw(PERF_COUNT_SW_CPU_CLOCK, 0, -1);
	ASSERT_LE(0, fd_task);
	ASSERT_LE(0, fd_cpu);

	mono0 = clock_ns(CLOCK_MONOTONIC);
	cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ioctl(fd_task, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd_cpu, PERF_EVENT_IOC_ENABLE, 0);
	burn_cpu(100000000ULL);
	ioctl(fd_task, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd_cpu, PERF_EVENT_IOC_DISABLE, 0);
	cpu1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	mono1 = clock_ns(CLOCK_MONOTONIC);
	busy = cpu1 - cpu0;
	wall = mono1 - mono0;
	tc = perf_read_count(fd_task);
	cc = perf_read_count(fd_cpu);
	TH_LOG("busy %llu ns wall %llu ns task-clock %llu cpu-clock %llu",
	       (unsigned long long)busy, (unsigned long long)wall,
	       (unsigned long long)tc, (unsigned long long)cc);

	/*
	 * Both clocks advance while this task runs, in nanoseconds. The
	 * bounds are loose: the perf clock and the POSIX clocks sample
	 * different clock sources at different moments, and under
	 * emulation a tick can be long. A count in the wrong unit or
	 * time spent off the CPU counted would still fall outside.
	 */
	EXPECT_LT(busy / 2, tc);
	EXPECT_LT(busy / 2, cc);
	EXPECT_GT(wall + wall / 2 + 20000000ULL, tc);
	EXPECT_GT(wall + wall / 2 + 20000000ULL, cc);

	/* disabled: frozen */
	burn_cpu(20000000ULL);
	EXPECT_EQ(tc, perf_read_count(fd_task));
	EXPECT_EQ(cc, perf_read_count(fd_cpu));
}

/*
 * A task-clock sample carries the clock's value at the overflow.  The
 * context's time is settled only at switches and cross-CPU calls, so a
 * clock that read only the settled time would put the same value in
 * every sample taken between two switches.  This task spins without
 * sleeping: each sample must read more than the one before, by about a
 * period.
 */
TEST(task_clock_samples_read_the_clock_now)
{
	const __u64 period = 2000000;	/* 2 ms of task time */
	struct perf_event_attr attr;
	__u64 values[256], head, off;
	int fd, n = 0, i;
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	char *data;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_READ;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	pg = perf_map_ring(fd, 16);
	ASSERT_NE(MAP_FAILED, pg);
	data = (char *)pg + psz;

	/*
	 * Spin until about 40 samples are in, not for a fixed time: on a
	 * busy host a vCPU is preempted for many periods at once, and the
	 * guest's timer then fires once for all of them.
	 */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 2000; i++) {
		burn_cpu(period);
		if (__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) >=
		    40 * 3 * sizeof(__u64))
			break;
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	/* 16 pages hold far more than these ~40 records: no wrap */
	ASSERT_GT(16 * psz, head);
	for (off = 0; off < head && n < 256; ) {
		struct perf_event_header *h = (void *)(data + off);

		if (h->type == PERF_RECORD_SAMPLE) {
			/* header, time, value */
			values[n++] = *(__u64 *)(data + off + 16);
		}
		ASSERT_NE(0, h->size);
		off += h->size;
	}
	perf_unmap_ring(pg, 16);
	close(fd);

	ASSERT_LE(20, n) TH_LOG("only %d samples", n);
	for (i = 1; i < n; i++) {
		ASSERT_LT(values[i - 1], values[i])
			TH_LOG("sample %d reads %llu, sample %d %llu", i - 1,
			       (unsigned long long)values[i - 1], i,
			       (unsigned long long)values[i]);
	}
	/*
	 * About a period apart on average.  Not step by step: the step
	 * after a late timer is short by as much as the timer was late
	 * (the next expiry stays on the period's grid), which a loaded
	 * host makes common.  Late timers only ever lengthen the average.
	 */
	EXPECT_LE(period / 2, (values[n - 1] - values[0]) / (n - 1))
		TH_LOG("%d samples over %llu ns", n,
		       (unsigned long long)(values[n - 1] - values[0]));
}

TEST(dummy_counts_zero)
{
	char *p;
	int fd;

	page_size = sysconf(_SC_PAGESIZE);
	fd = open_sw(PERF_COUNT_SW_DUMMY, 0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = fresh_pages(NR_PAGES);
	ASSERT_NE(NULL, p);
	touch_pages(p, NR_PAGES);
	burn_cpu(10000000ULL);
	sched_yield();
	EXPECT_EQ(0, perf_read_count(fd));
}

TEST(alignment_and_emulation_faults_zero)
{
	char *p;
	int fa, fe;

	page_size = sysconf(_SC_PAGESIZE);
	/*
	 * Only 32-bit compat code (arm64) or nothing at all (x86_64)
	 * raises these; a native 64-bit task never does.
	 */
	fa = open_sw(PERF_COUNT_SW_ALIGNMENT_FAULTS, 0, -1);
	fe = open_sw(PERF_COUNT_SW_EMULATION_FAULTS, 0, -1);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fe);
	ASSERT_EQ(0, ioctl(fa, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fe, PERF_EVENT_IOC_ENABLE, 0));
	p = fresh_pages(NR_PAGES);
	ASSERT_NE(NULL, p);
	touch_pages(p, NR_PAGES);
	burn_cpu(10000000ULL);
	EXPECT_EQ(0, perf_read_count(fa));
	EXPECT_EQ(0, perf_read_count(fe));
}

TEST_HARNESS_MAIN
