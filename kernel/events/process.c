// SPDX-License-Identifier: GPL-2.0
/*
 * Process-wide events (PERF_FLAG_PID_PROCESS, our extension W4).
 *
 * One open names a process; the event counts in each of its threads.  It
 * is built from inheritance: the event is installed in the named thread's
 * context as usual, and every other thread gets a copy (event->parent set,
 * on the original's child_list), exactly what fork gives a child of an
 * inherited event.  So read() sums the copies, exited threads fold their
 * counts into the original, samples of every copy go to the original's
 * buffer (a shared one: rb_shared.c), and ioctls reach every copy.
 *
 * Threads created later get their copy at fork (task.c: a process-wide
 * group is inherited across CLONE_THREAD whatever attr.inherit says).  The
 * one gap: a thread whose fork copied its parent's events just before the
 * open attached its parent, but which joined the thread list just after
 * the open walked it.  To close it, the open registers the event before
 * walking the threads, and perf_event_fork() (perf_process_fork()), which
 * runs after the new thread is on the list, looks its process up: whichever
 * of the two comes second sees the thread.  The smp_mb() on both sides
 * orders "register, then walk" against "join the list, then look up".
 *
 * The register is a hash table keyed by the process (its signal_struct),
 * so that a fork in a process nobody profiles this way costs one bucket
 * walk under RCU and no lock.  A fork in a profiled process takes the
 * mutex and finds, almost always, that its fork gave it the copy already.
 *
 * Locking: perf_process_mutex serializes every copy made here (open,
 * fork, release) and every change to the table, so "has this thread a
 * copy yet?" and making one cannot race; inside it, the original's
 * ctx->mutex, then the thread's.  The table is read under RCU: an event
 * outlives a grace period after it leaves it (perf_event_free()).
 */
#include <linux/hashtable.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "context.h"
#include "groups.h"
#include "process.h"
#include "read.h"

#define PERF_PROCESS_HASH_BITS	6

static DEFINE_MUTEX(perf_process_mutex);
static DEFINE_HASHTABLE(perf_process_hash, PERF_PROCESS_HASH_BITS);
static atomic_t perf_process_nr = ATOMIC_INIT(0);

/* the event is registered for @task's process */
static bool perf_process_match(struct perf_event *event,
			       struct task_struct *task)
{
	return READ_ONCE(event->process_key) == task->signal;
}

/* @ctx's copy of @orig, if it has one */
static struct perf_event *perf_copy_in(struct perf_event_context *ctx,
				       struct perf_event *orig)
{
	struct perf_event *event;

	lockdep_assert_held(&ctx->mutex);
	list_for_each_entry(event, &ctx->event_list, event_entry)
		if (event->parent == orig)
			return event;
	return NULL;
}

/*
 * Give @task a copy of @orig unless it has one.  A member of a group goes
 * under @task's copy of the leader; a thread without one (it was not
 * there for the leader) gets none.
 */
static int perf_process_attach(struct perf_event *orig,
			       struct task_struct *task)
{
	struct perf_event_context *ctx, *octx;
	struct perf_event *leader = NULL, *copy;
	bool member = orig->group_leader != orig;
	bool skip;
	int err = 0;

	lockdep_assert_held(&perf_process_mutex);
	ctx = perf_find_get_context(task, -1);
	if (IS_ERR(ctx))
		/* exiting: it would have nothing to count */
		return PTR_ERR(ctx) == -ESRCH ? 0 : PTR_ERR(ctx);

	octx = perf_event_ctx_lock(orig);
	/* the named thread has the original; a released one gets nothing */
	skip = ctx == octx || orig->state == PERF_EVENT_STATE_DEAD;
	if (!skip) {
		mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
		if (member)
			leader = perf_copy_in(ctx, orig->group_leader);
		skip = perf_copy_in(ctx, orig) || (member && !leader);
		if (!skip)
			err = perf_groups_reserve(ctx, orig->cpu);
		mutex_unlock(&ctx->mutex);
	}
	if (!skip && !err) {
		copy = perf_inherit_event(orig, task, ctx, leader);
		err = PTR_ERR_OR_ZERO(copy);
	}
	mutex_unlock(&octx->mutex);
	perf_put_ctx(ctx);
	return err;
}

/**
 * perf_process_follow - make a new process-wide event count in every
 * thread of @task's process, and in each thread it creates from now on
 * @event: the event, installed in @task's context, not yet reachable by
 *	user space
 * @task: the thread the open named
 *
 * On failure the caller releases @event, which takes the copies made so
 * far with it (perf_process_forget() and the release of children).
 *
 * Context: process, may sleep.
 * Return: 0 or a negative errno.
 */
