// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: random but mostly valid use of perf_event_open() and of the file
 * descriptors it returns, for a bounded time, by several threads and
 * processes at once.  It checks nothing about the results: the test passes
 * when the program and all its children finish in time, and the rig judges
 * the kernel log (any WARNING, Oops, lockdep, KASAN or kmemleak report, hang
 * or RCU stall fails the run).
 *
 * Events: every type the guest has (software, tracepoints from tracefs,
 * breakpoints on this program's own variables and code, the kprobe PMU on
 * a few known functions, the uprobe PMU on this program's own functions
 * (entry and return probes, now and then with an SDT counter), our
 * test_pmu when present, hardware, cache and
 * raw events, and any other PMU in /sys/bus/event_source/devices), with
 * random sample_type, read_format, flags, periods and frequencies, mostly
 * valid and sometimes garbage; alone or in groups.
 *
 * Operations, picked at random by NR_WORKERS threads: open, open a group,
 * close (sometimes with the ring buffer still mapped), the ioctls (with
 * and without PERF_IOC_FLAG_GROUP), read() of random sizes, poll(),
 * mmap() of ring buffers (1 + 2^n pages, sometimes a wrong size, read-only
 * or read-write) and munmap() (whole or in part), consuming records and
 * writing data_tail, prctl(PR_TASK_PERF_EVENTS_*), workloads that make
 * events fire (page faults, syscalls, context switches, the watched
 * variables), short-lived threads, fork (the child does random operations
 * and exits) and fork + exec of this program in CHILD_FLAG mode (events
 * with enable_on_exec, remove_on_exec and sigtrap opened just before).
 * A SIGTRAP handler counts the sigtrap events' signals.  Meanwhile the
 * main thread takes a random CPU offline or back online every
 * HOTPLUG_MS (PERF_FUZZ_HOTPLUG=0: never), and everything is back online
 * at the end.  The PMU module of selftests/pmu_module is loaded when the
 * initramfs has it, so that its package-scoped PMU is fuzzed with the
 * rest, including the move of its events off a CPU going offline.
 *
 * Reproducible decisions: the seed (PERF_FUZZ_SEED, else from the clock)
 * is printed first; every thread and process draws from its own PRNG
 * derived from it (thread timing still varies from run to run).  The run
 * lasts PERF_FUZZ_SECONDS (default DEFAULT_SECONDS) and ends with counts
 * of the syscalls made and of the opens by result, as TAP comments.
 * One attr in BAD_PERCENT gets garbage; the others are meant to be valid.
 * PERF_FUZZ_LOG_OPENS=1 prints every failed open (with make fuzz:
 * KPERF_APPEND=PERF_FUZZ_LOG_OPENS=1), to see what the kernel refuses.
 * The kprobe PMU is used only with PERF_FUZZ_KPROBES=1 (see discover()).
 *
 * Bounds, so that only the kernel can hang the guest: at most NR_SLOTS
 * events per process, MAX_CHILDREN live children, MAX_THREADS short-lived
 * threads, ring buffers of at most 65 pages, poll timeouts of a few ms,
 * no signal but SIGTRAP to anything but our own processes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "module_load.h"
#include "perf_test.h"

#define DEFAULT_SECONDS		30
#define MAX_SECONDS		(24 * 3600)
#define GRACE_SECONDS		90	/* for everything to end after the stop */
#define NR_WORKERS		3
#define HOTPLUG_MS		300
#define PMU_MODULE		"/tests/modules/perf_clock_pmu.ko"
/* a PMU with an AUX area (module/perf_aux_pmu.c): read() writes a chunk */
#define AUX_MODULE		"/tests/modules/perf_aux_pmu.ko"
#define AUX_MODULE_NAME		"perf_aux_pmu"
#define NR_SLOTS		32
#define MAX_CHILDREN		4
#define MAX_THREADS		4
#define MAX_TP_IDS		512
#define MAX_TYPES		32
#define MAX_ERRNO		134
#define CHILD_MS		300	/* longest life of a child */
#define CHILD_FLAG		"--child"
#define LINE_ROOM		64	/* what one more counter needs in a line */

/*
 * What an execute breakpoint covers: an instruction on arm64, a long on
 * x86. The registers a sample may hold: x0-x30, sp, pc on arm64; on x86_64
 * all but ds, es, fs and gs (bits 12-15), the XMM ones left out.
 */
#if defined(__aarch64__)
#define BP_X_LEN		HW_BREAKPOINT_LEN_4
#define REGS_MASK		((1ULL << 33) - 1)
#else
#define BP_X_LEN		sizeof(long)
#define REGS_MASK		0xff0fffULL
#endif

enum op {
	OP_OPEN, OP_OPEN_GROUP, OP_CLOSE,
	OP_ENABLE, OP_DISABLE, OP_RESET, OP_REFRESH, OP_PERIOD, OP_SET_OUTPUT,
	OP_SET_FILTER, OP_ID, OP_PAUSE_OUTPUT, OP_MODIFY_ATTRS, OP_SET_BPF,
	OP_BAD_IOCTL, OP_READ, OP_POLL, OP_MMAP, OP_MUNMAP, OP_DATA_TAIL,
	OP_PRCTL, OP_WORK, OP_THREAD, OP_FORK, OP_EXEC, NR_OPS
};

static const char * const op_name[NR_OPS] = {
	"open", "open-group", "close",
	"ioc-enable", "ioc-disable", "ioc-reset", "ioc-refresh", "ioc-period",
	"ioc-set-output", "ioc-set-filter", "ioc-id", "ioc-pause-output",
	"ioc-modify-attrs", "ioc-set-bpf", "ioc-other", "read", "poll", "mmap",
	"munmap", "data-tail", "prctl", "workload", "thread", "fork", "exec",
};

/* relative weights of the operations a worker picks */
static const unsigned int op_weight[NR_OPS] = {
	[OP_OPEN] = 14, [OP_OPEN_GROUP] = 4, [OP_CLOSE] = 8,
	[OP_ENABLE] = 5, [OP_DISABLE] = 5, [OP_RESET] = 3, [OP_REFRESH] = 2,
	[OP_PERIOD] = 3, [OP_SET_OUTPUT] = 3, [OP_SET_FILTER] = 2, [OP_ID] = 2,
	[OP_PAUSE_OUTPUT] = 2, [OP_MODIFY_ATTRS] = 2, [OP_SET_BPF] = 1,
	[OP_BAD_IOCTL] = 1, [OP_READ] = 10, [OP_POLL] = 4, [OP_MMAP] = 6,
	[OP_MUNMAP] = 3, [OP_DATA_TAIL] = 6, [OP_PRCTL] = 2, [OP_WORK] = 10,
	[OP_THREAD] = 1, [OP_FORK] = 1, [OP_EXEC] = 1,
};

enum kind {
	K_SW, K_TP, K_BP, K_KPROBE, K_TEST_PMU, K_HW, K_CACHE, K_RAW, K_OTHER,
	K_UPROBE, K_AUX, NR_KINDS
};

static const char * const kind_name[NR_KINDS] = {
	"software", "tracepoint", "breakpoint", "kprobe", "test_pmu",
	"hardware", "hw-cache", "raw", "other", "uprobe", "aux",
};

static const unsigned int kind_weight[NR_KINDS] = {
	[K_SW] = 30, [K_TP] = 12, [K_BP] = 12, [K_KPROBE] = 6,
	[K_TEST_PMU] = 14, [K_HW] = 8, [K_CACHE] = 4, [K_RAW] = 3, [K_OTHER] = 4,
	[K_UPROBE] = 6, [K_AUX] = 8,
};

/* Counters of the whole run, shared by every process (MAP_SHARED). */
struct stats {
	unsigned long ops[NR_OPS];
	unsigned long open_ok[NR_KINDS];
	unsigned long open_fail[NR_KINDS];
	unsigned long open_errno[MAX_ERRNO + 1];
	unsigned long child_signal[NSIG];
	unsigned long child_exit_bad;
	unsigned long exec_children;
	unsigned long sigtraps;
	unsigned long storms;
	unsigned long records;
	unsigned long hotplugs;
	unsigned long aux_maps;
	int stop;
};

struct slot {
	pthread_mutex_t lock;	/* mmap state and attr; fd is read racily */
	int fd;			/* -1: free */
	int kind;
	void *rb;		/* what is still mapped of the ring buffer */
	size_t rb_len;
	bool rb_user;		/* rb starts with the user page */
	bool rb_rw;
	void *aux;		/* the AUX area, when mapped */
	size_t aux_len;
	struct perf_event_attr attr;
};

/* one per thread: its PRNG and where it stops */
struct ctx {
	uint64_t rng;
	struct timespec end;
	bool may_spawn;		/* fork, exec and threads: workers only */
	bool bad;		/* the attr being built gets some garbage */
};

static struct stats *st;
static int stats_fd = -1;	/* memfd behind st, handed to exec'd children */
static struct slot slots[NR_SLOTS];
static long page_size;
static int nr_cpus;
static uint64_t seed;
static int seconds;

