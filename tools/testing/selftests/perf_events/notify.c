// SPDX-License-Identifier: GPL-2.0
/*
 * How a perf event tells user space that something happened: poll()
 * (POLLIN when the buffer wakes up, POLLHUP when the monitored task is
 * gone), epoll, SIGIO through O_ASYNC with F_SETOWN / F_SETSIG, and the
 * synchronous SIGTRAP of attr.sigtrap, which must reach the thread that
 * caused the event.
 *
 * Samples come from a page-fault software event with sample_period 1 and
 * wakeup_events 1: each fault on a fresh page is one sample and one
 * wakeup. Asynchronous deliveries (SIGIO goes through irq_work) are
 * waited for with generous timeouts, never assumed instant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_test.h"
#include "rb_common.h"

/* A page-fault sampler that wakes its buffer up on every sample. */
static int open_waking(pid_t pid)
{
	struct perf_event_attr attr;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.wakeup_events = 1;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

TEST(poll_pollin)
{
	struct pollfd p;
	struct rb_map rb;
	char *pages = fresh_pages(2);
	int fd = open_waking(0);

	ASSERT_NE(NULL, pages);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	p.fd = fd;
	p.events = POLLIN;
	/* nothing written yet: no event within 100 ms */
	ASSERT_EQ(0, poll(&p, 1, 100));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_page(pages, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(1, poll(&p, 1, 5000));
	EXPECT_EQ(POLLIN, p.revents & (POLLIN | POLLHUP));
	EXPECT_NE(0, rb_head(&rb));
	rb_unmap(&rb);
	close(fd);
}

/* A child that waits for a byte on @rfd and then exits. */
static pid_t waiting_child(int fds[2])
{
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		close(fds[1]);
		if (read(fds[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[0]);
	return pid;
}

/*
 * The monitored task exits: its events become hung up and poll() reports
 * POLLHUP (a blocked poll is woken).  Both have buffers: an event without
 * one polls as POLLHUP even while its task lives.
 */
TEST(poll_pollhup_on_exit)
{
	struct pollfd p[2];
	struct rb_map rb, rb2;
	int fds[2], a, b;
	pid_t child;

	child = waiting_child(fds);
	ASSERT_GT(child, 0);
	a = open_waking(child);
	ASSERT_GE(a, 0);
	b = open_waking(child);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, rb_mmap(&rb, a, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, rb_mmap(&rb2, b, 1, PROT_READ | PROT_WRITE));
	p[0].fd = a;
	p[0].events = POLLIN;
	p[1].fd = b;
	p[1].events = POLLIN;
	/* the task is alive and nothing was written: both are quiet */
	EXPECT_EQ(0, poll(p, 2, 0));
	close(fds[1]);
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	ASSERT_EQ(2, poll(p, 2, 5000));
	EXPECT_TRUE(p[0].revents & POLLHUP);
	EXPECT_TRUE(p[1].revents & POLLHUP);
	rb_unmap(&rb2);
	rb_unmap(&rb);
	close(a);
	close(b);
}

/* epoll sees the same readiness, and the exit as EPOLLHUP. */
TEST(epoll_in_and_hup)
{
	struct epoll_event ev, out[2];
	char *pages = fresh_pages(2);
	struct rb_map rb, rc;
	int fds[2], ep, a, c;
	pid_t child;

	ASSERT_NE(NULL, pages);
	ep = epoll_create1(0);
	ASSERT_GE(ep, 0);
	a = open_waking(0);
	ASSERT_GE(a, 0);
	ASSERT_EQ(0, rb_mmap(&rb, a, 1, PROT_READ | PROT_WRITE));
	ev.events = EPOLLIN;
	ev.data.u32 = 1;
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, a, &ev));
	EXPECT_EQ(0, epoll_wait(ep, out, 2, 100));
	ASSERT_EQ(0, ioctl(a, PERF_EVENT_IOC_ENABLE, 0));
	touch_page(pages, 0);
	ASSERT_EQ(0, ioctl(a, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(1, epoll_wait(ep, out, 2, 5000));
	EXPECT_EQ(1, out[0].data.u32);
	EXPECT_TRUE(out[0].events & EPOLLIN);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_DEL, a, NULL));

	child = waiting_child(fds);
	ASSERT_GT(child, 0);
	c = open_waking(child);
	ASSERT_GE(c, 0);
	ASSERT_EQ(0, rb_mmap(&rc, c, 1, PROT_READ | PROT_WRITE));
	ev.events = EPOLLIN;
	ev.data.u32 = 2;
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev));
	EXPECT_EQ(0, epoll_wait(ep, out, 2, 0));
	close(fds[1]);
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	ASSERT_EQ(1, epoll_wait(ep, out, 2, 5000));
	EXPECT_EQ(2, out[0].data.u32);
	EXPECT_TRUE(out[0].events & EPOLLHUP);
	rb_unmap(&rc);
	rb_unmap(&rb);
	close(c);
	close(a);
	close(ep);
}

