/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Performance events: the kernel-internal interface.
 *
 * This header is what the rest of the kernel sees of perf_events: the
 * scheduler and fork/exit/exec hooks, the software-event and tracepoint
 * entry points, the breakpoint layer, and the interface PMU drivers plug
 * into (struct pmu).  The implementation lives in kernel/events/; its
 * private interfaces are per-concern headers there, indexed by
 * kernel/events/internal.h.
 *
 * The file reads top-down by audience:
 *  1. what a PMU driver implements and fills in (struct pmu, hw_perf_event);
 *  2. the event and its contexts (struct perf_event, perf_event_context);
 *  3. samples and their way into the ring buffer (perf_sample_data);
 *  4. the entry points other subsystems call, each group with the stubs
 *     it collapses to when perf is configured out;
 *  5. hypervisor and architecture hooks.
 *
 * Locking vocabulary used throughout:
 *  - ctx->mutex    sleeping lock; serialises changes to a context's event
 *                  lists made from process context (open, close, ioctl).
 *  - ctx->lock     raw spinlock, taken with IRQs off; protects scheduling
 *                  state (which events are on the PMU, times, states).
 *  - pmu callbacks add/del/start/stop/read run on the event's CPU with IRQs
 *                  off and ctx->lock held, unless a comment says otherwise.
 */
#ifndef _LINUX_PERF_EVENT_H
#define _LINUX_PERF_EVENT_H

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/static_call.h>
#include <linux/static_key.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <uapi/linux/bpf_perf_event.h>
#include <uapi/linux/perf_event.h>
#include <asm/local.h>

#ifdef CONFIG_HAVE_HW_BREAKPOINT
#include <linux/rhashtable-types.h>
#include <asm/hw_breakpoint.h>
#endif

#ifdef CONFIG_PERF_EVENTS
#include <asm/local64.h>
#include <asm/perf_event.h>
#endif

struct bpf_prog;
struct file;
struct perf_buffer;
struct perf_event;
struct perf_event_context;
struct perf_output_handle;
struct perf_sample_data;
struct task_struct;

/*
 * ===========================================================================
 * 1. The PMU driver interface
 * ===========================================================================
 */

/*
 * hw_perf_event::state, the start/stop state as the PMU sees it.  A driver
 * sets both bits when it stops a counter and has folded its value in.
 */
#define PERF_HES_STOPPED	BIT(0)	/* not counting */
#define PERF_HES_UPTODATE	BIT(1)	/* event->count holds the latest value */
#define PERF_HES_ARCH		BIT(2)	/* free for the driver's own use */

/*
 * hw_perf_event::flags.  The low 20 bits belong to the architecture's
 * driver; the core owns the rest.
 */
#define PERF_EVENT_FLAG_USER_READ_CNT		0x80000000
#define PERF_EVENT_FLAG_ARCH			0x000fffff

/* A second register an x86 event programs next to its event select. */
struct hw_perf_event_extra {
	unsigned int	reg;	/* its MSR */
	int		idx;	/* which shared resource */
	int		alloc;	/* the resource is held */
	u64		config;	/* value to write */
};

/**
 * struct hw_perf_event - the PMU driver's per-event state
 *
 * The anonymous union holds what one kind of PMU needs: counters for
 * hardware PMUs, an hrtimer for the clock events, a list node for
 * tracepoints, the arch breakpoint description for breakpoints.  Drivers
 * outside the tree overlay private state on the union and check that it
 * ends before @target, so @target stays right behind the union.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	union {
		struct { /* a counter of a hardware PMU */
			/* which counter, and where its registers are */
			int		idx;
			int		event_base_rdpmc;
			unsigned long	event_base;
			unsigned long	config_base;
			/* what gets programmed into it */
			u64		config;
			struct hw_perf_event_extra extra_reg;
			struct hw_perf_event_extra branch_reg;
			int		flags;		/* PERF_EVENT_FLAG_* */
			/* x86: where it ran last, to skip reassignment */
			int		last_cpu;
			u64		last_tag;
		};
		struct { /* a tracer writing an AUX area */
			/*
			 * Paused by a member's overflow (aux_pause), or from
			 * open (aux_start_paused): not a PERF_HES_* bit, as
			 * it changes while the event is on and running.
			 */
			unsigned int	aux_paused;
			/* the driver's own encoding of the trace setup */
			u64		aux_config;
		};
		struct { /* cpu-clock, task-clock */
			struct hrtimer	hrtimer;
		};
		struct { /* tracepoints */
			struct list_head	tp_list;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		struct { /* breakpoints */
			struct arch_hw_breakpoint	info;
			struct rhlist_head		bp_list;
		};
#endif
	};
	/* the task a per-task event watches (breakpoints and uprobes read it) */
	struct task_struct		*target;

	/* a tracer's copy of its address filters, and which change it has */
	void				*addr_filters;
	unsigned long			addr_filters_gen;

	/* counting: PERF_HES_*, and the raw counter value at the last update */
	int				state;
	local64_t			prev_count;

	/* sampling: what is left of the period, and its length */
	local64_t			period_left;
	u64				sample_period;
	u64				last_period;

	/*
	 * Frequency mode and throttling: the count and time the current
	 * period adjustment started from, and the overflows seen this tick.
	 */
	u64				freq_count_stamp;
	u64				freq_time_stamp;
	u64				interrupts;
	u64				interrupts_seq;
#endif
};

/* pmu::add takes PERF_EF_START, pmu::start PERF_EF_RELOAD, pmu::stop/del UPDATE */
#define PERF_EF_START	BIT(0)	/* add: start counting right away */
#define PERF_EF_RELOAD	BIT(1)	/* start: reprogram the period first */
#define PERF_EF_UPDATE	BIT(2)	/* stop: fold the hardware value into count */
#define PERF_EF_PAUSE	BIT(3)	/* stop: an AUX tracer pauses (aux_pause) */
#define PERF_EF_RESUME	BIT(4)	/* start: it resumes (aux_resume) */

/*
 * pmu::capabilities, by concern.
 *
 * What the hardware cannot do:
 */
#define PERF_PMU_CAP_NO_INTERRUPT		BIT(0)	/* no sampling at all */
#define PERF_PMU_CAP_NO_NMI			BIT(1)	/* overflows are not NMIs */
#define PERF_PMU_CAP_NO_EXCLUDE			BIT(6)	/* no exclude_* filtering */
/* What an event of the PMU may ask for: */
#define PERF_PMU_CAP_EXTENDED_REGS		BIT(3)
#define PERF_PMU_CAP_EXTENDED_HW_TYPE		BIT(8)
#define PERF_PMU_CAP_EXCLUSIVE			BIT(4)	/* one user at a time */
/* The AUX area (instruction trace and the like): */
#define PERF_PMU_CAP_ITRACE			BIT(5)
#define PERF_PMU_CAP_AUX_NO_SG			BIT(2)
#define PERF_PMU_CAP_AUX_OUTPUT			BIT(7)
#define PERF_PMU_CAP_AUX_PAUSE			BIT(9)
#define PERF_PMU_CAP_AUX_PREFER_LARGE		BIT(10)
/*
 * User access to the counters follows the running task's context: the
 * core counts the context's PERF_EVENT_FLAG_USER_READ_CNT events and
 * calls ->pmu_enable when it goes (perf_running_task_reads_counters()).
 */
#define PERF_PMU_CAP_USER_READ_CTX		BIT(11)

/* pmu::start_txn kinds: schedule a whole group, or read one */
#define PERF_PMU_TXN_READ	BIT(1)
#define PERF_PMU_TXN_ADD	BIT(0)

/* give this as pmu::dev before registering to get no sysfs device */
#define PMU_NULL_DEV	((void *)(~0UL))

