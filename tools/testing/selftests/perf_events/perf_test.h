/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the perf_events selftests share: the perf_event_open() wrapper,
 * attr builders, reads of an event's count, ids and ring buffers, and the
 * small things around them (proc and sysfs files, CPUs, clocks, fresh
 * pages).
 *
 * Every helper is static inline, so that a test using only some of them
 * still builds warning-free with -Wall. The tests define _GNU_SOURCE
 * before any include (pin_to_cpu() needs the CPU_* macros).
 */
#ifndef PERF_EVENTS_SELFTEST_PERF_TEST_H
#define PERF_EVENTS_SELFTEST_PERF_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* si_code of the SIGTRAP an attr.sigtrap event sends (older libcs lack it) */
#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

/* a perf sysctl's file */
#define SYSCTL(name)	"/proc/sys/kernel/" name

/* our test PMU (CONFIG_PERF_TEST_PMU); kernels without it skip its tests */
#define TEST_PMU_DIR	"/sys/bus/event_source/devices/test_pmu"

/*
 * The CPU's own PMU, which PERF_TYPE_HARDWARE and PERF_TYPE_RAW events go
 * to: x86's "cpu", arm64's PMUv3 ("armv8_pmuv3", "armv8_pmuv3_0" with a
 * devicetree). Its sysfs directory, or NULL on a machine without one.
 */
static inline const char *hw_pmu_dir(void)
{
	static const char * const dirs[] = {
		"/sys/bus/event_source/devices/cpu",
		"/sys/bus/event_source/devices/armv8_pmuv3",
		"/sys/bus/event_source/devices/armv8_pmuv3_0",
		NULL
	};
	int i;

	for (i = 0; dirs[i]; i++)
		if (!access(dirs[i], F_OK))
			return dirs[i];
	return NULL;
}

/* Keep the compiler from caching or dropping memory accesses across it. */
static inline void compiler_barrier(void)
{
	asm volatile("" ::: "memory");
}

/*
 * Hide a function pointer from the optimizer, so that a call through it
 * is a real call to the one out-of-line copy, never inlined.
 */
#define OPAQUE(f) ({ __auto_type __p = (f); asm volatile("" : "+r"(__p)); __p; })

/*
 * The offset in this program's file that @addr is mapped from (for uprobe
 * events on the test's own code and data), -1 when no file maps it.
 */
static inline long self_file_offset(const void *addr)
{
	unsigned long a = (unsigned long)addr, start, end, off;
	char line[512];
	long result = -1;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 &&
		    a >= start && a < end && strchr(line, '/')) {
			result = a - start + off;
			break;
		}
	}
	fclose(f);
	return result;
}

/* perf_event_open(2), which libc does not wrap. */
static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/*
 * Our extensions (include/uapi/linux/perf_event.h, section 8), for a build
 * against a header that lacks them: upstream's kernel rejects each with
 * EINVAL.
 */
#ifndef PERF_FORMAT_LOSSES
#define PERF_FORMAT_LOSSES		0x20U
#endif
#ifndef PERF_FLAG_PID_PROCESS
#define PERF_FLAG_PID_PROCESS		0x10UL
#endif
#ifndef PERF_FLAG_SHARED_BUFFER
#define PERF_FLAG_SHARED_BUFFER		0x20UL
#endif
#ifndef PERF_EVENT_IOC_READ_THREADS
struct perf_event_thread_value {
	__u32	pid;
	__u32	tid;
	__u64	value;
};

struct perf_event_thread_values {
	__u32	nr;
	__u32	__reserved;
	struct perf_event_thread_value	values[];
};

#define PERF_EVENT_IOC_READ_THREADS	\
	_IOWR('$', 0x80, struct perf_event_thread_values)
#endif

