// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: process domains.
 *
 * A domain is a level above sessions and process groups.  Users name it
 * by the pid of the process that created it, and every member process is
 * linked to that struct pid under PIDTYPE_DOMAIN, just as session members
 * are linked under PIDTYPE_SID.  That link is what keeps the number from
 * being handed to a new process while the domain has members, even after
 * its creator and its leader process group are gone.
 *
 * The kernel names a domain by an id of its own, no larger than a pid
 * number, that is not reused while the domain is referenced: the object is
 * reference-counted by its process groups and its sub-domains (and, in
 * time, by whatever else is charged to it), so it may outlive its last
 * process.  Domains form a tree, with a list of children in each, that
 * can be walked without holding any lock from one step to the next
 * (hgroup_domain_next()).
 *
 * Nesting comes from PID namespaces: a process may create a domain only
 * from domain 0 of its own namespace, and the domain that holds a
 * namespace's init is, seen from inside, that namespace's domain 0 (its
 * creator is not visible there, so its id reads as 0, as getsid() reads a
 * session whose leader is outside the namespace).
 */

#include <linux/cgroup.h>
#include <linux/idr.h>
#include <linux/mm_types.h>
#include <linux/pid_namespace.h>
#include <linux/sched/coredump.h>
#include <linux/slab.h>

#include "hgroup.h"

static struct kmem_cache *hgroup_domain_cachep;

/* The internal ids; 0 is the initial domain's. */
static DEFINE_IDA(hgroup_domain_ida);

/*
 * Protects the lists of children (writers; readers use RCU).  Taken from
 * RCU callbacks, hence with interrupts off.
 */
static DEFINE_SPINLOCK(hgroup_domain_lock);

struct hgroup_domain init_hgroup_domain = {
	.usage	= REFCOUNT_INIT(1),
	.leader	= &init_hgroup,
	.pid	= &init_struct_pid,
	.children = LIST_HEAD_INIT(init_hgroup_domain.children),
	.sibling = LIST_HEAD_INIT(init_hgroup_domain.sibling),
	.mutex	= __MUTEX_INITIALIZER(init_hgroup_domain.mutex),
	.tasks_max = HGROUP_TASKS_UNLIMITED,
#ifdef CONFIG_HGROUP_SCHED
	.cpu_weight = CGROUP_WEIGHT_MAX,
	.cpu_quota_us = HGROUP_CPU_UNLIMITED,
	.cpu_period_us = 100000,
#endif
};

static void hgroup_domain_free_rcu(struct rcu_head *head)
{
	struct hgroup_domain *d = container_of(head, struct hgroup_domain, rcu);

	hgroup_sched_domain_release(d);
	hgroup_mem_domain_release(d);
	put_pid(d->pid);
	kmem_cache_free(hgroup_domain_cachep, d);
}

/**
 * hgroup_domain_put - drop a reference to a domain
 * @d: the domain; may be NULL.
 *
 * The last reference takes the domain off its parent's list of children,
 * frees its id and drops its reference to its parent; the memory goes
 * after an RCU grace period.  Callable in any context.
 */
void hgroup_domain_put(struct hgroup_domain *d)
{
	struct hgroup_domain *parent;
	unsigned long flags;

	while (d && refcount_dec_and_test(&d->usage)) {
		/* Walkers skip it meanwhile: see hgroup_domain_next(). */
		spin_lock_irqsave(&hgroup_domain_lock, flags);
		list_del_rcu(&d->sibling);
		spin_unlock_irqrestore(&hgroup_domain_lock, flags);
		parent = d->parent;
		ida_free(&hgroup_domain_ida, d->id);
		atomic_long_dec(&hgroup_nr_domains);
		call_rcu(&d->rcu, hgroup_domain_free_rcu);
		d = parent;
	}
}

/**
 * hgroup_domain_next - pre-order walk over a subtree of domains
 * @pos: the domain the walk is at, with a reference; NULL to start.
 * @root: the root of the subtree, with a reference held by the caller
 *	for the whole walk.
 *
 * Takes a reference to the next domain in the subtree and drops the one
 * to @pos, so the caller may sleep between steps.  A domain holds its
 * place in its parent's list while it is referenced, so the walk goes on
 * from there whatever changed meanwhile: every domain that is in the
 * subtree for the whole walk is visited once, domains made or freed
 * meanwhile may or may not be.
 *
 * Return: the next domain, or NULL (and no reference) after the last.
 */
struct hgroup_domain *hgroup_domain_next(struct hgroup_domain *pos,
					 struct hgroup_domain *root)
{
	struct hgroup_domain *d, *next = NULL;

