// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe PMU and the uprobes engine under it (F20): events opened with
 * attr.type = the "uprobe" PMU's type, attr.uprobe_path = a binary (this
 * test's own), attr.probe_offset = a file offset, attr.config bit 0 for a
 * return probe and bits 32-63 for an SDT reference counter.
 *
 *  - entry and return probes count every call, on instructions the arch
 *    steps out of line and on ones it emulates;
 *  - samples carry the probed address (entry) or the caller's return
 *    address (return), and the probed code computes what it should; user
 *    callchains show real return addresses, not the return trampoline;
 *  - the breakpoint is in this process's text while an event is open and
 *    gone after, private copy of the page included; a mapping made later
 *    gets it too;
 *  - the reference counter is 1 while the probe is in, 0 after, also when
 *    its data is mapped after the text, and a second counter offset for
 *    the same probe is refused;
 *  - forked children run probed code unharmed, and are counted only with
 *    inherit; a child forked inside a return probe returns through it;
 *    threads hitting one probe at once are all counted; probes opened and
 *    closed while threads hit them and fork harm no task;
 *  - a breakpoint already in the file is refused with ENOTSUPP, and bad
 *    paths and offsets with the errno upstream gives;
 *  - PERF_EVENT_IOC_SET_FILTER applies a trace event filter (common_pid),
 *    one per event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"
#include "uprobe_funcs.h"

#define UPROBE_PMU	"/sys/bus/event_source/devices/uprobe"
#define RETPROBE	1ull
#define REF_CTR_SHIFT	32
#define ENOTSUPP	524

static char self_path[4096];

static int uprobe_type(void)
{
	long type;

	if (read_long(UPROBE_PMU "/type", &type))
		return -1;
	return type;
}

/* a counting (or sampling, @period) uprobe on this process */
static int open_probe_on(pid_t pid, const void *fn, __u64 config,
			 __u64 period, int inherit)
{
	struct perf_event_attr attr;
	int type = uprobe_type();
	long off = self_file_offset(fn);

	if (type < 0 || off < 0)
		return -2;
	perf_attr_init(&attr, type, config);
	attr.uprobe_path = (__u64)(uintptr_t)self_path;
	attr.probe_offset = off;
	attr.inherit = inherit;
	if (period) {
		attr.sample_period = period;
		attr.sample_type = RB_SAMPLE_TYPE;
		attr.wakeup_events = 1;
	}
	return sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int open_probe(const void *fn, __u64 config)
{
	return open_probe_on(0, fn, config, 0, 0);
}

/* does this process's text at @fn start with the breakpoint? */
static bool bp_at(const void *fn)
{
	return !memcmp(fn, bp_insn, BP_LEN);
}

/* kB of private (anonymous) pages in the text mapping holding @fn */
static long text_anon_kb(const void *fn)
{
	unsigned long a = (unsigned long)fn, start, end;
	char line[512];
	bool in = false;
	long kb = -1, v;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a >= start && a < end;
			continue;
		}
		if (in && sscanf(line, "Anonymous: %ld kB", &v) == 1) {
			kb = v;
			break;
		}
	}
	fclose(f);
	return kb;
}

FIXTURE(up) {
	int type;
};

FIXTURE_SETUP(up)
{
	ssize_t n;

	self->type = uprobe_type();
	ASSERT_GE(self->type, 0) TH_LOG("no uprobe PMU at %s", UPROBE_PMU);
	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	ASSERT_GT(n, 0);
	self_path[n] = 0;
}

FIXTURE_TEARDOWN(up)
{
}

static void call_n(long (*fn)(long), int n, long add,
		   struct __test_metadata *_metadata)
{
	int i;

	for (i = 0; i < n; i++)
		ASSERT_EQ(OPAQUE(fn)(i), i + add);
}

/* every call counts, whichever way the arch runs the probed instruction */
TEST_F(up, entry_counts_every_call)
{
	struct { long (*fn)(long); long add; const char *name; } cases[] = {
		{ uf_step, 1, "stepped" },
		{ uf_emul, 2, "emulated" },
		{ uf_pcrel, 3, "pc-relative" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int fd = open_probe(cases[i].fn, 0);

		ASSERT_GE(fd, 0) TH_LOG("%s: %s", cases[i].name, strerror(errno));
		call_n(cases[i].fn, 1000, cases[i].add, _metadata);
		EXPECT_EQ(perf_read_count(fd), 1000) TH_LOG("%s", cases[i].name);
		close(fd);
	}
}

/* return probes count every return, and the caller gets the right value */
TEST_F(up, return_counts_every_return)
{
	int fd, i;

	fd = open_probe(uf_step, RETPROBE);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(OPAQUE(uf_step)(i), i + 1);
		ASSERT_EQ(OPAQUE(uf_call)(i), i + 1);
	}
	EXPECT_EQ(perf_read_count(fd), 1000);
	close(fd);
}

