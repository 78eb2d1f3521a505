// SPDX-License-Identifier: GPL-2.0
/*
 * Frequency mode (attr.freq): the kernel steers the sample period so that
 * samples come at attr.sample_freq per second of the event's running
 * time.  Each test samples a busy workload with PERF_SAMPLE_TIME |
 * PERF_SAMPLE_PERIOD and checks, after a settling spell, that:
 *
 * - the periods moved away from where they started (freq events start
 *   at period 1) to the one the frequency calls for: the median settled
 *   period is within a factor of SLACK of (what the event counted per
 *   second of its running time in that spell) / sample_freq;
 * - they settled: 90% of them are within a factor of 2 * SLACK of their
 *   median;
 * - the samples came at sample_freq per second of the event's running
 *   time, within a factor of SLACK (page faults only: the test PMU
 *   interrupts once per timer expiry, so when a stalled vCPU finds
 *   several expiries due at once the periods they cover give one
 *   sample, and the rate says more about the host than the steering).
 *
 * The slack is wide because guest time under QEMU TCG does not follow the
 * guest's progress on a loaded host: a vCPU the host does not run for a
 * while finds its clocks and ticks advanced in one jump, and the core's
 * steering (upstream's too) assumes each scheduler tick is TICK_NSEC of
 * steady counting.  Without the steering the periods stay at 1, and the
 * rate is the event's own rate: orders of magnitude off.
 *
 * Sources whose period the core steers from the counts it sees: minor
 * page faults (a software event; upstream steers them the same way),
 * and, on our kernel, the test PMU's tick counter (config:9), a counter
 * whose period the core reprograms through stop/start(PERF_EF_RELOAD)
 * like a hardware one.  cpu-clock and task-clock are not used: they
 * derive a fixed period from the frequency instead of steering it.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define TICKS		0x200ULL	/* test_pmu config:9 */
#define SETTLE_NS	(400 * 1000 * 1000ULL)
#define RUN_NS		(1500 * 1000 * 1000ULL)
#define SLACK		4
#define RB_PAGES	256
#define MAX_SAMPLES	16384

struct sample {
	uint64_t time, period;
};

struct freq_run {
	struct sample s[MAX_SAMPLES];
	int n, other, lost, throttled;
};

static int open_freq(int type, __u64 config, int freq)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, type, config);
	attr.freq = 1;
	attr.sample_freq = freq;
	attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING;
	/*
	 * Sample times on the clock the kernel's ticks follow: under TCG
	 * perf's default clock (sched_clock) may run at another rate.
	 */
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.disabled = 1;
	attr.exclude_kernel = type == PERF_TYPE_SOFTWARE;
	attr.wakeup_events = 1000000;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* copy the records written so far out of the buffer, and free their room */
