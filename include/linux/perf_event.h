/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Performance events: the kernel-internal interface.
 *
 * This header is what the rest of the kernel sees of perf_events: the
 * scheduler and fork/exit/exec hooks, the software-event and tracepoint
 * entry points, the breakpoint layer, and the interface PMU drivers plug
 * into (struct pmu).  The implementation lives in kernel/events/; its
 * private structures are in kernel/events/internal.h.
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

#include <uapi/linux/perf_event.h>
#include <uapi/linux/bpf_perf_event.h>

#ifdef CONFIG_PERF_EVENTS
# include <asm/perf_event.h>
# include <asm/local64.h>
#endif

#ifdef CONFIG_HAVE_HW_BREAKPOINT
# include <linux/rhashtable-types.h>
# include <asm/hw_breakpoint.h>
#endif

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/hrtimer.h>
#include <linux/fs.h>
#include <linux/pid_namespace.h>
#include <linux/workqueue.h>
#include <linux/ftrace.h>
#include <linux/cpu.h>
#include <linux/irq_work.h>
#include <linux/static_key.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/atomic.h>
#include <linux/sysfs.h>
#include <linux/perf_regs.h>
#include <linux/cgroup.h>
#include <linux/refcount.h>
#include <linux/xarray.h>
#include <linux/security.h>
#include <linux/static_call.h>
#include <linux/lockdep.h>
#include <asm/local.h>

/* Guest state reported by a hypervisor's callbacks (perf_guest_state()). */
#define PERF_GUEST_ACTIVE	0x01
#define PERF_GUEST_USER		0x02

/**
 * struct perf_guest_info_callbacks - what a hypervisor tells perf about a guest
 * @state: PERF_GUEST_* bits for the current CPU
 * @get_ip: the guest instruction pointer
 * @handle_intel_pt_intr: Intel PT interrupt forwarding
 */
struct perf_guest_info_callbacks {
	unsigned int	(*state)(void);
	unsigned long	(*get_ip)(void);
	unsigned int	(*handle_intel_pt_intr)(void);
};

/* A callchain as stored in a sample: nr entries follow. */
struct perf_callchain_entry {
	__u64		nr;
	__u64		ip[];
};

/**
 * struct perf_callchain_entry_ctx - state while an unwinder fills a callchain
 * @entry: the buffer being filled
 * @max_stack: how many ips may be stored
 * @nr: how many have been stored
 * @contexts: how many PERF_CONTEXT_* markers were stored
 * @contexts_maxed: the marker limit was reached
 */
struct perf_callchain_entry_ctx {
	struct perf_callchain_entry	*entry;
	u32				max_stack;
	u32				nr;
	short				contexts;
	bool				contexts_maxed;
};

typedef unsigned long (*perf_copy_f)(void *dst, const void *src,
				     unsigned long off, unsigned long len);

/*
 * Raw sample payload, possibly in several fragments.  The last fragment is
 * the one whose @pad is below 8: a real pointer is never that small.
 */
struct perf_raw_frag {
	union {
		struct perf_raw_frag	*next;
		unsigned long		pad;
	};
	perf_copy_f			copy;
	void				*data;
	u32				size;
} __packed;

struct perf_raw_record {
	struct perf_raw_frag		frag;
	u32				size;
};

static __always_inline bool perf_raw_frag_last(const struct perf_raw_frag *frag)
{
	return frag->pad < sizeof(u64);
}

struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
	struct perf_branch_entry	entries[];
};

struct task_struct;
struct perf_event;
struct perf_event_context;
struct perf_buffer;
struct perf_sample_data;
struct perf_output_handle;
struct bpf_prog;
struct file;

/* An extra register some x86 events program besides the event selector. */
struct hw_perf_event_extra {
	u64		config;
	unsigned int	reg;
	int		alloc;
	int		idx;
};

/* Flags in hw_perf_event::flags: the low bits are the arch's own. */
#define PERF_EVENT_FLAG_ARCH			0x000fffff
#define PERF_EVENT_FLAG_USER_READ_CNT		0x80000000

/**
 * struct hw_perf_event - the PMU driver's per-event state
 *
 * The anonymous union holds what one kind of PMU needs: counters for
 * hardware PMUs, an hrtimer for the clock events, a list node for
 * tracepoints, the arch breakpoint description for breakpoints.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	union {
		struct { /* hardware counters */
			u64		config;
			u64		last_tag;
			unsigned long	config_base;
			unsigned long	event_base;
			int		event_base_rdpmc;
			int		idx;
			int		last_cpu;
			int		flags;
			struct hw_perf_event_extra extra_reg;
			struct hw_perf_event_extra branch_reg;
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

	/* PERF_HES_* bits: start/stop state as the PMU sees it */
