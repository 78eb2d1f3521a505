/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event file (file.c).
 */
#ifndef _KERNEL_EVENTS_FILE_H
#define _KERNEL_EVENTS_FILE_H

#include <linux/perf_event.h>

/* file.c */
extern const struct file_operations perf_fops;
bool is_perf_file(struct file *file);

#endif /* _KERNEL_EVENTS_FILE_H */
