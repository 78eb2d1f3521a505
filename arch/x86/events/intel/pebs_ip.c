// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events, Intel: the eventing IP of PEBS records that lack it.
 *
 * Until record format 2 the PEBS assist is trap-like and the record
 * holds the registers as they are after the instruction that made the
 * counter wrap: its RIP is the next instruction's, and nothing in the
 * record names the eventing one (SDM vol. 3B, the PEBS record of the
 * Nehalem to Ivy Bridge microarchitectures). precise_ip 2 asks for it.
 *
 * The LBR knows where the code came from. Its youngest entry is the last
 * taken branch before the record, so the eventing instruction is either
 * that branch, when it went to the record's RIP, or the last instruction
 * of the straight run of code from the branch's target up to the RIP,
 * which decoding the run one instruction at a time finds.
 *
 * That holds only if no branch was taken between the record and the
 * moment the LBR is read: pebs.c gives such events one record per PMI,
 * and lbr.c has the CPU freeze the LBR as it raises the PMI. Where it
 * does not hold, or the code cannot be read, the walk fails and the
 * sample keeps the RIP, without PERF_RECORD_MISC_EXACT_IP, as a
 * precise_ip 1 sample has it.
 *
 * Context: the PMI, in NMI: code is read without faulting.
 */

#include <linux/minmax.h>
#include <linux/types.h>

#include <asm/insn.h>

#include "../lbr_filter.h"
#include "intel.h"

/*
 * How far before the RIP the branch's target may be. A straight run of
 * code longer than this is rare, and each of its instructions is read
 * and decoded in the NMI.
 */
#define PEBS_IP_MAX_RUN		4096

/**
 * intel_pebs_ip_walk - the instruction before @next_ip, from a branch
 * @from: the youngest LBR entry's source
 * @to: its target
 * @next_ip: the record's RIP, after the eventing instruction
 * @read: reads code as x86_read_text() does (KUnit passes its own)
 * @ip: set to the eventing IP when it is found
 *
 * Context: as the caller's @read allows; no locks.
 * Return: whether @ip was found.
 */
bool intel_pebs_ip_walk(u64 from, u64 to, u64 next_ip,
			intel_text_reader_t read, u64 *ip)
{
	u8 buf[MAX_INSN_SIZE];
	unsigned int want, got;
	struct insn insn;
	u64 at, last;
	bool is64;

	if (!from || !to)
		return false;
	if (to == next_ip) {
		*ip = from;
		return true;
	}
	/* the run must lie before the RIP, in the same address space */
	if (to > next_ip || next_ip - to > PEBS_IP_MAX_RUN ||
	    x86_kernel_addr(to) != x86_kernel_addr(next_ip))
		return false;

	for (at = to, last = to; at < next_ip; at += insn.length) {
		want = min_t(u64, sizeof(buf), next_ip - at);
		got = read(at, buf, want, &is64);
		if (!got || insn_decode(&insn, buf, got,
					is64 ? INSN_MODE_64 : INSN_MODE_32) ||
		    !insn.length)
			return false;
		last = at;
	}
	if (at != next_ip)
		return false;
	*ip = last;
	return true;
}

/**
 * intel_pebs_lbr_ip - the eventing IP of a record without one
 * @next_ip: the record's RIP
 * @ip: set to the eventing IP when it is found
 *
 * Context: the PMI (NMI), the LBR stopped; no locks.
 * Return: whether @ip was found.
 */
bool intel_pebs_lbr_ip(u64 next_ip, u64 *ip)
{
	struct intel_lbr_rec last;

	if (!intel_lbr_youngest(&last))
		return false;
	return intel_pebs_ip_walk(last.from, last.to, next_ip, x86_read_text,
				  ip);
}
