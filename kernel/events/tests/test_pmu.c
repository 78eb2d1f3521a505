// SPDX-License-Identifier: GPL-2.0
/*
 * test_pmu: a PMU with a few counters and no hardware behind it, so that
 * the core's scheduling, group and multiplexing rules can be tested on any
 * machine (CONFIG_PERF_TEST_PMU; never in production configs).
 *
 * Each CPU has test_pmu.counters counters (boot parameter, default 4, at
 * most TEST_PMU_MAX).  A counter counts the nanoseconds of context time it
 * is on times the event's rate (config:0-7, 0 meaning 1).  The core
 * measures time_running in the same context time, so a count is exactly
 * rate * time_running: the core's bookkeeping of which event is on can be
 * checked to the nanosecond.  config:8 ("first") ties an event to counter
 * 0, a constraint like those of real PMUs.
 *
 * config:9 ("tick") counts something the core does not measure instead:
 * the ticks of the PMU's own per-CPU hrtimer (below) that fire while the
 * counter is on, each worth TEST_PMU_TICK_NS * rate.  Missed expiries
 * (a late timer) are counted too, so the count follows the monotonic
 * clock to within a tick per start/stop.  Scaling such a count by
 * time_enabled / time_running is a real estimate, as on hardware: a wrong
 * time_running shows up as a wrong estimate.
 *
 * Sampling: a per-CPU hrtimer, in hard IRQ context like a PMU interrupt,
 * runs every TEST_PMU_TICK_NS while a sampling event is on a counter of its
 * CPU.  It brings the counts up to date and, for every counter that has
 * crossed its period since the last tick, calls perf_event_overflow() once
 * (a real counter also interrupts once per overflow however late the
 * interrupt comes) and stops the counter when told to.  The next period
 * starts whole (so that after ioctl REFRESH a whole period goes by before
 * the next overflow), except in frequency mode, where what the counter
 * counted past the period counts towards the next one unless a whole
 * period went by: the rate then follows the period the core steers.  The
 * period is counted again from the tick that saw it change (ioctl
 * PERIOD), as upstream's PERIOD restarts it.
 *
 * Frequency mode: the core steers hw.sample_period (perf_adjust_period()),
 * and may zero hw.period_left and restart the counter with PERF_EF_RELOAD;
 * as a real driver does, start then arms a new period when nothing is left
 * of the old one, and otherwise lets the current period run out first.
 *
 * test_pmu.exclusive=1 (also writable in /sys/module/test_pmu/parameters
 * while the PMU has no events) makes it PERF_PMU_CAP_EXCLUSIVE.
 *
 * add/del/start/stop/read run on the event's CPU with IRQs off under the
 * context lock, like any driver's; the tick runs on the same CPU in hard
 * IRQ, so neither can interrupt the other and the per-CPU state needs no
 * other locking.
 */
#include <linux/hrtimer.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <asm/irq_regs.h>

#include "../time.h"

#define TEST_PMU_MAX		16
#define TEST_PMU_RATE(cfg)	((cfg) & 0xff)
#define TEST_PMU_FIRST(cfg)	(((cfg) >> 8) & 1)
#define TEST_PMU_TICKS(cfg)	(((cfg) >> 9) & 1)
#define TEST_PMU_CONFIG_MASK	0x3ffULL

static unsigned int counters = 4;
module_param(counters, uint, 0444);
MODULE_PARM_DESC(counters, "counters per CPU (1..16)");

/*
 * Period of the PMU's hrtimer while a sampling or "tick" event is on a
 * counter: not a divisor of the core's rotation interval, so that ticks
 * and rotations do not fall into step.
 */
#define TEST_PMU_TICK_NS	(487 * NSEC_PER_USEC)

/* the period a counter was armed with: hw.config_base is unused here */
#define armed_period		config_base

struct test_pmu_cpu {
	unsigned long		used;		/* counters in use */
	struct perf_event	*events[TEST_PMU_MAX];
	struct hrtimer		tick;
	u64			ticks;		/* expiries of tick so far */
	bool			ticking;
	int			cpu;
};

static DEFINE_PER_CPU(struct test_pmu_cpu, test_pmu_cpus);

static struct pmu test_pmu;

/*
 * Live events of the PMU, and the lock that orders their creation against
 * a change of the exclusive switch: the core reads the capability after
 * event_init, so it may change only while no event exists.
 */
static DEFINE_MUTEX(test_pmu_lock);
static unsigned int test_pmu_nr_events;
static bool exclusive;

static int exclusive_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	mutex_lock(&test_pmu_lock);
	if (test_pmu_nr_events) {
		ret = -EBUSY;
	} else {
		exclusive = on;
		if (on)
			test_pmu.capabilities |= PERF_PMU_CAP_EXCLUSIVE;
		else
			test_pmu.capabilities &= ~PERF_PMU_CAP_EXCLUSIVE;
	}
	mutex_unlock(&test_pmu_lock);
	return ret;
}

