// SPDX-License-Identifier: GPL-2.0
/*
 * Address filters: PERF_EVENT_IOC_SET_FILTER on a tracer PMU, one with
 * pmu->nr_addr_filters.
 *
 * The string is a list of items "ACTION ADDR[/SIZE][@FILE]", ACTION one
 * of filter, start and stop, the words separated by spaces, commas or
 * newlines, the numbers in C notation.  An item without @FILE is a kernel
 * range, taken as it is; one with it is an offset into the file, which
 * the core resolves against the mappings of the event's task when the
 * string is set, again at each executable mapping the task makes, and
 * drops (0, 0) at exec.  The PMU's addr_filters_validate() has the last
 * word on the list, and its addr_filters_sync() gets the ranges, once per
 * change, when it asks for them (perf_event_addr_filters_sync(), from
 * pmu::start(): at the restart the core makes of a running event for each
 * change, or at the next sched-in of one that is off).
 *
 * The PMU is module/perf_aux_pmu.c, "perf_aux_test": two filters, a third
 * refused with EOPNOTSUPP; with config:36 every read() of an active event
 * writes into the AUX area the driver's copy of the filters, 56 bytes
 * (struct frec): per slot the range and the action (~0 for none), then
 * the number of syncs the event has had.
 *
 * The core follows new mappings only while some event in the system asks
 * for mmap records (attr.mmap, as the perf tool's dummy event does):
 * tests that need it open one (mmap_watch()).
 *
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "module_load.h"
#include "perf_test.h"
#include "rb_common.h"

#define MOD_PATH	"/tests/modules/perf_aux_pmu.ko"
#define MOD_NAME	"perf_aux_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/perf_aux_test"
#define OUT_PMU_DIR	"/sys/bus/event_source/devices/perf_aux_test_out"

#define CFG_FILTERS	0x1000000000ULL	/* config:36 */

/* enum perf_addr_filter_action_t (include/linux/perf_event.h) */
#define ACT_STOP	0
#define ACT_START	1
#define ACT_FILTER	2
#define ACT_NONE	(~0ULL)

#define DATA_PAGES	4
#define AUX_PAGES	4
#define MAX_FDS		8
#define FILE_PAGES	4

/* the exec'd child of exec_resets: argv[1], then its two fds */
#define EXEC_FLAG	"--aux-filters-exec-child"

/* What a read() of a perf_aux_test event with config:36 writes. */
struct frec {
	struct {
		__u64 start;
		__u64 size;
		__u64 action;
	} slot[2];
	__u64 nr_syncs;
};

/* A mapping of one file, from /proc/self/maps. */
struct vma {
	unsigned long start, end, off;
};

static long psz;

/*
 * The code a file filter on this program points at (the ranges of the
 * tests reach past its end, still in the text).
 */
int marker(int x)
{
	asm volatile("" : "+r"(x));
	return x * 3 + 1;
}

/*
 * The exec'd child of exec_resets: runs before main().  One read() of its
 * inherited copy (argv[2]), which writes the copy's ranges into the
 * parent's AUX area, then where marker() is in this image down the pipe
 * (argv[3]).
 */
__attribute__((constructor)) static void exec_child(int argc, char **argv)
{
	unsigned long addr = (unsigned long)OPAQUE(&marker);
	__u64 v;

	if (argc < 4 || strcmp(argv[1], EXEC_FLAG))
		return;
	if (read(atoi(argv[2]), &v, sizeof(v)) != sizeof(v))
		_exit(2);
	if (write(atoi(argv[3]), &addr, sizeof(addr)) != sizeof(addr))
		_exit(3);
	_exit(0);
}

static int load_module(void)
{
	return test_module_load(MOD_PATH);
}

/* Remove the module, waiting for the last event of a test to let go. */
static int unload_module(void)
{
	return test_module_unload(MOD_NAME, 2000);
}

FIXTURE(filt) {
	long type, out_type;
	int fd;			/* the tracer */
	struct rb_map rb;
	unsigned char *aux;
	size_t aux_len;
	int fds[MAX_FDS];
	int nr_fd;
	char path[64];		/* a file of FILE_PAGES pages */
	struct stat st;
};

FIXTURE_SETUP(filt)
{
	int fd;

	psz = sysconf(_SC_PAGESIZE);
	self->fd = -1;
	self->aux = NULL;
	self->rb.pg = NULL;
	self->nr_fd = 0;
	self->path[0] = 0;
	unload_module();
	ASSERT_EQ(load_module(), 0) TH_LOG("load %s: %s", MOD_PATH,
					   strerror(errno));
	ASSERT_EQ(read_long(PMU_DIR "/type", &self->type), 0);
	ASSERT_EQ(read_long(OUT_PMU_DIR "/type", &self->out_type), 0);
	ASSERT_GE(self->type, PERF_TYPE_MAX);

	snprintf(self->path, sizeof(self->path), "/tmp/aux_filters.XXXXXX");
	fd = mkstemp(self->path);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ftruncate(fd, FILE_PAGES * psz), 0);
	ASSERT_EQ(fstat(fd, &self->st), 0);
	close(fd);
}

