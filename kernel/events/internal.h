/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the files of kernel/events/.
 *
 * Files and what they own:
 *  context.c   context lifetime: allocation, references, pins, clones,
 *              and the CPU contexts' hotplug
 *  groups.c    the group index: groups by CPU, scheduling order, on-PMU
 *              lists
 *  sched.c     events on and off the PMUs; the context-switch hooks
 *  rotate.c    multiplexing: per-PMU, per-CPU rotation timers
 *  swap.c      the cheap swap of cloned contexts at context switch
 *  remote.c    cross-CPU calls into a context (perf_ctx_call())
 *  time.c      context time, event enabled/running times
 *  event.c     event allocation, sizes, references, release
 *  control.c   install/remove, enable/disable, reset, period, refresh
 *  read.c      bringing counts and times up to date; inherited copies
 *  wakeup.c    waking readers, SIGIO, and the work overflows defer
 *  pmu.c       the PMU registry, its sysfs bus, perf_pmu_disable/enable
 *  syscall.c   perf_event_open(): attr copy and validation, permissions
 *  file.c      the event file: read, poll, ioctl, mmap, fasync, release
 *  task.c      fork, exit, exec hooks and prctl enable/disable
 *  swevent.c   the software PMU and the cpu-clock/task-clock PMUs
 *  tracepoint.c the tracepoint, kprobe and uprobe PMUs
 *  hw_breakpoint.c the breakpoint PMU and the in-kernel breakpoint API
 *  hw_breakpoint_slots.c breakpoint slot accounting
 *  overflow.c  overflow: refresh limits, throttling, frequency mode,
 *              sigtrap and SIGIO
 *  ring_buffer.c the mmap ring buffer: allocation, the user page, wakeups,
 *              SET_OUTPUT and PAUSE_OUTPUT
 *  rb_output.c writing records into a ring buffer
 *  rb_mmap.c   mapping a ring buffer, charging its pages
 *  sample.c    preparing and writing PERF_RECORD_SAMPLE
 *  sample_id.c record sizes and the sample_id_all trailer
 *  sample_addr.c physical addresses and page sizes for samples
 *  sideband.c  side-band records: who gets them (the walk), FORK/EXIT,
 *              COMM, NAMESPACES, SWITCH, READ
 *  sb_mmap.c   MMAP and MMAP2 records
 *  sb_kernel.c KSYMBOL, BPF_EVENT and TEXT_POKE records
 *  callchain.c callchain buffers and collection
 *  bpf.c       BPF programs on events; what BPF calls in us
 *  cgroup.c    cgroup events, the perf_event cgroup controller
 *  sysctl.c    the sysctl knobs and their handlers
 *  uprobe_*.c  the uprobes engine (uprobes_internal.h says which is which)
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/trace_events.h>

/* valid attr.read_format bits and sample_type bits */
#define PERF_FORMAT_VALID	(PERF_FORMAT_MAX - 1)
#define PERF_SAMPLE_VALID	(PERF_SAMPLE_MAX - 1)

/* the task of a context whose task has exited */
#define TASK_TOMBSTONE	((struct task_struct *)-1L)

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/* an event its PMU lets user space read while its task context runs */
static inline bool perf_event_user_read_ctx(struct perf_event *event)
{
	return (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT) &&
	       (event->pmu->capabilities & PERF_PMU_CAP_USER_READ_CTX);
}

/*
 * A function run against an event's context with ctx->lock held and IRQs
 * off, on the CPU where the context is active, or on any CPU when it is
 * not active.  @ctx->is_active tells which.
 */
typedef void (*perf_ctx_fn_t)(struct perf_event *event,
			      struct perf_event_context *ctx, void *data);

/* remote.c */
void perf_ctx_call(struct perf_event *event, perf_ctx_fn_t fn, void *data);
void perf_ctx_call_read(struct perf_event *event, perf_ctx_fn_t fn,
			void *data);

/* time.c */
u64 perf_clock(void);
void perf_ctx_update_time(struct perf_event_context *ctx);
void perf_ctx_activate(struct perf_event_context *ctx);
void perf_ctx_deactivate(struct perf_event_context *ctx);
void perf_event_update_time(struct perf_event *event);
void perf_event_start_time(struct perf_event *event);
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state);
void perf_event_times_now(struct perf_event *event, u64 *now,
			  u64 *enabled, u64 *running);

/* groups.c */

/* walks the "any CPU" bucket and this CPU's, merged by group_seq */
struct perf_group_iter {
	struct list_head	*head[2];
	struct list_head	*pos[2];
};

