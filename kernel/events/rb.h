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

	/*
	 * A buffer that many CPUs write at once (PERF_FLAG_SHARED_BUFFER,
	 * rb_shared.c) keeps its head, writers, losses and wakeups in these
	 * instead: SMP atomics, where the fields above are CPU-local.
	 */
	bool				shared;
	atomic_long_t			sh_state;	/* head << 16 | writers */
	atomic_long_t			sh_lost;
	atomic_long_t			sh_samples;
	atomic_long_t			sh_wakeup;	/* moves: wake readers */
	atomic_long_t			sh_woken;	/* sh_wakeup last woken */

	atomic_t			poll;		/* EPOLL* for poll() */
	atomic_t			mmap_count;	/* VMAs mapping us */
	unsigned long			mmap_locked;	/* pages charged to mm */
	struct user_struct		*mmap_user;	/* pages charged here */

	/* events writing here: for wakeups (RCU list, perf_rb_mutex) */
	struct list_head		event_list;

	/*
	 * The AUX area (rb_aux.c): a second mapping a hardware tracer
	 * writes.  aux_nr_pages != 0 while it exists; aux_refcount is one
	 * for the mapping plus one per open transaction, and the pages go
	 * with the last.  aux_head, aux_wakeup and aux_busy belong to the
	 * one writer of the moment (a transaction runs on the writing
	 * event's CPU with IRQs off, or from pmu::add() to pmu::del()).
	 */
	void				**aux_pages;
	int				aux_nr_pages;
	bool				aux_overwrite;	/* mapped read-only */
	bool				aux_busy;	/* a transaction is open */
	pgoff_t				aux_pgoff;
	atomic_t			aux_mmap_count;	/* VMAs; 0: no new writer */
	refcount_t			aux_refcount;
	unsigned long			aux_head;
	unsigned long			aux_wakeup;	/* head at the last wakeup */
	unsigned long			aux_watermark;
	void				*aux_priv;	/* the driver's, setup_aux() */
	void				(*free_aux)(void *aux);
	unsigned long			aux_locked;	/* pages charged to mm */
	struct user_struct		*aux_user;	/* pages charged here */
	struct work_struct		aux_free_work;

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
			     bool overwrite, bool shared);
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

/*
 * The wakeup_events a record just written counts towards: a sample's
 * event's, or 0 for side-band records, which never wake a reader on their
 * own, and for watermark wakeups.  The record's header is 8-byte aligned
 * and so never spans two pages.
 */
static inline int rb_wakeup_events(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	struct perf_event_header *header;

	if (event->attr.watermark || !event->attr.wakeup_events)
		return 0;
	header = rb->data_pages[(handle->start >> PAGE_SHIFT) &
				(rb->nr_pages - 1)] +
		 offset_in_page(handle->start);
	return header->type == PERF_RECORD_SAMPLE ?
	       event->attr.wakeup_events : 0;
}

/* PERF_RECORD_LOST, as a writer puts it ahead of its own record */
struct rb_lost_record {
	struct perf_event_header	header;
	u64				id;
	u64				lost;
};

/* rb_output.c */
struct perf_sample_data *rb_lost_prepare(struct rb_lost_record *rec,
					 struct perf_sample_data *data,
					 struct perf_sample_data *spare,
					 struct perf_event *event);
void rb_lost_put(struct perf_output_handle *handle, struct rb_lost_record *rec,
		 struct perf_sample_data *data, u64 lost);

/*
 * rb_shared.c: the writers of a shared buffer (rb_output.c calls them);
 * 64-bit only, and no buffer is shared elsewhere.
 */
#ifdef CONFIG_64BIT
int rb_shared_begin(struct perf_output_handle *handle, struct perf_buffer *rb,
		    struct perf_sample_data *data, struct perf_event *event,
		    unsigned int size);
void rb_shared_end(struct perf_output_handle *handle);
#else
static inline int rb_shared_begin(struct perf_output_handle *handle,
				  struct perf_buffer *rb,
				  struct perf_sample_data *data,
				  struct perf_event *event, unsigned int size)
{
	return -ENOSPC;
}

static inline void rb_shared_end(struct perf_output_handle *handle)
{
}
#endif

static inline unsigned long rb_aux_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->aux_nr_pages << PAGE_SHIFT;
}

/* rb_mmap.c */
int perf_mmap(struct file *file, struct vm_area_struct *vma);
long rb_charge_check(struct vm_area_struct *vma, unsigned long pages);

/* rb_aux.c: the AUX area's pages, for rb_mmap.c */
int rb_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
		 pgoff_t pgoff, int nr_pages, bool overwrite);
int rb_aux_map(struct perf_buffer *rb, struct vm_area_struct *vma);
void rb_aux_unmap(struct perf_buffer *rb, struct mm_struct *mm);
void rb_aux_put(struct perf_buffer *rb);
void rb_aux_init(struct perf_buffer *rb);
void perf_aux_itrace_start(struct perf_event *event);

/* rb_buffer.c */
int perf_event_set_output(struct perf_event *event,
			  struct perf_event *output_event);
void perf_event_detach_rb(struct perf_event *event);
int perf_event_pause_output(struct perf_event *event, bool pause);

#endif /* _KERNEL_EVENTS_RB_H */