FIXTURE_TEARDOWN(filt)
{
	int i;

	if (self->aux)
		munmap(self->aux, self->aux_len);
	rb_unmap(&self->rb);
	if (self->fd >= 0)
		close(self->fd);
	for (i = 0; i < self->nr_fd; i++)
		close(self->fds[i]);
	if (self->path[0])
		unlink(self->path);
	unload_module();
}

/* Keep @fd, closed at teardown; @fd itself. */
static int keep(struct _test_data_filt *self, int fd)
{
	if (fd >= 0 && self->nr_fd < MAX_FDS)
		self->fds[self->nr_fd++] = fd;
	return fd;
}

/*
 * Open the tracer on @pid and @cpu (inherited when @inherit), map its
 * data buffer and AUX area, and enable it: 0 or -errno.  Enabled only
 * then: upstream stops a running AUX event when a buffer is attached to
 * it, until its next sched-in or restart.
 */
static int tracer_open(struct _test_data_filt *self, pid_t pid, int cpu,
		       bool inherit)
{
	struct perf_event_attr attr;
	int ret;
	void *p;

	perf_attr_init(&attr, self->type, CFG_FILTERS);
	attr.inherit = inherit;
	attr.disabled = 1;
	self->fd = sys_perf_event_open(&attr, pid, cpu, -1, 0);
	if (self->fd < 0)
		return -errno;
	ret = rb_mmap(&self->rb, self->fd, DATA_PAGES, PROT_READ | PROT_WRITE);
	if (ret)
		return ret;
	self->aux_len = AUX_PAGES * psz;
	p = rb_mmap_aux(&self->rb, self->fd, self->aux_len,
			PROT_READ | PROT_WRITE);
	if (p == MAP_FAILED)
		return -errno;
	self->aux = p;
	return ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

/*
 * An event asking for mmap records, without which the core does not
 * follow new mappings: the fd (kept), or -1.
 */
static int mmap_watch(struct _test_data_filt *self)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.mmap = 1;
	return keep(self, sys_perf_event_open(&attr, 0, -1, -1,
					       PERF_FLAG_FD_CLOEXEC));
}

static __u64 aux_head(struct _test_data_filt *self)
{
	return __atomic_load_n(&self->rb.pg->aux_head, __ATOMIC_ACQUIRE);
}

/*
 * Copy the record at AUX position @pos into @r and give the space back
 * (aux_tail, and data_tail for the PERF_RECORD_AUX).
 */
static void take(struct _test_data_filt *self, __u64 pos, struct frec *r)
{
	unsigned char *to = (unsigned char *)r;
	size_t i;

	for (i = 0; i < sizeof(*r); i++)
		to[i] = self->aux[(pos + i) & (self->aux_len - 1)];
	__atomic_store_n(&self->rb.pg->aux_tail, pos + sizeof(*r),
			 __ATOMIC_RELEASE);
	rb_set_tail(&self->rb, rb_head(&self->rb));
}

/*
 * One read() of the tracer: the driver's copy of the filters of the copy
 * that is on a CPU, in @r.  0, or -1 when no record came.
 */
static int snap(struct _test_data_filt *self, struct frec *r)
{
	__u64 head = aux_head(self);

	memset(r, 0xa5, sizeof(*r));
	if (perf_read_count(self->fd) == ~0ULL)
		return -1;
	if (aux_head(self) != head + sizeof(*r))
		return -1;
	take(self, head, r);
	return 0;
}

static int set_filter(int fd, const char *s)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, s) ? -errno : 0;
}

/* The mappings of the file @st, in address order: how many, or -1. */
static int file_vmas(const struct stat *st, struct vma *v, int max)
{
	unsigned int maj, min;
	unsigned long ino;
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < max) {
		if (sscanf(line, "%lx-%lx %*s %lx %x:%x %lu", &v[n].start,
			   &v[n].end, &v[n].off, &maj, &min, &ino) != 6)
			continue;
		if (maj == major(st->st_dev) && min == minor(st->st_dev) &&
		    ino == st->st_ino)
			n++;
	}
	fclose(f);
	return n;
}

/*
 * Where a filter of @size bytes at file offset @off lands among @v: the
 * first mapping whose file range touches it (ends included), the range
 * cut to that mapping; 0, 0 when none does.
 */
static void model(const struct vma *v, int n, unsigned long off,
		  unsigned long size, __u64 *start, __u64 *len)
{
	unsigned long vlen, end;
	int i;

	*start = 0;
	*len = 0;
	for (i = 0; i < n; i++) {
		vlen = v[i].end - v[i].start;
		if (off > v[i].off + vlen || off + size < v[i].off)
			continue;
		if (off < v[i].off) {
			*start = v[i].start;
			end = size - (v[i].off - off);
			*len = end < vlen ? end : vlen;
		} else {
			*start = v[i].start + (off - v[i].off);
			end = v[i].end - *start;
			*len = end < size ? end : size;
		}
		return;
	}
}

