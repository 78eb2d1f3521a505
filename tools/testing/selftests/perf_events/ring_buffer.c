// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap() ring buffer's user-visible ABI: which mappings are accepted,
 * what the user page says, how records arrive, what happens when the
 * buffer is full, overwrite and backward mode, wakeups, pausing, output
 * redirection and the locked-memory accounting.
 *
 * Records come from a software page-fault event with sample_period 1 and
 * exclude_kernel, so that every user-mode fault the test takes on purpose
 * is exactly one sample: the process maps in everything it has first
 * (prefault_self()) and every buffer page is read once right after mmap()
 * (rb_mmap()), so that the only faults while an event is enabled are the
 * ones on fresh anonymous pages the test touches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"
#include "rb_common.h"

#define SAMPLE_SIZE	sizeof(struct rb_sample)

/* Fault @n pages of @pages, starting at page @first, with @fd enabled. */
static void fault_pages(int fd, char *pages, int first, int n)
{
	int i;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = first; i < first + n; i++)
		touch_page(pages, i);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

static int try_mmap(int fd, size_t len, int prot, int flags, off_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

/* 1 + 2^n pages map; anything else, and a private map, do not. */
TEST(mmap_sizes)
{
	long psz = rb_page_size();
	int n, fd, prot = PROT_READ | PROT_WRITE;

	for (n = 0; n <= 16; n++) {
		bool ok = n == 0 || !(n & (n - 1));

		fd = rb_open_faults(0, -1);
		ASSERT_GE(fd, 0);
		EXPECT_EQ(ok ? 0 : -EINVAL,
			  try_mmap(fd, (n + 1) * psz, prot, MAP_SHARED, 0))
			TH_LOG("1 + %d pages", n);
		close(fd);
	}
	/* a power of two without the user page is 2^n - 1 data pages */
	fd = rb_open_faults(0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, try_mmap(fd, 4 * psz, prot, MAP_SHARED, 0));
	EXPECT_EQ(-EINVAL, try_mmap(fd, 3 * psz, prot, MAP_PRIVATE, 0));
	close(fd);
}

/* Just the user page: allowed, and it describes an empty data area. */
TEST(mmap_user_page_only)
{
	struct rb_map rb;
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 0, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, rb.pg->data_size);
	EXPECT_EQ(0, rb.pg->data_head);
	/* nothing to pause without data pages */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(&rb);
	close(fd);
}

static sigjmp_buf store_env;

static void store_fault(int sig)
{
	siglongjmp(store_env, sig);
}

/* the signal a one-byte store to @p raises, or 0 */
static int store_signal(void *p)
{
	struct sigaction sa = { .sa_handler = store_fault }, obus, osegv;
	int sig;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	sig = sigsetjmp(store_env, 1);
	if (!sig)
		__atomic_store_n((char *)p, 1, __ATOMIC_RELAXED);
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return sig;
}

/*
 * In a writable mapping only the control page is user space's to write
 * (data_tail, the AUX fields): a store into a data page is SIGBUS.
 */
TEST(data_pages_refuse_stores)
{
	struct rb_map rb;
	int fd = rb_open_faults(0, -1);
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE));
	EXPECT_EQ(SIGBUS, store_signal((char *)rb.pg + page));
	EXPECT_EQ(SIGBUS, store_signal((char *)rb.pg + 2 * page + 8));
	EXPECT_EQ(0, store_signal(&rb.pg->data_tail));
	EXPECT_EQ(0, store_signal(&rb.pg->aux_offset));
	rb_unmap(&rb);
	close(fd);
}

/*
 * A non-zero offset is the AUX area: refused without a buffer, and with
 * one whose user page has no aux_offset/aux_size set.
 */
TEST(mmap_offset)
{
	long psz = rb_page_size();
	struct rb_map rb;
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, try_mmap(fd, 3 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, psz));
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-EINVAL, try_mmap(fd, 2 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 3 * psz));
	rb_unmap(&rb);
	close(fd);
}

