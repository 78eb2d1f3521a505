// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs on perf events (F37, F61, F76), through the raw bpf(2)
 * syscall with hand-assembled programs, so that the test needs no libbpf
 * or compiler for BPF:
 *  - a perf_event program on a sampling event (PERF_EVENT_IOC_SET_BPF and
 *    a BPF link) runs at each overflow and its zero return drops the
 *    sample; the attach rules (EEXIST, EINVAL for the wrong program type);
 *  - a tracepoint program on a tracepoint event runs for every hit, is
 *    listed by PERF_EVENT_IOC_QUERY_BPF, and its zero return drops the
 *    event's samples; the samples it lets through carry the trace record
 *    as PERF_SAMPLE_RAW (F17);
 *  - bpf_perf_event_output() into a BPF-output software event through a
 *    perf_event_array map, and bpf_perf_event_read_value() of a counter in
 *    such a map.
 *
 * The tracepoint is sched:sched_process_fork, which fires in the parent:
 * the test forks to make hits on its own CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "prefault.h"
#include "rb_common.h"
#include "bpf_common.h"

#define FORK_TP		"/sys/kernel/tracing/events/sched/sched_process_fork/id"
#define NR_FORKS	5
#define NR_FAULTS	64

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info = { 0 };
	union bpf_attr a = {
		.info.bpf_fd = fd,
		.info.info_len = sizeof(info),
		.info.info = (unsigned long)&info,
	};

	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) ? 0 : info.id;
}

/*
 * A program that adds 1 to element 0 of the array @map and returns @ret
 * (a perf_event or tracepoint program alike: it ignores its context).
 */
static int count_prog(__u32 type, int map, int ret)
{
	const struct bpf_insn insns[] = {
		ST_W(BPF_REG_10, -4, 0),
		MOV_REG(BPF_REG_2, BPF_REG_10),
		ADD_IMM(BPF_REG_2, -4),
		LD_MAP(BPF_REG_1, map),
		LD_HI(0),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),
		MOV_IMM(BPF_REG_1, 1),
		XADD_DW(BPF_REG_0, BPF_REG_1, 0),
		MOV_IMM(BPF_REG_0, ret),
		EXIT(),
	};

	return prog_load(type, insns, ARRAY_SIZE(insns));
}

/* output(ctx, @arr, index 0, &@magic, 8); return 1 */
static int output_prog(int arr, __u64 magic)
{
	const struct bpf_insn insns[] = {
		MOV_REG(BPF_REG_6, BPF_REG_1),
		LD_MAP(BPF_REG_2, arr),
		LD_HI(0),
		LD_IMM64(BPF_REG_3, (__u32)magic),
		LD_HI((__u32)(magic >> 32)),
		STX_DW(BPF_REG_10, BPF_REG_3, -8),
		MOV_REG(BPF_REG_1, BPF_REG_6),
		MOV_IMM(BPF_REG_3, 0),
		MOV_REG(BPF_REG_4, BPF_REG_10),
		ADD_IMM(BPF_REG_4, -8),
		MOV_IMM(BPF_REG_5, 8),
		CALL(BPF_FUNC_perf_event_output),
		MOV_IMM(BPF_REG_0, 1),
		EXIT(),
	};

	return prog_load(BPF_PROG_TYPE_TRACEPOINT, insns, ARRAY_SIZE(insns));
}

/* read_value(@arr, index 0, &@res[0], size); return 1 */
static int read_value_prog(int res, int arr)
{
	const struct bpf_insn insns[] = {
		ST_W(BPF_REG_10, -4, 0),
		MOV_REG(BPF_REG_2, BPF_REG_10),
		ADD_IMM(BPF_REG_2, -4),
		LD_MAP(BPF_REG_1, res),
		LD_HI(0),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 6),
		MOV_REG(BPF_REG_3, BPF_REG_0),
		LD_MAP(BPF_REG_1, arr),
		LD_HI(0),
		MOV_IMM(BPF_REG_2, 0),
		MOV_IMM(BPF_REG_4, sizeof(struct bpf_perf_event_value)),
		CALL(BPF_FUNC_perf_event_read_value),
		MOV_IMM(BPF_REG_0, 1),
		EXIT(),
	};

	return prog_load(BPF_PROG_TYPE_TRACEPOINT, insns, ARRAY_SIZE(insns));
}

static __u64 map_count(int map)
{
	__u64 v = 0;

	return map_lookup(map, 0, &v) ? ~0ull : v;
}