/**
 * enum perf_pmu_scope - what one instance of a PMU counts for
 * @PERF_PMU_SCOPE_NONE: per CPU, or the driver looks after CPUs itself
 * @PERF_PMU_SCOPE_CORE: the SMT siblings of one core
 * @PERF_PMU_SCOPE_DIE: one die
 * @PERF_PMU_SCOPE_CLUSTER: one cluster (CPUs sharing an L2, on arm64)
 * @PERF_PMU_SCOPE_PKG: one package (socket)
 * @PERF_PMU_SCOPE_SYS_WIDE: the whole machine (an IOMMU, a DMA engine)
 * @PERF_PMU_MAX_SCOPE: the number of scopes
 *
 * Ordered from the narrowest to the widest.
 */
enum perf_pmu_scope {
	PERF_PMU_SCOPE_NONE	= 0,
	PERF_PMU_SCOPE_CORE	= 1,
	PERF_PMU_SCOPE_DIE	= 2,
	PERF_PMU_SCOPE_CLUSTER	= 3,
	PERF_PMU_SCOPE_PKG	= 4,
	PERF_PMU_SCOPE_SYS_WIDE	= 5,
	PERF_PMU_MAX_SCOPE	= 6,
};

/**
 * struct pmu - a performance monitoring unit, as drivers describe it
 * @name: the sysfs name, set by perf_pmu_register()
 * @type: the perf_event_attr::type value that selects this PMU
 * @module: owner, pinned while events of this PMU exist
 * @attr_groups: sysfs groups: format/, events/, caps/ and driver specifics
 * @attr_update: groups whose visibility is decided per attribute
 * @dev: the sysfs device (NULL until registered, PMU_NULL_DEV for none)
 * @parent: parent device for sysfs
 * @capabilities: PERF_PMU_CAP_* bits
 * @task_ctx_nr: perf_hw_context for PMUs with counters, perf_sw_context for
 *	PMUs that can always schedule, perf_invalid_context for uncore-like
 *	PMUs that refuse per-task events
 * @scope: PERF_PMU_SCOPE_*: the CPUs one instance of the PMU serves (a
 *	core, die, cluster, package or the machine); the core then shows
 *	the CPU that carries its events as sysfs "cpumask" and moves them
 *	when that CPU goes offline (kernel/events/scope.c)
 * @nr_addr_filters: number of address filters the PMU supports
 * @hrtimer_interval_ms: multiplexing rotation interval
 * @entry: the core's list of registered PMUs
 * @pmu_disable_count: per-CPU nesting count of perf_pmu_disable()
 * @pmu_cpu_context: per-CPU state of this PMU in the core (struct
 *	perf_pmu_cpu, kernel/events/pmu_cpu.h: rotation, exclusive holder)
 * @exclusive_cnt: PERF_PMU_CAP_EXCLUSIVE bookkeeping: > 0 per-task events,
 *	< 0 CPU events hold the PMU
 * @event_init: claim and validate an event; -ENOENT when it is not ours
 * @event_idx: the rdpmc index + 1 for user-space reads, 0 for none
 * @check_period: refuse a period the hardware cannot take
 * @event_mapped: a task mmapped the event's buffer
 * @event_unmapped: the mapping went away
 * @filter: return true to refuse scheduling on the current CPU
 * @add: put the event on a counter of this CPU; start it with PERF_EF_START
 * @del: take it off; stop it with PERF_EF_UPDATE first
 * @read: fold the current hardware value into event->count
 * @start: start counting; PERF_EF_RELOAD reprograms the period
 * @stop: stop counting; PERF_EF_UPDATE folds the counter into event->count
 * @pmu_disable: freeze every counter of the PMU on this CPU (IRQs off)
 * @pmu_enable: re-enable the PMU after pmu_disable (IRQs off)
 * @sched_task: context switch on this CPU, while perf_sched_cb_inc() holds
 *	a count for the PMU here: @sched_in false before the outgoing task's
 *	events leave, true before the incoming task's arrive; @ctx is the
 *	task's context or NULL (IRQs off)
 * @start_txn: begin a group transaction (PERF_PMU_TXN_*)
 * @cancel_txn: undo the transaction
 * @commit_txn: check the group fits; 0 or -EAGAIN
 * @setup_aux: an AUX area of @nr_pages pages (@pages, kernel addresses;
 *	runs of 2^order physically contiguous pages start with a page whose
 *	page_private() is the order) was mapped: return the driver's
 *	state for it, or NULL to refuse; @overwrite: snapshot mode
 * @free_aux: the area's mapping went: free what @setup_aux returned
 *	(process context)
 * @snapshot_aux: copy the newest AUX data into a sample (PERF_SAMPLE_AUX)
 * @aux_output_match: may this PMU's event write its samples into the
 *	trace of @event, an AUX event leading its group (aux_output)?
 * @addr_filters_validate: accept or refuse a new list of struct
 *	perf_addr_filter (how many, of which action, kernel or file)
 * @addr_filters_sync: copy the event's resolved ranges
 *	(event->addr_filter_ranges) into the driver's state; called from
 *	perf_event_addr_filters_sync() under the filters' lock
 *
 * Only @event_init, @add, @del, @start, @stop and @read are required.
 */
struct pmu {
	/* identity and sysfs presence */
	const char			*name;
	int				type;
	struct module			*module;
	const struct attribute_group	**attr_groups;
	const struct attribute_group	**attr_update;
	struct device			*dev;
	struct device			*parent;

	/* what the driver declares */
	int				capabilities;
	int				task_ctx_nr;
	unsigned int			scope;
	unsigned int			nr_addr_filters;
	int				hrtimer_interval_ms;

	/* the core's own bookkeeping */
	struct list_head		entry;
	int __percpu			*pmu_disable_count;
	void __percpu			*pmu_cpu_context;
	atomic_t			exclusive_cnt;

	/* one event: accept it, describe it, map it */
	int (*event_init)(struct perf_event *event);
	int (*event_idx)(struct perf_event *event);
	int (*check_period)(struct perf_event *event, u64 value);
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);

	/* one event on this CPU: place it on a counter, count, take it off */
	bool (*filter)(struct pmu *pmu, int cpu);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);

	/* the whole PMU on this CPU */
	void (*pmu_disable)(struct pmu *pmu);
	void (*pmu_enable)(struct pmu *pmu);
	void (*sched_task)(struct perf_event_context *ctx, bool sched_in);

	/* groups: add or read several events as one */
	void (*start_txn)(struct pmu *pmu, unsigned int txn_flags);
	void (*cancel_txn)(struct pmu *pmu);
	int (*commit_txn)(struct pmu *pmu);

	/* the AUX area: hardware tracers write it (kernel/events/rb_aux.c) */
	void *(*setup_aux)(struct perf_event *event, void **pages,
			   int nr_pages, bool overwrite);
	void (*free_aux)(void *aux);
	long (*snapshot_aux)(struct perf_event *event,
			     struct perf_output_handle *handle,
			     unsigned long size);
	int (*aux_output_match)(struct perf_event *event);
	int (*addr_filters_validate)(struct list_head *filters);
	void (*addr_filters_sync)(struct perf_event *event);
};

/**
 * enum perf_addr_filter_action_t - what reaching an address range does
 * @PERF_ADDR_FILTER_ACTION_STOP: stop tracing
 * @PERF_ADDR_FILTER_ACTION_START: start tracing
 * @PERF_ADDR_FILTER_ACTION_FILTER: trace only inside the range
 */
enum perf_addr_filter_action_t {
	PERF_ADDR_FILTER_ACTION_FILTER	= 2,
	PERF_ADDR_FILTER_ACTION_START	= 1,
	PERF_ADDR_FILTER_ACTION_STOP	= 0,
};

/**
 * struct perf_addr_filter - one item of an address filter string
 * @action: what reaching the range does
 * @offset: the kernel address, or the offset into the file
 * @size: the range's length; 0 for a single address
 * @path: the file for a range in a file; no dentry for a kernel range
 * @entry: in the event's perf_addr_filters_head
 */
