// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup events (F5, F36, F56, F87), in a cgroup2 hierarchy the test
 * mounts at /sys/fs/cgroup if nothing is there (and unmounts again; the
 * teardown removes every cgroup a test made, also after a failure):
 *  - PERF_FLAG_PID_CGROUP events on CPU 0 count only while a task of
 *    their cgroup, or of a cgroup below it, runs there; their enabled time
 *    is their cgroup's time on the CPU, so enabled == running and no tool
 *    scales the count;
 *  - a task moved into a cgroup while it runs is counted for its new
 *    cgroup from then on;
 *  - the open's errors (cpu -1, a descriptor that is not a cgroup, a group
 *    across two cgroups);
 *  - PERF_RECORD_CGROUP when a cgroup is made, PERF_SAMPLE_CGROUP, and
 *    the cgroup-switches software event.
 * Cgroup ids are inode numbers of cgroup2 directories.
 *
 * The perf_event controller is implicit on cgroup2, but the kernel gives
 * new cgroups its state only once the root's control masks have been
 * worked out, at the first write to the root's cgroup.subtree_control:
 * the test enables pids there first, as systemd does at boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_A		CG_ROOT "/kperf_a"
#define CG_AB		CG_A "/b"
#define CG_C		CG_ROOT "/kperf_c"
#define CG_REC		CG_ROOT "/kperf_rec"
#define MS		1000000ull

/* every cgroup a test may make, each before its parent */
static const char * const cg_made[] = { CG_AB, CG_A, CG_C, CG_REC };

static int cg_enter(const char *cg, pid_t pid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return write_long(path, pid);
}

/* What the setup changed besides the cgroups, for the teardown to undo. */
struct cg_state {
	bool mounted;		/* cgroup2 mounted at CG_ROOT by the test */
	bool added_pids;	/* pids enabled in the root by the test */
};

/* Is @ctrl among the controllers the root enables for its children? */
static bool cg_root_enables(const char *ctrl)
{
	char buf[256], word[32], *p = buf;
	int len;

	if (read_file(CG_ROOT "/cgroup.subtree_control", buf, sizeof(buf)))
		return false;
	for (; sscanf(p, "%31s%n", word, &len) == 1; p += len)
		if (!strcmp(word, ctrl))
			return true;
	return false;
}

/*
 * Mount the hierarchy if there is none, join its root, enable pids there
 * and make a, a/b and c: 0, or -1 with *@st saying what was done anyway.
 */
static int cg_make(struct cg_state *st)
{
	struct stat sb;

	if (stat(CG_ROOT "/cgroup.procs", &sb)) {
		mkdir(CG_ROOT, 0755);
		if (mount("none", CG_ROOT, "cgroup2", 0, NULL))
			return -1;
		st->mounted = true;
	}
	/* the test itself stays in the root cgroup */
	if (cg_enter(CG_ROOT, getpid()))
		return -1;
	st->added_pids = !cg_root_enables("pids");
	if (write_file(CG_ROOT "/cgroup.subtree_control", "+pids"))
		return -1;
	mkdir(CG_A, 0755);
	mkdir(CG_AB, 0755);
	mkdir(CG_C, 0755);
	return access(CG_AB "/cgroup.procs", W_OK);
}

/*
 * Move every task of @cg out to the root, then kill it: the tests' own
 * children, left running by a test that failed before it reaped them.
 */
static void cg_evict(const char *cg)
{
	char path[128];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%d", &pid) == 1) {
		cg_enter(CG_ROOT, pid);
		kill(pid, SIGKILL);
	}
	fclose(f);
}

/*
 * Remove the cgroups the tests make, then undo what cg_make() did to the
 * hierarchy. A task that was just moved or is exiting may keep a cgroup
 * busy for a moment: each rmdir() is tried again for up to a second.
 */
static void cg_cleanup(const struct cg_state *st)
{
	size_t i;
	int try;

	for (i = 0; i < ARRAY_SIZE(cg_made); i++) {
		for (try = 0; try < 100; try++) {
			cg_evict(cg_made[i]);
			if (!rmdir(cg_made[i]) || errno == ENOENT)
				break;
			usleep(10 * 1000);
		}
	}
	if (st->added_pids)
		write_file(CG_ROOT "/cgroup.subtree_control", "-pids");
	if (st->mounted)
		umount(CG_ROOT);
}

static __u64 cg_id(const char *cg)
{
	struct stat st;

	return stat(cg, &st) ? 0 : st.st_ino;
}

