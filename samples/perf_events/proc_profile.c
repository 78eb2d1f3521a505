// SPDX-License-Identifier: GPL-2.0
/*
 * proc_profile: a sampling profiler for a running process, all of its
 * threads, taken two ways so that they can be compared.
 *
 *   process   one PERF_FLAG_PID_PROCESS event (an extension of this
 *             kernel: Documentation/perf_events/extensions.rst).  One
 *             descriptor and one ring buffer serve every thread the
 *             process has when the profile starts and every thread it
 *             creates afterwards.
 *   upstream  what "perf record -p" does on any kernel: the threads listed
 *             in /proc/PID/task at the start, one event per thread per
 *             online CPU, the events of one CPU writing to one buffer
 *             (PERF_EVENT_IOC_SET_OUTPUT).  A thread created later is not
 *             followed.
 *
 * Both sample task-clock in user mode at -F Hz (IP, TID, TIME); with
 * "-m both" they run side by side over the same time.  IPs are named from
 * the ELF .symtab of /proc/PID/exe (a PIE is placed by /proc/PID/maps).
 * For each thread the five functions with the most samples are printed,
 * then for each mode what it cost (descriptors, mapped pages) and what it
 * lost.
 *
 * Usage: proc_profile [-s seconds] [-F freq] [-m upstream|process|both] PID
 *        proc_profile --self-test
 *
 * --self-test forks a workload of four threads, each in its own function
 * spin_a() to spin_d(), profiles it with "-m both" for a second, and has it
 * start a fifth thread, in spin_e(), once the profile runs.  It prints TAP
 * and exits 0 if every check passes: each thread's top function is its own
 * in both modes, and the late thread is profiled by the process-wide event
 * and missed by the upstream way.  On a kernel without process-wide events
 * (KPERF_VARIANT=ref, or the open says EINVAL) it checks that the open is
 * refused with EINVAL and profiles the upstream way only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/elf.h>
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* this kernel's extensions, for headers that lack them */
#ifndef PERF_FLAG_PID_PROCESS
#define PERF_FLAG_PID_PROCESS	0x10UL
#endif
#ifndef PERF_FLAG_SHARED_BUFFER
#define PERF_FLAG_SHARED_BUFFER	0x20UL
#endif
#ifndef PERF_FORMAT_LOSSES
#define PERF_FORMAT_LOSSES	0x20U		/* 1U << 5 */
#endif

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC		10	/* a function that returns a function */
#endif

#define DATA_PAGES	64	/* data pages of each ring buffer */
#define TOP		5	/* functions printed per thread */

static long page_size;

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, -1,
		       flags | PERF_FLAG_FD_CLOEXEC);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- symbols: the functions of /proc/PID/exe ---- */

struct sym {
	__u64 start;
	__u64 end;
	const char *name;
};

static struct {
	struct sym *sym;
	size_t nr;
	char *names;	/* a copy of the string table */
	__u64 bias;	/* where a PIE was loaded: run-time minus link address */
} symtab;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The load bias of a PIE: the mapping of @ino at file offset 0 holds the
 * segment linked at @vaddr (rounded down to its page).
 */
static __u64 pie_bias(pid_t pid, ino_t ino, __u64 vaddr)
{
	char path[64], line[512];
	unsigned long long start, off, inode;
	__u64 bias = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%*x %*s %llx %*s %llu", &start, &off,
			   &inode) != 3)
			continue;
		if (inode == ino && off == 0) {
			bias = start - (vaddr & ~(__u64)(page_size - 1));
			break;
		}
	}
	fclose(f);
	return bias;
}

