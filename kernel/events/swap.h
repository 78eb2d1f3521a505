/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cheap swap of cloned contexts at a context switch (swap.c).
 */
#ifndef _KERNEL_EVENTS_SWAP_H
#define _KERNEL_EVENTS_SWAP_H

#include <linux/perf_event.h>

/* swap.c */
bool perf_ctx_try_swap(struct perf_event_context *ctx,
		       struct task_struct *prev, struct task_struct *next);

#endif /* _KERNEL_EVENTS_SWAP_H */
