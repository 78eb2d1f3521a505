// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX group controls: the attr bits by which the members of a group
 * led by an AUX event act on that leader.
 *  - aux_output: the member's samples go into its leader's AUX area; it
 *    needs a PMU with PERF_PMU_CAP_AUX_OUTPUT whose aux_output_match()
 *    takes the leader, and a leader with an AUX area;
 *  - aux_pause / aux_resume: each overflow of the member pauses / resumes
 *    its leader's tracing (pmu->stop(PERF_EF_PAUSE), pmu->start(
 *    PERF_EF_RESUME)), once per change: the core remembers the state;
 *  - aux_start_paused: the AUX event starts paused;
 *  - aux_sample_size: only its errno here (the leader has no snapshot).
 *
 * The PMUs are module/perf_aux_pmu.c (see aux_area.c): "perf_aux_test"
 * (AUX area, PERF_PMU_CAP_AUX_PAUSE: a read of an active, unpaused event
 * writes one chunk of a known pattern; a paused one writes nothing; it
 * reports a hw id record at each pause and resume with config:35, so
 * where the core paused or resumed it stands in the data buffer; the
 * module parameters pauses, resumes, pause_flags and resume_flags count
 * the calls) and "perf_aux_test_out" (PERF_PMU_CAP_AUX_OUTPUT, matching
 * perf_aux_test leaders only: a read writes a chunk into its leader's
 * AUX area; without its leader it cannot go on).
 *
 * The members that pause and resume are page-fault events sampling every
 * fault, enabled only around the touch of fresh pages, after every page
 * the test has was faulted in (prefault.h), so that which member
 * overflowed, and how often, is known.  Their samples go into the
 * leader's buffer (PERF_EVENT_IOC_SET_OUTPUT) beside the hw id marks.
 *
 * Every test needs the module file: without it they fail, not skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "aux_common.h"
#include "module_load.h"
#include "perf_test.h"
#include "prefault.h"
#include "rb_common.h"

#define MOD_PATH	"/tests/modules/perf_aux_pmu.ko"
#define MOD_NAME	"perf_aux_pmu"
#define PMU_DIR		"/sys/bus/event_source/devices/perf_aux_test"
#define OUT_PMU_DIR	"/sys/bus/event_source/devices/perf_aux_test_out"
#define PARAM(name)	"/sys/module/" MOD_NAME "/parameters/" name

/* the PMUs' config fields (module/perf_aux_pmu.c) */
#define CFG_CHUNK(n)	((__u64)(n) & 0xffff)
#define CFG_MARKS	0x800000000ULL	/* config:35 */
#define MARK_PAUSE	0x9a000000ULL
#define MARK_RESUME	0x4e000000ULL

/* pmu::start/stop flags of upstream's include/linux/perf_event.h */
#define EF_PAUSE	0x08
#define EF_RESUME	0x10

#define DATA_PAGES	16
#define AUX_PAGES	4
#define MAX_RECS	256
#define MAX_FDS		16

#ifndef PERF_RECORD_AUX_OUTPUT_HW_ID
#define PERF_RECORD_AUX_OUTPUT_HW_ID	21
#endif

/* One record of the data buffer, copied out whole. */
struct rec {
	struct perf_event_header h;
	__u64 v[7];
};

/* The AUX leader: its data buffer and AUX area. */
struct leader {
	int fd;
	struct rb_map rb;
	unsigned char *aux;
	size_t aux_len;
};

static int load_module(void)
{
	return test_module_load(MOD_PATH);
}

/* Remove the module, waiting for the last event of a test to let go. */
static int unload_module(void)
{
	return test_module_unload(MOD_NAME, 2000);
}

static long param(const char *path)
{
	long v = -1;

	if (read_long(path, &v))
		return -1;
	return v;
}

FIXTURE(ctl) {
	long type, out_type;
	int cpu;
	int fds[MAX_FDS];
	int nr_fd;
	struct leader lead;
	struct rec recs[MAX_RECS];
};