static int tp_ids[MAX_TP_IDS], nr_tp_ids;
static int pmu_types[MAX_TYPES], nr_pmu_types;
static int kprobe_type = -1, test_pmu_type = -1, uprobe_type = -1;
static int aux_pmu_type = -1;
static bool aux_module_loaded;
/* an exec'd child: it uses the modules its parent loaded, loads none */
static bool exec_child_mode;
/* uprobes: this program's file, and offsets in it of code the work runs */
static char self_exe[512];
static long uprobe_offs[2], uprobe_ctr_off;
/* initialized, so in .data, in the file-backed mapping an SDT counter needs */
static short uprobe_ctr = 1;

static int live_children;	/* __atomic */
static int live_threads;	/* __atomic */
static pid_t recent_pids[8];	/* children and threads to target */

/* what breakpoints watch and execute (always through bp_call()) */
static long bp_vars[4];

static void bp_func(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* a call the compiler cannot inline: the breakpoint is on the real code */
static void bp_call(void)
{
	void (*f)(void) = bp_func;

	__asm__ __volatile__("" : "+r"(f));
	f();
}

static const char * const kprobe_syms[] = {
#if defined(__x86_64__)
	"__x64_sys_getppid",
#elif defined(__aarch64__)
	"__arm64_sys_getppid",
#endif
	"vfs_read", "do_sys_openat2", "schedule", "kperf_no_such_symbol",
};

static const char * const filters[] = {
	"common_pid != 0", "common_pid > 1 && common_pid < 100000",
	"common_pid == 1", "(((", "", "no_such_field == 3", "common_pid ~ \"x\"",
};

/* splitmix64: decisions per thread, derived from the seed */
static uint64_t rnd64(struct ctx *c)
{
	uint64_t z = (c->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(struct ctx *c, unsigned int n)
{
	return n ? rnd64(c) % n : 0;
}

static bool chance(struct ctx *c, unsigned int percent)
{
	return rnd(c, 100) < percent;
}

/*
 * Garbage goes into one attr in BAD_PERCENT; the others are meant to be
 * valid, so that most opens succeed and the operations have events to act on.
 */
#define BAD_PERCENT	15

static bool garbage(struct ctx *c, unsigned int percent)
{
	return c->bad && chance(c, percent);
}

static void count(unsigned long *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static bool stopping(void)
{
	return __atomic_load_n(&st->stop, __ATOMIC_RELAXED);
}

static bool past(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > end->tv_sec ||
	       (now.tv_sec == end->tv_sec && now.tv_nsec >= end->tv_nsec);
}

static void end_in(struct timespec *end, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += ms / 1000;
	end->tv_nsec += (ms % 1000) * 1000000L;
	if (end->tv_nsec >= 1000000000L) {
		end->tv_nsec -= 1000000000L;
		end->tv_sec++;
	}
}

/*
 * A process that takes STORM_TRAPS SIGTRAPs is in a storm: the same
 * breakpoint firing again after every handler (seen on arm64 under TCG,
 * where the kernel must step over a breakpoint and the signal gets in
 * the way). A child then leaves (or at the stop, whichever comes first),
 * the main process turns its own events off; the storms are counted and
 * reported.
 */
#define STORM_TRAPS	100000

static pid_t main_pid;
static unsigned long traps;	/* this process's, __atomic */

static void on_sigtrap(int sig)
{
	if (st)
		count(&st->sigtraps);
	/*
	 * A child's storm that began too late to reach STORM_TRAPS before
	 * the stop (a debug kernel takes a trap in milliseconds) ends at the
	 * stop: children are due to leave then anyway, and one that never
	 * gets back to user space is still caught as stuck.
	 */
	if (st && getpid() != main_pid &&
	    __atomic_load_n(&st->stop, __ATOMIC_RELAXED)) {
		count(&st->storms);
		_exit(0);
	}
	if (__atomic_add_fetch(&traps, 1, __ATOMIC_RELAXED) % STORM_TRAPS)
		return;
	if (st)
		count(&st->storms);
	if (getpid() != main_pid)
		_exit(0);
	prctl(PR_TASK_PERF_EVENTS_DISABLE);
}

static void remember_pid(struct ctx *c, pid_t pid)
{
	__atomic_store_n(&recent_pids[rnd(c, 8)], pid, __ATOMIC_RELAXED);
}

/* ---- what the guest has: tracepoints and PMUs ---- */

static void scan_tracepoints(const char *root)
{
	char path[512];
	struct dirent *sys, *ev;
	DIR *d, *e;
	int id;

	d = opendir(root);
	if (!d)
		return;
	while ((sys = readdir(d)) && nr_tp_ids < MAX_TP_IDS) {
		if (sys->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%.100s", root, sys->d_name);
		e = opendir(path);
		if (!e)
			continue;
		while ((ev = readdir(e)) && nr_tp_ids < MAX_TP_IDS) {
			if (ev->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%.100s/%.200s/id", root,
				 sys->d_name, ev->d_name);
			id = read_int(path);
			if (id >= 0)
				tp_ids[nr_tp_ids++] = id;
		}
		closedir(e);
	}
	closedir(d);
}

static void scan_pmus(void)
{
	const char *root = "/sys/bus/event_source/devices";
	char path[512];
	struct dirent *de;
	DIR *d;
	int type;

	d = opendir(root);
	if (!d)
		return;
	while ((de = readdir(d)) && nr_pmu_types < MAX_TYPES) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%.200s/type", root, de->d_name);
		type = read_int(path);
		if (type < 0)
			continue;
		pmu_types[nr_pmu_types++] = type;
		if (!strcmp(de->d_name, "kprobe"))
			kprobe_type = type;
		else if (!strcmp(de->d_name, "test_pmu"))
			test_pmu_type = type;
		else if (!strcmp(de->d_name, "uprobe"))
			uprobe_type = type;
		else if (!strcmp(de->d_name, "perf_aux_test"))
			aux_pmu_type = type;
	}
	closedir(d);
}

static void discover_uprobes(void)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	uprobe_offs[0] = self_file_offset(bp_func);
	uprobe_offs[1] = self_file_offset(bp_call);
	uprobe_ctr_off = self_file_offset(&uprobe_ctr);
	if (n <= 0 || uprobe_offs[0] < 0 || uprobe_offs[1] < 0)
		uprobe_type = -1;
	else
		self_exe[n] = 0;
}

/*
 * The PMU module, when there is one: its PMUs join the fuzzed ones.
 * Return: true when this call loaded it (an exec'd child finds it loaded).
 */
static bool load_module(const char *path)
{
	return !test_module_load(path);
}

/* what this run loaded it unloads, once nothing of the run holds it */
static void unload_aux_module(void)
{
	if (!aux_module_loaded)
		return;
	if (!test_module_unload(AUX_MODULE_NAME, 10000))
		return;
	ksft_print_msg("fuzz: %s stays loaded: %s\n", AUX_MODULE_NAME,
		       strerror(errno));
}

static void discover(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (nr_cpus < 1)
		nr_cpus = 1;
	/*
	 * Only the run's own process loads them: it unloads the AUX PMU at
	 * the end, which a child that loaded it again once the run had let
	 * go would undo, leaving it to every suite after the fuzz.
	 */
	if (!exec_child_mode && load_module(PMU_MODULE))
		ksft_print_msg("fuzz: loaded %s\n", PMU_MODULE);
	aux_module_loaded = !exec_child_mode && load_module(AUX_MODULE);
	if (aux_module_loaded)
		ksft_print_msg("fuzz: loaded %s\n", AUX_MODULE);
	scan_tracepoints("/sys/kernel/tracing/events");
	if (!nr_tp_ids)
		scan_tracepoints("/sys/kernel/debug/tracing/events");
	scan_pmus();
	discover_uprobes();
	/*
	 * Creating and removing kprobes while other CPUs run the probed
	 * function ends, now and then, in "Oops: int3" at function+1 under
	 * x86 TCG on upstream's kernel too (seed 7, 200 s): opt in only.
	 */
	if (!getenv("PERF_FUZZ_KPROBES"))
		kprobe_type = -1;
}

/* ---- attributes ---- */

static uint64_t gen_period(struct ctx *c, int kind, uint64_t config)
{
	static const uint64_t small[] = { 1, 2, 3, 10, 100, 1000, 10000, 1000000 };
	static const uint64_t ns[] = { 10000, 100000, 1000000, 10000000 };

	if (garbage(c, 10))
		return rnd64(c);
	if (kind == K_SW && (config == PERF_COUNT_SW_CPU_CLOCK ||
			     config == PERF_COUNT_SW_TASK_CLOCK))
		return ns[rnd(c, 4)];
	return small[rnd(c, 8)];
}

static uint64_t gen_freq(struct ctx *c)
{
	static const uint64_t freq[] = { 1, 10, 100, 1000, 4000, 10000, 50000, 100000 };

	if (garbage(c, 10))
		return rnd(c, 400000);
	return freq[rnd(c, 8)];
}

static uint64_t gen_sample_type(struct ctx *c)
{
	uint64_t common = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
		PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER |
		PERF_SAMPLE_STACK_USER | PERF_SAMPLE_IDENTIFIER |
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT |
		PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE;

	if (garbage(c, 20))
		return rnd64(c);
	/* every bit, also those the event's PMU or the other fields refuse */
	if (garbage(c, 50))
		return rnd64(c) & (PERF_SAMPLE_MAX - 1);
	return rnd64(c) & rnd64(c) & common;
}

static void gen_type_config(struct ctx *c, struct perf_event_attr *a, int kind)
{
	switch (kind) {
	case K_SW:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = garbage(c, 10) ? rnd64(c) : rnd(c, PERF_COUNT_SW_MAX);
		break;
	case K_TP:
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = nr_tp_ids && !garbage(c, 20) ?
			    (uint64_t)tp_ids[rnd(c, nr_tp_ids)] : rnd64(c);
		break;
	case K_BP:
		a->type = PERF_TYPE_BREAKPOINT;
		a->sample_period = 1;
		switch (rnd(c, 5)) {
		case 0:
			a->bp_type = HW_BREAKPOINT_X;
			a->bp_addr = (uintptr_t)bp_func;
			a->bp_len = BP_X_LEN;
			break;
		case 1:
			a->bp_type = HW_BREAKPOINT_R;
			break;
		case 2:
			a->bp_type = HW_BREAKPOINT_RW;
			break;
		default:
			a->bp_type = HW_BREAKPOINT_W;
			break;
		}
		if (a->bp_type != HW_BREAKPOINT_X) {
			a->bp_addr = (uintptr_t)&bp_vars[rnd(c, 4)];
			a->bp_len = 1 << rnd(c, 4);
		}
		if (garbage(c, 20))
			a->bp_addr += rnd(c, 8);
		if (garbage(c, 15))
			a->bp_len = rnd(c, 16);
		if (garbage(c, 15))
			a->bp_type = rnd(c, 16);
		if (garbage(c, 10))
			a->bp_addr = 0;
		break;
	case K_KPROBE:
		a->type = kprobe_type;
		a->config = chance(c, 30);	/* format/retprobe: config:0 */
		a->config1 = (uintptr_t)kprobe_syms[rnd(c, ARRAY_SIZE(kprobe_syms))];
		if (garbage(c, 20))
			a->config2 = rnd(c, 8);
		if (garbage(c, 10))
			a->config1 = 0;
		break;
	case K_UPROBE:
		/* entry or return probes on code op_work() runs */
		a->type = uprobe_type;
		a->config = chance(c, 40);
		a->config1 = (uintptr_t)self_exe;
		a->config2 = uprobe_offs[rnd(c, 2)];
		if (chance(c, 20) && uprobe_ctr_off > 0)
			a->config |= (uint64_t)uprobe_ctr_off << 32;
		/*
		 * Past the end of the file: EINVAL.  Not inside this
		 * program's code, where a breakpoint in the middle of an
		 * instruction would break the fuzzer itself (as it would on
		 * upstream).
		 */
		if (garbage(c, 15))
			a->config2 = (1ull << 40) + rnd(c, 4096);
		if (garbage(c, 10))
			a->config |= rnd64(c) & ~0xffffffffull;
		if (garbage(c, 5))
			a->config1 = 0;
		break;
	case K_TEST_PMU:
		a->type = test_pmu_type;
		a->config = rnd(c, 256) | (chance(c, 20) ? 0x100 : 0);
		if (garbage(c, 20))
			a->config = rnd64(c);
		break;
	case K_AUX:
		/* chunk, skip, PARTIAL, COLLISION, hw_id: see perf_aux_pmu.c */
		a->type = aux_pmu_type;
		a->config = rnd(c, 8192);
		if (chance(c, 20))
			a->config |= (uint64_t)rnd(c, 128) << 16;
		a->config |= (uint64_t)rnd(c, 8) << 32;
		a->config1 = rnd(c, 256);
		if (chance(c, 30))
			a->aux_watermark = rnd(c, 3 * page_size);
		if (garbage(c, 20))
			a->config = rnd64(c);
		break;
	case K_HW:
		a->type = PERF_TYPE_HARDWARE;
		a->config = garbage(c, 20) ? rnd64(c) : rnd(c, PERF_COUNT_HW_MAX);
		break;
	case K_CACHE:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = rnd(c, PERF_COUNT_HW_CACHE_MAX) |
			    rnd(c, PERF_COUNT_HW_CACHE_OP_MAX) << 8 |
			    rnd(c, PERF_COUNT_HW_CACHE_RESULT_MAX) << 16;
		if (garbage(c, 20))
			a->config = rnd64(c);
		break;
	case K_RAW:
		a->type = PERF_TYPE_RAW;
		a->config = garbage(c, 50) ? rnd64(c) : rnd(c, 0x100);
		break;
	default:
		a->type = nr_pmu_types && !garbage(c, 50) ?
			  pmu_types[rnd(c, nr_pmu_types)] : (uint32_t)rnd64(c);
		a->config = garbage(c, 50) ? rnd64(c) : rnd(c, 16);
		break;
	}
#ifdef __x86_64__
	/*
	 * Upstream's 6.12 driver accepts AnyThread (config bit 21) on a PMU
	 * that deprecates it and writes it into the event select, which
	 * faults (an unchecked MSR access in the log) on the emulated PMU as
	 * under KVM. Ours refuses it with EINVAL (hw_counting checks that);
	 * keep the fuzzer off it so that a REF=1 run is not failed by that.
	 */
	if (a->type == PERF_TYPE_RAW)
		a->config &= ~(1ULL << 21);
#endif
}

static int pick_kind(struct ctx *c)
{
	unsigned int total = 0, r, k;

	for (k = 0; k < NR_KINDS; k++)
		total += kind_weight[k];
	for (;;) {
		r = rnd(c, total);
		for (k = 0; r >= kind_weight[k]; k++)
			r -= kind_weight[k];
		if (k == K_KPROBE && kprobe_type < 0)
			continue;
		if (k == K_TEST_PMU && test_pmu_type < 0)
			continue;
		if (k == K_UPROBE && uprobe_type < 0)
			continue;
		if (k == K_AUX && aux_pmu_type < 0)
			continue;
		return k;
	}
}

static void gen_attr(struct ctx *c, struct perf_event_attr *a, int kind)
{
	static const int clocks[] = {
		CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME,
		CLOCK_BOOTTIME, CLOCK_TAI, 99,
	};
	unsigned int r;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	c->bad = chance(c, BAD_PERCENT);
	gen_type_config(c, a, kind);

	r = rnd(c, 100);
	if (r < 30 && kind != K_BP) {
		a->freq = 1;
		a->sample_freq = gen_freq(c);
	} else if (r < 60 || kind == K_BP) {
		a->sample_period = gen_period(c, kind, a->config);
	}
	if (a->sample_period || chance(c, 20))
		a->sample_type = gen_sample_type(c);
	a->read_format = garbage(c, 20) ? rnd64(c) : rnd64(c) &
			 ((PERF_FORMAT_MAX - 1) | PERF_FORMAT_LOSSES);
	if (a->sample_type & PERF_SAMPLE_STACK_USER) {
		/* 64 KB per sample of a hot kprobe can bring TCG to a crawl */
		static const uint32_t sizes[] = { 0, 8, 64, 512, 4096, 65528, 13 };

		a->sample_stack_user = sizes[rnd(c, garbage(c, 30) ? 7 : 5)];
	}
	if (a->sample_type & PERF_SAMPLE_REGS_USER)
		a->sample_regs_user = garbage(c, 30) ? rnd64(c) : rnd64(c) & REGS_MASK;
	if (a->sample_type & PERF_SAMPLE_REGS_INTR)
		a->sample_regs_intr = garbage(c, 30) ? rnd64(c) : rnd64(c) & REGS_MASK;
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		a->sample_max_stack = rnd(c, 130);
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		a->branch_sample_type = rnd64(c) &
					(PERF_SAMPLE_BRANCH_MAX - 1);
	if (a->sample_type & PERF_SAMPLE_AUX || garbage(c, 10))
		a->aux_sample_size = rnd(c, 8192);

	a->disabled = chance(c, 40);
	a->inherit = chance(c, 25);
	a->pinned = chance(c, 5);
	a->exclusive = chance(c, 5);
	a->exclude_user = chance(c, 10);
	a->exclude_kernel = chance(c, 20);
	a->exclude_hv = chance(c, 20);
	a->exclude_idle = chance(c, 5);
	a->mmap = chance(c, 20);
	a->comm = chance(c, 20);
	a->inherit_stat = chance(c, 10);
	a->enable_on_exec = chance(c, 10);
	a->task = chance(c, 15);
	a->watermark = chance(c, 20);
	if (chance(c, 10))
		a->precise_ip = rnd(c, 4);
	a->mmap_data = chance(c, 10);
	a->sample_id_all = chance(c, 40);
	a->exclude_host = garbage(c, 10);
	a->exclude_guest = chance(c, 3);
	a->exclude_callchain_kernel = chance(c, 5);
	a->exclude_callchain_user = chance(c, 5);
	a->mmap2 = chance(c, 15);
	a->comm_exec = chance(c, 10);
	a->use_clockid = chance(c, 15);
	a->context_switch = chance(c, 15);
	a->write_backward = chance(c, 5);
	a->namespaces = chance(c, 5);
	a->ksymbol = chance(c, 5);
	a->bpf_event = chance(c, 3);
	a->aux_output = garbage(c, 10);
	a->cgroup = garbage(c, 10);
	a->text_poke = chance(c, 5);
	a->build_id = a->mmap2 && chance(c, 30);
	a->inherit_thread = a->inherit && chance(c, 30);
	a->remove_on_exec = chance(c, 10);
	if (chance(c, 10)) {
		a->sigtrap = 1;
		a->remove_on_exec = !garbage(c, 50);
		a->sig_data = rnd64(c);
	}
	if (a->watermark)
		a->wakeup_watermark = garbage(c, 30) ? rnd(c, 1 << 20) : 1 << rnd(c, 14);
	else
		a->wakeup_events = rnd(c, 8);
	if (a->use_clockid)
		a->clockid = clocks[rnd(c, ARRAY_SIZE(clocks) - !c->bad)];
	if (garbage(c, 10))
		a->aux_watermark = rnd(c, 1 << 16);
	if (garbage(c, 10))
		a->config3 = rnd64(c);
	if (garbage(c, 5))
		a->__reserved_1 = rnd(c, 4);
	if (garbage(c, 5))
		a->__reserved_2 = 1;

	/* older layouts are valid; a larger one is while its tail is zero */
	r = rnd(c, 100);
	if (r < 4)
		a->size = PERF_ATTR_SIZE_VER0;
	else if (r < 6)
		a->size = PERF_ATTR_SIZE_VER5;
	else if (r < 10)
		a->size = sizeof(*a) + 8 * (1 + rnd(c, 4));
	if (garbage(c, 10))
		a->size = rnd(c, 200);
}

/* ---- the slot pool ---- */

static int slot_fd(struct ctx *c)
{
	int i, start = rnd(c, NR_SLOTS), fd;

	for (i = 0; i < NR_SLOTS; i++) {
		fd = __atomic_load_n(&slots[(start + i) % NR_SLOTS].fd, __ATOMIC_RELAXED);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

static struct slot *slot_used(struct ctx *c)
{
	int i, start = rnd(c, NR_SLOTS);
	struct slot *s;

	for (i = 0; i < NR_SLOTS; i++) {
		s = &slots[(start + i) % NR_SLOTS];
		if (__atomic_load_n(&s->fd, __ATOMIC_RELAXED) >= 0)
			return s;
	}
	return NULL;
}

static void unmap_aux(struct slot *s)
{
	if (s->aux)
		munmap(s->aux, s->aux_len);
	s->aux = NULL;
	s->aux_len = 0;
}

/* the data pages first: the AUX mapping alone keeps the buffer a moment */
static void unmap_rb(struct slot *s)
{
	if (s->rb)
		munmap(s->rb, s->rb_len);
	unmap_aux(s);
	s->rb = NULL;
	s->rb_len = 0;
	s->rb_user = false;
}

/* called with s->lock held */
static void slot_close_locked(struct ctx *c, struct slot *s)
{
	int fd = s->fd;

	if (fd < 0)
		return;
	__atomic_store_n(&s->fd, -1, __ATOMIC_RELAXED);
	count(&st->ops[OP_CLOSE]);
	if (s->rb && chance(c, 30)) {
		/* close first: the mapping keeps the buffer alive */
		close(fd);
		unmap_rb(s);
		return;
	}
	unmap_rb(s);
	close(fd);
}

static void slot_close(struct ctx *c, struct slot *s)
{
	pthread_mutex_lock(&s->lock);
	slot_close_locked(c, s);
	pthread_mutex_unlock(&s->lock);
}

/* a free slot, locked; when all are used, one is closed to make room */
static struct slot *slot_free(struct ctx *c)
{
	int i, start = rnd(c, NR_SLOTS);
	struct slot *s;

	for (i = 0; i < NR_SLOTS; i++) {
		s = &slots[(start + i) % NR_SLOTS];
		if (pthread_mutex_trylock(&s->lock))
			continue;
		if (s->fd < 0)
			return s;
		pthread_mutex_unlock(&s->lock);
	}
	s = &slots[start];
	pthread_mutex_lock(&s->lock);
	slot_close_locked(c, s);
	return s;
}

static pid_t pick_pid(struct ctx *c, int *cpu)
{
	unsigned int r = rnd(c, 100);
	pid_t pid = 0;

	*cpu = -1;
	if (r < 60) {
		pid = 0;
	} else if (r < 70) {
		pid = -1;
	} else if (r < 85) {
		pid = __atomic_load_n(&recent_pids[rnd(c, 8)], __ATOMIC_RELAXED);
	} else if (r < 90) {
		pid = getpid();
	} else if (r < 95) {
		pid = syscall(SYS_gettid);
	} else {
		/* never another process's pid: a sigtrap could kill init */
		pid = chance(c, 50) ? 0x3ffffff0 : -2;
	}
	if (pid == -1 || chance(c, 15))
		*cpu = rnd(c, nr_cpus);
	if (chance(c, 2))
		*cpu = chance(c, 50) ? nr_cpus + rnd(c, 64) : -2;
	return pid;
}

/*
 * Mostly CLOEXEC; now and then our extensions (process-wide events and
 * shared buffers, which upstream refuses), any small combination, or
 * garbage.
 */
static unsigned long pick_flags(struct ctx *c)
{
	unsigned long flags = chance(c, 90) ? PERF_FLAG_FD_CLOEXEC : 0;

	if (chance(c, 92))
		return flags;
	if (chance(c, 60))
		return flags | (chance(c, 50) ? PERF_FLAG_PID_PROCESS :
						PERF_FLAG_SHARED_BUFFER);
	if (chance(c, 50))
		return rnd(c, 64);
	return rnd64(c);
}

static const char *errno_name(int e)
{
	const char *name = e ? strerrorname_np(e) : "other";

	return name ? name : "?";
}

/* PERF_FUZZ_LOG_OPENS=1: every failed open on stderr, to tune gen_attr() */
static bool log_opens;

static void log_open(const struct perf_event_attr *a, int kind, int fd, int err,
		     pid_t pid, int cpu, int group_fd)
{
	uint64_t bits;

	if (!log_opens || fd >= 0)
		return;
	memcpy(&bits, (char *)&a->read_format + sizeof(a->read_format), sizeof(bits));
	fprintf(stderr, "# open %d/%d/%d %s: %s type %u config %#llx size %u",
		pid, cpu, group_fd, kind_name[kind], errno_name(err), a->type,
		(unsigned long long)a->config, a->size);
	fprintf(stderr, " sample_type %#llx read_format %#llx flags %#llx period %llu bp %u/%llu\n",
		(unsigned long long)a->sample_type, (unsigned long long)a->read_format,
		(unsigned long long)bits, (unsigned long long)a->sample_period,
		a->bp_type, (unsigned long long)a->bp_len);
}

static void count_open(int kind, int fd, int err)
{
	if (fd >= 0) {
		count(&st->open_ok[kind]);
		return;
	}
	count(&st->open_fail[kind]);
	count(&st->open_errno[err >= 0 && err <= MAX_ERRNO ? err : 0]);
}

/* open one event into a free slot; returns its fd or -1 */
static int do_open(struct ctx *c, int group_fd, pid_t pid, int cpu,
		   struct perf_event_attr *tmpl)
{
	struct {
		struct perf_event_attr a;
		uint64_t tail[8];
	} buf;
	struct slot *s;
	int kind = pick_kind(c), fd, err;

	memset(&buf, 0, sizeof(buf));
	gen_attr(c, &buf.a, kind);
	if (tmpl && chance(c, 50)) {
		/* a group member like its leader: mostly schedulable together */
		buf.a.inherit = tmpl->inherit;
		buf.a.pinned = 0;
		buf.a.exclusive = 0;
	}
	if (buf.a.size > sizeof(buf.a) && garbage(c, 50))
		buf.tail[0] = 1;	/* a non-zero unknown field: E2BIG */
	count(&st->ops[OP_OPEN]);
	fd = sys_perf_event_open(&buf.a, pid, cpu, group_fd, pick_flags(c));
	err = errno;
	count_open(kind, fd, err);
	log_open(&buf.a, kind, fd, err, pid, cpu, group_fd);
	if (fd < 0)
		return -1;
	s = slot_free(c);
	s->fd = fd;
	s->kind = kind;
	s->attr = buf.a;
	s->rb = NULL;
	s->rb_len = 0;
	s->rb_user = false;
	pthread_mutex_unlock(&s->lock);
	return fd;
}

static void op_open(struct ctx *c)
{
	int cpu, group_fd = -1;
	pid_t pid = pick_pid(c, &cpu);
	unsigned int r = rnd(c, 100);

	if (r < 15)
		group_fd = slot_fd(c);
	else if (r < 17)
		group_fd = rnd(c, 3);	/* not a perf fd */
	else if (r < 18)
		group_fd = 1000 + rnd(c, 100);
	do_open(c, group_fd, pid, cpu, NULL);
}

static void op_open_group(struct ctx *c)
{
	struct perf_event_attr leader;
	int cpu, fd, i, n = 1 + rnd(c, 4), kind = pick_kind(c);
	pid_t pid = pick_pid(c, &cpu);
	struct slot *s;

	gen_attr(c, &leader, kind);
	if (chance(c, 70))
		leader.read_format |= PERF_FORMAT_GROUP;
	count(&st->ops[OP_OPEN_GROUP]);
	fd = sys_perf_event_open(&leader, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	count_open(kind, fd, errno);	/* errno: read after the call */
	if (fd < 0)
		return;
	s = slot_free(c);
	s->fd = fd;
	s->kind = kind;
	s->attr = leader;
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < n; i++) {
		int mcpu = cpu;
		pid_t mpid = pid;

		if (chance(c, 10))
			mpid = pick_pid(c, &mcpu);
		do_open(c, fd, mpid, mcpu, &leader);
	}
}

static void op_ioctl(struct ctx *c, int op)
{
	char filter[64];
	uint64_t val, scratch[4] = { 0 };
	unsigned long flag = chance(c, 30) ? PERF_IOC_FLAG_GROUP : 0;
	struct perf_event_attr attr;
	struct slot *s;
	int fd;

	if (chance(c, 3))
		flag = rnd64(c);
	count(&st->ops[op]);
	switch (op) {
	case OP_ENABLE:
		ioctl(slot_fd(c), PERF_EVENT_IOC_ENABLE, flag);
		break;
	case OP_DISABLE:
		ioctl(slot_fd(c), PERF_EVENT_IOC_DISABLE, flag);
		break;
	case OP_RESET:
		ioctl(slot_fd(c), PERF_EVENT_IOC_RESET, flag);
		break;
	case OP_REFRESH:
		ioctl(slot_fd(c), PERF_EVENT_IOC_REFRESH, (unsigned long)rnd(c, 4));
		break;
	case OP_PERIOD:
		val = chance(c, 50) ? gen_period(c, K_SW, 0) : gen_freq(c);
		ioctl(slot_fd(c), PERF_EVENT_IOC_PERIOD, chance(c, 5) ? NULL : &val);
		break;
	case OP_SET_OUTPUT:
		fd = slot_fd(c);
		/* the kernel compares the whole unsigned long with -1 */
		val = chance(c, 25) ? -1UL : chance(c, 10) ? fd : slot_fd(c);
		ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)val);
		break;
	case OP_SET_FILTER:
		if (chance(c, 20))
			snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
		else
			snprintf(filter, sizeof(filter), "%s",
				 filters[rnd(c, ARRAY_SIZE(filters))]);
		ioctl(slot_fd(c), PERF_EVENT_IOC_SET_FILTER, chance(c, 3) ? NULL : filter);
		break;
	case OP_ID:
		ioctl(slot_fd(c), PERF_EVENT_IOC_ID, chance(c, 5) ? NULL : &val);
		break;
	case OP_PAUSE_OUTPUT:
		ioctl(slot_fd(c), PERF_EVENT_IOC_PAUSE_OUTPUT, (unsigned long)rnd(c, 2));
		break;
	case OP_MODIFY_ATTRS:
		s = slot_used(c);
		if (!s)
			break;
		pthread_mutex_lock(&s->lock);
		attr = s->attr;
		fd = s->fd;
		pthread_mutex_unlock(&s->lock);
		if (chance(c, 70)) {
			attr.bp_addr = (uintptr_t)&bp_vars[rnd(c, 4)];
			attr.bp_len = 1 << rnd(c, 4);
			attr.bp_type = chance(c, 50) ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
		} else if (chance(c, 50)) {
			attr.type = PERF_TYPE_BREAKPOINT;
			attr.sample_period = rnd(c, 3);
		} else {
			attr.disabled ^= 1;
			attr.bp_type = rnd(c, 16);
		}
		ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, chance(c, 3) ? NULL : &attr);
		break;
	case OP_SET_BPF:
		ioctl(slot_fd(c), PERF_EVENT_IOC_SET_BPF, slot_fd(c));
		break;
	default:
		/* a number of our own that the kernel does not know */
		ioctl(slot_fd(c), _IOW('$', 10 + rnd(c, 16), uint64_t), scratch);
		break;
	}
}

static void op_read(struct ctx *c)
{
	static const size_t sizes[] = { 0, 1, 8, 16, 24, 32, 40, 64, 4096 };
	uint64_t buf[512];
	size_t size = chance(c, 20) ? rnd(c, sizeof(buf)) : sizes[rnd(c, 9)];

	count(&st->ops[OP_READ]);
	if (read(slot_fd(c), chance(c, 2) ? NULL : buf, size) < 0)
		return;
}

static void op_poll(struct ctx *c)
{
	struct pollfd pfd[4];
	int i, n = 1 + rnd(c, 4);

	for (i = 0; i < n; i++) {
		pfd[i].fd = slot_fd(c);
		pfd[i].events = chance(c, 80) ? POLLIN : rnd(c, 0x10000);
		pfd[i].revents = 0;
	}
	count(&st->ops[OP_POLL]);
	poll(pfd, n, rnd(c, 4));
}

/*
 * The AUX area above a mapped ring buffer: mostly where and as large as
 * the user page says (which op_data_tail() scribbles on too), writable or
 * read-only (snapshot); any event, though only the AUX PMU's take it.
 */
static void mmap_aux(struct ctx *c, struct slot *s)
{
	struct perf_event_mmap_page *up = s->rb;
	size_t len = page_size << rnd(c, 4);
	off_t off = s->rb_len + page_size * (chance(c, 80) ? 0 : rnd(c, 4));
	int prot = chance(c, 70) ? PROT_READ | PROT_WRITE : PROT_READ;
	void *p;

	/* a read-only user page keeps what it has (mostly nothing: EINVAL) */
	if (s->rb_rw && chance(c, 95)) {
		up->aux_offset = off;
		up->aux_size = len;
	} else if (s->rb_rw) {
		up->aux_size = rnd(c, 16) * page_size;
	}
	count(&st->ops[OP_MMAP]);
	p = mmap(NULL, len, prot, MAP_SHARED, s->fd, off);
	if (p == MAP_FAILED)
		return;
	count(&st->aux_maps);
	s->aux = p;
	s->aux_len = len;
}

static void op_mmap(struct ctx *c)
{
	struct slot *s = slot_used(c);
	unsigned int r = rnd(c, 100);
	size_t pages;
	int prot = chance(c, 70) ? PROT_READ | PROT_WRITE : PROT_READ;
	int flags = chance(c, 95) ? MAP_SHARED : MAP_PRIVATE;
	off_t off = chance(c, 3) ? page_size * (1 + rnd(c, 64)) : 0;
	void *p;

	if (r < 75)
		pages = 1 + (1 << rnd(c, 5));
	else if (r < 85)
		pages = 1;
	else if (r < 88)
		pages = 1 + (1 << 6);
	else
		pages = rnd(c, 10);
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	if (s->fd >= 0 && s->rb && s->rb_user && !s->aux &&
	    chance(c, s->kind == K_AUX ? 80 : 5)) {
		mmap_aux(c, s);
	} else if (s->fd >= 0 && (!s->rb || chance(c, 20))) {
		count(&st->ops[OP_MMAP]);
		p = mmap(NULL, pages * page_size, prot, flags, s->fd, off);
		if (p != MAP_FAILED) {
			if (s->rb || off) {
				/* a second mapping, or not the ring buffer: drop it */
				munmap(p, pages * page_size);
			} else {
				s->rb = p;
				s->rb_len = pages * page_size;
				s->rb_user = true;
				s->rb_rw = prot & PROT_WRITE;
			}
		}
	}
	pthread_mutex_unlock(&s->lock);
}

static void op_munmap(struct ctx *c)
{
	struct slot *s = slot_used(c);

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	if (s->aux && chance(c, 40)) {
		count(&st->ops[OP_MUNMAP]);
		unmap_aux(s);
	} else if (s->rb) {
		count(&st->ops[OP_MUNMAP]);
		if (s->rb_len > (size_t)page_size && chance(c, 25)) {
			/*
			 * Part of a mapping: both kernels refuse to split a
			 * buffer's VMA (EINVAL), and then it stays whole; a
			 * mapping we lost track of would keep its event, and
			 * the event's counter, after the run.
			 */
			if (chance(c, 50)) {
				/* the user page first, the data staying */
				if (!munmap(s->rb, page_size)) {
					s->rb = (char *)s->rb + page_size;
					s->rb_user = false;
					s->rb_len -= page_size;
				}
			} else if (!munmap((char *)s->rb + s->rb_len - page_size,
					   page_size)) {
				s->rb_len -= page_size;
			}
		} else {
			unmap_rb(s);
		}
	}
	pthread_mutex_unlock(&s->lock);
}

/* consume what is in the buffer, record by record, and move data_tail */
static void op_data_tail(struct ctx *c)
{
	struct perf_event_mmap_page *up;
	struct perf_event_header *h;
	struct slot *s = slot_used(c);
	uint64_t head, tail, size;
	unsigned char *data;
	int n = 0;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	if (!s->rb || !s->rb_user || s->rb_len < 2 * (size_t)page_size)
		goto out;
	count(&st->ops[OP_DATA_TAIL]);
	up = s->rb;
	data = (unsigned char *)s->rb + page_size;
	size = s->rb_len - page_size;
	if (up->data_size != size || up->data_offset != (uint64_t)page_size)
		goto out;
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	tail = up->data_tail;
	/* walk the headers, at most a buffer's worth, within the mapping */
	while (tail < head && head - tail <= size && n++ < 4096) {
		h = (struct perf_event_header *)(data + (tail & (size - 1)));
		if ((tail & (size - 1)) + sizeof(*h) > size || h->size < sizeof(*h))
			break;
		count(&st->records);
		tail += h->size;
	}
	if (!s->rb_rw)
		goto out;
	if (chance(c, 90))
		__atomic_store_n(&up->data_tail, head, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&up->data_tail, rnd64(c), __ATOMIC_RELEASE);
	if (chance(c, 3))
		up->aux_tail = rnd64(c);
	if (chance(c, 2)) {
		up->aux_offset = s->rb_len + page_size * rnd(c, 4);
		up->aux_size = page_size << rnd(c, 3);
	}
out:
	pthread_mutex_unlock(&s->lock);
}

static void op_work(struct ctx *c)
{
	struct timespec ts = { 0, 1000 * rnd(c, 200) };
	int i, n = 1 + rnd(c, 200);
	char name[16];
	struct timespec end;

	count(&st->ops[OP_WORK]);
	switch (rnd(c, 7)) {
	case 0:		/* page faults, mmap records */
		touch_fresh_pages(1 + rnd(c, 64));
		break;
	case 1:		/* syscalls (the kprobes are on some) */
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		break;
	case 2:		/* context switches */
		for (i = 0; i < n / 10 + 1; i++)
			sched_yield();
		nanosleep(&ts, NULL);
		break;
	case 3:		/* what the breakpoints watch */
		for (i = 0; i < n; i++) {
			__atomic_store_n(&bp_vars[i & 3], i +
					 __atomic_load_n(&bp_vars[(i + 1) & 3], __ATOMIC_RELAXED),
					 __ATOMIC_RELAXED);
			bp_call();
		}
		break;
	case 4:		/* comm records */
		snprintf(name, sizeof(name), "fuzz-%u", rnd(c, 100));
		prctl(PR_SET_NAME, name);
		break;
	case 5:		/* cpu-clock and task-clock samples */
		end_in(&end, 1 + rnd(c, 3));
		while (!past(&end))
			;
		break;
	default:	/* read and open: the other kprobes */
		i = open("/proc/self/stat", O_RDONLY);
		if (i >= 0) {
			if (read(i, name, sizeof(name)) < 0)
				n = 0;
			close(i);
		}
		break;
	}
}

static void op_prctl(struct ctx *c)
{
	count(&st->ops[OP_PRCTL]);
	prctl(chance(c, 50) ? PR_TASK_PERF_EVENTS_DISABLE : PR_TASK_PERF_EVENTS_ENABLE);
}

static void run_ops(struct ctx *c);

/* a forked child: its own pool (the inherited fds stay), random operations */
static void child_reinit(struct ctx *c, uint64_t child_seed, long ms)
{
	int i;

	c->rng = child_seed;
	c->may_spawn = false;
	__atomic_store_n(&traps, 0, __ATOMIC_RELAXED);
	end_in(&c->end, ms);
	for (i = 0; i < NR_SLOTS; i++) {
		/* the locks may have been held by threads that do not exist here */
		pthread_mutex_init(&slots[i].lock, NULL);
		/* the parent's mappings are not ours to touch */
		slots[i].rb = NULL;
		slots[i].rb_len = 0;
		slots[i].rb_user = false;
	}
}

static void reap_children(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		__atomic_sub_fetch(&live_children, 1, __ATOMIC_RELAXED);
		if (WIFSIGNALED(status))
			count(&st->child_signal[WTERMSIG(status) < NSIG ? WTERMSIG(status) : 0]);
		else if (WEXITSTATUS(status))
			count(&st->child_exit_bad);
	}
}

static void op_fork(struct ctx *c, bool do_exec)
{
	char seedstr[32], msstr[16], fdstr[16];
	uint64_t child_seed = rnd64(c);
	long ms = 10 + rnd(c, CHILD_MS);
	struct perf_event_attr a;
	int i, kind, cpu, fd;
	pid_t pid;

	if (!c->may_spawn || stopping())
		return;
	if (__atomic_add_fetch(&live_children, 1, __ATOMIC_RELAXED) > MAX_CHILDREN) {
		__atomic_sub_fetch(&live_children, 1, __ATOMIC_RELAXED);
		return;
	}
	count(&st->ops[do_exec ? OP_EXEC : OP_FORK]);
	pid = fork();
	if (pid < 0) {
		__atomic_sub_fetch(&live_children, 1, __ATOMIC_RELAXED);
		return;
	}
	if (pid) {
		remember_pid(c, pid);
		return;
	}
	child_reinit(c, child_seed, ms);
	if (!do_exec) {
		run_ops(c);
		_exit(0);
	}
	/* events the exec acts on: enable_on_exec, remove_on_exec, sigtrap */
	for (i = rnd(c, 4); i > 0; i--) {
		kind = pick_kind(c);
		gen_attr(c, &a, kind);
		a.enable_on_exec = chance(c, 60);
		a.disabled = a.enable_on_exec || chance(c, 20);
		a.remove_on_exec = chance(c, 50);
		if (chance(c, 20)) {
			a.sigtrap = 1;
			a.remove_on_exec = 1;
		}
		cpu = chance(c, 80) ? -1 : (int)rnd(c, nr_cpus);
		count(&st->ops[OP_OPEN]);
		fd = sys_perf_event_open(&a, 0, cpu, -1,
					 chance(c, 50) ? PERF_FLAG_FD_CLOEXEC : 0);
		count_open(kind, fd, errno);
	}
	snprintf(seedstr, sizeof(seedstr), "%llu", (unsigned long long)rnd64(c));
	snprintf(msstr, sizeof(msstr), "%ld", ms);
	snprintf(fdstr, sizeof(fdstr), "%d", stats_fd);
	execl("/proc/self/exe", "fuzz", CHILD_FLAG, seedstr, msstr, fdstr, (char *)NULL);
	_exit(0);
}

static void *short_thread(void *arg)
{
	struct ctx c = { .rng = (uintptr_t)arg };

	remember_pid(&c, syscall(SYS_gettid));
	end_in(&c.end, 5 + rnd(&c, 100));
	run_ops(&c);
	__atomic_sub_fetch(&live_threads, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void op_thread(struct ctx *c)
{
	pthread_attr_t attr;
	pthread_t t;

	if (!c->may_spawn || stopping())
		return;
	if (__atomic_add_fetch(&live_threads, 1, __ATOMIC_RELAXED) > MAX_THREADS) {
		__atomic_sub_fetch(&live_threads, 1, __ATOMIC_RELAXED);
		return;
	}
	count(&st->ops[OP_THREAD]);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, short_thread, (void *)(uintptr_t)rnd64(c)))
		__atomic_sub_fetch(&live_threads, 1, __ATOMIC_RELAXED);
	pthread_attr_destroy(&attr);
}

static int pick_op(struct ctx *c)
{
	unsigned int total = 0, r, o;

	for (o = 0; o < NR_OPS; o++)
		total += op_weight[o];
	r = rnd(c, total);
	for (o = 0; r >= op_weight[o]; o++)
		r -= op_weight[o];
	return o;
}

static void run_ops(struct ctx *c)
{
	int op;

	while (!stopping() && !past(&c->end)) {
		op = pick_op(c);
		switch (op) {
		case OP_OPEN:
			op_open(c);
			break;
		case OP_OPEN_GROUP:
			op_open_group(c);
			break;
		case OP_CLOSE:
			if (chance(c, 50)) {
				struct slot *s = slot_used(c);

				if (s)
					slot_close(c, s);
			}
			break;
		case OP_READ:
			op_read(c);
			break;
		case OP_POLL:
			op_poll(c);
			break;
		case OP_MMAP:
			op_mmap(c);
			break;
		case OP_MUNMAP:
			op_munmap(c);
			break;
		case OP_DATA_TAIL:
			op_data_tail(c);
			break;
		case OP_PRCTL:
			op_prctl(c);
			break;
		case OP_WORK:
			op_work(c);
			break;
		case OP_THREAD:
			op_thread(c);
			break;
		case OP_FORK:
		case OP_EXEC:
			op_fork(c, op == OP_EXEC);
			break;
		default:
			op_ioctl(c, op);
			break;
		}
	}
}

static void *worker(void *arg)
{
	struct ctx *c = arg;

	remember_pid(c, syscall(SYS_gettid));
	run_ops(c);
	return NULL;
}

static void install_sigtrap(void)
{
	struct sigaction sa = { .sa_handler = on_sigtrap, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
}

static int stats_map(int fd)
{
	void *p;

	if (fd >= 0)
		p = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	else
		p = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	st = p;
	return 0;
}

/*
 * The exec'd child: runs before the harness's main() (glibc passes argc
 * and argv to constructors, static binaries too), does random operations
 * for the given time with one thread and exits.
 */
static void __attribute__((constructor)) exec_child(int argc, char **argv)
{
	struct ctx c = { 0 };
	int i;

	if (argc < 5 || strcmp(argv[1], CHILD_FLAG))
		return;
	install_sigtrap();
	traps = 0;
	if (stats_map(atoi(argv[4])))
		_exit(0);
	count(&st->exec_children);
	exec_child_mode = true;
	discover();
	for (i = 0; i < NR_SLOTS; i++) {
		pthread_mutex_init(&slots[i].lock, NULL);
		slots[i].fd = -1;
	}
	c.rng = strtoull(argv[2], NULL, 0);
	end_in(&c.end, atol(argv[3]));
	run_ops(&c);
	_exit(0);
}

static int fuzz_seconds(void)
{
	const char *env = getenv("PERF_FUZZ_SECONDS");
	long s = env ? strtol(env, NULL, 0) : DEFAULT_SECONDS;

	if (s < 1)
		s = 1;
	if (s > MAX_SECONDS)
		s = MAX_SECONDS;
	return s;
}

static const char *signal_name(int sig)
{
	const char *name = sigabbrev_np(sig);

	return name ? name : "?";
}

/* appends " fmt" to line unless it is full */
static void add(char *line, size_t size, const char *fmt, ...)
{
	size_t n = strlen(line);
	va_list ap;

	if (n + LINE_ROOM > size)
		return;
	va_start(ap, fmt);
	vsnprintf(line + n, size - n, fmt, ap);
	va_end(ap);
}

/* Stop every event this process holds: the way out of a SIGTRAP storm. */
static void disable_all_events(void)
{
	int i, fd;

	for (i = 0; i < NR_SLOTS; i++) {
		/* racy by design: the workers left are not making progress */
		fd = __atomic_load_n(&slots[i].fd, __ATOMIC_RELAXED);
		if (fd >= 0)
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	}
}

/* print the lines of /proc/<dir>/<file>, each prefixed with @who */
static void dump_proc_file(const char *dir, const char *file, const char *who)
{
	char path[96], buf[1024];
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		ksft_print_msg("fuzz: %s: %s\n", who, line);
}

/*
 * /proc/<@pid>/stat into @buf: a pointer just past "pid (comm)", where the
 * state field starts, or NULL when the task is gone.
 */
static char *proc_stat(const char *pid, char *buf, size_t size)
{
	char path[64];
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%.16s/stat", pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, size - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strrchr(buf, ')') ? strrchr(buf, ')') + 1 : NULL;
}

/*
 * Where this process's threads and its children's threads are, when some
 * did not end: a child in a kernel wait shows it in its stack, one in a
 * SIGTRAP loop shows state R and a user-mode stack.
 */
static void dump_tasks(void)
{
	char dir[64], who[64], stat[256], *p;
	struct dirent *de, *te;
	DIR *d, *t;
	int ppid;

	d = opendir("/proc");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		/* after "pid (comm)": state, then ppid */
		p = proc_stat(de->d_name, stat, sizeof(stat));
		if (!p || sscanf(p, " %*c %d", &ppid) != 1)
			continue;
		if (atoi(de->d_name) != getpid() && ppid != getpid())
			continue;
		snprintf(dir, sizeof(dir), "%.16s/task", de->d_name);
		snprintf(who, sizeof(who), "/proc/%.16s", dir);
		t = opendir(who);
		if (!t)
			continue;
		while ((te = readdir(t))) {
			char tdir[96];

			if (te->d_name[0] == '.')
				continue;
			snprintf(tdir, sizeof(tdir), "%.16s/task/%.16s",
				 de->d_name, te->d_name);
			snprintf(who, sizeof(who), "%s %.16s/%.16s",
				 ppid == getpid() ? "child" : "task",
				 de->d_name, te->d_name);
			dump_proc_file(tdir, "stat", who);
			dump_proc_file(tdir, "stack", who);
		}
		closedir(t);
	}
	closedir(d);
}

/*
 * Threads of this process the kernel still lists.  A thread that has
 * counted itself out (live_threads) or been joined is not gone yet: the
 * kernel clears its tid before it releases its events, and leaves
 * /proc/self/task only after.  Until then its events may still run.
 */
static int tasks_of_self(void)
{
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir("/proc/self/task");
	if (!d)
		return 1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

#define HELD_CPUS	64	/* CPUs checked: the guests have a few */

/*
 * Once the run is over nothing of it is left, so every CPU's counter PMUs
 * (the CPU's own, through cycles, and test_pmu) take a CPU-wide event and
 * keep it on all the time.  A PMU still held (the claim of an exclusive
 * group that outlived the group) or counters still taken show up here,
 * as a failure of the fuzz rather than of whatever test runs next.
 * Return: how many such events did not run all the time.
 */
static int pmus_left_held(void)
{
	int types[2] = { PERF_TYPE_HARDWARE, test_pmu_type };
	int fds[2 * HELD_CPUS], cpus[2 * HELD_CPUS], tys[2 * HELD_CPUS];
	struct perf_event_attr a;
	struct perf_value v;
	int cpu, t, n = 0, bad = 0;

	for (cpu = 0; cpu < nr_cpus && cpu < HELD_CPUS; cpu++) {
		for (t = 0; t < 2; t++) {
			if (types[t] < 0)
				continue;
			perf_attr_init(&a, types[t], 0);
			a.read_format = READ_FORMAT_TIMES;
			fds[n] = sys_perf_event_open(&a, -1, cpu, -1, 0);
			cpus[n] = cpu;
			tys[n] = types[t];
			if (fds[n] >= 0)
				n++;
		}
	}
	usleep(20000);
	while (n--) {
		memset(&v, 0, sizeof(v));
		if (!perf_read_value(fds[n], &v) || !v.running ||
		    v.running != v.enabled) {
			ksft_print_msg("fuzz: PMU %d of CPU %d held: ran %llu of %llu ns\n",
				       tys[n], cpus[n],
				       (unsigned long long)v.running,
				       (unsigned long long)v.enabled);
			bad++;
		}
		close(fds[n]);
	}
	return bad;
}

/*
 * A hold that lasts is what pmus_left_held() is for: a claim or a counter
 * that outlived its event stays taken for good.  Something of the run
 * still finishing (a release in flight) lets go within moments, so the
 * check is repeated for a while and only a hold seen every time fails.
 */
#define HELD_TRIES	10

/*
 * Who holds a perf event descriptor now: every task's perf fds with the
 * fdinfo of each, so that a hold the retries see clear can still be told
 * apart: a descriptor some task (an exiting child, a thread of ours) has
 * not closed yet, or none at all and so a release in flight in the kernel.
 */
static void dump_perf_fds(void)
{
	char path[600], link[64], line[256];
	struct dirent *p, *f;
	DIR *proc, *fds;
	int found = 0;
	FILE *info;
	ssize_t len;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((f = readdir(fds))) {
			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, f->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = '\0';
			if (!strstr(link, "perf_event"))
				continue;
			found++;
			ksft_print_msg("fuzz: pid %s fd %s is a perf event\n",
				       p->d_name, f->d_name);
			snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s",
				 p->d_name, f->d_name);
			info = fopen(path, "r");
			while (info && fgets(line, sizeof(line), info))
				ksft_print_msg("fuzz:   %s", line);
			if (info)
				fclose(info);
		}
		closedir(fds);
		/* a mapping of an event holds its file as a descriptor does */
		snprintf(path, sizeof(path), "/proc/%s/maps", p->d_name);
		info = fopen(path, "r");
		while (info && fgets(line, sizeof(line), info)) {
			if (!strstr(line, "perf_event"))
				continue;
			found++;
			ksft_print_msg("fuzz: pid %s maps %s", p->d_name, line);
		}
		if (info)
			fclose(info);
	}
	closedir(proc);
	if (!found)
		ksft_print_msg("fuzz: no task holds a perf event descriptor or mapping\n");
}

