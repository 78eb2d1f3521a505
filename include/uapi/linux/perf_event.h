/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_event_open(2): the user-visible ABI.
 *
 * Everything here is a contract with user space (the perf tool, PAPI, rr,
 * libbpf and friends compile against it), so every name, value, width and
 * offset is fixed: new things may only be appended, never moved or resized.
 * Entries marked "not ABI" are counts that grow as the kernel learns new
 * things; user space must not bake them in.
 *
 * Layout of the file:
 *   1. event classes and the config values of the generic classes
 *   2. what a sample carries (sample_type, branch filters, read_format)
 *   3. struct perf_event_attr, the argument of the system call
 *   4. ioctls and open flags
 *   5. the first page of the mmap()ed ring buffer
 *   6. records written to the ring buffer
 *   7. encodings packed inside sample fields (data_src, branch entries,
 *      weights, transactions)
 */
#ifndef _UAPI_LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/* ----------------------------------------------------------------------
 * 1. Event classes (perf_event_attr::type) and their config values
 * ----------------------------------------------------------------------
 */

/*
 * Fixed classes. A PMU registered at run time gets a dynamic type number,
 * published in /sys/bus/event_source/devices/<pmu>/type.
 */
enum perf_type_id {
	PERF_TYPE_HARDWARE		= 0,	/* enum perf_hw_id in config */
	PERF_TYPE_SOFTWARE		= 1,	/* enum perf_sw_ids in config */
	PERF_TYPE_TRACEPOINT		= 2,	/* tracepoint id in config */
	PERF_TYPE_HW_CACHE		= 3,	/* cache id/op/result triple */
	PERF_TYPE_RAW			= 4,	/* PMU-specific raw encoding */
	PERF_TYPE_BREAKPOINT		= 5,	/* bp_type/bp_addr/bp_len */

	PERF_TYPE_MAX,				/* not ABI */
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE the upper 32 bits of
 * config may name the PMU (its dynamic type number) the generic event is
 * meant for; this matters on hybrid systems with several core PMUs. Zero
 * there means "any core PMU". The low 32 bits hold the generic event:
 *   HARDWARE: bits 0-7 = enum perf_hw_id
 *   HW_CACHE: bits 0-7 = cache, 8-15 = op, 16-23 = result
 */
#define PERF_PMU_TYPE_SHIFT		32
#define PERF_HW_EVENT_MASK		0xffffffff

/* Generic hardware events, mapped by each PMU driver to its own codes. */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,			/* not ABI */
};

/*
 * Generic cache events: config = cache | (op << 8) | (result << 16).
 * Not every combination exists on every PMU (ENOENT / EINVAL otherwise).
 */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D			= 0,	/* level 1 data */
	PERF_COUNT_HW_CACHE_L1I			= 1,	/* level 1 instruction */
	PERF_COUNT_HW_CACHE_LL			= 2,	/* last level */
	PERF_COUNT_HW_CACHE_DTLB		= 3,
	PERF_COUNT_HW_CACHE_ITLB		= 4,
	PERF_COUNT_HW_CACHE_BPU			= 5,	/* branch predictor */
	PERF_COUNT_HW_CACHE_NODE		= 6,	/* local memory node */

	PERF_COUNT_HW_CACHE_MAX,		/* not ABI */
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ		= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE		= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH		= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,		/* not ABI */
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,		/* not ABI */
};

/*
 * Events the kernel counts itself, in software; they work on machines
 * without any hardware PMU.
 */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK			= 0,	/* ns, per-cpu clock */
	PERF_COUNT_SW_TASK_CLOCK		= 1,	/* ns the task ran */
	PERF_COUNT_SW_PAGE_FAULTS		= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES		= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS		= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN		= 5,	/* no I/O needed */
	PERF_COUNT_SW_PAGE_FAULTS_MAJ		= 6,	/* I/O needed */
	PERF_COUNT_SW_ALIGNMENT_FAULTS		= 7,
	PERF_COUNT_SW_EMULATION_FAULTS		= 8,
	PERF_COUNT_SW_DUMMY			= 9,	/* never counts */
	PERF_COUNT_SW_BPF_OUTPUT		= 10,	/* bpf_perf_event_output() */
	PERF_COUNT_SW_CGROUP_SWITCHES		= 11,

	PERF_COUNT_SW_MAX,			/* not ABI */
};

/* ----------------------------------------------------------------------
 * 2. What goes into a sample
 * ----------------------------------------------------------------------
 */

/*
 * perf_event_attr::sample_type: each set bit adds one field to every
 * PERF_RECORD_SAMPLE (in the order given under PERF_RECORD_SAMPLE below).
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP				= 1U << 0,
	PERF_SAMPLE_TID				= 1U << 1,
	PERF_SAMPLE_TIME			= 1U << 2,
	PERF_SAMPLE_ADDR			= 1U << 3,
	PERF_SAMPLE_READ			= 1U << 4,
	PERF_SAMPLE_CALLCHAIN			= 1U << 5,
	PERF_SAMPLE_ID				= 1U << 6,
	PERF_SAMPLE_CPU				= 1U << 7,
	PERF_SAMPLE_PERIOD			= 1U << 8,
	PERF_SAMPLE_STREAM_ID			= 1U << 9,
	PERF_SAMPLE_RAW				= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK		= 1U << 11,
	PERF_SAMPLE_REGS_USER			= 1U << 12,
	PERF_SAMPLE_STACK_USER			= 1U << 13,
	PERF_SAMPLE_WEIGHT			= 1U << 14,
	PERF_SAMPLE_DATA_SRC			= 1U << 15,
	PERF_SAMPLE_IDENTIFIER			= 1U << 16,
	PERF_SAMPLE_TRANSACTION			= 1U << 17,
	PERF_SAMPLE_REGS_INTR			= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR			= 1U << 19,
	PERF_SAMPLE_AUX				= 1U << 20,
	PERF_SAMPLE_CGROUP			= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE		= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE		= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT		= 1U << 24,

	PERF_SAMPLE_MAX = 1U << 25,		/* not ABI */
};

