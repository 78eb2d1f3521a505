// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happened to tasks and address spaces, written to
 * the ring buffers of the events that asked for it (attr.mmap, mmap2,
 * mmap_data, comm, task, context_switch, namespaces, ksymbol, bpf_event,
 * text_poke).
 *
 * Who sees a record.  A hook runs in the task that caused it (current), on
 * some CPU; the record goes to every event of that CPU's context and of
 * current's task context that
 *  - asked for this kind of record in its attr,
 *  - is enabled (INACTIVE or ACTIVE: not OFF, ERROR, EXIT or DEAD),
 *  - may count on this CPU (its cpu is -1 or this one, and its PMU does
 *    not filter this CPU out),
 * as long as this CPU's perf context is online.  From the perf teardown
 * of an outgoing CPU until it is back, nothing is written here: once
 * __cpu_disable() has run the CPU takes no interrupt (x86 turns its
 * local APIC off) and smpcfd_dying_cpu() has run its irq_work for the
 * last time, so the wakeup a record queues (the stopper parking after
 * take_cpu_down() writes a SWITCH record) would stay on that CPU's list
 * for good, and perf_event_free()'s irq_work_sync() would spin on it.
 * Nothing counts there then either.
 * Inherited copies live in the child's context, so they see what the child
 * does; their output lands in the original's buffer (rb_buffer.c follows
 * event->parent).  Like upstream, an event of a CPU context that asked only
 * for namespaces records gets none: the per-CPU side-band list upstream
 * keeps does not take such events.
 *
 * Cost when nobody asked.  Every hook first reads how many events in the
 * system want its kind of record (perf_sb_nr[]): mmap, fork, exit, comm
 * and context switches cost one atomic read while no event wants them,
 * however many counting events exist (`perf stat -a`, the NMI watchdog).
 * When some do, the walk visits only the events that asked for any
 * side-band record and may run on this CPU: each bucket of the group
 * index (groups.c) keeps them on its sideband list, so a task followed
 * by one event per CPU costs one visit, not one per CPU.
 *
 * Locking.  The sideband lists are not RCU lists: each walk holds the CPU
 * context's lock and then the task context's (perf_ctx_lock(), the order
 * sched.c uses), with IRQs off.  The task's context pointer is read
 * under rcu_read_lock(): contexts are freed after a grace period, and a
 * context that was detached meanwhile only holds events that are no longer
 * enabled.  Records are written with those locks held; the ring-buffer
 * entry points are safe in any context and defer wakeups.  Anything that
 * may sleep (d_path, build-id parsing, namespace lookups) is done before
 * the walk, and only when an event wants the record at all.
 *
 * Files: this one has the walk and the task records (FORK, EXIT, COMM,
 * NAMESPACES, SWITCH, READ); sb_mmap.c the MMAP records, sb_kernel.c the
 * records about kernel text (KSYMBOL, BPF_EVENT, TEXT_POKE); sideband.h
 * what they share.
 *
 * Records with a sample_id_all trailer get it from sample.c:
 * perf_event_header_init_id() grows the header's size and fills the sample
 * data, perf_event_output_id_sample() writes it after the body.
 */
#include <linux/proc_ns.h>
#include <linux/slab.h>

#include "context.h"
#include "groups.h"
#include "process.h"
#include "sample.h"
#include "sched.h"
#include "sideband.h"
#include "time.h"

/* events in any context that want each kind */
static atomic_t perf_sb_nr[PERF_SB_KINDS];

static unsigned int sb_kinds(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;
	bool mmap = a->mmap || a->mmap2 || a->mmap_data;
	unsigned int k = 0;

	/* tools that follow mmaps or names also need to know the tasks */
	if (a->task || a->comm || mmap)
		k |= BIT(PERF_SB_TASK);
	if (a->comm)
		k |= BIT(PERF_SB_COMM);
	if (a->namespaces)
		k |= BIT(PERF_SB_NS);
	if (mmap)
		k |= BIT(PERF_SB_MMAP);
	if (a->context_switch)
		k |= BIT(PERF_SB_SWITCH);
	if (a->ksymbol)
		k |= BIT(PERF_SB_KSYMBOL);
	if (a->bpf_event)
		k |= BIT(PERF_SB_BPF);
	if (a->text_poke)
		k |= BIT(PERF_SB_POKE);
	if (a->cgroup)
		k |= BIT(PERF_SB_CGROUP);
	return k;
}

