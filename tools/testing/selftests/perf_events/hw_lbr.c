// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks (PERF_SAMPLE_BRANCH_STACK) from the CPU's LBR, over user
 * loops whose taken branches are known to the byte.
 *
 * lbr_work() takes seven branches per iteration, one of each kind a
 * filter can pick: a direct call, a direct jump, a return, an indirect
 * call, an indirect jump, a return and a conditional branch. A sample
 * taken inside it must carry exactly the last N of them (N the depth in
 * caps/branches), youngest first, each with its source, target and type,
 * and only those of the kinds the event selects. The rig's emulated x86
 * PMU (rig/qemu) records branches exactly as the SDM's Arch LBR does, on
 * the Skylake and Ice Lake identities as their model-specific LBR does,
 * and on the Zen 4 identity as AMD's LbrExtV2 does. The events ask for the
 * branch types (TYPE_SAVE), which the model-specific LBR and LbrExtV2
 * give only then.
 *
 * Runs where the CPU has an LBR the kernel should drive: x86 with
 * "arch_lbr" or "amd_lbr_v2" in /proc/cpuinfo, which the CPU reports
 * whatever perf does, or a model with the model-specific LBR
 * (cpu_has_lbr()). Everywhere else every test SKIPs (rig/xfail.list).
 * LbrExtV2 has no call-stack mode: there a call-stack event is refused
 * (EOPNOTSUPP).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "bpf_common.h"
#include "perf_test.h"

#define MAX_DEPTH	64
#define RING_PAGES	128

/* AMD's LbrExtV2: entry 0 the youngest, no call-stack mode */
static bool lbr_amd(void)
{
	return cpu_has_flag("amd_lbr_v2") && !cpu_has_flag("arch_lbr");
}

/* LbrExtV2, and the LBR of Sandy and Ivy Bridge (format 3): no call stack */
static bool lbr_no_call_stack(void)
{
	static const long snb_ivb[] = { 0x2a, 0x2d, 0x3a, 0x3e };

	return lbr_amd() || intel_model_in(snb_ivb, ARRAY_SIZE(snb_ivb));
}

#if defined(__x86_64__)
/*
 * lbr_work(n): n iterations of seven taken branches (the last JNZ falls
 * through). lbs_work(n) is the same loop with a getppid() system call in
 * its first callee, whose SYSCALL and SYSRET a user-only stack must not
 * show. The labels name each branch and its target.
 */
asm(".macro lbr_loop p, sys=0\n"
	"\\p\\()work:\n"
	"	lea \\p\\()f2(%rip), %rdx\n"
	"\\p\\()top:\n"
	"\\p\\()c1:	call \\p\\()f1\n"
	"\\p\\()a1:	call *%rdx\n"
	"\\p\\()a2:	dec %rdi\n"
	"\\p\\()jn:	jnz \\p\\()top\n"
	"	ret\n"
	"\\p\\()f1:\n"
	"	.if \\sys\n"
	"	mov $110, %eax\n"
	"	syscall\n"
	"	.endif\n"
	"\\p\\()j1:	jmp \\p\\()f1b\n"
	"	int3\n"
	"\\p\\()f1b:\n"
	"\\p\\()r1:	ret\n"
	"\\p\\()f2:	lea \\p\\()f2b(%rip), %rax\n"
	"\\p\\()j2:	jmp *%rax\n"
	"	int3\n"
	"\\p\\()f2b:\n"
	"\\p\\()r2:	ret\n"
	"\\p\\()end:\n"
	".endm\n"
	".text\n"
	"lbr_loop lbr_\n"
	"lbr_loop lbs_, 1\n");

/* the address of a label of the asm above */
#define LABEL(sym) ({							\
	unsigned long __a;						\
	asm("lea " #sym "(%%rip), %0" : "=r" (__a));			\
	__a;								\
})

typedef void (*loop_fn)(unsigned long n);

static void lbr_work(unsigned long n)
{
	((loop_fn)LABEL(lbr_work))(n);
}

static void lbs_work(unsigned long n)
{
	((loop_fn)LABEL(lbs_work))(n);
}

#define HAVE_LOOP 1
#else
#define HAVE_LOOP 0
#define LABEL(sym) (sizeof(#sym) * 0UL)
static void lbr_work(unsigned long n)
{
}

static void lbs_work(unsigned long n)
{
}
#endif

/* one branch of the loop, and the filters that keep it */
struct lbr_br {
	__u64 from, to;
	unsigned int type;	/* PERF_BR_* */
	__u64 kinds;		/* PERF_SAMPLE_BRANCH_* bits that select it */
};

#define K_CALL	(PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_CALL)
#define K_ICALL	(PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_IND_CALL)
#define K_RET	PERF_SAMPLE_BRANCH_ANY_RETURN
#define K_JMP	0
#define K_IJMP	PERF_SAMPLE_BRANCH_IND_JUMP
#define K_COND	PERF_SAMPLE_BRANCH_COND

