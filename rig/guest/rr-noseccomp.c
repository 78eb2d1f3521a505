// SPDX-License-Identifier: GPL-2.0
/*
 * rr-noseccomp: an LD_PRELOAD library for Debian's rr (rig/rr.sh) on a
 * guest kernel built without CONFIG_SECCOMP (the rig's tinyconfig-based
 * configuration, rig/configs/). rr record installs a seccomp filter in
 * its first tracee before it execs the program to record, and gives up
 * when that fails, even with -n (no syscall buffer); without the filter
 * it stops the tracee at every syscall with PTRACE_SYSCALL instead,
 * which is all -n needs. This makes that one call, prctl(PR_SET_SECCOMP,
 * SECCOMP_MODE_FILTER, ...), succeed without doing anything; every other
 * prctl goes to the kernel. Nothing here touches the PMU: rr's
 * perf_event_open, ioctls and overflow signals reach the kernel as they
 * would on a kernel with seccomp.
 *
 * Built as a shared library against the host's libc (rr runs chrooted
 * into the host's root) by rig/mkinitramfs.sh.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>

int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;
	int i;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && a[0] == SECCOMP_MODE_FILTER)
		return 0;
	return syscall(SYS_prctl, option, a[0], a[1], a[2], a[3]);
}