struct perf_addr_filter {
	enum perf_addr_filter_action_t	action;
	unsigned long		offset;
	unsigned long		size;
	struct path		path;
	struct list_head	entry;
};

/**
 * struct perf_addr_filters_head - an event's address filters
 * @lock: guards @list and every copy's resolved ranges
 * @nr_file_filters: how many are in files
 * @list: the struct perf_addr_filter items, in the string's order
 */
struct perf_addr_filters_head {
	raw_spinlock_t		lock;
	unsigned int		nr_file_filters;
	struct list_head	list;
};

/**
 * struct perf_addr_filter_range - where a filter is in the address space
 * @start: first address; 0 (with @size 0) while its file is not mapped
 * @size: length
 */
struct perf_addr_filter_range {
	unsigned long		start;
	unsigned long		size;
};

/* sysfs helpers for PMU drivers: events/ and format/ attributes */
struct perf_pmu_events_attr {
	struct device_attribute attr;	/* first: drivers cast to it */
	u64 id;
	const char *event_str;
};

ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page);

/* the members all the events/ attribute macros below initialise */
#define __PMU_EVENTS_ATTR_INIT(_name, _show, _id, _str)			\
	.attr		= __ATTR(_name, 0444, _show, NULL),		\
	.id		= (_id),					\
	.event_str	= (_str)

/*
 * The two _var forms end with their own semicolon: some drivers (the Intel
 * IOMMU perfmon) write them without one; the others add one, an empty
 * declaration that C tolerates at file scope.
 */
#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
static struct perf_pmu_events_attr _var = {				\
	__PMU_EVENTS_ATTR_INIT(_name, _show, _id, NULL),		\
};

#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
static struct perf_pmu_events_attr _var = {				\
	__PMU_EVENTS_ATTR_INIT(_name, perf_event_sysfs_show, 0, _str),	\
};

/* an anonymous attribute, for attribute arrays: yields its struct attribute */
#define PMU_EVENT_ATTR_ID(_name, _show, _id)				\
	(&((struct perf_pmu_events_attr[]) {				\
		{ __PMU_EVENTS_ATTR_INIT(_name, _show, _id, NULL) }	\
	})[0].attr.attr)

/*
 * format/ attributes: _name##_show() prints the constant @_format (a string
 * literal of less than a page), and format_attr_##_name wraps it.
 */
#define PMU_FORMAT_ATTR_SHOW(_name, _format)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *page)	\
{									\
	static_assert(sizeof(_format) < PAGE_SIZE);			\
	return sprintf(page, "%s\n", _format);				\
}									\

#define PMU_FORMAT_ATTR(_name, _format)					\
	PMU_FORMAT_ATTR_SHOW(_name, _format)				\
	static struct device_attribute format_attr_##_name = {		\
		.show	= _name##_show,					\
		.attr	= { .mode = 0444, .name = __stringify(_name) },	\
	}

#ifdef CONFIG_PERF_EVENTS
/* registering a PMU, and the driver-side services of the core */
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);
bool perf_running_task_reads_counters(void);

/**
 * perf_hw_period_advance - move a sampling counter on to its next period
 * @hwc: the event's hardware state
 *
 * For PMU drivers, before they program a counter: hwc->period_left counts
 * down to the next sample.  Once it has reached 0 a period has ended and
 * the next one starts.  The overshoot past 0 is taken from the next period
 * so that the average rate stays right, unless it is a whole period or
 * more (the period was shortened, or the counter ran long with its
 * interrupt off): then the next period starts clean.
 *
 * Context: the event's CPU, its counter stopped or its PMU disabled.
 * Return: true when a period had ended, i.e. the overflow that brought
 * us here is a sample.
 */
static inline bool perf_hw_period_advance(struct hw_perf_event *hwc)
{
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);

	if (likely(left > 0))
		return false;
	local64_set(&hwc->period_left, left > -period ? left + period : period);
	hwc->last_period = period;
	return true;
}
#endif /* CONFIG_PERF_EVENTS */

/*
 * ===========================================================================
 * 2. Events and their contexts
 * ===========================================================================
 */

/**
 * enum perf_event_state - where an event is in its life
 * @PERF_EVENT_STATE_ACTIVE: counting on a CPU
 * @PERF_EVENT_STATE_INACTIVE: enabled, not on a counter right now
 * @PERF_EVENT_STATE_OFF: disabled
 * @PERF_EVENT_STATE_ERROR: a pinned group that could not be scheduled
 * @PERF_EVENT_STATE_EXIT: its task exited (read and poll see POLLHUP)
 * @PERF_EVENT_STATE_DEAD: released; no longer in any context
 *
 * Listed from the liveliest down: every state below INACTIVE is one in
 * which the event does not count, which the core tests with "< INACTIVE".
 */
enum perf_event_state {
	PERF_EVENT_STATE_ACTIVE		=  1,
	PERF_EVENT_STATE_INACTIVE	=  0,
	PERF_EVENT_STATE_OFF		= -1,
	PERF_EVENT_STATE_ERROR		= -2,
	PERF_EVENT_STATE_EXIT		= -3,
	PERF_EVENT_STATE_DEAD		= -4,
};

/* what runs on each overflow of a sampling event */
typedef void (*perf_overflow_handler_t)(struct perf_event *event,
		struct perf_sample_data *data, struct pt_regs *regs);

/* perf_event::attach_state: the lists and resources the event holds */
#define PERF_ATTACH_CONTEXT	BIT(0)	/* in its context's lists */
#define PERF_ATTACH_GROUP	BIT(1)	/* in a group */
#define PERF_ATTACH_CHILD	BIT(6)	/* on its parent's child_list */
#define PERF_ATTACH_TASK	BIT(2)	/* a per-task event */
#define PERF_ATTACH_TASK_DATA	BIT(3)
#define PERF_ATTACH_SCHED_CB	BIT(5)
#define PERF_ATTACH_ITRACE	BIT(4)
#define PERF_ATTACH_EXCLUSIVE	BIT(7)	/* holds an exclusive PMU */
#define PERF_ATTACH_CALLCHAIN	BIT(8)	/* holds the callchain buffers */
#define PERF_ATTACH_SCHED_HOOKS	BIT(9)	/* holds perf_sched_events on */

/* perf_event::event_caps */
#define PERF_EV_CAP_SOFTWARE		BIT(0)	/* may join any group */
#define PERF_EV_CAP_SIBLING		BIT(2)	/* lives only inside its group */
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)	/* readable from its package */
#define PERF_EV_CAP_READ_SCOPE		BIT(3)	/* readable from its scope */

