// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): copying and checking the attributes, the permission
 * rules, and building the event with its file descriptor.
 *
 * The order of the checks is part of the ABI: when an attr is wrong in two
 * ways, user space sees the errno of the first check upstream makes, so
 * tools that probe features by errno keep working.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "aux.h"
#include "cgroup.h"
#include "context.h"
#include "control.h"
#include "event.h"
#include "exclusive.h"
#include "file.h"
#include "groups.h"
#include "pmu.h"
#include "process.h"
#include "rb.h"
#include "sample.h"
#include "syscall.h"

#define PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC | \
			 PERF_EXT_FLAGS)

/**
 * perf_allow_kernel - may the caller observe kernel execution?
 *
 * Return: 0, or -EACCES when perf_event_paranoid > 1 and the caller lacks
 * CAP_PERFMON (or CAP_SYS_ADMIN).
 */
int perf_allow_kernel(void)
{
	/* paranoid level 2 and up keeps the kernel to CAP_PERFMON */
	bool kernel_restricted = sysctl_perf_event_paranoid >= 2;

	if (kernel_restricted && !perfmon_capable())
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_KERNEL);
}
EXPORT_SYMBOL_GPL(perf_allow_kernel);

/* The privilege levels the event itself counts at, as branch-sample bits. */
static u64 perf_attr_branch_levels(const struct perf_event_attr *attr)
{
	u64 levels = PERF_SAMPLE_BRANCH_PLM_ALL;

	if (attr->exclude_user)
		levels &= ~PERF_SAMPLE_BRANCH_USER;
	if (attr->exclude_kernel)
		levels &= ~PERF_SAMPLE_BRANCH_KERNEL;
	if (attr->exclude_hv)
		levels &= ~PERF_SAMPLE_BRANCH_HV;
	return levels;
}

static int perf_check_branch_type(struct perf_event_attr *attr)
{
	u64 mask = attr->branch_sample_type;
	u64 kinds = mask & ~PERF_SAMPLE_BRANCH_PLM_ALL;

	/*
	 * Unknown bits, or only privilege levels without any branch kind:
	 * both EINVAL.  (PERF_SAMPLE_BRANCH_MAX is a power of two.)
	 */
	if (mask >= PERF_SAMPLE_BRANCH_MAX || !kinds)
		return -EINVAL;
	/* no level given: the event's own exclude bits decide */
	if (kinds == mask) {
		mask |= perf_attr_branch_levels(attr);
		attr->branch_sample_type = mask;
	}
	return (mask & PERF_SAMPLE_BRANCH_PERM_PLM) ? perf_allow_kernel() : 0;
}

/*
 * Attribute combinations that contradict each other.  All are EINVAL, so
 * their order among themselves is invisible.
 */
static bool perf_attr_conflicts(const struct perf_event_attr *attr)
{
	u64 st = attr->sample_type;

	/* cgroup ids exist only with cgroup events built in */
	if (!IS_ENABLED(CONFIG_CGROUP_PERF) && (st & PERF_SAMPLE_CGROUP))
		return true;
	/* the two layouts of the weight field are alternatives */
	if ((st & PERF_SAMPLE_WEIGHT_TYPE) == PERF_SAMPLE_WEIGHT_TYPE)
		return true;
	if (attr->inherit_thread && !attr->inherit)
		return true;
	if (attr->enable_on_exec && attr->remove_on_exec)
		return true;
	/* loss accounting is read()'s; samples and records carry the losses */
	if ((attr->read_format & PERF_FORMAT_LOSSES) &&
	    ((st & PERF_SAMPLE_READ) || attr->inherit_stat))
		return true;
	/* sigtrap must not outlive the program that asked for it */
	return attr->sigtrap && !attr->remove_on_exec;
}

/*
 * The attr's bytes, in whatever version user space speaks: a size of 0
 * means the first version, a size above ours is taken when every byte past
 * ours is zero, and otherwise user space learns our size (written back to
 * uattr->size) from -E2BIG.  What the user did not give reads as zero.
 */
static int perf_attr_from_user(struct perf_event_attr __user *uattr,
			       struct perf_event_attr *attr)
{
	int err = -E2BIG;
	u32 usize;

