// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry: types, lookup for a new event, and the sysfs bus
 * /sys/bus/event_source through which user space learns each PMU's type
 * number and event encodings.
 *
 * Types below PERF_TYPE_MAX are the fixed ones of the ABI (software 1,
 * tracepoint 2, breakpoint 5; hardware PMUs may claim PERF_TYPE_RAW);
 * everything else gets the lowest free number from PERF_TYPE_MAX up.
 *
 * Locking: pmus_lock (a mutex) serialises registration; lookups walk the
 * list under SRCU because a PMU's event_init may sleep.
 */
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/perf_regs.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "context.h"
#include "exclusive.h"
#include "pmu.h"
#include "rotate.h"
#include "scope.h"

/* installed by a PMU driver with a branch stack (none of ours yet) */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack,
			perf_snapshot_branch_stack_t);

/* the default multiplexing interval of hardware PMUs */
#define PERF_MUX_INTERVAL_MS	4

static LIST_HEAD(pmus);
static DEFINE_MUTEX(pmus_lock);
DEFINE_STATIC_SRCU(pmus_srcu);
static DEFINE_IDR(pmu_idr);
static bool pmu_bus_running;

static void nop_pmu(struct pmu *pmu)
{
}

/**
 * perf_pmu_disable - stop every counter of @pmu on this CPU (nestable)
 * @pmu: the PMU
 *
 * Context: IRQs off or preemption off; pairs with perf_pmu_enable().
 */
void perf_pmu_disable(struct pmu *pmu)
{
	int *depth;

	lockdep_assert_preemption_disabled();
	depth = this_cpu_ptr(pmu->pmu_disable_count);
	*depth += 1;
	/* only the outermost disable reaches the hardware */
	if (*depth == 1)
		pmu->pmu_disable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_disable);

/**
 * perf_pmu_enable - undo one perf_pmu_disable()
 * @pmu: the PMU
 *
 * Context: as for perf_pmu_disable(), on the same CPU.
 */
void perf_pmu_enable(struct pmu *pmu)
{
	int *depth;

	lockdep_assert_preemption_disabled();
	depth = this_cpu_ptr(pmu->pmu_disable_count);
	*depth -= 1;
	if (*depth == 0)
		pmu->pmu_enable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_enable);

/* sysfs: the attributes every PMU device has */

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr,
					       char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", READ_ONCE(pmu->hrtimer_interval_ms));
}

static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_get_drvdata(dev);
	int ms, ret;

	ret = kstrtoint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms < 1)
		return -EINVAL;
	WRITE_ONCE(pmu->hrtimer_interval_ms, ms);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static ssize_t nr_addr_filters_show(struct device *dev,
				    struct device_attribute *attr, char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->nr_addr_filters);
}
static DEVICE_ATTR_RO(nr_addr_filters);

/* the CPUs that carry a scoped PMU's events: open them there */
static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	return perf_scope_show_cpumask(dev_get_drvdata(dev), page);
}
static DEVICE_ATTR_RO(cpumask);

/* kernfs sorts a directory itself: the order here is not visible */
static struct attribute *perf_pmu_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_nr_addr_filters.attr,
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	NULL,
};

static umode_t perf_pmu_attr_visible(struct kobject *kobj,
				     struct attribute *a, int n)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	if (a == &dev_attr_nr_addr_filters.attr && !pmu->nr_addr_filters)
		return 0;
	/* a driver with its own cpumask attribute leaves scope at NONE */
	if (a == &dev_attr_cpumask.attr && pmu->scope == PERF_PMU_SCOPE_NONE)
		return 0;
	return a->mode;
}

static const struct attribute_group perf_pmu_common_group = {
	.is_visible	= perf_pmu_attr_visible,
	.attrs		= perf_pmu_common_attrs,
};

static const struct attribute_group *perf_pmu_bus_groups[] = {
	&perf_pmu_common_group,
	NULL,
};

/* every PMU device of the bus has the attributes above */
static const struct bus_type pmu_bus = {
	.dev_groups	= perf_pmu_bus_groups,
	.name		= "event_source",
};

/* the device is ours alone: nothing else holds a pointer into it */
static void perf_pmu_dev_free(struct device *dev)
{
	kfree(dev);
}

/* Give @pmu its device under /sys/bus/event_source/devices.  pmus_lock. */
static int perf_pmu_add_device(struct pmu *pmu)
{
	struct device *dev;
	int ret;

	lockdep_assert_held(&pmus_lock);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	device_initialize(dev);
	dev->groups = pmu->attr_groups;
	dev->parent = pmu->parent;
	dev->bus = &pmu_bus;
	dev->release = perf_pmu_dev_free;
	dev_set_drvdata(dev, pmu);
	ret = dev_set_name(dev, "%s", pmu->name);
	if (ret)
		goto out_put;
	ret = device_add(dev);
	if (ret)
		goto out_put;
	if (pmu->attr_update) {
		ret = sysfs_update_groups(&dev->kobj, pmu->attr_update);
		if (ret) {
			device_del(dev);
			goto out_put;
		}
	}
	pmu->dev = dev;
	return 0;

out_put:
	put_device(dev);
	return ret;
}

