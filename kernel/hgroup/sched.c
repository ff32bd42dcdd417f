// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: scheduling groups of process groups and domains.
 *
 * Each domain has two flags (HGROUP_ATTR_SCHED): with
 * HGROUP_SCHED_GROUP_PGRPS each of its process groups is a task group of
 * the scheduler, with HGROUP_SCHED_GROUP_DOMAINS each of its sub-domains
 * is one.  A group is nested in the group of the nearest domain above it
 * that has one, or in the root task group; a process group without a
 * group of its own runs in its domain's (or the nearest one above), and
 * where there is none, in its session's autogroup or the root, as without
 * hgroups.  So the levels that group need not be next to each other.
 * The groups are made by kernel/sched/hgroup.c, the scheduler's side;
 * autogroup_task_group() asks hgroup_task_sched() which group a task
 * belongs in.  A task group cannot change its parent, so a change of flags
 * makes new groups for everything below that changes parent, and moves
 * the tasks.
 *
 * A process group's CPU limits (HGROUP_ATTR_CPU without the domain scope)
 * are a budget, struct hgroup_cpu_budget: one task group, where the
 * group's own would be, for the group and every group made from it since;
 * a domain made from one of those has all of it inside the budget's
 * group.  So neither setsid() nor set_domainid() makes more of a budget.
 *
 * Locking: hgroup_sched_mutex serialises every change of hgroup::sched
 * and hgroup_domain::sched.  hgroup::sched changes with tasklist_lock
 * held for reading too, and the group's tasks are moved before that lock
 * is dropped: fork, setpgid() and setsid() (tasklist_lock held for
 * writing) find every task of a group in the group hgroup::sched names,
 * but for a process moved in by a setpgid() or setsid() not yet
 * finished, which holds a reference to the task group it is still in
 * (hgroup_pgrp_ctx); so a reference taken there pins the task group the
 * tasks are in.  The reference to a replaced group is dropped only after
 * its tasks left it.  Moving a task needs no mutex: the move computes
 * its group under the task's runqueue lock, from the pointer of the last
 * change, so concurrent moves end where the last change says.  Nothing
 * sleeps under tasklist_lock: groups are made before it is taken.  The
 * mutex nests inside a domain's mutex.
 */

#include <linux/cgroup.h>
#include <linux/math64.h>
#include <linux/pid_namespace.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "hgroup.h"

static DEFINE_MUTEX(hgroup_sched_mutex);

/* Generation of the walks of hgroup_sched_fix_groups(). */
static u64 hgroup_sched_visit_seq;

/**
 * hgroup_task_sched - the task group of a task's process group or domain
 * @p: the task, its pi_lock (and so preemption off) or runqueue lock held
 *	(autogroup_task_group()).
 *
 * Return: the group, or NULL for the session's autogroup or the root.
 * Valid while that raw spinlock is held, past the RCU read-side section
 * here: a group is freed two grace periods after its last reference,
 * which goes after its tasks left it.
 */
struct autogroup *hgroup_task_sched(struct task_struct *p)
{
	struct autogroup *ag = NULL;
	struct hgroup *hg;

	rcu_read_lock();
	/* NULL for a new process before hgroup_fork(), and once released. */
	hg = rcu_dereference(p->signal->hgroup);
	if (hg)
		ag = rcu_dereference(hg->sched);
	rcu_read_unlock();
	return ag;
}

/*
 * The group the process groups of @d without one of their own run in:
 * @d's, or that of the CPU budget @d was made in, or one above.
 */
static struct autogroup *hgroup_domain_sched(struct hgroup_domain *d)
{
	for (; d; d = d->parent) {
		if (d->sched)
			return d->sched;
		if (d->cpu_budget && d->cpu_budget->sched)
			return d->cpu_budget->sched;
	}
	return NULL;
}

/* The group @d's own group nests in. */
static struct autogroup *hgroup_domain_parent_sched(struct hgroup_domain *d)
{
	if (d->cpu_budget && d->cpu_budget->sched)
		return d->cpu_budget->sched;
	return hgroup_domain_sched(d->parent);
}

/* Default CPU limits: one nice-0 task's weight, no bandwidth limit. */
#define HGROUP_CPU_WEIGHT_DFL	100
#define HGROUP_CPU_PERIOD_DFL	100000

/* Has @d a CPU limit? */
static bool hgroup_cpu_limited(struct hgroup_domain *d)
{
	return READ_ONCE(d->cpu_weight) != HGROUP_CPU_WEIGHT_DFL ||
	       READ_ONCE(d->cpu_quota_us) != HGROUP_CPU_UNLIMITED;
}

/* Should @d have a group of its own?  Its parent says, or a limit. */
static bool hgroup_sched_domain_wanted(struct hgroup_domain *d)
{
	return d->parent &&
	       ((READ_ONCE(d->parent->sched_flags) &
		 HGROUP_SCHED_GROUP_DOMAINS) || hgroup_cpu_limited(d));
}

/* Give @d's group @d's limits. */
static void hgroup_sched_limit(struct hgroup_domain *d)
{
	int ret;

	ret = hgroup_sched_set_limits(d->sched, READ_ONCE(d->cpu_weight),
				      READ_ONCE(d->cpu_quota_us),
				      READ_ONCE(d->cpu_period_us));
	if (ret)
		pr_warn_ratelimited("hgroup: CPU limits of domain %u: %d\n",
				    d->id, ret);
}

/*
 * Should @hg have a group of its own?  Never the kernel threads', nor one
 * in a CPU budget (whose group it runs in).
 */
static bool hgroup_sched_wanted(struct hgroup *hg)
{
	return hg != &init_hgroup && !READ_ONCE(hg->cpu_budget) &&
	       (READ_ONCE(hg->domain->sched_flags) & HGROUP_SCHED_GROUP_PGRPS);
}

static atomic_long_t hgroup_nr_budgets = ATOMIC_LONG_INIT(0);

/**
 * hgroup_cpu_budgets - live CPU budgets of process groups
 *
 * Return: how many are made and not yet freed.
 */
long hgroup_cpu_budgets(void)
{
	return atomic_long_read(&hgroup_nr_budgets);
}

