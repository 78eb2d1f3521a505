// SPDX-License-Identifier: GPL-2.0
/*
 * Ring-buffer stress: many threads sampling at once into private buffers,
 * per-CPU shared buffers (PERF_EVENT_IOC_SET_OUTPUT) and an overwrite-mode
 * backward buffer, with one reader that falls behind on purpose.
 *
 * Nothing is assumed about timing; what must hold at the end is exact:
 * - every record is well-formed: a known type, the size its type and
 *   sample_type imply, and an id that belongs to an event writing into
 *   that buffer;
 * - for every event, samples found + samples it reports lost
 *   (PERF_FORMAT_LOST) = its count (sample_period 1: every page fault is
 *   one sample attempt);
 * - for every read-write buffer, the PERF_RECORD_LOST counts in it add up
 *   to the lost samples of the events writing into it. A buffer emits its
 *   pending LOST record only with its next successful write, so each one
 *   gets a last write after being drained (the flush below).
 * perf_event_max_sample_rate is raised for the run so that no event is
 * throttled (a throttled sample is neither written nor counted lost).
 *
 * PERF_STRESS_SECONDS sets the duration (default 10).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"

#define NR_WORKERS	4
#define MAX_CPUS	8
#define MAX_EVENTS	(3 * NR_WORKERS + MAX_CPUS)
#define MAX_BUFS	(NR_WORKERS + MAX_CPUS + 1)

struct ev {
	int fd;
	__u64 id;
	int buf;		/* index into bufs[] it writes into */
	__u64 samples;		/* SAMPLE records found */
};

struct buf {
	struct rb_map rb;
	int overwrite;
	__u64 lost;		/* sum of its LOST records */
	__u64 records;
};

struct worker {
	pthread_t th;
	pid_t tid;
	int cpu;
	int done;		/* worker -> reader: stopped faulting */
	int drained;		/* reader -> worker: its buffer is empty */
	int flushed;		/* worker -> reader: last write made */
	int priv_buf;
};

static struct {
	struct ev ev[MAX_EVENTS];
	int nr_ev;
	struct buf buf[MAX_BUFS];
	int nr_buf;
	struct worker w[NR_WORKERS];
	int cpus[MAX_CPUS];
	int ncpu;
	int go, stop;
	__u64 bad, foreign, throttle;
} S;

static int add_event(int fd, int buf)
{
	struct ev *e = &S.ev[S.nr_ev];

	if (fd < 0 || S.nr_ev == MAX_EVENTS)
		return -1;
	e->fd = fd;
	e->id = perf_event_id(fd);
	e->buf = buf;
	return S.nr_ev++;
}

/* Per-record check and accounting, for the buffer passed as @arg. */
static void account(const union rb_record *rec, void *arg)
{
	int b = (int)(long)arg, i;

	S.buf[b].records++;
	if (rec->h.type == PERF_RECORD_LOST) {
		S.buf[b].lost += rec->l.lost;
		return;
	}
	if (rec->h.type != PERF_RECORD_SAMPLE) {
		S.throttle++;
		return;
	}
	for (i = 0; i < S.nr_ev; i++) {
		if (S.ev[i].id == rec->s.id) {
			if (S.ev[i].buf != b || rec->s.period != 1)
				S.foreign++;
			S.ev[i].samples++;
			return;
		}
	}
	S.foreign++;
}

static void drain(int b)
{
	struct rb_stats st = { 0 };

	rb_drain(&S.buf[b].rb, &st, account, (void *)(long)b);
	S.bad += st.bad;
}

