// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring buffer.  Not built yet.
 */
#include "internal.h"

/**
 * perf_event_update_userpage - refresh the mmapped control page
 * @event: the event; it has no buffer yet, so there is nothing to refresh
 */
void perf_event_update_userpage(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

/**
 * arch_perf_update_userpage - arch hook for the control page's time fields
 * @event: the event
 * @userpg: the page
 * @now: the current time
 */
void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg,
				      u64 now)
{
}

int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	return -ENOSPC;
}

void perf_output_end(struct perf_output_handle *handle)
{
}

unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	return len;
}

unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return len;
}

int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return -ENOSPC;
}

int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return -ENOSPC;
}
