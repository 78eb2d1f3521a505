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
 *    not filter this CPU out).
 * Inherited copies live in the child's context, so they see what the child
 * does; their output lands in the original's buffer (ring_buffer.c follows
 * event->parent).  Like upstream, an event of a CPU context that asked only
 * for namespaces records gets none: the per-CPU side-band list upstream
 * keeps does not take such events.
 *
 * Locking.  ctx->event_list is not an RCU list: each walk holds the CPU
 * context's lock and then the task context's (perf_ctx_lock(), the order
 * context.c uses), with IRQs off.  The task's context pointer is read
 * under rcu_read_lock(): contexts are freed after a grace period, and a
 * context that was detached meanwhile only holds events that are no longer
 * enabled.  Records are written with those locks held; the ring-buffer
 * entry points are safe in any context and defer wakeups.  Anything that
 * may sleep (d_path, build-id parsing, namespace lookups) is done before
 * the walk, and only when an event wants the record at all.
 *
 * Records with a sample_id_all trailer get it from sample.c:
 * perf_event_header_init_id() grows the header's size and fills the sample
 * data, perf_event_output_id_sample() writes it after the body.
 */
#include <linux/buildid.h>
#include <linux/dcache.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/proc_ns.h>
#include <linux/slab.h>

#include "internal.h"

/* Does @event want the record described by @data? */
typedef bool (*sb_match_t)(struct perf_event *event, void *data);
/* Write the record described by @data to @event's buffer. */
typedef void (*sb_emit_t)(struct perf_event *event, void *data);

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

static int sb_walk_ctx(struct perf_event_context *ctx, bool cpu_ctx,
		       sb_match_t match, sb_emit_t emit, void *data)
{
	struct perf_event *event;
	int n = 0;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!sb_event_eligible(event, cpu_ctx) || !match(event, data))
			continue;
		n++;
		if (emit)
			emit(event, data);
	}
	return n;
}

/*
 * Offer a record to every eligible event (see the top of the file) of this
 * CPU's context and of current's context.  With @emit NULL nothing is
 * written: the return value (how many events match) tells the caller
 * whether preparing the record is worth it, and @match may note what
 * those events need in @data.
 *
 * Context: any but NMI; must not hold a perf context lock of this CPU.
 */