/*
 * Field @n (0: the first) of the space-separated @s: its first character
 * into @c, or its value into @v.  0, or -1 when there is no such field.
 */
static int stat_field(const char *s, int n, char *c, int *v)
{
	while (*s == ' ')
		s++;
	for (; n > 0; n--) {
		s = strchr(s, ' ');
		if (!s)
			return -1;
		s++;
	}
	if (!*s)
		return -1;
	if (c)
		*c = *s;
	if (v)
		*v = atoi(s);
	return 0;
}

/*
 * The rest of what can hold a counter with no descriptor left: a task
 * (of an earlier test, say) running with inherited events, whose stat
 * line says where it runs and what it is; and what the kernel's CPU
 * contexts hold, where the kernel lists it (ours, in debugfs).
 */
static void dump_holders(void)
{
	char path[300], stat[512], *p;
	struct dirent *de;
	char state;
	int fd, n, cpu;
	FILE *f;
	DIR *d;

	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		/* after "(comm)": the state (field 3) ... the CPU (field 39) */
		p = proc_stat(de->d_name, stat, sizeof(stat));
		if (!p || stat_field(p, 0, &state, NULL) ||
		    stat_field(p, 39 - 3, NULL, &cpu))
			continue;
		/* kernel threads have no perf events of users; skip them */
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		fd = open(path, O_RDONLY);
		n = fd < 0 ? 0 : read(fd, path, 1);
		if (fd >= 0)
			close(fd);
		if (n > 0)
			ksft_print_msg("fuzz: task %.*s state %c cpu %d\n",
				       (int)(p - stat), stat, state, cpu);
	}
	if (d)
		closedir(d);
	f = fopen("/sys/kernel/debug/perf_events/cpu_contexts", "r");
	while (f && fgets(path, sizeof(path), f))
		ksft_print_msg("fuzz: ctx: %s", path);
	if (f)
		fclose(f);
}

