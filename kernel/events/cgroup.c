// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup events: the perf_event cgroup controller, events opened with
 * PERF_FLAG_PID_CGROUP, and the cgroup of a sample or a new cgroup's
 * record.
 *
 * A cgroup event is a CPU event that counts only while the task running on
 * its CPU is in its cgroup or in a cgroup below it.  Each CPU keeps the
 * running task's cgroup in cpuctx->cgrp, but only while its CPU context
 * has cgroup events (ctx->nr_cgroups).  When the scheduler switches
 * between tasks of different cgroups, or a running task is moved, the
 * context's cgroup groups come off their PMUs and the ones that match the
 * new cgroup go back on (perf_cgroup_switch(); sched.c's filter lets on
 * only those whose cgroup contains cpuctx->cgrp).
 *
 * Time.  A cgroup event's enabled and running times are measured in its
 * cgroup's time on its CPU (struct perf_cgroup_info), not in the context's:
 * a cgroup's time advances only while it, or a cgroup below it, is
 * cpuctx->cgrp and the CPU context is active.  So an event that was never
 * multiplexed out has time_enabled == time_running, and perf stat -G does
 * not scale its counts by the time its cgroup did not run.  The cgroup
 * times move with the CPU context's (time.c calls in here), so they are
 * folded with the same clock reading as ctx->time.
 *
 * Locking: cpuctx->cgrp and the per-CPU times change on their CPU, under
 * the CPU context's lock with IRQs off.
 */
#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/slab.h>

#include "cgroup.h"
#include "context.h"
#include "sched.h"
#include "sideband.h"
#include "time.h"

static inline struct perf_cgroup *css_perf(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct perf_cgroup, css) : NULL;
}

static struct perf_cgroup_info *cgrp_info(struct perf_cgroup *cgrp, int cpu)
{
	return per_cpu_ptr(cgrp->info, cpu);
}

/* bring the time of @cgrp and every cgroup above it up to @now */
static void cgrp_chain_update(struct perf_cgroup *cgrp, int cpu, u64 now)
{
	struct cgroup_subsys_state *css;
	struct perf_cgroup_info *info;

	for (css = &cgrp->css; css; css = css->parent) {
		info = cgrp_info(css_perf(css), cpu);
		if (info->active) {
			info->time += now - info->timestamp;
			info->timestamp = now;
		}
	}
}

/* start or stop the clocks of @cgrp and every cgroup above it */
static void cgrp_chain_set_active(struct perf_cgroup *cgrp, int cpu,
				  bool active, u64 now)
{
	struct cgroup_subsys_state *css;
	struct perf_cgroup_info *info;

	for (css = &cgrp->css; css; css = css->parent) {
		info = cgrp_info(css_perf(css), cpu);
		info->timestamp = now;
		info->active = active;
	}
}

static struct perf_cpu_context *ctx_cpuctx(struct perf_event_context *ctx)
{
	return container_of(ctx, struct perf_cpu_context, ctx);
}

/**
 * perf_cgroup_ctx_time - the CPU context's clock moved to @now
 * @ctx: a CPU context with cgroup events; its lock held
 * @now: the perf_clock() reading ctx->time was brought up to
 */
void perf_cgroup_ctx_time(struct perf_event_context *ctx, u64 now)
{
	struct perf_cpu_context *cpuctx = ctx_cpuctx(ctx);

	lockdep_assert_held(&ctx->lock);
	if (cpuctx->cgrp)
		cgrp_chain_update(cpuctx->cgrp, ctx->cpu, now);
}

/**
 * perf_cgroup_ctx_active - the CPU context goes on or off (CPU hotplug)
 * @ctx: a CPU context with cgroup events; its lock held, on its CPU, and
 *	its times already brought up to date when it goes off
 * @active: on or off
 * @now: the clock reading of the change
 *
 * An offline CPU forgets its cgroup: nothing holds that cgroup, which may
 * be removed and freed before the CPU comes back.  Coming back, it takes
 * the cgroup of the task that brings it up.
 */
void perf_cgroup_ctx_active(struct perf_event_context *ctx, bool active,
			    u64 now)
{
	struct perf_cpu_context *cpuctx = ctx_cpuctx(ctx);

	lockdep_assert_held(&ctx->lock);
	if (active && !cpuctx->cgrp)
		cpuctx->cgrp = perf_cgroup_from_task(current, ctx);
	cgrp_chain_set_active(cpuctx->cgrp, ctx->cpu, active, now);
	if (!active)
		cpuctx->cgrp = NULL;
}

/**
 * perf_cgroup_event_time - the clock a cgroup event's times are kept in
 * @event: a cgroup event
 *
 * Return: its cgroup's time on its CPU as last brought up to date.
 */
