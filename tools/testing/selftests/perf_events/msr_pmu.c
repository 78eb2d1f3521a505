// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 "msr" PMU: free-running counters read from MSRs and the TSC.
 *
 * Its sysfs entries and errnos are upstream's ABI and are checked as
 * such. Counting is checked on the tsc event, which every x86 CPU with a
 * TSC offers (QEMU TCG included), against rdtsc read by the test itself
 * on the same CPU: a count taken between an ENABLE and a read() must lie
 * between the TSC deltas of a bracket just inside those two syscalls and
 * one just outside them. The other counters are only opened and read
 * where the CPU has them.
 *
 * On other architectures there is no msr PMU: every test SKIPs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define MSR_PMU_DIR	"/sys/bus/event_source/devices/msr"

/* upstream's event numbers: attr.config, "event=0x0N" in sysfs */
static const char * const msr_event_names[] = {
	"tsc", "aperf", "mperf", "pperf", "smi", "ptsc", "irperf",
	"cpu_thermal_margin",
};

#define NR_MSR_EVENTS	ARRAY_SIZE(msr_event_names)
#define MSR_EV_TSC	0
#define MSR_EV_PPERF	3
#define MSR_EV_SMI	4
#define MSR_EV_THERM	7

#define MS		1000000ULL	/* ns */

#ifdef __x86_64__
/* The TSC, ordered after every earlier load (as the kernel reads it). */
static inline __u64 rdtsc_now(void)
{
	__u32 lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi) :: "memory");
	return ((__u64)hi << 32) | lo;
}
#else
static inline __u64 rdtsc_now(void)
{
	return 0;
}
#endif

static bool is_x86_64(void)
{
#ifdef __x86_64__
	return true;
#else
	return false;
#endif
}

/*
 * Every test gets the msr PMU's type. A missing PMU fails on x86_64,
 * where every CPU the guest can have offers at least tsc.
 */
FIXTURE(msr) {
	int type;
};

FIXTURE_SETUP(msr)
{
	if (!is_x86_64())
		SKIP(return, "no msr PMU: it is x86 only");
	self->type = read_int(MSR_PMU_DIR "/type");
	ASSERT_LT(0, self->type) TH_LOG("%s/type unreadable", MSR_PMU_DIR);
}

FIXTURE_TEARDOWN(msr)
{
}

/* Is event @id listed in events/ (the CPU has that counter)? */
static bool msr_event_listed(unsigned int id)
{
	char path[256];

	snprintf(path, sizeof(path), MSR_PMU_DIR "/events/%s",
		 msr_event_names[id]);
	return access(path, R_OK) == 0;
}