#define PERF_HES_STOPPED	0x01	/* not counting */
#define PERF_HES_UPTODATE	0x02	/* event->count holds the latest value */
#define PERF_HES_ARCH		0x04
	int				state;

	/* the raw counter value at the last update */
	local64_t			prev_count;

	/* sampling: the programmed period and what is left of it */
	u64				sample_period;
	u64				last_period;
	local64_t			period_left;

	/* throttling: overflows seen in the current tick */
	u64				interrupts_seq;
	u64				interrupts;

	/* frequency mode: where the last period adjustment started */
	u64				freq_time_stamp;
	u64				freq_count_stamp;
#endif
};

/* Transaction kinds for start_txn: add a group, or read a group. */
#define PERF_PMU_TXN_ADD	0x1
#define PERF_PMU_TXN_READ	0x2

/* struct pmu::capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT		0x0001
#define PERF_PMU_CAP_NO_NMI			0x0002
#define PERF_PMU_CAP_AUX_NO_SG			0x0004
#define PERF_PMU_CAP_EXTENDED_REGS		0x0008
#define PERF_PMU_CAP_EXCLUSIVE			0x0010
#define PERF_PMU_CAP_ITRACE			0x0020
#define PERF_PMU_CAP_NO_EXCLUDE			0x0040
#define PERF_PMU_CAP_AUX_OUTPUT			0x0080
#define PERF_PMU_CAP_EXTENDED_HW_TYPE		0x0100
#define PERF_PMU_CAP_AUX_PAUSE			0x0200
#define PERF_PMU_CAP_AUX_PREFER_LARGE		0x0400
/*
 * User access to the counters follows the running task's context: the
 * core counts the context's PERF_EVENT_FLAG_USER_READ_CNT events and
 * calls ->pmu_enable when it goes (perf_running_task_reads_counters()).
 */
#define PERF_PMU_CAP_USER_READ_CTX		0x0800

/* a pmu that wants no sysfs device */
#define PMU_NULL_DEV	((void *)(~0UL))

/* flags for pmu::add and pmu::start/stop */
#define PERF_EF_START	0x01	/* add: start counting right away */
#define PERF_EF_RELOAD	0x02	/* start: reprogram the period first */
#define PERF_EF_UPDATE	0x04	/* stop: fold the hardware value into count */

/**
 * struct pmu - a performance monitoring unit, as drivers describe it
 * @entry: the core's list of registered PMUs
 * @module: owner, pinned while events of this PMU exist
 * @dev: the sysfs device (NULL until registered, PMU_NULL_DEV for none)
 * @parent: parent device for sysfs
 * @attr_groups: sysfs groups: format/, events/, caps/ and driver specifics
 * @attr_update: groups whose visibility is decided per attribute
 * @name: the sysfs name, set by perf_pmu_register()
 * @type: the perf_event_attr::type value that selects this PMU
 * @capabilities: PERF_PMU_CAP_* bits
 * @scope: PERF_PMU_SCOPE_*: the CPUs one instance of the PMU serves (a
 *	core, die, cluster, package or the machine); the core then shows
 *	the CPU that carries its events as sysfs "cpumask" and moves them
 *	when that CPU goes offline (kernel/events/scope.c)
 * @task_ctx_nr: perf_hw_context for PMUs with counters, perf_sw_context for
 *	PMUs that can always schedule, perf_invalid_context for uncore-like
 *	PMUs that refuse per-task events
 * @hrtimer_interval_ms: multiplexing rotation interval
 * @pmu_disable_count: per-CPU nesting count of perf_pmu_disable()
 * @pmu_cpu_context: per-CPU multiplexing state of this PMU (struct
 *	perf_rotation, kernel/events/rotate.c only)
 * @nr_addr_filters: number of address filters the PMU supports
 * @pmu_enable: re-enable the PMU after pmu_disable (IRQs off)
 * @pmu_disable: freeze every counter of the PMU on this CPU (IRQs off)
 * @event_init: claim and validate an event; -ENOENT when it is not ours
 * @event_mapped: a task mmapped the event's buffer
 * @event_unmapped: the mapping went away
 * @add: put the event on a counter of this CPU; start it with PERF_EF_START
 * @del: take it off; stop it with PERF_EF_UPDATE first
 * @start: start counting; PERF_EF_RELOAD reprograms the period
 * @stop: stop counting; PERF_EF_UPDATE folds the counter into event->count
 * @read: fold the current hardware value into event->count
 * @start_txn: begin a group transaction (PERF_PMU_TXN_*)
 * @commit_txn: check the group fits; 0 or -EAGAIN
 * @cancel_txn: undo the transaction
 * @event_idx: the rdpmc index + 1 for user-space reads, 0 for none
 * @sched_task: context-switch callback for PMUs that asked for it
 * @check_period: refuse a period the hardware cannot take
 * @filter: return true to refuse scheduling on the current CPU
 */
