// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area: the second mapping of an event's ring buffer, at
 * user_page->aux_offset, that a trace PMU writes its raw trace into.
 *
 * The PMU is module/perf_aux_pmu.c ("perf_aux_test", built by the rig
 * against the kernel under test and put in the initramfs as
 * /tests/modules/perf_aux_pmu.ko).  Every read() of one of its active
 * events writes one chunk of a known pattern at the AUX head through the
 * driver API (perf_aux_output_begin/skip/flag/end), so each test knows
 * which bytes must stand where in the AUX area, where user_page->aux_head
 * must be, and which PERF_RECORD_AUX, ITRACE_START and AUX_OUTPUT_HW_ID
 * records must be in the data buffer, byte for byte:
 *  - the geometry mmap() accepts for the AUX area, and EOPNOTSUPP for a
 *    PMU without one;
 *  - normal (writable) mode: chunks land at the head, one record each,
 *    aux_tail bounds the space (an aux_tail that no head can be at
 *    leaves none), a full buffer or a truncated chunk wakes the poller,
 *    the wakeups of aux_watermark and of its default, skips and flags;
 *  - overwrite (read-only) mode: chunks wrap forever, records carry the
 *    head after the write and PERF_AUX_FLAG_OVERWRITE;
 *  - ITRACE_START at sched-in with the target's pid and tid, the hw id
 *    record, records with sample_id_all;
 *  - unmapping the AUX area alone, and mapping it again;
 *  - a CPU event read from another CPU.
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "aux_common.h"
#include "module_load.h"
#include "perf_test.h"
#include "rb_common.h"

#define MOD_PATH	"/tests/modules/perf_aux_pmu.ko"
#define MOD_NAME	"perf_aux_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/perf_aux_test"

/* the PMU's config fields (module/perf_aux_pmu.c) */
#define CFG_CHUNK(n)	((__u64)(n) & 0xffff)
#define CFG_SKIP(n)	(((__u64)(n) & 0xffff) << 16)
#define CFG_PARTIAL	0x100000000ULL	/* config:32 */
#define CFG_COLLISION	0x200000000ULL	/* config:33 */
#define CFG_HW_ID	0x400000000ULL	/* config:34 */
#define HW_ID_BASE	0x1234

/*
 * A fresh AUX area reads all zeroes, and user space cannot write it (only
 * the user page takes writes), so what the PMU has not written is 0.
 */
#define DATA_PAGES	16
#define MAX_RECS	512
#define MAX_EVENTS	4

#ifndef PERF_RECORD_AUX_OUTPUT_HW_ID
#define PERF_RECORD_AUX_OUTPUT_HW_ID	21
#endif

/* One record of the data buffer, copied out whole. */
struct rec {
	struct perf_event_header h;
	__u64 v[15];
};

/* An event of the PMU with its data buffer and AUX area. */
struct aux_ev {
	int fd;
	struct rb_map rb;
	unsigned char *aux;
	size_t aux_len;
};

static long psz(void)
{
	return sysconf(_SC_PAGESIZE);
}

static int load_module(void)
{
	return test_module_load(MOD_PATH);
}

/*
 * Remove the module, waiting a while for the last event of a test that
 * just ended to drop its hold on it.
 */
static int unload_module(void)
{
	return test_module_unload(MOD_NAME, 2000);
}

FIXTURE(aux) {
	long type;
	struct aux_ev ev[MAX_EVENTS];
	int nr_ev;
	struct rec recs[MAX_RECS];
};

FIXTURE_SETUP(aux)
{
	long type;

	/* a module left loaded by an earlier failure goes first */
	unload_module();
	ASSERT_EQ(load_module(), 0) TH_LOG("load %s: %s", MOD_PATH,
					   strerror(errno));
	ASSERT_EQ(read_long(PMU_DIR "/type", &type), 0);
	ASSERT_GE(type, PERF_TYPE_MAX);
	self->type = type;
	self->nr_ev = 0;
}

static void ev_unmap_aux(struct aux_ev *ev)
{
	if (ev->aux)
		munmap(ev->aux, ev->aux_len);
	ev->aux = NULL;
}

FIXTURE_TEARDOWN(aux)
{
	int i;

	for (i = 0; i < self->nr_ev; i++) {
		ev_unmap_aux(&self->ev[i]);
		rb_unmap(&self->ev[i].rb);
		close(self->ev[i].fd);
	}
	unload_module();
}

static void aux_attr(struct perf_event_attr *attr, long type, __u64 config,
		     __u8 seed)
{
	perf_attr_init(attr, type, config);
	attr->config1 = seed;
	attr->disabled = 1;
}

/*
 * Open an event of @attr on @pid/@cpu and map its data buffer: the slot
 * it took, or NULL (errno says why).
 */
