// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 perf_events: the arch part of the mmapped perf_event_mmap_page.
 *
 * User space converts a TSC value read with rdtsc to perf time with
 * time_shift, time_mult and time_offset (and to an absolute perf_clock()
 * value with time_zero), as described in include/uapi/linux/perf_event.h.
 * That only works while perf time is a fixed linear function of the TSC:
 * sched_clock() must be the native TSC-based one and marked stable, so
 * that local_clock() (the clock perf times events with, unless the event
 * asked for another clockid) is sched_clock() plus a constant offset.
 */

#include <linux/perf_event.h>
#include <linux/sched/clock.h>

#include <asm/timer.h>

#include "pmu.h"

/**
 * arch_perf_update_userpage - fill in the x86 fields of a user page
 * @event: the event whose page is updated
 * @userpg: the page; the caller holds its seqcount (userpg->lock) odd
 * @now: perf_clock() at the time the caller computed enabled/running
 *
 * Time: when the TSC-to-perf-time conversion is a fixed linear map, sets
 * cap_user_time with the scale (time_mult, time_shift) and time_offset so
 * that a TSC read converts to a delta from @now, and, for events timed
 * with perf_clock(), cap_user_time_zero with time_zero, perf time at TSC 0.
 * Otherwise both caps are cleared.
 *
 * Counters: an event of a core PMU created while the rdpmc policy
 * allowed it (rdpmc.c) has cap_user_rdpmc, and user space may read its
 * counter with RDPMC at index - 1 whenever index is non-zero; pmc_width
 * says how many bits of that value to sign-extend. Other events have
 * neither.
 *
 * Context: the generic core's update of the page, with preemption off and
 * possibly in NMI; cyc2ns_read_begin() is NMI-safe.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct cyc2ns_data data;
	u64 tsc0_ns;

	lockdep_assert_preemption_disabled();
	/* hw.flags is only ours to read on events of a core PMU */
	userpg->cap_user_rdpmc = x86_core_event(event) &&
		(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT);
	userpg->pmc_width = userpg->cap_user_rdpmc ?
			    x86_event_core(event)->gp_width : 0;
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;

	if (!using_native_sched_clock() || !sched_clock_stable())
		return;

	cyc2ns_read_begin(&data);

	/*
	 * local_clock() = (tsc * mul >> shift) + cyc2ns_offset +
	 * __sched_clock_offset, so perf time at TSC 0 is the sum of the two
	 * offsets.
	 */
	tsc0_ns = data.cyc2ns_offset + __sched_clock_offset;

	userpg->cap_user_time = 1;
	userpg->time_mult = data.cyc2ns_mul;
	userpg->time_shift = data.cyc2ns_shift;
	userpg->time_offset = tsc0_ns - now;

	/* time_zero is in local_clock() terms: meaningless for a clockid. */
	if (!event->attr.use_clockid) {
		userpg->cap_user_time_zero = 1;
		userpg->time_zero = tsc0_ns;
	}

	cyc2ns_read_end();
}
