// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains for samples (PERF_SAMPLE_CALLCHAIN).
 *
 * Buffers: while at least one event samples callchains, every possible CPU
 * owns one entry per recursion level (task, softirq, hardirq, NMI; see
 * interrupt_context_level()), each large enough for the deepest callchain
 * the sysctls allow plus its PERF_CONTEXT_* markers.  A sample claims the
 * entry of its level on its CPU; a per-CPU counter per level refuses a
 * second claim at the same level (an unwinder that faults into a tracepoint
 * that samples again), so no entry is ever written by two users at once.
 *
 * Lifetime: the buffers are allocated by the first get_callchain_buffers()
 * and freed after an RCU grace period by the last put_callchain_buffers().
 * Users of an entry (a sample being written) hold rcu_read_lock() or run
 * with interrupts off, so the buffers cannot vanish under them.
 *
 * Limits: kernel.perf_event_max_stack and perf_event_max_contexts_per_stack
 * size the buffers, so they may change only while no event uses them
 * (-EBUSY otherwise); an event asking for a deeper callchain than the
 * sysctl allows is refused with -EOVERFLOW.  callchain_mutex serialises
 * both against the allocation and freeing.
 *
 * The arch unwinders (perf_callchain_kernel/user) are called from here.
 */
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/uprobes.h>

#include "context.h"

int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly =
	PERF_MAX_CONTEXTS_PER_STACK;

/**
 * struct callchain_buffers - the entries of every CPU
 * @rcu: frees the whole set after the last user is gone
 * @entry_size: bytes per entry, fixed at allocation
 * @cpu: per CPU, PERF_NR_CONTEXTS entries of @entry_size bytes
 */
struct callchain_buffers {
	struct rcu_head		rcu;
	size_t			entry_size;
	void			*cpu[];
};

static struct callchain_buffers __rcu *callchain_buffers;
static DEFINE_PER_CPU(int, callchain_recursion[PERF_NR_CONTEXTS]);

/* protects nr_callchain_users, the buffers pointer and the two sysctls */
static DEFINE_MUTEX(callchain_mutex);
static int nr_callchain_users;

static void callchain_buffers_free(struct callchain_buffers *bufs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(bufs->cpu[cpu]);
	kfree(bufs);
}

static void callchain_buffers_free_rcu(struct rcu_head *head)
{
	callchain_buffers_free(container_of(head, struct callchain_buffers,
					    rcu));
}

