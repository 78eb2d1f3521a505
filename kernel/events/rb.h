/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer object, shared by rb_buffer.c (the object, attaching,
 * the user page, wakeups), rb_output.c (writing records) and rb_mmap.c
 * (mapping it), and what the rest of the core calls in those files.
 * See rb_buffer.c for the rules.
 */
#ifndef _KERNEL_EVENTS_RB_H
#define _KERNEL_EVENTS_RB_H

#include <linux/perf_event.h>

struct perf_buffer {
	refcount_t			refcount;
	struct rcu_head			rcu_head;

	int				nr_pages;	/* data pages: 0 or 2^n */
	bool				overwrite;	/* mapped read-only */
	int				paused;
	long				watermark;	/* wakeup distance */

	local_t				head;		/* write position */
	local_t				nest;		/* writers in flight */
	local_t				events;		/* samples since wakeup */
	local_t				wakeup;		/* moves: wake readers */
	local_t				lost;		/* not yet reported */

	atomic_t			poll;		/* EPOLL* for poll() */
	atomic_t			mmap_count;	/* VMAs mapping us */
	unsigned long			mmap_locked;	/* pages charged to mm */
	struct user_struct		*mmap_user;	/* pages charged here */

	/* events writing here: for wakeups (RCU list, perf_rb_mutex) */
	struct list_head		event_list;

	struct perf_event_mmap_page	*user_page;
	void				*data_pages[];
};

/* mmap, munmap, SET_OUTPUT and detaching: see rb_buffer.c */
extern struct mutex perf_rb_mutex;

static inline unsigned long rb_data_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->nr_pages << PAGE_SHIFT;
}

struct perf_buffer *rb_alloc(int nr_pages, long watermark, int cpu,
			     bool overwrite);
void rb_put(struct perf_buffer *rb);
void rb_attach(struct perf_event *event, struct perf_buffer *rb);

/* what the other files call */

/* rb_output.c */
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);

/* rb_mmap.c */
int perf_mmap(struct file *file, struct vm_area_struct *vma);

/* rb_buffer.c */
int perf_event_set_output(struct perf_event *event,
			  struct perf_event *output_event);
void perf_event_detach_rb(struct perf_event *event);
int perf_event_pause_output(struct perf_event *event, bool pause);

#endif /* _KERNEL_EVENTS_RB_H */