/**
 * enum perf_pmu_scope - what one instance of a PMU counts for
 * @PERF_PMU_SCOPE_NONE: per CPU, or the driver looks after CPUs itself
 * @PERF_PMU_SCOPE_CORE: the SMT siblings of one core
 * @PERF_PMU_SCOPE_DIE: one die
 * @PERF_PMU_SCOPE_CLUSTER: one cluster (CPUs sharing an L2, on arm64)
 * @PERF_PMU_SCOPE_PKG: one package (socket)
 * @PERF_PMU_SCOPE_SYS_WIDE: the whole machine (an IOMMU, a DMA engine)
 * @PERF_PMU_MAX_SCOPE: the number of scopes
 */
enum perf_pmu_scope {
	PERF_PMU_SCOPE_NONE	= 0,
	PERF_PMU_SCOPE_CORE,
	PERF_PMU_SCOPE_DIE,
	PERF_PMU_SCOPE_CLUSTER,
	PERF_PMU_SCOPE_PKG,
	PERF_PMU_SCOPE_SYS_WIDE,
	PERF_PMU_MAX_SCOPE,
};

struct pmu {
	struct list_head		entry;
	struct module			*module;
	struct device			*dev;
	struct device			*parent;
	const struct attribute_group	**attr_groups;
	const struct attribute_group	**attr_update;
	const char			*name;
	int				type;
	int				capabilities;
	unsigned int			scope;
	int __percpu			*pmu_disable_count;
	void __percpu			*pmu_cpu_context;
	atomic_t			exclusive_cnt;
	int				task_ctx_nr;
	int				hrtimer_interval_ms;
	unsigned int			nr_addr_filters;

	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	int (*event_init)(struct perf_event *event);
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void (*start_txn)(struct pmu *pmu, unsigned int txn_flags);
	int (*commit_txn)(struct pmu *pmu);
	void (*cancel_txn)(struct pmu *pmu);
	int (*event_idx)(struct perf_event *event);
	void (*sched_task)(struct perf_event_context *ctx, bool sched_in);
	int (*check_period)(struct perf_event *event, u64 value);
	bool (*filter)(struct pmu *pmu, int cpu);
};

/**
 * enum perf_event_state - where an event is in its life
 * @PERF_EVENT_STATE_DEAD: released; no longer in any context
 * @PERF_EVENT_STATE_EXIT: its task exited (read and poll see POLLHUP)
 * @PERF_EVENT_STATE_ERROR: a pinned group that could not be scheduled
 * @PERF_EVENT_STATE_OFF: disabled
 * @PERF_EVENT_STATE_INACTIVE: enabled, not on a counter right now
 * @PERF_EVENT_STATE_ACTIVE: counting on a CPU
 */
enum perf_event_state {
	PERF_EVENT_STATE_DEAD		= -4,
	PERF_EVENT_STATE_EXIT		= -3,
	PERF_EVENT_STATE_ERROR		= -2,
	PERF_EVENT_STATE_OFF		= -1,
	PERF_EVENT_STATE_INACTIVE	=  0,
	PERF_EVENT_STATE_ACTIVE		=  1,
};

typedef void (*perf_overflow_handler_t)(struct perf_event *,
					struct perf_sample_data *,
					struct pt_regs *regs);

/* event->event_caps */
#define PERF_EV_CAP_SOFTWARE		BIT(0)
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)
#define PERF_EV_CAP_SIBLING		BIT(2)
#define PERF_EV_CAP_READ_SCOPE		BIT(3)

/* event->attach_state: which lists the event is on */
#define PERF_ATTACH_CONTEXT	0x0001
#define PERF_ATTACH_GROUP	0x0002
#define PERF_ATTACH_TASK	0x0004
#define PERF_ATTACH_TASK_DATA	0x0008
#define PERF_ATTACH_ITRACE	0x0010
#define PERF_ATTACH_SCHED_CB	0x0020
#define PERF_ATTACH_CHILD	0x0040
#define PERF_ATTACH_EXCLUSIVE	0x0080
#define PERF_ATTACH_CALLCHAIN	0x0100

