// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) argument validation: one row per input, each with the
 * errno the upstream 6.12 kernel returns for it, and the good neighbours
 * that must open.
 *
 * Every row opens a software event (task-clock unless the row says
 * otherwise), so no row needs a hardware PMU. The tests run as root with
 * all capabilities: permission rules are tested in permissions.c, so that
 * every row here fails (or succeeds) for the reason it names.
 *
 * A row is a FIXTURE_VARIANT: the harness prints one TAP line per row,
 * named attr.<row>.open. Its fields:
 *   attr      fields of the attr; type and config default to software
 *             task-clock unless explicit_type is set;
 *   size      attr.size when use_size is set (else the header's size);
 *   pid, cpu  used when set_target is set (else pid 0, cpu -1: self);
 *   group     which group_fd to pass (see enum group_sel);
 *   flags     the flags argument;
 *   prepare   optional hook run before the open (opens leaders, forks
 *             children, computes run-time values);
 *   check     optional hook run after the open (looks at the result);
 *   expect    the errno upstream returns, 0 for success;
 *   ours_differs, ours_expect
 *             a row that uses one of our extensions (section 8 of the
 *             uapi header), which upstream rejects: what ours returns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

/* The size of the attr this kernel's uapi header defines (VER8 in 6.12). */
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ULL << (n))
#endif

#define KERNEL_ATTR_SIZE	((__u32)sizeof(struct perf_event_attr))

/* Room for sizes up to a page past the header's struct, plus one byte. */
#define ATTR_BUF_SIZE		(2 * 65536 + 16)

/* nr_cpu_ids: one more than the last CPU in /sys/.../cpu/possible. */
static int nr_possible_cpus(void)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char *p;
	int last = 0;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			/* "0-1" or "0" or "0-3,5": the last number is the highest */
			for (p = buf; *p; p++)
				if ((p == buf || p[-1] == '-' || p[-1] == ',') &&
				    *p >= '0' && *p <= '9')
					last = atoi(p);
		}
		fclose(f);
	}
	return last + 1;
}

enum group_sel {
	G_NONE = 0,	/* group_fd = -1 */
	G_LEADER,	/* the leader the prepare hook opened */
	G_SIBLING,	/* a sibling the prepare hook opened in that group */
	G_NOT_OPEN,	/* a descriptor number nothing has open */
	G_MINUS_2,	/* -2 */
	G_DEV_NULL,	/* an open descriptor that is not a perf event */
	G_PIPE,		/* idem, a pipe */
};

/*
 * The harness names the fixture's data struct _test_data_<name>; the hooks
 * below take it under a shorter name.
 */
#define fixture_attr _test_data_attr

FIXTURE(attr) {
	union {
		struct perf_event_attr attr;
		unsigned char raw[ATTR_BUF_SIZE];
	} *buf;
	void *attr_ptr;		/* what is passed to the syscall */
	pid_t pid;
	int cpu;
	int group_fd;
	int leader_fd;
	int sibling_fd;
	int other_fd;
	pid_t child;		/* a helper child to kill and reap at the end */
	bool child_reaped;
	void *mmap_base;
	size_t mmap_len;
	int fd;			/* result of the open */
	int err;		/* errno of the open, 0 on success */
};

FIXTURE_VARIANT(attr) {
	struct perf_event_attr attr;
	bool explicit_type;
	bool use_size;
	__u32 size;
	bool set_target;
	pid_t pid;
	int cpu;
	enum group_sel group;
	unsigned long flags;
	void (*prepare)(struct __test_metadata *_metadata,
			struct fixture_attr *self);
	void (*check)(struct __test_metadata *_metadata,
		      struct fixture_attr *self);
	int expect;
	bool ours_differs;
	int ours_expect;
};

FIXTURE_SETUP(attr)
{
	self->buf = calloc(1, sizeof(*self->buf));
	ASSERT_NE(NULL, self->buf);
	self->attr_ptr = &self->buf->attr;
	self->pid = 0;
	self->cpu = -1;
	self->group_fd = -1;
	self->leader_fd = -1;
	self->sibling_fd = -1;
	self->other_fd = -1;
	self->child = 0;
	self->child_reaped = false;
	self->mmap_base = NULL;
	self->fd = -1;
	self->err = 0;
}

FIXTURE_TEARDOWN(attr)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->mmap_base)
		munmap(self->mmap_base, self->mmap_len);
	if (self->sibling_fd >= 0)
		close(self->sibling_fd);
	if (self->leader_fd >= 0)
		close(self->leader_fd);
	if (self->other_fd >= 0)
		close(self->other_fd);
	if (self->child > 0 && !self->child_reaped) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	free(self->buf);
}

/* A task-clock counter on @pid/@cpu, disabled, for use as a group leader. */
static int open_task_clock(pid_t pid, int cpu, int group_fd,
			   void (*tweak)(struct perf_event_attr *a))
{
	struct perf_event_attr a;

	perf_attr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	a.disabled = 1;
	if (tweak)
		tweak(&a);
	return sys_perf_event_open(&a, pid, cpu, group_fd, 0);
}

/* A child that waits to be killed: a live task of our uid to target. */
static pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

