// SPDX-License-Identifier: GPL-2.0
/*
 * Arm's Statistical Profiling Extension through upstream's own driver
 * (drivers/perf/arm_spe_pmu.c, built unmodified as a module against the
 * kernel under test): the driver is a client of the core's AUX area, so
 * what it records is the proof that the AUX area works for real hardware
 * trace.
 *
 * Runs where an arm_spe PMU exists (the rig's arm64 "spe" boot, on its
 * QEMU model of FEAT_SPE, under -icount); the test loads
 * /tests/modules/arm_spe_pmu.ko itself when the PMU is missing, and skips
 * every test where there is still none.
 *
 * The workload (spe_work below) is assembly, so that its every PC and
 * every data address is known: it enables the event with its own svc,
 * runs a loop of 64 loads and 64 stores at fixed offsets of one array,
 * and disables the event with another svc, so that with exclude_kernel
 * every user operation that can be sampled is one of its instructions.
 * The test decodes the SPE records itself (packet formats of the Arm ARM,
 * "Statistical Profiling Extension": headers, address, operation type,
 * events, counters, timestamp, end and padding) from the AUX area the
 * PERF_RECORD_AUX records point at, and checks:
 *  - every sample is a user PC inside the workload, and at the loop's
 *    loads and stores the operation type and the data address are the
 *    instruction's (its base register and immediate);
 *  - with jitter off, consecutive samples lie exactly the interval apart
 *    in the loop's instruction stream;
 *  - the load, store and branch filters keep only their operations;
 *  - timestamps (ts_enable) end the records and do not go backwards;
 *  - exclude_user gives kernel PCs only;
 *  - the AUX records follow each other in the area, and a full area is
 *    padded to its end and reported TRUNCATED.
 * Each test prints a digest of what it decoded ("digest ..."), without
 * timestamps or anything else that differs between boots, so that the
 * runs on our kernel and on upstream's can be compared line by line.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "module_load.h"
#include "perf_test.h"
#include "rb_common.h"

#define MOD_PATH	"/tests/modules/arm_spe_pmu.ko"
#define PMU_ROOT	"/sys/bus/event_source/devices"

#define DATA_PAGES	64
#define MAX_SAMPLES	8192
#define ARRAY_PAIRS	64	/* load/store pairs in the loop body */
#define LOOP_INSNS	(2 * ARRAY_PAIRS + 3)	/* + add, subs, b.ne */

#if defined(__aarch64__)
/*
 * spe_work(fd, array, iterations): ENABLE the event, run the loop
 * @iterations times, DISABLE it.  Every loop iteration is LOOP_INSNS
 * instructions: pair k loads array[2k] and stores it to array[2k + 1]
 * (x10 holds the array for the whole loop).  Only caller-saved registers
 * are used.
 */
asm(".text\n"
	"	.balign	64\n"
	"spe_work:\n"
	"	mov	x9, x0\n"
	"	mov	x10, x1\n"
	"	mov	x11, x2\n"
	"	mov	x1, #0x2400\n"		/* PERF_EVENT_IOC_ENABLE */
	"	mov	x2, #0\n"
	"	mov	x8, #29\n"		/* __NR_ioctl */
	"	svc	#0\n"
	"spe_loop:\n"
	"	.set	spe_k, 0\n"
	"	.rept	64\n"
	"	ldr	x3, [x10, #(spe_k * 16)]\n"
	"	str	x3, [x10, #(spe_k * 16 + 8)]\n"
	"	.set	spe_k, spe_k + 1\n"
	"	.endr\n"
	"	add	x12, x12, #1\n"
	"	subs	x11, x11, #1\n"
	"spe_loop_branch:\n"
	"	b.ne	spe_loop\n"
	"	mov	x0, x9\n"
	"	mov	x1, #0x2401\n"		/* PERF_EVENT_IOC_DISABLE */
	"	mov	x2, #0\n"
	"	mov	x8, #29\n"
	"	svc	#0\n"
	"	ret\n"
	"spe_work_end:\n");

