// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events counted through the arm64 PMUv3 driver.
 *
 * Every test needs the armv8_pmuv3 PMU in sysfs and SKIPs without it (an
 * x86_64 guest under TCG has no PMU at all). QEMU offers CPU_CYCLES
 * always but INST_RETIRED only with -icount; the instructions tests SKIP
 * when PERF_TYPE_HARDWARE instructions is refused, since the driver then
 * still accepts raw 0x08 but nothing ever counts it.
 *
 * Without -icount QEMU derives the cycle counter from the virtual clock,
 * so cycle counts are only asserted as relations (non-zero, growing,
 * larger in one privilege level than the other), never as amounts.
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
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

/* architected PMUv3 event numbers */
#define ARMV8_INST_RETIRED	0x08
#define ARMV8_CPU_CYCLES	0x11
/* L1D_CACHE_REFILL: any PMUv3 takes it raw, only on an event counter */
#define ARMV8_L1D_REFILL	0x03

/* config1 bit 0 of the PMUv3 format: a 64-bit counter */
#define ARMV8_CONFIG1_LONG	1ULL

/* iterations of the user-mode loop: a few tens of ms under TCG */
#define LOOP_N		2000000UL
/* iterations of the syscall loop */
#define SYSCALL_N	2000
/* no PMU has this many counters: the group tests stop here */
#define MAX_GROUP	64

static const char * const pmu_names[] = { "armv8_pmuv3", "armv8_pmuv3_0" };

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

static bool not_offered(int err)
{
	return err == ENOENT || err == EOPNOTSUPP;
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
 * Open @attr on the calling task. An event the kernel does not offer
 * SKIPs the test and returns -1; any other failure fails it.
 */
static int open_or_skip(struct __test_metadata *_metadata,
			struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, 0);

	if (fd < 0 && not_offered(errno))
		SKIP(return -1, "type %u config %#llx not offered: %s",
		     attr->type, (unsigned long long)attr->config,
		     strerror(errno));
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
	fd = open_or_skip(_metadata, &attr);
	if (fd < 0)
		return;

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
	if (!instructions_offered())
		SKIP(return, "no instructions event (QEMU needs -icount)");
	init_attr(&attr, type, config);
	attr.exclude_kernel = 1;
	fd = open_or_skip(_metadata, &attr);
	if (fd < 0)
		return;

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
 * execution. Returns false (after SKIP) when the event is not offered.
 */
static bool count_by_mode(struct __test_metadata *_metadata, __u32 type,
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
	fd[0] = open_or_skip(_metadata, &attr);
	if (fd[0] < 0)
		return false;
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
	return true;
}

/*
 * A loop that never leaves user mode is counted by the user-only event
 * and (but for timer ticks) missed by the kernel-only one.
 */
static void check_user_loop(struct __test_metadata *_metadata, __u32 type,
			    __u64 config)
{
	struct mode_counts c;

	if (!count_by_mode(_metadata, type, config, false, &c))
		return;
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

	if (!count_by_mode(_metadata, type, config, true, &c))
		return;
	EXPECT_LT(0, c.kernel);
	EXPECT_LT(c.all / 2, c.kernel);
	EXPECT_GT(c.kernel, c.user)
		TH_LOG("exclude_kernel=1 kept most of a syscall loop");
}

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
		check_cycles(_metadata, type, ARMV8_CPU_CYCLES);
}

TEST(pmu_type_instructions)
{
	int type = require_pmu(_metadata);

	if (type >= 0)
		check_instructions(_metadata, type, ARMV8_INST_RETIRED);
}

TEST(raw_cycles)
{
	check_cycles(_metadata, PERF_TYPE_RAW, ARMV8_CPU_CYCLES);
}

TEST(raw_instructions)
{
	check_instructions(_metadata, PERF_TYPE_RAW, ARMV8_INST_RETIRED);
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
	if (!instructions_offered())
		SKIP(return, "no instructions event (QEMU needs -icount)");
	check_user_loop(_metadata, PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_INSTRUCTIONS);
}

TEST(instructions_syscall_loop_counts_in_kernel_mode)
{
	if (require_pmu(_metadata) < 0)
		return;
	if (!instructions_offered())
		SKIP(return, "no instructions event (QEMU needs -icount)");
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
 * past its counters with EINVAL. Cycles also have the dedicated cycle
 * counter, so a group of them holds exactly one more than a group of
 * an event only the event counters take.
 */
TEST(group_fills_all_counters)
{
	int n_ev, n_cyc, err;

	if (require_pmu(_metadata) < 0)
		return;
	n_ev = fill_group(_metadata, PERF_TYPE_RAW, ARMV8_L1D_REFILL, &err);
	if (n_ev == 0 && not_offered(err))
		SKIP(return, "raw events not offered: %s", strerror(err));
	TH_LOG("%d event counters", n_ev);
	ASSERT_LT(0, n_ev);
	ASSERT_GT(MAX_GROUP, n_ev);
	EXPECT_EQ(EINVAL, err) TH_LOG("member %d refused with %s", n_ev + 1,
				      strerror(err));

	n_cyc = fill_group(_metadata, PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_CPU_CYCLES, &err);
	EXPECT_EQ(n_ev + 1, n_cyc);
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
	fd[0] = open_or_skip(_metadata, &attr);
	if (fd[0] < 0)
		return;
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
	lead = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (lead < 0 && not_offered(errno))
		SKIP(return, "long cycles not offered: %s", strerror(errno));
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

TEST_HARNESS_MAIN