/**
 * perf_sb_wanted - does any event want records of @kind?
 * @kind: the kind
 *
 * For hooks that must do costly work (allocate, format a path) before
 * they can offer a record at all.  Unlocked: an event being installed
 * right now may miss the record.
 */
bool perf_sb_wanted(enum perf_sb_kind kind)
{
	return atomic_read(&perf_sb_nr[kind]);
}

static void sb_count(struct perf_event *event, int delta)
{
	unsigned long k = sb_kinds(event);
	unsigned int bit;

	for_each_set_bit(bit, &k, PERF_SB_KINDS)
		atomic_add(delta, &perf_sb_nr[bit]);
}

/**
 * perf_sb_attach - an event joins a context: offer it side-band records
 * @ctx: the context; ctx->lock held
 * @event: the event, leader or member
 */
void perf_sb_attach(struct perf_event_context *ctx, struct perf_event *event)
{
	lockdep_assert_held(&ctx->lock);
	if (!sb_kinds(event))
		return;
	list_add_tail(&event->sb_entry, &perf_groups_of(ctx, event)->sideband);
	sb_count(event, 1);
}

/**
 * perf_sb_detach - undo perf_sb_attach()
 * @ctx: the context; ctx->lock held
 * @event: the event
 */
void perf_sb_detach(struct perf_event_context *ctx, struct perf_event *event)
{
	lockdep_assert_held(&ctx->lock);
	if (list_empty(&event->sb_entry))
		return;
	list_del_init(&event->sb_entry);
	sb_count(event, -1);
}

/*
 * Attrs that put a CPU event on upstream's per-CPU side-band list; an
 * event of a CPU context without any of them is not offered records.
 */
static bool sb_cpu_event_listed(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return a->mmap || a->mmap_data || a->mmap2 || a->comm ||
	       a->comm_exec || a->task || a->ksymbol || a->context_switch ||
	       a->text_poke || a->bpf_event;
}

/* May @event see a record produced on this CPU?  Its ctx->lock held. */
static bool sb_event_eligible(struct perf_event *event, bool cpu_ctx)
{
	int cpu = smp_processor_id();
	struct pmu *pmu = event->pmu;

	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return false;
	if (event->cpu != -1 && event->cpu != cpu)
		return false;
	if (pmu->filter && pmu->filter(pmu, cpu))
		return false;
	return !cpu_ctx || sb_cpu_event_listed(event);
}

static int sb_walk_list(struct list_head *list, bool cpu_ctx,
			sb_match_t match, sb_emit_t emit, void *data)
{
	struct perf_event *event;
	int n = 0;

	list_for_each_entry(event, list, sb_entry) {
		if (!sb_event_eligible(event, cpu_ctx) || !match(event, data))
			continue;
		n++;
		if (emit)
			emit(event, data);
	}
	return n;
}

/* the events of @ctx that asked for records and may run on this CPU */
static int sb_walk_ctx(struct perf_event_context *ctx, bool cpu_ctx,
		       sb_match_t match, sb_emit_t emit, void *data)
{
	struct perf_groups *g = perf_groups_here(ctx);
	int n;

	n = sb_walk_list(&ctx->groups.sideband, cpu_ctx, match, emit, data);
	if (g)
		n += sb_walk_list(&g->sideband, cpu_ctx, match, emit, data);
	return n;
}

/**
 * sb_walk - offer a record to the events that may want it
 * @kind: the kind of record, for the early exit
 * @match: does an event want it
 * @emit: write it to an event, or NULL to only count
 * @data: the record's description, for @match and @emit
 *
 * Offers it to every eligible event (see the top of the file) of this
 * CPU's context and of current's context.  With @emit NULL nothing is
 * written: the return value (how many events match) tells the caller
 * whether preparing the record is worth it, and @match may note what
 * those events need in @data.
 *
 * Nothing at all happens while no event wants @kind.
 *
 * Context: any but NMI; must not hold a perf context lock of this CPU.
 * Return: how many events wanted the record.
 */