/**
 * perf_event_sysfs_show - show() for PMU_EVENT_ATTR_STRING attributes
 * @dev: the PMU device
 * @attr: the attribute (inside a struct perf_pmu_events_attr)
 * @page: output
 *
 * Return: bytes written.
 */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	const char *str;

	str = container_of(attr, struct perf_pmu_events_attr, attr)->event_str;
	/* an attribute without a string has its own show() normally */
	return str ? sysfs_emit(page, "%s\n", str) : 0;
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);

/**
 * perf_pmu_register - make a PMU available to perf_event_open()
 * @pmu: the PMU, filled in by the driver
 * @name: its sysfs name, or NULL for none
 * @type: a fixed PERF_TYPE_* it owns, or -1 for a dynamic type
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int ret;

	if (WARN_ONCE(pmu->scope >= PERF_PMU_MAX_SCOPE,
		      "perf: PMU %s has an invalid scope %u\n", name,
		      pmu->scope))
		return -EINVAL;
	pmu->pmu_disable_count = alloc_percpu(int);
	if (!pmu->pmu_disable_count)
		return -ENOMEM;
	ret = perf_rotation_init(pmu);
	if (ret) {
		free_percpu(pmu->pmu_disable_count);
		pmu->pmu_disable_count = NULL;
		return ret;
	}

	mutex_lock(&pmus_lock);
	if (type >= 0)
		ret = idr_alloc(&pmu_idr, pmu, type, type + 1, GFP_KERNEL);
	else
		ret = idr_alloc(&pmu_idr, pmu, PERF_TYPE_MAX, 0, GFP_KERNEL);
	if (ret < 0)
		goto fail;
	pmu->type = ret;
	pmu->name = name;

	if (!pmu->pmu_enable || !pmu->pmu_disable) {
		pmu->pmu_enable = nop_pmu;
		pmu->pmu_disable = nop_pmu;
	}
	if (!pmu->hrtimer_interval_ms)
		pmu->hrtimer_interval_ms = PERF_MUX_INTERVAL_MS;
	atomic_set(&pmu->exclusive_cnt, 0);

	if (pmu_bus_running && name && !pmu->dev) {
		ret = perf_pmu_add_device(pmu);
		if (ret) {
			idr_remove(&pmu_idr, pmu->type);
			goto fail;
		}
	}
	list_add_tail_rcu(&pmu->entry, &pmus);
	mutex_unlock(&pmus_lock);
	return 0;

fail:
	mutex_unlock(&pmus_lock);
	perf_rotation_free(pmu);
	free_percpu(pmu->pmu_disable_count);
	pmu->pmu_disable_count = NULL;
	return ret;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/**
 * perf_pmu_unregister - remove a PMU; its events must be gone
 * @pmu: the PMU
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	struct device *dev;

	/* no new lookup can find it once both indexes forget it ... */
	mutex_lock(&pmus_lock);
	idr_remove(&pmu_idr, pmu->type);
	list_del_rcu(&pmu->entry);
	dev = pmu->dev;
	mutex_unlock(&pmus_lock);
	/* ... and perf_init_event() walks that were under way are done */
	synchronize_srcu(&pmus_srcu);

	if (dev && dev != PMU_NULL_DEV) {
		device_del(dev);
		put_device(dev);
	}
	perf_rotation_free(pmu);
	free_percpu(pmu->pmu_disable_count);
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

/* Offer @event to @pmu.  SRCU read side held. */
static int perf_try_init_event(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event_context *leader_ctx = NULL;
	int ret;

	if (!try_module_get(pmu->module))
		return -ENODEV;
	/*
	 * A driver checking that a group fits walks the leader's siblings:
	 * keep them still.  Software PMUs never need to.  One level deeper
	 * than a context mutex the caller may hold (inheritance at fork).
	 */
	if (event->group_leader != event &&
	    pmu->task_ctx_nr != perf_sw_context)
		leader_ctx = perf_event_ctx_lock_nested(event->group_leader,
							SINGLE_DEPTH_NESTING);
	event->pmu = pmu;
	ret = pmu->event_init(event);
	if (leader_ctx)
		mutex_unlock(&leader_ctx->mutex);
	if (!ret && !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) &&
	    ((event->attr.sample_regs_user & PERF_REG_EXTENDED_MASK) ||
	     (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK))) {
		/* e.g. x86 XMM registers: only PMUs that sample them */
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		ret = -EOPNOTSUPP;
	} else if (!ret && (pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) &&
		   event_has_any_exclude_flag(event)) {
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		ret = -EINVAL;
	} else if (!ret && pmu->scope != PERF_PMU_SCOPE_NONE &&
		   event->cpu >= 0) {
		/* no CPU of this instance is online to carry the event */
		if (perf_scope_pick(pmu->scope, event->cpu) >= nr_cpu_ids) {
			if (event->destroy)
				event->destroy(event);
			event->destroy = NULL;
			ret = -ENODEV;
		} else {
			event->event_caps |= PERF_EV_CAP_READ_SCOPE;
		}
	}
	if (ret) {
		event->pmu = NULL;
		module_put(pmu->module);
	}
	return ret;
}