static const struct kernel_param_ops exclusive_ops = {
	.set	= exclusive_set,
	.get	= param_get_bool,
};
module_param_cb(exclusive, &exclusive_ops, &exclusive, 0644);
MODULE_PARM_DESC(exclusive, "PERF_PMU_CAP_EXCLUSIVE (only while no events)");

static u64 rate_of(struct perf_event *event)
{
	return TEST_PMU_RATE(event->attr.config) ?: 1;
}

static bool counts_ticks(struct perf_event *event)
{
	return TEST_PMU_TICKS(event->attr.config);
}

/* the events that need the hrtimer while they are on a counter */
static bool needs_tick(struct perf_event *event)
{
	return is_sampling_event(event) || counts_ticks(event);
}

/* the counter's raw value now: context time, or this CPU's ticks */
static u64 test_pmu_raw(struct perf_event *event)
{
	if (counts_ticks(event))
		return this_cpu_read(test_pmu_cpus.ticks);
	return event->ctx->time;
}

static u64 raw_to_count(struct perf_event *event, u64 raw_delta)
{
	if (counts_ticks(event))
		raw_delta *= TEST_PMU_TICK_NS;
	return raw_delta * rate_of(event);
}

/* the core brings ctx->time up to date before calling into a PMU */
static void test_pmu_update(struct perf_event *event)
{
	u64 now = test_pmu_raw(event);
	u64 prev = local64_read(&event->hw.prev_count);
	u64 delta;

	/*
	 * The tick counts up to the context clock's present, which ctx->time
	 * catches up with only at the core's next update: until then there
	 * is nothing new to count.
	 */
	if ((s64)(now - prev) <= 0)
		return;
	local64_set(&event->hw.prev_count, now);
	delta = raw_to_count(event, now - prev);

	local64_add(delta, &event->count);
	/* the tick reports the overflow if this used the period up */
	if (is_sampling_event(event))
		local64_sub(delta, &event->hw.period_left);
}

/*
 * Arm the period: count it from now if it was never armed, has run out, or
 * was changed by ioctl PERIOD since it was armed.  In frequency mode the
 * core changes the period all the time: a new one applies from the next
 * period on, or now if the core zeroed what was left (PERF_EF_RELOAD).
 */
static void test_pmu_arm_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (event->attr.freq)
		hwc->armed_period = hwc->sample_period;
	if (hwc->armed_period != hwc->sample_period ||
	    local64_read(&hwc->period_left) <= 0) {
		hwc->armed_period = hwc->sample_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
}

static void test_pmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, test_pmu_raw(event));
	if (is_sampling_event(event))
		test_pmu_arm_period(event);
	event->hw.state = 0;
}

