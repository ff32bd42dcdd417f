// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the restrictions of a process group and the rule for changing
 * them.
 *
 * hgroup_attr_set() is all of hgroup_set_attr() once its argument is in
 * kernel memory.  It builds the new value before taking any lock, then, under
 * hgroup_attr_mutex and tasklist_lock held for reading, finds the target
 * groups, checks permission and the lifting rule for every one of them,
 * and only then changes them: a refused call changes nothing.
 *
 * The lifting rule: a change may give a group only what the caller's own
 * group, every group above it and every group above the target allow.
 * setpgid() into an existing group must not shed a restriction either
 * (hgroup_may_join()).  With the domain scope,
 * the groups above that are in the same domain are changed in the same
 * step, so only the caller's group and the groups outside the domain limit
 * the change.
 */

#include <linux/capability.h>
#include <linux/cpuset.h>
#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/sched/stat.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hgroup.h"

/* Serialises changes of restrictions, see hgroup.h. */
DEFINE_MUTEX(hgroup_attr_mutex);

/* Counters for hgroup::push_gen and hgroup::visit; hgroup_attr_mutex. */
static u64 hgroup_gen_seq;
static u64 hgroup_visit_seq;

/* A change, built before any lock is taken. */
struct hgroup_change {
	unsigned int attr;
	bool domain_scope;
	struct hgroup_domain *domain;
	struct hgroup_set *set;
	struct hgroup_devs *devs;
	unsigned int freeze;
	u64 tasks_max;
	u64 visit;
};

#define hgroup_deref(p)							\
	rcu_dereference_check(p, lockdep_is_held(&hgroup_attr_mutex) ||	\
			      lockdep_is_held(&tasklist_lock))

/* The set of @hg that @attr is about. */
static struct hgroup_set *hgroup_set_of(const struct hgroup *hg,
					unsigned int attr)
{
	return attr == HGROUP_ATTR_CPUS ? hgroup_deref(hg->cpus) :
		hgroup_deref(hg->mems);
}

/* The slot of @hg that holds the set @attr is about. */
static struct hgroup_set __rcu **hgroup_slot(struct hgroup *hg,
					     unsigned int attr)
{
	return attr == HGROUP_ATTR_CPUS ? &hg->cpus : &hg->mems;
}

/* Take @from's restrictions for the new group @hg; tasklist_lock held. */
void hgroup_restrict_copy(struct hgroup *hg, const struct hgroup *from)
{
	RCU_INIT_POINTER(hg->cpus, hgroup_set_get(hgroup_deref(from->cpus)));
	RCU_INIT_POINTER(hg->mems, hgroup_set_get(hgroup_deref(from->mems)));
	RCU_INIT_POINTER(hg->devs, hgroup_devs_get(hgroup_deref(from->devs)));
	hg->freeze = from->freeze;
	hg->nnp = from->nnp;
	hg->push_gen = from->push_gen;
	hg->visit = 0;
}

/* @hg is being freed: drop its restrictions. */
void hgroup_restrict_release(struct hgroup *hg)
{
	hgroup_set_put(rcu_dereference_raw(hg->cpus));
	hgroup_set_put(rcu_dereference_raw(hg->mems));
	hgroup_devs_put(rcu_dereference_raw(hg->devs));
}

/* Check a new value and build it, before any lock is taken. */
static int hgroup_change_init(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_freeze *fz = kattr;
	const struct hgroup_tasks *tasks = kattr;

	switch (c->attr) {
	case HGROUP_ATTR_MEMS:
		if (!IS_ENABLED(CONFIG_CPUSETS))
			return -EOPNOTSUPP;
		fallthrough;
	case HGROUP_ATTR_CPUS:
		return hgroup_set_from_user(c->attr, kattr, &c->set);
	case HGROUP_ATTR_DEVICES:
		c->devs = hgroup_devs_from_user(kattr);
		return PTR_ERR_OR_ZERO(c->devs);
	case HGROUP_ATTR_FREEZE:
		if (fz->state ||
		    fz->flags & ~(HGROUP_FREEZE_ALL | HGROUP_FREEZE_NEW_PGRP))
			return -EINVAL;
		c->freeze = fz->flags;
		return 0;
	case HGROUP_ATTR_TASKS:
		if (tasks->nr_tasks)
			return -EINVAL;
		c->tasks_max = tasks->max;
		return 0;
	}
	return -EINVAL;
}

/*
 * Does @limit allow everything the change gives @hg beyond what @hg has?
 * With @limit == @hg: is the change no lift at all?
 */
