// SPDX-License-Identifier: GPL-2.0
/*
 * Guest state for samples: a hypervisor (KVM) registers callbacks that
 * say whether the CPU was running a guest when a PMU interrupt hit it, and
 * at which guest IP, so that the sample is attributed to the guest rather
 * than to the host code that happened to be interrupted.
 *
 * They are read from the overflow path (NMI included) on every sample, so
 * each is a static call, patched to the hypervisor's function while one is
 * registered and to "return 0" otherwise. One hypervisor at a time.
 *
 * Registration is process context; unregistering waits for every caller
 * that may still be inside a callback (all run with interrupts off, or in
 * NMI) before the hypervisor may go away.
 */
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

DEFINE_STATIC_CALL_RET0(perf_guest_state_call, *perf_guest_cbs_type->state);
DEFINE_STATIC_CALL_RET0(perf_guest_get_ip_call, *perf_guest_cbs_type->get_ip);
DEFINE_STATIC_CALL_RET0(perf_guest_pt_intr_call, *perf_guest_cbs_type->handle_intel_pt_intr);

/* the registered callbacks, NULL when none; written under the mutex */
static struct perf_guest_info_callbacks *perf_guest_registered;
static DEFINE_MUTEX(perf_guest_mutex);

/**
 * perf_register_guest_info_callbacks() - a hypervisor reports guest state
 * @cbs: its callbacks; ->state and ->get_ip are required,
 *	->handle_intel_pt_intr optional
 *
 * Context: process context. Only one set may be registered at a time; a
 * second registration is refused with a warning.
 */
void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	mutex_lock(&perf_guest_mutex);
	if (WARN_ON_ONCE(perf_guest_registered)) {
		mutex_unlock(&perf_guest_mutex);
		return;
	}
	perf_guest_registered = cbs;
	static_call_update(perf_guest_state_call, cbs->state);
	static_call_update(perf_guest_get_ip_call, cbs->get_ip);
	if (cbs->handle_intel_pt_intr)
		static_call_update(perf_guest_pt_intr_call,
				   cbs->handle_intel_pt_intr);
	mutex_unlock(&perf_guest_mutex);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

/**
 * perf_unregister_guest_info_callbacks() - stop asking the hypervisor
 * @cbs: the callbacks registered before
 *
 * Returns once no CPU can still be running one of them.
 *
 * Context: process context; may sleep.
 */
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	mutex_lock(&perf_guest_mutex);
	if (WARN_ON_ONCE(perf_guest_registered != cbs)) {
		mutex_unlock(&perf_guest_mutex);
		return;
	}
	static_call_update(perf_guest_state_call,
			   (void *)&__static_call_return0);
	static_call_update(perf_guest_get_ip_call,
			   (void *)&__static_call_return0);
	static_call_update(perf_guest_pt_intr_call,
			   (void *)&__static_call_return0);
	perf_guest_registered = NULL;
	mutex_unlock(&perf_guest_mutex);
	/* callers run with interrupts off or in NMI: an RCU grace period */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
