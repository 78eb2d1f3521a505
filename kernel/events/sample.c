// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE: preparing and writing a sample.  The fixed sizes
 * and the sample_id_all trailer every other record carries are in
 * sample_id.c; the physical address and page-size lookups in
 * sample_addr.c.
 *
 * A sample is written in three steps, all in the context of the overflow
 * (any context, NMI included: nothing here takes a lock, sleeps or
 * allocates, and user memory is read with page faults disabled):
 *
 *  1. prepare: fill every field of struct perf_sample_data that the PMU
 *     driver did not already provide (data->sample_flags says which it
 *     did) and work out the record's size: the fixed part computed at open
 *     time (event->header_size, event->id_header_size) plus the variable
 *     parts (callchain, raw data, branch stack, registers, user stack);
 *  2. reserve that many bytes with perf_output_begin_forward/backward();
 *  3. write the fields in the order the ABI fixes (the comment above
 *     PERF_RECORD_SAMPLE in include/uapi/linux/perf_event.h).
 *
 * The registers and the user stack size of a sample have no room in our
 * struct perf_sample_data, so they travel beside it in a struct
 * sample_extra on the writer's stack; they are recomputed for every
 * sample, which is right because no PMU driver can supply them.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include <asm/ptrace.h>

#include "aux.h"
#include "cgroup.h"
#include "event.h"
#include "rb.h"
#include "sample.h"
#include "time.h"

/* What prepare works out that struct perf_sample_data has no room for. */
struct sample_extra {
	struct perf_regs	regs_user;
	struct perf_regs	regs_intr;
	u16			stack_user_size;	/* 0: nothing dumped */
	u32			read_size;		/* PERF_SAMPLE_READ part */
	u32			read_nr;		/* group members in it */
};

/*
 * The user registers of the sample: the interrupted ones when the sample
 * hit user mode, else those the task entered the kernel with; none for a
 * kernel thread.
 */
static void sample_regs_user(struct perf_regs *ru, struct pt_regs *regs)
{
	if (regs && user_mode(regs)) {
		ru->abi = perf_reg_abi(current);
		ru->regs = regs;
	} else if (is_user_task(current)) {
		perf_get_regs_user(ru, regs);
	} else {
		ru->abi = PERF_SAMPLE_REGS_ABI_NONE;
		ru->regs = NULL;
	}
}

