// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what the kernel writes into an event's ring buffer
 * about tasks and address spaces (MMAP, MMAP2, COMM, FORK, EXIT, SWITCH,
 * SWITCH_CPU_WIDE, NAMESPACES), checked field by field against what the
 * test itself did.
 *
 * Every event is a software dummy event: it never counts, it only carries
 * the records its attr asks for.  sample_id_all is off unless a test is
 * about the trailer, so record sizes are exact.  The guest kernels have no
 * BPF syscall and no cgroups, so KSYMBOL, BPF_EVENT and CGROUP records are
 * not tested here.
 *
 * An inherited event cannot be mmapped when it follows its task on every
 * CPU (cpu == -1), so the inherit tests pin themselves, and the children
 * they fork, to CPU 0 and open the event there.
 */
#define _GNU_SOURCE
#include <linux/elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_test.h"

#define SB_DATA_PAGES	16
#define SB_MAX		(64 * 1024)
#define SB_EXEC_ENV	"SIDEBAND_EXEC_CHILD"
#define SB_NT_GNU_BUILD_ID	3	/* <elf.h> clashes with <linux/elf.h> */

/* Re-executed by the exec test: leave before the harness starts. */
static void __attribute__((constructor)) sb_exec_child(void)
{
	if (getenv(SB_EXEC_ENV))
		_exit(0);
}

struct sb {
	int fd;
	void *base;
	size_t pgsz;
	/* the records, copied out of the ring, in order */
	unsigned char data[SB_MAX];
	size_t len;
};

