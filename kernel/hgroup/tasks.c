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

#include <linux/sched/stat.h>

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
	for (a = d; a != &init_hgroup_domain; a = a->parent)
		if ((u64)a->nr_tasks + n > a->tasks_max)
			return -EAGAIN;
	for (a = d; a != &init_hgroup_domain; a = a->parent)
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
	for (a = d; a != &init_hgroup_domain; a = a->parent) {
		WARN_ON_ONCE(a->nr_tasks < n);
		WRITE_ONCE(a->nr_tasks, a->nr_tasks - n);
	}
}

static int hgroup_tasks_parse(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_tasks *tasks = kattr;

	if (tasks->nr_tasks)
		return -EINVAL;
	c->tasks_max = tasks->max;
	return 0;
}

static void hgroup_tasks_value(const struct hgroup *hg,
			       struct hgroup_change *c)
{
	c->tasks_max = READ_ONCE(hg->domain->tasks_max);
}

/*
 * Every group of a domain bounds by its domain's limit, so walking the
 * groups above one walks the domains above it.
 */
static bool hgroup_tasks_allows(const struct hgroup *limit,
				const struct hgroup *hg,
				const struct hgroup_change *c)
{
	/* @limit may be in another domain, changing meanwhile. */
	return c->tasks_max <= hg->domain->tasks_max ||
	       c->tasks_max <= READ_ONCE(limit->domain->tasks_max);
}

static bool hgroup_tasks_lifts_only(const struct hgroup *hg,
				    const struct hgroup_change *c)
{
	return c->tasks_max >= hg->domain->tasks_max;
}

static void hgroup_tasks_apply(struct hgroup *hg,
			       struct hgroup_change *c)
{
	WRITE_ONCE(hg->domain->tasks_max, c->tasks_max);
}

static void hgroup_tasks_read(struct hgroup *hg, void *kattr)
{
	struct hgroup_tasks *tasks = kattr;
	struct hgroup_domain *d = hg->domain;

	tasks->max = d->tasks_max;
	tasks->nr_tasks = d == &init_hgroup_domain ? nr_threads : d->nr_tasks;
}

/*
 * The task limit needs no trust by the members: it is what RLIMIT_NPROC
 * lets any user impose on a program it runs.
 */
const struct hgroup_restriction hgroup_tasks_restriction = {
	.attr		= HGROUP_ATTR_TASKS,
	.kind		= HGROUP_ATTR_TASKS,
	.size_ver0	= HGROUP_TASKS_SIZE_VER0,
	.size		= sizeof(struct hgroup_tasks),
	.per_domain	= true,
	.no_trust	= true,
	.parse		= hgroup_tasks_parse,
	.value		= hgroup_tasks_value,
	.allows		= hgroup_tasks_allows,
	.lifts_only	= hgroup_tasks_lifts_only,
	.apply		= hgroup_tasks_apply,
	.read		= hgroup_tasks_read,
};
