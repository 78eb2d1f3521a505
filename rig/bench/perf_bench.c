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
 *   read-0, ioctl-0
 *	The floor under the read and ioctl rows: read() of 24 bytes from
 *	/dev/zero, and two ioctl()s /dev/zero refuses (ENOTTY): the
 *	syscall, the fd lookup and the copy, no perf. ns per read or pair.
 *   read-1, read-group-8
 *	read() of one enabled task-clock event, and of an 8-event group
 *	with PERF_FORMAT_GROUP. ns per read.
 *   ioctl-1, ioctl-group-8
 *	PERF_EVENT_IOC_ENABLE then PERF_EVENT_IOC_DISABLE on one event, and
 *	on an 8-event group leader with PERF_IOC_FLAG_GROUP. ns per pair.
 *   ctxsw-hw-1, ctxsw-hw-4
 *	The ctxsw ping-pong with 1 or 4 hardware counting events per task
 *	(cycles and instructions alternately, PERF_TYPE_HARDWARE), so every
 *	switch programs counters. ns per round trip.
 *   hw-read-1, hw-rdpmc-1 (x86)
 *	One hardware cycles counter of the task, mmapped: read() of it,
 *	and the user page's RDPMC read (seqcount, index, offset, RDPMC,
 *	pmc_width) that needs no syscall. ns per read.
 *
 *   aux-write-256
 *	read() of an event of the AUX test PMU (perf_events/module/
 *	perf_aux_pmu.c, loaded for the row): each read writes a 256-byte
 *	chunk into the event's 8-page AUX area through the driver API
 *	(perf_aux_output_begin()/_end()), and the core puts a
 *	PERF_RECORD_AUX in the 8-page data buffer; the reader moves aux_tail
 *	and data_tail after each.  ns per read (read-1 is the read alone).
 *	Checks that every chunk landed whole.  New: report only.
 *
 * The scaling rows: how a cost grows with the number of events, most of
 * which cannot run where the work happens. NCPUS is the number of online
 * CPUs (make bench boots 8); a row needing two or more fails on one.
 *
 *   ctxsw-cpu-8, ctxsw-cpu-64, ctxsw-cpu-256
 *	The ctxsw ping-pong, each task with N task-clock counting events of
 *	its own, one bound to CPU 0 (where it runs) and the other N-1 to
 *	CPUs 1..NCPUS-1 round-robin: the shape of `perf record -p`, one
 *	event per CPU per thread, of which only one can ever run. Checks
 *	that the CPU 0 event counted and a CPU 1 event never ran.
 *   ctxsw-sys-8, ctxsw-sys-64, ctxsw-sys-256, ctxsw-sys-64-sw
 *	The ctxsw-1 ping-pong while K CPU-wide (pid -1) minor-fault
 *	counting events exist on every online CPU (`perf stat -a`); they
 *	are real events but hardly fire here. The -sw row adds one
 *	CPU-wide dummy event per CPU with context_switch set and a ring
 *	buffer (`perf record -a --switch-events`), and checks that switch
 *	records were written.
 *   mmap-sys-8, mmap-sys-64, mmap-sys-256
 *	mmap() then munmap() of one anonymous PROT_READ|PROT_EXEC page
 *	with K CPU-wide counting events per CPU and none asking for mmap
 *	records. ns per pair.
 *   fork-sys-8, fork-sys-64
 *	fork(), the child's _exit(0) and waitpid() with K CPU-wide counting
 *	events per CPU. ns per fork.
 *   bp-open-1, bp-open-4
 *	perf_event_open() then close() of a write breakpoint on a variable
 *	(pid 0, any CPU) while N-1 others stay open on the task: the cost of
 *	reserving a breakpoint slot, which grows with the number of CPUs.
 *	ns per pair.
 *
 * The CPU-wide rows also give faults=, the minor faults per operation
 * on CPU 0: each one is counted by all K events there.
 *
 *   sample-base
 *	A fixed CPU-bound loop (no syscalls inside) with no event: ns per
 *	run. The reference the tick-freq and sample rows compare with.
 *   tick-freq-1, tick-freq-64, tick-freq-256
 *	The same loop while the task has N frequency-mode sampling
 *	task-clock events (1000 Hz, no buffer), one bound to CPU 0 and the
 *	others to CPUs 1..NCPUS-1 round-robin: what the tick's frequency
 *	adjustment costs. ns per run, the slowdown as a field.
 *   sample-4khz, sample-max
 *	The same loop under a sampling task-clock event (pid 0, any CPU,
 *	IP|TID|TIME|PERIOD) at sample_freq 4000, and at sample_freq = the
 *	current perf_event_max_sample_rate (the throttle limit), with a
 *	buffer large enough that nothing is lost, drained after the run.
 *	ns of added time per sample taken; the slowdown and the sample
 *	count follow as fields.
 *   hw-sample-1, lbr-sample-32, pebs-sample-1 (x86)
 *	The same loop under a sampling instructions counter in user mode
 *	(IP|TID|TIME|PERIOD, one sample every HW_SAMPLE_PERIOD
 *	instructions): plain, with a branch stack of every taken branch
 *	(PERF_SAMPLE_BRANCH_ANY: the whole LBR read and filtered in each
 *	PMI, 32 entries on the rig's model), and taken by PEBS
 *	(precise_ip 2: one record written by the CPU, read and turned
 *	into the sample in each PMI). ns of added time per sample, as for
 *	sample-4khz. Skipped where the CPU has no such counter, LBR or
 *	PEBS (the open fails: the row reports the error). New: report
 *	only.
 *
 * Every ns/sample row subtracts the quickest of sample-base and one more
 * run of its workload just before the row's event is opened: noise, and
 * work a kernel still has from its boot when sample-base runs, only ever
 * add time.
 *   sample-rate-max
 *	The highest rate, in samples per second of task time, that a task
 *	sustains with a 16-page buffer it drains itself every few hundred
 *	microseconds: sample_period steps from 1 ms down to 10 us, and a
 *	step counts when no PERF_RECORD_LOST appeared and the samples are
 *	within 10% of task time / period. Higher is better (better=higher).
 *
 * The process rows: a child process of T threads (the crew: the main
 * thread and T-1 more, asleep on a futex), profiled the way `perf record
 * -p` does on upstream, or with our PERF_FLAG_PID_PROCESS. The event is
 * a sampling task-clock (IP|TID|TIME, inherit, as perf record opens it).
 * The rows named -process- need that flag: on a kernel that refuses it
 * with EINVAL (upstream) they are left out, with one info line.
 *
 *   ctxsw-inherit-1, ctxsw-process-1
 *	The ctxsw-1 ping-pong with each task's event inherited (attr.inherit),
 *	or process-wide (PERF_FLAG_PID_PROCESS on its own process, pid 0).
 *   attach-thread-1, attach-thread-100, attach-thread-1000
 *	Attach to a crew of T blocked threads as perf record -p does: one
 *	event per thread per CPU (pid = tid, cpu = c, perf record's 4000 Hz),
 *	the first on each CPU with 1+8 pages mapped and the others'
 *	output set to it (PERF_EVENT_IOC_SET_OUTPUT); then unmap and close
 *	it all. ns per attach (the opens, mmap()s and ioctls; the mean of
 *	100, 10 or 3 after one untimed attach), with fds= (descriptors),
 *	locked_kb= (pages mapped) and detach_ns= as fields.
 *	RLIMIT_NOFILE is raised to fit T * NCPUS descriptors.
 *   attach-process-1, attach-process-100, attach-process-1000
 *	The same with one PERF_FLAG_PID_PROCESS event (pid = the crew, cpu
 *	-1) and one buffer of 1+8 pages: one descriptor whatever T.
 *   profile-thread-100, profile-process-100
 *	Both ways attached to a crew of 100 threads, bound to CPUs
 *	1..NCPUS-1 round-robin, that each run a short spin() loop once,
 *	sampled every 20 us of task time (a fixed period), while the
 *	benchmark on CPU 0 drains every buffer (8 data pages each) at each
 *	poll() wakeup, as perf record does. ns
 *	from the start to the last thread done; the samples read, the
 *	samples lost (PERF_FORMAT_LOST summed over the events; lost_records
 *	from PERF_RECORD_LOST), expected= (task time / period), the threads
 *	whose tid the samples carry, fds=, locked_kb=, throttles= and
 *	wakeups= follow; a thread without samples gets an info line. A
 *	corrupt record, or no sample at all, fails the row.
 *
 * Every row runs a fixed number of iterations (after a tenth as many
 * untimed ones to warm caches and the scheduler), so both kernels do the
 * same work. One output line per row:
 *
 *   bench <row> <value> iters=<n> [unit=<u>] [better=higher] [key=value...]
 *
 * The unit is ns per operation unless a unit= field says otherwise; lower
 * is better unless the line says better=higher. Further key=value fields
 * are details rig/bench.sh prints under the table.
 *
 * A row that cannot run prints "# <row>: ..." instead and the exit status
 * is 1. Usage: perf_bench [scale [rows]]: a scale N divides every
 * iteration count (a quick smoke run), xN multiplies it (a long run for
 * `make profile`); rows, a comma-separated list of row names, runs only
 * those (the sampling and tick-freq rows bring sample-base along).
 * `make bench` passes neither.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Our extensions (Documentation/perf_events/extensions.rst), which
 * upstream refuses with EINVAL; its uapi header lacks them.
 */
#ifndef PERF_FLAG_PID_PROCESS
#define PERF_FLAG_PID_PROCESS	0x10UL
#endif
#ifndef PERF_FLAG_SHARED_BUFFER
#define PERF_FLAG_SHARED_BUFFER	0x20UL
#endif

#define MAX_EVENTS	8
#define MAX_BOUND	256	/* events per task in the ctxsw-cpu, tick rows */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Iterations of the scaling rows: as the rows above, about a second of
 * guest time each on upstream, whose cost hardly grows with N here;
 * fewer for large N in ctxsw-cpu, so that a kernel whose switch walks
 * every event still finishes each row in a few seconds.
 */
#define CPU8_ITERS	120000
#define CPU64_ITERS	80000
#define CPU256_ITERS	40000
#define SYS_ITERS	150000
#define SYSSW_ITERS	120000
#define MMAP_ITERS	300000
#define FORK_ITERS	10000
#define BP_ITERS	100000

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
static long multiplier = 1;
static const char *only_rows;
static int failed;
static int ncpus;		/* online CPUs, numbered 0..ncpus-1 */

/* Is @row selected (perf_bench's second argument)? */
static int row_wanted(const char *row)
{
	size_t len = strlen(row);
	const char *p = only_rows;

	if (!p)
		return 1;
	while ((p = strstr(p, row))) {
		if ((p == only_rows || p[-1] == ',') &&
		    (p[len] == ',' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/* the iteration count of a row, scaled by the command line */
#define ITERS(n)	((n) * multiplier / divisor)

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

/* @fields: "" or further " key=value" fields for the line */
static void report(const char *row, double t0, double t1, long iters,
		   const char *fields)
{
	printf("bench %s %.1f iters=%ld%s\n", row, (t1 - t0) / iters, iters,
	       fields);
	fflush(stdout);
}

static void row_failed(const char *row, const char *what)
{
	printf("# %s: %s: %s\n", row, what, strerror(errno));
	fflush(stdout);
	failed = 1;
}

/* open_events() opens hardware events (cycles, instructions, ...) */
static int hw_events;
/*
 * open_events() opens inherited events (ctxsw-inherit-1), or passes
 * these flags (PERF_FLAG_PID_PROCESS for ctxsw-process-1, with pid 0
 * the caller's process)
 */
static int inherit_events;
static unsigned long open_flags;

/*
 * Open @n software counting events on the calling task, enabled unless
 * @disabled (hardware ones with hw_events set). With @group they form one
 * group under fds[0] and read as one (PERF_FORMAT_GROUP); without, each
 * stands alone. Returns 0, or -1 with the events opened so far closed.
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
		if (hw_events) {
			attr.type = PERF_TYPE_HARDWARE;
			attr.config = i % 2 ? PERF_COUNT_HW_INSTRUCTIONS :
					      PERF_COUNT_HW_CPU_CYCLES;
		}
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (group)
			attr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		/* in a group only the leader's state matters */
		attr.disabled = disabled && (!group || i == 0);
		attr.inherit = inherit_events;
		fds[i] = sys_perf_event_open(&attr, 0, -1,
					     group && i ? fds[0] : -1,
					     PERF_FLAG_FD_CLOEXEC | open_flags);
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

/* The bound-event rows need a CPU besides CPU 0 to bind the rest to. */
static int enough_cpus(const char *row, int n)
{
	if (n < 2 || ncpus >= 2)
		return 1;
	errno = ENODEV;
	row_failed(row, "needs two or more online CPUs");
	return 0;
}

/*
 * The `perf record -p` shape: @n enabled task-clock events on the
 * calling task, fds[0] bound to CPU 0 (where every benchmark task runs)
 * and the others to CPUs 1..ncpus-1 round-robin, so that only fds[0]
 * can ever be scheduled in. Counting, or with @freq sampling at @freq
 * Hz without a buffer (sample_type 0): the samples go nowhere, but the
 * tick still adjusts the period of the event that runs. Returns 0, or
 * -1 with errno set and nothing left open.
 */
static int open_bound_events(int *fds, int n, long freq)
{
	struct perf_event_attr attr;
	int i, cpu;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (freq) {
		attr.freq = 1;
		attr.sample_freq = freq;
	}
	for (i = 0; i < n; i++) {
		cpu = i ? 1 + (i - 1) % (ncpus - 1) : 0;
		fds[i] = sys_perf_event_open(&attr, 0, cpu, -1,
					     PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			close_events(fds, i);
			return -1;
		}
	}
	return 0;
}

/*
 * After a run under open_bound_events(): the CPU 0 event must have run
 * and counted, and fds[1], bound to CPU 1, never have run, since the
 * task never left CPU 0. Returns 0, or -1 with the row failed.
 */
static int check_bound(const char *row, int *fds, int n)
{
	__u64 v[3];	/* value, time_enabled, time_running */

	if (read(fds[0], v, sizeof(v)) != sizeof(v)) {
		row_failed(row, "read");
		return -1;
	}
	if (!v[0] || !v[2]) {
		errno = EINVAL;
		row_failed(row, "the event bound to CPU 0 did not count");
		return -1;
	}
	if (n < 2)
		return 0;
	if (read(fds[1], v, sizeof(v)) != sizeof(v)) {
		row_failed(row, "read");
		return -1;
	}
	if (v[2]) {
		errno = EINVAL;
		row_failed(row, "an event bound to CPU 1 ran on CPU 0");
		return -1;
	}
	return 0;
}

/*
 * The `perf stat -a` shape: k counting events on every online CPU (pid
 * -1), minor faults, real events that hardly fire on the paths timed.
 * A child process holds them, so that the benchmark task's own file
 * table stays small: fork copies it, and with thousands of event fds in
 * it fork-sys would time the file table rather than perf. The task
 * keeps one fd, CPU 0's first event, to see how often they fired.
 *
 * With switch records (the -sw row) the task also opens one CPU-wide
 * dummy event per CPU with context_switch set, as `perf record -a
 * --switch-events` does, each with a small read-only ring buffer: the
 * kernel then overwrites the oldest records rather than drop new ones,
 * so every switch writes its records and nothing needs draining.
 */
#define SW_PAGES	4	/* data pages per switch-record buffer */
#define SW_RECORD	16	/* PERF_RECORD_SWITCH_CPU_WIDE, no sample_id */

struct sys_events {
	int k;			/* counting events per CPU */
	pid_t holder;		/* holds them; killed by sys_close() */
	int probe;		/* CPU 0's first counting event */
	__u64 probe_mark;	/* its count when the timed run began */
	int nsw;		/* switch-record events open */
	int *sw_fds;
	struct perf_event_mmap_page **sw_pages;
	size_t sw_len;
	__u64 sw_mark;		/* CPU 0's data_head when the run began */
};

static void sys_close(struct sys_events *se)
{
	int i;

	for (i = 0; i < se->nsw; i++) {
		munmap(se->sw_pages[i], se->sw_len);
		close(se->sw_fds[i]);
	}
	free(se->sw_fds);
	free(se->sw_pages);
	if (se->probe >= 0)
		close(se->probe);
	/* its exit closes the events before waitpid() returns */
	if (se->holder > 0) {
		kill(se->holder, SIGKILL);
		waitpid(se->holder, NULL, 0);
	}
}

static int sys_open_switches(struct sys_events *se, const char *row)
{
	struct perf_event_attr attr;
	void *map;
	int fd;

	se->sw_len = (1 + SW_PAGES) * sysconf(_SC_PAGESIZE);
	se->sw_fds = calloc(ncpus, sizeof(*se->sw_fds));
	se->sw_pages = calloc(ncpus, sizeof(*se->sw_pages));
	if (!se->sw_fds || !se->sw_pages) {
		row_failed(row, "calloc");
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.context_switch = 1;
	while (se->nsw < ncpus) {
		fd = sys_perf_event_open(&attr, -1, se->nsw, -1,
					 PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			row_failed(row, "perf_event_open(context_switch)");
			return -1;
		}
		map = mmap(NULL, se->sw_len, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			row_failed(row, "mmap(context_switch)");
			close(fd);
			return -1;
		}
		se->sw_fds[se->nsw] = fd;
		se->sw_pages[se->nsw++] = map;
	}
	return 0;
}

/* Returns 0, or -1 with the row failed and nothing left open. */
static int sys_open(struct sys_events *se, const char *row, int k,
		    int switches)
{
	struct perf_event_attr attr;
	int n = k * ncpus, i, *fds;

	memset(se, 0, sizeof(*se));
	se->k = k;
	se->probe = -1;
	fds = calloc(n, sizeof(*fds));
	if (!fds) {
		row_failed(row, "calloc");
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* CPU c has fds[c * k] to fds[c * k + k - 1] */
	for (i = 0; i < n; i++) {
		fds[i] = sys_perf_event_open(&attr, -1, i / k, -1,
					     PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			row_failed(row, "perf_event_open(CPU-wide)");
			close_events(fds, i);
			free(fds);
			return -1;
		}
	}
	se->holder = fork();
	if (se->holder == 0) {
		/* it must not outlive the benchmark, whatever happens */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	if (se->holder < 0)
		row_failed(row, "fork");
	else
		se->probe = fds[0];
	close_events(fds + 1, n - 1);
	if (se->holder < 0)
		close(fds[0]);
	free(fds);
	if (se->holder < 0 || (switches && sys_open_switches(se, row))) {
		sys_close(se);
		return -1;
	}
	return 0;
}

/* Called just before the timed run: what sys_finish() compares with. */
static void sys_mark(struct sys_events *se)
{
	__u64 v[3];

	if (read(se->probe, v, sizeof(v)) == sizeof(v))
		se->probe_mark = v[0];
	if (se->nsw)
		se->sw_mark = __atomic_load_n(&se->sw_pages[0]->data_head,
					      __ATOMIC_ACQUIRE);
}

/*
 * Called just after the timed run of @iters operations: checks that the
 * CPU-wide events on CPU 0 ran and, with switch records, that CPU 0's
 * buffer took at least one record per operation (a round trip writes
 * four: an out and an in record for each of two switches). Writes the
 * row's fields to @buf. Returns 0, or -1 with the row failed.
 */
static int sys_finish(struct sys_events *se, const char *row, long iters,
		      char *buf, size_t size)
{
	__u64 v[3], head;
	int len;

	if (read(se->probe, v, sizeof(v)) != sizeof(v)) {
		row_failed(row, "read(CPU-wide)");
		return -1;
	}
	if (!v[2]) {
		errno = EINVAL;
		row_failed(row, "the CPU-wide events on CPU 0 never ran");
		return -1;
	}
	len = snprintf(buf, size, " k=%d cpus=%d faults=%.2f", se->k, ncpus,
		       (double)(v[0] - se->probe_mark) / iters);
	if (!se->nsw)
		return 0;
	head = __atomic_load_n(&se->sw_pages[0]->data_head, __ATOMIC_ACQUIRE);
	if (head - se->sw_mark < (__u64)iters * SW_RECORD) {
		errno = EIO;
		row_failed(row, "too few switch records on CPU 0");
		return -1;
	}
	snprintf(buf + len, size - len, " switch_bytes=%.1f",
		 (double)(head - se->sw_mark) / iters);
	return 0;
}

static int open_task_events(int *fds, int n, int bound)
{
	return bound ? open_bound_events(fds, n, 0) : open_events(fds, n, 0, 0);
}

/*
 * The ping-pong. Each task opens @nevents events of its own: the first
 * @nevents of sw_events, or with @bound the open_bound_events() shape. @se, when
 * not NULL, holds the CPU-wide events that exist meanwhile.
 */
static void bench_ctxsw(const char *row, int nevents, int bound,
			struct sys_events *se, long iters)
{
	long warm = iters / 10, i;
	int p2c[2], c2p[2], fds[MAX_BOUND];
	int status = 0;
	char fields[128] = "";
	double t0, t1;
	__u64 val[3];
	char b = 0;
	pid_t pid;

	if (bound && !enough_cpus(row, nevents))
		return;
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
		if (nevents && open_task_events(fds, nevents, bound))
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

	if (nevents && open_task_events(fds, nevents, bound)) {
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
	if (se)
		sys_mark(se);
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (write(p2c[1], &b, 1) != 1 || read(c2p[0], &b, 1) != 1)
			goto io_error;
	}
	t1 = now_ns();

	/* context-switches (event 1) must have seen every round trip */
	if (!bound && !hw_events && nevents > 1 &&
	    (read(fds[1], val, sizeof(val)) != sizeof(val) ||
	     val[0] < (__u64)iters)) {
		errno = EINVAL;
		row_failed(row, "context-switches undercounted");
		goto out_events;
	}
	if (bound) {
		if (check_bound(row, fds, nevents))
			goto out_events;
		snprintf(fields, sizeof(fields), " events=%d cpus=%d",
			 nevents, ncpus);
	}
	if (se && sys_finish(se, row, iters, fields, sizeof(fields)))
		goto out_events;
	report(row, t0, t1, iters, fields);
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

/* ctxsw-sys-K[-sw]: the ctxsw-1 ping-pong beside K CPU-wide events */
static void bench_ctxsw_sys(const char *row, int k, int switches, long iters)
{
	struct sys_events se;

	if (sys_open(&se, row, k, switches))
		return;
	bench_ctxsw(row, 1, 0, &se, iters);
	sys_close(&se);
}

/* one operation of mmap-sys: no event asked for mmap records */
static int map_unmap(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	return munmap(p, 4096);
}

/* one operation of fork-sys */
static int fork_wait(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		errno = ECHILD;
		return -1;
	}
	return 0;
}

/* @iters calls of @op (named @what) beside K CPU-wide events per CPU */
static void bench_sys_op(const char *row, int k, int (*op)(void),
			 const char *what, long iters)
{
	long warm = iters / 10, i;
	struct sys_events se;
	char fields[128];
	double t0, t1;

	if (sys_open(&se, row, k, 0))
		return;
	for (i = 0; i < warm; i++) {
		if (op())
			goto op_error;
	}
	sys_mark(&se);
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		if (op())
			goto op_error;
	}
	t1 = now_ns();
	if (!sys_finish(&se, row, iters, fields, sizeof(fields)))
		report(row, t0, t1, iters, fields);
	sys_close(&se);
	return;

op_error:
	row_failed(row, what);
	sys_close(&se);
}

/*
 * bp-open-N: the addresses watched for writes. Only the check after
 * the timed loop writes one; bp_len 8 wants them 8-byte aligned.
 */
static __u64 bp_targets[4];

static int open_bp(int i)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&bp_targets[i];
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void bench_bp_open(const char *row, int n, long iters)
{
	int held[ARRAY_SIZE(bp_targets)], nheld, fd;
	long warm = iters / 10, i;
	char fields[32];
	double t0, t1;
	__u64 count;

	for (nheld = 0; nheld < n - 1; nheld++) {
		held[nheld] = open_bp(1 + nheld);
		if (held[nheld] < 0)
			goto open_error;
	}
	for (i = 0; i < warm; i++) {
		fd = open_bp(0);
		if (fd < 0)
			goto open_error;
		close(fd);
	}
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		fd = open_bp(0);
		if (fd < 0)
			goto open_error;
		close(fd);
	}
	t1 = now_ns();

	/* the held breakpoints are real: a write to one counts */
	if (nheld) {
		__atomic_store_n(&bp_targets[1], 1, __ATOMIC_RELAXED);
		if (read(held[0], &count, sizeof(count)) != sizeof(count) ||
		    count != 1) {
			errno = EINVAL;
			row_failed(row, "a held breakpoint missed a write");
			goto out;
		}
	}
	snprintf(fields, sizeof(fields), " held=%d", nheld);
	report(row, t0, t1, iters, fields);
	goto out;

open_error:
	row_failed(row, "perf_event_open(breakpoint)");
out:
	close_events(held, nheld);
}

/* read-0 and ioctl-0: the same loops on a file that is not perf's */
static void bench_floor(long iters)
{
	long warm = iters / 10, i;
	__u64 buf[3];
	double t0, t1;
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		row_failed("read-0", "open /dev/zero");
		return;
	}
	if (row_wanted("read-0")) {
		for (i = 0; i < warm; i++)
			if (read(fd, buf, sizeof(buf)) != sizeof(buf))
				goto read_error;
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			if (read(fd, buf, sizeof(buf)) != sizeof(buf))
				goto read_error;
		t1 = now_ns();
		report("read-0", t0, t1, iters, "");
	}
	if (row_wanted("ioctl-0")) {
		/* half as many: each iteration is a pair, as in ioctl-1 */
		t0 = now_ns();
		for (i = 0; i < iters / 2; i++)
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != -1 ||
			    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) != -1)
				goto ioctl_error;
		t1 = now_ns();
		report("ioctl-0", t0, t1, iters / 2, "");
	}
	close(fd);
	return;

read_error:
	row_failed("read-0", "read /dev/zero");
	close(fd);
	return;
ioctl_error:
	row_failed("ioctl-0", "ioctl on /dev/zero succeeded");
	close(fd);
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
	report(row, t0, t1, iters, "");
	close_events(fds, nevents);
	return;

read_error:
	row_failed(row, "read");
	close_events(fds, nevents);
}

#if defined(__x86_64__)
static __u64 rdpmc(unsigned int idx)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (__u64)hi << 32 | lo;
}

/* a read of the user page by the protocol of the uapi header */
static __u64 page_count(struct perf_event_mmap_page *pc)
{
	unsigned int seq, idx;
	__u64 count;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		idx = __atomic_load_n(&pc->index, __ATOMIC_RELAXED);
		count = __atomic_load_n(&pc->offset, __ATOMIC_RELAXED);
		if (pc->cap_user_rdpmc && idx) {
			unsigned int shift = 64 - pc->pmc_width;

			count += (__u64)((__s64)(rdpmc(idx - 1) << shift) >>
					 shift);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) != seq);
	return count;
}
#endif

/*
 * hw-read-1 (@user 0) or hw-rdpmc-1 (@user 1): one hardware cycles
 * counter of this task, mapped, read by read() or from the user page.
 */
static void bench_hw_read(const char *row, int user, long iters)
{
	struct perf_event_mmap_page *pc;
	long warm = iters / 10, i;
	__u64 buf[3], sum = 0;
	double t0, t1;
	int fd;

	hw_events = 1;
	if (open_events(&fd, 1, 0, 0)) {
		hw_events = 0;
		row_failed(row, "perf_event_open");
		return;
	}
	hw_events = 0;
	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		row_failed(row, "mmap");
		close(fd);
		return;
	}
#if defined(__x86_64__)
	if (user && !(pc->cap_user_rdpmc && pc->index)) {
		errno = EOPNOTSUPP;
		row_failed(row, "no cap_user_rdpmc");
		goto out;
	}
#else
	if (user) {
		errno = EOPNOTSUPP;
		row_failed(row, "RDPMC is x86 only");
		goto out;
	}
#endif
	t0 = 0;
	for (i = 0; i < warm + iters; i++) {
		if (i == warm)
			t0 = now_ns();
#if defined(__x86_64__)
		if (user) {
			sum += page_count(pc);
			continue;
		}
#endif
		if (read(fd, buf, sizeof(buf)) != sizeof(buf)) {
			row_failed(row, "read");
			goto out;
		}
		sum += buf[0];
	}
	t1 = now_ns();
	/* the counts are used, so the reads cannot be dropped */
	report(row, t0, t1, iters, sum ? "" : " zero=1");
out:
	munmap((void *)pc, getpagesize());
	close(fd);
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
	report(row, t0, t1, iters, "");
	close_events(fds, nevents);
	return;

ioctl_error:
	row_failed(row, "ioctl");
	close_events(fds, nevents);
}

/*
 * Sampling rows. The workload is a fixed loop with no syscalls and no
 * memory traffic: under -icount guest time counts instructions, so every
 * ns the sampling event adds to it is hrtimer interrupt, sample output
 * and (at the limit) throttling work in the kernel.
 */
#define WORK_ITERS	250000000L	/* 5 insns each: 1.25 s under icount */
#define RATE_ITERS	50000000L	/* per step of sample-rate-max */
#define RATE_CHUNK	100000L		/* drain every this many iterations */
#define RATE_PAGES	16
#define TICK_FREQ	1000	/* sample_freq of the tick-freq rows */

/* IP, pid+tid, time and period after the header: 40 bytes per sample */
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define SAMPLE_BYTES	40

/* spin()'s result lands here; its asm already keeps the loop alive */
static __u64 sink;
static double base_ns;

static __u64 spin(long iters)
{
	__u64 x = 1;
	long i;

	for (i = 0; i < iters; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* an opaque value: the compiler may neither fold nor drop it */
		asm volatile("" : "+r" (x));
	}
	return x;
}

struct ring {
	int fd;
	struct perf_event_mmap_page *page;
	char *data;
	size_t map_len;
	__u64 mask;		/* data bytes - 1: the data size is a power of 2 */
	__u64 samples, lost, throttles;
	int corrupt;
	/*
	 * With @seen set (the profile rows: IP|TID|TIME samples), each
	 * sample's tid is looked up in @tids, sorted, and marked in @seen.
	 */
	const pid_t *tids;
	int ntids;
	unsigned char *seen;
};

/*
 * Map @pages data pages (a power of 2) of @fd's buffer, and the user
 * page before them, into @rb. Returns 0, or -1 with errno set.
 */
static int ring_map(struct ring *rb, int fd, size_t pages)
{
	size_t psz = sysconf(_SC_PAGESIZE);
	void *map;

	memset(rb, 0, sizeof(*rb));
	rb->fd = fd;
	rb->map_len = (pages + 1) * psz;
	map = mmap(NULL, rb->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, 0);
	if (map == MAP_FAILED)
		return -1;
	rb->page = map;
	rb->data = (char *)map + psz;
	rb->mask = pages * psz - 1;
	return 0;
}

/*
 * A disabled sampling task-clock event on the calling task, any CPU,
 * with @pages data pages mapped. @freq selects sample_freq = @value,
 * otherwise sample_period = @value ns. Returns 0, or -1 with errno set
 * and nothing left open.
 */
static int ring_open(struct ring *rb, int freq, __u64 value, size_t pages)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_type = SAMPLE_TYPE;
	attr.freq = freq;
	if (freq)
		attr.sample_freq = value;
	else
		attr.sample_period = value;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ring_map(rb, fd, pages)) {
		close(fd);
		return -1;
	}
	return 0;
}