#define B(i, p, f, t, ty, k)						\
	(br[i] = (struct lbr_br){ LABEL(p##f), LABEL(p##t), ty,		\
				  (k) | PERF_SAMPLE_BRANCH_ANY })
/* the seven branches of one iteration, oldest first */
static int lbr_cycle(bool sys, struct lbr_br *br)
{
	if (!HAVE_LOOP)
		return 0;
	if (sys) {
		B(0, lbs_, c1, f1, PERF_BR_CALL, K_CALL);
		B(1, lbs_, j1, f1b, PERF_BR_UNCOND, K_JMP);
		B(2, lbs_, r1, a1, PERF_BR_RET, K_RET);
		B(3, lbs_, a1, f2, PERF_BR_IND_CALL, K_ICALL);
		B(4, lbs_, j2, f2b, PERF_BR_IND, K_IJMP);
		B(5, lbs_, r2, a2, PERF_BR_RET, K_RET);
		B(6, lbs_, jn, top, PERF_BR_COND, K_COND);
	} else {
		B(0, lbr_, c1, f1, PERF_BR_CALL, K_CALL);
		B(1, lbr_, j1, f1b, PERF_BR_UNCOND, K_JMP);
		B(2, lbr_, r1, a1, PERF_BR_RET, K_RET);
		B(3, lbr_, a1, f2, PERF_BR_IND_CALL, K_ICALL);
		B(4, lbr_, j2, f2b, PERF_BR_IND, K_IJMP);
		B(5, lbr_, r2, a2, PERF_BR_RET, K_RET);
		B(6, lbr_, jn, top, PERF_BR_COND, K_COND);
	}
	return 7;
}

static bool in_loop(__u64 ip, bool sys)
{
	__u64 lo = sys ? LABEL(lbs_work) : LABEL(lbr_work);
	__u64 hi = sys ? LABEL(lbs_end) : LABEL(lbr_end);

	return HAVE_LOOP && ip >= lo && ip < hi;
}

struct lbr_sample {
	__u64 ip;
	__u64 nr;
	__u64 hw_idx;
	struct perf_branch_entry e[MAX_DEPTH];
};

/*
 * A sampling event of instructions in user mode with a branch stack of
 * @bst (plus HW_INDEX and TYPE_SAVE), on @pid (0: this thread) or on
 * @cpu.
 */
static int lbr_open(__u64 bst, __u64 period, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = bst | PERF_SAMPLE_BRANCH_HW_INDEX |
				  PERF_SAMPLE_BRANCH_TYPE_SAVE;
	attr.read_format = READ_FORMAT_TIMES;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* a member of @leader's group with a branch stack of @bst */
static int lbr_open_in(__u64 bst, int leader)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.sample_period = 100003;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = bst;
	return sys_perf_event_open(&attr, 0, -1, leader, 0);
}

/*
 * Parse the samples in @base's ring (never consumed: the ring is sized for
 * what a test takes) into @out; returns how many, -1 if one is malformed.
 */
static int lbr_samples(void *base, struct lbr_sample *out, int max)
{
	struct perf_event_header *h;
	bool bad = false;
	__u64 off = 0;
	int n = 0;

	while (n < max && (h = perf_ring_next(base, RING_PAGES, &off, &bad))) {
		__u64 *p = (__u64 *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		out[n].ip = p[0];
		out[n].nr = p[1];
		out[n].hw_idx = p[2];
		if (out[n].nr > MAX_DEPTH ||
		    h->size != sizeof(*h) + 24 + out[n].nr * sizeof(out[n].e[0]))
			return -1;
		memcpy(out[n].e, p + 3, out[n].nr * sizeof(out[n].e[0]));
		n++;
	}
	return bad ? -1 : n;
}

/*
 * Does @s hold the branches of @cycle that @bst selects, youngest first,
 * each with its type, and at least @min_nr of them before any branch of
 * the code that called the loop (@sys: the loop with system calls)?  Fewer than the depth
 * when the LBR also recorded branches the filter then dropped: the
 * SYSRET or IRET back to user mode after a system call or an interrupt
 * is a user-mode branch to the LBR (its filter looks at the target) but
 * comes from the kernel. For every taken branch, the sample's IP also
 * lies between the youngest branch's target and the next branch: the
 * stack ends where the counter overflowed. Explains the first mismatch
 * on stderr.
 */
static bool lbr_stack_ok(const struct lbr_sample *s, const struct lbr_br *cycle,
			 int len, bool sys, __u64 bst, int min_nr, int depth)
{
	struct lbr_br sel[8];
	int n = 0, i, at = -1;

	for (i = 0; i < len; i++)
		if (cycle[i].kinds & bst)
			sel[n++] = cycle[i];
	if (s->nr < (__u64)min_nr || s->nr > (__u64)depth) {
		fprintf(stderr, "# ip %#llx: %llu entries, want %d to %d\n",
			(unsigned long long)s->ip, (unsigned long long)s->nr,
			min_nr, depth);
		return false;
	}
	for (i = 0; i < n; i++)
		if (s->e[0].from == sel[i].from && s->e[0].to == sel[i].to)
			at = i;
	if (at < 0) {
		fprintf(stderr, "# youngest %#llx->%#llx is no selected branch\n",
			(unsigned long long)s->e[0].from,
			(unsigned long long)s->e[0].to);
		return false;
	}
	if (n == len && (s->ip < s->e[0].to || s->ip > sel[(at + 1) % n].from)) {
		fprintf(stderr, "# ip %#llx not between %#llx and %#llx\n",
			(unsigned long long)s->ip,
			(unsigned long long)s->e[0].to,
			(unsigned long long)sel[(at + 1) % n].from);
		return false;
	}
	for (i = 0; i < (int)s->nr; i++) {
		const struct lbr_br *want = &sel[((at - i) % n + n) % n];
		const struct perf_branch_entry *e = &s->e[i];

		/*
		 * Older than the call into the loop: the call itself, the
		 * return of the call before, the caller's own branches.
		 */
		if (!in_loop(e->from, sys) || !in_loop(e->to, sys)) {
			if (i >= min_nr)
				break;
			fprintf(stderr, "# entry %d %#llx->%#llx: only %d of the loop, want %d\n",
				i, (unsigned long long)e->from,
				(unsigned long long)e->to, i, min_nr);
			return false;
		}
		if (e->from != want->from || e->to != want->to ||
		    e->type != want->type || e->mispred || !e->predicted) {
			fprintf(stderr,
				"# entry %d: %#llx->%#llx type %u mispred %u predicted %u, want %#llx->%#llx type %u\n",
				i, (unsigned long long)e->from,
				(unsigned long long)e->to, (unsigned int)e->type,
				(unsigned int)e->mispred,
				(unsigned int)e->predicted,
				(unsigned long long)want->from,
				(unsigned long long)want->to, want->type);
			return false;
		}
	}
	return true;
}

FIXTURE(lbr) {
	int depth;
	struct lbr_br cycle[8];
	int len;
	struct lbr_sample *s;
	struct sample_limits saved;
	bool raised;
};

/*
 * The checks count the samples inside the loop: a throttled event (the
 * kernel lowers the sample rate after a slow PMI, which a loaded host
 * makes common) would leave too few. As root the limits are raised for
 * each test, and put back by the parent.
 */
FIXTURE_SETUP(lbr)
{
	int ret;

	if (!HAVE_LOOP || !cpu_has_lbr())
		SKIP(return, "no LBR on this CPU (x86 only)");
	ret = sample_limits_raise_as_root(&self->saved, &self->raised);
	ASSERT_EQ(0, ret) TH_LOG("sampling limits: %s", strerror(-ret));
	self->depth = hw_pmu_cap("branches");
	ASSERT_GT(self->depth, 0)
		TH_LOG("the CPU has an LBR, the PMU no caps/branches");
	ASSERT_LE(self->depth, MAX_DEPTH);
	ASSERT_EQ(self->depth % 8, 0);
	self->s = calloc(4096, sizeof(*self->s));
	ASSERT_NE(NULL, self->s);
}

/* the child's memory goes with it; the parent only restores the limits */
FIXTURE_TEARDOWN_PARENT(lbr)
{
	if (self->raised)
		sample_limits_set(&self->saved);
}

/*
 * Run @loop for @iters iterations under an event with branch filter @bst
 * and check every sample taken inside it; returns how many there were.
 */
static int lbr_run(struct __test_metadata *_metadata, struct lbr_sample *smp,
		   int depth, __u64 bst, bool sys, unsigned long iters)
{
	struct lbr_br cycle[8];
	int len = lbr_cycle(sys, cycle);
	int fd, n, i, inside = 0, full = 0, cut = 0;
	int want = sys ? depth * 7 / 8 : depth - 2;
	/* Arch LBR and LbrExtV2: entry 0 is the youngest; else the TOS */
	bool arch = cpu_has_flag("arch_lbr") || lbr_amd();
	void *ring;

	fd = lbr_open(bst, 5003, 0, -1);
	if (fd < 0)
		TH_LOG("open: %s", strerror(errno));
	if (fd < 0)
		return -1;
	ring = perf_map_ring(fd, RING_PAGES);
	if (ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (sys)
		lbs_work(iters);
	else
		lbr_work(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	n = lbr_samples(ring, smp, 4096);
	for (i = 0; i < n; i++) {
		if (!in_loop(smp[i].ip, sys))
			continue;
		inside++;
		/*
		 * A system call per iteration: one entry in eight dropped.
		 * The LBR is cleared when a task comes onto the CPU, so a
		 * sample that falls within a few branches of a preemption
		 * holds fewer; its entries must still be right, and such
		 * samples stay rare (below).
		 */
		if (!lbr_stack_ok(&smp[i], cycle, len, sys, bst,
				  (int)smp[i].nr < want ? (int)smp[i].nr : want,
				  depth)) {
			inside = -1;
			break;
		}
		cut += smp[i].nr < (__u64)want;
		full += smp[i].nr == (__u64)depth;
		if (arch ? smp[i].hw_idx != 0 :
			   smp[i].hw_idx >= (__u64)depth) {
			TH_LOG("hw_idx %llu", (unsigned long long)smp[i].hw_idx);
			inside = -1;
			break;
		}
	}
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	/* an interrupt's IRET within the last few branches is rare */
	if (!sys && inside > 0 && full * 10 < inside * 9) {
		TH_LOG("only %d of %d stacks full", full, inside);
		return -1;
	}
	/*
	 * One preemption in a short run is chance, not a pattern: allow
	 * one cut stack beyond the 5%, so a driver that clears the LBR
	 * at every kernel entry (all stacks cut) still fails.
	 */
	if (inside > 0 && cut > 1 + inside / 20) {
		TH_LOG("%d of %d stacks shorter than %d", cut, inside, want);
		return -1;
	}
	return n < 0 ? -1 : inside;
}

#define RUN(bst, sys, iters) \
	lbr_run(_metadata, self->s, self->depth, bst, sys, iters)

/* Every taken branch, user mode: the whole cycle, types and all. */
TEST_F(lbr, any)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_ANY, false, 200000), 10);
}

/* Each kind on its own: only that kind's branches fill the stack. */
TEST_F(lbr, cond)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_COND, false, 200000), 10);
}

