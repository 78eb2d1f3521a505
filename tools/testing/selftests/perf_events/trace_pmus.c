// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events seen through perf: filters on kprobe events, and
 * tracepoints that name a task other than the one running.
 *
 *  - PERF_EVENT_IOC_SET_FILTER takes a trace event filter
 *    (Documentation/trace/events.rst, "Event filtering") on an event of
 *    the kprobe PMU as it does on a tracepoint's: a filter on common_pid
 *    keeps out the hits of other tasks, a second filter is refused with
 *    EEXIST.  (uprobe_events has the same for the uprobe PMU.)
 *  - a tracepoint about a task, such as sched:sched_wakeup, which the
 *    waker fires while the woken task sleeps, also counts on the woken
 *    task's own event for that tracepoint when the event is bound to the
 *    CPU the tracepoint fires on; a sigtrap event (whose signal could
 *    only go to the task that hit it) is left out, and so is an event
 *    for any CPU (cpu -1), which could be counting where the task runs:
 *    upstream 6.12 visits only the events bound to the current CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define KPROBE_PMU	"/sys/bus/event_source/devices/kprobe"
#define TRACEFS_EVENTS	"/sys/kernel/tracing/events/"
#define RETPROBE	1ull
#define CALLS		100
#define ROUNDS		10

/* the kernel function behind getppid(2), which the kprobes hit */
#if defined(__x86_64__)
#define GETPPID_FN	"__x64_sys_getppid"
#elif defined(__aarch64__)
#define GETPPID_FN	"__arm64_sys_getppid"
#else
#define GETPPID_FN	"sys_getppid"
#endif

static int kprobe_type(void)
{
	long type;

	return read_long(KPROBE_PMU "/type", &type) ? -1 : type;
}

/* a counting kprobe event on this task, at GETPPID_FN's entry or return */
static int open_kprobe(__u64 config)
{
	struct perf_event_attr attr;
	int type = kprobe_type();

	if (type < 0)
		return -2;
	perf_attr_init(&attr, type, config);
	attr.kprobe_func = (__u64)(uintptr_t)GETPPID_FN;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int set_pid_filter(int fd, pid_t pid, const char *field)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "%s == %d", field, pid);
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter);
}

static void call_getppid(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * A filter that no hit of this task passes keeps the count at 0; one
 * that every hit passes lets them all count.  Both for the entry and the
 * return probe.
 */
TEST(kprobe_set_filter)
{
	__u64 config;
	int fd;

	if (kprobe_type() < 0)
		SKIP(return, "no kprobe PMU at %s", KPROBE_PMU);
	for (config = 0; config <= RETPROBE; config++) {
		fd = open_kprobe(config);
		ASSERT_GE(fd, 0) TH_LOG("kprobe on %s: %s", GETPPID_FN,
					strerror(errno));
		/* pid 0 is the idle task, which never makes a system call */
		ASSERT_EQ(0, set_pid_filter(fd, 0, "common_pid"))
			TH_LOG("SET_FILTER on a kprobe event: %s",
			       strerror(errno));
		/* one filter per event */
		EXPECT_EQ(-1, set_pid_filter(fd, getpid(), "common_pid"));
		EXPECT_EQ(EEXIST, errno);
		call_getppid(CALLS);
		EXPECT_EQ(0, perf_read_count(fd)) TH_LOG("config %llu",
							 config);
		close(fd);

		fd = open_kprobe(config);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, set_pid_filter(fd, getpid(), "common_pid"));
		call_getppid(CALLS);
		EXPECT_EQ(CALLS, perf_read_count(fd)) TH_LOG("config %llu",
							     config);
		close(fd);
	}
}