static int pmus_still_held(void)
{
	int try, held = 0;

	for (try = 0; try < HELD_TRIES; try++) {
		held = pmus_left_held();
		if (!held)
			break;
		if (!try) {
			dump_perf_fds();
			dump_holders();
		}
		usleep(200000);
	}
	if (try)
		ksft_print_msg("fuzz: PMUs held in %d check(s) after the run%s\n",
			       try, held ? ", every time" : ", then free");
	return held;
}

static void print_stats(void)
{
	char line[2048];
	unsigned long ok = 0, fail = 0;
	int i;

	line[0] = '\0';
	for (i = 0; i < NR_OPS; i++)
		add(line, sizeof(line), " %s=%lu", op_name[i], st->ops[i]);
	ksft_print_msg("fuzz: syscalls:%s\n", line);
	line[0] = '\0';
	for (i = 0; i < NR_KINDS; i++) {
		ok += st->open_ok[i];
		fail += st->open_fail[i];
		add(line, sizeof(line), " %s=%lu/%lu", kind_name[i],
		    st->open_ok[i], st->open_fail[i]);
	}
	ksft_print_msg("fuzz: opens: %lu succeeded, %lu failed; by type (ok/failed):%s\n",
		       ok, fail, line);
	line[0] = '\0';
	for (i = 0; i <= MAX_ERRNO; i++)
		if (st->open_errno[i])
			add(line, sizeof(line), " %s=%lu", errno_name(i), st->open_errno[i]);
	ksft_print_msg("fuzz: failed opens by errno:%s\n", line[0] ? line : " none");
	line[0] = '\0';
	for (i = 1; i < NSIG; i++)
		if (st->child_signal[i])
			add(line, sizeof(line), " %s=%lu", signal_name(i), st->child_signal[i]);
	ksft_print_msg("fuzz: %lu exec'd children; killed by a signal:%s; non-zero exits: %lu\n",
		       st->exec_children, line[0] ? line : " none", st->child_exit_bad);
	ksft_print_msg("fuzz: %lu SIGTRAPs, %lu storms, %lu records, %lu hotplugs, %lu AUX maps\n",
		       st->sigtraps, st->storms, st->records, st->hotplugs,
		       st->aux_maps);
	ksft_print_msg("fuzz: %d tracepoints, %d PMUs%s%s\n", nr_tp_ids, nr_pmu_types,
		       kprobe_type >= 0 ? ", kprobe" : "",
		       test_pmu_type >= 0 ? ", test_pmu" : "");
}