static struct aux_ev *ev_open(struct _test_data_aux *self,
			      struct perf_event_attr *attr, pid_t pid, int cpu)
{
	struct aux_ev *ev = &self->ev[self->nr_ev];
	int ret;

	if (self->nr_ev == MAX_EVENTS)
		return NULL;
	memset(ev, 0, sizeof(*ev));
	ev->fd = sys_perf_event_open(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (ev->fd < 0)
		return NULL;
	self->nr_ev++;
	ret = rb_mmap(&ev->rb, ev->fd, DATA_PAGES, PROT_READ | PROT_WRITE);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return ev;
}

/* Where the AUX area goes: right after the data buffer. */
static __u64 aux_off(const struct aux_ev *ev)
{
	return ev->rb.len;
}

/* Map @pages of AUX area with @prot at aux_off(): 0 or -errno. */
static int ev_map_aux(struct aux_ev *ev, int pages, int prot)
{
	size_t len = (size_t)pages * psz();
	void *p;

	p = rb_mmap_aux(&ev->rb, ev->fd, len, prot);
	if (p == MAP_FAILED)
		return -errno;
	ev->aux = p;
	ev->aux_len = len;
	return 0;
}

static __u64 aux_head(const struct aux_ev *ev)
{
	return __atomic_load_n(&ev->rb.pg->aux_head, __ATOMIC_ACQUIRE);
}

static void aux_set_tail(struct aux_ev *ev, __u64 tail)
{
	__atomic_store_n(&ev->rb.pg->aux_tail, tail, __ATOMIC_RELEASE);
}

/* One read() of the event: one chunk written; the count it returns. */
static __u64 trigger(const struct aux_ev *ev)
{
	return perf_read_count(ev->fd);
}

/*
 * Copy the records between data_tail and data_head into @recs and consume
 * them: how many, or -1 at a malformed one.
 */
static int drain(struct aux_ev *ev, struct rec *recs, int max)
{
	__u64 head = rb_head(&ev->rb), off = ev->rb.pg->data_tail;
	int n = 0;

	while (off != head) {
		struct rec *r = &recs[n];

		if (n == max || head - off < sizeof(r->h))
			return -1;
		rb_copy(&ev->rb, off, &r->h, sizeof(r->h));
		if (r->h.size < sizeof(r->h) || r->h.size % 8 ||
		    r->h.size > sizeof(*r) || r->h.size > head - off)
			return -1;
		memset(r->v, 0, sizeof(r->v));
		rb_copy(&ev->rb, off, r, r->h.size);
		off += r->h.size;
		n++;
	}
	rb_set_tail(&ev->rb, head);
	return n;
}

/*
 * Drop the ITRACE_START records from @recs (n of them), after checking
 * that each has the size and, when @pid is not 0, the pid and tid given
 * (every sched-in of the event writes one): how many are left.
 */
static int drop_itrace(struct __test_metadata *_metadata, struct rec *recs,
		       int n, __u32 pid, __u32 tid, __u16 size)
{
	int i, m = 0;

	for (i = 0; i < n; i++) {
		if (recs[i].h.type != PERF_RECORD_ITRACE_START) {
			recs[m++] = recs[i];
			continue;
		}
		ASSERT_EQ(recs[i].h.size, size);
		if (pid) {
			EXPECT_EQ((__u32)recs[i].v[0], pid);
			EXPECT_EQ((__u32)(recs[i].v[0] >> 32), tid);
		}
	}
	return m;
}

static int count_type(const struct rec *recs, int n, __u32 type)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += recs[i].h.type == type;
	return c;
}

static void expect_aux_rec(struct __test_metadata *_metadata,
			   const struct rec *r, __u64 offset, __u64 size,
			   __u64 flags)
{
	ASSERT_EQ(r->h.type, PERF_RECORD_AUX);
	ASSERT_EQ(r->h.size, sizeof(r->h) + 3 * 8);
	EXPECT_EQ(r->h.misc, 0);
	EXPECT_EQ(r->v[0], offset);
	EXPECT_EQ(r->v[1], size);
	EXPECT_EQ(r->v[2], flags);
}

/* The first position in [@from, @to) that is not the pattern, or -1. */
static long long bad_pattern(const struct aux_ev *ev, __u64 from, __u64 to,
			     __u8 seed)
{
	return aux_first_mismatch(ev->aux, ev->aux_len, from, to, 1, seed);
}