TEST_F(attr, open)
{
	struct perf_event_attr *a = &self->buf->attr;
	int expect;

	*a = variant->attr;
	if (!variant->explicit_type) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
	}
	a->size = variant->use_size ? variant->size : KERNEL_ATTR_SIZE;
	if (variant->set_target) {
		self->pid = variant->pid;
		self->cpu = variant->cpu;
	}

	if (variant->prepare)
		variant->prepare(_metadata, self);

	switch (variant->group) {
	case G_NONE:
		break;
	case G_LEADER:
		ASSERT_GE(self->leader_fd, 0);
		self->group_fd = self->leader_fd;
		break;
	case G_SIBLING:
		ASSERT_GE(self->sibling_fd, 0);
		self->group_fd = self->sibling_fd;
		break;
	case G_NOT_OPEN:
		/* far above anything open, and below any sane RLIMIT_NOFILE */
		self->group_fd = 999;
		ASSERT_EQ(-1, fcntl(self->group_fd, F_GETFD));
		break;
	case G_MINUS_2:
		self->group_fd = -2;
		break;
	case G_DEV_NULL:
		self->other_fd = open("/dev/null", O_RDONLY);
		ASSERT_GE(self->other_fd, 0);
		self->group_fd = self->other_fd;
		break;
	case G_PIPE: {
		int p[2];

		ASSERT_EQ(0, pipe(p));
		close(p[1]);
		self->other_fd = p[0];
		self->group_fd = p[0];
		break;
	}
	}

	errno = 0;
	self->fd = sys_perf_event_open(self->attr_ptr, self->pid, self->cpu,
				       self->group_fd, variant->flags);
	self->err = self->fd < 0 ? errno : 0;

	expect = variant->expect;
	if (variant->ours_differs && kperf_ours())
		expect = variant->ours_expect;
	/* a failure returns -1, a success a descriptor */
	EXPECT_EQ(!expect, self->fd >= 0);
	EXPECT_EQ(expect, self->err) {
		TH_LOG("expected %s, got %s",
		       expect ? strerror(expect) : "success",
		       self->err ? strerror(self->err) : "success");
	}

	if (variant->check)
		variant->check(_metadata, self);
}

/* ---- prepare and check hooks ---- */

/* E2BIG must tell the caller the size this kernel understands. */
static void check_size_written_back(struct __test_metadata *_metadata,
				    struct fixture_attr *self)
{
	EXPECT_EQ(KERNEL_ATTR_SIZE, self->buf->attr.size);
}

/* A failed or successful open that is not E2BIG leaves attr.size alone. */
static void check_size_unchanged_ver0(struct __test_metadata *_metadata,
				      struct fixture_attr *self)
{
	EXPECT_EQ(0u, self->buf->attr.size);
}

static void check_cloexec_set(struct __test_metadata *_metadata,
			      struct fixture_attr *self)
{
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(self->fd, F_GETFD) & FD_CLOEXEC);
}

static void check_cloexec_clear(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, fcntl(self->fd, F_GETFD) & FD_CLOEXEC);
}

static void prep_null_attr(struct __test_metadata *_metadata,
			   struct fixture_attr *self)
{
	self->attr_ptr = NULL;
}

/* An attr pointer into a page that is mapped but not accessible. */
static void prep_unmapped_attr(struct __test_metadata *_metadata,
			       struct fixture_attr *self)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	self->mmap_base = p;
	self->mmap_len = page;
	self->attr_ptr = p;
}

/* The kernel's struct followed by 8 zero bytes: an attr from a newer ABI. */
static void prep_size_bigger_zero_tail(struct __test_metadata *_metadata,
				       struct fixture_attr *self)
{
	self->buf->attr.size = KERNEL_ATTR_SIZE + 8;
}

static void prep_size_bigger_nonzero_tail(struct __test_metadata *_metadata,
					  struct fixture_attr *self)
{
	self->buf->attr.size = KERNEL_ATTR_SIZE + 8;
	self->buf->raw[KERNEL_ATTR_SIZE + 7] = 1;
}

static void prep_size_bigger_first_tail_byte(struct __test_metadata *_metadata,
					     struct fixture_attr *self)
{
	self->buf->attr.size = KERNEL_ATTR_SIZE + 1;
	self->buf->raw[KERNEL_ATTR_SIZE] = 0x80;
}

/* A whole page is the largest size accepted, with a zero tail. */
static void prep_size_page(struct __test_metadata *_metadata,
			   struct fixture_attr *self)
{
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_LT(page, ATTR_BUF_SIZE);
	self->buf->attr.size = page;
}

static void prep_size_page_nonzero_last(struct __test_metadata *_metadata,
					struct fixture_attr *self)
{
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_LT(page, ATTR_BUF_SIZE);
	self->buf->attr.size = page;
	self->buf->raw[page - 1] = 1;
}

static void prep_size_page_plus_one(struct __test_metadata *_metadata,
				    struct fixture_attr *self)
{
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_LT(page + 1, ATTR_BUF_SIZE);
	self->buf->attr.size = page + 1;
}

static void prep_cpu_nr_cpu_ids(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	self->cpu = nr_possible_cpus();
}

static void prep_cpu_last(struct __test_metadata *_metadata,
			  struct fixture_attr *self)
{
	self->cpu = nr_possible_cpus() - 1;
}

/* pid_max itself is never a valid pid: pids run from 1 to pid_max - 1. */
static void prep_pid_max(struct __test_metadata *_metadata,
			 struct fixture_attr *self)
{
	long pid_max;

	if (read_long(SYSCTL("pid_max"), &pid_max))
		pid_max = INT_MAX;
	self->pid = pid_max;
}

static void prep_pid_self(struct __test_metadata *_metadata,
			  struct fixture_attr *self)
{
	self->pid = getpid();
}

static void prep_pid_child(struct __test_metadata *_metadata,
			   struct fixture_attr *self)
{
	self->child = spawn_sleeper();
	ASSERT_LT(0, self->child);
	self->pid = self->child;
}

static void prep_pid_child_cpu0(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	prep_pid_child(_metadata, self);
	self->cpu = 0;
}

/*
 * A zombie: the child has exited (perf_event_exit_task() has run) but is
 * not reaped, so its pid still names a task.
 */
static void prep_pid_zombie(struct __test_metadata *_metadata,
			    struct fixture_attr *self)
{
	siginfo_t info;

	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0)
		_exit(0);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, waitid(P_PID, self->child, &info, WEXITED | WNOWAIT));
	self->pid = self->child;
}

/* A reaped child: its pid names nothing (pids are not reused this soon). */
static void prep_pid_reaped(struct __test_metadata *_metadata,
			    struct fixture_attr *self)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	self->pid = pid;
}

static void prep_reaped_cpu_bad(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	prep_pid_reaped(_metadata, self);
	self->cpu = INT_MAX;
}

static void prep_cgroup_dir_fd(struct __test_metadata *_metadata,
			       struct fixture_attr *self)
{
	self->other_fd = open("/", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->other_fd);
	self->pid = self->other_fd;
}