/**
 * struct perf_event - one counter, as opened by perf_event_open() or by a
 * kernel user such as the breakpoint layer
 *
 * Fields read outside kernel/events/ keep the names the rest of the tree
 * uses (attr, hw, pmu, ctx, parent, overflow_handler, tp_event, filter,
 * hlist_entry, ftrace_ops, attach_state).  Everything else is the core's.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/* in ctx->event_list (every event of the context, siblings too) */
	struct list_head		event_entry;
	/* a leader: in its context's group index (kernel/events/groups.c) */
	struct list_head		group_entry;
	/* a leader whose group is on a PMU: in ctx->pinned_on/flexible_on */
	struct list_head		group_on_entry;
	/* a leader's place in the scheduling order (lower goes first) */
	u64				group_seq;
	/* wants side-band records: on its bucket's sideband list */
	struct list_head		sb_entry;
	/* a leader's members, and a member's node in its leader's list */
	struct list_head		sibling_list;
	struct list_head		sibling_entry;
	/* on the CPU's list of active events while ACTIVE */
	struct list_head		active_entry;
	/* software events on their CPU's hash list; tracepoints likewise */
	struct hlist_node		hlist_entry;
	int				nr_siblings;
	struct perf_event		*group_leader;
	struct pmu			*pmu;
	void				*pmu_private;

	enum perf_event_state		state;
	unsigned int			attach_state;
	local64_t			count;
	atomic64_t			child_count;

	/* times in ns; tstamp is the context time of the last update */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;

	struct perf_event_attr		attr;
	u16				header_size;
	u16				id_header_size;
	u16				read_size;
	struct hw_perf_event		hw;

	struct perf_event_context	*ctx;
	/* the context's owner does not change; a pinned task for task events */
	atomic_long_t			refcount;

	/* sum of the counts of the event's inherited children */
	atomic64_t			child_total_time_enabled;
	atomic64_t			child_total_time_running;

	/* protects the child list; nests inside ctx->mutex */
	struct mutex			child_mutex;	/* child_list */
	struct list_head		child_list;
	struct perf_event		*parent;

	int				oncpu;
	int				cpu;

	/* the task that created the event (prctl enable/disable) */
	struct list_head		owner_entry;
	struct task_struct		*owner;

	/* poll() waiters; ring buffer (sampling issue) */
	wait_queue_head_t		waitq;
	struct fasync_struct		*fasync;
	struct perf_buffer __rcu	*rb;
	struct list_head		rb_entry;	/* on rb's event list */
	atomic_t			mmap_count;	/* VMAs mapping rb via us */

	/* pending work that cannot run in NMI/IRQ context */
	unsigned int			pending_wakeup;
	unsigned int			pending_kill;
	unsigned int			pending_disable;
	struct irq_work			pending_irq;

	atomic_t			event_limit;

	u64				id;
	atomic64_t			lost_samples;
	u64				(*clock)(void);
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;
	void (*destroy)(struct perf_event *event);
	struct rcu_head			rcu_head;
	struct pid_namespace		*ns;

	unsigned int			event_caps;
	/* sigtrap: the task work that sends SIGTRAP on return to user */
	struct callback_head		pending_task;
	unsigned int			pending_work;
	u64				pending_addr;
	/* the context whose nr_pending_sigtrap the queued work holds */
	struct perf_event_context	*pending_ctx;

#ifdef CONFIG_EVENT_TRACING
	struct trace_event_call		*tp_event;
	struct event_filter		*filter;
#ifdef CONFIG_FUNCTION_TRACER
	struct ftrace_ops		ftrace_ops;
#endif
#endif
#ifdef CONFIG_BPF_SYSCALL
	/* a perf_event program (sampling events) or a trace event's */
	struct bpf_prog			*prog;
	u64				bpf_cookie;
#endif
#ifdef CONFIG_CGROUP_PERF
	/* PERF_FLAG_PID_CGROUP: counts only for tasks in this cgroup */
	struct perf_cgroup		*cgrp;
#endif
#ifdef CONFIG_SECURITY
	void				*security;
#endif
	struct file			*filp;
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
 */
struct perf_groups {
	struct list_head		pinned;
	struct list_head		flexible;
	struct list_head		sideband;
	int				cpu;	/* -1: any */
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