/* the STT_FUNC symbols of a 64-bit ELF file's .symtab (else .dynsym) */
static int load_symbols(pid_t pid)
{
	const struct elf64_shdr *sh, *tab = NULL, *str;
	const struct elf64_hdr *eh;
	const struct elf64_sym *es;
	char path[64];
	struct stat st;
	size_t i, n;
	char *map;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return -ENOEXEC;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	eh = (const struct elf64_hdr *)map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff + (__u64)eh->e_shnum * sizeof(*sh) > (__u64)st.st_size)
		goto bad;
	sh = (const struct elf64_shdr *)(map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_SYMTAB)
			tab = &sh[i];
		else if (sh[i].sh_type == SHT_DYNSYM && !tab)
			tab = &sh[i];
	}
	if (!tab || tab->sh_link >= eh->e_shnum)
		goto bad;
	str = &sh[tab->sh_link];
	if (tab->sh_offset + tab->sh_size > (__u64)st.st_size ||
	    str->sh_offset + str->sh_size > (__u64)st.st_size)
		goto bad;

	symtab.names = malloc(str->sh_size + 1);
	n = tab->sh_size / sizeof(*es);
	symtab.sym = calloc(n + 1, sizeof(*symtab.sym));
	if (!symtab.names || !symtab.sym)
		goto bad;
	memcpy(symtab.names, map + str->sh_offset, str->sh_size);
	symtab.names[str->sh_size] = '\0';
	es = (const struct elf64_sym *)(map + tab->sh_offset);
	for (i = 0; i < n; i++) {
		int type = ELF64_ST_TYPE(es[i].st_info);

		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    es[i].st_shndx == SHN_UNDEF || !es[i].st_value ||
		    es[i].st_name >= str->sh_size)
			continue;
		symtab.sym[symtab.nr].start = es[i].st_value;
		symtab.sym[symtab.nr].end = es[i].st_value + es[i].st_size;
		symtab.sym[symtab.nr].name = symtab.names + es[i].st_name;
		symtab.nr++;
	}
	qsort(symtab.sym, symtab.nr, sizeof(*symtab.sym), sym_cmp);
	/* a symbol without a size reaches the next one */
	for (i = 0; i < symtab.nr; i++)
		if (symtab.sym[i].end == symtab.sym[i].start)
			symtab.sym[i].end = i + 1 < symtab.nr ?
				symtab.sym[i + 1].start : symtab.sym[i].start + 1;

	if (eh->e_type == ET_DYN && eh->e_phoff +
	    (__u64)eh->e_phnum * sizeof(struct elf64_phdr) <= (__u64)st.st_size) {
		const struct elf64_phdr *ph = (const struct elf64_phdr *)(map + eh->e_phoff);

		for (i = 0; i < eh->e_phnum; i++) {
			if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
				symtab.bias = pie_bias(pid, st.st_ino, ph[i].p_vaddr);
				break;
			}
		}
	}
	munmap(map, st.st_size);
	return 0;
bad:
	munmap(map, st.st_size);
	return -ENOEXEC;
}

/* the function @ip is in, or NULL */
static const struct sym *sym_find(__u64 ip)
{
	__u64 addr = ip - symtab.bias;
	size_t lo = 0, hi = symtab.nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (symtab.sym[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= symtab.sym[lo - 1].end)
		return NULL;
	return &symtab.sym[lo - 1];
}

/* ---- samples per thread and function ---- */

struct hit {
	pid_t tid;		/* 0: a free slot */
	const struct sym *sym;	/* NULL: not in a known function ... */
	__u64 ip;		/* ... then counted by address */
	__u64 count;
};

struct hist {
	struct hit *slot;
	size_t size;		/* a power of two */
	size_t used;
};

static size_t hit_hash(pid_t tid, const struct sym *sym, __u64 ip, size_t mask)
{
	__u64 key = (sym ? (uintptr_t)sym : ip) ^ ((__u64)tid << 40);

	return (key * 0x9e3779b97f4a7c15ULL >> 20) & mask;
}

static struct hit *hist_slot(struct hist *h, pid_t tid, const struct sym *sym,
			     __u64 ip)
{
	size_t i = hit_hash(tid, sym, ip, h->size - 1);

	while (h->slot[i].tid && (h->slot[i].tid != tid ||
				  h->slot[i].sym != sym || h->slot[i].ip != ip))
		i = (i + 1) & (h->size - 1);
	return &h->slot[i];
}

static void hist_add(struct hist *h, pid_t tid, __u64 ip)
{
	const struct sym *sym = sym_find(ip);
	struct hit *hit;
	size_t i;

	if (sym)
		ip = 0;
	if ((h->used + 1) * 2 > h->size) {
		struct hist old = *h;

		h->size = old.size ? old.size * 2 : 1024;
		h->slot = calloc(h->size, sizeof(*h->slot));
		if (!h->slot) {
			*h = old;
			return;
		}
		for (i = 0; i < old.size; i++)
			if (old.slot[i].tid)
				*hist_slot(h, old.slot[i].tid, old.slot[i].sym,
					   old.slot[i].ip) = old.slot[i];
		free(old.slot);
	}
	hit = hist_slot(h, tid, sym, ip);
	if (!hit->tid) {
		hit->tid = tid;
		hit->sym = sym;
		hit->ip = ip;
		h->used++;
	}
	hit->count++;
}

/* the hits of @h, by thread and then by count, most first */
static int hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static struct hit *hist_sorted(const struct hist *h, size_t *nr)
{
	struct hit *v = calloc(h->used + 1, sizeof(*v));
	size_t i;

	*nr = 0;
	if (!v)
		return NULL;
	for (i = 0; i < h->size; i++)
		if (h->slot[i].tid)
			v[(*nr)++] = h->slot[i];
	qsort(v, *nr, sizeof(*v), hit_cmp);
	return v;
}

/* @tid's samples in @h, and its function with the most of them */
static __u64 hist_top(const struct hist *h, pid_t tid, const struct hit **top)
{
	__u64 total = 0;
	size_t i;

	*top = NULL;
	for (i = 0; i < h->size; i++) {
		if (h->slot[i].tid != tid)
			continue;
		total += h->slot[i].count;
		if (!*top || h->slot[i].count > (*top)->count)
			*top = &h->slot[i];
	}
	return total;
}

/* ---- the two ways of profiling ---- */

struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	char *data;
	__u64 size;
	size_t len;		/* of the mapping */
	bool hup;
};

