// SPDX-License-Identifier: GPL-2.0
/*
 * perf_aux_pmu: a PMU with an AUX area and no hardware behind it, for
 * selftests/aux_area.  It stands where a trace unit's driver stands (Intel
 * PT, CoreSight, SPE) and uses only what such a driver calls: setup_aux()
 * and free_aux(), perf_aux_output_begin(), _skip(), _flag() and _end(),
 * and perf_report_aux_output_id().
 *
 * Nothing is traced.  Instead every read() of an active event is a trigger
 * that writes one chunk of a known pattern at the AUX head, so that a test
 * knows which byte must stand where:
 *
 *	byte at AUX position h = (u8)(h ^ (h >> 8) ^ seed)
 *
 * where h is the running (never wrapped) AUX head.  The event's count is
 * the number of bytes written.
 *
 * config:0-15	chunk: bytes per read (0 means 256)
 * config:16-31	skip: bytes to skip (perf_aux_output_skip()) before the chunk
 * config:32	partial: flag the chunk PERF_AUX_FLAG_PARTIAL
 * config:33	collision: flag the chunk PERF_AUX_FLAG_COLLISION
 * config:34	hw_id: report hw id 0x1234 + seed at the first read
 * config:35	marks: at each pause and resume, report the hw id
 *		AUX_MARK_PAUSE + n or AUX_MARK_RESUME + n (the n-th call),
 *		so that where it stands in the data buffer shows when the
 *		core paused or resumed the event
 * config:36	filters: write, instead of the pattern, the driver's copy of
 *		the address filters (struct aux_test_filters, 56 bytes)
 * config1:0-7	seed of the pattern
 *
 * In overwrite mode (the AUX area mapped read-only) the driver moves the
 * head itself and the chunk wraps around the buffer; otherwise a chunk
 * larger than the free space is cut to it and flagged truncated.
 *
 * The AUX group controls, for selftests/aux_controls (compiled in only
 * against a kernel that has them, PERF_EF_PAUSE being the sign; without
 * them perf_aux_test_out still registers, and no aux_output opens):
 *  - perf_aux_test takes aux_pause/aux_resume members and aux_start_paused
 *    (PERF_PMU_CAP_AUX_PAUSE).  stop(PERF_EF_PAUSE) pauses the event,
 *    start(PERF_EF_RESUME) resumes it, nothing else does, and a read()
 *    of a paused event writes nothing.  The driver keeps its own paused
 *    bit (in hw.flags, which both kernels have and the core does not
 *    touch), set at init for aux_start_paused.  The read-only module
 *    parameters pauses and resumes count the calls of either kind since
 *    the module was loaded, pause_flags and resume_flags hold the flags of
 *    the last one.
 *  - perf_aux_test_out (PERF_PMU_CAP_AUX_OUTPUT) takes aux_output when
 *    its leader is a perf_aux_test event.  A read() of an active
 *    aux_output event writes one chunk of the same pattern (its own chunk
 *    and seed fields) into its leader's AUX area, where a trace unit's
 *    aux_output member would put its samples, and adds the bytes to its
 *    count.  An aux_output event whose leader is gone does not go on a
 *    CPU (add() fails), like PEBS-via-PT on x86.
 *
 * perf_aux_snap, for selftests/aux_sample, is perf_aux_test with a
 * snapshot_aux(): a member with aux_sample_size samples the newest bytes
 * of its stream (see aux_test_snapshot()).
 *
 * Address filters, for selftests/aux_filters: perf_aux_test takes two
 * (nr_addr_filters; addr_filters_validate() refuses a third with
 * EOPNOTSUPP).  start() syncs them, perf_event_addr_filters_sync(), as a
 * trace unit's driver does before it programs its range registers: the
 * core calls addr_filters_sync() only when the filters changed since the
 * last time.  The driver's copy, in a block of its own per event (behind
 * hw.addr_filters), is what a read() with config:36 writes into the AUX
 * area: for each slot the resolved range (event->addr_filter_ranges) and
 * the action of the filter, ~0 for a slot without one, and then how many
 * syncs the event has had.
 */
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#define AUX_CHUNK(c)		((c) & 0xffff)
#define AUX_SKIP(c)		(((c) >> 16) & 0xffff)
#define AUX_PARTIAL		BIT_ULL(32)
#define AUX_COLLISION		BIT_ULL(33)
#define AUX_HW_ID		BIT_ULL(34)
#define AUX_MARKS		BIT_ULL(35)
#define AUX_FILTERS		BIT_ULL(36)
#define AUX_SEED(c1)		((c1) & 0xff)
#define AUX_HW_ID_BASE		0x1234
#define AUX_MARK_PAUSE		0x9a000000
#define AUX_MARK_RESUME		0x4e000000