/* Zero @attr and set its size, @type and @config: every event starts here. */
static inline void perf_attr_init(struct perf_event_attr *attr, __u32 type,
				  __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

/*
 * perf_attr_init(), opened disabled and counting user mode only
 * (exclude_kernel and exclude_hv), so that it opens unprivileged too at
 * perf_event_paranoid 2.
 */
static inline void perf_attr_user(struct perf_event_attr *attr, __u32 type,
				  __u64 config)
{
	perf_attr_init(attr, type, config);
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/*
 * Is this our kernel, with the extensions, or upstream's?  The rig says so
 * on the kernel command line (KPERF_VARIANT=ours or ref reaches us as an
 * environment variable), so that a kernel of ours that lost an extension
 * fails its test instead of passing as upstream.  Run anywhere else, the
 * kernel is asked: only ours accepts PERF_FORMAT_LOSSES.
 */
static inline bool kperf_ours(void)
{
	const char *v = getenv("KPERF_VARIANT");
	struct perf_event_attr attr;
	int fd;

	if (v)
		return !strcmp(v, "ours");
	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.read_format = PERF_FORMAT_LOSSES;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* read_format for a count with its enabled and running times */
#define READ_FORMAT_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
				 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* What read() of a lone event with READ_FORMAT_TIMES returns. */
struct perf_value {
	__u64 count;
	__u64 enabled;		/* time_enabled */
	__u64 running;		/* time_running */
};

/* read() of an event with READ_FORMAT_TIMES: true when all of it came. */
static inline bool perf_read_value(int fd, struct perf_value *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v);
}

/* read() of an event with read_format 0: its count, ~0 on failure. */
static inline __u64 perf_read_count(int fd)
{
	__u64 v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return ~0ULL;
	return v;
}

/* The event's id (PERF_EVENT_IOC_ID), 0 when the ioctl fails. */
static inline __u64 perf_event_id(int fd)
{
	__u64 id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 0;
	return id;
}

/*
 * Map @fd's ring buffer read-write: the user page and @data_pages (0 or a
 * power of two) data pages after it. MAP_FAILED on failure.
 */
static inline void *perf_map_ring(int fd, int data_pages)
{
	return mmap(NULL, (data_pages + 1) * sysconf(_SC_PAGESIZE),
		    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

/* Unmap a ring buffer perf_map_ring() mapped at @base: munmap()'s result. */
static inline int perf_unmap_ring(void *base, int data_pages)
{
	return munmap(base, (data_pages + 1) * sysconf(_SC_PAGESIZE));
}

/*
 * Walk the records of a ring perf_map_ring(@fd, @data_pages) mapped, from
 * data offset *@off, without consuming them: the tests that use it size
 * the ring so that it never fills (records past a full ring are lost, not
 * wrapped).  Returns the record at *@off and moves *@off past it; NULL at
 * data_head, or with *@bad set when the record is malformed (shorter than
 * its header, or running past data_head).
 */
static inline struct perf_event_header *
perf_ring_next(void *base, int data_pages, __u64 *off, bool *bad)
{
	struct perf_event_mmap_page *pg = base;
	long psz = sysconf(_SC_PAGESIZE);
	__u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header *h;

	if (head > (__u64)data_pages * psz) {
		*bad = true;
		return NULL;
	}
	if (*off + sizeof(*h) > head)
		return NULL;
	h = (void *)((char *)base + psz + *off);
	if (h->size < sizeof(*h) || *off + h->size > head) {
		*bad = true;
		return NULL;
	}
	*off += h->size;
	return h;
}

/* The revents of @fd right now (asking for POLLIN), -1 if poll() fails. */
static inline int poll_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 0) < 0)
		return -1;
	return pfd.revents;
}

/* Read up to @len - 1 bytes of @path into @buf, NUL-terminated: 0 or -errno. */
static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/*
 * Read the integer a file holds (a sysctl, a sysfs attribute) into *@val:
 * 0, or -errno (-EINVAL when it is not a number, maybe with a newline).
 */
static inline int read_long(const char *path, long *val)
{
	char buf[64], *end;
	int ret = read_file(path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* read_long() of a file that never holds a negative number: -1 on failure. */
static inline int read_int(const char *path)
{
	long val;

	return read_long(path, &val) ? -1 : val;
}

/*
 * Does the CPU list @flag in /proc/cpuinfo? What the CPU says it has, not
 * what perf made of it, so that a kernel that fails to drive a feature
 * fails its test instead of skipping it.
 */
static inline bool cpu_has_flag(const char *flag)
{
	char line[4096], *tok, *save;
	bool has = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok && !has;
		     tok = strtok_r(NULL, " \t\n", &save))
			has = !strcmp(tok, flag);
		break;
	}
	if (f)
		fclose(f);
	return has;
}

/*
 * The number after "@key<tabs>: " in the first CPU's /proc/cpuinfo entry
 * (cpu family, model), -1 when absent; or, with @str, whether the value
 * is @str (vendor_id).
 */
static inline long cpuinfo_field(const char *key, const char *str)
{
	char line[4096], *colon;
	long val = -1;
	size_t len = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, len) ||
		    (line[len] != ' ' && line[len] != '\t'))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			break;
		colon += strspn(colon + 1, " ") + 1;
		if (str)
			val = !strncmp(colon, str, strlen(str));
		else
			val = strtol(colon, NULL, 0);
		break;
	}
	if (f)
		fclose(f);
	return val;
}

/* Is the CPU an Intel family 6 part of one of the @n models at @models? */
static inline bool intel_model_in(const long *models, size_t n)
{
	long model;
	size_t i;

	if (cpuinfo_field("vendor_id", "GenuineIntel") != 1 ||
	    cpuinfo_field("cpu family", NULL) != 6)
		return false;
	model = cpuinfo_field("model", NULL);
	for (i = 0; i < n; i++)
		if (models[i] == model)
			return true;
	return false;
}

/*
 * Does the CPU have an LBR the kernel should drive? Arch LBR and AMD's
 * LbrExtV2 (CPUID 8000_0022H EAX[1], Zen 4 on) are in the flags; the
 * model-specific LBR of formats 3 and 4 (16 entries) and 5 (32) is not
 * enumerated, so it is the family 6 models the SDM lists with them:
 * Sandy and Ivy Bridge, Haswell and Broadwell, client and server; Skylake, Kaby/Coffee/Comet
 * Lake, Skylake-SP, Ice Lake client and server, Tiger Lake, Rocket Lake.
 */