struct mode {
	const char *name;
	bool on;		/* asked for */
	bool open;		/* opened, mapped and enabled */
	int err;		/* errno of what failed */
	const char *what;	/* and what failed */
	int *fd;
	int nr_fd;
	struct ring *ring;
	int nr_ring;
	pid_t *tid;		/* upstream: the threads at the start */
	int nr_tid;
	int *cpu;		/* upstream: the online CPUs */
	int nr_cpu;
	struct hist hist;
	__u64 samples;
	__u64 lost;		/* PERF_RECORD_LOST */
	__u64 throttles;	/* PERF_RECORD_THROTTLE */
	__u64 foreign;		/* samples of another process */
	__u64 torn;		/* records with an impossible header */
	bool read_ok;		/* process: read() */
	bool have_losses;
	__u64 value[5];		/* count, lost, lost, throttled, unscheduled */
	__u64 clock;		/* task-clock ns, all events */
	double enabled;		/* seconds from the first enable to the last disable */
};

static struct mode process = { .name = "process" };
static struct mode upstream = { .name = "upstream" };

struct sample {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
	__u64 time;
};

struct lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

static void sample_attr(struct perf_event_attr *attr, int freq)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->freq = 1;
	attr->sample_freq = freq;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->watermark = 1;
	attr->wakeup_watermark = DATA_PAGES * page_size / 4;
}

static int ring_map(struct mode *m, int fd)
{
	struct ring *r = &m->ring[m->nr_ring];
	void *p;

	r->len = (DATA_PAGES + 1) * page_size;
	p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->fd = fd;
	r->pg = p;
	r->data = (char *)p + page_size;
	r->size = DATA_PAGES * page_size;
	if (r->pg->data_size) {
		r->data = (char *)p + r->pg->data_offset;
		r->size = r->pg->data_size;
	}
	m->nr_ring++;
	return 0;
}

static bool fail(struct mode *m, const char *what)
{
	m->err = errno;
	m->what = what;
	return false;
}

/*
 * One PERF_FLAG_PID_PROCESS event for every thread of @pid, mapped: the
 * flag implies PERF_FLAG_SHARED_BUFFER, so the cpu -1 event has a buffer
 * that the copies in every thread write to.
 */
static bool process_open(struct mode *m, pid_t pid, int freq)
{
	struct perf_event_attr attr;
	int fd;

	m->fd = calloc(1, sizeof(*m->fd));
	m->ring = calloc(1, sizeof(*m->ring));
	if (!m->fd || !m->ring)
		return fail(m, "calloc");
	sample_attr(&attr, freq);
	attr.read_format = PERF_FORMAT_LOST | PERF_FORMAT_LOSSES;
	fd = perf_open(&attr, pid, -1, PERF_FLAG_PID_PROCESS);
	m->have_losses = fd >= 0;
	if (fd < 0 && errno == EINVAL) {
		/* the flag without the read format, if a kernel had that */
		attr.read_format = PERF_FORMAT_LOST;
		fd = perf_open(&attr, pid, -1, PERF_FLAG_PID_PROCESS);
	}
	if (fd < 0)
		return fail(m, "perf_event_open(PERF_FLAG_PID_PROCESS)");
	m->fd[m->nr_fd++] = fd;
	if (ring_map(m, fd))
		return fail(m, "mmap");
	return true;
}