/* the address of a label of the asm above */
#define LABEL(sym) ({							\
	unsigned long __a;						\
	asm("adr %0, " #sym : "=r" (__a));				\
	__a;								\
})
#else
/* elsewhere there is no SPE, and every test skips before it runs */
#define LABEL(sym) ((void)#sym, 0UL)
#endif

typedef void (*work_fn)(int fd, void *array, long iterations);

static void spe_work(int fd, void *array, long iterations)
{
	((work_fn)LABEL(spe_work))(fd, array, iterations);
}

static __u64 spe_array[2 * ARRAY_PAIRS];

/* One decoded SPE record (a sampled operation). */
struct spe_sample {
	__u64 pc;
	__u64 va;
	__u64 ts;
	__u64 events;
	int el;
	int op_class;		/* -1: no operation type packet */
	__u8 op;		/* its payload */
	bool has_pc, has_va, has_ts;
};

/* Operation type classes (the header's low two bits) */
#define OP_OTHER	0
#define OP_LDST		1
#define OP_BRANCH	2

/* A config field of the PMU's format directory: "config2:0-11". */
struct fmt_field {
	int word;		/* 0: config, 1: config1, ... */
	int lo, hi;
	bool ok;
};

struct spe_fmt {
	struct fmt_field ts_enable, pa_enable, jitter, branch_filter,
			 load_filter, store_filter, min_latency;
};

static struct fmt_field fmt_read(const char *pmu, const char *name)
{
	struct fmt_field f = { 0 };
	char path[256], buf[64], *p;

	snprintf(path, sizeof(path), "%s/%s/format/%s", PMU_ROOT, pmu, name);
	if (read_file(path, buf, sizeof(buf)) || strncmp(buf, "config", 6))
		return f;
	p = buf + 6;
	if (*p >= '1' && *p <= '3')
		f.word = *p++ - '0';
	if (*p++ != ':')
		return f;
	f.lo = strtol(p, &p, 10);
	f.hi = *p == '-' ? strtol(p + 1, NULL, 10) : f.lo;
	f.ok = f.lo >= 0 && f.hi < 64 && f.lo <= f.hi;
	return f;
}

static void fmt_set(struct perf_event_attr *attr, const struct fmt_field *f,
		    __u64 val)
{
	__u64 *w[] = { &attr->config, &attr->config1, &attr->config2,
		       &attr->config3 };
	__u64 mask = (f->hi - f->lo == 63 ? ~0ULL :
		      ((1ULL << (f->hi - f->lo + 1)) - 1)) << f->lo;

	*w[f->word] = (*w[f->word] & ~mask) | ((val << f->lo) & mask);
}

/* The name of the first arm_spe PMU in @name: false when there is none. */
static bool find_spe_pmu(char *name, size_t len)
{
	struct dirent *d;
	DIR *dir = opendir(PMU_ROOT);
	bool found = false;

	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		if (!strncmp(d->d_name, "arm_spe", 7)) {
			size_t l = strnlen(d->d_name, len - 1);

			memcpy(name, d->d_name, l);
			name[l] = '\0';
			found = true;
			break;
		}
	}
	closedir(dir);
	return found;
}

FIXTURE(spe) {
	char pmu[64];
	long type;
	long min_interval;
	struct spe_fmt fmt;
	int fd;
	struct rb_map rb;
	unsigned char *aux;
	size_t aux_len;
	struct spe_sample s[MAX_SAMPLES];
	int n;
	int truncated;		/* PERF_RECORD_AUX with TRUNCATED */
	int aux_records;
	__u64 aux_bytes;	/* sum of their sizes */
	__u64 aux_end;		/* where the last one ends */
	__u64 last_flags;	/* the last one's flags */
	int decode_errors;
};