static void hgroup_budget_put(struct hgroup_cpu_budget *budget)
{
	if (!budget || !refcount_dec_and_test(&budget->usage))
		return;
	/* Its groups and domains left it: nothing runs in its group. */
	hgroup_sched_put(budget->sched);
	put_user_ns(budget->owner_ns);
	put_user_ns(budget->admin_ns);
	kfree_rcu(budget, rcu);
	atomic_long_dec(&hgroup_nr_budgets);
}

/*
 * The CPU budget of @hg, referenced, or NULL.  A change of the group's
 * budget (hgroup_pcpu_apply()) holds the domain's mutex, not
 * hgroup_sched_mutex, and may drop the last reference to the old one; its
 * maker fixes the group afterwards, under hgroup_sched_mutex.
 */
static struct hgroup_cpu_budget *hgroup_budget_of(struct hgroup *hg)
{
	struct hgroup_cpu_budget *budget;

	rcu_read_lock();
	budget = READ_ONCE(hg->cpu_budget);
	if (budget && !refcount_inc_not_zero(&budget->usage))
		budget = NULL;
	rcu_read_unlock();
	return budget;
}

/*
 * The bound of @budget's weight in force: its own, and in a domain that
 * groups its process groups, at most the bound each would have there.
 */
static u32 hgroup_budget_weight(const struct hgroup_cpu_budget *budget)
{
	u32 weight = READ_ONCE(budget->weight);

	if (READ_ONCE(budget->domain->sched_flags) & HGROUP_SCHED_GROUP_PGRPS)
		weight = min_t(u32, weight, HGROUP_CPU_WEIGHT_DFL);
	return weight;
}

/* Give @budget's group its limits. */
static void hgroup_budget_limit(struct hgroup_cpu_budget *budget)
{
	int ret;

	budget->weight_set = hgroup_budget_weight(budget);
	ret = hgroup_sched_set_limits(budget->sched, budget->weight_set,
				      READ_ONCE(budget->quota_us),
				      READ_ONCE(budget->period_us));
	if (ret)
		pr_warn_ratelimited("hgroup: CPU limits of a budget: %d\n", ret);
}

/*
 * Make @budget's group, or make it afresh where its domain's group changed.
 * Its groups and domains still hold references to the old one, and leave
 * it when they are fixed.
 *
 * Return: the group; NULL (the domain's) without memory for one.
 */
static struct autogroup *hgroup_sched_budget(struct hgroup_cpu_budget *budget)
{
	struct autogroup *parent = hgroup_domain_sched(budget->domain);
	struct autogroup *ag = budget->sched;

	lockdep_assert_held(&hgroup_sched_mutex);
	if (ag && hgroup_sched_child_of(ag, parent)) {
		/* The domain's flags changed the bound in force. */
		if (budget->weight_set != hgroup_budget_weight(budget))
			hgroup_budget_limit(budget);
		return ag;
	}
	ag = hgroup_sched_create(parent);
	if (IS_ERR(ag)) {
		/* The old group keeps the limits, in its old place. */
		pr_warn_ratelimited("hgroup: no task group for a CPU budget in domain %u\n",
				    budget->domain->id);
		return budget->sched;
	}
	hgroup_sched_put(budget->sched);
	WRITE_ONCE(budget->sched, ag);
	hgroup_budget_limit(budget);
	return ag;
}

/*
 * Give @d the group it should have, made afresh if its parent changed.
 * Its process groups still hold references to the old one, and leave it
 * when they are fixed; so do the groups nested in it.
 */
static void hgroup_sched_fix_domain(struct hgroup_domain *d)
{
	struct autogroup *parent = NULL, *ag = NULL, *old = d->sched;

	lockdep_assert_held(&hgroup_sched_mutex);
	/* Made in a CPU budget: everything in it runs inside the budget. */
	if (d->cpu_budget)
		hgroup_sched_budget(d->cpu_budget);
	if (hgroup_sched_domain_wanted(d)) {
		parent = hgroup_domain_parent_sched(d);
		if (old && hgroup_sched_child_of(old, parent))
			return;
		ag = hgroup_sched_create(parent);
		/* Without memory for it, the domain shares its parent's. */
		if (IS_ERR(ag)) {
			pr_warn_ratelimited("hgroup: no task group for domain %u\n",
					    d->id);
			ag = NULL;
		}
	}
	if (ag == old)
		return;
	/* Readers of the statistics find it under RCU. */
	WRITE_ONCE(d->sched, ag);
	if (ag)
		hgroup_sched_limit(d);
	hgroup_sched_put(old);
}

/* Move every thread of @hg into the group it should be in. */
static void hgroup_sched_move_group(struct hgroup *hg)
{
	struct task_struct *t = NULL;

	while ((t = hgroup_next_task(hg, t)))
		hgroup_sched_move(t);
}

/*
 * Give @hg the group it should have (its CPU budget's, its own, or its
 * domain's), and move its threads into it.
 */
static void hgroup_sched_fix_group(struct hgroup *hg)
{
	struct autogroup *parent = hgroup_domain_sched(hg->domain);
	struct hgroup_cpu_budget *budget = hgroup_budget_of(hg);
	struct autogroup *cur, *ag = NULL;
	bool own = false;

	lockdep_assert_held(&hgroup_sched_mutex);
	cur = rcu_dereference_protected(hg->sched,
					lockdep_is_held(&hgroup_sched_mutex));
	if (budget) {
		/* Held before the budget, which may be the group's last hold. */
		ag = hgroup_sched_get(hgroup_sched_budget(budget));
		hgroup_budget_put(budget);
		if (!hg->sched_own && cur == ag) {
			hgroup_sched_put(ag);
			return;
		}
	} else if (hgroup_sched_wanted(hg)) {
		if (hg->sched_own && hgroup_sched_child_of(cur, parent))
			return;
		ag = hgroup_sched_create(parent);
		if (!IS_ERR(ag))
			own = true;
		else
			pr_warn_ratelimited("hgroup: no task group for process group %d\n",
					    pid_nr(hg->pgrp));
	}
	if (!budget && !own) {
		if (!hg->sched_own && cur == parent)
			return;
		ag = hgroup_sched_get(parent);
	}
	read_lock(&tasklist_lock);
	rcu_assign_pointer(hg->sched, ag);
	WRITE_ONCE(hg->sched_own, own);
	hgroup_sched_move_group(hg);
	read_unlock(&tasklist_lock);
	hgroup_sched_put(cur);
}