static bool hgroup_allows(const struct hgroup *limit, const struct hgroup *hg,
			  const struct hgroup_change *c)
{
	switch (c->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		return hgroup_set_allows(c->attr, c->set,
					 hgroup_set_of(hg, c->attr),
					 hgroup_set_of(limit, c->attr));
	case HGROUP_ATTR_DEVICES:
		return hgroup_devs_subset(c->devs, hgroup_deref(hg->devs)) ||
		       hgroup_devs_subset(c->devs, hgroup_deref(limit->devs));
	case HGROUP_ATTR_FREEZE:
		return !(limit->freeze & hg->freeze & ~c->freeze);
	}
	return false;
}

/* May the caller change @hg at all? */
static int __hgroup_may_change(const struct hgroup *hg, bool audit)
{
	struct user_namespace *ns = ns_of_pid(hg->pgrp)->user_ns;

	if (hg == &init_hgroup)
		return -EPERM;
	if (uid_eq(current_euid(), hg->owner) ||
	    (audit ? ns_capable(ns, CAP_SYS_ADMIN) :
		     ns_capable_noaudit(ns, CAP_SYS_ADMIN)))
		return 0;
	return -EPERM;
}

static int hgroup_may_change(const struct hgroup *hg)
{
	return __hgroup_may_change(hg, true);
}

/*
 * May the caller lift @hg as @c says?  Only within what the caller's own
 * group and every group above it allow, and every group above @hg (but
 * for those changed in the same domain-scope step).
 */
static int hgroup_may_lift(struct hgroup *hg, struct hgroup_change *c)
{
	const struct hgroup *a;

	for (a = task_hgroup(current); a; a = a->parent)
		if (!hgroup_allows(a, hg, c))
			return -EACCES;
	for (a = hg->parent; a; a = a->parent) {
		if (c->domain_scope && a->domain == c->domain)
			continue;
		if (!hgroup_allows(a, hg, c))
			return -EACCES;
	}
	return 0;
}

/* Does the change only ever allow more than @hg allows now? */
static bool hgroup_lifts_only(const struct hgroup *hg,
			      const struct hgroup_change *c)
{
	switch (c->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		return hgroup_set_allows(c->attr, hgroup_set_of(hg, c->attr),
					 c->set, c->set);
	case HGROUP_ATTR_DEVICES:
		return hgroup_devs_subset(hgroup_deref(hg->devs), c->devs);
	case HGROUP_ATTR_FREEZE:
		return !(c->freeze & ~hg->freeze);
	}
	return false;
}

/*
 * May the caller restrict the threads of @hg?  Each one it has no
 * CAP_SYS_ADMIN over (in the user namespace of the thread's credentials)
 * must be one it could send a signal to, by uid as kill() checks, and
 * must have no_new_privs, as a process restricting itself with Landlock
 * or seccomp must: no set-id program runs under restrictions set by
 * someone it does not trust, and no container's root restricts a host
 * process that entered its PID namespace.  *@unpriv tells whether any
 * thread needed the second rule.
 */
static int hgroup_may_restrict(struct hgroup *hg, bool *unpriv)
{
	const struct cred *cred = current_cred(), *tcred;
	struct task_struct *t;
	int ret = 0;

	*unpriv = false;
	rcu_read_lock();
	for (t = hgroup_next_task(hg, NULL); t && !ret;
	     t = hgroup_next_task(hg, t)) {
		tcred = __task_cred(t);
		if (ns_capable_noaudit(tcred->user_ns, CAP_SYS_ADMIN))
			continue;
		*unpriv = true;
		if ((!uid_eq(cred->euid, tcred->suid) &&
		     !uid_eq(cred->euid, tcred->uid) &&
		     !uid_eq(cred->uid, tcred->suid) &&
		     !uid_eq(cred->uid, tcred->uid)) ||
		    !task_no_new_privs(t))
			ret = -EPERM;
	}
	rcu_read_unlock();
	return ret;
}

static int hgroup_check_one(struct hgroup *hg, struct hgroup_change *c)
{
	bool unpriv;
	int ret;

	ret = hgroup_may_change(hg);
	if (!ret && !hgroup_lifts_only(hg, c))
		ret = hgroup_may_restrict(hg, &unpriv);
	if (ret)
		return ret;
	if ((c->attr == HGROUP_ATTR_CPUS || c->attr == HGROUP_ATTR_MEMS) &&
	    !hgroup_set_fits(c->attr, c->set, hg))
		return -EINVAL;
	if (hgroup_allows(hg, hg, c))
		return 0;
	return hgroup_may_lift(hg, c);
}

/**
 * hgroup_may_join - may a process move from one group into another?
 * @p: the process.
 * @from: the group it is in.
 * @to: the existing group setpgid() moves it to.
 *
 * A move must not shed a restriction: @to must restrict at least as much
 * as @from (CPUs, nodes, devices, freeze flags), or the caller must be
 * allowed to lift @from as far as @to (see hgroup_check_one()).  Nor may
 * a process without no_new_privs join a group restricted by a caller
 * that was not privileged over its members (hgroup::nnp), nor one whose
 * sets do not meet its cpuset (the cpuset's masks would stay in force).
 * Called with tasklist_lock held for writing.
 *
 * Return: 0 or -EPERM.
 */