	struct list_head		event_list;
	/*
	 * Group leaders, indexed by the CPU they may run on: @groups for
	 * any CPU (every group of a CPU context), @cpu_groups for the
	 * groups of a task context bound to one CPU, @groups_here the
	 * last of those looked up.  @pinned_on and @flexible_on list the
	 * groups on a PMU.  kernel/events/groups.c.
	 */
	struct perf_groups		groups;
	struct xarray			cpu_groups;
	struct perf_groups		*groups_here;
	struct list_head		pinned_on;
	struct list_head		flexible_on;
	u64				group_seq;
	int				nr_events;
	int				nr_active;
	int				nr_pinned_hw;
	int				is_active;
	int				nr_stat;
	int				nr_freq;
	/* events whose counters user space reads directly (arm64 EL0) */
	int				nr_user_read;
	/* cgroup events (CPU contexts only) */
	int				nr_cgroups;

	refcount_t			refcount;
	struct task_struct		*task;
	int				cpu;

	/* context time: how long it has been scheduled in, in ns */
	u64				time;
	u64				timestamp;

	/* for the cheap swap of identical inherited contexts (event core) */
	struct perf_event_context	*parent_ctx;
	u64				parent_gen;
	u64				generation;
	int				pin_count;
	/*
	 * SIGTRAP task work queued for events of this context and not yet
	 * run: while non-zero the context keeps its task (no cheap swap).
	 */
	atomic_t			nr_pending_sigtrap;
	struct rcu_head			rcu_head;
};

/**
 * struct perf_cpu_context - per-CPU core state
 * @ctx: the CPU's own events (pid == -1)
 * @task_ctx: the context of the task running here, while it is scheduled in
 * @online: perf may schedule events on this CPU
 * @rotating: the PMUs whose multiplexing timer is armed on this CPU
 *	(struct perf_rotation, kernel/events/rotate.c)
 *
 * All fields are changed on their own CPU with IRQs off.
 */
struct perf_cpu_context {
	struct perf_event_context	ctx;
	struct perf_event_context	*task_ctx;
	int				online;
	struct list_head		rotating;
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
	struct cgroup_subsys_state	css;
	struct perf_cgroup_info __percpu *info;
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
	return container_of(task_css_check(task, perf_event_cgrp_id,
					   ctx ? lockdep_is_held(&ctx->lock)
					       : true),
			    struct perf_cgroup, css);
}
#endif

/* Where a sample is being written in the ring buffer (sampling issue). */
struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			wakeup;
	unsigned long			size;
	unsigned long			start;		/* record's offset */
	u64				aux_flags;
	void				*addr;
	int				page;
};

struct bpf_perf_event_data_kern {
	bpf_user_pt_regs_t		*regs;
	struct perf_sample_data		*data;
	struct perf_event		*event;
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
 * by the core when the sample is prepared.
 */
struct perf_sample_data {
	u64				sample_flags;
	u64				period;
	u64				dyn_size;
	u64				type;
	u64				addr;
	struct perf_raw_record		*raw;
	struct perf_branch_stack	*br_stack;
	u64				*br_stack_cntr;
	union perf_sample_weight	weight;
	union perf_mem_data_src		data_src;
	u64				txn;
	struct {
		u32	pid;
		u32	tid;
	}				tid_entry;
	u64				time;
	u64				id;
	struct {
		u32	cpu;
		u32	reserved;
	}				cpu_entry;
	u64				ip;
	struct perf_callchain_entry	*callchain;
	u64				stream_id;
	u64				phys_addr;
	u64				cgroup;
	u64				data_page_size;
	u64				code_page_size;
	u64				aux_size;
} ____cacheline_aligned;

/* default data_src for PMUs that do not know */
#define PERF_MEM_NA (PERF_MEM_S(OP, NA)   |\
		    PERF_MEM_S(LVL, NA)   |\
		    PERF_MEM_S(SNOOP, NA) |\
		    PERF_MEM_S(LOCK, NA)  |\
		    PERF_MEM_S(TLB, NA)   |\
		    PERF_MEM_S(LVLNUM, NA))

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
	data->sample_flags = PERF_SAMPLE_PERIOD;
	data->period = period;
	data->dyn_size = 0;
	if (addr) {
		data->addr = addr;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
}

/**
 * perf_sample_save_raw_data - attach a raw payload to a sample
 * @data: the sample
 * @event: the event it is for
 * @raw: the payload
 */
static inline void perf_sample_save_raw_data(struct perf_sample_data *data,
					     struct perf_event *event,
					     struct perf_raw_record *raw)
{
	if (!(event->attr.sample_type & PERF_SAMPLE_RAW))
		return;
	data->raw = raw;
	data->sample_flags |= PERF_SAMPLE_RAW;
}