/* a filter with a field the kprobe event lacks is refused */
TEST(kprobe_bad_filter)
{
	int fd;

	if (kprobe_type() < 0)
		SKIP(return, "no kprobe PMU at %s", KPROBE_PMU);
	fd = open_kprobe(0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

static long tracepoint_id(const char *name)
{
	char path[256];
	long id;

	snprintf(path, sizeof(path), TRACEFS_EVENTS "%s/id", name);
	return read_long(path, &id) ? -1 : id;
}

/* the state letter of @pid in /proc/<pid>/stat, 0 when unreadable */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return 0;
	/* "pid (comm) S ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* wait until @pid sleeps (in its read(), here), 5 s at most */
static bool wait_asleep(pid_t pid)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (task_state(pid) == 'S')
			return true;
		usleep(1000);
	}
	return false;
}

/* a tracepoint event on @pid, on @cpu (-1: any), counting @pid's records */
static int open_tp_on(long id, pid_t pid, int cpu, bool sigtrap)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.sigtrap = sigtrap;
	attr.remove_on_exec = sigtrap;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 && set_pid_filter(fd, pid, "pid")) {
		close(fd);
		return -1;
	}
	return fd;
}

struct wake_counts {
	__u64 bound;	/* the event bound to CPU 0 */
	__u64 sigtrap;	/* the same with sigtrap */
	__u64 any_cpu;	/* one for any CPU (cpu -1) */
	int rounds;	/* wakeups the child acknowledged */
};

/*
 * A child and this process, both on CPU 0, take turns through two pipes:
 * each round this process writes to the child's pipe while the child
 * sleeps reading it, which wakes the child from this process's context
 * on CPU 0, and then sleeps until the child answers.  The events are the
 * child's, filtered on the child's pid: the child never wakes itself, so
 * they count only the records the waker fires about the child.
 */
static void count_wakeups(struct __test_metadata *_metadata, const char *tp,
			  struct wake_counts *out)
{
	int to_child[2], from_child[2], fd, fd_sig, fd_any, i;
	long id = tracepoint_id(tp);
	pid_t child;
	char c = 'w';

	memset(out, 0, sizeof(*out));
	if (id < 0)
		SKIP(return, "no tracepoint %s in tracefs", tp);
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		close(to_child[1]);
		close(from_child[0]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(from_child[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to_child[0]);
	close(from_child[1]);

	ASSERT_TRUE(wait_asleep(child));
	fd = open_tp_on(id, child, 0, false);
	ASSERT_GE(fd, 0) TH_LOG("%s on the child: %s", tp, strerror(errno));
	fd_sig = open_tp_on(id, child, 0, true);
	ASSERT_GE(fd_sig, 0) TH_LOG("sigtrap %s: %s", tp, strerror(errno));
	fd_any = open_tp_on(id, child, -1, false);
	ASSERT_GE(fd_any, 0) TH_LOG("%s, any CPU: %s", tp, strerror(errno));

	for (i = 0; i < ROUNDS; i++) {
		if (!wait_asleep(child))
			break;
		if (write(to_child[1], &c, 1) != 1 ||
		    read(from_child[0], &c, 1) != 1)
			break;
		out->rounds++;
	}
	out->bound = perf_read_count(fd);
	out->sigtrap = perf_read_count(fd_sig);
	out->any_cpu = perf_read_count(fd_any);

	close(fd);
	close(fd_sig);
	close(fd_any);
	close(to_child[1]);
	close(from_child[0]);
	waitpid(child, NULL, 0);
}

/* sched_wakeup names the woken task: its event counts each wakeup */
TEST(sched_wakeup_counts_on_woken_task)
{
	struct wake_counts n;

	count_wakeups(_metadata, "sched/sched_wakeup", &n);
	ASSERT_EQ(ROUNDS, n.rounds);
	EXPECT_EQ(ROUNDS, n.bound);
	EXPECT_EQ(0, n.sigtrap);
	EXPECT_EQ(0, n.any_cpu);
}

/* and so does sched_waking, fired at the start of the wakeup */
TEST(sched_waking_counts_on_woken_task)
{
	struct wake_counts n;

	count_wakeups(_metadata, "sched/sched_waking", &n);
	ASSERT_EQ(ROUNDS, n.rounds);
	EXPECT_EQ(ROUNDS, n.bound);
	EXPECT_EQ(0, n.sigtrap);
	EXPECT_EQ(0, n.any_cpu);
}

TEST_HARNESS_MAIN