/* Map @pages pages of the test's file from page @pgoff with @prot. */
static void *map_file(struct _test_data_filt *self, void *at, int pgoff,
		      int pages, int prot)
{
	int fd = open(self->path, O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return MAP_FAILED;
	p = mmap(at, pages * psz, prot, MAP_PRIVATE | (at ? MAP_FIXED : 0),
		 fd, pgoff * psz);
	close(fd);
	return p;
}

/* Slot @i of @r is @start, @size, @action (checked at @line). */
static void expect_slot(struct __test_metadata *_metadata, int line,
			const struct frec *r, int i, __u64 start, __u64 size,
			__u64 action)
{
	EXPECT_EQ(r->slot[i].start, start) TH_LOG("line %d slot %d", line, i);
	EXPECT_EQ(r->slot[i].size, size) TH_LOG("line %d slot %d", line, i);
	EXPECT_EQ(r->slot[i].action, action)
		TH_LOG("line %d slot %d", line, i);
}

#define EXPECT_SLOT(r, i, s, l, a) \
	expect_slot(_metadata, __LINE__, &(r), i, (__u64)(s), (__u64)(l), (a))

struct parse_case {
	const char *s;		/* %s: the test's file */
	bool cpu;		/* on a CPU event, not a per-task one */
	int err;
};

static const struct parse_case parse_cases[] = {
	{ "filter 0x1000/0x100" },
	{ "start 0x1000" },
	{ "stop 0x1000" },
	{ "start 0x1000/0" },
	{ "stop 4096/16,filter 010/0x8" },
	{ "filter 0x1000/0x100\nstart 0x2000" },
	{ ",,filter , 0x1000/0x100 , ,\n" },
	{ "start 0x10@%s" },
	{ "stop 0x10/0x10@%s" },
	{ "filter 0x0/0x1@/proc/self/exe" },
	{ "filter 0x1000/0x100", true },
	{ "" },
	{ " ,\n" },
	{ "filter 0x1000", false, EINVAL },
	{ "filter 0x1000/0", false, EINVAL },
	{ "filter 0x10@%s", false, EINVAL },
	{ "filter 0x1000@/nonexistent", true, EINVAL },
	{ "filter", false, EINVAL },
	{ "filter 0x1000/0x100 start", false, EINVAL },
	{ "0x1000/0x100", false, EINVAL },
	{ "filter start 0x1000/0x100", false, EINVAL },
	{ "filter 0x1000/0x100 0x2000/0x100", false, EINVAL },
	{ "trace 0x1000/0x100", false, EINVAL },
	{ "FILTER 0x1000/0x100", false, EINVAL },
	{ "filter\t0x1000/0x100", false, EINVAL },
	{ "filter 0x1000z/0x100", false, EINVAL },
	{ "filter 0x1000/0x100z", false, EINVAL },
	{ "filter 0x1000/", false, EINVAL },
	{ "filter /0x100", false, EINVAL },
	{ "filter -1/0x100", false, EINVAL },
	{ "filter +1/0x100", false, EINVAL },
	{ "filter 08/0x100", false, EINVAL },
	{ "filter 0x/0x100", false, EINVAL },
	{ "filter 0x10000000000000000/0x100", false, ERANGE },
	{ "filter 0x1000/0x10000000000000000", false, ERANGE },
	{ "filter 0x1000/0x100@", false, EINVAL },
	{ "start 0x1000@", false, EINVAL },
	{ "filter 0x1000/0x100 @%s", false, EINVAL },
	{ "filter 0x1000/0x100@/nonexistent", false, ENOENT },
	{ "filter 0x1000/0x100@/proc/self/exe/x", false, ENOTDIR },
	{ "filter 0x1000/0x100@/proc", false, EINVAL },
	{ "filter 0x1000/0x100@/dev/null", false, EINVAL },
	{ "filter 0x1000/0x100@%s", true, EOPNOTSUPP },
	{ "filter 0x1000/0x100@/nonexistent", true, EOPNOTSUPP },
	{ "start 1,stop 2,start 3", false, EOPNOTSUPP },
	{ "start 1,stop 2,start 3@/nonexistent", false, ENOENT },
	{ "start 1,stop 2,start 3,stop", false, EINVAL },
};

/*
 * The errno of every kind of bad string, and that the good ones set: the
 * parser's (EINVAL for a word out of place, a missing or malformed
 * number, size 0 with "filter", an empty file; ERANGE for a number past
 * 64 bits; EOPNOTSUPP for a file on a CPU event, before the file is
 * looked up), the path lookup's (ENOENT, ENOTDIR; EINVAL for what is not
 * a regular file), then the PMU's validate (EOPNOTSUPP for three).  A
 * string longer than a page is EINVAL, a bad pointer EFAULT, and an event
 * whose PMU has no address filters takes no string at all (EINVAL).
 */
TEST_F(filt, parse_errnos)
{
	struct perf_event_attr attr;
	int cpu_fd, sw_fd, out_fd, fd, ret;
	char s[256], *big;
	unsigned int i;

	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	perf_attr_init(&attr, self->type, CFG_FILTERS);
	cpu_fd = keep(self, sys_perf_event_open(&attr, -1, 0, -1, 0));
	ASSERT_GE(cpu_fd, 0);

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];

		snprintf(s, sizeof(s), c->s, self->path);
		fd = c->cpu ? cpu_fd : self->fd;
		ret = set_filter(fd, s);
		EXPECT_EQ(ret, -c->err) TH_LOG("\"%s\"%s: %s", s,
					       c->cpu ? " (cpu)" : "",
					       strerror(-ret));
	}

	/* strndup_user(, PAGE_SIZE): a page with its NUL is the limit */
	big = malloc(psz + 1);
	ASSERT_NE(big, NULL);
	memset(big, ' ', psz);
	big[psz - 1] = 0;
	EXPECT_EQ(set_filter(self->fd, big), 0);
	big[psz - 1] = ' ';
	big[psz] = 0;
	EXPECT_EQ(set_filter(self->fd, big), -EINVAL);
	free(big);
	EXPECT_EQ(set_filter(self->fd, NULL), -EFAULT);

	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	sw_fd = keep(self, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_GE(sw_fd, 0);
	EXPECT_EQ(set_filter(sw_fd, "filter 0x1000/0x100"), -EINVAL);
	EXPECT_EQ(set_filter(sw_fd, ""), -EINVAL);
	perf_attr_init(&attr, self->out_type, 0);
	out_fd = keep(self, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_GE(out_fd, 0);
	EXPECT_EQ(set_filter(out_fd, "filter 0x1000/0x100"), -EINVAL);
}

/*
 * A kernel range (no file) reaches the driver as written, on a per-task
 * event and on a CPU event: offset and size in C notation (hex, octal,
 * decimal), size 0 for a lone address, with its action, in the order of
 * the string; a slot without a filter is empty.
 */
TEST_F(filt, kernel_range_as_is)
{
	struct frec r;

	ASSERT_EQ(pin_to_cpu(0), 0);
	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_NONE);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);

	ASSERT_EQ(set_filter(self->fd,
			     "filter 0x1000/0x100 stop 0xffffffff81000000"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x1000, 0x100, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0xffffffff81000000ULL, 0, ACT_STOP);

	ASSERT_EQ(set_filter(self->fd, "start 010/4096"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 8, 4096, ACT_START);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);

	/* a CPU event: the same */
	rb_unmap(&self->rb);
	munmap(self->aux, self->aux_len);
	self->aux = NULL;
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(tracer_open(self, -1, 0, false), 0);
	ASSERT_EQ(set_filter(self->fd,
			     "stop 0xffffffffffffffff,filter 0/0x1"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, ~0ULL, 0, ACT_STOP);
	EXPECT_SLOT(r, 1, 0, 1, ACT_FILTER);
}

/*
 * A file range resolves against the task's mappings at the time it is
 * set, whatever their protection: the first mapping, in address order,
 * of that file (same inode) whose file range touches the filter's, ends
 * included; an offset inside it lands at vm_start plus its distance from
 * the mapping's file offset, one before it at vm_start; the size is cut
 * to the mapping.  Checked against /proc/self/maps on this program
 * (a range inside marker(), one across the start of its text mapping)
 * and on a file mapped in two pieces out of order.
 */
TEST_F(filt, file_range_resolves)
{
	unsigned long m = (unsigned long)OPAQUE(&marker);
	__u64 start, len, start1, len1;
	struct vma v[16];
	struct stat exe;
	struct frec r;
	long moff;
	char s[256];
	char *base;
	int n, i;
	static const struct {
		unsigned long off, size;
	} fcases[] = {
		{ 0x2100, 0x10 },	/* in the first mapping */
		{ 0x100, 0x10 },	/* in the second */
		{ 0x1f00, 0x200 },	/* before the first, touching it */
		{ 0x3800, 0x1000 },	/* past the first's end: cut */
		{ 0x4000, 0x10 },	/* at the first's end: size 0 */
		{ 0x4001, 0x10 },	/* beyond both: none */
	};

	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);

	/* this program: marker() */
	ASSERT_EQ(stat("/proc/self/exe", &exe), 0);
	moff = self_file_offset((void *)m);
	ASSERT_GT(moff, 0);
	n = file_vmas(&exe, v, 16);
	ASSERT_GT(n, 0);
	model(v, n, moff, 0x40, &start, &len);
	ASSERT_EQ(start, m);
	snprintf(s, sizeof(s), "filter 0x%lx/0x40@/proc/self/exe", moff);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, m, 0x40, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);

	/*
	 * Across the start of the mapping of marker()'s text, or (when that
	 * starts the file, as on arm64) of the first that does not.
	 */
	for (i = 0; i < n; i++)
		if (m >= v[i].start && m < v[i].end)
			break;
	ASSERT_LT(i, n);
	if (v[i].off < 0x20)
		for (i = 0; i < n; i++)
			if (v[i].off >= 0x20)
				break;
	ASSERT_LT(i, n);
	model(v, n, v[i].off - 0x20, 0x100, &start, &len);
	ASSERT_NE(start, 0);
	snprintf(s, sizeof(s), "start 0x%lx/0x100@/proc/self/exe,stop %lu",
		 v[i].off - 0x20, m);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, start, len, ACT_START);
	EXPECT_SLOT(r, 1, m, 0, ACT_STOP);
	TH_LOG("mapping %lx-%lx off %lx; 0x20 before it: %llx/%llx",
	       v[i].start, v[i].end, v[i].off, (unsigned long long)start,
	       (unsigned long long)len);

	/*
	 * The file: pages 2-3 mapped below pages 0-1 (read-only, a hole
	 * between them), so the first in address order is not the first in
	 * the file.
	 */
	base = mmap(NULL, 8 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	ASSERT_NE(base, MAP_FAILED);
	ASSERT_EQ(map_file(self, base, 2, 2, PROT_READ), base);
	ASSERT_EQ(map_file(self, base + 4 * psz, 0, 2, PROT_READ),
		  base + 4 * psz);
	munmap(base + 2 * psz, 2 * psz);
	n = file_vmas(&self->st, v, 16);
	ASSERT_EQ(n, 2);
	ASSERT_EQ(v[0].start, (unsigned long)base);

	for (i = 0; i < (int)ARRAY_SIZE(fcases); i++) {
		unsigned long off = fcases[i].off * psz / 0x1000;
		unsigned long size = fcases[i].size * psz / 0x1000;

		model(v, n, off, size, &start, &len);
		model(v, n, 0, psz, &start1, &len1);
		snprintf(s, sizeof(s), "filter 0x%lx/0x%lx@%s stop 0/0x%lx@%s",
			 off, size, self->path, psz, self->path);
		ASSERT_EQ(set_filter(self->fd, s), 0);
		ASSERT_EQ(snap(self, &r), 0);
		TH_LOG("0x%lx/0x%lx: %llx/%llx", off, size,
		       (unsigned long long)start, (unsigned long long)len);
		EXPECT_SLOT(r, 0, start, len, ACT_FILTER);
		EXPECT_SLOT(r, 1, start1, len1, ACT_STOP);
	}
	/* two of the model's answers, spelled out */
	snprintf(s, sizeof(s), "filter 0x%lx/0x%lx@%s,start 0x%lx@%s",
		 2 * psz - 0x100, 0x200UL, self->path, 4 * psz, self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, base, 0x100, ACT_FILTER);
	EXPECT_SLOT(r, 1, base + 2 * psz, 0, ACT_START);
	munmap(base, 8 * psz);
}

