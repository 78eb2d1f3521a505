// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoints: debug-register slot accounting, the "breakpoint"
 * PMU (PERF_TYPE_BREAKPOINT), and the in-kernel API ptrace and debuggers
 * use to set watchpoints on a task.
 *
 * A CPU has a handful of debug registers (four on x86, shared by
 * instruction and data breakpoints; separate banks on arm64).  An event is
 * only accepted if it can always be scheduled: for each register class and
 * every CPU c it may run on, need(c) = pinned[c] (task-less breakpoints
 * bound to c) + the most breakpoints one task may bring to c (its ones
 * bound to c or to no CPU) must fit in the registers.  Task breakpoints of
 * different tasks share the registers: one task runs on a CPU at a time.
 *
 * The accounting itself, and why it costs nothing per CPU, is in
 * hw_breakpoint_slots.c.
 *
 * Breakpoints are created rarely and from process context: one sleeping
 * lock, bp_slots_mutex, covers the accounting.  Lock order: ctx->mutex,
 * then bp_slots_mutex; nothing else is called with it held.
 *
 * The arch side installs an event in a free register from pmu::add and
 * reports hits through perf_bp_event() from its debug exception handler.
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/hw_breakpoint.h>
#include <linux/kdebug.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "control.h"
#include "hw_breakpoint.h"
#include "swevent.h"

/* The system's accounting, over every possible CPU id: init_hw_breakpoint() */
static DEFINE_MUTEX(bp_slots_mutex);
static struct bp_acct bp_slots;

/* What reserve_bp_slot() counted for an event, to uncount exactly that. */
struct bp_slot {
	const void	*task;
	int		cpu;
	int		type;
};

/* The register class a breakpoint type needs. */
static int bp_class(u32 bp_type)
{
	return (bp_type & HW_BREAKPOINT_RW) ? TYPE_DATA : TYPE_INST;
}

/**
 * reserve_bp_slot - account a new breakpoint event
 * @bp: the event; bp->cpu and bp->hw.target say where it can run
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOSPC when some CPU would be out of debug registers,
 * -ENOMEM, or -EINVAL for an event bound to neither a CPU nor a task.
 */
int reserve_bp_slot(struct perf_event *bp)
{
	struct bp_slot *slot;
	int err;

	if (!bp->hw.target && bp->cpu < 0)
		return -EINVAL;

	slot = kzalloc(sizeof(*slot), GFP_KERNEL);
	if (!slot)
		return -ENOMEM;
	/* an inherited child has its own task as target: counted as its own */
	slot->task = bp->hw.target;
	slot->cpu = bp->cpu;
	slot->type = bp_class(bp->attr.bp_type);

	mutex_lock(&bp_slots_mutex);
	err = bp_acct_reserve(&bp_slots, slot->task, slot->cpu, slot->type);
	mutex_unlock(&bp_slots_mutex);

	if (err) {
		kfree(slot);
		return err;
	}
	bp->pmu_private = slot;
	return 0;
}

/**
 * release_bp_slot - give back the reservation of a breakpoint event
 * @bp: the event (NULL-safe: an event that holds none is left alone)
 *
 * Context: process context, may sleep.
 */
void release_bp_slot(struct perf_event *bp)
{
	struct bp_slot *slot = bp->pmu_private;

	if (!slot)
		return;
	mutex_lock(&bp_slots_mutex);
	bp_acct_release(&bp_slots, slot->task, slot->cpu, slot->type);
	mutex_unlock(&bp_slots_mutex);
	bp->pmu_private = NULL;
	kfree(slot);
}

/* Move @bp's reservation to another register class, if it fits there. */
static int bp_slot_change_class(struct perf_event *bp, int type)
{
	struct bp_slot *slot = bp->pmu_private;
	int err;

	mutex_lock(&bp_slots_mutex);
	err = bp_acct_move(&bp_slots, slot->task, slot->cpu, slot->type, type);
	if (!err)
		slot->type = type;
	mutex_unlock(&bp_slots_mutex);
	return err;
}

/**
 * hw_breakpoint_is_used - is any breakpoint reserved?
 *
 * Context: process context, may sleep.
 * Return: true while any breakpoint event exists.
 */
bool hw_breakpoint_is_used(void)
{
	bool used;

	mutex_lock(&bp_slots_mutex);
	used = bp_slots.nr_bps != 0;
	mutex_unlock(&bp_slots_mutex);
	return used;
}

/*
 * May a breakpoint with the settings @hw be armed for @attr?  A user
 * address always; a kernel address not with exclude_kernel (which asks
 * for user hits only, so it could never fire), and otherwise only for
 * CAP_SYS_ADMIN: a breakpoint in the trap path itself would recurse.
 */
static int bp_address_allowed(const struct perf_event_attr *attr,
			      struct arch_hw_breakpoint *hw)
{
	if (!arch_check_bp_in_kernelspace(hw))
		return 0;
	if (attr->exclude_kernel)
		return -EINVAL;
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/* Translate @attr into the arch's register settings in @hw, and vet them. */
static int bp_parse(struct perf_event *bp, const struct perf_event_attr *attr,
		    struct arch_hw_breakpoint *hw)
{
	int err = hw_breakpoint_arch_parse(bp, attr, hw);

