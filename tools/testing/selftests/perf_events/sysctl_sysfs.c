// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls under /proc/sys/kernel and the PMU devices under
 * /sys/bus/event_source/devices: default values, what writes are refused,
 * and the attributes each built-in PMU shows.
 *
 * Every test that writes a value restores the previous one in its fixture
 * teardown, which the harness runs even when an assertion failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define PMUS		"/sys/bus/event_source/devices"

/* PERF_TYPE_BREAKPOINT is fixed ABI; the dynamic types start after it */
#define FIRST_DYNAMIC_TYPE	PERF_TYPE_MAX

/* ---- defaults ---- */

/*
 * Is a kernel option set?  From /proc/config.gz (CONFIG_IKCONFIG_PROC,
 * which the rig's configs turn on), read with zcat; false without it.
 */
static bool kconfig_set(const char *opt)
{
	char cmd[160], line[256];
	bool set = false;
	FILE *f;

	if (access("/proc/config.gz", R_OK))
		return false;
	snprintf(cmd, sizeof(cmd), "zcat /proc/config.gz 2>/dev/null");
	f = popen(cmd, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, opt, strlen(opt)) &&
		    !strcmp(line + strlen(opt), "=y\n"))
			set = true;
	pclose(f);
	return set;
}

/*
 * 2 upstream; 3 with Debian's CONFIG_SECURITY_PERF_EVENTS_RESTRICT (no
 * unprivileged use at all), which the rig's configs turn on as Debian's
 * kernels do.
 */
TEST(default_perf_event_paranoid)
{
	bool restricted = kconfig_set("CONFIG_SECURITY_PERF_EVENTS_RESTRICT");
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_event_paranoid"), &v));
	EXPECT_EQ(restricted ? 3 : 2, v);
}

/* 512 KiB plus one page for the user page of the buffer. */
TEST(default_perf_event_mlock_kb)
{
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_event_mlock_kb"), &v));
	EXPECT_EQ(512 + sysconf(_SC_PAGESIZE) / 1024, v);
}

/*
 * 100000 at boot; the kernel lowers it on its own when sampling interrupts
 * take too long (and may have done so already for an earlier test on a
 * slow emulated CPU), and never raises it: any value in 1..100000.
 */
TEST(default_perf_event_max_sample_rate)
{
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_event_max_sample_rate"), &v));
	EXPECT_LE(1, v);
	EXPECT_GE(100000, v);
}

TEST(default_perf_cpu_time_max_percent)
{
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_cpu_time_max_percent"), &v));
	EXPECT_EQ(25, v);
}

TEST(default_perf_event_max_stack)
{
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_event_max_stack"), &v));
	EXPECT_EQ(PERF_MAX_STACK_DEPTH, v);
	EXPECT_EQ(127, v);
}

TEST(default_perf_event_max_contexts_per_stack)
{
	long v;

	ASSERT_EQ(0, read_long(SYSCTL("perf_event_max_contexts_per_stack"), &v));
	EXPECT_EQ(PERF_MAX_CONTEXTS_PER_STACK, v);
	EXPECT_EQ(8, v);
}

/* ---- writes ---- */

/*
 * Saves the sysctls a write test may change and puts them back, in an
 * order that keeps every write legal (max_sample_rate cannot be written
 * while cpu_time_max_percent is 0 or 100).
 */
static const char * const saved_names[] = {
	SYSCTL("perf_cpu_time_max_percent"),
	SYSCTL("perf_event_max_sample_rate"),
	SYSCTL("perf_event_max_stack"),
	SYSCTL("perf_event_max_contexts_per_stack"),
	SYSCTL("perf_event_mlock_kb"),
};

#define NR_SAVED ARRAY_SIZE(saved_names)

FIXTURE(sysctl) {
	long saved[NR_SAVED];
	bool have[NR_SAVED];
	int perf_fd;
};

FIXTURE_SETUP(sysctl)
{
	unsigned int i;

	self->perf_fd = -1;
	if (getuid() != 0)
		SKIP(return, "needs root to write sysctls");
	for (i = 0; i < NR_SAVED; i++)
		self->have[i] = !read_long(saved_names[i], &self->saved[i]);
}

FIXTURE_TEARDOWN(sysctl)
{
	unsigned int i;
	long now;

	if (self->perf_fd >= 0)
		close(self->perf_fd);
	/* the percentage first, so that the sample rate is writable */
	if (self->have[0] && !read_long(saved_names[0], &now) &&
	    (now == 0 || now == 100))
		write_long(saved_names[0], self->saved[0]);
	for (i = 1; i < NR_SAVED; i++)
		if (self->have[i])
			EXPECT_EQ(0, write_long(saved_names[i], self->saved[i]));
	if (self->have[0])
		EXPECT_EQ(0, write_long(saved_names[0], self->saved[0]));
}