static int sb_walk(sb_match_t match, sb_emit_t emit, void *data)
{
	struct perf_event_context *tctx;
	struct perf_cpu_context *cpuctx;
	unsigned long flags;
	int n = 0;

	local_irq_save(flags);
	rcu_read_lock();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
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

/* pid and tid of @p as seen from the namespace the event was opened in */
static u32 sb_pid_type(struct perf_event *event, struct task_struct *p,
		       enum pid_type type)
{
	struct perf_event *orig = event->parent ?: event;
	u32 nr = __task_pid_nr_ns(p, type, orig->ns);

	/* an exited task or one outside the namespace reads as -1, not 0 */
	if (!nr && !pid_alive(p))
		nr = -1;
	return nr;
}

static u32 sb_pid(struct perf_event *event, struct task_struct *p)
{
	return sb_pid_type(event, p, PIDTYPE_TGID);
}

static u32 sb_tid(struct perf_event *event, struct task_struct *p)
{
	return sb_pid_type(event, p, PIDTYPE_PID);
}

/*
 * Open a record whose body (header included) is @hdr->size bytes; the
 * trailer, if any, is added to the size here.
 */
static int sb_begin(struct perf_output_handle *handle,
		    struct perf_sample_data *sample, struct perf_event *event,
		    struct perf_event_header *hdr)
{
	perf_sample_data_init(sample, 0, 0);
	perf_event_header_init_id(hdr, sample, event);
	return perf_output_begin(handle, sample, event, hdr->size);
}

static void sb_end(struct perf_output_handle *handle,
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

	sb_walk(sb_task_match, sb_task_emit, &ti);
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
	sb_walk(sb_comm_match, sb_comm_emit, &ci);
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
	if (!sb_walk(sb_ns_match, NULL, NULL))
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
	sb_walk(sb_ns_match, sb_ns_emit, ni);
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
}

/* MMAP and MMAP2 */

struct sb_mmap_info {
	struct vm_area_struct *vma;
	char *name;		/* NUL-padded to name_size */
	u32 name_size;
	u32 maj, min;
	u64 ino, ino_generation;
	u32 prot, flags;
	bool want_build_id;
	u32 build_id_size;
	u8 build_id[BUILD_ID_SIZE_MAX];
};

static bool sb_mmap_match(struct perf_event *event, void *data)
{
	struct sb_mmap_info *mi = data;
	struct perf_event_attr *a = &event->attr;
	bool want;

	/* executable mappings are code; the others only with mmap_data */
	if (mi->vma->vm_flags & VM_EXEC)
		want = a->mmap || a->mmap2;
	else
		want = a->mmap_data;
	if (want && a->mmap2 && a->build_id)
		mi->want_build_id = true;
	return want;
}

static void sb_mmap_emit(struct perf_event *event, void *data)
{
	struct sb_mmap_info *mi = data;
	bool mmap2 = event->attr.mmap2;
	bool with_id = mmap2 && event->attr.build_id && mi->build_id_size;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, tid;
		u64 addr, len, pgoff;
	} rec = {
		.header = {
			.type = mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP,
			.misc = PERF_RECORD_MISC_USER,
			.size = sizeof(rec) + mi->name_size,
		},
		.addr = mi->vma->vm_start,
		.len = mi->vma->vm_end - mi->vma->vm_start,
		.pgoff = (u64)mi->vma->vm_pgoff << PAGE_SHIFT,
	};

	/* maj, min, ino, ino_generation (or the build id), prot, flags */
	if (mmap2)
		rec.header.size += 4 + 4 + 8 + 8 + 4 + 4;
	if (with_id)
		rec.header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (!(mi->vma->vm_flags & VM_EXEC))
		rec.header.misc |= PERF_RECORD_MISC_MMAP_DATA;

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, current);
	rec.tid = sb_tid(event, current);
	perf_output_put(&handle, rec);
	if (mmap2) {
		if (with_id) {
			/* u8 size, three reserved bytes, 20 bytes of id */
			u8 size[4] = { mi->build_id_size };

			perf_output_copy(&handle, size, sizeof(size));
			perf_output_copy(&handle, mi->build_id,
					 sizeof(mi->build_id));
		} else {
			perf_output_put(&handle, mi->maj);
			perf_output_put(&handle, mi->min);
			perf_output_put(&handle, mi->ino);
			perf_output_put(&handle, mi->ino_generation);
		}
		perf_output_put(&handle, mi->prot);
		perf_output_put(&handle, mi->flags);
	}
	perf_output_copy(&handle, mi->name, mi->name_size);
	sb_end(&handle, &sample, event);
}

/* The name user space knows an anonymous or special mapping by. */
static const char *sb_anon_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);	/* [vdso], [uprobes], ... */
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma_is_initial_heap(vma))
		return "[heap]";
	if (vma_is_initial_stack(vma))
		return "[stack]";
	return "//anon";
}

