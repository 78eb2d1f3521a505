// SPDX-License-Identifier: GPL-2.0
/*
 * MMAP and MMAP2 side-band records: a new mapping, with the file's name,
 * device, inode and protection (MMAP2), or its build id (MMAP2 with
 * attr.build_id).  Executable mappings go to events with attr.mmap or
 * mmap2, the others to events with attr.mmap_data.  The name is found
 * (d_path may sleep) and the build id read only after a walk that writes
 * nothing has shown that some event wants the record.  sb_walk.c has the
 * rules of who sees a record.
 */
#include <linux/buildid.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/slab.h>

#include "addr_filter.h"
#include "sideband.h"

struct sb_mmap_info {
	struct vm_area_struct *vma;
	char *name;		/* NUL-padded to name_size */
	u32 name_size;
	u32 maj, min;
	u64 ino, ino_generation;
	u32 prot, flags;
	bool want_build_id;
	u32 build_id_size;
	u8 build_id[BUILD_ID_SIZE_MAX];
};

static bool sb_mmap_match(struct perf_event *event, void *data)
{
	struct sb_mmap_info *mi = data;
	struct perf_event_attr *a = &event->attr;
	bool want;

	/* executable mappings are code; the others only with mmap_data */
	if (mi->vma->vm_flags & VM_EXEC)
		want = a->mmap || a->mmap2;
	else
		want = a->mmap_data;
	if (want && a->mmap2 && a->build_id)
		mi->want_build_id = true;
	return want;
}

static void sb_mmap_emit(struct perf_event *event, void *data)
{
	struct sb_mmap_info *mi = data;
	bool mmap2 = event->attr.mmap2;
	bool with_id = mmap2 && event->attr.build_id && mi->build_id_size;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u32 pid, tid;
		u64 addr, len, pgoff;
	} rec = {
		.header = {
			.type = mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP,
			.misc = PERF_RECORD_MISC_USER,
			.size = sizeof(rec) + mi->name_size,
		},
		.addr = mi->vma->vm_start,
		.len = mi->vma->vm_end - mi->vma->vm_start,
		.pgoff = (u64)mi->vma->vm_pgoff << PAGE_SHIFT,
	};

	/* maj, min, ino, ino_generation (or the build id), prot, flags */
	if (mmap2)
		rec.header.size += 4 + 4 + 8 + 8 + 4 + 4;
	if (with_id)
		rec.header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (!(mi->vma->vm_flags & VM_EXEC))
		rec.header.misc |= PERF_RECORD_MISC_MMAP_DATA;

	if (sb_begin(&handle, &sample, event, &rec.header))
		return;
	rec.pid = sb_pid(event, current);
	rec.tid = sb_tid(event, current);
	perf_output_put(&handle, rec);
	if (mmap2) {
		if (with_id) {
			/* u8 size, three reserved bytes, 20 bytes of id */
			u8 size[4] = { mi->build_id_size };

			perf_output_copy(&handle, size, sizeof(size));
			perf_output_copy(&handle, mi->build_id,
					 sizeof(mi->build_id));
		} else {
			perf_output_put(&handle, mi->maj);
			perf_output_put(&handle, mi->min);
			perf_output_put(&handle, mi->ino);
			perf_output_put(&handle, mi->ino_generation);
		}
		perf_output_put(&handle, mi->prot);
		perf_output_put(&handle, mi->flags);
	}
	perf_output_copy(&handle, mi->name, mi->name_size);
	sb_end(&handle, &sample, event);
}

/* The name user space knows an anonymous or special mapping by. */
static const char *sb_anon_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);	/* [vdso], [uprobes], ... */
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma_is_initial_heap(vma))
		return "[heap]";
	if (vma_is_initial_stack(vma))
		return "[stack]";
	return "//anon";
}

/**
 * perf_event_mmap - a mapping was created or changed
 * @vma: the mapping; current's mm, mmap_lock held
 *
 * Writes PERF_RECORD_MMAP (attr.mmap) or PERF_RECORD_MMAP2 (attr.mmap2)
 * for executable mappings, and for the others with attr.mmap_data.  The
 * loader's mappings of an exec'ed image come through here too.
 * Context: process context, may sleep.
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	struct sb_mmap_info mi = { .vma = vma };
	struct file *file = vma->vm_file;
	/* anonymous names are cut to 15 characters, as upstream does */
	char short_name[16];
	char *buf = NULL;
	u32 len;

	/*
	 * Nothing tracks mappings unless some event records them: not even a
	 * tracer's file filter, which upstream moves only then too (perf
	 * record always has such an event).
	 */
	if (!perf_sb_wanted(PERF_SB_MMAP))
		return;
	perf_addr_filters_mmap(vma);
	if (!sb_walk(PERF_SB_MMAP, sb_mmap_match, NULL, &mi))
		return;

	if (vma->vm_flags & VM_READ)
		mi.prot |= PROT_READ;
	if (vma->vm_flags & VM_WRITE)
		mi.prot |= PROT_WRITE;
	if (vma->vm_flags & VM_EXEC)
		mi.prot |= PROT_EXEC;
	mi.flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
	if (vma->vm_flags & VM_LOCKED)
		mi.flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page(vma))
		mi.flags |= MAP_HUGETLB;

	if (file) {
		const struct inode *inode = file_user_inode(file);
		char *path;

		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!buf) {
			strscpy_pad(short_name, "//enomem", sizeof(short_name));
			mi.name = short_name;
			goto named;
		}
		/* leave room after the path for the padding to 8 bytes */
		path = d_path(file_user_path(file), buf,
			      PATH_MAX - sizeof(u64));
		if (IS_ERR(path)) {
			strscpy_pad(short_name, "//toolong",
				    sizeof(short_name));
			mi.name = short_name;
			goto named;
		}
		mi.name = path;
		mi.maj = MAJOR(inode->i_sb->s_dev);
		mi.min = MINOR(inode->i_sb->s_dev);
		mi.ino = inode->i_ino;
		mi.ino_generation = inode->i_generation;
	} else {
		strscpy_pad(short_name, sb_anon_name(vma), sizeof(short_name));
		mi.name = short_name;
	}
named:
	len = strlen(mi.name) + 1;
	mi.name_size = ALIGN(len, sizeof(u64));
	memset(mi.name + len, 0, mi.name_size - len);

	if (mi.want_build_id && file)
		build_id_parse_nofault(vma, mi.build_id, &mi.build_id_size);

	sb_walk(PERF_SB_MMAP, sb_mmap_match, sb_mmap_emit, &mi);
	kfree(buf);
}