/**
 * struct perf_event - one counter, as opened by perf_event_open() or by a
 * kernel user such as the breakpoint layer
 *
 * Fields read outside kernel/events/ keep the names the rest of the tree
 * uses (attr, hw, pmu, ctx, parent, overflow_handler, tp_event, filter,
 * hlist_entry, ftrace_ops, attach_state).  Everything else is the core's.
 *
 * The order follows how often a field is touched, most often first: the
 * context switch visits every event of the outgoing and incoming contexts,
 * an overflow touches one event many times a second, and everything
 * after that is open/close/fork work.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/*
	 * Scheduling.  Sched in/out, rotation and timekeeping walk the
	 * groups and read little more than these words of each event, so
	 * they come first, sharing the first cache lines.
	 */
	enum perf_event_state		state;
	int				oncpu;		/* or -1 */
	struct pmu			*pmu;
	struct perf_event_context	*ctx;
	struct perf_event		*group_leader;	/* itself for a leader */
	/* a leader whose group is on a PMU: in ctx->pinned_on/flexible_on */
	struct list_head		group_on_entry;
	/* a leader's members, and a member's node in its leader's list */
	struct list_head		sibling_list;
	struct list_head		sibling_entry;
	int				nr_siblings;
	unsigned int			event_caps;	/* PERF_EV_CAP_* */
	/* a leader's place in the scheduling order (lower goes first) */
	u64				group_seq;
	/* on the CPU's list of active events while ACTIVE */
	struct list_head		active_entry;

	/*
	 * Counting.  The value and the enabled/running times, in ns of
	 * context time; @tstamp is when they were last brought up to date.
	 * Sched in/out update them, read() reports them.
	 */
	local64_t			count;
	u64				tstamp;
	u64				total_time_enabled;
	u64				total_time_running;

	/* the driver's state; its add/del/start/stop/read work on it */
	struct hw_perf_event		hw;
	void				*pmu_private;

	/*
	 * Overflow and output.  What a sample or a read() consults: the
	 * attributes, the record sizes precomputed from them, and the
	 * handler and its ring buffer.  Software events are found through
	 * @hlist_entry (tracepoints likewise) on the same path.
	 */
	struct perf_event_attr		attr;
	u16				read_size;
	u16				header_size;
	u16				id_header_size;
	/* attr.type as opened: the software clocks rewrite attr.type */
	u32				orig_type;
	u64				id;
	u64				(*clock)(void);
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;
#ifdef CONFIG_BPF_SYSCALL
	/* a perf_event program (sampling events) or a trace event's */
	struct bpf_prog			*prog;
	u64				bpf_cookie;
#endif
	struct hlist_node		hlist_entry;
	struct perf_buffer __rcu	*rb;
	atomic64_t			lost_samples;
	/* times throttled (PERF_FORMAT_LOSSES); a copy adds to its original's */
	atomic64_t			throttled;
	atomic_t			event_limit;	/* refresh count left */

	/*
	 * Work an overflow cannot do in NMI or IRQ context: wakeups and
	 * signals and disabling go through @pending_irq; a SIGTRAP goes
	 * through the task work @pending_task on return to user.
	 */
	unsigned int			pending_wakeup;
	unsigned int			pending_kill;
	unsigned int			pending_disable;
	struct irq_work			pending_irq;
	unsigned int			pending_work;
	struct callback_head		pending_task;
	u64				pending_addr;
	/* the context whose nr_pending_sigtrap the queued work holds */
	struct perf_event_context	*pending_ctx;

	/* the file side: poll() waiters, SIGIO, the buffer's mappings */
	wait_queue_head_t		waitq;
	struct fasync_struct		*fasync;
	atomic_t			mmap_count;	/* VMAs mapping rb via us */
	struct list_head		rb_entry;	/* on rb's event list */
	struct file			*filp;

	/* membership of the context's lists (open, close, exit) */
	struct list_head		event_entry;	/* ctx->event_list */
	struct list_head		group_entry;	/* a leader's group index */
	struct list_head		sb_entry;	/* side-band listeners */
	unsigned int			attach_state;	/* PERF_ATTACH_* */
	int				cpu;		/* the CPU asked for */

	/*
	 * Inheritance.  A child (@parent set) is the copy a fork made;
	 * the parent keeps its children and, once they exit, their counts
	 * and times, which read() adds to its own.
	 */
	struct perf_event		*parent;
	/* the AUX event leading the group this member acts on (aux_group.c) */
	struct perf_event		*aux_event;
	/*
	 * Address filters of a tracer (addr_filter.c): the list (the
	 * original's; copies read it through perf_event_addr_filters()),
	 * this event's resolved ranges, and which change they are.
	 */
	struct perf_addr_filters_head	addr_filters;
	struct perf_addr_filter_range	*addr_filter_ranges;
	unsigned long			addr_filters_gen;
	/*
	 * PERF_FLAG_PID_PROCESS and PERF_FLAG_SHARED_BUFFER as opened (our
	 * extensions); a process-wide original is in process.c's table,
	 * hashed by its process's signal_struct (process_key, compared and
	 * never dereferenced).
	 */
	unsigned int			ext_flags;
	struct hlist_node		process_entry;
	const void			*process_key;
	struct mutex			child_mutex;	/* nests in ctx->mutex */
	struct list_head		child_list;
	atomic64_t			child_count;
	atomic64_t			child_total_time_enabled;
	atomic64_t			child_total_time_running;

	/* lifetime: references, the creator task (prctl), teardown */
	atomic_long_t			refcount;
	struct task_struct		*owner;
	struct list_head		owner_entry;
	struct pid_namespace		*ns;
	void (*destroy)(struct perf_event *event);
	struct rcu_head			rcu_head;

	/* optional features */
#ifdef CONFIG_EVENT_TRACING
	struct event_filter		*filter;
	struct trace_event_call		*tp_event;
#ifdef CONFIG_FUNCTION_TRACER
	struct ftrace_ops		ftrace_ops;
#endif
#endif
#ifdef CONFIG_SECURITY
	void				*security;
#endif
#ifdef CONFIG_CGROUP_PERF
	/* PERF_FLAG_PID_CGROUP: counts only for tasks in this cgroup */
	struct perf_cgroup		*cgrp;
#endif
#endif /* CONFIG_PERF_EVENTS */
};

/**
 * for_each_sibling_event - walk the members of a group (not the leader)
 * @sibling: the iterator
 * @event: the group leader
 *
 * Caller holds the leader's ctx->mutex or ctx->lock.
 */
#define for_each_sibling_event(sibling, event)				\
	list_for_each_entry((sibling), &(event)->sibling_list, sibling_entry)

/**
 * struct perf_groups - group leaders of a context, in scheduling order
 * @pinned: groups with attr.pinned
 * @flexible: the others, multiplexed when they do not all fit
 * @sideband: events (members too) that asked for side-band records
 * @cpu: the CPU these groups are bound to, -1 for any
 */
struct perf_groups {
	int				cpu;
	struct list_head		pinned;
	struct list_head		flexible;
	struct list_head		sideband;
};

/**
 * struct perf_event_context - the events of one task or one CPU
 *
 * A task has at most one context (task->perf_event_ctxp) for all PMUs; each
 * CPU has one (in struct perf_cpu_context).  See kernel/events/context.c for
 * the rules.
 */
struct perf_event_context {
	raw_spinlock_t			lock;
	struct mutex			mutex;	/* see the locking rules above */

	/*
	 * Scheduling, read on every switch of the task or tick of the
	 * rotation.  Group leaders are indexed by the CPU they may run on:
	 * @groups for any CPU (every group of a CPU context), @cpu_groups
	 * for the groups of a task context bound to one CPU, @groups_here
	 * the last of those looked up.  @pinned_on and @flexible_on list
	 * the groups on a PMU.  kernel/events/groups.c.
	 */
	int				is_active;
	int				nr_active;
	struct list_head		pinned_on;
	struct list_head		flexible_on;
	struct perf_groups		*groups_here;
	struct perf_groups		groups;
	struct xarray			cpu_groups;
	u64				group_seq;

	/* context time: how long it has been scheduled in, in ns */
	u64				timestamp;
	u64				time;

	/* how many of its events are of each kind */
	int				nr_events;
	int				nr_pinned_hw;
	int				nr_freq;
	int				nr_stat;
	/* events whose counters user space reads directly (arm64 EL0) */
	int				nr_user_read;
	/*
	 * events whose PMU keeps state for the task (PERF_ATTACH_TASK_DATA,
	 * e.g. an LBR call stack): the context never trades tasks
	 */
	int				nr_task_data;
	/* cgroup events (CPU contexts only) */
	int				nr_cgroups;
	struct list_head		event_list;

	/* whose it is, and its lifetime */
	struct task_struct		*task;
	int				cpu;
	refcount_t			refcount;
	struct rcu_head			rcu_head;

