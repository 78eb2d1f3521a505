// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records about kernel text: KSYMBOL (a symbol such as a BPF
 * program or trampoline appeared or went away), BPF_EVENT (a BPF program
 * was loaded or unloaded) and TEXT_POKE (kernel code was patched).  They
 * describe the whole system, so they go to every event that asked for
 * them on this CPU and in the current task's context.  sb_walk.c has the
 * rules of who sees a record.
 */
#include <linux/filter.h>
#include <linux/kallsyms.h>

#include "sideband.h"

/* KSYMBOL */

struct sb_ksym_info {
	u64 addr;
	u32 len;
	u16 type, flags;
	u32 name_size;
	char name[KSYM_NAME_LEN];
};

static bool sb_ksym_match(struct perf_event *event, void *data)
{
	return event->attr.ksymbol;
}

static void sb_ksym_emit(struct perf_event *event, void *data)
{
	struct sb_ksym_info *ki = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u64 addr;
		u32 len;
		u16 ksym_type, flags;
	} rec = {
		.header = {
			.type = PERF_RECORD_KSYMBOL,
			.size = sizeof(rec) + ki->name_size,
		},
		.addr = ki->addr,
		.len = ki->len,
		.ksym_type = ki->type,
		.flags = ki->flags,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, ki->name, ki->name_size);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_ksymbol - kernel text appeared or went away
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_BPF or _OOL
 * @addr: its start
 * @len: its length
 * @unregister: it went away
 * @name: its symbol name
 *
 * Context: process context (BPF, kprobes, ftrace trampolines).
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name)
{
	struct sb_ksym_info ki = {
		.addr = addr,
		.len = len,
		.type = ksym_type,
		.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
	};
	u32 n;

	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: bad ksymbol type %u\n", ksym_type))
		return;
	strscpy(ki.name, name, sizeof(ki.name));
	/* NUL-padded to 8 bytes; KSYM_NAME_LEN is a multiple of 8 */
	n = strlen(ki.name) + 1;
	ki.name_size = ALIGN(n, sizeof(u64));
	memset(ki.name + n, 0, ki.name_size - n);
	sb_walk(PERF_SB_KSYMBOL, sb_ksym_match, sb_ksym_emit, &ki);
}

/* BPF_EVENT */

struct sb_bpf_info {
	u16 type, flags;
	u32 id;
	u8 tag[BPF_TAG_SIZE];
};

static bool sb_bpf_match(struct perf_event *event, void *data)
{
	return event->attr.bpf_event;
}

static void sb_bpf_emit(struct perf_event *event, void *data)
{
	struct sb_bpf_info *bi = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u16 type, flags;
		u32 id;
	} rec = {
		.header = {
			.type = PERF_RECORD_BPF_EVENT,
			.size = sizeof(rec) + sizeof(bi->tag),
		},
		.type = bi->type,
		.flags = bi->flags,
		.id = bi->id,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, bi->tag, sizeof(bi->tag));
	sb_end(&handle, &sample, event);
}

/* a program's JITed text, and that of each of its subprograms */
static void sb_bpf_ksymbols(struct bpf_prog *prog, bool unregister)
{
	u32 i;

	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
			   (u64)(unsigned long)prog->bpf_func,
			   prog->jited_len, unregister, prog->aux->ksym.name);
	/* func[0] is the main program, reported just above */
	for (i = 1; i < prog->aux->func_cnt; i++) {
		struct bpf_prog *sub = prog->aux->func[i];

		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (u64)(unsigned long)sub->bpf_func,
				   sub->jited_len, unregister,
				   sub->aux->ksym.name);
	}
}

/**
 * perf_event_bpf_event - a BPF program was loaded or unloaded
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or _UNLOAD (others are ignored)
 * @flags: reserved, passed through
 *
 * Also writes KSYMBOL records for its text to attr.ksymbol events.
 * Context: process context, or wherever the last reference is dropped.
 */
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
	struct sb_bpf_info bi = { .type = type, .flags = flags };

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;
	sb_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	bi.id = prog->aux->id;
	memcpy(bi.tag, prog->tag, sizeof(bi.tag));
	sb_walk(PERF_SB_BPF, sb_bpf_match, sb_bpf_emit, &bi);
}

/* TEXT_POKE */

struct sb_poke_info {
	u64 addr;
	const void *before, *after;
	u16 before_len, after_len;
	u32 pad;
};

static bool sb_poke_match(struct perf_event *event, void *data)
{
	return event->attr.text_poke;
}

static void sb_poke_emit(struct perf_event *event, void *data)
{
	struct sb_poke_info *pi = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	static const u64 zero;
	struct {
		struct perf_event_header header;
		u64 addr;
	} rec = {
		.header = {
			.type = PERF_RECORD_TEXT_POKE,
			.misc = PERF_RECORD_MISC_KERNEL,
			.size = sizeof(rec) + sizeof(pi->before_len) +
				pi->before_len + sizeof(pi->after_len) +
				pi->after_len + pi->pad,
		},
		.addr = pi->addr,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_put(&handle, pi->before_len);
	perf_output_copy(&handle, pi->before, pi->before_len);
	perf_output_put(&handle, pi->after_len);
	perf_output_copy(&handle, pi->after, pi->after_len);
	if (pi->pad)
		perf_output_copy(&handle, &zero, pi->pad);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_text_poke - kernel text was patched
 * @addr: where
 * @old_bytes: the bytes before (may be NULL when @old_len is 0)
 * @old_len: their number
 * @new_bytes: the bytes after
 * @new_len: their number
 *
 * Context: process context, from the code patchers, which serialise their
 * calls (text_mutex, or ftrace_lock for ftrace's trampolines).
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
	struct sb_poke_info pi = {
		.addr = (unsigned long)addr,
		.before = old_bytes,
		.before_len = old_len,
		.after = new_bytes,
		.after_len = new_len,
	};
	size_t body = sizeof(pi.before_len) + old_len + sizeof(pi.after_len) +
		      new_len;

	pi.pad = ALIGN(body, sizeof(u64)) - body;
	sb_walk(PERF_SB_POKE, sb_poke_match, sb_poke_emit, &pi);
}