/* A second mapping shares the buffer, and must have the same size. */
TEST(mmap_second)
{
	long psz = rb_page_size();
	struct rb_map a, b;
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&a, fd, 4, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-EINVAL, try_mmap(fd, 3 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 0));
	EXPECT_EQ(-EINVAL, try_mmap(fd, 9 * psz, PROT_READ | PROT_WRITE,
				    MAP_SHARED, 0));
	ASSERT_EQ(0, rb_mmap(&b, fd, 4, PROT_READ | PROT_WRITE));
	/* the same pages: a tail written through one shows in the other */
	rb_set_tail(&a, 64);
	EXPECT_EQ(64, b.pg->data_tail);
	rb_unmap(&a);
	EXPECT_EQ(64, b.pg->data_tail);
	rb_unmap(&b);
	close(fd);
}

/* An inherited per-task event cannot have a buffer (children share it). */
TEST(mmap_inherit_task)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	int fd;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.read_format = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	close(fd);
}

TEST(user_page_fields)
{
	long psz = rb_page_size();
	struct perf_event_mmap_page *pg;
	struct rb_map rb;
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 4, PROT_READ | PROT_WRITE));
	pg = rb.pg;
	/* upstream never sets the two version fields: both stay 0 */
	EXPECT_EQ(0, pg->version);
	EXPECT_EQ(0, pg->compat_version);
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved), pg->size);
	EXPECT_EQ(1, (int)pg->cap_bit0_is_deprecated);
	EXPECT_EQ(0, (int)pg->cap_bit0);
	EXPECT_EQ(psz, pg->data_offset);
	EXPECT_EQ(4 * psz, pg->data_size);
	EXPECT_EQ(0, pg->data_head);
	EXPECT_EQ(0, pg->data_tail);
	EXPECT_EQ(0, pg->aux_offset);
	EXPECT_EQ(0, pg->aux_size);
	/* a software event has no counter user space could read */
	EXPECT_EQ(0, pg->index);
	EXPECT_EQ(0, (int)pg->cap_user_rdpmc);
	/*
	 * cap_user_time is the arch's call (x86: a stable TSC-based
	 * sched_clock; arm64: the arch timer); when set, the conversion
	 * must be usable: a multiplier and a shift below 32.
	 */
	if (pg->cap_user_time) {
		EXPECT_NE(0, pg->time_mult);
		EXPECT_LT(pg->time_shift, 32);
	}
	if (pg->cap_user_time_zero)
		EXPECT_EQ(1, (int)pg->cap_user_time);
	TH_LOG("cap_user_time %d time_zero %d time_short %d",
	       (int)pg->cap_user_time, (int)pg->cap_user_time_zero,
	       (int)pg->cap_user_time_short);
	rb_unmap(&rb);
	close(fd);
}

/* time_enabled and time_running of the user page, read under its lock. */
static void page_times(struct perf_event_mmap_page *pg, __u64 *ena,
		       __u64 *run)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		*ena = pg->time_enabled;
		*run = pg->time_running;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_RELAXED) != seq ||
		 (seq & 1));
}

/*
 * The user page's times are refreshed when the event is scheduled in;
 * sleeping schedules the task out and in again.
 */
TEST(user_page_times)
{
	__u64 e0, r0, e1, r1;
	struct rb_map rb;
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	usleep(20000);
	page_times(rb.pg, &e0, &r0);
	usleep(20000);
	page_times(rb.pg, &e1, &r1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_GT(e1, e0);
	EXPECT_GT(r1, r0);
	EXPECT_LE(r1, e1);
	rb_unmap(&rb);
	close(fd);
}

/* Each synchronous sample moves data_head by exactly its own size. */
TEST(records_page_faults)
{
	struct rb_stats st = { 0 };
	__u64 head, prev, id, count, lost;
	union rb_record rec;
	struct rb_map rb;
	char *pages;
	int fd, i;

	prefault_self();
	pages = fresh_pages(16);
	ASSERT_NE(NULL, pages);
	fd = rb_open_faults(0, -1);
	ASSERT_GE(fd, 0);
	id = perf_event_id(fd);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 4, PROT_READ | PROT_WRITE));
	prev = rb_head(&rb);
	ASSERT_EQ(0, prev);
	for (i = 0; i < 16; i++) {
		fault_pages(fd, pages, i, 1);
		head = rb_head(&rb);
		ASSERT_EQ(prev + SAMPLE_SIZE, head) TH_LOG("fault %d", i);
		ASSERT_EQ(SAMPLE_SIZE, rb_check_record(&rb, prev, head, &rec));
		EXPECT_EQ(PERF_RECORD_SAMPLE, rec.h.type);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  rec.h.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_EQ(getpid(), rec.s.pid);
		EXPECT_EQ(gettid(), rec.s.tid);
		EXPECT_EQ(id, rec.s.id);
		EXPECT_EQ(1, rec.s.period);
		EXPECT_NE(0, rec.s.ip);
		prev = head;
	}
	rb_drain(&rb, &st, NULL, NULL);
	EXPECT_EQ(16, st.samples);
	EXPECT_EQ(0, st.bad);
	EXPECT_EQ(rb.pg->data_tail, rb_head(&rb));
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(16, count);
	EXPECT_EQ(0, lost);
	rb_unmap(&rb);
	close(fd);
}