int hgroup_may_join(struct task_struct *p, struct hgroup *from,
		    struct hgroup *to)
{
	struct hgroup_change c[] = {
		{ .attr = HGROUP_ATTR_CPUS, .set = hgroup_deref(to->cpus) },
		{ .attr = HGROUP_ATTR_MEMS, .set = hgroup_deref(to->mems) },
		{ .attr = HGROUP_ATTR_DEVICES, .devs = hgroup_deref(to->devs) },
		{ .attr = HGROUP_ATTR_FREEZE, .freeze = to->freeze },
	};
	const struct cpumask *cpus = c[0].set ? to_cpumask(c[0].set->bits) :
					       NULL;
	const nodemask_t *mems = c[1].set ? (nodemask_t *)c[1].set->bits :
					    NULL;
	struct task_struct *t;
	unsigned int i;

	for_each_thread(p, t) {
		if (to->nnp && !task_no_new_privs(t))
			return -EPERM;
		/* The sets must meet its cpuset, or they would not bind. */
		if (!cpuset_task_meets(t, cpus, mems))
			return -EPERM;
	}
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (hgroup_allows(from, from, &c[i]))
			continue;
		if (__hgroup_may_change(from, false) ||
		    hgroup_may_lift(from, &c[i]))
			return -EPERM;
	}
	return 0;
}

static int hgroup_apply_one(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_set __rcu **slot;
	struct hgroup_devs *devs;
	struct hgroup_set *set;
	bool unpriv;

	/*
	 * Restricted by someone not privileged over its members: from now
	 * on only tasks with no_new_privs may join.
	 */
	if (!hgroup_lifts_only(hg, c) && !hgroup_may_restrict(hg, &unpriv) &&
	    unpriv)
		hg->nnp = true;

	switch (c->attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		slot = hgroup_slot(hg, c->attr);
		set = hgroup_set_of(hg, c->attr);
		if (set == c->set)
			break;
		rcu_assign_pointer(*slot, hgroup_set_get(c->set));
		hgroup_set_put(set);
		/*
		 * A generation of its own for every group changed, also in
		 * one domain-scope call: two groups share a generation only
		 * when one copied its sets from the other, so that a
		 * process moving between them needs no push.  Pairs with
		 * the acquire in hgroup_apply_sets().
		 */
		smp_store_release(&hg->push_gen, ++hgroup_gen_seq);
		hgroup_push(hg);
		break;
	case HGROUP_ATTR_DEVICES:
		devs = hgroup_deref(hg->devs);
		rcu_assign_pointer(hg->devs, hgroup_devs_get(c->devs));
		hgroup_devs_put(devs);
		break;
	case HGROUP_ATTR_FREEZE:
		hgroup_freeze_set(hg, c->freeze);
		break;
	}
	return 0;
}

/*
 * Call @fn on every process group of @c->domain, the leader first, each
 * once, until it fails.
 */
static int hgroup_walk_domain(struct hgroup_change *c,
			      int (*fn)(struct hgroup *hg,
					struct hgroup_change *c))
{
	struct hgroup_domain *d = c->domain;
	struct task_struct *p;
	struct hgroup *hg;
	int ret;

	c->visit = ++hgroup_visit_seq;
	d->leader->visit = c->visit;
	ret = fn(d->leader, c);
	hlist_for_each_entry(p, &d->id->tasks[PIDTYPE_DOMAIN],
			     pid_links[PIDTYPE_DOMAIN]) {
		if (ret)
			break;
		hg = task_hgroup(p);
		if (hg->visit == c->visit)
			continue;
		hg->visit = c->visit;
		ret = fn(hg, c);
	}
	return ret;
}

static int hgroup_tasks_set(struct hgroup_change *c)
{
	struct hgroup_domain *d = c->domain, *a;
	int ret;

	ret = hgroup_may_change(d->leader);
	if (ret)
		return ret;
	if (c->tasks_max > d->tasks_max) {
		for (a = task_hgroup(current)->domain; a;
		     a = hgroup_domain_parent(a))
			if (c->tasks_max > a->tasks_max)
				return -EACCES;
		for (a = hgroup_domain_parent(d); a; a = hgroup_domain_parent(a))
			if (c->tasks_max > a->tasks_max)
				return -EACCES;
	}
	WRITE_ONCE(d->tasks_max, c->tasks_max);
	return 0;
}

/*
 * The group named @pgid in the caller's PID namespace, 0 for the caller's;
 * tasklist_lock or RCU held.
 */
static struct hgroup *hgroup_find(pid_t pgid)
{
	struct task_struct *t;
	struct pid *pid;