static void prep_cgroup_dir_fd_cpu0(struct __test_metadata *_metadata,
				    struct fixture_attr *self)
{
	prep_cgroup_dir_fd(_metadata, self);
	self->cpu = 0;
}

static void prep_freq_above_max(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	long rate = read_int(SYSCTL("perf_event_max_sample_rate"));

	ASSERT_LT(0, rate);
	self->buf->attr.sample_freq = rate + 1;
}

static void prep_freq_at_max(struct __test_metadata *_metadata,
			     struct fixture_attr *self)
{
	long rate = read_int(SYSCTL("perf_event_max_sample_rate"));

	ASSERT_LT(0, rate);
	self->buf->attr.sample_freq = rate;
}

static void prep_max_stack_above(struct __test_metadata *_metadata,
				 struct fixture_attr *self)
{
	long max = read_int(SYSCTL("perf_event_max_stack"));

	ASSERT_LT(0, max);
	ASSERT_GT(65535, max);
	self->buf->attr.sample_max_stack = max + 1;
}

static void prep_max_stack_at(struct __test_metadata *_metadata,
			      struct fixture_attr *self)
{
	long max = read_int(SYSCTL("perf_event_max_stack"));

	ASSERT_LT(0, max);
	ASSERT_GT(65535, max);
	self->buf->attr.sample_max_stack = max;
}

/* Leaders: pid/cpu of the leader, and whatever attr the leader needs. */
static void prep_leader_self(struct __test_metadata *_metadata,
			     struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(0, -1, -1, NULL);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_cpu0(struct __test_metadata *_metadata,
			     struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(-1, 0, -1, NULL);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_self_cpu0(struct __test_metadata *_metadata,
				  struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(0, 0, -1, NULL);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_child(struct __test_metadata *_metadata,
			      struct fixture_attr *self)
{
	self->child = spawn_sleeper();
	ASSERT_LT(0, self->child);
	self->leader_fd = open_task_clock(self->child, -1, -1, NULL);
	ASSERT_LE(0, self->leader_fd);
}

static void tweak_inherit(struct perf_event_attr *a)
{
	a->inherit = 1;
}

static void tweak_inherit_group(struct perf_event_attr *a)
{
	a->inherit = 1;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
}

static void tweak_monotonic(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static void prep_leader_inherit(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(0, -1, -1, tweak_inherit);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_inherit_group(struct __test_metadata *_metadata,
				      struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(0, -1, -1, tweak_inherit_group);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_inherit_cpu0(struct __test_metadata *_metadata,
				     struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(-1, 0, -1, tweak_inherit);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_monotonic(struct __test_metadata *_metadata,
				  struct fixture_attr *self)
{
	self->leader_fd = open_task_clock(0, -1, -1, tweak_monotonic);
	ASSERT_LE(0, self->leader_fd);
}

static void prep_leader_and_sibling(struct __test_metadata *_metadata,
				    struct fixture_attr *self)
{
	prep_leader_self(_metadata, self);
	self->sibling_fd = open_task_clock(0, -1, self->leader_fd, NULL);
	ASSERT_LE(0, self->sibling_fd);
}

/* A leader with a ring buffer, so that PERF_FLAG_FD_OUTPUT has a target. */
static void prep_leader_mmapped(struct __test_metadata *_metadata,
				struct fixture_attr *self)
{
	void *p;

	prep_leader_self(_metadata, self);
	p = perf_map_ring(self->leader_fd, 1);
	ASSERT_NE(MAP_FAILED, p);
	self->mmap_base = p;
	self->mmap_len = 2 * sysconf(_SC_PAGESIZE);
}

/*
 * A leader whose task has exited: the exit moved it to the EXIT state, and
 * a leader in that state takes no new siblings.
 */
static void prep_leader_exited(struct __test_metadata *_metadata,
			       struct fixture_attr *self)
{
	int go[2];
	char c = 0;

	ASSERT_EQ(0, pipe(go));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		close(go[1]);
		/* exit once the parent has attached the leader */
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	self->leader_fd = open_task_clock(self->child, -1, -1, NULL);
	ASSERT_LE(0, self->leader_fd);
	close(go[1]);
	ASSERT_EQ(self->child, waitpid(self->child, NULL, 0));
	self->child_reaped = true;
}

/* ---- the rows ---- */

#define ROW(name) FIXTURE_VARIANT_ADD(attr, name)

/* attr.size: the versions, the quirk of 0, and what is around them */
ROW(size_zero_is_ver0) { .use_size = true, .size = 0,
	.check = check_size_unchanged_ver0 };
ROW(size_1) { .use_size = true, .size = 1, .expect = E2BIG,
	.check = check_size_written_back };
ROW(size_8) { .use_size = true, .size = 8, .expect = E2BIG,
	.check = check_size_written_back };
ROW(size_63) { .use_size = true, .size = 63, .expect = E2BIG,
	.check = check_size_written_back };
ROW(size_ver0) { .use_size = true, .size = PERF_ATTR_SIZE_VER0 };
ROW(size_65) { .use_size = true, .size = 65 };
ROW(size_ver1) { .use_size = true, .size = PERF_ATTR_SIZE_VER1 };
ROW(size_ver2) { .use_size = true, .size = PERF_ATTR_SIZE_VER2 };
ROW(size_ver3) { .use_size = true, .size = PERF_ATTR_SIZE_VER3 };
ROW(size_ver4) { .use_size = true, .size = PERF_ATTR_SIZE_VER4 };
ROW(size_ver5) { .use_size = true, .size = PERF_ATTR_SIZE_VER5 };
ROW(size_ver6) { .use_size = true, .size = PERF_ATTR_SIZE_VER6 };
ROW(size_ver7) { .use_size = true, .size = PERF_ATTR_SIZE_VER7 };
ROW(size_ver8) { .use_size = true, .size = PERF_ATTR_SIZE_VER8 };
ROW(size_ver8_plus_4) { .use_size = true, .size = PERF_ATTR_SIZE_VER8 + 4 };
ROW(size_bigger_zero_tail) { .prepare = prep_size_bigger_zero_tail };
ROW(size_bigger_nonzero_tail) { .prepare = prep_size_bigger_nonzero_tail,
	.expect = E2BIG, .check = check_size_written_back };
ROW(size_bigger_first_tail_byte) {
	.prepare = prep_size_bigger_first_tail_byte,
	.expect = E2BIG, .check = check_size_written_back };
ROW(size_page_zero_tail) { .prepare = prep_size_page };
ROW(size_page_nonzero_last_byte) { .prepare = prep_size_page_nonzero_last,
	.expect = E2BIG, .check = check_size_written_back };
ROW(size_page_plus_1) { .prepare = prep_size_page_plus_one,
	.expect = E2BIG, .check = check_size_written_back };
ROW(size_u32_max) { .use_size = true, .size = 0xffffffffu, .expect = E2BIG,
	.check = check_size_written_back };
ROW(attr_null) { .prepare = prep_null_attr, .expect = EFAULT };
ROW(attr_unreadable) { .prepare = prep_unmapped_attr, .expect = EFAULT };
/* fields past attr.size are not read, so garbage there does not matter */
ROW(size_ver2_ignores_clockid) { .use_size = true,
	.size = PERF_ATTR_SIZE_VER2,
	.attr = { .use_clockid = 1, .clockid = 1000 } };
ROW(size_ver3_reads_clockid) { .use_size = true,
	.size = PERF_ATTR_SIZE_VER3,
	.attr = { .use_clockid = 1, .clockid = 1000 }, .expect = EINVAL };
ROW(size_ver4_ignores_reserved_2) { .use_size = true,
	.size = PERF_ATTR_SIZE_VER4, .attr = { .__reserved_2 = 1 } };
ROW(size_ver5_reads_reserved_2) { .use_size = true,
	.size = PERF_ATTR_SIZE_VER5, .attr = { .__reserved_2 = 1 },
	.expect = EINVAL };
ROW(size_ver2_regs_user_mask_not_read) { .use_size = true,
	.size = PERF_ATTR_SIZE_VER2,
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER,
		  .sample_regs_user = 1 }, .expect = EINVAL };

/* attr.type and attr.config */
ROW(type_unknown_1000) { .explicit_type = true,
	.attr = { .type = 1000 }, .expect = ENOENT };
ROW(type_u32_max) { .explicit_type = true,
	.attr = { .type = 0xffffffffu }, .expect = ENOENT };
ROW(type_int_min) { .explicit_type = true,
	.attr = { .type = 0x80000000u }, .expect = ENOENT };
ROW(type_hw_extended_software_pmu) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_HARDWARE,
		  .config = (__u64)PERF_TYPE_SOFTWARE << 32 },
	.expect = ENOENT };
ROW(type_tracepoint_bad_id) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_TRACEPOINT, .config = 0xffffffffull },
	.expect = EINVAL };
ROW(sw_config_max) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_MAX },
	.expect = ENOENT };