/*
 * Read-write mapping, nobody consuming: writing stops when the next
 * record does not fit, each refused sample is counted as lost (in the
 * event's PERF_FORMAT_LOST and in the buffer), and once there is room a
 * PERF_RECORD_LOST with the whole count comes first.
 */
TEST(full_buffer_lost)
{
	long psz = rb_page_size();
	__u64 fit = psz / SAMPLE_SIZE, count, lost, id, head;
	struct rb_stats st = { 0 };
	union rb_record rec;
	struct rb_map rb;
	char *pages;
	int fd, n = fit + 40;

	prefault_self();
	pages = fresh_pages(n + 1);
	ASSERT_NE(NULL, pages);
	fd = rb_open_faults(0, -1);
	ASSERT_GE(fd, 0);
	id = perf_event_id(fd);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	fault_pages(fd, pages, 0, n);

	head = rb_head(&rb);
	EXPECT_EQ(fit * SAMPLE_SIZE, head);
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(n, count);
	EXPECT_EQ(n - fit, lost);
	rb_walk(&rb, 0, head, &st, NULL, NULL);
	EXPECT_EQ(fit, st.samples);
	EXPECT_EQ(0, st.lost_records);
	EXPECT_EQ(0, st.bad);

	/* consume everything: the next sample brings the LOST record */
	rb_set_tail(&rb, head);
	fault_pages(fd, pages, n, 1);
	EXPECT_EQ(head + sizeof(struct rb_lost) + SAMPLE_SIZE, rb_head(&rb));
	ASSERT_EQ(sizeof(struct rb_lost),
		  rb_check_record(&rb, head, rb_head(&rb), &rec));
	EXPECT_EQ(PERF_RECORD_LOST, rec.h.type);
	EXPECT_EQ(id, rec.l.id);
	EXPECT_EQ(n - fit, rec.l.lost);
	head += sizeof(struct rb_lost);
	ASSERT_EQ(SAMPLE_SIZE, rb_check_record(&rb, head, rb_head(&rb), &rec));
	EXPECT_EQ(PERF_RECORD_SAMPLE, rec.h.type);
	EXPECT_EQ(id, rec.s.id);
	/* the event's own lost count is cumulative, not reset */
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(n + 1, count);
	EXPECT_EQ(n - fit, lost);
	rb_unmap(&rb);
	close(fd);
}

/*
 * A read-only mapping is overwrite mode: the kernel ignores data_tail,
 * data_head keeps moving, the oldest records are overwritten and nothing
 * counts as lost.
 */
TEST(overwrite_mode)
{
	long psz = rb_page_size();
	__u64 fit = psz / SAMPLE_SIZE, count, lost, head;
	union rb_record rec;
	struct rb_map rb;
	char *pages;
	int fd, n = 3 * fit;

	prefault_self();
	pages = fresh_pages(n);
	ASSERT_NE(NULL, pages);
	fd = rb_open_faults(0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ));
	fault_pages(fd, pages, 0, n);
	head = rb_head(&rb);
	EXPECT_EQ(n * SAMPLE_SIZE, head);
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(n, count);
	EXPECT_EQ(0, lost);
	/* the newest record is intact, right before data_head */
	ASSERT_EQ(SAMPLE_SIZE, rb_check_record(&rb, head - SAMPLE_SIZE, head,
					       &rec));
	EXPECT_EQ(PERF_RECORD_SAMPLE, rec.h.type);
	EXPECT_EQ(gettid(), rec.s.tid);
	/* data_tail is not ours to write in this mode */
	rb_unmap(&rb);
	close(fd);
}