TEST_F(lbr, call)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_CALL, false, 200000), 10);
}

TEST_F(lbr, ind_call)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_IND_CALL, false, 200000), 10);
}

TEST_F(lbr, any_call)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_ANY_CALL, false, 200000), 10);
}

TEST_F(lbr, any_return)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_ANY_RETURN, false, 200000), 10);
}

TEST_F(lbr, ind_jump)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_IND_JUMP, false, 200000), 10);
}

/*
 * A system call in the loop: its SYSCALL (into the kernel) and SYSRET
 * (from it) are not user-mode branches, and the user-only stack is the
 * near branches alone.
 */
TEST_F(lbr, user_only_around_syscalls)
{
	ASSERT_GT(RUN(PERF_SAMPLE_BRANCH_ANY, true, 5000), 3);
}

/*
 * Two events of one task that want the LBR set up differently cannot
 * both have it: they take turns (multiplexing), and each keeps its own
 * selection.
 */
TEST_F(lbr, different_filters_take_turns)
{
	struct perf_value v[2];
	void *ring[2];
	int fd[2], i, j, n, inside, full;
	__u64 bst[2] = { PERF_SAMPLE_BRANCH_COND, PERF_SAMPLE_BRANCH_ANY_RETURN };

	self->len = lbr_cycle(false, self->cycle);
	for (i = 0; i < 2; i++) {
		fd[i] = lbr_open(bst[i], 5003, 0, -1);
		ASSERT_GE(fd[i], 0) TH_LOG("open: %s", strerror(errno));
		ring[i] = perf_map_ring(fd[i], RING_PAGES);
		ASSERT_NE(MAP_FAILED, ring[i]);
	}
	for (i = 0; i < 2; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	/* long enough for several rotations (every tick, 4 ms at most) */
	for (j = 0; j < 40; j++)
		lbr_work(20000);
	for (i = 0; i < 2; i++)
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);

	for (i = 0; i < 2; i++) {
		ASSERT_TRUE(perf_read_value(fd[i], &v[i]));
		EXPECT_LT(v[i].running, v[i].enabled)
			TH_LOG("event %d ran all the time beside the other", i);
		EXPECT_GT(v[i].running, 0);
		n = lbr_samples(ring[i], self->s, 4096);
		ASSERT_GE(n, 0);
		inside = 0;
		full = 0;
		for (j = 0; j < n; j++) {
			/* in the loop, after a branch of it that was selected */
			if (!in_loop(self->s[j].ip, false) || !self->s[j].nr ||
			    !in_loop(self->s[j].e[0].from, false) ||
			    !in_loop(self->s[j].e[0].to, false))
				continue;
			inside++;
			/*
			 * The LBR starts empty when an event's turn comes:
			 * a stack may be short, never wrong.
			 */
			ASSERT_TRUE(lbr_stack_ok(&self->s[j], self->cycle,
						 self->len, false, bst[i], 1,
						 self->depth));
			full += self->s[j].nr == (__u64)self->depth;
		}
		EXPECT_GT(inside, 0);
		EXPECT_GT(full, 0);
		perf_unmap_ring(ring[i], RING_PAGES);
		close(fd[i]);
	}
}

