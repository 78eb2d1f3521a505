// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the arm64 PMUv3 driver on the CPU it runs on: CPU PM
 * (perf_event_probe.c) and the EL0 access gate (perf_event_user.c).
 *
 * CPU PM is driven through the real notifier chain, cpu_pm_enter() and
 * cpu_pm_exit() with interrupts off, as the idle path calls them. Between
 * the two the test does what a power-down does to the PMU: counters
 * zeroed and disabled, interrupts off, PMCR_EL0 back at its reset value.
 * Only a driver that stops its events on the way in and reprograms them
 * on the way out keeps counting right across that.
 */
#include <kunit/test.h>
#include <linux/cpu_pm.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#include "perf_event_pmuv3.h"

#define KUNIT_DELAY_US	5000

/* the PMU of this CPU, when there is one; migration disabled */
static struct pmuv3 *kunit_this_pmu(void)
{
	struct pmuv3 *p = this_cpu_read(pmuv3_of_cpu);

	return p && READ_ONCE(p->live) ? p : NULL;
}

/*
 * A 64-bit cycles counter of the running kthread on this CPU's PMU,
 * enabled; migration disabled, so that it stays on that PMU.
 */
static struct perf_event *kunit_cycles(struct kunit *test)
{
	struct perf_event_attr attr = {
		.config		= ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
		.config1	= PMUV3_CFG1_LONG,
		.size		= sizeof(attr),
		.pinned		= 1,
	};
	struct perf_event *event;
	struct pmuv3 *p = kunit_this_pmu();

	if (!p) {
		migrate_enable();
		kunit_skip(test, "no PMUv3");
	}
	attr.type = p->arm.pmu.type;
	event = perf_event_create_kernel_counter(&attr, -1, current, NULL,
						 NULL);
	if (IS_ERR(event)) {
		migrate_enable();
		kunit_skip(test, "no cycles event: %ld", PTR_ERR(event));
	}
	return event;
}

static u64 kunit_count(struct perf_event *event)
{
	u64 enabled, running;

	return perf_event_read_value(event, &enabled, &running);
}

/* what losing power does to the PMU of this CPU */
static void kunit_lose_pmu_state(void)
{
	write_pmcntenclr(U32_MAX);
	write_pmintenclr(U32_MAX);
	write_pmovsclr(U32_MAX);
	write_pmcr(ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C);
	isb();
}

/*
 * A cycles event of this thread keeps counting across a low-power state
 * that lost the PMU's registers, and its count neither jumps nor wraps.
 */
static void cpu_pm_keeps_counting(struct kunit *test)
{
	struct perf_event *event;
	u64 before, after, min;
	int ret;

	migrate_disable();
	event = kunit_cycles(test);
	udelay(KUNIT_DELAY_US);
	before = kunit_count(event);

	local_irq_disable();
	ret = cpu_pm_enter();
	if (!ret) {
		kunit_lose_pmu_state();
		cpu_pm_exit();
	}
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);

	udelay(KUNIT_DELAY_US);
	after = kunit_count(event);
	migrate_enable();
	perf_event_release_kernel(event);

	/* cycles run at least one per ns of delay on anything we boot on */
	min = KUNIT_DELAY_US * NSEC_PER_USEC / 2;
	KUNIT_EXPECT_GT_MSG(test, after, before + min,
			    "stopped counting: %llu then %llu", before, after);
	KUNIT_EXPECT_LT_MSG(test, after - before, 100ULL * NSEC_PER_SEC,
			    "count jumped: %llu then %llu", before, after);
}

/*
 * PMUSERENR_EL0 is UNKNOWN after a power-down: here it "comes back" open,
 * and the way out of CPU PM must shut EL0 out again. Only the idle task
 * runs then; the next task's ->pmu_enable decides its own access.
 */
static void cpu_pm_exit_closes_el0_access(struct kunit *test)
{
	int ret;

	migrate_disable();
	if (!kunit_this_pmu()) {
		migrate_enable();
		kunit_skip(test, "no PMUv3");
	}
	local_irq_disable();
	ret = cpu_pm_enter();
	if (!ret) {
		write_pmuserenr(ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR);
		cpu_pm_exit();
	}
	KUNIT_EXPECT_EQ(test, read_sysreg(pmuserenr_el0) &
			ARMV8_PMU_USERENR_MASK, 0);
	write_pmuserenr(0);
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
}

static struct kunit_case pmuv3_kunit_cases[] = {
	KUNIT_CASE(cpu_pm_keeps_counting),
	KUNIT_CASE(cpu_pm_exit_closes_el0_access),
	{ }
};

static struct kunit_suite pmuv3_kunit_suite = {
	.name = "perf_arm64_pmuv3",
	.test_cases = pmuv3_kunit_cases,
};

kunit_test_suite(pmuv3_kunit_suite);
