// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: what the CPU contexts hold, for the people who debug the core.
 *
 * /sys/kernel/debug/perf_events/cpu_contexts lists, for each CPU,
 * every event of its CPU context (CPU-wide events; task events live in
 * their tasks' contexts) with its PMU, state, group and owner, and then
 * the groups that are on a PMU right now.  A counter that stays taken
 * after every descriptor is closed (an event the core lost track of, or a
 * release that never finished) shows up here by name.
 *
 * Not ABI: the format is for reading, and may change with the core.
 */

#include <linux/debugfs.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>

#include "context.h"

static const char *const state_names[] = {
	[PERF_EVENT_STATE_DEAD - PERF_EVENT_STATE_DEAD]		= "dead",
	[PERF_EVENT_STATE_EXIT - PERF_EVENT_STATE_DEAD]		= "exit",
	[PERF_EVENT_STATE_ERROR - PERF_EVENT_STATE_DEAD]	= "error",
	[PERF_EVENT_STATE_OFF - PERF_EVENT_STATE_DEAD]		= "off",
	[PERF_EVENT_STATE_INACTIVE - PERF_EVENT_STATE_DEAD]	= "inactive",
	[PERF_EVENT_STATE_ACTIVE - PERF_EVENT_STATE_DEAD]	= "active",
};

static const char *state_name(int state)
{
	unsigned int i = state - PERF_EVENT_STATE_DEAD;

	return i < ARRAY_SIZE(state_names) ? state_names[i] : "?";
}

/* one line per event; ctx->mutex keeps the list and the events */
static void show_event(struct seq_file *m, struct perf_event *event)
{
	struct task_struct *owner;

	seq_printf(m, "  event %llu %s type %u config %#llx %s%s%s leader %llu members %d refs %ld%s",
		   event->id, event->pmu->name ?: "?", event->attr.type,
		   event->attr.config, state_name(READ_ONCE(event->state)),
		   event->attr.pinned ? " pinned" : "",
		   event->attr.exclusive ? " exclusive" : "",
		   event->group_leader->id, event->nr_siblings,
		   atomic_long_read(&event->refcount),
		   event->filp ? " file" : " no-file");
	if (event->parent)
		seq_printf(m, " copy-of %llu", event->parent->id);
	/* the owner clears itself at exit; RCU keeps its task_struct */
	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	if (owner)
		seq_printf(m, " owner %d", task_pid_nr(owner));
	rcu_read_unlock();
	seq_putc(m, '\n');
}

/* the groups on a PMU: ctx->lock, IRQs off (the lists change in IRQs) */
static void show_on(struct seq_file *m, const char *what,
		    struct list_head *head)
{
	struct perf_event *leader;

	seq_printf(m, "  %s on:", what);
	list_for_each_entry(leader, head, group_on_entry)
		seq_printf(m, " %llu", leader->id);
	seq_putc(m, '\n');
}

static int cpu_contexts_show(struct seq_file *m, void *unused)
{
	struct perf_event *event;
	int cpu;

	/* no hotplug lock: an offline CPU's context keeps its events too */
	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = &per_cpu(perf_cpu_ctx, cpu);
		struct perf_event_context *ctx = &cpuctx->ctx;

		mutex_lock(&ctx->mutex);
		seq_printf(m, "cpu %d online %d active %#x events %d on %d\n",
			   cpu, cpuctx->online, ctx->is_active, ctx->nr_events,
			   ctx->nr_active);
		list_for_each_entry(event, &ctx->event_list, event_entry)
			show_event(m, event);
		raw_spin_lock_irq(&ctx->lock);
		show_on(m, "pinned", &ctx->pinned_on);
		show_on(m, "flexible", &ctx->flexible_on);
		raw_spin_unlock_irq(&ctx->lock);
		mutex_unlock(&ctx->mutex);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cpu_contexts);

static int __init perf_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("perf_events", NULL);

	debugfs_create_file("cpu_contexts", 0400, dir, NULL,
			    &cpu_contexts_fops);
	return 0;
}
late_initcall(perf_debugfs_init);