static long recurse(long depth)
{
	if (!depth)
		return 0;
	return OPAQUE(recurse)(depth - 1) + 1;
}

/* nested frames of one probed function each return through the probe */
TEST_F(up, return_probe_on_recursion)
{
	int fd, i;

	fd = open_probe(recurse, RETPROBE);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 20; i++)
		ASSERT_EQ(OPAQUE(recurse)(30), 30);
	EXPECT_EQ(perf_read_count(fd), 20 * 31);
	close(fd);
}

/*
 * PERF_EVENT_IOC_SET_FILTER takes a trace event filter on a uprobe event
 * as on a tracepoint's: common_pid 0 (the idle task, never in user space)
 * keeps every hit out, this process's pid lets them all count, and an
 * event takes one filter only (EEXIST).
 */
TEST_F(up, set_filter)
{
	char filter[64];
	int fd;

	fd = open_probe(uf_step, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid == 0"), 0)
		TH_LOG("SET_FILTER on a uprobe event: %s", strerror(errno));
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"), -1);
	EXPECT_EQ(errno, EEXIST);
	call_n(uf_step, 100, 1, _metadata);
	EXPECT_EQ(perf_read_count(fd), 0);
	close(fd);

	fd = open_probe(uf_step, RETPROBE);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter), 0)
		TH_LOG("SET_FILTER on a uretprobe event: %s", strerror(errno));
	call_n(uf_step, 100, 1, _metadata);
	EXPECT_EQ(perf_read_count(fd), 100);
	close(fd);

	fd = open_probe(uf_step, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
}

struct ip_log {
	int n;
	__u64 ip[64];
};

static void log_ip(const union rb_record *rec, void *arg)
{
	struct ip_log *log = arg;

	if (rec->h.type == PERF_RECORD_SAMPLE && log->n < 64)
		log->ip[log->n++] = rec->s.ip;
}

static void sample_ips(int fd, long (*fn)(long), int calls, struct ip_log *log,
		       struct __test_metadata *_metadata)
{
	struct rb_stats st = { 0 };
	struct rb_map rb;
	int i;

	ASSERT_EQ(rb_mmap(&rb, fd, 4, PROT_READ | PROT_WRITE), 0);
	for (i = 0; i < calls; i++)
		OPAQUE(fn)(i);
	memset(log, 0, sizeof(*log));
	rb_drain(&rb, &st, log_ip, log);
	rb_unmap(&rb);
	EXPECT_EQ(st.bad, 0);
}

/* entry samples are at the probed address, return samples at the caller's */
TEST_F(up, sample_ips)
{
	struct ip_log log;
	int fd, i;

	fd = open_probe_on(0, uf_step, 0, 1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	sample_ips(fd, uf_step, 5, &log, _metadata);
	EXPECT_EQ(log.n, 5);
	for (i = 0; i < log.n; i++)
		EXPECT_EQ(log.ip[i], (__u64)(uintptr_t)uf_step);
	close(fd);

	fd = open_probe_on(0, uf_step, RETPROBE, 1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	sample_ips(fd, uf_call, 5, &log, _metadata);
	EXPECT_EQ(log.n, 5);
	for (i = 0; i < log.n; i++)
		EXPECT_EQ(log.ip[i], (__u64)(uintptr_t)uf_after_call);
	close(fd);
}

/* the start and end of this process's [uprobes] mapping, 0 if none */
static void xol_range(unsigned long *start, unsigned long *end)
{
	char line[512];
	FILE *f;

	*start = *end = 0;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[uprobes]") &&
		    sscanf(line, "%lx-%lx", start, end) == 2)
			break;
	}
	fclose(f);
}

/* calls uf_step from a frame with a frame pointer; out of line */
static long outer(long x)
{
	return OPAQUE(uf_step)(x) + 1;
}

/*
 * While a return probe of outer() is pending, its return address on the
 * stack is the trampoline.  A sample's user callchain taken then (at
 * uf_step, called from outer) shows outer's real return address instead.
 */
