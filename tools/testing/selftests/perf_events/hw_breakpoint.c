// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoints, through both of their front ends:
 *
 *  - ptrace, the debugger's interface, which the architecture code turns
 *    into PERF_TYPE_BREAKPOINT events of the traced task (x86_64: the
 *    debug registers in struct user; arm64: the NT_ARM_HW_WATCH regset);
 *  - perf_event_open() with PERF_TYPE_BREAKPOINT: counting, slot
 *    exhaustion and attribute validation.
 *
 * x86_64 data breakpoints trap after the access; arm64 watchpoints are
 * reported before it (a debugger must disable the watchpoint to step
 * over), and the tests check each architecture's own behaviour.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#ifdef __aarch64__
#include <asm/ptrace.h>
#endif

#include "../kselftest_harness.h"
#include "perf_test.h"

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT	4
#endif

#define NR_HITS		100
/* more data breakpoint slots than any CPU here has */
#define MAX_SLOTS	16

/*
 * The compiler must emit every access the tests count: a barrier after
 * each store (compiler_barrier()), and loads forced into a register.
 */
static inline void force_load(long x)
{
	asm volatile("" : : "r"(x) : "memory");
}

/* Watched by the tests; nothing else writes them. */
static long watched;
static long slot_vars[MAX_SLOTS + 1];
static int calls;

/* The target of the execute breakpoints. */
static void bp_target(void)
{
	calls++;
	compiler_barrier();
}

static void bp_attr(struct perf_event_attr *attr, __u32 type,
		    const void *addr, __u64 len)
{
	perf_attr_user(attr, PERF_TYPE_BREAKPOINT, 0);
	attr->bp_type = type;
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = len;
}

/* A counting breakpoint on this task; -errno on failure. */
static int open_bp(__u32 type, const void *addr, __u64 len)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr(&attr, type, addr, len);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : fd;
}

/* The length an execute breakpoint must have on this architecture. */
static __u64 exec_len(void)
{
#ifdef __aarch64__
	return 4;	/* one A64 instruction */
#else
	return sizeof(long);
#endif
}

/*
 * Fork a child that asks to be traced and stops itself; it then stores
 * 42 into 'watched' and exits 0 if the store is there afterwards.
 * Returns its pid, stopped, or -1.
 */
static pid_t start_tracee(void)
{
	int status;
	pid_t pid;

	watched = 1;
	compiler_barrier();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		raise(SIGSTOP);
		watched = 42;
		compiler_barrier();
		_exit(watched == 42 ? 0 : 11);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    WSTOPSIG(status) != SIGSTOP) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

static void kill_tracee(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#ifdef __aarch64__
/* Encoding of a watchpoint control word as NT_ARM_HW_WATCH takes it. */
#define WCR_ENABLE	0x1
#define WCR_EL0		(2 << 1)	/* privilege: EL0 only */
#define WCR_STORE	(2 << 3)
#define WCR_LEN8	(0xff << 5)	/* byte address select: 8 bytes */

static int set_watch(pid_t pid, const void *addr, __u32 ctrl)
{
	struct user_hwdebug_state st;
	struct iovec iov = {
		.iov_base = &st,
		.iov_len = offsetof(struct user_hwdebug_state, dbg_regs) +
			   sizeof(st.dbg_regs[0]),
	};

	memset(&st, 0, sizeof(st));
	st.dbg_regs[0].addr = (unsigned long)addr;
	st.dbg_regs[0].ctrl = ctrl;
	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_HW_WATCH, &iov);
}

/* Watchpoint count of this CPU, from the regset's dbg_info word. */
static int watch_slots(void)
{
	struct user_hwdebug_state st;
	struct iovec iov = { .iov_base = &st, .iov_len = sizeof(st) };
	pid_t pid = start_tracee();
	int n = -1;

	if (pid < 0)
		return -1;
	memset(&st, 0, sizeof(st));
	if (!ptrace(PTRACE_GETREGSET, pid, NT_ARM_HW_WATCH, &iov))
		n = st.dbg_info & 0xff;
	kill_tracee(pid);
	return n;
}
#elif defined(__x86_64__)
#define DR_OFFSET(n)	offsetof(struct user, u_debugreg[n])
/* DR7: local enable of slot 0, break on data writes, 8 bytes long */
#define DR7_L0		0x1UL
#define DR7_RW0_WRITE	(0x1UL << 16)
#define DR7_LEN0_8	(0x2UL << 18)

static int watch_slots(void)
{
	return 4;	/* DR0..DR3 */
}
#endif

TEST(ptrace_watchpoint_sigtrap)
{
	siginfo_t si;
	int status;
	pid_t pid;

	pid = start_tracee();
	ASSERT_LT(0, pid);

#if defined(__x86_64__)
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(0), &watched));
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(7),
			    DR7_L0 | DR7_RW0_WRITE | DR7_LEN0_8));
	ASSERT_EQ((long)&watched,
		  ptrace(PTRACE_PEEKUSER, pid, DR_OFFSET(0), NULL));
#elif defined(__aarch64__)
	ASSERT_EQ(0, set_watch(pid, &watched,
			       WCR_LEN8 | WCR_STORE | WCR_EL0 | WCR_ENABLE));
#else
	kill_tracee(pid);
	SKIP(return, "no ptrace watchpoint interface known for this arch");