	memset(attr, 0, sizeof(*attr));
	if (get_user(usize, &uattr->size))
		return -EFAULT;
	if (!usize)
		usize = PERF_ATTR_SIZE_VER0;
	if (usize >= PERF_ATTR_SIZE_VER0 && usize <= PAGE_SIZE)
		err = copy_struct_from_user(attr, sizeof(*attr), uattr, usize);
	if (!err)
		attr->size = usize;
	else if (err == -E2BIG)
		put_user(sizeof(*attr), &uattr->size);
	return err;
}

/**
 * perf_copy_attr - fetch perf_event_attr from user space and check it
 * @uattr: the user's copy; attr.size says how much of it there is
 * @attr: where to put it, zero-extended to our size
 *
 * A size we do not know is fine if the bytes beyond ours are zero; if they
 * are not, user space learns our size from -E2BIG and uattr->size.
 *
 * Return: 0 or a negative errno.
 */
int perf_copy_attr(struct perf_event_attr __user *uattr,
		   struct perf_event_attr *attr)
{
	int intr_err = 0;
	int ret;

	ret = perf_attr_from_user(uattr, attr);
	if (ret)
		return ret;
	/* reserved fields and bits no kernel knows must be zero */
	if ((attr->sample_type & ~PERF_SAMPLE_VALID) ||
	    (attr->read_format & ~PERF_FORMAT_VALID) ||
	    attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		ret = perf_check_branch_type(attr);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_REGS_USER) {
		ret = perf_reg_validate(attr->sample_regs_user);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		if (attr->sample_stack_user >= USHRT_MAX ||
		    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
			return -EINVAL;
	}
	if (!attr->sample_max_stack)
		attr->sample_max_stack = sysctl_perf_event_max_stack;
	/*
	 * A bad interrupt register mask is reported only if nothing below
	 * fails first: upstream's order, which tools have come to rely on.
	 */
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR)
		intr_err = perf_reg_validate(attr->sample_regs_intr);
	if (perf_attr_conflicts(attr))
		return -EINVAL;
	return intr_err;
}

/* Checks that need the caller's privileges, in upstream's order. */
static int perf_check_privilege(struct perf_event_attr *attr)
{
	int err;

	/*
	 * Debian's level 3 lets only CAP_SYS_ADMIN open anything.  Ours lets
	 * CAP_PERFMON through as well, the capability made for exactly this
	 * (W1 in status.rst): a container granted CAP_PERFMON alone can
	 * profile without also being handed the rest of CAP_SYS_ADMIN.
	 */
	if (perf_paranoid_any() && !perfmon_capable())
		return -EACCES;
	err = security_perf_event_open(PERF_SECURITY_OPEN);
	if (err)
		return err;
	if (!attr->exclude_kernel || attr->text_poke ||
	    ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	     !attr->exclude_callchain_kernel)) {
		err = perf_allow_kernel();
		if (err)
			return err;
	}
	if (attr->namespaces && !perfmon_capable())
		return -EACCES;
	if (attr->freq) {
		if (attr->sample_freq > sysctl_perf_event_sample_rate)
			return -EINVAL;
	} else if (attr->sample_period & (1ULL << 63)) {
		return -EINVAL;
	}
	if (attr->sample_type & PERF_SAMPLE_PHYS_ADDR) {
		err = perf_allow_kernel();
		if (err)
			return err;
	}
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR)
		return security_locked_down(LOCKDOWN_PERF);
	return 0;
}

/* The task @pid names, with a reference; 0 is the caller. */
static struct task_struct *perf_find_task(pid_t pid)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid ? find_task_by_vpid(pid) : current;
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ? task : ERR_PTR(-ESRCH);
}

/*
 * May the caller watch @task?  The same rule as reading its memory through
 * ptrace; sigtrap also sends signals to it, so it needs attach rights or
 * CAP_KILL over it.  A process-wide event (our extension) reaches threads
 * the open never names: it needs the rights of a ptrace attach.  Called
 * with the task's exec_update_lock held, so the credentials cannot change
 * under us through exec.
 */
static bool perf_may_watch(struct perf_event_attr *attr,
			   struct task_struct *task, bool process)
{
	unsigned int mode = PTRACE_MODE_READ_REALCREDS;
	bool capable = perfmon_capable();

	if (process)
		mode = PTRACE_MODE_ATTACH_REALCREDS;
	if (attr->sigtrap) {
		rcu_read_lock();
		capable &= ns_capable(__task_cred(task)->user_ns, CAP_KILL);
		rcu_read_unlock();
		mode = PTRACE_MODE_ATTACH_REALCREDS;
	}
	return capable || ptrace_may_access(task, mode);
}

