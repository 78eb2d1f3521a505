// SPDX-License-Identifier: GPL-2.0
/*
 * Inherited contexts that stay equivalent: two threads created with an
 * inherited event both carry a copy of the creator's context.  When the
 * scheduler switches straight from one to the other on a CPU, a kernel may
 * swap the two contexts instead of taking the events off and putting them
 * back (upstream does, and so do we).  The counts and times the creator
 * reads back must not notice.
 *
 * The two threads share CPU 0 and ping-pong on a pair of pipes, so almost
 * every switch on that CPU is between them.  Each round every thread
 * faults in one fresh page: page faults with exclude_kernel are counted
 * exactly once per first touch on every kernel, and everything else the
 * threads touch is faulted in by a warm-up pass before the event is
 * enabled.  The sum over both threads is then exact by construction.
 *
 * Whether the swap happened at all shows in the samples: each thread's
 * copy of an inherited sampling event has its own id, written as
 * PERF_SAMPLE_STREAM_ID.  Without swaps a thread's samples always carry
 * the id of the copy made for it; when the two threads' contexts trade
 * places, a thread's samples carry the other copy's id from then on.
 *
 * inherit_stat asks for each exiting child's own values in a
 * PERF_RECORD_READ; 6.12 looks for the child's task only after the exit
 * has detached it, and so writes none at exit: the test asserts that.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"

#define ROUNDS		500
#define WARMUP_ROUNDS	4

struct pingpong {
	int ab[2], ba[2];	/* pipes: A writes ab, B writes ba */
	char *pages[2];		/* fresh pages of each thread */
	pthread_barrier_t start, done, stop;
};

static int open_faults(int inherit_stat, int disabled)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.disabled = disabled;
	attr.inherit = 1;
	attr.inherit_stat = inherit_stat;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* one pass: @rounds round trips, each side touching one page per round */
static void run_pass(struct pingpong *pp, int side, char *pages, int rounds)
{
	char c = 0;
	int i;

	for (i = 0; i < rounds; i++) {
		if (side == 0) {
			touch_page(pages, i);
			if (write(pp->ab[1], &c, 1) != 1 ||
			    read(pp->ba[0], &c, 1) != 1)
				break;
		} else {
			if (read(pp->ab[0], &c, 1) != 1)
				break;
			touch_page(pages, i);
			if (write(pp->ba[1], &c, 1) != 1)
				break;
		}
	}
}

struct thread_arg {
	struct pingpong *pp;
	int side;
};

static void *pingpong_thread(void *p)
{
	struct thread_arg *ta = p;
	struct pingpong *pp = ta->pp;
	char *warm;
	int pass;

	pin_to_cpu(0);
	grow_stack();
	warm = fresh_pages(WARMUP_ROUNDS);
	if (!warm)
		return NULL;
	/* pass 0 warms up every code and stack page; pass 1 is counted */
	for (pass = 0; pass < 2; pass++) {
		pthread_barrier_wait(&pp->start);
		if (pass == 0)
			run_pass(pp, ta->side, warm, WARMUP_ROUNDS);
		else
			run_pass(pp, ta->side, pp->pages[ta->side], ROUNDS);
		pthread_barrier_wait(&pp->done);
		/* nothing of the thread's exit may run while counting */
		pthread_barrier_wait(&pp->stop);
	}
	return NULL;
}

/*
 * Run the two threads through a warm-up pass with @fd disabled and a
 * counted pass with it enabled; return the value read after they exit.
 */
static int pingpong_count(int fd, struct perf_value *v)
{
	struct thread_arg ta[2];
	struct pingpong pp;
	pthread_t t[2];
	int i;

	memset(&pp, 0, sizeof(pp));
	if (pipe(pp.ab) || pipe(pp.ba))
		return -1;
	pthread_barrier_init(&pp.start, NULL, 3);
	pthread_barrier_init(&pp.done, NULL, 3);
	pthread_barrier_init(&pp.stop, NULL, 3);
	prefault_self();
	/* after prefault_self(), which would populate them */
	for (i = 0; i < 2; i++) {
		pp.pages[i] = fresh_pages(ROUNDS);
		if (!pp.pages[i])
			return -1;
	}
	for (i = 0; i < 2; i++) {
		ta[i].pp = &pp;
		ta[i].side = i;
		if (pthread_create(&t[i], NULL, pingpong_thread, &ta[i]))
			return -1;
	}
	/* warm-up: the barrier and pipe paths of this thread too */
	pthread_barrier_wait(&pp.start);
	pthread_barrier_wait(&pp.done);
	pthread_barrier_wait(&pp.stop);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pthread_barrier_wait(&pp.start);
	pthread_barrier_wait(&pp.done);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	pthread_barrier_wait(&pp.stop);

	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (!perf_read_value(fd, v))
		return -1;
	return 0;
}

