/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the ring-buffer tests (ring_buffer.c, notify.c,
 * rb_stress.c): open a sampling software event, map its buffer, walk the
 * records between data_tail and data_head.
 *
 * Every sample these tests ask for has the same layout (IP, TID, ID,
 * PERIOD: 40 bytes with the header), so that a record's size alone says
 * whether it is well-formed and the number of records that fit in a
 * buffer is known in advance.
 */
#ifndef PERF_EVENTS_SELFTEST_RB_COMMON_H
#define PERF_EVENTS_SELFTEST_RB_COMMON_H

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include "perf_test.h"

#define RB_SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD)

/* The record PERF_SAMPLE_IP | TID | ID | PERIOD produces. */
struct rb_sample {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid;
	__u32 tid;
	__u64 id;
	__u64 period;
};

/* PERF_RECORD_LOST without sample_id_all. */
struct rb_lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

/* One mapped buffer: the user page and 2^n data pages after it. */
struct rb_map {
	struct perf_event_mmap_page *pg;
	char *data;
	__u64 size;		/* bytes of data */
	size_t len;		/* bytes mapped */
};

static inline long rb_page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/*
 * A disabled software event sampling every occurrence of @config in user
 * mode (exclude_kernel, so that it also opens unprivileged at
 * perf_event_paranoid 2).
 */
static inline void rb_attr(struct perf_event_attr *attr, __u64 config)
{
	perf_attr_user(attr, PERF_TYPE_SOFTWARE, config);
	attr->sample_period = 1;
	attr->sample_type = RB_SAMPLE_TYPE;
	attr->read_format = PERF_FORMAT_LOST;
}