/* pin the caller to @cpu */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A task's stack never shows another task's branches. A CPU-wide event
 * with the same filter keeps the LBR recording while another process
 * runs lbs_work() on the same CPU; this task's own event must find the
 * LBR cleared each time this task comes back, so none of its samples
 * holds a branch of lbs_work(). Short periods put samples right after
 * each switch.
 */
TEST_F(lbr, no_branches_of_other_tasks)
{
	int cpufd, fd, n, i, k, foreign = 0, samples = 0;
	pid_t child;
	void *ring;

	ASSERT_EQ(0, pin(0));
	cpufd = lbr_open(PERF_SAMPLE_BRANCH_ANY, 100003, -1, 0);
	if (cpufd < 0 && (errno == EACCES || errno == EPERM))
		SKIP(return, "a CPU-wide event needs privilege");
	ASSERT_GE(cpufd, 0) TH_LOG("open: %s", strerror(errno));
	ioctl(cpufd, PERF_EVENT_IOC_ENABLE, 0);

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		pin(0);
		for (;;) {
			lbs_work(200);
			sched_yield();
		}
	}

	fd = lbr_open(PERF_SAMPLE_BRANCH_ANY, 211, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 200; i++) {
		lbr_work(20);
		sched_yield();
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ioctl(cpufd, PERF_EVENT_IOC_DISABLE, 0);

	n = lbr_samples(ring, self->s, 4096);
	ASSERT_GE(n, 0);
	for (i = 0; i < n; i++) {
		samples++;
		for (k = 0; k < (int)self->s[i].nr; k++)
			if (in_loop(self->s[i].e[k].from, true) ||
			    in_loop(self->s[i].e[k].to, true))
				foreign++;
	}
	EXPECT_GT(samples, 20);
	EXPECT_EQ(0, foreign)
		TH_LOG("%d entries of the other task's loop in %d samples",
		       foreign, samples);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
	close(cpufd);
}