/*
 * Fix every process group of @d.  They are collected with tasklist_lock
 * held, each with a reference, and fixed after it is dropped, as making a
 * group sleeps.  A group made meanwhile is fixed by its own maker
 * (hgroup_sched_finish(), which waits for the mutex).
 */
static void hgroup_sched_fix_groups(struct hgroup_domain *d)
{
	u64 visit = ++hgroup_sched_visit_seq;
	struct task_struct *p;
	struct hgroup *hg, *n;
	LIST_HEAD(groups);

	lockdep_assert_held(&hgroup_sched_mutex);
	read_lock(&tasklist_lock);
	if (hgroup_domain_linked(d)) {
		hlist_for_each_entry(p, &d->pid->tasks[PIDTYPE_DOMAIN],
				     pid_links[PIDTYPE_DOMAIN]) {
			hg = task_hgroup(p);
			if (hg->sched_visit == visit)
				continue;
			hg->sched_visit = visit;
			list_add_tail(&hgroup_get(hg)->sched_node, &groups);
		}
	} else {
		/* Domain 0 keeps no list of its members. */
		for_each_process(p) {
			hg = task_hgroup(p);
			if (!hg || hg->domain != d || hg->sched_visit == visit)
				continue;
			hg->sched_visit = visit;
			list_add_tail(&hgroup_get(hg)->sched_node, &groups);
		}
	}
	read_unlock(&tasklist_lock);
	list_for_each_entry_safe(hg, n, &groups, sched_node) {
		hgroup_sched_fix_group(hg);
		list_del(&hg->sched_node);
		hgroup_put(hg);
		cond_resched();
	}
}

/*
 * The flags (or, with @limits, the CPU limits) of @root changed: give
 * every domain and process group in its subtree the group it should
 * have, and @root's group its limits.  Pre-order, so that a group is
 * made after the group it nests in.
 */
static void hgroup_sched_rebuild(struct hgroup_domain *root, bool limits)
{
	struct hgroup_domain *d;
	struct autogroup *ag;

	mutex_lock(&hgroup_sched_mutex);
	if (limits) {
		ag = root->sched;
		hgroup_sched_fix_domain(root);
		/* A group kept: the limits changed, not its place. */
		if (root->sched && root->sched == ag)
			hgroup_sched_limit(root);
	}
	hgroup_for_each_domain(d, root) {
		if (d != root)
			hgroup_sched_fix_domain(d);
		hgroup_sched_fix_groups(d);
	}
	mutex_unlock(&hgroup_sched_mutex);
}

/**
 * hgroup_sched_init_state - a new process group starts in its maker's group
 * @hg: the new group's state.
 * @from: the state of the group it is made from.
 *
 * Called with tasklist_lock held for writing.  The process that makes the
 * group runs in @from's task group until hgroup_sched_finish() moves it.
 */
void hgroup_sched_init_state(struct hgroup *hg, const struct hgroup *from)
{
	struct autogroup *ag;

	ag = rcu_dereference_protected(from->sched,
				       lockdep_is_held(&tasklist_lock));
	RCU_INIT_POINTER(hg->sched, hgroup_sched_get(ag));
	hg->sched_own = false;
	hg->sched_visit = 0;
	/* Made from a redirected group, in its budget: redirected too. */
	hg->sched_redirect = hg->domain == from->domain ?
			     get_pid(from->sched_redirect) : NULL;
}

/**
 * hgroup_sched_release - a process group's state is being freed
 * @hg: the state; nothing runs in its task group any more.
 */
void hgroup_sched_release(struct hgroup *hg)
{
	hgroup_sched_put(rcu_dereference_protected(hg->sched, true));
	put_pid(hg->sched_redirect);
}

/**
 * hgroup_sched_domain_init - a new domain starts with its parent's flags
 * @d: the new domain, its parent set, not yet linked.
 * @from: the state of the process group it is made from, whose CPU
 *	budget it carries; tasklist_lock held for writing.
 */
void hgroup_sched_domain_init(struct hgroup_domain *d, struct hgroup *from)
{
	d->cpu_budget = from->cpu_budget;
	if (d->cpu_budget)
		refcount_inc(&d->cpu_budget->usage);
	d->sched_flags = READ_ONCE(d->parent->sched_flags);
	d->cpu_weight = HGROUP_CPU_WEIGHT_DFL;
	d->cpu_quota_us = HGROUP_CPU_UNLIMITED;
	d->cpu_period_us = HGROUP_CPU_PERIOD_DFL;
}

/**
 * hgroup_sched_domain_release - a domain is being freed
 * @d: the domain; nothing is nested in its task group any more.
 */
void hgroup_sched_domain_release(struct hgroup_domain *d)
{
	hgroup_sched_put(d->sched);
	hgroup_budget_put(d->cpu_budget);
}

/**
 * hgroup_sched_join - note a process's move to another process group
 * @ctx: the context of the call that moved it.
 * @p: the process.
 * @old: the state of the group it left.
 * @hg: the state of the group it joined.
 * @made: @hg is new (setsid(), setpgid() or set_domainid() made it).
 *
 * Called with tasklist_lock held for writing, after the move.  If its
 * threads may have to change task group, keeps what hgroup_sched_finish()
 * needs for that, with a reference to the group they are in now.
 */
void hgroup_sched_join(struct hgroup_pgrp_ctx *ctx, struct task_struct *p,
		       struct hgroup *old, struct hgroup *hg, bool made)
{
	struct autogroup *cur;

	cur = rcu_dereference_protected(old->sched,
					lockdep_is_held(&tasklist_lock));
	/*
	 * A new group in a CPU budget, or leading a domain made in one, is
	 * fixed even where no task group is in sight: the budget's may not
	 * be made yet (hgroup_pcpu_commit() runs after the change).
	 */
	if (!cur && !rcu_access_pointer(hg->sched) &&
	    !(made && (hgroup_sched_wanted(hg) || hg->cpu_budget ||
		       (hgroup_is_leader(hg) &&
			(hg->domain->cpu_budget ||
			 hgroup_sched_domain_wanted(hg->domain))))))
		return;
	/* The call moved the process once, at most. */
	if (WARN_ON_ONCE(ctx->sched_task))
		return;
	/* Its threads by its tgid: a thread's exec makes another the leader. */
	ctx->sched_task = get_pid(task_tgid(p));
	ctx->sched_hg = hgroup_get(hg);
	ctx->sched_old = hgroup_sched_get(cur);
	ctx->sched_made = made;
}

