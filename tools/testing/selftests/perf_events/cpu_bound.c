// SPDX-License-Identifier: GPL-2.0
/*
 * Task events bound to one CPU (pid and cpu both given): the shape of
 * `perf record -p`, which opens one such event per CPU for every thread.
 * Each counts, and gets side-band records, only while its task runs on
 * its CPU; inherited copies keep their CPU.  The kernel keeps such events
 * apart by CPU so that a switch visits only the one that can run: these
 * tests check that the one that can run is the one that runs.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define PHASE_NS	30000000ULL	/* 30 ms of CPU time per phase */

/* task-clock on the calling task, bound to @cpu */
static int open_bound(int cpu, bool inherit)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = READ_FORMAT_TIMES;
	attr.inherit = inherit;
	return sys_perf_event_open(&attr, 0, cpu, -1, 0);
}

/* every test needs two CPUs to tell them apart */
static bool two_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

TEST(counts_only_on_its_cpu)
{
	struct perf_value a0, a1, b0, b1;
	int fd0, fd1;

	ASSERT_TRUE(two_cpus());
	ASSERT_EQ(0, pin_to_cpu(0));
	fd0 = open_bound(0, false);
	ASSERT_LE(0, fd0);
	fd1 = open_bound(1, false);
	ASSERT_LE(0, fd1);

	burn_cpu(PHASE_NS);
	ASSERT_TRUE(perf_read_value(fd0, &a0));
	ASSERT_TRUE(perf_read_value(fd1, &a1));
	/* on CPU 0: the CPU-0 event ran, the CPU-1 one never did */
	EXPECT_LE(PHASE_NS / 2, a0.running);
	EXPECT_LE(PHASE_NS / 2, a0.count);
	EXPECT_EQ(0, a1.running);
	EXPECT_EQ(0, a1.count);

	ASSERT_EQ(0, pin_to_cpu(1));
	burn_cpu(PHASE_NS);
	ASSERT_TRUE(perf_read_value(fd0, &b0));
	ASSERT_TRUE(perf_read_value(fd1, &b1));
	/* and the other way round */
	EXPECT_LE(PHASE_NS / 2, b1.running);
	EXPECT_LE(PHASE_NS / 2, b1.count);
	EXPECT_GT(PHASE_NS / 4, b0.count - a0.count)
		TH_LOG("CPU-0 event counted %llu ns on CPU 1",
		       (unsigned long long)(b0.count - a0.count));
	close(fd0);
	close(fd1);
}

/* A child's copies count where the child runs, and on their CPU only. */
TEST(inherited_copies_keep_their_cpu)
{
	struct perf_value before, after, v1;
	int fd0, fd1, status, ready[2];
	char b = 0;
	pid_t pid;

	ASSERT_TRUE(two_cpus());
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, pipe(ready));
	fd0 = open_bound(0, true);
	ASSERT_LE(0, fd0);
	fd1 = open_bound(1, true);
	ASSERT_LE(0, fd1);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (pin_to_cpu(1) || write(ready[1], &b, 1) != 1)
			_exit(1);
		burn_cpu(4 * PHASE_NS);
		_exit(0);
	}
	/* the child is on CPU 1 and about to spin */
	ASSERT_EQ(1, read(ready[0], &b, 1));
	ASSERT_TRUE(perf_read_value(fd0, &before));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_TRUE(perf_read_value(fd0, &after));
	ASSERT_TRUE(perf_read_value(fd1, &v1));
	/*
	 * The child spun on CPU 1: its copy of the CPU-1 event has it all.
	 * Meanwhile the CPU-0 event (the parent's, with the child's copy
	 * summed in) may count only the parent's moments on CPU 0 around
	 * waitpid(), not the spin.  Measured from the moment the child is on
	 * CPU 1, not from the fork: the fork and the child's time before it
	 * moved are CPU-0 time, and long on a debug kernel on a busy host.
	 */
	EXPECT_LE(2 * PHASE_NS, v1.count);
	EXPECT_GT(v1.count / 2, after.count - before.count)
		TH_LOG("CPU-0 event counted %llu ns during the spin, CPU-1 %llu",
		       (unsigned long long)(after.count - before.count),
		       (unsigned long long)v1.count);
	close(ready[0]);
	close(ready[1]);
	close(fd0);
	close(fd1);
}

/* MMAP records of a task go to its event bound to the CPU it runs on. */
TEST(mmap_records_only_on_its_cpu)
{
	struct perf_event_mmap_page *pg[2];
	struct perf_event_attr attr;
	int fd[2], cpu;
	void *p;

	ASSERT_TRUE(two_cpus());
	ASSERT_EQ(0, pin_to_cpu(0));
	for (cpu = 0; cpu < 2; cpu++) {
		perf_attr_init(&attr, PERF_TYPE_SOFTWARE,
			       PERF_COUNT_SW_DUMMY);
		attr.mmap = 1;
		attr.watermark = 1;
		attr.wakeup_watermark = 1;
		fd[cpu] = sys_perf_event_open(&attr, 0, cpu, -1, 0);
		ASSERT_LE(0, fd[cpu]);
		pg[cpu] = perf_map_ring(fd[cpu], 2);
		ASSERT_NE(MAP_FAILED, pg[cpu]);
	}

	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 4096);

	/* the CPU-0 event has the MMAP record, the CPU-1 one nothing */
	EXPECT_LT(0, __atomic_load_n(&pg[0]->data_head, __ATOMIC_ACQUIRE));
	EXPECT_EQ(0, __atomic_load_n(&pg[1]->data_head, __ATOMIC_ACQUIRE));
	for (cpu = 0; cpu < 2; cpu++) {
		perf_unmap_ring(pg[cpu], 2);
		close(fd[cpu]);
	}
}

TEST_HARNESS_MAIN
