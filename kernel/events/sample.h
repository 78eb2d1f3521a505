/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples: preparing them (sample.c), their ids and sizes
 * (sample_id.c), and their addresses (sample_addr.c).
 */
#ifndef _KERNEL_EVENTS_SAMPLE_H
#define _KERNEL_EVENTS_SAMPLE_H

#include <linux/perf_event.h>

/* sample_id.c */
void perf_sample_fill_id(struct perf_sample_data *data,
			 struct perf_event *event, u64 types);
void perf_event_calc_sample_sizes(struct perf_event *event);
bool perf_event_validate_size(struct perf_event *event);
void perf_event_header_init_id(struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event);
void perf_event_output_id_sample(struct perf_event *event,
				 struct perf_output_handle *handle,
				 struct perf_sample_data *data);

/**
 * perf_output_id_fields - write sample_id_all fields of a record
 * @handle: the record being written
 * @data: the values, filled by perf_sample_fill_id()
 * @fields: which of them: PERF_SAMPLE_* bits of the sample_id_all set
 *
 * In the ABI's order: TID, TIME, ID, STREAM_ID, CPU, then IDENTIFIER.
 * A sample writes its IDENTIFIER first instead and puts IP and ADDR
 * between these, so it asks for them a few at a time (sample.c).
 *
 * Always inline: a sample writes three slices of these on the sampling
 * path, and inlined, each slice's mask folds into its tests.
 *
 * Context: any, including NMI.
 */
static __always_inline void
perf_output_id_fields(struct perf_output_handle *handle,
		      struct perf_sample_data *data, u64 fields)
{
	if (fields & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (fields & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (fields & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (fields & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (fields & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (fields & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
}

/* sample.c */
void perf_sample_prepare(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);

/* sample_addr.c */
u64 perf_sample_phys_addr(u64 virt);
u64 perf_sample_page_size(unsigned long addr);

#endif /* _KERNEL_EVENTS_SAMPLE_H */