/* The first position in [@from, @to) the PMU wrote, or -1. */
static long long bad_unwritten(const struct aux_ev *ev, __u64 from, __u64 to)
{
	return aux_first_mismatch(ev->aux, ev->aux_len, from, to, 0, 0);
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static sigjmp_buf fault_env;

static void fault_handler(int sig)
{
	siglongjmp(fault_env, sig);
}

/*
 * Store to @p (a perf mapping, which a child would not inherit): the
 * signal the store raised, or 0.
 */
static int write_signal(void *p)
{
	struct sigaction sa = { .sa_handler = fault_handler }, obus, osegv;
	int sig;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	sig = sigsetjmp(fault_env, 1);
	if (!sig)
		__atomic_store_n((char *)p, 1, __ATOMIC_RELAXED);
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return sig;
}

/*
 * What mmap() takes for an AUX area: a data buffer first, aux_offset and
 * aux_size in the user page matching the mapping's offset and length,
 * beyond the data buffer, a power of two of pages; the same range again;
 * and nothing from a PMU without an AUX area.
 */
TEST_F(aux, mmap_geometry)
{
	struct perf_event_attr attr;
	struct aux_ev *ev, *sw;
	__u64 off;
	long p = psz();
	void *m, *m2, *m3;
	int fd, n;

	/* no data buffer: EINVAL */
	aux_attr(&attr, self->type, 0, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (DATA_PAGES + 1) * p);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	close(fd);

	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	off = aux_off(ev);

	/* nothing in the user page: EINVAL */
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* overlapping the data buffer: EINVAL */
	ev->rb.pg->aux_offset = off - p;
	ev->rb.pg->aux_size = 4 * p;
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd,
		 off - p);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* aux_offset not the mapping's offset: EINVAL */
	ev->rb.pg->aux_offset = off + p;
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* aux_size not the mapping's length: EINVAL */
	ev->rb.pg->aux_offset = off;
	ev->rb.pg->aux_size = 8 * p;
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* three pages: EINVAL */
	ev->rb.pg->aux_size = 3 * p;
	m = mmap(NULL, 3 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);

	/* right: maps, and a second mapping of the same range too */
	ev->rb.pg->aux_size = 4 * p;
	m = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	ASSERT_NE(m, MAP_FAILED) TH_LOG("mmap: %s", strerror(errno));
	m2 = mmap(NULL, 4 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	ASSERT_NE(m2, MAP_FAILED) TH_LOG("second mmap: %s", strerror(errno));
	/* the same pages, all zeroes at first */
	ev->aux = m2;
	ev->aux_len = 4 * p;
	EXPECT_EQ(bad_unwritten(ev, 0, 4 * p), -1);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 256);
	EXPECT_EQ(bad_pattern(ev, 0, 256, 0), -1);
	ev->aux = m;
	EXPECT_EQ(bad_pattern(ev, 0, 256, 0), -1);
	EXPECT_EQ(bad_unwritten(ev, 256, 4 * p), -1);
	ev->aux = NULL;
	/* user space cannot write it: SIGBUS */
	EXPECT_EQ(write_signal(m), SIGBUS);

	/* another size while it is mapped: EINVAL */
	ev->rb.pg->aux_size = 2 * p;
	m3 = mmap(NULL, 2 * p, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m3, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	if (m3 != MAP_FAILED)
		munmap(m3, 2 * p);
	ev->rb.pg->aux_size = 4 * p;
	munmap(m2, 4 * p);

	/*
	 * A read-only mapping of an area mapped writable maps too, and the
	 * area stays in normal mode (the first mapping decides).
	 */
	m2 = mmap(NULL, 4 * p, PROT_READ, MAP_SHARED, ev->fd, off);
	ASSERT_NE(m2, MAP_FAILED) TH_LOG("read-only mmap: %s", strerror(errno));
	ev->aux = m2;
	EXPECT_EQ(trigger(ev), 512);
	EXPECT_EQ(aux_head(ev), 512);
	EXPECT_EQ(bad_pattern(ev, 256, 512, 0), -1);
	ev->aux = NULL;
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 2);
	expect_aux_rec(_metadata, &self->recs[0], 0, 256, 0);
	expect_aux_rec(_metadata, &self->recs[1], 256, 256, 0);
	munmap(m, 4 * p);
	munmap(m2, 4 * p);

	/* aux_size must be the length as mmap() rounds it, in pages */
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	off = aux_off(ev);
	ev->rb.pg->aux_offset = off;
	ev->rb.pg->aux_size = 4 * p - 100;
	m = mmap(NULL, 4 * p - 100, PROT_READ, MAP_SHARED, ev->fd, off);
	EXPECT_EQ(m, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	ev->rb.pg->aux_size = 4 * p;
	m = mmap(NULL, 4 * p - 100, PROT_READ, MAP_SHARED, ev->fd, off);
	EXPECT_NE(m, MAP_FAILED);
	if (m != MAP_FAILED)
		munmap(m, 4 * p);
	/* a gap after the data buffer is fine */
	ev->rb.pg->aux_offset = off + 2 * p;
	m = mmap(NULL, 4 * p, PROT_READ, MAP_SHARED, ev->fd, off + 2 * p);
	EXPECT_NE(m, MAP_FAILED);
	if (m != MAP_FAILED)
		munmap(m, 4 * p);
	rb_unmap(&ev->rb);
	close(ev->fd);
	self->nr_ev--;

	/* one page is a power of two too */
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	EXPECT_EQ(ev_map_aux(ev, 1, PROT_READ | PROT_WRITE), 0);

	/* a software event has no AUX area: EOPNOTSUPP */
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 1;
	sw = ev_open(self, &attr, 0, -1);
	ASSERT_NE(sw, NULL);
	EXPECT_EQ(ev_map_aux(sw, 4, PROT_READ | PROT_WRITE), -EOPNOTSUPP);
}

/* A sampling event of the PMU does not open. */
TEST_F(aux, no_sampling)
{
	struct perf_event_attr attr;
	int fd;

	aux_attr(&attr, self->type, 0, 0);
	attr.sample_period = 1000;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	EXPECT_EQ(fd, -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	if (fd >= 0)
		close(fd);
}

/*
 * Ten reads, ten chunks of 100 bytes back to back from 0, one record each
 * (offset, size, no flags), aux_head 1000, the count the bytes written,
 * and nothing else touched.
 */
TEST_F(aux, records_and_bytes)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x5a;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(100), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	EXPECT_EQ(aux_head(ev), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 1; i <= 10; i++) {
		EXPECT_EQ(trigger(ev), 100 * i);
		EXPECT_EQ(aux_head(ev), 100 * i);
	}
	EXPECT_EQ(bad_pattern(ev, 0, 1000, seed), -1);
	EXPECT_EQ(bad_unwritten(ev, 1000, ev->aux_len), -1);

	n = drain(ev, self->recs, MAX_RECS);
	ASSERT_GE(n, 1);
	/* the first record is the ITRACE_START of the enable */
	ASSERT_EQ(self->recs[0].h.type, PERF_RECORD_ITRACE_START);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 10);
	for (i = 0; i < 10; i++)
		expect_aux_rec(_metadata, &self->recs[i], 100 * i, 100, 0);

	/* disabled: reads write nothing */
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 1000);
	EXPECT_EQ(aux_head(ev), 1000);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	EXPECT_EQ(n, 0);
}