static int tid_cmp(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

/* the threads of @pid now, sorted; their number, or -1 */
static int list_threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *de;
	int nr = 0, max = 0;
	pid_t *v = NULL, *nv;
	DIR *d;

	*tids = NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (nr == max) {
			max = max ? 2 * max : 16;
			nv = realloc(v, max * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[nr++] = atoi(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), tid_cmp);
	*tids = v;
	return nr;
}

/* the online CPUs, from /sys/devices/system/cpu/online ("0-3,6") */
static int online_cpus(int **cpus)
{
	int a, b, n, nr = 0, max = 0, *v = NULL, *nv;
	char buf[4096], *p = buf;
	FILE *f;

	f = fopen("/sys/devices/system/cpu/online", "r");
	*cpus = NULL;
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	while (sscanf(p, "%d%n", &a, &n) == 1) {
		p += n;
		b = a;
		if (*p == '-' && sscanf(p + 1, "%d%n", &b, &n) == 1)
			p += n + 1;
		for (; a <= b; a++) {
			if (nr == max) {
				max = max ? 2 * max : 64;
				nv = realloc(v, max * sizeof(*v));
				if (!nv)
					return -1;
				v = nv;
			}
			v[nr++] = a;
		}
		if (*p != ',')
			break;
		p++;
	}
	*cpus = v;
	return nr;
}

/*
 * The upstream way, as perf record -p: the threads there now, one event
 * per thread per CPU, and per CPU one buffer that the first thread's event
 * maps and the others' events write to (PERF_EVENT_IOC_SET_OUTPUT).
 */
static bool upstream_open(struct mode *m, pid_t pid, int freq)
{
	struct perf_event_attr attr;
	int c, t, fd, owner;

	m->nr_cpu = online_cpus(&m->cpu);
	if (m->nr_cpu <= 0)
		return fail(m, "/sys/devices/system/cpu/online");
	m->nr_tid = list_threads(pid, &m->tid);
	if (m->nr_tid <= 0)
		return fail(m, "/proc/PID/task");
	m->fd = calloc((size_t)m->nr_tid * m->nr_cpu, sizeof(*m->fd));
	m->ring = calloc(m->nr_cpu, sizeof(*m->ring));
	if (!m->fd || !m->ring)
		return fail(m, "calloc");
	sample_attr(&attr, freq);
	for (c = 0; c < m->nr_cpu; c++) {
		owner = -1;
		for (t = 0; t < m->nr_tid; t++) {
			fd = perf_open(&attr, m->tid[t], m->cpu[c], 0);
			if (fd < 0 && errno == ESRCH)
				continue;	/* gone since the listing */
			if (fd < 0)
				return fail(m, "perf_event_open");
			m->fd[m->nr_fd++] = fd;
			if (owner < 0) {
				if (ring_map(m, fd))
					return fail(m, "mmap");
				owner = fd;
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, owner)) {
				return fail(m, "PERF_EVENT_IOC_SET_OUTPUT");
			}
		}
	}
	return true;
}

static void record(struct mode *m, pid_t pid, const struct perf_event_header *h)
{
	const struct sample *s = (const void *)h;
	const struct lost *l = (const void *)h;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size != sizeof(*s)) {
			m->torn++;
			break;
		}
		m->samples++;
		if ((pid_t)s->pid != pid || !s->tid)
			m->foreign++;
		else
			hist_add(&m->hist, s->tid, s->ip);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*l))
			m->lost += l->lost;
		break;
	case PERF_RECORD_THROTTLE:
		m->throttles++;
		break;
	}
}

