// SPDX-License-Identifier: GPL-2.0
/*
 * Memory sampling with Intel PEBS, what `perf mem` uses: the load-latency
 * event (MEM_TRANS_RETIRED.LOAD_LATENCY, "mem-loads", its threshold in
 * config1 as format/ldlat says) and the retired stores ("mem-stores"),
 * over user loops whose loads and stores are known to the byte.
 *
 * ms_work(buf, n) loads one word from each of n cache lines in turn, a
 * stream through an array far larger than the caches: each load misses.
 * mh_work(var, n) loads one word n times: after the first, each hits the
 * first-level cache. st_work(buf, n) stores one word to each of n lines.
 * A sample's data address (PERF_SAMPLE_ADDR) must be one those loops
 * touch, its data source (PERF_SAMPLE_DATA_SRC) a load or store from
 * where the access was served, and its weight the load's latency, above
 * the threshold. The rig's emulated PMU (rig/qemu patch 0019) models the
 * facility with a deterministic cache.
 *
 * Runs on the Intel models whose load-latency facility perf drives
 * (Haswell, Broadwell, Skylake, Ice Lake and Sapphire Rapids classes)
 * where the CPU has PEBS;
 * everywhere else every test SKIPs (rig/xfail.list).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "loop_common.h"
#include "perf_test.h"

#define RING_PAGES	128
#define MAX_SAMPLES	8192
/* the streamed array: 16 MiB, far past any cache the model has */
#define ARRAY_BYTES	(16UL << 20)
#define LINE		64
#define LINES		(ARRAY_BYTES / LINE)
/* loads (or stores) per sample: a prime, so samples spread over lines */
#define PERIOD		997
#define LDLAT		3
#define LDLAT_MAX	0xffff

#define EV_LOAD_LATENCY	0x01cd
#define EV_STORE_SAMPLE	0x02cd
#define EV_ALL_STORES	0x82d0
#define EV_LOADS_AUX	0x8203

typedef void (*mem_fn)(void *p, unsigned long n);

#if defined(__x86_64__)
asm(".text\n"
	"ms_work:\n"
	"ms_ld:	mov (%rdi), %rax\n"
	"	add $64, %rdi\n"
	"	dec %rsi\n"
	"	jnz ms_work\n"
	"	ret\n"
	"mh_work:\n"
	"mh_ld:	mov (%rdi), %rax\n"
	"	dec %rsi\n"
	"	jnz mh_work\n"
	"	ret\n"
	"st_work:\n"
	"st_st:	mov %rsi, (%rdi)\n"
	"	add $64, %rdi\n"
	"	dec %rsi\n"
	"	jnz st_work\n"
	"	ret\n");
#endif

/* a loop above (never called off x86_64, where every test skips) */
#define MEM_FN(sym)	((mem_fn)LABEL(sym))

/* the Intel models whose load-latency facility perf drives */
static const long mem_models[] = {
	0x3c, 0x45, 0x46, 0x3f, 0x3d, 0x47, 0x4f, 0x56,	/* Haswell, Broadwell */
	0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,	/* Skylake class */
	0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7,	/* Ice Lake class */
	0x8f, 0xcf, 0xad, 0xae,				/* Golden Cove servers */
};

/* those whose mem-stores is the store-latency sampler */
static const long glc_models[] = { 0x8f, 0xcf, 0xad, 0xae };

/* those whose mem-loads needs mem-loads-aux */
static const long aux_models[] = { 0x8f, 0xcf };

struct mem_sample {
	__u64 ip;
	__u64 addr;
	__u64 weight;
	__u64 data_src;
	__u64 phys;
};

#define MEM_SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

/* the fields of a PERF_RECORD_SAMPLE of @type, in the ABI's order */
static void ms_parse(const struct perf_event_header *h, __u64 type,
		     struct mem_sample *s)
{
	const __u64 *p = (const __u64 *)(h + 1);