/*
 * Call-stack mode: returns take their calls off the stack, so inside
 * lbr_work()'s callees the stack is the chain of calls still open. The
 * chain reaches back across a sleep (the task leaves the CPU and comes
 * back) only if the kernel keeps the task's stack while it is away.
 */
#if HAVE_LOOP
asm(".text\n"
	"lbc_chain:\n"			/* rdi: iterations */
	"	push %rbx\n"
	"	mov %rdi, %rbx\n"
	"lbc_call_mid:\n"
	"	call lbc_mid\n"
	"	pop %rbx\n"
	"	ret\n"
	"lbc_mid:\n"
	"	sub $8, %rsp\n"
	"	mov $2000, %edi\n"
	"	call usleep@PLT\n"
	"	mov %rbx, %rdi\n"
	"lbc_call_work:\n"
	"	call lbr_work\n"
	"	add $8, %rsp\n"
	"	ret\n");

static void lbc_chain(unsigned long n)
{
	((loop_fn)LABEL(lbc_chain))(n);
}
#else
static void lbc_chain(unsigned long n)
{
}
#endif

TEST_F(lbr, call_stack_survives_a_sleep)
{
	int fd, n, i, k, inside = 0;
	void *ring;

	fd = lbr_open(PERF_SAMPLE_BRANCH_CALL_STACK, 5003, 0, -1);
	if (lbr_no_call_stack()) {
		/* LbrExtV2 and format 3 have no call-stack mode */
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EOPNOTSUPP, errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ring = perf_map_ring(fd, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	self->len = lbr_cycle(false, self->cycle);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	lbc_chain(200000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	n = lbr_samples(ring, self->s, 4096);
	ASSERT_GE(n, 0);
	for (i = 0; i < n; i++) {
		const struct lbr_sample *s = &self->s[i];
		const struct perf_branch_entry *e = s->e;

		if (!in_loop(s->ip, false))
			continue;
		inside++;
		/* maybe the open call to f1 or f2, then the chain */
		k = 0;
		if (s->nr && (e[0].to == LABEL(lbr_f1) ||
			      e[0].to == LABEL(lbr_f2)))
			k = 1;
		ASSERT_GE(s->nr, k + 3)
			TH_LOG("sample %d: %llu entries", i,
			       (unsigned long long)s->nr);
		EXPECT_EQ(LABEL(lbc_call_work), e[k].from);
		EXPECT_EQ(LABEL(lbr_work), e[k].to);
		EXPECT_EQ(LABEL(lbc_call_mid), e[k + 1].from)
			TH_LOG("sample %d: the call before the sleep is gone", i);
		EXPECT_EQ(LABEL(lbc_mid), e[k + 1].to);
		EXPECT_EQ(LABEL(lbc_chain), e[k + 2].to);
		EXPECT_EQ(PERF_BR_CALL, (unsigned int)e[k].type);
		if (_metadata->exit_code != KSFT_PASS)
			break;
	}
	EXPECT_GT(inside, 10);
	perf_unmap_ring(ring, RING_PAGES);
	close(fd);
}

/*
 * Branch counters where the CPU logs nothing, and call-stack mode beside
 * other kinds (refused whatever it is beside where the LBR has no
 * call-stack mode).
 */
TEST_F(lbr, errors)
{
	struct perf_event_attr attr;
	bool no_cs = lbr_no_call_stack();
	int fd, err;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;

	/* branch counters where the entries count nothing (branch_counters) */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_COUNTERS;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	err = errno;
	if (hw_pmu_cap("branch_counter_nr") > 0) {
		EXPECT_LE(0, fd) TH_LOG("branch counters: %s", strerror(err));
		if (fd >= 0)
			close(fd);
	} else {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, err);
	}

	attr.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_COND;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(no_cs ? EOPNOTSUPP : EINVAL, errno);

	attr.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_CALL;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (no_cs) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EOPNOTSUPP, errno);
	} else {
		EXPECT_LE(0, fd) TH_LOG("call stack and direct calls: %s",
					strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

/*
 * A group runs as one: members that want the LBR set up differently could
 * never run together, and the open refuses the second. The same filter is
 * fine.
 */
TEST_F(lbr, group_members_share_the_filter)
{
	int leader, same, other;

	leader = lbr_open(PERF_SAMPLE_BRANCH_ANY, 100003, 0, -1);
	ASSERT_GE(leader, 0) TH_LOG("open: %s", strerror(errno));
	same = lbr_open_in(PERF_SAMPLE_BRANCH_ANY, leader);
	EXPECT_GE(same, 0) TH_LOG("same filter: %s", strerror(errno));
	other = lbr_open_in(PERF_SAMPLE_BRANCH_COND, leader);
	EXPECT_EQ(-1, other);
	EXPECT_EQ(EINVAL, errno);
	if (same >= 0)
		close(same);
	if (other >= 0)
		close(other);
	close(leader);
}

/* a counting member of @leader's group asking for branch counters only */
static int lbr_log_member(__u32 type, __u64 config, int leader)
{
	struct perf_event_attr attr;

	perf_attr_user(&attr, type, config);
	attr.disabled = 0;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_COUNTERS;
	return sys_perf_event_open(&attr, 0, -1, leader, 0);
}

/*
 * Branch counters (PERF_SAMPLE_BRANCH_COUNTERS, the LBR's event logging).
 * Where caps/branch_counter_nr says the entries count events, a sample
 * carries after its entries one u64 each: how many events of each of
 * the group's logging events came since the entry before, two bits each
 * (caps/branch_counter_width), in group order. Here the leader,
 * instructions:u with the loop's stack, logs; a branch-misses member
 * does not (so that group order and counter order differ); a branches:u
 * member logs. Of the loop's seven branches each counts itself as one
 * branch, and one instruction but for the indirect jump and the JNZ,
 * which come after a LEA and a DEC: two. The errnos are upstream's:
 * -EINVAL where the entries count nothing, for a leader that asks for
 * nothing but the counts, for an event beyond an event select and unit
 * mask, and for more logging events than counters that can log.
 */
TEST_F(lbr, branch_counters)
{
	static const int insns[7] = { 1, 1, 1, 1, 2, 1, 2 };
	int nr = hw_pmu_cap("branch_counter_nr");
	struct perf_event_attr attr;
	int leader, miss, br, extra[4], i, j, k, checked = 0;
	__u64 off = 0, *p, n, *cnt;
	struct perf_event_header *h;
	bool bad = false;
	void *ring;

	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.sample_period = 100003;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_COUNTERS;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (nr <= 0) {
		ASSERT_EQ(-1, leader);
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, hw_pmu_cap("branch_counter_width"));
		return;
	}
	ASSERT_EQ(2, hw_pmu_cap("branch_counter_width"));
	ASSERT_GE(nr, 2);
	self->len = lbr_cycle(false, self->cycle);
	ASSERT_GE(leader, 0) TH_LOG("open: %s", strerror(errno));

	/* errors first */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_COUNTERS;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lbr_log_member(PERF_TYPE_RAW, 0x8000c4, leader));
	EXPECT_EQ(EINVAL, errno);

	/* the leader logs: nr - 1 more loggers fit, one more does not */
	for (i = 0; i < nr - 1 && i < 4; i++) {
		extra[i] = lbr_log_member(PERF_TYPE_HARDWARE,
					  PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
					  leader);
		ASSERT_GE(extra[i], 0) TH_LOG("logger %d: %s", i + 2,
					      strerror(errno));
	}
	EXPECT_EQ(-1, lbr_log_member(PERF_TYPE_HARDWARE,
				     PERF_COUNT_HW_BRANCH_INSTRUCTIONS, leader));
	EXPECT_EQ(EINVAL, errno);
	while (i--)
		close(extra[i]);
	close(leader);

	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_COUNTERS;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0) TH_LOG("open: %s", strerror(errno));
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	attr.disabled = 0;
	miss = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(miss, 0) TH_LOG("open: %s", strerror(errno));
	br = lbr_log_member(PERF_TYPE_HARDWARE,
			    PERF_COUNT_HW_BRANCH_INSTRUCTIONS, leader);
	ASSERT_GE(br, 0) TH_LOG("open: %s", strerror(errno));

	ring = perf_map_ring(leader, RING_PAGES);
	ASSERT_NE(MAP_FAILED, ring);
	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	lbr_work(200000);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	while ((h = perf_ring_next(ring, RING_PAGES, &off, &bad))) {
		const struct perf_branch_entry *e;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		p = (__u64 *)(h + 1);
		n = p[1];
		ASSERT_LE(n, MAX_DEPTH);
		ASSERT_EQ(sizeof(*h) + 16 + n * (sizeof(*e) + 8), h->size);
		if (!in_loop(p[0], false))
			continue;
		e = (const struct perf_branch_entry *)(p + 2);
		cnt = (__u64 *)(e + n);
		for (i = 0; i < (int)n; i++) {
			for (k = 0; k < self->len; k++)
				if (e[i].from == self->cycle[k].from &&
				    e[i].to == self->cycle[k].to)
					break;
			if (k == self->len)
				continue;
			j = insns[k] | 1 << 2;
			ASSERT_EQ(j, cnt[i])
				TH_LOG("entry %d, %#llx -> %#llx: counts %#llx",
				       i, (unsigned long long)e[i].from,
				       (unsigned long long)e[i].to,
				       (unsigned long long)cnt[i]);
			checked++;
		}
	}
	ASSERT_FALSE(bad);
	ASSERT_GT(checked, 100);
	perf_unmap_ring(ring, RING_PAGES);
	close(br);
	close(miss);
	close(leader);
}