/* the format fields the tests set */
static const struct {
	const char *name;
	size_t off;
} fields[] = {
#define FIELD(x) { #x, offsetof(struct spe_fmt, x) }
	FIELD(ts_enable), FIELD(pa_enable), FIELD(jitter),
	FIELD(branch_filter), FIELD(load_filter), FIELD(store_filter),
	FIELD(min_latency),
#undef FIELD
};

FIXTURE_SETUP(spe)
{
	char path[256];
	size_t i;

	self->fd = -1;
	if (!find_spe_pmu(self->pmu, sizeof(self->pmu))) {
		/* EEXIST or a missing file: the lookup below decides */
		test_module_load(MOD_PATH);
		if (!find_spe_pmu(self->pmu, sizeof(self->pmu)))
			SKIP(return, "no arm_spe PMU (no FEAT_SPE, or no SPE node)");
	}
	snprintf(path, sizeof(path), "%s/%s/type", PMU_ROOT, self->pmu);
	ASSERT_EQ(read_long(path, &self->type), 0);
	snprintf(path, sizeof(path), "%s/%s/caps/min_interval", PMU_ROOT,
		 self->pmu);
	ASSERT_EQ(read_long(path, &self->min_interval), 0);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		struct fmt_field *f = (void *)((char *)&self->fmt + fields[i].off);

		*f = fmt_read(self->pmu, fields[i].name);
		ASSERT_TRUE(f->ok) TH_LOG("format %s", fields[i].name);
	}
	memset(spe_array, 0, sizeof(spe_array));
}