/*
 * After the string is set, an executable mapping of the file that touches
 * a filter moves it there (the latest one wins, whatever its address),
 * and the driver syncs once for it; a mapping without PROT_EXEC, one that
 * does not touch the range, or an unmap do not.  mprotect() adding
 * PROT_EXEC counts as a mapping.  A kernel filter beside it stays.
 */
TEST_F(filt, exec_mapping_moves_range)
{
	char *a, *b, *c, *ro;
	struct frec r;
	char s[256];
	__u64 syncs;

	ASSERT_GE(mmap_watch(self), 0);
	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	snprintf(s, sizeof(s), "filter 0x%lx/0x100@%s,stop 0x1234", psz,
		 self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0x1234, 0, ACT_STOP);
	syncs = r.nr_syncs;

	ro = map_file(self, NULL, 0, 2, PROT_READ);
	ASSERT_NE(ro, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, syncs);

	a = map_file(self, NULL, 0, 2, PROT_READ | PROT_EXEC);
	ASSERT_NE(a, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, a + psz, 0x100, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0x1234, 0, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, syncs + 1);

	/* a second one: the range follows it */
	b = map_file(self, NULL, 1, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(b, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, b, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, syncs + 2);

	/* not touching the range: nothing */
	c = map_file(self, NULL, 3, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(c, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, b, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, syncs + 2);

	/* unmapping leaves the range where it is */
	munmap(b, psz);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, b, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, syncs + 2);

	/* the read-only mapping made executable */
	ASSERT_EQ(mprotect(ro, 2 * psz, PROT_READ | PROT_EXEC), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, ro + psz, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, syncs + 3);

	munmap(a, 2 * psz);
	munmap(c, psz);
	munmap(ro, 2 * psz);
}

/*
 * Upstream follows new mappings only while some event asks for mmap
 * records (attr.mmap or mmap_data; nr_mmap_events): without one, an
 * executable mapping made after the string was set leaves the range
 * alone; the filter set again resolves against it.
 */
TEST_F(filt, mmap_moves_need_mmap_event)
{
	struct frec r;
	char s[256];
	char *a, *b;

	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	snprintf(s, sizeof(s), "filter 0/0x100@%s", self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	a = map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(a, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 2);

	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, a, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 3);

	ASSERT_GE(mmap_watch(self), 0);
	b = map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(b, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, b, 0x100, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 4);
	munmap(a, psz);
	munmap(b, psz);
}

static void *map_exec_thread(void *arg)
{
	struct _test_data_filt *self = arg;

	return map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
}

/*
 * An event of one thread follows the mappings that thread makes: another
 * thread's executable mapping of the file, in the same address space,
 * leaves the range alone.
 */
TEST_F(filt, other_thread_mapping_ignored)
{
	pthread_t t;
	struct frec r;
	char s[256];
	void *a;

	ASSERT_GE(mmap_watch(self), 0);
	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	snprintf(s, sizeof(s), "filter 0/0x100@%s", self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(pthread_create(&t, NULL, map_exec_thread, self), 0);
	ASSERT_EQ(pthread_join(t, &a), 0);
	ASSERT_NE(a, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 2);
	munmap(a, psz);
}

/*
 * An empty string (or one of separators only) removes every filter: the
 * driver syncs once more and sees empty slots.
 */
TEST_F(filt, empty_string_clears)
{
	struct frec r;

	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	ASSERT_EQ(set_filter(self->fd, "filter 0x1000/0x10,start 0x2000"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x1000, 0x10, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0x2000, 0, ACT_START);
	EXPECT_EQ(r.nr_syncs, 2);

	ASSERT_EQ(set_filter(self->fd, ""), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_NONE);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);
	EXPECT_EQ(r.nr_syncs, 3);

	ASSERT_EQ(set_filter(self->fd, "stop 0x3000"), 0);
	ASSERT_EQ(set_filter(self->fd, " ,\n"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0, 0, ACT_NONE);
	EXPECT_EQ(r.nr_syncs, 5);
}

/*
 * Three filters: the PMU's validate refuses them (EOPNOTSUPP), and the
 * filters set before stay, unsynced again, and still follow mappings.
 * So does a string the parser refuses.
 */
TEST_F(filt, too_many_filters)
{
	struct frec r;
	char s[256];
	char *a;

	ASSERT_GE(mmap_watch(self), 0);
	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	snprintf(s, sizeof(s), "filter 0x1000/0x10,stop 0/0x10@%s",
		 self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 2);

	EXPECT_EQ(set_filter(self->fd, "start 1,start 2,start 3"),
		  -EOPNOTSUPP);
	snprintf(s, sizeof(s), "start 1 start 2 start 3@%s stop 4",
		 self->path);
	EXPECT_EQ(set_filter(self->fd, s), -EOPNOTSUPP);
	EXPECT_EQ(set_filter(self->fd, "start 1,stop 2 filter 3"), -EINVAL);
	EXPECT_EQ(set_filter(self->fd, "start 1@/nonexistent"), -ENOENT);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x1000, 0x10, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0, 0, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 2);

	a = map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(a, MAP_FAILED);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x1000, 0x10, ACT_FILTER);
	EXPECT_SLOT(r, 1, a, 0x10, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 3);
	munmap(a, psz);
}

/*
 * The driver syncs once per change: the first start after the open,
 * then one per string set while the event runs (the same string again is
 * a change too), none for reads, context switches or an enable without a
 * change; strings set while the event is disabled make one sync at the
 * enable.
 */
TEST_F(filt, sync_once_per_change)
{
	struct frec r;

	ASSERT_EQ(tracer_open(self, 0, -1, false), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 1);
	ASSERT_EQ(snap(self, &r), 0);
	usleep(2000);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 1);

	ASSERT_EQ(set_filter(self->fd, "start 0x1000"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 2);
	ASSERT_EQ(set_filter(self->fd, "start 0x1000"), 0);
	ASSERT_EQ(set_filter(self->fd, "start 0x1000"), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 4);

	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	usleep(2000);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_EQ(r.nr_syncs, 4);

	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_EQ(snap(self, &r), -1);
	ASSERT_EQ(set_filter(self->fd, "stop 0x2000"), 0);
	ASSERT_EQ(set_filter(self->fd, "stop 0x3000/0x10"), 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x3000, 0x10, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 5);
}

/* Wait until @pid sleeps (state S in /proc/PID/stat): 0, or -1. */
static int wait_sleeping(pid_t pid)
{
	char path[64], buf[256], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 2000; i++) {
		if (read_file(path, buf, sizeof(buf)))
			return -1;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return 0;
		usleep(500);
	}
	return -1;
}

