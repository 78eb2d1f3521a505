// SPDX-License-Identifier: GPL-2.0
/*
 * perf_bench: the cost perf_events adds to the hot paths a counting user
 * sees, measured in the guest by `make bench` on both kernels.
 *
 * Rows (stable names; rig/bench.sh matches them):
 *
 *   ctxsw-0, ctxsw-1, ctxsw-8
 *	Two processes pinned to one CPU bounce a byte over two pipes; each
 *	has 0, 1 or 8 enabled software counting events of its own (pid 0,
 *	any CPU, no inherit, not grouped), so every round trip switches
 *	two event contexts out and two in. ns per round trip.
 *   read-1, read-group-8
 *	read() of one enabled task-clock event, and of an 8-event group
 *	with PERF_FORMAT_GROUP. ns per read.
 *   ioctl-1, ioctl-group-8
 *	PERF_EVENT_IOC_ENABLE then PERF_EVENT_IOC_DISABLE on one event, and
 *	on an 8-event group leader with PERF_IOC_FLAG_GROUP. ns per pair.
 *
 * Every row runs a fixed number of iterations (after a tenth as many
 * untimed ones to warm caches and the scheduler), so both kernels do the
 * same work. One output line per row:
 *
 *   bench <row> <ns-per-op> iters=<n>
 *
 * A row that cannot run prints "# <row>: ..." instead and the exit status
 * is 1. Usage: perf_bench [divisor] (divides every iteration count, for a
 * quick smoke run; the rig never passes it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	8

/*
 * The software events opened, in order: the one-event rows use the first
 * (task-clock, what `perf stat` always opens); the eight-event rows use
 * all. context-switches is in the set so the ctxsw rows can check that
 * the events really were scheduled in on every switch.
 */
static const __u64 sw_events[MAX_EVENTS] = {
	PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_PAGE_FAULTS_MIN,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	PERF_COUNT_SW_CPU_CLOCK,
	PERF_COUNT_SW_ALIGNMENT_FAULTS,
};

static long divisor = 1;
static int failed;

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void report(const char *row, double t0, double t1, long iters)
{
	printf("bench %s %.1f iters=%ld\n", row, (t1 - t0) / iters, iters);
	fflush(stdout);
}

static void row_failed(const char *row, const char *what)
{
	printf("# %s: %s: %s\n", row, what, strerror(errno));
	fflush(stdout);
	failed = 1;
}

/*
 * Open @n software counting events on the calling task, enabled unless
 * @disabled. With @group they form one group under fds[0] and read as
 * one (PERF_FORMAT_GROUP); without, each stands alone. Returns 0, or -1
 * with the events opened so far closed.
 */
static int open_events(int *fds, int n, int group, int disabled)
{
	struct perf_event_attr attr;
	int i, j;

	for (i = 0; i < n; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = sw_events[i];
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (group)
			attr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		/* in a group only the leader's state matters */
		attr.disabled = disabled && (!group || i == 0);
		fds[i] = sys_perf_event_open(&attr, 0, -1,
					     group && i ? fds[0] : -1,
					     PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			for (j = 0; j < i; j++)
				close(fds[j]);
			return -1;
		}
	}
	return 0;
}