	/*
	 * Cloning: a context inherited at fork may be swapped whole with
	 * its parent's at a context switch when neither changed since.
	 */
	u64				generation;
	struct perf_event_context	*parent_ctx;
	u64				parent_gen;
	int				pin_count;
	/*
	 * SIGTRAP task work queued for events of this context and not yet
	 * run: while non-zero the context keeps its task (no cheap swap).
	 */
	atomic_t			nr_pending_sigtrap;
};

/**
 * struct perf_cpu_context - per-CPU core state
 * @ctx: the CPU's own events (pid == -1)
 * @task_ctx: the context of the task running here, while it is scheduled in
 * @online: perf may schedule events on this CPU
 * @rotating: the PMUs whose multiplexing timer is armed on this CPU
 *	(struct perf_pmu_cpu, kernel/events/pmu_cpu.h)
 *
 * All fields are changed on their own CPU with IRQs off.
 */
struct perf_cpu_context {
	struct perf_event_context	ctx;
	struct perf_event_context	*task_ctx;
	int				online;
	struct list_head		rotating;
	/* PMUs that asked for ->sched_task (perf_sched_cb_inc()) */
	struct list_head		sched_cb;
#ifdef CONFIG_CGROUP_PERF
	/* the running task's cgroup, while ctx has cgroup events */
	struct perf_cgroup		*cgrp;
#endif
};

#ifdef CONFIG_CGROUP_PERF
/**
 * struct perf_cgroup_info - a cgroup's time on one CPU
 * @time: how long a task of the cgroup (or below it) has run here, in ns,
 *	while the CPU had cgroup events
 * @timestamp: perf_clock() when @time was last brought up to date
 * @active: @time is advancing
 */
struct perf_cgroup_info {
	u64				time;
	u64				timestamp;
	int				active;
};

/* the perf_event cgroup controller's state of one cgroup */
struct perf_cgroup {
	struct perf_cgroup_info __percpu *info;
	struct cgroup_subsys_state	css;
};

/**
 * perf_cgroup_from_task - @task's cgroup, as the perf_event controller sees it
 * @task: the task
 * @ctx: a context whose lock the caller holds, or NULL
 *
 * Context: rcu_read_lock(), the task's cgroup lock, or @ctx->lock (cgroup
 * moves of a running task reach perf under it).
 */
static inline struct perf_cgroup *
perf_cgroup_from_task(struct task_struct *task, struct perf_event_context *ctx)
{
	struct cgroup_subsys_state *css;

	css = task_css_check(task, perf_event_cgrp_id,
			     !ctx || lockdep_is_held(&ctx->lock));
	return container_of(css, struct perf_cgroup, css);
}
#endif

#ifdef CONFIG_PERF_EVENTS
/* questions about an event's attributes, asked by the core and drivers */

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

static inline bool is_write_backward(struct perf_event *event)
{
	return !!event->attr.write_backward;
}

static inline int is_software_event(struct perf_event *event)
{
	return event->event_caps & PERF_EV_CAP_SOFTWARE;
}

/* does the event count only some privilege levels or some of the time? */
static inline bool event_has_any_exclude_flag(struct perf_event *event)
{
	const struct perf_event_attr *a = &event->attr;

	return a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	       a->exclude_idle || a->exclude_host || a->exclude_guest;
}

/* is @bit (PERF_SAMPLE_*) among what @event's samples carry? */
static inline bool perf_sample_wants(const struct perf_event *event, u64 bit)
{
	return event->attr.sample_type & bit;
}

/* is @bit (PERF_SAMPLE_BRANCH_*) set in @event's branch_sample_type? */
static inline bool perf_branch_sample_has(const struct perf_event *event,
					  u64 bit)
{
	return event->attr.branch_sample_type & bit;
}

static inline bool has_branch_stack(struct perf_event *event)
{
	return perf_sample_wants(event, PERF_SAMPLE_BRANCH_STACK);
}

/* any branch filter at all means the PMU must record branches */
static inline bool needs_branch_stack(struct perf_event *event)
{
	return event->attr.branch_sample_type != 0;
}

static inline bool branch_sample_call_stack(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_CALL_STACK);
}

static inline bool branch_sample_hw_index(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_HW_INDEX);
}

/* what each recorded branch entry should leave out or add */
static inline bool branch_sample_no_flags(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_NO_FLAGS);
}

static inline bool branch_sample_no_cycles(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_NO_CYCLES);
}

static inline bool branch_sample_type(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_TYPE_SAVE);
}

static inline bool branch_sample_priv(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_PRIV_SAVE);
}

static inline bool branch_sample_counters(const struct perf_event *event)
{
	return perf_branch_sample_has(event, PERF_SAMPLE_BRANCH_COUNTERS);
}

/* the SIGIO registration lives on the event the file was opened for */
static inline struct fasync_struct **perf_event_fasync(struct perf_event *event)
{
	struct perf_event *opened = event->parent ?: event;

	return &opened->fasync;
}
#endif /* CONFIG_PERF_EVENTS */

/* branch sampling of these privilege levels needs kernel-profiling rights */
#define PERF_SAMPLE_BRANCH_PERM_PLM \
	(PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

/*
 * ===========================================================================
 * 3. Samples and the ring buffer
 * ===========================================================================
 */

/*
 * A callchain as stored in a sample: nr entries follow.  This layout is
 * copied as is into samples and handed to BPF stack maps: do not change it.
 */
struct perf_callchain_entry {
	__u64		nr;
	__u64		ip[];
};

/**
 * struct perf_callchain_entry_ctx - state while an unwinder fills a callchain
 * @nr: how many ips have been stored
 * @max_stack: how many may be stored
 * @contexts_maxed: the marker limit was reached
 * @contexts: how many PERF_CONTEXT_* markers were stored
 * @entry: the buffer being filled
 */
struct perf_callchain_entry_ctx {
	u32				nr;
	u32				max_stack;
	bool				contexts_maxed;
	short				contexts;
	struct perf_callchain_entry	*entry;
};

/*
 * A branch stack as a sample carries it (PERF_SAMPLE_BRANCH_STACK): the
 * user-visible layout, also what bpf_read_branch_records() copies.  Keep it.
 */
struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
	struct perf_branch_entry	entries[];
};

/* copies @n bytes of a raw payload, starting @skip bytes into @from */
typedef unsigned long (*perf_copy_f)(void *to, const void *from,
				     unsigned long skip, unsigned long n);

/*
 * Raw sample payload, possibly in several fragments.  The last fragment is
 * the one whose @pad is below 8: a real pointer is never that small.  The
 * union must stay the first member: BPF's output helper initialises it
 * positionally.
 */
struct perf_raw_frag {
	union {
		unsigned long		pad;
		struct perf_raw_frag	*next;
	};
	void				*data;
	u32				size;
	perf_copy_f			copy;	/* NULL: memcpy from @data */
} __packed;

static __always_inline bool perf_raw_frag_last(const struct perf_raw_frag *frag)
{
	return frag->pad < 8;
}

/* a whole raw payload: its fragments and their total size */
struct perf_raw_record {
	u32				size;
	struct perf_raw_frag		frag;
};

/**
 * struct perf_sample_data - what an overflow reports
 * @sample_flags: PERF_SAMPLE_* fields already filled by the PMU driver
 * @period: the period that just elapsed
 * @addr: data address for PERF_SAMPLE_ADDR
 * @type: sample_type being built
 * @raw: tracepoint payload
 * @callchain: collected callchain
 *
 * Only perf_sample_data_init() is required of a driver; the rest is filled
 * by the core when the sample is prepared.  What every sample writes
 * comes first (the init fields, the type, the ip), then the ids that every
 * record with sample_id_all carries, so that a plain sample stays within
 * two cache lines; what only some sample types need comes after.
 */
struct perf_sample_data {
	u64				sample_flags;
	u64				period;
	u64				addr;
	u64				dyn_size;
	u64				type;
	u64				ip;