ROW(sw_config_1000) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = 1000 },
	.expect = ENOENT };
ROW(sw_config_u64_max) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = ~0ull },
	.expect = ENOENT };
ROW(sw_config_high_bit_task_clock) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE,
		  .config = (1ull << 32) | PERF_COUNT_SW_TASK_CLOCK },
	.expect = ENOENT };
ROW(sw_cpu_clock) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK } };
ROW(sw_task_clock) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK } };
ROW(sw_page_faults) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS } };
ROW(sw_context_switches) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES } };
ROW(sw_cpu_migrations) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_MIGRATIONS } };
ROW(sw_page_faults_min) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS_MIN } };
ROW(sw_page_faults_maj) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS_MAJ } };
ROW(sw_alignment_faults) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_ALIGNMENT_FAULTS } };
ROW(sw_emulation_faults) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_EMULATION_FAULTS } };
ROW(sw_dummy) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY } };
ROW(sw_bpf_output) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_BPF_OUTPUT } };
ROW(sw_cgroup_switches) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CGROUP_SWITCHES } };

/* reserved fields */
ROW(reserved_1_low_bit) { .attr = { .__reserved_1 = 1 }, .expect = EINVAL };
ROW(reserved_1_high_bit) { .attr = { .__reserved_1 = 1 << 25 },
	.expect = EINVAL };
ROW(reserved_2) { .attr = { .__reserved_2 = 1 }, .expect = EINVAL };
ROW(reserved_2_high_bit) { .attr = { .__reserved_2 = 0x8000 },
	.expect = EINVAL };
ROW(reserved_3_low_bit) { .attr = { .__reserved_3 = 1 }, .expect = EINVAL };
ROW(reserved_3_high_bit) { .attr = { .__reserved_3 = 1 << 28 },
	.expect = EINVAL };

/* the flags argument */
ROW(flags_none) { .check = check_cloexec_clear };
ROW(flags_cloexec) { .flags = PERF_FLAG_FD_CLOEXEC,
	.check = check_cloexec_set };
ROW(flags_no_group_alone) { .flags = PERF_FLAG_FD_NO_GROUP };
ROW(flags_output_alone) { .flags = PERF_FLAG_FD_OUTPUT };
/* upstream's first unknown flags are our PID_PROCESS and SHARED_BUFFER */
ROW(flags_pid_process) { .flags = PERF_FLAG_PID_PROCESS, .expect = EINVAL,
	.ours_differs = true, .ours_expect = 0 };
ROW(flags_shared_buffer) { .flags = PERF_FLAG_SHARED_BUFFER,
	.expect = EINVAL, .ours_differs = true, .ours_expect = 0 };
ROW(flags_pid_process_all_tasks) { .flags = PERF_FLAG_PID_PROCESS,
	.set_target = true, .pid = -1, .cpu = 0, .expect = EINVAL };
ROW(flags_pid_process_cgroup) {
	.flags = PERF_FLAG_PID_PROCESS | PERF_FLAG_PID_CGROUP,
	.prepare = prep_cgroup_dir_fd, .expect = EINVAL };