/* The overwrite buffer, backward: whole records from data_head up. */
static void check_overwrite(int b, int evi)
{
	struct rb_map *rb = &S.buf[b].rb;
	__u64 head = rb_head(rb), used = -head, off = 0;
	union rb_record rec;
	__u16 size;

	if (used > rb->size)
		used = rb->size;
	while (off < used) {
		size = rb_check_record(rb, head + off, head + used, &rec);
		if (!size) {
			/* only the oldest, cut by the wrap, may be partial */
			if (used - off < sizeof(rec.s))
				break;
			S.bad++;
			break;
		}
		if (rec.h.type == PERF_RECORD_SAMPLE) {
			if (rec.s.id != S.ev[evi].id)
				S.foreign++;
			S.ev[evi].samples++;
		} else if (rec.h.type == PERF_RECORD_LOST) {
			S.bad++;	/* nothing is lost in overwrite mode */
		}
		off += size;
	}
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	char *last;
	int n = 0;

	pin_to_cpu(w->cpu);
	last = fresh_pages(1);
	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&S.go, __ATOMIC_ACQUIRE))
		usleep(1000);
	while (!__atomic_load_n(&S.stop, __ATOMIC_ACQUIRE)) {
		if (touch_fresh_pages(4))
			break;
		if (!(++n % 32))
			sched_yield();
	}
	/* the flush: one more write into a buffer known to be empty */
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->drained, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (last)
		__atomic_store_n(last, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->flushed, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The reader: drains every read-write buffer, now and then slowly. */
static void *reader(void *arg)
{
	int pass = 0, b, i, left;

	do {
		left = 0;
		for (b = 0; b < S.nr_buf; b++)
			if (!S.buf[b].overwrite)
				drain(b);
		for (i = 0; i < NR_WORKERS; i++) {
			struct worker *w = &S.w[i];

			if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) &&
			    !w->drained) {
				drain(w->priv_buf);
				__atomic_store_n(&w->drained, 1, __ATOMIC_RELEASE);
			}
			left += !__atomic_load_n(&w->flushed, __ATOMIC_ACQUIRE);
		}
		/* every fifth pass is slow: the buffers fill up meanwhile */
		usleep(++pass % 5 ? 2000 : 50000);
	} while (left);
	return NULL;
}

static int stress_seconds(void)
{
	const char *s = getenv("PERF_STRESS_SECONDS");

	return s && atoi(s) > 0 ? atoi(s) : 10;
}

FIXTURE(stress) {
	int rate;
};

FIXTURE_SETUP(stress)
{
	self->rate = rb_raise_sample_rate();
}

FIXTURE_TEARDOWN(stress)
{
	rb_restore_sample_rate(self->rate);
}