/* Tell the child @c, wait for its answer: 0, or -1. */
static int child_cmd(int to, int from, char c)
{
	char a;

	if (write(to, &c, 1) != 1 || read(from, &a, 1) != 1)
		return -1;
	return a == c ? 0 : -1;
}

/*
 * The child of sync_at_sched_in: on CPU 1; 's' makes it spin until
 * *@stop, 'q' leaves.  It answers each command once it has taken it.
 */
static void spinner(int in, int out, int *stop)
{
	char c;

	/* a test that fails midway leaves no spinner behind */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1 ||
	    pin_to_cpu(1))
		_exit(1);
	while (read(in, &c, 1) == 1) {
		if (c == 'q')
			_exit(0);
		if (write(out, &c, 1) != 1)
			_exit(2);
		if (c == 's')
			while (!__atomic_load_n(stop, __ATOMIC_RELAXED))
				;
		__atomic_store_n(stop, 0, __ATOMIC_RELAXED);
	}
	_exit(3);
}

/*
 * A read of the event on the spinning child, on the other CPU: retried
 * until the child is on (its event active and the record written).
 */
static int snap_remote(struct _test_data_filt *self, struct frec *r)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (!snap(self, r))
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * Changes made while the event's task is off a CPU reach the driver at
 * its next sched-in, all in one sync; while it runs, each makes one.
 * The event is on a child that sleeps or spins on CPU 1.
 */