/**
 * hgroup_sched_finish - move a process into its new group's task group
 * @ctx: the context of the call that moved it, after tasklist_lock.
 *
 * A new group (or domain) gets its task group first, if it should have
 * one.  The wait for that is not killable: the process moved is not the
 * caller, and left in its creator's task group it would be outside a
 * domain's new group or a budget's, with their limits, for good.  Then
 * the process's threads are moved, wherever
 * the process is now (it may have been moved again, or a thread may have
 * exec'd), into the group it should be in: under tasklist_lock, so that
 * each move sees the task group of the last change.  Only then may the
 * group they were in go.
 */
void hgroup_sched_finish(struct hgroup_pgrp_ctx *ctx)
{
	struct hgroup *hg = ctx->sched_hg;
	struct task_struct *p, *t;

	if (!ctx->sched_task)
		return;
	if (ctx->sched_made) {
		mutex_lock(&hgroup_sched_mutex);
		if (hgroup_is_leader(hg))
			hgroup_sched_fix_domain(hg->domain);
		hgroup_sched_fix_group(hg);
		mutex_unlock(&hgroup_sched_mutex);
	}
	read_lock(&tasklist_lock);
	p = pid_task(ctx->sched_task, PIDTYPE_TGID);
	if (p)
		for_each_thread(p, t)
			hgroup_sched_move(t);
	read_unlock(&tasklist_lock);
	hgroup_sched_put(ctx->sched_old);
	hgroup_put(hg);
	put_pid(ctx->sched_task);
	ctx->sched_task = NULL;
}

static int hgroup_sched_parse(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_sched *sched = kattr;

	if (sched->flags & ~(HGROUP_SCHED_GROUP_PGRPS |
			     HGROUP_SCHED_GROUP_DOMAINS) ||
	    sched->__reserved)
		return -EINVAL;
	c->sched_flags = sched->flags;
	return 0;
}

static void hgroup_sched_value(const struct hgroup *hg,
			       struct hgroup_change *c)
{
	c->sched_flags = READ_ONCE(hg->domain->sched_flags);
}

/*
 * Clearing a flag is lifting: it lets the domain's tasks compete one by
 * one, or its sub-domains' groups with each other's, as more weight
 * against the rest than they had as a group.  Every group of a domain
 * bounds by its domain's flags, so walking the groups above one walks
 * the domains above it.
 */
static bool hgroup_sched_allows(const struct hgroup *limit,
				const struct hgroup *hg,
				const struct hgroup_change *c)
{
	/* @limit may be in another domain, changing meanwhile. */
	return !(hg->domain->sched_flags & ~c->sched_flags) ||
	       !(READ_ONCE(limit->domain->sched_flags) & ~c->sched_flags);
}

static bool hgroup_sched_lifts_only(const struct hgroup *hg,
				    const struct hgroup_change *c)
{
	return !(c->sched_flags & ~hg->domain->sched_flags);
}

static void hgroup_sched_apply(struct hgroup *hg,
			       struct hgroup_change *c)
{
	WRITE_ONCE(hg->domain->sched_flags, c->sched_flags);
}

static void hgroup_sched_read(struct hgroup *hg, void *kattr)
{
	struct hgroup_sched *sched = kattr;

	sched->flags = READ_ONCE(hg->domain->sched_flags);
}

static void hgroup_sched_commit(const struct hgroup_change *c)
{
	hgroup_sched_rebuild(c->domain, false);
}

/*
 * Grouping needs no trust by the members: what it changes is how much of
 * the CPU the domain's tasks get against each other and the rest, as
 * setsid() with autogroup does.
 */
const struct hgroup_restriction hgroup_sched_restriction = {
	.attr		= HGROUP_ATTR_SCHED,
	.kind		= HGROUP_ATTR_SCHED,
	.size_ver0	= HGROUP_SCHED_SIZE_VER0,
	.size		= sizeof(struct hgroup_sched),
	.per_domain	= true,
	.no_trust	= true,
	.init_domain	= true,
	.parse		= hgroup_sched_parse,
	.value		= hgroup_sched_value,
	.allows		= hgroup_sched_allows,
	.lifts_only	= hgroup_sched_lifts_only,
	.apply		= hgroup_sched_apply,
	.read		= hgroup_sched_read,
	.commit		= hgroup_sched_commit,
};

/* The largest quota: products with a period fit in 64 bits. */
#define HGROUP_CPU_QUOTA_MAX	BIT_ULL(40)

static int hgroup_cpu_parse(struct hgroup_change *c, const void *kattr)
{
	const struct hgroup_cpu *cpu = kattr;

	if (cpu->__reserved || cpu->usage_us || cpu->nr_periods ||
	    cpu->nr_throttled || cpu->throttled_us)
		return -EINVAL;
	/* The ranges of cpu.weight and of CFS bandwidth (cpu.max). */
	if (cpu->weight_max < CGROUP_WEIGHT_MIN ||
	    cpu->weight_max > CGROUP_WEIGHT_MAX ||
	    cpu->period_us < USEC_PER_MSEC || cpu->period_us > USEC_PER_SEC ||
	    (cpu->quota_us != HGROUP_CPU_UNLIMITED &&
	     (cpu->quota_us < USEC_PER_MSEC ||
	      cpu->quota_us > HGROUP_CPU_QUOTA_MAX)))
		return -EINVAL;
	if (!IS_ENABLED(CONFIG_CFS_BANDWIDTH) &&
	    cpu->quota_us != HGROUP_CPU_UNLIMITED)
		return -EOPNOTSUPP;
	c->cpu.weight = cpu->weight_max;
	c->cpu.quota_us = cpu->quota_us;
	c->cpu.period_us = cpu->period_us;
	return 0;
}

static void hgroup_cpu_value(const struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_domain *d = hg->domain;

	c->cpu.weight = READ_ONCE(d->cpu_weight);
	c->cpu.quota_us = READ_ONCE(d->cpu_quota_us);
	c->cpu.period_us = READ_ONCE(d->cpu_period_us);
}

