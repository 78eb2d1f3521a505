// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event's period elapses.
 *
 * The core part is here: the event_limit of ioctl(REFRESH), and calling the
 * event's overflow handler (ptrace breakpoints rely on that).  The ring
 * buffer the default handler writes to, sigtrap, throttling and frequency
 * mode are the sampling issue and not built yet: the default handlers
 * below drop the sample, as upstream does for an event with no buffer.
 *
 * Context: everything here may run in NMI context: no locks, no sleeping;
 * deferred work goes through event->pending_irq.
 */
#include "internal.h"

/**
 * perf_event_do_overflow - one period of @event has elapsed
 * @event: the event
 * @data: the sample description
 * @regs: registers at the overflow
 * @throttle: may the event be throttled (not built yet)
 *
 * Return: 1 if the event must stop (its refresh limit ran out), else 0.
 */
int perf_event_do_overflow(struct perf_event *event,
			   struct perf_sample_data *data,
			   struct pt_regs *regs, int throttle)
{
	perf_overflow_handler_t handler = READ_ONCE(event->overflow_handler);
	int stop = 0;

	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		stop = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	handler(event, data, regs);

	if (*perf_event_fasync(event) && event->pending_kill)
		perf_event_queue_wakeup(event);
	return stop;
}

/**
 * perf_event_overflow - a PMU driver reports an overflow
 * @event: the event whose counter overflowed
 * @data: sample data from perf_sample_data_init()
 * @regs: the interrupted registers
 *
 * Context: the PMU interrupt (IRQ or NMI), on the event's CPU.
 * Return: non-zero when the driver must stop the event.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return perf_event_do_overflow(event, data, regs, 1);
}
EXPORT_SYMBOL_GPL(perf_event_overflow);

/**
 * perf_event_account_interrupt - count an interrupt for throttling
 * @event: the event
 *
 * Return: 0 (throttling is not built yet).
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	return 0;
}
