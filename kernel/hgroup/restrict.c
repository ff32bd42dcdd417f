// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the restrictions of a process group and the rule for changing
 * them.
 *
 * Each kind of restriction is a struct hgroup_restriction in a file of
 * its own, which knows how its value is parsed, compared, copied to a new
 * group, applied and read back; this file holds only the generic rule: who
 * may change what, the hierarchy, and the domain scope applied as one step.
 *
 * hgroup_attr_set() is all of hgroup_set_attr() once its argument is in
 * kernel memory.  It builds the new value before taking any lock, then,
 * under the mutex of the target's domain, checks permission and the
 * lifting rule for every group it changes, and, under tasklist_lock held
 * for reading, checks the members and only then changes the groups: a
 * refused call changes nothing.  Calls on different domains do not wait
 * for each other.
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
#include <linux/nospec.h>
#include <linux/user_namespace.h>

#include "hgroup.h"

/* Counter for hgroup::visit and hgroup_change::id, shared by all domains. */
static atomic64_t hgroup_visit_seq = ATOMIC64_INIT(0);

/* The kinds of restriction, by HGROUP_ATTR_* number. */
#ifndef CONFIG_HGROUP_SCHED
/* Scheduling groups not built in: the attributes are known, and refused. */
static const struct hgroup_restriction hgroup_sched_restriction = {
	.attr		= HGROUP_ATTR_SCHED,
	.kind		= HGROUP_ATTR_SCHED,
	.size_ver0	= HGROUP_SCHED_SIZE_VER0,
	.size		= sizeof(struct hgroup_sched),
	.per_domain	= true,
	.disabled	= true,
};

static const struct hgroup_restriction hgroup_cpu_restriction = {
	.attr		= HGROUP_ATTR_CPU,
	.kind		= HGROUP_ATTR_CPU,
	.size_ver0	= HGROUP_CPU_SIZE_VER0,
	.size		= sizeof(struct hgroup_cpu),
	.per_domain	= true,
	.disabled	= true,
};

static const struct hgroup_restriction hgroup_pcpu_restriction = {
	.attr		= HGROUP_ATTR_CPU,
	.kind		= HGROUP_KIND_PGRP_CPU,
	.size_ver0	= HGROUP_CPU_SIZE_VER0,
	.size		= sizeof(struct hgroup_cpu),
	.disabled	= true,
};

static const struct hgroup_restriction hgroup_redirect_restriction = {
	.attr		= HGROUP_ATTR_REDIRECT,
	.kind		= HGROUP_ATTR_REDIRECT,
	.size_ver0	= HGROUP_REDIRECT_SIZE_VER0,
	.size		= sizeof(struct hgroup_redirect),
	.disabled	= true,
};
#endif

#ifndef CONFIG_HGROUP_MEM
static const struct hgroup_restriction hgroup_mem_restriction = {
	.attr		= HGROUP_ATTR_MEM,
	.kind		= HGROUP_ATTR_MEM,
	.size_ver0	= HGROUP_MEM_SIZE_VER0,
	.size		= sizeof(struct hgroup_mem),
	.per_domain	= true,
	.disabled	= true,
};
#endif

static const struct hgroup_restriction *const hgroup_restrictions[] = {
	[HGROUP_ATTR_TASKS] = &hgroup_tasks_restriction,
	[HGROUP_ATTR_CPUS] = &hgroup_cpus_restriction,
	[HGROUP_ATTR_MEMS] = &hgroup_mems_restriction,
	[HGROUP_ATTR_DEVICES] = &hgroup_devices_restriction,
	[HGROUP_ATTR_FREEZE] = &hgroup_freeze_restriction,
	[HGROUP_ATTR_SCHED] = &hgroup_sched_restriction,
	[HGROUP_ATTR_CPU] = &hgroup_cpu_restriction,
	[HGROUP_ATTR_REDIRECT] = &hgroup_redirect_restriction,
	[HGROUP_ATTR_MEM] = &hgroup_mem_restriction,
	[HGROUP_KIND_PGRP_CPU] = &hgroup_pcpu_restriction,
};

/**
 * hgroup_restriction - the kind of restriction an attribute is
 * @attr: HGROUP_ATTR_* number, from user space.
 * @flags: the call's flags: HGROUP_ATTR_CPU without HGROUP_SCOPE_DOMAIN
 *	names a process group's CPU budget, with it the domain's limits.
 *
 * Return: the kind, or NULL if @attr names none.
 */
