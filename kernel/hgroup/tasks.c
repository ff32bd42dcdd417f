// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the task limit of a domain.
 *
 * Every thread is counted in its domain and in every domain above it,
 * from fork to release.  All counting is done with tasklist_lock held for
 * writing, so the check and the charge of a fork are one step and need no
 * atomic operations; readers use READ_ONCE().  The initial domain is not
 * counted (it has no limit, and nr_threads counts it already).
 */

#include "hgroup.h"

/**
 * hgroup_tasks_charge - count new tasks in a domain and its ancestors
 * @d: the domain.
 * @n: how many.
 *
 * Return: 0, or -EAGAIN if that would take any of them over its limit.
 */
int hgroup_tasks_charge(struct hgroup_domain *d, long n)
{
	struct hgroup_domain *a;

	lockdep_assert_held_write(&tasklist_lock);
	for (a = d; a != &init_hgroup_domain; a = hgroup_domain_parent(a))
		if ((u64)a->nr_tasks + n > a->tasks_max)
			return -EAGAIN;
	for (a = d; a != &init_hgroup_domain; a = hgroup_domain_parent(a))
		WRITE_ONCE(a->nr_tasks, a->nr_tasks + n);
	return 0;
}

/**
 * hgroup_tasks_uncharge - tasks have left a domain
 * @d: the domain.
 * @n: how many.
 */
void hgroup_tasks_uncharge(struct hgroup_domain *d, long n)
{
	struct hgroup_domain *a;

	lockdep_assert_held_write(&tasklist_lock);
	for (a = d; a != &init_hgroup_domain; a = hgroup_domain_parent(a)) {
		WARN_ON_ONCE(a->nr_tasks < n);
		WRITE_ONCE(a->nr_tasks, a->nr_tasks - n);
	}
}