	return err ?: bp_address_allowed(attr, hw);
}

/**
 * register_perf_hw_breakpoint - reserve a slot for @bp and program its info
 * @bp: a breakpoint event being created (from the PMU's event_init)
 *
 * The slot is reserved before the attributes are parsed, so a full CPU
 * reports -ENOSPC whatever the attributes are, as upstream does.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno; on error nothing stays reserved.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	struct arch_hw_breakpoint info = { };
	int err;

	err = reserve_bp_slot(bp);
	if (err)
		return err;
	err = bp_parse(bp, &bp->attr, &info);
	if (!err)
		bp->hw.info = info;
	else
		release_bp_slot(bp);
	return err;
}

/* The fields of a live breakpoint that may be changed. */
static void bp_copy_mutable(struct perf_event_attr *to,
			    const struct perf_event_attr *from)
{
	to->bp_addr = from->bp_addr;
	to->bp_len = from->bp_len;
	to->bp_type = from->bp_type;
	to->disabled = from->disabled;
}

/**
 * modify_user_hw_breakpoint_check - change a live breakpoint
 * @bp: the breakpoint event
 * @attr: the new attributes: bp_addr, bp_len, bp_type and disabled are
 *	taken from it
 * @check: refuse (-EINVAL) when any other field differs from @bp's
 *	(PERF_EVENT_IOC_MODIFY_ATTRIBUTES wants that)
 *
 * The new settings are validated first, so a refused change leaves @bp as
 * it was.  Otherwise @bp is taken off its debug register while it changes
 * (it must not fire with half-updated settings), moved to the new register
 * class if that differs, and enabled again unless @attr says disabled.
 *
 * Context: process context; the caller holds @bp->ctx->mutex, or for an
 * inherited copy its original's child_mutex (see perf_ctx_call()).
 * Return: 0 or a negative errno (-EINVAL, -EPERM, -ENOSPC, ...).
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint hw = { };
	struct bp_slot *slot = bp->pmu_private;
	bool was_enabled;
	int err;

	if (!bp->parent)
		lockdep_assert_held(&bp->ctx->mutex);

	err = bp_parse(bp, attr, &hw);
	if (err)
		return err;

	if (check) {
		struct perf_event_attr cmp = bp->attr;

		bp_copy_mutable(&cmp, attr);
		if (memcmp(&cmp, attr, sizeof(cmp)))
			return -EINVAL;
	}

	/* ERROR: enabled, but a pinned event that did not get a register */
	was_enabled = bp->state >= PERF_EVENT_STATE_ERROR;
	perf_event_do_disable(bp);

	if (slot && slot->type != bp_class(attr->bp_type)) {
		err = bp_slot_change_class(bp, bp_class(attr->bp_type));
		if (err) {
			if (was_enabled)
				perf_event_do_enable(bp);
			return err;
		}
	}

	/* off every register now: the #DB handler cannot see it */
	bp_copy_mutable(&bp->attr, attr);
	bp->hw.info = hw;

	if (!attr->disabled)
		perf_event_do_enable(bp);
	return 0;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint_check);

/**
 * modify_user_hw_breakpoint - change a live breakpoint (ptrace)
 * @bp: the breakpoint event
 * @attr: the new attributes: bp_addr, bp_len, bp_type and disabled
 *
 * Context: process context, may sleep; takes @bp->ctx->mutex.
 * Return: 0 or a negative errno.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	struct perf_event_context *ctx = bp->ctx;
	int err;

	might_sleep();
	mutex_lock(&ctx->mutex);
	err = modify_user_hw_breakpoint_check(bp, attr, false);
	mutex_unlock(&ctx->mutex);
	return err;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/**
 * register_user_hw_breakpoint - set a breakpoint on a task
 * @attr: the breakpoint (hw_breakpoint_init()/ptrace_breakpoint_init())
 * @triggered: called on each hit, from the debug exception
 * @context: @triggered's private data (overflow_handler_context)
 * @tsk: the task
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR (-ENOSPC when the registers are taken).
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered,
			    void *context, struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * unregister_hw_breakpoint - remove a breakpoint
 * @bp: the event, or NULL
 *
 * Context: process context, may sleep.
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (!bp)
		return;
	perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint_cpu - set a kernel breakpoint on one CPU
 * @attr: the breakpoint
 * @triggered: called on each hit
 * @context: @triggered's private data
 * @cpu: the CPU
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR.
 */
struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return perf_event_create_kernel_counter(attr, cpu, NULL, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint_cpu);