int perf_process_follow(struct perf_event *event, struct task_struct *task)
{
	struct task_struct **threads, *t;
	int nr, i, err = 0;

	mutex_lock(&perf_process_mutex);
	WRITE_ONCE(event->process_key, task->signal);
	hash_add_rcu(perf_process_hash, &event->process_entry,
		     (unsigned long)task->signal);
	atomic_inc(&perf_process_nr);
	/* registered, then walk: pairs with perf_process_fork()'s */
	smp_mb();

	/*
	 * Every thread that joined before we registered is counted here;
	 * later ones may not fit, and perf_process_fork() attaches those.
	 */
	nr = READ_ONCE(task->signal->nr_threads);
	threads = kvcalloc(nr, sizeof(*threads), GFP_KERNEL);
	if (!threads) {
		err = -ENOMEM;
		goto out;
	}
	i = 0;
	rcu_read_lock();
	for_each_thread(task, t) {
		if (i == nr)
			break;
		get_task_struct(t);
		threads[i++] = t;
	}
	rcu_read_unlock();

	nr = i;
	for (i = 0; i < nr; i++) {
		if (!err)
			err = perf_process_attach(event, threads[i]);
		put_task_struct(threads[i]);
	}
	kvfree(threads);
out:
	mutex_unlock(&perf_process_mutex);
	return err;
}

/**
 * perf_process_forget - a process-wide event is being released: no new
 * thread gets a copy of it from here on
 * @event: the original
 *
 * Called before the release takes the copies off child_list, so that none
 * is added behind its back.
 *
 * Context: process, may sleep.
 */
void perf_process_forget(struct perf_event *event)
{
	if (!perf_event_process_wide(event) || event->parent)
		return;
	mutex_lock(&perf_process_mutex);
	if (hash_hashed(&event->process_entry)) {
		hash_del_rcu(&event->process_entry);
		atomic_dec(&perf_process_nr);
	}
	mutex_unlock(&perf_process_mutex);
}

/**
 * perf_process_fork - a new thread is on its process's thread list: give
 * it what process-wide events its fork did not copy
 * @task: the new task, not yet running
 *
 * Context: process (the forking task), may sleep.
 */
void perf_process_fork(struct task_struct *task)
{
	unsigned long key = (unsigned long)task->signal;
	struct perf_event *event;
	bool found = false;

	if (thread_group_leader(task))
		return;
	/* on the thread list, then look: pairs with perf_process_follow() */
	smp_mb();
	if (likely(!atomic_read(&perf_process_nr)))
		return;

	rcu_read_lock();
	hash_for_each_possible_rcu(perf_process_hash, event, process_entry, key)
		found |= perf_process_match(event, task);
	rcu_read_unlock();
	if (!found)
		return;

	/*
	 * What RCU saw may have left since; under the mutex every entry is
	 * registered, and its target (which the event pins) keeps the
	 * signal_struct of its key from being freed and reused.
	 */
	mutex_lock(&perf_process_mutex);
	hash_for_each_possible(perf_process_hash, event, process_entry, key) {
		if (perf_process_match(event, task))
			perf_process_attach(event, task);
	}
	mutex_unlock(&perf_process_mutex);
}

/* the room PERF_EVENT_IOC_READ_THREADS fills in one call, at most */
#define PERF_READ_THREADS_MAX	65536

static void perf_thread_value(struct perf_event *event,
			      struct perf_event_thread_value *v)
{
	struct task_struct *t = event->hw.target;
	u64 enabled, running;

	v->pid = task_tgid_nr_ns(t, event->ns);
	v->tid = task_pid_nr_ns(t, event->ns);
	v->value = perf_event_read_copy(event, &enabled, &running);
}

/**
 * perf_process_read_threads - PERF_EVENT_IOC_READ_THREADS: the count of
 * each live thread of a process-wide event
 * @event: the event the ioctl was called on
 * @uv: the caller's struct perf_event_thread_values
 *
 * The values are gathered under child_mutex, which keeps the copies (and
 * so their threads) from going, and copied out after it is dropped.
 *
 * Context: process, @event's ctx->mutex held.
 * Return: 0, -EINVAL (not process-wide), -ENOMEM or -EFAULT.
 */
int perf_process_read_threads(struct perf_event *event,
			      struct perf_event_thread_values __user *uv)
{
	struct perf_event_thread_value *vals = NULL;
	struct perf_event *child;
	u32 room, n = 0;
	int err = 0;

	lockdep_assert_held(&event->ctx->mutex);
	if (!perf_event_process_wide(event) || event->parent)
		return -EINVAL;
	if (get_user(room, &uv->nr))
		return -EFAULT;
	room = min(room, PERF_READ_THREADS_MAX);
	if (room) {
		vals = kvmalloc_array(room, sizeof(*vals), GFP_KERNEL);
		if (!vals)
			return -ENOMEM;
	}

	mutex_lock(&event->child_mutex);
	/* the named thread's own count, unless it has exited */
	if (event->state > PERF_EVENT_STATE_EXIT) {
		if (n < room)
			perf_thread_value(event, &vals[n]);
		n++;
	}
	list_for_each_entry(child, &event->child_list, child_list) {
		if (n < room)
			perf_thread_value(child, &vals[n]);
		n++;
	}
	mutex_unlock(&event->child_mutex);

	if (put_user(n, &uv->nr) ||
	    copy_to_user(uv->values, vals, min(n, room) * sizeof(*vals)))
		err = -EFAULT;
	kvfree(vals);
	return err;
}
