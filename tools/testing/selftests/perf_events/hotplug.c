// SPDX-License-Identifier: GPL-2.0
/*
 * CPU events across CPU hotplug.
 *
 * An event bound to CPU 1 that asked for context-switch records, with a
 * buffer that wakes its reader on every record, is there while CPU 1 goes
 * offline and comes back.  The outgoing CPU switches tasks after it has
 * stopped taking interrupts (the stopper parks); a record written then
 * would queue its wakeup where it can never run, and every wakeup queued
 * on that CPU later would wait behind it.  So afterwards:
 *  - a new event on CPU 1 must still wake its poll() reader, and
 *  - closing the first event must come back (its release waits for its
 *    pending wakeup).
 *
 * Needs root and a CPU 1 that can go offline; without them it skips.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define PAGES		8

/* context-switch records of whatever runs on CPU 1, one wakeup each */
static int open_switches_on_cpu1(void **ring)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CPU;
	/* wake at every byte: side-band records do not count as events */
	attr.watermark = 1;
	attr.wakeup_watermark = 1;
	fd = sys_perf_event_open(&attr, -1, 1, -1, 0);
	if (fd < 0)
		return -1;
	*ring = perf_map_ring(fd, PAGES);
	if (*ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

/* a child on CPU 1 that sleeps a few times, to switch tasks there */
static pid_t switch_on_cpu1(void)
{
	pid_t pid = fork();
	int i;

	if (!pid) {
		if (pin_to_cpu(1))
			_exit(1);
		for (i = 0; i < 20; i++)
			usleep(1000);
		_exit(0);
	}
	return pid;
}

TEST(wakeups_still_run_after_offline_online)
{
	void *ring_a, *ring_b;
	struct pollfd pfd;
	int a, b, status, i;
	pid_t child;

	if (access(CPU1_ONLINE, W_OK) || read_int(CPU1_ONLINE) != 1)
		SKIP(return, "CPU 1 cannot be taken offline here");

	a = open_switches_on_cpu1(&ring_a);
	ASSERT_LE(0, a) TH_LOG("open: %s", strerror(errno));

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, write_file(CPU1_ONLINE, "0"));
		ASSERT_EQ(0, write_file(CPU1_ONLINE, "1"));
	}

	b = open_switches_on_cpu1(&ring_b);
	ASSERT_LE(0, b) TH_LOG("open: %s", strerror(errno));
	child = switch_on_cpu1();
	ASSERT_LT(0, child);

	pfd.fd = b;
	pfd.events = POLLIN;
	/* the child's first switch on CPU 1 wakes us, within seconds */
	EXPECT_EQ(1, poll(&pfd, 1, 5000))
		TH_LOG("no wakeup from CPU 1 after it came back (head %llu)",
		       (unsigned long long)((struct perf_event_mmap_page *)ring_b)->data_head);
	EXPECT_TRUE(pfd.revents & POLLIN);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));

	perf_unmap_ring(ring_b, PAGES);
	close(b);
	perf_unmap_ring(ring_a, PAGES);
	/* spins for good if a wakeup of it was stranded on CPU 1 */
	close(a);
}

TEST_HARNESS_MAIN