int sb_walk(enum perf_sb_kind kind, sb_match_t match, sb_emit_t emit,
	    void *data)
{
	struct perf_event_context *tctx;
	struct perf_cpu_context *cpuctx;
	unsigned long flags;
	int n = 0;

	if (!atomic_read(&perf_sb_nr[kind]))
		return 0;
	local_irq_save(flags);
	rcu_read_lock();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	/* set and cleared on this CPU with IRQs off (context.c) */
	if (!cpuctx->online)
		goto out;
	tctx = rcu_dereference(current->perf_event_ctxp);
	/* unlocked peeks: an event being installed right now may miss it */
	if (tctx && !READ_ONCE(tctx->nr_events))
		tctx = NULL;
	if (!tctx && !READ_ONCE(cpuctx->ctx.nr_events))
		goto out;

	perf_ctx_lock(cpuctx, tctx);
	n = sb_walk_ctx(&cpuctx->ctx, true, match, emit, data);
	if (tctx)
		n += sb_walk_ctx(tctx, false, match, emit, data);
	perf_ctx_unlock(cpuctx, tctx);
out:
	rcu_read_unlock();
	local_irq_restore(flags);
	return n;
}

/**
 * sb_begin - open a side-band record in @event's buffer
 * @handle: the output handle
 * @sample: scratch for the sample_id_all trailer
 * @event: the event
 * @hdr: the record's header; @hdr->size is the body's size (header
 *	included), and the trailer's size is added to it here
 *
 * Return: 0, or non-zero when there is no room (the record is lost).
 */
int sb_begin(struct perf_output_handle *handle,
	     struct perf_sample_data *sample, struct perf_event *event,
	     struct perf_event_header *hdr)
{
	perf_sample_data_init(sample, 0, 0);
	perf_event_header_init_id(hdr, sample, event);
	return perf_output_begin(handle, sample, event, hdr->size);
}

/**
 * sb_end - write the trailer and publish a record opened by sb_begin()
 * @handle: the output handle
 * @sample: as given to sb_begin()
 * @event: the event
 */
void sb_end(struct perf_output_handle *handle,
	    struct perf_sample_data *sample, struct perf_event *event)
{
	perf_event_output_id_sample(event, handle, sample);
	perf_output_end(handle);
}

/* FORK and EXIT */

struct sb_task_info {
	struct task_struct *task;
	bool fork;
};

static bool sb_task_match(struct perf_event *event, void *data)
{
	struct perf_event_attr *a = &event->attr;

	/* tools that follow mmaps or names also need to know the tasks */
	return a->task || a->comm || a->mmap || a->mmap2 || a->mmap_data;
}

static void sb_task_emit(struct perf_event *event, void *data)
{
	struct sb_task_info *ti = data;
	struct task_struct *task = ti->task;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, ppid, tid, ptid;
		u64 time;
	} rec = {
		.header = {
			.type = ti->fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT,
			.size = sizeof(rec),
		},
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, task);
	rec.tid = sb_tid(event, task);
	if (ti->fork) {
		/* the forking thread is current */
		rec.ppid = sb_pid(event, current);
		rec.ptid = sb_tid(event, current);
	} else {
		struct task_struct *parent = rcu_dereference(task->real_parent);

		/* the ABI has the parent's process id in both fields */
		rec.ppid = sb_pid(event, parent);
		rec.ptid = rec.ppid;
	}
	rec.time = event->clock();
	perf_output_put(&handle, rec);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_task_record - write PERF_RECORD_FORK or PERF_RECORD_EXIT
 * @task: the new task (fork) or the exiting one (exit, then current)
 * @fork: which of the two
 *
 * A fork is reported to the forking task's events and this CPU's; an exit
 * to the exiting task's (inherited copies included) and this CPU's.
 * Context: process context; no perf context lock held.
 */
void perf_event_task_record(struct task_struct *task, bool fork)
{
	struct sb_task_info ti = { .task = task, .fork = fork };

	sb_walk(PERF_SB_TASK, sb_task_match, sb_task_emit, &ti);
}

/* COMM */

struct sb_comm_info {
	struct task_struct *task;
	char comm[TASK_COMM_LEN];
	u32 size;
	bool exec;
};

static bool sb_comm_match(struct perf_event *event, void *data)
{
	return event->attr.comm;
}