	u64				id;
	u64				stream_id;
	struct {
		u32	cpu;
		u32	reserved;
	}				cpu_entry;
	u64				time;
	struct {
		u32	pid;
		u32	tid;
	}				tid_entry;

	struct perf_callchain_entry	*callchain;
	struct perf_branch_stack	*br_stack;
	u64				*br_stack_cntr;
	struct perf_raw_record		*raw;
	union perf_mem_data_src		data_src;
	union perf_sample_weight	weight;
	u64				txn;
	u64				phys_addr;
	u64				data_page_size;
	u64				cgroup;
	u64				aux_size;
	u64				code_page_size;
} ____cacheline_aligned;

/* default data_src for PMUs that do not know */
#define PERF_MEM_NA	(PERF_MEM_S(LVLNUM, NA) | PERF_MEM_S(LVL, NA) |	\
			 PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |	\
			 PERF_MEM_S(TLB, NA) | PERF_MEM_S(OP, NA))

/**
 * perf_sample_data_init - start describing an overflow
 * @data: the sample data, usually on the stack of the IRQ handler
 * @addr: the data address, or 0
 * @period: the period that elapsed
 *
 * Context: any, including NMI.
 */
static inline void perf_sample_data_init(struct perf_sample_data *data,
					 u64 addr, u64 period)
{
	data->period = period;
	data->addr = addr;
	data->dyn_size = 0;
	/* a zero address is "none": the core fills in its own if asked */
	data->sample_flags = addr ? PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR :
				    PERF_SAMPLE_PERIOD;
}

/*
 * Reset the flag bits of a branch entry before a driver fills them in:
 * everything but the addresses and the new_type/priv classification goes
 * to zero, and the speculation outcome to "not available".
 */
static inline void perf_clear_branch_entry_bitfields(struct perf_branch_entry *br)
{
	*br = (struct perf_branch_entry) {
		.from		= br->from,
		.to		= br->to,
		.new_type	= br->new_type,
		.priv		= br->priv,
		.spec		= PERF_BR_SPEC_NA,
	};
}

#ifdef CONFIG_PERF_EVENTS
/**
 * perf_sample_save_brstack - attach a branch stack to a sample
 * @data: the sample
 * @event: the event it is for
 * @stack: the branch stack
 * @counters: per-branch counters, or NULL
 *
 * Nothing happens unless @event samples PERF_SAMPLE_BRANCH_STACK.
 */
static inline void perf_sample_save_brstack(struct perf_sample_data *data,
					    struct perf_event *event,
					    struct perf_branch_stack *stack,
					    u64 *counters)
{
	if (has_branch_stack(event)) {
		data->br_stack = stack;
		data->br_stack_cntr = counters;
		data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}
}

/**
 * perf_sample_save_raw_data - attach a raw payload to a sample
 * @data: the sample
 * @event: the event it is for
 * @raw: the payload
 *
 * Nothing happens unless @event samples PERF_SAMPLE_RAW.
 */
static inline void perf_sample_save_raw_data(struct perf_sample_data *data,
					     struct perf_event *event,
					     struct perf_raw_record *raw)
{
	if (perf_sample_wants(event, PERF_SAMPLE_RAW)) {
		data->raw = raw;
		data->sample_flags |= PERF_SAMPLE_RAW;
	}
}
#endif /* CONFIG_PERF_EVENTS */

/*
 * Where a record is being written in the ring buffer.  The copy cursor
 * (@addr, @size, @page) comes first: perf_output_put() updates it for each
 * field of a record.
 *
 * An AUX transaction (perf_aux_output_begin() to perf_aux_output_end())
 * uses the same handle differently: @head is the AUX position the driver
 * writes at, @size the room it has there, @wakeup the position at which
 * the reader wants waking and @aux_flags the PERF_AUX_FLAG_* of the
 * PERF_RECORD_AUX that ends it; @event is NULL outside a transaction.
 */
struct perf_output_handle {
	union {
		void			*addr;		/* ring buffer */
		unsigned long		head;		/* AUX area */
	};
	unsigned long			size;
	int				page;
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			start;		/* record's offset */
	unsigned long			wakeup;
	u64				aux_flags;
};

#ifdef CONFIG_PERF_EVENTS
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size);
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len);
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len);
void perf_output_end(struct perf_output_handle *handle);

/*
 * A record's fixed-size fields: while a field fits in the current page
 * (almost always), copy it inline, where the compiler turns the constant-
 * size memcpy() into a move; perf_output_copy() handles page crossings.
 * Context: any, including NMI, inside perf_output_begin()/_end().
 */
static __always_inline void __perf_output_put(struct perf_output_handle *handle,
					      const void *buf, unsigned int len)
{
	if (likely(len < handle->size)) {
		memcpy(handle->addr, buf, len);
		handle->addr += len;
		handle->size -= len;
	} else {
		perf_output_copy(handle, buf, len);
	}
}

/* sample output; drivers call perf_event_overflow() */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs);
int perf_event_account_interrupt(struct perf_event *event);
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs);
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs);

/**
 * is_default_overflow_handler - does the event write samples to its buffer?
 * @event: the event
 *
 * arm64's breakpoint code single-steps over a hit only for events whose
 * handler is the core's own output function.
 */
static inline bool is_default_overflow_handler(struct perf_event *event)
{
	perf_overflow_handler_t h = READ_ONCE(event->overflow_handler);

	return h == perf_event_output_forward ||
	       h == perf_event_output_backward;
}

void perf_event_update_userpage(struct perf_event *event);
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now);

/**
 * perf_event_addr_filters - the address filters an event follows
 * @event: the event; an inherited copy follows its parent's
 */
static inline struct perf_addr_filters_head *
perf_event_addr_filters(struct perf_event *event)
{
	return event->parent ? &event->parent->addr_filters :
			       &event->addr_filters;
}

void perf_event_addr_filters_sync(struct perf_event *event);

/* the AUX area, for drivers of hardware tracers (kernel/events/rb_aux.c) */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event);
void perf_aux_output_end(struct perf_output_handle *handle,
			 unsigned long size);
int perf_aux_output_skip(struct perf_output_handle *handle,
			 unsigned long size);
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags);
void *perf_get_aux(struct perf_output_handle *handle);
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id);
void perf_event_itrace_started(struct perf_event *event);
#else
static inline void *perf_aux_output_begin(struct perf_output_handle *handle,
					  struct perf_event *event)
{
	return NULL;
}

static inline void perf_aux_output_end(struct perf_output_handle *handle,
				       unsigned long size)
{
}

static inline int perf_aux_output_skip(struct perf_output_handle *handle,
				       unsigned long size)
{
	return -EINVAL;
}

static inline void perf_aux_output_flag(struct perf_output_handle *handle,
					u64 flags)
{
}

static inline void *perf_get_aux(struct perf_output_handle *handle)
{
	return NULL;
}

static inline void perf_report_aux_output_id(struct perf_event *event,
					     u64 hw_id)
{
}
#endif /* CONFIG_PERF_EVENTS */

#define perf_output_put(handle, x) __perf_output_put((handle), &(x), sizeof(x))

/* the context of a BPF_PROG_TYPE_PERF_EVENT program; BPF reads it by offsetof */
struct bpf_perf_event_data_kern {
	struct perf_event		*event;
	struct perf_sample_data		*data;
	bpf_user_pt_regs_t		*regs;
};

/* the registers a BPF perf_event program sees, where the arch differs */
#ifndef perf_arch_bpf_user_pt_regs
#define perf_arch_bpf_user_pt_regs(regs) regs
#endif

/*
 * bpf_get_branch_snapshot(): a PMU with a branch stack installs its reader
 * here; none of ours has one, so it stays "return 0 entries".
 */
typedef int (perf_snapshot_branch_stack_t)(struct perf_branch_entry *buf,
					   unsigned int nr);
