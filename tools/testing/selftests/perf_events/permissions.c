// SPDX-License-Identifier: GPL-2.0
/*
 * Who may open what, for each kernel.perf_event_paranoid level.
 *
 * Every check runs in a forked child that drops to an unprivileged uid,
 * optionally keeping one capability (CAP_PERFMON or CAP_SYS_ADMIN, kept
 * across setresuid() with PR_SET_KEEPCAPS and raised again with capset()),
 * opens one event and reports the errno through its exit status. The
 * fixture sets the paranoid level for the test and its teardown restores
 * the previous value whatever happened.
 *
 * What upstream 6.12 (with Debian's level 3) does for a task without
 * capabilities:
 *   level 3   every open fails with EACCES, even with CAP_PERFMON: only
 *             CAP_SYS_ADMIN gets past it (ours lets CAP_PERFMON past it
 *             too, deliberately: W1 in status.rst);
 *   level 2+  counting the kernel (exclude_kernel = 0) fails with EACCES;
 *   level 1+  CPU-wide events (pid -1) fail with EACCES;
 *   level 0+  raw tracepoint samples (PERF_SAMPLE_RAW) fail with EPERM;
 *             counting a tracepoint stays allowed;
 *   any       a task of another uid fails with EACCES (the ptrace read
 *             check); a dumpable task of the same uid is allowed.
 * CAP_PERFMON or CAP_SYS_ADMIN lift all of that below level 3.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

#define PARANOID	SYSCTL("perf_event_paranoid")
#define TRACEFS		"/sys/kernel/tracing"

/* Two unprivileged identities: the opener, and a stranger to target. */
#define UID_USER	1000
#define UID_OTHER	1001

/* Exit status of a child whose privilege drop failed (not an errno). */
#define SETUP_FAILED	255

enum priv { UNPRIV, PERFMON, SYSADMIN, NR_PRIVS };

enum op {
	OP_USER_SELF,		/* task-clock on self, user space only */
	OP_KERNEL_SELF,		/* task-clock on self, kernel included */
	OP_CPU_WIDE,		/* task-clock on CPU 0, pid -1, user only */
	OP_TP_COUNT,		/* a tracepoint on self, counting */
	OP_TP_RAW,		/* a tracepoint on self, PERF_SAMPLE_RAW */
	OP_SAME_UID,		/* task-clock on a dumpable task of our uid */
	OP_OTHER_UID,		/* task-clock on a task of another uid */
	NR_OPS,
};

/*
 * The id of a tracepoint perf can count, read while still root (tracefs
 * may not be readable later). Any ordinary event will do; the ftrace
 * subsystem is skipped because its "function" event has its own, stricter
 * rule, and syscall events because they are allowed raw access.
 */
static long tracepoint_id(void)
{
	static const char * const names[] = {
		"sched/sched_process_exec", "sched/sched_switch",
		"sched/sched_process_fork", "signal/signal_generate",
		"irq/softirq_entry", "timer/timer_start",
	};
	char path[256];
	unsigned int i;
	long id;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/%s/id", names[i]);
		if (!read_long(path, &id) && id > 0)
			return id;
	}
	return -1;
}

