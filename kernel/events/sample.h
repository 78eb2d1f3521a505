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

/* sample.c */
void perf_sample_prepare(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);

/* sample_addr.c */
u64 perf_sample_phys_addr(u64 virt);
u64 perf_sample_page_size(unsigned long addr);

#endif /* _KERNEL_EVENTS_SAMPLE_H */