/* The two ways of asking for a weight; at most one may be set. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * perf_event_attr::branch_sample_type, used with PERF_SAMPLE_BRANCH_STACK:
 * which taken branches the hardware branch buffer should keep, and what to
 * record about each. The privilege bits (USER/KERNEL/HV) default to the
 * event's own exclude_* settings when none is given; they are checked
 * against the caller's permissions. ANY includes every branch kind, so it
 * makes the other kind bits redundant.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,

	PERF_SAMPLE_BRANCH_COUNTERS_SHIFT	= 19,

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* not ABI */
};

enum perf_branch_sample_type {
	/* privilege levels to record */
	PERF_SAMPLE_BRANCH_USER	= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL = 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV	= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	/* branch kinds to record */
	PERF_SAMPLE_BRANCH_ANY	= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL =
		1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN =
		1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL =
		1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX =
		1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX = 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX = 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND	= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	/* calls and returns only, kept as a call stack */
	PERF_SAMPLE_BRANCH_CALL_STACK =
		1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP =
		1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL	= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	/* leave out the flag bits / cycle counts of each entry */
	PERF_SAMPLE_BRANCH_NO_FLAGS =
		1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES =
		1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	/* fill perf_branch_entry::type and ::new_type */
	PERF_SAMPLE_BRANCH_TYPE_SAVE =
		1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	/* emit the hardware index of the newest entry (hw_idx) */
	PERF_SAMPLE_BRANCH_HW_INDEX =
		1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	/* fill perf_branch_entry::priv */
	PERF_SAMPLE_BRANCH_PRIV_SAVE =
		1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	/* emit per-branch occurrence counts of the group's events */
	PERF_SAMPLE_BRANCH_COUNTERS =
		1U << PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,

	PERF_SAMPLE_BRANCH_MAX	= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

#define PERF_SAMPLE_BRANCH_PLM_ALL					\
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |		\
	 PERF_SAMPLE_BRANCH_HV)

/* perf_branch_entry::type: the kind of control-flow change. */
enum {
	PERF_BR_UNKNOWN		= 0,
	PERF_BR_COND		= 1,	/* conditional jump */
	PERF_BR_UNCOND		= 2,	/* unconditional jump */
	PERF_BR_IND		= 3,	/* indirect jump */
	PERF_BR_CALL		= 4,
	PERF_BR_IND_CALL	= 5,
	PERF_BR_RET		= 6,
	PERF_BR_SYSCALL		= 7,
	PERF_BR_SYSRET		= 8,
	PERF_BR_COND_CALL	= 9,
	PERF_BR_COND_RET	= 10,
	PERF_BR_ERET		= 11,	/* return from exception */
	PERF_BR_IRQ		= 12,
	PERF_BR_SERROR		= 13,	/* system error exception */
	PERF_BR_NO_TX		= 14,	/* outside a transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* look at new_type instead */
	PERF_BR_MAX,
};

/* perf_branch_entry::spec: what speculation knew about the branch. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculated, wrong path */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* retired, right path */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculated, right path */
	PERF_BR_SPEC_MAX,
};

/* perf_branch_entry::new_type, valid when type == PERF_BR_EXTEND_ABI. */
enum {
	PERF_BR_NEW_FAULT_ALGN		= 0,	/* alignment fault */
	PERF_BR_NEW_FAULT_DATA		= 1,	/* data abort */
	PERF_BR_NEW_FAULT_INST		= 2,	/* instruction abort */
	PERF_BR_NEW_ARCH_1		= 3,	/* ARCH_n: per-arch meaning */
	PERF_BR_NEW_ARCH_2		= 4,
	PERF_BR_NEW_ARCH_3		= 5,
	PERF_BR_NEW_ARCH_4		= 6,
	PERF_BR_NEW_ARCH_5		= 7,
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry::priv: privilege level at the branch target. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* What the per-arch new_type values mean on arm64 (BRBE). */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/*
 * First word of a register dump (PERF_SAMPLE_REGS_USER/INTR): how the
 * registers that follow are laid out, or NONE when there are none (e.g. a
 * kernel thread has no user registers).
 */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,
	PERF_SAMPLE_REGS_ABI_32		= 1,
	PERF_SAMPLE_REGS_ABI_64		= 2,
};