const struct hgroup_restriction *
hgroup_restriction(unsigned int attr, unsigned int flags)
{
	if (attr == HGROUP_ATTR_CPU && !(flags & HGROUP_SCOPE_DOMAIN))
		return hgroup_restrictions[HGROUP_KIND_PGRP_CPU];
	/* Only attribute numbers name a kind directly. */
	if (attr > HGROUP_ATTR_MEM)
		return NULL;
	return hgroup_restrictions[array_index_nospec(attr,
				   ARRAY_SIZE(hgroup_restrictions))];
}

/*
 * The next kind after number *@i, NULL after the last; *@i counts.  A
 * kind not in this kernel's configuration has no state to walk, and one
 * with calls of its own is outside the generic rule.
 */
static const struct hgroup_restriction *hgroup_next_restriction(unsigned int *i)
{
	const struct hgroup_restriction *r;

	while (++*i < ARRAY_SIZE(hgroup_restrictions)) {
		r = hgroup_restrictions[*i];
		if (r && !r->disabled && !r->set_attr)
			return r;
	}
	return NULL;
}

/* Every kind of restriction @r, in HGROUP_ATTR_* order. */
#define for_each_restriction(r)						\
	for (unsigned int __i = 0; ((r) = hgroup_next_restriction(&__i)); )

static_assert(ARRAY_SIZE(hgroup_restrictions) <= HGROUP_NR_KINDS);

/*
 * Does @hg restrict the per-group kind @r at all, that is allow less than
 * no restriction (no set, no device list, no flag: a change all zero)?
 */
static bool hgroup_kind_restricted(const struct hgroup *hg,
				   const struct hgroup_restriction *r)
{
	struct hgroup_change c = { .ops = r };

	if (r->restricts)
		return r->restricts(hg);
	return !r->allows(hg, hg, &c);
}

/* Is @a the user namespace @b or one above it? */
static bool hgroup_ns_covers(const struct user_namespace *a,
			     const struct user_namespace *b)
{
	for (; b; b = b->parent)
		if (a == b)
			return true;
	return false;
}

/*
 * The administrator's mark that binds kind @r of @hg: its own, or one on
 * what it shares with other groups (a CPU budget), whichever is outer
 * (the shared one if neither covers the other).
 */
static struct user_namespace *hgroup_mark(const struct hgroup *hg,
					  const struct hgroup_restriction *r)
{
	struct user_namespace *own = hg->admin_ns[r->kind], *shared;

	shared = r->get_mark ? r->get_mark(hg) : NULL;
	if (!shared || (own && hgroup_ns_covers(own, shared)))
		return own;
	return shared;
}

/* Mark kind @kind of @hg as an administrator's of @ns, or of an outer one. */
void hgroup_mark_admin(struct hgroup *hg, unsigned int kind,
		       struct user_namespace *ns)
{
	struct user_namespace *old = hg->admin_ns[kind];

	if (old && hgroup_ns_covers(old, ns))
		return;
	hg->admin_ns[kind] = get_user_ns(ns);
	put_user_ns(old);
}

/* The outermost namespace, from @ns up, where the caller is an admin. */
struct user_namespace *hgroup_caller_ns(struct user_namespace *ns)
{
	struct user_namespace *best = ns;

	for (; ns; ns = ns->parent)
		if (ns_capable_noaudit(ns, CAP_SYS_ADMIN))
			best = ns;
	return best;
}

/*
 * The namespace whose administrator @hg's owner is: the outermost one,
 * from @hg's PID namespace's up, whose root it is; else that one.
 */
static struct user_namespace *hgroup_owner_ns(const struct hgroup *hg)
{
	struct user_namespace *ns = ns_of_pid(hg->pgrp)->user_ns, *best = ns;

	for (; ns; ns = ns->parent)
		if (uid_eq(make_kuid(ns, 0), hg->owner))
			best = ns;
	return best;
}

/*
 * The marks of @from as they bind the caller, into @ns (borrowed): its
 * own, and, if the caller does not own @from and so could not lift it,
 * every per-group kind @from restricts, as its owner's.
 */
static void hgroup_binding_marks(const struct hgroup *from,
				 struct user_namespace **ns)
{
	bool owner = uid_eq(current_euid(), from->owner);
	struct user_namespace *own = NULL;
	const struct hgroup_restriction *r;