/* The event's file, taken from a group_fd; -EBADF if it is not ours. */
static int perf_fget(int fd, struct fd *out)
{
	struct fd f = fdget(fd);

	if (!fd_file(f))
		return -EBADF;
	if (!is_perf_file(fd_file(f))) {
		fdput(f);
		return -EBADF;
	}
	*out = f;
	return 0;
}

/*
 * group_fd names an event: the group to join, unless PERF_FLAG_FD_NO_GROUP,
 * and with PERF_FLAG_FD_OUTPUT also the buffer to write into.  On success
 * @group holds its file until the open is over; on failure @group is left
 * for the caller to put (EMPTY_FD if nothing was taken).
 */
static int perf_open_group_fd(int group_fd, unsigned long flags,
			      struct fd *group, struct perf_event **leader,
			      struct perf_event **output)
{
	struct perf_event *named;
	int err;

	if (group_fd == -1)
		return 0;
	err = perf_fget(group_fd, group);
	if (err)
		return err;
	named = fd_file(*group)->private_data;
	/* its file is open but the event already went away */
	if (named->state <= PERF_EVENT_STATE_EXIT)
		return -ENODEV;
	*output = (flags & PERF_FLAG_FD_OUTPUT) ? named : NULL;
	*leader = (flags & PERF_FLAG_FD_NO_GROUP) ? NULL : named;
	return 0;
}

/* prctl(PR_TASK_PERF_EVENTS_*) acts on the events a task created */
static void perf_event_link_owner(struct perf_event *event)
{
	struct task_struct *me = current;

	mutex_lock(&me->perf_event_mutex);
	event->owner = me;
	list_add_tail(&event->owner_entry, &me->perf_event_list);
	mutex_unlock(&me->perf_event_mutex);
}

/*
 * use_clockid: timestamps from another clock.  Clocks that are not safe to
 * read from NMI context are allowed only on PMUs that never raise NMIs.
 */
