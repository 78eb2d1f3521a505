// SPDX-License-Identifier: GPL-2.0
/*
 * Address filters: which code a hardware tracer (Intel PT, CoreSight ETM)
 * traces, set with PERF_EVENT_IOC_SET_FILTER on an event of a PMU with
 * nr_addr_filters.  The string is a list of
 *
 *	filter|start|stop <address>[/<size>][@<file>]
 *
 * items separated by spaces, commas or newlines: trace only inside the
 * range (filter, which needs a size), or start or stop tracing when the
 * range is reached.  Without a file the address is a kernel address;
 * with one it is an offset into that file, and the range follows the
 * file wherever the event's task maps it executable: resolved against
 * the task's mappings when set, moved by each new executable mapping of
 * the file, dropped at exec.  File filters need a per-task event (a
 * CPU's tasks map a file at different addresses): EOPNOTSUPP otherwise.
 *
 * The filters (event->addr_filters) belong to the event the user opened;
 * inherited copies read them through perf_event_addr_filters() and keep
 * their own resolved ranges (event->addr_filter_ranges, one per filter,
 * in list order), since a child maps files where it likes after exec.
 * Every change of the ranges bumps event->addr_filters_gen and restarts
 * the event, and the driver, from pmu::start(), calls
 * perf_event_addr_filters_sync() to take the new ranges over once.
 *
 * Locking: the list and the ranges change under the head's raw spinlock
 * (the driver reads them under it, from pmu::start(), IRQs off); the
 * list is replaced under ctx->mutex.
 */
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "addr_filter.h"
#include "context.h"
#include "remote.h"

/* events whose PMU filters addresses: the hooks skip everything without */
static atomic_t perf_filtering_events;

/**
 * perf_addr_filters_init - an event of a filtering PMU gets its ranges
 * @event: the new event (an inherited copy starts from its parent's)
 *
 * Return: 0 or -ENOMEM.
 */
int perf_addr_filters_init(struct perf_event *event)
{
	struct perf_event *parent = event->parent;
	unsigned int nr = event->pmu->nr_addr_filters;
	unsigned long flags;

	INIT_LIST_HEAD(&event->addr_filters.list);
	raw_spin_lock_init(&event->addr_filters.lock);
	if (!nr)
		return 0;
	/* the driver syncs at the first start, filters or not */
	event->addr_filters_gen = 1;
	event->addr_filter_ranges = kcalloc(nr, sizeof(struct perf_addr_filter_range),
					    GFP_KERNEL);
	if (!event->addr_filter_ranges)
		return -ENOMEM;
	/* the parent's mappings are the child's until it execs */
	if (parent) {
		struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);

		raw_spin_lock_irqsave(&ifh->lock, flags);
		memcpy(event->addr_filter_ranges, parent->addr_filter_ranges,
		       nr * sizeof(struct perf_addr_filter_range));
		raw_spin_unlock_irqrestore(&ifh->lock, flags);
	}
	atomic_inc(&perf_filtering_events);
	return 0;
}

static void perf_addr_filters_free_list(struct list_head *filters)
{
	struct perf_addr_filter *filter, *tmp;

	list_for_each_entry_safe(filter, tmp, filters, entry) {
		list_del(&filter->entry);
		path_put(&filter->path);
		kfree(filter);
	}
}

/**
 * perf_addr_filters_release - the event is freed: its filters and ranges go
 * @event: the event
 *
 * Context: process.
 */
void perf_addr_filters_release(struct perf_event *event)
{
	if (!event->addr_filter_ranges)
		return;
	atomic_dec(&perf_filtering_events);
	if (!event->parent)
		perf_addr_filters_free_list(&event->addr_filters.list);
	kfree(event->addr_filter_ranges);
	event->addr_filter_ranges = NULL;
}

/* the action words, in the order of enum perf_addr_filter_action_t */
static const char * const filter_actions[] = {
	[PERF_ADDR_FILTER_ACTION_STOP]		= "stop",
	[PERF_ADDR_FILTER_ACTION_START]		= "start",
	[PERF_ADDR_FILTER_ACTION_FILTER]	= "filter",
};

/* a number in C notation: digits first (no sign), at most 64 bits */
static int perf_addr_filter_number(const char *s, unsigned long *val)
{
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtoul(s, 0, val);
}

/*
 * One "<address>[/<size>][@<file>]" into @filter: a file is looked up
 * (following links) and must be a regular file.
 */
static int perf_addr_filter_parse_range(struct perf_event *event, char *word,
					struct perf_addr_filter *filter)
{
	char *file = strchr(word, '@');
	char *size;
	int ret;

	if (file) {
		*file++ = '\0';
		if (!*file)
			return -EINVAL;
	}
	size = strchr(word, '/');
	if (size)
		*size++ = '\0';
	ret = perf_addr_filter_number(word, &filter->offset);
	if (!ret && size)
		ret = perf_addr_filter_number(size, &filter->size);
	if (ret)
		return ret;
	/* a "filter" is a range; start and stop may be a single address */
	if (filter->action == PERF_ADDR_FILTER_ACTION_FILTER && !filter->size)
		return -EINVAL;
	if (!file)
		return 0;
	if (!event->ctx->task)
		return -EOPNOTSUPP;
	ret = kern_path(file, LOOKUP_FOLLOW, &filter->path);
	if (ret)
		return ret;
	if (!S_ISREG(d_inode(filter->path.dentry)->i_mode))
		return -EINVAL;
	return 0;
}

