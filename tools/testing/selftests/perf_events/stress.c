// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency stress of the event core: for a bounded time (30 s, or
 * PERF_STRESS_SECONDS, at most 90), several threads open software events
 * (alone, in groups of three, with inherit, on this process, on target
 * processes that keep forking, exec'ing and exiting, and per CPU), while
 * other threads read(), ioctl() ENABLE/DISABLE/RESET (with and without
 * PERF_IOC_FLAG_GROUP), poll() and close them at random, and one thread
 * takes CPU 1 offline and online again every ~200 ms when it can.
 *
 * What must hold, checked on every operation:
 *  - read() returns exactly the size its read_format asks for (or ECHILD
 *    for an inherited group whose target still has a child that inherited
 *    the group half built, see slot_read()), with the
 *    ids the events were opened with, time_running <= time_enabled, and a
 *    count that never goes backwards unless the event was reset;
 *  - open fails only with the errno that the race explains (ESRCH for a
 *    target that is exiting, ENODEV for a group leader that exited or a
 *    CPU that is offline, EINVAL for a member whose inherited leader's
 *    context was swapped, see open_errno_ok());
 *  - ioctl() and close() succeed; poll() reports nothing but POLLIN or
 *    POLLHUP; on an event with a ring buffer (K_TARGET events),
 *    no POLLIN (nothing is sampled), and POLLHUP once its target task has
 *    been reaped;
 * and at the end: every child terminated with status 0, no child is left,
 * /proc/self/fd holds exactly the fds it held before, and CPU 1 is online.
 *
 * Worker threads never use the harness's ASSERT/EXPECT (they longjmp on
 * the main thread's stack); they record failures, and the main thread
 * reports them after joining.  Each event slot has a mutex so that the
 * count history of one fd is only touched by one thread at a time.
 * Target pids are opened under a read lock that the reaper takes for
 * writing, so a pid is never reused under an open.
 *
 * Running it long (the issue asks for at least a minute per arch on the
 * DEBUG=1 kernel): `make shell DEBUG=1 [ARCH=arm64]` boots the debug
 * kernel with the same initramfs; in the guest run
 *	PERF_STRESS_SECONDS=90 /tests/selftests/stress
 * then `dmesg | grep -iE "lockdep|BUG|WARNING|leak"` (and, for kmemleak,
 * `echo scan > /sys/kernel/debug/kmemleak; cat /sys/kernel/debug/kmemleak`
 * after mounting debugfs) must show nothing.  The harness timeout (180 s)
 * leaves room for 90 s plus the clean-up; `make check` keeps the default.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define DEFAULT_SECONDS		30
#define MAX_SECONDS		90
#define NR_SLOTS		48
#define GROUP_SIZE		3
#define NR_TARGETS		3
#define NR_OPENERS		2
#define NR_OPERATORS		2
#define TARGET_ROUNDS		8
#define MAX_FAILS_LOGGED	16
#define EXEC_FLAG		"--perf-stress-exec"
#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"

enum kind {
	K_SELF,			/* pid 0, cpu -1 */
	K_REAPER_INHERIT,	/* the reaper thread, inherit: follows its forks */
	K_SELF_GROUP,		/* pid 0, group of GROUP_SIZE */
	K_TARGET,		/* a target pid */
	K_TARGET_INHERIT,	/* a target pid, inherit */
	K_TARGET_GROUP,		/* a target pid, group, inherit */
	K_CPU0,			/* pid -1, cpu 0 */
	K_CPU1,			/* pid -1, cpu 1: goes away with hotplug */
	NR_KINDS
};

struct slot {
	pthread_mutex_t lock;
	int nr;				/* fds held: 0 (free), 1 or GROUP_SIZE */
	int kind;
	int fd[GROUP_SIZE];
	uint64_t id[GROUP_SIZE];
	uint64_t last[GROUP_SIZE];	/* last count read */
	bool have_last[GROUP_SIZE];	/* false after a reset */
	void *rb;			/* fd[0]'s ring buffer, or NULL */
	int target;			/* index in targets[], or -1 */
	unsigned long gen;		/* that target's generation at open */
};

struct target {
	pid_t pid;		/* 0 while none runs */
	unsigned long gen;	/* bumped when the target is reaped */
};

static struct slot slots[NR_SLOTS];
static struct target targets[NR_TARGETS];
static pthread_rwlock_t targets_lock = PTHREAD_RWLOCK_INITIALIZER;
static int stop;		/* set once by the main thread: __atomic */
static pid_t reaper_tid;
static bool hotplug;

/* failure log, filled by any thread, reported by the main thread */
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int nr_fails;
static char fail_msg[MAX_FAILS_LOGGED][160];

/* statistics, to show that the workload did what it says */
static unsigned long nr_opens, nr_reads, nr_ioctls, nr_polls, nr_closes;
static unsigned long nr_hups, nr_targets, nr_offlines, nr_open_races, nr_echild;
static unsigned long nr_no_rb;

static bool stopping(void)
{
	return __atomic_load_n(&stop, __ATOMIC_ACQUIRE);
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (nr_fails < MAX_FAILS_LOGGED) {
		va_start(ap, fmt);
		vsnprintf(fail_msg[nr_fails], sizeof(fail_msg[0]), fmt, ap);
		va_end(ap);
	}
	nr_fails++;
	pthread_mutex_unlock(&fail_lock);
}

static void count(unsigned long *stat)
{
	__atomic_add_fetch(stat, 1, __ATOMIC_RELAXED);
}

/* xorshift: async-signal-safe, so also usable in forked children */
static unsigned int rnd(unsigned int *state)
{
	unsigned int x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/*
 * The image that targets exec: /proc/self/exe with EXEC_FLAG.  It runs
 * before the harness's main(), faults a few pages, makes a few syscalls
 * (so that context switches and task-clock have something to count) and
 * exits.  glibc passes argc/argv to constructors, also in static binaries.
 */
static void __attribute__((constructor)) exec_child(int argc, char **argv)
{
	int i;

	if (argc < 2 || strcmp(argv[1], EXEC_FLAG))
		return;
	touch_fresh_pages(16);
	for (i = 0; i < 200; i++)
		getppid();
	sched_yield();
	_exit(0);
}

/*
 * A target: forks TARGET_ROUNDS children that either exec the image above
 * or fault pages and exit, waits for each, and exits 0 if all exited 0.
 * Runs in a child forked from a threaded process: async-signal-safe only.
 */
static void target_main(unsigned int seed)
{
	char *const argv[] = { "stress", EXEC_FLAG, NULL };
	char *const envp[] = { NULL };
	int i, status;
	pid_t pid;

	for (i = 0; i < TARGET_ROUNDS; i++) {
		pid = fork();
		if (pid < 0)
			_exit(4);
		if (!pid) {
			if (rnd(&seed) & 1) {
				execve("/proc/self/exe", argv, envp);
				_exit(3);
			}
			touch_fresh_pages(8);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			_exit(5);
		touch_fresh_pages(4);
	}
	_exit(0);
}

/*
 * Reap targets that exited and start new ones while not stopping.  The
 * write lock keeps openers from using a pid while it is reaped.
 */
static void targets_step(unsigned int *seed, bool respawn)
{
	int i, status;
	pid_t pid;

	pthread_rwlock_wrlock(&targets_lock);
	for (i = 0; i < NR_TARGETS; i++) {
		if (targets[i].pid) {
			pid = waitpid(targets[i].pid, &status, WNOHANG);
			if (pid == 0)
				continue;
			if (pid != targets[i].pid)
				fail("waitpid(target %d): %d errno %d",
				     targets[i].pid, pid, errno);
			else if (!WIFEXITED(status) || WEXITSTATUS(status))
				fail("target %d ended with status 0x%x",
				     targets[i].pid, status);
			targets[i].pid = 0;
			targets[i].gen++;
		}
		if (!respawn)
			continue;
		pid = fork();
		if (pid < 0) {
			fail("fork: errno %d", errno);
			continue;
		}
		if (!pid)
			target_main(rnd(seed) | 1);
		targets[i].pid = pid;
		count(&nr_targets);
	}
	pthread_rwlock_unlock(&targets_lock);
}

static void dump_file(const char *path)
{
	char buf[2048];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	fprintf(stderr, "# %s:\n%s", path, buf);
}

/*
 * Something did not end in time: say where every thread of ours and every
 * blocked task of the system is, in the kernel (/proc stacks here, SysRq
 * w and l on the console), before the failure is reported.
 */
static void dump_stuck(const char *why)
{
	char path[300];
	struct dirent *de;
	DIR *d;
	int fd;

	fprintf(stderr, "# stuck: %s\n", why);
	d = opendir("/proc/self/task");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", de->d_name);
		dump_file(path);
		snprintf(path, sizeof(path), "/proc/self/task/%s/stack", de->d_name);
		dump_file(path);
	}
	if (d)
		closedir(d);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "w", 1) != 1 || write(fd, "l", 1) != 1)
			fprintf(stderr, "# sysrq: errno %d\n", errno);
		close(fd);
	}
}

