// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls under /proc/sys/kernel/.  kernel/sysctl.c owns the table
 * entries; the variables and the handlers with side effects live here.
 *
 * perf_event_paranoid: 3 (a distribution's level, CONFIG_SECURITY_PERF_
 *   EVENTS_RESTRICT) refuses every unprivileged open; 2 refuses kernel
 *   profiling, 1 CPU-wide events, 0 raw tracepoint data; -1 allows all.
 * perf_event_max_sample_rate and perf_cpu_time_max_percent bound the time
 *   spent in sampling interrupts; the rate is lowered automatically when
 *   samples take longer than their share (see perf_sample_event_took()).
 */
#include <kunit/visibility.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>

#include "overflow.h"
#include "sysctl.h"

#define DEFAULT_MAX_SAMPLE_RATE		100000
#define DEFAULT_CPU_TIME_MAX_PERCENT	25

/* a distribution's kernel (SECURITY_PERF_EVENTS_RESTRICT) starts at 3 */
#define DEFAULT_PARANOID_LEVEL \
	(IS_ENABLED(CONFIG_SECURITY_PERF_EVENTS_RESTRICT) ? 3 : 2)
/* kiB a user may lock for ring buffers beyond RLIMIT_MEMLOCK: 512 + a page */
#define DEFAULT_MLOCK_KB		(512 + PAGE_SIZE / 1024)

int sysctl_perf_event_paranoid __read_mostly = DEFAULT_PARANOID_LEVEL;
int sysctl_perf_event_mlock __read_mostly = DEFAULT_MLOCK_KB;

int sysctl_perf_event_sample_rate __read_mostly = DEFAULT_MAX_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly =
	DEFAULT_CPU_TIME_MAX_PERCENT;

/*
 * What the two sysctls above come to, kept in step by perf_set_limits():
 * how many overflows one event may take per tick before it is throttled,
 * and how long a sampling interrupt may take on average (0: no limit,
 * throttling is off) before the rate is lowered.
 */
int perf_max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(DEFAULT_MAX_SAMPLE_RATE, HZ);
static u64 perf_sample_allowed_ns __read_mostly =
	NSEC_PER_SEC / DEFAULT_MAX_SAMPLE_RATE *
	DEFAULT_CPU_TIME_MAX_PERCENT / 100;

static bool perf_throttling_off(int pct)
{
	return pct == 0 || pct == 100;
}

/*
 * Derive the limits from a maximum rate of @rate samples per second and
 * the current CPU-time share.  At @rate the gap between two samples is
 * NSEC_PER_SEC / rate; an interrupt may use its share of that gap.
 * Context: any, NMI included (perf_sample_event_took()): plain stores,
 * each value read whole by its users; two racing writers leave one
 * consistent set or a mix of two valid ones.
 */
static void perf_set_limits(int rate)
{
	int pct = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	u64 allowed = 0;

	if (!perf_throttling_off(pct))
		allowed = max(div_u64((u64)(NSEC_PER_SEC / rate) * pct, 100),
			      1ULL);
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	WRITE_ONCE(perf_max_samples_per_tick, DIV_ROUND_UP(rate, HZ));
	WRITE_ONCE(perf_sample_allowed_ns, allowed);
}

/**
 * perf_event_max_sample_rate_handler - perf_event_max_sample_rate
 * @table: the sysctl entry
 * @write: a write?
 * @buffer: data
 * @lenp: its length
 * @ppos: file position
 *
 * With throttling off (cpu_time_max_percent 0 or 100) the rate may not be
 * changed: nothing would stop the machine from drowning in interrupts.
 * Return: 0 or a negative errno.
 */
int perf_event_max_sample_rate_handler(const struct ctl_table *table, int write,
				       void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int ret;

	if (write && perf_throttling_off(sysctl_perf_cpu_time_max_percent))
		return -EINVAL;
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret && write)
		perf_set_limits(sysctl_perf_event_sample_rate);
	return ret;
}

/**
 * perf_cpu_time_max_percent_handler - perf_cpu_time_max_percent
 * @table: the sysctl entry
 * @write: a write?
 * @buffer: data
 * @lenp: its length
 * @ppos: file position
 *
 * Return: 0 or a negative errno.
 */
int perf_cpu_time_max_percent_handler(const struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret && write) {
		if (perf_throttling_off(sysctl_perf_cpu_time_max_percent))
			pr_warn("perf: Dynamic interrupt throttling disabled, can hang your system!\n");
		/* the share changed: the interrupt budget follows */
		perf_set_limits(sysctl_perf_event_sample_rate);
	}
	return ret;
}

/**
 * perf_rate_for_cost - the most samples per tick that fit a CPU-time share
 * @cost_ns: what one sampling interrupt costs
 * @pct: the share of each tick they may take, 1..99
 *
 * Context: any.
 * Return: how many interrupts of @cost_ns fit in @pct percent of a tick,
 * at least 1: a CPU always gets one sample per tick.
 */
VISIBLE_IF_KUNIT u64 perf_rate_for_cost(u64 cost_ns, int pct)
{
	u64 budget = (u64)TICK_NSEC * pct / 100;

	return cost_ns && cost_ns < budget ? div64_u64(budget, cost_ns) : 1;
}
EXPORT_SYMBOL_IF_KUNIT(perf_rate_for_cost);

/*
 * The average length of this CPU's recent sampling interrupts, in ns: an
 * exponential moving average in which each new interrupt weighs 1/64.
 */
static DEFINE_PER_CPU(u64, perf_sample_avg_ns);

/* what the log line reports; written before the irq_work is queued */
static u64 perf_lowered_avg_ns, perf_lowered_allowed_ns;

static void perf_report_lowered(struct irq_work *work)
{
	pr_info("perf: interrupt took too long (%llu > %llu), lowering kernel.perf_event_max_sample_rate to %d\n",
		READ_ONCE(perf_lowered_avg_ns),
		READ_ONCE(perf_lowered_allowed_ns),
		READ_ONCE(sysctl_perf_event_sample_rate));
}

static DEFINE_IRQ_WORK(perf_report_work, perf_report_lowered);

/**
 * perf_sample_event_took - account the time one sampling interrupt took
 * @sample_len_ns: its length
 *
 * When interrupts take longer on average than their share of the gap
 * between samples at the current maximum rate, the maximum rate is lowered
 * to what fits with the average cost padded by a quarter, and the change
 * is logged.  The rate is never raised again automatically: an
 * administrator may write it back.
 *
 * Context: IRQ or NMI (the log line is printed from an irq_work).
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 allowed = READ_ONCE(perf_sample_allowed_ns);
	u64 avg, per_tick;

	if (!allowed)
		return;
	avg = __this_cpu_read(perf_sample_avg_ns);
	avg += (sample_len_ns >> 6) - (avg >> 6);
	__this_cpu_write(perf_sample_avg_ns, avg);
	if (avg <= allowed)
		return;

	WRITE_ONCE(perf_lowered_avg_ns, avg);
	WRITE_ONCE(perf_lowered_allowed_ns, allowed);
	per_tick = perf_rate_for_cost(avg + avg / 4,
				      READ_ONCE(sysctl_perf_cpu_time_max_percent));
	perf_set_limits(min_t(u64, per_tick * HZ, INT_MAX));
	irq_work_queue(&perf_report_work);
}

/*
 * perf_event_max_stack and perf_event_max_contexts_per_stack, their handler
 * and the callchain buffers they size live in callchain.c.
 */