/* Does @c allow more than @weight, @quota per @period: a higher weight or rate? */
static bool hgroup_cpu_above_vals(u32 weight, u64 quota, u64 period,
				  const struct hgroup_change *c)
{
	if (c->cpu.weight > weight)
		return true;
	if (quota == HGROUP_CPU_UNLIMITED)
		return false;
	if (c->cpu.quota_us == HGROUP_CPU_UNLIMITED)
		return true;
	/* quota / period against c's: both quotas are below 2^40. */
	return c->cpu.quota_us * period > quota * c->cpu.period_us;
}

/* Does @c allow less than @weight, @quota per @period in some respect? */
static bool hgroup_cpu_below_vals(u32 weight, u64 quota, u64 period,
				  const struct hgroup_change *c)
{
	if (c->cpu.weight < weight)
		return true;
	if (c->cpu.quota_us == HGROUP_CPU_UNLIMITED)
		return false;
	if (quota == HGROUP_CPU_UNLIMITED)
		return true;
	return c->cpu.quota_us * period < quota * c->cpu.period_us;
}

/* Does @c allow more than the limits of @d: a higher weight or rate? */
static bool hgroup_cpu_above(const struct hgroup_domain *d,
			     const struct hgroup_change *c)
{
	return hgroup_cpu_above_vals(READ_ONCE(d->cpu_weight),
				     READ_ONCE(d->cpu_quota_us),
				     READ_ONCE(d->cpu_period_us), c);
}

/*
 * Raising the weight bound or the share of a CPU the quota gives (quota
 * over period) is lifting.  Every group of a domain bounds by its domain's
 * limits, so walking the groups above one walks the domains above it.
 */
static bool hgroup_cpu_allows(const struct hgroup *limit,
			      const struct hgroup *hg,
			      const struct hgroup_change *c)
{
	return !hgroup_cpu_above(hg->domain, c) ||
	       !hgroup_cpu_above(limit->domain, c);
}

static bool hgroup_cpu_lifts_only(const struct hgroup *hg,
				  const struct hgroup_change *c)
{
	struct hgroup_domain *d = hg->domain;

	return !hgroup_cpu_below_vals(d->cpu_weight, d->cpu_quota_us,
				      d->cpu_period_us, c);
}

static void hgroup_cpu_apply(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_domain *d = hg->domain;

	WRITE_ONCE(d->cpu_weight, c->cpu.weight);
	WRITE_ONCE(d->cpu_quota_us, c->cpu.quota_us);
	WRITE_ONCE(d->cpu_period_us, c->cpu.period_us);
}

/* Fill in the statistics of the group @ag (RCU held; NULL for none). */
static void hgroup_cpu_stat(struct autogroup *ag, struct hgroup_cpu *cpu)
{
	struct hgroup_sched_stat st = { };

	if (ag)
		hgroup_sched_stat(ag, &st);
	cpu->usage_us = div_u64(st.usage_ns, NSEC_PER_USEC);
	cpu->nr_periods = st.nr_periods;
	cpu->nr_throttled = st.nr_throttled;
	cpu->throttled_us = div_u64(st.throttled_ns, NSEC_PER_USEC);
}

static void hgroup_cpu_read(struct hgroup *hg, void *kattr)
{
	struct hgroup_domain *d = hg->domain;
	struct hgroup_cpu *cpu = kattr;

	cpu->weight_max = d->cpu_weight;
	cpu->quota_us = d->cpu_quota_us;
	cpu->period_us = d->cpu_period_us;
	rcu_read_lock();
	hgroup_cpu_stat(READ_ONCE(d->sched), cpu);
	rcu_read_unlock();
}

static void hgroup_cpu_commit(const struct hgroup_change *c)
{
	hgroup_sched_rebuild(c->domain, true);
}

/*
 * CPU limits need no trust by the members, as nice and RLIMIT_CPU do
 * not.  Domain 0 has none (it reads as the largest weight bound and no
 * quota, which bounds nothing): it has no task group of its own.  A quota
 * needs CONFIG_CFS_BANDWIDTH (EOPNOTSUPP).
 */
const struct hgroup_restriction hgroup_cpu_restriction = {
	.attr		= HGROUP_ATTR_CPU,
	.kind		= HGROUP_ATTR_CPU,
	.size_ver0	= HGROUP_CPU_SIZE_VER0,
	.size		= sizeof(struct hgroup_cpu),
	.per_domain	= true,
	.no_trust	= true,
	.parse		= hgroup_cpu_parse,
	.value		= hgroup_cpu_value,
	.allows		= hgroup_cpu_allows,
	.lifts_only	= hgroup_cpu_lifts_only,
	.apply		= hgroup_cpu_apply,
	.read		= hgroup_cpu_read,
	.commit		= hgroup_cpu_commit,
};

/*
 * A process group's CPU limits: a budget (struct hgroup_cpu_budget) that
 * the group shares with every process group made from it since, and
 * that the domains made from those run inside.
 */

/*
 * No budget: no bound of its own (the largest), no quota.  In a domain
 * that groups its process groups, each group's bound is one nice-0 task
 * still, and a budget's is at most that (hgroup_budget_weight()).
 */
#define HGROUP_PCPU_WEIGHT_NONE	CGROUP_WEIGHT_MAX

/* Are @c's limits the defaults, which are no budget? */
static bool hgroup_pcpu_default(const struct hgroup_change *c)
{
	return c->cpu.weight == HGROUP_PCPU_WEIGHT_NONE &&
	       c->cpu.quota_us == HGROUP_CPU_UNLIMITED &&
	       c->cpu.period_us == HGROUP_CPU_PERIOD_DFL;
}

static int hgroup_pcpu_parse(struct hgroup_change *c, const void *kattr)
{
	int ret = hgroup_cpu_parse(c, kattr);

	c->cpu.budget = NULL;
	c->cpu.target = NULL;
	if (ret || hgroup_pcpu_default(c))
		return ret;
	/* Ready in case the target needs a budget of its own. */
	c->cpu.budget = kzalloc(sizeof(*c->cpu.budget), GFP_KERNEL_ACCOUNT);
	if (!c->cpu.budget)
		return -ENOMEM;
	refcount_set(&c->cpu.budget->usage, 1);
	c->cpu.budget->weight = c->cpu.weight;
	c->cpu.budget->quota_us = c->cpu.quota_us;
	c->cpu.budget->period_us = c->cpu.period_us;
	return 0;
}

