// SPDX-License-Identifier: GPL-2.0
/*
 * What a task does when it hits a uprobe.
 *
 * The trap itself only notes the hit: the arch's trap handler calls
 * uprobe_pre_sstep_notifier(), which sets TIF_UPROBE.  The work happens on
 * the way back to user mode, in uprobe_notify_resume(), where the task may
 * sleep:
 *  - find the uprobe from the trap address (file, offset) and run its
 *    consumers' handlers, under uprobe_srcu so that
 *    uprobe_unregister_sync() can wait for them;
 *  - then either let the arch emulate the instruction, or copy it into an
 *    XOL slot and return there with single-stepping on.  The step traps
 *    (uprobe_post_sstep_notifier()), and the next uprobe_notify_resume()
 *    lets the arch fix the registers up and frees the slot.
 * Signals other than fatal ones wait while the instruction is stepped
 * (uprobe_deny_signal()): a handler would otherwise run on the XOL copy.
 *
 * A return probe replaces the probed function's return address with the
 * XOL page's trampoline and keeps the original in a return_instance, a
 * stack per task.  Returning through the trampoline pops the instances,
 * runs the ret_handlers, and resumes at the original address.  Frames
 * that longjmp() skipped are recognized by their stack pointer (the
 * arch's arch_uretprobe_is_alive()) and dropped.
 *
 * All of this runs in current's context; only the fork and exit hooks
 * touch another task's uprobe_task, and that task is not running.
 */
#include <linux/highmem.h>
#include <linux/kdebug.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "internal.h"

/**
 * uprobe_task_warn - tell the log that uprobes failed a task
 * @t: the task
 * @what: what could not be done
 */
void uprobe_task_warn(struct task_struct *t, const char *what)
{
	pr_warn("uprobe: %s:%d failed to %s\n", t->comm, t->pid, what);
}

/* current's uprobe_task, made on first use */
static struct uprobe_task *utask_current(void)
{
	if (!current->utask)
		current->utask = kzalloc(sizeof(*current->utask), GFP_KERNEL);
	return current->utask;
}

/* @t's uprobe_task while an instruction is stepped out of line, else NULL */
static struct uprobe_task *utask_stepping(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;

	return utask && utask->active_uprobe ? utask : NULL;
}

/*
 * The trap notifiers claim a trap for us: uprobe_notify_resume() then
 * runs before current returns to user mode.
 */
static int utask_claim_trap(void)
{
	set_thread_flag(TIF_UPROBE);
	return 1;
}

/*
 * Change current's TIF_SIGPENDING under its siglock: clear it while a step
 * holds signals back, recompute it from the pending sets once it is over.
 */
static void utask_sigpending(bool hold)
{
	spinlock_t *siglock = &current->sighand->siglock;

	spin_lock_irq(siglock);
	if (hold)
		clear_thread_flag(TIF_SIGPENDING);
	else
		recalc_sigpending();
	spin_unlock_irq(siglock);
}

/**
 * uprobe_get_swbp_addr - the breakpoint's address after its trap
 * @regs: the user registers at the trap
 *
 * Return: the address (arch override for arches that do not advance the
 * instruction pointer past the breakpoint).
 */
unsigned long __weak uprobe_get_swbp_addr(struct pt_regs *regs)
{
	unsigned long after = instruction_pointer(regs);

	return after - UPROBE_SWBP_INSN_SIZE;
}

/**
 * uprobe_get_trap_addr - the user address a fault is reported at
 * @regs: the user registers
 *
 * While an instruction is single-stepped out of line, a fault it takes is
 * reported at the probed address, not at the XOL slot.
 *
 * Return: the address.
 */
unsigned long uprobe_get_trap_addr(struct pt_regs *regs)
{
	struct uprobe_task *stepping = utask_stepping(current);

	return unlikely(stepping) ? stepping->vaddr : instruction_pointer(regs);
}

/**
 * arch_uprobe_ignore - should this hit be skipped? (arch override)
 * @aup: the arch part of the uprobe
 * @regs: the user registers
 *
 * Return: false by default.
 */
bool __weak arch_uprobe_ignore(struct arch_uprobe *aup, struct pt_regs *regs)
{
	return false;
}

/**
 * arch_uretprobe_is_alive - is a return instance's frame still on the
 * stack? (arch override)
 * @ret: the return instance
 * @ctx: at a call, a chained call or the return
 * @regs: the user registers
 *
 * Return: true by default (no frame is ever dropped).
 */