/* everything between data_tail and data_head, then give the space back */
static void ring_drain(struct mode *m, pid_t pid, struct ring *r)
{
	__u64 head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->pg->data_tail;
	__u64 copy[64];

	while (head - tail >= sizeof(struct perf_event_header)) {
		__u64 off = tail & (r->size - 1);
		const struct perf_event_header *h = (const void *)(r->data + off);
		__u64 first = r->size - off;

		if (h->size < sizeof(*h) || h->size > head - tail) {
			/* not a record: nothing after it can be trusted */
			m->torn++;
			tail = head;
			break;
		}
		if (h->size > first) {
			/* it wraps: make it whole */
			if (h->size > sizeof(copy)) {
				tail += h->size;
				continue;
			}
			memcpy(copy, r->data + off, first);
			memcpy((char *)copy + first, r->data, h->size - first);
			h = (const void *)copy;
		}
		tail += h->size;
		record(m, pid, h);
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* ENABLE or DISABLE every event of @m, and time how long they were on */
static void mode_ioctl(struct mode *m, unsigned long req)
{
	int i;

	if (!m->open)
		return;
	if (req == PERF_EVENT_IOC_ENABLE)
		m->enabled = -now_s();
	for (i = 0; i < m->nr_fd; i++)
		ioctl(m->fd[i], req, 0);
	if (req == PERF_EVENT_IOC_DISABLE)
		m->enabled += now_s();
}

static void mode_drain(struct mode *m, pid_t pid)
{
	int i;

	for (i = 0; m->open && i < m->nr_ring; i++)
		ring_drain(m, pid, &m->ring[i]);
}

static void mode_close(struct mode *m)
{
	int i;

	for (i = 0; i < m->nr_ring; i++)
		munmap(m->ring[i].pg, m->ring[i].len);
	for (i = 0; i < m->nr_fd; i++)
		close(m->fd[i]);
	free(m->cpu);
	m->cpu = NULL;
	m->nr_ring = 0;
	m->nr_fd = 0;
	m->open = false;
}

/* is @pid gone (or a zombie)? */
static bool proc_gone(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}

static int interrupted;

static void on_sigint(int sig)
{
	__atomic_store_n(&interrupted, 1, __ATOMIC_RELAXED);
}

/*
 * Profile @pid for @seconds with the modes that are on: open them, enable
 * them together, call @started, then drain their buffers until the time
 * is up, the process is gone or SIGINT.
 */
static void profile(pid_t pid, int freq, double seconds,
		    void (*started)(void *), void *arg)
{
	struct mode *modes[] = { &process, &upstream };
	struct ring **ring;
	struct pollfd *pfd;
	int i, j, n, nr = 0;
	double end, left;

	if (process.on) {
		process.open = process_open(&process, pid, freq);
		if (!process.open)
			mode_close(&process);
	}
	if (upstream.on) {
		upstream.open = upstream_open(&upstream, pid, freq);
		if (!upstream.open)
			mode_close(&upstream);
	}
	n = process.nr_ring + upstream.nr_ring + 1;
	pfd = calloc(n, sizeof(*pfd));
	ring = calloc(n, sizeof(*ring));
	if (!pfd || !ring)
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < modes[i]->nr_ring; j++)
			ring[nr++] = &modes[i]->ring[j];

	for (i = 0; i < 2; i++)
		mode_ioctl(modes[i], PERF_EVENT_IOC_ENABLE);
	if (started)
		started(arg);
	end = now_s() + seconds;
	while (nr && !__atomic_load_n(&interrupted, __ATOMIC_RELAXED)) {
		left = end - now_s();
		if (left <= 0)
			break;
		/* a buffer whose event has gone (POLLHUP) is drained, not polled */
		for (i = 0; i < nr; i++) {
			pfd[i].fd = ring[i]->hup ? -1 : ring[i]->fd;
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, nr, left > 0.1 ? 100 : (int)(left * 1000) + 1) > 0)
			for (i = 0; i < nr; i++)
				if (pfd[i].revents & POLLHUP)
					ring[i]->hup = true;
		for (i = 0; i < 2; i++)
			mode_drain(modes[i], pid);
		if (proc_gone(pid))
			break;
	}
	for (i = 0; i < 2; i++)
		mode_ioctl(modes[i], PERF_EVENT_IOC_DISABLE);
	for (i = 0; i < 2; i++)
		mode_drain(modes[i], pid);
	if (process.open) {
		ssize_t want = (process.have_losses ? 5 : 2) * sizeof(__u64);

		process.read_ok = read(process.fd[0], process.value,
				       sizeof(process.value)) == want;
		process.clock = process.value[0];
	}
	for (i = 0; upstream.open && i < upstream.nr_fd; i++) {
		__u64 v;

		if (read(upstream.fd[i], &v, sizeof(v)) == sizeof(v))
			upstream.clock += v;
	}
	free(pfd);
	free(ring);
}

/* ---- the report ---- */

static void thread_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(buf, len, "exited");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void hit_name(const struct hit *h, char *buf, size_t len)
{
	if (h->sym)
		snprintf(buf, len, "%s", h->sym->name);
	else
		snprintf(buf, len, "%#llx", h->ip);
}

static bool has_tid(const pid_t *v, int nr, pid_t tid)
{
	return nr > 0 && bsearch(&tid, v, nr, sizeof(*v), tid_cmp);
}

/*
 * Threads the upstream way did not follow: those of the process now, and
 * those the process-wide event sampled, that were not there at the start.
 */
static int upstream_missed(pid_t pid, pid_t **missed)
{
	pid_t *now, *v;
	int nr_now, nr = 0, i;
	size_t j;

	*missed = NULL;
	nr_now = list_threads(pid, &now);
	if (nr_now < 0)
		nr_now = 0;
	v = calloc(nr_now + process.hist.used + 1, sizeof(*v));
	if (!v)
		return 0;
	for (i = 0; i < nr_now; i++)
		if (!has_tid(upstream.tid, upstream.nr_tid, now[i]))
			v[nr++] = now[i];
	for (j = 0; j < process.hist.size; j++) {
		pid_t tid = process.hist.slot[j].tid;

		if (tid && !has_tid(upstream.tid, upstream.nr_tid, tid)) {
			for (i = 0; i < nr && v[i] != tid; i++)
				;
			if (i == nr)
				v[nr++] = tid;
		}
	}
	qsort(v, nr, sizeof(*v), tid_cmp);
	free(now);
	*missed = v;
	return nr;
}