/*
 * bpf_get_branch_snapshot(): a tracepoint program run by this task's
 * fork (sched_process_fork fires in the parent) copies the LBR into a
 * map. While an event records kernel branches, the helper gets entries,
 * kernel ones at the young end, and among them the branch from
 * trace_call_bpf() into the program: the recorder stopped within a few
 * branches of the program's request. (The verifier inlines the helper as
 * a direct call of the static call's target, a function of the driver
 * that the test does not name, so that the kernels compare.)
 */
#define FORK_TP	"/sys/kernel/tracing/events/sched/sched_process_fork/id"
#define SNAP_ROOM	(MAX_DEPTH * sizeof(struct perf_branch_entry))

struct snap {
	__s64 ret;
	struct perf_branch_entry e[MAX_DEPTH];
};

/* a snapshot program on this task's forks: its map, itself, its event */
struct snap_prog {
	int map, prog, tp;
};

static void snap_close(struct snap_prog *sp)
{
	if (sp->tp >= 0)
		close(sp->tp);
	if (sp->prog >= 0)
		close(sp->prog);
	if (sp->map >= 0)
		close(sp->map);
}

/* [*lo, *hi) of kernel text symbol @name, from /proc/kallsyms */
static bool ksym_range(const char *name, __u64 *lo, __u64 *hi)
{
	char line[256], sym[128], type;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	*lo = 0;
	*hi = ~0ULL;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &a, &type, sym) != 3 || !a)
			continue;
		if (!*lo && !strcmp(sym, name))
			*lo = a;
		else if (*lo && a > *lo && a < *hi)
			*hi = a;
	}
	fclose(f);
	return *lo != 0;
}

