// SPDX-License-Identifier: GPL-2.0
/*
 * with_module: load a module, then run a program in this process.
 *
 * Built by rig/mkinitramfs.sh with MODULE (the .ko) and PROG (the program)
 * defined, it stands in for the base tree's mmap test, whose AUX variants
 * look for a PMU with an AUX area: the AUX test PMU
 * (tools/testing/selftests/perf_events/module/perf_aux_pmu.c) provides
 * one on both kernels, so those variants run instead of failing for want
 * of hardware.  A module already loaded (EEXIST) is fine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd = open(MODULE, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || (syscall(__NR_finit_module, fd, "", 0) &&
		       errno != EEXIST))
		fprintf(stderr, "# with_module: %s: %s\n", MODULE,
			strerror(errno));
	if (fd >= 0)
		close(fd);
	argv[0] = PROG;
	execv(PROG, argv);
	fprintf(stderr, "# with_module: %s: %s\n", PROG, strerror(errno));
	return 127;
}
