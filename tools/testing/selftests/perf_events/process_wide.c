// SPDX-License-Identifier: GPL-2.0
/*
 * Our extensions W4 and W5 (include/uapi/linux/perf_event.h, section 8):
 *
 * PERF_FLAG_PID_PROCESS: one event counts in every thread of the process
 * @pid names, those there at the open and those created later; a new
 * process made by fork() gets it only with attr.inherit.  Samples of every
 * thread go to the one buffer, each with its thread's tid.
 *
 * PERF_FLAG_SHARED_BUFFER: an inherited event with cpu == -1 may be mapped;
 * writers on every CPU share the buffer without tearing a record, and what
 * did not fit is counted.
 *
 * The workload is page faults, which the kernel counts exactly: each
 * thread touches PAGES fresh pages, one fault each.  Upstream has neither
 * flag, and each test checks that it says EINVAL there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"
#include "ext_common.h"

#define THREADS		6
#define PAGES		64

/* Threads that wait at a gate, fault PAGES pages each, then wait to go. */
struct crew {
	pthread_t t[THREADS];
	pid_t tid[THREADS];
	int nr;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int gate;		/* 1: fault; 2: exit */
	int faulted;
	int done;		/* tid_member()s past their faults */
};

static void crew_wait(struct crew *c, int gate)
{
	pthread_mutex_lock(&c->lock);
	while (c->gate < gate)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

static void crew_open(struct crew *c, int gate)
{
	pthread_mutex_lock(&c->lock);
	c->gate = gate;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/*
 * One more member at a milestone (@n: faulted or done); with @tid, it goes
 * into c->tid[] at the member's place in that count.
 */
static void crew_count(struct crew *c, int *n, pid_t tid)
{
	pthread_mutex_lock(&c->lock);
	if (tid)
		c->tid[*n] = tid;
	(*n)++;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static void *crew_member(void *arg)
{
	struct crew *c = arg;

	crew_wait(c, 1);
	touch_fresh_pages(PAGES);
	crew_count(c, &c->faulted, 0);
	crew_wait(c, 2);
	return NULL;
}

static int crew_spawn(struct crew *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&c->t[c->nr++], NULL, crew_member, c))
			return -1;
	return 0;
}

/* wait until @n members have reached the milestone @n counts */
static void crew_await(struct crew *c, int *n, int members)
{
	pthread_mutex_lock(&c->lock);
	while (*n < members)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

/* let the crew fault and wait until all of it has */
static void crew_fault(struct crew *c)
{
	crew_open(c, 1);
	crew_await(c, &c->faulted, c->nr);
}

static void crew_end(struct crew *c)
{
	crew_open(c, 2);
	while (c->nr)
		pthread_join(c->t[--c->nr], NULL);
}

static void crew_init(struct crew *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
}

static void *tid_member(void *arg);
static int crew_spawn_tids(struct crew *c);

/* user-mode page faults of this process */
static void fault_attr(struct perf_event_attr *attr)
{
	perf_attr_user(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr->disabled = 0;
}

/*
 * Threads there before the open, threads created after it, and threads
 * that already exited when the count is read: all are in the one count.
 */
TEST(counts_every_thread)
{
	struct perf_event_attr attr;
	struct crew before, after;
	__u64 count;
	int fd;

	crew_init(&before);
	crew_init(&after);
	ASSERT_EQ(0, crew_spawn(&before, THREADS / 2));
	fault_attr(&attr);
	fd = open_ext(_metadata, &attr, getpid(), -1, -1, PERF_FLAG_PID_PROCESS);
	if (fd < 0) {
		crew_end(&before);
		return;
	}
	ASSERT_EQ(0, crew_spawn(&after, THREADS / 2));
	crew_fault(&before);
	crew_fault(&after);
	/* the first crew exits: its counts fold into the event */
	crew_end(&before);
	count = perf_read_count(fd);
	crew_end(&after);

	/* the main thread faults a little too (stacks, the crew's exits) */
	EXPECT_LE(THREADS * PAGES, count);
	EXPECT_GE(THREADS * PAGES + 64, count) TH_LOG("count %llu", count);
	close(fd);
}

/* Disabling the event stops every thread's copy; enabling restarts them. */
TEST(ioctl_reaches_every_thread)
{
	struct perf_event_attr attr;
	struct crew c;
	__u64 count;
	int fd;

	crew_init(&c);
	ASSERT_EQ(0, crew_spawn(&c, THREADS));
	fault_attr(&attr);
	fd = open_ext(_metadata, &attr, getpid(), -1, -1, PERF_FLAG_PID_PROCESS);
	if (fd < 0) {
		crew_end(&c);
		return;
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	crew_fault(&c);
	count = perf_read_count(fd);
	EXPECT_EQ(0, count);
	crew_end(&c);
	close(fd);
}

/*
 * PERF_EVENT_IOC_READ_THREADS: one entry per live thread, the named one
 * (this thread) included, each with its own faults, adding up to what
 * read() says; too little room still says how many threads there are.
 */
TEST(read_threads_gives_each_thread)
{
	struct {
		struct perf_event_thread_values h;
		struct perf_event_thread_value v[THREADS + 4];
	} r;
	struct perf_event_attr attr;
	__u64 sum = 0, total;
	struct crew c;
	int fd, i, j, found;

	crew_init(&c);
	ASSERT_EQ(0, crew_spawn_tids(&c));

	fault_attr(&attr);
	fd = open_ext(_metadata, &attr, getpid(), -1, -1, PERF_FLAG_PID_PROCESS);
	if (fd < 0) {
		crew_end(&c);
		return;
	}
	crew_open(&c, 1);
	/* each faults its pages, then blocks at gate 2 */
	crew_await(&c, &c.done, THREADS);

	memset(&r, 0, sizeof(r));
	r.h.nr = 2;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_READ_THREADS, &r));
	EXPECT_EQ(THREADS + 1, r.h.nr);

	r.h.nr = THREADS + 4;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_READ_THREADS, &r));
	total = perf_read_count(fd);
	ASSERT_EQ(THREADS + 1, r.h.nr);
	for (i = 0; i < THREADS + 1; i++) {
		EXPECT_EQ(getpid(), r.v[i].pid);
		sum += r.v[i].value;
	}
	for (j = 0; j < THREADS; j++) {
		found = 0;
		for (i = 0; i < THREADS + 1; i++) {
			if (r.v[i].tid != (__u32)c.tid[j])
				continue;
			found = 1;
			EXPECT_LE(PAGES, r.v[i].value);
			EXPECT_GE(PAGES + 8, r.v[i].value);
		}
		EXPECT_TRUE(found) TH_LOG("tid %d missing", c.tid[j]);
	}
	/* read() came after: a fault or two of ours may have come between */
	EXPECT_LE(sum, total);
	EXPECT_GE(sum + 8, total);
	crew_end(&c);
	close(fd);

	/* an event that is not process-wide has no threads to list */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_READ_THREADS, &r));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * Threads created while the open attaches: a thread whose fork copied its
 * parent's events before the open reached the parent, and which joined the
 * thread list after the open walked it, must still get its copy.  A
 * spawner creates threads as fast as it can from just before the open to
 * after it; then every live thread must be listed by READ_THREADS.
 */