u64 perf_cgroup_event_time(struct perf_event *event)
{
	return READ_ONCE(cgrp_info(event->cgrp, event->cpu)->time);
}

/**
 * perf_cgroup_event_time_now - the same, at this instant
 * @event: a cgroup event
 * @now: a perf_clock() reading
 *
 * Context: any, including NMI, without locks (see perf_event_times_now()).
 */
u64 perf_cgroup_event_time_now(struct perf_event *event, u64 now)
{
	struct perf_cgroup_info *info = cgrp_info(event->cgrp, event->cpu);
	u64 t = READ_ONCE(info->time);

	if (READ_ONCE(info->active))
		t += now - READ_ONCE(info->timestamp);
	return t;
}

/**
 * perf_cgroup_match - may @event count for the task running here?
 * @event: a cgroup event of this CPU's context
 *
 * Context: IRQs off, on the event's CPU.
 */
bool perf_cgroup_match(struct perf_event *event)
{
	struct perf_cgroup *cur;

	lockdep_assert_irqs_disabled();
	cur = this_cpu_ptr(&perf_cpu_ctx)->cgrp;
	return cur && cgroup_is_descendant(cur->css.cgroup,
					   event->cgrp->css.cgroup);
}

/**
 * perf_cgroup_event_added - a cgroup event joined a CPU context
 * @ctx: the CPU context; its lock held, on its CPU if it is active
 * @event: the event
 *
 * The first one starts following the running task's cgroup.
 */
void perf_cgroup_event_added(struct perf_event_context *ctx,
			     struct perf_event *event)
{
	struct perf_cpu_context *cpuctx = ctx_cpuctx(ctx);

	lockdep_assert_held(&ctx->lock);
	if (ctx->nr_cgroups++)
		return;
	/* installs into an active context run on its CPU (remote.c) */
	if (ctx->is_active) {
		cpuctx->cgrp = perf_cgroup_from_task(current, ctx);
		cgrp_chain_set_active(cpuctx->cgrp, ctx->cpu, true,
				      ctx->timestamp);
	}
}

/**
 * perf_cgroup_event_removed - a cgroup event left a CPU context
 * @ctx: the CPU context; its lock held, its times up to date
 * @event: the event, already off its PMU
 */
void perf_cgroup_event_removed(struct perf_event_context *ctx,
			       struct perf_event *event)
{
	struct perf_cpu_context *cpuctx = ctx_cpuctx(ctx);

	lockdep_assert_held(&ctx->lock);
	if (--ctx->nr_cgroups || !cpuctx->cgrp)
		return;
	cgrp_chain_set_active(cpuctx->cgrp, ctx->cpu, false, perf_clock());
	cpuctx->cgrp = NULL;
}

/**
 * perf_cgroup_switch - the task running here is now @task: follow its cgroup
 * @task: the incoming task (the scheduler's next, or current after a move)
 *
 * Context: IRQs off, no perf context lock of this CPU held.
 */
void perf_cgroup_switch(struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_pmu_batch b = { };
	struct perf_cgroup *cgrp;

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(ctx->nr_cgroups))
		return;
	raw_spin_lock(&ctx->lock);
	cgrp = perf_cgroup_from_task(task, ctx);
	if (!ctx->nr_cgroups || !ctx->is_active || cgrp == cpuctx->cgrp)
		goto out;
	/* fold the old cgroup's time, then stop its clocks */
	perf_ctx_update_time(ctx);
	perf_ctx_sched_out_cgroups(ctx, &b);
	if (cpuctx->cgrp)
		cgrp_chain_set_active(cpuctx->cgrp, ctx->cpu, false,
				      ctx->timestamp);
	cpuctx->cgrp = cgrp;
	cgrp_chain_set_active(cgrp, ctx->cpu, true, ctx->timestamp);
	perf_ctx_sched_in(ctx, true, NULL, &b);
	perf_ctx_sched_in(ctx, false, NULL, &b);
	perf_pmu_batch_enable(&b);
out:
	raw_spin_unlock(&ctx->lock);
}

/* The perf_event css of the cgroup directory open as @fd, with a reference. */
static struct cgroup_subsys_state *perf_cgroup_css_by_fd(int fd)
{
	CLASS(fd, dir)(fd);

	if (fd_empty(dir))
		return ERR_PTR(-EBADF);
	return css_tryget_online_from_dir(fd_file(dir)->f_path.dentry,
					  &perf_event_cgrp_subsys);
}

/**
 * perf_cgroup_connect - make @event a cgroup event (PERF_FLAG_PID_CGROUP)
 * @fd: a descriptor of the cgroup's directory
 * @event: the new event, a CPU event not yet in a context
 * @leader: its group leader, or NULL
 *
 * Return: 0; -EBADF for a bad descriptor; the error of finding the cgroup
 * (not a cgroup directory, or one without the perf_event controller);
 * -EINVAL when @leader watches another cgroup (a task is in one cgroup
 * at a time, so a group across two could never run whole).
 */