static void report(struct mode *m, pid_t pid, const char *pfx)
{
	char comm[32], name[256];
	struct hit *v;
	size_t i, nr, k;

	if (!m->on)
		return;
	if (m == &process)
		printf("%s== process mode: one PERF_FLAG_PID_PROCESS event for every thread\n",
		       pfx);
	else
		printf("%s== upstream mode: one event per thread per CPU, as perf record -p\n",
		       pfx);
	if (!m->open) {
		if (m == &process && m->err == EINVAL)
			printf("%sprocess: not profiled: %s\n", pfx,
			       "PERF_FLAG_PID_PROCESS refused (EINVAL): no process-wide events here (an upstream kernel)");
		else
			printf("%s%s: not profiled: %s: %s\n", pfx, m->name,
			       m->what, strerror(m->err));
		return;
	}
	v = hist_sorted(&m->hist, &nr);
	for (i = 0; v && i < nr; i = k) {
		__u64 total = 0;

		for (k = i; k < nr && v[k].tid == v[i].tid; k++)
			total += v[k].count;
		thread_comm(pid, v[i].tid, comm, sizeof(comm));
		printf("%s  tid %d (%s): %llu samples\n", pfx, v[i].tid, comm,
		       total);
		for (k = i; k < nr && v[k].tid == v[i].tid; k++) {
			if (k - i >= TOP)
				continue;
			hit_name(&v[k], name, sizeof(name));
			printf("%s    %8llu  %5.1f%%  %s\n", pfx, v[k].count,
			       100.0 * v[k].count / total, name);
		}
	}
	free(v);

	if (m == &process) {
		printf("%sprocess: 1 descriptor, 1 buffer (%d pages), ", pfx,
		       DATA_PAGES + 1);
		printf("on %.0f ms, task-clock %llu ms, %llu samples, lost %llu (PERF_RECORD_LOST)",
		       m->enabled * 1000, m->clock / 1000000, m->samples, m->lost);
		if (m->read_ok && m->have_losses)
			printf("; read(): lost %llu, throttled %llu, unscheduled %llu ns\n",
			       m->value[2], m->value[3], m->value[4]);
		else if (m->read_ok)
			printf("; read(): lost %llu (no PERF_FORMAT_LOSSES)\n",
			       m->value[1]);
		else
			printf("; read() failed\n");
	} else {
		pid_t *missed;
		int nr_missed = upstream_missed(pid, &missed), j;

		printf("%supstream: %d descriptors (%d threads x %d CPUs), ",
		       pfx, m->nr_fd, m->nr_tid, m->nr_cpu);
		printf("%d buffers (%d pages), on %.0f ms, task-clock %llu ms, %llu samples, ",
		       m->nr_ring, m->nr_ring * (DATA_PAGES + 1),
		       m->enabled * 1000, m->clock / 1000000, m->samples);
		printf("lost %llu (PERF_RECORD_LOST)\n", m->lost);
		printf("%supstream: threads created during the profile are missed this way: %d",
		       pfx, nr_missed);
		for (j = 0; j < nr_missed; j++) {
			thread_comm(pid, missed[j], comm, sizeof(comm));
			printf("%s tid %d (%s)", j ? "," : ":", missed[j], comm);
		}
		printf("\n");
		free(missed);
	}
	if (m->throttles)
		printf("%s%s: throttled %llu times\n", pfx, m->name,
		       m->throttles);
	if (m->foreign || m->torn)
		printf("%s%s: %llu samples of another process, %llu records not whole\n",
		       pfx, m->name, m->foreign, m->torn);
}

/* ---- the self-test ---- */

/*
 * Each thread of the workload spins in a function of its own.  noipa: no
 * inlining, cloning or merging of these near-identical functions, so each
 * stays a symbol of its own.
 */
static unsigned long spin_sink;

static __attribute__((noipa)) void spin_a(void)
{
	unsigned long x = 1;

	for (;;) {
		x = x * 6364136223846793005UL + 1;
		__atomic_store_n(&spin_sink, x, __ATOMIC_RELAXED);
	}
}

static __attribute__((noipa)) void spin_b(void)
{
	unsigned long x = 2;

	for (;;) {
		x = x * 2862933555777941757UL + 3;
		__atomic_store_n(&spin_sink, x, __ATOMIC_RELAXED);
	}
}

static __attribute__((noipa)) void spin_c(void)
{
	unsigned long x = 3;

	for (;;) {
		x = x * 3202034522624059733UL + 5;
		__atomic_store_n(&spin_sink, x, __ATOMIC_RELAXED);
	}
}

static __attribute__((noipa)) void spin_d(void)
{
	unsigned long x = 4;

	for (;;) {
		x = x * 3935559000370003845UL + 7;
		__atomic_store_n(&spin_sink, x, __ATOMIC_RELAXED);
	}
}

static __attribute__((noipa)) void spin_e(void)
{
	unsigned long x = 5;

	for (;;) {
		x = x * 2685821657736338717UL + 11;
		__atomic_store_n(&spin_sink, x, __ATOMIC_RELAXED);
	}
}

static const struct {
	const char *name;
	void (*fn)(void);
} spins[] = {
	{ "spin_a", spin_a }, { "spin_b", spin_b }, { "spin_c", spin_c },
	{ "spin_d", spin_d }, { "spin_e", spin_e },
};

#define EARLY	4		/* threads there before the profile */
#define LATE	EARLY		/* spins[] index of the one started during it */
#define NR_SPIN	(EARLY + 1)