/* Open msr event @config on (@pid, @cpu) with READ_FORMAT_TIMES, disabled. */
static int open_msr(int type, __u64 config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.disabled = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* perf_event_open()'s errno for @attr on the calling task, 0 if it opened */
static int open_errno(struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* Sleep @ns of wall time, across signals. */
static void sleep_ns(__u64 ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* type, format/event and the events/ files, with upstream's strings */
TEST_F(msr, sysfs_layout)
{
	char path[256], buf[64], want[32];
	struct dirent *de;
	unsigned int id;
	DIR *dir;

	ASSERT_EQ(0, read_file(MSR_PMU_DIR "/format/event", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-63\n", buf);

	/* tsc always; print what else this CPU offers */
	ASSERT_TRUE(msr_event_listed(MSR_EV_TSC));
	for (id = 0; id < NR_MSR_EVENTS; id++) {
		if (!msr_event_listed(id))
			continue;
		snprintf(path, sizeof(path), MSR_PMU_DIR "/events/%s",
			 msr_event_names[id]);
		ASSERT_EQ(0, read_file(path, buf, sizeof(buf)));
		snprintf(want, sizeof(want), "event=0x%02x\n", id);
		EXPECT_STREQ(want, buf) TH_LOG("%s", path);
		ksft_print_msg("msr PMU offers %s\n", msr_event_names[id]);
	}

	/* the thermal reading comes with its qualifiers, and only it */
	if (msr_event_listed(MSR_EV_THERM)) {
		ASSERT_EQ(0, read_file(MSR_PMU_DIR "/events/cpu_thermal_margin.snapshot",
				       buf, sizeof(buf)));
		EXPECT_STREQ("1\n", buf);
		ASSERT_EQ(0, read_file(MSR_PMU_DIR "/events/cpu_thermal_margin.unit",
				       buf, sizeof(buf)));
		EXPECT_STREQ("C\n", buf);
	}

	/* nothing else in events/ */
	dir = opendir(MSR_PMU_DIR "/events");
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir))) {
		bool known = de->d_name[0] == '.';

		for (id = 0; id < NR_MSR_EVENTS && !known; id++)
			known = !strcmp(de->d_name, msr_event_names[id]);
		if (msr_event_listed(MSR_EV_THERM))
			known |= !strcmp(de->d_name, "cpu_thermal_margin.snapshot") ||
				 !strcmp(de->d_name, "cpu_thermal_margin.unit");
		EXPECT_TRUE(known) TH_LOG("unexpected events/%s", de->d_name);
	}
	closedir(dir);
}

/*
 * A CPU-wide tsc event on the CPU we run on counts every TSC tick from the
 * ENABLE to the read(), sleeping or not: between the inner and the outer
 * rdtsc bracket.
 */
TEST_F(msr, tsc_cpu_wide_brackets_rdtsc)
{
	__u64 outer0, inner0, inner1, outer1, t0;
	struct perf_value v;
	int type, fd;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_msr(type, MSR_EV_TSC, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	t0 = now_ns();
	outer0 = rdtsc_now();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	inner0 = rdtsc_now();
	sleep_ns(100 * MS);
	inner1 = rdtsc_now();
	ASSERT_TRUE(perf_read_value(fd, &v));
	outer1 = rdtsc_now();
	t0 = now_ns() - t0;

	EXPECT_LE(inner1 - inner0, v.count)
		TH_LOG("count %llu < inner bracket %llu",
		       (unsigned long long)v.count,
		       (unsigned long long)(inner1 - inner0));
	EXPECT_GE(outer1 - outer0, v.count)
		TH_LOG("count %llu > outer bracket %llu",
		       (unsigned long long)v.count,
		       (unsigned long long)(outer1 - outer0));
	/* a CPU event is never off its CPU: it runs for all it is enabled */
	EXPECT_EQ(v.enabled, v.running);
	EXPECT_LE(100 * MS, v.enabled);
	EXPECT_GE(t0, v.enabled);
	ksft_print_msg("tsc: %llu ticks in %llu ns (%llu MHz)\n",
		       (unsigned long long)v.count, (unsigned long long)v.enabled,
		       (unsigned long long)(v.count * 1000 / v.enabled));
	close(fd);
}

/* The same for a task event on a task that spins: no sleeping, no gaps. */
TEST_F(msr, tsc_task_busy_brackets_rdtsc)
{
	__u64 outer0, inner0, inner1, outer1;
	struct perf_value v;
	int type, fd;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_msr(type, MSR_EV_TSC, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	outer0 = rdtsc_now();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	inner0 = rdtsc_now();
	burn_cpu(50 * MS);
	inner1 = rdtsc_now();
	ASSERT_TRUE(perf_read_value(fd, &v));
	outer1 = rdtsc_now();

	/*
	 * Never more than the outer bracket. The inner one holds only if
	 * nothing preempted us: allow the guest's odd interruption.
	 */
	EXPECT_GE(outer1 - outer0, v.count);
	EXPECT_LE((inner1 - inner0) / 2, v.count)
		TH_LOG("count %llu, inner bracket %llu",
		       (unsigned long long)v.count,
		       (unsigned long long)(inner1 - inner0));
	EXPECT_LT(0, v.running);
	close(fd);
}

/*
 * A task event counts only while its task runs: 50 ms of spinning and
 * 200 ms of sleep count about a fifth of the wall TSC ticks, and the
 * ticks per ns of running time match the TSC rate a CPU event sees.
 */
TEST_F(msr, tsc_task_counts_only_while_running)
{
	struct perf_value task, cpu;
	__u64 wall0, wall;
	double rate_task, rate_cpu;
	int type, tfd, cfd;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	tfd = open_msr(type, MSR_EV_TSC, 0, -1);
	ASSERT_LE(0, tfd);
	cfd = open_msr(type, MSR_EV_TSC, -1, 0);
	ASSERT_LE(0, cfd);

	wall0 = rdtsc_now();
	ASSERT_EQ(0, ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(tfd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(50 * MS);
	sleep_ns(200 * MS);
	ASSERT_TRUE(perf_read_value(tfd, &task));
	ASSERT_TRUE(perf_read_value(cfd, &cpu));
	wall = rdtsc_now() - wall0;

	ksft_print_msg("task %llu of %llu wall ticks, running %llu of %llu ns\n",
		       (unsigned long long)task.count, (unsigned long long)wall,
		       (unsigned long long)task.running,
		       (unsigned long long)task.enabled);
	/* about 50 of 250 ms: far less than the wall ticks, yet some */
	EXPECT_GT(wall / 2, task.count);
	EXPECT_LT(wall / 20, task.count);
	/*
	 * A task context's clock stops while the task is off the CPU, so
	 * enabled is running too: about the 50 ms spun.
	 */
	EXPECT_EQ(task.enabled, task.running);
	EXPECT_LE(45 * MS, task.running);
	EXPECT_GT(150 * MS, task.running);
	ASSERT_LT(0, task.running);
	ASSERT_LT(0, cpu.enabled);

	/* the ticks it counted are those of its running time */
	rate_task = (double)task.count / task.running;
	rate_cpu = (double)cpu.count / cpu.enabled;
	EXPECT_TRUE(rate_task > 0.8 * rate_cpu && rate_task < 1.25 * rate_cpu)
		TH_LOG("%.1f ticks per running ns for the task, %.1f for the CPU",
		       rate_task, rate_cpu);
	close(tfd);
	close(cfd);
}

/* Disabled, the count stands still; enabled again, it moves on. */
TEST_F(msr, disable_stops_counting)
{
	struct perf_value a, b, c;
	__u64 outer0, outer1;
	int type, fd;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	fd = open_msr(type, MSR_EV_TSC, 0, -1);
	ASSERT_LE(0, fd);

	/* never enabled: nothing */
	ASSERT_TRUE(perf_read_value(fd, &a));
	EXPECT_EQ(0, a.count);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(10 * MS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_TRUE(perf_read_value(fd, &a));
	EXPECT_LT(0, a.count);
	burn_cpu(10 * MS);
	ASSERT_TRUE(perf_read_value(fd, &b));
	EXPECT_EQ(a.count, b.count);

	/* and counts from the new ENABLE, not from the old DISABLE */
	outer0 = rdtsc_now();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(10 * MS);
	ASSERT_TRUE(perf_read_value(fd, &c));
	outer1 = rdtsc_now();
	EXPECT_LT(b.count, c.count);
	EXPECT_GE(outer1 - outer0, c.count - b.count);

	/* RESET zeroes the count, which then grows from there */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_TRUE(perf_read_value(fd, &a));
	EXPECT_GT(c.count, a.count);
	close(fd);
}

/* Successive reads of a running event never go backwards. */
TEST_F(msr, reads_are_monotonic)
{
	__u64 prev = 0;
	struct perf_value v;
	int type, fd, i;

	type = self->type;
	fd = open_msr(type, MSR_EV_TSC, 0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 2000; i++) {
		ASSERT_TRUE(perf_read_value(fd, &v));
		ASSERT_LE(prev, v.count) TH_LOG("read %d went back", i);
		prev = v.count;
		if (i % 100 == 0)
			sched_yield();
	}
	close(fd);
}

/*
 * Every counter the CPU lists opens, both ways, and counts or reads. On
 * the Skylake, Ice Lake and Sapphire Rapids servers and clients (the rig's
 * identities among them) SMI_COUNT exists, and smi is listed whatever it
 * reads at boot: none taken yet is no reason to hide it.
 */
TEST_F(msr, every_listed_event_opens)
{
	static const long smi_models[] = { 0x4e, 0x5e, 0x55, 0x6a, 0x6c,
					   0x7d, 0x7e, 0x8f };
	struct perf_value v;
	unsigned int id;
	int type, fd;

	if (intel_model_in(smi_models, ARRAY_SIZE(smi_models)))
		EXPECT_TRUE(msr_event_listed(MSR_EV_SMI));
	type = self->type;
	for (id = 0; id < NR_MSR_EVENTS; id++) {
		if (!msr_event_listed(id)) {
			/* absent counters are refused, as upstream: EINVAL */
			fd = open_msr(type, id, 0, -1);
			EXPECT_EQ(-1, fd) TH_LOG("%s opened", msr_event_names[id]);
			EXPECT_EQ(EINVAL, errno);
			if (fd >= 0)
				close(fd);
			continue;
		}
		fd = open_msr(type, id, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("%s on CPU 0: %s", msr_event_names[id],
					strerror(errno));
		close(fd);
		fd = open_msr(type, id, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("%s per task: %s", msr_event_names[id],
					strerror(errno));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		burn_cpu(5 * MS);
		ASSERT_TRUE(perf_read_value(fd, &v));
		ksft_print_msg("%s: %llu\n", msr_event_names[id],
			       (unsigned long long)v.count);
		/*
		 * The thermal margin is a reading. SMIs may not happen in
		 * 5 ms, and a hypervisor may give PPERF as 0 (the rig's QEMU
		 * does): both are listed anyway, as upstream lists them. The
		 * rest count up.
		 */
		if (id != MSR_EV_THERM && id != MSR_EV_SMI &&
		    id != MSR_EV_PPERF)
			EXPECT_LT(0, v.count) TH_LOG("%s", msr_event_names[id]);
		close(fd);
	}
}

/* No interrupt, so no sampling: EINVAL, by period or by frequency. */
TEST_F(msr, sampling_refused)
{
	struct perf_event_attr attr;
	int type;

	type = self->type;
	perf_attr_init(&attr, type, MSR_EV_TSC);
	attr.sample_period = 100000;
	EXPECT_EQ(EINVAL, open_errno(&attr));

	perf_attr_init(&attr, type, MSR_EV_TSC);
	attr.freq = 1;
	attr.sample_freq = 100;
	EXPECT_EQ(EINVAL, open_errno(&attr));
}

/* Free-running counters cannot leave out a privilege level: EINVAL. */
TEST_F(msr, exclude_bits_refused)
{
	struct perf_event_attr attr;
	int type, bit;

	type = self->type;
	for (bit = 0; bit < 6; bit++) {
		perf_attr_init(&attr, type, MSR_EV_TSC);
		switch (bit) {
		case 0:
			attr.exclude_user = 1;
			break;
		case 1:
			attr.exclude_kernel = 1;
			break;
		case 2:
			attr.exclude_hv = 1;
			break;
		case 3:
			attr.exclude_idle = 1;
			break;
		case 4:
			attr.exclude_host = 1;
			break;
		case 5:
			attr.exclude_guest = 1;
			break;
		}
		EXPECT_EQ(EINVAL, open_errno(&attr)) TH_LOG("exclude bit %d", bit);
	}
	/* and with none of them it opens */
	perf_attr_init(&attr, type, MSR_EV_TSC);
	EXPECT_EQ(0, open_errno(&attr));
}

/* A config that names no counter: EINVAL, as upstream. */
TEST_F(msr, bad_config_refused)
{
	struct perf_event_attr attr;
	int type;

	type = self->type;
	perf_attr_init(&attr, type, NR_MSR_EVENTS);
	EXPECT_EQ(EINVAL, open_errno(&attr));
	perf_attr_init(&attr, type, 1ULL << 32);
	EXPECT_EQ(EINVAL, open_errno(&attr));
	perf_attr_init(&attr, type, ~0ULL);
	EXPECT_EQ(EINVAL, open_errno(&attr));
}

/*
 * Two tsc events in one group are scheduled and read together: a group
 * read returns both, each within the rdtsc bracket around the group's
 * ENABLE and read.  The sibling is opened enabled 10 ms before the
 * leader is; a sibling that counted on its own would read about twice
 * the leader, so a 10% bound tells the two apart while leaving room for
 * an emulator that stalls between the two counters' starts.
 */
TEST_F(msr, group_read)
{
	struct perf_event_attr attr;
	__u64 buf[3], outer0, outer1, diff;
	int type, lfd, fd;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	perf_attr_init(&attr, type, MSR_EV_TSC);
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	lfd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, lfd);
	perf_attr_init(&attr, type, MSR_EV_TSC);
	fd = sys_perf_event_open(&attr, 0, -1, lfd, 0);
	ASSERT_LE(0, fd) TH_LOG("tsc sibling: %s", strerror(errno));
	burn_cpu(10 * MS);

	outer0 = rdtsc_now();
	ASSERT_EQ(0, ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(10 * MS);
	ASSERT_EQ(sizeof(buf), read(lfd, buf, sizeof(buf)));
	outer1 = rdtsc_now();
	EXPECT_EQ(2, buf[0]);
	EXPECT_LT(0, buf[1]);
	EXPECT_LT(0, buf[2]);
	EXPECT_GE(outer1 - outer0, buf[1]);
	EXPECT_GE(outer1 - outer0, buf[2]);
	/* started and read together, not one 10 ms ahead of the other */
	diff = buf[1] > buf[2] ? buf[1] - buf[2] : buf[2] - buf[1];
	EXPECT_GT(buf[1] / 10, diff)
		TH_LOG("leader %llu, sibling %llu", (unsigned long long)buf[1],
		       (unsigned long long)buf[2]);
	close(fd);
	close(lfd);
}

/*
 * An inherited tsc event: the child's copy counts while the child runs
 * and folds its ticks back into the parent's count when the child exits.
 */
TEST_F(msr, inherit_folds_child_ticks)
{
	struct perf_event_attr attr;
	__u64 before, after, child_ticks = 0;
	int type, fd, status, pfd[2];
	pid_t pid;

	type = self->type;
	ASSERT_EQ(0, pin_to_cpu(0));
	perf_attr_init(&attr, type, MSR_EV_TSC);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("inherited tsc: %s", strerror(errno));

	ASSERT_EQ(0, pipe(pfd));
	before = perf_read_count(fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		__u64 t0 = rdtsc_now();

		burn_cpu(50 * MS);
		t0 = rdtsc_now() - t0;
		_exit(write(pfd[1], &t0, sizeof(t0)) != sizeof(t0));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(sizeof(child_ticks), read(pfd[0], &child_ticks,
					    sizeof(child_ticks)));
	after = perf_read_count(fd);
	/* the child's spin is in (less what preemption took from it) */
	EXPECT_LE(child_ticks / 2, after - before)
		TH_LOG("count grew by %llu, the child spun %llu ticks",
		       (unsigned long long)(after - before),
		       (unsigned long long)child_ticks);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

TEST_HARNESS_MAIN