static long fork_tp_id(void)
{
	long id;

	return read_long(FORK_TP, &id) ? -1 : id;
}

/* fork @n children that exit at once, and reap them */
static void fork_children(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (!pid)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/*
 * Consume every record in @rb, handing each one's header and up to
 * sizeof(buf) bytes of its body to @fn.  Return: the malformed ones.
 */
static int walk_records(struct rb_map *rb,
			void (*fn)(const struct perf_event_header *h,
				   const char *body, void *arg),
			void *arg)
{
	__u64 head = rb_head(rb), off = rb->pg->data_tail;
	struct perf_event_header h;
	char buf[256];
	int bad = 0;

	while (off < head) {
		rb_copy(rb, off, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - off) {
			bad++;
			break;
		}
		rb_copy(rb, off + sizeof(h), buf,
			h.size - sizeof(h) < sizeof(buf) ? h.size - sizeof(h) :
							   sizeof(buf));
		fn(&h, buf, arg);
		off += h.size;
	}
	rb_set_tail(rb, head);
	return bad;
}

static void count_sample(const struct perf_event_header *h, const char *body,
			 void *arg)
{
	if (h->type == PERF_RECORD_SAMPLE)
		++*(int *)arg;
}

/* count the samples in a buffer, and check each one's RAW record */
struct raw_check {
	int samples;
	int bad;
	__u32 want_type;	/* trace_entry.type, 0: no check */
	__u64 want_value;	/* the first u64 of the payload, 0: no check */
};

static void check_raw(const struct perf_event_header *h, const char *p,
		      void *arg)
{
	struct raw_check *rc = arg;
	__u32 size;
	__u64 v;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	rc->samples++;
	memcpy(&size, p, sizeof(size));
	p += sizeof(size);
	if (size < 8) {
		rc->bad++;
		return;
	}
	if (rc->want_type) {
		unsigned short type;
		int pid;

		/* struct trace_entry: type, flags, preempt_count, pid */
		memcpy(&type, p, sizeof(type));
		memcpy(&pid, p + 4, sizeof(pid));
		if (type != rc->want_type || pid != getpid())
			rc->bad++;
	}
	if (rc->want_value) {
		memcpy(&v, p, sizeof(v));
		if (v != rc->want_value)
			rc->bad++;
	}
}

static void drain_raw(struct rb_map *rb, struct raw_check *rc)
{
	rc->bad += walk_records(rb, check_raw, rc);
}

/* page faults of this task, sampling each one */
static int open_fault_sampler(void)
{
	struct perf_event_attr attr;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* the samples and count of NR_FAULTS page faults under @fd's program */
static void run_faults(int fd, struct rb_map *rb, int *samples, __u64 *count)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_fresh_pages(NR_FAULTS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	*samples = 0;
	walk_records(rb, count_sample, samples);
	*count = perf_read_count(fd);
}

FIXTURE(sampler) {
	int fd;
	int map;
	int old_rate;
	struct rb_map rb;
};

FIXTURE_SETUP(sampler)
{
	/* one sample per fault: keep the throttle out of the counts */
	self->old_rate = rb_raise_sample_rate();
	self->fd = open_fault_sampler();
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(rb_mmap(&self->rb, self->fd, 64, PROT_READ | PROT_WRITE), 0);
	self->map = map_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	ASSERT_GE(self->map, 0);
	prefault_self();
}

FIXTURE_TEARDOWN(sampler)
{
	rb_unmap(&self->rb);
	close(self->fd);
	close(self->map);
	rb_restore_sample_rate(self->old_rate);
}

/* A perf_event program that returns 0 sees every overflow and drops it. */
TEST_F(sampler, zero_return_drops_samples)
{
	int prog = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 0);
	int samples;
	__u64 count;

	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	run_faults(self->fd, &self->rb, &samples, &count);
	EXPECT_GE(count, NR_FAULTS);
	EXPECT_EQ(samples, 0);
	/* it ran once per overflow: one per fault */
	EXPECT_EQ(map_count(self->map), count);
	close(prog);
}

/* One that returns 1 lets each sample through. */
TEST_F(sampler, nonzero_return_keeps_samples)
{
	int prog = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 1);
	int samples;
	__u64 count;

	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	run_faults(self->fd, &self->rb, &samples, &count);
	EXPECT_GE(count, NR_FAULTS);
	EXPECT_EQ(samples, count);
	EXPECT_EQ(map_count(self->map), count);
	close(prog);
}