	for_each_restriction(r) {
		unsigned int a = r->kind;

		ns[a] = r->per_domain ? NULL : hgroup_mark(from, r);
		if (r->per_domain || owner || !hgroup_kind_restricted(from, r))
			continue;
		own = own ?: hgroup_owner_ns(from);
		if (!ns[a] || hgroup_ns_covers(own, ns[a]))
			ns[a] = own;
	}
}

/*
 * Take @from's restrictions for the new group @hg; tasklist_lock held.
 * The marks that bind the creator come along (hgroup_binding_marks()):
 * @hg is the creator's own.
 */
void hgroup_restrict_copy(struct hgroup *hg, const struct hgroup *from)
{
	struct user_namespace *marks[HGROUP_NR_KINDS] = {};
	const struct hgroup_restriction *r;

	for_each_restriction(r)
		if (r->copy)
			r->copy(hg, from);
	hg->nnp = from->nnp;
	memset(hg->admin_ns, 0, sizeof(hg->admin_ns));
	hgroup_binding_marks(from, marks);
	for_each_restriction(r)
		if (marks[r->kind])
			hgroup_mark_admin(hg, r->kind, marks[r->kind]);
	hg->check_restricts = false;
	hg->check_admin = false;
	hg->bind_nnp = false;
	hg->check_lift = 0;
	hg->visit = 0;
	hg->checked = 0;
}

/* @hg is being freed: drop its restrictions. */
void hgroup_restrict_release(struct hgroup *hg)
{
	const struct hgroup_restriction *r;

	for_each_restriction(r) {
		if (r->release)
			r->release(hg);
		put_user_ns(hg->admin_ns[r->kind]);
	}
}

static void hgroup_change_put(struct hgroup_change *c)
{
	if (c->ops->put)
		c->ops->put(c);
}

/*
 * Does @limit allow everything the change gives @hg beyond what @hg has?
 * With @limit == @hg: is the change no lift at all?
 */
static bool hgroup_allows(const struct hgroup *limit, const struct hgroup *hg,
			  const struct hgroup_change *c)
{
	return c->ops->allows(limit, hg, c);
}

/* Has @hg the value of @c already? */
static bool hgroup_same_value(const struct hgroup *hg,
			      const struct hgroup_change *c)
{
	return hgroup_allows(hg, hg, c) && c->ops->lifts_only(hg, c);
}

/* Has the caller CAP_SYS_ADMIN over @hg (its PID namespace's owner)? */
static bool hgroup_capable(const struct hgroup *hg, bool audit)
{
	struct user_namespace *ns = ns_of_pid(hg->pgrp)->user_ns;

	return audit ? ns_capable(ns, CAP_SYS_ADMIN) :
		       ns_capable_noaudit(ns, CAP_SYS_ADMIN);
}

/* May the caller change @hg at all? */
static int __hgroup_may_change(const struct hgroup *hg, bool audit)
{
	if (hg == &init_hgroup)
		return -EPERM;
	if (uid_eq(current_euid(), hg->owner) || hgroup_capable(hg, audit))
		return 0;
	return -EPERM;
}

static int hgroup_may_change(const struct hgroup *hg,
			     const struct hgroup_restriction *r)
{
	/* Domain 0's own setting of a per-domain kind it has too. */
	if (hg == &init_hgroup && r->init_domain)
		return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
	return __hgroup_may_change(hg, true);
}

/*
 * May the caller lift @hg as @c says?  Not a kind an administrator
 * tightened, unless it is one too (EPERM); and only within what the
 * caller's own group and every group above it allow, and every group
 * above @hg (but for those changed in the same domain-scope step).
 */