/* callchain_mutex held; may sleep */
static int callchain_buffers_alloc(void)
{
	struct callchain_buffers *bufs;
	size_t entry_size;
	int cpu;

	lockdep_assert_held(&callchain_mutex);

	/* room for the ips and for the markers between contexts */
	entry_size = struct_size_t(struct perf_callchain_entry, ip,
				   sysctl_perf_event_max_stack +
				   sysctl_perf_event_max_contexts_per_stack);

	bufs = kzalloc(struct_size(bufs, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	bufs->entry_size = entry_size;

	for_each_possible_cpu(cpu) {
		bufs->cpu[cpu] = kmalloc_node(entry_size * PERF_NR_CONTEXTS,
					      GFP_KERNEL, cpu_to_node(cpu));
		if (!bufs->cpu[cpu]) {
			callchain_buffers_free(bufs);
			return -ENOMEM;
		}
	}
	rcu_assign_pointer(callchain_buffers, bufs);
	return 0;
}

/**
 * get_callchain_buffers - register an event that samples callchains
 * @max_stack: the deepest callchain the event asks for
 *
 * The first user allocates the per-CPU entries.  While any user exists the
 * depth sysctls cannot change.
 *
 * Context: process context, may sleep.
 * Return: 0, -EOVERFLOW when @max_stack exceeds perf_event_max_stack, or
 * -ENOMEM.
 */
int get_callchain_buffers(int max_stack)
{
	int ret = 0;

	mutex_lock(&callchain_mutex);
	if (max_stack > sysctl_perf_event_max_stack)
		ret = -EOVERFLOW;
	else if (!nr_callchain_users)
		ret = callchain_buffers_alloc();
	if (!ret)
		nr_callchain_users++;
	mutex_unlock(&callchain_mutex);
	return ret;
}

/**
 * put_callchain_buffers - drop a reference taken by get_callchain_buffers()
 *
 * The last user frees the entries once every sample that may still be
 * writing one (an RCU read-side section) has finished.
 *
 * Context: process context, may sleep.
 */
void put_callchain_buffers(void)
{
	struct callchain_buffers *bufs;

	mutex_lock(&callchain_mutex);
	if (!WARN_ON_ONCE(!nr_callchain_users) && !--nr_callchain_users) {
		bufs = rcu_replace_pointer(callchain_buffers, NULL,
					   lockdep_is_held(&callchain_mutex));
		if (bufs)
			call_rcu(&bufs->rcu, callchain_buffers_free_rcu);
	}
	mutex_unlock(&callchain_mutex);
}

/**
 * perf_event_max_stack_handler - perf_event_max_stack and
 * perf_event_max_contexts_per_stack (table->data says which)
 * @table: the sysctl entry
 * @write: a write?
 * @buffer: data
 * @lenp: its length
 * @ppos: file position
 *
 * The value sizes the callchain entries, so it may change only while no
 * event samples callchains.
 *
 * Return: 0, -EBUSY while callchain buffers are in use, or another errno.
 */
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	struct ctl_table tmp = *table;
	int *value = table->data;
	int new = *value, ret;

	tmp.data = &new;
	ret = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	mutex_lock(&callchain_mutex);
	if (nr_callchain_users)
		ret = -EBUSY;
	else
		*value = new;
	mutex_unlock(&callchain_mutex);
	return ret;
}

/**
 * get_callchain_entry - claim this CPU's entry for the current context level
 * @rctx: set to the level claimed, or -1
 *
 * Context: any, including NMI; preemption must be off and the caller must
 * hold rcu_read_lock() (or have interrupts off) until put_callchain_entry().
 * Return: the entry, or NULL when no buffers exist or the level's entry is
 * already in use on this CPU (recursion).
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	int level = interrupt_context_level();
	int *busy = this_cpu_ptr(&callchain_recursion[level]);
	struct callchain_buffers *bufs;

	if (*busy) {
		*rctx = -1;
		return NULL;
	}
	(*busy)++;
	/* the claim must be visible before an NMI here could look at it */
	barrier();
	*rctx = level;

	bufs = rcu_dereference(callchain_buffers);
	if (!bufs) {
		put_callchain_entry(level);
		*rctx = -1;
		return NULL;
	}
	return bufs->cpu[smp_processor_id()] + level * bufs->entry_size;
}

/**
 * put_callchain_entry - release what get_callchain_entry() claimed
 * @rctx: the level it returned; -1 is ignored
 *
 * The entry's contents stay valid until the next claim at the same level
 * on this CPU, which cannot happen before the caller (a sample being
 * written at this level) has finished.
 */
void put_callchain_entry(int rctx)
{
	if (rctx < 0)
		return;
	barrier();
	this_cpu_dec(callchain_recursion[rctx]);
}

/**
 * perf_callchain_kernel - arch hook: unwind the kernel stack at @regs
 * @ctx: the callchain being built
 * @regs: where to start
 *
 * Default for arches without an unwinder: store nothing.
 */
__weak void perf_callchain_kernel(struct perf_callchain_entry_ctx *ctx,
				  struct pt_regs *regs)
{
}

/**
 * perf_callchain_user - arch hook: unwind the user stack at @regs
 * @ctx: the callchain being built
 * @regs: the user registers
 */
__weak void perf_callchain_user(struct perf_callchain_entry_ctx *ctx,
				struct pt_regs *regs)
{
}

/*
 * A pending return probe put the uprobes trampoline's address in place of
 * a return address on current's user stack, and the unwinder read that.
 * Put the real addresses back: the return instances are kept innermost
 * first, as the frames are walked, and a chain of instances shares one
 * frame.  Only current's own instances are read, so a sample in NMI
 * sees them either before or after the task changes the list.
 */