/**
 * perf_sample_save_brstack - attach a branch stack to a sample
 * @data: the sample
 * @event: the event it is for
 * @brs: the branch stack
 * @brs_cntr: per-branch counters, or NULL
 */
static inline void perf_sample_save_brstack(struct perf_sample_data *data,
					    struct perf_event *event,
					    struct perf_branch_stack *brs,
					    u64 *brs_cntr)
{
	if (!(event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK))
		return;
	data->br_stack = brs;
	data->br_stack_cntr = brs_cntr;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

static inline void perf_clear_branch_entry_bitfields(struct perf_branch_entry *br)
{
	br->mispred = 0;
	br->predicted = 0;
	br->in_tx = 0;
	br->abort = 0;
	br->cycles = 0;
	br->type = 0;
	br->spec = PERF_BR_SPEC_NA;
	br->reserved = 0;
}

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

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

static inline int is_software_event(struct perf_event *event)
{
	return event->event_caps & PERF_EV_CAP_SOFTWARE;
}

static inline bool event_has_any_exclude_flag(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	return attr->exclude_idle || attr->exclude_user ||
	       attr->exclude_kernel || attr->exclude_hv ||
	       attr->exclude_guest || attr->exclude_host;
}

static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

static inline bool needs_branch_stack(struct perf_event *event)
{
	return event->attr.branch_sample_type != 0;
}

static inline bool is_write_backward(struct perf_event *event)
{
	return !!event->attr.write_backward;
}

static inline bool branch_sample_no_flags(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_NO_FLAGS;
}

static inline bool branch_sample_no_cycles(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_NO_CYCLES;
}

static inline bool branch_sample_type(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_TYPE_SAVE;
}

static inline bool branch_sample_hw_index(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
}

static inline bool branch_sample_priv(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_PRIV_SAVE;
}

static inline bool branch_sample_counters(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS;
}

static inline bool branch_sample_call_stack(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;
}

/* branch sampling of these privilege levels needs kernel-profiling rights */
#define PERF_SAMPLE_BRANCH_PERM_PLM \
	(PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

/* sysfs helpers for PMU drivers: events/ and format/ attributes */
struct perf_pmu_events_attr {
	struct device_attribute attr;
	u64 id;
	const char *event_str;
};

/*
 * Both end with their own semicolon, as upstream's do: some drivers (the
 * Intel IOMMU perfmon) write them without one; the others add one, an
 * empty declaration that C tolerates at file scope.
 */
#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
static struct perf_pmu_events_attr _var = {				\
	.attr = __ATTR(_name, 0444, _show, NULL),			\
	.id   =  _id,							\
};

#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
static struct perf_pmu_events_attr _var = {				\
	.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
	.id		= 0,						\
	.event_str	= _str,						\
};

#define PMU_EVENT_ATTR_ID(_name, _show, _id)				\
	(&((struct perf_pmu_events_attr[]) {				\
		{ .attr = __ATTR(_name, 0444, _show, NULL),		\
		  .id = _id, }						\
	})[0].attr.attr)

#define PMU_FORMAT_ATTR_SHOW(_name, _format)				\
static ssize_t								\
_name##_show(struct device *dev,					\
			       struct device_attribute *attr,		\
			       char *page)				\
{									\
	BUILD_BUG_ON(sizeof(_format) >= PAGE_SIZE);			\
	return sprintf(page, _format "\n");				\
}									\

#define PMU_FORMAT_ATTR(_name, _format)					\
	PMU_FORMAT_ATTR_SHOW(_name, _format)				\
	static struct device_attribute format_attr_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.show = _name##_show,					\
	}

ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page);

#ifdef CONFIG_PERF_EVENTS

/* registry */
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);
bool perf_running_task_reads_counters(void);

/* task lifecycle hooks (kernel/fork.c, kernel/exit.c, fs/exec.c) */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task);
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next);
int perf_event_init_task(struct task_struct *child, u64 clone_flags);
void perf_event_exit_task(struct task_struct *child);
void perf_event_free_task(struct task_struct *task);
void perf_event_delayed_put(struct task_struct *task);
void perf_event_print_debug(void);
int perf_event_task_disable(void);
int perf_event_task_enable(void);
void perf_event_exec(void);
void perf_event_comm(struct task_struct *tsk, bool exec);
void perf_event_namespaces(struct task_struct *tsk);
void perf_event_fork(struct task_struct *tsk);
void perf_event_mmap(struct vm_area_struct *vma);
void perf_event_task_tick(void);
void perf_event_init(void);
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);