/* The same through a BPF link; the link's end detaches the program. */
TEST_F(sampler, link_attaches_and_detaches)
{
	int prog = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 0);
	union bpf_attr a = { 0 };
	int link, samples;
	__u64 count;

	ASSERT_GE(prog, 0);
	a.link_create.prog_fd = prog;
	a.link_create.target_fd = self->fd;
	a.link_create.attach_type = BPF_PERF_EVENT;
	link = sys_bpf(BPF_LINK_CREATE, &a);
	ASSERT_GE(link, 0) TH_LOG("link_create: %s", strerror(errno));
	run_faults(self->fd, &self->rb, &samples, &count);
	EXPECT_EQ(samples, 0);
	EXPECT_EQ(map_count(self->map), count);

	/* a second program while the link holds the first */
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), -1);
	EXPECT_EQ(errno, EEXIST);

	close(link);
	run_faults(self->fd, &self->rb, &samples, &count);
	EXPECT_EQ(samples, count);
	close(prog);
}

/* The attach rules of a sampling event. */
TEST_F(sampler, attach_rules)
{
	int pe = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 1);
	int tp = count_prog(BPF_PROG_TYPE_TRACEPOINT, self->map, 1);

	ASSERT_GE(pe, 0);
	ASSERT_GE(tp, 0);
	/* only a perf_event program goes on a sampling event */
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, tp), -1);
	EXPECT_EQ(errno, EINVAL);
	/* a descriptor that is not a program */
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, self->map), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, -1), -1);
	EXPECT_EQ(errno, EBADF);
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, pe), 0);
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, pe), -1);
	EXPECT_EQ(errno, EEXIST);
	close(pe);
	close(tp);
}

/*
 * A child's copy of an inherited sampler runs the parent's program: the
 * child's faults (four times what the parent makes in fork and wait)
 * all pass through it.
 */
TEST_F(sampler, inherited_copy_runs_program)
{
	struct perf_event_attr attr;
	int prog, fd, status;
	pid_t pid;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	prog = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 0);
	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	pid = fork();
	if (!pid) {
		touch_fresh_pages(4 * NR_FAULTS);
		_exit(0);
	}
	ASSERT_GT(pid, 0);
	waitpid(pid, &status, 0);
	close(fd);
	EXPECT_GE(map_count(self->map), 4 * NR_FAULTS);
	close(prog);
}

FIXTURE(fork_tp) {
	long id;
	int map;
	int fd;
	struct rb_map rb;
};

FIXTURE_SETUP(fork_tp)
{
	struct perf_event_attr attr;

	self->fd = -1;
	self->id = fork_tp_id();
	ASSERT_GT(self->id, 0) TH_LOG("no %s", FORK_TP);
	ASSERT_EQ(pin_to_cpu(0), 0);
	self->map = map_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	ASSERT_GE(self->map, 0);

	/* this task's forks, each one a sample with the trace record */
	perf_attr_init(&attr, PERF_TYPE_TRACEPOINT, self->id);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.disabled = 1;
	self->fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(rb_mmap(&self->rb, self->fd, 16, PROT_READ | PROT_WRITE), 0);
}

FIXTURE_TEARDOWN(fork_tp)
{
	if (self->fd >= 0) {
		rb_unmap(&self->rb);
		close(self->fd);
	}
	close(self->map);
}

/* Samples of a tracepoint carry its record (F17), with no program too. */
TEST_F(fork_tp, samples_carry_raw_record)
{
	struct raw_check rc = { .want_type = self->id };

	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_raw(&self->rb, &rc);
	EXPECT_EQ(rc.samples, NR_FORKS);
	EXPECT_EQ(rc.bad, 0);
	EXPECT_EQ(perf_read_count(self->fd), NR_FORKS);
}

/* A tracepoint program runs at each hit and QUERY_BPF lists it. */
TEST_F(fork_tp, program_runs_and_is_listed)
{
	int prog = count_prog(BPF_PROG_TYPE_TRACEPOINT, self->map, 1);
	struct {
		struct perf_event_query_bpf q;
		__u32 ids[4];
	} query = { .q.ids_len = 4 };
	struct raw_check rc = { .want_type = self->id };

	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_QUERY_BPF, &query), 0);
	EXPECT_EQ(query.q.prog_cnt, 1);
	EXPECT_EQ(query.q.ids[0], prog_id(prog));

	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	/* the program sees every fork of the system, ours among them */
	EXPECT_GE(map_count(self->map), NR_FORKS);
	drain_raw(&self->rb, &rc);
	EXPECT_EQ(rc.samples, NR_FORKS);
	EXPECT_EQ(rc.bad, 0);
	close(prog);
}