static void callchain_unhide_returns(struct perf_callchain_entry *entry,
				     u64 first)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri = utask ? utask->return_instances : NULL;
	u64 tramp, i;
	bool chained;

	if (likely(!ri))
		return;
	tramp = uprobe_get_trampoline_vaddr();
	for (i = first; ri && i < entry->nr; i++) {
		if (entry->ip[i] != tramp)
			continue;
		entry->ip[i] = ri->orig_ret_vaddr;
		/* step over this frame's instance and any chained to it */
		do {
			chained = ri->chained;
			ri = ri->next;
		} while (chained && ri);
	}
#endif
}

/**
 * get_perf_callchain - collect a callchain
 * @regs: registers at the sample
 * @kernel: include kernel frames (only when @regs are kernel registers)
 * @user: include user frames; kernel-mode @regs of a task with an mm fall
 *	back to the registers it entered the kernel with
 * @max_stack: at most this many frames, markers not counted
 * @crosstask: @regs are not current's: user frames cannot be read
 * @add_mark: put PERF_CONTEXT_KERNEL / PERF_CONTEXT_USER before each part
 *
 * Context: any, including NMI; preemption off, under rcu_read_lock().
 * Return: this CPU's entry for the current level, valid until the caller
 * leaves that level, or NULL (no buffers, or recursion, or only user
 * frames asked for with @crosstask: there would be nothing to show, and
 * BPF's stack helpers tell that apart from an empty stack).
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	struct perf_callchain_entry_ctx ctx = { .max_stack = max_stack };
	struct perf_callchain_entry *entry;
	struct pt_regs *uregs = NULL;
	int rctx;

	/* current's registers say nothing about another task's user stack */
	if (user && crosstask) {
		if (!kernel)
			return NULL;
		user = false;
	}

	entry = get_callchain_entry(&rctx);
	if (!entry)
		return NULL;
	entry->nr = 0;
	ctx.entry = entry;

	if (user_mode(regs)) {
		uregs = regs;
	} else {
		if (kernel) {
			if (add_mark)
				perf_callchain_store_context(&ctx,
							     PERF_CONTEXT_KERNEL);
			perf_callchain_kernel(&ctx, regs);
		}
		/*
		 * Interrupted in the kernel: the user half starts where the
		 * task entered it.  A kernel thread (or a task past
		 * exit_mm()) has none.
		 */
		if (user && is_user_task(current))
			uregs = task_pt_regs(current);
	}

	if (user && uregs) {
		u64 first;

		if (add_mark)
			perf_callchain_store_context(&ctx, PERF_CONTEXT_USER);
		first = entry->nr;
		perf_callchain_user(&ctx, uregs);
		callchain_unhide_returns(entry, first);
	}

	put_callchain_entry(rctx);
	return entry;
}

/* what a sample gets when no callchain could be collected */
static struct perf_callchain_entry perf_empty_callchain = { .nr = 0 };

/**
 * perf_callchain - the callchain for a sample of @event
 * @event: the event
 * @regs: registers at the sample
 *
 * Kernel frames unless attr.exclude_callchain_kernel, user frames unless
 * attr.exclude_callchain_user or current has no user half.  When @event
 * belongs to another task than current (a sample taken on behalf of a task
 * that is not running), current's user stack is not that task's and is
 * left out.
 *
 * Context: the sample path: any, including NMI, under rcu_read_lock().
 * Return: the callchain; an empty one when nothing could be collected.
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	bool kernel = !event->attr.exclude_callchain_kernel;
	bool user = !event->attr.exclude_callchain_user &&
		    is_user_task(current);
	struct task_struct *task = event->ctx ? READ_ONCE(event->ctx->task) :
						NULL;
	bool crosstask = task && task != TASK_TOMBSTONE && task != current;
	struct perf_callchain_entry *entry;

	if (!kernel && !user)
		return &perf_empty_callchain;

	entry = get_perf_callchain(regs, kernel, user,
				   event->attr.sample_max_stack, crosstask,
				   true);
	return entry ?: &perf_empty_callchain;
}