	memset(s, 0, sizeof(*s));
	if (type & PERF_SAMPLE_IP)
		s->ip = *p++;
	if (type & PERF_SAMPLE_ADDR)
		s->addr = *p++;
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = *p++;
	if (type & PERF_SAMPLE_DATA_SRC)
		s->data_src = *p++;
	if (type & PERF_SAMPLE_PHYS_ADDR)
		s->phys = *p++;
}

/* the samples in @base's ring, -1 if one is malformed */
static int ms_samples(void *base, __u64 type, struct mem_sample *out, int max)
{
	struct perf_event_mmap_page *pg = base;
	long psz = sysconf(_SC_PAGESIZE);
	char *data = (char *)base + psz;
	__u64 size = (__u64)RING_PAGES * psz;
	__u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	__u64 off = 0;
	int n = 0;

	if (head > size)
		return -1;
	while (off + sizeof(struct perf_event_header) <= head && n < max) {
		struct perf_event_header *h = (void *)(data + off);

		if (h->size < sizeof(*h) || off + h->size > head)
			return -1;
		if (h->type == PERF_RECORD_SAMPLE)
			ms_parse(h, type, &out[n++]);
		off += h->size;
	}
	return n;
}

FIXTURE(mem) {
	struct mem_sample *s;
	struct sample_limits saved;
	bool raised;
	bool glc, aux;
	char *buf;
	unsigned long hot;
};