static void sb_attr(struct perf_event_attr *attr)
{
	perf_attr_init(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
}

/* Open @attr on @pid/@cpu and map a ring buffer; -errno on failure. */
static int sb_open(struct sb *sb, struct perf_event_attr *attr, pid_t pid,
		   int cpu)
{
	sb->pgsz = sysconf(_SC_PAGESIZE);
	sb->len = 0;
	sb->fd = sys_perf_event_open(attr, pid, cpu, -1, 0);
	if (sb->fd < 0)
		return -errno;
	sb->base = perf_map_ring(sb->fd, SB_DATA_PAGES);
	if (sb->base == MAP_FAILED) {
		close(sb->fd);
		return -errno;
	}
	return 0;
}

static void sb_close(struct sb *sb)
{
	perf_unmap_ring(sb->base, SB_DATA_PAGES);
	close(sb->fd);
}

/* Copy every record written so far out of the ring (handles wrapping). */
static void sb_drain(struct sb *sb)
{
	struct perf_event_mmap_page *pg = sb->base;
	unsigned char *ring = (unsigned char *)sb->base + sb->pgsz;
	uint64_t size = SB_DATA_PAGES * sb->pgsz;
	uint64_t head, tail;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head && sb->len < SB_MAX) {
		uint64_t off = tail % size;
		size_t n = size - off;

		if (n > head - tail)
			n = head - tail;
		if (n > SB_MAX - sb->len)
			n = SB_MAX - sb->len;
		memcpy(sb->data + sb->len, ring + off, n);
		sb->len += n;
		tail += n;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * The next record of @type at or after *@pos (a byte offset into sb->data),
 * or NULL.  *@pos moves past the returned record.
 */
static struct perf_event_header *sb_next(struct sb *sb, size_t *pos,
					 uint32_t type)
{
	while (*pos + sizeof(struct perf_event_header) <= sb->len) {
		struct perf_event_header *h = (void *)(sb->data + *pos);

		if (h->size < sizeof(*h) || *pos + h->size > sb->len)
			return NULL;
		*pos += h->size;
		if (h->type == type)
			return h;
	}
	return NULL;
}

static int sb_count(struct sb *sb, uint32_t type)
{
	size_t pos = 0;
	int n = 0;

	while (sb_next(sb, &pos, type))
		n++;
	return n;
}

static pid_t sb_gettid(void)
{
	return syscall(SYS_gettid);
}

static size_t sb_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

struct sb_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};

struct sb_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size, reserved[3];
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

/* The MMAP or MMAP2 record for the mapping at @addr after @pos, or NULL. */
static void *sb_find_mmap(struct sb *sb, uint32_t type, void *addr, size_t pos)
{
	struct perf_event_header *h;

	while ((h = sb_next(sb, &pos, type))) {
		struct sb_mmap *m = (void *)h;

		if (m->addr == (uintptr_t)addr)
			return h;
	}
	return NULL;
}

/* A temporary file of @pages pages; its name is written to @path. */
static int sb_tmpfile(char *path, size_t pathlen, int pages)
{
	size_t pgsz = sysconf(_SC_PAGESIZE);
	char *buf;
	int fd;

	snprintf(path, pathlen, "/tmp/sideband-%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0700);
	if (fd < 0)
		return -1;
	buf = calloc(pages, pgsz);
	if (!buf || write(fd, buf, pages * pgsz) != (ssize_t)(pages * pgsz)) {
		free(buf);
		close(fd);
		return -1;
	}
	free(buf);
	return fd;
}

TEST(mmap_exec_file_record)
{
	struct perf_event_attr attr;
	char path[64];
	struct sb_mmap *m;
	struct sb sb;
	size_t mark;
	void *p;
	int fd;

	sb_attr(&attr);
	attr.mmap = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	fd = sb_tmpfile(path, sizeof(path), 3);
	ASSERT_LE(0, fd);

	p = mmap(NULL, sb.pgsz, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd,
		 sb.pgsz);
	ASSERT_NE(MAP_FAILED, p);
	sb_drain(&sb);

	m = sb_find_mmap(&sb, PERF_RECORD_MMAP, p, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(getpid(), m->pid);
	EXPECT_EQ(sb_gettid(), m->tid);
	EXPECT_EQ(sb.pgsz, m->len);
	EXPECT_EQ(sb.pgsz, m->pgoff);
	EXPECT_STREQ(path, m->filename);
	EXPECT_EQ(PERF_RECORD_MISC_USER, m->header.misc);
	EXPECT_EQ(sizeof(*m) + sb_align8(strlen(path) + 1), m->header.size);
	/* a data mapping is not reported without attr.mmap_data */
	munmap(p, sb.pgsz);
	mark = sb.len;
	p = mmap(NULL, sb.pgsz, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	sb_drain(&sb);
	EXPECT_EQ(NULL, sb_find_mmap(&sb, PERF_RECORD_MMAP, p, mark));

	munmap(p, sb.pgsz);
	close(fd);
	unlink(path);
	sb_close(&sb);
}

TEST(mmap_data_anon_record)
{
	struct perf_event_attr attr;
	struct sb_mmap *m;
	struct sb sb;
	void *p;

	sb_attr(&attr);
	attr.mmap_data = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));

	p = mmap(NULL, 4 * sb.pgsz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	sb_drain(&sb);

	m = sb_find_mmap(&sb, PERF_RECORD_MMAP, p, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(getpid(), m->pid);
	EXPECT_EQ(sb_gettid(), m->tid);
	EXPECT_EQ(4 * sb.pgsz, m->len);
	EXPECT_STREQ("//anon", m->filename);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
		  m->header.misc);
	EXPECT_EQ(sizeof(*m) + 8, m->header.size);
	munmap(p, 4 * sb.pgsz);
	sb_close(&sb);
}

TEST(mmap2_file_fields)
{
	struct perf_event_attr attr;
	struct sb_mmap2 *m;
	struct stat st;
	char path[64];
	struct sb sb;
	void *p, *q;
	int fd;

	sb_attr(&attr);
	attr.mmap2 = 1;
	attr.mmap_data = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	fd = sb_tmpfile(path, sizeof(path), 2);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));

	p = mmap(NULL, sb.pgsz, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	q = mmap(NULL, 2 * sb.pgsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, q);
	sb_drain(&sb);

	m = sb_find_mmap(&sb, PERF_RECORD_MMAP2, p, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(getpid(), m->pid);
	EXPECT_EQ(sb_gettid(), m->tid);
	EXPECT_EQ(sb.pgsz, m->len);
	EXPECT_EQ(0, m->pgoff);
	EXPECT_EQ(major(st.st_dev), m->maj);
	EXPECT_EQ(minor(st.st_dev), m->min);
	EXPECT_EQ(st.st_ino, m->ino);
	EXPECT_EQ(PROT_READ | PROT_EXEC, m->prot);
	EXPECT_EQ(MAP_PRIVATE, m->flags);
	EXPECT_EQ(PERF_RECORD_MISC_USER, m->header.misc);
	EXPECT_STREQ(path, m->filename);
	EXPECT_EQ(sizeof(*m) + sb_align8(strlen(path) + 1), m->header.size);

	m = sb_find_mmap(&sb, PERF_RECORD_MMAP2, q, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(2 * sb.pgsz, m->len);
	EXPECT_EQ(PROT_READ | PROT_WRITE, m->prot);
	EXPECT_EQ(MAP_SHARED, m->flags);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
		  m->header.misc);
	EXPECT_STREQ(path, m->filename);

	/* attr.mmap2 asks for MMAP2 only: no plain MMAP records */
	EXPECT_EQ(0, sb_count(&sb, PERF_RECORD_MMAP));
	munmap(p, sb.pgsz);
	munmap(q, 2 * sb.pgsz);
	close(fd);
	unlink(path);
	sb_close(&sb);
}

/* The GNU build ID of the ELF file @path; its size, 0 if none. */
static int sb_file_build_id(const char *path, uint8_t *id)
{
	static unsigned char buf[4 << 20];
	struct elf64_hdr *eh = (void *)buf;
	ssize_t n;
	int fd, i, ret = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < (ssize_t)sizeof(*eh) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	for (i = 0; i < eh->e_phnum; i++) {
		struct elf64_phdr *ph = (void *)(buf + eh->e_phoff +
					  i * eh->e_phentsize);
		size_t off, end;

		if ((unsigned char *)(ph + 1) > buf + n || ph->p_type != PT_NOTE)
			continue;
		off = ph->p_offset;
		end = off + ph->p_filesz;
		while (end <= (size_t)n && off + sizeof(struct elf64_note) <= end) {
			struct elf64_note *nh = (void *)(buf + off);
			size_t desc = off + sizeof(*nh) +
				      ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == SB_NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(nh + 1, "GNU", 4) && nh->n_descsz <= 20 &&
			    desc + nh->n_descsz <= end) {
				memcpy(id, buf + desc, nh->n_descsz);
				ret = nh->n_descsz;
			}
			off = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return ret;
}

TEST(mmap2_build_id)
{
	struct perf_event_attr attr;
	uint8_t id[20];
	struct sb_mmap2 *m;
	char exe[256];
	struct sb sb;
	ssize_t n;
	void *p;
	int fd, idlen;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	idlen = sb_file_build_id(exe, id);
	if (!idlen)
		SKIP(return, "%s has no GNU build ID note", exe);

	/*
	 * As perf does, ask for mmap too: upstream counts only mmap and
	 * mmap_data events when it decides whether to look at a mapping.
	 */
	sb_attr(&attr);
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.build_id = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	fd = open(exe, O_RDONLY);
	ASSERT_LE(0, fd);
	p = mmap(NULL, sb.pgsz, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	sb_drain(&sb);

	m = sb_find_mmap(&sb, PERF_RECORD_MMAP2, p, 0);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
		  m->header.misc);
	EXPECT_EQ(idlen, m->build_id_size);
	EXPECT_EQ(0, memcmp(id, m->build_id, idlen));
	EXPECT_EQ(PROT_READ | PROT_EXEC, m->prot);
	EXPECT_STREQ(exe, m->filename);
	munmap(p, sb.pgsz);
	close(fd);
	sb_close(&sb);
}

struct sb_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

TEST(comm_prctl_set_name)
{
	static const char name[] = "sb-newname";
	struct perf_event_attr attr;
	struct sb_comm *c;
	size_t pos = 0;
	struct sb sb;

	sb_attr(&attr);
	attr.comm = 1;
	attr.comm_exec = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	ASSERT_EQ(0, prctl(PR_SET_NAME, name));
	sb_drain(&sb);

	c = (void *)sb_next(&sb, &pos, PERF_RECORD_COMM);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(getpid(), c->pid);
	EXPECT_EQ(sb_gettid(), c->tid);
	EXPECT_STREQ(name, c->comm);
	/* not an exec: no COMM_EXEC */
	EXPECT_EQ(0, c->header.misc);
	EXPECT_EQ(sizeof(*c) + sb_align8(sizeof(name)), c->header.size);
	EXPECT_EQ(NULL, sb_next(&sb, &pos, PERF_RECORD_COMM));
	sb_close(&sb);
}

struct sb_task {
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/*
 * A child that waits for a byte on @pipefd[0], then execs this program
 * again (as "/proc/self/exe"), which exits from the constructor.
 */
static pid_t sb_exec_child_start(int pipefd[2])
{
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		static char *const argv[] = { "sideband", NULL };
		static char *const envp[] = { SB_EXEC_ENV "=1", NULL };
		char c;

		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(2);
		execve("/proc/self/exe", argv, envp);
		_exit(3);
	}
	close(pipefd[0]);
	return pid;
}

TEST(exec_comm_mmap_exit_records)
{
	struct perf_event_attr attr;
	struct sb_task *t;
	struct sb_comm *c;
	struct sb_mmap *m;
	int pipefd[2], status, found = 0;
	char exe[256];
	size_t pos = 0;
	struct sb sb;
	pid_t child;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	child = sb_exec_child_start(pipefd);
	ASSERT_LT(0, child);

	sb_attr(&attr);
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.mmap = 1;
	attr.task = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, child, -1));
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	sb_drain(&sb);

	/* exec names the task after the file it ran */
	c = (void *)sb_next(&sb, &pos, PERF_RECORD_COMM);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(child, c->pid);
	EXPECT_EQ(child, c->tid);
	EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, c->header.misc);
	EXPECT_STREQ("exe", c->comm);

	/* the new image's executable mapping */
	pos = 0;
	while ((m = (void *)sb_next(&sb, &pos, PERF_RECORD_MMAP))) {
		if (strcmp(m->filename, exe))
			continue;
		EXPECT_EQ(child, m->pid);
		EXPECT_EQ(child, m->tid);
		EXPECT_EQ(PERF_RECORD_MISC_USER, m->header.misc);
		found++;
	}
	EXPECT_LE(1, found);

	pos = 0;
	t = (void *)sb_next(&sb, &pos, PERF_RECORD_EXIT);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(child, t->pid);
	EXPECT_EQ(child, t->tid);
	EXPECT_EQ(getpid(), t->ppid);
	/* upstream reports the parent's pid, not its tid, as ptid on exit */
	EXPECT_EQ(getpid(), t->ptid);
	EXPECT_EQ(sizeof(*t), t->header.size);
	EXPECT_NE(0, t->time);
	EXPECT_EQ(NULL, sb_next(&sb, &pos, PERF_RECORD_EXIT));
	close(pipefd[1]);
	sb_close(&sb);
}

TEST(fork_and_exit_records)
{
	struct perf_event_attr attr;
	struct sb_task *f, *e;
	size_t pos = 0;
	struct sb sb;
	int status;
	pid_t child;

	sb_attr(&attr);
	attr.task = 1;
	attr.inherit = 1;
	pin_to_cpu(0);
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, 0));
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	sb_drain(&sb);

	f = (void *)sb_next(&sb, &pos, PERF_RECORD_FORK);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(child, f->pid);
	EXPECT_EQ(child, f->tid);
	EXPECT_EQ(getpid(), f->ppid);
	EXPECT_EQ(sb_gettid(), f->ptid);
	EXPECT_EQ(0, f->header.misc);
	EXPECT_EQ(sizeof(*f), f->header.size);
	EXPECT_NE(0, f->time);

	/* the child's inherited copy reports its exit into our buffer */
	pos = 0;
	e = (void *)sb_next(&sb, &pos, PERF_RECORD_EXIT);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(child, e->pid);
	EXPECT_EQ(child, e->tid);
	EXPECT_EQ(getpid(), e->ppid);
	EXPECT_EQ(sizeof(*e), e->header.size);
	sb_close(&sb);
}

