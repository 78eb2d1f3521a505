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
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>

#include "internal.h"

#define DEFAULT_MAX_SAMPLE_RATE		100000
#define DEFAULT_CPU_TIME_MAX_PERCENT	25

#ifdef CONFIG_SECURITY_PERF_EVENTS_RESTRICT
int sysctl_perf_event_paranoid __read_mostly = 3;
#else
int sysctl_perf_event_paranoid __read_mostly = 2;
#endif

/* kiB a user may lock for ring buffers beyond RLIMIT_MEMLOCK: 512 + a page */
int sysctl_perf_event_mlock __read_mostly = 512 + (PAGE_SIZE / 1024);

int sysctl_perf_event_sample_rate __read_mostly = DEFAULT_MAX_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly =
	DEFAULT_CPU_TIME_MAX_PERCENT;

int perf_sample_period_ns __read_mostly =
	NSEC_PER_SEC / DEFAULT_MAX_SAMPLE_RATE;

/* overflows one event may take per tick before it is throttled */
int perf_max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(DEFAULT_MAX_SAMPLE_RATE, HZ);

/* ns a sample may take on average before the rate is lowered; 0: no limit */
static u64 perf_sample_allowed_ns __read_mostly =
	NSEC_PER_SEC / DEFAULT_MAX_SAMPLE_RATE *
	DEFAULT_CPU_TIME_MAX_PERCENT / 100;

static void perf_update_sample_budget(void)
{
	u64 ns = (u64)perf_sample_period_ns * sysctl_perf_cpu_time_max_percent;

	ns = div_u64(ns, 100);
	WRITE_ONCE(perf_sample_allowed_ns, ns ? ns : 1);
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
	int pct = sysctl_perf_cpu_time_max_percent;
	int ret;

	if (write && (pct == 100 || pct == 0))
		return -EINVAL;
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	WRITE_ONCE(perf_max_samples_per_tick,
		   DIV_ROUND_UP(sysctl_perf_event_sample_rate, HZ));
	perf_sample_period_ns = NSEC_PER_SEC / sysctl_perf_event_sample_rate;
	perf_update_sample_budget();
	return 0;
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
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	if (sysctl_perf_cpu_time_max_percent == 100 ||
	    sysctl_perf_cpu_time_max_percent == 0) {
		pr_warn("perf: interrupt throttling is off; sampling can stall the machine\n");
		WRITE_ONCE(perf_sample_allowed_ns, 0);
	} else {
		perf_update_sample_budget();
	}
	return 0;
}

/*
 * The average length of this CPU's recent sampling interrupts, in ns: an
 * exponential moving average in which each new interrupt weighs 1/64.
 */
static DEFINE_PER_CPU(u64, perf_sample_avg_ns);
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
 * When interrupts take longer on average than perf_cpu_time_max_percent
 * of the time between samples at the current maximum rate allows, the
 * maximum rate is lowered until they fit, with a quarter to spare, and the
 * change is logged.  The rate is never raised again automatically: an
 * administrator may write it back.
 *
 * Context: IRQ or NMI (the log line is printed from an irq_work).
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 allowed = READ_ONCE(perf_sample_allowed_ns);
	u64 avg, budget, per_tick;

	if (!allowed)
		return;
	avg = __this_cpu_read(perf_sample_avg_ns);
	avg = avg - (avg >> 6) + (sample_len_ns >> 6);
	__this_cpu_write(perf_sample_avg_ns, avg);
	if (avg <= allowed)
		return;

	WRITE_ONCE(perf_lowered_avg_ns, avg);
	WRITE_ONCE(perf_lowered_allowed_ns, allowed);
	avg += avg / 4;
	budget = TICK_NSEC / 100 * READ_ONCE(sysctl_perf_cpu_time_max_percent);
	per_tick = avg < budget ? div64_u64(budget, avg) : 1;

	WRITE_ONCE(perf_sample_allowed_ns, avg);
	WRITE_ONCE(perf_max_samples_per_tick, per_tick);
	WRITE_ONCE(sysctl_perf_event_sample_rate, per_tick * HZ);
	WRITE_ONCE(perf_sample_period_ns,
		   NSEC_PER_SEC / (per_tick * HZ));
	irq_work_queue(&perf_report_work);
}

/*
 * perf_event_max_stack and perf_event_max_contexts_per_stack, their handler
 * and the callchain buffers they size live in callchain.c.
 */