static void hgroup_pcpu_put(struct hgroup_change *c)
{
	if (c->cpu.budget)
		hgroup_sched_put(c->cpu.budget->sched);
	kfree(c->cpu.budget);
	c->cpu.budget = NULL;
	if (c->cpu.target)
		hgroup_put(c->cpu.target);
	c->cpu.target = NULL;
}

static void hgroup_pcpu_value(const struct hgroup *hg, struct hgroup_change *c)
{
	const struct hgroup_cpu_budget *budget = READ_ONCE(hg->cpu_budget);

	c->cpu.weight = budget ? READ_ONCE(budget->weight) :
				 HGROUP_PCPU_WEIGHT_NONE;
	c->cpu.quota_us = budget ? READ_ONCE(budget->quota_us) :
				 HGROUP_CPU_UNLIMITED;
	c->cpu.period_us = budget ? READ_ONCE(budget->period_us) :
				  HGROUP_CPU_PERIOD_DFL;
}

/*
 * Does @c allow more than @hg's budget allows?  Leaving a budget does,
 * whatever its values: its tasks no longer weigh as one.
 */
static bool hgroup_pcpu_above(const struct hgroup *hg,
			      const struct hgroup_change *c)
{
	struct hgroup_change v;

	if (READ_ONCE(hg->cpu_budget) && hgroup_pcpu_default(c))
		return true;
	hgroup_pcpu_value(hg, &v);
	return hgroup_cpu_above_vals(v.cpu.weight, v.cpu.quota_us,
				     v.cpu.period_us, c);
}

/* As for a domain's limits: raising the bound or the rate is lifting. */
static bool hgroup_pcpu_allows(const struct hgroup *limit,
			       const struct hgroup *hg,
			       const struct hgroup_change *c)
{
	return !hgroup_pcpu_above(hg, c) || !hgroup_pcpu_above(limit, c);
}

static bool hgroup_pcpu_lifts_only(const struct hgroup *hg,
				   const struct hgroup_change *c)
{
	struct hgroup_change v;

	hgroup_pcpu_value(hg, &v);
	return !hgroup_cpu_below_vals(v.cpu.weight, v.cpu.quota_us,
				      v.cpu.period_us, c);
}

static bool hgroup_pcpu_restricts(const struct hgroup *hg)
{
	return READ_ONCE(hg->cpu_budget);
}

/*
 * A new group made from @from is in @from's budget; the leader of a new
 * domain is in none, its domain carrying the budget instead (see
 * hgroup_sched_domain_init()), so that the domain's groups, its own
 * limits and its sub-domains all run inside it (hgroup_domain_sched()).
 * tasklist_lock held for writing.
 */
static void hgroup_pcpu_copy(struct hgroup *hg, const struct hgroup *from)
{
	struct hgroup_cpu_budget *budget = from->cpu_budget;

	hg->cpu_budget = NULL;
	if (!budget || hg->domain != from->domain)
		return;
	refcount_inc(&budget->usage);
	hg->cpu_budget = budget;
}

static void hgroup_pcpu_release(struct hgroup *hg)
{
	hgroup_budget_put(hg->cpu_budget);
}

/*
 * The budget's task group is made before the change, where the target's
 * domain places it, so that a change the kernel cannot hold to fails
 * (ENOMEM in hgroup_pcpu_check()) rather than leaving a budget without
 * its limits.  Unused if the change turns out to be made in place.
 */
static void hgroup_pcpu_prepare(const struct hgroup_change *c)
{
	struct hgroup_cpu_budget *budget = c->cpu.budget;
	struct autogroup *ag;

	if (!budget)
		return;
	/* Again after HGROUP_RETRY: maybe for another domain. */
	hgroup_sched_put(budget->sched);
	budget->sched = NULL;
	budget->domain = c->domain;
	mutex_lock(&hgroup_sched_mutex);
	ag = hgroup_sched_create(hgroup_domain_sched(c->domain));
	if (!IS_ERR(ag)) {
		budget->sched = ag;
		hgroup_budget_limit(budget);
	}
	mutex_unlock(&hgroup_sched_mutex);
}

/* May the caller change @budget in place, for all who share it? */
static bool hgroup_budget_owned(const struct hgroup_cpu_budget *budget)
{
	return uid_eq(current_euid(), budget->owner) ||
	       ns_capable(budget->owner_ns, CAP_SYS_ADMIN);
}

/*
 * Does @hg get a budget of its own?  The default limits take it out of
 * its budget.  Others tighten its budget in place, for every group in
 * it, if it shares it, as all of it is one budget; so does any change of
 * a budget it alone is in.  A change that lifts anything of a budget
 * others share gives @hg a budget of its own, in the same place: the
 * others keep theirs.  Only the user the budget was set for (or an
 * administrator over it) changes it in place for others (EPERM): a
 * group made in it by a process that changed its user (a daemon's
 * worker that dropped privileges) is not theirs to tighten.  Without
 * memory for the task group of a new budget, ENOMEM.
 */
static int hgroup_pcpu_check(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_cpu_budget *budget = hg->cpu_budget;
	bool shared = budget && refcount_read(&budget->usage) > 1;

	c->cpu.fresh = false;
	if (hgroup_pcpu_default(c))
		return 0;
	if (!budget || (shared && hgroup_pcpu_above(hg, c))) {
		c->cpu.fresh = true;
		return c->cpu.budget->sched ? 0 : -ENOMEM;
	}
	return shared && !hgroup_budget_owned(budget) ? -EPERM : 0;
}

static void hgroup_pcpu_apply(struct hgroup *hg, struct hgroup_change *c)
{
	struct hgroup_cpu_budget *budget = hg->cpu_budget;

	/* hgroup_pcpu_commit() fixes the group's task group. */
	c->cpu.target = hgroup_get(hg);
	if (hgroup_pcpu_default(c) || c->cpu.fresh) {
		/* Out of the budget a redirection gave it: not redirected. */
		put_pid(hg->sched_redirect);
		hg->sched_redirect = NULL;
	}
	if (hgroup_pcpu_default(c)) {
		WRITE_ONCE(hg->cpu_budget, NULL);
		hgroup_budget_put(budget);
		return;
	}
	if (c->cpu.fresh) {
		budget = c->cpu.budget;
		c->cpu.budget = NULL;
		budget->owner = hg->owner;
		budget->owner_ns = get_user_ns(ns_of_pid(hg->pgrp)->user_ns);
		atomic_long_inc(&hgroup_nr_budgets);
		hgroup_budget_put(hg->cpu_budget);
		WRITE_ONCE(hg->cpu_budget, budget);
	}
	WRITE_ONCE(budget->weight, c->cpu.weight);
	WRITE_ONCE(budget->quota_us, c->cpu.quota_us);
	WRITE_ONCE(budget->period_us, c->cpu.period_us);
}