/*
 * PERF_SAMPLE_TRANSACTION: describes a hardware transaction abort. The low
 * bits may be combined; the upper 32 bits carry the abort code given by
 * the aborting instruction.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0),	/* lock elision */
	PERF_TXN_TRANSACTION	= (1 << 1),	/* explicit transaction */
	PERF_TXN_SYNC		= (1 << 2),	/* caused by this insn */
	PERF_TXN_ASYNC		= (1 << 3),	/* caused elsewhere */
	PERF_TXN_RETRY		= (1 << 4),	/* retrying may succeed */
	PERF_TXN_CONFLICT	= (1 << 5),	/* data conflict */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6),	/* write set too big */
	PERF_TXN_CAPACITY_READ	= (1 << 7),	/* read set too big */

	PERF_TXN_MAX		= (1 << 8),	/* not ABI */

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32,
};

/*
 * perf_event_attr::read_format: what read(2) on the event fd returns, and
 * what PERF_SAMPLE_READ puts in a sample. All fields are u64.
 *
 * Without PERF_FORMAT_GROUP, one counter:
 *	value
 *	time_enabled		if TOTAL_TIME_ENABLED
 *	time_running		if TOTAL_TIME_RUNNING
 *	id			if ID
 *	lost			if LOST
 *
 * With PERF_FORMAT_GROUP, the leader and each sibling:
 *	nr			number of entries below
 *	time_enabled		if TOTAL_TIME_ENABLED
 *	time_running		if TOTAL_TIME_RUNNING
 *	nr times {
 *		value
 *		id		if ID
 *		lost		if LOST
 *	}
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED		= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING		= 1U << 1,
	PERF_FORMAT_ID				= 1U << 2,
	PERF_FORMAT_GROUP			= 1U << 3,
	PERF_FORMAT_LOST			= 1U << 4,

	PERF_FORMAT_MAX = 1U << 5,		/* not ABI */
};

/* ----------------------------------------------------------------------
 * 3. struct perf_event_attr
 * ----------------------------------------------------------------------
 */

/*
 * perf_event_attr::size values of the published versions, each with the
 * field(s) that version appended. A caller passes the size it was built
 * with; the kernel zero-fills what an older caller does not know about
 * and refuses (E2BIG) non-zero bytes it does not know itself.
 */
#define PERF_ATTR_SIZE_VER0	64	/* the original layout */
#define PERF_ATTR_SIZE_VER1	72	/* config2 */
#define PERF_ATTR_SIZE_VER2	80	/* branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* sig_data */
#define PERF_ATTR_SIZE_VER8	136	/* config3 */

/* What to count or sample, and how: the argument of perf_event_open(2). */
struct perf_event_attr {
	__u32	type;		/* enum perf_type_id or a dynamic PMU type */
	__u32	size;		/* sizeof() as the caller knows it */
	__u64	config;		/* event selector, meaning set by type */

	/* sample every N events, or (attr.freq) about N times a second */
	union {
		__u64	sample_period;
		__u64	sample_freq;
	};

	__u64	sample_type;	/* enum perf_event_sample_format bits */
	__u64	read_format;	/* enum perf_event_read_format bits */

	/* on/off switches; all 64 bits of this word together */
	__u64	disabled		: 1;	/* created stopped */
	__u64	inherit			: 1;	/* new children get a copy */
	__u64	pinned			: 1;	/* on the PMU or in error */
	__u64	exclusive		: 1;	/* alone on the PMU */
	__u64	exclude_user		: 1;	/* skip user mode */
	__u64	exclude_kernel		: 1;	/* skip kernel mode */
	__u64	exclude_hv		: 1;	/* skip the hypervisor */
	__u64	exclude_idle		: 1;	/* skip the idle task */
	__u64	mmap			: 1;	/* PERF_RECORD_MMAP */
	__u64	comm			: 1;	/* PERF_RECORD_COMM */
	__u64	freq			: 1;	/* sample_freq is used */
	__u64	inherit_stat		: 1;	/* per-child totals */
	__u64	enable_on_exec		: 1;	/* start at next exec */
	__u64	task			: 1;	/* PERF_RECORD_FORK/EXIT */
	__u64	watermark		: 1;	/* wakeup_watermark is used */
	/*
	 * How far the sampled IP may be from the instruction that caused
	 * the overflow: 0 any skid, 1 constant skid, 2 zero skid asked
	 * for, 3 zero skid required. Samples with zero skid carry
	 * PERF_RECORD_MISC_EXACT_IP.
	 */
	__u64	precise_ip		: 2;
	__u64	mmap_data		: 1;	/* non-exec mappings too */
	__u64	sample_id_all		: 1;	/* sample_id on all records */
	__u64	exclude_host		: 1;	/* only while in a guest */
	__u64	exclude_guest		: 1;	/* only while not in a guest */
	__u64	exclude_callchain_kernel : 1;	/* no kernel frames */
	__u64	exclude_callchain_user	: 1;	/* no user frames */
	__u64	mmap2			: 1;	/* PERF_RECORD_MMAP2 */
	__u64	comm_exec		: 1;	/* mark exec in COMM */
	__u64	use_clockid		: 1;	/* timestamps from clockid */
	__u64	context_switch		: 1;	/* PERF_RECORD_SWITCH* */
	__u64	write_backward		: 1;	/* ring buffer grows down */
	__u64	namespaces		: 1;	/* PERF_RECORD_NAMESPACES */
	__u64	ksymbol			: 1;	/* PERF_RECORD_KSYMBOL */
	__u64	bpf_event		: 1;	/* PERF_RECORD_BPF_EVENT */
	__u64	aux_output		: 1;	/* output into leader's AUX */
	__u64	cgroup			: 1;	/* PERF_RECORD_CGROUP */
	__u64	text_poke		: 1;	/* PERF_RECORD_TEXT_POKE */
	__u64	build_id		: 1;	/* MMAP2 carries a build id */
	__u64	inherit_thread		: 1;	/* inherit on CLONE_THREAD only */
	__u64	remove_on_exec		: 1;	/* dropped at exec */
	__u64	sigtrap			: 1;	/* SIGTRAP on each overflow */
	__u64	__reserved_1		: 26;