static void close_events(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

/* Both ping-pong tasks run here: one CPU, so every hand-off is a switch. */
static int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void bench_ctxsw(const char *row, int nevents, long iters)
{
	long warm = iters / 10, i;
	int p2c[2], c2p[2], fds[MAX_EVENTS];
	int status = 0;
	double t0, t1;
	__u64 val[3];
	char b = 0;
	pid_t pid;

	if (pipe(p2c) || pipe(c2p)) {
		row_failed(row, "pipe");
		return;
	}
	pid = fork();
	if (pid < 0) {
		row_failed(row, "fork");
		return;
	}
	if (pid == 0) {
		/*
		 * The child's events are its own (pid 0 after the fork), so
		 * both sides of every switch carry a context. It says it is
		 * ready with the first byte it sends.
		 */
		if (nevents && open_events(fds, nevents, 0, 0))
			b = 1;
		if (write(c2p[1], &b, 1) != 1 || b)
			_exit(1);
		for (i = 0; i < warm + iters; i++) {
			if (read(p2c[0], &b, 1) != 1 ||
			    write(c2p[1], &b, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}

	if (nevents && open_events(fds, nevents, 0, 0)) {
		row_failed(row, "perf_event_open");
		kill(pid, SIGKILL);
		goto out;
	}
	if (read(c2p[0], &b, 1) != 1 || b) {
		errno = EIO;
		row_failed(row, "child could not open its events");
		goto out_events;
	}
	for (i = 0; i < warm; i++) {
		if (write(p2c[1], &b, 1) != 1 || read(c2p[0], &b, 1) != 1)
			goto io_error;
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (write(p2c[1], &b, 1) != 1 || read(c2p[0], &b, 1) != 1)
			goto io_error;
	}
	t1 = now_ns();

	/* context-switches (event 1) must have seen every round trip */
	if (nevents > 1 && (read(fds[1], val, sizeof(val)) != sizeof(val) ||
			    val[0] < (__u64)iters)) {
		errno = EINVAL;
		row_failed(row, "context-switches undercounted");
		goto out_events;
	}
	report(row, t0, t1, iters);
	goto out_events;

io_error:
	row_failed(row, "pipe ping-pong");
	kill(pid, SIGKILL);
out_events:
	if (nevents)
		close_events(fds, nevents);
out:
	waitpid(pid, &status, 0);
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
}

static void bench_read(const char *row, int nevents, long iters)
{
	/* group read: nr, time_enabled, time_running, then value and id each */
	__u64 buf[3 + 2 * MAX_EVENTS];
	size_t len = nevents > 1 ? (3 + 2 * nevents) * sizeof(__u64) :
		     3 * sizeof(__u64);
	long warm = iters / 10, i;
	int fds[MAX_EVENTS];
	double t0, t1;

	if (open_events(fds, nevents, nevents > 1, 0)) {
		row_failed(row, "perf_event_open");
		return;
	}
	for (i = 0; i < warm; i++) {
		if (read(fds[0], buf, sizeof(buf)) != (ssize_t)len)
			goto read_error;
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (read(fds[0], buf, sizeof(buf)) != (ssize_t)len)
			goto read_error;
	}
	t1 = now_ns();
	report(row, t0, t1, iters);
	close_events(fds, nevents);
	return;

read_error:
	row_failed(row, "read");
	close_events(fds, nevents);
}

static void bench_ioctl(const char *row, int nevents, long iters)
{
	unsigned long flag = nevents > 1 ? PERF_IOC_FLAG_GROUP : 0;
	long warm = iters / 10, i;
	int fds[MAX_EVENTS];
	double t0, t1;

	if (open_events(fds, nevents, nevents > 1, 1)) {
		row_failed(row, "perf_event_open");
		return;
	}
	for (i = 0; i < warm; i++) {
		if (ioctl(fds[0], PERF_EVENT_IOC_ENABLE, flag) ||
		    ioctl(fds[0], PERF_EVENT_IOC_DISABLE, flag))
			goto ioctl_error;
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (ioctl(fds[0], PERF_EVENT_IOC_ENABLE, flag) ||
		    ioctl(fds[0], PERF_EVENT_IOC_DISABLE, flag))
			goto ioctl_error;
	}
	t1 = now_ns();
	report(row, t0, t1, iters);
	close_events(fds, nevents);
	return;

ioctl_error:
	row_failed(row, "ioctl");
	close_events(fds, nevents);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		divisor = strtol(argv[1], NULL, 0);
	if (divisor < 1)
		divisor = 1;
	if (pin_cpu0()) {
		row_failed("all", "sched_setaffinity");
		return 1;
	}

	/*
	 * No-event switching first, before any event has ever existed in
	 * this guest, so it measures the scheduler hooks at their cheapest.
	 */
	bench_ctxsw("ctxsw-0", 0, 200000 / divisor);
	bench_ctxsw("ctxsw-1", 1, 150000 / divisor);
	bench_ctxsw("ctxsw-8", 8, 80000 / divisor);
	bench_read("read-1", 1, 2000000 / divisor);
	bench_read("read-group-8", 8, 1000000 / divisor);
	bench_ioctl("ioctl-1", 1, 600000 / divisor);
	bench_ioctl("ioctl-group-8", 8, 120000 / divisor);
	return failed;
}