ROW(flags_bit_6) { .flags = 1ul << 6, .expect = EINVAL };
ROW(flags_bit_31) { .flags = 1ul << 31, .expect = EINVAL };
ROW(flags_bit_63) { .flags = 1ul << (sizeof(long) * 8 - 1),
	.expect = EINVAL };
ROW(flags_all_ones) { .flags = ~0ul, .expect = EINVAL };
ROW(flags_unknown_before_bad_attr) { .flags = 1ul << 6,
	.attr = { .__reserved_1 = 1 }, .expect = EINVAL };
ROW(flags_cgroup_pid_minus_1) { .flags = PERF_FLAG_PID_CGROUP,
	.set_target = true, .pid = -1, .cpu = 0, .expect = EINVAL };
ROW(flags_cgroup_cpu_minus_1) { .flags = PERF_FLAG_PID_CGROUP,
	.prepare = prep_cgroup_dir_fd, .expect = EINVAL };
/* a directory that is not a cgroup's (selftests/cgroup_events has real ones) */
ROW(flags_cgroup_not_a_cgroup) { .flags = PERF_FLAG_PID_CGROUP,
	.prepare = prep_cgroup_dir_fd_cpu0, .expect = EBADF };

/* pid and cpu */
ROW(target_self_any_cpu) { .set_target = true, .pid = 0, .cpu = -1 };
ROW(target_self_cpu0) { .set_target = true, .pid = 0, .cpu = 0 };
ROW(target_self_last_cpu) { .prepare = prep_cpu_last };
ROW(target_own_pid) { .prepare = prep_pid_self };
ROW(target_child) { .prepare = prep_pid_child };
ROW(target_child_cpu0) { .prepare = prep_pid_child_cpu0 };
ROW(target_cpu0) { .set_target = true, .pid = -1, .cpu = 0 };
ROW(target_pid_m1_cpu_m1) { .set_target = true, .pid = -1, .cpu = -1,
	.expect = EINVAL };
ROW(target_cpu_nr_cpu_ids) { .prepare = prep_cpu_nr_cpu_ids,
	.expect = EINVAL };
ROW(target_cpu_int_max) { .set_target = true, .pid = 0, .cpu = INT_MAX,
	.expect = EINVAL };
ROW(target_cpu_wide_int_max) { .set_target = true, .pid = -1,
	.cpu = INT_MAX, .expect = EINVAL };
ROW(target_cpu_m2) { .set_target = true, .pid = 0, .cpu = -2,
	.expect = EINVAL };
ROW(target_cpu_wide_m2) { .set_target = true, .pid = -1, .cpu = -2,
	.expect = EINVAL };
ROW(target_cpu_int_min) { .set_target = true, .pid = 0, .cpu = INT_MIN,
	.expect = EINVAL };
ROW(target_pid_int_max) { .set_target = true, .pid = INT_MAX, .cpu = -1,
	.expect = ESRCH };
ROW(target_pid_max) { .prepare = prep_pid_max, .expect = ESRCH };
ROW(target_pid_m2) { .set_target = true, .pid = -2, .cpu = -1,
	.expect = ESRCH };
ROW(target_pid_int_min) { .set_target = true, .pid = INT_MIN, .cpu = 0,
	.expect = ESRCH };
ROW(target_pid_zombie) { .prepare = prep_pid_zombie, .expect = ESRCH };
ROW(target_pid_reaped) { .prepare = prep_pid_reaped, .expect = ESRCH };
/* the task is looked up before the cpu is checked */
ROW(target_pid_reaped_cpu_bad) { .prepare = prep_reaped_cpu_bad,
	.expect = ESRCH };
/* and the group fd before the task */
ROW(group_badf_before_pid) { .set_target = true, .pid = INT_MAX,
	.cpu = -1, .group = G_NOT_OPEN, .expect = EBADF };

/* sample_type, read_format, period and frequency */
ROW(sample_type_first_unknown_bit) {
	.attr = { .sample_type = PERF_SAMPLE_MAX }, .expect = EINVAL };
ROW(sample_type_bit_63) { .attr = { .sample_type = 1ull << 63 },
	.expect = EINVAL };
ROW(sample_type_all_known_but_excl) {
	.attr = { .sample_period = 1000,
		  .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
				 PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID |
				 PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER |
				 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT |
				 PERF_SAMPLE_TRANSACTION |
				 PERF_SAMPLE_DATA_PAGE_SIZE |
				 PERF_SAMPLE_CODE_PAGE_SIZE } };
/* the guest configs have CONFIG_CGROUP_PERF, without which it is EINVAL */
ROW(sample_type_cgroup) { .attr = { .sample_type = PERF_SAMPLE_CGROUP } };
ROW(sample_type_weight_and_weight_struct) {
	.attr = { .sample_type = PERF_SAMPLE_WEIGHT |
				 PERF_SAMPLE_WEIGHT_STRUCT }, .expect = EINVAL };
ROW(sample_type_weight_struct) {
	.attr = { .sample_type = PERF_SAMPLE_WEIGHT_STRUCT } };
ROW(sample_type_phys_addr_root) {
	.attr = { .sample_type = PERF_SAMPLE_PHYS_ADDR } };
ROW(read_format_all_known) { .attr = { .read_format = PERF_FORMAT_MAX - 1 } };
/* upstream's first unknown bit is our PERF_FORMAT_LOSSES */
ROW(read_format_losses) {
	.attr = { .read_format = PERF_FORMAT_MAX }, .expect = EINVAL,
	.ours_differs = true, .ours_expect = 0 };
ROW(read_format_losses_sample_read) {
	.attr = { .read_format = PERF_FORMAT_LOSSES, .sample_period = 1000,
		  .sample_type = PERF_SAMPLE_READ }, .expect = EINVAL };
ROW(read_format_losses_inherit_stat) {
	.attr = { .read_format = PERF_FORMAT_LOSSES, .inherit = 1,
		  .inherit_stat = 1 }, .expect = EINVAL };
ROW(read_format_first_unknown_bit) {
	.attr = { .read_format = PERF_FORMAT_LOSSES << 1 }, .expect = EINVAL };