/* a cpu-clock event of @cg on @cpu, with its times */
static int open_cg(const char *cg, int cpu, __u64 config, int group)
{
	struct perf_event_attr attr;
	int dir, fd;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	dir = open(cg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	fd = sys_perf_event_open(&attr, dir, cpu, group,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	close(dir);
	return fd;
}

/* a child on CPU 0 that joins @cg (if any) and burns @ms of CPU */
static pid_t burner(const char *cg, int ms)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (pin_to_cpu(0) || (cg && cg_enter(cg, getpid())))
		_exit(1);
	burn_cpu(ms * MS);
	_exit(0);
}

static int reap(pid_t pid)
{
	int status = 0;

	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

FIXTURE(cg) {
	struct cg_state st;
};

FIXTURE_SETUP(cg)
{
	int ret, err;

	/* the test itself stays off CPU 0 */
	ASSERT_EQ(pin_to_cpu(1), 0);
	ret = cg_make(&self->st);
	if (ret) {
		err = errno;
		/* the teardown runs only after a setup that went through */
		cg_cleanup(&self->st);
		ASSERT_EQ(ret, 0) TH_LOG("no cgroup2 hierarchy at %s: %s",
					 CG_ROOT, strerror(err));
	}
}

/*
 * In the parent: the cgroups go also when the test died of a signal,
 * and the children it left in them are gone before they are removed.
 */
FIXTURE_TEARDOWN_PARENT(cg)
{
	cg_cleanup(&self->st);
}

/*
 * A child in a/b burns 200 ms on CPU 0 while the root cgroup's test
 * burns there too: the event of a counts the child's time (a cgroup
 * below it), c's nothing, and a's enabled time is its running time, not
 * the window's.
 */
TEST_F(cg, counts_tasks_of_cgroup_and_below)
{
	struct perf_value a, c;
	int fa, fc;
	pid_t pid;

	fa = open_cg(CG_A, 0, PERF_COUNT_SW_CPU_CLOCK, -1);
	ASSERT_GE(fa, 0) TH_LOG("open: %s", strerror(errno));
	fc = open_cg(CG_C, 0, PERF_COUNT_SW_CPU_CLOCK, -1);
	ASSERT_GE(fc, 0);
	pid = burner(CG_AB, 200);
	/* a root-cgroup task beside it on CPU 0 */
	ASSERT_EQ(reap(burner(NULL, 100)), 0);
	ASSERT_EQ(reap(pid), 0);
	ASSERT_TRUE(perf_read_value(fa, &a));
	ASSERT_TRUE(perf_read_value(fc, &c));
	TH_LOG("a: %llu ns (enabled %llu, running %llu), c: %llu",
	       a.count, a.enabled, a.running, c.count);
	EXPECT_GT(a.count, 150 * MS);
	EXPECT_LT(a.count, 300 * MS);
	EXPECT_LT(c.count, 5 * MS);
	EXPECT_EQ(a.enabled, a.running);
	/* the cgroup's time, not the 300 ms and more the event was open */
	EXPECT_LT(a.enabled, a.count + 20 * MS);
	close(fa);
	close(fc);
}

/* A running task moved into c is counted for c from the move on. */
TEST_F(cg, running_task_follows_its_move)
{
	struct perf_value c;
	int fc, sync[2];
	pid_t pid;
	char x;

	ASSERT_EQ(pipe(sync), 0);
	fc = open_cg(CG_C, 0, PERF_COUNT_SW_CPU_CLOCK, -1);
	ASSERT_GE(fc, 0);
	pid = fork();
	if (!pid) {
		if (pin_to_cpu(0))
			_exit(1);
		write(sync[1], "x", 1);
		/* alone on CPU 0: no switch but the move's own */
		burn_cpu(400 * MS);
		_exit(0);
	}
	ASSERT_EQ(read(sync[0], &x, 1), 1);
	usleep(100 * 1000);
	ASSERT_EQ(cg_enter(CG_C, pid), 0);
	ASSERT_EQ(reap(pid), 0);
	ASSERT_TRUE(perf_read_value(fc, &c));
	TH_LOG("c: %llu ns", c.count);
	/* the burn's remaining part, at least the last 100 ms of it */
	EXPECT_GT(c.count, 100 * MS);
	EXPECT_LT(c.count, 400 * MS);
	EXPECT_EQ(c.enabled, c.running);
	close(fc);
	close(sync[0]);
	close(sync[1]);
}

/* What the open refuses. */
TEST_F(cg, open_errors)
{
	struct perf_event_attr attr;
	int dir, fa, fd;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	dir = open(CG_A, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(dir, 0);
	/* a cgroup event is a CPU event */
	EXPECT_EQ(sys_perf_event_open(&attr, dir, -1, -1,
				      PERF_FLAG_PID_CGROUP), -1);
	EXPECT_EQ(errno, EINVAL);
	close(dir);

	/* a descriptor that is no cgroup directory */
	fd = open("/proc/self/status", O_RDONLY);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(sys_perf_event_open(&attr, fd, 0, -1,
				      PERF_FLAG_PID_CGROUP), -1);
	EXPECT_EQ(errno, EBADF);
	close(fd);

	/* one group, one cgroup */
	fa = open_cg(CG_A, 0, PERF_COUNT_SW_CPU_CLOCK, -1);
	ASSERT_GE(fa, 0);
	EXPECT_EQ(open_cg(CG_C, 0, PERF_COUNT_SW_TASK_CLOCK, fa), -1);
	EXPECT_EQ(errno, EINVAL);
	fd = open_cg(CG_A, 0, PERF_COUNT_SW_TASK_CLOCK, fa);
	EXPECT_GE(fd, 0);
	close(fd);
	close(fa);
}

/* PERF_RECORD_CGROUP: id and path of a cgroup made while we watch. */
TEST_F(cg, record_on_mkdir)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	__u64 head, off, id;
	struct perf_event_header h;
	char path[64];
	int fd, found = 0;

	rmdir(CG_REC);
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.cgroup = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(rb_mmap(&rb, fd, 8, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(mkdir(CG_REC, 0755), 0);

	head = rb_head(&rb);
	for (off = rb.pg->data_tail; off < head; off += h.size) {
		rb_copy(&rb, off, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type != PERF_RECORD_CGROUP)
			continue;
		rb_copy(&rb, off + sizeof(h), &id, sizeof(id));
		rb_copy(&rb, off + sizeof(h) + sizeof(id), path, sizeof(path));
		path[sizeof(path) - 1] = 0;
		if (!strcmp(path, "/kperf_rec")) {
			found++;
			EXPECT_EQ(id, cg_id(CG_REC));
		}
	}
	EXPECT_EQ(found, 1);
	rmdir(CG_REC);
	rb_unmap(&rb);
	close(fd);
}

/*
 * PERF_SAMPLE_CGROUP: a child in a/b samples its own page faults; every
 * sample names a/b.
 */
TEST_F(cg, samples_name_their_cgroup)
{
	pid_t pid = fork();

	if (!pid) {
		struct perf_event_attr attr;
		struct perf_event_header h;
		__u64 want = cg_id(CG_AB), head, off, id;
		struct rb_map rb;
		int fd, n = 0, bad = 0;

		if (cg_enter(CG_AB, getpid()))
			_exit(10);
		perf_attr_init(&attr, PERF_TYPE_SOFTWARE,
			       PERF_COUNT_SW_PAGE_FAULTS);
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_CGROUP;
		attr.exclude_kernel = 1;
		attr.disabled = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0 || rb_mmap(&rb, fd, 16, PROT_READ | PROT_WRITE))
			_exit(11);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		touch_fresh_pages(16);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		head = rb_head(&rb);
		for (off = rb.pg->data_tail; off < head; off += h.size) {
			rb_copy(&rb, off, &h, sizeof(h));
			if (h.size < sizeof(h))
				_exit(12);
			if (h.type != PERF_RECORD_SAMPLE)
				continue;
			rb_copy(&rb, off + sizeof(h), &id, sizeof(id));
			n++;
			bad += id != want;
		}
		_exit(n < 16 ? 13 : bad ? 14 : 0);
	}
	ASSERT_GT(pid, 0);
	EXPECT_EQ(reap(pid), 0);
}

/*
 * cgroup-switches counts the switches on CPU 0 between tasks of
 * different cgroups: two tasks, in a and c, hand a token back and forth.
 */
TEST_F(cg, cgroup_switches_counted)
{
	struct perf_event_attr attr;
	int ab[2], ba[2], fd, i;
	pid_t p1, p2;
	__u64 n;
	char x = 0;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES);
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(pipe(ab), 0);
	ASSERT_EQ(pipe(ba), 0);
	p1 = fork();
	if (!p1) {
		if (pin_to_cpu(0) || cg_enter(CG_A, getpid()))
			_exit(1);
		for (i = 0; i < 50; i++)
			if (write(ab[1], &x, 1) != 1 || read(ba[0], &x, 1) != 1)
				_exit(2);
		_exit(0);
	}
	p2 = fork();
	if (!p2) {
		if (pin_to_cpu(0) || cg_enter(CG_C, getpid()))
			_exit(1);
		for (i = 0; i < 50; i++)
			if (read(ab[0], &x, 1) != 1 || write(ba[1], &x, 1) != 1)
				_exit(2);
		_exit(0);
	}
	EXPECT_EQ(reap(p1), 0);
	EXPECT_EQ(reap(p2), 0);
	n = perf_read_count(fd);
	TH_LOG("%llu cgroup switches", n);
	/* each hand-over is one at least */
	EXPECT_GE(n, 100);
	close(fd);
}

TEST_HARNESS_MAIN