/* fork once, so that the program runs in this task; its result */
static __s64 snap_fork(int tp, int map, struct snap *out)
{
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->ret = 1;
	if (map_update(map, 0, out) ||
	    ioctl(tp, PERF_EVENT_IOC_ENABLE, 0))
		return 1;
	pid = fork();
	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	ioctl(tp, PERF_EVENT_IOC_DISABLE, 0);
	if (map_lookup(map, 0, out))
		return 1;
	return out->ret;
}

/*
 * A program of @type that stores, in @map's one value, the helper's
 * return and the entries it wrote: a struct snap.
 */
static int snap_prog_load(int map, __u32 type)
{
	struct bpf_insn insns[] = {
		ST_W(BPF_REG_10, -4, 0),
		LD_MAP(BPF_REG_1, 0), LD_HI(0),
		MOV_REG(BPF_REG_2, BPF_REG_10),
		ADD_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 7),
		MOV_REG(BPF_REG_6, BPF_REG_0),
		MOV_REG(BPF_REG_1, BPF_REG_6),
		ADD_IMM(BPF_REG_1, offsetof(struct snap, e)),
		MOV_IMM(BPF_REG_2, SNAP_ROOM),
		MOV_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_get_branch_snapshot),
		STX_DW(BPF_REG_6, BPF_REG_0, 0),
		MOV_IMM(BPF_REG_0, 1),
		EXIT(),
	};

	insns[1].imm = map;
	return prog_load(type, insns, ARRAY_SIZE(insns));
}

/*
 * The program and its tracepoint event on this task, pinned to CPU 0;
 * 0, or -1 with the reason logged and what was made closed.
 */
static int snap_setup(struct __test_metadata *_metadata, struct snap_prog *sp)
{
	struct perf_event_attr attr;
	long id;

	sp->map = -1;
	sp->prog = -1;
	sp->tp = -1;
	if (read_long(FORK_TP, &id) || pin_to_cpu(0)) {
		TH_LOG("no %s, or no CPU 0", FORK_TP);
		return -1;
	}
	sp->map = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct snap), 1);
	if (sp->map < 0) {
		TH_LOG("map: %s", strerror(errno));
		return -1;
	}
	sp->prog = snap_prog_load(sp->map, BPF_PROG_TYPE_TRACEPOINT);
	perf_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.sample_period = 1;
	attr.disabled = 1;
	if (sp->prog >= 0)
		sp->tp = sys_perf_event_open(&attr, 0, -1, -1,
					     PERF_FLAG_FD_CLOEXEC);
	if (sp->tp < 0 || ioctl(sp->tp, PERF_EVENT_IOC_SET_BPF, sp->prog)) {
		TH_LOG("program on the tracepoint: %s", strerror(errno));
		snap_close(sp);
		return -1;
	}
	return 0;
}