ROW(read_format_bit_63) { .attr = { .read_format = 1ull << 63 },
	.expect = EINVAL };
ROW(period_top_bit) { .attr = { .sample_period = 1ull << 63 },
	.expect = EINVAL };
ROW(period_all_ones) { .attr = { .sample_period = ~0ull },
	.expect = EINVAL };
ROW(period_largest) { .attr = { .sample_period = (1ull << 63) - 1 } };
ROW(period_one) { .attr = { .sample_period = 1 } };
ROW(freq_above_max_sample_rate) { .attr = { .freq = 1 },
	.prepare = prep_freq_above_max, .expect = EINVAL };
ROW(freq_at_max_sample_rate) { .attr = { .freq = 1 },
	.prepare = prep_freq_at_max };
ROW(freq_top_bit) { .attr = { .freq = 1, .sample_freq = 1ull << 63 },
	.expect = EINVAL };
ROW(freq_zero) { .attr = { .freq = 1, .sample_freq = 0 } };

/* branch stack: validated in the attr, then refused by software PMUs */
ROW(branch_type_ignored_without_branch_stack) {
	.attr = { .branch_sample_type = ~0ull } };
ROW(branch_unknown_bit) {
	.attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_MAX },
	.expect = EINVAL };
ROW(branch_zero_mask) {
	.attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK },
	.expect = EINVAL };
ROW(branch_only_priv_levels) {
	.attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_PLM_ALL },
	.expect = EINVAL };
ROW(branch_any_on_software) {
	.attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY },
	.expect = EOPNOTSUPP };
ROW(branch_any_user_on_software) {
	.attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_USER },
	.expect = EOPNOTSUPP };
ROW(branch_on_dummy) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		  .sample_type = PERF_SAMPLE_BRANCH_STACK,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY },
	.expect = EOPNOTSUPP };

/* register masks: the valid registers are the architecture's */
#if defined(__x86_64__)
#define REG_GOOD	BIT_ULL(0)		/* AX */
#define REG_BAD		BIT_ULL(12)		/* DS: not on x86_64 */
#define REG_RESERVED	BIT_ULL(24)		/* between R15 and XMM0 */
#elif defined(__aarch64__)
#define REG_GOOD	BIT_ULL(0)		/* X0 */
#define REG_BAD		BIT_ULL(33)		/* past PC */
#define REG_RESERVED	BIT_ULL(40)
#else
#define REG_GOOD	0
#define REG_BAD		0
#define REG_RESERVED	0
#endif
ROW(regs_user_mask_ignored_without_sample) {
	.attr = { .sample_regs_user = REG_BAD | REG_RESERVED } };
/*
 * The check for extended registers (x86 XMM, arm64 VG) looks at the masks
 * whether or not the sample_type asks for registers, and software PMUs
 * have no extended registers.
 */
ROW(regs_user_all_ones_without_sample) {
	.attr = { .sample_regs_user = ~0ull }, .expect = EOPNOTSUPP };
ROW(regs_intr_all_ones_without_sample) {
	.attr = { .sample_regs_intr = ~0ull }, .expect = EOPNOTSUPP };
ROW(regs_user_empty_mask) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER }, .expect = EINVAL };
ROW(regs_user_good) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER,
		  .sample_regs_user = REG_GOOD } };
ROW(regs_user_bad_reg) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER,
		  .sample_regs_user = REG_GOOD | REG_BAD }, .expect = EINVAL };
ROW(regs_user_reserved_reg) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER,
		  .sample_regs_user = REG_RESERVED }, .expect = EINVAL };
ROW(regs_intr_empty_mask) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_INTR }, .expect = EINVAL };
ROW(regs_intr_good) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_INTR,
		  .sample_regs_intr = REG_GOOD } };
ROW(regs_intr_bad_reg) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_INTR,
		  .sample_regs_intr = REG_GOOD | REG_BAD }, .expect = EINVAL };
ROW(regs_intr_reserved_reg) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_INTR,
		  .sample_regs_intr = REG_RESERVED }, .expect = EINVAL };
#if defined(__x86_64__)
/* XMM registers pass the arch check but need a PMU with extended regs */
ROW(regs_intr_xmm_on_software) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_INTR,
		  .sample_regs_intr = 1ull << 32 }, .expect = EOPNOTSUPP };
ROW(regs_user_xmm_on_software) {
	.attr = { .sample_type = PERF_SAMPLE_REGS_USER,
		  .sample_regs_user = 1ull << 32 }, .expect = EOPNOTSUPP };
#endif

/* user stack dumps: a multiple of 8, below 64 KiB */
ROW(stack_user_size_ignored_without_sample) {
	.attr = { .sample_stack_user = 7 } };
ROW(stack_user_zero) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER } };
ROW(stack_user_8) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 8 } };
ROW(stack_user_7) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 7 }, .expect = EINVAL };
ROW(stack_user_12) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 12 }, .expect = EINVAL };
ROW(stack_user_largest) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 65528 } };
ROW(stack_user_65535) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 65535 }, .expect = EINVAL };
ROW(stack_user_65536) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 65536 }, .expect = EINVAL };
ROW(stack_user_u32_max) { .attr = { .sample_type = PERF_SAMPLE_STACK_USER,
	.sample_stack_user = 0xffffffffu }, .expect = EINVAL };

/* callchain depth against kernel.perf_event_max_stack */
ROW(callchain_max_stack_at_limit) {
	.attr = { .sample_type = PERF_SAMPLE_CALLCHAIN },
	.prepare = prep_max_stack_at };
ROW(callchain_max_stack_above_limit) {
	.attr = { .sample_type = PERF_SAMPLE_CALLCHAIN },
	.prepare = prep_max_stack_above, .expect = EOVERFLOW };