/* What an administrator tightened binds every group in the budget. */
static struct user_namespace *hgroup_pcpu_get_mark(const struct hgroup *hg)
{
	const struct hgroup_cpu_budget *budget = READ_ONCE(hg->cpu_budget);

	return budget ? budget->admin_ns : NULL;
}

static void hgroup_pcpu_set_mark(struct hgroup *hg, struct user_namespace *ns)
{
	struct hgroup_cpu_budget *budget = hg->cpu_budget;
	struct user_namespace *old;

	if (!budget)
		return;
	old = budget->admin_ns;
	/* Of two, the outer one's administrator binds. */
	if (old && in_userns(old, ns))
		return;
	budget->admin_ns = get_user_ns(ns);
	put_user_ns(old);
}

static void hgroup_pcpu_read(struct hgroup *hg, void *kattr)
{
	const struct hgroup_cpu_budget *budget = hg->cpu_budget;
	struct hgroup_cpu *cpu = kattr;
	struct hgroup_change v;

	hgroup_pcpu_value(hg, &v);
	cpu->weight_max = v.cpu.weight;
	cpu->quota_us = v.cpu.quota_us;
	cpu->period_us = v.cpu.period_us;
	rcu_read_lock();
	hgroup_cpu_stat(budget ? READ_ONCE(budget->sched) :
			READ_ONCE(hg->sched_own) ? rcu_dereference(hg->sched) :
						   NULL, cpu);
	rcu_read_unlock();
}

/*
 * Give the budget's group its limits, and the target group the task
 * group it should have now.  The domain's mutex is held: the budget of
 * the group is the one hgroup_pcpu_apply() left.
 */
static void hgroup_pcpu_commit(const struct hgroup_change *c)
{
	struct hgroup *hg = c->cpu.target;
	struct hgroup_cpu_budget *budget = hg->cpu_budget;

	mutex_lock(&hgroup_sched_mutex);
	if (budget && budget->sched)
		hgroup_budget_limit(budget);
	hgroup_sched_fix_group(hg);
	mutex_unlock(&hgroup_sched_mutex);
}

/*
 * A process group's CPU limits need no trust by the members either.  The
 * kernel threads' group has none (EPERM, as for every change of it).
 */
const struct hgroup_restriction hgroup_pcpu_restriction = {
	.attr		= HGROUP_ATTR_CPU,
	.kind		= HGROUP_KIND_PGRP_CPU,
	.size_ver0	= HGROUP_CPU_SIZE_VER0,
	.size		= sizeof(struct hgroup_cpu),
	.no_trust	= true,
	.parse		= hgroup_pcpu_parse,
	.put		= hgroup_pcpu_put,
	.copy		= hgroup_pcpu_copy,
	.release	= hgroup_pcpu_release,
	.restricts	= hgroup_pcpu_restricts,
	.get_mark	= hgroup_pcpu_get_mark,
	.set_mark	= hgroup_pcpu_set_mark,
	.value		= hgroup_pcpu_value,
	.allows		= hgroup_pcpu_allows,
	.lifts_only	= hgroup_pcpu_lifts_only,
	.check		= hgroup_pcpu_check,
	.prepare	= hgroup_pcpu_prepare,
	.apply		= hgroup_pcpu_apply,
	.read		= hgroup_pcpu_read,
	.commit		= hgroup_pcpu_commit,
};

/*
 * Redirection (HGROUP_ATTR_REDIRECT): a process group joins the CPU
 * budget of another in its domain, which gets one without limits if it
 * has none.  Outside the generic rule: only an administrator over the
 * target's PID namespace sets or ends one, so it has calls of its own.
 */

/* A budget without limits for @hg, whose task group is made already. */
static void hgroup_budget_init(struct hgroup_cpu_budget *budget,
			       struct hgroup *hg)
{
	budget->owner = hg->owner;
	budget->owner_ns = get_user_ns(ns_of_pid(hg->pgrp)->user_ns);
	atomic_long_inc(&hgroup_nr_budgets);
}

/*
 * Leaving the budget a redirection gave @w is lifting it: an
 * administrator's mark on it, or on @w (every redirection leaves one),
 * binds.  Without either, only the administrator over @w's namespace,
 * checked already, may.
 */