/* hw.flags: the hw id record has been asked for; paused */
#define AUX_ID_REPORTED		0x1
#define AUX_PAUSED		0x2

#ifdef PERF_EF_PAUSE
#define AUX_CONTROLS		1
#define AUX_PAUSE_CAPS		PERF_PMU_CAP_AUX_PAUSE
#else
#define AUX_CONTROLS		0
#define AUX_PAUSE_CAPS		0
#define PERF_EF_PAUSE		0
#define PERF_EF_RESUME		0
#endif

#define AUX_NR_FILTERS		2
#define AUX_NO_FILTER		(~0ULL)

/* The driver's copy of an event's filters, and the record config:36 writes. */
struct aux_test_filters {
	struct {
		u64 start;
		u64 size;
		u64 action;	/* enum perf_addr_filter_action_t, or ~0 */
	} slot[AUX_NR_FILTERS];
	u64 nr_syncs;
};

struct aux_test_buf {
	int nr_pages;
	bool overwrite;
	void *pages[];
};

static struct pmu aux_pmu, aux_out_pmu, aux_snap_pmu;

/* children of an inherited event may pause on several CPUs at once */
static atomic_t nr_pauses, nr_resumes;
static unsigned int pause_flags, resume_flags;
module_param_named(pauses, nr_pauses.counter, int, 0444);
MODULE_PARM_DESC(pauses, "stop(PERF_EF_PAUSE) calls");
module_param_named(resumes, nr_resumes.counter, int, 0444);
MODULE_PARM_DESC(resumes, "start(PERF_EF_RESUME) calls");
module_param(pause_flags, uint, 0444);
MODULE_PARM_DESC(pause_flags, "the flags of the last pause");
module_param(resume_flags, uint, 0444);
MODULE_PARM_DESC(resume_flags, "the flags of the last resume");

static u8 aux_pattern(unsigned long h, u8 seed)
{
	return (u8)(h ^ (h >> 8) ^ seed);
}

static void *aux_test_setup(struct perf_event *event, void **pages,
			    int nr_pages, bool overwrite)
{
	struct aux_test_buf *buf;

	/* the pattern's page index is a mask of the head */
	if (!nr_pages || (nr_pages & (nr_pages - 1)))
		return NULL;
	buf = kzalloc(struct_size(buf, pages, nr_pages), GFP_KERNEL);
	if (!buf)
		return NULL;
	memcpy(buf->pages, pages, nr_pages * sizeof(*pages));
	buf->nr_pages = nr_pages;
	buf->overwrite = overwrite;
	return buf;
}

static void aux_test_free(void *priv)
{
	kfree(priv);
}

/* Write @n pattern bytes from AUX position @head on, wrapping. */
static void aux_test_fill(struct aux_test_buf *buf, unsigned long head,
			  unsigned long n, u8 seed)
{
	unsigned long h, i;
	u8 *page;

	for (i = 0; i < n; i++) {
		h = head + i;
		page = buf->pages[(h >> PAGE_SHIFT) & (buf->nr_pages - 1)];
		page[h & ~PAGE_MASK] = aux_pattern(h, seed);
	}
}

/* Copy @n bytes of @src to AUX position @head on, wrapping. */
static void aux_test_copy(struct aux_test_buf *buf, unsigned long head,
			  const void *src, unsigned long n)
{
	const u8 *from = src;
	unsigned long h, i;
	u8 *page;

	for (i = 0; i < n; i++) {
		h = head + i;
		page = buf->pages[(h >> PAGE_SHIFT) & (buf->nr_pages - 1)];
		page[h & ~PAGE_MASK] = from[i];
	}
}