struct born {
	pid_t tid;
	int idx;
};

static int born_pipe[2], go_pipe[2];

static void *spinner(void *arg)
{
	struct born b = { gettid(), (int)(long)arg };

	prctl(PR_SET_NAME, spins[b.idx].name);
	if (write(born_pipe[1], &b, sizeof(b)) != sizeof(b))
		return NULL;
	spins[b.idx].fn();
	return NULL;
}

/* the child: EARLY spinners now, the late one when told */
static void workload(void)
{
	pthread_t t;
	long i;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "workload");
	for (i = 0; i < EARLY; i++)
		if (pthread_create(&t, NULL, spinner, (void *)i))
			_exit(1);
	if (read(go_pipe[0], &c, 1) == 1 &&
	    pthread_create(&t, NULL, spinner, (void *)(long)LATE))
		_exit(1);
	for (;;)
		pause();
}

static void start_late_thread(void *arg)
{
	if (write(go_pipe[1], "x", 1) != 1)
		perror("go pipe");
}

/* read a born record, waiting at most @ms */
static bool read_born(struct born *b, int ms)
{
	struct pollfd p = { .fd = born_pipe[0], .events = POLLIN };

	return poll(&p, 1, ms) == 1 &&
		read(born_pipe[0], b, sizeof(*b)) == sizeof(*b) &&
		b->idx >= 0 && b->idx < NR_SPIN;
}

static int tests;
static bool all_ok = true;

/* a TAP line: @name is the test's id, what follows '#' says more */
static void tap(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - %s # ", ok ? "" : "not ", ++tests, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	all_ok &= ok;
}

static bool ours;

/* does poll() on @r's descriptor say POLLHUP within @ms? */
static bool hup_within(struct ring *r, int ms)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	double end = now_s() + ms / 1000.0;

	do {
		if (poll(&p, 1, 100) > 0) {
			if (p.revents & POLLHUP)
				return true;
			usleep(10000);
		}
	} while (now_s() < end);
	return false;
}

/*
 * A check of the process-wide event.  On an upstream kernel each asserts
 * instead that the open was refused with EINVAL.
 */
static void process_tap(bool ok, const char *name, const char *detail)
{
	if (!ours) {
		ok = !process.open && process.err == EINVAL;
		detail = ok ? "process-wide open refused with EINVAL (upstream kernel)" :
			"process-wide open not refused with EINVAL on an upstream kernel";
	}
	tap(ok, name, "%s", detail);
}

/* in @m, is the top function of thread @tid spins[@idx]'s? */
static bool top_is(struct mode *m, pid_t tid, int idx, char *detail, size_t len)
{
	const struct hit *top;
	char name[128];
	__u64 total = tid ? hist_top(&m->hist, tid, &top) : 0;

	if (!total) {
		snprintf(detail, len, "no samples of tid %d", tid);
		return false;
	}
	hit_name(top, name, sizeof(name));
	snprintf(detail, len, "%s: %llu of %llu samples of tid %d", name,
		 top->count, total, tid);
	return top->sym && !strcmp(top->sym->name, spins[idx].name);
}