static int hgroup_may_lift(struct hgroup *hg, struct hgroup_change *c,
			   bool audit)
{
	const struct hgroup *a;
	int ret = 0;

	struct user_namespace *mark = hgroup_mark(hg, c->ops);
	struct user_namespace *own = hg->admin_ns[c->ops->kind];

	if (mark && !(audit ? ns_capable(mark, CAP_SYS_ADMIN) :
			      ns_capable_noaudit(mark, CAP_SYS_ADMIN)))
		return -EPERM;
	/* Of marks in unrelated namespaces, both bind. */
	if (own && own != mark && !ns_capable_noaudit(own, CAP_SYS_ADMIN))
		return -EPERM;
	/* The groups above may be in other domains, changing meanwhile. */
	rcu_read_lock();
	for (a = task_hgroup(current); a && !ret; a = a->parent)
		if (!hgroup_allows(a, hg, c))
			ret = -EACCES;
	for (a = hg->parent; a && !ret; a = a->parent) {
		if (c->domain_scope && a->domain == c->domain)
			continue;
		if (!hgroup_allows(a, hg, c))
			ret = -EACCES;
	}
	rcu_read_unlock();
	return ret;
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
	const struct cred *cred = current_cred(), *tcred, *prev = NULL;
	bool priv = false, signal = false;
	struct task_struct *t;
	int ret = 0;

	*unpriv = false;
	/* Privileged over every user namespace: over every member too. */
	if (ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN))
		return 0;
	rcu_read_lock();
	for (t = hgroup_next_task(hg, NULL); t && !ret;
	     t = hgroup_next_task(hg, t)) {
		tcred = __task_cred(t);
		/* The threads of a process mostly share their credentials. */
		if (tcred != prev) {
			prev = tcred;
			priv = ns_capable_noaudit(tcred->user_ns,
						  CAP_SYS_ADMIN);
			signal = uid_eq(cred->euid, tcred->suid) ||
				 uid_eq(cred->euid, tcred->uid) ||
				 uid_eq(cred->uid, tcred->suid) ||
				 uid_eq(cred->uid, tcred->uid);
		}
		if (priv)
			continue;
		*unpriv = true;
		if (!signal || !task_no_new_privs(t))
			ret = -EPERM;
	}
	rcu_read_unlock();
	return ret;
}

/* Is @c a change of @hg that needs hgroup_may_restrict()? */
static bool hgroup_restricts(const struct hgroup *hg,
			     const struct hgroup_change *c)
{
	return !c->ops->no_trust && !c->ops->lifts_only(hg, c);
}

/*
 * The checks that depend only on the values of restrictions: whether the
 * caller may change @hg, whether the change lifts it beyond a bound, and
 * whether it restricts at all (comparing device lists rule by rule may be
 * long).  They run under RCU, holding up no fork or exit; the groups made
 * meanwhile get them under tasklist_lock.  A lift refused is reported
 * only after the members are checked, as the order of errors wants.
 */
static int hgroup_check_values(struct hgroup *hg, struct hgroup_change *c)
{
	int ret;

	ret = hgroup_may_change(hg, c->ops);
	if (ret)
		return ret;
	hg->check_restricts = hgroup_restricts(hg, c);
	hg->check_admin = !uid_eq(current_euid(), hg->owner);
	/* Domain 0's own setting is bounded by nothing above it. */
	hg->check_lift = hgroup_allows(hg, hg, c) || hg == &init_hgroup ? 0 :
			 hgroup_may_lift(hg, c, true);
	hg->checked = c->id;
	/* Written under tasklist_lock; an estimate is enough. */
	c->nr_threads += data_race(hg->nr_threads);
	return 0;
}

/*
 * The checks that depend on the members, with tasklist_lock held so that
 * none joins meanwhile: may the caller restrict them, and do the sets
 * leave each something?  Then the lift, checked before.
 */
static int hgroup_check_members(struct hgroup *hg, struct hgroup_change *c)
{
	bool unpriv = false;
	int ret;

	if (hg->checked != c->id) {
		ret = hgroup_check_values(hg, c);
		if (ret)
			return ret;
	}
	if (hg->check_restricts) {
		ret = hgroup_may_restrict(hg, &unpriv);
		if (ret)
			return ret;
	}
	if (c->ops->fits && !c->ops->fits(hg, c))
		return -EINVAL;
	if (c->ops->check) {
		ret = c->ops->check(hg, c);
		if (ret)
			return ret;
	}
	hg->bind_nnp = hg->check_restricts && unpriv;
	return hg->check_lift;
}