/*
 * The free space is (aux_tail - aux_head - 1) mod size: three chunks of a
 * third of size - 1 fill it exactly; the next reads find no room, write
 * nothing and no record, and wake the poller.
 */
TEST_F(aux, full_buffer)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 3;
	__u64 size = 4 * psz(), chunk = (size - 1) / 3;
	int i, n;

	ASSERT_EQ(chunk * 3, size - 1);
	ASSERT_LE(chunk, 0xffff);
	aux_attr(&attr, self->type, CFG_CHUNK(chunk), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 1; i <= 3; i++)
		EXPECT_EQ(trigger(ev), chunk * i);
	EXPECT_EQ(aux_head(ev), size - 1);
	EXPECT_EQ(poll_now(ev->fd) & POLLIN, POLLIN);

	/*
	 * No room: nothing written, no record, a wakeup; and so on for as
	 * long as there is no room.  The core also asks for the event to be
	 * disabled, but on upstream that does not reliably take effect when
	 * the driver runs from read(), so nothing here depends on it.
	 */
	EXPECT_EQ(trigger(ev), size - 1);
	EXPECT_EQ(poll_now(ev->fd) & POLLIN, POLLIN);
	EXPECT_EQ(trigger(ev), size - 1);
	EXPECT_EQ(aux_head(ev), size - 1);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 3);
	for (i = 0; i < 3; i++)
		expect_aux_rec(_metadata, &self->recs[i], chunk * i, chunk, 0);
	EXPECT_EQ(bad_pattern(ev, 0, size - 1, seed), -1);
	EXPECT_EQ(bad_unwritten(ev, size - 1, size), -1);

	/* room again, and on again: the next chunk wraps around the end */
	aux_set_tail(ev, size - 1);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 4 * chunk);
	EXPECT_EQ(aux_head(ev), size - 1 + chunk);
	EXPECT_EQ(bad_pattern(ev, size - 1, size - 1 + chunk, seed), -1);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 1);
	expect_aux_rec(_metadata, &self->recs[0], size - 1, chunk, 0);
}

/*
 * A chunk larger than the free space is cut to it and flagged
 * PERF_AUX_FLAG_TRUNCATED, and wakes the poller.
 */
