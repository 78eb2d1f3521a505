// SPDX-License-Identifier: GPL-2.0
/*
 * The file behind an event's descriptor: read(), poll(), ioctl(), fasync
 * and close().  mmap() is the ring buffer's (rb_buffer.c).
 *
 * All of these run in process context and take the event's ctx->mutex,
 * which keeps the group stable while it is read or changed.
 */
#include <linux/compat.h>
#include <linux/file.h>
#include <linux/hw_breakpoint.h>
#include <linux/poll.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "addr_filter.h"
#include "bpf.h"
#include "context.h"
#include "control.h"
#include "event.h"
#include "file.h"
#include "process.h"
#include "rb.h"
#include "read.h"
#include "syscall.h"
#include "wakeup.h"

static u64 event_lost(struct perf_event *event)
{
	return atomic64_read(&event->lost_samples);
}

/*
 * Lay out what follows one event's value: its id, lost count and (our
 * extension) losses, as read_format asks.  @enabled and @running are the
 * event's own, children included: what it was enabled for but did not
 * count is the difference.
 */
static int put_tail(struct perf_event *event, u64 fmt, u64 *buf,
		    u64 enabled, u64 running)
{
	int n = 0;

	if (fmt & PERF_FORMAT_ID)
		buf[n++] = perf_event_primary_id(event);
	if (fmt & PERF_FORMAT_LOST)
		buf[n++] = event_lost(event);
	if (fmt & PERF_FORMAT_LOSSES) {
		buf[n++] = event_lost(event);
		buf[n++] = atomic64_read(&event->throttled);
		buf[n++] = enabled > running ? enabled - running : 0;
	}
	return n;
}

static ssize_t perf_read_group(struct perf_event *event, u64 fmt,
			       char __user *ubuf)
{
	struct perf_event *leader = event->group_leader, *sibling;
	u64 enabled, running, value;
	u64 stack_buf[3 + 3 * 16];
	u64 *buf;
	int n = 0;
	ssize_t ret;

	/* most groups are small: no allocation on every read */
	if (event->read_size <= sizeof(stack_buf)) {
		buf = stack_buf;
	} else {
		buf = kmalloc(event->read_size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}

	perf_event_sync_group(leader, true);
	buf[n++] = 1 + leader->nr_siblings;
	value = perf_event_read_total(leader, &enabled, &running);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		buf[n++] = enabled;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		buf[n++] = running;
	buf[n++] = value;
	n += put_tail(leader, fmt, buf + n, enabled, running);
	for_each_sibling_event(sibling, leader) {
		buf[n++] = perf_event_read_total(sibling, &enabled, &running);
		n += put_tail(sibling, fmt, buf + n, enabled, running);
	}

	ret = n * sizeof(u64);
	if (copy_to_user(ubuf, buf, ret))
		ret = -EFAULT;
	if (buf != stack_buf)
		kfree(buf);
	return ret;
}

static ssize_t perf_read_one(struct perf_event *event, u64 fmt,
			     char __user *ubuf)
{
	u64 buf[5 + PERF_LOSSES_FIELDS], enabled, running, value;
	int n = 0;

	perf_event_sync_group(event, false);
	value = perf_event_read_total(event, &enabled, &running);
	buf[n++] = value;
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		buf[n++] = enabled;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		buf[n++] = running;
	n += put_tail(event, fmt, buf + n, enabled, running);
	if (copy_to_user(ubuf, buf, n * sizeof(u64)))
		return -EFAULT;
	return n * sizeof(u64);
}

static ssize_t perf_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *ctx;
	u64 fmt = event->attr.read_format;
	ssize_t ret;

	ret = security_perf_event_read(event);
	if (ret)
		return ret;

	/* a pinned group that could not be scheduled reads as end of file */
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ERROR)
		return 0;

	ctx = perf_event_ctx_lock(event);
	if (count < event->read_size) {
		ret = -ENOSPC;
	} else if (fmt & PERF_FORMAT_GROUP) {
		/* a sibling's size is not redone when its group grows */
		perf_event_calc_read_size(event);
		ret = count < event->read_size ? -ENOSPC :
			perf_read_group(event, fmt, buf);
	} else {
		ret = perf_read_one(event, fmt, buf);
	}
	mutex_unlock(&ctx->mutex);
	return ret;
}

/* The watched task is gone and no inherited copy still counts. */
static bool event_hung_up(struct perf_event *event)
{
	bool alone;

	if (READ_ONCE(event->state) > PERF_EVENT_STATE_EXIT)
		return false;
	mutex_lock(&event->child_mutex);
	alone = list_empty(&event->child_list);
	mutex_unlock(&event->child_mutex);
	return alone;
}

static __poll_t perf_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;

	poll_wait(file, &event->waitq, wait);
	if (event_hung_up(event))
		return EPOLLHUP;
	if (READ_ONCE(event->state) == PERF_EVENT_STATE_ERROR &&
	    event->attr.pinned)
		return EPOLLHUP;
	/*
	 * Readiness comes from the ring buffer; an event without one has
	 * nothing to wait for, and reports POLLHUP as upstream does.
	 */
	return perf_event_rb_poll(event);
}