/**
 * hgroup_may_join - may a process move from one group into another?
 * @p: the process.
 * @from: the group it is in.
 * @to: the existing group setpgid() moves it to.
 *
 * A move must not shed a restriction: @to must restrict at least as much
 * as @from (CPUs, nodes, devices, freeze flags), or the caller must be
 * allowed to lift @from as far as @to (see hgroup_may_lift()).  Nor may
 * a process without no_new_privs join a group restricted by a caller
 * that was not privileged over its members (hgroup::nnp), nor one whose
 * sets do not meet its cpuset (the cpuset's masks would stay in force).
 * The LSMs are asked about each value of @to that differs from @from's,
 * as about the call that would change the process alone, where their
 * hook may be called with tasklist_lock held: for a freeze, not for the
 * sets (security_task_setpgid() has guarded the move).  Called with
 * tasklist_lock held for writing.
 *
 * Return: 0, -EPERM, or an LSM's errno.
 */
int hgroup_may_join(struct task_struct *p, struct hgroup *from,
		    struct hgroup *to)
{
	const struct hgroup_restriction *r;
	struct user_namespace *marks[HGROUP_NR_KINDS];
	struct hgroup_change c;
	struct task_struct *t;
	int ret;

	for_each_thread(p, t) {
		if (to->nnp && !task_no_new_privs(t))
			return -EPERM;
		for_each_restriction(r)
			if (r->may_join && !r->may_join(t, to))
				return -EPERM;
	}
	for_each_restriction(r) {
		if (r->per_domain)
			continue;
		c = (struct hgroup_change) { .ops = r };
		r->value(to, &c);
		if (r->lsm && !r->lsm_sleeps &&
		    !hgroup_same_value(from, &c)) {
			for_each_thread(p, t) {
				ret = r->lsm(t, &c);
				if (ret)
					return ret;
			}
		}
		if (hgroup_allows(from, from, &c))
			continue;
		if (__hgroup_may_change(from, false) ||
		    hgroup_may_lift(from, &c, false))
			return -EPERM;
	}
	/*
	 * Nor shed what an administrator set, or what the caller could not
	 * lift as @from's owner, into a group that has the same values from
	 * its owner only, or from a lesser administrator, who could then
	 * lift them.
	 */
	hgroup_binding_marks(from, marks);
	for_each_restriction(r) {
		struct user_namespace *m = marks[r->kind];

		if (m && !(hgroup_mark(to, r) &&
			   hgroup_ns_covers(hgroup_mark(to, r), m)) &&
		    !ns_capable_noaudit(m, CAP_SYS_ADMIN))
			return -EPERM;
	}
	return 0;
}

static int hgroup_apply_one(struct hgroup *hg, struct hgroup_change *c)
{
	struct user_namespace *ns = ns_of_pid(hg->pgrp)->user_ns, *mark;
	unsigned int k = c->ops->kind;

	/*
	 * Restricted by someone not privileged over its members: from now
	 * on only tasks with no_new_privs may join.
	 */
	if (hg->bind_nnp)
		hg->nnp = true;
	c->ops->apply(hg, c);
	/*
	 * Set by an administrator: only one (of the outermost namespace it
	 * is one of) may lift it.  Lifted by one to no restriction at all (a
	 * thaw, say), it is the owner's again.  A per-domain limit stays the
	 * administrator's.
	 */
	mark = hg->admin_ns[k];
	if (c->ops->per_domain || hgroup_kind_restricted(hg, c->ops)) {
		/* What this change sets, on what it shares too. */
		if (hg->check_admin) {
			hgroup_mark_admin(hg, k, hgroup_caller_ns(ns));
			if (c->ops->set_mark)
				c->ops->set_mark(hg, hgroup_caller_ns(ns));
		}
	} else if (mark && ns_capable_noaudit(mark, CAP_SYS_ADMIN)) {
		hg->admin_ns[k] = NULL;
		put_user_ns(mark);
	}
	return 0;
}

/*
 * The process group named @pgid in the caller's PID namespace, 0 for the
 * caller's own, resolved once per call, so that a call about the caller's
 * group stays about that group when another thread of the caller moves it
 * elsewhere meanwhile.
 *
 * Return: its pid, held, or NULL.
 */
struct pid *hgroup_pgid_get(pid_t pgid)
{
	struct pid *pid;

	if (pgid < 0)
		return NULL;
	rcu_read_lock();
	pid = get_pid(pgid ? find_vpid(pgid) : task_pgrp(current));
	rcu_read_unlock();
	return pid;
}

/*
 * The state of the process group @pid names, NULL if it names none;
 * tasklist_lock held, or RCU: see hgroup_find_rcu().
 */
struct hgroup *hgroup_find(struct pid *pid)
{
	struct task_struct *t;
	struct hgroup *hg;