typedef int (perf_ksymbol_get_name_f)(char *name, int name_len, void *data);
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name);
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags);
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len);

/* kernel users of events */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context);
int perf_event_release_kernel(struct perf_event *event);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
void perf_event_disable_local(struct perf_event *event);
void perf_event_disable_inatomic(struct perf_event *event);
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running);
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);
int perf_event_refresh(struct perf_event *event, int refresh);
int perf_event_period(struct perf_event *event, u64 value);
u64 perf_event_pause(struct perf_event *event, bool reset);
struct file *perf_event_get(unsigned int fd);
const struct perf_event *perf_get_event(struct file *file);
const struct perf_event_attr *perf_event_attrs(struct perf_event *event);
void perf_event_update_userpage(struct perf_event *event);

/* overflow and sample output (drivers call perf_event_overflow) */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs);
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs);
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs);
int perf_event_account_interrupt(struct perf_event *event);

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

/* software events */
extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
int perf_swevent_get_recursion_context(void);
void perf_swevent_put_recursion_context(int rctx);
u64 perf_swevent_set_period(struct perf_event *event);

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
	if (static_key_false(&perf_swevent_enabled[event_id]))
		__perf_sw_event(event_id, nr, regs, addr);
}

DECLARE_PER_CPU(struct pt_regs, __perf_regs[4]);

/*
 * Variant for the scheduler: the registers come from the caller, and the
 * count is recorded without going through the recursion guard twice.
 */
static __always_inline void perf_sw_event_sched(u32 event_id, u64 nr, u64 addr)
{
	struct pt_regs *regs = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(regs);
	___perf_sw_event(event_id, nr, regs, addr);
}

/* enabled while any per-task event exists: the context-switch hooks */
extern struct static_key_false perf_sched_events;

static __always_inline bool __perf_sw_enabled(int swevt)
{
	return static_key_false(&perf_swevent_enabled[swevt]);
}

static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		task->sched_migrated = 1;
}

static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)
{
	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_in(prev, task);

	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS) &&
	    task->sched_migrated) {
		perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS, 1, 0);
		task->sched_migrated = 0;
	}
}

static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0);
#ifdef CONFIG_CGROUP_PERF
	if (__perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES) &&
	    perf_cgroup_from_task(prev, NULL) != perf_cgroup_from_task(next, NULL))
		perf_sw_event_sched(PERF_COUNT_SW_CGROUP_SWITCHES, 1, 0);
#endif

	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_out(prev, next);
}

/* tracepoints (include/trace/perf.h, kernel/trace/trace_event_perf.c) */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task);

/* breakpoints: the arch's #DB handler reports a hit */
void perf_bp_event(struct perf_event *event, void *data);

/* callchains */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs);
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs);
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs);
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark);
int get_callchain_buffers(int max_stack);
void put_callchain_buffers(void);
struct perf_callchain_entry *get_callchain_entry(int *rctx);
void put_callchain_entry(int rctx);

extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;

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

/* sysctls (registered in kernel/sysctl.c) */
extern int sysctl_perf_event_paranoid;
extern int sysctl_perf_event_mlock;
extern int sysctl_perf_event_sample_rate;
extern int sysctl_perf_cpu_time_max_percent;

void perf_sample_event_took(u64 sample_len_ns);

int perf_event_max_sample_rate_handler(const struct ctl_table *table, int write,
				       void *buffer, size_t *lenp,
				       loff_t *ppos);
int perf_cpu_time_max_percent_handler(const struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos);
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos);

/* what an open asks for, for the security hooks */
#define PERF_SECURITY_OPEN		0
#define PERF_SECURITY_CPU		1
#define PERF_SECURITY_KERNEL		2
#define PERF_SECURITY_TRACEPOINT	3

/*
 * perf_event_paranoid: 3 and above (a distribution's level) needs
 * CAP_SYS_ADMIN for any open; 2 forbids kernel profiling, 1 CPU-wide
 * events, 0 raw tracepoint data to unprivileged users.
 */
static inline bool perf_paranoid_any(void)
{
	return sysctl_perf_event_paranoid > 2;
}

static inline int perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid > -1;
}

int perf_allow_kernel(void);

static inline int perf_allow_cpu(void)
{
	if (sysctl_perf_event_paranoid > 0 && !perfmon_capable())
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_CPU);
}

static inline int perf_allow_tracepoint(void)
{
	if (sysctl_perf_event_paranoid > -1 && !perfmon_capable())
		return -EPERM;
	return security_perf_event_open(PERF_SECURITY_TRACEPOINT);
}