TEST_F(filt, sync_at_sched_in)
{
	int to[2], from[2], status;
	int *stop;
	struct frec r;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	ASSERT_EQ(pin_to_cpu(0), 0);
	stop = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(stop, MAP_FAILED);
	*stop = 0;
	ASSERT_EQ(pipe(to), 0);
	ASSERT_EQ(pipe(from), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		spinner(to[0], from[1], stop);

	/* opened while the child sleeps: it has never been on */
	ASSERT_EQ(child_cmd(to[1], from[0], 'w'), 0);
	ASSERT_EQ(wait_sleeping(pid), 0);
	ASSERT_EQ(tracer_open(self, pid, -1, false), 0);
	ASSERT_EQ(set_filter(self->fd, "start 0x1000"), 0);
	ASSERT_EQ(set_filter(self->fd, "start 0x2000"), 0);
	ASSERT_EQ(child_cmd(to[1], from[0], 's'), 0);
	ASSERT_EQ(snap_remote(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x2000, 0, ACT_START);
	EXPECT_EQ(r.nr_syncs, 1);

	ASSERT_EQ(set_filter(self->fd, "start 0x3000"), 0);
	ASSERT_EQ(snap_remote(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x3000, 0, ACT_START);
	EXPECT_EQ(r.nr_syncs, 2);

	/* stopped: it sleeps in read() again (answering 'w' shows it) */
	__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(child_cmd(to[1], from[0], 'w'), 0);
	ASSERT_EQ(wait_sleeping(pid), 0);
	EXPECT_EQ(snap(self, &r), -1);
	ASSERT_EQ(set_filter(self->fd, "stop 0x4000"), 0);
	ASSERT_EQ(set_filter(self->fd, "stop 0x5000"), 0);
	ASSERT_EQ(child_cmd(to[1], from[0], 's'), 0);
	ASSERT_EQ(snap_remote(self, &r), 0);
	EXPECT_SLOT(r, 0, 0x5000, 0, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 3);
	__atomic_store_n(stop, 1, __ATOMIC_RELAXED);

	ASSERT_EQ(write(to[1], "q", 1), 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	munmap(stop, psz);
}

/*
 * An inherited copy starts with the ranges of its parent at the fork
 * (and syncs them at its first start), then resolves its own: its task's
 * executable mappings move its ranges only, and a string set on the
 * parent later resolves against each task's own mappings.  On CPU 0: an
 * inherited event needs a CPU for its buffer; the child reads the
 * parent's fd, which reads the copy on the CPU, the child, while the
 * parent sleeps.
 */
TEST_F(filt, inherited_copy_resolves)
{
	int to[2], from[2], status;
	struct frec r;
	char *a, *b;
	char s[256];
	pid_t pid;
	char c;

	ASSERT_EQ(pin_to_cpu(0), 0);
	ASSERT_GE(mmap_watch(self), 0);
	ASSERT_EQ(tracer_open(self, 0, 0, true), 0);
	a = map_file(self, NULL, 0, 2, PROT_READ | PROT_EXEC);
	ASSERT_NE(a, MAP_FAILED);
	snprintf(s, sizeof(s), "filter 0x100/0x10@%s,stop 0x1234", self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, a + 0x100, 0x10, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 2);

	ASSERT_EQ(pipe(to), 0);
	ASSERT_EQ(pipe(from), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		__u64 v;

		/* 1: as the parent's */
		if (read(self->fd, &v, sizeof(v)) != sizeof(v))
			_exit(1);
		/* 2: its own mapping, the parent's gone */
		munmap(a, 2 * psz);
		b = map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
		if (b == MAP_FAILED ||
		    read(self->fd, &v, sizeof(v)) != sizeof(v) ||
		    write(from[1], &b, sizeof(b)) != sizeof(b))
			_exit(2);
		/* 3: after the parent set a string again */
		if (read(to[0], &c, 1) != 1 ||
		    read(self->fd, &v, sizeof(v)) != sizeof(v))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(read(from[0], &b, sizeof(b)), sizeof(b));
	ASSERT_EQ(wait_sleeping(pid), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, a + 0x100, 0x10, ACT_FILTER);
	EXPECT_EQ(r.nr_syncs, 2);

	snprintf(s, sizeof(s), "stop 0x200@%s", self->path);
	ASSERT_EQ(set_filter(self->fd, s), 0);
	ASSERT_EQ(snap(self, &r), 0);
	EXPECT_SLOT(r, 0, a + 0x200, 0, ACT_STOP);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);
	EXPECT_EQ(r.nr_syncs, 3);
	ASSERT_EQ(write(to[1], "g", 1), 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status 0x%x", status);

	/* the child's three records, between the parent's */
	ASSERT_EQ(aux_head(self), 6 * sizeof(r));
	take(self, 1 * sizeof(r), &r);
	EXPECT_SLOT(r, 0, a + 0x100, 0x10, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0x1234, 0, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 1);
	take(self, 2 * sizeof(r), &r);
	EXPECT_SLOT(r, 0, b + 0x100, 0x10, ACT_FILTER);
	EXPECT_SLOT(r, 1, 0x1234, 0, ACT_STOP);
	EXPECT_EQ(r.nr_syncs, 2);
	take(self, 5 * sizeof(r), &r);
	EXPECT_SLOT(r, 0, b + 0x200, 0, ACT_STOP);
	EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);
	EXPECT_EQ(r.nr_syncs, 3);
	munmap(a, 2 * psz);
}

/*
 * exec drops every file range of the execing task's copy to 0, 0 and
 * keeps its filters; the new program's own executable mapping of a
 * filter's file (here: this program, exec'd again) resolves it anew.
 * Each is a change, synced once: the exec'd child of the first round has
 * its first start, the exec and the mapping of its text (3 syncs), that
 * of the second no mapping of the file (2).  A kernel filter stays as it
 * is, and an exec with kernel filters only changes nothing (1).
 */
TEST_F(filt, exec_resets)
{
	unsigned long m = (unsigned long)OPAQUE(&marker), addr;
	int out[2], status, round;
	struct frec r;
	char s[256], fdstr[16], pstr[16];
	long moff;
	pid_t pid;
	char *a;

	ASSERT_EQ(pin_to_cpu(0), 0);
	ASSERT_GE(mmap_watch(self), 0);
	ASSERT_EQ(tracer_open(self, 0, 0, true), 0);
	a = map_file(self, NULL, 0, 1, PROT_READ | PROT_EXEC);
	ASSERT_NE(a, MAP_FAILED);
	moff = self_file_offset((void *)m);
	ASSERT_GT(moff, 0);
	ASSERT_EQ(pipe(out), 0);

	for (round = 0; round < 3; round++) {
		if (round == 0)
			snprintf(s, sizeof(s),
				 "filter 0x%lx/0x40@/proc/self/exe,start 0x10@%s",
				 moff, self->path);
		else if (round == 1)
			snprintf(s, sizeof(s), "stop 0x10@%s filter 0x8/0x8",
				 self->path);
		else
			snprintf(s, sizeof(s), "filter 0x8/0x8");
		ASSERT_EQ(set_filter(self->fd, s), 0);
		ASSERT_EQ(snap(self, &r), 0);
		if (round == 0) {
			EXPECT_SLOT(r, 0, m, 0x40, ACT_FILTER);
			EXPECT_SLOT(r, 1, a + 0x10, 0, ACT_START);
		} else if (round == 1) {
			EXPECT_SLOT(r, 0, a + 0x10, 0, ACT_STOP);
			EXPECT_SLOT(r, 1, 8, 8, ACT_FILTER);
		}

		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			snprintf(fdstr, sizeof(fdstr), "%d", self->fd);
			snprintf(pstr, sizeof(pstr), "%d", out[1]);
			execl("/proc/self/exe", "aux_filters", EXEC_FLAG,
			      fdstr, pstr, NULL);
			_exit(4);
		}
		ASSERT_EQ(waitpid(pid, &status, 0), pid);
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("child status 0x%x", status);
		ASSERT_EQ(read(out[0], &addr, sizeof(addr)), sizeof(addr));
		ASSERT_EQ(aux_head(self), (2 * round + 2) * sizeof(r));
		take(self, (2 * round + 1) * sizeof(r), &r);
		if (round == 0) {
			EXPECT_SLOT(r, 0, addr, 0x40, ACT_FILTER);
			EXPECT_SLOT(r, 1, 0, 0, ACT_START);
		} else if (round == 1) {
			EXPECT_SLOT(r, 0, 0, 0, ACT_STOP);
			EXPECT_SLOT(r, 1, 8, 8, ACT_FILTER);
		} else {
			EXPECT_SLOT(r, 0, 8, 8, ACT_FILTER);
			EXPECT_SLOT(r, 1, 0, 0, ACT_NONE);
		}
		EXPECT_EQ(r.nr_syncs, 3 - round) TH_LOG("round %d", round);
	}
	munmap(a, psz);
}

TEST_HARNESS_MAIN