/*
 * Write the driver's copy of @event's filters at the AUX head, whole or
 * not at all (flagged truncated, then).
 */
static void aux_test_filter_record(struct perf_event *event)
{
	struct aux_test_filters rec = { };
	struct perf_addr_filters_head *head;
	struct perf_output_handle handle;
	struct aux_test_buf *buf;
	unsigned long flags;

	buf = perf_aux_output_begin(&handle, event);
	if (!buf)
		return;
	if (!buf->overwrite && handle.size < sizeof(rec)) {
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(&handle, 0);
		return;
	}
	/* the lock the core syncs under */
	head = perf_event_addr_filters(event);
	raw_spin_lock_irqsave(&head->lock, flags);
	if (event->hw.addr_filters)
		rec = *(struct aux_test_filters *)event->hw.addr_filters;
	raw_spin_unlock_irqrestore(&head->lock, flags);
	aux_test_copy(buf, handle.head, &rec, sizeof(rec));
	if (buf->overwrite)
		handle.head += sizeof(rec);
	perf_aux_output_end(&handle, sizeof(rec));
	local64_add(sizeof(rec), &event->count);
}

/*
 * Write one chunk of @event's config and seed into the AUX area of
 * @aux_event (@event itself, or the leader of an aux_output member).
 */
static void aux_test_chunk(struct perf_event *event,
			   struct perf_event *aux_event)
{
	struct perf_output_handle handle;
	struct aux_test_buf *buf;
	u64 config = event->attr.config;
	u8 seed = AUX_SEED(event->attr.config1);
	unsigned long n = AUX_CHUNK(config) ?: 256;
	unsigned long skip = AUX_SKIP(config);

	buf = perf_aux_output_begin(&handle, aux_event);
	if (!buf)
		return;

	if (skip && perf_aux_output_skip(&handle, skip)) {
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(&handle, 0);
		return;
	}

	if (!buf->overwrite && n > handle.size) {
		n = handle.size;
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
	}
	aux_test_fill(buf, handle.head, n, seed);

	if (config & AUX_PARTIAL)
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_PARTIAL);
	if (config & AUX_COLLISION)
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_COLLISION);

	/* in overwrite mode the driver, not the core, moves the head */
	if (buf->overwrite)
		handle.head += n;
	perf_aux_output_end(&handle, n);
	local64_add(n, &event->count);
}

/*
 * PERF_SAMPLE_AUX of a member: the newest @size bytes of @event's stream,
 * the pattern at heads [count - size, count), as a tracer copies the end
 * of its trace into the sample.  Written only up to the end of the
 * handle's page: a module cannot move a handle to the next page (no
 * perf_output_copy() for modules), so the tests keep each sample within
 * one page; what is not written, the core fills.
 */
static long aux_test_snapshot(struct perf_event *event,
			      struct perf_output_handle *handle,
			      unsigned long size)
{
	unsigned long end = local64_read(&event->count), n, i;
	u8 seed = AUX_SEED(event->attr.config1);
	u8 *to = handle->addr;

	n = min(size, handle->size);
	for (i = 0; i < n; i++)
		to[i] = aux_pattern(end - size + i, seed);
	handle->addr += n;
	handle->size -= n;
	return n;
}

static void aux_test_read(struct perf_event *event)
{
	u64 config = event->attr.config;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (!(event->hw.flags & AUX_PAUSED)) {
		if (config & AUX_FILTERS)
			aux_test_filter_record(event);
		else
			aux_test_chunk(event, event);
	}

	/* once per event, after the first chunk's record */
	if ((config & AUX_HW_ID) && !(event->hw.flags & AUX_ID_REPORTED)) {
		event->hw.flags |= AUX_ID_REPORTED;
		perf_report_aux_output_id(event, AUX_HW_ID_BASE +
					  AUX_SEED(event->attr.config1));
	}
}

/*
 * A pause or resume leaves hw.state alone: the core calls it on the
 * leader whether or not that is on a CPU, and it outlasts the event's
 * going off and on again.
 */