/*
 * write_backward: data_head counts down from 0; the records from
 * data_head upwards are newest first and each is whole.
 */
TEST(write_backward)
{
	struct rb_stats st = { 0 };
	struct perf_event_attr attr;
	__u64 head, count, lost;
	struct rb_map rb;
	char *pages;
	int fd, n = 20;

	prefault_self();
	pages = fresh_pages(n);
	ASSERT_NE(NULL, pages);
	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.write_backward = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ));
	fault_pages(fd, pages, 0, n);
	head = rb_head(&rb);
	EXPECT_EQ((__u64)-(n * (__s64)SAMPLE_SIZE), head);
	rb_walk(&rb, head, head + n * SAMPLE_SIZE, &st, NULL, NULL);
	EXPECT_EQ(n, st.samples);
	EXPECT_EQ(0, st.bad);
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(n, count);
	EXPECT_EQ(0, lost);
	rb_unmap(&rb);
	close(fd);
}

/* The two directions cannot share a buffer. */
TEST(write_backward_set_output)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	int fwd, bwd;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.write_backward = 1;
	bwd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(bwd, 0);
	fwd = rb_open_faults(0, -1);
	ASSERT_GE(fwd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, bwd, 1, PROT_READ));
	EXPECT_EQ(-1, ioctl(fwd, PERF_EVENT_IOC_SET_OUTPUT, bwd));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(&rb);
	close(fwd);
	close(bwd);
}

/*
 * wakeup_events = 4: every fourth sample makes the buffer readable.
 * perf_poll() reports POLLIN once per wakeup (it clears the state).
 */
TEST(wakeup_events)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	char *pages;
	int fd, i, rev;

	prefault_self();
	pages = fresh_pages(12);
	ASSERT_NE(NULL, pages);
	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.wakeup_events = 4;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, poll_now(fd));
	for (i = 1; i <= 12; i++) {
		fault_pages(fd, pages, i - 1, 1);
		ASSERT_EQ(i * SAMPLE_SIZE, rb_head(&rb));
		rev = poll_now(fd);
		EXPECT_EQ(i % 4 ? 0 : POLLIN, rev & (POLLIN | POLLHUP))
			TH_LOG("after sample %d", i);
	}
	rb_unmap(&rb);
	close(fd);
}

/*
 * watermark: a wakeup once more than wakeup_watermark bytes were written
 * since the last one; 5 samples of 40 bytes are exactly 200, not more.
 */
TEST(wakeup_watermark)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	char *pages;
	int fd, i, rev;

	prefault_self();
	pages = fresh_pages(12);
	ASSERT_NE(NULL, pages);
	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.watermark = 1;
	attr.wakeup_watermark = 5 * SAMPLE_SIZE;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE));
	for (i = 1; i <= 11; i++) {
		fault_pages(fd, pages, i - 1, 1);
		rev = poll_now(fd);
		EXPECT_EQ(i == 6 || i == 11 ? POLLIN : 0,
			  rev & (POLLIN | POLLHUP))
			TH_LOG("after sample %d", i);
	}
	rb_unmap(&rb);
	close(fd);
}

/* Without a buffer there is nothing to wait for: poll says POLLHUP. */
TEST(poll_without_buffer)
{
	int fd = rb_open_faults(0, -1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(POLLHUP, poll_now(fd) & (POLLIN | POLLHUP));
	close(fd);
}

/*
 * PAUSE_OUTPUT: samples are refused and counted lost while paused; the
 * first sample after resuming carries a LOST record with that count.
 */
TEST(pause_output)
{
	__u64 count, lost, head, id;
	union rb_record rec;
	struct rb_map rb;
	char *pages;
	int fd;

	prefault_self();
	pages = fresh_pages(16);
	ASSERT_NE(NULL, pages);
	fd = rb_open_faults(0, -1);
	ASSERT_GE(fd, 0);
	id = perf_event_id(fd);
	/* no buffer: nothing to pause */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE));
	fault_pages(fd, pages, 0, 3);
	head = rb_head(&rb);
	EXPECT_EQ(3 * SAMPLE_SIZE, head);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	fault_pages(fd, pages, 3, 5);
	EXPECT_EQ(head, rb_head(&rb));
	ASSERT_EQ(0, rb_read_lost(fd, &count, &lost));
	EXPECT_EQ(8, count);
	EXPECT_EQ(5, lost);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	fault_pages(fd, pages, 8, 2);
	EXPECT_EQ(head + sizeof(struct rb_lost) + 2 * SAMPLE_SIZE, rb_head(&rb));
	ASSERT_EQ(sizeof(struct rb_lost),
		  rb_check_record(&rb, head, rb_head(&rb), &rec));
	EXPECT_EQ(PERF_RECORD_LOST, rec.h.type);
	EXPECT_EQ(id, rec.l.id);
	EXPECT_EQ(5, rec.l.lost);
	rb_unmap(&rb);
	close(fd);
}

