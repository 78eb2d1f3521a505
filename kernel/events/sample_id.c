// SPDX-License-Identifier: GPL-2.0
/*
 * The fixed part of an event's records: the sizes worked out when an
 * event is created or its group changes, the check that a sample can
 * still fit a record (16-bit size), and the sample_id_all trailer that
 * every non-sample record carries (TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER, as attr.sample_type selects).
 */
#include <linux/pid_namespace.h>

#include "event.h"
#include "sample.h"

/* the fields that sample_id_all appends to every non-sample record */
#define PERF_SAMPLE_ID_ALL						\
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* above this much, a group's read() or PERF_SAMPLE_READ part is refused */
#define PERF_SAMPLE_MAX_READ_SIZE	(16 * 1024)

/**
 * perf_event_calc_sample_sizes - fixed sizes of @event's records
 * @event: the event; event->read_size is already up to date
 *
 * header_size: the fields of a sample whose size does not vary from one
 * sample to the next, other than those of the sample_id_all set;
 * id_header_size: the sample_id_all set, which samples carry too and every
 * other record appends when attr.sample_id_all is on.
 *
 * Context: process context, when the event is created or its group
 * changes; readers in the sample path see either the old or the new value.
 */
void perf_event_calc_sample_sizes(struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	u16 size = 0;

	if (type & PERF_SAMPLE_IP)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_ADDR)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_PERIOD)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_READ)
		size += event->read_size;
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		size += sizeof(u64);
	if (type & PERF_SAMPLE_DATA_SRC)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_TRANSACTION)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_CGROUP)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		size += sizeof(u64);
	WRITE_ONCE(event->header_size, size);

	size = 0;
	if (type & PERF_SAMPLE_TID)
		size += 2 * sizeof(u32);
	if (type & PERF_SAMPLE_TIME)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_ID)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_STREAM_ID)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_CPU)
		size += 2 * sizeof(u32);
	if (type & PERF_SAMPLE_IDENTIFIER)
		size += sizeof(u64);
	WRITE_ONCE(event->id_header_size, size);
}

/**
 * perf_event_validate_size - may @event join its group without any
 * member's record growing too large?
 * @event: the event being opened, event->group_leader already set
 *
 * A record is at most 64 KiB (header.size is a u16).  The part that grows
 * with the group is what read() and PERF_SAMPLE_READ return, so that is
 * limited to 16 KiB for the new event, the leader and every sibling, each
 * with its own read_format, as the group will be once @event is in it.
 * That leaves 48 KiB for the rest of a sample.
 *
 * Context: perf_event_open(), the group's ctx->mutex held.
 * Return: true if the group may grow by @event.
 */
bool perf_event_validate_size(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	/* as upstream: a new leader is sized as if it had one sibling */
	int nr = leader->nr_siblings + 1;

	/* a new leader has no context yet */
	if (leader != event)
		lockdep_assert_held(&leader->ctx->mutex);
	if (perf_read_size(event->attr.read_format, nr) >
	    PERF_SAMPLE_MAX_READ_SIZE)
		return false;
	if (leader == event)
		return true;
	if (perf_read_size(leader->attr.read_format, nr) >
	    PERF_SAMPLE_MAX_READ_SIZE)
		return false;
	for_each_sibling_event(sibling, leader)
		if (perf_read_size(sibling->attr.read_format, nr) >
		    PERF_SAMPLE_MAX_READ_SIZE)
			return false;
	return true;
}

/**
 * perf_sample_fill_id - fill the sample_id_all fields named in @types
 * @data: the sample data being prepared
 * @event: the event writing the record
 * @types: PERF_SAMPLE_* bits of the sample_id_all set to fill
 *
 * Context: any, including NMI.
 */
void perf_sample_fill_id(struct perf_sample_data *data,
			 struct perf_event *event, u64 types)
{
	data->type = event->attr.sample_type;
	data->sample_flags |= types & PERF_SAMPLE_ID_ALL;

	if (types & PERF_SAMPLE_TID) {
		data->tid_entry.pid = perf_event_task_pid(event, current, PIDTYPE_TGID);
		data->tid_entry.tid = perf_event_task_pid(event, current, PIDTYPE_PID);
	}
	if (types & PERF_SAMPLE_TIME)
		data->time = event->clock();
	if (types & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = perf_event_primary_id(event);
	if (types & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (types & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = raw_smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

/**
 * perf_event_header_init_id - size and fill the sample_id_all trailer
 * @header: the record's header; its size grows by the trailer
 * @data: where the trailer's values are kept until written
 * @event: the event the record is for
 *
 * Does nothing unless attr.sample_id_all.  Pair with
 * perf_event_output_id_sample() after the record's own fields.
 *
 * Context: any, including NMI.
 */
void perf_event_header_init_id(struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event)
{
	if (!event->attr.sample_id_all)
		return;
	header->size += event->id_header_size;
	perf_sample_fill_id(data, event, event->attr.sample_type);
}

/**
 * perf_event_output_id_sample - write the sample_id_all trailer
 * @event: the event the record is for
 * @handle: the record being written
 * @data: filled by perf_event_header_init_id()
 *
 * IDENTIFIER comes last, where a parser walking back from the end of any
 * record finds it.
 *
 * Context: any, including NMI.
 */
void perf_event_output_id_sample(struct perf_event *event,
				 struct perf_output_handle *handle,
				 struct perf_sample_data *data)
{
	if (event->attr.sample_id_all)
		perf_output_id_fields(handle, data,
				      data->type & PERF_SAMPLE_ID_ALL);
}