	if (!pos)
		return hgroup_domain_get(root);
	rcu_read_lock();
	/* A domain being freed has no children, and is skipped. */
	list_for_each_entry_rcu(d, &pos->children, sibling)
		if (refcount_inc_not_zero(&d->usage)) {
			next = d;
			goto out;
		}
	for (d = pos; d != root; d = d->parent) {
		struct hgroup_domain *s = d;

		list_for_each_entry_continue_rcu(s, &d->parent->children,
						 sibling)
			if (refcount_inc_not_zero(&s->usage)) {
				next = s;
				goto out;
			}
	}
out:
	rcu_read_unlock();
	hgroup_domain_put(pos);
	return next;
}

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
 * zombie too) shares its session or process group, or its memory (a
 * CLONE_VM child or parent, or the caller is a vfork() child); -ENOMEM;
 * -EAGAIN if every memory object id is taken.  While the
 * caller's group has %HGROUP_FREEZE_NEW_PGRP, waits and is restarted, as
 * setsid() is.
 */
long hgroup_domain_create(void)
{
	struct task_struct *leader = current->group_leader;
	struct pid *pid = task_pid(leader);
	struct hgroup *old, *hg, *blocker = NULL;
	struct hgroup_pgrp_ctx ctx = { };
	struct hgroup_memory *mem;
	struct hgroup_domain *d;
	unsigned int seq;
	long ret;

	d = kmem_cache_zalloc(hgroup_domain_cachep, GFP_KERNEL_ACCOUNT);
	hg = hgroup_alloc();
	mem = hgroup_mem_alloc();
	ret = PTR_ERR(mem);
	if (IS_ERR(mem))
		goto out_free;
	ret = -ENOMEM;
	if (!d || !hg)
		goto out_free;
	ret = ida_alloc_range(&hgroup_domain_ida, 1, HGROUP_DOMAIN_ID_MAX,
			      GFP_KERNEL);
	if (ret < 0) {
		/* As many domains as there can be pids, as fork says. */
		ret = ret == -ENOSPC ? -EAGAIN : ret;
		goto out_free;
	}
	d->id = ret;
	refcount_set(&d->usage, 1);
	INIT_LIST_HEAD(&d->children);
	mutex_init(&d->mutex);
	d->tasks_max = HGROUP_TASKS_UNLIMITED;

	write_lock_irq(&tasklist_lock);
	ret = -EPERM;
	if (pid_nr_ns(task_domain(leader), task_active_pid_ns(current)))
		goto out;
	ret = -EBUSY;
	if (!hgroup_alone(task_session(leader), PIDTYPE_SID, leader) ||
	    !hgroup_alone(task_pgrp(leader), PIDTYPE_PGID, leader))
		goto out;
	/*
	 * Nor a process that shares its memory with another (clone() with
	 * CLONE_VM, or a vfork() child before exec): the memory is charged
	 * to one domain, which the other process would leave for this one.
	 * A CLONE_VM child is in its creator's process group until it has
	 * run, by when MMF_MULTIPROCESS is set.
	 */
	if (current->vfork_done ||
	    test_bit(MMF_MULTIPROCESS, &current->mm->flags))
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
	d->pid = get_pid(pid);
	d->leader = hg;
	d->parent = hgroup_domain_get(old->domain);
	hgroup_sched_domain_init(d, old);
	hgroup_mem_domain_init(d, mem);
	mem = NULL;
	/* The caller's threads are counted in the old domain already. */
	d->nr_tasks = leader->signal->nr_threads;
	spin_lock(&hgroup_domain_lock);
	list_add_tail_rcu(&d->sibling, &d->parent->children);
	spin_unlock(&hgroup_domain_lock);
	atomic_long_inc(&hgroup_nr_domains);

	hgroup_init_state(hg, task_pgrp(leader), old, d);
	/* Whoever could change the group still can, and only they. */
	hg->owner = old->owner;
	/* The group holds the only reference. */
	hgroup_domain_put(d);
	d = NULL;
	if (hgroup_domain_linked(old->domain)) {
		change_pid(leader, PIDTYPE_DOMAIN, pid);
	} else {
		leader->signal->pids[PIDTYPE_DOMAIN] = pid;
		attach_pid(leader, PIDTYPE_DOMAIN);
	}
	hgroup_set_group(leader, old, hg);
	hgroup_mem_enter(hg->domain);
	hgroup_sched_join(&ctx, leader, old, hg, true);
	hgroup_put(old);
	hg = NULL;
	ret = pid_vnr(pid);
out:
	write_unlock_irq(&tasklist_lock);
	if (d)
		ida_free(&hgroup_domain_ida, d->id);
out_free:
	if (d)
		kmem_cache_free(hgroup_domain_cachep, d);
	hgroup_free_unused(hg);
	hgroup_mem_free_unused(mem);
	hgroup_sched_finish(&ctx);
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

static int __init hgroup_domain_init(void)
{
	hgroup_domain_cachep = KMEM_CACHE(hgroup_domain,
					  SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
core_initcall(hgroup_domain_init);