FIXTURE_TEARDOWN(spe)
{
	if (self->aux)
		munmap(self->aux, self->aux_len);
	rb_unmap(&self->rb);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * The interval used: a multiple of 256 (the driver keeps PMSIRR's
 * INTERVAL field, bits 8 and up) at or above the PMU's minimum.
 */
static long spe_interval(struct _test_data_spe *self, long want)
{
	long i = want > self->min_interval ? want : self->min_interval;

	return (i + 255) & ~255L;
}

/* A disabled user-only event of the PMU: jitter and timestamps off. */
static void spe_attr(struct _test_data_spe *self, struct perf_event_attr *attr,
		     long interval)
{
	perf_attr_user(attr, self->type, 0);
	attr->sample_period = interval;
	fmt_set(attr, &self->fmt.jitter, 0);
	fmt_set(attr, &self->fmt.ts_enable, 0);
	fmt_set(attr, &self->fmt.pa_enable, 0);
	fmt_set(attr, &self->fmt.min_latency, 0);
}

/* Open @attr on this thread and map its ring and @aux_pages of AUX area. */
static int spe_open(struct _test_data_spe *self, struct perf_event_attr *attr,
		    int aux_pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p;
	int ret;

	self->fd = sys_perf_event_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (self->fd < 0)
		return -errno;
	ret = rb_mmap(&self->rb, self->fd, DATA_PAGES, PROT_READ | PROT_WRITE);
	if (ret)
		return ret;
	self->aux_len = (size_t)aux_pages * psz;
	p = rb_mmap_aux(&self->rb, self->fd, self->aux_len,
			PROT_READ | PROT_WRITE);
	if (p == MAP_FAILED)
		return -errno;
	self->aux = p;
	return 0;
}

/* Sign-extend a 56-bit address packet payload. */
static __u64 addr56(__u64 v)
{
	v &= (1ULL << 56) - 1;
	if (v & (1ULL << 55))
		v |= ~((1ULL << 56) - 1);
	return v;
}

static __u64 le(const unsigned char *p, int n)
{
	__u64 v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * Decode @len bytes of SPE records into self->s.  A record is the
 * packets up to its End or Timestamp packet; padding is skipped.  An
 * unknown header, a packet cut off at the end, or a record left open
 * count as decode errors.
 */
static void spe_decode(struct _test_data_spe *self, const unsigned char *b,
		       size_t len)
{
	struct spe_sample cur = { .op_class = -1 };
	bool open = false;
	size_t i = 0;

	while (i < len) {
		unsigned int h = b[i], idx;
		size_t hl = 1, pl;

		if (h == 0x00) {		/* padding */
			i++;
			continue;
		}
		if (h == 0x01) {		/* end */
			pl = 0;
		} else if (h == 0x71) {		/* timestamp */
			pl = 8;
		} else if ((h & 0xfc) == 0x20) {	/* extended header */
			if (i + 1 >= len)
				break;
			hl = 2;
			idx = (h & 3) << 3;
			h = b[i + 1];
			if ((h & 0xf8) == 0xb0)
				pl = 8;
			else if ((h & 0xf8) == 0x98)
				pl = 2;
			else
				goto bad;
			idx |= h & 7;
			h = (h & 0xf8) | 0x100;	/* no short form matches */
		} else if ((h & 0xf8) == 0xb0) {	/* address */
			pl = 8;
		} else if ((h & 0xf8) == 0x98) {	/* counter */
			pl = 2;
		} else if ((h & 0xcf) == 0x42 || (h & 0xcf) == 0x43) {
			pl = 1 << ((h >> 4) & 3);	/* events, data source */
		} else if ((h & 0xfc) == 0x64) {	/* context */
			pl = 4;
		} else if ((h & 0xfc) == 0x48) {	/* operation type */
			pl = 1;
		} else {
			goto bad;
		}
		if (i + hl + pl > len)
			break;
		open = true;
		if ((h & 0xf8) == 0xb0 && !(h & 0x100)) {
			__u64 v = le(b + i + hl, 8);

			switch (h & 7) {
			case 0:		/* PC: EL in bits 62:61 */
				cur.pc = addr56(v);
				cur.el = (v >> 61) & 3;
				cur.has_pc = true;
				break;
			case 2:		/* data virtual address */
				cur.va = addr56(v);
				cur.has_va = true;
				break;
			}
		} else if ((h & 0xcf) == 0x42) {
			cur.events = le(b + i + hl, pl);
		} else if ((h & 0xfc) == 0x48) {
			cur.op_class = h & 3;
			cur.op = b[i + hl];
		} else if (h == 0x71) {
			cur.ts = le(b + i + hl, 8);
			cur.has_ts = true;
		}
		i += hl + pl;
		if (h == 0x01 || h == 0x71) {
			if (self->n < MAX_SAMPLES)
				self->s[self->n++] = cur;
			memset(&cur, 0, sizeof(cur));
			cur.op_class = -1;
			open = false;
		}
		continue;
bad:
		self->decode_errors++;
		return;
	}
	if (i < len || open)
		self->decode_errors++;
}

/*
 * Read the data buffer's records: every PERF_RECORD_AUX's bytes decoded
 * in order (they must follow each other in the area); the count of
 * TRUNCATED ones.
 */
static void spe_collect(struct __test_metadata *_metadata,
			struct _test_data_spe *self)
{
	__u64 head = rb_head(&self->rb), off = self->rb.pg->data_tail;
	__u64 next = 0;
	unsigned char *buf = malloc(self->aux_len);

	ASSERT_NE(buf, NULL);
	while (off < head) {
		struct perf_event_header h;
		__u64 v[3];
		size_t i;

		rb_copy(&self->rb, off, &h, sizeof(h));
		ASSERT_GE(h.size, sizeof(h));
		if (h.type == PERF_RECORD_AUX) {
			rb_copy(&self->rb, off + sizeof(h), v, sizeof(v));
			/*
			 * AUX records follow each other in the area; the
			 * driver pads with perf_aux_output_skip(), so there
			 * may be padding (zeroes) between two
			 */
			EXPECT_GE(v[0], next) TH_LOG("AUX record at %llu, before %llu",
						     (unsigned long long)v[0],
						     (unsigned long long)next);
			ASSERT_LE(v[1], self->aux_len);
			for (i = next; i < v[0] && i < next + self->aux_len; i++)
				EXPECT_EQ(self->aux[i % self->aux_len], 0);
			for (i = 0; i < v[1]; i++)
				buf[i] = self->aux[(v[0] + i) % self->aux_len];
			spe_decode(self, buf, v[1]);
			next = v[0] + v[1];
			self->aux_records++;
			self->aux_bytes += v[1];
			if (v[2] & PERF_AUX_FLAG_TRUNCATED)
				self->truncated++;
			self->last_flags = v[2];
			if (v[2] & ~(__u64)PERF_AUX_FLAG_TRUNCATED)
				TH_LOG("AUX record flags %#llx",
				       (unsigned long long)v[2]);
		}
		off += h.size;
	}
	self->aux_end = next;
	rb_set_tail(&self->rb, head);
	free(buf);
}

/* The instruction at a workload PC. */
static __u32 insn_at(__u64 pc)
{
	return *(const __u32 *)(unsigned long)pc;
}

static bool in_work(__u64 pc)
{
	return pc >= LABEL(spe_work) && pc < LABEL(spe_work_end);
}

/* Index in the loop body of @pc, or -1 when it is outside the loop. */
static long loop_pos(__u64 pc)
{
	__u64 start = LABEL(spe_loop);

	if (pc < start || pc >= start + 4 * LOOP_INSNS)
		return -1;
	return (pc - start) / 4;
}

/*
 * A sample at one of the loop's loads or stores: the operation type says
 * load or store as the instruction does (LDR/STR Xt, [Xn, #imm], bit 22
 * the L bit) and the data address is the array plus the instruction's
 * immediate.
 */
static void check_ldst(struct __test_metadata *_metadata,
		       const struct spe_sample *s)
{
	long pos = loop_pos(s->pc);
	__u32 insn = insn_at(s->pc);
	__u64 imm = ((insn >> 10) & 0xfff) * 8;
	bool store = !(insn & (1 << 22));

	ASSERT_TRUE(pos >= 0 && pos < 2 * ARRAY_PAIRS);
	/* LDR/STR x3, [x10, #imm]: all but L and imm12 */
	ASSERT_EQ(insn & 0xff8003ff, 0xf9000143)
		TH_LOG("insn %#x at %#llx", insn, (unsigned long long)s->pc);
	EXPECT_EQ(s->op_class, OP_LDST);
	EXPECT_EQ(s->op & 1, store);
	EXPECT_TRUE(s->has_va);
	EXPECT_EQ(s->va, (unsigned long)spe_array + imm)
		TH_LOG("pc %#llx: va %#llx", (unsigned long long)s->pc,
		       (unsigned long long)s->va);
	/* the layout itself: pair k at array offsets 16k and 16k + 8 */
	EXPECT_EQ(imm, pos * 8);
}

/* FNV-1a over the samples' PCs, operations and addresses. */
static __u64 digest(const struct _test_data_spe *self, bool kernel)
{
	__u64 h = 0xcbf29ce484222325ULL;
	int i, j;

	for (i = 0; i < self->n; i++) {
		const struct spe_sample *s = &self->s[i];
		/* user PCs as offsets in the workload; kernel ones whole */
		__u64 f[4] = {
			kernel ? s->pc : s->pc - LABEL(spe_work),
			(__u64)s->op_class << 8 | s->op,
			s->has_va && !kernel ? s->va - (unsigned long)spe_array : 0,
			s->el,
		};

		for (j = 0; j < 4 * 8; j++) {
			h ^= ((const __u8 *)f)[j];
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

static void log_digest(struct __test_metadata *_metadata,
		       const struct _test_data_spe *self, const char *what,
		       bool kernel)
{
	TH_LOG("%s: %d AUX records", what, self->aux_records);
	TH_LOG("digest %s: samples %d aux_bytes %llu truncated %d hash %016llx",
	       what, self->n,
	       (unsigned long long)self->aux_bytes, self->truncated,
	       (unsigned long long)digest(self, kernel));
}

/*
 * Run the workload for @iterations under an event of @attr with
 * @aux_pages of AUX area, and decode what it recorded.
 */
static void spe_run(struct __test_metadata *_metadata,
		    struct _test_data_spe *self, struct perf_event_attr *attr,
		    int aux_pages, long iterations)
{
	ASSERT_EQ(spe_open(self, attr, aux_pages), 0)
		TH_LOG("open/map: %s", strerror(errno));
	spe_work(self->fd, spe_array, iterations);
	spe_collect(_metadata, self);
	EXPECT_EQ(self->decode_errors, 0);
	EXPECT_EQ(self->aux_end,
		  __atomic_load_n(&self->rb.pg->aux_head, __ATOMIC_ACQUIRE));
}

/*
 * Loads and stores of the workload, unfiltered: every sample a user PC in
 * it, the loop's loads and stores with their operation and address, and
 * each sample the interval after the one before in the instruction
 * stream (jitter off; no sample is dropped by a filter here).
 */
TEST_F(spe, user_samples_exact)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 1024), iters = 8000, i, in_loop = 0, steps = 0;
	long expect = (LOOP_INSNS * iters) / iv;

	spe_attr(self, &attr, iv);
	spe_run(_metadata, self, &attr, 64, iters);
	/* about one sample per interval of the loop's operations */
	EXPECT_GE(self->n, expect - 2);
	EXPECT_LE(self->n, expect + 2);
	EXPECT_EQ(self->truncated, 0);
	for (i = 0; i < self->n; i++) {
		const struct spe_sample *s = &self->s[i];
		long pos = loop_pos(s->pc);

		ASSERT_TRUE(s->has_pc);
		EXPECT_EQ(s->el, 0);
		ASSERT_TRUE(in_work(s->pc))
			TH_LOG("sample %ld: pc %#llx outside %#lx-%#lx", i,
			       (unsigned long long)s->pc, LABEL(spe_work),
			       LABEL(spe_work_end));
		if (pos >= 0 && pos < 2 * ARRAY_PAIRS)
			check_ldst(_metadata, s);
		if (pos >= 0) {
			in_loop++;
			if (i && loop_pos(self->s[i - 1].pc) >= 0) {
				long prev = loop_pos(self->s[i - 1].pc);

				EXPECT_EQ((pos - prev + LOOP_INSNS) % LOOP_INSNS,
					  iv % LOOP_INSNS)
					TH_LOG("sample %ld at loop index %ld, the last at %ld",
					       i, pos, prev);
				steps++;
			}
		}
	}
	EXPECT_GE(in_loop, self->n - 2);
	EXPECT_GE(steps, self->n - 3);
	log_digest(_metadata, self, "user_samples_exact", false);
}

/*
 * load_filter or store_filter (@f): only the loop's loads, or only its
 * stores (@store, the op type's bit 0), each with its right address.
 */
static void ldst_filter(struct __test_metadata *_metadata,
			struct _test_data_spe *self,
			const struct fmt_field *f, int store, const char *name)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 512), i;

	spe_attr(self, &attr, iv);
	fmt_set(&attr, f, 1);
	spe_run(_metadata, self, &attr, 64, 4000);
	EXPECT_GE(self->n, (LOOP_INSNS * 4000L) / iv / 4);
	for (i = 0; i < self->n; i++) {
		ASSERT_TRUE(in_work(self->s[i].pc));
		ASSERT_GE(loop_pos(self->s[i].pc), 0);
		check_ldst(_metadata, &self->s[i]);
		EXPECT_EQ(self->s[i].op & 1, store);
	}
	log_digest(_metadata, self, name, false);
}

TEST_F(spe, load_filter)
{
	ldst_filter(_metadata, self, &self->fmt.load_filter, 0, "load_filter");
}

TEST_F(spe, store_filter)
{
	ldst_filter(_metadata, self, &self->fmt.store_filter, 1,
		    "store_filter");
}

/*
 * branch_filter: only branches, and the workload's one branch that runs
 * while the event is on is the loop's b.ne.
 */
TEST_F(spe, branch_filter)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 256), i;

	spe_attr(self, &attr, iv);
	fmt_set(&attr, &self->fmt.branch_filter, 1);
	spe_run(_metadata, self, &attr, 64, 20000);
	EXPECT_GE(self->n, 1);
	for (i = 0; i < self->n; i++) {
		EXPECT_EQ(self->s[i].op_class, OP_BRANCH);
		EXPECT_EQ(self->s[i].pc, LABEL(spe_loop_branch))
			TH_LOG("sample %ld: pc %#llx", i,
			       (unsigned long long)self->s[i].pc);
	}
	log_digest(_metadata, self, "branch_filter", false);
}