/* The filter string into a list of filters; nothing on error. */
static int perf_addr_filters_parse(struct perf_event *event, char *str,
				   struct list_head *filters)
{
	struct perf_addr_filter *filter = NULL;
	char *word;
	int i, ret = 0;

	while ((word = strsep(&str, " ,\n"))) {
		if (!*word)
			continue;
		if (filter) {
			/* the range of the action just read */
			ret = perf_addr_filter_parse_range(event, word, filter);
			if (ret)
				goto fail;
			filter = NULL;
			continue;
		}
		ret = -EINVAL;
		i = match_string(filter_actions, ARRAY_SIZE(filter_actions),
				 word);
		if (i < 0)
			goto fail;
		filter = kzalloc(sizeof(*filter), GFP_KERNEL);
		ret = -ENOMEM;
		if (!filter)
			goto fail;
		filter->action = i;
		list_add_tail(&filter->entry, filters);
	}
	/* an action without its range */
	ret = -EINVAL;
	if (filter)
		goto fail;
	return 0;

fail:
	perf_addr_filters_free_list(filters);
	return ret;
}

/*
 * Where @vma maps the part of @filter's file the filter covers: true and
 * @fr set when it maps any of it.
 */
static bool perf_addr_filter_in_vma(struct perf_addr_filter *filter,
				    struct vm_area_struct *vma,
				    struct perf_addr_filter_range *fr)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long off = vma->vm_pgoff << PAGE_SHIFT;

	if (!filter->path.dentry || !vma->vm_file ||
	    file_user_inode(vma->vm_file) != d_inode(filter->path.dentry))
		return false;
	/* the file ranges [offset, offset + size] and [off, off + len] meet */
	if (filter->offset > off + len || filter->offset + filter->size < off)
		return false;
	if (filter->offset >= off) {
		fr->start = vma->vm_start + (filter->offset - off);
		fr->size = min(filter->size, vma->vm_end - fr->start);
	} else {
		fr->start = vma->vm_start;
		fr->size = min(len, filter->size - (off - filter->offset));
	}
	return true;
}

/* @task's mm, held and read-locked, or NULL when it has none (any more) */
static struct mm_struct *perf_addr_filters_lock_mm(struct task_struct *task)
{
	struct mm_struct *mm = get_task_mm(task);

	if (mm)
		mmap_read_lock(mm);
	return mm;
}

/* the first mapping of @filter's file in @mm; mmap_lock held */
static void perf_addr_filter_find(struct perf_addr_filter *filter,
				  struct mm_struct *mm,
				  struct perf_addr_filter_range *fr)
{
	struct vma_iterator vmi;
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma)
		if (perf_addr_filter_in_vma(filter, vma, fr))
			return;
}

/*
 * Stop and start @event where it runs, so that its driver takes the new
 * ranges over at pmu::start().  IRQs off, on the event's CPU or with its
 * context off every CPU.
 */
static void perf_addr_filters_restart(struct perf_event *event)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    event->oncpu != smp_processor_id())
		return;
	event->pmu->stop(event, PERF_EF_UPDATE);
	event->pmu->start(event, 0);
}

static void perf_addr_filters_restart_fn(struct perf_event *event,
					 struct perf_event_context *ctx,
					 void *data)
{
	perf_addr_filters_restart(event);
}

/*
 * Resolve the filters for @event (the original or a copy) against its
 * task's mappings, then restart it.  Context: ctx->mutex of the original
 * held (and its child_mutex for a copy).
 */
static void perf_addr_filters_apply(struct perf_event *event)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);
	struct task_struct *task = READ_ONCE(event->ctx->task);
	struct perf_addr_filter_range *fr = event->addr_filter_ranges;
	struct perf_addr_filter *filter;
	struct mm_struct *mm = NULL;
	unsigned long flags;
	int i = 0;

	/* its task is gone: the event is on its way out */
	if (task == TASK_TOMBSTONE)
		return;
	/* file filters need the mappings: none to read, nothing changes */
	if (ifh->nr_file_filters && task) {
		mm = perf_addr_filters_lock_mm(task);
		if (!mm)
			goto restart;
	}
	raw_spin_lock_irqsave(&ifh->lock, flags);
	list_for_each_entry(filter, &ifh->list, entry) {
		fr[i].start = filter->path.dentry ? 0 : filter->offset;
		fr[i].size = filter->path.dentry ? 0 : filter->size;
		if (filter->path.dentry && mm)
			perf_addr_filter_find(filter, mm, &fr[i]);
		i++;
	}
	event->addr_filters_gen++;
	raw_spin_unlock_irqrestore(&ifh->lock, flags);
	if (mm) {
		mmap_read_unlock(mm);
		mmput(mm);
	}
restart:
	perf_ctx_call(event, perf_addr_filters_restart_fn, NULL);
}

