// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing perf_events up at boot: the per-CPU contexts, the core's own
 * PMUs (in upstream's registration order, so dynamic type numbers match),
 * the breakpoint layer, and later the sysfs bus.
 */
#include <linux/hw_breakpoint.h>
#include <linux/init.h>

#include "context.h"
#include "pmu.h"
#include "swevent.h"
#include "tracepoint.h"

/**
 * perf_event_init - called once from start_kernel()
 *
 * Context: boot, IRQs off, only the boot CPU up.
 */
void __init perf_event_init(void)
{
	int ret;

	lockdep_assert_irqs_disabled();
	perf_cpu_ctx_init();
	ret = perf_swevent_register();
	WARN(ret, "perf: software PMUs not registered: %d\n", ret);
	ret = perf_tp_register();
	WARN(ret, "perf: tracepoint PMUs not registered: %d\n", ret);
#ifdef CONFIG_HAVE_HW_BREAKPOINT
	ret = init_hw_breakpoint();
	WARN(ret, "perf: breakpoints not available: %d\n", ret);
#endif
}

static int __init perf_event_sysfs_init(void)
{
	return perf_pmu_sysfs_init();
}
device_initcall(perf_event_sysfs_init);
