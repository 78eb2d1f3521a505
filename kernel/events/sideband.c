// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happened to tasks and address spaces, written to
 * the ring buffers of the events that asked for it (attr.mmap, comm, task,
 * context_switch, namespaces, ksymbol, bpf_event, text_poke).
 *
 * Not built yet: every hook below writes nothing.
 */
#include "internal.h"

void perf_event_comm(struct task_struct *tsk, bool exec)
{
}

void perf_event_namespaces(struct task_struct *tsk)
{
}

void perf_event_fork(struct task_struct *tsk)
{
}

void perf_event_mmap(struct vm_area_struct *vma)
{
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *name)
{
}

void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type,
			  u16 flags)
{
}

void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes, size_t new_len)
{
}

void perf_event_switch_record(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in)
{
}

void perf_event_task_record(struct task_struct *task, bool fork)
{
}

void perf_event_read_record(struct perf_event *event, struct task_struct *task)
{
}