	/*
	 * Under RCU, a process in the list may be on its way out, with no
	 * group any more, or on its way in, still with the group it comes
	 * from: ask the next one.  The first is not enough, as a process
	 * joining is added first.
	 */
	hlist_for_each_entry_rcu(t, &pid->tasks[PIDTYPE_PGID],
				 pid_links[PIDTYPE_PGID],
				 lockdep_is_held(&tasklist_lock)) {
		hg = task_hgroup(t);
		if (hg && hg->pgrp == pid)
			return hg;
	}
	return NULL;
}

/*
 * hgroup_find() under RCU: a walk that reached a process as it moved to
 * another group by setpgid() went on in that group's list, and may have
 * missed every member of this one.  Only a miss asks again, with the lists
 * held still; the group found stays valid until rcu_read_unlock().
 */
static struct hgroup *hgroup_find_rcu(struct pid *pid)
{
	struct hgroup *hg = hgroup_find(pid);

	if (!hg) {
		read_lock(&tasklist_lock);
		hg = hgroup_find(pid);
		read_unlock(&tasklist_lock);
	}
	return hg;
}

/* Call @fn on the group of @p if it is one of @c->domain not seen yet. */
static int hgroup_walk_visit(struct task_struct *p, struct hgroup_change *c,
			     u64 visit,
			     int (*fn)(struct hgroup *hg,
				       struct hgroup_change *c))
{
	/* NULL for a process on its way out, seen under RCU. */
	struct hgroup *hg = task_hgroup(p);

	if (!hg || hg->domain != c->domain || hg->visit == visit)
		return 0;
	hg->visit = visit;
	return fn(hg, c);
}

/*
 * Call @fn on every process group of @c->domain, the leader first, each
 * once, until it fails.  Under RCU a walk may miss groups, or stray into
 * another domain's list behind a process that left: it sees only the
 * groups of @c->domain, and only tasklist_lock makes it see them all.
 */
static int hgroup_walk_domain(struct hgroup_change *c,
			      int (*fn)(struct hgroup *hg,
					struct hgroup_change *c))
{
	struct hgroup_domain *d = c->domain;
	u64 visit = atomic64_inc_return(&hgroup_visit_seq);
	struct hgroup *leader = READ_ONCE(d->leader);
	struct task_struct *p;
	int ret;

	/* Under RCU, the last group of the domain may just have gone. */
	if (!leader)
		return -ESRCH;
	leader->visit = visit;
	ret = fn(leader, c);
	/*
	 * Domain 0 keeps no member list (hgroup_domain_linked()), and its
	 * leader is the initial group, which nobody may change: no change
	 * of the whole of domain 0 gets past the leader.
	 */
	if (!hgroup_domain_linked(d))
		return ret ? ret : -EPERM;
	hlist_for_each_entry_rcu(p, &d->pid->tasks[PIDTYPE_DOMAIN],
				 pid_links[PIDTYPE_DOMAIN],
				 lockdep_is_held(&tasklist_lock)) {
		if (ret)
			break;
		ret = hgroup_walk_visit(p, c, visit, fn);
	}
	return ret;
}

/*
 * The target of @c: @hg, or its domain's leader for a per-domain kind;
 * NULL if the domain has no group any more (@hg found under RCU may be
 * on its way out, and the leader with it; see hgroup_domain::leader).
 */
static struct hgroup *hgroup_target(struct hgroup *hg, struct hgroup_change *c)
{
	return c->ops->per_domain ? READ_ONCE(hg->domain->leader) : hg;
}

/*
 * Lock the domain of the group @pid names.  The group may have left it
 * by the time the mutex is held: look it up again, see hgroup_change().
 */
struct hgroup_domain *hgroup_lock_domain(struct pid *pid)
{
	struct hgroup_domain *d = NULL;
	struct hgroup *hg;
	int ret;

	rcu_read_lock();
	hg = hgroup_find_rcu(pid);
	/* Held: @hg drops its reference only after a grace period. */
	if (hg)
		d = hgroup_domain_get(hg->domain);
	rcu_read_unlock();
	if (!d)
		return ERR_PTR(-ESRCH);
	ret = mutex_lock_killable(&d->mutex);
	if (ret) {
		hgroup_domain_put(d);
		return ERR_PTR(ret);
	}
	return d;
}