/**
 * perf_event_set_addr_filter - PERF_EVENT_IOC_SET_FILTER on a filtering PMU
 * @event: the event the user opened
 * @str: the filter string (an empty one removes every filter)
 *
 * The PMU validates the new list (how many filters and of what kind it
 * takes); then it replaces the old one, and the event and its copies
 * resolve and restart.
 *
 * Context: process; takes ctx->mutex after parsing.
 * Return: 0, -EINVAL for a string that does not parse, -EOPNOTSUPP for a
 * file filter on a CPU event, the lookup's error for a file, or the
 * PMU's.
 */
int perf_event_set_addr_filter(struct perf_event *event, char *str)
{
	struct perf_addr_filters_head *ifh = &event->addr_filters;
	struct perf_event_context *ctx;
	struct perf_addr_filter *filter;
	unsigned int nr_files = 0;
	struct perf_event *child;
	unsigned long flags;
	LIST_HEAD(filters);
	LIST_HEAD(old);
	int ret;

	/*
	 * Parsed before ctx->mutex: looking a file up may take locks (a
	 * /proc/<pid>/exe link takes exec_update_lock) that perf_event_open()
	 * takes outside ctx->mutex.
	 */
	ret = perf_addr_filters_parse(event, str, &filters);
	if (ret)
		return ret;
	ret = event->pmu->addr_filters_validate(&filters);
	if (ret) {
		perf_addr_filters_free_list(&filters);
		return ret;
	}
	list_for_each_entry(filter, &filters, entry)
		nr_files += !!filter->path.dentry;

	ctx = perf_event_ctx_lock(event);
	raw_spin_lock_irqsave(&ifh->lock, flags);
	list_splice_init(&ifh->list, &old);
	list_splice(&filters, &ifh->list);
	ifh->nr_file_filters = nr_files;
	raw_spin_unlock_irqrestore(&ifh->lock, flags);
	perf_addr_filters_free_list(&old);

	perf_addr_filters_apply(event);
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list)
		perf_addr_filters_apply(child);
	mutex_unlock(&event->child_mutex);
	mutex_unlock(&ctx->mutex);
	return 0;
}

/**
 * perf_event_addr_filters_sync - a driver takes over changed ranges
 * @event: the event, being started on this CPU
 *
 * Calls pmu::addr_filters_sync() once per change of the ranges, under the
 * filters' lock, so that the driver copies a consistent set.
 *
 * Context: pmu::start(), IRQs off.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);

	if (!event->pmu->nr_addr_filters)
		return;
	raw_spin_lock(&ifh->lock);
	if (event->hw.addr_filters_gen != event->addr_filters_gen) {
		event->pmu->addr_filters_sync(event);
		event->hw.addr_filters_gen = event->addr_filters_gen;
	}
	raw_spin_unlock(&ifh->lock);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);

/*
 * For each filtering event of the current task's context: @fn changes
 * its ranges under the filters' lock and says whether it did; the event
 * is then restarted here, where its context is active.
 */
static void perf_addr_filters_walk(bool (*fn)(struct perf_event *event,
					      void *data), void *data)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	bool changed;

	if (!atomic_read(&perf_filtering_events))
		return;
	rcu_read_lock();
	ctx = rcu_dereference(current->perf_event_ctxp);
	if (!ctx)
		goto out;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		struct perf_addr_filters_head *ifh;

		if (!event->addr_filter_ranges)
			continue;
		ifh = perf_event_addr_filters(event);
		raw_spin_lock(&ifh->lock);
		changed = fn(event, data);
		if (changed)
			event->addr_filters_gen++;
		raw_spin_unlock(&ifh->lock);
		if (changed)
			perf_addr_filters_restart(event);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

static bool perf_addr_filters_mapped(struct perf_event *event, void *data)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);
	struct perf_addr_filter *filter;
	bool changed = false;
	int i = 0;

	list_for_each_entry(filter, &ifh->list, entry)
		changed |= perf_addr_filter_in_vma(filter, data,
						   &event->addr_filter_ranges[i++]);
	return changed;
}

/**
 * perf_addr_filters_mmap - the current task mapped something
 * @vma: the new mapping
 *
 * An executable mapping of a filtered file moves the filter's range
 * there (data is not traced: other mappings change nothing).
 */
void perf_addr_filters_mmap(struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_EXEC) || !vma->vm_file)
		return;
	perf_addr_filters_walk(perf_addr_filters_mapped, vma);
}

static bool perf_addr_filters_dropped(struct perf_event *event, void *data)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);
	struct perf_addr_filter *filter;
	bool changed = false;
	int i = 0;

	list_for_each_entry(filter, &ifh->list, entry) {
		if (filter->path.dentry) {
			event->addr_filter_ranges[i].start = 0;
			event->addr_filter_ranges[i].size = 0;
			changed = true;
		}
		i++;
	}
	return changed;
}

/**
 * perf_addr_filters_exec - the current task exec'd: no file is mapped
 *
 * Each file filter's range is empty until the file is mapped again.
 */
void perf_addr_filters_exec(void)
{
	perf_addr_filters_walk(perf_addr_filters_dropped, NULL);
}