FIXTURE_SETUP(mem)
{
	int ret;

	if (!HAVE_LOOP || !cpu_has_flag("pebs") ||
	    !intel_model_in(mem_models, ARRAY_SIZE(mem_models)))
		SKIP(return, "no PEBS load latency on this CPU (Intel only)");
	ret = sample_limits_raise_as_root(&self->saved, &self->raised);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
	self->glc = intel_model_in(glc_models, ARRAY_SIZE(glc_models));
	self->aux = intel_model_in(aux_models, ARRAY_SIZE(aux_models));
	self->s = calloc(MAX_SAMPLES, sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
	self->buf = mmap(NULL, ARRAY_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	memset(self->buf, 0x5a, ARRAY_BYTES);
}

FIXTURE_TEARDOWN_PARENT(mem)
{
	if (self->raised)
		sample_limits_set(&self->saved);
}

/* a precise raw event of this task's user mode, opened disabled */
static void ms_attr(struct perf_event_attr *attr, __u64 config, __u64 ldlat,
		    __u64 type)
{
	perf_attr_user(attr, PERF_TYPE_RAW, config);
	attr->config1 = ldlat;
	attr->precise_ip = 2;
	attr->sample_period = PERIOD;
	attr->sample_type = type;
}

/*
 * Open @attr (behind a counting mem-loads-aux leader where the model needs
 * one), run @fn(@p, @n) while it is enabled and collect its samples into
 * @s: how many, -1 on error.
 */
static int ms_run(struct __test_metadata *_metadata, bool aux,
		  struct perf_event_attr *attr, struct mem_sample *s,
		  mem_fn fn, void *p, unsigned long n)
{
	struct perf_event_attr lead;
	int fd, gfd = -1, ret;
	void *ring;

	if (aux) {
		perf_attr_user(&lead, PERF_TYPE_RAW, EV_LOADS_AUX);
		gfd = sys_perf_event_open(&lead, 0, -1, -1, 0);
		if (gfd < 0) {
			TH_LOG("open mem-loads-aux: %s", strerror(errno));
			return -1;
		}
		attr->disabled = 0;
	}
	fd = sys_perf_event_open(attr, 0, -1, gfd, 0);
	if (fd < 0) {
		TH_LOG("open config %#llx ldlat %llu: %s",
		       (unsigned long long)attr->config,
		       (unsigned long long)attr->config1, strerror(errno));
		ret = -1;
		goto out_lead;
	}
	ring = perf_map_ring(fd, RING_PAGES);
	if (ring == MAP_FAILED) {
		ret = -1;
		goto out;
	}
	ioctl(aux ? gfd : fd, PERF_EVENT_IOC_ENABLE, 0);
	fn(p, n);
	ioctl(aux ? gfd : fd, PERF_EVENT_IOC_DISABLE, 0);
	ret = ms_samples(ring, attr->sample_type, s, MAX_SAMPLES);
	perf_unmap_ring(ring, RING_PAGES);
out:
	close(fd);
out_lead:
	if (gfd >= 0)
		close(gfd);
	return ret;
}

/* a sysfs file of the core PMU, without its newline */
static int pmu_file(const char *rel, char *buf, size_t len)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", hw_pmu_dir(), rel);
	ret = read_file(path, buf, len);
	if (ret < 0)
		return ret;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* the files perf mem looks for, with upstream's strings */
TEST_F(mem, sysfs_strings)
{
	char buf[128];

	ASSERT_EQ(0, pmu_file("format/ldlat", buf, sizeof(buf)));
	ASSERT_STREQ("config1:0-15", buf);
	ASSERT_EQ(0, pmu_file("events/mem-loads", buf, sizeof(buf)));
	ASSERT_STREQ("event=0xcd,umask=0x1,ldlat=3", buf);
	ASSERT_EQ(0, pmu_file("events/mem-stores", buf, sizeof(buf)));
	ASSERT_STREQ(self->glc ? "event=0xcd,umask=0x2" :
		     "event=0xd0,umask=0x82", buf);
	if (self->aux) {
		ASSERT_EQ(0, pmu_file("events/mem-loads-aux", buf,
				      sizeof(buf)));
		ASSERT_STREQ("event=0x03,umask=0x82", buf);
	} else {
		ASSERT_NE(0, pmu_file("events/mem-loads-aux", buf,
				      sizeof(buf)));
	}
}

/* a sample's data address: in @buf's array, at a line's start; and @op */
static void ms_addr_ok(struct __test_metadata *_metadata,
		       const struct mem_sample *s, char *buf, __u64 op)
{
	unsigned long base = (unsigned long)buf;
	union perf_mem_data_src ds = { .val = s->data_src };

	ASSERT_GE(s->addr, base);
	ASSERT_LT(s->addr, base + ARRAY_BYTES);
	ASSERT_EQ(0, (s->addr - base) % LINE);
	ASSERT_EQ(op, (__u64)ds.mem_op);
}

/*
 * mem-loads over the stream: samples on the load, each with an address
 * the loop loaded from, a load that missed the first-level cache, and a
 * weight above the threshold
 */
TEST_F(mem, loads_stream_miss)
{
	struct perf_event_attr attr;
	unsigned long ld = LABEL(ms_ld);
	int n, i, on = 0;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT, MEM_SAMPLE_TYPE);
	n = ms_run(_metadata, self->aux, &attr, self->s, MEM_FN(ms_work),
		   self->buf, LINES);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct mem_sample *s = &self->s[i];
		union perf_mem_data_src ds = { .val = s->data_src };

		if (s->ip != ld)
			continue;
		on++;
		ms_addr_ok(_metadata, s, self->buf, PERF_MEM_OP_LOAD);
		/* not a first-level hit, nor a fill buffer one */
		ASSERT_FALSE((ds.mem_lvl & PERF_MEM_LVL_L1) &&
			     (ds.mem_lvl & PERF_MEM_LVL_HIT));
		ASSERT_NE(PERF_MEM_LVLNUM_L1, (__u64)ds.mem_lvl_num);
		ASSERT_NE(PERF_MEM_LVLNUM_NA, (__u64)ds.mem_lvl_num);
		/* a latency, in core cycles: more than the threshold */
		ASSERT_GT(s->weight, LDLAT);
		ASSERT_LE(s->weight, 0xffff);
	}
	TH_LOG("%d samples, %d on the load", n, on);
	/* about LINES / PERIOD of them */
	ASSERT_GT(on, LINES / PERIOD / 2);
}