TEST_F(lbr, bpf_branch_snapshot)
{
	struct perf_event_attr attr;
	struct snap_prog sp;
	struct snap out;
	__u64 lo, hi, lo2, hi2;
	bool found = false;
	int fd, i, n;
	__s64 ret;

	if (geteuid())
		SKIP(return, "kernel branches and BPF need root");
	ASSERT_TRUE(ksym_range("trace_call_bpf", &lo, &hi));
	ASSERT_EQ(0, snap_setup(_metadata, &sp));

	/* a counting event with a kernel and user branch stack */
	perf_attr_user(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 0;
	attr.disabled = 0;
	attr.sample_period = 1ULL << 40;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("LBR event: %s", strerror(errno));
	ret = snap_fork(sp.tp, sp.map, &out);
	close(fd);
	snap_close(&sp);

	ASSERT_GT(ret, 0);
	ASSERT_EQ(0, ret % (__s64)sizeof(struct perf_branch_entry));
	n = ret / sizeof(struct perf_branch_entry);
	ASSERT_LE(n, self->depth);
	for (i = 0; i < n; i++) {
		if (i < 4)
			EXPECT_TRUE(out.e[i].from >> 63 && out.e[i].to >> 63)
				TH_LOG("entry %d %#llx->%#llx is no kernel branch",
				       i, (unsigned long long)out.e[i].from,
				       (unsigned long long)out.e[i].to);
		found |= out.e[i].from >= lo && out.e[i].from < hi;
	}
	/*
	 * KASAN's outline checks are calls: on such a kernel the way to the
	 * recorder's stop takes more branches than the LBR holds.
	 */
	if (ksym_range("__asan_load8_noabort", &lo2, &hi2))
		found = true;
	EXPECT_TRUE(found)
		TH_LOG("no branch from trace_call_bpf (%#llx) among %d",
		       (unsigned long long)lo, n);
	for (i = 0; !found && i < n; i++)
		TH_LOG("entry %d: %#llx -> %#llx", i,
		       (unsigned long long)out.e[i].from,
		       (unsigned long long)out.e[i].to);
}

/*
 * With no event using the LBR on the CPU it holds nothing of the
 * program's (it stopped when its last user left, with whatever ran
 * then): the helper says -ENOENT. Upstream's driver hands out those
 * stale entries (rig/xfail.list).
 */
TEST_F(lbr, bpf_branch_snapshot_needs_a_recorder)
{
	struct snap_prog sp;
	struct snap out;

	if (geteuid())
		SKIP(return, "BPF needs root");
	ASSERT_EQ(0, snap_setup(_metadata, &sp));
	EXPECT_EQ(-ENOENT, snap_fork(sp.tp, sp.map, &out));
	snap_close(&sp);
}

/*
 * The helper from a program on a sampling event's overflow, which runs in
 * the PMI (an NMI): the driver must not stop and restart the PMU there,
 * and the entries are the LBR as the interrupt found it. The event and
 * its branch stack are the loop's, user only, and the last overflow comes
 * long after the loop filled the LBR: the program's last snapshot is a
 * full LBR of the loop's branches.
 */
TEST_F(lbr, bpf_branch_snapshot_in_the_pmi)
{
	struct snap_prog sp = { .tp = -1 };
	struct snap out = { .ret = 1 };
	int i, n;

	if (geteuid())
		SKIP(return, "BPF needs root");
	if (!HAVE_LOOP)
		SKIP(return, "no loop for this architecture");
	sp.map = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct snap), 1);
	ASSERT_LE(0, sp.map) TH_LOG("map: %s", strerror(errno));
	ASSERT_EQ(0, map_update(sp.map, 0, &out));
	sp.prog = snap_prog_load(sp.map, BPF_PROG_TYPE_PERF_EVENT);
	ASSERT_LE(0, sp.prog) TH_LOG("program: %s", strerror(errno));
	sp.tp = lbr_open(PERF_SAMPLE_BRANCH_ANY, 10007, 0, -1);
	ASSERT_LE(0, sp.tp) TH_LOG("LBR event: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(sp.tp, PERF_EVENT_IOC_SET_BPF, sp.prog));
	ASSERT_EQ(0, ioctl(sp.tp, PERF_EVENT_IOC_ENABLE, 0));
	lbr_work(20000);
	ASSERT_EQ(0, ioctl(sp.tp, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, map_lookup(sp.map, 0, &out));
	snap_close(&sp);

	ASSERT_GT(out.ret, 0);
	ASSERT_EQ(0, out.ret % (__s64)sizeof(struct perf_branch_entry));
	n = out.ret / sizeof(struct perf_branch_entry);
	EXPECT_EQ(self->depth, n);
	for (i = 0; i < n; i++)
		EXPECT_TRUE(in_loop(out.e[i].from, false) &&
			    in_loop(out.e[i].to, false))
			TH_LOG("entry %d: %#llx -> %#llx is not the loop's", i,
			       (unsigned long long)out.e[i].from,
			       (unsigned long long)out.e[i].to);
}

TEST_HARNESS_MAIN