DECLARE_STATIC_CALL(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

/*
 * ===========================================================================
 * 4. Entry points for the rest of the kernel, by caller
 * ===========================================================================
 */

/* --- the task's life: fork, exec, exit (kernel/fork.c, exit.c, exec.c) --- */
#ifdef CONFIG_PERF_EVENTS
int perf_event_init_task(struct task_struct *child, u64 clone_flags);
void perf_event_free_task(struct task_struct *task);
void perf_event_exit_task(struct task_struct *child);
void perf_event_delayed_put(struct task_struct *task);
void perf_event_exec(void);
/* prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE) */
int perf_event_task_enable(void);
int perf_event_task_disable(void);
#else
static inline void perf_event_delayed_put(struct task_struct *task)	{ }
static inline void perf_event_exit_task(struct task_struct *child)	{ }
static inline void perf_event_free_task(struct task_struct *task)	{ }
static inline int perf_event_init_task(struct task_struct *child,
				       u64 clone_flags)		{ return 0; }
static inline int perf_event_task_enable(void)				{ return -EINVAL; }
static inline int perf_event_task_disable(void)				{ return -EINVAL; }
static inline void perf_event_exec(void)				{ }
#endif

/* --- side-band records (PERF_RECORD_MMAP, COMM, FORK, KSYMBOL, ...) --- */
typedef int (perf_ksymbol_get_name_f)(char *name, int name_len, void *data);
#ifdef CONFIG_PERF_EVENTS
void perf_event_fork(struct task_struct *tsk);
void perf_event_comm(struct task_struct *tsk, bool exec);
void perf_event_namespaces(struct task_struct *tsk);
void perf_event_mmap(struct vm_area_struct *vma);
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name);
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags);
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len);
#else
static inline void perf_event_mmap(struct vm_area_struct *vma)		{ }
static inline void perf_event_fork(struct task_struct *tsk)		{ }
static inline void perf_event_namespaces(struct task_struct *tsk)	{ }
static inline void perf_event_comm(struct task_struct *tsk, bool exec)	{ }
static inline void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
				      bool unregister, const char *name) { }
static inline void perf_event_text_poke(const void *addr,
					const void *old_bytes, size_t old_len,
					const void *new_bytes, size_t new_len)
{
}

static inline void perf_event_bpf_event(struct bpf_prog *prog,
					enum perf_bpf_event_type type,
					u16 flags)
{
}
#endif

/* --- software events (the scheduler, page faults, alignment fixups, ...) --- */
#ifdef CONFIG_PERF_EVENTS
extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
/* the same without the recursion guard, for callers that hold it */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
int perf_swevent_get_recursion_context(void);
void perf_swevent_put_recursion_context(int rctx);
u64 perf_swevent_set_period(struct perf_event *event);
/* scratch registers for events raised without a trap frame, per nesting */
DECLARE_PER_CPU(struct pt_regs, __perf_regs[4]);

/* is anybody counting software event @swevt? (a patched jump, no load) */
static __always_inline bool __perf_sw_enabled(int swevt)
{
	return static_key_false(&perf_swevent_enabled[swevt]);
}

/**
 * perf_sw_event - count a software event
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many
 * @regs: the registers to sample, or NULL
 * @addr: data address for the sample, or 0
 *
 * Free when no event of that kind exists (a static key guards it).
 */
static __always_inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	if (!__perf_sw_enabled(event_id))
		return;
	__perf_sw_event(event_id, nr, regs, addr);
}

#ifndef perf_arch_fetch_caller_regs
static inline void perf_arch_fetch_caller_regs(struct pt_regs *regs,
					       unsigned long ip) { }
#endif

/**
 * perf_fetch_caller_regs - registers good enough to sample the caller
 * @regs: filled with the caller's ip, and sp/fp where the arch provides them
 *
 * For software events raised where no real register frame exists.
 */
static inline void perf_fetch_caller_regs(struct pt_regs *regs)
{
	perf_arch_fetch_caller_regs(regs, CALLER_ADDR0);
}
#else
static inline int  perf_swevent_get_recursion_context(void)		{ return -1; }
static inline void perf_swevent_put_recursion_context(int rctx)		{ }
static inline u64 perf_swevent_set_period(struct perf_event *event)	{ return 0; }
static inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)	{ }
#endif

/* --- the scheduler (kernel/sched/core.c) --- */
#ifdef CONFIG_PERF_EVENTS
/* enabled while any per-task event exists: the context-switch hooks */
extern struct static_key_false perf_sched_events;

void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task);
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next);
void perf_event_task_tick(void);
/* @pmu->sched_task on this CPU's context switches, counted (IRQs off) */
void perf_sched_cb_inc(struct pmu *pmu);
void perf_sched_cb_dec(struct pmu *pmu);

/*
 * A software event raised by the scheduler itself, which is not a trap:
 * sample the code that called into it.  The scheduler runs with the
 * recursion guard's context already taken, hence ___perf_sw_event().
 */
static __always_inline void perf_sw_event_sched(u32 event_id, u64 nr, u64 addr)
{
	struct pt_regs *caller = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(caller);
	___perf_sw_event(event_id, nr, caller, addr);
}

/* does switching from @prev to @next change the perf cgroup? */
static __always_inline bool perf_sched_crosses_cgroup(struct task_struct *prev,
						      struct task_struct *next)
{
#ifdef CONFIG_CGROUP_PERF
	return perf_cgroup_from_task(prev, NULL) !=
	       perf_cgroup_from_task(next, NULL);
#else
	return false;
#endif
}

/*
 * Called by prepare_task_switch() with the runqueue lock held and IRQs
 * off.  The switch counts go first, while @prev's events still count.
 */
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0);
	if (__perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES) &&
	    perf_sched_crosses_cgroup(prev, next))
		perf_sw_event_sched(PERF_COUNT_SW_CGROUP_SWITCHES, 1, 0);

	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_out(prev, next);
}

/*
 * Called by finish_task_switch(), the runqueue lock still held and IRQs
 * still off.  @next is the task now running; its events go on before its
 * migration is counted.
 */
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *next)
{
	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_in(prev, next);

	if (!__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS) ||
	    !next->sched_migrated)
		return;
	next->sched_migrated = 0;
	perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS, 1, 0);
}

/*
 * Migrations are noted when the task moves and counted, against the new
 * CPU, when it first runs there.
 */
static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		task->sched_migrated = 1;
}
#else
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)	{ }
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)	{ }
static inline void perf_event_task_migrate(struct task_struct *task)	{ }
static inline void perf_event_task_tick(void)				{ }
#endif

/* --- tracepoints and breakpoints --- */
#ifdef CONFIG_PERF_EVENTS
/* include/trace/perf.h, kernel/trace/trace_event_perf.c */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task);
/* the arch's #DB handler reports a hit */
void perf_bp_event(struct perf_event *event, void *data);
#else
static inline void
perf_bp_event(struct perf_event *event, void *data)			{ }
#endif

/* --- kernel users of events (breakpoints, watchdogs, KVM, BPF) --- */
#ifdef CONFIG_PERF_EVENTS
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback, void *context);
int perf_event_release_kernel(struct perf_event *event);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
void perf_event_disable_local(struct perf_event *event);
void perf_event_disable_inatomic(struct perf_event *event);
int perf_event_refresh(struct perf_event *event, int refresh);
int perf_event_period(struct perf_event *event, u64 value);
u64 perf_event_pause(struct perf_event *event, bool reset);
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running);
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);
/* from a perf_event_open() file descriptor */
struct file *perf_event_get(unsigned int fd);
const struct perf_event *perf_get_event(struct file *file);
const struct perf_event_attr *perf_event_attrs(struct perf_event *event);
#else
static inline void perf_event_disable(struct perf_event *event)		{ }
static inline void perf_event_enable(struct perf_event *event)		{ }
static inline int perf_event_release_kernel(struct perf_event *event)	{ return 0; }

