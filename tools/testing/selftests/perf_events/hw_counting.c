// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events counted through the CPU's PMU driver: arm64's PMUv3
 * (armv8_pmuv3) and x86's core PMU (cpu: Intel architectural perfmon or
 * the AMD core PMU).
 *
 * Every test needs that PMU in sysfs and SKIPs without it. On arm64 QEMU
 * offers CPU_CYCLES always but INST_RETIRED only with -icount; the
 * instructions tests SKIP when PERF_TYPE_HARDWARE instructions is
 * refused, since the driver then still accepts raw 0x08 but nothing ever
 * counts it. On x86 the rig's emulated PMU (rig/qemu) counts every
 * instruction exactly with and without -icount, so there a missing or
 * silent instructions event is a failure, never a skip.
 *
 * Without -icount QEMU derives the cycle counter from the virtual clock,
 * so the tests for both arches assert cycle counts only as relations
 * (non-zero, growing, larger in one privilege level than the other),
 * never as amounts. The x86_* tests at the end are x86 only and assert
 * exact amounts: under -icount shift=0 the emulated PMU counts every
 * instruction exactly, one cycle per instruction (see "The emulated x86
 * PMU" in Documentation/perf_events/rig.rst). They are not meant for
 * real hardware.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "../kselftest_harness.h"
#include "perf_test.h"

/* iterations of the user-mode loop: a few tens of ms under TCG */
#define LOOP_N		2000000UL
/* iterations of the syscall loop */
#define SYSCALL_N	2000
/* no PMU has this many counters: the group tests stop here */
#define MAX_GROUP	64

#if defined(__x86_64__)

static const char * const pmu_names[] = { "cpu" };

/* Intel architectural events (and fixed counter) encodings */
#define INTEL_CYCLES		0x3c	/* UNHALTED_CORE_CYCLES, fixed 1 */
#define INTEL_INSTRUCTIONS	0xc0	/* INST_RETIRED.ANY_P, fixed 0 */
#define INTEL_REF_CYCLES	0x0300	/* pseudo-encoding of fixed 2 */
/* BR_INST_RETIRED.ALL_BRANCHES: general-purpose counters only */
#define INTEL_GP_ONLY		0xc4
/* AMD core PMU */
#define AMD_CYCLES		0x76	/* CPU clocks not halted */
#define AMD_INSTRUCTIONS	0xc0	/* retired instructions */
#define AMD_GP_ONLY		0xc2	/* retired branch instructions */

/* Is this an AMD (or Hygon) CPU? Read from /proc/cpuinfo once. */
static bool cpu_is_amd(void)
{
	static int amd = -1;
	char line[256];
	FILE *f;

	if (amd >= 0)
		return amd;
	amd = 0;
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "vendor_id", 9))
			continue;
		amd = strstr(line, "AuthenticAMD") || strstr(line, "HygonGenuine");
		break;
	}
	if (f)
		fclose(f);
	return amd;
}

#define RAW_CYCLES		(cpu_is_amd() ? AMD_CYCLES : INTEL_CYCLES)
#define RAW_INSTRUCTIONS	(cpu_is_amd() ? AMD_INSTRUCTIONS : INTEL_INSTRUCTIONS)
#define RAW_GP_ONLY		(cpu_is_amd() ? AMD_GP_ONLY : INTEL_GP_ONLY)
/* Intel's fixed counter 1 takes cycles beside the GP counters; AMD has none */
#define CYCLE_COUNTERS		(cpu_is_amd() ? 0 : 1)

#else /* arm64 */

static const char * const pmu_names[] = { "armv8_pmuv3", "armv8_pmuv3_0" };

/* architected PMUv3 event numbers */
#define ARMV8_INST_RETIRED	0x08
#define ARMV8_CPU_CYCLES	0x11
/* L1D_CACHE_REFILL: any PMUv3 takes it raw, only on an event counter */
#define ARMV8_L1D_REFILL	0x03

/* config1 bit 0 of the PMUv3 format: a 64-bit counter */
#define ARMV8_CONFIG1_LONG	1ULL

#define RAW_CYCLES		ARMV8_CPU_CYCLES
#define RAW_INSTRUCTIONS	ARMV8_INST_RETIRED
#define RAW_GP_ONLY		ARMV8_L1D_REFILL
/* the dedicated cycle counter */
#define CYCLE_COUNTERS		1

#endif

/*
 * Spin in user mode for @n iterations. The empty asm makes the counter
 * live in a register the compiler must assume changed, so the loop is
 * kept and costs a few instructions per iteration (3 on arm64 at -O2).
 */
static void user_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		asm volatile("" : "+r" (i));
}

/* Enter and leave the kernel @n times doing almost nothing there. */
static void syscall_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		syscall(__NR_getppid);
}

/* Read the first line of @dir/@file into @buf; false when it is absent. */
static bool read_sysfs(const char *dir, const char *file, char *buf,
		       size_t len)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, len, f);
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* sysfs directory of the PMUv3 PMU, or NULL when there is none */
static const char *pmu_dir(void)
{
	static char dir[128];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pmu_names); i++) {
		snprintf(dir, sizeof(dir), "/sys/bus/event_source/devices/%s",
			 pmu_names[i]);
		if (!stat(dir, &st))
			return dir;
	}
	return NULL;
}

/* The PMU's dynamic type; SKIPs the test (returning -1) without a PMUv3. */
static int require_pmu(struct __test_metadata *_metadata)
{
	const char *dir = pmu_dir();
	char buf[32];

	if (!dir)
		SKIP(return -1, "no armv8_pmuv3 PMU in sysfs");
	ASSERT_TRUE(read_sysfs(dir, "type", buf, sizeof(buf)));
	return atoi(buf);
}

static void init_attr(struct perf_event_attr *attr, __u32 type, __u64 config)
{
	perf_attr_init(attr, type, config);
	attr->disabled = 1;
}

/*
 * Open @attr on the calling task. The callers ask only for events that
 * every PMU of the kind offers once it is in sysfs (and instructions only
 * where they count), so any failure fails the test: a refusal here is
 * the kernel's, not a missing feature.
 */