#endif

	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status)) {
		TH_LOG("tracee status %#x", status);
	}
	ASSERT_EQ(SIGTRAP, WSTOPSIG(status));
	ASSERT_EQ(0, ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(TRAP_HWBKPT, si.si_code);

#if defined(__x86_64__)
	/* a trap after the store: it is done, and DR6 names slot 0 */
	EXPECT_EQ(42, ptrace(PTRACE_PEEKDATA, pid, &watched, NULL));
	EXPECT_EQ(1, ptrace(PTRACE_PEEKUSER, pid, DR_OFFSET(6), NULL) & 0xf);
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(7), 0));
#elif defined(__aarch64__)
	/*
	 * Reported before the store, with the data address; the debugger
	 * has to take the watchpoint away for the store to go through.
	 */
	EXPECT_EQ((void *)&watched, si.si_addr);
	EXPECT_EQ(1, ptrace(PTRACE_PEEKDATA, pid, &watched, NULL));
	ASSERT_EQ(0, set_watch(pid, &watched, 0));
#endif

	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) {
		TH_LOG("tracee status %#x", status);
		kill_tracee(pid);
	}
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(count_write_breakpoint)
{
	int fd, i;

	fd = open_bp(HW_BREAKPOINT_W, &watched, sizeof(long));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < NR_HITS; i++) {
		watched = i;
		compiler_barrier();
	}
	/* reads do not hit a write breakpoint */
	for (i = 0; i < NR_HITS; i++)
		force_load(watched);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(NR_HITS, perf_read_count(fd));
	EXPECT_EQ(NR_HITS - 1, watched);

	/* disabled: more writes, same count */
	for (i = 0; i < NR_HITS; i++) {
		watched = i;
		compiler_barrier();
	}
	EXPECT_EQ(NR_HITS, perf_read_count(fd));
}

TEST(count_exec_breakpoint)
{
	int fd, i;

	calls = 0;
	fd = open_bp(HW_BREAKPOINT_X, (void *)bp_target, exec_len());
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < NR_HITS; i++)
		OPAQUE(bp_target)();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* each call hit once and still ran once */
	EXPECT_EQ(NR_HITS, perf_read_count(fd));
	EXPECT_EQ(NR_HITS, calls);
}

TEST(slots_exhausted_enospc)
{
	int fd[MAX_SLOTS + 1], n, i, extra;

	n = watch_slots();
	ASSERT_LT(0, n);
	ASSERT_GE(MAX_SLOTS, n);
	TH_LOG("%d data breakpoint slots", n);

	for (i = 0; i < n; i++) {
		fd[i] = open_bp(HW_BREAKPOINT_W, &slot_vars[i], sizeof(long));
		ASSERT_LE(0, fd[i]) {
			TH_LOG("slot %d: %s", i, strerror(-fd[i]));
		}
	}
	/* one more than the hardware has: no slot, whatever the address */
	EXPECT_EQ(-ENOSPC, open_bp(HW_BREAKPOINT_W, &slot_vars[n],
				   sizeof(long)));
	EXPECT_EQ(-ENOSPC, open_bp(HW_BREAKPOINT_W, &slot_vars[0],
				   sizeof(long)));
#ifdef __x86_64__
	/* x86 has one pool for data and instruction breakpoints */
	EXPECT_EQ(-ENOSPC, open_bp(HW_BREAKPOINT_X, (void *)bp_target,
				   exec_len()));
#endif

	/* closing one gives its slot back */
	close(fd[0]);
	extra = open_bp(HW_BREAKPOINT_W, &slot_vars[n], sizeof(long));
	EXPECT_LE(0, extra);
	EXPECT_EQ(-ENOSPC, open_bp(HW_BREAKPOINT_W, &slot_vars[0],
				   sizeof(long)));
}

TEST(bad_len_and_type_einval)
{
	/* lengths no architecture has */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_W, &watched, 0));
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_W, &watched, 9));
	/* no type, and every type bit at once */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_EMPTY, &watched, 8));
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_INVALID, &watched, 8));
	/* execute and read together is not a breakpoint kind */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_R | HW_BREAKPOINT_X,
				   &watched, 8));
	/* an 8-byte watch must be 8-byte aligned */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_W,
				   (const char *)&watched + 1, 8));
}

TEST(arch_len_and_type_rules)
{
	int fd;

#ifdef __x86_64__
	/* x86 watches writes or reads+writes, never reads alone */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_R, &watched, 8));
	/* instruction breakpoints take exactly sizeof(long) */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_X, (void *)bp_target, 4));
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_X, (void *)bp_target, 1));
	/* 1, 2, 4 and 8 bytes, aligned, are data lengths; 3 is not */
	EXPECT_EQ(-EINVAL, open_bp(HW_BREAKPOINT_W, &watched, 3));
#elif defined(__aarch64__)
	/* arm64 watches reads alone too */
	fd = open_bp(HW_BREAKPOINT_R, &watched, 8);
	EXPECT_LE(0, fd);
	close(fd);
	/* any 1 to 8 byte run inside one doubleword */
	fd = open_bp(HW_BREAKPOINT_W, &watched, 3);
	EXPECT_LE(0, fd);
	close(fd);
	/* the length of an instruction breakpoint is forced to 4 */
	fd = open_bp(HW_BREAKPOINT_X, (void *)bp_target, 8);
	EXPECT_LE(0, fd);
	close(fd);
#endif
	fd = open_bp(HW_BREAKPOINT_RW, &watched, 8);
	EXPECT_LE(0, fd);
	close(fd);
	fd = open_bp(HW_BREAKPOINT_W, &watched, 1);
	EXPECT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