static inline int perf_event_read_local(struct perf_event *event, u64 *value,
					u64 *enabled, u64 *running)
{
	return -EINVAL;
}

static inline u64 perf_event_pause(struct perf_event *event, bool reset)
{
	return 0;
}

static inline int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}

static inline int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}

static inline const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return ERR_PTR(-EINVAL);
}

static inline const struct perf_event *perf_get_event(struct file *file)
{
	return ERR_PTR(-EINVAL);
}

static inline struct file *perf_event_get(unsigned int fd)
{
	return ERR_PTR(-EINVAL);
}
#endif

/* --- callchains (the core, BPF stack maps, arch unwinders) --- */
#ifdef CONFIG_PERF_EVENTS
extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;
/* both limits above share it; -EBUSY while callchain buffers are in use */
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos);

struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs);
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark);
int get_callchain_buffers(int max_stack);
void put_callchain_buffers(void);
struct perf_callchain_entry *get_callchain_entry(int *rctx);
void put_callchain_entry(int rctx);
/* the arch's unwinders, called by get_perf_callchain() */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs);
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs);

/**
 * perf_callchain_store_context - store a PERF_CONTEXT_* marker
 * @ctx: the callchain being built
 * @ip: the marker
 *
 * Return: 0 when stored, -1 when the marker or entry limit was reached.
 */
static inline int perf_callchain_store_context(struct perf_callchain_entry_ctx *ctx,
					       u64 ip)
{
	if (ctx->contexts < sysctl_perf_event_max_contexts_per_stack) {
		ctx->entry->ip[ctx->entry->nr++] = ip;
		++ctx->contexts;
		return 0;
	}
	ctx->contexts_maxed = true;
	return -1;
}

/**
 * perf_callchain_store - store one return address
 * @ctx: the callchain being built
 * @ip: the address
 *
 * Return: 0 when stored, -1 when the callchain is full (stop unwinding).
 */
static inline int perf_callchain_store(struct perf_callchain_entry_ctx *ctx,
				       u64 ip)
{
	if (ctx->nr < ctx->max_stack && !ctx->contexts_maxed) {
		ctx->entry->ip[ctx->entry->nr++] = ip;
		++ctx->nr;
		return 0;
	}
	return -1;
}
#endif /* CONFIG_PERF_EVENTS */

/* --- sysctls (kernel/sysctl.c) and the permission checks they drive --- */
#ifdef CONFIG_PERF_EVENTS
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;

int perf_event_max_sample_rate_handler(const struct ctl_table *table, int write,
				       void *buffer, size_t *lenp,
				       loff_t *ppos);
int perf_cpu_time_max_percent_handler(const struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos);
/* the overflow path reports how long a sample took, for the rate limit */
void perf_sample_event_took(u64 sample_len_ns);

/* what an open asks for, as the LSM hook security_perf_event_open() sees it */
#define PERF_SECURITY_OPEN		0
#define PERF_SECURITY_TRACEPOINT	3
#define PERF_SECURITY_CPU		1
#define PERF_SECURITY_KERNEL		2

/*
 * perf_event_paranoid: 3 and above (a distribution's level) needs
 * CAP_PERFMON for any open (Debian's patch asks for CAP_SYS_ADMIN); 2
 * forbids kernel profiling, 1 CPU-wide events, 0 raw tracepoint data to
 * unprivileged users; -1 allows all.
 */
extern int sysctl_perf_event_paranoid;

static inline bool perf_paranoid_any(void)
{
	return sysctl_perf_event_paranoid > 2;
}

static inline int perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid >= 0;
}

/*
 * An unprivileged caller (no CAP_PERFMON) is refused with @err once the
 * paranoia level is above @allowed_up_to; anyone else still has to pass
 * the LSM, asked about @what (PERF_SECURITY_*).
 */
static inline int perf_paranoid_gate(int allowed_up_to, int err, int what)
{
	bool refused = sysctl_perf_event_paranoid > allowed_up_to &&
		       !perfmon_capable();

	return refused ? err : security_perf_event_open(what);
}

static inline int perf_allow_cpu(void)
{
	return perf_paranoid_gate(0, -EACCES, PERF_SECURITY_CPU);
}

static inline int perf_allow_tracepoint(void)
{
	return perf_paranoid_gate(-1, -EPERM, PERF_SECURITY_TRACEPOINT);
}

int perf_allow_kernel(void);
#endif /* CONFIG_PERF_EVENTS */

/* --- boot and CPU hotplug ("perf:prepare", "perf:online") --- */
#ifdef CONFIG_PERF_EVENTS
void perf_event_init(void);
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);
#else
static inline void perf_event_init(void)				{ }
#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL
#endif

/*
 * ===========================================================================
 * 5. Hypervisor and architecture hooks
 * ===========================================================================
 */

/**
 * struct perf_guest_info_callbacks - what a hypervisor tells perf about a guest
 * @get_ip: the guest instruction pointer
 * @state: PERF_GUEST_* bits for the current CPU
 * @handle_intel_pt_intr: Intel PT interrupt forwarding
 */
struct perf_guest_info_callbacks {
	unsigned long	(*get_ip)(void);
	unsigned int	(*state)(void);
	unsigned int	(*handle_intel_pt_intr)(void);
};

/* perf_guest_state(): a guest is running, and in its user mode */
#define PERF_GUEST_USER		BIT(1)
#define PERF_GUEST_ACTIVE	BIT(0)

#ifdef CONFIG_GUEST_PERF_EVENTS
/*
 * What the registered hypervisor says about the interrupted context (0
 * with none registered): static calls, as samples ask on every overflow.
 * kernel/events/guest.c. (perf_guest_cbs_type only names the callbacks'
 * function types for the static call declarations; it is never used.)
 */
#define perf_guest_cbs_type	((struct perf_guest_info_callbacks *)NULL)
DECLARE_STATIC_CALL(perf_guest_state_call, *perf_guest_cbs_type->state);
DECLARE_STATIC_CALL(perf_guest_get_ip_call, *perf_guest_cbs_type->get_ip);
DECLARE_STATIC_CALL(perf_guest_pt_intr_call, *perf_guest_cbs_type->handle_intel_pt_intr);

static inline unsigned int perf_guest_state(void)
{
	return static_call(perf_guest_state_call)();
}

static inline unsigned long perf_guest_get_ip(void)
{
	return static_call(perf_guest_get_ip_call)();
}

static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{
	return static_call(perf_guest_pt_intr_call)();
}

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
#else
/* no hypervisor integration is built */
static inline unsigned int perf_guest_state(void)		 { return 0; }
static inline unsigned long perf_guest_get_ip(void)		 { return 0; }
static inline unsigned int perf_guest_handle_intel_pt_intr(void) { return 0; }
#endif

/*
 * Architectures without their own: a sample is a user one when the
 * interrupted context was in user mode.
 */
#ifndef perf_misc_flags
#define perf_instruction_pointer(regs)	instruction_pointer(regs)
#define perf_misc_flags(regs)						\
	(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)
#endif

#ifdef CONFIG_PERF_EVENTS
/* SysRq-P and friends: dump this CPU's PMU registers */
void perf_event_print_debug(void);
#else
static inline void perf_event_print_debug(void)				{ }
#endif

/* x86: reload the DS area pointer after resume */
#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_CPU_SUP_INTEL)
void perf_restore_debug_store(void);
#else
static inline void perf_restore_debug_store(void)			{ }
#endif

/* the idle loop's low-power notification, for PMUs that stop in it */
#ifndef PERF_NEEDS_LOPWR_CB
static inline void perf_lopwr_cb(bool entering_lopwr)
{
}
#endif

#endif /* _LINUX_PERF_EVENT_H */