	/* wake poll() every N samples, or (attr.watermark) every N bytes */
	union {
		__u32	wakeup_events;
		__u32	wakeup_watermark;
	};

	__u32	bp_type;	/* HW_BREAKPOINT_* access kind */
	/* second config word; named by what each event class keeps in it */
	union {
		__u64	bp_addr;
		__u64	kprobe_func;	/* kprobe PMU: symbol name pointer */
		__u64	uprobe_path;	/* uprobe PMU: path name pointer */
		__u64	config1;
	};
	/* third config word */
	union {
		__u64	bp_len;
		__u64	kprobe_addr;	/* kprobe PMU with kprobe_func 0 */
		__u64	probe_offset;	/* k/uprobe PMU: offset */
		__u64	config2;
	};
	__u64	branch_sample_type;	/* enum perf_branch_sample_type */

	/* mask of user registers for PERF_SAMPLE_REGS_USER (asm/perf_regs.h) */
	__u64	sample_regs_user;

	/* bytes of user stack to copy for PERF_SAMPLE_STACK_USER */
	__u32	sample_stack_user;

	__s32	clockid;	/* clock for timestamps if use_clockid */

	/*
	 * Mask of registers for PERF_SAMPLE_REGS_INTR: taken at the PMU
	 * interrupt, or at the sampled instruction when precise_ip > 0.
	 */
	__u64	sample_regs_intr;

	__u32	aux_watermark;		/* AUX bytes between wakeups */
	__u16	sample_max_stack;	/* callchain depth limit */
	__u16	__reserved_2;
	__u32	aux_sample_size;	/* AUX bytes per PERF_SAMPLE_AUX */

	/* controlling AUX tracing from this event */
	union {
		__u32	aux_action;
		struct {
			__u32	aux_start_paused : 1;	/* start paused */
			__u32	aux_pause	 : 1;	/* overflow pauses */
			__u32	aux_resume	 : 1;	/* overflow resumes */
			__u32	__reserved_3	 : 29;
		};
	};

	/*
	 * Handed back in siginfo::si_perf_data when sigtrap fires, so the
	 * handler can tell events apart (cut to long on 32-bit).
	 */
	__u64	sig_data;

	__u64	config3;	/* fourth config word */
};

/* ----------------------------------------------------------------------
 * 4. ioctls and perf_event_open(2) flags
 * ----------------------------------------------------------------------
 */

/*
 * Argument of PERF_EVENT_IOC_QUERY_BPF: the BPF programs attached to the
 * same tracepoint as the event.
 */
struct perf_event_query_bpf {
	__u32	ids_len;	/* in: room in ids[] */
	__u32	prog_cnt;	/* out: how many programs are attached */
	__u32	ids[];		/* out: their ids, up to ids_len */
};

#define PERF_EVENT_IOC_ENABLE		_IO('$', 0)
#define PERF_EVENT_IOC_DISABLE		_IO('$', 1)
#define PERF_EVENT_IOC_REFRESH		_IO('$', 2)
#define PERF_EVENT_IOC_RESET		_IO('$', 3)
#define PERF_EVENT_IOC_PERIOD		_IOW('$', 4, __u64)
#define PERF_EVENT_IOC_SET_OUTPUT	_IO('$', 5)
#define PERF_EVENT_IOC_SET_FILTER	_IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID		_IOR('$', 7, __u64 *)
#define PERF_EVENT_IOC_SET_BPF		_IOW('$', 8, __u32)
#define PERF_EVENT_IOC_PAUSE_OUTPUT	_IOW('$', 9, __u32)
#define PERF_EVENT_IOC_QUERY_BPF	\
	_IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES \
	_IOW('$', 11, struct perf_event_attr *)

/* ioctl argument for ENABLE/DISABLE/RESET/REFRESH: the whole group */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP		= 1U << 0,
};

/* flags argument of perf_event_open(2) */
#define PERF_FLAG_FD_NO_GROUP		0x1UL		/* ignore group_fd */
#define PERF_FLAG_FD_OUTPUT		0x2UL		/* output to group_fd */
#define PERF_FLAG_PID_CGROUP		0x4UL		/* pid is a cgroup fd */
#define PERF_FLAG_FD_CLOEXEC		0x8UL		/* O_CLOEXEC the new fd */

/* ----------------------------------------------------------------------
 * 5. The first page of the mmap()ed ring buffer
 * ----------------------------------------------------------------------
 */