/* SET_OUTPUT: a second event of the same task writes into the first's buffer. */
TEST(set_output_shared)
{
	struct rb_stats st = { 0 };
	__u64 ida, idb, head, count, lost;
	union rb_record rec;
	struct rb_map rb;
	char *pages;
	int a, b;

	prefault_self();
	pages = fresh_pages(8);
	ASSERT_NE(NULL, pages);
	a = rb_open_faults(0, -1);
	ASSERT_GE(a, 0);
	b = rb_open_faults(0, -1);
	ASSERT_GE(b, 0);
	ida = perf_event_id(a);
	idb = perf_event_id(b);

	/* the target has no buffer yet */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, rb_mmap(&rb, a, 2, PROT_READ | PROT_WRITE));
	/* never into itself */
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	/* the argument must be a perf event */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, 0));
	EXPECT_EQ(EBADF, errno);
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));

	fault_pages(b, pages, 0, 3);
	head = rb_head(&rb);
	EXPECT_EQ(3 * SAMPLE_SIZE, head);
	ASSERT_EQ(SAMPLE_SIZE, rb_check_record(&rb, 0, head, &rec));
	EXPECT_EQ(idb, rec.s.id);
	fault_pages(a, pages, 3, 2);
	rb_walk(&rb, 0, rb_head(&rb), &st, NULL, NULL);
	EXPECT_EQ(5, st.samples);
	EXPECT_EQ(ida, st.last.id);

	/* -1 detaches: b's samples now go nowhere (no buffer, not lost) */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	head = rb_head(&rb);
	fault_pages(b, pages, 5, 1);
	EXPECT_EQ(head, rb_head(&rb));
	ASSERT_EQ(0, rb_read_lost(b, &count, &lost));
	EXPECT_EQ(4, count);
	EXPECT_EQ(0, lost);

	/*
	 * A redirected event maps the buffer it writes to, same size only;
	 * unmapping that mapping detaches it from the buffer again.
	 */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(-EINVAL, try_mmap(b, 2 * rb_page_size(),
				    PROT_READ | PROT_WRITE, MAP_SHARED, 0));
	EXPECT_EQ(0, try_mmap(b, 3 * rb_page_size(),
			      PROT_READ | PROT_WRITE, MAP_SHARED, 0));
	fault_pages(b, pages, 6, 1);
	EXPECT_EQ(head, rb_head(&rb));
	ASSERT_EQ(0, rb_read_lost(b, &count, &lost));
	EXPECT_EQ(5, count);
	EXPECT_EQ(0, lost);
	rb_unmap(&rb);
	close(b);
	close(a);
}