static void drain(struct perf_event_mmap_page *pg, struct freq_run *r)
{
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, size = pg->data_size;
	char *data = (char *)pg + pg->data_offset;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t rec[4];
		size_t i;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size == sizeof(h) + 16 &&
		    r->n < MAX_SAMPLES) {
			for (i = 0; i < 16; i++)
				((char *)rec)[i] = data[(tail + sizeof(h) + i) %
							size];
			r->s[r->n].time = rec[0];
			r->s[r->n].period = rec[1];
			r->n++;
		} else if (h.type == PERF_RECORD_LOST) {
			r->lost++;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			r->throttled++;
		} else {
			r->other++;
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* page faults: map, touch and unmap 1 MiB over and over */
static void fault_some(void)
{
	touch_fresh_pages((1 << 20) / sysconf(_SC_PAGESIZE));
}

static void spin_some(void)
{
	unsigned long x = 0;
	int i;

	for (i = 0; i < 100000; i++) {
		x += i;
		asm volatile("" : "+r" (x));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Run @work for RUN_NS with @fd enabled, collecting its samples, then
 * check the rate and the periods of those after the settling spell.
 */
static void check_freq(struct __test_metadata *_metadata, int fd, int freq,
		       int check_rate, void (*work)(void))
{
	struct perf_event_mmap_page *pg;
	uint64_t t0, from = 0, first_period, *periods;
	uint64_t v0[2] = { 0 }, v1[2] = { 0 };
	double rate, want_period, median;
	struct freq_run *r;
	int i, k, n, moved = 0;

	r = calloc(1, sizeof(*r));
	ASSERT_NE(NULL, r);
	pg = perf_map_ring(fd, RB_PAGES);
	ASSERT_NE(MAP_FAILED, pg);
	t0 = now_ns();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	while (now_ns() - t0 < RUN_NS) {
		work();
		drain(pg, r);
		/* the settling spell is over: what has it counted so far */
		if (!from && now_ns() - t0 >= SETTLE_NS) {
			ASSERT_EQ(sizeof(v0), read(fd, v0, sizeof(v0)));
			from = now_ns();
		}
	}
	ASSERT_EQ(sizeof(v1), read(fd, v1, sizeof(v1)));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	drain(pg, r);
	EXPECT_EQ(0, r->lost);
	ASSERT_LT(10, r->n)
		TH_LOG("only %d samples in %llu ms", r->n,
		       (unsigned long long)(RUN_NS / 1000000));
	ASSERT_LT(v0[1], v1[1]);

	/* the settled samples: those taken after the settling spell */
	for (k = 0; k < r->n && r->s[k].time < from; k++)
		;
	n = r->n - k;
	ASSERT_LT(10, n);
	/* per second of the event's running time */
	rate = n * 1e9 / (v1[1] - v0[1]);
	want_period = (double)(v1[0] - v0[0]) / (v1[1] - v0[1]) * 1e9 / freq;
	TH_LOG("%d samples, %d settled: %.0f/s (want %d), periods %llu first, %llu last, want %.0f",
	       r->n, n, rate, freq, (unsigned long long)r->s[0].period,
	       (unsigned long long)r->s[r->n - 1].period, want_period);
	if (r->throttled)
		TH_LOG("%d throttle records, max_sample_rate %d", r->throttled,
		       read_int(SYSCTL("perf_event_max_sample_rate")));
	if (check_rate) {
		EXPECT_LE(rate, freq * SLACK);
		EXPECT_GE(rate * SLACK, freq);
	}

	/* the period was steered: it moved from where it started */
	first_period = r->s[0].period;
	for (i = k; i < r->n; i++)
		moved += r->s[i].period != first_period;
	EXPECT_LT(n / 2, moved);

	/* and it settled: within a factor of two of its median */
	periods = calloc(n, sizeof(*periods));
	ASSERT_NE(NULL, periods);
	for (i = 0; i < n; i++)
		periods[i] = r->s[k + i].period;
	qsort(periods, n, sizeof(*periods), cmp_u64);
	median = periods[n / 2];
	TH_LOG("periods: 5%% %llu, median %.0f, 95%% %llu",
	       (unsigned long long)periods[n / 20], median,
	       (unsigned long long)periods[n - 1 - n / 20]);
	/* steered to the period the frequency calls for */
	EXPECT_LE(median, want_period * SLACK);
	EXPECT_GE(median * SLACK, want_period);
	/* and settled there */
	EXPECT_LE(median, 2 * SLACK * periods[n / 20]);
	EXPECT_LE(periods[n - 1 - n / 20], 2 * SLACK * median);
	free(periods);
	perf_unmap_ring(pg, RB_PAGES);
	free(r);
}

TEST(page_faults_converge_to_freq)
{
	int fd = open_freq(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
			   1000);

	ASSERT_LE(0, fd);
	check_freq(_metadata, fd, 1000, 1, fault_some);
	close(fd);
}

TEST(test_pmu_ticks_converge_to_freq)
{
	int type = read_int(TEST_PMU_DIR "/type");
	int fd;

	if (type < 0)
		SKIP(return, "no test_pmu (CONFIG_PERF_TEST_PMU)");
	/*
	 * Rate 5: 5 counts per ns, so the period settles near 2e7, about
	 * 8 ticks: a late timer's burst of ticks loses few samples.
	 */
	fd = open_freq(type, TICKS | 5, 250);
	ASSERT_LE(0, fd);
	check_freq(_metadata, fd, 250, 0, spin_some);
	close(fd);
}

TEST_HARNESS_MAIN
