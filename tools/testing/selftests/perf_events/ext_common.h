/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests of our extensions (perf_test.h has their values): an open
 * that must work on our kernel and must fail with EINVAL on upstream's.
 * Include after kselftest_harness.h and perf_test.h.
 */
#ifndef PERF_EVENTS_SELFTEST_EXT_COMMON_H
#define PERF_EVENTS_SELFTEST_EXT_COMMON_H

/*
 * Open @attr with @flags.  On upstream the open must fail with EINVAL:
 * then the test has checked what it can there and is over, passed.
 * Return: the fd, or -1 when the test is over.
 */
static inline int open_ext(struct __test_metadata *_metadata,
			   struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	int fd;

	errno = 0;
	fd = sys_perf_event_open(attr, pid, cpu, group_fd, flags);
	if (!kperf_ours()) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, errno);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	EXPECT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	return fd;
}

#endif /* PERF_EVENTS_SELFTEST_EXT_COMMON_H */