static void sb_comm_emit(struct perf_event *event, void *data)
{
	struct sb_comm_info *ci = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, tid;
	} rec = {
		.header = {
			.type = PERF_RECORD_COMM,
			/* comm_exec only told user space the flag exists */
			.misc = ci->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
			.size = sizeof(rec) + ci->size,
		},
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, ci->task);
	rec.tid = sb_tid(event, ci->task);
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, ci->comm, ci->size);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_comm - a task got a new name
 * @tsk: the task (for prctl and exec, current; /proc writes may name
 *	another thread, but the record still goes to current's events)
 * @exec: the name comes from exec
 *
 * Context: process context.
 */
void perf_event_comm(struct task_struct *tsk, bool exec)
{
	struct sb_comm_info ci = { .task = tsk, .exec = exec };

	/* zero-padded to a multiple of 8 bytes, NUL included */
	strscpy_pad(ci.comm, tsk->comm, sizeof(ci.comm));
	ci.size = ALIGN(strlen(ci.comm) + 1, sizeof(u64));
	sb_walk(PERF_SB_COMM, sb_comm_match, sb_comm_emit, &ci);
}

/* NAMESPACES */

struct sb_ns_info {
	struct task_struct *task;
	struct perf_ns_link_info link[NR_NAMESPACES];
};

static bool sb_ns_match(struct perf_event *event, void *data)
{
	return event->attr.namespaces;
}

static void sb_ns_emit(struct perf_event *event, void *data)
{
	struct sb_ns_info *ni = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, tid;
		u64 nr_namespaces;
	} rec = {
		.header = {
			.type = PERF_RECORD_NAMESPACES,
			.size = sizeof(rec) + sizeof(ni->link),
		},
		.nr_namespaces = NR_NAMESPACES,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, ni->task);
	rec.tid = sb_tid(event, ni->task);
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, ni->link, sizeof(ni->link));
	sb_end(&handle, &sample, event);
}

/* dev and inode of @task's namespace of one kind; zeros if unavailable */
static void sb_ns_link(struct perf_ns_link_info *link,
		       struct task_struct *task,
		       const struct proc_ns_operations *ops)
{
	struct inode *inode;
	struct path path;

	if (ns_get_path(&path, task, ops))
		return;
	inode = d_inode(path.dentry);
	link->dev = new_encode_dev(inode->i_sb->s_dev);
	link->ino = inode->i_ino;
	path_put(&path);
}

/**
 * perf_event_namespaces - report a task's namespaces
 * @task: the task (a new child at fork, current at unshare and setns)
 *
 * Context: process context, may sleep.
 */
void perf_event_namespaces(struct task_struct *task)
{
	struct sb_ns_info *ni;

	/* the namespace lookups sleep and cost: only when someone asks */
	if (!sb_walk(PERF_SB_NS, sb_ns_match, NULL, NULL))
		return;
	ni = kzalloc(sizeof(*ni), GFP_KERNEL);
	if (!ni)
		return;
	ni->task = task;
	sb_ns_link(&ni->link[MNT_NS_INDEX], task, &mntns_operations);
#ifdef CONFIG_USER_NS
	sb_ns_link(&ni->link[USER_NS_INDEX], task, &userns_operations);
#endif
#ifdef CONFIG_NET_NS
	sb_ns_link(&ni->link[NET_NS_INDEX], task, &netns_operations);
#endif
#ifdef CONFIG_UTS_NS
	sb_ns_link(&ni->link[UTS_NS_INDEX], task, &utsns_operations);
#endif
#ifdef CONFIG_IPC_NS
	sb_ns_link(&ni->link[IPC_NS_INDEX], task, &ipcns_operations);
#endif
#ifdef CONFIG_PID_NS
	sb_ns_link(&ni->link[PID_NS_INDEX], task, &pidns_operations);
#endif
#ifdef CONFIG_CGROUPS
	sb_ns_link(&ni->link[CGROUP_NS_INDEX], task, &cgroupns_operations);
#endif
	sb_walk(PERF_SB_NS, sb_ns_match, sb_ns_emit, ni);
	kfree(ni);
}

/**
 * perf_event_fork - a task was created
 * @tsk: the new task; current is the thread that forked it
 *
 * Context: process context (the parent), may sleep.
 */
void perf_event_fork(struct task_struct *tsk)
{
	perf_event_task_record(tsk, true);
	perf_event_namespaces(tsk);
	perf_process_fork(tsk);
}