TEST(fork_without_inherit_has_no_exit)
{
	struct perf_event_attr attr;
	struct sb sb;
	int status;
	pid_t child;

	sb_attr(&attr);
	attr.task = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	sb_drain(&sb);
	EXPECT_EQ(1, sb_count(&sb, PERF_RECORD_FORK));
	EXPECT_EQ(0, sb_count(&sb, PERF_RECORD_EXIT));
	sb_close(&sb);
}

/* attr.comm and attr.mmap alone also get FORK and EXIT, as upstream does */
TEST(fork_records_for_comm_event)
{
	struct perf_event_attr attr;
	struct sb sb;
	int status;
	pid_t child;

	sb_attr(&attr);
	attr.comm = 1;
	attr.inherit = 1;
	pin_to_cpu(0);
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, 0));
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	sb_drain(&sb);
	EXPECT_EQ(1, sb_count(&sb, PERF_RECORD_FORK));
	EXPECT_EQ(1, sb_count(&sb, PERF_RECORD_EXIT));
	sb_close(&sb);
}

static pid_t sb_thread_tid;

static void *sb_thread_fn(void *arg)
{
	sb_thread_tid = sb_gettid();
	return NULL;
}

TEST(thread_fork_and_exit_records)
{
	struct perf_event_attr attr;
	struct sb_task *f, *e;
	size_t pos = 0;
	pthread_t th;
	struct sb sb;

	sb_attr(&attr);
	attr.task = 1;
	attr.inherit = 1;
	pin_to_cpu(0);
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, 0));
	ASSERT_EQ(0, pthread_create(&th, NULL, sb_thread_fn, NULL));
	ASSERT_EQ(0, pthread_join(th, NULL));
	/*
	 * pthread_join() returns once the thread cleared its tid, which is
	 * before the kernel's exit path reaches perf: poll for the record.
	 */
	for (int i = 0; i < 1000; i++) {
		sb_drain(&sb);
		pos = 0;
		if (sb_next(&sb, &pos, PERF_RECORD_EXIT))
			break;
		usleep(1000);
	}
	pos = 0;
	f = (void *)sb_next(&sb, &pos, PERF_RECORD_FORK);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(getpid(), f->pid);
	EXPECT_EQ(sb_thread_tid, f->tid);
	EXPECT_EQ(getpid(), f->ppid);
	EXPECT_EQ(sb_gettid(), f->ptid);

	pos = 0;
	e = (void *)sb_next(&sb, &pos, PERF_RECORD_EXIT);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(getpid(), e->pid);
	EXPECT_EQ(sb_thread_tid, e->tid);
	sb_close(&sb);
}