/**
 * perf_event_mmap - a mapping was created or changed
 * @vma: the mapping; current's mm, mmap_lock held
 *
 * Writes PERF_RECORD_MMAP (attr.mmap) or PERF_RECORD_MMAP2 (attr.mmap2)
 * for executable mappings, and for the others with attr.mmap_data.  The
 * loader's mappings of an exec'ed image come through here too.
 * Context: process context, may sleep.
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	struct sb_mmap_info mi = { .vma = vma };
	struct file *file = vma->vm_file;
	/* anonymous names are cut to 15 characters, as upstream does */
	char short_name[16];
	char *buf = NULL;
	u32 len;

	if (!sb_walk(sb_mmap_match, NULL, &mi))
		return;

	if (vma->vm_flags & VM_READ)
		mi.prot |= PROT_READ;
	if (vma->vm_flags & VM_WRITE)
		mi.prot |= PROT_WRITE;
	if (vma->vm_flags & VM_EXEC)
		mi.prot |= PROT_EXEC;
	mi.flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
	if (vma->vm_flags & VM_LOCKED)
		mi.flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page(vma))
		mi.flags |= MAP_HUGETLB;

	if (file) {
		const struct inode *inode = file_user_inode(file);
		char *path;

		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!buf) {
			strscpy_pad(short_name, "//enomem", sizeof(short_name));
			mi.name = short_name;
			goto named;
		}
		/* leave room after the path for the padding to 8 bytes */
		path = d_path(file_user_path(file), buf,
			      PATH_MAX - sizeof(u64));
		if (IS_ERR(path)) {
			strscpy_pad(short_name, "//toolong",
				    sizeof(short_name));
			mi.name = short_name;
			goto named;
		}
		mi.name = path;
		mi.maj = MAJOR(inode->i_sb->s_dev);
		mi.min = MINOR(inode->i_sb->s_dev);
		mi.ino = inode->i_ino;
		mi.ino_generation = inode->i_generation;
	} else {
		strscpy_pad(short_name, sb_anon_name(vma), sizeof(short_name));
		mi.name = short_name;
	}
named:
	len = strlen(mi.name) + 1;
	mi.name_size = ALIGN(len, sizeof(u64));
	memset(mi.name + len, 0, mi.name_size - len);

	if (mi.want_build_id && file)
		build_id_parse_nofault(vma, mi.build_id, &mi.build_id_size);

	sb_walk(sb_mmap_match, sb_mmap_emit, &mi);
	kfree(buf);
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

	if (!sched_in) {
		si.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* still runnable: it was preempted, it did not block */
		if (task_is_runnable(task))
			si.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	sb_walk(sb_switch_match, sb_switch_emit, &si);
}

/* KSYMBOL */

struct sb_ksym_info {
	u64 addr;
	u32 len;
	u16 type, flags;
	u32 name_size;
	char name[KSYM_NAME_LEN];
};

static bool sb_ksym_match(struct perf_event *event, void *data)
{
	return event->attr.ksymbol;
}

static void sb_ksym_emit(struct perf_event *event, void *data)
{
	struct sb_ksym_info *ki = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u64 addr;
		u32 len;
		u16 ksym_type, flags;
	} rec = {
		.header = {
			.type = PERF_RECORD_KSYMBOL,
			.size = sizeof(rec) + ki->name_size,
		},
		.addr = ki->addr,
		.len = ki->len,
		.ksym_type = ki->type,
		.flags = ki->flags,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, ki->name, ki->name_size);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_ksymbol - kernel text appeared or went away
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_BPF or _OOL
 * @addr: its start
 * @len: its length
 * @unregister: it went away
 * @name: its symbol name
 *
 * Context: process context (BPF, kprobes, ftrace trampolines).
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name)
{
	struct sb_ksym_info ki = {
		.addr = addr,
		.len = len,
		.type = ksym_type,
		.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
	};
	u32 n;

	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: bad ksymbol type %u\n", ksym_type))
		return;
	strscpy(ki.name, name, sizeof(ki.name));
	/* NUL-padded to 8 bytes; KSYM_NAME_LEN is a multiple of 8 */
	n = strlen(ki.name) + 1;
	ki.name_size = ALIGN(n, sizeof(u64));
	memset(ki.name + n, 0, ki.name_size - n);
	sb_walk(sb_ksym_match, sb_ksym_emit, &ki);
}

/* BPF_EVENT */