/* A tracepoint program's zero return drops the event's samples. */
TEST_F(fork_tp, zero_return_drops_samples)
{
	int prog = count_prog(BPF_PROG_TYPE_TRACEPOINT, self->map, 0);
	struct raw_check rc = { 0 };

	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_GE(map_count(self->map), NR_FORKS);
	drain_raw(&self->rb, &rc);
	EXPECT_EQ(rc.samples, 0);
	EXPECT_EQ(perf_read_count(self->fd), 0);
	close(prog);
}

/*
 * PERF_EVENT_IOC_SET_FILTER (F75): a filter on the record's fields keeps
 * the hits it matches and drops the rest; one that does not parse is
 * refused.
 */
TEST_F(fork_tp, filter_drops_other_hits)
{
	struct raw_check rc = { .want_type = self->id };
	char filter[64];

	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"), -1);
	EXPECT_EQ(errno, EINVAL);

	/* no child of ours is pid 1 */
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, "child_pid == 1"), 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_raw(&self->rb, &rc);
	EXPECT_EQ(rc.samples, 0);
	EXPECT_EQ(perf_read_count(self->fd), 0);

	/* an event has one filter for its life */
	snprintf(filter, sizeof(filter), "parent_pid == %d", getpid());
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, filter), -1);
	EXPECT_EQ(errno, EEXIST);
}

/* A filter every hit of ours matches keeps them all. */
TEST_F(fork_tp, filter_keeps_matching_hits)
{
	struct raw_check rc = { .want_type = self->id };
	char filter[64];

	/* every child of ours has us as its parent */
	snprintf(filter, sizeof(filter), "parent_pid == %d", getpid());
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_FILTER, filter), 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_raw(&self->rb, &rc);
	EXPECT_EQ(rc.samples, NR_FORKS);
	EXPECT_EQ(rc.bad, 0);
}

/* A program of the wrong type for a trace event. */
TEST_F(fork_tp, wrong_program_type)
{
	int pe = count_prog(BPF_PROG_TYPE_PERF_EVENT, self->map, 1);

	ASSERT_GE(pe, 0);
	EXPECT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, pe), -1);
	EXPECT_EQ(errno, EINVAL);
	close(pe);
}

/*
 * bpf_perf_event_output() from the fork tracepoint into a BPF-output
 * event of this CPU, found through a perf_event_array map.
 */
TEST_F(fork_tp, output_into_bpf_output_event)
{
	const __u64 magic = 0x5eed0fbeefull;
	struct perf_event_attr attr;
	struct raw_check rc = { .want_value = magic };
	struct rb_map rb;
	int arr, out, prog;
	__u32 zero = 0;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	out = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(out, 0);
	ASSERT_EQ(rb_mmap(&rb, out, 16, PROT_READ | PROT_WRITE), 0);
	arr = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 1);
	ASSERT_GE(arr, 0);
	ASSERT_EQ(map_update(arr, zero, &out), 0);

	prog = output_prog(arr, magic);
	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_SET_BPF, prog), 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(NR_FORKS);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_raw(&rb, &rc);
	/* at least ours, all on CPU 0 where we are pinned */
	EXPECT_GE(rc.samples, NR_FORKS);
	EXPECT_EQ(rc.bad, 0);
	close(prog);
	close(arr);
	rb_unmap(&rb);
	close(out);
}

/*
 * Put counter @cnt in a perf_event_array, run read_value_prog() on the
 * fork tracepoint @tp while this task forks once, and check what the
 * program read: the counter's value between before and after the fork,
 * and its times, equal (it never stopped running). Closes @cnt.
 */
static void read_value_at_fork(struct __test_metadata *_metadata, int tp,
			       int cnt)
{
	struct bpf_perf_event_value seen = { 0 };
	int arr, res, prog;
	__u32 zero = 0;
	__u64 before;

	arr = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 1);
	ASSERT_GE(arr, 0);
	ASSERT_EQ(map_update(arr, zero, &cnt), 0);
	res = map_create(BPF_MAP_TYPE_ARRAY, sizeof(seen), 1);
	ASSERT_GE(res, 0);

	prog = read_value_prog(res, arr);
	ASSERT_GE(prog, 0);
	ASSERT_EQ(ioctl(tp, PERF_EVENT_IOC_SET_BPF, prog), 0);
	touch_fresh_pages(NR_FAULTS);
	before = perf_read_count(cnt);
	ioctl(tp, PERF_EVENT_IOC_ENABLE, 0);
	fork_children(1);
	ioctl(tp, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(map_lookup(res, 0, &seen), 0);
	EXPECT_GE(before, NR_FAULTS);
	EXPECT_GE(seen.counter, before);
	EXPECT_LE(seen.counter, perf_read_count(cnt));
	EXPECT_GT(seen.enabled, 0);
	EXPECT_EQ(seen.enabled, seen.running);
	close(prog);
	close(res);
	close(arr);
	close(cnt);
}