/* clocks */
ROW(clockid_ignored_without_use_clockid) { .attr = { .clockid = 1000 } };
ROW(clockid_monotonic) { .attr = { .use_clockid = 1, .clockid = CLOCK_MONOTONIC } };
ROW(clockid_monotonic_raw) { .attr = { .use_clockid = 1, .clockid = CLOCK_MONOTONIC_RAW } };
ROW(clockid_realtime) { .attr = { .use_clockid = 1, .clockid = CLOCK_REALTIME } };
ROW(clockid_boottime) { .attr = { .use_clockid = 1, .clockid = CLOCK_BOOTTIME } };
ROW(clockid_tai) { .attr = { .use_clockid = 1, .clockid = CLOCK_TAI } };
ROW(clockid_process_cputime) { .attr = { .use_clockid = 1, .clockid = CLOCK_PROCESS_CPUTIME_ID },
	.expect = EINVAL };
ROW(clockid_thread_cputime) { .attr = { .use_clockid = 1, .clockid = CLOCK_THREAD_CPUTIME_ID },
	.expect = EINVAL };
ROW(clockid_monotonic_coarse) { .attr = { .use_clockid = 1, .clockid = CLOCK_MONOTONIC_COARSE },
	.expect = EINVAL };
ROW(clockid_realtime_coarse) { .attr = { .use_clockid = 1, .clockid = CLOCK_REALTIME_COARSE },
	.expect = EINVAL };
ROW(clockid_minus_1) { .attr = { .use_clockid = 1, .clockid = -1 },
	.expect = EINVAL };
ROW(clockid_1000) { .attr = { .use_clockid = 1, .clockid = 1000 },
	.expect = EINVAL };

/* AUX area fields on events that have no AUX area */
ROW(aux_watermark_ignored) { .attr = { .aux_watermark = 4096 } };
ROW(aux_output) { .attr = { .aux_output = 1 }, .expect = EOPNOTSUPP };
ROW(aux_start_paused) { .attr = { .aux_start_paused = 1 },
	.expect = EOPNOTSUPP };
ROW(aux_pause) { .attr = { .aux_pause = 1 }, .expect = EINVAL };
ROW(aux_resume) { .attr = { .aux_resume = 1 }, .expect = EINVAL };
ROW(aux_pause_and_resume) { .attr = { .aux_pause = 1, .aux_resume = 1 },
	.expect = EINVAL };
ROW(aux_output_and_pause) { .attr = { .aux_output = 1, .aux_pause = 1 },
	.expect = EOPNOTSUPP };
ROW(aux_sample_size) { .attr = { .aux_sample_size = 4096 },
	.expect = EINVAL };
ROW(aux_sample_size_with_sample_aux) {
	.attr = { .sample_type = PERF_SAMPLE_AUX, .aux_sample_size = 4096 },
	.expect = EINVAL };
ROW(aux_sample_size_software_leader) { .attr = { .aux_sample_size = 4096 },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(aux_pause_software_leader) { .attr = { .aux_pause = 1 },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(aux_output_software_leader) { .attr = { .aux_output = 1 },
	.prepare = prep_leader_self, .group = G_LEADER,
	.expect = EOPNOTSUPP };

/* exec-time and inheritance flags */
ROW(sigtrap_without_remove_on_exec) { .attr = { .sigtrap = 1 },
	.expect = EINVAL };
ROW(sigtrap_with_remove_on_exec) {
	.attr = { .sigtrap = 1, .remove_on_exec = 1, .sig_data = 42 } };
ROW(sigtrap_cpu_wide) { .attr = { .sigtrap = 1, .remove_on_exec = 1 },
	.set_target = true, .pid = -1, .cpu = 0, .expect = EINVAL };
ROW(remove_on_exec_alone) { .attr = { .remove_on_exec = 1 } };
ROW(remove_on_exec_and_enable_on_exec) {
	.attr = { .remove_on_exec = 1, .enable_on_exec = 1 },
	.expect = EINVAL };
ROW(enable_on_exec_alone) { .attr = { .enable_on_exec = 1, .disabled = 1 } };
ROW(inherit_thread_without_inherit) { .attr = { .inherit_thread = 1 },
	.expect = EINVAL };
ROW(inherit_thread_with_inherit) {
	.attr = { .inherit = 1, .inherit_thread = 1 } };
/* 6.12: inherited PERF_SAMPLE_READ needs PERF_SAMPLE_TID */
ROW(inherit_sample_read) {
	.attr = { .inherit = 1, .sample_period = 1000,
		  .sample_type = PERF_SAMPLE_READ }, .expect = EINVAL };
ROW(inherit_sample_read_counting) {
	.attr = { .inherit = 1, .sample_type = PERF_SAMPLE_READ },
	.expect = EINVAL };
ROW(inherit_sample_read_tid) {
	.attr = { .inherit = 1, .sample_period = 1000,
		  .sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID } };
ROW(sample_read_without_inherit) {
	.attr = { .sample_period = 1000, .sample_type = PERF_SAMPLE_READ } };
ROW(inherit_format_group_leader) {
	.attr = { .inherit = 1,
		  .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID } };
ROW(inherit_sibling_of_inherit_group_leader) { .attr = { .inherit = 1 },
	.prepare = prep_leader_inherit_group, .group = G_LEADER };
ROW(inherit_sibling_of_plain_leader) { .attr = { .inherit = 1 },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(plain_sibling_of_inherit_leader) {
	.prepare = prep_leader_inherit, .group = G_LEADER, .expect = EINVAL };
/* the inherit match is a rule for task events only */
ROW(plain_sibling_of_inherit_leader_cpu_wide) {
	.set_target = true, .pid = -1, .cpu = 0,
	.prepare = prep_leader_inherit_cpu0, .group = G_LEADER };

/* exclude_* bits: software events take them all */
ROW(exclude_user) { .attr = { .exclude_user = 1 } };
ROW(exclude_kernel) { .attr = { .exclude_kernel = 1 } };
ROW(exclude_hv) { .attr = { .exclude_hv = 1 } };
ROW(exclude_idle) { .attr = { .exclude_idle = 1 } };
ROW(exclude_host) { .attr = { .exclude_host = 1 } };
ROW(exclude_guest) { .attr = { .exclude_guest = 1 } };
ROW(exclude_callchain_both) {
	.attr = { .sample_type = PERF_SAMPLE_CALLCHAIN,
		  .exclude_callchain_kernel = 1,
		  .exclude_callchain_user = 1 } };
ROW(exclude_everything) {
	.attr = { .exclude_user = 1, .exclude_kernel = 1, .exclude_hv = 1,
		  .exclude_idle = 1, .exclude_host = 1, .exclude_guest = 1 } };
ROW(exclude_everything_dummy) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		  .exclude_user = 1, .exclude_kernel = 1, .exclude_hv = 1,
		  .exclude_idle = 1, .exclude_host = 1, .exclude_guest = 1 } };
ROW(precise_ip_on_software) { .attr = { .precise_ip = 3 } };
ROW(side_band_bits_on_dummy) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		  .mmap = 1, .mmap2 = 1, .comm = 1, .comm_exec = 1,
		  .task = 1, .context_switch = 1, .namespaces = 1,
		  .ksymbol = 1, .bpf_event = 1, .text_poke = 1,
		  .build_id = 1, .mmap_data = 1, .sample_id_all = 1,
		  .write_backward = 1, .watermark = 1, .wakeup_watermark = 1 } };

