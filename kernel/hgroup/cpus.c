// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the CPU set.
 *
 * Each thread applies its group's set to itself when the virtual signal
 * reaches it (propagate.c); sched_setaffinity() intersects what it is
 * asked for with the set, as it does with the cpuset, and fails with
 * EINVAL when nothing is left.
 */

#include <linux/cpuset.h>
#include <linux/sched.h>

#include "hgroup.h"

/**
 * hgroup_apply_cpus - the current thread takes its group's CPU set
 *
 * Called from the virtual signal, in process context on the way back to
 * user space.  The new affinity is the group's set within the cpuset's;
 * if they do not meet, the group's set alone.  A thread's own narrower
 * affinity is not kept: like a cpuset change, a change of the group's set
 * resets it.
 */
void hgroup_apply_cpus(void)
{
	const struct hgroup_cpus *cpus;
	const struct hgroup *hg;
	cpumask_var_t mask;
	u64 gen;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	cpuset_cpus_allowed(current, mask);
	rcu_read_lock();
	hg = rcu_dereference(current->signal->hgroup);
	if (!hg) {
		rcu_read_unlock();
		goto out;
	}
	/* Pairs with the release in hgroup_apply_one(). */
	gen = smp_load_acquire(&hg->push_gen);
	cpus = rcu_dereference(hg->cpus);
	if (cpus && !cpumask_and(mask, mask, &cpus->mask))
		cpumask_copy(mask, &cpus->mask);
	rcu_read_unlock();

	set_cpus_allowed_ptr(current, mask);
	current->hgroup_gen = gen;
out:
	free_cpumask_var(mask);
}

/**
 * hgroup_cpus_allowed - limit a CPU mask to a task's group's set
 * @p: the task.
 * @mask: the mask, changed in place.
 *
 * Called by sched_setaffinity() beside cpuset_cpus_allowed().
 */
void hgroup_cpus_allowed(struct task_struct *p, struct cpumask *mask)
{
	const struct hgroup_cpus *cpus;
	const struct hgroup *hg;

	rcu_read_lock();
	hg = rcu_dereference(p->signal->hgroup);
	cpus = hg ? rcu_dereference(hg->cpus) : NULL;
	if (cpus)
		cpumask_and(mask, mask, &cpus->mask);
	rcu_read_unlock();
}