/*
 * Upstream 6.12 marks the exiting context dead before it folds the
 * children's counts back, and only writes PERF_RECORD_READ for a live
 * task: an inherit_stat copy that exits leaves no READ record.
 */
TEST(inherit_stat_exit_writes_no_read_record)
{
	struct perf_event_attr attr;
	struct sb sb;
	int status;
	pid_t child;

	sb_attr(&attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.task = 1;
	attr.inherit = 1;
	attr.inherit_stat = 1;
	pin_to_cpu(0);
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, 0));
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	sb_drain(&sb);
	EXPECT_EQ(1, sb_count(&sb, PERF_RECORD_EXIT));
	EXPECT_EQ(0, sb_count(&sb, PERF_RECORD_READ));
	sb_close(&sb);
}

/* The trailer of sample_id_all: pid/tid and the event's id. */
TEST(sample_id_all_trailer_on_comm)
{
	static const char name[] = "sb-trailer";
	struct perf_event_attr attr;
	struct sb_comm *c;
	size_t pos = 0, body;
	uint64_t id, *tr;
	struct sb sb;

	sb_attr(&attr);
	attr.comm = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	ASSERT_EQ(0, ioctl(sb.fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, prctl(PR_SET_NAME, name));
	sb_drain(&sb);

	c = (void *)sb_next(&sb, &pos, PERF_RECORD_COMM);
	ASSERT_NE(NULL, c);
	body = sizeof(*c) + sb_align8(sizeof(name));
	ASSERT_EQ(body + 16, c->header.size);
	tr = (uint64_t *)((char *)c + body);
	EXPECT_EQ(getpid(), (uint32_t)tr[0]);
	EXPECT_EQ(sb_gettid(), (uint32_t)(tr[0] >> 32));
	EXPECT_EQ(id, tr[1]);
	sb_close(&sb);
}

TEST(switch_records_per_task)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int outs = 0, ins = 0, last_out = 0;
	size_t pos = 0;
	struct sb sb;

	sb_attr(&attr);
	attr.context_switch = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	/*
	 * Each sleep switches out only if its timer has not expired by the
	 * time the task calls schedule(): long enough for the KASAN kernel
	 * under TCG on a loaded host, where 2 ms were once not.
	 */
	for (int i = 0; i < 3; i++)
		usleep(20000);
	ASSERT_EQ(0, ioctl(sb.fd, PERF_EVENT_IOC_DISABLE, 0));
	sb_drain(&sb);

	while ((h = sb_next(&sb, &pos, PERF_RECORD_SWITCH))) {
		bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;

		/* a per-task event gets only the header: 8 bytes */
		EXPECT_EQ(sizeof(*h), h->size);
		/* out and in alternate, starting with out */
		EXPECT_EQ(!last_out, out);
		last_out = out;
		if (out)
			outs++;
		else
			ins++;
	}
	/* each sleep blocks: at least three round trips */
	EXPECT_LE(3, outs);
	EXPECT_LE(3, ins);
	EXPECT_EQ(0, sb_count(&sb, PERF_RECORD_SWITCH_CPU_WIDE));
	sb_close(&sb);
}

