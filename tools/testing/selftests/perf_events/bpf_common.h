/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw bpf(2) for the tests that load BPF programs (bpf_events.c,
 * hw_lbr.c): hand-assembled instructions, array maps and program loading,
 * so that no test needs libbpf or a BPF compiler. A failed load prints
 * the verifier's log on stderr.
 */
#ifndef PERF_EVENTS_BPF_COMMON_H
#define PERF_EVENTS_BPF_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>

/* BPF instructions, spelled out (the uapi header has only the struct) */
#define INSN(c, d, s, o, i)	((struct bpf_insn){ .code = (c),	\
	.dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
/* a 64-bit load takes two instructions: LD_MAP() or LD_IMM64(), then LD_HI() */
#define LD_MAP(d, fd)		INSN(BPF_LD | BPF_DW | BPF_IMM, d,	\
				     BPF_PSEUDO_MAP_FD, 0, fd)
#define LD_IMM64(d, lo)		INSN(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, lo)
#define LD_HI(hi)		INSN(0, 0, 0, 0, hi)
#define ST_DW(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_DW, d, 0, o, i)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define XADD_DW(d, s, o)	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o,	\
				     BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static inline int map_create(__u32 type, __u32 value_size, __u32 entries)
{
	union bpf_attr a = {
		.map_type = type,
		.key_size = 4,
		.value_size = value_size,
		.max_entries = entries,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

static inline int map_update(int fd, __u32 key, const void *value)
{
	union bpf_attr a = {
		.map_fd = fd,
		.key = (unsigned long)&key,
		.value = (unsigned long)value,
	};

	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a);
}

static inline int map_lookup(int fd, __u32 key, void *value)
{
	union bpf_attr a = {
		.map_fd = fd,
		.key = (unsigned long)&key,
		.value = (unsigned long)value,
	};

	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

static char bpf_log[65536];

static inline int prog_load(__u32 type, const struct bpf_insn *insns, int n)
{
	union bpf_attr a = {
		.prog_type = type,
		.insns = (unsigned long)insns,
		.insn_cnt = n,
		.license = (unsigned long)"GPL",
		.log_buf = (unsigned long)bpf_log,
		.log_size = sizeof(bpf_log),
		.log_level = 1,
	};
	int fd;

	bpf_log[0] = 0;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		fprintf(stderr, "# prog load: %s\n# %.2000s\n", strerror(errno),
			bpf_log);
	return fd;
}

#endif /* PERF_EVENTS_BPF_COMMON_H */