/*
 * Page 0 of the mapping. The first part lets a task read its own counter
 * without a system call; the kernel rewrites it under the lock seqcount:
 *
 *	do {
 *		seq = pc->lock;  (then a read barrier)
 *		enabled = pc->time_enabled; running = pc->time_running;
 *		if (pc->cap_user_time && enabled != running)
 *			read the cycle counter and time_offset/mult/shift;
 *		idx = pc->index; count = pc->offset;
 *		if (pc->cap_user_rdpmc && idx)
 *			count += counter idx - 1, sign-extended from
 *			pc->pmc_width bits;
 *		(read barrier)
 *	} while (pc->lock != seq);
 *
 * Converting cycles to ns, with quot = cyc >> time_shift and
 * rem = cyc & ((1 << time_shift) - 1):
 *	delta = time_offset + quot * time_mult +
 *		((rem * time_mult) >> time_shift)
 * is added to enabled (and to running when idx != 0). Timestamps relate
 * to cycles the same way around time_zero. With cap_user_time_short the
 * counter is narrower than 64 bits, and cycles are first widened:
 *	cyc = time_cycles + ((cyc - time_cycles) & time_mask)
 *
 * The second part, at offset 1024, is the ring buffer control block.
 */
struct perf_event_mmap_page {
	__u32	version;	/* layout version of this page */
	__u32	compat_version;	/* oldest version it is compatible with */

	__u32	lock;		/* seqcount, odd while being updated */
	__u32	index;		/* hardware counter + 1, or 0 if none */
	__s64	offset;		/* add to the raw counter value */
	__u64	time_enabled;	/* ns the event was enabled */
	__u64	time_running;	/* ns the event was on a counter */
	union {
		__u64	capabilities;
		struct {
			/* old meaning dropped: always 0 */
			__u64	cap_bit0		: 1;
			/* always 1: says cap_bit0 is dead */
			__u64	cap_bit0_is_deprecated	: 1;
			/* counter readable from user mode */
			__u64	cap_user_rdpmc		: 1;
			/* time_offset/mult/shift are valid */
			__u64	cap_user_time		: 1;
			/* time_zero is valid */
			__u64	cap_user_time_zero	: 1;
			/* time_cycles/time_mask are valid */
			__u64	cap_user_time_short	: 1;
			__u64	cap_____res		: 58;
		};
	};

	__u16	pmc_width;	/* valid bits of a user-read counter */

	__u16	time_shift;	/* cycles to ns, see above */
	__u32	time_mult;
	__u64	time_offset;
	__u64	time_zero;	/* cycles <-> perf clock origin */

	__u32	size;		/* bytes used in front of __reserved[] */
	__u32	__reserved_1;

	__u64	time_cycles;	/* see cap_user_time_short */
	__u64	time_mask;

	/* room to grow the part above; pads the control block to 1 KiB */
	__u8	__reserved[116 * 8];

	/*
	 * Ring buffer control. The kernel advances data_head; read it, then
	 * issue a read barrier before reading the data. A PROT_WRITE mapping
	 * makes the buffer non-overwriting: user space stores data_tail
	 * (after a full barrier) to hand space back, and the kernel drops
	 * records rather than overwrite unread ones. data_offset/data_size
	 * say where the buffer lies in the mapping.
	 */
	__u64	data_head;
	__u64	data_tail;
	__u64	data_offset;
	__u64	data_size;

	/*
	 * The AUX area: user space sets aux_offset (at or beyond
	 * data_offset + data_size) and aux_size, then mmap()s that range.
	 * aux_head/aux_tail work like data_head/data_tail.
	 */
	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/* ----------------------------------------------------------------------
 * 6. Records in the ring buffer
 * ----------------------------------------------------------------------
 */

/*
 * perf_event_header::misc. Bits 0-2 hold the CPU mode the record was taken
 * in; bits 12-15 are flags, and bits 13 and 14 mean different things for
 * different record types.
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		7
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	0
#define PERF_RECORD_MISC_KERNEL			1
#define PERF_RECORD_MISC_USER			2
#define PERF_RECORD_MISC_HYPERVISOR		3
#define PERF_RECORD_MISC_GUEST_KERNEL		4
#define PERF_RECORD_MISC_GUEST_USER		5

/* synthesized MMAPs: reading /proc/PID/maps timed out, list incomplete */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	0x1000

/* bit 13 */
#define PERF_RECORD_MISC_MMAP_DATA		0x2000		/* MMAP*: not exec */
#define PERF_RECORD_MISC_COMM_EXEC		0x2000		/* COMM: by exec */
#define PERF_RECORD_MISC_FORK_EXEC		0x2000		/* FORK (tool only) */
#define PERF_RECORD_MISC_SWITCH_OUT		0x2000		/* SWITCH*: out */

/* bit 14 */
#define PERF_RECORD_MISC_EXACT_IP		0x4000		/* SAMPLE: no skid */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	0x4000		/* SWITCH*: preempted */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		0x4000		/* MMAP2: build id */

/* bit 15: kept for a future extended misc field */
#define PERF_RECORD_MISC_EXT_RESERVED		0x8000

/* Starts every record; size covers the header and the whole payload. */
struct perf_event_header {
	__u32	type;		/* enum perf_event_type */
	__u16	misc;		/* PERF_RECORD_MISC_* */
	__u16	size;
};

/* One namespace in PERF_RECORD_NAMESPACES: its nsfs device and inode. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Order of the namespaces in PERF_RECORD_NAMESPACES. */
enum {
	NET_NS_INDEX		= 0,
	UTS_NS_INDEX		= 1,
	IPC_NS_INDEX		= 2,
	PID_NS_INDEX		= 3,
	USER_NS_INDEX		= 4,
	MNT_NS_INDEX		= 5,
	CGROUP_NS_INDEX		= 6,