/*
 * A task that blocks is not runnable when it leaves the CPU: its switch-out
 * has no PREEMPT flag.  A timer tick may also preempt us in between, so
 * only ask that one switch-out (the sleep's) is a plain one.
 */
TEST(switch_out_sleeping_is_not_preempt)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	size_t pos = 0;
	int plain = 0;
	struct sb sb;

	sb_attr(&attr);
	attr.context_switch = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	usleep(20000);
	ASSERT_EQ(0, ioctl(sb.fd, PERF_EVENT_IOC_DISABLE, 0));
	sb_drain(&sb);

	while ((h = sb_next(&sb, &pos, PERF_RECORD_SWITCH)))
		if (h->misc == PERF_RECORD_MISC_SWITCH_OUT)
			plain++;
	EXPECT_LE(1, plain);
	sb_close(&sb);
}

TEST(switch_out_runnable_is_preempt)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	size_t pos = 0;
	int preempt = 0;
	struct sb sb;
	pid_t spinner;

	/* a spinner on our CPU keeps us runnable when we yield */
	pin_to_cpu(0);
	spinner = fork();
	if (spinner == 0) {
		/* dies with us even when an assertion ends the test early */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			;
	}
	ASSERT_LT(0, spinner);

	sb_attr(&attr);
	attr.context_switch = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	for (int i = 0; i < 10000 && !preempt; i++) {
		sched_yield();
		if (i % 100)
			continue;
		sb_drain(&sb);
		while ((h = sb_next(&sb, &pos, PERF_RECORD_SWITCH)))
			if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				preempt++;
	}
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	EXPECT_LT(0, preempt);
	sb_close(&sb);
}