/* An event with a buffer mapped of its own cannot be redirected. */
TEST(set_output_while_mapped)
{
	struct rb_map ra, rb;
	int a, b;

	a = rb_open_faults(0, -1);
	ASSERT_GE(a, 0);
	b = rb_open_faults(0, -1);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, rb_mmap(&ra, a, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, rb_mmap(&rb, b, 1, PROT_READ | PROT_WRITE));
	/* upstream says EINVAL here, not EBUSY */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	EXPECT_EQ(EINVAL, errno);
	/* unmapped, it can */
	rb_unmap(&rb);
	EXPECT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	/* and once redirected, a mapping of b counts as a mapping */
	ASSERT_EQ(0, rb_mmap(&rb, b, 1, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(&rb);
	rb_unmap(&ra);
	close(b);
	close(a);
}

/* Per-CPU buffers: redirection only between events of the same CPU. */
TEST(set_output_cpu)
{
	struct rb_map rb;
	int a, b, c;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	a = rb_open_faults(0, 0);
	ASSERT_GE(a, 0);
	b = rb_open_faults(0, 1);
	ASSERT_GE(b, 0);
	c = rb_open_faults(0, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(0, rb_mmap(&rb, a, 1, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, a));
	rb_unmap(&rb);
	close(c);
	close(b);
	close(a);
}

/*
 * A per-task buffer (cpu -1) only takes events of the same task; a
 * per-CPU one takes any task's event on that CPU.
 */
TEST(set_output_task)
{
	struct rb_map rb, rc;
	int a, b, c, d, sync[2];
	pid_t child;
	char ch;

	ASSERT_EQ(0, pipe(sync));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		close(sync[1]);
		if (read(sync[0], &ch, 1) < 0)
			_exit(1);
		_exit(0);
	}
	a = rb_open_faults(0, -1);
	b = rb_open_faults(child, -1);
	c = rb_open_faults(0, 0);
	d = rb_open_faults(child, 0);
	EXPECT_GE(a, 0);
	EXPECT_GE(b, 0);
	EXPECT_GE(c, 0);
	EXPECT_GE(d, 0);
	if (a >= 0 && b >= 0 && c >= 0 && d >= 0) {
		ASSERT_EQ(0, rb_mmap(&rb, a, 1, PROT_READ | PROT_WRITE));
		EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
		EXPECT_EQ(EINVAL, errno);
		ASSERT_EQ(0, rb_mmap(&rc, c, 1, PROT_READ | PROT_WRITE));
		EXPECT_EQ(0, ioctl(d, PERF_EVENT_IOC_SET_OUTPUT, c));
		/* and a per-task event into a per-CPU buffer: CPUs differ */
		EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, c));
		EXPECT_EQ(EINVAL, errno);
		rb_unmap(&rc);
		rb_unmap(&rb);
	}
	close(sync[1]);
	waitpid(child, NULL, 0);
}

/* Events with different clocks cannot share a buffer. */
TEST(set_output_clock)
{
	struct perf_event_attr attr;
	struct rb_map rb;
	int a, b;

	a = rb_open_faults(0, -1);
	ASSERT_GE(a, 0);
	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC_RAW;
	b = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, rb_mmap(&rb, a, 1, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(&rb);
	close(b);
	close(a);
}

/*
 * Locked-memory accounting. A buffer of 1 + n pages is charged to the
 * user up to perf_event_mlock_kb per online CPU; whatever goes beyond is
 * charged to the process's pinned memory against RLIMIT_MEMLOCK, and
 * exceeding that is EPERM unless the task has CAP_IPC_LOCK or
 * perf_event_paranoid is -1.
 *
 * The sysctls are changed here and restored by the test process itself
 * after the work, which runs in a forked child, whatever the child did.
 */
#define MLOCK_KB	SYSCTL("perf_event_mlock_kb")
#define PARANOID	SYSCTL("perf_event_paranoid")

/* Drop CAP_IPC_LOCK from the effective and permitted sets. */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1U << CAP_IPC_LOCK);
	data[0].permitted &= ~(1U << CAP_IPC_LOCK);
	data[0].inheritable &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

enum mlock_who { ROOT_WITH_CAP, ROOT_NO_CAP, NOBODY };

/*
 * In a child: become @who, set RLIMIT_MEMLOCK to @rlim_pages, map a
 * 1 + 2 page buffer on each of @nr events; exit with the number of maps
 * that succeeded, 100 + errno of the first that failed, or 99 when the
 * setup itself failed.
 */