static int self_test(void)
{
	const char *variant = getenv("KPERF_VARIANT");
	pid_t tid[NR_SPIN] = { 0 }, child;
	char name[64], detail[512];
	const struct hit *top;
	struct born b;
	int i, nr = 0, upstream_hup;
	bool ok, process_hup;
	__u64 late;

	if (pipe2(born_pipe, O_CLOEXEC) || pipe2(go_pipe, O_CLOEXEC)) {
		perror("pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (!child)
		workload();
	while (nr < EARLY && read_born(&b, 10000)) {
		tid[b.idx] = b.tid;
		nr++;
	}
	if (nr < EARLY) {
		printf("1..1\nnot ok 1 - workload # %d of its %d threads started\n",
		       nr, EARLY);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 1;
	}
	if (load_symbols(child))
		printf("# cannot read the symbols of /proc/%d/exe\n", child);

	/* both ways at once, the late thread started once they run */
	process.on = true;
	upstream.on = true;
	profile(child, 1000, 1.0, start_late_thread, NULL);
	if (read_born(&b, 5000))
		tid[b.idx] = b.tid;
	/* ours, unless the rig says otherwise or the kernel refuses the flag */
	if (variant)
		ours = !strcmp(variant, "ours");
	else
		ours = process.open || process.err != EINVAL;

	printf("# workload pid %d:", child);
	for (i = 0; i < NR_SPIN; i++)
		printf(" %s tid %d%s", spins[i].name, tid[i],
		       i == LATE ? " (started after the profile)" : "");
	printf("\n");
	report(&process, child, "# ");
	report(&upstream, child, "# ");

	/* the workload ends: every buffer's event should say POLLHUP */
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	process_hup = process.open && hup_within(&process.ring[0], 2000);
	for (i = 0, upstream_hup = 0; upstream.open && i < upstream.nr_ring; i++)
		upstream_hup += hup_within(&upstream.ring[i], 2000);

	printf("1..%d\n", 2 * (EARLY + 4) + 1);
	if (process.open)
		snprintf(detail, sizeof(detail), "1 descriptor, 1 buffer");
	else
		snprintf(detail, sizeof(detail), "%s: %s", process.what,
			 strerror(process.err));
	process_tap(process.open, "process.open", detail);
	for (i = 0; i < EARLY; i++) {
		snprintf(name, sizeof(name), "process.top_%s", spins[i].name);
		ok = top_is(&process, tid[i], i, detail, sizeof(detail));
		process_tap(ok, name, detail);
	}
	/* the late thread is followed: its own function under its own tid */
	ok = top_is(&process, tid[LATE], LATE, detail, sizeof(detail));
	process_tap(ok, "process.late_thread_profiled", detail);
	snprintf(detail, sizeof(detail), "lost %llu, throttled %llu, unscheduled %llu ns",
		 process.value[2], process.value[3], process.value[4]);
	process_tap(process.read_ok && process.have_losses,
		    "process.read_losses", detail);
	snprintf(detail, sizeof(detail), "%llu samples, %llu of another process, %llu torn",
		 process.samples, process.foreign, process.torn);
	process_tap(process.open && !process.foreign && !process.torn,
		    "process.records_whole", detail);
	process_tap(process_hup, "process.hup_on_exit",
		    process_hup ? "POLLHUP once the workload is gone" :
		    "no POLLHUP 2 s after the workload is gone");

	if (upstream.open)
		snprintf(detail, sizeof(detail), "%d descriptors, %d buffers",
			 upstream.nr_fd, upstream.nr_ring);
	else
		snprintf(detail, sizeof(detail), "%s: %s", upstream.what,
			 strerror(upstream.err));
	tap(upstream.open, "upstream.open", "%s", detail);
	for (i = 0; i < EARLY; i++) {
		snprintf(name, sizeof(name), "upstream.top_%s", spins[i].name);
		ok = top_is(&upstream, tid[i], i, detail, sizeof(detail));
		tap(ok && upstream.open, name, "%s", detail);
	}
	/* the late thread is not: it was not in /proc/PID/task at the start */
	late = tid[LATE] ? hist_top(&upstream.hist, tid[LATE], &top) : 0;
	tap(upstream.open && tid[LATE] && !late &&
	    !has_tid(upstream.tid, upstream.nr_tid, tid[LATE]),
	    "upstream.late_thread_missed", "tid %d: %llu samples", tid[LATE], late);
	tap(upstream.open && !upstream.foreign && !upstream.torn,
	    "upstream.records_whole", "%llu samples, %llu of another process, %llu torn",
	    upstream.samples, upstream.foreign, upstream.torn);
	tap(upstream.open && upstream_hup == upstream.nr_ring, "upstream.hup_on_exit",
	    "POLLHUP on %d of %d buffers once the workload is gone", upstream_hup,
	    upstream.nr_ring);

	mode_close(&process);
	mode_close(&upstream);
	return all_ok ? 0 : 1;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s seconds] [-F freq] [-m upstream|process|both] PID\n"
		"       %s --self-test\n", prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = "both";
	double seconds = 5;
	int freq = 1000, opt;
	struct sigaction sa;
	pid_t pid;

	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--self-test"))
		return self_test();
	while ((opt = getopt(argc, argv, "s:F:m:")) != -1) {
		switch (opt) {
		case 's':
			seconds = atof(optarg);
			break;
		case 'F':
			freq = atoi(optarg);
			break;
		case 'm':
			mode = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc - 1 || seconds <= 0 || freq <= 0)
		print_usage(argv[0]);
	pid = atoi(argv[optind]);
	if (pid <= 0)
		print_usage(argv[0]);
	process.on = !strcmp(mode, "process") || !strcmp(mode, "both");
	upstream.on = !strcmp(mode, "upstream") || !strcmp(mode, "both");
	if (!process.on && !upstream.on)
		print_usage(argv[0]);

	if (load_symbols(pid))
		fprintf(stderr, "%s: no symbols for /proc/%d/exe: addresses only\n",
			argv[0], pid);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	printf("profiling pid %d for %g s at %d Hz (task-clock, user mode)\n",
	       pid, seconds, freq);
	profile(pid, freq, seconds, NULL, NULL);
	report(&process, pid, "");
	report(&upstream, pid, "");
	mode_close(&process);
	mode_close(&upstream);
	if (upstream.on && !upstream.open)
		return 1;
	/* with -m both, a kernel without process-wide events is no failure */
	return process.on && !process.open &&
		!(upstream.open && process.err == EINVAL);
}