bool __weak arch_uretprobe_is_alive(struct return_instance *ret,
				    enum rp_check ctx, struct pt_regs *regs)
{
	return true;
}

/* return probes ------------------------------------------------------- */

static struct return_instance *ri_pop_free(struct uprobe_task *utask)
{
	struct return_instance *ri = utask->return_instances;

	utask->return_instances = ri->next;
	utask->depth--;
	uprobe_put(ri->uprobe);
	kfree(ri);
	return utask->return_instances;
}

/* make the probed function, just entered, return through the trampoline */
static void uretprobe_arm(struct uprobe *u, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long tramp, ret;
	struct return_instance *ri;
	enum rp_check when;
	bool chained;

	if (!uprobe_xol_area(0))
		return;
	if (utask->depth >= MAX_URETPROBE_DEPTH) {
		pr_info_ratelimited("uprobe: omit uretprobe due to nestedness limit pid/tgid=%d/%d\n",
				    current->pid, current->tgid);
		return;
	}
	ri = kmalloc(sizeof(*ri), GFP_KERNEL);
	if (!ri)
		return;
	if (!uprobe_tryget(u))
		goto free;

	tramp = uprobe_get_trampoline_vaddr();
	ret = arch_uretprobe_hijack_return_addr(tramp, regs);
	if (ret == -1UL)
		goto put;

	/*
	 * A return address that already is the trampoline: a probed function
	 * tail-called into this one, so both return through one frame.  The
	 * new instance is chained to the one below and keeps its address.
	 */
	chained = ret == tramp;
	when = chained ? RP_CHECK_CHAIN_CALL : RP_CHECK_CALL;
	while (utask->return_instances &&
	       !arch_uretprobe_is_alive(utask->return_instances, when, regs))
		ri_pop_free(utask);
	if (chained) {
		if (!utask->return_instances) {
			/* only a forged stack gets here */
			uprobe_task_warn(current, "handle tail call");
			goto put;
		}
		ret = utask->return_instances->orig_ret_vaddr;
	}

	ri->uprobe = u;
	ri->func = instruction_pointer(regs);
	ri->stack = user_stack_pointer(regs);
	ri->orig_ret_vaddr = ret;
	ri->chained = chained;
	ri->next = utask->return_instances;
	utask->return_instances = ri;
	utask->depth++;
	return;

put:
	uprobe_put(u);
free:
	kfree(ri);
}

static void uretprobe_run_handlers(struct return_instance *ri,
				   struct pt_regs *regs)
{
	struct uprobe_consumer *uc;
	int idx;

	idx = srcu_read_lock(&uprobe_srcu);
	list_for_each_entry_srcu(uc, &ri->uprobe->consumers, cons_node,
				 srcu_read_lock_held(&uprobe_srcu)) {
		if (uc->ret_handler)
			uc->ret_handler(uc, ri->func, regs);
	}
	srcu_read_unlock(&uprobe_srcu, idx);
}

/**
 * uprobe_handle_trampoline - a function returned through the trampoline
 * @regs: the user registers; the instruction pointer is set to the real
 *	return address
 *
 * Pops the instances of the returning frame (a chain returns as one),
 * after dropping frames that longjmp() skipped, and runs their
 * ret_handlers.  A task with nothing to pop gets SIGILL.
 *
 * Context: current returning to user mode, may sleep.
 */
void uprobe_handle_trampoline(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri, *below;
	bool alive;

	if (!utask || !utask->return_instances) {
		uprobe_task_warn(current, "handle uretprobe, sending SIGILL.");
		force_sig(SIGILL);
		return;
	}

	do {
		/* the frame's instances end where the chain ends */
		ri = utask->return_instances;
		below = ri;
		while (below->chained)
			below = below->next;
		below = below->next;
		/*
		 * If the frame under this one is gone too, this frame was
		 * skipped by longjmp(): drop it without handlers.
		 */
		alive = !below ||
			arch_uretprobe_is_alive(below, RP_CHECK_RET, regs);

		instruction_pointer_set(regs, ri->orig_ret_vaddr);
		while (utask->return_instances != below) {
			ri = utask->return_instances;
			/*
			 * Off the stack before the handlers run, so a
			 * callchain taken in them does not see this frame's
			 * trampoline as pending.
			 */
			utask->return_instances = ri->next;
			if (alive)
				uretprobe_run_handlers(ri, regs);
			ri->next = NULL;
			uprobe_put(ri->uprobe);
			kfree(ri);
			utask->depth--;
		}
	} while (!alive);
}