struct sb_bpf_info {
	u16 type, flags;
	u32 id;
	u8 tag[BPF_TAG_SIZE];
};

static bool sb_bpf_match(struct perf_event *event, void *data)
{
	return event->attr.bpf_event;
}

static void sb_bpf_emit(struct perf_event *event, void *data)
{
	struct sb_bpf_info *bi = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u16 type, flags;
		u32 id;
	} rec = {
		.header = {
			.type = PERF_RECORD_BPF_EVENT,
			.size = sizeof(rec) + sizeof(bi->tag),
		},
		.type = bi->type,
		.flags = bi->flags,
		.id = bi->id,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, bi->tag, sizeof(bi->tag));
	sb_end(&handle, &sample, event);
}

/* a program's JITed text, and that of each of its subprograms */
static void sb_bpf_ksymbols(struct bpf_prog *prog, bool unregister)
{
	u32 i;

	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
			   (u64)(unsigned long)prog->bpf_func,
			   prog->jited_len, unregister, prog->aux->ksym.name);
	/* func[0] is the main program, reported just above */
	for (i = 1; i < prog->aux->func_cnt; i++) {
		struct bpf_prog *sub = prog->aux->func[i];

		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (u64)(unsigned long)sub->bpf_func,
				   sub->jited_len, unregister,
				   sub->aux->ksym.name);
	}
}

/**
 * perf_event_bpf_event - a BPF program was loaded or unloaded
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or _UNLOAD (others are ignored)
 * @flags: reserved, passed through
 *
 * Also writes KSYMBOL records for its text to attr.ksymbol events.
 * Context: process context, or wherever the last reference is dropped.
 */
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
	struct sb_bpf_info bi = { .type = type, .flags = flags };

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;
	sb_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	bi.id = prog->aux->id;
	memcpy(bi.tag, prog->tag, sizeof(bi.tag));
	sb_walk(sb_bpf_match, sb_bpf_emit, &bi);
}

/* TEXT_POKE */

struct sb_poke_info {
	u64 addr;
	const void *old_bytes, *new_bytes;
	u16 old_len, new_len;
	u32 pad;
};

static bool sb_poke_match(struct perf_event *event, void *data)
{
	return event->attr.text_poke;
}

static void sb_poke_emit(struct perf_event *event, void *data)
{
	struct sb_poke_info *pi = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	static const u64 zero;
	struct {
		struct perf_event_header header;
		u64 addr;
	} rec = {
		.header = {
			.type = PERF_RECORD_TEXT_POKE,
			.misc = PERF_RECORD_MISC_KERNEL,
			.size = sizeof(rec) + sizeof(pi->old_len) +
				pi->old_len + sizeof(pi->new_len) +
				pi->new_len + pi->pad,
		},
		.addr = pi->addr,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_put(&handle, pi->old_len);
	perf_output_copy(&handle, pi->old_bytes, pi->old_len);
	perf_output_put(&handle, pi->new_len);
	perf_output_copy(&handle, pi->new_bytes, pi->new_len);
	if (pi->pad)
		perf_output_copy(&handle, &zero, pi->pad);
	sb_end(&handle, &sample, event);
}

/**
 * perf_event_text_poke - kernel text was patched
 * @addr: where
 * @old_bytes: the bytes before (may be NULL when @old_len is 0)
 * @old_len: their number
 * @new_bytes: the bytes after
 * @new_len: their number
 *
 * Context: process context, text_mutex held by the patching code.
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
	struct sb_poke_info pi = {
		.addr = (unsigned long)addr,
		.old_bytes = old_bytes,
		.new_bytes = new_bytes,
		.old_len = old_len,
		.new_len = new_len,
	};
	size_t body = sizeof(pi.old_len) + old_len + sizeof(pi.new_len) +
		      new_len;

	pi.pad = ALIGN(body, sizeof(u64)) - body;
	sb_walk(sb_poke_match, sb_poke_emit, &pi);
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
