// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: PEBS records, decoded (SDM vol. 3B, "Processor
 * Event Based Sampling", the record format of each generation).
 *
 * The records we drive come in four formats, which
 * IA32_PERF_CAPABILITIES names (bits 11:8):
 *
 * - 1 (Sandy Bridge, Ivy Bridge): 0B0H bytes, format 3's record up to
 *   the load latency. It has no eventing IP: the RIP it holds is that of
 *   the instruction after the eventing one (the assist is trap-like),
 *   and pebs_ip.c finds the eventing instruction from the LBR.
 * - 3 (Skylake): every record alike, 0C8H bytes: RFLAGS and RIP after the
 *   eventing instruction, the general registers, the counters the record
 *   is for (IA32_PERF_GLOBAL_STATUS bits), the data linear address, data
 *   source and load latency (memory events), the eventing IP, the TSX
 *   abort information and the TSC.
 * - 2 (Haswell, Broadwell; Silvermont): format 3 without the TSC,
 *   0C0H bytes.
 * - 4 with PEBS_BASELINE (Ice Lake on): groups, each present when
 *   MSR_PEBS_DATA_CFG asked for it and the record's first word says so
 *   with its size: basic (eventing IP, applicable counters, TSC), memory
 *   info, general registers, XMM registers, LBR entries.
 *
 * pebs.c turns a struct intel_pebs_rec into a sample, whichever format
 * it came from.
 *
 * Context: any; reads only the record (the PMI's drain, in NMI).
 */

#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include <asm/perf_event.h>

#include "intel.h"

/* a format 4 record's first word: its groups (bits 47:0), size (63:48) */
#define PEBS_REC_GROUPS		GENMASK_ULL(47, 0)
#define PEBS_REC_SIZE		GENMASK_ULL(63, 48)

/*
 * A format 3 record, as the SDM's table for Skylake lays it out; format 2
 * ends before @tsc, format 1 before @eventing_ip.
 */
struct pebs_fmt3 {
	u64	flags, ip;
	u64	ax, bx, cx, dx, si, di, bp, sp;
	u64	r8, r9, r10, r11, r12, r13, r14, r15;
	u64	applicable_counters;
	u64	data_addr;
	u64	data_source;
	u64	latency;
	u64	eventing_ip;
	u64	tx_abort;
	u64	tsc;
};

/* the size of a record of format 1, 2 or 3, which every record has */
static u32 pebs_fixed_size(unsigned int fmt)
{
	BUILD_BUG_ON(sizeof(struct pebs_fmt3) != 0xc8);
	BUILD_BUG_ON(offsetof(struct pebs_fmt3, tsc) != 0xc0);
	BUILD_BUG_ON(offsetof(struct pebs_fmt3, eventing_ip) != 0xb0);
	switch (fmt) {
	case 1:
		return offsetof(struct pebs_fmt3, eventing_ip);
	case 2:
		return offsetof(struct pebs_fmt3, tsc);
	}
	return sizeof(struct pebs_fmt3);
}

/**
 * intel_pebs_rec_fixed - decode a format 1, 2 or 3 record
 * @fmt: 1 to 3
 * @raw: the record
 * @left: bytes from @raw to the end of what the CPU wrote
 * @r: filled in; @r->tsc 0 before format 3, which has none; for format 1
 *	@r->ip is the RIP after the eventing instruction (it names no
 *	other) and @r->has_ip false
 *
 * Return: false when no whole record is left.
 */
bool intel_pebs_rec_fixed(unsigned int fmt, const void *raw, u64 left,
			  struct intel_pebs_rec *r)
{
	const struct pebs_fmt3 *p = raw;
	u32 size = pebs_fixed_size(fmt);

	if (left < size)
		return false;
	*r = (struct intel_pebs_rec) {
		.size		= size,
		.cntrs		= p->applicable_counters,
		.ip		= fmt >= 2 ? p->eventing_ip : p->ip,
		.has_ip		= fmt >= 2,
		.tsc		= fmt == 3 ? p->tsc : 0,
		.has_gprs	= true,
		.flags		= p->flags,
		.next_ip	= p->ip,
		.gpr		= { p->ax, p->cx, p->dx, p->bx,
				    p->sp, p->bp, p->si, p->di,
				    p->r8, p->r9, p->r10, p->r11,
				    p->r12, p->r13, p->r14, p->r15 },
		.has_mem	= true,
		.addr		= p->data_addr,
		.dse		= p->data_source,
		.latency	= p->latency,
		.tsx		= fmt >= 2 ? p->tx_abort : 0,
	};
	return true;
}

/* the format 4 general-register group: RFLAGS, RIP, then by number */
static void pebs_fmt4_gprs(const struct pebs_gprs *g, struct intel_pebs_rec *r)
{
	BUILD_BUG_ON(sizeof(*g) != sizeof(r->gpr) + 2 * sizeof(u64));
	r->has_gprs = true;
	r->flags = g->flags;
	r->next_ip = g->ip;
	memcpy(r->gpr, &g->ax, sizeof(r->gpr));
}

/**
 * intel_pebs_rec_fmt4 - decode a format 4 (PEBS_BASELINE) record
 * @raw: the record
 * @left: bytes from @raw to the end of what the CPU wrote
 * @r: filled in
 *
 * Return: false when no whole record is left, or the groups its first
 * word names do not fit the size it gives.
 */
bool intel_pebs_rec_fmt4(const void *raw, u64 left, struct intel_pebs_rec *r)
{
	const struct pebs_basic *basic = raw;
	const struct pebs_meminfo *mem;
	u64 word, groups, size;
	unsigned int need;
	const void *next;

	if (left < sizeof(*basic))
		return false;
	word = *(const u64 *)raw;
	groups = FIELD_GET(PEBS_REC_GROUPS, word);
	size = FIELD_GET(PEBS_REC_SIZE, word);
	need = intel_pebs_rec_size(4, groups);
	if (size < need || size > left)
		return false;

	*r = (struct intel_pebs_rec) {
		.size	= size,
		.cntrs	= basic->applicable_counters,
		.ip	= basic->ip,
		.has_ip	= true,
		.tsc	= basic->tsc,
	};
	next = basic + 1;
	if (groups & PEBS_DATACFG_MEMINFO) {
		mem = next;
		r->has_mem = true;
		r->addr = mem->address;
		r->dse = mem->aux;
		r->latency = mem->mem_latency;
		r->tsx = mem->tsx_tuning;
		next = mem + 1;
	}
	if (groups & PEBS_DATACFG_GP) {
		pebs_fmt4_gprs(next, r);
		next += sizeof(struct pebs_gprs);
	}
	if (groups & PEBS_DATACFG_XMMS) {
		r->xmm = ((const struct pebs_xmm *)next)->xmm;
		next += sizeof(struct pebs_xmm);
	}
	if (groups & PEBS_DATACFG_LBRS) {
		r->lbrs = next;
		r->nr_lbrs = FIELD_GET(PEBS_DATACFG_LBR_NR, groups) + 1;
	}
	return true;
}

/**
 * intel_pebs_rec_peek - a record's size and counters, nothing else
 * @fmt: the record format, 1 to 4
 * @raw: the record
 * @left: bytes from @raw to the end of what the CPU wrote
 * @size: filled with the record's size
 *
 * The drain's first pass only looks for each counter's last record; it
 * reads the two words that say so rather than decoding every field.
 *
 * Return: the counters the record applies to; 0, and @size 0, when no
 * whole record is left (as intel_pebs_rec_fixed()/_fmt4() would refuse
 * it).
 */
u64 intel_pebs_rec_peek(unsigned int fmt, const void *raw, u64 left,
			u32 *size)
{
	const struct pebs_basic *basic = raw;
	u64 word, need;

	*size = 0;
	if (fmt < 4) {
		if (left < pebs_fixed_size(fmt))
			return 0;
		*size = pebs_fixed_size(fmt);
		return ((const struct pebs_fmt3 *)raw)->applicable_counters;
	}
	if (left < sizeof(*basic))
		return 0;
	word = *(const u64 *)raw;
	need = intel_pebs_rec_size(4, FIELD_GET(PEBS_REC_GROUPS, word));
	if (FIELD_GET(PEBS_REC_SIZE, word) < need ||
	    FIELD_GET(PEBS_REC_SIZE, word) > left)
		return 0;
	*size = FIELD_GET(PEBS_REC_SIZE, word);
	return basic->applicable_counters;
}

/**
 * intel_pebs_rec_size - the size of the records the CPU writes
 * @fmt: the record format, 1 to 4
 * @cfg: for format 4, the groups (MSR_PEBS_DATA_CFG)
 *
 * Return: bytes.
 */
unsigned int intel_pebs_rec_size(unsigned int fmt, u64 cfg)
{
	unsigned int size = sizeof(struct pebs_basic);

	if (fmt < 4)
		return pebs_fixed_size(fmt);
	if (cfg & PEBS_DATACFG_MEMINFO)
		size += sizeof(struct pebs_meminfo);
	if (cfg & PEBS_DATACFG_GP)
		size += sizeof(struct pebs_gprs);
	if (cfg & PEBS_DATACFG_XMMS)
		size += sizeof(struct pebs_xmm);
	if (cfg & PEBS_DATACFG_LBRS)
		size += (FIELD_GET(PEBS_DATACFG_LBR_NR, cfg) + 1) *
			sizeof(struct intel_lbr_rec);
	return size;
}
