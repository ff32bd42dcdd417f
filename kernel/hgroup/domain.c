// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: process domains.
 *
 * A domain is a level above sessions and process groups.  Its id is the
 * pid of the process that created it, and every member process is linked
 * to that struct pid under PIDTYPE_DOMAIN, just as session members are
 * linked under PIDTYPE_SID.  That link is what keeps the id from being
 * handed to a new process while the domain has members, even after its
 * creator and its leader process group are gone.
 *
 * Nesting comes from PID namespaces: a process may create a domain only
 * from domain 0 of its own namespace, and the domain that holds a
 * namespace's init is, seen from inside, that namespace's domain 0 (its
 * creator is not visible there, so its id reads as 0, as getsid() reads a
 * session whose leader is outside the namespace).
 */

#include <linux/pid_namespace.h>
#include <linux/slab.h>

#include "hgroup.h"

/* A domain and the state of its leader process group, in one object. */
struct hgroup_leader {
	struct hgroup hg;
	struct hgroup_domain domain;
};

static struct kmem_cache *hgroup_leader_cachep;

struct hgroup_domain init_hgroup_domain = {
	.leader	= &init_hgroup,
	.id	= &init_struct_pid,
	.tasks_max = HGROUP_TASKS_UNLIMITED,
};

/* Is @task the only process linked to @pid under @type? */
static bool hgroup_alone(struct pid *pid, enum pid_type type,
			 struct task_struct *task)
{
	struct hlist_node *first = pid->tasks[type].first;

	return first == &task->pid_links[type] && !first->next;
}

/**
 * hgroup_domain_create - the calling process starts a new domain
 *
 * The new domain is subordinate to the caller's; its id is the caller's
 * pid and its leader process group is the caller's process group.
 *
 * Return: the new domain's id as seen from the caller's PID namespace;
 * -EPERM if the caller is not in domain 0 of its PID namespace or its
 * process group leads a domain already; -EBUSY if another process (a
 * zombie too) shares its session or process group; -ENOMEM.  While the
 * caller's group has %HGROUP_FREEZE_NEW_PGRP, waits and is restarted, as
 * setsid() is.
 */
long hgroup_domain_create(void)
{
	struct task_struct *leader = current->group_leader;
	struct pid *pid = task_pid(leader);
	struct hgroup *old, *blocker = NULL;
	struct hgroup_leader *new;
	unsigned int seq;
	long ret;

	new = kmem_cache_alloc(hgroup_leader_cachep, GFP_KERNEL_ACCOUNT);
	if (!new)
		return -ENOMEM;

	write_lock_irq(&tasklist_lock);
	ret = -EPERM;
	if (pid_nr_ns(task_domain(leader), task_active_pid_ns(current)))
		goto out;
	ret = -EBUSY;
	if (!hgroup_alone(task_session(leader), PIDTYPE_SID, leader) ||
	    !hgroup_alone(task_pgrp(leader), PIDTYPE_PGID, leader))
		goto out;
	/*
	 * Nor from a group that leads a domain already: a domain whose
	 * creator is outside the namespace reads as 0 there, and a new
	 * state object for the group would leave its old one bound to the
	 * outer domain, reaching the group's processes from there.
	 */
	ret = -EPERM;
	old = task_hgroup_locked(leader);
	if (hgroup_is_leader(old))
		goto out;
	/* A new leader state is a new group, as far as hgctl apply knows. */
	if (hgroup_blocks_new(old)) {
		ret = hgroup_block_new(old, &blocker, &seq);
		goto out;
	}

	/*
	 * The caller is alone in its process group, so giving the group a
	 * fresh state object, now the leader of the new domain, is
	 * invisible to anyone else.
	 */
	hgroup_init_state(&new->hg, task_pgrp(leader), old);
	/* Whoever could change the group still can, and only they. */
	new->hg.owner = old->owner;
	new->hg.domain = &new->domain;
	new->domain.leader = &new->hg;
	new->domain.id = get_pid(pid);
	/* The caller's threads are counted in the old domain already. */
	new->domain.nr_tasks = leader->signal->nr_threads;
	new->domain.tasks_max = HGROUP_TASKS_UNLIMITED;

	change_pid(leader, PIDTYPE_DOMAIN, pid);
	rcu_assign_pointer(leader->signal->hgroup, &new->hg);
	hgroup_put(old);
	atomic_long_inc(&hgroup_nr_domains);
	new = NULL;
	ret = pid_vnr(pid);
out:
	write_unlock_irq(&tasklist_lock);
	if (new)
		kmem_cache_free(hgroup_leader_cachep, new);
	if (blocker) {
		ret = hgroup_wait_unblocked(blocker, seq);
		hgroup_put(blocker);
	}
	return ret;
}

/**
 * hgroup_domain_of - the domain id of a process
 * @pid: a pid in the caller's PID namespace, or 0 for the caller.
 *
 * Return: the id as seen from the caller's PID namespace, 0 for the
 * namespace's domain 0 (or any domain whose creator it cannot see);
 * -ESRCH if @pid names no process visible to the caller.
 */
long hgroup_domain_of(pid_t pid)
{
	struct task_struct *p;
	long ret = -ESRCH;

	if (pid < 0)
		return -ESRCH;
	rcu_read_lock();
	p = pid ? find_task_by_vpid(pid) : current;
	if (p)
		ret = pid_vnr(task_domain(p));
	rcu_read_unlock();
	return ret;
}

/* Called from the RCU callback freeing a domain's leader. */
void hgroup_domain_free(struct hgroup *leader)
{
	struct hgroup_leader *l = container_of(leader, struct hgroup_leader, hg);

	put_pid(l->domain.id);
	kmem_cache_free(hgroup_leader_cachep, l);
	atomic_long_dec(&hgroup_nr_domains);
}

static int __init hgroup_domain_init(void)
{
	hgroup_leader_cachep = KMEM_CACHE(hgroup_leader,
					  SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
core_initcall(hgroup_domain_init);