	NR_NAMESPACES,		/* entries in the record */
};

/*
 * Record types (perf_event_header::type). The payload of each is listed
 * below as it follows the header; u32/u64 are naturally aligned and every
 * record is padded to a multiple of 8 bytes.
 *
 * "sample_id" at the end of a payload is present only when
 * attr.sample_id_all is set. It repeats, in this order, those identity
 * fields that attr.sample_type asks for:
 *	{ u32 pid, tid }	TID
 *	{ u64 time }		TIME
 *	{ u64 id }		ID
 *	{ u64 stream_id }	STREAM_ID
 *	{ u32 cpu, res }	CPU
 *	{ u64 id }		IDENTIFIER
 * Being last, it lets older tools skip it, and with IDENTIFIER the id sits
 * at a fixed distance from the end of any record (in PERF_RECORD_SAMPLE it
 * comes first instead, at a fixed distance from the start).
 */
enum perf_event_type {
	/*
	 * An executable mapping was created:
	 *	u32 pid, tid; u64 addr, len, pgoff; char filename[];
	 *	sample_id
	 */
	PERF_RECORD_MMAP			= 1,

	/*
	 * Records were dropped because the buffer was full:
	 *	u64 id, lost; sample_id
	 */
	PERF_RECORD_LOST			= 2,

	/*
	 * A task was named (exec or prctl):
	 *	u32 pid, tid; char comm[]; sample_id
	 */
	PERF_RECORD_COMM			= 3,

	/*
	 * A task exited:
	 *	u32 pid, ppid, tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_EXIT			= 4,

	/*
	 * Sampling was throttled / resumed for rate limiting:
	 *	u64 time, id, stream_id; sample_id
	 */
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,

	/*
	 * A task was created:
	 *	u32 pid, ppid, tid, ptid; u64 time; sample_id
	 */
	PERF_RECORD_FORK			= 7,

	/*
	 * Final counts of an inherited counter in an exiting child:
	 *	u32 pid, tid; read_format values; sample_id
	 */
	PERF_RECORD_READ			= 8,

	/*
	 * An overflow sample. Fields appear in this order, each only if its
	 * sample_type bit is set:
	 *	u64 id				IDENTIFIER
	 *	u64 ip				IP
	 *	u32 pid, tid			TID
	 *	u64 time			TIME
	 *	u64 addr			ADDR
	 *	u64 id				ID
	 *	u64 stream_id			STREAM_ID
	 *	u32 cpu, res			CPU
	 *	u64 period			PERIOD
	 *	read_format values		READ
	 *	u64 nr; u64 ips[nr]		CALLCHAIN
	 *	u32 size; char data[size]	RAW (contents are not ABI)
	 *	u64 nr;				BRANCH_STACK
	 *	  u64 hw_idx			  with BRANCH_HW_INDEX
	 *	  perf_branch_entry lbr[nr]
	 *	  u64 cntr[nr]			  with BRANCH_COUNTERS; width
	 *					  and count per entry come
	 *					  from sysfs caps
	 *					  branch_counter_{nr,width}
	 *	u64 abi; u64 regs[popcount(sample_regs_user)]	REGS_USER
	 *	u64 size; char data[size];	STACK_USER
	 *	  u64 dyn_size			  (only if size != 0)
	 *	perf_sample_weight		WEIGHT or WEIGHT_STRUCT
	 *	u64 data_src			DATA_SRC
	 *	u64 transaction			TRANSACTION
	 *	u64 abi; u64 regs[popcount(sample_regs_intr)]	REGS_INTR
	 *	u64 phys_addr			PHYS_ADDR
	 *	u64 cgroup			CGROUP
	 *	u64 data_page_size		DATA_PAGE_SIZE
	 *	u64 code_page_size		CODE_PAGE_SIZE
	 *	u64 size; char data[size]	AUX
	 * (regs are absent when abi is PERF_SAMPLE_REGS_ABI_NONE)
	 */
	PERF_RECORD_SAMPLE			= 9,

	/*
	 * MMAP with identity of the mapped object:
	 *	u32 pid, tid; u64 addr, len, pgoff;
	 *	either  u32 maj, min; u64 ino, ino_generation;
	 *	or	u8 build_id_size, __reserved_1; u16 __reserved_2;
	 *		u8 build_id[20];  (PERF_RECORD_MISC_MMAP_BUILD_ID)
	 *	u32 prot, flags; char filename[]; sample_id
	 */
	PERF_RECORD_MMAP2			= 10,

	/*
	 * New data in the AUX area (flags: PERF_AUX_FLAG_*):
	 *	u64 aux_offset, aux_size, flags; sample_id
	 */
	PERF_RECORD_AUX				= 11,

	/*
	 * Instruction tracing began for a task:
	 *	u32 pid, tid; sample_id
	 */
	PERF_RECORD_ITRACE_START		= 12,

	/*
	 * Samples the PMU or kernel had to drop:
	 *	u64 lost; sample_id
	 */
	PERF_RECORD_LOST_SAMPLES		= 13,

	/*
	 * The monitored task was switched in, or out with
	 * PERF_RECORD_MISC_SWITCH_OUT:
	 *	sample_id
	 */
	PERF_RECORD_SWITCH			= 14,

	/*
	 * SWITCH for per-CPU events; the pid/tid are those of the task
	 * switched to (on out) or from (on in):
	 *	u32 next_prev_pid, next_prev_tid; sample_id
	 */
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,