/* ts_enable: every record ends with a timestamp, and time goes forward. */
TEST_F(spe, timestamps)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 1024), i;

	spe_attr(self, &attr, iv);
	fmt_set(&attr, &self->fmt.ts_enable, 1);
	spe_run(_metadata, self, &attr, 64, 4000);
	EXPECT_GE(self->n, (LOOP_INSNS * 4000L) / iv - 2);
	for (i = 0; i < self->n; i++) {
		ASSERT_TRUE(self->s[i].has_ts);
		EXPECT_NE(self->s[i].ts, 0);
		if (i)
			EXPECT_GE(self->s[i].ts, self->s[i - 1].ts);
	}
	/* the samples themselves as without timestamps */
	log_digest(_metadata, self, "timestamps", false);
}

/*
 * exclude_user: a workload of system calls gives kernel PCs only (EL1 in
 * the PC packet, and a kernel address).
 */
TEST_F(spe, exclude_user_kernel_only)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 256), i;

	spe_attr(self, &attr, iv);
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	ASSERT_EQ(spe_open(self, &attr, 64), 0)
		TH_LOG("open/map: %s", strerror(errno));
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < 2000; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	spe_collect(_metadata, self);
	EXPECT_EQ(self->decode_errors, 0);
	EXPECT_GE(self->n, 10);
	for (i = 0; i < self->n; i++) {
		ASSERT_TRUE(self->s[i].has_pc);
		EXPECT_EQ(self->s[i].el, 1)
			TH_LOG("sample %ld: pc %#llx el %d", i,
			       (unsigned long long)self->s[i].pc, self->s[i].el);
		EXPECT_EQ(self->s[i].pc >> 63, 1);
	}
	/* kernel PCs differ between kernels: no digest of them */
	TH_LOG("kernel samples %d", self->n);
}

/*
 * A four-page AUX area nobody reads, and far more samples than fit.  The
 * driver stops each transaction at a page boundary that leaves room for
 * no record (CIRC_SPACE keeps one byte free, so the last page before the
 * tail is never written: about three pages of records), pads what is
 * left with perf_aux_output_skip() and ends with an empty
 * PERF_RECORD_AUX flagged TRUNCATED, after which the core stops the
 * event: aux_head is then one byte short of the area.
 */
TEST_F(spe, full_area_truncated)
{
	struct perf_event_attr attr;
	long iv = spe_interval(self, 256), i;

	spe_attr(self, &attr, iv);
	spe_run(_metadata, self, &attr, 4, 20000);
	EXPECT_EQ(self->truncated, 1);
	EXPECT_TRUE(self->last_flags & PERF_AUX_FLAG_TRUNCATED);
	EXPECT_EQ(self->aux_end, self->aux_len - 1);
	EXPECT_GE(self->aux_bytes, self->aux_len / 2);
	for (i = 0; i < self->n; i++)
		ASSERT_TRUE(in_work(self->s[i].pc));
	log_digest(_metadata, self, "full_area_truncated", false);
}

TEST_HARNESS_MAIN