TEST(pingpong_threads_inherited_sum_exact)
{
	struct perf_value v;
	int fd;

	fd = open_faults(0, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pingpong_count(fd, &v));
	/* one fresh page per round per thread, nothing else */
	EXPECT_EQ(2 * ROUNDS, v.count);
	EXPECT_LT(0, v.enabled);
	/* software events are never multiplexed, swapped or not */
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(pingpong_threads_inherit_stat_sum_exact)
{
	struct perf_value v;
	int fd;

	fd = open_faults(1, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pingpong_count(fd, &v));
	EXPECT_EQ(2 * ROUNDS, v.count);
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

/*
 * Enabled from the start: the threads' copies count from their creation
 * and, unlike the tests above, no ioctl touches the copies before they
 * switch, so the contexts stay clones for the whole run.  Thread start-up
 * faults make the sum inexact: only the lower bound is asserted, plus the
 * times.
 */
TEST(pingpong_threads_enabled_clones_count)
{
	struct perf_value v;
	int fd;

	fd = open_faults(0, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pingpong_count(fd, &v));
	EXPECT_LE(2 * ROUNDS, v.count);
	EXPECT_LT(0, v.enabled);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

/* count the records of @type in the buffer at @base */
static int count_records(void *base, long psz, int type)
{
	struct perf_event_mmap_page *pg = base;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, size = pg->data_size;
	char *data = (char *)base + pg->data_offset;
	int n = 0;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size;

		if (off + sizeof(h) > size)
			break;	/* never happens for the few records here */
		memcpy(&h, data + off, sizeof(h));
		if (!h.size)
			break;
		if (h.type == type)
			n++;
		tail += h.size;
	}
	return n;
}

#define SWAP_RB_PAGES	64

struct tid_ids {
	uint32_t tid;
	uint64_t ids[2];
	int nr_ids, samples;
};

/* note one sample of @tid from the copy @id; false if full */
static int note_sample(struct tid_ids *t, int *nr, uint32_t tid, uint64_t id)
{
	int i, j;

	for (i = 0; i < *nr && t[i].tid != tid; i++)
		;
	if (i == *nr) {
		if (i == 4)
			return 0;
		memset(&t[i], 0, sizeof(t[i]));
		t[i].tid = tid;
		(*nr)++;
	}
	t[i].samples++;
	for (j = 0; j < t[i].nr_ids && t[i].ids[j] != id; j++)
		;
	if (j == t[i].nr_ids && j < 2)
		t[i].ids[t[i].nr_ids++] = id;
	return 1;
}

/*
 * Sampling copies, enabled from the start so that the threads' contexts
 * stay clones.  Without a swap each thread is sampled only by its own
 * copy: two threads, two different single ids.  A swap from A to B hands
 * B the context that was on the CPU, so B is then sampled by A's copy;
 * if every switch swaps, both threads are sampled by that one copy and
 * nothing else.  Either a thread with two ids or an id shared by both
 * threads shows the swap.
 */
TEST(pingpong_threads_swap_trades_copies)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	struct tid_ids t[4];
	uint64_t head, tail, size;
	int fd, i, nr = 0, swapped = 0;
	pid_t self = syscall(__NR_gettid);
	struct perf_value v;
	char *data;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_STREAM_ID;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.read_format = READ_FORMAT_TIMES;
	/* an inherited event has a buffer only if bound to a CPU: CPU 0 */
	fd = sys_perf_event_open(&attr, 0, 0, -1, 0);
	ASSERT_LE(0, fd);
	pg = perf_map_ring(fd, SWAP_RB_PAGES);
	ASSERT_NE(MAP_FAILED, pg);
	ASSERT_EQ(0, pingpong_count(fd, &v));

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	size = pg->data_size;
	data = (char *)pg + pg->data_offset;
	/* 2 * ROUNDS samples of 24 bytes and a few more fit with room */
	ASSERT_LT(head - tail, size);
	while (tail < head) {
		struct perf_event_header h;
		uint32_t pt[2];
		uint64_t id;

		memcpy(&h, data + tail % size, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			memcpy(pt, data + (tail + 8) % size, sizeof(pt));
			memcpy(&id, data + (tail + 16) % size, sizeof(id));
			if (pt[1] != (uint32_t)self)
				ASSERT_TRUE(note_sample(t, &nr, pt[1], id));
		}
		tail += h.size;
	}
	/* the two threads, each sampled at least once per round */
	ASSERT_EQ(2, nr);
	for (i = 0; i < nr; i++) {
		EXPECT_LE(ROUNDS, t[i].samples);
		TH_LOG("thread %u: %d samples from %d copies, first id %llu",
		       t[i].tid, t[i].samples, t[i].nr_ids,
		       (unsigned long long)t[i].ids[0]);
		swapped += t[i].nr_ids > 1;
	}
	swapped += t[0].nr_ids == 1 && t[1].nr_ids == 1 &&
		   t[0].ids[0] == t[1].ids[0];
	EXPECT_LT(0, swapped);
	perf_unmap_ring(pg, SWAP_RB_PAGES);
	close(fd);
}

TEST(inherit_stat_no_read_record_at_exit)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	int fd, status, i;
	void *base;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	/* an inherited event can have a buffer only if bound to a CPU */
	fd = sys_perf_event_open(&attr, 0, 0, -1, 0);
	ASSERT_LE(0, fd);
	base = perf_map_ring(fd, 8);
	ASSERT_NE(MAP_FAILED, base);
	for (i = 0; i < 3; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	}
	EXPECT_EQ(0, count_records(base, psz, PERF_RECORD_READ));
	perf_unmap_ring(base, 8);
	close(fd);
}

TEST_HARNESS_MAIN