#ifndef perf_misc_flags
# define perf_misc_flags(regs) \
		(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)
# define perf_instruction_pointer(regs)	instruction_pointer(regs)
#endif

#ifndef perf_arch_bpf_user_pt_regs
# define perf_arch_bpf_user_pt_regs(regs) regs
#endif

static inline struct fasync_struct **perf_event_fasync(struct perf_event *event)
{
	/* only the leader of an inheritance tree has the file */
	if (event->parent)
		event = event->parent;
	return &event->fasync;
}

/* ring-buffer output (sampling issue) */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size);
void perf_output_end(struct perf_output_handle *handle);
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len);

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

unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len);

void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now);

#else /* !CONFIG_PERF_EVENTS */

static inline int perf_event_init_task(struct task_struct *child,
				       u64 clone_flags)		{ return 0; }
static inline void perf_event_exit_task(struct task_struct *child)	{ }
static inline void perf_event_free_task(struct task_struct *task)	{ }
static inline void perf_event_delayed_put(struct task_struct *task)	{ }
static inline struct file *perf_event_get(unsigned int fd)
{
	return ERR_PTR(-EINVAL);
}

static inline const struct perf_event *perf_get_event(struct file *file)
{
	return ERR_PTR(-EINVAL);
}

static inline const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return ERR_PTR(-EINVAL);
}

static inline void perf_event_print_debug(void)				{ }
static inline int perf_event_task_disable(void)				{ return -EINVAL; }
static inline int perf_event_task_enable(void)				{ return -EINVAL; }
static inline int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}

static inline int perf_event_read_local(struct perf_event *event, u64 *value,
					u64 *enabled, u64 *running)
{
	return -EINVAL;
}

static inline void
perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)	{ }
static inline void
perf_bp_event(struct perf_event *event, void *data)			{ }
static inline void perf_event_task_migrate(struct task_struct *task)	{ }
static inline void perf_event_task_sched_in(struct task_struct *prev,
					    struct task_struct *task)	{ }
static inline void perf_event_task_sched_out(struct task_struct *prev,
					     struct task_struct *next)	{ }
static inline void perf_event_mmap(struct vm_area_struct *vma)		{ }
typedef int (perf_ksymbol_get_name_f)(char *name, int name_len, void *data);
static inline void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len,
				      bool unregister, const char *name) { }
static inline void perf_event_bpf_event(struct bpf_prog *prog,
					enum perf_bpf_event_type type,
					u16 flags)			{ }
static inline void perf_event_exec(void)				{ }
static inline void perf_event_comm(struct task_struct *tsk, bool exec)	{ }
static inline void perf_event_namespaces(struct task_struct *tsk)	{ }
static inline void perf_event_fork(struct task_struct *tsk)		{ }
static inline void perf_event_text_poke(const void *addr,
					const void *old_bytes,
					size_t old_len,
					const void *new_bytes,
					size_t new_len)			{ }
static inline void perf_event_init(void)				{ }
static inline int  perf_swevent_get_recursion_context(void)		{ return -1; }
static inline void perf_swevent_put_recursion_context(int rctx)		{ }
static inline u64 perf_swevent_set_period(struct perf_event *event)	{ return 0; }
static inline void perf_event_enable(struct perf_event *event)		{ }
static inline void perf_event_disable(struct perf_event *event)		{ }
static inline void perf_event_task_tick(void)				{ }
static inline int perf_event_release_kernel(struct perf_event *event)	{ return 0; }
static inline int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}

static inline u64 perf_event_pause(struct perf_event *event, bool reset)
{
	return 0;
}

#define perf_event_init_cpu	NULL
#define perf_event_exit_cpu	NULL

#endif /* CONFIG_PERF_EVENTS */

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

#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_CPU_SUP_INTEL)
void perf_restore_debug_store(void);
#else
static inline void perf_restore_debug_store(void)			{ }
#endif

#define perf_output_put(handle, x) __perf_output_put((handle), &(x), sizeof(x))

/*
 * bpf_get_branch_snapshot(): a PMU with a branch stack installs its reader
 * here; none of ours has one, so it stays "return 0 entries".
 */
typedef int (perf_snapshot_branch_stack_t)(struct perf_branch_entry *entries,
					   unsigned int cnt);
DECLARE_STATIC_CALL(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

#ifndef PERF_NEEDS_LOPWR_CB
static inline void perf_lopwr_cb(bool mode)
{
}
#endif

#endif /* _LINUX_PERF_EVENT_H */