/* single-stepping ----------------------------------------------------- */

/* copy @u's instruction to a slot and arrange the step there */
static void sstep_begin(struct uprobe *u, struct pt_regs *regs,
			unsigned long bp_vaddr)
{
	struct uprobe_task *utask = current->utask;

	if (!uprobe_tryget(u))
		return;
	utask->xol_vaddr = uprobe_xol_take(u);
	if (!utask->xol_vaddr)
		goto put;
	utask->vaddr = bp_vaddr;
	if (arch_uprobe_pre_xol(&u->arch, regs)) {
		uprobe_xol_release(current);
		goto put;
	}
	utask->active_uprobe = u;
	utask->state = UTASK_SSTEP;
	return;
put:
	/* returning to the breakpoint hits it again */
	uprobe_put(u);
}

/* the step is over (or was cut short by a signal): clean up */
static void sstep_end(struct uprobe_task *utask, struct pt_regs *regs)
{
	struct uprobe *u = utask->active_uprobe;
	bool fixup_failed = false;

	switch (utask->state) {
	case UTASK_SSTEP_ACK:
		/* the step completed: the arch fixes the registers up */
		fixup_failed = arch_uprobe_post_xol(&u->arch, regs) != 0;
		break;
	case UTASK_SSTEP_TRAPPED:
		/* a signal cut it short: back to the probed address */
		arch_uprobe_abort_xol(&u->arch, regs);
		break;
	default:
		WARN_ON_ONCE(1);
		break;
	}

	uprobe_xol_release(current);
	utask->state = UTASK_RUNNING;
	utask->active_uprobe = NULL;
	uprobe_put(u);

	/* let the signals uprobe_deny_signal() held back through */
	utask_sigpending(false);
	if (!fixup_failed)
		return;
	uprobe_task_warn(current, "execute the probed insn, sending SIGILL.");
	force_sig(SIGILL);
}

/**
 * uprobe_deny_signal - hold a signal back while stepping out of line
 *
 * Called by get_signal().  A non-fatal signal waits until the step is
 * done.  A fatal one, or a fault of the stepped instruction itself, ends
 * the step early: the instruction pointer goes back to the probed address
 * so the signal (or a core dump) sees the real one.
 *
 * Context: current, in get_signal().
 *
 * Return: true while a step is in progress (get_signal() then delivers
 * nothing now).
 */
bool uprobe_deny_signal(void)
{
	struct uprobe_task *stepping = utask_stepping(current);
	bool cut_short;

	if (likely(!stepping))
		return false;
	WARN_ON_ONCE(stepping->state != UTASK_SSTEP);
	if (!task_sigpending(current))
		return true;

	/* hidden from get_signal() until sstep_end() recomputes it */
	utask_sigpending(true);
	cut_short = __fatal_signal_pending(current) ||
		    arch_uprobe_xol_was_trapped(current);
	if (cut_short) {
		stepping->state = UTASK_SSTEP_TRAPPED;
		utask_claim_trap();
	}
	return true;
}

/* the hit ------------------------------------------------------------- */

/*
 * The uprobe at @bp_vaddr of current's mm, without a reference (valid
 * under the caller's uprobe_srcu).  On a miss, *trap says
 * whether a breakpoint instruction is there anyway (1), not (0), or the
 * address cannot be read (negative).
 */
static struct uprobe *uprobe_at(unsigned long bp_vaddr, int *trap)
{
	struct mm_struct *mm = current->mm;
	struct uprobe *u = NULL;
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	vma = vma_lookup(mm, bp_vaddr);
	if (!vma) {
		*trap = -EFAULT;
	} else {
		if (uprobe_vma_ok(vma, false))
			u = uprobe_find_rcu(file_inode(vma->vm_file),
					    uprobe_vma_offset(vma, bp_vaddr));
		if (!u)
			*trap = uprobe_trap_at(mm, bp_vaddr);
	}
	if (!u && test_and_clear_bit(MMF_RECALC_UPROBES, &mm->flags))
		uprobe_mm_recalc(mm);
	mmap_read_unlock(mm);
	return u;
}