#define CHURN_ROUNDS	64
#define CHURN_MAX	64

struct churn {
	pthread_t t[CHURN_MAX];
	int nr;
	int stop;
	int stopped;	/* the spawner saw stop and made its last thread */
	int release;
};

static void *churn_idle(void *arg)
{
	struct churn *ch = arg;

	while (!__atomic_load_n(&ch->release, __ATOMIC_ACQUIRE))
		usleep(500);
	return NULL;
}

static void *churn_spawn(void *arg)
{
	struct churn *ch = arg;

	while (!__atomic_load_n(&ch->stop, __ATOMIC_ACQUIRE) &&
	       ch->nr < CHURN_MAX)
		if (!pthread_create(&ch->t[ch->nr], NULL, churn_idle, ch))
			__atomic_store_n(&ch->nr, ch->nr + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&ch->stopped, 1, __ATOMIC_RELEASE);
	/* alive until the check, like the threads it made */
	return churn_idle(ch);
}

static int live_threads(void)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", getpid());
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

TEST(threads_created_during_the_open_are_attached)
{
	struct {
		struct perf_event_thread_values h;
		struct perf_event_thread_value v[CHURN_MAX + 2];
	} r;
	struct perf_event_attr attr;
	int round, missed = 0;

	for (round = 0; round < CHURN_ROUNDS; round++) {
		struct churn ch = { };
		pthread_t spawner;
		int fd, live;

		ASSERT_EQ(0, pthread_create(&spawner, NULL, churn_spawn, &ch));
		/* a few threads in, so that the walk has some to attach */
		while (__atomic_load_n(&ch.nr, __ATOMIC_RELAXED) < round % 8)
			sched_yield();
		fault_attr(&attr);
		fd = open_ext(_metadata, &attr, getpid(), -1, -1,
			      PERF_FLAG_PID_PROCESS);
		__atomic_store_n(&ch.stop, 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&ch.stopped, __ATOMIC_ACQUIRE))
			usleep(100);

		if (fd >= 0) {
			live = live_threads();
			memset(&r, 0, sizeof(r));
			r.h.nr = CHURN_MAX + 2;
			EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_READ_THREADS, &r));
			if (live != (int)r.h.nr)
				missed++;
			EXPECT_EQ(live, (int)r.h.nr)
				TH_LOG("round %d: %d threads, %u attached",
				       round, live, r.h.nr);
			close(fd);
		}
		__atomic_store_n(&ch.release, 1, __ATOMIC_RELEASE);
		pthread_join(spawner, NULL);
		while (ch.nr)
			pthread_join(ch.t[--ch.nr], NULL);
		/*
		 * pthread_join() returns when the exiting thread clears its
		 * tid, before the kernel takes it off the thread list: wait
		 * for that, or the next round's count of live threads can
		 * include one past perf_event_exit_task(), which no event
		 * counts in.
		 */
		while (live_threads() > 1)
			usleep(100);
		if (fd < 0 || missed)
			break;
	}
}

