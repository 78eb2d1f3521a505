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
 * config1:0-7	seed of the pattern
 *
 * In overwrite mode (the AUX area mapped read-only) the driver moves the
 * head itself and the chunk wraps around the buffer; otherwise a chunk
 * larger than the free space is cut to it and flagged truncated.
 */
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#define AUX_CHUNK(c)		((c) & 0xffff)
#define AUX_SKIP(c)		(((c) >> 16) & 0xffff)
#define AUX_PARTIAL		BIT_ULL(32)
#define AUX_COLLISION		BIT_ULL(33)
#define AUX_HW_ID		BIT_ULL(34)
#define AUX_SEED(c1)		((c1) & 0xff)
#define AUX_HW_ID_BASE		0x1234

/* hw.flags: the hw id record has been asked for */
#define AUX_ID_REPORTED		0x1

struct aux_test_buf {
	int nr_pages;
	bool overwrite;
	void *pages[];
};

static struct pmu aux_pmu;

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

static void aux_test_read(struct perf_event *event)
{
	struct perf_output_handle handle;
	struct aux_test_buf *buf;
	u64 config = event->attr.config;
	u8 seed = AUX_SEED(event->attr.config1);
	unsigned long n = AUX_CHUNK(config) ?: 256;
	unsigned long skip = AUX_SKIP(config);

	if (event->hw.state & PERF_HES_STOPPED)
		return;

	buf = perf_aux_output_begin(&handle, event);
	if (!buf)
		goto hw_id;

	if (skip && perf_aux_output_skip(&handle, skip)) {
		perf_aux_output_flag(&handle, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(&handle, 0);
		goto hw_id;
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

hw_id:
	/* once per event, after the first chunk's record */
	if ((config & AUX_HW_ID) && !(event->hw.flags & AUX_ID_REPORTED)) {
		event->hw.flags |= AUX_ID_REPORTED;
		perf_report_aux_output_id(event, AUX_HW_ID_BASE + seed);
	}
}

static void aux_test_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void aux_test_stop(struct perf_event *event, int flags)
{
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

static int aux_test_event_init(struct perf_event *event)
{
	if (event->attr.type != aux_pmu.type)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	event->hw.flags = 0;
	return 0;
}

PMU_FORMAT_ATTR(chunk, "config:0-15");
PMU_FORMAT_ATTR(skip, "config:16-31");
PMU_FORMAT_ATTR(partial, "config:32");
PMU_FORMAT_ATTR(collision, "config:33");
PMU_FORMAT_ATTR(hw_id, "config:34");
PMU_FORMAT_ATTR(seed, "config1:0-7");

static struct attribute *aux_pmu_format_attrs[] = {
	&format_attr_chunk.attr,
	&format_attr_skip.attr,
	&format_attr_partial.attr,
	&format_attr_collision.attr,
	&format_attr_hw_id.attr,
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

static struct pmu aux_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_ITRACE,
	.attr_groups	= aux_pmu_attr_groups,
	.event_init	= aux_test_event_init,
	.add		= aux_test_add,
	.del		= aux_test_del,
	.start		= aux_test_start,
	.stop		= aux_test_stop,
	.read		= aux_test_read,
	.setup_aux	= aux_test_setup,
	.free_aux	= aux_test_free,
};

static int __init aux_pmu_init(void)
{
	return perf_pmu_register(&aux_pmu, "perf_aux_test", -1);
}

static void __exit aux_pmu_exit(void)
{
	perf_pmu_unregister(&aux_pmu);
}

module_init(aux_pmu_init);
module_exit(aux_pmu_exit);
MODULE_DESCRIPTION("A perf PMU in a module: a known pattern in the AUX area");
MODULE_LICENSE("GPL");
