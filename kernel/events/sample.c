// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE: sizing, preparing and writing a sample, and the
 * sample_id_all trailer of every other record.
 *
 * Not built yet: samples are dropped.
 */
#include "internal.h"

void perf_event_calc_sample_sizes(struct perf_event *event)
{
}

bool perf_event_validate_size(struct perf_event *event)
{
	return true;
}

void perf_event_header_init_id(struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event)
{
}

void perf_event_output_id_sample(struct perf_event *event,
				 struct perf_output_handle *handle,
				 struct perf_sample_data *data)
{
}

/**
 * perf_event_output_forward - default handler: write a sample forward
 * @event: the event
 * @data: the sample
 * @regs: registers
 *
 * No ring buffer exists yet, so the sample is dropped.
 */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	WRITE_ONCE(event->pending_kill, POLL_IN);
}

/**
 * perf_event_output_backward - default handler for write_backward events
 * @event: the event
 * @data: the sample
 * @regs: registers
 */
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	WRITE_ONCE(event->pending_kill, POLL_IN);
}

/**
 * perf_event_output - write a sample now (BPF's use)
 * @event: the event
 * @data: the sample
 * @regs: registers
 *
 * Return: -ENOSPC: there is no buffer to write to.
 */
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return -ENOSPC;
}