struct sb_switch_cpu {
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;
	uint32_t pid, tid;	/* the sample_id_all trailer (TID) */
};

TEST(switch_cpu_wide_records)
{
	struct perf_event_attr attr;
	struct sb_switch_cpu *s;
	int outs = 0, ins = 0, ret;
	pid_t me = sb_gettid();
	size_t pos = 0;
	struct sb sb;

	pin_to_cpu(0);
	sb_attr(&attr);
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	ret = sb_open(&sb, &attr, -1, 0);
	if (ret == -EACCES || ret == -EPERM)
		SKIP(return, "CPU-wide events not allowed");
	ASSERT_EQ(0, ret);
	/*
	 * Each sleep switches out only if its timer has not expired by the
	 * time the task calls schedule(): long enough for the KASAN kernel
	 * under TCG on a loaded host, where 2 ms were once not.
	 */
	for (int i = 0; i < 3; i++)
		usleep(20000);
	ASSERT_EQ(0, ioctl(sb.fd, PERF_EVENT_IOC_DISABLE, 0));
	sb_drain(&sb);

	EXPECT_EQ(0, sb_count(&sb, PERF_RECORD_SWITCH));
	while ((s = (void *)sb_next(&sb, &pos, PERF_RECORD_SWITCH_CPU_WIDE))) {
		ASSERT_EQ(sizeof(*s), s->header.size);
		if (s->tid != (uint32_t)me)
			continue;
		/* written for us: the other side is another task */
		EXPECT_NE((uint32_t)me, s->next_prev_tid);
		if (s->header.misc & PERF_RECORD_MISC_SWITCH_OUT)
			outs++;
		else
			ins++;
	}
	EXPECT_LE(3, outs);
	EXPECT_LE(3, ins);
	sb_close(&sb);
}