/**
 * register_wide_hw_breakpoint - set a kernel breakpoint on every online CPU
 * @attr: the breakpoint
 * @triggered: called on each hit
 * @context: @triggered's private data
 *
 * Either every online CPU gets one, or none does.  CPUs that come online
 * later get none.
 *
 * Context: process context, may sleep.
 * Return: per-CPU event pointers (NULL for CPUs that were offline), for
 * unregister_wide_hw_breakpoint(); or an ERR_PTR.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *events;
	struct perf_event *bp;
	int cpu, err = 0;

	events = alloc_percpu(typeof(*events));
	if (!events)
		return ERR_PTR(-ENOMEM);

	/* the online set must not change between creating and unwinding */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		bp = register_wide_hw_breakpoint_cpu(attr, triggered, context,
						     cpu);
		if (IS_ERR(bp)) {
			err = PTR_ERR(bp);
			break;
		}
		per_cpu(*events, cpu) = bp;
	}
	cpus_read_unlock();

	if (err) {
		unregister_wide_hw_breakpoint(events);
		return ERR_PTR(err);
	}
	return events;
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - undo register_wide_hw_breakpoint()
 * @cpu_events: what it returned
 *
 * Context: process context, may sleep.
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	struct perf_event **slot;
	int cpu;

	for_each_possible_cpu(cpu) {
		/* slots of CPUs that never got an event hold NULL */
		slot = per_cpu_ptr(cpu_events, cpu);
		unregister_hw_breakpoint(*slot);
	}
	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/**
 * perf_bp_event - report a breakpoint hit
 * @bp: the breakpoint event whose register matched
 * @data: the registers at the exception (struct pt_regs *)
 *
 * Called by the arch debug exception handler with IRQs off (on x86 the #DB
 * handler is NMI-like): takes no lock and allocates nothing.  The hit is
 * counted like a software event, which runs the overflow handler of a
 * sampling breakpoint (ptrace's callback, for its period-1 breakpoints).
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct pt_regs *regs = data;
	struct perf_sample_data sample;

	if (bp->hw.state & PERF_HES_STOPPED)
		return;
	if (regs) {
		if (bp->attr.exclude_user && user_mode(regs))
			return;
		if (bp->attr.exclude_kernel && !user_mode(regs))
			return;
	}

	perf_sample_data_init(&sample, bp->attr.bp_addr, 0);
	perf_swevent_event(bp, 1, &sample, regs);
}

/* The breakpoint PMU.  add/del/start/stop run with IRQs off on bp's CPU. */

static void bp_event_destroy(struct perf_event *bp)
{
	release_bp_slot(bp);
}

static int bp_event_init(struct perf_event *bp)
{
	int err;

	if (bp->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	/* a class without registers (never on x86), or branch sampling */
	if (!hw_breakpoint_slots(bp_class(bp->attr.bp_type)) ||
	    has_branch_stack(bp))
		return -EOPNOTSUPP;

	err = register_perf_hw_breakpoint(bp);
	if (err)
		return err;

	bp->destroy = bp_event_destroy;
	/* it can always be scheduled: the reservation made sure of that */
	bp->event_caps |= PERF_EV_CAP_SOFTWARE;
	return 0;
}

static int bp_add(struct perf_event *bp, int flags)
{
	bp->hw.state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;
	/* -EBUSY if every register of this CPU is taken */
	return arch_install_hw_breakpoint(bp);
}

static void bp_del(struct perf_event *bp, int flags)
{
	arch_uninstall_hw_breakpoint(bp);
}

/*
 * Stopping keeps the register programmed: perf_bp_event() ignores hits
 * while PERF_HES_STOPPED is set, which is cheaper than reprogramming.
 */
static void bp_start(struct perf_event *bp, int flags)
{
	bp->hw.state = 0;
}

static void bp_stop(struct perf_event *bp, int flags)
{
	bp->hw.state = PERF_HES_STOPPED;
}

static struct pmu bp_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= bp_event_init,
	.add		= bp_add,
	.del		= bp_del,
	.start		= bp_start,
	.stop		= bp_stop,
	.read		= hw_breakpoint_pmu_read,
};

/* ahead of every other die notifier: the debug trap is ours to claim */
static struct notifier_block bp_exceptions_nb = {
	.notifier_call	= hw_breakpoint_exceptions_notify,
	.priority	= 0x7fffffff,
};

/**
 * init_hw_breakpoint - register the breakpoint PMU and the trap notifier
 *
 * Context: boot, from perf_event_init().
 * Return: 0 or a negative errno.
 */
int __init init_hw_breakpoint(void)
{
	unsigned int nr_regs[BP_NR_CLASSES] = { };
	int err, type;

	/* a class that is not TYPE_MAX's (mixed registers) stays empty */
	for (type = 0; type < TYPE_MAX; type++)
		nr_regs[type] = hw_breakpoint_slots(type);
	err = bp_acct_init(&bp_slots, &bp_slots_mutex, nr_cpu_ids, nr_regs);
	if (err)
		return err;

	err = perf_pmu_register(&bp_pmu, "breakpoint", PERF_TYPE_BREAKPOINT);
	if (err)
		return err;
	return register_die_notifier(&bp_exceptions_nb);
}