static int open_offered(struct __test_metadata *_metadata,
			struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, 0);

	ASSERT_LE(0, fd) TH_LOG("type %u config %#llx: %s", attr->type,
				(unsigned long long)attr->config,
				strerror(errno));
	return fd;
}

static __u64 read_count(struct __test_metadata *_metadata, int fd)
{
	__u64 v = 0;

	ASSERT_EQ(sizeof(v), read(fd, &v, sizeof(v)));
	return v;
}

#if defined(__x86_64__)
/*
 * The emulated x86 PMU counts instructions in every boot: a test that
 * opens the event and sees nothing counted must fail, not skip.
 */
static bool instructions_count(void)
{
	return true;
}

#define NO_INSTRUCTIONS "unreachable on x86"
#else
/* Does this kernel offer an instructions event (QEMU: only with -icount)? */
static bool instructions_offered(void)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool instructions_count(void)
{
	return instructions_offered();
}

#define NO_INSTRUCTIONS "no instructions event (QEMU needs -icount)"
#endif

/*
 * A cycles event opened disabled counts nothing, counts once enabled,
 * keeps growing while enabled and stands still once disabled.
 */
static void check_cycles(struct __test_metadata *_metadata, __u32 type,
			 __u64 config)
{
	struct perf_event_attr attr;
	__u64 v0, v1, v2, v3, v4;
	int fd;

	if (require_pmu(_metadata) < 0)
		return;
	init_attr(&attr, type, config);
	attr.exclude_kernel = 1;
	fd = open_offered(_metadata, &attr);

	user_loop(LOOP_N);
	v0 = read_count(_metadata, fd);
	EXPECT_EQ(0, v0) TH_LOG("a never enabled event counted");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	user_loop(LOOP_N);
	v1 = read_count(_metadata, fd);
	EXPECT_LT(0, v1) TH_LOG("no cycles in a user loop");
	user_loop(LOOP_N);
	v2 = read_count(_metadata, fd);
	EXPECT_LT(v1, v2) TH_LOG("the count did not grow while enabled");

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v3 = read_count(_metadata, fd);
	EXPECT_LE(v2, v3) TH_LOG("the count went backwards");
	user_loop(LOOP_N);
	v4 = read_count(_metadata, fd);
	EXPECT_EQ(v3, v4) TH_LOG("the count grew while disabled");
	close(fd);
}

/*
 * User-mode instructions of a loop of LOOP_N iterations: at least one per
 * iteration, and not more than 10 (the loop body is 3 on arm64). Twice
 * the loop counts at least LOOP_N more.
 */
static void check_instructions(struct __test_metadata *_metadata, __u32 type,
			       __u64 config)
{
	struct perf_event_attr attr;
	__u64 v1, v2;
	int fd;

	if (require_pmu(_metadata) < 0)
		return;
	if (!instructions_count())
		SKIP(return, NO_INSTRUCTIONS);
	init_attr(&attr, type, config);
	attr.exclude_kernel = 1;
	fd = open_offered(_metadata, &attr);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	user_loop(LOOP_N);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v1 = read_count(_metadata, fd);
	EXPECT_LE(LOOP_N, v1);
	EXPECT_GE(10 * LOOP_N, v1);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	user_loop(2 * LOOP_N);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v2 = read_count(_metadata, fd);
	EXPECT_LE(2 * LOOP_N, v2);
	EXPECT_GE(20 * LOOP_N, v2);
	EXPECT_LE(v1 + LOOP_N, v2) TH_LOG("2N iterations: %llu, N: %llu",
					  (unsigned long long)v2,
					  (unsigned long long)v1);
	close(fd);
}

struct mode_counts {
	__u64 all;	/* no filter */
	__u64 user;	/* exclude_kernel */
	__u64 kernel;	/* exclude_user */
};

/*
 * Count @type/@config three ways at once around @body: a group keeps the
 * three on the PMU together, so they see the very same stretch of
 * execution.
 */