static int hgroup_redirect_may_leave(struct hgroup *w)
{
	struct user_namespace *own = w->admin_ns[HGROUP_KIND_PGRP_CPU];
	struct hgroup_cpu_budget *budget = w->cpu_budget;

	if (own && !ns_capable(own, CAP_SYS_ADMIN))
		return -EPERM;
	if (budget && budget->admin_ns &&
	    !ns_capable(budget->admin_ns, CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

/* hgroup_redirect_check(): no redirection to end. */
#define HGROUP_REDIRECT_NONE	(HGROUP_RETRY + 1)

/*
 * Check the redirection of the group @wpid names to the one @cpid names
 * (NULL to end it), in the locked domain @d, with tasklist_lock held.
 * Return: 0 with *@w and *@c (or NULL) set, HGROUP_REDIRECT_NONE for
 * nothing to do, HGROUP_RETRY, or an errno.
 */
static int hgroup_redirect_check(struct pid *wpid, struct pid *cpid,
				 struct hgroup_domain *d,
				 const struct hgroup_cpu_budget *fresh,
				 struct hgroup **w, struct hgroup **c)
{
	*w = hgroup_find(wpid);
	*c = NULL;
	if (!*w)
		return -ESRCH;
	if ((*w)->domain != d)
		return HGROUP_RETRY;
	if (*w == &init_hgroup ||
	    !ns_capable(ns_of_pid((*w)->pgrp)->user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (!cpid)
		return !(*w)->sched_redirect ? HGROUP_REDIRECT_NONE :
		       hgroup_redirect_may_leave(*w);
	*c = hgroup_find(cpid);
	if (!*c)
		return -ESRCH;
	if (*c == *w)
		return -EINVAL;
	if ((*c)->domain != d || ns_of_pid((*c)->pgrp) != ns_of_pid((*w)->pgrp))
		return -EXDEV;
	/* A budget of its own is lifted first, by the rule of budgets. */
	if ((*w)->cpu_budget && !(*w)->sched_redirect)
		return -EBUSY;
	if (!(*c)->cpu_budget && !fresh->sched)
		return -ENOMEM;
	return hgroup_redirect_may_leave(*w);
}

/* Make the checked redirection of @w to @c (NULL to end it). */
static void hgroup_redirect_apply(struct hgroup *w, struct hgroup *c,
				  struct pid *cpid,
				  struct hgroup_cpu_budget **fresh)
{
	struct hgroup_cpu_budget *budget = NULL, *old = w->cpu_budget;

	if (c) {
		budget = c->cpu_budget;
		if (!budget) {
			budget = *fresh;
			*fresh = NULL;
			hgroup_budget_init(budget, c);
			WRITE_ONCE(c->cpu_budget, budget);
		}
		refcount_inc(&budget->usage);
	}
	WRITE_ONCE(w->cpu_budget, budget);
	hgroup_budget_put(old);
	put_pid(w->sched_redirect);
	w->sched_redirect = get_pid(cpid);
	/*
	 * An administrator's doing, as such: the owner of @w (or of a group
	 * made from it) may not lift @w out of the budget.  Ended, the group
	 * is unrestricted, and its owner's again.
	 */
	if (c) {
		hgroup_mark_admin(w, HGROUP_KIND_PGRP_CPU,
				  hgroup_caller_ns(ns_of_pid(w->pgrp)->user_ns));
	} else {
		put_user_ns(w->admin_ns[HGROUP_KIND_PGRP_CPU]);
		w->admin_ns[HGROUP_KIND_PGRP_CPU] = NULL;
	}
}

static long hgroup_redirect_set(pid_t pgid, const void *kattr,
				unsigned int flags)
{
	const struct hgroup_redirect *r = kattr;
	struct hgroup_cpu_budget *fresh = NULL;
	struct pid *wpid, *cpid = NULL;
	struct hgroup_domain *d;
	struct hgroup *w, *c;
	struct autogroup *ag;
	long ret = 0;

	if (flags || r->pgid < 0 || r->state)
		return -EINVAL;
	wpid = hgroup_pgid_get(pgid);
	if (!wpid)
		return -ESRCH;
	if (r->pgid) {
		cpid = hgroup_pgid_get(r->pgid);
		ret = !cpid ? -ESRCH : cpid == wpid ? -EINVAL : 0;
		fresh = ret ? NULL : kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
		if (!ret && !fresh)
			ret = -ENOMEM;
	}
	if (fresh) {
		refcount_set(&fresh->usage, 1);
		fresh->weight = HGROUP_PCPU_WEIGHT_NONE;
		fresh->quota_us = HGROUP_CPU_UNLIMITED;
		fresh->period_us = HGROUP_CPU_PERIOD_DFL;
	}
	while (!ret) {
		d = hgroup_lock_domain(wpid);
		if (IS_ERR(d)) {
			ret = PTR_ERR(d);
			break;
		}
		/* The task group of the budget the named group may need. */
		if (fresh && !fresh->sched) {
			fresh->domain = d;
			mutex_lock(&hgroup_sched_mutex);
			ag = hgroup_sched_create(hgroup_domain_sched(d));
			if (!IS_ERR(ag)) {
				fresh->sched = ag;
				hgroup_budget_limit(fresh);
			}
			mutex_unlock(&hgroup_sched_mutex);
		}
		read_lock(&tasklist_lock);
		ret = hgroup_redirect_check(wpid, cpid, d, fresh, &w, &c);
		if (!ret) {
			hgroup_get(w);
			if (c)
				hgroup_get(c);
			hgroup_redirect_apply(w, c, cpid, &fresh);
		}
		read_unlock(&tasklist_lock);
		if (!ret) {
			mutex_lock(&hgroup_sched_mutex);
			if (c)
				hgroup_sched_fix_group(c);
			hgroup_sched_fix_group(w);
			mutex_unlock(&hgroup_sched_mutex);
			if (c)
				hgroup_put(c);
			hgroup_put(w);
		}
		hgroup_unlock_domain(d);
		if (ret != HGROUP_RETRY)
			break;
		/* The group left the domain: the task group made goes. */
		if (fresh) {
			hgroup_sched_put(fresh->sched);
			fresh->sched = NULL;
		}
		ret = 0;
	}
	if (fresh)
		hgroup_sched_put(fresh->sched);
	kfree(fresh);
	put_pid(cpid);
	put_pid(wpid);
	return ret == HGROUP_REDIRECT_NONE ? 0 : ret;
}

static long hgroup_redirect_get(pid_t pgid, void *kattr)
{
	struct hgroup_redirect *r = kattr;
	struct hgroup_domain *d;
	struct hgroup *hg;
	struct pid *pid;
	long ret;

	pid = hgroup_pgid_get(pgid);
	if (!pid)
		return -ESRCH;
	do {
		d = hgroup_lock_domain(pid);
		if (IS_ERR(d)) {
			ret = PTR_ERR(d);
			break;
		}
		read_lock(&tasklist_lock);
		hg = hgroup_find(pid);
		ret = !hg ? -ESRCH : hg->domain != d ? HGROUP_RETRY : 0;
		if (!ret) {
			struct pid *to = hg->sched_redirect;

			r->pgid = to ? pid_vnr(to) : 0;
			r->state = to && !pid_has_task(to, PIDTYPE_PGID) ?
				   HGROUP_REDIRECT_ENDED : 0;
		}
		read_unlock(&tasklist_lock);
		hgroup_unlock_domain(d);
	} while (ret == HGROUP_RETRY);
	put_pid(pid);
	return ret;
}

const struct hgroup_restriction hgroup_redirect_restriction = {
	.attr		= HGROUP_ATTR_REDIRECT,
	.kind		= HGROUP_ATTR_REDIRECT,
	.size_ver0	= HGROUP_REDIRECT_SIZE_VER0,
	.size		= sizeof(struct hgroup_redirect),
	.set_attr	= hgroup_redirect_set,
	.get_attr	= hgroup_redirect_get,
};
