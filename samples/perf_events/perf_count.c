// SPDX-License-Identifier: GPL-2.0
/*
 * perf_count: count software events of a command, the smallest useful
 * perf_event_open() client. Opens one group per event on the child (pid,
 * any CPU), disabled, with enable_on_exec so that only the command itself
 * is counted, then prints each count with its enabled/running times.
 *
 * Usage: perf_count command [args...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} events[] = {
	{ "task-clock (ns)", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
};

#define NR_EVENTS (sizeof(events) / sizeof(*events))

int main(int argc, char **argv)
{
	int fds[NR_EVENTS], go[2];
	unsigned int i;
	pid_t pid;
	char c;

	if (argc < 2) {
		fprintf(stderr, "usage: %s command [args...]\n", argv[0]);
		return 2;
	}
	/* the child waits on a pipe until its counters exist, then execs */
	if (pipe(go))
		return 1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(go[0]);

	for (i = 0; i < NR_EVENTS; i++) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = events[i].type;
		attr.config = events[i].config;
		attr.disabled = 1;
		attr.enable_on_exec = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fds[i] = syscall(SYS_perf_event_open, &attr, pid, -1, -1,
				 PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0)
			printf("%-20s not counted: %s\n", events[i].name,
			       strerror(errno));
	}
	if (write(go[1], "x", 1) != 1)
		return 1;
	waitpid(pid, NULL, 0);

	for (i = 0; i < NR_EVENTS; i++) {
		__u64 v[3];

		if (fds[i] < 0)
			continue;
		if (read(fds[i], v, sizeof(v)) != sizeof(v)) {
			printf("%-20s read: %s\n", events[i].name, strerror(errno));
			continue;
		}
		printf("%-20s %15llu   (enabled %llu ns, running %llu ns)\n",
		       events[i].name, (unsigned long long)v[0],
		       (unsigned long long)v[1], (unsigned long long)v[2]);
	}
	return 0;
}