struct sb_ns {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct { uint64_t dev, ino; } link[];
};

TEST(namespaces_on_unshare_and_fork)
{
	struct perf_event_attr attr;
	struct sb_ns *ns;
	size_t pos = 0;
	struct stat st;
	struct sb sb;
	int status;
	pid_t child;

	sb_attr(&attr);
	attr.namespaces = 1;
	ASSERT_EQ(0, sb_open(&sb, &attr, 0, -1));
	/* unshare() reports the namespaces even when nothing changes */
	ASSERT_EQ(0, unshare(0));
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_LT(0, child);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	sb_drain(&sb);

	ns = (void *)sb_next(&sb, &pos, PERF_RECORD_NAMESPACES);
	ASSERT_NE(NULL, ns);
	EXPECT_EQ(getpid(), ns->pid);
	EXPECT_EQ(sb_gettid(), ns->tid);
	EXPECT_EQ(NR_NAMESPACES, ns->nr_namespaces);
	EXPECT_EQ(sizeof(*ns) + NR_NAMESPACES * 16, ns->header.size);
	if (!stat("/proc/self/ns/mnt", &st))
		EXPECT_EQ(st.st_ino, ns->link[MNT_NS_INDEX].ino);

	/* fork reports the child's */
	ns = (void *)sb_next(&sb, &pos, PERF_RECORD_NAMESPACES);
	ASSERT_NE(NULL, ns);
	EXPECT_EQ(child, ns->pid);
	EXPECT_EQ(child, ns->tid);
	sb_close(&sb);
}

TEST_HARNESS_MAIN
