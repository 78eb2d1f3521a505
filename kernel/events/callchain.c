// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains for samples.  The arch unwinders (perf_callchain_kernel/user)
 * are called from here; collecting callchains into samples is part of the
 * sampling issue and not built yet, so these entry points report that no
 * callchain is available.
 */
#include "internal.h"

/**
 * perf_callchain_kernel - arch hook: unwind the kernel stack at @regs
 * @entry: the callchain being built
 * @regs: where to start
 *
 * Default for arches without an unwinder: store nothing.
 */
__weak void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
				  struct pt_regs *regs)
{
}

/**
 * perf_callchain_user - arch hook: unwind the user stack at @regs
 * @entry: the callchain being built
 * @regs: the user registers
 */
__weak void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
				struct pt_regs *regs)
{
}

/**
 * get_perf_callchain - collect a callchain (not built yet)
 * @regs: registers at the sample
 * @init_nr: entries to leave free at the start
 * @kernel: include kernel frames
 * @user: include user frames
 * @max_stack: depth limit
 * @crosstask: the task is not current
 * @add_mark: insert PERF_CONTEXT_* markers
 *
 * Return: NULL.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, u32 init_nr, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	return NULL;
}

/**
 * perf_callchain - the callchain for a sample of @event (not built yet)
 * @event: the event
 * @regs: registers at the sample
 *
 * Return: NULL.
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	return NULL;
}