	if (pgid < 0)
		return NULL;
	if (!pgid)
		return task_hgroup(current);
	pid = find_vpid(pgid);
	t = pid ? pid_task(pid, PIDTYPE_PGID) : NULL;
	return t ? task_hgroup(t) : NULL;
}

/**
 * hgroup_attr_set - change a restriction of a process group or domain
 * @pgid: the process group, 0 for the caller's.
 * @attr: HGROUP_ATTR_*.
 * @kattr: the attribute's structure, in kernel memory.
 * @flags: HGROUP_SCOPE_DOMAIN or 0, already checked against @attr.
 *
 * Return: 0 or a negative errno, see include/uapi/linux/hgroup.h.
 */
long hgroup_attr_set(pid_t pgid, unsigned int attr, const void *kattr,
		     unsigned int flags)
{
	struct hgroup_change c = {
		.attr = attr,
		.domain_scope = flags & HGROUP_SCOPE_DOMAIN,
	};
	bool sets = attr == HGROUP_ATTR_CPUS || attr == HGROUP_ATTR_MEMS;
	struct hgroup *hg;
	long ret;

	ret = hgroup_change_init(&c, kattr);
	if (ret)
		return ret;
	/* Keep tasks from changing cpusets while the sets are checked. */
	if (sets)
		cpuset_lock();
	ret = mutex_lock_killable(&hgroup_attr_mutex);
	if (ret)
		goto out_cpuset;

	read_lock(&tasklist_lock);
	hg = hgroup_find(pgid);
	ret = -ESRCH;
	if (!hg)
		goto out_unlock;
	c.domain = hg->domain;
	if (attr == HGROUP_ATTR_TASKS) {
		ret = hgroup_tasks_set(&c);
	} else if (c.domain_scope) {
		ret = hgroup_walk_domain(&c, hgroup_check_one);
		if (!ret)
			ret = hgroup_walk_domain(&c, hgroup_apply_one);
	} else {
		ret = hgroup_check_one(hg, &c);
		if (!ret)
			ret = hgroup_apply_one(hg, &c);
	}
out_unlock:
	read_unlock(&tasklist_lock);
	mutex_unlock(&hgroup_attr_mutex);
out_cpuset:
	if (sets)
		cpuset_unlock();
	hgroup_set_put(c.set);
	hgroup_devs_put(c.devs);
	return ret;
}

/**
 * hgroup_attr_get - read a restriction of a process group or domain
 * @pgid: the process group, 0 for the caller's.
 * @attr: HGROUP_ATTR_*.
 * @kattr: the attribute's structure, in kernel memory: input fields read,
 *	output fields filled in.
 * @flags: HGROUP_SCOPE_DOMAIN or 0, already checked against @attr.
 *
 * Return: 0 or a negative errno, see include/uapi/linux/hgroup.h.
 */
long hgroup_attr_get(pid_t pgid, unsigned int attr, void *kattr,
		     unsigned int flags)
{
	struct hgroup_freeze *fz = kattr;
	struct hgroup_tasks *tasks = kattr;
	struct hgroup_devs *devs = NULL;
	struct hgroup_set *set = NULL;
	struct hgroup_domain *d;
	struct hgroup *hg;
	long ret = -ESRCH;

	if (attr == HGROUP_ATTR_MEMS && !IS_ENABLED(CONFIG_CPUSETS))
		return -EOPNOTSUPP;
	mutex_lock(&hgroup_attr_mutex);
	read_lock(&tasklist_lock);
	hg = hgroup_find(pgid);
	if (!hg)
		goto out_unlock;
	ret = 0;
	switch (attr) {
	case HGROUP_ATTR_CPUS:
	case HGROUP_ATTR_MEMS:
		set = hgroup_set_get(hgroup_set_of(hg, attr));
		break;
	case HGROUP_ATTR_DEVICES:
		devs = hgroup_devs_get(hgroup_deref(hg->devs));
		break;
	case HGROUP_ATTR_FREEZE:
		fz->flags = hg->freeze;
		fz->state = hgroup_frozen(hg) ? HGROUP_STATE_FROZEN : 0;
		break;
	case HGROUP_ATTR_TASKS:
		d = hg->domain;
		tasks->max = d->tasks_max;
		tasks->nr_tasks = d == &init_hgroup_domain ? nr_threads :
			d->nr_tasks;
		break;
	}
out_unlock:
	read_unlock(&tasklist_lock);
	mutex_unlock(&hgroup_attr_mutex);

	if (!ret && (attr == HGROUP_ATTR_CPUS || attr == HGROUP_ATTR_MEMS))
		ret = hgroup_set_to_user(attr, set, kattr);
	if (!ret && attr == HGROUP_ATTR_DEVICES)
		ret = hgroup_devs_to_user(devs, kattr);
	hgroup_set_put(set);
	hgroup_devs_put(devs);
	return ret;
}