static int perf_event_set_clock(struct perf_event *event, clockid_t clk)
{
	bool nmi_safe = false;

	switch (clk) {
	case CLOCK_MONOTONIC:
		event->clock = ktime_get_mono_fast_ns;
		nmi_safe = true;
		break;
	case CLOCK_MONOTONIC_RAW:
		event->clock = ktime_get_raw_fast_ns;
		nmi_safe = true;
		break;
	case CLOCK_REALTIME:
		event->clock = ktime_get_real_ns;
		break;
	case CLOCK_BOOTTIME:
		event->clock = ktime_get_boottime_ns;
		break;
	case CLOCK_TAI:
		event->clock = ktime_get_clocktai_ns;
		break;
	default:
		return -EINVAL;
	}
	if (!nmi_safe && !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;
	return 0;
}

/*
 * Can @event join @leader's group?  ctx->mutex held.  Return an errno as
 * upstream does for the same mistake.
 */
static int perf_check_group(struct perf_event *event,
			    struct perf_event *leader,
			    struct perf_event_context *ctx)
{
	struct pmu *hw;

	lockdep_assert_held(&ctx->mutex);
	if (leader->group_leader != leader)
		return -EINVAL;
	if (leader->clock != event->clock || leader->cpu != event->cpu ||
	    leader->ctx != ctx)
		return -EINVAL;
	if (leader->state <= PERF_EVENT_STATE_EXIT)
		return -ENODEV;
	if (event->attr.exclusive || event->attr.pinned)
		return -EINVAL;
	if (!is_software_event(event)) {
		hw = perf_group_hw_pmu(leader);
		if (hw && hw != event->pmu)
			return -EINVAL;
	}
	return 0;
}

/*
 * What an open has built so far, in the order it builds it; a failure at
 * any step hands it to perf_open_abort(), which undoes exactly what is
 * there.  The steps keep upstream's order of checks, which is ABI (see the
 * top of this file).
 */
struct perf_open {
	struct perf_event_attr attr;
	int fd;				/* reserved, not yet installed */
	int f_flags;
	struct fd group;		/* group_fd's file, held until the end */
	struct perf_event *leader;	/* the group to join, or NULL */
	struct perf_event *output;	/* the buffer to write into, or NULL */
	struct task_struct *task;	/* referenced; NULL for a CPU event */
	bool task_locked;		/* its exec_update_lock read-held */
	struct perf_event *event;
	struct perf_event_context *ctx;	/* referenced */
	unsigned int ext_flags;		/* PERF_EXT_FLAGS asked for */
};

/*
 * Our extensions' flags (uapi header, section 8).  A process-wide event
 * names a process, so neither a cgroup nor every task; its copies write
 * from every CPU, so its buffer is a shared one.  A shared buffer is
 * written forward only, and needs a 64-bit state word (rb_shared.c).
 */
static int perf_open_ext_flags(struct perf_open *op, pid_t pid,
			       unsigned long flags)
{
	op->ext_flags = flags & PERF_EXT_FLAGS;
	if (!op->ext_flags)
		return 0;
	if (op->ext_flags & PERF_FLAG_PID_PROCESS) {
		if (pid == -1 || (flags & PERF_FLAG_PID_CGROUP))
			return -EINVAL;
		op->ext_flags |= PERF_FLAG_SHARED_BUFFER;
	}
	if (op->attr.write_backward)
		return -EINVAL;
	return IS_ENABLED(CONFIG_64BIT) ? 0 : -EOPNOTSUPP;
}

/* Step 1: the attr and the flags, before anything is taken. */
static int perf_open_args(struct perf_open *op,
			  struct perf_event_attr __user *uattr, pid_t pid,
			  int cpu, unsigned long flags)
{
	int err;

	if (flags & ~PERF_FLAG_ALL)
		return -EINVAL;
	err = perf_copy_attr(uattr, &op->attr);
	if (err)
		return err;
	err = perf_check_privilege(&op->attr);
	if (err)
		return err;
	/* a cgroup event is a CPU event: pid is the cgroup's directory */
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	err = perf_open_ext_flags(op, pid, flags);
	if (err)
		return err;
	op->f_flags = O_RDWR;
	if (flags & PERF_FLAG_FD_CLOEXEC)
		op->f_flags |= O_CLOEXEC;
	return 0;
}

/* Step 2: the descriptor to return, the group_fd, and the task. */
static int perf_open_targets(struct perf_open *op, pid_t pid, int group_fd,
			     unsigned long flags)
{
	struct task_struct *task;
	int err;

	err = get_unused_fd_flags(op->f_flags);
	if (err < 0)
		return err;
	op->fd = err;

	err = perf_open_group_fd(group_fd, flags, &op->group, &op->leader,
				 &op->output);
	if (err || pid == -1 || (flags & PERF_FLAG_PID_CGROUP))
		return err;

	task = perf_find_task(pid);
	if (IS_ERR(task))
		return PTR_ERR(task);
	op->task = task;
	/* inherited groups are copied whole: all members or none */
	if (op->leader && (op->leader->attr.inherit != op->attr.inherit ||
			   op->leader->ext_flags != op->ext_flags))
		return -EINVAL;
	return 0;
}

/* Step 3: the event itself, with what it needs of its PMU. */
static int perf_open_event(struct perf_open *op, pid_t pid, int cpu,
			   unsigned long flags)
{
	struct perf_event *event;
	int err;

	event = perf_event_alloc(&op->attr, cpu, op->task, op->leader, NULL,
				 NULL, NULL);
	if (IS_ERR(event))
		return PTR_ERR(event);
	op->event = event;
	event->ext_flags = op->ext_flags;

	if (flags & PERF_FLAG_PID_CGROUP) {
		err = perf_cgroup_connect(pid, event, op->leader);
		if (err)
			return err;
	}
	if (is_sampling_event(event) &&
	    (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		return -EOPNOTSUPP;
	if (op->attr.use_clockid)
		return perf_event_set_clock(event, op->attr.clockid);
	return 0;
}

/*
 * Step 4: may the caller watch the task?  exec_update_lock stays held to
 * the end, so an exec cannot change the credentials this decided on.
 */
static int perf_open_authorize(struct perf_open *op)
{
	int err;

	if (!op->task)
		return 0;
	err = down_read_interruptible(&op->task->signal->exec_update_lock);
	if (err)
		return err;
	op->task_locked = true;
	return perf_may_watch(&op->attr, op->task,
			      perf_event_process_wide(op->event)) ? 0 : -EACCES;
}

/* Step 5: the context to join, and the buffer to share. */
static int perf_open_context(struct perf_open *op, int cpu)
{
	struct perf_event_context *ctx;

	ctx = perf_find_get_context(op->task, cpu);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	op->ctx = ctx;
	if (op->output)
		return perf_event_set_output(op->event, op->output);
	return 0;
}

/*
 * Checks against the context's present state: they hold only while
 * ctx->mutex is, so they run under it, right before the install.
 */
static int perf_open_may_install(struct perf_open *op, int cpu)
{
	struct perf_event *event = op->event;
	struct perf_event_attr *attr = &op->attr;
	struct perf_event_context *ctx = op->ctx;
	int err;

	lockdep_assert_held(&ctx->mutex);
	if (op->task && READ_ONCE(ctx->task) == TASK_TOMBSTONE)
		return -ESRCH;
	if (!op->task && !per_cpu(perf_cpu_ctx, cpu).online)
		return -ENODEV;
	if (op->leader) {
		err = perf_check_group(event, op->leader, ctx);
		if (err)
			return err;
	}
	if (!perf_event_validate_size(event))
		return -E2BIG;
	/* aux_output, aux_pause/resume, aux_sample_size: an AUX leader */
	if (perf_aux_needs_leader(attr)) {
		err = perf_aux_link(event, op->leader);
		if (err)
			return err;
	}
	/* against a concurrent open into the same ctx */
	if (!perf_exclusive_installable(event, ctx))
		return -EBUSY;
	/* a task event bound to a CPU needs that CPU's bucket (groups.c) */
	return perf_groups_reserve(ctx, event->cpu);
}

/* Step 6: the file, and the event into its context. */
static int perf_open_install(struct perf_open *op, int cpu)
{
	struct perf_event_context *ctx = op->ctx;
	struct perf_event *event = op->event;
	struct file *file;
	int err;

	mutex_lock(&ctx->mutex);
	err = perf_open_may_install(op, cpu);
	if (err)
		goto out;
	file = anon_inode_getfile("[perf_event]", &perf_fops, event,
				  op->f_flags);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out;
	}
	event->filp = file;
	/* the context's reference is the event's from here on */
	event->ctx = ctx;
	op->ctx = NULL;
	perf_install_in_context(ctx, event);
out:
	mutex_unlock(&ctx->mutex);
	return err;
}

/* What the open holds on its target task: exec_update_lock and a ref. */
static void perf_open_drop_task(struct perf_open *op)
{
	if (op->task_locked)
		up_read(&op->task->signal->exec_update_lock);
	if (op->task)
		put_task_struct(op->task);
}

/* Undo what the steps of a failed open built, last step first. */
static void perf_open_abort(struct perf_open *op)
{
	if (op->ctx)
		perf_put_ctx(op->ctx);
	perf_open_drop_task(op);
	/* it holds its own reference on the task (hw.target) */
	if (op->event)
		perf_event_free(op->event);
	fdput(op->group);
	if (op->fd >= 0)
		put_unused_fd(op->fd);
}

/**
 * sys_perf_event_open - open a performance event
 * @attr_uptr: the attributes
 * @pid: the task (0: the caller), or -1 for every task on @cpu
 * @cpu: the CPU, or -1 for every CPU the task runs on
 * @group_fd: the group leader's fd, or -1
 * @flags: PERF_FLAG_*
 *
 * Return: a new file descriptor or a negative errno.
 */
SYSCALL_DEFINE5(perf_event_open,
		struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_open op = { .group = EMPTY_FD, .fd = -1 };
	int err;

	err = perf_open_args(&op, attr_uptr, pid, cpu, flags);
	if (err)
		return err;

	err = perf_open_targets(&op, pid, group_fd, flags);
	if (!err)
		err = perf_open_event(&op, pid, cpu, flags);
	if (!err)
		err = perf_open_authorize(&op);
	if (!err)
		err = perf_open_context(&op, cpu);
	if (!err)
		err = perf_open_install(&op, cpu);
	if (err) {
		perf_open_abort(&op);
		return err;
	}

	perf_open_drop_task(&op);
	fdput(op.group);
	if (perf_event_process_wide(op.event)) {
		/* the event holds its own reference on the task */
		err = perf_process_follow(op.event, op.event->hw.target);
		if (err) {
			/* the file's release takes the copies with it */
			fput(op.event->filp);
			put_unused_fd(op.fd);
			return err;
		}
	}
	perf_event_link_owner(op.event);
	fd_install(op.fd, op.event->filp);
	return op.fd;
}