void perf_groups_init(struct perf_event_context *ctx);
void perf_groups_free(struct perf_event_context *ctx);
int perf_groups_reserve(struct perf_event_context *ctx, int cpu);
struct perf_groups *perf_groups_of(struct perf_event_context *ctx,
				   struct perf_event *leader);
struct perf_groups *perf_groups_here(struct perf_event_context *ctx);
struct pmu *perf_group_hw_pmu(struct perf_event *leader);
struct pmu *perf_group_pmu(struct perf_event *leader);
bool perf_group_edit_begin(struct perf_event_context *ctx,
			   struct perf_event *leader);
void perf_group_edit_end(struct perf_event_context *ctx,
			 struct perf_event *leader, bool held);
void perf_group_link(struct perf_event_context *ctx,
		     struct perf_event *leader);
void perf_group_unlink(struct perf_event_context *ctx,
		       struct perf_event *leader);
void perf_group_set_on(struct perf_event_context *ctx,
		       struct perf_event *leader, bool on);
void perf_group_iter_start(struct perf_group_iter *it,
			   struct perf_event_context *ctx, bool pinned);
struct perf_event *perf_group_iter_next(struct perf_group_iter *it);
void perf_group_rotate(struct perf_event_context *ctx, struct pmu *pmu);

/* sched.c */

/* the PMUs one scheduling pass disabled, to enable once at its end */
#define PERF_PMU_BATCH	4
struct perf_pmu_batch {
	int			nr;
	struct pmu		*pmu[PERF_PMU_BATCH];
};

void perf_pmu_batch_enable(struct perf_pmu_batch *b);
void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx);
void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx);
void perf_group_try_sched_in(struct perf_event *leader,
			     struct perf_event_context *ctx);
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx);
void perf_event_sched_out(struct perf_event *event,
			  struct perf_event_context *ctx);
void perf_ctx_sched_in(struct perf_event_context *ctx, bool pinned,
		       struct pmu *pmu, struct perf_pmu_batch *b);
void perf_ctx_sched_out_cgroups(struct perf_event_context *ctx,
				struct perf_pmu_batch *b);
void perf_ctx_sched_out(struct perf_event_context *ctx, bool flexible_only,
			struct pmu *pmu, struct perf_pmu_batch *b);
void perf_ctx_sched_in_all(struct perf_cpu_context *cpuctx,
			   struct perf_event_context *task_ctx,
			   struct perf_pmu_batch *b);
void perf_ctx_resched(struct perf_event_context *ctx);
void perf_task_ctx_sched_in(struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx);
void perf_task_ctx_sched_out(struct perf_cpu_context *cpuctx,
			     struct perf_event_context *ctx);
void perf_task_events_inc(void);
void perf_task_events_dec(void);

/* rotate.c */
void perf_rotation_needed(struct pmu *pmu);
struct perf_event *perf_pmu_exclusive(struct pmu *pmu);
void perf_pmu_set_exclusive(struct pmu *pmu, struct perf_event *leader);
void perf_rotation_stop_cpu(void);
int perf_rotation_init(struct pmu *pmu);
void perf_rotation_free(struct pmu *pmu);

/* swap.c */
bool perf_ctx_try_swap(struct perf_event_context *ctx,
		       struct task_struct *prev, struct task_struct *next);

/* context.c */
struct perf_event_context *perf_find_get_context(struct task_struct *task,
						 int cpu);
struct perf_event_context *perf_alloc_task_ctx(struct task_struct *task);
void perf_get_ctx(struct perf_event_context *ctx);
struct perf_event_context *perf_pin_task_ctx(struct task_struct *task);
void perf_unpin_ctx(struct perf_event_context *ctx);
void perf_unclone_ctx(struct perf_event_context *ctx);
void perf_clone_ctx(struct perf_event_context *child_ctx,
		    struct perf_event_context *parent_ctx);
void perf_put_ctx(struct perf_event_context *ctx);
struct perf_event_context *perf_event_ctx_lock_nested(struct perf_event *event,
						      int subclass);

static inline struct perf_event_context *
perf_event_ctx_lock(struct perf_event *event)
{
	return perf_event_ctx_lock_nested(event, 0);
}

int perf_cpu_ctx_init(void);

/* event.c */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent,
				    perf_overflow_handler_t handler,
				    void *context);
void perf_event_free(struct perf_event *event);
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event);
void perf_remove_from_context(struct perf_event *event, bool exited);
void perf_group_lift(struct perf_event *leader);
void perf_group_land(struct perf_event *leader);
void perf_event_do_enable(struct perf_event *event);
void perf_event_do_disable(struct perf_event *event);
void perf_event_group_switch(struct perf_event *leader, bool enable);
void perf_event_sync_group(struct perf_event *event, bool group);
void perf_event_reset(struct perf_event *event);
u64 perf_event_read_children(struct perf_event *event, u64 *enabled,
			     u64 *running);

