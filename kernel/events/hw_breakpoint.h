/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Breakpoint slot accounting, shared by hw_breakpoint.c and its KUnit test.
 *
 * The rule is kept free of perf events and of locking so that the test can
 * drive it with records it makes up: the callers own the list and its lock.
 */
#ifndef _KERNEL_EVENTS_HW_BREAKPOINT_H
#define _KERNEL_EVENTS_HW_BREAKPOINT_H

#include <linux/list.h>

/**
 * struct bp_slot - one breakpoint reservation, as the accounting sees it
 * @entry: node in the list of all reservations; the reservations of one
 *	task are kept next to each other (bp_slot_insert() sees to it)
 * @task: the task the breakpoint follows, or NULL for a CPU breakpoint;
 *	only compared, never dereferenced
 * @cpu: the CPU the breakpoint is bound to, or -1 (task breakpoints only)
 *	when it may run on any CPU
 * @type: the register class it needs (TYPE_INST or TYPE_DATA; equal on
 *	architectures whose debug registers serve both)
 * @weight: how many registers of that class it takes
 */
struct bp_slot {
	struct list_head	entry;
	const void		*task;
	int			cpu;
	int			type;
	int			weight;
};

void bp_slot_insert(struct list_head *slots, struct bp_slot *slot);
int bp_slot_cpu_usage(const struct list_head *slots,
		      const struct bp_slot *extra, int cpu, int type);
int bp_slot_check(const struct list_head *slots, const struct bp_slot *new,
		  unsigned int nr_cpus, int nr_regs);

#endif /* _KERNEL_EVENTS_HW_BREAKPOINT_H */