/* Drop to @uid, keeping only @cap (or nothing when @cap < 0). */
static int drop_privileges(uid_t uid, int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (cap >= 0 && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	/* setresuid() cleared the effective set; the permitted one was kept */
	memset(data, 0, sizeof(data));
	if (cap >= 0) {
		data[cap / 32].effective = 1u << (cap % 32);
		data[cap / 32].permitted = 1u << (cap % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	/* make sure no other capability survived */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	if (cap < 0)
		return (data[0].effective | data[1].effective |
			data[0].permitted | data[1].permitted) ? -1 : 0;
	return 0;
}

/* A task of @uid that stays alive, dumpable, until killed. */
static pid_t spawn_target(uid_t uid)
{
	int ready[2];
	pid_t pid;
	char c = 0;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (drop_privileges(uid, -1))
			_exit(SETUP_FAILED);
		/* a uid change makes a task non-dumpable: undo that */
		if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(SETUP_FAILED);
		if (write(ready[1], &c, 1) != 1)
			_exit(SETUP_FAILED);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

static int priv_cap(enum priv priv)
{
	switch (priv) {
	case PERFMON:
		return CAP_PERFMON;
	case SYSADMIN:
		return CAP_SYS_ADMIN;
	default:
		return -1;
	}
}

/*
 * Open the event of @op in a child with @priv; return 0 when it opened,
 * the errno when it did not, or SETUP_FAILED.
 */
static int try_open(enum priv priv, enum op op, long tp_id)
{
	struct perf_event_attr attr;
	pid_t target = 0, child;
	int cpu = -1, status;

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	switch (op) {
	case OP_USER_SELF:
		break;
	case OP_KERNEL_SELF:
		attr.exclude_kernel = 0;
		break;
	case OP_CPU_WIDE:
		target = -1;
		cpu = 0;
		break;
	case OP_TP_COUNT:
	case OP_TP_RAW:
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tp_id;
		if (op == OP_TP_RAW) {
			attr.sample_period = 1;
			attr.sample_type = PERF_SAMPLE_RAW;
		}
		break;
	case OP_SAME_UID:
	case OP_OTHER_UID:
		target = spawn_target(op == OP_SAME_UID ? UID_USER : UID_OTHER);
		if (target <= 0)
			return SETUP_FAILED;
		break;
	default:
		return SETUP_FAILED;
	}

	child = fork();
	if (child == 0) {
		int fd;

		if (drop_privileges(UID_USER, priv_cap(priv)))
			_exit(SETUP_FAILED);
		fd = sys_perf_event_open(&attr, target, cpu, -1, 0);
		_exit(fd >= 0 ? 0 : errno);
	}
	status = SETUP_FAILED << 8;
	if (child > 0)
		waitpid(child, &status, 0);
	if (target > 0) {
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
	}
	if (!WIFEXITED(status))
		return SETUP_FAILED;
	return WEXITSTATUS(status);
}

/* The harness's names for the fixture's data and variant structs. */
#define fixture_paranoid _test_data_paranoid
#define variant_paranoid _fixture_variant_paranoid

FIXTURE(paranoid) {
	long saved;
	bool restore;
	long tp_id;
};

FIXTURE_VARIANT(paranoid) {
	int level;
	enum priv priv;
	/* user, kernel, cpu, tp count, tp raw, same uid, other uid */
	int expect[NR_OPS];
	/* upstream's errno for every op where it differs from ours, or 0 */
	int ref_errno;
};

FIXTURE_VARIANT_ADD(paranoid, level_m1_unpriv) {
	.level = -1,
	.priv = UNPRIV,
	.expect = { 0, 0, 0, 0, 0, 0, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_m1_perfmon) {
	.level = -1,
	.priv = PERFMON,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_m1_sysadmin) {
	.level = -1,
	.priv = SYSADMIN,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_0_unpriv) {
	.level = 0,
	.priv = UNPRIV,
	.expect = { 0, 0, 0, 0, EPERM, 0, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_0_perfmon) {
	.level = 0,
	.priv = PERFMON,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_0_sysadmin) {
	.level = 0,
	.priv = SYSADMIN,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_1_unpriv) {
	.level = 1,
	.priv = UNPRIV,
	.expect = { 0, 0, EACCES, 0, EPERM, 0, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_1_perfmon) {
	.level = 1,
	.priv = PERFMON,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_1_sysadmin) {
	.level = 1,
	.priv = SYSADMIN,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_2_unpriv) {
	.level = 2,
	.priv = UNPRIV,
	.expect = { 0, EACCES, EACCES, 0, EPERM, 0, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_2_perfmon) {
	.level = 2,
	.priv = PERFMON,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_VARIANT_ADD(paranoid, level_2_sysadmin) {
	.level = 2,
	.priv = SYSADMIN,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

/* Debian's level 3: a distribution patch, skipped where it is refused */
FIXTURE_VARIANT_ADD(paranoid, level_3_unpriv) {
	.level = 3,
	.priv = UNPRIV,
	.expect = { EACCES, EACCES, EACCES, EACCES, EACCES, EACCES, EACCES },
};

/* ours: CAP_PERFMON is enough at level 3; Debian's patch wants SYS_ADMIN */
FIXTURE_VARIANT_ADD(paranoid, level_3_perfmon) {
	.level = 3,
	.priv = PERFMON,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
	.ref_errno = EACCES,
};

FIXTURE_VARIANT_ADD(paranoid, level_3_sysadmin) {
	.level = 3,
	.priv = SYSADMIN,
	.expect = { 0, 0, 0, 0, 0, 0, 0 },
};

FIXTURE_SETUP(paranoid)
{
	long now;

	self->restore = false;
	self->tp_id = tracepoint_id();
	if (getuid() != 0)
		SKIP(return, "needs root to change " PARANOID);
	ASSERT_EQ(0, read_long(PARANOID, &self->saved));
	if (write_long(PARANOID, variant->level))
		SKIP(return, "the kernel refuses perf_event_paranoid=%d",
		     variant->level);
	self->restore = true;
	ASSERT_EQ(0, read_long(PARANOID, &now));
	ASSERT_EQ(variant->level, now);
}

FIXTURE_TEARDOWN(paranoid)
{
	if (self->restore)
		EXPECT_EQ(0, write_long(PARANOID, self->saved));
}

static void check(struct __test_metadata *_metadata,
		  struct fixture_paranoid *self,
		  const struct variant_paranoid *variant, enum op op)
{
	int expect = variant->expect[op];
	int got;

	if (variant->ref_errno && !kperf_ours())
		expect = variant->ref_errno;

	if ((op == OP_TP_COUNT || op == OP_TP_RAW) && self->tp_id < 0)
		SKIP(return, "no tracepoint id in " TRACEFS "/events");
	got = try_open(variant->priv, op, self->tp_id);
	ASSERT_NE(SETUP_FAILED, got) {
		TH_LOG("could not set up the unprivileged child");
	}
	EXPECT_EQ(expect, got) {
		TH_LOG("paranoid %d: expected %s, got %s", variant->level,
		       expect ? strerror(expect) : "success",
		       got ? strerror(got) : "success");
	}
}

TEST_F(paranoid, user_only_self)
{
	check(_metadata, self, variant, OP_USER_SELF);
}

TEST_F(paranoid, kernel_self)
{
	check(_metadata, self, variant, OP_KERNEL_SELF);
}

TEST_F(paranoid, cpu_wide)
{
	check(_metadata, self, variant, OP_CPU_WIDE);
}

TEST_F(paranoid, tracepoint_count)
{
	check(_metadata, self, variant, OP_TP_COUNT);
}

TEST_F(paranoid, tracepoint_raw)
{
	check(_metadata, self, variant, OP_TP_RAW);
}

TEST_F(paranoid, task_same_uid)
{
	check(_metadata, self, variant, OP_SAME_UID);
}

TEST_F(paranoid, task_other_uid)
{
	check(_metadata, self, variant, OP_OTHER_UID);
}

/*
 * A task that is not dumpable (it changed uid, and nobody set it back) is
 * out of reach of the ptrace read check even for its own uid.
 */
TEST(unpriv_task_same_uid_not_dumpable)
{
	struct perf_event_attr attr;
	int ready[2], status;
	pid_t target, child;
	char c = 0;

	ASSERT_EQ(0, pipe(ready));
	target = fork();
	ASSERT_LE(0, target);
	if (target == 0) {
		close(ready[0]);
		if (drop_privileges(UID_USER, -1))
			_exit(SETUP_FAILED);
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(SETUP_FAILED);
		if (write(ready[1], &c, 1) != 1)
			_exit(SETUP_FAILED);
		for (;;)
			pause();
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	child = fork();
	if (child == 0) {
		if (drop_privileges(UID_USER, -1))
			_exit(SETUP_FAILED);
		_exit(sys_perf_event_open(&attr, target, -1, -1, 0) >= 0 ?
		      0 : errno);
	}
	ASSERT_LE(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(EACCES, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