static void ring_close(struct ring *rb)
{
	munmap(rb->page, rb->map_len);
	close(rb->fd);
}

static int cmp_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The sample at @tail: header, ip, pid, then the tid this marks seen. */
static void ring_seen(struct ring *rb, __u64 tail)
{
	pid_t tid = *(__u32 *)(rb->data + ((tail + 20) & rb->mask));
	const pid_t *p = bsearch(&tid, rb->tids, rb->ntids, sizeof(tid),
				 cmp_tid);

	if (p)
		rb->seen[p - rb->tids] = 1;
}

/*
 * Count and consume every record between data_tail and data_head. No
 * syscall: the sample-rate-max task calls this from inside its loop.
 * Records are 8-byte aligned and the data area is a power of two bytes,
 * so no u64 field straddles the wrap.
 */
static void ring_drain(struct ring *rb)
{
	__u64 head = __atomic_load_n(&rb->page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = rb->page->data_tail;
	struct perf_event_header *hdr;

	while (tail < head) {
		hdr = (void *)(rb->data + (tail & rb->mask));
		if (hdr->size < sizeof(*hdr) || hdr->size % 8) {
			rb->corrupt = 1;
			tail = head;
			break;
		}
		switch (hdr->type) {
		case PERF_RECORD_SAMPLE:
			rb->samples++;
			if (rb->seen)
				ring_seen(rb, tail);
			break;
		case PERF_RECORD_LOST:
			/* header, id, then the number of records lost */
			rb->lost += *(__u64 *)(rb->data +
					       ((tail + 16) & rb->mask));
			break;
		case PERF_RECORD_THROTTLE:
			rb->throttles++;
			break;
		}
		tail += hdr->size;
	}
	/* the kernel may reuse the space once it sees the new tail */
	__atomic_store_n(&rb->page->data_tail, tail, __ATOMIC_RELEASE);
}

#define AUX_MODULE	"/tests/modules/perf_aux_pmu.ko"
#define AUX_TYPE_PATH	"/sys/bus/event_source/devices/perf_aux_test/type"
#define AUX_PAGES	8
#define AUX_CHUNK	256

static long read_sysctl(const char *path);

/* aux-write-256: see the row list at the top */
static void bench_aux_write(const char *row, long iters)
{
	long psz = sysconf(_SC_PAGESIZE), warm = iters / 10, type, i;
	size_t len = (1 + AUX_PAGES) * psz, aux_len = AUX_PAGES * psz;
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	void *base, *aux = MAP_FAILED;
	int fd, mod, loaded;
	double t0 = 0, t1;
	__u64 v;

	mod = open(AUX_MODULE, O_RDONLY | O_CLOEXEC);
	loaded = mod >= 0 && !syscall(__NR_finit_module, mod, "", 0);
	if (mod >= 0)
		close(mod);
	type = read_sysctl(AUX_TYPE_PATH);
	if (type < 0) {
		row_failed(row, "load " AUX_MODULE);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = AUX_CHUNK;
	/*
	 * Enabled once both areas are mapped: upstream stops a running AUX
	 * event when its buffer is attached, until its next sched-in.
	 */
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		row_failed(row, "perf_event_open");
		goto out_module;
	}
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		row_failed(row, "mmap");
		goto out_close;
	}
	pg = base;
	pg->aux_offset = len;
	pg->aux_size = aux_len;
	aux = mmap(NULL, aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, len);
	if (aux == MAP_FAILED) {
		row_failed(row, "mmap of the AUX area");
		goto out_unmap;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		row_failed(row, "PERF_EVENT_IOC_ENABLE");
		goto out_unmap;
	}
	for (i = -warm; i < iters; i++) {
		if (!i)
			t0 = now_ns();
		if (read(fd, &v, sizeof(v)) != sizeof(v)) {
			row_failed(row, "read");
			goto out_unmap;
		}
		__atomic_store_n(&pg->aux_tail,
				 __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&pg->data_tail,
				 __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
	t1 = now_ns();
	if (pg->aux_head != (__u64)(warm + iters) * AUX_CHUNK) {
		printf("# %s: aux_head %llu after %ld reads, count %llu\n", row,
		       (unsigned long long)pg->aux_head, warm + iters,
		       (unsigned long long)v);
		errno = 0;
		row_failed(row, "chunks cut short or lost");
		goto out_unmap;
	}
	report(row, t0, t1, iters, "");
out_unmap:
	if (aux != MAP_FAILED)
		munmap(aux, aux_len);
	munmap(base, len);
out_close:
	close(fd);
out_module:
	if (loaded)
		syscall(__NR_delete_module, "perf_aux_pmu", O_NONBLOCK);
}

static long read_sysctl(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_sysctl(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static void bench_sample_base(long iters)
{
	double t0, t1;

	sink += spin(iters / 10);
	t0 = now_ns();
	sink += spin(iters);
	t1 = now_ns();
	base_ns = t1 - t0;
	printf("bench sample-base %.1f iters=%ld unit=ns/run\n", base_ns, iters);
	fflush(stdout);
}

/*
 * The workload once more with no event, just before a sampling row:
 * sample-base runs first after boot, while a kernel may still have work
 * of its boot going on (timers, workers); one that has more of it there
 * gets a slower base and so a smaller cost per sample in every row that
 * subtracts it. Noise only adds time, so the quickest run is the base.
 */
static void sample_base_again(long iters)
{
	double t0, t1;

	t0 = now_ns();
	sink += spin(iters);
	t1 = now_ns();
	if (base_ns <= 0 || t1 - t0 < base_ns)
		base_ns = t1 - t0;
}

/*
 * tick-freq-N: the workload beside N frequency-mode events bound as in
 * ctxsw-cpu. Only the CPU 0 one runs; its samples go nowhere, and what
 * the row sees is the timer and the tick's period adjustment.
 */
static void bench_tick(const char *row, int n, long iters)
{
	int fds[MAX_BOUND];
	double t0, t1;

	if (base_ns <= 0) {
		errno = EINVAL;
		row_failed(row, "no sample-base");
		return;
	}
	if (!enough_cpus(row, n))
		return;
	if (open_bound_events(fds, n, TICK_FREQ)) {
		row_failed(row, "perf_event_open");
		return;
	}
	sink += spin(iters / 10);
	t0 = now_ns();
	sink += spin(iters);
	t1 = now_ns();
	if (!check_bound(row, fds, n)) {
		printf("bench %s %.1f iters=%ld unit=ns/run events=%d cpus=%d",
		       row, t1 - t0, iters, n, ncpus);
		printf(" freq=%d slowdown=%.2f%%\n", TICK_FREQ,
		       100.0 * (t1 - t0 - base_ns) / base_ns);
		fflush(stdout);
	}
	close_events(fds, n);
}

/*
 * The workload under @rb's event, disabled until now: ns added per
 * sample over the base (sample_base_again() ran just before the event
 * was opened), the sample count and the slowdown; @what names the
 * event's rate ("freq=4000", "period=200003"). Closes @rb.
 */
static void sample_measure(const char *row, struct ring *rb, long iters,
			   const char *what, size_t pages)
{
	double t0, t1, extra;

	sink += spin(iters / 10);
	if (ioctl(rb->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		row_failed(row, "ioctl(ENABLE)");
		goto out;
	}
	t0 = now_ns();
	sink += spin(iters);
	t1 = now_ns();
	if (ioctl(rb->fd, PERF_EVENT_IOC_DISABLE, 0)) {
		row_failed(row, "ioctl(DISABLE)");
		goto out;
	}
	ring_drain(rb);
	if (!rb->samples || rb->corrupt) {
		errno = EIO;
		row_failed(row, rb->corrupt ? "corrupt record" : "no samples");
		goto out;
	}
	extra = t1 - t0 - base_ns;
	printf("bench %s %.1f iters=%ld unit=ns/sample %s",
	       row, extra / rb->samples, iters, what);
	printf(" samples=%llu slowdown=%.2f%% lost=%llu throttles=%llu pages=%zu\n",
	       (unsigned long long)rb->samples, 100.0 * extra / base_ns,
	       (unsigned long long)rb->lost,
	       (unsigned long long)rb->throttles, pages);
	fflush(stdout);
out:
	ring_close(rb);
}

/*
 * The workload under a sampling event at @freq Hz. The buffer holds
 * twice the samples the base run's length would give, so nothing is
 * lost even when sampling stretches the run.
 */
static void bench_sample(const char *row, long freq, long iters)
{
	size_t psz = sysconf(_SC_PAGESIZE), pages = 16;
	double want = 2.0 * freq * base_ns / 1e9 * SAMPLE_BYTES;
	char what[32];
	struct ring rb;

	if (freq <= 0 || base_ns <= 0) {
		errno = EINVAL;
		row_failed(row, "no sample rate or no sample-base");
		return;
	}
	while (pages * psz < want)
		pages *= 2;
	sample_base_again(iters);
	if (ring_open(&rb, 1, freq, pages)) {
		row_failed(row, "perf_event_open/mmap");
		return;
	}
	snprintf(what, sizeof(what), "freq=%ld", freq);
	sample_measure(row, &rb, iters, what, pages);
}

#if defined(__x86_64__)
#define HW_SAMPLE_PERIOD	200003

/*
 * hw-sample-1 (@bst 0, @precise 0), lbr-sample-32 or pebs-sample-1: the
 * workload under a sampling hardware instructions counter in user mode,
 * with a branch stack of @bst when non-zero, taken through PEBS at
 * precise_ip @precise when non-zero.
 */
static void bench_hw_sample(const char *row, __u64 bst, int precise,
			    long iters)
{
	size_t psz = sysconf(_SC_PAGESIZE), pages = 64;
	struct perf_event_attr attr;
	char what[32];
	struct ring rb;
	int fd;

	if (base_ns <= 0) {
		errno = EINVAL;
		row_failed(row, "no sample-base");
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.sample_type = SAMPLE_TYPE | (bst ? PERF_SAMPLE_BRANCH_STACK : 0);
	attr.branch_sample_type = bst;
	attr.sample_period = HW_SAMPLE_PERIOD;
	attr.precise_ip = precise;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	sample_base_again(iters);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		row_failed(row, "perf_event_open");
		return;
	}
	/* a sample with 32 entries is about 850 bytes: room for them all */
	while (pages * psz < 4 * 1024 * 1024)
		pages *= 2;
	if (ring_map(&rb, fd, pages)) {
		row_failed(row, "mmap");
		close(fd);
		return;
	}
	snprintf(what, sizeof(what), "period=%d", HW_SAMPLE_PERIOD);
	sample_measure(row, &rb, iters, what, pages);
}
#endif

/*
 * The highest sustained rate: each step runs @iters iterations with a
 * RATE_PAGES buffer that the task drains itself every RATE_CHUNK
 * iterations. Task time is the event's own count. The fastest step with
 * no loss and a sample count within 10% of task time / period wins; its
 * measured rate is the row's value (0 when no step qualifies).
 */
static void bench_sample_rate(const char *row, long iters)
{
	static const __u64 periods[] = {
		1000000, 500000, 200000, 100000, 50000, 20000,
		/* finer near the default limit, 100000/s */
		15000, 12500, 10000,
	};
	double rate, best = 0;
	__u64 task_ns, expect, best_period = 0;
	unsigned int i;
	struct ring rb;
	long done;
	int ok;

	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		if (ring_open(&rb, 0, periods[i], RATE_PAGES)) {
			row_failed(row, "perf_event_open/mmap");
			return;
		}
		if (ioctl(rb.fd, PERF_EVENT_IOC_ENABLE, 0))
			goto fail;
		for (done = 0; done < iters; done += RATE_CHUNK) {
			sink += spin(RATE_CHUNK);
			ring_drain(&rb);
		}
		if (ioctl(rb.fd, PERF_EVENT_IOC_DISABLE, 0) ||
		    read(rb.fd, &task_ns, sizeof(task_ns)) != sizeof(task_ns))
			goto fail;
		ring_drain(&rb);
		if (rb.corrupt || !task_ns) {
			errno = EIO;
			goto fail;
		}
		expect = task_ns / periods[i];
		ok = !rb.lost && rb.samples * 10 >= expect * 9 &&
		     rb.samples * 10 <= expect * 11;
		rate = rb.samples * 1e9 / task_ns;
		printf("info %s period=%llu task_ns=%llu expected=%llu",
		       row, (unsigned long long)periods[i],
		       (unsigned long long)task_ns,
		       (unsigned long long)expect);
		printf(" samples=%llu lost=%llu throttles=%llu rate=%.1f %s\n",
		       (unsigned long long)rb.samples,
		       (unsigned long long)rb.lost,
		       (unsigned long long)rb.throttles, rate,
		       ok ? "sustained" : "not-sustained");
		if (ok && rate > best) {
			best = rate;
			best_period = periods[i];
		}
		ring_close(&rb);
	}
	printf("bench %s %.1f iters=%ld unit=samples/s better=higher period=%llu pages=%d\n",
	       row, best, iters, (unsigned long long)best_period, RATE_PAGES);
	fflush(stdout);
	return;

fail:
	row_failed(row, "sampling step");
	ring_close(&rb);
}

/*
 * The attach and profile rows: a child process of T threads (the crew)
 * that the benchmark attaches a sampling task-clock event to, the way
 * `perf record -p` does on upstream (one event per thread per CPU, one
 * buffer per CPU: attach-thread-T, profile-thread-T), or with one
 * PERF_FLAG_PID_PROCESS event and one buffer (attach-process-T,
 * profile-process-T: ours only).
 */
#define ATTACH_PAGES	8	/* data pages of every buffer mapped */
#define ATTACH_FREQ	4000	/* perf record's default sample_freq */
#define CREW_STACK	(64 * 1024)
#define PROFILE_ITERS	400000L	/* spin() iterations of a crew thread */
#define PROFILE_PERIOD	20000	/* ns of task-clock per sample */
/* header, IP, pid+tid, time: 32 bytes, the tid at byte 20 */
#define PROFILE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

static int have_process;	/* the kernel takes PERF_FLAG_PID_PROCESS */

struct crew {
	pid_t pid;		/* the child process */
	int n;			/* its threads, the main one among them */
	/* shared with the child: a run's number, then each thread's tid */
	struct crew_shared {
		int run;	/* raised (and woken) to start a run */
		pid_t tids[];
	} *sh;
	int done[2];		/* a byte a thread: started, then ran */
	long iters;		/* spin() iterations a run */
};

/* in the child: the crew its threads belong to */
static struct crew *crew_self;

/*
 * A crew thread: says it is there, then sleeps on the run number and
 * runs spin() once each time it goes up. A futex and not a pipe, so
 * that every thread runs once a run, not the quickest several times.
 */
static void *crew_thread(void *arg)
{
	struct crew *c = crew_self;
	long i = (long)arg;
	int run = 0;
	char b = 0;

	c->sh->tids[i] = syscall(SYS_gettid);
	for (;;) {
		if (write(c->done[1], &b, 1) != 1)
			_exit(1);
		while (__atomic_load_n(&c->sh->run, __ATOMIC_ACQUIRE) == run)
			syscall(SYS_futex, &c->sh->run, FUTEX_WAIT, run,
				NULL, NULL, 0);
		run++;
		__atomic_fetch_add(&sink, spin(c->iters), __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * Thread @i's CPU with @off_cpu0: CPUs 1..ncpus-1 round-robin, away
 * from the reader of the profile rows, each with the same share of the
 * threads, so that as many run at once from one boot to the next.
 */
static void crew_cpu(cpu_set_t *set, long i)
{
	CPU_ZERO(set);
	CPU_SET(1 + i % (ncpus - 1), set);
}

/*
 * The child: its main thread and c->n - 1 more, on CPU 0 (as the
 * benchmark) or, with @off_cpu0 and CPUs to spare, one each as
 * crew_cpu() says. Killed by crew_stop().
 */
static void crew_child(struct crew *c, int off_cpu0)
{
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t t;
	long i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(c->done[0]);
	crew_self = c;
	off_cpu0 = off_cpu0 && ncpus > 1;
	if (off_cpu0) {
		crew_cpu(&set, 0);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
	}
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, CREW_STACK))
		_exit(1);
	for (i = 1; i < c->n; i++) {
		if (off_cpu0) {
			crew_cpu(&set, i);
			if (pthread_attr_setaffinity_np(&attr, sizeof(set),
							&set))
				_exit(1);
		}
		if (pthread_create(&t, &attr, crew_thread, (void *)i))
			_exit(1);
	}
	crew_thread(NULL);
	_exit(0);
}

static size_t crew_size(int n)
{
	return sizeof(struct crew_shared) + n * sizeof(pid_t);
}

static void crew_stop(struct crew *c)
{
	int i;

	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	for (i = 0; i < 2; i++)
		if (c->done[i] >= 0)
			close(c->done[i]);
	if (c->sh != MAP_FAILED)
		munmap(c->sh, crew_size(c->n));
}

/* Take @n bytes from the done pipe. Returns 0, or -1 if the crew died. */
static int crew_wait(struct crew *c, int n)
{
	char buf[256];
	ssize_t r;

	while (n > 0) {
		r = read(c->done[0], buf,
			 n < (int)sizeof(buf) ? (size_t)n : sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			errno = r ? errno : ECHILD;
			return -1;
		}
		n -= r;
	}
	return 0;
}

/*
 * Start a crew of @n threads, each running spin(@iters) once a run,
 * and wait until every thread is there. Returns 0, or -1 with the row
 * failed and nothing left behind.
 */
static int crew_start(struct crew *c, const char *row, int n, long iters,
		      int off_cpu0)
{
	memset(c, 0, sizeof(*c));
	c->n = n;
	c->iters = iters;
	c->done[0] = -1;
	c->done[1] = -1;
	c->sh = mmap(NULL, crew_size(n), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->sh == MAP_FAILED) {
		row_failed(row, "mmap");
		return -1;
	}
	if (pipe(c->done)) {
		row_failed(row, "pipe");
		crew_stop(c);
		return -1;
	}
	c->pid = fork();
	if (c->pid == 0)
		crew_child(c, off_cpu0);
	if (c->pid < 0) {
		row_failed(row, "fork");
		crew_stop(c);
		return -1;
	}
	close(c->done[1]);
	c->done[1] = -1;
	if (crew_wait(c, n)) {
		row_failed(row, "the crew did not start");
		crew_stop(c);
		return -1;
	}
	return 0;
}

/* Let every crew thread run spin() once; each says so on the pipe. */
static void crew_go(struct crew *c)
{
	__atomic_fetch_add(&c->sh->run, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &c->sh->run, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* What one attach holds: event descriptors and mapped buffers. */
struct attach {
	int nfds, nrings;
	int *fds;		/* room for n threads * ncpus */
	struct ring *rings;	/* room for ncpus */
};

static void detach(struct attach *a)
{
	int i;

	for (i = 0; i < a->nrings; i++)
		munmap(a->rings[i].page, a->rings[i].map_len);
	close_events(a->fds, a->nfds);
	a->nfds = 0;
	a->nrings = 0;
}

/*
 * Attach @attr to the crew: with @process, one process-wide event (cpu
 * -1) and its buffer; otherwise as `perf record -p` does, one event per
 * thread per CPU (pid = tid, cpu = c), the first on each CPU with a
 * buffer mapped, the others' output set to it. Returns 0, or -1 with
 * errno set and everything detached.
 */
static int attach(struct attach *a, struct crew *c,
		  struct perf_event_attr *attr, int process)
{
	int cpu, t, fd, err;

	if (process) {
		fd = sys_perf_event_open(attr, c->pid, -1, -1,
					 PERF_FLAG_PID_PROCESS |
					 PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			return -1;
		a->fds[a->nfds++] = fd;
		if (ring_map(&a->rings[0], fd, ATTACH_PAGES))
			goto fail;
		a->nrings = 1;
		return 0;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		for (t = 0; t < c->n; t++) {
			fd = sys_perf_event_open(attr, c->sh->tids[t], cpu, -1,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0)
				goto fail;
			a->fds[a->nfds++] = fd;
			if (t) {
				if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
					  a->rings[cpu].fd))
					goto fail;
				continue;
			}
			if (ring_map(&a->rings[cpu], fd, ATTACH_PAGES))
				goto fail;
			a->nrings++;
		}
	}
	return 0;

fail:
	err = errno;
	detach(a);
	errno = err;
	return -1;
}

static int attach_alloc(struct attach *a, const char *row, int n)
{
	memset(a, 0, sizeof(*a));
	a->fds = calloc((size_t)n * ncpus, sizeof(*a->fds));
	a->rings = calloc(ncpus, sizeof(*a->rings));
	if (!a->fds || !a->rings) {
		row_failed(row, "calloc");
		free(a->fds);
		free(a->rings);
		return -1;
	}
	return 0;
}

static void attach_free(struct attach *a)
{
	free(a->fds);
	free(a->rings);
}

/* the pages a's buffers pin, user pages included, in KiB */
static long attach_locked_kb(struct attach *a)
{
	return a->nrings * (ATTACH_PAGES + 1) * (sysconf(_SC_PAGESIZE) / 1024);
}

/*
 * Room for @need more descriptors (the per-thread way needs threads *
 * CPUs): the benchmark runs as root and may raise the hard limit.
 */
static int nofile_room(const char *row, long need)
{
	struct rlimit r;

	need += 64;	/* the benchmark's own */
	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && (long)r.rlim_cur >= need)
		return 0;
	r.rlim_cur = need;
	if ((long)r.rlim_max < need)
		r.rlim_max = need;
	if (setrlimit(RLIMIT_NOFILE, &r) == 0)
		return 0;
	row_failed(row, "setrlimit(RLIMIT_NOFILE)");
	return -1;
}

/*
 * The sampling task-clock event both ways attach, inherited as `perf
 * record` makes it: at perf record's default frequency (@profile 0), or
 * at a fixed period with the lost count in read() (@profile 1).
 */
static void attach_attr(struct perf_event_attr *attr, int profile)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->sample_type = PROFILE_TYPE;
	attr->inherit = 1;
	if (profile) {
		attr->sample_period = PROFILE_PERIOD;
		attr->read_format = PERF_FORMAT_LOST;
	} else {
		attr->freq = 1;
		attr->sample_freq = ATTACH_FREQ;
	}
}

/*
 * attach-thread-T, attach-process-T: attach to a crew of @n blocked
 * threads and detach, @iters times after one untimed round. ns per
 * attach (the opens, the mmap()s, the SET_OUTPUT ioctls); detaching
 * (munmap(), close()) is a field.
 */
static void bench_attach(const char *row, int process, int n, long iters)
{
	double t0, t1, t2, on = 0, off = 0;
	struct perf_event_attr attr;
	int nfds = 0, i;
	struct attach a;
	struct crew c;
	long kb = 0;

	if (process && !have_process)
		return;
	if (nofile_room(row, (long)n * ncpus) || attach_alloc(&a, row, n))
		return;
	if (crew_start(&c, row, n, 0, 0))
		goto out;
	attach_attr(&attr, 0);
	for (i = -1; i < iters; i++) {
		t0 = now_ns();
		if (attach(&a, &c, &attr, process)) {
			row_failed(row, process ?
				   "perf_event_open(PERF_FLAG_PID_PROCESS)/mmap" :
				   "perf_event_open/mmap/SET_OUTPUT");
			goto out_crew;
		}
		t1 = now_ns();
		nfds = a.nfds;
		kb = attach_locked_kb(&a);
		detach(&a);
		t2 = now_ns();
		if (i >= 0) {
			on += t1 - t0;
			off += t2 - t1;
		}
	}
	printf("bench %s %.1f iters=%ld unit=ns/attach threads=%d cpus=%d",
	       row, on / iters, iters, n, ncpus);
	printf(" fds=%d locked_kb=%ld detach_ns=%.1f\n", nfds, kb, off / iters);
	fflush(stdout);
out_crew:
	crew_stop(&c);
out:
	attach_free(&a);
}

/*
 * Wait for the crew's run while draining every buffer at each wakeup
 * (poll() on the mapped events, as perf record does, and on the done
 * pipe). Returns the wakeups, or -1 with errno set.
 */
static long profile_drain(struct attach *a, struct crew *c)
{
	struct pollfd *pfd = calloc(1 + a->nrings, sizeof(*pfd));
	int left = c->n, i;
	long wakeups = 0;
	char buf[256];
	ssize_t r;

	if (!pfd)
		return -1;
	pfd[0].fd = c->done[0];
	pfd[0].events = POLLIN;
	for (i = 0; i < a->nrings; i++) {
		pfd[1 + i].fd = a->rings[i].fd;
		pfd[1 + i].events = POLLIN;
	}
	while (left > 0) {
		if (poll(pfd, 1 + a->nrings, 1000) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		wakeups++;
		if (pfd[0].revents) {
			r = read(c->done[0], buf, left < (int)sizeof(buf) ?
				 (size_t)left : sizeof(buf));
			if (r <= 0) {
				errno = r ? errno : ECHILD;
				break;
			}
			left -= r;
		}
		for (i = 0; i < a->nrings; i++)
			ring_drain(&a->rings[i]);
	}
	free(pfd);
	return left ? -1 : wakeups;
}

/*
 * task-clock samples from an hrtimer, which until the kernel switches
 * to high resolution mode (after its clocksource is settled, a second
 * or so into the boot) fires only at ticks: a profile row run first
 * (BENCH_ROWS) would see a sample every tick. Wait up to 10 s for it.
 */
static int wait_hres(const char *row)
{
	struct timespec res, ms = { 0, 10000000 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (clock_getres(CLOCK_MONOTONIC, &res) == 0 &&
		    !res.tv_sec && res.tv_nsec < 1000)
			return 0;
		nanosleep(&ms, NULL);
	}
	errno = ETIME;
	row_failed(row, "hrtimers not in high resolution mode");
	return -1;
}

/*
 * A crew thread none of whose samples came: say which (an info line),
 * and with the per-thread way how much task time its event on each CPU
 * counted.
 */
static void profile_unsampled(const char *row, struct attach *a,
			      struct crew *c, pid_t tid)
{
	int t, cpu;
	__u64 v[2];

	for (t = 0; t < c->n && c->sh->tids[t] != tid; t++)
		;
	printf("info %s unsampled thread %d tid %d task_ns", row, t, tid);
	for (cpu = 0; a->nfds == c->n * ncpus && cpu < ncpus; cpu++)
		if (read(a->fds[cpu * c->n + t], v, sizeof(v)) == sizeof(v))
			printf(" cpu%d=%llu", cpu, (unsigned long long)v[0]);
	printf("\n");
}

/*
 * profile-thread-T, profile-process-T: a crew of @n threads on CPUs
 * 1..ncpus-1 runs spin(@iters) once each while sampled every
 * PROFILE_PERIOD ns of task time; the benchmark, on CPU 0, drains the
 * buffers as perf record does. ns per run (go to the last thread
 * done); samples read, samples lost (PERF_FORMAT_LOST, and the
 * PERF_RECORD_LOST totals), the samples the task time predicts and
 * the threads whose tid the samples carried are fields.
 */
static void bench_profile(const char *row, int process, int n, long iters)
{
	__u64 samples = 0, lost_rec = 0, lost = 0, throttles = 0, task_ns = 0;
	__u64 v[2];
	const char *rate = "/proc/sys/kernel/perf_event_max_sample_rate";
	struct perf_event_attr attr;
	unsigned char *seen = NULL;
	pid_t *sorted = NULL;
	int nseen = 0, corrupt = 0, i;
	long wakeups;
	struct attach a;
	struct crew c;
	double t0, t1;

	if (process && !have_process)
		return;
	/*
	 * The sampling rows before this one may have made the kernel lower
	 * perf_event_max_sample_rate, each kernel by what its PMIs cost:
	 * start from the default, so that both kernels throttle this row's
	 * task-clock samples alike (it reports the limit it ended with).
	 */
	if (write_sysctl(rate, 100000))
		printf("info %s cannot reset %s: %s\n", row, rate,
		       strerror(errno));
	if (wait_hres(row) || nofile_room(row, (long)n * ncpus) ||
	    attach_alloc(&a, row, n))
		return;
	if (crew_start(&c, row, n, iters, 1))
		goto out;
	sorted = malloc(n * sizeof(*sorted));
	seen = calloc(n, 1);
	if (!sorted || !seen) {
		row_failed(row, "malloc");
		goto out_crew;
	}
	memcpy(sorted, c.sh->tids, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_tid);
	attach_attr(&attr, 1);
	if (attach(&a, &c, &attr, process)) {
		row_failed(row, process ?
			   "perf_event_open(PERF_FLAG_PID_PROCESS)/mmap" :
			   "perf_event_open/mmap/SET_OUTPUT");
		goto out_crew;
	}
	for (i = 0; i < a.nrings; i++) {
		a.rings[i].tids = sorted;
		a.rings[i].ntids = n;
		a.rings[i].seen = seen;
	}
	t0 = now_ns();
	crew_go(&c);
	wakeups = profile_drain(&a, &c);
	t1 = now_ns();
	if (wakeups < 0) {
		row_failed(row, "poll/read(done)");
		goto out_detach;
	}
	for (i = 0; i < a.nrings; i++) {
		ring_drain(&a.rings[i]);
		samples += a.rings[i].samples;
		lost_rec += a.rings[i].lost;
		throttles += a.rings[i].throttles;
		corrupt |= a.rings[i].corrupt;
	}
	for (i = 0; i < a.nfds; i++) {
		if (read(a.fds[i], v, sizeof(v)) != sizeof(v)) {
			row_failed(row, "read(PERF_FORMAT_LOST)");
			goto out_detach;
		}
		task_ns += v[0];
		lost += v[1];
	}
	for (i = 0; i < n; i++) {
		nseen += seen[i];
		if (!seen[i])
			profile_unsampled(row, &a, &c, sorted[i]);
	}
	/*
	 * Every thread ran for many periods: one without samples, with
	 * nothing lost, is named above, and threads_sampled says so.
	 */
	if (corrupt || !samples) {
		errno = EIO;
		row_failed(row, corrupt ? "corrupt record" : "no samples");
		goto out_detach;
	}
	printf("bench %s %.1f iters=%ld unit=ns/run threads=%d cpus=%d",
	       row, t1 - t0, iters, n, ncpus);
	printf(" fds=%d locked_kb=%ld period=%d samples=%llu lost=%llu",
	       a.nfds, attach_locked_kb(&a), PROFILE_PERIOD,
	       (unsigned long long)samples, (unsigned long long)lost);
	printf(" lost_records=%llu expected=%llu threads_sampled=%d",
	       (unsigned long long)lost_rec,
	       (unsigned long long)(task_ns / PROFILE_PERIOD), nseen);
	printf(" throttles=%llu wakeups=%ld max_rate=%ld\n",
	       (unsigned long long)throttles, wakeups, read_sysctl(rate));
	fflush(stdout);
out_detach:
	detach(&a);
out_crew:
	crew_stop(&c);
	free(sorted);
	free(seen);
out:
	attach_free(&a);
}

/*
 * Does this kernel take PERF_FLAG_PID_PROCESS? Upstream says EINVAL:
 * its rows are then left out (rig/bench.sh expects them from ours
 * only). Any other error lets the rows run and fail with it.
 */
static void probe_process(void)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = sys_perf_event_open(&attr, 0, -1, -1,
				 PERF_FLAG_PID_PROCESS | PERF_FLAG_FD_CLOEXEC);
	have_process = fd >= 0 || errno != EINVAL;
	if (fd >= 0)
		close(fd);
	if (!have_process) {
		printf("info the process rows are left out: PERF_FLAG_PID_PROCESS: %s\n",
		       strerror(errno));
		fflush(stdout);
	}
}

/* the attach rows, in the order they run: each way, then more threads */
static const struct {
	const char *row;
	int process, threads;
	long iters;
} attach_rows[] = {
	{ "attach-thread-1", 0, 1, 100 },
	{ "attach-process-1", 1, 1, 100 },
	{ "attach-thread-100", 0, 100, 10 },
	{ "attach-process-100", 1, 100, 10 },
	{ "attach-thread-1000", 0, 1000, 3 },
	{ "attach-process-1000", 1, 1000, 3 },
};

int main(int argc, char **argv)
{
	const char *rate = "/proc/sys/kernel/perf_event_max_sample_rate";
	struct rlimit nofile;
	unsigned int i;

	if (argc > 1 && argv[1][0] == 'x')
		multiplier = strtol(argv[1] + 1, NULL, 0);
	else if (argc > 1)
		divisor = strtol(argv[1], NULL, 0);
	if (divisor < 1)
		divisor = 1;
	if (multiplier < 1)
		multiplier = 1;
	if (argc > 2)
		only_rows = argv[2];
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	/*
	 * ctxsw-sys-256 opens 256 events per CPU in this task before it
	 * hands them to their holder: 2048 fds on 8 CPUs, past the usual
	 * soft limit of 1024 but within the kernel's default hard limit.
	 */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	if (pin_cpu0()) {
		row_failed("all", "sched_setaffinity");
		return 1;
	}

	/*
	 * No-event switching first, before any event has ever existed in
	 * this guest, so it measures the scheduler hooks at their cheapest.
	 */
	if (row_wanted("ctxsw-0"))
		bench_ctxsw("ctxsw-0", 0, 0, NULL, ITERS(200000));
	if (row_wanted("ctxsw-1"))
		bench_ctxsw("ctxsw-1", 1, 0, NULL, ITERS(150000));
	if (row_wanted("ctxsw-8"))
		bench_ctxsw("ctxsw-8", 8, 0, NULL, ITERS(80000));
	if (row_wanted("read-0") || row_wanted("ioctl-0"))
		bench_floor(ITERS(2000000));
	if (row_wanted("read-1"))
		bench_read("read-1", 1, ITERS(2000000));
	if (row_wanted("read-group-8"))
		bench_read("read-group-8", 8, ITERS(1000000));
	if (row_wanted("ioctl-1"))
		bench_ioctl("ioctl-1", 1, ITERS(600000));
	if (row_wanted("ioctl-group-8"))
		bench_ioctl("ioctl-group-8", 8, ITERS(120000));
	if (row_wanted("ctxsw-hw-1") || row_wanted("ctxsw-hw-4")) {
		hw_events = 1;
		if (row_wanted("ctxsw-hw-1"))
			bench_ctxsw("ctxsw-hw-1", 1, 0, NULL, ITERS(150000));
		if (row_wanted("ctxsw-hw-4"))
			bench_ctxsw("ctxsw-hw-4", 4, 0, NULL, ITERS(100000));
		hw_events = 0;
	}
	if (row_wanted("hw-read-1"))
		bench_hw_read("hw-read-1", 0, ITERS(2000000));
	if (row_wanted("aux-write-256"))
		bench_aux_write("aux-write-256", ITERS(400000));
#if defined(__x86_64__)
	if (row_wanted("hw-rdpmc-1"))
		bench_hw_read("hw-rdpmc-1", 1, ITERS(2000000));
#endif

	/*
	 * The scaling rows after the rows they extend, so that those run
	 * in the same guest as before the scaling rows existed.
	 */
	if (row_wanted("ctxsw-cpu-8"))
		bench_ctxsw("ctxsw-cpu-8", 8, 1, NULL, ITERS(CPU8_ITERS));
	if (row_wanted("ctxsw-cpu-64"))
		bench_ctxsw("ctxsw-cpu-64", 64, 1, NULL, ITERS(CPU64_ITERS));
	if (row_wanted("ctxsw-cpu-256"))
		bench_ctxsw("ctxsw-cpu-256", 256, 1, NULL, ITERS(CPU256_ITERS));
	if (row_wanted("ctxsw-sys-8"))
		bench_ctxsw_sys("ctxsw-sys-8", 8, 0, ITERS(SYS_ITERS));
	if (row_wanted("ctxsw-sys-64"))
		bench_ctxsw_sys("ctxsw-sys-64", 64, 0, ITERS(SYS_ITERS));
	if (row_wanted("ctxsw-sys-256"))
		bench_ctxsw_sys("ctxsw-sys-256", 256, 0, ITERS(SYS_ITERS));
	if (row_wanted("ctxsw-sys-64-sw"))
		bench_ctxsw_sys("ctxsw-sys-64-sw", 64, 1, ITERS(SYSSW_ITERS));
	if (row_wanted("mmap-sys-8"))
		bench_sys_op("mmap-sys-8", 8, map_unmap, "mmap/munmap",
			     ITERS(MMAP_ITERS));
	if (row_wanted("mmap-sys-64"))
		bench_sys_op("mmap-sys-64", 64, map_unmap, "mmap/munmap",
			     ITERS(MMAP_ITERS));
	if (row_wanted("mmap-sys-256"))
		bench_sys_op("mmap-sys-256", 256, map_unmap, "mmap/munmap",
			     ITERS(MMAP_ITERS));
	if (row_wanted("fork-sys-8"))
		bench_sys_op("fork-sys-8", 8, fork_wait, "fork/waitpid",
			     ITERS(FORK_ITERS));
	if (row_wanted("fork-sys-64"))
		bench_sys_op("fork-sys-64", 64, fork_wait, "fork/waitpid",
			     ITERS(FORK_ITERS));
	if (row_wanted("bp-open-1"))
		bench_bp_open("bp-open-1", 1, ITERS(BP_ITERS));
	if (row_wanted("bp-open-4"))
		bench_bp_open("bp-open-4", 4, ITERS(BP_ITERS));

	/*
	 * Sampling last, so the rows above see the same guest as before
	 * they existed. The throttle limit is read when its row runs: a
	 * kernel may lower it at run time, and the row reports the rate
	 * it used. The two cost rows subtract sample-base; the tick-freq
	 * rows run its workload too, and right after it.
	 */
	if (row_wanted("sample-base") || row_wanted("sample-4khz") ||
	    row_wanted("sample-max") || row_wanted("tick-freq-1") ||
	    row_wanted("tick-freq-64") || row_wanted("tick-freq-256") ||
	    row_wanted("hw-sample-1") || row_wanted("lbr-sample-32") ||
	    row_wanted("pebs-sample-1"))
		bench_sample_base(ITERS(WORK_ITERS));
	if (row_wanted("tick-freq-1"))
		bench_tick("tick-freq-1", 1, ITERS(WORK_ITERS));
	if (row_wanted("tick-freq-64"))
		bench_tick("tick-freq-64", 64, ITERS(WORK_ITERS));
	if (row_wanted("tick-freq-256"))
		bench_tick("tick-freq-256", 256, ITERS(WORK_ITERS));
	if (row_wanted("sample-4khz"))
		bench_sample("sample-4khz", 4000, ITERS(WORK_ITERS));
	if (row_wanted("sample-max"))
		bench_sample("sample-max", read_sysctl(rate),
			     ITERS(WORK_ITERS));
#if defined(__x86_64__)
	if (row_wanted("hw-sample-1"))
		bench_hw_sample("hw-sample-1", 0, 0, ITERS(WORK_ITERS));
	if (row_wanted("pebs-sample-1"))
		bench_hw_sample("pebs-sample-1", 0, 2, ITERS(WORK_ITERS));
	if (row_wanted("lbr-sample-32"))
		bench_hw_sample("lbr-sample-32", PERF_SAMPLE_BRANCH_ANY |
				PERF_SAMPLE_BRANCH_USER, 0, ITERS(WORK_ITERS));
#endif
	if (row_wanted("sample-rate-max"))
		bench_sample_rate("sample-rate-max", ITERS(RATE_ITERS));

	/*
	 * The rows of a process of many threads last of all: the attach
	 * rows leave the file table large, and the profile rows' samples
	 * may make the kernel lower perf_event_max_sample_rate.
	 */
	if (row_wanted("ctxsw-process-1") || row_wanted("attach-process-1") ||
	    row_wanted("attach-process-100") ||
	    row_wanted("attach-process-1000") ||
	    row_wanted("profile-process-100"))
		probe_process();
	if (row_wanted("ctxsw-inherit-1")) {
		inherit_events = 1;
		bench_ctxsw("ctxsw-inherit-1", 1, 0, NULL, ITERS(150000));
		inherit_events = 0;
	}
	if (row_wanted("ctxsw-process-1") && have_process) {
		open_flags = PERF_FLAG_PID_PROCESS;
		bench_ctxsw("ctxsw-process-1", 1, 0, NULL, ITERS(150000));
		open_flags = 0;
	}
	for (i = 0; i < ARRAY_SIZE(attach_rows); i++) {
		if (row_wanted(attach_rows[i].row))
			bench_attach(attach_rows[i].row,
				     attach_rows[i].process,
				     attach_rows[i].threads,
				     ITERS(attach_rows[i].iters) ?: 1);
	}
	if (row_wanted("profile-thread-100"))
		bench_profile("profile-thread-100", 0, 100,
			      ITERS(PROFILE_ITERS));
	if (row_wanted("profile-process-100"))
		bench_profile("profile-process-100", 1, 100,
			      ITERS(PROFILE_ITERS));
	return failed;
}