/* A write of @val to @name fails with @err and leaves the value alone. */
static void expect_refused(struct __test_metadata *_metadata,
			   const char *name, const char *val, int err)
{
	long before, after;

	ASSERT_EQ(0, read_long(name, &before));
	EXPECT_EQ(-err, write_file(name, val)) {
		TH_LOG("writing %s to %s", val, name);
	}
	ASSERT_EQ(0, read_long(name, &after));
	EXPECT_EQ(before, after);
}

static void expect_accepted(struct __test_metadata *_metadata,
			    const char *name, long val)
{
	long now;

	ASSERT_EQ(0, write_long(name, val)) {
		TH_LOG("writing %ld to %s", val, name);
	}
	ASSERT_EQ(0, read_long(name, &now));
	EXPECT_EQ(val, now);
}

TEST_F(sysctl, cpu_time_max_percent_range)
{
	const char *name = SYSCTL("perf_cpu_time_max_percent");

	expect_refused(_metadata, name, "101\n", EINVAL);
	expect_refused(_metadata, name, "-1\n", EINVAL);
	expect_refused(_metadata, name, "1000000\n", EINVAL);
	expect_accepted(_metadata, name, 50);
	expect_accepted(_metadata, name, 1);
	expect_accepted(_metadata, name, 100);
	expect_accepted(_metadata, name, 0);
}

TEST_F(sysctl, max_sample_rate_range)
{
	const char *name = SYSCTL("perf_event_max_sample_rate");

	expect_refused(_metadata, name, "0\n", EINVAL);
	expect_refused(_metadata, name, "-5\n", EINVAL);
	expect_accepted(_metadata, name, 1);
	expect_accepted(_metadata, name, 50000);
	expect_accepted(_metadata, name, 200000);
}

/* With throttling disabled (0 or 100 percent) the rate is frozen. */
TEST_F(sysctl, max_sample_rate_frozen_without_throttling)
{
	const char *rate = SYSCTL("perf_event_max_sample_rate");
	const char *pct = SYSCTL("perf_cpu_time_max_percent");

	expect_accepted(_metadata, pct, 100);
	expect_refused(_metadata, rate, "5000\n", EINVAL);
	expect_accepted(_metadata, pct, 0);
	expect_refused(_metadata, rate, "5000\n", EINVAL);
	expect_accepted(_metadata, pct, 25);
	expect_accepted(_metadata, rate, 5000);
}

TEST_F(sysctl, max_stack_range)
{
	const char *name = SYSCTL("perf_event_max_stack");

	expect_refused(_metadata, name, "-1\n", EINVAL);
	expect_refused(_metadata, name, "655361\n", EINVAL);
	expect_accepted(_metadata, name, 0);
	expect_accepted(_metadata, name, 64);
	expect_accepted(_metadata, name, 655360);
}

TEST_F(sysctl, max_contexts_per_stack_range)
{
	const char *name = SYSCTL("perf_event_max_contexts_per_stack");

	expect_refused(_metadata, name, "-1\n", EINVAL);
	expect_refused(_metadata, name, "1001\n", EINVAL);
	expect_accepted(_metadata, name, 0);
	expect_accepted(_metadata, name, 1000);
	expect_accepted(_metadata, name, 8);
}

/* An event with callchains pins both stack limits: writes get EBUSY. */
TEST_F(sysctl, stack_limits_busy_with_callchain_event)
{
	const char *stack = SYSCTL("perf_event_max_stack");
	const char *ctxs = SYSCTL("perf_event_max_contexts_per_stack");
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	self->perf_fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, self->perf_fd);

	expect_refused(_metadata, stack, "100\n", EBUSY);
	expect_refused(_metadata, ctxs, "4\n", EBUSY);
	/* an out-of-range value is refused before the busy check */
	expect_refused(_metadata, stack, "-1\n", EINVAL);

	close(self->perf_fd);
	self->perf_fd = -1;
	expect_accepted(_metadata, stack, 100);
	expect_accepted(_metadata, ctxs, 4);
}

/* The number of kiB an unprivileged user may lock is any int. */
TEST_F(sysctl, mlock_kb_writable)
{
	const char *name = SYSCTL("perf_event_mlock_kb");

	expect_accepted(_metadata, name, 1024);
	expect_accepted(_metadata, name, 0);
	expect_refused(_metadata, name, "abc\n", EINVAL);
}

/* ---- sysfs ---- */

static long pmu_type(const char *pmu)
{
	char path[PATH_MAX];
	long v;

	snprintf(path, sizeof(path), PMUS "/%s/type", pmu);
	return read_long(path, &v) ? -1 : v;
}