TEST_F(aux, truncated_chunk)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x81;
	__u64 size = 4 * psz(), chunk = 4000;
	int i, n;

	ASSERT_LT(4 * chunk, size - 1);
	ASSERT_GT(5 * chunk, size - 1);
	aux_attr(&attr, self->type, CFG_CHUNK(chunk), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 1; i <= 4; i++)
		EXPECT_EQ(trigger(ev), chunk * i);
	/*
	 * The fifth fits only size - 1 - 4 * chunk bytes, and wakes (a
	 * truncated chunk wakes whatever the watermark: aux_watermark is
	 * half the buffer, last crossed by the third chunk).
	 */
	poll_now(ev->fd);
	EXPECT_EQ(trigger(ev), size - 1);
	EXPECT_EQ(aux_head(ev), size - 1);
	EXPECT_EQ(poll_now(ev->fd) & POLLIN, POLLIN);
	EXPECT_EQ(bad_pattern(ev, 0, size - 1, seed), -1);
	EXPECT_EQ(bad_unwritten(ev, size - 1, size), -1);
	/* no room left: nothing more */
	EXPECT_EQ(trigger(ev), size - 1);

	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 5);
	for (i = 0; i < 4; i++)
		expect_aux_rec(_metadata, &self->recs[i], chunk * i, chunk, 0);
	expect_aux_rec(_metadata, &self->recs[4], 4 * chunk,
		       size - 1 - 4 * chunk, PERF_AUX_FLAG_TRUNCATED);

	/* consumed and enabled again, it writes on */
	aux_set_tail(ev, size - 1);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), size - 1 + chunk);
	EXPECT_EQ(aux_head(ev), size - 1 + chunk);
	EXPECT_EQ(bad_pattern(ev, size - 1, size - 1 + chunk, seed), -1);
}

/*
 * Consumed as it goes, the buffer wraps: twenty chunks of 3000 bytes over
 * four pages, each where the running head says, each record its offset.
 */
TEST_F(aux, tail_advance_wraps)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x3c;
	__u64 chunk = 3000, head;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(chunk), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 0; i < 20; i++) {
		head = chunk * i;
		EXPECT_EQ(trigger(ev), head + chunk);
		ASSERT_EQ(aux_head(ev), head + chunk);
		ASSERT_EQ(bad_pattern(ev, head, head + chunk, seed), -1)
			TH_LOG("chunk %d", i);
		aux_set_tail(ev, head + chunk);
	}
	ASSERT_GT(chunk * 20, 3 * ev->aux_len);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 20);
	for (i = 0; i < 20; i++)
		expect_aux_rec(_metadata, &self->recs[i], chunk * i, chunk, 0);
}

/*
 * A read-only AUX area is overwrite mode: chunks wrap without regard to
 * aux_tail, the event never stops, aux_head is where the driver put it,
 * and each record has the head after the write and
 * PERF_AUX_FLAG_OVERWRITE.
 */
TEST_F(aux, overwrite_mode)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x77;
	__u64 chunk = 5000, end = 0;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(chunk), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 1; i <= 10; i++) {
		end = chunk * i;
		EXPECT_EQ(trigger(ev), end);
		EXPECT_EQ(aux_head(ev), end);
		/* no AUX wakeups in overwrite mode */
		EXPECT_EQ(poll_now(ev->fd) & POLLIN, 0);
	}
	ASSERT_GT(end, 2 * ev->aux_len);
	EXPECT_EQ(bad_pattern(ev, end - ev->aux_len, end, seed), -1);

	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 10);
	for (i = 0; i < 10; i++)
		expect_aux_rec(_metadata, &self->recs[i], chunk * (i + 1),
			       chunk, PERF_AUX_FLAG_OVERWRITE);
}

/*
 * 40 chunks of @chunk bytes, the reader keeping up (aux_tail follows
 * aux_head): POLLIN exactly after the chunks that take the head @wm or
 * more past the last wakeup, which then moves to the head rounded down
 * to a multiple of @wm.
 */
static void expect_wakeups(struct __test_metadata *_metadata,
			   struct aux_ev *ev, struct rec *recs, __u64 chunk,
			   __u64 wm)
{
	__u64 last = 0, head;
	int i, woke = 0;

	for (i = 1; i <= 40; i++) {
		head = chunk * i;
		EXPECT_EQ(trigger(ev), head);
		if (head - last >= wm) {
			EXPECT_EQ(poll_now(ev->fd) & POLLIN, POLLIN)
				TH_LOG("no wakeup at head %llu",
				       (unsigned long long)head);
			last = head - head % wm;
			woke++;
		} else {
			EXPECT_EQ(poll_now(ev->fd) & POLLIN, 0)
				TH_LOG("wakeup at head %llu",
				       (unsigned long long)head);
		}
		aux_set_tail(ev, head);
	}
	EXPECT_EQ(woke, 40 * chunk / wm);
	drain(ev, recs, MAX_RECS);
}

/*
 * aux_watermark: POLLIN once aux_head has gone aux_watermark past the
 * last AUX wakeup (rounded down to a multiple of it), and not before; the
 * data buffer's own records are too few to wake anyone.
 */