void hgroup_unlock_domain(struct hgroup_domain *d)
{
	mutex_unlock(&d->mutex);
	hgroup_domain_put(d);
}

/* Take the threads of @hg, if @c changes its value. */
static int hgroup_take_changed(struct hgroup *hg, struct hgroup_change *c)
{
	if (!hgroup_same_value(hg, c))
		hgroup_take_threads(hg, c);
	return 0;
}

/*
 * Take the threads of the group @pid names (or of its domain) whose
 * group's value @c changes, and ask the LSMs about giving it to them,
 * with the hook of the call that does the same to one task: for each
 * thread, whatever the caller's privilege, as cpuset_can_attach() asks
 * for a move into a cpuset.  A hook may sleep (a sleepable BPF program on
 * security_task_setscheduler()), so the threads are taken with
 * tasklist_lock held and asked after it is dropped.  A thread that joins
 * before the change is made was forked by one asked about, with its
 * credentials, or moved by setpgid(), which asks itself.  A change of CPU
 * or node set keeps the threads for its update in place (hgroup_push()).
 *
 * Return: 0, the first errno an LSM gave, -ENOMEM, or as hgroup_change().
 */
static int hgroup_take_and_ask(struct pid *pid, struct hgroup_change *c)
{
	bool all = c->domain_scope && !c->ops->per_domain;
	bool in_place = c->ops->cpusets && IS_ENABLED(CONFIG_CPUSETS);
	unsigned int n = c->nr_threads, room, i;
	struct hgroup *hg;
	int ret;

	if (!c->ops->lsm && !in_place)
		return 0;
again:
	/*
	 * Room for the threads and some that join meanwhile; for an update
	 * in place, room for each group's threads once more: a group some
	 * thread joined before the change is made is taken again then
	 * (hgroup_push()), and those beyond the room get the virtual signal.
	 */
	room = n + n / 8 + 16 + (in_place ? n : 0);
	/* Without LSMs to ask, no room only means the virtual signal. */
	if (hgroup_push_alloc(c, room))
		return c->ops->lsm ? -ENOMEM : 0;
	read_lock(&tasklist_lock);
	hg = hgroup_find(pid);
	ret = !hg ? -ESRCH : hg->domain != c->domain ? HGROUP_RETRY : 0;
	if (!ret)
		ret = all ? hgroup_walk_domain(c, hgroup_take_changed) :
			    hgroup_take_changed(hg, c);
	read_unlock(&tasklist_lock);
	/* More threads than room: they joined meanwhile. */
	if (!ret && c->pushed->seen > c->pushed->nr) {
		n = max(c->pushed->seen, c->nr_threads);
		hgroup_push_cancel(c);
		goto again;
	}
	for (i = 0; !ret && c->ops->lsm && i < c->pushed->nr; i++)
		ret = c->ops->lsm(c->pushed->tasks[i], c);
	if (ret || !in_place)
		hgroup_push_cancel(c);
	return ret;
}

/*
 * Check and make the change of the group @pid names, or of every group
 * of its domain, with the mutex of @c->domain held.  The checks of values,
 * which may compare long device lists over many groups, run first under
 * RCU only.  Then, with tasklist_lock held for reading, the group is looked
 * up again (it may have changed meanwhile), the groups not checked yet get
 * every check, all get the checks of their members, and the change is
 * made: whole, or not at all.  cpuset_lock() is taken for that step
 * only, so no cpuset change waits for the checks of values.  The threads
 * of the groups changed are updated in place afterwards, see
 * hgroup_push().
 *
 * Return: 0, a negative errno, or HGROUP_RETRY if the group @pid names
 * is not in @c->domain (any more), or is not the one whose threads the
 * LSMs were asked about.
 */