/**
 * perf_event_read_count - an event's value and times, with what its
 * exited inherited copies folded into it
 * @event: the event
 * @enabled: its enabled time
 * @running: its running time
 *
 * Context: process context, ctx->mutex held; the count must have been
 * synchronised (perf_event_sync_group()) by the caller when it matters.
 * Return: the count.
 */
static inline u64 perf_event_read_count(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	/* running first: see perf_event_update_time() */
	*running = READ_ONCE(event->total_time_running) +
		   atomic64_read(&event->child_total_time_running);
	/* running before enabled; pairs with perf_event_update_time() */
	smp_rmb();
	*enabled = READ_ONCE(event->total_time_enabled) +
		   atomic64_read(&event->child_total_time_enabled);
	return local64_read(&event->count) +
	       atomic64_read(&event->child_count);
}

/**
 * perf_event_read_total - an event's value and times including the
 * inherited copies still counting in live child tasks
 * @event: the event, already synchronised by the caller
 * @enabled: its enabled time, children included
 * @running: its running time, children included
 *
 * Inline because read() calls it for every member of a group, and most
 * events have no copies.
 *
 * Context: process context, the event's ctx->mutex held; may take
 * child_mutex (perf_event_read_children()).
 * Return: the count.
 */
static inline u64 perf_event_read_total(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	/* a copy made concurrently is no different from one made just after */
	if (list_empty(&event->child_list))
		return perf_event_read_count(event, enabled, running);
	return perf_event_read_children(event, enabled, running);
}

void perf_event_calc_sizes(struct perf_event *event);
void perf_event_calc_read_size(struct perf_event *event);
u32 perf_read_size(u64 fmt, int nr_siblings);
void perf_event_ref(struct perf_event *event);
void perf_event_unref(struct perf_event *event);

/* pmu.c */
int perf_init_event(struct perf_event *event);
struct pmu *perf_pmu_by_type(int type);
int perf_pmu_sysfs_init(void);
void perf_pmu_for_each(void (*fn)(struct pmu *pmu, void *data), void *data);

/* scope.c */
unsigned int perf_scope_pick(unsigned int scope, int cpu);
ssize_t perf_scope_show_cpumask(struct pmu *pmu, char *buf);
void perf_scope_cpu_up(unsigned int cpu);
void perf_scope_cpu_down(unsigned int cpu);
void perf_exclusive_event_release(struct perf_event *event);
bool perf_exclusive_installable(struct perf_event *event,
				struct perf_event_context *ctx);

/* syscall.c */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr);

/* file.c */
extern const struct file_operations perf_fops;
bool is_perf_file(struct file *file);

/* swevent.c */
void perf_swevent_event(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs);
int perf_swevent_register(void);

/* tracepoint.c */
int perf_tp_register(void);

/* hw_breakpoint.c is initialised from init_hw_breakpoint() */

/* overflow.c */
int perf_event_do_overflow(struct perf_event *event,
			   struct perf_sample_data *data,
			   struct pt_regs *regs, int throttle);
bool perf_event_is_throttled(struct perf_event *event);
void perf_event_unthrottle(struct perf_event *event);
#if IS_ENABLED(CONFIG_KUNIT)
u64 perf_freq_period(u64 cur, u64 count, u64 nsec, u64 freq);
u64 perf_rate_for_cost(u64 cost_ns, int pct);
#endif

/* cgroup.c */
#ifdef CONFIG_CGROUP_PERF
void perf_cgroup_ctx_time(struct perf_event_context *ctx, u64 now);
void perf_cgroup_ctx_active(struct perf_event_context *ctx, bool active,
			    u64 now);
u64 perf_cgroup_event_time(struct perf_event *event);
u64 perf_cgroup_event_time_now(struct perf_event *event, u64 now);
bool perf_cgroup_match(struct perf_event *event);
void perf_cgroup_event_added(struct perf_event_context *ctx,
			     struct perf_event *event);
void perf_cgroup_event_removed(struct perf_event_context *ctx,
			       struct perf_event *event);
void perf_cgroup_switch(struct task_struct *task);
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *leader);
void perf_cgroup_release(struct perf_event *event);
u64 perf_cgroup_sample_id(void);

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return event->cgrp;
}

/* do the CPU context's cgroup clocks move with it? */
static inline bool perf_ctx_has_cgroups(struct perf_event_context *ctx)
{
	return !ctx->task && ctx->nr_cgroups;
}
#else
static inline void perf_cgroup_ctx_time(struct perf_event_context *ctx,
					u64 now) { }