/* ---- CPU hotplug, from the main thread ---- */

static bool cpu_offline[1024];

static bool set_cpu_online(int cpu, bool on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return !write_file(path, on ? "1" : "0");
}

/* Flip a random hotpluggable CPU; at most one is offline at a time. */
static void hotplug_step(struct ctx *c)
{
	int cpu, i;

	for (i = 0; i < nr_cpus && i < 1024; i++) {
		if (cpu_offline[i]) {
			if (set_cpu_online(i, true)) {
				cpu_offline[i] = false;
				count(&st->hotplugs);
			}
			return;
		}
	}
	cpu = rnd64(c) % (nr_cpus < 1024 ? nr_cpus : 1024);
	if (set_cpu_online(cpu, false)) {
		cpu_offline[cpu] = true;
		count(&st->hotplugs);
	}
}

static void hotplug_restore(void)
{
	int i;

	for (i = 0; i < nr_cpus && i < 1024; i++)
		if (cpu_offline[i] && set_cpu_online(i, true))
			cpu_offline[i] = false;
}

TEST(random_ops)
{
	struct ctx ctx[NR_WORKERS];
	pthread_t threads[NR_WORKERS];
	struct timespec deadline, grace;
	bool joined[NR_WORKERS];
	bool stuck = false, late_storm = false;
	struct ctx hp = { .rng = seed ^ 0x486f74706c7567ULL };
	const char *hp_env = getenv("PERF_FUZZ_HOTPLUG");
	bool hotplug = !hp_env || strcmp(hp_env, "0");
	int i, held = 0;

	discover();
	main_pid = getpid();
	stats_fd = memfd_create("perf-fuzz-stats", 0);
	if (stats_fd >= 0 && ftruncate(stats_fd, sizeof(*st))) {
		close(stats_fd);
		stats_fd = -1;
	}
	ASSERT_EQ(0, stats_map(stats_fd));
	for (i = 0; i < NR_SLOTS; i++) {
		pthread_mutex_init(&slots[i].lock, NULL);
		slots[i].fd = -1;
	}
	install_sigtrap();
	ksft_print_msg("fuzz: seed=%llu seconds=%d (re-run: PERF_FUZZ_SEED=%llu)\n",
		       (unsigned long long)seed, seconds, (unsigned long long)seed);
	fflush(stdout);

	end_in(&deadline, seconds * 1000L);
	for (i = 0; i < NR_WORKERS; i++) {
		ctx[i].rng = seed ^ (0x1000193ULL * (i + 1));
		rnd64(&ctx[i]);
		ctx[i].end = deadline;
		ctx[i].may_spawn = true;
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, worker, &ctx[i]));
	}
	while (!past(&deadline)) {
		struct timespec next;

		end_in(&next, HOTPLUG_MS);
		while (!past(&next) && !past(&deadline)) {
			reap_children();
			usleep(10000);
		}
		if (hotplug)
			hotplug_step(&hp);
	}
	__atomic_store_n(&st->stop, 1, __ATOMIC_RELAXED);
	hotplug_restore();

	/* everything ends within GRACE_SECONDS of the stop, or the kernel hung */
	end_in(&grace, GRACE_SECONDS * 1000L);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += GRACE_SECONDS;
	for (i = 0; i < NR_WORKERS; i++)
		joined[i] = !pthread_timedjoin_np(threads[i], NULL, &deadline);
	for (i = 0; i < NR_WORKERS && !late_storm; i++)
		late_storm = !joined[i];
	if (late_storm) {
		/*
		 * A worker still running may be in a SIGTRAP storm (see
		 * STORM_TRAPS) that began too late for the count to catch
		 * it: it moves only from one handler to the next.  With
		 * every event of the process disabled it ends at once;
		 * one that still does not is stuck in the kernel.
		 */
		disable_all_events();
		count(&st->storms);
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += GRACE_SECONDS;
		end_in(&grace, GRACE_SECONDS * 1000L);
	}
	for (i = 0; i < NR_WORKERS; i++) {
		if (joined[i])
			continue;
		if (pthread_timedjoin_np(threads[i], NULL, &deadline)) {
			ksft_print_msg("fuzz: worker %d stuck (%d s, %d s events off)\n",
				       i, GRACE_SECONDS, GRACE_SECONDS);
			stuck = true;
		} else {
			ksft_print_msg("fuzz: worker %d ended once events were off (late storm)\n",
				       i);
		}
	}
	while (!stuck && (__atomic_load_n(&live_threads, __ATOMIC_RELAXED) ||
			  __atomic_load_n(&live_children, __ATOMIC_RELAXED) ||
			  tasks_of_self() > 1)) {
		reap_children();
		if (past(&grace)) {
			ksft_print_msg("fuzz: %d threads (%d tasks), %d children left %d s later\n",
				       live_threads, tasks_of_self(),
				       live_children, GRACE_SECONDS);
			stuck = true;
			break;
		}
		usleep(10000);
	}
	if (!stuck) {
		struct ctx last = { .rng = seed };

		for (i = 0; i < NR_SLOTS; i++)
			slot_close(&last, &slots[i]);
		held = pmus_still_held();
		unload_aux_module();
	}
	if (stuck)
		dump_tasks();
	print_stats();
	if (stuck || held)
		ksft_print_msg("fuzz: FAILED: re-run: PERF_FUZZ_SEED=%llu PERF_FUZZ_SECONDS=%d\n",
			       (unsigned long long)seed, seconds);
	fflush(stdout);
	ASSERT_FALSE(stuck);
	ASSERT_EQ(0, held);
}

/*
 * The seed and the duration, before the harness starts: the harness's
 * timeout must cover the run, whatever PERF_FUZZ_SECONDS asks for.
 */
static void __attribute__((constructor)) fuzz_setup(void)
{
	const char *env = getenv("PERF_FUZZ_SEED");
	struct timespec now;

	seconds = fuzz_seconds();
	log_opens = getenv("PERF_FUZZ_LOG_OPENS");
	_random_ops_object.timeout = seconds + GRACE_SECONDS + 60;
	if (env && *env) {
		seed = strtoull(env, NULL, 0);
	} else {
		clock_gettime(CLOCK_REALTIME, &now);
		seed = (uint64_t)now.tv_sec * 1000000007ULL ^ now.tv_nsec ^ getpid();
	}
}

TEST_HARNESS_MAIN