TEST_F(up, callchain_hides_trampoline)
{
	unsigned long xol_start, xol_end;
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	int ret, fd, i, seen = 0;
	__u64 head, off;
	char *data;
	void *map;

	ret = open_probe(outer, RETPROBE);
	ASSERT_GE(ret, 0) TH_LOG("%s", strerror(errno));
	perf_attr_init(&attr, self->type, 0);
	attr.uprobe_path = (__u64)(uintptr_t)self_path;
	attr.probe_offset = self_file_offset(uf_step);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	map = mmap(NULL, 9 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(map, MAP_FAILED);

	for (i = 0; i < 3; i++)
		ASSERT_EQ(OPAQUE(outer)(i), i + 2);
	xol_range(&xol_start, &xol_end);
	ASSERT_NE(xol_start, 0) TH_LOG("no [uprobes] mapping");

	pg = map;
	data = (char *)map + psz;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	for (off = 0; off < head;) {
		struct perf_event_header *h = (void *)(data + off);
		__u64 *w = (__u64 *)(h + 1);
		__u64 n;

		ASSERT_GE(h->size, sizeof(*h));
		if (h->type == PERF_RECORD_SAMPLE) {
			/* ip, nr, then PERF_CONTEXT_USER and the user frames */
			EXPECT_EQ(w[0], (__u64)(uintptr_t)uf_step);
			ASSERT_GE(w[1], 3);
			for (n = 0; n < w[1]; n++) {
				__u64 ip = w[2 + n];

				EXPECT_FALSE(ip >= xol_start && ip < xol_end)
					TH_LOG("frame %llu is the trampoline %llx", n, ip);
			}
			seen++;
		}
		off += h->size;
	}
	EXPECT_EQ(seen, 3);
	munmap(map, 9 * psz);
	close(fd);
	close(ret);
}

/*
 * The breakpoint is in this process's private copy of the text page while
 * the event is open; after close the original instruction is back and the
 * process maps the file's page again, with no private copy left.
 */
TEST_F(up, breakpoint_in_and_out)
{
	long anon_before = text_anon_kb(uf_step);
	int fd;

	ASSERT_FALSE(bp_at(uf_step));
	fd = open_probe(uf_step, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(bp_at(uf_step));
	EXPECT_GT(text_anon_kb(uf_step), anon_before);
	close(fd);
	EXPECT_FALSE(bp_at(uf_step));
	EXPECT_EQ(text_anon_kb(uf_step), anon_before);
	ASSERT_EQ(OPAQUE(uf_step)(41), 42);
}

/* a mapping of the file made after the open gets the breakpoint too */
TEST_F(up, later_mapping_gets_it)
{
	long off = self_file_offset(uf_step);
	unsigned char *map;
	struct stat st;
	int fd, file;

	fd = open_probe(uf_step, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	file = open(self_path, O_RDONLY);
	ASSERT_GE(file, 0);
	ASSERT_EQ(fstat(file, &st), 0);
	map = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	ASSERT_NE(map, MAP_FAILED);
	EXPECT_EQ(memcmp(map + off, bp_insn, BP_LEN), 0);
	close(fd);
	EXPECT_NE(memcmp(map + off, bp_insn, BP_LEN), 0);
	munmap(map, st.st_size);
	close(file);
}

/* the SDT counter: 1 while the breakpoint is in this mm, 0 after */
TEST_F(up, ref_ctr_counts_the_breakpoint)
{
	long sema = self_file_offset((const void *)&uf_sema);
	int fd, fd2, fd3;

	ASSERT_GT(sema, 0);
	ASSERT_EQ(sema_read(&uf_sema), 0);
	fd = open_probe(uf_emul, (__u64)sema << REF_CTR_SHIFT);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(sema_read(&uf_sema), 1);
	/* a second event on the same probe: the same one breakpoint */
	fd2 = open_probe(uf_emul, (__u64)sema << REF_CTR_SHIFT);
	ASSERT_GE(fd2, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(sema_read(&uf_sema), 1);
	call_n(uf_emul, 10, 2, _metadata);
	EXPECT_EQ(perf_read_count(fd), 10);
	EXPECT_EQ(perf_read_count(fd2), 10);

	/* another counter for a probe that has one */
	fd3 = open_probe(uf_emul, (__u64)self_file_offset((const void *)&uf_sema_other)
				   << REF_CTR_SHIFT);
	EXPECT_LT(fd3, 0);
	EXPECT_EQ(errno, EINVAL);
	if (fd3 >= 0)
		close(fd3);

	close(fd);
	EXPECT_EQ(sema_read(&uf_sema), 1);
	close(fd2);
	EXPECT_EQ(sema_read(&uf_sema), 0);
	EXPECT_EQ(sema_read(&uf_sema_other), 0);
}

/* copy this program to @path: a file of its own, mapped by nobody yet */
static int copy_self(const char *path)
{
	char buf[65536];
	int in, out, ok = 0;
	ssize_t n;

	in = open(self_path, O_RDONLY);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in >= 0 && out >= 0) {
		ok = 1;
		while ((n = read(in, buf, sizeof(buf))) > 0)
			ok &= write(out, buf, n) == n;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok ? 0 : -1;
}

/*
 * The counter's data mapping appears after the text got the breakpoint
 * (as ld.so maps a library): the increment waits for it, and lands there
 * when it is mapped.
 */
TEST_F(up, ref_ctr_mapped_later)
{
	const char *copy = "/tmp/uprobe_events.copy";
	long psz = sysconf(_SC_PAGESIZE);
	long text = self_file_offset(uf_step), sema = self_file_offset(&uf_sema);
	struct perf_event_attr attr;
	unsigned char *t;
	short *d;
	int fd, file;

	ASSERT_GT(text, 0);
	ASSERT_GT(sema, 0);
	ASSERT_EQ(copy_self(copy), 0);
	perf_attr_init(&attr, self->type, (__u64)sema << REF_CTR_SHIFT);
	attr.uprobe_path = (__u64)(uintptr_t)copy;
	attr.probe_offset = text;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));

	file = open(copy, O_RDONLY);
	ASSERT_GE(file, 0);
	t = mmap(NULL, psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, file,
		 text & ~(psz - 1));
	ASSERT_NE(t, MAP_FAILED);
	EXPECT_EQ(memcmp(t + (text & (psz - 1)), bp_insn, BP_LEN), 0);
	d = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE, file,
		 sema & ~(psz - 1));
	ASSERT_NE(d, MAP_FAILED);
	EXPECT_EQ(sema_read((short *)((char *)d + (sema & (psz - 1)))), 1);

	close(fd);
	EXPECT_EQ(sema_read((short *)((char *)d + (sema & (psz - 1)))), 0);
	EXPECT_NE(memcmp(t + (text & (psz - 1)), bp_insn, BP_LEN), 0);
	munmap(d, psz);
	munmap(t, psz);
	close(file);
	unlink(copy);
}

/*
 * A forked child has the breakpoint in its copy of the text: without
 * inherit it runs the probed code unharmed and is not counted; with
 * inherit it is counted too.
 */
TEST_F(up, fork_child)
{
	int inherit, fd, status;
	pid_t pid;

	for (inherit = 0; inherit <= 1; inherit++) {
		fd = open_probe_on(0, uf_step, 0, 0, inherit);
		ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
		call_n(uf_step, 10, 1, _metadata);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			int i;

			for (i = 0; i < 100; i++)
				if (OPAQUE(uf_step)(i) != i + 1)
					_exit(2);
			_exit(0);
		}
		ASSERT_EQ(waitpid(pid, &status, 0), pid);
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("child: status 0x%x", status);
		EXPECT_EQ(WEXITSTATUS(status), 0);
		EXPECT_EQ(perf_read_count(fd), inherit ? 110 : 10)
			TH_LOG("inherit %d", inherit);
		close(fd);
	}
}