/* @uc's entry handler, if it has one: its UPROBE_HANDLER_* answer */
static int uprobe_consumer_hit(struct uprobe_consumer *uc,
			       struct pt_regs *regs)
{
	int answer;

	if (!uc->handler)
		return 0;
	answer = uc->handler(uc, regs);
	WARN(answer & ~UPROBE_HANDLER_MASK, "bad rc=0x%x from %ps()\n",
	     answer, uc->handler);
	return answer;
}

/* run the consumers' handlers; arm the return probe if one wants it */
static void uprobe_run_handlers(struct uprobe *u, struct pt_regs *regs)
{
	struct uprobe_consumer *uc;
	bool want_ret = false, any = false;
	int remove = UPROBE_HANDLER_REMOVE;

	/* trace_uprobe's fetch code finds the probe here */
	current->utask->auprobe = &u->arch;
	list_for_each_entry_srcu(uc, &u->consumers, cons_node,
				 srcu_read_lock_held(&uprobe_srcu)) {
		/* removed from this mm only if every consumer asks */
		remove &= uprobe_consumer_hit(uc, regs);
		want_ret |= !!uc->ret_handler;
		any = true;
	}
	current->utask->auprobe = NULL;

	if (want_ret && !remove)
		uretprobe_arm(u, regs);

	if (remove && any) {
		down_read(&u->register_rwsem);
		/* ask the filters again, now that no register can race */
		if (!uprobe_wanted(u, current->mm))
			uprobe_remove_from_mm(u, current->mm);
		up_read(&u->register_rwsem);
	}
}

static void uprobe_hit(struct pt_regs *regs)
{
	unsigned long bp_vaddr = uprobe_get_swbp_addr(regs);
	struct uprobe *u;
	int trap = 0, idx;

	if (bp_vaddr == uprobe_get_trampoline_vaddr()) {
		uprobe_handle_trampoline(regs);
		return;
	}

	idx = srcu_read_lock(&uprobe_srcu);
	u = uprobe_at(bp_vaddr, &trap);
	if (!u) {
		if (trap > 0)
			/* someone else's breakpoint: the task's own business */
			force_sig(SIGTRAP);
		else
			/*
			 * The breakpoint was taken out since it trapped, or
			 * the mapping went: run the address again (and fault
			 * properly if it is gone).
			 */
			instruction_pointer_set(regs, bp_vaddr);
		goto out;
	}

	/* handlers see the probed address; a restart runs it again */
	instruction_pointer_set(regs, bp_vaddr);

	/*
	 * Not analysed yet: a new uprobe replaced the one that trapped and
	 * is being installed.  Return to the breakpoint and try again.  The
	 * acquire pairs with uprobe_prepare()'s release: @arch is complete.
	 */
	if (!smp_load_acquire(&u->prepared))
		goto out;
	if (!utask_current())
		goto out;
	if (arch_uprobe_ignore(&u->arch, regs))
		goto out;

	uprobe_run_handlers(u, regs);

	/* a handler sent the task elsewhere: the instruction is not run */
	if (instruction_pointer(regs) != bp_vaddr)
		goto out;
	if (arch_uprobe_skip_sstep(&u->arch, regs))
		goto out;
	sstep_begin(u, regs, bp_vaddr);
out:
	srcu_read_unlock(&uprobe_srcu, idx);
}

/**
 * uprobe_notify_resume - TIF_UPROBE work on the way back to user mode
 * @regs: the user registers
 *
 * Either a breakpoint was hit, or the out-of-line step finished.
 *
 * Context: current, returning to user mode, IRQs on, may sleep.
 */
void uprobe_notify_resume(struct pt_regs *regs)
{
	struct uprobe_task *stepping;

	clear_thread_flag(TIF_UPROBE);
	stepping = utask_stepping(current);
	if (!stepping) {
		uprobe_hit(regs);
		return;
	}
	sstep_end(stepping, regs);
}

/**
 * uprobe_pre_sstep_notifier - a breakpoint trapped in user mode
 * @regs: the user registers
 *
 * Context: the trap handler, IRQs may be off.
 *
 * Return: 1 if it may be a uprobe's (TIF_UPROBE is set), 0 to let the
 * trap go on as a plain SIGTRAP.
 */