	/*
	 * A task's namespaces, indexed by *_NS_INDEX:
	 *	u32 pid, tid; u64 nr_namespaces;
	 *	perf_ns_link_info link_info[nr_namespaces]; sample_id
	 */
	PERF_RECORD_NAMESPACES			= 16,

	/*
	 * Kernel text symbol added or (flags UNREGISTER) removed:
	 *	u64 addr; u32 len; u16 ksym_type, flags; char name[];
	 *	sample_id
	 */
	PERF_RECORD_KSYMBOL			= 17,

	/*
	 * BPF program loaded/unloaded (type: enum perf_bpf_event_type):
	 *	u16 type, flags; u32 id; u8 tag[BPF_TAG_SIZE]; sample_id
	 */
	PERF_RECORD_BPF_EVENT			= 18,

	/*
	 * A cgroup was created, giving its id and path:
	 *	u64 id; char path[]; sample_id
	 */
	PERF_RECORD_CGROUP			= 19,

	/*
	 * Kernel text was rewritten at addr; bytes[] holds old_len old
	 * bytes then new_len new bytes (either length may be 0):
	 *	u64 addr; u16 old_len, new_len; u8 bytes[]; sample_id
	 */
	PERF_RECORD_TEXT_POKE			= 20,

	/*
	 * Hardware id under which this event's aux_output data appears in
	 * the AUX trace (e.g. PEBS-via-PT); sample_id names the event:
	 *	u64 hw_id; sample_id
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,

	PERF_RECORD_MAX,			/* not ABI */
};

/* PERF_RECORD_KSYMBOL::ksym_type */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	/* trampolines, optimized kprobes, copied-out instructions */
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* not ABI */
};

/* PERF_RECORD_KSYMBOL::flags */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	1

/* PERF_RECORD_BPF_EVENT::type */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* not ABI */
};

/* Callchain limits: default frame depth, and context markers per chain. */
#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	8

/*
 * Markers inside a callchain's ips[]: the entries that follow one belong
 * to that context. They are values no real IP can take (the top 4 KiB).
 */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095,
};

/* PERF_RECORD_AUX::flags */
#define PERF_AUX_FLAG_TRUNCATED		0x01	/* buffer too small: cut */
#define PERF_AUX_FLAG_OVERWRITE		0x02	/* overwrite-mode snapshot */
#define PERF_AUX_FLAG_PARTIAL		0x04	/* has holes */
#define PERF_AUX_FLAG_COLLISION		0x08	/* sample overlapped another */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU's data format */

/* PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK values of the CoreSight PMU */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000	/* formatted */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100	/* raw source */

/* ----------------------------------------------------------------------
 * 7. Encodings inside sample fields
 * ----------------------------------------------------------------------
 */

/*
 * PERF_SAMPLE_DATA_SRC: where a sampled memory access was satisfied. The
 * bit positions are fixed in the u64, so the bitfield order flips with the
 * byte order. The PERF_MEM_*_SHIFT values below give each field's position
 * and PERF_MEM_S() builds a field value.
 */
#if defined(__LITTLE_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64	val;
	struct {
		__u64	mem_op		: 5;	/* PERF_MEM_OP_* */
		__u64	mem_lvl		: 14;	/* PERF_MEM_LVL_* (old) */
		__u64	mem_snoop	: 5;	/* PERF_MEM_SNOOP_* */
		__u64	mem_lock	: 2;	/* PERF_MEM_LOCK_* */
		__u64	mem_dtlb	: 7;	/* PERF_MEM_TLB_* */
		__u64	mem_lvl_num	: 4;	/* PERF_MEM_LVLNUM_* */
		__u64	mem_remote	: 1;	/* PERF_MEM_REMOTE_* */
		__u64	mem_snoopx	: 2;	/* PERF_MEM_SNOOPX_* */
		__u64	mem_blk		: 3;	/* PERF_MEM_BLK_* */
		__u64	mem_hops	: 3;	/* PERF_MEM_HOPS_* */
		__u64	mem_rsvd	: 18;
	};
};
#elif defined(__BIG_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64	val;
	struct {
		__u64	mem_rsvd	: 18;
		__u64	mem_hops	: 3;
		__u64	mem_blk		: 3;
		__u64	mem_snoopx	: 2;
		__u64	mem_remote	: 1;
		__u64	mem_lvl_num	: 4;
		__u64	mem_dtlb	: 7;
		__u64	mem_lock	: 2;
		__u64	mem_snoop	: 5;
		__u64	mem_lvl		: 14;
		__u64	mem_op		: 5;
	};
};
#else
#error "Unknown endianness"
#endif

/* mem_op: kind of access */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08	/* prefetch */
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: level that served the access plus hit/miss. Superseded by
 * mem_lvl_num + mem_remote + mem_snoopx, but still filled in and kept for
 * old users.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* DRAM of this node */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* cache one hop away */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* cache two hops away */