/* SWITCH and SWITCH_CPU_WIDE */

struct sb_switch_info {
	struct task_struct *next_prev;
	u16 misc;
};

static bool sb_switch_match(struct perf_event *event, void *data)
{
	return event->attr.context_switch;
}

static void sb_switch_emit(struct perf_event *event, void *data)
{
	struct sb_switch_info *si = data;
	/* only a CPU-wide event may learn who the other task is */
	bool cpu_wide = !event->ctx->task;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 next_prev_pid, next_prev_tid;
	} rec = {
		.header = {
			.type = cpu_wide ? PERF_RECORD_SWITCH_CPU_WIDE :
					   PERF_RECORD_SWITCH,
			.misc = si->misc,
			.size = cpu_wide ? sizeof(rec) : sizeof(rec.header),
		},
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	if (cpu_wide) {
		rec.next_prev_pid = sb_pid(event, si->next_prev);
		rec.next_prev_tid = sb_tid(event, si->next_prev);
		perf_output_put(&handle, rec);
	} else {
		perf_output_put(&handle, rec.header);
	}
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_switch_record - write PERF_RECORD_SWITCH(_CPU_WIDE)
 * @task: the task leaving (@sched_in false) or entering the CPU; current
 * @next_prev: the task that runs next, or that ran before
 * @sched_in: which side of the switch this is
 *
 * Called from the scheduler hooks in context.c before they take any perf
 * lock; the walk takes this CPU's context lock and @task's.
 * Context: the scheduler, runqueue lock held, IRQs off.
 */
void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in)
{
	struct sb_switch_info si = { .next_prev = next_prev };

	lockdep_assert_irqs_disabled();
	if (!sched_in) {
		si.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* still runnable: it was preempted, it did not block */
		if (task_is_runnable(task))
			si.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	sb_walk(PERF_SB_SWITCH, sb_switch_match, sb_switch_emit, &si);
}

/* READ */

/* one member's value, id and lost count, as read() lays them out */
static void sb_output_read_one(struct perf_output_handle *handle,
			       struct perf_event *m, u64 fmt)
{
	struct perf_event *orig = m->parent ?: m;
	u64 v;

	/* a copy at exit: its own value, its children already folded in */
	v = local64_read(&m->count) + atomic64_read(&m->child_count);
	perf_output_put(handle, v);
	if (fmt & PERF_FORMAT_ID)
		perf_output_put(handle, orig->id);
	if (fmt & PERF_FORMAT_LOST) {
		v = atomic64_read(&m->lost_samples);
		perf_output_put(handle, v);
	}
}

/* an event's count and times, as read() would give them, into @handle */
static void sb_output_read(struct perf_output_handle *handle,
			   struct perf_event *event)
{
	u64 fmt = event->attr.read_format;
	struct perf_event *leader = event->group_leader, *sibling;
	u64 now, enabled, running, nr;

	perf_event_times_now(event, &now, &enabled, &running);
	if (fmt & PERF_FORMAT_GROUP) {
		nr = leader->nr_siblings + 1;
		perf_output_put(handle, nr);
	}
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_output_put(handle, enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_output_put(handle, running);
	if (!(fmt & PERF_FORMAT_GROUP)) {
		sb_output_read_one(handle, event, fmt);
		return;
	}
	sb_output_read_one(handle, leader, fmt);
	for_each_sibling_event(sibling, leader)
		sb_output_read_one(handle, sibling, fmt);
}

/**
 * perf_event_read_record - write PERF_RECORD_READ for an inherit_stat copy
 * @event: the inherited copy whose task exits
 * @task: that task
 *
 * The layout is read()'s, so the size is header, pid, tid and
 * event->read_size.  Upstream 6.12 calls its equivalent only while the
 * copy's task is alive, which at exit it no longer is, so no READ record
 * reaches user space there; nothing calls this yet, to keep that.
 * Context: process context; @event's context is not locked.
 */
void perf_event_read_record(struct perf_event *event, struct task_struct *task)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, tid;
	} rec = {
		.header = {
			.type = PERF_RECORD_READ,
			.size = sizeof(rec) + event->read_size,
		},
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, task);
	rec.tid = sb_tid(event, task);
	perf_output_put(&handle, rec);
	sb_output_read(&handle, event);
	sb_end(&handle, &sample, event);
}