static void *reaper_thread(void *arg)
{
	unsigned int seed = 0x9e3779b9;
	struct timespec t0, now;
	bool left;
	int i, j;

	__atomic_store_n(&reaper_tid, gettid(), __ATOMIC_RELEASE);
	while (!stopping()) {
		targets_step(&seed, true);
		usleep(2000);
	}

	/* the targets end by themselves: give them 20 s, then kill */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		targets_step(&seed, false);
		left = false;
		for (i = 0; i < NR_TARGETS; i++)
			left |= targets[i].pid != 0;
		if (!left)
			break;
		usleep(10000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < 20);
	for (i = 0; i < NR_TARGETS; i++) {
		if (!targets[i].pid)
			continue;
		fail("target %d did not terminate within 20 s", targets[i].pid);
		dump_stuck("a target does not exit");
		kill(targets[i].pid, SIGKILL);
		/* an unkillable target is a kernel bug: do not hang on it */
		for (j = 0; j < 500; j++) {
			if (waitpid(targets[i].pid, NULL, WNOHANG))
				break;
			usleep(10000);
		}
		targets[i].pid = 0;
	}
	return NULL;
}

static bool is_group(int kind)
{
	return kind == K_SELF_GROUP || kind == K_TARGET_GROUP;
}

/* errno that a racing exit or hotplug explains; anything else is a bug */
static bool open_errno_ok(int kind, bool sibling, int err)
{
	switch (kind) {
	case K_REAPER_INHERIT:
		/* once stopping, the reaper thread may have exited */
		return err == ESRCH && stopping();
	case K_TARGET:
	case K_TARGET_INHERIT:
	case K_TARGET_GROUP:
		/* the target is exiting: ESRCH; its leader already exited: ENODEV */
		if (err == ESRCH || (sibling && err == ENODEV))
			return true;
		/*
		 * The leader inherits into the target's children as soon as it
		 * is open, and a context that is an unchanged copy of another
		 * may be swapped with it at a context switch, so the target's
		 * context may no longer be the leader's: EINVAL, as for a
		 * leader in another task.
		 */
		return kind == K_TARGET_GROUP && sibling && err == EINVAL;
	case K_CPU1:
		/* offline: ENODEV; EINVAL where the machine has no CPU 1 */
		return err == ENODEV || err == EINVAL;
	default:
		return false;
	}
}