TEST_F(aux, watermark_wakes)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;

	aux_attr(&attr, self->type, CFG_CHUNK(1000), 1);
	attr.aux_watermark = psz();
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(poll_now(ev->fd) & POLLIN, 0);
	expect_wakeups(_metadata, ev, self->recs, 1000, psz());
}

/* aux_watermark 0 in normal mode: wakeups every half buffer. */
TEST_F(aux, default_watermark_half)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;

	aux_attr(&attr, self->type, CFG_CHUNK(1000), 2);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	expect_wakeups(_metadata, ev, self->recs, 1000, 2 * psz());
}

/*
 * Open a chunk-@chunk event with a four-page AUX area, write @pre chunks
 * consuming each, then set aux_tail to @tail and read once: the bytes the
 * read wrote.
 */
static __u64 write_with_tail(struct _test_data_aux *self, __u64 chunk, int pre,
			     __u64 tail)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	__u64 before = 0;
	int i;

	aux_attr(&attr, self->type, CFG_CHUNK(chunk), 0);
	ev = ev_open(self, &attr, 0, -1);
	if (!ev || ev_map_aux(ev, 4, PROT_READ | PROT_WRITE) ||
	    ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0))
		return ~0ULL;
	for (i = 0; i < pre; i++) {
		before = trigger(ev);
		aux_set_tail(ev, aux_head(ev));
	}
	aux_set_tail(ev, tail);
	before = trigger(ev) - before;
	ev_unmap_aux(ev);
	rb_unmap(&ev->rb);
	close(ev->fd);
	self->nr_ev--;
	return before;
}

/*
 * The space is CIRC_SPACE(aux_head, aux_tail, size) only while
 * aux_head - aux_tail (64-bit) is below the size; an aux_tail ahead of
 * aux_head, or size or more behind it, leaves no space at all.
 */
TEST_F(aux, aux_tail_bounds)
{
	__u64 size = 4 * psz(), chunk = 8000, head = 3 * chunk;

	ASSERT_GT(head, size);
	/* exactly a chunk of room, and one byte less */
	EXPECT_EQ(write_with_tail(self, chunk, 3, head - (size - 1 - chunk)),
		  chunk);
	EXPECT_EQ(write_with_tail(self, chunk, 3, head - (size - chunk)),
		  chunk - 1);
	/* tail left behind at 0, more than size behind: none */
	EXPECT_EQ(write_with_tail(self, chunk, 3, 0), 0);
	/* exactly size behind: none (CIRC_SPACE would say size - 1) */
	EXPECT_EQ(write_with_tail(self, chunk, 3, head - size), 0);
	/* ahead of the head: none */
	EXPECT_EQ(write_with_tail(self, 100, 1, 100 + 5000), 0);
	EXPECT_EQ(write_with_tail(self, chunk, 0, 5000), 0);
}

/*
 * perf_aux_output_skip() moves the head past bytes nobody writes; the
 * record has the offset after the skip and the flags the driver set; a
 * skip beyond the free space fails, and the chunk ends empty and
 * truncated: a record of size 0, and a wakeup.
 */
TEST_F(aux, skip_and_flags)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0xc3;
	__u64 chunk = 100, skip = 50, step = chunk + skip, big;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(chunk) | CFG_SKIP(skip) |
		 CFG_PARTIAL | CFG_COLLISION, seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	for (i = 1; i <= 5; i++) {
		EXPECT_EQ(trigger(ev), chunk * i);
		EXPECT_EQ(aux_head(ev), step * i);
	}
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(bad_unwritten(ev, step * i, step * i + skip), -1);
		EXPECT_EQ(bad_pattern(ev, step * i + skip, step * (i + 1),
				      seed), -1);
	}
	EXPECT_EQ(bad_unwritten(ev, step * 5, ev->aux_len), -1);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 5);
	for (i = 0; i < 5; i++)
		expect_aux_rec(_metadata, &self->recs[i], step * i + skip,
			       chunk, PERF_AUX_FLAG_PARTIAL |
			       PERF_AUX_FLAG_COLLISION);

	/* a skip larger than the free space */
	big = 2 * psz() + 1;
	aux_attr(&attr, self->type, CFG_CHUNK(chunk) | CFG_SKIP(big), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 0);
	EXPECT_EQ(aux_head(ev), 0);
	EXPECT_EQ(poll_now(ev->fd) & POLLIN, POLLIN);
	EXPECT_EQ(bad_unwritten(ev, 0, ev->aux_len), -1);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 1);
	expect_aux_rec(_metadata, &self->recs[0], 0, 0,
		       PERF_AUX_FLAG_TRUNCATED);
}

/*
 * perf_report_aux_output_id(): one PERF_RECORD_AUX_OUTPUT_HW_ID with the
 * id, after the first chunk's record, whether or not an AUX area is
 * mapped.
 */