/*
 * mem-loads over one hot word: first-level hits, as the threshold is
 * below their latency
 */
TEST_F(mem, loads_hot_hit_l1)
{
	struct perf_event_attr attr;
	unsigned long ld = LABEL(mh_ld);
	int n, i, on = 0;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT, MEM_SAMPLE_TYPE);
	n = ms_run(_metadata, self->aux, &attr, self->s, MEM_FN(mh_work),
		   &self->hot, 200000);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct mem_sample *s = &self->s[i];
		union perf_mem_data_src ds = { .val = s->data_src };

		if (s->ip != ld)
			continue;
		on++;
		ASSERT_EQ((unsigned long)&self->hot, s->addr);
		ASSERT_EQ(PERF_MEM_OP_LOAD, (__u64)ds.mem_op);
		/* the first load of a run may miss; all others hit */
		if (on > 1) {
			ASSERT_EQ(PERF_MEM_LVLNUM_L1, (__u64)ds.mem_lvl_num);
			ASSERT_TRUE(ds.mem_lvl & PERF_MEM_LVL_HIT);
		}
		ASSERT_GT(s->weight, LDLAT);
	}
	TH_LOG("%d samples, %d on the load", n, on);
	ASSERT_GT(on, 50);
}

/*
 * The threshold decides: above every latency the model has, the stream
 * gives no sample at all, where LDLAT gave hundreds (loads_stream_miss)
 */
TEST_F(mem, threshold_above_every_latency)
{
	struct perf_event_attr attr;
	int n;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT_MAX, MEM_SAMPLE_TYPE);
	n = ms_run(_metadata, self->aux, &attr, self->s, MEM_FN(ms_work),
		   self->buf, LINES);
	ASSERT_EQ(0, n);
}

/*
 * PERF_SAMPLE_PHYS_ADDR: the data address's page, at its offset; and
 * without PERF_SAMPLE_ADDR too
 */
TEST_F(mem, loads_phys_addr)
{
	struct perf_event_attr attr;
	unsigned long ld = LABEL(ms_ld);
	int n, i, on = 0;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT,
		PERF_SAMPLE_IP | PERF_SAMPLE_PHYS_ADDR);
	n = ms_run(_metadata, false, &attr, self->s, MEM_FN(ms_work),
		   self->buf, LINES / 4);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		if (self->s[i].ip != ld)
			continue;
		on++;
		ASSERT_NE(0, self->s[i].phys);
	}
	ASSERT_GT(on, 20);
	on = 0;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT,
		MEM_SAMPLE_TYPE | PERF_SAMPLE_PHYS_ADDR);
	n = ms_run(_metadata, self->aux, &attr, self->s, MEM_FN(ms_work),
		   self->buf, LINES / 4);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct mem_sample *s = &self->s[i];

		if (s->ip != ld)
			continue;
		on++;
		ASSERT_NE(0, s->phys);
		ASSERT_EQ(s->addr & 0xfff, s->phys & 0xfff);
	}
	ASSERT_GT(on, 20);
}

/* PERF_SAMPLE_WEIGHT_STRUCT: the latency in its first field */
TEST_F(mem, loads_weight_struct)
{
	struct perf_event_attr attr;
	unsigned long ld = LABEL(ms_ld);
	int n, i, on = 0;

	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT,
		(MEM_SAMPLE_TYPE & ~PERF_SAMPLE_WEIGHT) |
		PERF_SAMPLE_WEIGHT_STRUCT);
	n = ms_run(_metadata, self->aux, &attr, self->s, MEM_FN(ms_work),
		   self->buf, LINES / 4);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct mem_sample *s = &self->s[i];
		union perf_sample_weight w = { .full = s->weight };

		if (s->ip != ld)
			continue;
		on++;
		ASSERT_GT(w.var1_dw, LDLAT);
	}
	ASSERT_GT(on, 20);
}