/* Bytes of a REGS_USER or REGS_INTR part: the ABI word, then one per bit. */
static u32 sample_regs_size(struct perf_regs *r, u64 mask)
{
	if (!r->regs || r->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return sizeof(u64);
	return sizeof(u64) + hweight64(mask) * sizeof(u64);
}

/*
 * How much user stack to dump: what was asked for, but no more than lies
 * between the stack pointer and the top of user space, and no more than
 * keeps the whole record within header.size's 64 KiB.  @used is the size
 * of everything else in the record, the two u64 of the dump's own
 * size fields included.  Always a multiple of 8.
 */
static u16 sample_stack_user_size(struct perf_event *event,
				  struct pt_regs *uregs, u32 used)
{
	unsigned long sp;
	u64 size = event->attr.sample_stack_user;

	if (!uregs || !current->mm)
		return 0;
	sp = user_stack_pointer(uregs);
	if (!sp || sp >= TASK_SIZE)
		return 0;
	size = min_t(u64, size, TASK_SIZE - sp);
	if (used >= U16_MAX)
		return 0;
	size = min_t(u64, size, U16_MAX - used);
	return round_down(size, sizeof(u64));
}

/* Bytes of the RAW part; sets raw->size to the padded payload size. */
static u32 sample_raw_size(struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag;
	u32 sum = 0;

	if (!raw)
		return sizeof(u64);	/* u32 size = 4, then 4 zero bytes */
	for (frag = &raw->frag; ; frag = frag->next) {
		sum += frag->size;
		if (perf_raw_frag_last(frag))
			break;
	}
	/* u32 size, then the payload padded so the part ends 8-aligned */
	raw->size = round_up(sum + sizeof(u32), sizeof(u64)) - sizeof(u32);
	return raw->size + sizeof(u32);
}

static u32 sample_brstack_size(struct perf_event *event,
			       struct perf_sample_data *data)
{
	struct perf_branch_stack *bs = data->br_stack;
	u32 size = sizeof(u64);

	if (!bs)
		return size;
	if (branch_sample_hw_index(event))
		size += sizeof(u64);
	size += bs->nr * sizeof(struct perf_branch_entry);
	if (data->br_stack_cntr)
		size += bs->nr * sizeof(u64);
	return size;
}

/*
 * Fill @data for @event's sample_type and return the record's size.
 * Everything the driver already put in @data (data->sample_flags) is kept.
 */
static u32 sample_prepare(struct perf_sample_data *data,
			  struct perf_event *event, struct pt_regs *regs,
			  struct sample_extra *ex)
{
	u64 type = event->attr.sample_type;
	u64 todo = type;
	u32 size, dyn = 0;

	/* some fields are derived from others, which must be filled first */
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		todo |= PERF_SAMPLE_IP;
	if (type & (PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_PHYS_ADDR))
		todo |= PERF_SAMPLE_ADDR;
	todo &= ~data->sample_flags;

	perf_sample_fill_id(data, event, todo);

	if (todo & PERF_SAMPLE_IP)
		data->ip = perf_instruction_pointer(regs);
	if (todo & PERF_SAMPLE_ADDR)
		data->addr = 0;
	if (todo & PERF_SAMPLE_CALLCHAIN)
		data->callchain = perf_callchain(event, regs);
	if (todo & PERF_SAMPLE_RAW)
		data->raw = NULL;
	if (todo & PERF_SAMPLE_BRANCH_STACK) {
		data->br_stack = NULL;
		data->br_stack_cntr = NULL;
	}
	if (todo & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		data->weight.full = 0;
	if (todo & PERF_SAMPLE_DATA_SRC)
		data->data_src.val = PERF_MEM_NA;
	if (todo & PERF_SAMPLE_TRANSACTION)
		data->txn = 0;
	if (todo & PERF_SAMPLE_PHYS_ADDR)
		data->phys_addr = perf_sample_phys_addr(data->addr);
	/* the open refuses PERF_SAMPLE_CGROUP without CONFIG_CGROUP_PERF */
	if (todo & PERF_SAMPLE_CGROUP)
		data->cgroup = perf_cgroup_sample_id();
	if (todo & PERF_SAMPLE_DATA_PAGE_SIZE)
		data->data_page_size = perf_sample_page_size(data->addr);
	if (todo & PERF_SAMPLE_CODE_PAGE_SIZE)
		data->code_page_size = perf_sample_page_size(data->ip);
	if (todo & PERF_SAMPLE_AUX)
		data->aux_size = 0;	/* sized last, below */
	data->sample_flags |= todo & ~(PERF_SAMPLE_REGS_USER |
				       PERF_SAMPLE_STACK_USER |
				       PERF_SAMPLE_REGS_INTR);

	/*
	 * The variable-size parts.  Computed from @data itself rather than
	 * accumulated in data->dyn_size by whoever filled them, so a driver
	 * that supplied a part and a second overflow reusing @data both get
	 * the size right.
	 */
	if (type & PERF_SAMPLE_CALLCHAIN)
		dyn += (1 + data->callchain->nr) * sizeof(u64);
	if (type & PERF_SAMPLE_RAW)
		dyn += sample_raw_size(data->raw);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		dyn += sample_brstack_size(event, data);
	if (type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		sample_regs_user(&ex->regs_user, regs);
	if (type & PERF_SAMPLE_REGS_USER)
		dyn += sample_regs_size(&ex->regs_user,
					event->attr.sample_regs_user);
	if (type & PERF_SAMPLE_REGS_INTR) {
		ex->regs_intr.regs = regs;
		ex->regs_intr.abi = perf_reg_abi(current);
		dyn += sample_regs_size(&ex->regs_intr,
					event->attr.sample_regs_intr);
	}
	if (type & PERF_SAMPLE_AUX)
		dyn += sizeof(u64);

	/*
	 * The READ part is sized from the group as it is now, not from
	 * event->read_size, so that the count announced and the entries
	 * written always agree (sample_output_read()).
	 */
	ex->read_size = 0;
	ex->read_nr = 1;
	if (type & PERF_SAMPLE_READ) {
		int nr_siblings = 0;

		if (event->attr.read_format & PERF_FORMAT_GROUP)
			nr_siblings = READ_ONCE(event->group_leader->nr_siblings);
		ex->read_nr = 1 + nr_siblings;
		ex->read_size = perf_read_size(event->attr.read_format,
					       nr_siblings);
	}

	size = sizeof(struct perf_event_header) + event->header_size +
	       event->id_header_size + dyn;
	if (type & PERF_SAMPLE_READ)
		size = size - event->read_size + ex->read_size;

	/* the user stack takes what room is left, so it comes last */
	ex->stack_user_size = 0;
	if (type & PERF_SAMPLE_STACK_USER) {
		ex->stack_user_size =
			sample_stack_user_size(event, ex->regs_user.regs,
					       size + 2 * sizeof(u64));
		size += sizeof(u64);
		if (ex->stack_user_size)
			size += ex->stack_user_size + sizeof(u64);
	}
	/* and the AUX snapshot what room is left after that */
	if (type & PERF_SAMPLE_AUX) {
		data->aux_size = perf_aux_sample_size(event, U16_MAX - size);
		size += data->aux_size;
	}
	data->dyn_size = size - sizeof(struct perf_event_header) -
			 event->header_size - event->id_header_size;
	return size;
}

/**
 * perf_sample_prepare - fill a sample's fields without writing it
 * @data: the sample
 * @event: the event it is for
 * @regs: registers at the overflow
 *
 * For a BPF program that looks at the sample before it is written: it sees
 * the fields (callchain, addresses) the record would carry.  Filled fields
 * are marked in data->sample_flags, so the write does not redo them.
 *
 * Context: the overflow path (any, including NMI).
 */
void perf_sample_prepare(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	struct sample_extra ex;

	sample_prepare(data, event, regs, &ex);
}

static void sample_output_regs(struct perf_output_handle *handle,
			       struct perf_regs *r, u64 mask)
{
	u64 abi = r->regs ? r->abi : PERF_SAMPLE_REGS_ABI_NONE;
	int bit;

	perf_output_put(handle, abi);
	if (abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	for (bit = 0; bit < 64; bit++) {
		u64 val;

		if (!(mask & BIT_ULL(bit)))
			continue;
		val = perf_reg_value(r->regs, bit);
		perf_output_put(handle, val);
	}
}

/*
 * The user stack from the stack pointer up, as far as it can be read
 * without faulting; what cannot be read is left unwritten and dyn_size
 * says where the readable part ended.  Reads go through a small bounce
 * buffer in pieces that never cross a page, so the first piece that
 * fails marks exactly the first unreadable page.
 */
static void sample_output_ustack(struct perf_output_handle *handle,
				 struct pt_regs *uregs, u16 size)
{
	u64 dump = size, dyn_size = 0;
	unsigned long sp;
	u64 buf[16];

	perf_output_put(handle, dump);
	if (!size)
		return;

	sp = user_stack_pointer(uregs);
	while (dyn_size < size) {
		unsigned long from = sp + dyn_size;
		unsigned int n = min_t(u64, size - dyn_size, sizeof(buf));

		n = min_t(unsigned long, n, PAGE_SIZE - offset_in_page(from));
		if (copy_from_user_nofault(buf, (const void __user *)from, n))
			break;
		perf_output_copy(handle, buf, n);
		dyn_size += n;
	}
	if (dyn_size < size)
		perf_output_skip(handle, size - dyn_size);
	perf_output_put(handle, dyn_size);
}

/*
 * One member's value: its own count, plus its inherited copies' unless
 * inherit with PERF_SAMPLE_READ asks for per-thread values.
 */
static u64 sample_member_count(struct perf_event *sampler,
			       struct perf_event *member)
{
	u64 count = local64_read(&member->count);

	if (!(sampler->attr.inherit &&
	      (sampler->attr.sample_type & PERF_SAMPLE_READ)))
		count += atomic64_read(&member->child_count);
	return count;
}

/* Bring an active member's count up to date: it is on this CPU's PMU. */
static void sample_member_update(struct perf_event *member)
{
	if (READ_ONCE(member->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(member->oncpu) == smp_processor_id())
		member->pmu->read(member);
}

static void sample_output_member(struct perf_output_handle *handle,
				 struct perf_event *sampler,
				 struct perf_event *member)
{
	u64 fmt = sampler->attr.read_format;
	u64 v[3];
	int n = 0;

	if (member != sampler)
		sample_member_update(member);
	v[n++] = sample_member_count(sampler, member);
	if (fmt & PERF_FORMAT_ID)
		v[n++] = perf_event_primary_id(member);
	if (fmt & PERF_FORMAT_LOST)
		v[n++] = atomic64_read(&member->lost_samples);
	perf_output_copy(handle, v, n * sizeof(u64));
}

/*
 * PERF_SAMPLE_READ: what read() would return, taken now.  The sampling
 * event's own count was just updated by the overflow; other members that
 * are counting on this CPU are read from their PMU first.  With IRQs off
 * no context switch, rotation or IPI can change the group meanwhile.
 */
static void sample_output_read(struct perf_output_handle *handle,
			       struct perf_event *event,
			       struct sample_extra *ex)
{
	struct perf_event *leader = event->group_leader, *sibling;
	u64 fmt = event->attr.read_format;
	u64 now, enabled = 0, running = 0, v;
	unsigned long flags;
	u32 left;

	if (fmt & (PERF_FORMAT_TOTAL_TIME_ENABLED |
		   PERF_FORMAT_TOTAL_TIME_RUNNING))
		perf_event_times_now(event, &now, &enabled, &running);

	if (!(fmt & PERF_FORMAT_GROUP)) {
		/* times include exited children's even for per-thread values */
		enabled += atomic64_read(&event->child_total_time_enabled);
		running += atomic64_read(&event->child_total_time_running);
		v = sample_member_count(event, event);
		perf_output_put(handle, v);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			perf_output_put(handle, enabled);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			perf_output_put(handle, running);
		if (fmt & PERF_FORMAT_ID) {
			v = perf_event_primary_id(event);
			perf_output_put(handle, v);
		}
		if (fmt & PERF_FORMAT_LOST) {
			v = atomic64_read(&event->lost_samples);
			perf_output_put(handle, v);
		}
		return;
	}

	local_irq_save(flags);
	v = ex->read_nr;
	perf_output_put(handle, v);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_output_put(handle, enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_output_put(handle, running);
	sample_output_member(handle, event, leader);
	left = ex->read_nr - 1;
	for_each_sibling_event(sibling, leader) {
		if (!left)
			break;
		sample_output_member(handle, event, sibling);
		left--;
	}
	local_irq_restore(flags);

	/* a member left since prepare: keep the announced layout */
	while (left--) {
		u64 zero[3] = { };
		int n = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

		perf_output_copy(handle, zero, n * sizeof(u64));
	}
}

static void sample_output_raw(struct perf_output_handle *handle,
			      struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag;
	u32 sum = 0, pad;
	u64 zero = 0;

	if (!raw) {
		u32 empty[2] = { sizeof(u32), 0 };

		perf_output_put(handle, empty);
		return;
	}
	perf_output_put(handle, raw->size);
	for (frag = &raw->frag; ; frag = frag->next) {
		if (frag->copy) {
			u64 buf[8];
			unsigned long off, n, missed;

			/* the fragment knows how to read itself */
			for (off = 0; off < frag->size; off += n) {
				n = min_t(unsigned long, frag->size - off,
					  sizeof(buf));
				missed = frag->copy(buf, frag->data, off, n);
				if (missed)
					memset((void *)buf + n - missed, 0,
					       missed);
				perf_output_copy(handle, buf, n);
			}
		} else {
			perf_output_copy(handle, frag->data, frag->size);
		}
		sum += frag->size;
		if (perf_raw_frag_last(frag))
			break;
	}
	pad = raw->size - sum;
	if (pad)
		perf_output_copy(handle, &zero, pad);
}

static void sample_output_brstack(struct perf_output_handle *handle,
				  struct perf_event *event,
				  struct perf_sample_data *data)
{
	struct perf_branch_stack *bs = data->br_stack;
	u64 nr = 0;

	if (!bs) {
		perf_output_put(handle, nr);
		return;
	}
	perf_output_put(handle, bs->nr);
	if (branch_sample_hw_index(event))
		perf_output_put(handle, bs->hw_idx);
	perf_output_copy(handle, bs->entries,
			 bs->nr * sizeof(struct perf_branch_entry));
	if (data->br_stack_cntr)
		perf_output_copy(handle, data->br_stack_cntr,
				 bs->nr * sizeof(u64));
}

/* Write a prepared sample in the ABI's field order. */
static void sample_output(struct perf_output_handle *handle,
			  struct perf_event_header *header,
			  struct perf_sample_data *data,
			  struct perf_event *event, struct sample_extra *ex)
{
	u64 type = event->attr.sample_type;

	perf_output_put(handle, *header);
	/* a sample's identifier leads; the trailer's comes last */
	perf_output_id_fields(handle, data, type & PERF_SAMPLE_IDENTIFIER);
	if (type & PERF_SAMPLE_IP)
		perf_output_put(handle, data->ip);
	perf_output_id_fields(handle, data,
			      type & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME));
	if (type & PERF_SAMPLE_ADDR)
		perf_output_put(handle, data->addr);
	perf_output_id_fields(handle, data, type & (PERF_SAMPLE_ID |
						    PERF_SAMPLE_STREAM_ID |
						    PERF_SAMPLE_CPU));
	if (type & PERF_SAMPLE_PERIOD)
		perf_output_put(handle, data->period);
	if (type & PERF_SAMPLE_READ)
		sample_output_read(handle, event, ex);
	if (type & PERF_SAMPLE_CALLCHAIN)
		perf_output_copy(handle, data->callchain,
				 (1 + data->callchain->nr) * sizeof(u64));
	if (type & PERF_SAMPLE_RAW)
		sample_output_raw(handle, data->raw);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		sample_output_brstack(handle, event, data);
	if (type & PERF_SAMPLE_REGS_USER)
		sample_output_regs(handle, &ex->regs_user,
				   event->attr.sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER)
		sample_output_ustack(handle, ex->regs_user.regs,
				     ex->stack_user_size);
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		perf_output_put(handle, data->weight.full);
	if (type & PERF_SAMPLE_DATA_SRC)
		perf_output_put(handle, data->data_src.val);
	if (type & PERF_SAMPLE_TRANSACTION)
		perf_output_put(handle, data->txn);
	if (type & PERF_SAMPLE_REGS_INTR)
		sample_output_regs(handle, &ex->regs_intr,
				   event->attr.sample_regs_intr);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		perf_output_put(handle, data->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		perf_output_put(handle, data->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		perf_output_put(handle, data->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		perf_output_put(handle, data->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		perf_output_put(handle, data->aux_size);
		if (data->aux_size)
			perf_aux_sample_output(event, handle, data->aux_size);
	}
}

typedef int (*sample_begin_t)(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);

/*
 * Prepare, reserve and write one sample.  rcu_read_lock() keeps the
 * callchain buffers alive while the callchain is copied out.
 */
static __always_inline int sample_write(struct perf_event *event,
					struct perf_sample_data *data,
					struct pt_regs *regs,
					sample_begin_t begin)
{
	struct perf_output_handle handle;
	struct perf_event_header header;
	struct sample_extra ex;
	u32 size;
	int err;

	rcu_read_lock();
	size = sample_prepare(data, event, regs, &ex);
	/* header.size is a u16: a record that cannot say its size is lost */
	if (WARN_ON_ONCE(size > U16_MAX || (size & 7))) {
		err = -ENOSPC;
		goto out;
	}
	header.type = PERF_RECORD_SAMPLE;
	header.misc = perf_misc_flags(regs);
	header.size = size;

	err = begin(&handle, data, event, size);
	if (!err) {
		sample_output(&handle, &header, data, event, &ex);
		perf_output_end(&handle);
	}
out:
	rcu_read_unlock();
	return err;
}

/**
 * perf_event_output_forward - default overflow handler: write a sample
 * @event: the event
 * @data: the sample, from perf_sample_data_init() and the PMU driver
 * @regs: registers at the overflow
 *
 * A sample that does not fit is counted as lost by the buffer code.
 * SIGIO's POLL_IN/POLL_HUP is the overflow path's business, not ours.
 *
 * Context: any, including NMI.
 */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	sample_write(event, data, regs, perf_output_begin_forward);
}

/**
 * perf_event_output_backward - default handler for write_backward events
 * @event: the event
 * @data: the sample
 * @regs: registers at the overflow
 *
 * Context: any, including NMI.
 */
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	sample_write(event, data, regs, perf_output_begin_backward);
}

/**
 * perf_event_output - write a sample now, in the direction the event uses
 * @event: the event
 * @data: the sample
 * @regs: registers
 *
 * Context: any, including NMI.
 * Return: 0, or -ENOSPC when there is no buffer or no room in it.
 */
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return sample_write(event, data, regs, perf_output_begin);
}