/* A new process is the event's only with attr.inherit. */
TEST(fork_follows_inherit)
{
	struct perf_event_attr attr;
	int inherit, fd, status;
	__u64 count;
	pid_t child;

	for (inherit = 0; inherit < 2; inherit++) {
		fault_attr(&attr);
		attr.inherit = inherit;
		fd = open_ext(_metadata, &attr, getpid(), -1, -1, PERF_FLAG_PID_PROCESS);
		if (fd < 0)
			return;
		child = fork();
		if (!child) {
			touch_fresh_pages(4 * PAGES);
			_exit(0);
		}
		ASSERT_LT(0, child);
		waitpid(child, &status, 0);
		count = perf_read_count(fd);
		/* the child's faults, or none of them */
		if (inherit)
			EXPECT_LE(4 * PAGES, count);
		if (!inherit)
			EXPECT_GT(4 * PAGES, count);
		close(fd);
	}
}

/* Who wrote how many samples into the one buffer. */
struct tally {
	pid_t tid[THREADS];
	int samples[THREADS];
	int other;
};

static void tally_sample(const union rb_record *rec, void *arg)
{
	struct tally *t = arg;
	int i;

	if (rec->h.type != PERF_RECORD_SAMPLE)
		return;
	for (i = 0; i < THREADS; i++) {
		if (t->tid[i] == (pid_t)rec->s.tid) {
			t->samples[i]++;
			return;
		}
	}
	t->other++;
}

static void *tid_member(void *arg)
{
	struct crew *c = arg;

	crew_count(c, &c->faulted, syscall(SYS_gettid));
	crew_wait(c, 1);
	touch_fresh_pages(PAGES);
	crew_count(c, &c->done, 0);
	crew_wait(c, 2);
	return NULL;
}

/* THREADS tid_member()s, each with its tid in c->tid[] */
static int crew_spawn_tids(struct crew *c)
{
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&c->t[c->nr++], NULL, tid_member, c))
			return -1;
	crew_await(c, &c->faulted, THREADS);
	return 0;
}