/**
 * perf_pmu_for_each - call @fn for every registered PMU
 * @fn: the function; it may sleep
 * @data: passed to @fn
 *
 * Context: process context.  A PMU being unregistered meanwhile may or
 * may not be visited, but stays valid while it is.
 */
void perf_pmu_for_each(void (*fn)(struct pmu *pmu, void *data), void *data)
{
	struct pmu *pmu;
	int idx;

	idx = srcu_read_lock(&pmus_srcu);
	list_for_each_entry_srcu(pmu, &pmus, entry,
				 srcu_read_lock_held(&pmus_srcu))
		fn(pmu, data);
	srcu_read_unlock(&pmus_srcu, idx);
}

struct pmu *perf_pmu_by_type(int type)
{
	struct pmu *pmu;

	rcu_read_lock();
	pmu = idr_find(&pmu_idr, type);
	rcu_read_unlock();
	return pmu;
}

/*
 * Which PMU takes @event: the one owning attr.type; for generic hardware
 * events the PMU named in config's upper half, or any PMU that accepts
 * them; for unknown types, any PMU that claims the event.  A PMU may also
 * redirect an event by rewriting attr.type and refusing it (the software
 * PMU does that for the clocks).
 */
/* For a generic hardware event, *@type := the PMU type config names (or 0). */
static bool perf_generic_hw_target(struct perf_event *event, int *type)
{
	if (event->attr.type != PERF_TYPE_HARDWARE &&
	    event->attr.type != PERF_TYPE_HW_CACHE)
		return false;
	*type = event->attr.config >> PERF_PMU_TYPE_SHIFT;
	return true;
}

static int perf_find_pmu(struct perf_event *event)
{
	bool extended = false;
	struct pmu *pmu;
	int type, ret;

	if (event->parent && event->parent->pmu) {
		if (!perf_try_init_event(event->parent->pmu, event))
			return 0;
	}

	if (perf_generic_hw_target(event, &type)) {
		/* a named PMU: the event code is the low half only */
		extended = type != 0;
		if (extended)
			event->attr.config &= PERF_HW_EVENT_MASK;
		else
			type = PERF_TYPE_RAW;
	} else {
		type = event->attr.type;
	}

again:
	pmu = perf_pmu_by_type(type);
	if (pmu) {
		if (event->attr.type != type && type != PERF_TYPE_RAW &&
		    !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
			return -ENOENT;
		ret = perf_try_init_event(pmu, event);
		if (ret == -ENOENT && event->attr.type != type && !extended) {
			type = event->attr.type;
			goto again;
		}
		return ret;
	}

	list_for_each_entry_srcu(pmu, &pmus, entry,
				 srcu_read_lock_held(&pmus_srcu)) {
		ret = perf_try_init_event(pmu, event);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/**
 * perf_init_event - find the PMU for a new event and let it set it up
 * @event: the event being allocated
 *
 * Context: process context, may sleep.
 * Return: 0 (event->pmu set, module pinned) or a negative errno.
 */
int perf_init_event(struct perf_event *event)
{
	struct pmu *pmu;
	int idx, ret;

	idx = srcu_read_lock(&pmus_srcu);
	ret = perf_find_pmu(event);
	srcu_read_unlock(&pmus_srcu, idx);
	if (ret)
		return ret;

	pmu = event->pmu;
	if (pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;
	/* uncore-style PMUs count per CPU only */
	if (pmu->task_ctx_nr == perf_invalid_context && event->hw.target)
		ret = -EINVAL;
	else
		ret = perf_exclusive_claim(event);
	if (ret) {
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		module_put(pmu->module);
		event->pmu = NULL;
	}
	return ret;
}

static void perf_pmu_add_early_devices(void)
{
	struct pmu *pmu;
	int err;

	lockdep_assert_held(&pmus_lock);
	list_for_each_entry(pmu, &pmus, entry) {
		/* nameless PMUs stay out of sysfs */
		if (pmu->dev || !pmu->name)
			continue;
		err = perf_pmu_add_device(pmu);
		if (err)
			pr_warn("perf: no sysfs device for PMU %s: %d\n",
				pmu->name, err);
	}
}

/**
 * perf_pmu_sysfs_init - start the event_source bus
 *
 * PMUs registered before this (the core's own, early drivers) get their
 * devices now; later ones get them as they register.
 * Return: 0 or a negative errno.
 */
int perf_pmu_sysfs_init(void)
{
	int ret;

	mutex_lock(&pmus_lock);
	ret = bus_register(&pmu_bus);
	if (!ret) {
		perf_pmu_add_early_devices();
		pmu_bus_running = true;
	}
	mutex_unlock(&pmus_lock);
	return ret;
}