static inline bool cpu_has_lbr(void)
{
	static const long models[] = {
		0x2a, 0x2d, 0x3a, 0x3e,
		0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56,
		0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,
		0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d, 0xa7,
	};

	if (cpu_has_flag("arch_lbr") || cpu_has_flag("amd_lbr_v2"))
		return true;
	return cpu_has_flag("pdcm") &&
	       intel_model_in(models, ARRAY_SIZE(models));
}

/* caps/@cap of the core PMU (hw_pmu_dir()): -1 when absent */
static inline int hw_pmu_cap(const char *cap)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/caps/%s", hw_pmu_dir(), cap);
	return read_int(path);
}

/* Write @str to @path in a single write(): 0, or -errno (-EIO if short). */
static inline int write_file(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(str))
		ret = -EIO;
	close(fd);
	return ret;
}

/* Write @val and a newline to @path in a single write(): 0 or -errno. */
static inline int write_long(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return write_file(path, buf);
}

/*
 * The two sysctls that bound sampling: perf_event_max_sample_rate and
 * perf_cpu_time_max_percent. A test that changes them saves them with
 * sample_limits_get() first and puts them back from its teardown.
 */
struct sample_limits {
	long rate;
	long pct;
};

#define SAMPLE_RATE_PATH	SYSCTL("perf_event_max_sample_rate")
#define SAMPLE_PCT_PATH		SYSCTL("perf_cpu_time_max_percent")

/* Read both limits into @s: 0 or -errno. */
static inline int sample_limits_get(struct sample_limits *s)
{
	return read_long(SAMPLE_RATE_PATH, &s->rate) ?:
	       read_long(SAMPLE_PCT_PATH, &s->pct);
}

/*
 * Write @s->rate, then @s->pct; a negative one stays as it is. The kernel
 * takes no new rate while the percentage is 0 or 100 (no adjustment), so
 * the percentage is 25, the default, while the rate goes in. Returns 0, or
 * the -errno of a write that failed (the percentage is written even when
 * the rate was not).
 */
static inline int sample_limits_set(const struct sample_limits *s)
{
	long pct;
	int ret = read_long(SAMPLE_PCT_PATH, &pct);

	if (ret)
		return ret;
	if (s->rate >= 0) {
		if (pct == 0 || pct == 100)
			ret = write_long(SAMPLE_PCT_PATH, 25);
		ret = ret ?: write_long(SAMPLE_RATE_PATH, s->rate);
	}
	if (s->pct >= 0)
		pct = s->pct;
	return write_long(SAMPLE_PCT_PATH, pct) ?: ret;
}

/*
 * For the tests that need every period's sample: a slow PMI under the
 * emulator (or on a loaded host) makes the kernel lower
 * perf_event_max_sample_rate, and a throttled event then takes at most a
 * sample or two per tick. Saves the limits in @saved, raises the rate
 * and stops the lowering; the caller's teardown puts @saved back. On
 * failure the limits are already back and -errno is returned (a failed
 * fixture setup has no teardown).
 */
static inline int sample_limits_raise(struct sample_limits *saved)
{
	static const struct sample_limits fast = { .rate = 100000, .pct = 0 };
	int ret = sample_limits_get(saved);

	if (ret)
		return ret;
	ret = sample_limits_set(&fast);
	if (ret)
		sample_limits_set(saved);
	return ret;
}

/*
 * sample_limits_raise() for a test that runs as root, and nothing for one
 * that does not (it cannot write the sysctls): *@raised says whether the
 * teardown must put @saved back. 0, or -errno.
 */
static inline int sample_limits_raise_as_root(struct sample_limits *saved,
					      bool *raised)
{
	int ret;

	*raised = false;
	if (geteuid())
		return 0;
	ret = sample_limits_raise(saved);
	*raised = !ret;
	return ret;
}

/* Run the calling thread on @cpu only: sched_setaffinity()'s result. */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The time of clock @clk, in nanoseconds. */
static inline __u64 clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline __u64 now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Spin until the calling thread has used @ns of CPU time. */
static inline void burn_cpu(__u64 ns)
{
	__u64 end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/* @n fresh anonymous pages, nothing touched yet; NULL on failure. */
static inline char *fresh_pages(int n)
{
	char *p = mmap(NULL, (size_t)n * sysconf(_SC_PAGESIZE),
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* One store to page @i of @pages: one page fault if the page is fresh. */
static inline void touch_page(char *pages, int i)
{
	pages[(size_t)i * sysconf(_SC_PAGESIZE)] = 1;
	compiler_barrier();
}

/*
 * Fault in @n fresh anonymous pages, exactly one fault each, and unmap
 * them again: 0, or -1 when they could not be mapped.
 */
static inline int touch_fresh_pages(int n)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = fresh_pages(n);
	int i;

	if (!p)
		return -1;
	for (i = 0; i < n; i++) {
		p[i * psz] = 1;
		/* one store per page, none merged or dropped */
		compiler_barrier();
	}
	munmap(p, n * psz);
	return 0;
}

#endif /* PERF_EVENTS_SELFTEST_PERF_TEST_H */