typedef void (*perf_event_op_t)(struct perf_event *event);

static void op_enable(struct perf_event *event)
{
	perf_event_do_enable(event);
}

static void op_disable(struct perf_event *event)
{
	perf_event_do_disable(event);
}

/* @op on the copies @event's children inherited */
static void apply_to_children(struct perf_event *event, perf_event_op_t op)
{
	struct perf_event *child;

	if (list_empty(&event->child_list))
		return;
	mutex_lock(&event->child_mutex);
	/*
	 * child_mutex keeps the copies alive; their contexts' mutexes are
	 * not taken under it (see perf_ctx_call()).
	 */
	list_for_each_entry(child, &event->child_list, child_list)
		op(child);
	mutex_unlock(&event->child_mutex);
}

/* @op on @event and on the copies its children inherited */
static void apply_with_children(struct perf_event *event, perf_event_op_t op)
{
	op(event);
	apply_to_children(event, op);
}

/*
 * @op on a whole group (PERF_IOC_FLAG_GROUP) or on one event.  Enabling
 * or disabling a group changes all its members in one call; their copies
 * in children follow one by one.
 */
static void perf_apply(struct perf_event *event, perf_event_op_t op,
		       unsigned long flags)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (!(flags & PERF_IOC_FLAG_GROUP)) {
		apply_with_children(event, op);
		return;
	}
	if (op == op_enable || op == op_disable) {
		perf_event_group_switch(leader, op == op_enable);
		apply_to_children(leader, op);
		for_each_sibling_event(sibling, leader)
			apply_to_children(sibling, op);
		return;
	}
	apply_with_children(leader, op);
	for_each_sibling_event(sibling, leader)
		apply_with_children(sibling, op);
}

static int perf_modify_attr(struct perf_event *event,
			    struct perf_event_attr __user *uattr)
{
	struct perf_event_attr attr;
	int err;

	err = perf_copy_attr(uattr, &attr);
	if (err)
		return err;
	if (event->attr.type != attr.type)
		return -EINVAL;
#ifdef CONFIG_HAVE_HW_BREAKPOINT
	if (attr.type == PERF_TYPE_BREAKPOINT) {
		struct perf_event *child;

		/*
		 * sig_data may change with any type; copy it first, as the
		 * breakpoint check requires every other field to be equal.
		 */
		event->attr.sig_data = attr.sig_data;
		err = modify_user_hw_breakpoint_check(event, &attr, true);
		if (err)
			return err;
		mutex_lock(&event->child_mutex);
		list_for_each_entry(child, &event->child_list, child_list) {
			child->attr.sig_data = attr.sig_data;
			err = modify_user_hw_breakpoint_check(child, &attr,
							      true);
			if (err)
				break;
		}
		mutex_unlock(&event->child_mutex);
		return err;
	}
#endif
	return -EOPNOTSUPP;
}

/*
 * A trace event filter (Documentation/trace/events.rst, "Event
 * filtering") for an event of the tracepoint, kprobe or uprobe PMU: the
 * events the trace layer set up, which is what event->tp_event says; or
 * the address filters of a tracer PMU (addr_filter.c), which change under
 * ctx->mutex.  Anything else has nothing to filter on.
 */
static int perf_set_filter(struct perf_event *event, void __user *arg)
{
	char *filter;
	int ret = -EINVAL;

	filter = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(filter))
		return PTR_ERR(filter);
#ifdef CONFIG_EVENT_TRACING
	if (event->tp_event)
		ret = ftrace_profile_set_filter(event, event->attr.config,
						filter);
#endif
	if (event->pmu->nr_addr_filters)
		ret = perf_event_set_addr_filter(event, filter);
	kfree(filter);
	return ret;
}

static long perf_ioctl_locked(struct perf_event *event, unsigned int cmd,
			      unsigned long arg)
{
	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		perf_apply(event, op_enable, arg);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		perf_apply(event, op_disable, arg);
		return 0;
	case PERF_EVENT_IOC_RESET:
		perf_apply(event, perf_event_reset, arg);
		return 0;
	case PERF_EVENT_IOC_REFRESH:
		/*
		 * As upstream: 0 (or less) just enables, with no limit.  A
		 * limit for an event with copies has no single owner to count
		 * it: refused, for process-wide events (ours) as well.
		 */
		if (event->attr.inherit || perf_event_process_wide(event) ||
		    !is_sampling_event(event))
			return -EINVAL;
		atomic_add(arg, &event->event_limit);
		apply_with_children(event, op_enable);
		return 0;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return perf_event_pause_output(event, arg);
	case PERF_EVENT_IOC_READ_THREADS:
		return perf_process_read_threads(event, (void __user *)arg);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_modify_attr(event, (void __user *)arg);
	}
	return -ENOTTY;
}

/* PERF_EVENT_IOC_SET_OUTPUT: @fd is another event's file, or -1 for none */
static long perf_ioctl_set_output(struct perf_event *event, int fd)
{
	struct perf_event *target = NULL;
	struct fd out;
	long ret;

	if (fd == -1)
		return perf_event_set_output(event, NULL);
	out = fdget(fd);
	if (!fd_file(out))
		return -EBADF;
	if (is_perf_file(fd_file(out)))
		target = fd_file(out)->private_data;
	ret = target ? perf_event_set_output(event, target) : -EBADF;
	fdput(out);
	return ret;
}