FIXTURE_SETUP(ctl)
{
	unload_module();
	ASSERT_EQ(load_module(), 0) TH_LOG("load %s: %s", MOD_PATH,
					   strerror(errno));
	ASSERT_EQ(read_long(PMU_DIR "/type", &self->type), 0);
	ASSERT_EQ(read_long(OUT_PMU_DIR "/type", &self->out_type), 0);
	ASSERT_GE(self->type, PERF_TYPE_MAX);
	ASSERT_GE(self->out_type, PERF_TYPE_MAX);
	self->nr_fd = 0;
	self->cpu = -1;
	memset(&self->lead, 0, sizeof(self->lead));
	self->lead.fd = -1;
	EXPECT_EQ(param(PARAM("pauses")), 0);
	EXPECT_EQ(param(PARAM("resumes")), 0);
}

static void leader_unmap(struct leader *l)
{
	if (l->aux)
		munmap(l->aux, l->aux_len);
	l->aux = NULL;
	rb_unmap(&l->rb);
}

FIXTURE_TEARDOWN(ctl)
{
	int i;

	leader_unmap(&self->lead);
	for (i = 0; i < self->nr_fd; i++)
		if (self->fds[i] >= 0)
			close(self->fds[i]);
	unload_module();
}

/*
 * Open @attr for this thread (on self->cpu, -1 for any) in the group of
 * @group: the fd, or -errno.
 */
static int ev_open(struct _test_data_ctl *self, struct perf_event_attr *attr,
		   int group)
{
	int fd = sys_perf_event_open(attr, 0, self->cpu, group,
				     PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (self->nr_fd < MAX_FDS)
		self->fds[self->nr_fd++] = fd;
	return fd;
}

/* Close @fd, one of ev_open()'s. */
static void ev_close(struct _test_data_ctl *self, int fd)
{
	int i;

	for (i = 0; i < self->nr_fd; i++)
		if (self->fds[i] == fd)
			self->fds[i] = -1;
	close(fd);
}

/* A disabled perf_aux_test event: chunk @chunk, seed @seed. */
static void aux_attr(struct perf_event_attr *attr, long type, __u64 config,
		     __u8 seed)
{
	perf_attr_init(attr, type, config);
	attr->config1 = seed;
	attr->disabled = 1;
}

/*
 * A page-fault event sampling every user fault with its id only (the
 * record is the header and the id), disabled.
 */
static void fault_attr(struct perf_event_attr *attr)
{
	perf_attr_user(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_ID;
}

/*
 * Open the leader (@attr) and map its data buffer and, when @aux_pages,
 * its AUX area: 0 or -errno.
 */
static int leader_open(struct _test_data_ctl *self,
		       struct perf_event_attr *attr, int aux_pages)
{
	struct leader *l = &self->lead;
	long psz = sysconf(_SC_PAGESIZE);
	int ret;
	void *p;

	l->fd = ev_open(self, attr, -1);
	if (l->fd < 0)
		return l->fd;
	ret = rb_mmap(&l->rb, l->fd, DATA_PAGES, PROT_READ | PROT_WRITE);
	if (ret || !aux_pages)
		return ret;
	l->aux_len = (size_t)aux_pages * psz;
	l->rb.pg->aux_offset = l->rb.len;
	l->rb.pg->aux_size = l->aux_len;
	p = mmap(NULL, l->aux_len, PROT_READ | PROT_WRITE, MAP_SHARED, l->fd,
		 l->rb.len);
	if (p == MAP_FAILED)
		return -errno;
	l->aux = p;
	return 0;
}

/*
 * Open a pausing (or resuming) fault member of the leader, its samples in
 * the leader's buffer: the fd or -errno.
 */
static int member_open(struct _test_data_ctl *self, bool pause)
{
	struct perf_event_attr attr;
	int fd;

	fault_attr(&attr);
	attr.aux_pause = pause;
	attr.aux_resume = !pause;
	fd = ev_open(self, &attr, self->lead.fd);
	if (fd < 0)
		return fd;
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, self->lead.fd))
		return -errno;
	return fd;
}

/*
 * Let member @fd of @leader sample @n page faults: enable it, fault in
 * @n fresh pages, disable it.  The leader goes off while the member is
 * enabled: enabling a member alone reschedules only its own PMU's events
 * (upstream), and a software member of a perf_aux_test group would not
 * go on before the next context switch.  0, or -1 when an ioctl or the
 * mapping failed.
 */