static void test_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		test_pmu_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int test_pmu_add(struct perf_event *event, int flags)
{
	struct test_pmu_cpu *tc = this_cpu_ptr(&test_pmu_cpus);
	unsigned long *used = &tc->used;
	unsigned int idx;

	if (TEST_PMU_FIRST(event->attr.config))
		idx = test_bit(0, used) ? counters : 0;
	else
		idx = find_first_zero_bit(used, counters);
	if (idx >= counters)
		return -EAGAIN;
	__set_bit(idx, used);
	tc->events[idx] = event;
	event->hw.idx = idx;
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		test_pmu_start(event, flags);
	if (needs_tick(event) && !tc->ticking) {
		tc->ticking = true;
		hrtimer_start(&tc->tick, ns_to_ktime(TEST_PMU_TICK_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}

/* the tick stops by itself once no event needs it */
static void test_pmu_del(struct perf_event *event, int flags)
{
	struct test_pmu_cpu *tc = this_cpu_ptr(&test_pmu_cpus);

	test_pmu_stop(event, PERF_EF_UPDATE);
	__clear_bit(event->hw.idx, &tc->used);
	tc->events[event->hw.idx] = NULL;
	event->hw.idx = -1;
}

/*
 * The "interrupt": bring one running sampling counter up to date and
 * report an overflow if it crossed its period.  Hard IRQ on the counter's
 * CPU, where its context is active: nothing else can touch the context
 * time now, and the time the core will settle later is never earlier than
 * what is computed here from the same clock.
 */
static void test_pmu_tick_event(struct perf_event *event, struct pt_regs *regs)
{
	struct perf_event_context *ctx = event->ctx;
	struct hw_perf_event *hwc = &event->hw;
	struct perf_sample_data data;
	u64 now, prev, delta;

	s64 left;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	if (counts_ticks(event)) {
		now = this_cpu_read(test_pmu_cpus.ticks);
	} else {
		now = ctx->time;
		if (ctx->is_active)
			now += perf_clock() - ctx->timestamp;
	}
	prev = local64_xchg(&hwc->prev_count, now);
	delta = raw_to_count(event, now - prev);
	local64_add(delta, &event->count);
	if (!is_sampling_event(event))
		return;

	if (!event->attr.freq && hwc->armed_period != hwc->sample_period) {
		/* ioctl PERIOD: the new period counts from here */
		test_pmu_arm_period(event);
		return;
	}
	left = local64_sub_return(delta, &hwc->period_left);
	if (left > 0)
		return;
	perf_sample_data_init(&data, 0, hwc->last_period);
	hwc->last_period = hwc->sample_period;
	hwc->armed_period = hwc->sample_period;
	/* one interrupt, however many periods went by */
	left = event->attr.freq ? left + hwc->sample_period : 0;
	local64_set(&hwc->period_left,
		    left > 0 ? left : (s64)hwc->sample_period);
	if (perf_event_overflow(event, &data, regs))
		test_pmu_stop(event, 0);
}

static enum hrtimer_restart test_pmu_tick(struct hrtimer *timer)
{
	struct test_pmu_cpu *tc = container_of(timer, struct test_pmu_cpu,
					       tick);
	struct pt_regs *regs = get_irq_regs();
	bool needed = false;
	unsigned int i;
	u64 n;

	/* a CPU going down hands its timers over: nothing is on it then */
	if (tc->cpu != smp_processor_id()) {
		tc->ticking = false;
		return HRTIMER_NORESTART;
	}
	/* this expiry and any the timer was too late for */
	n = hrtimer_forward_now(timer, ns_to_ktime(TEST_PMU_TICK_NS));
	tc->ticks += n ? n : 1;
	for (i = 0; i < TEST_PMU_MAX; i++) {
		struct perf_event *event = tc->events[i];

		if (!event || !needs_tick(event))
			continue;
		needed = true;
		if (regs || !is_sampling_event(event))
			test_pmu_tick_event(event, regs);
	}
	if (!needed) {
		tc->ticking = false;
		return HRTIMER_NORESTART;
	}
	return HRTIMER_RESTART;
}

static void test_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		test_pmu_update(event);
}

/*
 * A group must fit at all: as real drivers do, refuse at open a group that
 * could never be scheduled, counting only this PMU's members.
 */
static int test_pmu_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int n = 1, first = TEST_PMU_FIRST(event->attr.config);

	if (leader != event) {
		if (leader->pmu == &test_pmu) {
			n++;
			first += TEST_PMU_FIRST(leader->attr.config);
		}
		for_each_sibling_event(sibling, leader) {
			if (sibling->pmu != &test_pmu)
				continue;
			n++;
			first += TEST_PMU_FIRST(sibling->attr.config);
		}
	}
	return n > counters || first > 1 ? -EINVAL : 0;
}

static void test_pmu_destroy(struct perf_event *event)
{
	mutex_lock(&test_pmu_lock);
	test_pmu_nr_events--;
	mutex_unlock(&test_pmu_lock);
}

static int test_pmu_event_init(struct perf_event *event)
{
	int ret;

	if (event->attr.type != test_pmu.type)
		return -ENOENT;
	if (event->attr.config & ~TEST_PMU_CONFIG_MASK)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	event->hw.idx = -1;
	event->hw.armed_period = 0;
	ret = test_pmu_validate_group(event);
	if (ret)
		return ret;
	mutex_lock(&test_pmu_lock);
	test_pmu_nr_events++;
	mutex_unlock(&test_pmu_lock);
	event->destroy = test_pmu_destroy;
	return 0;
}

PMU_FORMAT_ATTR(rate, "config:0-7");
PMU_FORMAT_ATTR(first, "config:8");
PMU_FORMAT_ATTR(tick, "config:9");

static struct attribute *test_pmu_format_attrs[] = {
	&format_attr_rate.attr,
	&format_attr_first.attr,
	&format_attr_tick.attr,
	NULL,
};

static const struct attribute_group test_pmu_format_group = {
	.name	= "format",
	.attrs	= test_pmu_format_attrs,
};

static ssize_t counters_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	return sysfs_emit(page, "%u\n", counters);
}
static DEVICE_ATTR_RO(counters);

static struct attribute *test_pmu_caps_attrs[] = {
	&dev_attr_counters.attr,
	NULL,
};

static const struct attribute_group test_pmu_caps_group = {
	.name	= "caps",
	.attrs	= test_pmu_caps_attrs,
};

static const struct attribute_group *test_pmu_groups[] = {
	&test_pmu_format_group,
	&test_pmu_caps_group,
	NULL,
};

static struct pmu test_pmu = {
	.task_ctx_nr	= perf_hw_context,
	.attr_groups	= test_pmu_groups,
	.event_init	= test_pmu_event_init,
	.add		= test_pmu_add,
	.del		= test_pmu_del,
	.start		= test_pmu_start,
	.stop		= test_pmu_stop,
	.read		= test_pmu_read,
};

static int __init test_pmu_init(void)
{
	int cpu;

	counters = clamp(counters, 1U, (unsigned int)TEST_PMU_MAX);
	for_each_possible_cpu(cpu) {
		struct test_pmu_cpu *tc = per_cpu_ptr(&test_pmu_cpus, cpu);

		tc->cpu = cpu;
		hrtimer_init(&tc->tick, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		tc->tick.function = test_pmu_tick;
	}
	return perf_pmu_register(&test_pmu, "test_pmu", -1);
}
device_initcall(test_pmu_init);
