/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and removing the test PMU modules of module/, which the rig
 * builds against the guest's kernel into /tests/modules.
 */
#ifndef _PERF_EVENTS_MODULE_LOAD_H
#define _PERF_EVENTS_MODULE_LOAD_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* finit_module() of @path: 0, or -1 with errno (EEXIST when loaded) */
static inline int test_module_load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = syscall(__NR_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

/*
 * Remove module @name, retrying for up to @ms milliseconds while it is in
 * use (EWOULDBLOCK: the last event of a test that just ended may still
 * hold it) or busy; 0 tries once.
 */
static inline int test_module_unload(const char *name, int ms)
{
	int ret;

	for (;;) {
		ret = syscall(__NR_delete_module, name, O_NONBLOCK);
		if (!ret || (errno != EBUSY && errno != EWOULDBLOCK) ||
		    ms <= 0)
			return ret;
		usleep(10000);
		ms -= 10;
	}
}

#endif /* _PERF_EVENTS_MODULE_LOAD_H */