#define PERF_MEM_LVL_IO		0x1000	/* I/O space */
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_remote: the level is on another node */
#define PERF_MEM_REMOTE_REMOTE	0x01
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: level that served the access, as a number */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_L2_MHB	0x05	/* L2 miss handling buffer */
#define PERF_MEM_LVLNUM_MSC	0x06	/* memory-side cache */
/* 0x07 is unassigned */
#define PERF_MEM_LVLNUM_UNC	0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL	0x09	/* CXL memory */
#define PERF_MEM_LVLNUM_IO	0x0a	/* I/O space */
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b	/* some cache, unknown which */
#define PERF_MEM_LVLNUM_LFB	0x0c	/* line fill / L1 miss buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d	/* DRAM */
#define PERF_MEM_LVLNUM_PMEM	0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA	0x0f	/* unknown */
#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop: coherence snoop result */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02	/* no snoop needed */
#define PERF_MEM_SNOOP_HIT	0x04
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx: more snoop results */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* supplied by a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_lock: atomic (locked) access */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb: data TLB lookup */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* page table walker */
#define PERF_MEM_TLB_OS		0x40	/* OS fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk: why the access was held up */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* data could not be forwarded */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: how far away the remote level was (5-7 unassigned) */
#define PERF_MEM_HOPS_0		0x01	/* other core, same node */
#define PERF_MEM_HOPS_1		0x02	/* other node, same socket */
#define PERF_MEM_HOPS_2		0x03	/* other socket, same board */
#define PERF_MEM_HOPS_3		0x04	/* other board */
#define PERF_MEM_HOPS_SHIFT	43

/* PERF_MEM_S(LVL, HIT): PERF_MEM_LVL_HIT moved to the mem_lvl position */
#define PERF_MEM_S(a, s) \
	(((__u64)PERF_MEM_##a##_##s) << PERF_MEM_##a##_SHIFT)

/*
 * One entry of PERF_SAMPLE_BRANCH_STACK: a taken branch from -> to. The
 * flags are only as good as the hardware: unsupported ones read as 0
 * (mispred and predicted both 0 means "not known").
 */
struct perf_branch_entry {
	__u64	from;		/* branch source (may be a non-branch insn) */
	__u64	to;		/* branch target */
	__u64	mispred		: 1;	/* target was mispredicted */
	__u64	predicted	: 1;	/* target was predicted */
	__u64	in_tx		: 1;	/* inside a hw transaction */
	__u64	abort		: 1;	/* aborts a hw transaction */
	__u64	cycles		: 16;	/* cycles since previous entry */
	__u64	type		: 4;	/* PERF_BR_* */
	__u64	spec		: 2;	/* PERF_BR_SPEC_* */
	__u64	new_type	: 4;	/* PERF_BR_NEW_* */
	__u64	priv		: 3;	/* PERF_BR_PRIV_* */
	__u64	reserved	: 31;
};

/* Number of bits in use in the flag word of struct perf_branch_entry */
#define PERF_BRANCH_ENTRY_INFO_BITS_MAX		33

/*
 * PERF_SAMPLE_WEIGHT gives full; PERF_SAMPLE_WEIGHT_STRUCT splits the same
 * u64 into up to three PMU-defined weights (e.g. latency in var1_dw,
 * instruction latency in var2_w) at fixed positions in the u64.
 */
union perf_sample_weight {
	__u64		full;
#if defined(__LITTLE_ENDIAN_BITFIELD)
	struct {
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
	};
#elif defined(__BIG_ENDIAN_BITFIELD)
	struct {
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
	};
#else
#error "Unknown endianness"
#endif
};

/* ----------------------------------------------------------------------
 * 8. Extensions of this implementation
 * ----------------------------------------------------------------------
 *
 * Opt-in ABI that upstream 6.12 does not have and rejects with EINVAL, so
 * no existing binary sees a change and a program probes for each one by
 * trying it.  Documentation/perf_events/extensions.rst is the manual.
 */

/*
 * read_format bit: after each value's id and lost fields, three more u64:
 *	lost		samples dropped because the ring buffer was full
 *	throttled	overflow interrupts refused by the sample-rate limit
 *	unscheduled	ns the event was enabled but not counting
 *			(time_enabled - time_running: multiplexing, or a
 *			pinned group that could not go on)
 * Inherited and process-wide copies add theirs to the event's.
 */
#define PERF_FORMAT_LOSSES		0x20U	/* 1U << 5 */

/*
 * perf_event_open(2) flags.  PERF_FLAG_PID_PROCESS: @pid names a process
 * (any of its threads); the event counts in every thread it has now and
 * every thread it creates later, as one event behind one descriptor.  A
 * new process created by fork() gets it only with attr.inherit.  Implies
 * PERF_FLAG_SHARED_BUFFER.
 * PERF_FLAG_SHARED_BUFFER: the event's ring buffer takes records from
 * many CPUs at once, so an inherited event with cpu == -1 may be mapped.
 */
#define PERF_FLAG_PID_PROCESS		0x10UL
#define PERF_FLAG_SHARED_BUFFER		0x20UL

/*
 * PERF_EVENT_IOC_READ_THREADS, on a process-wide event: each live thread's
 * count (exited threads' are only in the total read() gives).  In, @nr is
 * the room in @values; out, the number of live threads, of which the first
 * min(room, threads) are filled in.  pid and tid are in the opener's pid
 * namespace.  EINVAL on any other event.
 */
struct perf_event_thread_value {
	__u32	pid;
	__u32	tid;
	__u64	value;
};

struct perf_event_thread_values {
	__u32	nr;
	__u32	__reserved;
	struct perf_event_thread_value	values[];
};

#define PERF_EVENT_IOC_READ_THREADS	\
	_IOWR('$', 0x80, struct perf_event_thread_values)

#endif /* _UAPI_LINUX_PERF_EVENT_H */