static void count_by_mode(struct __test_metadata *_metadata, __u32 type,
			  __u64 config, bool syscalls, struct mode_counts *c)
{
	struct perf_event_attr attr;
	struct {
		__u64 nr, enabled, running;
		__u64 val[3];
	} rd;
	int fd[3], i;

	init_attr(&attr, type, config);
	attr.read_format = PERF_FORMAT_GROUP | READ_FORMAT_TIMES;
	fd[0] = open_offered(_metadata, &attr);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	fd[1] = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
	ASSERT_LE(0, fd[1]) TH_LOG("exclude_kernel: %s", strerror(errno));
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	fd[2] = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
	ASSERT_LE(0, fd[2]) TH_LOG("exclude_user: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	if (syscalls)
		syscall_loop(SYSCALL_N);
	else
		user_loop(10 * LOOP_N);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(sizeof(rd), read(fd[0], &rd, sizeof(rd)));
	ASSERT_EQ(3, rd.nr);
	/* three counters fit any PMUv3: the group must have run throughout */
	ASSERT_LT(0, rd.running);
	EXPECT_EQ(rd.enabled, rd.running);
	c->all = rd.val[0];
	c->user = rd.val[1];
	c->kernel = rd.val[2];
	TH_LOG("%s loop: all %llu user %llu kernel %llu",
	       syscalls ? "syscall" : "user", (unsigned long long)c->all,
	       (unsigned long long)c->user, (unsigned long long)c->kernel);
	for (i = 0; i < 3; i++)
		close(fd[i]);
}

/*
 * A loop that never leaves user mode is counted by the user-only event
 * and (but for timer ticks) missed by the kernel-only one.
 */
static void check_user_loop(struct __test_metadata *_metadata, __u32 type,
			    __u64 config)
{
	struct mode_counts c;

	count_by_mode(_metadata, type, config, false, &c);
	EXPECT_LT(0, c.user);
	EXPECT_LT(c.all / 2, c.user);
	EXPECT_GT(c.all / 2, c.kernel)
		TH_LOG("exclude_user=1 kept most of a user loop");
	EXPECT_GT(c.user, c.kernel);
}

/*
 * A getppid() loop spends most of its time and instructions on kernel
 * entry and exit: the kernel-only event outcounts the user-only one.
 */
static void check_syscall_loop(struct __test_metadata *_metadata, __u32 type,
			       __u64 config)
{
	struct mode_counts c;

	count_by_mode(_metadata, type, config, true, &c);
	EXPECT_LT(0, c.kernel);
	EXPECT_LT(c.all / 2, c.kernel);
	EXPECT_GT(c.kernel, c.user)
		TH_LOG("exclude_kernel=1 kept most of a syscall loop");
}

#if defined(__aarch64__)
TEST(sysfs_format_and_events)
{
	const char *dir;
	char buf[64];
	int type;

	type = require_pmu(_metadata);
	if (type < 0)
		return;
	dir = pmu_dir();
	/* dynamic PMU types are handed out after the fixed ones */
	EXPECT_LE(PERF_TYPE_MAX, type);

	ASSERT_TRUE(read_sysfs(dir, "format/event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-15", buf);
	ASSERT_TRUE(read_sysfs(dir, "format/long", buf, sizeof(buf)));
	EXPECT_STREQ("config1:0", buf);

	ASSERT_TRUE(read_sysfs(dir, "events/cpu_cycles", buf, sizeof(buf)));
	EXPECT_STREQ("event=0x0011", buf);
	/* an event is listed exactly when the PMU implements it */
	if (instructions_offered()) {
		ASSERT_TRUE(read_sysfs(dir, "events/inst_retired", buf,
				       sizeof(buf)));
		EXPECT_STREQ("event=0x0008", buf);
	} else {
		EXPECT_FALSE(read_sysfs(dir, "events/inst_retired", buf,
					sizeof(buf)));
	}
}

#endif

TEST(hardware_cycles)
{
	check_cycles(_metadata, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
}

TEST(hardware_instructions)
{
	check_instructions(_metadata, PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(pmu_type_cycles)
{
	int type = require_pmu(_metadata);

	if (type >= 0)
		check_cycles(_metadata, type, RAW_CYCLES);
}

TEST(pmu_type_instructions)
{
	int type = require_pmu(_metadata);

	if (type >= 0)
		check_instructions(_metadata, type, RAW_INSTRUCTIONS);
}

TEST(raw_cycles)
{
	check_cycles(_metadata, PERF_TYPE_RAW, RAW_CYCLES);
}

TEST(raw_instructions)
{
	check_instructions(_metadata, PERF_TYPE_RAW, RAW_INSTRUCTIONS);
}

TEST(extended_type_cycles)
{
	int type = require_pmu(_metadata);

	if (type >= 0)
		check_cycles(_metadata, PERF_TYPE_HARDWARE,
			     (__u64)type << PERF_PMU_TYPE_SHIFT |
			     PERF_COUNT_HW_CPU_CYCLES);
}

TEST(extended_type_instructions)
{
	int type = require_pmu(_metadata);

	if (type >= 0)
		check_instructions(_metadata, PERF_TYPE_HARDWARE,
				   (__u64)type << PERF_PMU_TYPE_SHIFT |
				   PERF_COUNT_HW_INSTRUCTIONS);
}

/*
 * config[63:32] naming a PMU that is not a hardware PMU (it does not take
 * extended types): the core refuses with ENOENT rather than falling back
 * to the CPU PMU. A number no PMU has is not asserted: upstream then
 * offers the event to every PMU in turn, and the CPU PMU takes it.
 */
TEST(extended_type_bogus_enoent)
{
	static const __u64 bogus[] = { PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT,
				       PERF_TYPE_BREAKPOINT };
	struct perf_event_attr attr;
	size_t i;
	int fd;

	if (require_pmu(_metadata) < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(bogus); i++) {
		init_attr(&attr, PERF_TYPE_HARDWARE,
			  bogus[i] << PERF_PMU_TYPE_SHIFT |
			  PERF_COUNT_HW_CPU_CYCLES);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_EQ(-1, fd) TH_LOG("type %llu took a hardware event",
					 (unsigned long long)bogus[i]);
		EXPECT_EQ(ENOENT, errno);
		if (fd >= 0)
			close(fd);

		init_attr(&attr, PERF_TYPE_HW_CACHE,
			  bogus[i] << PERF_PMU_TYPE_SHIFT);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_EQ(-1, fd) TH_LOG("type %llu took a cache event",
					 (unsigned long long)bogus[i]);
		EXPECT_EQ(ENOENT, errno);
		if (fd >= 0)
			close(fd);
	}
}

TEST(cycles_user_loop_counts_in_user_mode)
{
	if (require_pmu(_metadata) >= 0)
		check_user_loop(_metadata, PERF_TYPE_HARDWARE,
				PERF_COUNT_HW_CPU_CYCLES);
}

TEST(cycles_syscall_loop_counts_in_kernel_mode)
{
	if (require_pmu(_metadata) >= 0)
		check_syscall_loop(_metadata, PERF_TYPE_HARDWARE,
				   PERF_COUNT_HW_CPU_CYCLES);
}

TEST(instructions_user_loop_counts_in_user_mode)
{
	if (require_pmu(_metadata) < 0)
		return;
	if (!instructions_count())
		SKIP(return, NO_INSTRUCTIONS);
	check_user_loop(_metadata, PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(instructions_syscall_loop_counts_in_kernel_mode)
{
	if (require_pmu(_metadata) < 0)
		return;
	if (!instructions_count())
		SKIP(return, NO_INSTRUCTIONS);
	check_syscall_loop(_metadata, PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_INSTRUCTIONS);
}

/*
 * Open group members until the driver refuses one; returns how many were
 * open then, closes them all and leaves the refusal's errno in *@err.
 * All members are enabled: upstream leaves disabled events out when it
 * checks that a group fits, so a disabled leader would let one more in.
 */
static int fill_group(struct __test_metadata *_metadata, __u32 type,
		      __u64 config, int *err)
{
	struct perf_event_attr attr;
	int fd[MAX_GROUP], n, i;

	init_attr(&attr, type, config);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	*err = 0;
	for (n = 0; n < MAX_GROUP; n++) {
		fd[n] = sys_perf_event_open(&attr, 0, -1, n ? fd[0] : -1, 0);
		if (fd[n] < 0) {
			*err = errno;
			break;
		}
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	return n;
}

/*
 * A group must fit the PMU at once: the driver refuses the member one
 * past its counters with EINVAL. Cycles also have a counter of their own
 * where there is one (arm64's cycle counter, Intel's fixed counter 1; AMD
 * has none), so a group of them holds exactly that many more than a
 * group of an event only the general-purpose counters take.
 */
TEST(group_fills_all_counters)
{
	int n_ev, n_cyc, err;

	if (require_pmu(_metadata) < 0)
		return;
	n_ev = fill_group(_metadata, PERF_TYPE_RAW, RAW_GP_ONLY, &err);
	TH_LOG("%d event counters", n_ev);
	/* a CPU PMU takes raw events: a refusal of the first is a bug */
	ASSERT_LT(0, n_ev) TH_LOG("raw %#llx refused: %s",
				  (unsigned long long)RAW_GP_ONLY, strerror(err));
	ASSERT_GT(MAX_GROUP, n_ev);
	EXPECT_EQ(EINVAL, err) TH_LOG("member %d refused with %s", n_ev + 1,
				      strerror(err));

	n_cyc = fill_group(_metadata, PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_CPU_CYCLES, &err);
	EXPECT_EQ(n_ev + CYCLE_COUNTERS, n_cyc);
	EXPECT_EQ(EINVAL, err) TH_LOG("member %d refused with %s", n_cyc + 1,
				      strerror(err));
}

/*
 * Every counter of a full group of cycles runs and counts. The members
 * are enabled from the start (see fill_group()); the group runs from the
 * leader's open on and, fitting the PMU, is never switched out.
 */
TEST(full_group_counts)
{
	struct perf_event_attr attr;
	int fd[MAX_GROUP], n, i;
	struct {
		__u64 nr, enabled, running;
		__u64 val[MAX_GROUP];
	} rd;
	ssize_t len;

	if (require_pmu(_metadata) < 0)
		return;
	init_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	attr.read_format = PERF_FORMAT_GROUP | READ_FORMAT_TIMES;
	fd[0] = open_offered(_metadata, &attr);
	for (n = 1; n < MAX_GROUP; n++) {
		fd[n] = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
		if (fd[n] < 0)
			break;
	}
	ASSERT_GT(MAX_GROUP, n);
	EXPECT_EQ(EINVAL, errno);

	user_loop(LOOP_N);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	len = read(fd[0], &rd, sizeof(rd));
	ASSERT_EQ((ssize_t)((3 + n) * sizeof(__u64)), len);
	ASSERT_EQ(n, rd.nr);
	ASSERT_LT(0, rd.running) TH_LOG("a full group never got the PMU");
	EXPECT_EQ(rd.enabled, rd.running);
	for (i = 0; i < n; i++)
		EXPECT_LT(0, rd.val[i]) TH_LOG("member %d counted nothing", i);
	for (i = 0; i < n; i++)
		close(fd[i]);
}

#if defined(__x86_64__)
/*
 * The x86 tests of exact counts. They need the emulated PMU under
 * -icount shift=0: every instruction counts, exactly once, at the
 * privilege level it started at, and cycles count one per instruction.
 */

/*
 * LOOP @n times: the loop is one instruction that retires @n times, so
 * that two calls count exactly the difference of their arguments. It is
 * called out of line only (hw_spin()), so that a sample taken in it has
 * an ip in its few bytes.
 */
static void hw_spin_loop(unsigned long n)
{
	asm volatile("1: loop 1b" : "+c" (n));
}

#define hw_spin(n)	OPAQUE(hw_spin_loop)(n)

/* hw_spin_loop()'s code is shorter than this */
#define HW_SPIN_BYTES	64

/* sampling: the period, the loop it runs over and the samples expected */
#define PERIOD		100000ULL
#define SAMPLE_LOOP	10000000UL
/* ring buffer data pages: room for every sample of the sampling tests */
#define RING_PAGES	64

/*
 * The PMU counts exact instructions here; SKIPs the test (returning
 * false) when it counts none at all, which is the emulated PMU without
 * -icount.
 */
static bool require_exact(struct __test_metadata *_metadata)
{
	if (require_pmu(_metadata) < 0)
		return false;
	if (!instructions_count())
		SKIP(return false, NO_INSTRUCTIONS);
	return true;
}

/* @fd's count over hw_spin(@n), from a reset, enabled around it only. */
static __u64 count_spin(struct __test_metadata *_metadata, int fd,
			unsigned long n)
{
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(n);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	return read_count(_metadata, fd);
}

static int open_exact(struct __test_metadata *_metadata, __u32 type,
		      __u64 config, bool user, bool kernel)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, type, config);
	attr.exclude_kernel = !kernel;
	attr.exclude_user = !user;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_LE(0, fd) TH_LOG("type %u config %#llx: %s", type,
				(unsigned long long)config, strerror(errno));
	return fd;
}

/*
 * How many general-purpose and fixed counters the CPU has (CPUID 0xA on
 * Intel; on AMD 6 with PerfCtrExtCore, 4 without, and no fixed ones).
 */
static void x86_counters(int *gp, int *fixed)
{
	unsigned int a, b, c, d;

	if (cpu_is_amd()) {
		__cpuid(0x80000001, a, b, c, d);
		*gp = c & (1U << 23) ? 6 : 4;
		*fixed = 0;
		return;
	}
	__cpuid_count(0xa, 0, a, b, c, d);
	*gp = (a >> 8) & 0xff;
	*fixed = d & 0x1f;
}

/*
 * instructions:u of a LOOP of 2e6 is exactly 1e6 more than of a LOOP of
 * 1e6, every time, through the generic event and the raw encoding; a
 * LOOP of 1e6 counts 1e6 and the few instructions around it.
 */
static void check_exact_instructions(struct __test_metadata *_metadata,
				     __u32 type, __u64 config)
{
	__u64 one, two, again;
	int fd, i;

	fd = open_exact(_metadata, type, config, true, false);
	ASSERT_LE(0, fd);
	one = count_spin(_metadata, fd, 1000000);
	TH_LOG("a LOOP of 1e6: %llu instructions:u", (unsigned long long)one);
	EXPECT_LE(1000000, one);
	EXPECT_GT(1000000 + 1000, one);
	for (i = 0; i < 4; i++) {
		two = count_spin(_metadata, fd, 2000000);
		again = count_spin(_metadata, fd, 1000000);
		EXPECT_EQ(1000000, two - again) TH_LOG("run %d: %llu - %llu", i,
						       (unsigned long long)two,
						       (unsigned long long)again);
		EXPECT_EQ(one, again);
	}
	close(fd);
}

TEST(x86_instructions_user_exact)
{
	if (require_exact(_metadata))
		check_exact_instructions(_metadata, PERF_TYPE_HARDWARE,
					 PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(x86_raw_instructions_user_exact)
{
	if (require_exact(_metadata))
		check_exact_instructions(_metadata, PERF_TYPE_RAW,
					 RAW_INSTRUCTIONS);
}

/*
 * instructions:k (exclude_user) around a LOOP of 1e6 and of 3e6: the
 * kernel's share (the ioctl paths, a timer tick or two), which does not
 * grow with the 2e6 more instructions of the user loop. A tick costs far
 * more on a debug kernel (KASAN, lockdep: 350000 instructions seen, and
 * 2.2 million once, RCU callbacks or a kmemleak scan landing in the loop),
 * so the bounds are what counting the user loop would add, not a tick's
 * cost, and each count is the least of three: the kernel's own work only
 * ever adds, while a counted user loop adds to every try.
 */
/* the least count of three count_spin()s of @n */
static __u64 least_spin(struct __test_metadata *_metadata, int fd,
			unsigned long n)
{
	__u64 least = ~0ULL, c;
	int i;

	for (i = 0; i < 3; i++) {
		c = count_spin(_metadata, fd, n);
		if (c < least)
			least = c;
	}
	return least;
}

TEST(x86_instructions_kernel_not_user)
{
	__u64 k1, k3;
	int fd;

	if (!require_exact(_metadata))
		return;
	fd = open_exact(_metadata, PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_INSTRUCTIONS, false, true);
	ASSERT_LE(0, fd);
	k1 = least_spin(_metadata, fd, 1000000);
	k3 = least_spin(_metadata, fd, 3000000);
	TH_LOG("instructions:k around LOOPs of 1e6 and 3e6: %llu, %llu",
	       (unsigned long long)k1, (unsigned long long)k3);
	EXPECT_LT(0, k1) TH_LOG("the ioctl paths counted nothing");
	EXPECT_GT(1000000, k1) TH_LOG("exclude_user counted the user loop");
	EXPECT_GT(k1 + 1000000, k3) TH_LOG("exclude_user counted the user loop");
	close(fd);
}

/*
 * Cycles, user only, count one per instruction on this model: equal to
 * instructions:u over the same LOOP, as generic events and raw ones, in
 * a group, so that both see the same stretch.
 */
static void check_cycles_eq_instructions(struct __test_metadata *_metadata,
					 __u32 type, __u64 cycles,
					 __u64 instructions)
{
	struct perf_event_attr attr;
	struct {
		__u64 nr;
		__u64 val[2];
	} rd;
	int lead, sib;

	init_attr(&attr, type, cycles);
	attr.exclude_kernel = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, lead) TH_LOG("cycles: %s", strerror(errno));
	attr.config = instructions;
	attr.disabled = 0;
	sib = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, sib) TH_LOG("instructions: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(LOOP_N);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(rd), read(lead, &rd, sizeof(rd)));
	ASSERT_EQ(2, rd.nr);
	TH_LOG("cycles:u %llu instructions:u %llu",
	       (unsigned long long)rd.val[0], (unsigned long long)rd.val[1]);
	EXPECT_LE(LOOP_N, rd.val[1]);
	EXPECT_EQ(rd.val[1], rd.val[0]);
	close(sib);
	close(lead);
}

TEST(x86_cycles_equal_instructions)
{
	if (require_exact(_metadata))
		check_cycles_eq_instructions(_metadata, PERF_TYPE_HARDWARE,
					     PERF_COUNT_HW_CPU_CYCLES,
					     PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(x86_raw_cycles_equal_instructions)
{
	if (require_exact(_metadata))
		check_cycles_eq_instructions(_metadata, PERF_TYPE_RAW,
					     RAW_CYCLES, RAW_INSTRUCTIONS);
}

/*
 * The largest group the PMU holds: an event only general-purpose
 * counters take on each of them, and on Intel instructions, cycles and
 * ref-cycles on the three fixed counters. It opens whole; one member
 * more, of any of those kinds, can never fit, so the open refuses it
 * with EINVAL. Every member then counts the same LOOP exactly: the
 * instructions and cycles members alike, and the general-purpose-only
 * members (branches) the LOOP's branches, one per iteration, and the
 * few of the ioctl() paths around it, the same for each.
 */
TEST(x86_group_fills_every_counter)
{
	struct perf_event_attr attr;
	const __u64 extra[] = { RAW_GP_ONLY, RAW_INSTRUCTIONS, RAW_CYCLES,
				INTEL_REF_CYCLES };
	int fd[MAX_GROUP], gp, fixed, ref, gp_ref, n = 0, i;
	__u64 cfg[MAX_GROUP];
	struct {
		__u64 nr, enabled, running;
		__u64 val[MAX_GROUP];
	} rd;
	ssize_t len;

	if (!require_exact(_metadata))
		return;
	x86_counters(&gp, &fixed);
	TH_LOG("%d general-purpose counters, %d fixed", gp, fixed);
	ASSERT_LT(0, gp);
	ASSERT_GT(MAX_GROUP - 4, gp);
	if (fixed) {
		gp_ref = n;
		for (i = 0; i < gp; i++)
			cfg[n++] = RAW_GP_ONLY;
		ref = n;
		cfg[n++] = RAW_INSTRUCTIONS;
		if (fixed >= 2)
			cfg[n++] = RAW_CYCLES;
		if (fixed >= 3)
			cfg[n++] = INTEL_REF_CYCLES;
	} else {
		/* AMD: every counter takes every event */
		ref = n;
		cfg[n++] = RAW_INSTRUCTIONS;
		cfg[n++] = RAW_CYCLES;
		gp_ref = n;
		while (n < gp)
			cfg[n++] = RAW_GP_ONLY;
	}

	init_attr(&attr, PERF_TYPE_RAW, 0);
	attr.exclude_kernel = 1;
	attr.read_format = PERF_FORMAT_GROUP | READ_FORMAT_TIMES;
	for (i = 0; i < n; i++) {
		attr.config = cfg[i];
		attr.disabled = !i;
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("member %d (%#llx) of %d: %s", i,
					   (unsigned long long)cfg[i], n,
					   strerror(errno));
	}
	/* one more member of any of those kinds has no counter left */
	attr.disabled = 0;
	for (i = 0; i < (fixed >= 3 ? 4 : 3); i++) {
		attr.config = extra[i];
		EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, fd[0], 0))
			TH_LOG("member %d (%#llx) opened", n + 1,
			       (unsigned long long)extra[i]);
		EXPECT_EQ(EINVAL, errno);
	}

	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(LOOP_N);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	len = read(fd[0], &rd, sizeof(rd));
	ASSERT_EQ((ssize_t)((3 + n) * sizeof(__u64)), len);
	ASSERT_EQ(n, rd.nr);
	ASSERT_LT(0, rd.running) TH_LOG("a full group never got the PMU");
	EXPECT_EQ(rd.enabled, rd.running);
	for (i = 0; i < n; i++) {
		if (cfg[i] == RAW_GP_ONLY) {
			EXPECT_LE(LOOP_N, rd.val[i]) TH_LOG("member %d", i);
			EXPECT_GT(LOOP_N + 1000, rd.val[i]) TH_LOG("member %d", i);
			EXPECT_EQ(rd.val[gp_ref], rd.val[i]) TH_LOG("member %d", i);
			continue;
		}
		EXPECT_LE(LOOP_N, rd.val[i])
			TH_LOG("member %d (%#llx)", i, (unsigned long long)cfg[i]);
		EXPECT_EQ(rd.val[ref], rd.val[i])
			TH_LOG("member %d (%#llx)", i, (unsigned long long)cfg[i]);
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
}

/*
 * More instructions:u events than the PMU has counters, each on its own:
 * the core rotates them, so each one ran for part of the time it was
 * enabled, and its count scaled by enabled/running is the LOOP's within
 * 10%. User instructions come at an even rate under icount but for the
 * kernel's interruptions: 0.2% off on the normal kernel, 5.5% on the
 * debug kernel, whose ticks are long; an event whose count is not scaled
 * is off by half or more.
 */
#define MUX_EVENTS	12
#define MUX_LOOP	100000000UL

TEST(x86_multiplex_scales)
{
	struct perf_event_attr attr;
	struct perf_value v[MUX_EVENTS];
	int fd[MUX_EVENTS], i;
	double scaled;

	if (!require_exact(_metadata))
		return;
	init_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	for (i = 0; i < MUX_EVENTS; i++) {
		fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("event %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	hw_spin(MUX_LOOP);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	for (i = 0; i < MUX_EVENTS; i++) {
		ASSERT_TRUE(perf_read_value(fd[i], &v[i]));
		scaled = v[i].running ? (double)v[i].count * v[i].enabled /
					v[i].running : 0;
		TH_LOG("event %2d: %llu, enabled %llu, running %llu: %.0f", i,
		       (unsigned long long)v[i].count,
		       (unsigned long long)v[i].enabled,
		       (unsigned long long)v[i].running, scaled);
		EXPECT_LT(0, v[i].running) TH_LOG("event %d never ran", i);
		EXPECT_LT(v[i].running, v[i].enabled)
			TH_LOG("event %d ran throughout: no rotation", i);
		EXPECT_LT(MUX_LOOP * 0.90, scaled) TH_LOG("event %d", i);
		EXPECT_GT(MUX_LOOP * 1.10, scaled) TH_LOG("event %d", i);
	}
	for (i = 0; i < MUX_EVENTS; i++)
		close(fd[i]);
}

/*
 * The samples of @fd's ring at @base (RING_PAGES data pages) so far;
 * each one's ip must lie in hw_spin_loop().
 */
static int ring_samples(struct __test_metadata *_metadata, void *base)
{
	struct perf_event_mmap_page *pg = base;
	size_t size = RING_PAGES * sysconf(_SC_PAGESIZE);
	char *data = (char *)base + sysconf(_SC_PAGESIZE);
	struct perf_event_header *h;
	__u64 head, off, ip;
	int n = 0;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	EXPECT_GT(size, head) TH_LOG("the ring wrapped");
	for (off = pg->data_tail; off < head; off += h->size) {
		h = (void *)(data + off % size);
		if (h->size == 0)
			break;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		memcpy(&ip, h + 1, sizeof(ip));
		EXPECT_LE((uintptr_t)hw_spin_loop, ip) TH_LOG("ip %#llx", ip);
		EXPECT_GT((uintptr_t)hw_spin_loop + HW_SPIN_BYTES, ip)
			TH_LOG("ip %#llx", ip);
	}
	return n;
}

/*
 * The sampling tests take a sample every 1e5 instructions, 10000 a
 * second of icount time. Earlier tests (a slow PMI under TCG) may have
 * lowered perf_event_max_sample_rate below that, and the core would then
 * throttle: the fixture raises it for the test and stops the lowering
 * (perf_cpu_time_max_percent 0). Its teardown puts both back, also after
 * a failed assertion or a crash of the test: it runs in the parent.
 */
FIXTURE(x86_sampling) {
	struct sample_limits saved;
};

FIXTURE_SETUP(x86_sampling)
{
	int ret;

	if (!require_exact(_metadata))
		return;
	if (geteuid())
		SKIP(return, "raising %s needs root", SAMPLE_RATE_PATH);
	ret = sample_limits_raise(&self->saved);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
}

FIXTURE_TEARDOWN_PARENT(x86_sampling)
{
	sample_limits_set(&self->saved);
}

static int open_sampling(struct __test_metadata *_metadata, __u64 period,
			 void **ring)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_LE(0, fd) TH_LOG("sampling instructions:u: %s", strerror(errno));
	if (fd < 0)
		return -1;
	*ring = perf_map_ring(fd, RING_PAGES);
	EXPECT_NE(MAP_FAILED, *ring);
	if (*ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Sampling instructions:u with a period of 1e5 over a LOOP of 1e7: 100
 * overflows, exactly, each a sample in the LOOP.
 */
TEST_F(x86_sampling, exact_period)
{
	void *ring;
	int fd, n;

	fd = open_sampling(_metadata, PERIOD, &ring);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(SAMPLE_LOOP);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = ring_samples(_metadata, ring);
	EXPECT_EQ(SAMPLE_LOOP / PERIOD, n);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * PERF_EVENT_IOC_REFRESH n enables a sampling event for n overflows: over
 * a LOOP of 1e7 with a period of 1e5 it takes exactly n samples, counts
 * n periods (and the instruction the PMI lands after) and is disabled
 * again, so a second LOOP adds nothing; refreshed, it samples again.
 */
TEST_F(x86_sampling, refresh_stops_after_n)
{
	void *ring;
	__u64 c1, c2;
	int fd;

	fd = open_sampling(_metadata, PERIOD, &ring);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	hw_spin(SAMPLE_LOOP);
	c1 = read_count(_metadata, fd);
	EXPECT_EQ(3, ring_samples(_metadata, ring));
	EXPECT_LE(3 * PERIOD, c1);
	EXPECT_GT(3 * PERIOD + 100, c1) TH_LOG("counted past the 3rd overflow");
	hw_spin(SAMPLE_LOOP);
	c2 = read_count(_metadata, fd);
	EXPECT_EQ(c1, c2) TH_LOG("the event ran on after its refresh count");
	EXPECT_EQ(3, ring_samples(_metadata, ring));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	hw_spin(SAMPLE_LOOP);
	EXPECT_EQ(5, ring_samples(_metadata, ring));
	TH_LOG("counts %llu, %llu, %llu", (unsigned long long)c1,
	       (unsigned long long)c2,
	       (unsigned long long)read_count(_metadata, fd));
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * PERF_EVENT_IOC_PERIOD: set before the enable, the new period is the
 * first one (2e5 over 1e7: 50 samples); set on a running event, it
 * starts a full new period at once (the 5e6 LOOP at 1e5 takes 50, the
 * next 5e6 at 2.5e5 takes 20, no more).
 */
TEST_F(x86_sampling, period_ioctl)
{
	__u64 period;
	void *ring;
	int fd;

	fd = open_sampling(_metadata, PERIOD, &ring);
	ASSERT_LE(0, fd);
	period = 2 * PERIOD;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(SAMPLE_LOOP);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(SAMPLE_LOOP / period, ring_samples(_metadata, ring));
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);

	fd = open_sampling(_metadata, PERIOD, &ring);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(SAMPLE_LOOP / 2);
	period = 5 * PERIOD / 2;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	hw_spin(SAMPLE_LOOP / 2);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(50 + 20, ring_samples(_metadata, ring));
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * read() of a group with PERF_FORMAT_GROUP | ID | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING: nr, the times, then a value and the id of each
 * member in the order they were opened. The ids are PERF_EVENT_IOC_ID's,
 * the group ran throughout, and each member's count is exact: a LOOP of
 * 2e6 counts exactly 1e6 more than one of 1e6, cycles as instructions.
 */
struct group_read {
	__u64 nr, enabled, running;
	struct {
		__u64 value, id;
	} cnt[3];
};

static void read_group_spin(struct __test_metadata *_metadata, int lead,
			    unsigned long n, struct group_read *rd)
{
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	hw_spin(n);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(*rd), read(lead, rd, sizeof(*rd)));
}

TEST(x86_read_format_group_id_times)
{
	static const __u64 cfg[3] = { PERF_COUNT_HW_INSTRUCTIONS,
				      PERF_COUNT_HW_CPU_CYCLES,
				      PERF_COUNT_HW_INSTRUCTIONS };
	struct perf_event_attr attr;
	struct group_read one, two;
	int fd[3], i;

	if (!require_exact(_metadata))
		return;
	for (i = 0; i < 3; i++) {
		init_attr(&attr, PERF_TYPE_HARDWARE, cfg[i]);
		attr.exclude_kernel = 1;
		attr.disabled = !i;
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				   READ_FORMAT_TIMES;
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("member %d: %s", i, strerror(errno));
	}
	read_group_spin(_metadata, fd[0], 1000000, &one);
	read_group_spin(_metadata, fd[0], 2000000, &two);
	ASSERT_EQ(3, two.nr);
	EXPECT_LT(0, two.running);
	EXPECT_EQ(two.enabled, two.running);
	EXPECT_LT(one.enabled, two.enabled) TH_LOG("times do not reset");
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(perf_event_id(fd[i]), two.cnt[i].id);
		EXPECT_EQ(one.cnt[i].id, two.cnt[i].id);
		EXPECT_EQ(1000000, two.cnt[i].value - one.cnt[i].value)
			TH_LOG("member %d: %llu - %llu", i,
			       (unsigned long long)two.cnt[i].value,
			       (unsigned long long)one.cnt[i].value);
		EXPECT_EQ(one.cnt[0].value, one.cnt[i].value);
	}
	/* the same layout from a member's fd: the whole group */
	ASSERT_EQ(sizeof(one), read(fd[2], &one, sizeof(one)));
	EXPECT_EQ(0, memcmp(&one, &two, sizeof(one)));
	for (i = 0; i < 3; i++)
		close(fd[i]);
}

/*
 * The sysfs files of the x86 core PMU: its fixed type (PERF_TYPE_RAW),
 * the format fields and the two events this CPU's encodings name.
 */
TEST(x86_sysfs_format_and_events)
{
	const char *dir;
	char buf[64], want[32];
	int type;

	type = require_pmu(_metadata);
	if (type < 0)
		return;
	dir = pmu_dir();
	EXPECT_EQ(PERF_TYPE_RAW, type);
	ASSERT_TRUE(read_sysfs(dir, "format/event", buf, sizeof(buf)));
	EXPECT_STREQ(cpu_is_amd() ? "config:0-7,32-35" : "config:0-7", buf);
	ASSERT_TRUE(read_sysfs(dir, "format/umask", buf, sizeof(buf)));
	EXPECT_STREQ("config:8-15", buf);
	ASSERT_TRUE(read_sysfs(dir, "format/edge", buf, sizeof(buf)));
	EXPECT_STREQ("config:18", buf);
	ASSERT_TRUE(read_sysfs(dir, "format/inv", buf, sizeof(buf)));
	EXPECT_STREQ("config:23", buf);
	ASSERT_TRUE(read_sysfs(dir, "format/cmask", buf, sizeof(buf)));
	EXPECT_STREQ("config:24-31", buf);

	ASSERT_TRUE(read_sysfs(dir, "events/cpu-cycles", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "event=0x%02x", RAW_CYCLES);
	EXPECT_STREQ(want, buf);
	ASSERT_TRUE(read_sysfs(dir, "events/instructions", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "event=0x%02x", RAW_INSTRUCTIONS);
	EXPECT_STREQ(want, buf);
}

/*
 * AnyThread (event select bit 21) exists on Intel versions 3 and 4, and
 * the driver then shows an "any" format. Where it does not (version 5
 * deprecates it: CPUID.0AH:EDX[15], the emulated PMU's case), a raw event
 * with the bit would be written into a reserved bit and fault, so it must
 * be refused at open. AMD has no such bit; its driver ignores it.
 */
TEST(x86_anythread_only_where_offered)
{
	struct perf_event_attr attr;
	char buf[64];
	bool any;
	int fd;

	if (require_pmu(_metadata) < 0)
		return;
	any = read_sysfs(pmu_dir(), "format/any", buf, sizeof(buf));
	init_attr(&attr, PERF_TYPE_RAW, RAW_INSTRUCTIONS | 1ULL << 21);
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (cpu_is_amd() || any) {
		ASSERT_LE(0, fd) TH_LOG("refused: %s", strerror(errno));
		close(fd);
		return;
	}
	EXPECT_EQ(-1, fd) TH_LOG("AnyThread accepted without an any format");
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

/*
 * Event select 0 with unit mask n + 1 is fixed counter n's pseudo-encoding
 * (reference cycles, 0x0300, goes on fixed counter 2 alone). Any other
 * event select 0 is an ordinary raw event, if one that counts nothing
 * useful: it opens and goes on a general-purpose counter, as any raw
 * event does.
 */
TEST(x86_event_select_zero_without_fixed_counter)
{
	const __u64 cfg[] = { 0x0000, 0x9000, 0x1100 };
	struct perf_event_attr attr;
	struct {
		__u64 val, enabled, running;
	} rd;
	unsigned int i;
	int fd;

	if (require_pmu(_metadata) < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		init_attr(&attr, PERF_TYPE_RAW, cfg[i]);
		attr.exclude_kernel = 1;
		attr.read_format = READ_FORMAT_TIMES;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("config %#llx refused: %s",
					(unsigned long long)cfg[i],
					strerror(errno));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		hw_spin(1000);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ((ssize_t)sizeof(rd), read(fd, &rd, sizeof(rd)));
		EXPECT_LT(0, rd.running)
			TH_LOG("config %#llx never counted",
			       (unsigned long long)cfg[i]);
		close(fd);
	}
}

#endif

#if defined(__aarch64__)
/*
 * A CPU-wide cycles event with config1 bit 0 (long) counts past 2^32 and
 * so does a 32-bit one beside it (the driver folds its overflows into
 * the 64-bit count). The CPU idles meanwhile: QEMU's cycle counter
 * follows the virtual clock, so some seconds of sleep are enough.
 */
TEST(long_counts_past_32_bits)
{
	struct perf_event_attr attr;
	struct {
		__u64 nr;
		__u64 val[2];
	} rd;
	__u64 last = 0;
	int lead, sib, i;

	if (require_pmu(_metadata) < 0)
		return;
	init_attr(&attr, PERF_TYPE_RAW, ARMV8_CPU_CYCLES);
	attr.config1 = ARMV8_CONFIG1_LONG;
	attr.read_format = PERF_FORMAT_GROUP;
	/* any PMUv3 takes it: a 64-bit counter, or a chained pair */
	lead = sys_perf_event_open(&attr, -1, 0, -1, 0);
	ASSERT_LE(0, lead) TH_LOG("long cycles: %s", strerror(errno));
	attr.config1 = 0;
	attr.disabled = 0;
	sib = sys_perf_event_open(&attr, -1, 0, lead, 0);
	ASSERT_LE(0, sib) TH_LOG("32-bit cycles: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	/* give up after a minute: a counter that stops never gets there */
	for (i = 0; i < 60; i++) {
		sleep(1);
		ASSERT_EQ(sizeof(rd), read(lead, &rd, sizeof(rd)));
		EXPECT_LE(last, rd.val[0]) TH_LOG("the long count went back");
		last = rd.val[0];
		if (rd.val[0] > (1ULL << 32) + (1ULL << 30))
			break;
	}
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(rd), read(lead, &rd, sizeof(rd)));
	TH_LOG("after %ds: long %llu, 32-bit %llu", i + 1,
	       (unsigned long long)rd.val[0], (unsigned long long)rd.val[1]);
	EXPECT_LT(1ULL << 32, rd.val[0]);
	EXPECT_LT(1ULL << 32, rd.val[1]);
	/* both ran over the same stretch: within 1/16 of each other */
	EXPECT_GT(rd.val[0] / 16, rd.val[0] > rd.val[1] ?
		  rd.val[0] - rd.val[1] : rd.val[1] - rd.val[0]);
	close(sib);
	close(lead);
}

#endif

TEST_HARNESS_MAIN