int perf_cgroup_connect(int fd, struct perf_event *event,
			struct perf_event *leader)
{
	struct cgroup_subsys_state *css = perf_cgroup_css_by_fd(fd);

	if (IS_ERR(css))
		return PTR_ERR(css);
	if (leader && leader != event && leader->cgrp != css_perf(css)) {
		css_put(css);
		return -EINVAL;
	}
	event->cgrp = css_perf(css);
	/* the cgroup switch runs in the scheduler's hooks */
	perf_task_events_inc();
	return 0;
}

/**
 * perf_cgroup_release - drop a cgroup event's hold on its cgroup
 * @event: the event, out of any context
 */
void perf_cgroup_release(struct perf_event *event)
{
	if (!event->cgrp)
		return;
	css_put(&event->cgrp->css);
	event->cgrp = NULL;
	perf_task_events_dec();
}

/**
 * perf_cgroup_sample_id - the cgroup a sample is taken in
 *
 * Context: the sample path (any, including NMI).
 * Return: the id (the cgroup directory's inode number on cgroup2) of
 * current's perf_event cgroup.
 */
u64 perf_cgroup_sample_id(void)
{
	u64 id;

	rcu_read_lock();
	id = cgroup_id(perf_cgroup_from_task(current, NULL)->css.cgroup);
	rcu_read_unlock();
	return id;
}

/* PERF_RECORD_CGROUP: a cgroup was created */

struct sb_cgroup_info {
	u64 id;
	char *path;
	u32 path_size;		/* with its NUL, padded to 8 bytes */
};

static bool sb_cgroup_match(struct perf_event *event, void *data)
{
	return event->attr.cgroup;
}

static void sb_cgroup_emit(struct perf_event *event, void *data)
{
	struct sb_cgroup_info *ci = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u64 id;
	} rec = {
		.header = {
			.type = PERF_RECORD_CGROUP,
			.size = sizeof(rec) + ci->path_size,
		},
		.id = ci->id,
	};

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, ci->path, ci->path_size);
	sb_end(&handle, &sample, event);
}

static void perf_cgroup_record(struct cgroup *cgrp)
{
	struct sb_cgroup_info ci = { .id = cgroup_id(cgrp) };
	char *buf;
	int len;

	if (!perf_sb_wanted(PERF_SB_CGROUP))
		return;
	might_sleep();
	buf = kzalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	len = cgroup_path(cgrp, buf, PATH_MAX - sizeof(u64));
	if (len < 0) {
		/* as upstream: a path that does not fit is reported as "//" */
		strscpy(buf, "//", PATH_MAX);
		len = 2;
	} else {
		len = strlen(buf);
	}
	ci.path = buf;
	ci.path_size = ALIGN(len + 1, sizeof(u64));
	sb_walk(PERF_SB_CGROUP, sb_cgroup_match, sb_cgroup_emit, &ci);
	kfree(buf);
}

/* the controller */

static struct cgroup_subsys_state *
perf_cgrp_new(struct cgroup_subsys_state *parent)
{
	struct perf_cgroup *cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);

	if (!cgrp)
		return ERR_PTR(-ENOMEM);
	cgrp->info = alloc_percpu(struct perf_cgroup_info);
	if (!cgrp->info) {
		kfree(cgrp);
		return ERR_PTR(-ENOMEM);
	}
	return &cgrp->css;
}

static void perf_cgrp_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *cgrp = css_perf(css);

	free_percpu(cgrp->info);
	kfree(cgrp);
}

static int perf_cgrp_online(struct cgroup_subsys_state *css)
{
	/* the root exists before anyone could want a record of it */
	if (css->cgroup->level)
		perf_cgroup_record(css->cgroup);
	return 0;
}

static void perf_cgroup_moved(void *info)
{
	/* it may have stopped running: its next sched-in follows it then */
	if (info == current)
		perf_cgroup_switch(current);
}

/*
 * Moved tasks that are running follow their new cgroup at once; the
 * others do when the scheduler next runs them, as the switch compares
 * the incoming task's cgroup with cpuctx->cgrp.
 */
static void perf_cgrp_tasks_moved(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	cgroup_taskset_for_each(task, css, tset) {
		if (task_curr(task))
			smp_call_function_single(task_cpu(task),
						 perf_cgroup_moved, task, 1);
	}
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	/* on in every cgroup2 hierarchy, so a cgroup2 path always works */
	.implicit_on_dfl = true,
	.threaded	= true,
	.attach		= perf_cgrp_tasks_moved,
	.css_online	= perf_cgrp_online,
	.css_alloc	= perf_cgrp_new,
	.css_free	= perf_cgrp_free,
};