static void aux_test_pause(struct perf_event *event, bool pause, int flags)
{
	unsigned int n;

	if (pause) {
		event->hw.flags |= AUX_PAUSED;
		n = atomic_inc_return(&nr_pauses);
		WRITE_ONCE(pause_flags, flags);
	} else {
		event->hw.flags &= ~AUX_PAUSED;
		n = atomic_inc_return(&nr_resumes);
		WRITE_ONCE(resume_flags, flags);
	}
	if (event->attr.config & AUX_MARKS)
		perf_report_aux_output_id(event, n + (pause ? AUX_MARK_PAUSE :
						      AUX_MARK_RESUME));
}

static void aux_test_start(struct perf_event *event, int flags)
{
	if (AUX_CONTROLS && (flags & PERF_EF_RESUME)) {
		aux_test_pause(event, false, flags);
		return;
	}
	perf_event_addr_filters_sync(event);
	event->hw.state = 0;
}

static void aux_test_stop(struct perf_event *event, int flags)
{
	if (AUX_CONTROLS && (flags & PERF_EF_PAUSE)) {
		aux_test_pause(event, true, flags);
		return;
	}
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int aux_test_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		aux_test_start(event, flags);
	return 0;
}

static void aux_test_del(struct perf_event *event, int flags)
{
	aux_test_stop(event, flags);
}

/* More filters than the slots: refused, the old ones stay. */
static int aux_test_filters_validate(struct list_head *filters)
{
	struct perf_addr_filter *filter;
	int n = 0;

	list_for_each_entry(filter, filters, entry)
		n++;
	return n > AUX_NR_FILTERS ? -EOPNOTSUPP : 0;
}

/* Under the filters' lock, when they changed since the last sync. */
static void aux_test_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct aux_test_filters *f = event->hw.addr_filters;
	struct perf_addr_filter *filter;
	int i = 0;

	if (!f)
		return;
	list_for_each_entry(filter, &head->list, entry) {
		if (i == AUX_NR_FILTERS)
			break;
		f->slot[i].start = event->addr_filter_ranges[i].start;
		f->slot[i].size = event->addr_filter_ranges[i].size;
		f->slot[i].action = filter->action;
		i++;
	}
	for (; i < AUX_NR_FILTERS; i++) {
		f->slot[i].start = 0;
		f->slot[i].size = 0;
		f->slot[i].action = AUX_NO_FILTER;
	}
	f->nr_syncs++;
}

static void aux_test_destroy(struct perf_event *event)
{
	kfree(event->hw.addr_filters);
	event->hw.addr_filters = NULL;
}

static int aux_test_event_init(struct perf_event *event)
{
	struct aux_test_filters *f;
	int i;

	if (event->attr.type != aux_pmu.type &&
	    event->attr.type != aux_snap_pmu.type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < AUX_NR_FILTERS; i++)
		f->slot[i].action = AUX_NO_FILTER;
	event->hw.addr_filters = f;
	event->destroy = aux_test_destroy;
	event->hw.flags = 0;
	if (event->attr.aux_start_paused)
		event->hw.flags |= AUX_PAUSED;
	return 0;
}

PMU_FORMAT_ATTR(chunk, "config:0-15");
PMU_FORMAT_ATTR(skip, "config:16-31");
PMU_FORMAT_ATTR(partial, "config:32");
PMU_FORMAT_ATTR(collision, "config:33");
PMU_FORMAT_ATTR(hw_id, "config:34");
PMU_FORMAT_ATTR(marks, "config:35");
PMU_FORMAT_ATTR(filters, "config:36");
PMU_FORMAT_ATTR(seed, "config1:0-7");

static struct attribute *aux_pmu_format_attrs[] = {
	&format_attr_chunk.attr,
	&format_attr_skip.attr,
	&format_attr_partial.attr,
	&format_attr_collision.attr,
	&format_attr_hw_id.attr,
	&format_attr_marks.attr,
	&format_attr_filters.attr,
	&format_attr_seed.attr,
	NULL,
};

static const struct attribute_group aux_pmu_format_group = {
	.name	= "format",
	.attrs	= aux_pmu_format_attrs,
};

static const struct attribute_group *aux_pmu_attr_groups[] = {
	&aux_pmu_format_group,
	NULL,
};