/*
 * Sampling a process: one buffer, cpu == -1, every record whole, each
 * thread's PAGES samples under its own tid; nothing lost in a buffer big
 * enough for all.
 */
TEST(samples_every_thread_into_one_buffer)
{
	struct perf_event_attr attr;
	struct rb_stats st = { };
	struct tally t = { };
	struct rb_map rb;
	struct crew c;
	int fd, i, old_rate;

	crew_init(&c);
	ASSERT_EQ(0, crew_spawn_tids(&c));
	memcpy(t.tid, c.tid, sizeof(t.tid));

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	fd = open_ext(_metadata, &attr, getpid(), -1, -1, PERF_FLAG_PID_PROCESS);
	if (fd < 0) {
		crew_end(&c);
		return;
	}
	ASSERT_EQ(0, rb_mmap(&rb, fd, 64, PROT_READ | PROT_WRITE));
	old_rate = rb_raise_sample_rate();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	crew_open(&c, 1);
	crew_end(&c);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rb_restore_sample_rate(old_rate);

	rb_drain(&rb, &st, tally_sample, &t);
	EXPECT_EQ(0, st.bad);
	EXPECT_EQ(0, st.lost);
	for (i = 0; i < THREADS; i++) {
		/* its own pages, and a fault or two of its stack or exit */
		EXPECT_LE(PAGES, t.samples[i]);
		EXPECT_GE(PAGES + 8, t.samples[i]) {
			TH_LOG("thread %d (tid %d)", i, t.tid[i]);
		}
	}
	rb_unmap(&rb);
	close(fd);
}

/* Many writers, a small buffer: every record whole, every sample counted. */
static void *fault_lots(void *arg)
{
	touch_fresh_pages((long)arg);
	return NULL;
}

TEST(shared_buffer_many_writers_lose_nothing_silently)
{
	struct perf_event_attr attr;
	struct rb_stats st = { };
	pthread_t th[THREADS];
	struct rb_map rb;
	__u64 count, lost;
	int fd, i, round, old_rate;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	fd = open_ext(_metadata, &attr, 0, -1, -1, PERF_FLAG_SHARED_BUFFER);
	if (fd < 0)
		return;
	ASSERT_EQ(0, rb_mmap(&rb, fd, 4, PROT_READ | PROT_WRITE));
	old_rate = rb_raise_sample_rate();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (round = 0; round < 8; round++) {
		for (i = 0; i < THREADS; i++)
			ASSERT_EQ(0, pthread_create(&th[i], NULL, fault_lots,
						    (void *)256L));
		/* read while they write */
		for (i = 0; i < 50; i++)
			rb_drain(&rb, &st, NULL, NULL);
		for (i = 0; i < THREADS; i++)
			pthread_join(th[i], NULL);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rb_restore_sample_rate(old_rate);
	rb_drain(&rb, &st, NULL, NULL);
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));

	EXPECT_EQ(0, st.bad);
	/* each fault is a sample in the buffer or a lost one, once */
	EXPECT_EQ(count, st.samples + lost)
		TH_LOG("%llu faults, %llu samples, %llu lost",
		       count, (__u64)st.samples, lost);
	EXPECT_LE(8 * THREADS * 256, count);
	rb_unmap(&rb);
	close(fd);
}

/* Without the flag an inherited cpu == -1 event stays unmappable. */
TEST(inherited_without_flag_is_not_mappable)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	int fd;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, rb_mmap(&rb, fd, 4, PROT_READ | PROT_WRITE));
	close(fd);
}

/* What the flags refuse, on ours; upstream refuses the flags. */
TEST(refused_combinations)
{
	struct perf_event_attr attr;
	int fd;

	fault_attr(&attr);
	/* a process, not every task (on upstream: an unknown flag) */
	errno = 0;
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_PID_PROCESS);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	/* shared buffers are written forward */
	attr.write_backward = 1;
	errno = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_SHARED_BUFFER);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	/* the bit after ours means nothing */
	errno = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1,
				 PERF_FLAG_SHARED_BUFFER << 1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