/*
 * The ioctls that need no ctx->mutex (they take what they need
 * themselves, or touch nothing the mutex protects).  Return: true with
 * *@ret set when @cmd was one of them.
 */
static bool perf_ioctl_unlocked(struct perf_event *event, unsigned int cmd,
				unsigned long arg, long *ret)
{
	u64 __user *uptr = (u64 __user *)arg;
	u64 period;

	switch (cmd) {
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_QUERY_BPF:
		*ret = perf_bpf_ioctl(event, cmd, arg);
		return true;
	case PERF_EVENT_IOC_ID:
		*ret = put_user(perf_event_primary_id(event), uptr) ?
		       -EFAULT : 0;
		return true;
	case PERF_EVENT_IOC_PERIOD:
		*ret = copy_from_user(&period, uptr, sizeof(period)) ?
		       -EFAULT : perf_event_period(event, period);
		return true;
	case PERF_EVENT_IOC_SET_OUTPUT:
		*ret = perf_ioctl_set_output(event, arg);
		return true;
	case PERF_EVENT_IOC_SET_FILTER:
		/*
		 * Not under ctx->mutex, as upstream: the filter belongs to
		 * the trace layer, which serialises it with its own
		 * event_mutex, and upstream documents a deadlock between
		 * that layer's locks and a ctx->mutex held here.
		 */
		*ret = perf_set_filter(event, (void __user *)arg);
		return true;
	}
	return false;
}

static long perf_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = filp->private_data;
	struct perf_event_context *ctx;
	/* the LSM may refuse any change to the event */
	long ret = security_perf_event_write(event);

	if (ret || perf_ioctl_unlocked(event, cmd, arg, &ret))
		return ret;
	ctx = perf_event_ctx_lock(event);
	ret = perf_ioctl_locked(event, cmd, arg);
	mutex_unlock(&ctx->mutex);
	return ret;
}

#ifdef CONFIG_COMPAT
/* the ioctls whose argument is a pointer, as bits by ioctl number */
#define PERF_IOC_POINTER_NRS					\
	(BIT_ULL(_IOC_NR(PERF_EVENT_IOC_SET_FILTER)) |		\
	 BIT_ULL(_IOC_NR(PERF_EVENT_IOC_ID)) |			\
	 BIT_ULL(_IOC_NR(PERF_EVENT_IOC_QUERY_BPF)) |		\
	 BIT_ULL(_IOC_NR(PERF_EVENT_IOC_MODIFY_ATTRIBUTES)))

/*
 * A 32-bit caller's command encodes a pointer argument's size as 4 bytes;
 * the native handler expects the native size, so rewrite that field (the
 * number alone decides, whatever the direction and type bits say).
 */
static long perf_compat_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);

	if (nr < 64 && (PERF_IOC_POINTER_NRS & BIT_ULL(nr)) &&
	    _IOC_SIZE(cmd) == sizeof(compat_uptr_t))
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), nr, sizeof(void *));
	return perf_ioctl(filp, cmd, (unsigned long)compat_ptr(arg));
}
#else
# define perf_compat_ioctl NULL
#endif

static int perf_fasync(int fd, struct file *filp, int on)
{
	struct perf_event *event = filp->private_data;
	struct inode *inode = file_inode(filp);
	int ret;

	inode_lock(inode);
	ret = fasync_helper(fd, filp, on, perf_event_fasync(event));
	inode_unlock(inode);
	return ret < 0 ? ret : 0;
}

static int perf_release(struct inode *inode, struct file *file)
{
	perf_event_release_kernel(file->private_data);
	return 0;
}

const struct file_operations perf_fops = {
	.release		= perf_release,
	.read			= perf_read,
	.poll			= perf_poll,
	.mmap			= perf_mmap,
	.unlocked_ioctl		= perf_ioctl,
	.compat_ioctl		= perf_compat_ioctl,
	.fasync			= perf_fasync,
};

bool is_perf_file(struct file *file)
{
	return file->f_op == &perf_fops;
}

/**
 * perf_event_get - the event file behind a descriptor (BPF's use)
 * @fd: the descriptor
 *
 * Return: the file with a reference, or ERR_PTR(-EBADF).
 */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (!is_perf_file(file)) {
		fput(file);
		return ERR_PTR(-EBADF);
	}
	return file;
}

/**
 * perf_get_event - the event of an event file
 * @file: a file from perf_event_get()
 *
 * Return: the event, or ERR_PTR(-EINVAL) for another kind of file.
 */
const struct perf_event *perf_get_event(struct file *file)
{
	return is_perf_file(file) ? file->private_data : ERR_PTR(-EINVAL);
}

/**
 * perf_event_attrs - the attributes of an event
 * @event: the event
 *
 * Return: its attributes, or ERR_PTR(-EINVAL) for no event.
 */
const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	return event ? &event->attr : ERR_PTR(-EINVAL);
}