static void slot_close(struct slot *s)
{
	int i;

	/* siblings first: the leader's read then never sees a short group */
	if (s->rb && perf_unmap_ring(s->rb, 1))
		fail("munmap: errno %d", errno);
	s->rb = NULL;
	for (i = s->nr - 1; i >= 0; i--)
		if (close(s->fd[i]))
			fail("close(%d): errno %d", s->fd[i], errno);
	s->nr = 0;
	count(&nr_closes);
}

/* open a new event or group into the free slot @s (its lock held) */
static void slot_open(struct slot *s, unsigned int *seed)
{
	static const unsigned long long configs[] = {
		PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	int kind = rnd(seed) % NR_KINDS;
	int nr = is_group(kind) ? GROUP_SIZE : 1;
	struct perf_event_attr attr;
	pid_t pid = 0;
	int cpu = -1, i, fd, t = -1;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, 0);
	attr.read_format = READ_FORMAT_TIMES | PERF_FORMAT_ID;
	if (is_group(kind))
		attr.read_format |= PERF_FORMAT_GROUP;
	attr.inherit = kind == K_REAPER_INHERIT || kind == K_TARGET_INHERIT ||
		       kind == K_TARGET_GROUP;
	if (kind == K_REAPER_INHERIT)
		pid = __atomic_load_n(&reaper_tid, __ATOMIC_ACQUIRE);
	if (kind == K_CPU0 || kind == K_CPU1) {
		pid = -1;
		cpu = kind == K_CPU0 ? 0 : 1;
	}

	if (kind == K_TARGET || kind == K_TARGET_INHERIT || kind == K_TARGET_GROUP) {
		pthread_rwlock_rdlock(&targets_lock);
		t = rnd(seed) % NR_TARGETS;
		pid = targets[t].pid;
		s->gen = targets[t].gen;
		if (!pid) {
			pthread_rwlock_unlock(&targets_lock);
			return;
		}
	}

	s->kind = kind;
	s->target = t;
	s->nr = 0;
	for (i = 0; i < nr; i++) {
		attr.config = configs[rnd(seed) % 3];
		/* a leader may start disabled; members follow their leader */
		attr.disabled = i == 0 && (rnd(seed) & 1);
		fd = sys_perf_event_open(&attr, pid, cpu, i ? s->fd[0] : -1, 0);
		if (fd < 0) {
			if (open_errno_ok(kind, i > 0, errno))
				count(&nr_open_races);
			else
				fail("open kind %d member %d pid %d cpu %d: errno %d",
				     kind, i, pid, cpu, errno);
			break;
		}
		s->fd[s->nr++] = fd;
		s->have_last[i] = false;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &s->id[i]))
			fail("PERF_EVENT_IOC_ID: errno %d", errno);
	}
	if (t >= 0)
		pthread_rwlock_unlock(&targets_lock);
	/*
	 * Without a ring buffer, poll() always says POLLHUP; with one, only
	 * once the event can no longer count.  A counting event's buffer
	 * never gets records, so POLLIN stays clear too.  Per-task events
	 * with inherit cannot be mapped (EINVAL): only K_TARGET gets one.
	 */
	if (kind == K_TARGET && s->nr == nr) {
		s->rb = perf_map_ring(s->fd[0], 1);
		if (s->rb == MAP_FAILED) {
			/* ENODEV: a kernel without ring buffers yet */
			if (errno == ENODEV)
				count(&nr_no_rb);
			else
				fail("mmap kind %d: errno %d", kind, errno);
			s->rb = NULL;
		}
	}
	if (s->nr && s->nr != nr)
		slot_close(s);
	else if (s->nr)
		count(&nr_opens);
}