static inline int rb_open_faults(pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/*
 * Map 1 + @pages pages of @fd with @prot. Every page is read once here:
 * the first access to a page of the mapping is itself a page fault, and
 * the tests that sample page faults must not see their own buffer's.
 * Returns 0 or -errno.
 */
static inline int rb_mmap(struct rb_map *rb, int fd, int pages, int prot)
{
	long psz = rb_page_size();
	void *p;
	size_t i;

	memset(rb, 0, sizeof(*rb));
	rb->len = (size_t)(pages + 1) * psz;
	p = mmap(NULL, rb->len, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	rb->pg = p;
	rb->data = (char *)p + psz;
	rb->size = (__u64)pages * psz;
	for (i = 0; i < rb->len; i += psz)
		(void)__atomic_load_n((char *)p + i, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Map @len bytes of AUX area with @prot right after @rb's data buffer,
 * telling the kernel where through the user page: the address, or
 * MAP_FAILED with errno set.
 */
static inline void *rb_mmap_aux(struct rb_map *rb, int fd, size_t len,
				int prot)
{
	rb->pg->aux_offset = rb->len;
	rb->pg->aux_size = len;
	return mmap(NULL, len, prot, MAP_SHARED, fd, rb->len);
}

static inline void rb_unmap(struct rb_map *rb)
{
	if (rb->pg)
		munmap(rb->pg, rb->len);
	rb->pg = NULL;
}

static inline __u64 rb_head(const struct rb_map *rb)
{
	return __atomic_load_n(&rb->pg->data_head, __ATOMIC_ACQUIRE);
}

static inline void rb_set_tail(struct rb_map *rb, __u64 tail)
{
	__atomic_store_n(&rb->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Copy @len bytes at ring offset @off, following the wrap. */
static inline void rb_copy(const struct rb_map *rb, __u64 off, void *buf,
			   size_t len)
{
	__u64 mask = rb->size - 1;
	size_t first = rb->size - (off & mask);

	if (first > len)
		first = len;
	memcpy(buf, rb->data + (off & mask), first);
	memcpy((char *)buf + first, rb->data, len - first);
}

/* What a walk over records found. */
struct rb_stats {
	__u64 samples;		/* PERF_RECORD_SAMPLE */
	__u64 lost_records;	/* PERF_RECORD_LOST */
	__u64 lost;		/* sum of their counts */
	__u64 throttle;		/* PERF_RECORD_(UN)THROTTLE */
	__u64 bad;		/* anything malformed */
	__u64 bytes;
	struct rb_sample last;	/* the last sample seen */
};

/* Room for any record these tests expect to see whole. */
union rb_record {
	struct perf_event_header h;
	struct rb_sample s;
	struct rb_lost l;
};

/*
 * Check one record whose header is at @off; @rec receives up to
 * sizeof(*rec) bytes of it. Returns its size, 0 if malformed.
 */
static inline __u16 rb_check_record(const struct rb_map *rb, __u64 off,
				    __u64 end, union rb_record *rec)
{
	__u16 size;

	if (end - off < sizeof(rec->h))
		return 0;
	rb_copy(rb, off, &rec->h, sizeof(rec->h));
	size = rec->h.size;
	if (size < sizeof(rec->h) || size % 8 || size > end - off)
		return 0;
	switch (rec->h.type) {
	case PERF_RECORD_SAMPLE:
		if (size != sizeof(struct rb_sample))
			return 0;
		break;
	case PERF_RECORD_LOST:
		if (size != sizeof(struct rb_lost))
			return 0;
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (size < 8 + 3 * 8)
			return 0;
		break;
	default:
		return 0;
	}
	rb_copy(rb, off, rec, size < sizeof(*rec) ? size : sizeof(*rec));
	return size;
}

/*
 * Walk the records in [@from, @to) and add them to @st; @fn (may be NULL)
 * sees each well-formed one. Stops at the first malformed record.
 */
static inline void rb_walk(const struct rb_map *rb, __u64 from, __u64 to,
			   struct rb_stats *st,
			   void (*fn)(const union rb_record *rec, void *arg),
			   void *arg)
{
	union rb_record rec;
	__u64 off = from;
	__u16 size;

	/* offsets wrap in backward mode: compare for equality only */
	while (off != to) {
		size = rb_check_record(rb, off, to, &rec);
		if (!size) {
			st->bad++;
			return;
		}
		switch (rec.h.type) {
		case PERF_RECORD_SAMPLE:
			st->samples++;
			st->last = rec.s;
			break;
		case PERF_RECORD_LOST:
			st->lost_records++;
			st->lost += rec.l.lost;
			break;
		default:
			st->throttle++;
		}
		if (fn)
			fn(&rec, arg);
		off += size;
		st->bytes += size;
	}
}

/* Walk everything from data_tail to data_head and consume it. */
static inline void rb_drain(struct rb_map *rb, struct rb_stats *st,
			    void (*fn)(const union rb_record *rec, void *arg),
			    void *arg)
{
	__u64 head = rb_head(rb);
	__u64 tail = rb->pg->data_tail;

	rb_walk(rb, tail, head, st, fn, arg);
	rb_set_tail(rb, head);
}

/* read() with PERF_FORMAT_LOST: the count and the lost samples. */
static inline int rb_read_lost(int fd, __u64 *count, __u64 *lost)
{
	__u64 v[2];

	if (read(fd, v, sizeof(v)) != sizeof(v))
		return -1;
	*count = v[0];
	*lost = v[1];
	return 0;
}

/*
 * perf_event_max_sample_rate bounds the samples an event may take per
 * tick (rate / HZ; then it is throttled and its samples are neither
 * written nor counted lost). An arch PMU driver may have lowered it after
 * slow interrupts under emulation, so the tests that count every sample
 * raise it for their run and put it back afterwards.
 */
#define RB_SAMPLE_RATE	1000000
#define RB_RATE_PATH	SYSCTL("perf_event_max_sample_rate")

/* Raise the limit to RB_SAMPLE_RATE: the old value, -1 if unchanged. */
static inline int rb_raise_sample_rate(void)
{
	long old;

	if (read_long(RB_RATE_PATH, &old) || old < 0 || old >= RB_SAMPLE_RATE)
		return -1;
	if (write_long(RB_RATE_PATH, RB_SAMPLE_RATE))
		return -1;
	return old;
}

static inline void rb_restore_sample_rate(int old)
{
	if (old >= 0)
		write_long(RB_RATE_PATH, old);
}

#endif /* PERF_EVENTS_SELFTEST_RB_COMMON_H */