static inline void perf_cgroup_ctx_active(struct perf_event_context *ctx,
					  bool active, u64 now) { }
static inline u64 perf_cgroup_event_time(struct perf_event *event)
{
	return 0;
}

static inline u64 perf_cgroup_event_time_now(struct perf_event *event,
					     u64 now)
{
	return 0;
}

static inline bool perf_cgroup_match(struct perf_event *event)
{
	return true;
}

static inline void perf_cgroup_event_added(struct perf_event_context *ctx,
					   struct perf_event *event) { }
static inline void perf_cgroup_event_removed(struct perf_event_context *ctx,
					     struct perf_event *event) { }
static inline void perf_cgroup_switch(struct task_struct *task) { }
static inline int perf_cgroup_connect(int fd, struct perf_event *event,
				      struct perf_event *leader)
{
	return -EINVAL;		/* as upstream without CONFIG_CGROUP_PERF */
}

static inline void perf_cgroup_release(struct perf_event *event) { }
static inline u64 perf_cgroup_sample_id(void)
{
	return 0;
}

static inline bool perf_event_is_cgroup(struct perf_event *event)
{
	return false;
}

static inline bool perf_ctx_has_cgroups(struct perf_event_context *ctx)
{
	return false;
}
#endif

/* bpf.c */
#ifdef CONFIG_BPF_SYSCALL
int perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs);
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent);
long perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
		    unsigned long arg);

static inline void perf_bpf_release(struct perf_event *event)
{
	perf_event_free_bpf_prog(event);
}

static inline bool perf_event_has_bpf(struct perf_event *event)
{
	return READ_ONCE(event->prog);
}
#else
static inline int perf_bpf_overflow(struct perf_event *event,
				    struct perf_sample_data *data,
				    struct pt_regs *regs)
{
	return 1;
}

static inline void perf_bpf_inherit(struct perf_event *child,
				    struct perf_event *parent)
{
}

static inline long perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
				  unsigned long arg)
{
	return -EOPNOTSUPP;	/* no BPF programs to attach */
}

static inline void perf_bpf_release(struct perf_event *event)
{
}

static inline bool perf_event_has_bpf(struct perf_event *event)
{
	return false;
}
#endif

/* ring_buffer.c */

int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);
int perf_mmap(struct file *file, struct vm_area_struct *vma);
int perf_event_set_output(struct perf_event *event,
			  struct perf_event *output_event);
void perf_event_detach_rb(struct perf_event *event);
int perf_event_pause_output(struct perf_event *event, bool pause);
__poll_t perf_event_rb_poll(struct perf_event *event);

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

/* wakeup.c */
void perf_event_output_wakeup(struct perf_event *event,
			      struct perf_buffer *rb);
void perf_event_queue_wakeup(struct perf_event *event);
void perf_pending_work(struct irq_work *work);
void perf_event_wakeup(struct perf_event *event);

/* sideband.c */
void perf_sb_attach(struct perf_event_context *ctx, struct perf_event *event);
void perf_sb_detach(struct perf_event_context *ctx, struct perf_event *event);
void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in);
void perf_event_task_record(struct task_struct *task, bool fork);
void perf_event_read_record(struct perf_event *event,
			    struct task_struct *task);

/**
 * perf_event_primary_id - the ID user space knows an event by
 * @event: the event; an inherited copy reports its original's
 *
 * Return: the ID read() (PERF_FORMAT_ID), samples and records carry.
 */
static inline u64 perf_event_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/**
 * perf_event_task_pid - a pid or tid as the event's opener sees it
 * @event: the event; an inherited copy uses its original's namespace
 * @task: the task
 * @type: PIDTYPE_TGID for the pid, PIDTYPE_PID for the tid
 *
 * Return: the number in the pid namespace the event was opened in: 0 for
 * a live task that namespace cannot see, -1 for one being reaped.
 */
static inline u32 perf_event_task_pid(struct perf_event *event,
				      struct task_struct *task,
				      enum pid_type type)
{
	struct perf_event *orig = event->parent ?: event;
	u32 nr = __task_pid_nr_ns(task, type, orig->ns);

	if (!nr && !pid_alive(task))
		nr = -1;
	return nr;
}

/* sysctl.c */
extern int perf_max_samples_per_tick;

/*
 * Is @event counting on this CPU for the current context?  Software events
 * call this from their hooks before counting: they are on a per-CPU list
 * only while scheduled in, so only the hardware-state bit needs checking.
 */
static inline bool perf_event_is_counting(struct perf_event *event)
{
	return !(event->hw.state & PERF_HES_STOPPED);
}

#endif /* _KERNEL_EVENTS_INTERNAL_H */