/*
 * @event's samples over a stream of stores (st_work): each one on the
 * store has an address in the array at a line's start and says it is a
 * store; @level_ok judges the rest. Enough of them are on the store.
 */
static void st_check(struct __test_metadata *_metadata, __u64 event,
		     struct mem_sample *smp, char *buf,
		     bool (*level_ok)(const struct mem_sample *s))
{
	unsigned long st = LABEL(st_st);
	struct perf_event_attr attr;
	int n, i, on = 0;

	ms_attr(&attr, event, 0, MEM_SAMPLE_TYPE);
	n = ms_run(_metadata, false, &attr, smp, MEM_FN(st_work), buf,
		   LINES / 4);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		const struct mem_sample *s = &smp[i];

		if (s->ip != st)
			continue;
		on++;
		ms_addr_ok(_metadata, s, buf, PERF_MEM_OP_STORE);
		ASSERT_TRUE(level_ok(s))
			TH_LOG("data_src %#llx weight %llu",
			       (unsigned long long)s->data_src,
			       (unsigned long long)s->weight);
	}
	TH_LOG("%d samples, %d on the store", n, on);
	ASSERT_GT(on, LINES / 4 / PERIOD / 2);
}

/* each store is the first to its line: an L1 miss */
static bool st_l1_miss(const struct mem_sample *s)
{
	union perf_mem_data_src ds = { .val = s->data_src };

	return ds.mem_lvl == (PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS);
}

/* served from where the line was (not the L1), with a latency */
static bool st_served(const struct mem_sample *s)
{
	union perf_mem_data_src ds = { .val = s->data_src };

	return ds.mem_lvl_num != PERF_MEM_LVLNUM_L1 &&
	       ds.mem_lvl_num != PERF_MEM_LVLNUM_NA &&
	       s->weight > 0 && s->weight <= 0xffff;
}

/* mem-stores where it is MEM_INST_RETIRED.ALL_STORES: an L1 miss each */
TEST_F(mem, stores_give_the_address)
{
	st_check(_metadata, EV_ALL_STORES, self->s, self->buf, st_l1_miss);
}

/*
 * The Golden Cove servers' mem-stores, MEM_TRANS_RETIRED.STORE_SAMPLE:
 * each store served from where its line was, and a latency. Other
 * models have no such event: nothing to check there.
 */
TEST_F(mem, store_latency_samples)
{
	if (!self->glc) {
		TH_LOG("no store-latency event on this model");
		return;
	}
	st_check(_metadata, EV_STORE_SAMPLE, self->s, self->buf, st_served);
}

/* a precise event that is no memory event: its data source is unknown */
TEST_F(mem, other_events_data_src_na)
{
	struct perf_event_attr attr;
	int n, i;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.precise_ip = 2;
	attr.sample_period = 10007;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_DATA_SRC;
	n = ms_run(_metadata, false, &attr, self->s, MEM_FN(mh_work),
		   &self->hot, 200000);
	ASSERT_GT(n, 10);
	for (i = 0; i < n; i++) {
		union perf_mem_data_src ds = { .val = self->s[i].data_src };

		ASSERT_EQ(PERF_MEM_OP_NA, (__u64)ds.mem_op);
		ASSERT_EQ(PERF_MEM_LVL_NA, (__u64)ds.mem_lvl);
	}
}

/*
 * mem-loads with thresholds @a and @b at once (precise, sampling rarely:
 * on Haswell and Broadwell the event counts on counter 3 only, and
 * samples on any of 0-3), for a while: whether each ran all the time it
 * was enabled
 */