static bool pmu_has(const char *pmu, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PMUS "/%s/%s", pmu, file);
	return access(path, F_OK) == 0;
}

static int pmu_mode(const char *pmu, const char *file)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), PMUS "/%s/%s", pmu, file);
	if (stat(path, &st))
		return -1;
	return st.st_mode & 0777;
}

TEST(sysfs_fixed_types)
{
	EXPECT_EQ(PERF_TYPE_SOFTWARE, pmu_type("software"));
	EXPECT_EQ(1, pmu_type("software"));
	EXPECT_EQ(PERF_TYPE_TRACEPOINT, pmu_type("tracepoint"));
	EXPECT_EQ(2, pmu_type("tracepoint"));
	EXPECT_EQ(PERF_TYPE_BREAKPOINT, pmu_type("breakpoint"));
	EXPECT_EQ(5, pmu_type("breakpoint"));
}

TEST(sysfs_kprobe_dynamic_type)
{
	char buf[64];
	long type = pmu_type("kprobe");

	EXPECT_LE(FIRST_DYNAMIC_TYPE, type);
	EXPECT_EQ(6, FIRST_DYNAMIC_TYPE);
	ASSERT_EQ(0, read_file(PMUS "/kprobe/format/retprobe", buf, sizeof(buf)));
	EXPECT_STREQ("config:0\n", buf);
}

/* Every PMU device has a type, and no two share one. */
TEST(sysfs_types_unique)
{
	long types[64];
	int n = 0, i, j;
	struct dirent *de;
	DIR *d = opendir(PMUS);

	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ASSERT_GT(64, n);
		types[n] = pmu_type(de->d_name);
		EXPECT_LE(0, types[n]) {
			TH_LOG("%s has no readable type", de->d_name);
		}
		n++;
	}
	closedir(d);
	EXPECT_LE(4, n);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			EXPECT_NE(types[i], types[j]);
}

/* The clock PMUs behind software types 0 and 1 have no device. */
TEST(sysfs_no_clock_pmu_devices)
{
	EXPECT_FALSE(pmu_has("cpu_clock", "type"));
	EXPECT_FALSE(pmu_has("task_clock", "type"));
}

/*
 * The core's attributes on each built-in PMU: type (read-only) and the
 * multiplexing interval (root-writable); no address filters and no
 * cpumask, since none of these PMUs has either; and no format/ directory
 * except kprobe's.
 */
TEST(sysfs_builtin_pmu_attributes)
{
	static const char * const pmus[] = {
		"software", "tracepoint", "breakpoint", "kprobe",
	};
	char path[PATH_MAX];
	long mux, first_mux = -1;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		const char *p = pmus[i];

		TH_LOG("pmu %s", p);
		EXPECT_EQ(0444, pmu_mode(p, "type"));
		EXPECT_EQ(0644, pmu_mode(p, "perf_event_mux_interval_ms"));
		snprintf(path, sizeof(path), PMUS "/%s/perf_event_mux_interval_ms", p);
		ASSERT_EQ(0, read_long(path, &mux));
		EXPECT_LE(1, mux);
		/* all registered with the default interval */
		if (first_mux < 0)
			first_mux = mux;
		EXPECT_EQ(first_mux, mux);
		EXPECT_FALSE(pmu_has(p, "nr_addr_filters"));
		EXPECT_FALSE(pmu_has(p, "cpumask"));
		EXPECT_EQ(!strcmp(p, "kprobe"), pmu_has(p, "format"));
	}
}

FIXTURE(mux) {
	long saved;
	bool restore;
};

FIXTURE_SETUP(mux)
{
	self->restore = false;
	if (getuid() != 0)
		SKIP(return, "needs root to write sysfs");
	ASSERT_EQ(0, read_long(PMUS "/software/perf_event_mux_interval_ms",
			       &self->saved));
	self->restore = true;
}

FIXTURE_TEARDOWN(mux)
{
	if (self->restore)
		EXPECT_EQ(0, write_long(PMUS "/software/perf_event_mux_interval_ms",
					self->saved));
}

TEST_F(mux, interval_write)
{
	const char *name = PMUS "/software/perf_event_mux_interval_ms";
	long v;

	expect_refused(_metadata, name, "0\n", EINVAL);
	expect_refused(_metadata, name, "-3\n", EINVAL);
	expect_refused(_metadata, name, "abc\n", EINVAL);
	expect_accepted(_metadata, name, 10);
	expect_accepted(_metadata, name, 1);
	/* kstrtoint with base 0: hexadecimal is taken */
	ASSERT_EQ(0, write_file(name, "0x20\n"));
	ASSERT_EQ(0, read_long(name, &v));
	EXPECT_EQ(32, v);
}

TEST_HARNESS_MAIN