static int hgroup_change(struct pid *pid, struct hgroup_change *c)
{
	bool all = c->domain_scope && !c->ops->per_domain;
	struct hgroup *hg;
	int ret;

	c->id = atomic64_inc_return(&hgroup_visit_seq);
	c->nr_threads = 0;
	rcu_read_lock();
	hg = hgroup_find_rcu(pid);
	ret = !hg ? -ESRCH : hg->domain != c->domain ? HGROUP_RETRY : 0;
	if (!ret) {
		hg = hgroup_target(hg, c);
		ret = !hg ? -ESRCH :
		      all ? hgroup_walk_domain(c, hgroup_check_values) :
			    hgroup_check_values(hg, c);
	}
	rcu_read_unlock();
	if (!ret)
		ret = hgroup_take_and_ask(pid, c);
	if (ret)
		return ret;
	if (c->ops->prepare)
		c->ops->prepare(c);

	/* Keep tasks from changing cpusets while the sets are checked. */
	if (c->ops->cpusets)
		cpuset_lock();
	read_lock(&tasklist_lock);
	hg = hgroup_find(pid);
	ret = !hg ? -ESRCH : hg->domain != c->domain ? HGROUP_RETRY : 0;
	/*
	 * The group died and another took its number since the LSMs were
	 * asked (its members made it, by setsid() or setpgid()): again.
	 */
	if (!ret && !all && c->ops->lsm && hg->taken != c->id &&
	    !hgroup_same_value(hg, c))
		ret = HGROUP_RETRY;
	if (!ret) {
		hg = hgroup_target(hg, c);
		ret = all ? hgroup_walk_domain(c, hgroup_check_members) :
			    hgroup_check_members(hg, c);
	}
	if (!ret)
		ret = all ? hgroup_walk_domain(c, hgroup_apply_one) :
			    hgroup_apply_one(hg, c);
	read_unlock(&tasklist_lock);
	if (c->ops->cpusets)
		cpuset_unlock();
	/* Nothing changed, no thread to update. */
	if (ret)
		hgroup_push_cancel(c);
	else if (c->ops->commit)
		c->ops->commit(c);
	return ret;
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
		.ops = hgroup_restriction(attr, flags),
		.domain_scope = flags & HGROUP_SCOPE_DOMAIN,
	};
	struct pid *pid;
	long ret;

	if (c.ops->disabled)
		return -EOPNOTSUPP;
	if (c.ops->set_attr)
		return c.ops->set_attr(pgid, kattr, flags);
	ret = c.ops->parse(&c, kattr);
	if (ret)
		return ret;
	pid = hgroup_pgid_get(pgid);
	if (!pid) {
		hgroup_change_put(&c);
		return -ESRCH;
	}
	/*
	 * A group changes domain once at most (set_domainid()); a group
	 * replaced under the same number is made by its own members.
	 */
	do {
		c.domain = hgroup_lock_domain(pid);
		if (IS_ERR(c.domain)) {
			ret = PTR_ERR(c.domain);
			break;
		}
		ret = hgroup_change(pid, &c);
		hgroup_unlock_domain(c.domain);
	} while (ret == HGROUP_RETRY);
	put_pid(pid);
	/*
	 * The threads of the groups changed, updated in place without the
	 * domain's mutex: each takes the sets in force when it is updated.
	 */
	hgroup_push_finish(&c);
	hgroup_change_put(&c);
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
 * Only the mutex of the group's domain is taken, so that the value read
 * is not swapped while a reference to it is taken.
 *
 * Return: 0 or a negative errno, see include/uapi/linux/hgroup.h.
 */
long hgroup_attr_get(pid_t pgid, unsigned int attr, void *kattr,
		     unsigned int flags)
{
	struct hgroup_change c = { .ops = hgroup_restriction(attr, flags) };
	const struct hgroup_restriction *r = c.ops;
	struct hgroup_domain *d;
	struct hgroup *hg;
	struct pid *pid;
	long ret;

	if (r->disabled)
		return -EOPNOTSUPP;
	if (r->get_attr)
		return r->get_attr(pgid, kattr);
	pid = hgroup_pgid_get(pgid);
	if (!pid)
		return -ESRCH;
	do {
		d = hgroup_lock_domain(pid);
		if (IS_ERR(d)) {
			put_pid(pid);
			return PTR_ERR(d);
		}
		read_lock(&tasklist_lock);
		hg = hgroup_find(pid);
		ret = !hg ? -ESRCH : hg->domain != d ? HGROUP_RETRY : 0;
		if (!ret) {
			r->value(hg, &c);
			if (r->get)
				r->get(&c);
			if (r->read)
				r->read(hg, kattr);
		}
		read_unlock(&tasklist_lock);
		hgroup_unlock_domain(d);
	} while (ret == HGROUP_RETRY);
	put_pid(pid);

	if (!ret && r->to_user)
		ret = r->to_user(&c, kattr);
	hgroup_change_put(&c);
	return ret;
}