TEST_F_TIMEOUT(stress, samplers_and_slow_reader, 600)
{
	struct perf_event_attr attr;
	int i, c, b, fd, ovw_ev = -1, ovw_buf = -1, leader_buf[MAX_CPUS];
	__u64 count, lost, total_s = 0, total_l = 0;
	__u64 buf_lost[MAX_BUFS] = { 0 };
	pthread_t rd;
	cpu_set_t set;
	char *page;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(set), &set));
	for (c = 0; c < CPU_SETSIZE && S.ncpu < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			S.cpus[S.ncpu++] = c;

	/* per-CPU shared buffers, each with a leader event of this thread */
	for (c = 0; c < S.ncpu; c++) {
		rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS_MIN);
		fd = sys_perf_event_open(&attr, 0, S.cpus[c], -1, 0);
		ASSERT_GE(fd, 0);
		b = S.nr_buf++;
		ASSERT_EQ(0, rb_mmap(&S.buf[b].rb, fd, 4, PROT_READ | PROT_WRITE));
		leader_buf[c] = b;
		ASSERT_GE(add_event(fd, b), 0);
	}

	for (i = 0; i < NR_WORKERS; i++) {
		S.w[i].cpu = S.cpus[i % S.ncpu];
		ASSERT_EQ(0, pthread_create(&S.w[i].th, NULL, worker, &S.w[i]));
	}
	for (i = 0; i < NR_WORKERS; i++) {
		struct worker *w = &S.w[i];

		while (!__atomic_load_n(&w->tid, __ATOMIC_ACQUIRE))
			usleep(1000);
		/* a private read-write buffer, small so that it overflows */
		fd = rb_open_faults(w->tid, -1);
		ASSERT_GE(fd, 0);
		b = S.nr_buf++;
		ASSERT_EQ(0, rb_mmap(&S.buf[b].rb, fd, 2, PROT_READ | PROT_WRITE));
		w->priv_buf = b;
		ASSERT_GE(add_event(fd, b), 0);

		/* minor faults on its CPU, into that CPU's shared buffer */
		rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS_MIN);
		fd = sys_perf_event_open(&attr, w->tid, w->cpu, -1, 0);
		ASSERT_GE(fd, 0);
		for (c = 0; S.cpus[c] != w->cpu; c++)
			;
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, S.ev[c].fd));
		ASSERT_GE(add_event(fd, leader_buf[c]), 0);

		if (i)
			continue;
		/*
		 * Worker 0 also writes backward into an overwrite buffer.
		 * Context switches, not faults: upstream prepares one sample
		 * per software event occurrence and reuses it for every event
		 * of that type on the CPU, so a second page-fault sampler on
		 * the same task would get the first one's id. Switches happen
		 * in the kernel, hence no exclude_kernel here.
		 */
		rb_attr(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
		attr.exclude_kernel = 0;
		attr.write_backward = 1;
		fd = sys_perf_event_open(&attr, w->tid, -1, -1, 0);
		ASSERT_GE(fd, 0);
		ovw_buf = S.nr_buf++;
		S.buf[ovw_buf].overwrite = 1;
		ASSERT_EQ(0, rb_mmap(&S.buf[ovw_buf].rb, fd, 1, PROT_READ));
		ovw_ev = add_event(fd, ovw_buf);
		ASSERT_GE(ovw_ev, 0);
	}

	page = fresh_pages(S.ncpu);
	ASSERT_NE(NULL, page);
	for (i = 0; i < S.nr_ev; i++)
		ASSERT_EQ(0, ioctl(S.ev[i].fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pthread_create(&rd, NULL, reader, NULL));
	__atomic_store_n(&S.go, 1, __ATOMIC_RELEASE);
	sleep(stress_seconds());
	__atomic_store_n(&S.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NR_WORKERS; i++)
		pthread_join(S.w[i].th, NULL);
	pthread_join(rd, NULL);

	/* flush each shared buffer: drain it, then one write on its CPU */
	for (c = 0; c < S.ncpu; c++) {
		pin_to_cpu(S.cpus[c]);
		drain(leader_buf[c]);
		__atomic_store_n(page + c * rb_page_size(), 1, __ATOMIC_RELAXED);
	}
	for (i = 0; i < S.nr_ev; i++)
		ioctl(S.ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	for (b = 0; b < S.nr_buf; b++)
		if (!S.buf[b].overwrite)
			drain(b);
	check_overwrite(ovw_buf, ovw_ev);

	EXPECT_EQ(0, S.bad);
	EXPECT_EQ(0, S.foreign);
	EXPECT_EQ(0, S.throttle);
	for (i = 0; i < S.nr_ev; i++) {
		struct ev *e = &S.ev[i];

		ASSERT_EQ(0, rb_read_lost(e->fd, &count, &lost));
		total_s += e->samples;
		total_l += lost;
		buf_lost[e->buf] += lost;
		if (i == ovw_ev) {
			EXPECT_EQ(0, lost);
			EXPECT_LE(e->samples, count);
			continue;
		}
		EXPECT_EQ(count, e->samples + lost)
			TH_LOG("event %d (buffer %d): %llu samples, %llu lost",
			       i, e->buf, (unsigned long long)e->samples,
			       (unsigned long long)lost);
	}
	for (b = 0; b < S.nr_buf; b++) {
		if (S.buf[b].overwrite)
			continue;
		EXPECT_EQ(buf_lost[b], S.buf[b].lost)
			TH_LOG("buffer %d: LOST records say %llu", b,
			       (unsigned long long)S.buf[b].lost);
	}
	TH_LOG("%d events, %d buffers: %llu samples read, %llu lost",
	       S.nr_ev, S.nr_buf, (unsigned long long)total_s,
	       (unsigned long long)total_l);
	EXPECT_GT(total_s, 0);
}

TEST_HARNESS_MAIN