/* Wait up to @ms for @sig (blocked by the caller) and return its info. */
static int wait_signal(int sig, siginfo_t *si, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, si, &ts);
}

/*
 * O_ASYNC with F_SETOWN and F_SETSIG: a wakeup sends the chosen signal
 * to the owner, with si_fd naming the event and si_code POLL_IN.
 */
TEST(fasync_setsig)
{
	int sig = SIGRTMIN + 1;
	char *pages = fresh_pages(2);
	struct rb_map rb;
	sigset_t set;
	siginfo_t si;
	int fd;

	ASSERT_NE(NULL, pages);
	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	fd = open_waking(0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, sig));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	EXPECT_EQ(-1, wait_signal(sig, &si, 50));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_page(pages, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(sig, wait_signal(sig, &si, 5000));
	EXPECT_EQ(fd, si.si_fd);
	EXPECT_EQ(POLL_IN, si.si_code);
	EXPECT_TRUE(si.si_band & POLLIN);
	rb_unmap(&rb);
	close(fd);
}

/* Without F_SETSIG the owner gets plain SIGIO. */
TEST(fasync_sigio)
{
	char *pages = fresh_pages(2);
	struct rb_map rb;
	sigset_t set;
	siginfo_t si;
	int fd;

	ASSERT_NE(NULL, pages);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	fd = open_waking(0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, rb_mmap(&rb, fd, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_page(pages, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(SIGIO, wait_signal(SIGIO, &si, 5000));
	rb_unmap(&rb);
	close(fd);
}

/*
 * attr.sigtrap: the overflow sends SIGTRAP, si_code TRAP_PERF, with the
 * event's sig_data and type, synchronously to the thread that took the
 * fault; with PERF_SAMPLE_ADDR si_addr is the faulting address.
 */
#define SIG_COOKIE	0x5eed5eed1234abcdULL

static struct {
	int count;
	pid_t tid;
	int code;
	unsigned long long data;
	unsigned int type;
	void *addr;
	int other;		/* signals on any other thread */
} trap;

static pid_t trap_thread;

/*
 * glibc's siginfo_t does not name the TRAP_PERF fields; in the kernel's
 * layout (x86_64 and arm64 have no si_trapno) they follow si_addr as an
 * unsigned long and two u32.
 */
struct perf_sigfault {
	void *addr;
	unsigned long data;
	__u32 type;
	__u32 flags;
};

static void sigtrap_handler(int sig, siginfo_t *si, void *uc)
{
	if (gettid() != trap_thread) {
		__atomic_fetch_add(&trap.other, 1, __ATOMIC_RELAXED);
		return;
	}
	if (trap.count++)
		return;
	trap.tid = gettid();
	trap.code = si->si_code;
	trap.data = ((struct perf_sigfault *)&si->si_addr)->data;
	trap.type = ((struct perf_sigfault *)&si->si_addr)->type;
	trap.addr = si->si_addr;
}

struct trap_arg {
	int go[2];		/* main -> thread: the event is open */
	char *page;
};

static void *trap_worker(void *p)
{
	struct trap_arg *arg = p;
	char c;

	trap_thread = gettid();
	/* the handler's own code and stack are mapped before the event */
	sigtrap_handler(0, &(siginfo_t){ 0 }, NULL);
	trap.count = 0;
	if (read(arg->go[0], &c, 1) != 1)
		return NULL;
	__atomic_store_n(arg->page, 1, __ATOMIC_RELAXED);
	return NULL;
}

TEST(sigtrap_thread)
{
	struct perf_event_attr attr;
	struct sigaction sa = { 0 };
	struct trap_arg arg;
	pthread_t th;
	int fd;

	sa.sa_sigaction = sigtrap_handler;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	arg.page = fresh_pages(1);
	ASSERT_NE(NULL, arg.page);
	ASSERT_EQ(0, pipe(arg.go));
	trap_thread = -1;
	ASSERT_EQ(0, pthread_create(&th, NULL, trap_worker, &arg));
	while (__atomic_load_n(&trap_thread, __ATOMIC_ACQUIRE) == -1)
		usleep(1000);

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_type |= PERF_SAMPLE_ADDR;
	attr.read_format = 0;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = SIG_COOKIE;
	attr.disabled = 0;
	/* the event watches the worker thread only */
	fd = sys_perf_event_open(&attr, trap_thread, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(arg.go[1], "g", 1));
	pthread_join(th, NULL);
	close(fd);

	EXPECT_GE(trap.count, 1);
	EXPECT_EQ(0, trap.other);
	EXPECT_EQ(TRAP_PERF, trap.code);
	EXPECT_EQ(SIG_COOKIE, trap.data);
	EXPECT_EQ(PERF_TYPE_SOFTWARE, trap.type);
	EXPECT_EQ((void *)arg.page, trap.addr);
}

/* sigtrap without remove_on_exec, or on a CPU-wide event, is refused. */
TEST(sigtrap_rules)
{
	struct perf_event_attr attr;
	int fd;

	rb_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sigtrap = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	close(fd);
}

TEST_HARNESS_MAIN
