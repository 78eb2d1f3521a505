/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF programs on events (bpf.c), and their stubs without
 * CONFIG_BPF_SYSCALL.
 */
#ifndef _KERNEL_EVENTS_BPF_H
#define _KERNEL_EVENTS_BPF_H

#include <linux/perf_event.h>
#include <linux/trace_events.h>

/* bpf.c */
#ifdef CONFIG_BPF_SYSCALL
int perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs);
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent);
long perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
		    unsigned long arg);

static inline void perf_bpf_release(struct perf_event *event)
{
	perf_event_free_bpf_prog(event);
}

static inline bool perf_event_has_bpf(struct perf_event *event)
{
	return READ_ONCE(event->prog);
}
#else
static inline int perf_bpf_overflow(struct perf_event *event,
				    struct perf_sample_data *data,
				    struct pt_regs *regs)
{
	return 1;
}

static inline void perf_bpf_inherit(struct perf_event *child,
				    struct perf_event *parent)
{
}

static inline long perf_bpf_ioctl(struct perf_event *event, unsigned int cmd,
				  unsigned long arg)
{
	return -EOPNOTSUPP;	/* no BPF programs to attach */
}

static inline void perf_bpf_release(struct perf_event *event)
{
}

static inline bool perf_event_has_bpf(struct perf_event *event)
{
	return false;
}
#endif

#endif /* _KERNEL_EVENTS_BPF_H */