TEST_F(aux, hw_id_record)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 7;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(64) | CFG_HW_ID, seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 1; i <= 3; i++)
		EXPECT_EQ(trigger(ev), 64 * i);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 4);
	expect_aux_rec(_metadata, &self->recs[0], 0, 64, 0);
	EXPECT_EQ(self->recs[1].h.type, PERF_RECORD_AUX_OUTPUT_HW_ID);
	EXPECT_EQ(self->recs[1].h.size, 16);
	EXPECT_EQ(self->recs[1].h.misc, 0);
	EXPECT_EQ(self->recs[1].v[0], HW_ID_BASE + seed);
	expect_aux_rec(_metadata, &self->recs[2], 64, 64, 0);
	expect_aux_rec(_metadata, &self->recs[3], 128, 64, 0);
	EXPECT_EQ(bad_pattern(ev, 0, 192, seed), -1);

	/* no AUX area: no chunk, but the record */
	aux_attr(&attr, self->type, CFG_HW_ID, seed + 1);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 0);
	EXPECT_EQ(trigger(ev), 0);
	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 1);
	EXPECT_EQ(self->recs[0].h.type, PERF_RECORD_AUX_OUTPUT_HW_ID);
	EXPECT_EQ(self->recs[0].v[0], HW_ID_BASE + seed + 1);
}

/*
 * With sample_id_all, every record carries the sample id fields after its
 * body: TID and ID here, the event's own pid/tid and id.
 */
TEST_F(aux, sample_id_all)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	__u64 id, pidtid;
	struct rec *r;
	int i, n;

	aux_attr(&attr, self->type, CFG_CHUNK(32) | CFG_HW_ID, 9);
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	id = perf_event_id(ev->fd);
	ASSERT_NE(id, 0);
	pidtid = (__u64)gettid_() << 32 | (__u32)getpid();
	ASSERT_EQ(ev_map_aux(ev, 1, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 32);
	EXPECT_EQ(trigger(ev), 64);

	n = drain(ev, self->recs, MAX_RECS);
	ASSERT_GE(n, 4);
	r = &self->recs[0];
	ASSERT_EQ(r->h.type, PERF_RECORD_ITRACE_START);
	ASSERT_EQ(r->h.size, 8 + 8 + 16);
	EXPECT_EQ(r->v[0], pidtid);
	EXPECT_EQ(r->v[1], pidtid);
	EXPECT_EQ(r->v[2], id);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 32);
	ASSERT_EQ(n, 3);
	for (i = 0; i < 3; i++) {
		r = &self->recs[i];
		if (i == 1) {
			ASSERT_EQ(r->h.type, PERF_RECORD_AUX_OUTPUT_HW_ID);
			ASSERT_EQ(r->h.size, 8 + 8 + 16);
			EXPECT_EQ(r->v[0], HW_ID_BASE + 9);
			EXPECT_EQ(r->v[1], pidtid);
			EXPECT_EQ(r->v[2], id);
			continue;
		}
		ASSERT_EQ(r->h.type, PERF_RECORD_AUX);
		ASSERT_EQ(r->h.size, 8 + 24 + 16);
		EXPECT_EQ(r->v[0], i ? 32 : 0);
		EXPECT_EQ(r->v[1], 32);
		EXPECT_EQ(r->v[2], 0);
		EXPECT_EQ(r->v[3], pidtid);
		EXPECT_EQ(r->v[4], id);
	}
}

struct waiter {
	int go[2];
	pid_t tid;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	char c;

	w->tid = gettid_();
	if (read(w->go[0], &c, 1) != 1)
		return NULL;
	burn_cpu(2000000);
	return NULL;
}

/*
 * ITRACE_START goes out when the event is scheduled in, with the pid and
 * tid of the task it is attached to: here a thread that runs while the
 * reader waits, so no chunk is written (the event is not active on a
 * read), only the ITRACE_START records of its sched-ins.
 */
TEST_F(aux, itrace_start)
{
	struct perf_event_attr attr;
	struct waiter w = { .tid = 0 };
	struct aux_ev *ev;
	pthread_t th;
	int n, i;

	ASSERT_EQ(pipe(w.go), 0);
	ASSERT_EQ(pthread_create(&th, NULL, waiter_fn, &w), 0);
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		usleep(1000);

	aux_attr(&attr, self->type, CFG_CHUNK(16), 0);
	ev = ev_open(self, &attr, w.tid, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 1, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(write(w.go[1], "x", 1), 1);
	pthread_join(th, NULL);

	n = drain(ev, self->recs, MAX_RECS);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++)
		EXPECT_EQ(self->recs[i].h.type, PERF_RECORD_ITRACE_START);
	n = drop_itrace(_metadata, self->recs, n, getpid(), w.tid, 16);
	EXPECT_EQ(n, 0);
	EXPECT_EQ(aux_head(ev), 0);
	EXPECT_EQ(bad_unwritten(ev, 0, ev->aux_len), -1);
	close(w.go[0]);
	close(w.go[1]);
}