int uprobe_pre_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct mm_struct *mm = current->mm;
	bool may_return;

	if (!mm)
		return 0;
	/* a trap at the trampoline is ours even without a breakpoint left */
	may_return = utask && utask->return_instances;
	if (may_return || test_bit(MMF_HAS_UPROBES, &mm->flags))
		return utask_claim_trap();
	return 0;
}

/**
 * uprobe_post_sstep_notifier - a single-step trapped in user mode
 * @regs: the user registers
 *
 * Context: the trap handler, IRQs may be off.
 *
 * Return: 1 if it was the step of a uprobe's instruction, else 0.
 */
int uprobe_post_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *stepping;

	if (!current->mm)
		return 0;
	stepping = utask_stepping(current);
	if (!stepping)
		return 0;
	stepping->state = UTASK_SSTEP_ACK;
	return utask_claim_trap();
}

/* fork and exit ------------------------------------------------------- */

/**
 * uprobe_free_utask - a task exits (or execs): free its uprobe state
 * @t: the task
 *
 * Context: process context; @t is current or not running.
 */
void uprobe_free_utask(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;

	if (!utask)
		return;
	if (utask->active_uprobe)
		uprobe_put(utask->active_uprobe);
	while (utask->return_instances)
		ri_pop_free(utask);
	uprobe_xol_release(t);
	t->utask = NULL;
	kfree(utask);
}

/* the child's own XOL page, where the parent's was: its stack points there */
static void uprobe_dup_xol(struct callback_head *work)
{
	if (current->flags & PF_EXITING)
		return;
	if (!uprobe_xol_area(current->utask->dup_xol_addr) &&
	    !fatal_signal_pending(current))
		uprobe_task_warn(current, "dup xol area");
}

/* copy the parent's pending return instances into @t */
static int uprobe_dup_returns(struct task_struct *t, struct uprobe_task *from)
{
	struct return_instance **tail, *o, *n;
	struct uprobe_task *to;

	to = kzalloc(sizeof(*to), GFP_KERNEL);
	if (!to)
		return -ENOMEM;
	t->utask = to;

	tail = &to->return_instances;
	for (o = from->return_instances; o; o = o->next) {
		n = kmemdup(o, sizeof(*n), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		/* the parent's instance holds a reference and cannot go now */
		uprobe_get(n->uprobe);
		n->next = NULL;
		*tail = n;
		tail = &n->next;
		to->depth++;
	}
	return 0;
}

/**
 * uprobe_copy_process - a new task was copied from current
 * @t: the new task
 * @flags: the clone flags
 *
 * A child with its own stack copy (fork, or vfork, which runs on the
 * parent's stack) inherits the pending return probes: its return
 * addresses point at the trampoline too.  A forked child also needs the
 * XOL page at the parent's address, made when it first runs.
 *
 * Context: copy_process(), process context.
 */
void uprobe_copy_process(struct task_struct *t, unsigned long flags)
{
	struct uprobe_task *parent = current->utask;
	bool shares_mm = t->mm == current->mm;
	unsigned long tramp;

	/* copy_process() duplicated the pointer: it is the parent's */
	t->utask = NULL;
	/* a thread starts on a new stack without our frames */
	if (shares_mm && !(flags & CLONE_VFORK))
		return;
	if (!parent || !parent->return_instances)
		return;

	if (uprobe_dup_returns(t, parent)) {
		uprobe_task_warn(t, "dup ret instances");
		return;
	}
	/* no page to return through: the parent's own dup_xol work failed */
	tramp = uprobe_get_trampoline_vaddr();
	if (tramp == UPROBE_NO_TRAMPOLINE_VADDR) {
		uprobe_task_warn(t, "dup xol area");
		return;
	}
	/* vfork: the child runs in the parent's mm, page included */
	if (shares_mm)
		return;
	t->utask->dup_xol_addr = tramp;
	init_task_work(&t->utask->dup_xol_work, uprobe_dup_xol);
	task_work_add(t, &t->utask->dup_xol_work, TWA_RESUME);
}

static struct notifier_block uprobe_die_nb = {
	.notifier_call	= arch_uprobe_exception_notify,
	/* after kprobes and kgdb, which see kernel traps first */
	.priority	= INT_MAX - 1,
};

/**
 * uprobes_init - boot-time setup: hear about user breakpoint traps
 */
void __init uprobes_init(void)
{
	if (register_die_notifier(&uprobe_die_nb))
		panic("uprobes: cannot register the die notifier\n");
}
