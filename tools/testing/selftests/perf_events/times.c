// SPDX-License-Identifier: GPL-2.0
/*
 * time_enabled and time_running: an event that is never multiplexed out
 * has exactly equal times, however often its task sleeps and runs again;
 * tools divide one by the other to scale counts, so any gap shows up as a
 * bogus "(99.9%)" next to every count.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

static int open_sw(__u64 config, pid_t pid, int disabled, int on_exec)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = disabled;
	attr.enable_on_exec = on_exec;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

/* sleep and wake many times: every wake-up is a context switch */
static void sleepy(int n)
{
	int i;

	for (i = 0; i < n; i++)
		usleep(200);
}

TEST(self_sleeping_enabled_equals_running)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0);
	struct perf_value v;

	ASSERT_LE(0, fd);
	sleepy(200);
	ASSERT_TRUE(perf_read_value(fd, &v));
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(other_task_enabled_equals_running)
{
	int go[2], fd;
	struct perf_value v;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		sleepy(200);
		_exit(0);
	}
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, pid, 0, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_TRUE(perf_read_value(fd, &v));
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(enable_on_exec_enabled_equals_running)
{
	int go[2], fd;
	struct perf_value v;
	pid_t pid;
	char c;

	/* the one reason to skip: nothing to exec */
	if (access("/bin/sh", X_OK))
		SKIP(return, "no /bin/sh to exec");
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static char * const argv[] = { "/bin/sh", "-c",
					       "for i in 1 2 3; do :; done",
					       NULL };

		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execv(argv[0], argv);
		_exit(127);
	}
	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, pid, 1, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_TRUE(perf_read_value(fd, &v));
	/* the exec enabled it: it ran the shell for a while */
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

/*
 * A member created enabled in a group whose leader is disabled cannot
 * run, so it is not enabled either until the leader is: after the group
 * ran unmultiplexed, the member's times are equal, and no more than the
 * leader's. PAPI opens its event sets this way and scales each count by
 * enabled/running, from read() or from the mmap page: either gap is a
 * wrong count. Both are checked.
 */
TEST(member_of_disabled_leader_enabled_equals_running)
{
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	struct perf_value lv, mv;
	__u32 seq;
	__u64 pe, pr;
	int lead, mem;

	lead = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, 1, 0);
	ASSERT_LE(0, lead);
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	mem = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, mem);
	pg = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, mem, 0);
	ASSERT_NE(MAP_FAILED, pg);

	/* the leader stays off a while, across switches */
	sleepy(100);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	sleepy(100);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	sleepy(50);

	ASSERT_TRUE(perf_read_value(lead, &lv));
	ASSERT_TRUE(perf_read_value(mem, &mv));
	EXPECT_LT(0, mv.enabled);
	EXPECT_EQ(lv.enabled, lv.running);
	EXPECT_EQ(mv.enabled, mv.running);
	EXPECT_GE(lv.enabled, mv.enabled);

	do {
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		pe = pg->time_enabled;
		pr = pg->time_running;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) != seq);
	EXPECT_EQ(pe, pr) TH_LOG("user page: enabled %llu, running %llu",
				 (unsigned long long)pe,
				 (unsigned long long)pr);
	munmap(pg, sysconf(_SC_PAGESIZE));
	close(mem);
	close(lead);
}

TEST_HARNESS_MAIN