static int mlock_child(enum mlock_who who, long rlim_pages, int nr)
{
	long psz = rb_page_size();
	struct rlimit rl = { rlim_pages * psz, rlim_pages * psz };
	struct rb_map rb;
	pid_t pid;
	int st, i, fd, err;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(99);
		if (who == ROOT_NO_CAP && drop_ipc_lock())
			_exit(99);
		if (who == NOBODY && setresuid(65534, 65534, 65534))
			_exit(99);
		for (i = 0; i < nr; i++) {
			fd = rb_open_faults(0, -1);
			if (fd < 0)
				_exit(98);
			err = rb_mmap(&rb, fd, 2, PROT_READ | PROT_WRITE);
			if (err)
				_exit(100 - err);
		}
		_exit(nr);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* LONG_MIN: the sysctl could not be read, and is not restored */
FIXTURE(mlock) {
	long mlock_kb;
	long paranoid;
};

FIXTURE_SETUP(mlock)
{
	if (read_long(MLOCK_KB, &self->mlock_kb))
		self->mlock_kb = LONG_MIN;
	if (read_long(PARANOID, &self->paranoid))
		self->paranoid = LONG_MIN;
	if (self->mlock_kb == LONG_MIN || self->paranoid == LONG_MIN)
		SKIP(return, "no perf sysctls");
	if (geteuid())
		SKIP(return, "needs root to change the sysctls");
}

FIXTURE_TEARDOWN(mlock)
{
	if (self->mlock_kb != LONG_MIN)
		write_long(MLOCK_KB, self->mlock_kb);
	if (self->paranoid != LONG_MIN)
		write_long(PARANOID, self->paranoid);
}

/*
 * perf_event_mlock_kb = 0: the user may lock nothing, so every buffer is
 * charged in full to the process's pinned memory: with RLIMIT_MEMLOCK of
 * 4 pages one 3-page buffer fits, a second does not, without
 * CAP_IPC_LOCK.
 */
TEST_F(mlock, rlimit_without_cap_ipc_lock)
{
	int r;

	ASSERT_EQ(0, write_long(MLOCK_KB, 0));
	ASSERT_EQ(0, write_long(PARANOID, 2));
	r = mlock_child(ROOT_NO_CAP, 4, 1);
	EXPECT_EQ(1, r);
	r = mlock_child(ROOT_NO_CAP, 4, 2);
	EXPECT_EQ(100 + EPERM, r);
	r = mlock_child(ROOT_NO_CAP, 0, 1);
	EXPECT_EQ(100 + EPERM, r);
}

/* CAP_IPC_LOCK lifts the limit. */
TEST_F(mlock, rlimit_with_cap_ipc_lock)
{
	ASSERT_EQ(0, write_long(MLOCK_KB, 0));
	ASSERT_EQ(0, write_long(PARANOID, 2));
	EXPECT_EQ(4, mlock_child(ROOT_WITH_CAP, 0, 4));
}

/* perf_event_paranoid = -1 lifts it too; 0 and 1 do not. */
TEST_F(mlock, rlimit_paranoid)
{
	ASSERT_EQ(0, write_long(MLOCK_KB, 0));
	ASSERT_EQ(0, write_long(PARANOID, 0));
	EXPECT_EQ(100 + EPERM, mlock_child(ROOT_NO_CAP, 0, 1));
	ASSERT_EQ(0, write_long(PARANOID, -1));
	EXPECT_EQ(3, mlock_child(ROOT_NO_CAP, 0, 3));
	EXPECT_EQ(3, mlock_child(NOBODY, 0, 3));
}

/*
 * An unprivileged user: perf_event_mlock_kb of 3 pages per CPU lets it
 * lock exactly one 3-page buffer per online CPU from the per-user
 * allowance; the next is charged to RLIMIT_MEMLOCK (0 here) and refused.
 */
TEST_F(mlock, per_user_allowance)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int kb = 3 * rb_page_size() / 1024;

	ASSERT_EQ(0, write_long(MLOCK_KB, kb));
	ASSERT_EQ(0, write_long(PARANOID, 2));
	EXPECT_EQ(ncpu, mlock_child(NOBODY, 0, ncpu));
	EXPECT_EQ(100 + EPERM, mlock_child(NOBODY, 0, ncpu + 1));
	/* room in RLIMIT_MEMLOCK takes the overflow */
	EXPECT_EQ(ncpu + 1, mlock_child(NOBODY, 3, ncpu + 1));
	/* and the allowance came back when the buffers went away */
	EXPECT_EQ(ncpu, mlock_child(NOBODY, 0, ncpu));
}

/*
 * The harness ends the process with exit() from test_harness_run(), so
 * the sample rate goes back from an atexit() handler, in the main
 * process only (the tests' own children never exit() through it).
 */
static int saved_rate = -1;
static pid_t main_pid;

static void restore_rate(void)
{
	if (getpid() == main_pid)
		rb_restore_sample_rate(saved_rate);
}

int main(int argc, char **argv)
{
	main_pid = getpid();
	saved_rate = rb_raise_sample_rate();
	atexit(restore_rate);
	return test_harness_run(argc, argv);
}