/* perf_aux_test and perf_aux_snap: the same tracer, with and without */
#define AUX_TRACER_OPS							\
	.module		= THIS_MODULE,					\
	.task_ctx_nr	= perf_sw_context,				\
	.capabilities	= PERF_PMU_CAP_ITRACE | AUX_PAUSE_CAPS,		\
	.attr_groups	= aux_pmu_attr_groups,				\
	.event_init	= aux_test_event_init,				\
	.add		= aux_test_add,					\
	.del		= aux_test_del,					\
	.start		= aux_test_start,				\
	.stop		= aux_test_stop,				\
	.read		= aux_test_read,				\
	.setup_aux	= aux_test_setup,				\
	.free_aux	= aux_test_free,				\
	.nr_addr_filters	= AUX_NR_FILTERS,			\
	.addr_filters_validate	= aux_test_filters_validate,		\
	.addr_filters_sync	= aux_test_filters_sync

static struct pmu aux_pmu = {
	AUX_TRACER_OPS,
};

static struct pmu aux_snap_pmu = {
	AUX_TRACER_OPS,
	.snapshot_aux	= aux_test_snapshot,
};

/* The leader an aux_output event writes into, or NULL. */
static struct perf_event *aux_out_leader(struct perf_event *event)
{
#if AUX_CONTROLS
	return event->attr.aux_output ? event->aux_event : NULL;
#else
	return NULL;
#endif
}

static void aux_out_read(struct perf_event *event)
{
	struct perf_event *leader = aux_out_leader(event);

	if (!(event->hw.state & PERF_HES_STOPPED) && leader)
		aux_test_chunk(event, leader);
}

static void aux_out_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void aux_out_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int aux_out_add(struct perf_event *event, int flags)
{
	/* its leader left the group: it has nowhere to write */
	if (event->attr.aux_output && !aux_out_leader(event))
		return -EINVAL;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		aux_out_start(event, flags);
	return 0;
}

static void aux_out_del(struct perf_event *event, int flags)
{
	aux_out_stop(event, flags);
}

static int aux_out_event_init(struct perf_event *event)
{
	if (event->attr.type != aux_out_pmu.type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	return 0;
}

#if AUX_CONTROLS
static int aux_out_match(struct perf_event *aux_event)
{
	return aux_event->pmu == &aux_pmu;
}
#endif

static struct attribute *aux_out_format_attrs[] = {
	&format_attr_chunk.attr,
	&format_attr_seed.attr,
	NULL,
};

static const struct attribute_group aux_out_format_group = {
	.name	= "format",
	.attrs	= aux_out_format_attrs,
};

static const struct attribute_group *aux_out_attr_groups[] = {
	&aux_out_format_group,
	NULL,
};

static struct pmu aux_out_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_AUX_OUTPUT,
	.attr_groups	= aux_out_attr_groups,
	.event_init	= aux_out_event_init,
	.add		= aux_out_add,
	.del		= aux_out_del,
	.start		= aux_out_start,
	.stop		= aux_out_stop,
	.read		= aux_out_read,
#if AUX_CONTROLS
	.aux_output_match = aux_out_match,
#endif
};

static int __init aux_pmu_init(void)
{
	int ret;

	ret = perf_pmu_register(&aux_pmu, "perf_aux_test", -1);
	if (ret)
		return ret;
	ret = perf_pmu_register(&aux_out_pmu, "perf_aux_test_out", -1);
	if (ret)
		goto out_aux;
	ret = perf_pmu_register(&aux_snap_pmu, "perf_aux_snap", -1);
	if (ret)
		goto out_out;
	return 0;

out_out:
	perf_pmu_unregister(&aux_out_pmu);
out_aux:
	perf_pmu_unregister(&aux_pmu);
	return ret;
}

static void __exit aux_pmu_exit(void)
{
	perf_pmu_unregister(&aux_snap_pmu);
	perf_pmu_unregister(&aux_out_pmu);
	perf_pmu_unregister(&aux_pmu);
}

module_init(aux_pmu_init);
module_exit(aux_pmu_exit);
MODULE_DESCRIPTION("A perf PMU in a module: a known pattern in the AUX area");
MODULE_LICENSE("GPL");