/*
 * The AUX area unmapped while the data buffer stays: reads write nothing
 * and no record; a new AUX area, of another size, takes chunks again.
 */
TEST_F(aux, unmap_and_remap)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x11;
	__u64 head, count;
	void *m;
	int n, resched;

	aux_attr(&attr, self->type, CFG_CHUNK(300), seed);
	ev = ev_open(self, &attr, 0, -1);
	ASSERT_NE(ev, NULL);
	ASSERT_EQ(ev_map_aux(ev, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(ev), 300);
	/* a second mapping unmapped: the first still takes chunks */
	m = mmap(NULL, ev->aux_len, PROT_READ, MAP_SHARED, ev->fd,
		 aux_off(ev));
	ASSERT_NE(m, MAP_FAILED);
	munmap(m, ev->aux_len);
	EXPECT_EQ(trigger(ev), 600);
	EXPECT_EQ(aux_head(ev), 600);
	aux_set_tail(ev, 600);

	n = drain(ev, self->recs, MAX_RECS);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 2);
	expect_aux_rec(_metadata, &self->recs[0], 0, 300, 0);
	expect_aux_rec(_metadata, &self->recs[1], 300, 300, 0);

	/*
	 * The last one unmapped: nothing.  A reschedule from here on (an
	 * ITRACE_START) starts the event again.
	 */
	ev_unmap_aux(ev);
	EXPECT_EQ(trigger(ev), 600);
	n = drain(ev, self->recs, MAX_RECS);
	resched = count_type(self->recs, n, PERF_RECORD_ITRACE_START);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 0);

	/*
	 * Two pages now: the head goes on from where it was.  The unmap
	 * stopped the event, so until it is next scheduled in (an
	 * ITRACE_START says when) reads write nothing.
	 */
	ASSERT_EQ(ev_map_aux(ev, 2, PROT_READ | PROT_WRITE), 0);
	EXPECT_EQ(aux_head(ev), 600);
	EXPECT_EQ(ev->rb.pg->aux_tail, 600);
	count = trigger(ev);
	n = drain(ev, self->recs, MAX_RECS);
	if (!resched && !count_type(self->recs, n, PERF_RECORD_ITRACE_START)) {
		EXPECT_EQ(count, 600);
		EXPECT_EQ(n, 0);
		EXPECT_EQ(aux_head(ev), 600);
	}
	/* a sleep schedules it out and in again */
	head = 600 + (count - 600);
	usleep(1000);
	EXPECT_EQ(trigger(ev), count + 300);
	EXPECT_EQ(aux_head(ev), head + 300);
	EXPECT_EQ(bad_pattern(ev, head, head + 300, seed), -1);
	/* the new area was written from 600 on: the rest is still zero */
	EXPECT_EQ(bad_unwritten(ev, head + 300, 600 + ev->aux_len), -1);
	n = drain(ev, self->recs, MAX_RECS);
	ASSERT_GE(count_type(self->recs, n, PERF_RECORD_ITRACE_START), 1);
	n = drop_itrace(_metadata, self->recs, n, getpid(), gettid_(), 16);
	ASSERT_EQ(n, 1);
	expect_aux_rec(_metadata, &self->recs[0], head, 300, 0);
}

/*
 * A CPU event of CPU 1 read from CPU 0: the chunk is written on CPU 1
 * (the read goes there), and everything is as for a task event.
 */
TEST_F(aux, cpu_event_read_from_other_cpu)
{
	struct perf_event_attr attr;
	struct aux_ev *ev;
	const __u8 seed = 0x42;
	int i, n;

	ASSERT_GE(sysconf(_SC_NPROCESSORS_ONLN), 2);
	ASSERT_EQ(pin_to_cpu(0), 0);
	aux_attr(&attr, self->type, CFG_CHUNK(200), seed);
	ev = ev_open(self, &attr, -1, 1);
	ASSERT_NE(ev, NULL) TH_LOG("open on CPU 1: %s", strerror(errno));
	ASSERT_EQ(ev_map_aux(ev, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 1; i <= 5; i++)
		EXPECT_EQ(trigger(ev), 200 * i);
	EXPECT_EQ(aux_head(ev), 1000);
	EXPECT_EQ(bad_pattern(ev, 0, 1000, seed), -1);
	EXPECT_EQ(bad_unwritten(ev, 1000, ev->aux_len), -1);
	n = drain(ev, self->recs, MAX_RECS);
	/* whoever ran on CPU 1 when it went on */
	n = drop_itrace(_metadata, self->recs, n, 0, 0, 16);
	ASSERT_EQ(n, 5);
	for (i = 0; i < 5; i++)
		expect_aux_rec(_metadata, &self->recs[i], 200 * i, 200, 0);
}

TEST_HARNESS_MAIN