/* out of line: its address is taken, and it is only called through it */
static pid_t forker(void)
{
	return fork();
}

/*
 * A return probe pending when the task forks returns in both: the child's
 * stack holds the trampoline's address too, so it needs the pending
 * return and the XOL page at the same address.  Only the parent's event
 * counts (no inherit).
 */
TEST_F(up, fork_inside_return_probe)
{
	int fd, status;
	pid_t pid;

	fd = open_probe(forker, RETPROBE);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	pid = OPAQUE(forker)();
	if (!pid)
		_exit(0);	/* the child returned from forker() */
	ASSERT_GT(pid, 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("child: status 0x%x", status);
	EXPECT_EQ(WEXITSTATUS(status), 0);
	EXPECT_EQ(perf_read_count(fd), 1);
	close(fd);
}

#define THREADS		8
#define THREAD_CALLS	1000

static pthread_barrier_t start_line;

/*
 * Each thread counts its own calls with its own entry and return events,
 * all threads hitting the one breakpoint (and stepping out of line from
 * the one XOL page) at once.
 */
static void *thread_calls(void *arg)
{
	long bad = 0;
	int entry, ret, i;

	entry = open_probe(uf_step, 0);
	ret = open_probe(uf_step, RETPROBE);
	pthread_barrier_wait(&start_line);
	if (entry < 0 || ret < 0)
		return (void *)-1L;
	for (i = 0; i < THREAD_CALLS; i++) {
		bad += OPAQUE(uf_step)(i) != i + 1;
		bad += OPAQUE(uf_call)(i) != i + 1;
	}
	bad += perf_read_count(entry) != THREAD_CALLS * 2;
	bad += perf_read_count(ret) != THREAD_CALLS * 2;
	close(entry);
	close(ret);
	return (void *)bad;
}

/* threads hitting the probes at once: every hit counted, none harmed */
TEST_F(up, threads)
{
	pthread_t t[THREADS];
	void *bad;
	int i;

	ASSERT_EQ(pthread_barrier_init(&start_line, NULL, THREADS), 0);
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(pthread_create(&t[i], NULL, thread_calls, NULL), 0);
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(pthread_join(t[i], &bad), 0);
		EXPECT_EQ((long)bad, 0) TH_LOG("thread %d", i);
	}
	pthread_barrier_destroy(&start_line);
}