static void *opener_thread(void *arg)
{
	unsigned int seed = 0x12345 + (uintptr_t)arg * 7919;
	struct slot *s;

	while (!stopping()) {
		s = &slots[rnd(&seed) % NR_SLOTS];
		pthread_mutex_lock(&s->lock);
		if (!s->nr)
			slot_open(s, &seed);
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

/* whether the target @s was opened on has been reaped since */
static bool target_reaped(struct slot *s)
{
	bool reaped;

	if (s->target < 0)
		return false;
	pthread_rwlock_rdlock(&targets_lock);
	reaped = targets[s->target].gen != s->gen;
	pthread_rwlock_unlock(&targets_lock);
	return reaped;
}

/* read member @m of slot @s (lock held) and check everything it says */
static void slot_read(struct slot *s, int m)
{
	bool group = is_group(s->kind);
	ssize_t want = (group ? 3 + 2 * GROUP_SIZE : 4) * sizeof(uint64_t);
	uint64_t buf[32], val[GROUP_SIZE], id[GROUP_SIZE], te, tr;
	int i, n = group ? GROUP_SIZE : 1;
	bool reaped;
	ssize_t ret;

	memset(buf, 0xa5, sizeof(buf));
	reaped = target_reaped(s);
	/* a larger buffer than needed: read must return exactly @want */
	ret = read(s->fd[m], buf, sizeof(buf));
	count(&nr_reads);
	/*
	 * A target that forked while its group was still being built has a
	 * child with fewer siblings than the parent group; summing those
	 * makes no sense and read() says ECHILD.  Once the target is reaped,
	 * no such child is left, and the read must work again.
	 */
	if (ret < 0 && errno == ECHILD && s->kind == K_TARGET_GROUP && !reaped) {
		count(&nr_echild);
		return;
	}
	if (ret != want) {
		fail("read kind %d: returned %zd (errno %d), want %zd",
		     s->kind, ret, ret < 0 ? errno : 0, want);
		return;
	}
	if (group) {
		if (buf[0] != GROUP_SIZE) {
			fail("group read: nr %llu, want %d",
			     (unsigned long long)buf[0], GROUP_SIZE);
			return;
		}
		te = buf[1];
		tr = buf[2];
		for (i = 0; i < n; i++) {
			val[i] = buf[3 + 2 * i];
			id[i] = buf[4 + 2 * i];
		}
	} else {
		val[0] = buf[0];
		te = buf[1];
		tr = buf[2];
		id[0] = buf[3];
	}
	if (tr > te)
		fail("kind %d: time_running %llu > time_enabled %llu", s->kind,
		     (unsigned long long)tr, (unsigned long long)te);
	for (i = 0; i < n; i++) {
		int k = group ? i : m;

		if (id[i] != s->id[k])
			fail("kind %d member %d: id %llu, want %llu", s->kind, k,
			     (unsigned long long)id[i], (unsigned long long)s->id[k]);
		if (s->have_last[k] && val[i] < s->last[k])
			fail("kind %d member %d: count went back from %llu to %llu",
			     s->kind, k, (unsigned long long)s->last[k],
			     (unsigned long long)val[i]);
		s->last[k] = val[i];
		s->have_last[k] = true;
	}
}

static void slot_ioctl(struct slot *s, int m, unsigned long req, bool whole)
{
	int i;

	count(&nr_ioctls);
	if (ioctl(s->fd[m], req, whole ? PERF_IOC_FLAG_GROUP : 0)) {
		fail("ioctl 0x%lx on kind %d: errno %d", req, s->kind, errno);
		return;
	}
	if (req != PERF_EVENT_IOC_RESET)
		return;
	/* a reset starts a new history: for the group, or this member only */
	for (i = 0; i < s->nr; i++)
		if (whole || i == m)
			s->have_last[i] = false;
}

static void slot_poll(struct slot *s, int m)
{
	struct pollfd pfd = { .fd = s->fd[m], .events = POLLIN };
	/* the generation first: a reap after it only adds a POLLHUP */
	bool reaped = target_reaped(s);
	int ret;

	ret = poll(&pfd, 1, 0);
	count(&nr_polls);
	if (ret < 0) {
		fail("poll: errno %d", errno);
		return;
	}
	if (pfd.revents & ~(POLLIN | POLLHUP))
		fail("poll kind %d: revents 0x%x", s->kind, pfd.revents);
	if (!s->rb || m)
		return;
	if (pfd.revents & POLLHUP)
		count(&nr_hups);
	if (pfd.revents & POLLIN)
		fail("poll kind %d: POLLIN without any record", s->kind);
	/* all of a reaped target's tasks have exited: nothing can count */
	if (reaped && !(pfd.revents & POLLHUP))
		fail("poll kind %d on a reaped target: revents 0x%x, want POLLHUP",
		     s->kind, pfd.revents);
}

static void *operator_thread(void *arg)
{
	unsigned int seed = 0xabcdef + (uintptr_t)arg * 104729;
	unsigned int op;
	struct slot *s;
	int m;

	while (!stopping()) {
		s = &slots[rnd(&seed) % NR_SLOTS];
		pthread_mutex_lock(&s->lock);
		if (!s->nr) {
			pthread_mutex_unlock(&s->lock);
			continue;
		}
		m = rnd(&seed) % s->nr;
		op = rnd(&seed) % 100;
		if (op < 40)
			slot_read(s, m);
		else if (op < 50)
			slot_ioctl(s, m, PERF_EVENT_IOC_ENABLE, op & 1);
		else if (op < 60)
			slot_ioctl(s, m, PERF_EVENT_IOC_DISABLE, op & 1);
		else if (op < 70)
			slot_ioctl(s, m, PERF_EVENT_IOC_RESET, op & 1);
		else if (op < 88)
			slot_poll(s, m);
		else
			slot_close(s);
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

/* returns 0 or -errno */
static int cpu1_write(char c)
{
	char s[2] = { c, '\0' };

	return write_file(CPU1_ONLINE, s);
}

/* 1 online, 0 offline, -1 no such file */
static int cpu1_online(void)
{
	int fd = open(CPU1_ONLINE, O_RDONLY);
	char c = 0;

	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

/* bring CPU 1 back, retrying a transient EBUSY for up to ~10 s */
static bool cpu1_restore(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (cpu1_online() != 0)
			return true;
		cpu1_write('1');
		usleep(100000);
	}
	return cpu1_online() != 0;
}

static void *hotplug_thread(void *arg)
{
	int ret;

	while (!stopping()) {
		ret = cpu1_write('0');
		if (ret && ret != -EBUSY)
			fail("offline CPU 1: errno %d", -ret);
		else if (!ret)
			count(&nr_offlines);
		usleep(100000);
		if (!cpu1_restore())
			fail("cannot bring CPU 1 back online");
		usleep(100000);
	}
	return NULL;
}

/* a safety net if the test is killed on timeout: the runner restores */
static void __attribute__((destructor)) cpu1_atexit(void)
{
	if (cpu1_online() == 0)
		cpu1_write('1');
}

/* the set of open fds, as a bitmap of the first 1024 */
static int fd_snapshot(uint64_t map[16])
{
	struct dirent *de;
	DIR *d;
	int fd;

	memset(map, 0, 16 * sizeof(uint64_t));
	d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		fd = atoi(de->d_name);
		if (fd == dirfd(d))
			continue;
		if (fd >= 1024) {
			closedir(d);
			return -1;
		}
		map[fd / 64] |= 1ULL << (fd % 64);
	}
	closedir(d);
	return 0;
}

static int stress_seconds(void)
{
	const char *env = getenv("PERF_STRESS_SECONDS");
	long s = env ? strtol(env, NULL, 10) : DEFAULT_SECONDS;

	if (s < 1)
		s = 1;
	if (s > MAX_SECONDS)
		s = MAX_SECONDS;
	return s;
}

/* if the main thread's own clean-up hangs, say where before the timeout */
static void *watchdog_thread(void *arg)
{
	sleep(60);
	dump_stuck("no end 60 s after the stop");
	return NULL;
}

/* a worker stuck in a syscall is a hang of the kernel: report, not wait */
static bool join(pthread_t thread, struct timespec *deadline, const char *who)
{
	if (!pthread_timedjoin_np(thread, NULL, deadline))
		return true;
	dump_stuck(who);
	fprintf(stderr, "# %s did not end within 40 s of the stop\n", who);
	return false;
}

FIXTURE(stress) {
	bool hotplug;
};

FIXTURE_SETUP(stress)
{
	struct perf_event_attr attr;
	int fd;

	perf_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	/* every kernel with perf events has task-clock: no reason to skip */
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd)
		TH_LOG("task-clock does not open: errno %d", errno);
	close(fd);

	self->hotplug = cpu1_online() == 1 && !access(CPU1_ONLINE, W_OK);
}

/*
 * Runs in the parent of the test process, after it ended in any way but
 * a timeout (then the destructor above does it): CPU 1 is left online.
 */
FIXTURE_TEARDOWN_PARENT(stress)
{
	if (self->hotplug)
		EXPECT_TRUE(cpu1_restore());
}

TEST_F_TIMEOUT(stress, open_read_ioctl_poll_close_fork_exec_exit_hotplug, 180)
{
	pthread_t openers[NR_OPENERS], operators[NR_OPERATORS], reaper, plug, watchdog;
	uint64_t before[16], after[16];
	struct timespec deadline;
	int secs = stress_seconds();
	int i, status;

	ASSERT_EQ(0, fd_snapshot(before));
	for (i = 0; i < NR_SLOTS; i++)
		pthread_mutex_init(&slots[i].lock, NULL);
	hotplug = self->hotplug;
	if (!hotplug)
		TH_LOG("CPU 1 cannot be taken offline here: no hotplug");

	ASSERT_EQ(0, pthread_create(&reaper, NULL, reaper_thread, NULL));
	for (i = 0; i < NR_OPENERS; i++)
		ASSERT_EQ(0, pthread_create(&openers[i], NULL, opener_thread,
					    (void *)(uintptr_t)i));
	for (i = 0; i < NR_OPERATORS; i++)
		ASSERT_EQ(0, pthread_create(&operators[i], NULL, operator_thread,
					    (void *)(uintptr_t)i));
	if (hotplug)
		ASSERT_EQ(0, pthread_create(&plug, NULL, hotplug_thread, NULL));

	sleep(secs);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);

	pthread_create(&watchdog, NULL, watchdog_thread, NULL);
	pthread_detach(watchdog);
	/* every worker ends within 40 s of the stop (the reaper's 20 s wait) */
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 40;
	for (i = 0; i < NR_OPENERS; i++)
		ASSERT_TRUE(join(openers[i], &deadline, "an opener"));
	for (i = 0; i < NR_OPERATORS; i++)
		ASSERT_TRUE(join(operators[i], &deadline, "an operator"));
	if (hotplug)
		ASSERT_TRUE(join(plug, &deadline, "the hotplug thread"));
	ASSERT_TRUE(join(reaper, &deadline, "the reaper"));

	/* one last read of everything, then close it all */
	for (i = 0; i < NR_SLOTS; i++) {
		if (!slots[i].nr)
			continue;
		slot_read(&slots[i], 0);
		slot_close(&slots[i]);
	}

	TH_LOG("%ds: %lu opens (%lu lost races), %lu reads (%lu ECHILD), %lu ioctls",
	       secs, nr_opens, nr_open_races, nr_reads, nr_echild, nr_ioctls);
	TH_LOG("%lu polls (%lu hup with a ring buffer), %lu closes, %lu targets, %lu offlines",
	       nr_polls, nr_hups, nr_closes, nr_targets, nr_offlines);
	if (nr_no_rb)
		TH_LOG("mmap: ENODEV %lu times: POLLHUP after exit not checked", nr_no_rb);
	for (i = 0; i < nr_fails && i < MAX_FAILS_LOGGED; i++)
		TH_LOG("%s", fail_msg[i]);
	EXPECT_EQ(0, nr_fails);

	/* every child was reaped by the reaper: none may be left */
	EXPECT_EQ(-1, waitpid(-1, &status, WNOHANG));
	EXPECT_EQ(ECHILD, errno);

	ASSERT_EQ(0, fd_snapshot(after));
	for (i = 0; i < 16; i++) {
		if (before[i] == after[i])
			continue;
		TH_LOG("fds %d..%d: before 0x%llx, after 0x%llx", i * 64,
		       i * 64 + 63, (unsigned long long)before[i],
		       (unsigned long long)after[i]);
	}
	EXPECT_EQ(0, memcmp(before, after, sizeof(before)));

	if (hotplug)
		EXPECT_EQ(1, cpu1_online());
	/* the workload must have happened for the checks to mean anything */
	EXPECT_LT(0, nr_opens);
	EXPECT_LT(0, nr_reads);
	EXPECT_LT(0, nr_targets);
}

TEST_HARNESS_MAIN