static void two_thresholds(struct __test_metadata *_metadata, char *buf,
			   __u64 a, __u64 b, bool *full_a, bool *full_b)
{
	struct perf_event_attr attr;
	struct perf_value va, vb;
	int fa, fb, k;

	ms_attr(&attr, EV_LOAD_LATENCY, a, PERF_SAMPLE_IP);
	attr.sample_period = 1000003;
	attr.read_format = READ_FORMAT_TIMES;
	fa = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fa, 0) TH_LOG("open: %s", strerror(errno));
	attr.config1 = b;
	fb = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fb, 0) TH_LOG("open: %s", strerror(errno));
	ioctl(fa, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fb, PERF_EVENT_IOC_ENABLE, 0);
	/* long enough for the multiplexing timer to rotate them */
	for (k = 0; k < 40; k++)
		MEM_FN(ms_work)(buf, LINES);
	ioctl(fa, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fb, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_TRUE(perf_read_value(fa, &va));
	ASSERT_TRUE(perf_read_value(fb, &vb));
	TH_LOG("ldlat %llu: ran %llu of %llu; ldlat %llu: %llu of %llu",
	       (unsigned long long)a, (unsigned long long)va.running,
	       (unsigned long long)va.enabled, (unsigned long long)b,
	       (unsigned long long)vb.running, (unsigned long long)vb.enabled);
	ASSERT_GT(va.running, 0);
	ASSERT_GT(vb.running, 0);
	*full_a = va.running == va.enabled;
	*full_b = vb.running == vb.enabled;
	close(fa);
	close(fb);
}

/*
 * The threshold MSR is one per CPU: two load-latency events with one
 * threshold count together, two with different ones take turns
 */
TEST_F(mem, threshold_is_shared)
{
	bool fa, fb;

	two_thresholds(_metadata, self->buf, 50, 50, &fa, &fb);
	ASSERT_TRUE(fa && fb);
	two_thresholds(_metadata, self->buf, 50, 60, &fa, &fb);
	ASSERT_FALSE(fa && fb);
}

/* what is refused, with upstream's errnos */
TEST_F(mem, errors)
{
	struct perf_event_attr attr, lead;
	int fd, gfd;

	/* a threshold past 16 bits */
	ms_attr(&attr, EV_LOAD_LATENCY, 0x10000, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	/* the largest opens */
	attr.config1 = LDLAT_MAX;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("ldlat 0xffff: %s", strerror(errno));
	/* a group can hold only one threshold: another is refused */
	ms_attr(&attr, EV_LOAD_LATENCY, 100, PERF_SAMPLE_IP);
	ASSERT_EQ(-1, sys_perf_event_open(&attr, 0, -1, fd, 0));
	ASSERT_EQ(EINVAL, errno);
	/* the same one is not */
	attr.config1 = LDLAT_MAX;
	gfd = sys_perf_event_open(&attr, 0, -1, fd, 0);
	ASSERT_GE(gfd, 0) TH_LOG("same ldlat in group: %s", strerror(errno));
	close(gfd);
	close(fd);

	/* Golden Cove servers: mem-loads with DATA_SRC needs the aux first */
	ms_attr(&attr, EV_LOAD_LATENCY, LDLAT, MEM_SAMPLE_TYPE);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (self->aux) {
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(ENODATA, errno);
		perf_attr_user(&lead, PERF_TYPE_RAW, EV_LOADS_AUX);
		gfd = sys_perf_event_open(&lead, 0, -1, -1, 0);
		ASSERT_GE(gfd, 0);
		fd = sys_perf_event_open(&attr, 0, -1, gfd, 0);
		ASSERT_GE(fd, 0) TH_LOG("behind the aux: %s", strerror(errno));
		close(fd);
		close(gfd);
		/* without DATA_SRC it needs none */
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("no DATA_SRC: %s", strerror(errno));
	} else {
		ASSERT_GE(fd, 0) TH_LOG("mem-loads: %s", strerror(errno));
	}
	close(fd);
}

TEST_HARNESS_MAIN