/* groups */
ROW(group_fd_not_open) { .group = G_NOT_OPEN, .expect = EBADF };
ROW(group_fd_minus_2) { .group = G_MINUS_2, .expect = EBADF };
ROW(group_fd_dev_null) { .group = G_DEV_NULL, .expect = EBADF };
ROW(group_fd_pipe) { .group = G_PIPE, .expect = EBADF };
ROW(group_sibling) { .prepare = prep_leader_self, .group = G_LEADER };
ROW(group_sibling_dummy) { .explicit_type = true,
	.attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY },
	.prepare = prep_leader_self, .group = G_LEADER };
ROW(group_sibling_of_sibling) { .prepare = prep_leader_and_sibling,
	.group = G_SIBLING, .expect = EINVAL };
ROW(group_exclusive_leader) { .attr = { .exclusive = 1 } };
ROW(group_pinned_leader) { .attr = { .pinned = 1 } };
ROW(group_exclusive_sibling) { .attr = { .exclusive = 1 },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(group_pinned_sibling) { .attr = { .pinned = 1 },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(group_leader_cpu0_sibling_cpu1) { .set_target = true, .pid = -1,
	.cpu = 1, .prepare = prep_leader_cpu0, .group = G_LEADER,
	.expect = EINVAL };
ROW(group_leader_cpu0_sibling_cpu0) { .set_target = true, .pid = -1,
	.cpu = 0, .prepare = prep_leader_cpu0, .group = G_LEADER };
ROW(group_leader_task_sibling_cpu_wide) { .set_target = true, .pid = -1,
	.cpu = 0, .prepare = prep_leader_self, .group = G_LEADER,
	.expect = EINVAL };
ROW(group_leader_task_sibling_task_on_cpu0) { .set_target = true,
	.pid = 0, .cpu = 0, .prepare = prep_leader_self,
	.group = G_LEADER, .expect = EINVAL };
ROW(group_leader_task_cpu0_sibling_same) { .set_target = true,
	.pid = 0, .cpu = 0, .prepare = prep_leader_self_cpu0,
	.group = G_LEADER };
ROW(group_leader_cpu_wide_sibling_task) { .set_target = true,
	.pid = 0, .cpu = 0, .prepare = prep_leader_cpu0, .group = G_LEADER,
	.expect = EINVAL };
ROW(group_leader_on_other_task) { .prepare = prep_leader_child,
	.group = G_LEADER, .expect = EINVAL };
ROW(group_leader_exited) { .prepare = prep_leader_exited,
	.group = G_LEADER, .expect = ENODEV };
ROW(group_clock_mismatch) {
	.attr = { .use_clockid = 1, .clockid = CLOCK_MONOTONIC },
	.prepare = prep_leader_self, .group = G_LEADER, .expect = EINVAL };
ROW(group_clock_match) {
	.attr = { .use_clockid = 1, .clockid = CLOCK_MONOTONIC },
	.prepare = prep_leader_monotonic, .group = G_LEADER };
ROW(group_no_group_flag_ignores_leader) { .set_target = true, .pid = -1,
	.cpu = 1, .prepare = prep_leader_cpu0, .group = G_LEADER,
	.flags = PERF_FLAG_FD_NO_GROUP };
ROW(group_fd_output_without_buffer) { .prepare = prep_leader_self,
	.group = G_LEADER, .flags = PERF_FLAG_FD_OUTPUT, .expect = EINVAL };
ROW(group_fd_output_with_buffer) { .prepare = prep_leader_mmapped,
	.group = G_LEADER, .flags = PERF_FLAG_FD_OUTPUT };
ROW(group_fd_output_other_cpu) { .prepare = prep_leader_mmapped,
	.set_target = true, .pid = 0, .cpu = 0, .group = G_LEADER,
	.flags = PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP,
	.expect = EINVAL };

/*
 * The size of a group read is capped at 16 KiB: with GROUP|ID|LOST each
 * member takes 24 bytes after an 8-byte count. When a sibling is added the
 * kernel sizes the read for (siblings so far + 2) members, so a leader
 * takes 681 siblings and refuses the 682nd with E2BIG.
 */
static void tweak_group_id_lost(struct perf_event_attr *a)
{
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
}

TEST(group_read_size_limit)
{
	const int expect_siblings = (16 * 1024 - 8) / 24 - 1;
	int *fds = calloc(expect_siblings + 2, sizeof(int));
	int leader, n, fd = -1;

	ASSERT_NE(NULL, fds);
	ASSERT_EQ(681, expect_siblings);
	leader = open_task_clock(0, -1, -1, tweak_group_id_lost);
	ASSERT_LE(0, leader);
	for (n = 0; n < expect_siblings + 1; n++) {
		fd = open_task_clock(0, -1, leader, NULL);
		if (fd < 0)
			break;
		fds[n] = fd;
	}
	EXPECT_EQ(expect_siblings, n);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(E2BIG, errno);
	while (n > 0)
		close(fds[--n]);
	close(leader);
	free(fds);
}

TEST_HARNESS_MAIN