static int churn_stop;

static bool churning(void)
{
	return !__atomic_load_n(&churn_stop, __ATOMIC_RELAXED);
}

static void *churn_calls(void *arg)
{
	long bad = 0, i = 0;

	while (churning()) {
		bad += OPAQUE(uf_step)(i) != i + 1;
		bad += OPAQUE(uf_call)(i) != i + 1;
		bad += OPAQUE(recurse)(4) != 4;
		i++;
	}
	return (void *)bad;
}

static void *churn_forks(void *arg)
{
	long bad = 0;
	int status;
	pid_t pid;

	while (churning()) {
		pid = OPAQUE(forker)();
		if (!pid)
			_exit(OPAQUE(uf_call)(1) == 2 && OPAQUE(recurse)(3) == 3 ? 0 : 1);
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	}
	return (void *)bad;
}

/*
 * Probes come and go while threads hit them (entries, returns, nested
 * returns) and another thread forks from inside a probed function: every
 * call still computes its result, and no task dies of a breakpoint or a
 * return trampoline left behind.
 */
TEST_F(up, open_close_while_hitting)
{
	pthread_t t[5];
	int i, n, fds[4];
	void *bad;

	__atomic_store_n(&churn_stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(pthread_create(&t[i], NULL, churn_calls, NULL), 0);
	ASSERT_EQ(pthread_create(&t[4], NULL, churn_forks, NULL), 0);
	for (n = 0; n < 20; n++) {
		fds[0] = open_probe(uf_step, 0);
		fds[1] = open_probe(uf_step, RETPROBE);
		fds[2] = open_probe(recurse, RETPROBE);
		fds[3] = open_probe(forker, RETPROBE);
		for (i = 0; i < 4; i++) {
			EXPECT_GE(fds[i], 0) TH_LOG("round %d: %s", n, strerror(errno));
			if (fds[i] >= 0)
				close(fds[i]);
		}
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(pthread_join(t[i], &bad), 0);
		EXPECT_EQ((long)bad, 0) TH_LOG("thread %d", i);
	}
}

/* the open's errors */
TEST_F(up, errors)
{
	struct perf_event_attr attr;
	struct stat st;

	/* a breakpoint instruction already in the file */
	EXPECT_LT(open_probe(uf_trap, 0), 0);
	EXPECT_EQ(errno, ENOTSUPP);

	perf_attr_init(&attr, self->type, 0);
	attr.probe_offset = self_file_offset(uf_step);
	/* no path */
	EXPECT_LT(sys_perf_event_open(&attr, 0, -1, -1, 0), 0);
	EXPECT_EQ(errno, EINVAL);
	/* a path that does not exist */
	attr.uprobe_path = (__u64)(uintptr_t)"/no/such/binary";
	EXPECT_LT(sys_perf_event_open(&attr, 0, -1, -1, 0), 0);
	EXPECT_EQ(errno, ENOENT);
	/* past the end of the file */
	ASSERT_EQ(stat(self_path, &st), 0);
	attr.uprobe_path = (__u64)(uintptr_t)self_path;
	attr.probe_offset = st.st_size + 4096;
	EXPECT_LT(sys_perf_event_open(&attr, 0, -1, -1, 0), 0);
	EXPECT_EQ(errno, EINVAL);
	/* a counter offset that is not a short's */
	attr.probe_offset = self_file_offset(uf_step);
	attr.config = 1ull << REF_CTR_SHIFT;
	EXPECT_LT(sys_perf_event_open(&attr, 0, -1, -1, 0), 0);
	EXPECT_EQ(errno, EINVAL);
}

TEST_HARNESS_MAIN