static int overflow(int leader, int fd, int n)
{
	if (ioctl(leader, PERF_EVENT_IOC_DISABLE, 0) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ||
	    ioctl(leader, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	if (touch_fresh_pages(n))
		return -1;
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ? -1 : 0;
}

/* One read() of the leader: one chunk written unless paused; its count. */
static __u64 trigger(int fd)
{
	return perf_read_count(fd);
}

static __u64 aux_head(const struct leader *l)
{
	return __atomic_load_n(&l->rb.pg->aux_head, __ATOMIC_ACQUIRE);
}

/*
 * Copy the records between data_tail and data_head into @recs, leaving
 * out the ITRACE_START of every sched-in, and consume them: how many, or
 * -1 at a malformed one.
 */
static int drain(struct leader *l, struct rec *recs, int max)
{
	__u64 head = rb_head(&l->rb), off = l->rb.pg->data_tail;
	int n = 0;

	while (off != head) {
		struct rec *r = &recs[n];

		if (n == max || head - off < sizeof(r->h))
			return -1;
		rb_copy(&l->rb, off, &r->h, sizeof(r->h));
		if (r->h.size < sizeof(r->h) || r->h.size % 8 ||
		    r->h.size > sizeof(*r) || r->h.size > head - off)
			return -1;
		memset(r->v, 0, sizeof(r->v));
		rb_copy(&l->rb, off, r, r->h.size);
		off += r->h.size;
		if (r->h.type != PERF_RECORD_ITRACE_START)
			n++;
	}
	rb_set_tail(&l->rb, head);
	return n;
}

/* @r is a PERF_RECORD_AUX of @offset, @size and no flags. */
static void expect_aux_rec(struct __test_metadata *_metadata,
			   const struct rec *r, __u64 offset, __u64 size)
{
	ASSERT_EQ(r->h.type, PERF_RECORD_AUX);
	ASSERT_EQ(r->h.size, sizeof(r->h) + 3 * 8);
	EXPECT_EQ(r->v[0], offset);
	EXPECT_EQ(r->v[1], size);
	EXPECT_EQ(r->v[2], 0);
}

/* @r is the hw id record the PMU reports at a pause or resume: @mark. */
static void expect_mark(struct __test_metadata *_metadata, const struct rec *r,
			__u64 mark)
{
	ASSERT_EQ(r->h.type, PERF_RECORD_AUX_OUTPUT_HW_ID);
	ASSERT_EQ(r->h.size, 16);
	EXPECT_EQ(r->v[0], mark);
}

/* @r is a sample of the event with @id. */
static void expect_sample(struct __test_metadata *_metadata,
			  const struct rec *r, __u64 id)
{
	ASSERT_EQ(r->h.type, PERF_RECORD_SAMPLE);
	ASSERT_EQ(r->h.size, 16);
	EXPECT_EQ(r->v[0], id);
}

/* The first position in [@from, @to) that is not the pattern, or -1. */
static long long bad_pattern(const struct leader *l, __u64 from, __u64 to,
			     __u8 seed)
{
	return aux_first_mismatch(l->aux, l->aux_len, from, to, 1, seed);
}

/* The first position in [@from, @to) the PMU wrote, or -1. */
static long long bad_unwritten(const struct leader *l, __u64 from, __u64 to)
{
	return aux_first_mismatch(l->aux, l->aux_len, from, to, 0, 0);
}

/* What a group member is tried under. */
enum under { NONE, AUX_LEADER, OUT_LEADER, SW_LEADER };

struct errno_case {
	const char *what;
	enum under under;
	int pmu;		/* 0 software page faults, 1 aux, 2 aux_out */
	bool sampling;		/* sample_period 1; sample_aux: PERF_SAMPLE_AUX */
	bool sample_aux;
	unsigned int output:1, pause:1, resume:1, start_paused:1;
	__u32 sample_size;
	__u32 aux_action;	/* raw, ORed in */
	int err;		/* 0: opens */
};

static const struct errno_case errno_cases[] = {
	/* at open, whatever the group */
	{ "sw aux_output", NONE, 0, true, .output = 1, .err = EOPNOTSUPP },
	{ "sw aux_output, aux leader", AUX_LEADER, 0, true, .output = 1,
	  .err = EOPNOTSUPP },
	{ "aux aux_output", AUX_LEADER, 1, false, .output = 1,
	  .err = EOPNOTSUPP },
	{ "out aux_output+aux_pause", AUX_LEADER, 2, false, .output = 1,
	  .pause = 1, .err = EOPNOTSUPP },
	{ "out aux_output+aux_resume", AUX_LEADER, 2, false, .output = 1,
	  .resume = 1, .err = EOPNOTSUPP },
	{ "sw aux_output+pause+resume", AUX_LEADER, 0, true, .output = 1,
	  .pause = 1, .resume = 1, .err = EOPNOTSUPP },
	{ "sw aux_pause+aux_resume", AUX_LEADER, 0, true, .pause = 1,
	  .resume = 1, .err = EINVAL },
	{ "sw aux_pause+aux_resume, alone", NONE, 0, true, .pause = 1,
	  .resume = 1, .err = EINVAL },
	{ "sw aux_start_paused", NONE, 0, true, .start_paused = 1,
	  .err = EOPNOTSUPP },
	{ "sw aux_start_paused, aux leader", AUX_LEADER, 0, true,
	  .start_paused = 1, .err = EOPNOTSUPP },
	{ "out aux_start_paused", NONE, 2, false, .start_paused = 1,
	  .err = EOPNOTSUPP },
	{ "aux aux_start_paused", NONE, 1, false, .start_paused = 1 },
	{ "aux aux_start_paused, aux leader", AUX_LEADER, 1, false,
	  .start_paused = 1 },
	{ "aux_action bit 3", NONE, 1, false, .aux_action = 0x8,
	  .err = EINVAL },
	{ "aux_action bit 31", AUX_LEADER, 0, true, .aux_action = 1U << 31,
	  .err = EINVAL },
	/* at the group's check */
	{ "out aux_output, alone", NONE, 2, false, .output = 1, .err = EINVAL },
	{ "out aux_output, sw leader", SW_LEADER, 2, false, .output = 1,
	  .err = EINVAL },
	{ "out aux_output, out leader", OUT_LEADER, 2, false, .output = 1,
	  .err = EINVAL },
	{ "out aux_output, aux leader", AUX_LEADER, 2, false, .output = 1 },
	{ "out aux_output+sample_size", AUX_LEADER, 2, false, .output = 1,
	  .sample_size = 64, .err = EINVAL },
	{ "sw aux_pause, alone", NONE, 0, true, .pause = 1, .err = EINVAL },
	{ "sw aux_resume, alone", NONE, 0, true, .resume = 1, .err = EINVAL },
	{ "aux aux_pause, alone", NONE, 1, false, .pause = 1, .err = EINVAL },
	{ "sw aux_pause, sw leader", SW_LEADER, 0, true, .pause = 1,
	  .err = EINVAL },
	{ "sw aux_pause, out leader", OUT_LEADER, 0, true, .pause = 1,
	  .err = EINVAL },
	{ "sw aux_pause, aux leader", AUX_LEADER, 0, true, .pause = 1 },
	{ "sw aux_resume, aux leader", AUX_LEADER, 0, true, .resume = 1 },
	{ "sw counting aux_pause, aux leader", AUX_LEADER, 0, false,
	  .pause = 1 },
	{ "aux aux_pause, aux leader", AUX_LEADER, 1, false, .pause = 1 },
	{ "out aux_resume, aux leader", AUX_LEADER, 2, false, .resume = 1 },
	{ "sw sample_size, alone", NONE, 0, true, .sample_size = 64,
	  .err = EINVAL },
	{ "sw sample_size, aux leader", AUX_LEADER, 0, true,
	  .sample_size = 64, .err = EINVAL },
	{ "sw SAMPLE_AUX sample_size, aux leader", AUX_LEADER, 0, true,
	  .sample_aux = true, .sample_size = 64, .err = EINVAL },
};

/*
 * Every errno of the controls: the ones perf_event_open() finds in the
 * attr and the PMU alone, whatever the group (EOPNOTSUPP for aux_output
 * without PERF_PMU_CAP_AUX_OUTPUT or with aux_pause/aux_resume, and for
 * aux_start_paused without PERF_PMU_CAP_AUX_PAUSE; EINVAL for pause and
 * resume together and for an unknown aux_action bit), and then the
 * group's (EINVAL without a leader that fits: one aux_output_match()
 * takes, one with PERF_PMU_CAP_AUX_PAUSE, one with a snapshot for
 * aux_sample_size, never aux_output with aux_sample_size).  A software
 * member joins a perf_aux_test leader's group.
 */
TEST_F(ctl, open_errnos)
{
	const long types[] = { PERF_TYPE_SOFTWARE, self->type, self->out_type };
	struct perf_event_attr attr;
	int aux_fd, out_fd, sw_fd, group, fd;
	unsigned int i;

	aux_attr(&attr, self->type, 0, 0);
	aux_fd = ev_open(self, &attr, -1);
	ASSERT_GE(aux_fd, 0);
	aux_attr(&attr, self->out_type, 0, 0);
	out_fd = ev_open(self, &attr, -1);
	ASSERT_GE(out_fd, 0);
	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	sw_fd = ev_open(self, &attr, -1);
	ASSERT_GE(sw_fd, 0);

	for (i = 0; i < ARRAY_SIZE(errno_cases); i++) {
		const struct errno_case *c = &errno_cases[i];

		if (c->pmu)
			aux_attr(&attr, types[c->pmu], 0, 0);
		else
			fault_attr(&attr);
		if (!c->sampling)
			attr.sample_period = 0;
		if (c->sample_aux)
			attr.sample_type |= PERF_SAMPLE_AUX;
		attr.aux_output = c->output;
		attr.aux_pause = c->pause;
		attr.aux_resume = c->resume;
		attr.aux_start_paused = c->start_paused;
		attr.aux_sample_size = c->sample_size;
		attr.aux_action |= c->aux_action;
		group = c->under == AUX_LEADER ? aux_fd :
			c->under == OUT_LEADER ? out_fd :
			c->under == SW_LEADER ? sw_fd : -1;
		fd = sys_perf_event_open(&attr, 0, -1, group,
					 PERF_FLAG_FD_CLOEXEC);
		if (c->err) {
			EXPECT_EQ(fd, -1) TH_LOG("%s opens", c->what);
			EXPECT_EQ(errno, c->err)
				TH_LOG("%s: %s", c->what, strerror(errno));
		} else {
			EXPECT_GE(fd, 0)
				TH_LOG("%s: %s", c->what, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
	/* the opens linked nothing: no call */
	EXPECT_EQ(param(PARAM("pauses")), 0);
	EXPECT_EQ(param(PARAM("resumes")), 0);
}

/*
 * An aux_output member writes into its leader's AUX area: a read of the
 * perf_aux_test_out member puts its chunk at the leader's head, the
 * leader's buffer gets the PERF_RECORD_AUX, and the chunks of leader and
 * member follow each other.
 */
TEST_F(ctl, aux_output_member_writes_leader_area)
{
	struct perf_event_attr attr;
	int out, n;

	aux_attr(&attr, self->type, CFG_CHUNK(100), 0x21);
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	aux_attr(&attr, self->out_type, CFG_CHUNK(60), 0x35);
	attr.aux_output = 1;
	attr.disabled = 0;
	out = ev_open(self, &attr, self->lead.fd);
	ASSERT_GE(out, 0) TH_LOG("aux_output member: %s", strerror(-out));

	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	EXPECT_EQ(trigger(out), 60);
	EXPECT_EQ(trigger(self->lead.fd), 200);
	EXPECT_EQ(trigger(out), 120);
	EXPECT_EQ(aux_head(&self->lead), 320);
	EXPECT_EQ(bad_pattern(&self->lead, 0, 100, 0x21), -1);
	EXPECT_EQ(bad_pattern(&self->lead, 100, 160, 0x35), -1);
	EXPECT_EQ(bad_pattern(&self->lead, 160, 260, 0x21), -1);
	EXPECT_EQ(bad_pattern(&self->lead, 260, 320, 0x35), -1);
	EXPECT_EQ(bad_unwritten(&self->lead, 320, self->lead.aux_len), -1);

	n = drain(&self->lead, self->recs, MAX_RECS);
	ASSERT_EQ(n, 4);
	expect_aux_rec(_metadata, &self->recs[0], 0, 100);
	expect_aux_rec(_metadata, &self->recs[1], 100, 60);
	expect_aux_rec(_metadata, &self->recs[2], 160, 100);
	expect_aux_rec(_metadata, &self->recs[3], 260, 60);

	/* the leader off: the member is off with it, and writes nothing */
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_EQ(trigger(out), 120);
	EXPECT_EQ(aux_head(&self->lead), 320);
}

/*
 * The leader closed: the members linked to it (aux_output, aux_pause;
 * on or off) go to the error state, where read() returns 0 bytes, while
 * a plain
 * member reads on.  PERF_EVENT_IOC_ENABLE takes a member out of it; the
 * aux_output one, which has nowhere to write any more, is enabled but
 * never goes on (its time_running stays).
 */
TEST_F(ctl, leader_close_puts_members_in_error)
{
	struct perf_event_attr attr;
	struct perf_value v, w;
	int out, pause, plain;

	aux_attr(&attr, self->type, CFG_CHUNK(10), 0);
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	aux_attr(&attr, self->out_type, CFG_CHUNK(10), 0);
	attr.aux_output = 1;
	attr.disabled = 0;
	attr.read_format = READ_FORMAT_TIMES;
	out = ev_open(self, &attr, self->lead.fd);
	ASSERT_GE(out, 0);
	fault_attr(&attr);
	attr.aux_pause = 1;
	attr.read_format = READ_FORMAT_TIMES;
	pause = ev_open(self, &attr, self->lead.fd);
	ASSERT_GE(pause, 0);
	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.disabled = 0;
	attr.read_format = READ_FORMAT_TIMES;
	plain = ev_open(self, &attr, self->lead.fd);
	ASSERT_GE(plain, 0);

	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_TRUE(perf_read_value(out, &v));
	EXPECT_EQ(v.count, 10);
	EXPECT_GT(v.running, 0);
	ASSERT_TRUE(perf_read_value(pause, &v));
	ASSERT_TRUE(perf_read_value(plain, &v));
	EXPECT_GT(v.running, 0);

	/* the mappings hold the event: they go first */
	leader_unmap(&self->lead);
	ev_close(self, self->lead.fd);

	EXPECT_EQ(read(out, &v, sizeof(v)), 0);
	EXPECT_EQ(read(pause, &v, sizeof(v)), 0);
	ASSERT_TRUE(perf_read_value(plain, &v));
	usleep(10000);
	ASSERT_TRUE(perf_read_value(plain, &w));
	EXPECT_GT(w.running, v.running);

	/* enabling does not bring the error back */
	ASSERT_EQ(ioctl(out, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_TRUE(perf_read_value(out, &v));
	usleep(10000);
	ASSERT_TRUE(perf_read_value(out, &w));
	EXPECT_GT(w.enabled, v.enabled);
	EXPECT_EQ(w.running, v.running);
	EXPECT_EQ(w.count, 10);
	/* the other linked member stays in error until enabled itself */
	EXPECT_EQ(read(pause, &v, sizeof(v)), 0);
}

/*
 * An aux_pause member's overflow pauses the leader: one stop() with
 * exactly PERF_EF_PAUSE, before the member's sample is written, and no
 * more for the overflows that follow (the core knows it is paused);
 * reads write nothing after it, on and off CPU alike.
 */
TEST_F(ctl, pause_stops_writing)
{
	struct perf_event_attr attr;
	__u64 id;
	int p, n;

	prefault_self();
	aux_attr(&attr, self->type, CFG_CHUNK(100) | CFG_MARKS, 3);
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	p = member_open(self, true);
	ASSERT_GE(p, 0) TH_LOG("aux_pause member: %s", strerror(-p));
	id = perf_event_id(p);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(self->lead.fd), 100);

	ASSERT_EQ(overflow(self->lead.fd, p, 3), 0);
	EXPECT_EQ(param(PARAM("pauses")), 1);
	EXPECT_EQ(param(PARAM("pause_flags")), EF_PAUSE);
	EXPECT_EQ(param(PARAM("resumes")), 0);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	EXPECT_EQ(aux_head(&self->lead), 100);

	n = drain(&self->lead, self->recs, MAX_RECS);
	ASSERT_EQ(n, 5);
	expect_aux_rec(_metadata, &self->recs[0], 0, 100);
	expect_mark(_metadata, &self->recs[1], MARK_PAUSE + 1);
	expect_sample(_metadata, &self->recs[2], id);
	expect_sample(_metadata, &self->recs[3], id);
	expect_sample(_metadata, &self->recs[4], id);

	/* off and on again, by a sleep and by the ioctls: still paused */
	usleep(1000);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	ASSERT_EQ(overflow(self->lead.fd, p, 1), 0);
	EXPECT_EQ(param(PARAM("pauses")), 1);
	EXPECT_EQ(aux_head(&self->lead), 100);
	EXPECT_EQ(bad_unwritten(&self->lead, 100, self->lead.aux_len), -1);
}

/*
 * An aux_resume member's overflow resumes a paused leader: one start()
 * with exactly PERF_EF_RESUME, after the member's sample; reads write
 * again from where the head stood; a resume of a running leader, and a
 * pause of a paused one, call nothing.  The core's paused state outlives
 * the leader's going off and on (IOC_DISABLE, IOC_ENABLE).
 */
TEST_F(ctl, resume_restarts)
{
	struct perf_event_attr attr;
	__u64 pid, rid;
	int p, r, n;

	prefault_self();
	aux_attr(&attr, self->type, CFG_CHUNK(50) | CFG_MARKS, 9);
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	p = member_open(self, true);
	ASSERT_GE(p, 0);
	r = member_open(self, false);
	ASSERT_GE(r, 0) TH_LOG("aux_resume member: %s", strerror(-r));
	pid = perf_event_id(p);
	rid = perf_event_id(r);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	/* not paused: a resume calls nothing */
	ASSERT_EQ(overflow(self->lead.fd, r, 1), 0);
	EXPECT_EQ(param(PARAM("resumes")), 0);
	EXPECT_EQ(trigger(self->lead.fd), 50);

	ASSERT_EQ(overflow(self->lead.fd, p, 1), 0);
	EXPECT_EQ(trigger(self->lead.fd), 50);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);

	ASSERT_EQ(overflow(self->lead.fd, r, 2), 0);
	EXPECT_EQ(param(PARAM("pauses")), 1);
	EXPECT_EQ(param(PARAM("resumes")), 1);
	EXPECT_EQ(param(PARAM("resume_flags")), EF_RESUME);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	EXPECT_EQ(aux_head(&self->lead), 100);
	EXPECT_EQ(bad_pattern(&self->lead, 0, 100, 9), -1);

	/* paused and resumed again: the second of each */
	ASSERT_EQ(overflow(self->lead.fd, p, 2), 0);
	EXPECT_EQ(trigger(self->lead.fd), 100);
	ASSERT_EQ(overflow(self->lead.fd, r, 1), 0);
	EXPECT_EQ(trigger(self->lead.fd), 150);
	EXPECT_EQ(param(PARAM("pauses")), 2);
	EXPECT_EQ(param(PARAM("resumes")), 2);

	n = drain(&self->lead, self->recs, MAX_RECS);
	ASSERT_EQ(n, 14);
	expect_sample(_metadata, &self->recs[0], rid);
	expect_aux_rec(_metadata, &self->recs[1], 0, 50);
	expect_mark(_metadata, &self->recs[2], MARK_PAUSE + 1);
	expect_sample(_metadata, &self->recs[3], pid);
	expect_sample(_metadata, &self->recs[4], rid);
	expect_mark(_metadata, &self->recs[5], MARK_RESUME + 1);
	expect_sample(_metadata, &self->recs[6], rid);
	expect_aux_rec(_metadata, &self->recs[7], 50, 50);
	expect_mark(_metadata, &self->recs[8], MARK_PAUSE + 2);
	expect_sample(_metadata, &self->recs[9], pid);
	expect_sample(_metadata, &self->recs[10], pid);
	expect_sample(_metadata, &self->recs[11], rid);
	expect_mark(_metadata, &self->recs[12], MARK_RESUME + 2);
	expect_aux_rec(_metadata, &self->recs[13], 100, 50);
}

/*
 * aux_start_paused: the leader writes nothing from its first sched-in on,
 * a pause calls nothing (it is paused already), and the first resume
 * starts it.
 */
TEST_F(ctl, start_paused)
{
	struct perf_event_attr attr;
	int p, r;

	prefault_self();
	aux_attr(&attr, self->type, CFG_CHUNK(64), 5);
	attr.aux_start_paused = 1;
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	p = member_open(self, true);
	ASSERT_GE(p, 0);
	r = member_open(self, false);
	ASSERT_GE(r, 0);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	EXPECT_EQ(trigger(self->lead.fd), 0);
	usleep(1000);
	EXPECT_EQ(trigger(self->lead.fd), 0);
	EXPECT_EQ(aux_head(&self->lead), 0);

	ASSERT_EQ(overflow(self->lead.fd, p, 1), 0);
	EXPECT_EQ(param(PARAM("pauses")), 0);
	EXPECT_EQ(trigger(self->lead.fd), 0);

	ASSERT_EQ(overflow(self->lead.fd, r, 1), 0);
	EXPECT_EQ(param(PARAM("resumes")), 1);
	EXPECT_EQ(param(PARAM("resume_flags")), EF_RESUME);
	EXPECT_EQ(trigger(self->lead.fd), 64);
	EXPECT_EQ(aux_head(&self->lead), 64);
	EXPECT_EQ(bad_pattern(&self->lead, 0, 64, 5), -1);
	EXPECT_EQ(bad_unwritten(&self->lead, 64, self->lead.aux_len), -1);
}

/*
 * The core pauses and resumes only a leader with a ring buffer: without
 * one mapped the member's overflows call nothing; once it is mapped
 * (a data buffer alone will do), they do.
 */
TEST_F(ctl, pause_needs_leader_buffer)
{
	struct perf_event_attr attr;
	struct leader *l = &self->lead;
	int p;

	prefault_self();
	aux_attr(&attr, self->type, CFG_CHUNK(8), 0);
	l->fd = ev_open(self, &attr, -1);
	ASSERT_GE(l->fd, 0);
	fault_attr(&attr);
	attr.aux_pause = 1;
	p = ev_open(self, &attr, l->fd);
	ASSERT_GE(p, 0);
	ASSERT_EQ(ioctl(l->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(overflow(self->lead.fd, p, 2), 0);
	EXPECT_EQ(param(PARAM("pauses")), 0);

	ASSERT_EQ(rb_mmap(&l->rb, l->fd, 1, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(overflow(self->lead.fd, p, 1), 0);
	EXPECT_EQ(param(PARAM("pauses")), 1);
}

/*
 * An inherited group: the child's copy of the pausing member pauses the
 * child's copy of the leader, not the parent's (already paused here, so
 * a call on it would not count): two pauses in all, both marks in the
 * parent's buffer.  On CPU 0: an inherited event of a task on any CPU
 * has no buffer (mmap() says EINVAL), and without one no pause.  An
 * event the child does not inherit keeps its context from being a clone
 * of the parent's: a switch from the one to the other on CPU 0 would
 * swap the two contexts (upstream's fast path), and the child's faults
 * would then count on the parent's events.
 */
TEST_F(ctl, inherited_member_pauses_child_leader)
{
	struct perf_event_attr attr;
	int p, n, status, own;
	pid_t child;

	ASSERT_EQ(pin_to_cpu(0), 0);
	self->cpu = 0;
	prefault_self();
	perf_attr_user(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	own = ev_open(self, &attr, -1);
	ASSERT_GE(own, 0);
	aux_attr(&attr, self->type, CFG_CHUNK(16) | CFG_MARKS, 0);
	attr.inherit = 1;
	ASSERT_EQ(leader_open(self, &attr, AUX_PAGES), 0);
	fault_attr(&attr);
	attr.aux_pause = 1;
	attr.inherit = 1;
	attr.disabled = 0;
	p = ev_open(self, &attr, self->lead.fd);
	ASSERT_GE(p, 0);
	ASSERT_EQ(ioctl(self->lead.fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	ASSERT_EQ(touch_fresh_pages(1), 0);
	ASSERT_EQ(param(PARAM("pauses")), 1);

	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		touch_fresh_pages(1);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	EXPECT_EQ(param(PARAM("pauses")), 2);
	EXPECT_EQ(param(PARAM("resumes")), 0);

	n = drain(&self->lead, self->recs, MAX_RECS);
	ASSERT_EQ(n, 2);
	expect_mark(_metadata, &self->recs[0], MARK_PAUSE + 1);
	expect_mark(_metadata, &self->recs[1], MARK_PAUSE + 2);
}

TEST_HARNESS_MAIN