/*
 * bpf_perf_event_read_value() of this task's page-fault counter, from the
 * fork tracepoint (which runs in this task): the values the program saw
 * are the counter's, up to the fork.
 */
TEST_F(fork_tp, read_value_of_counter)
{
	struct perf_event_attr attr;
	int cnt;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	cnt = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(cnt, 0);
	read_value_at_fork(_metadata, self->fd, cnt);
}

/*
 * The same of a CPU-wide counter on this task's CPU that also records
 * context switches (attr.context_switch): such an event needs the
 * scheduler's hooks, as task events do, but it is still a CPU event, and
 * the helper must read it as one (this CPU's, whichever task runs), not
 * refuse it as another task's.
 */
TEST_F(fork_tp, read_value_of_cpu_counter_with_switch_records)
{
	struct perf_event_attr attr;
	cpu_set_t one;
	int cnt;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.context_switch = 1;
	cnt = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (cnt < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "CPU-wide events need privilege");
	ASSERT_GE(cnt, 0);
	read_value_at_fork(_metadata, self->fd, cnt);
}

/*
 * Loading a program writes a KSYMBOL record for its JITed text and a
 * BPF_EVENT PROG_LOAD record with its id (F37, F61); unloading writes the
 * KSYMBOL unregister and PROG_UNLOAD.  perf record reads these to
 * symbolise samples in BPF programs.
 */
struct bpf_records {
	__u32 id;
	int ksym_add, ksym_del, load, unload;
};

static void scan_bpf_record(const struct perf_event_header *h, const char *p,
			    void *arg)
{
	struct bpf_records *br = arg;

	if (h->type == PERF_RECORD_KSYMBOL) {
		__u16 type, flags;

		/* addr, len, ksym_type, flags, name */
		memcpy(&type, p + 12, sizeof(type));
		memcpy(&flags, p + 14, sizeof(flags));
		if (type == PERF_RECORD_KSYMBOL_TYPE_BPF &&
		    !strncmp(p + 16, "bpf_prog_", 9)) {
			if (flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)
				br->ksym_del++;
			else
				br->ksym_add++;
		}
	} else if (h->type == PERF_RECORD_BPF_EVENT) {
		__u16 type;
		__u32 id;

		/* type, flags, id, tag */
		memcpy(&type, p, sizeof(type));
		memcpy(&id, p + 4, sizeof(id));
		if (id != br->id)
			return;
		if (type == PERF_BPF_EVENT_PROG_LOAD)
			br->load++;
		else if (type == PERF_BPF_EVENT_PROG_UNLOAD)
			br->unload++;
	}
}

TEST(load_and_unload_records)
{
	struct perf_event_attr attr;
	struct bpf_records br = { 0 };
	struct rb_map rb;
	int bad = 0;
	int fd, map, prog;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.ksymbol = 1;
	attr.bpf_event = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(rb_mmap(&rb, fd, 16, PROT_READ | PROT_WRITE), 0);
	map = map_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	ASSERT_GE(map, 0);
	prog = count_prog(BPF_PROG_TYPE_PERF_EVENT, map, 1);
	ASSERT_GE(prog, 0);
	br.id = prog_id(prog);
	ASSERT_NE(br.id, 0);
	close(prog);
	/* the unload is written by the last put: wait for it a little */
	for (int i = 0; i < 100 && !br.unload; i++) {
		bad += walk_records(&rb, scan_bpf_record, &br);
		if (!br.unload)
			usleep(10000);
	}
	EXPECT_EQ(br.load, 1);
	EXPECT_GE(br.ksym_add, 1);
	EXPECT_EQ(br.unload, 1);
	EXPECT_EQ(br.ksym_del, br.ksym_add);
	EXPECT_EQ(bad, 0);
	close(map);
	rb_unmap(&rb);
	close(fd);
}

TEST_HARNESS_MAIN
