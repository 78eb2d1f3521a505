/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Breakpoint slot accounting, shared by hw_breakpoint.c and its KUnit test.
 *
 * The accounting knows nothing of perf events: a reservation is a task
 * identity (or none), a CPU (or -1) and a register class.  The number of
 * CPUs and of registers per class are parameters, so that the test can
 * drive an instance of its own with made-up CPUs; each instance names the
 * mutex that serialises it (bp_slots_mutex for the real one).
 */
#ifndef _KERNEL_EVENTS_HW_BREAKPOINT_H
#define _KERNEL_EVENTS_HW_BREAKPOINT_H

#include <linux/hashtable.h>
#include <linux/types.h>

struct mutex;

/*
 * Register classes the accounting keeps apart: TYPE_INST and TYPE_DATA.
 * Always two, even where one bank serves both (TYPE_DATA == TYPE_INST),
 * so that the test can exercise separate banks on every architecture.
 */
#define BP_NR_CLASSES		2
#define BP_TASK_HASH_BITS	7

/**
 * struct bp_class_acct - the counts of one register class
 * @nr_regs: registers of this class on each CPU
 * @pinned: per CPU, the task-less breakpoints bound to it
 * @pinned_hist: [v] is the number of CPUs whose @pinned is v (v >= 1)
 * @any_hist: [v] is the number of tasks with v breakpoints that may run on
 *	any CPU (v >= 1)
 * @cpu_hist: row c, [c * (@nr_regs + 1) + v], is the number of tasks with
 *	breakpoints bound to CPU c that have v breakpoints in all that may run
 *	there (bound to c, or to no CPU), v >= 1
 *
 * Index 0 of each histogram is never used.  No index goes above @nr_regs:
 * every value counted belongs to an accepted set, which fits.
 */
struct bp_class_acct {
	unsigned int	nr_regs;
	unsigned int	*pinned;
	unsigned int	*pinned_hist;
	unsigned int	*any_hist;
	unsigned int	*cpu_hist;
};

/**
 * struct bp_acct - every breakpoint reservation of a system, as counts
 * @lock: the mutex that serialises every call on this instance
 * @nr_cpus: the CPU ids are 0 to @nr_cpus - 1
 * @nr_bps: reservations held, all classes
 * @cls: the counts of each register class
 * @tasks: a struct bp_task (private to hw_breakpoint.c) for each task that
 *	holds a reservation, hashed by task pointer
 */
struct bp_acct {
	struct mutex		*lock;		/* held around every call */
	unsigned int		nr_cpus;
	unsigned long		nr_bps;
	struct bp_class_acct	cls[BP_NR_CLASSES];
	DECLARE_HASHTABLE(tasks, BP_TASK_HASH_BITS);
};

int bp_acct_init(struct bp_acct *acct, struct mutex *lock,
		 unsigned int nr_cpus, const unsigned int *nr_regs);
void bp_acct_destroy(struct bp_acct *acct);
int bp_acct_reserve(struct bp_acct *acct, const void *task, int cpu,
		    int type);
void bp_acct_release(struct bp_acct *acct, const void *task, int cpu,
		     int type);
int bp_acct_move(struct bp_acct *acct, const void *task, int cpu,
		 int from, int to);
unsigned int bp_acct_need(struct bp_acct *acct, int cpu, int type);

#endif /* _KERNEL_EVENTS_HW_BREAKPOINT_H */
