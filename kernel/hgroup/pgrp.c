// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: per-process-group state and its lifecycle.
 *
 * A process group comes into being only in setpgid() and setsid(), and a
 * fork always joins its parent's group.  Those two calls allocate a state
 * object before taking tasklist_lock (hgroup_pgrp_prepare()), install it
 * under the lock if the group they move the process to has no other
 * member (hgroup_pgrp_join()), and free it afterwards if it was not needed
 * (hgroup_pgrp_finish()).  Nothing here sleeps under tasklist_lock.
 */

#include <linux/slab.h>

#include "hgroup.h"

static struct kmem_cache *hgroup_cachep;

/* The process group of init_task and of every kernel thread. */
struct hgroup init_hgroup = {
	.usage	= REFCOUNT_INIT(1),
	.pgrp	= &init_struct_pid,
	.domain	= &init_hgroup_domain,
	.owner	= GLOBAL_ROOT_UID,
};

static void hgroup_free_rcu(struct rcu_head *head)
{
	struct hgroup *hg = container_of(head, struct hgroup, rcu);
	struct hgroup *parent = hg->parent;

	put_pid(hg->pgrp);
	hgroup_restrict_release(hg);
	if (hgroup_is_leader(hg)) {
		hgroup_domain_free(hg);
	} else {
		kmem_cache_free(hgroup_cachep, hg);
		atomic_long_dec(&hgroup_nr_pgrps);
	}
	hgroup_put(parent);
}

/**
 * hgroup_put - drop a reference to a process group's state
 * @hg: the state; may be NULL.
 *
 * The last reference frees it, and drops its reference to its parent,
 * after an RCU grace period.  Callable in any context.
 */
void hgroup_put(struct hgroup *hg)
{
	if (hg && refcount_dec_and_test(&hg->usage))
		call_rcu(&hg->rcu, hgroup_free_rcu);
}

/**
 * hgroup_init_state - initialise the state of a new process group
 * @hg: the new state.
 * @pgrp: the new process group.
 * @from: state of the group the creating process comes from.
 *
 * The new group is in @from's domain, under that domain's leader, and
 * starts with @from's restrictions.
 */
void hgroup_init_state(struct hgroup *hg, struct pid *pgrp,
		       const struct hgroup *from)
{
	refcount_set(&hg->usage, 1);
	hg->pgrp = get_pid(pgrp);
	hg->domain = from->domain;
	hg->parent = hgroup_get(from->domain->leader);
	hg->owner = current_euid();
	hgroup_restrict_copy(hg, from);
}

/**
 * hgroup_fork - a new process joins its parent's process group and domain
 * @p: the new process (thread-group leader), not yet running.
 *
 * Called from copy_process() under tasklist_lock, right after @p has been
 * attached to its process group and session.
 */
void hgroup_fork(struct task_struct *p)
{
	struct hgroup *hg = task_hgroup_locked(current);

	p->signal->pids[PIDTYPE_DOMAIN] = task_domain(current);
	attach_pid(p, PIDTYPE_DOMAIN);
	RCU_INIT_POINTER(p->signal->hgroup, hgroup_get(hg));
}

/**
 * hgroup_can_fork - count a new thread and give it its group's state
 * @p: the new thread or process, not yet running nor visible.
 *
 * Called from copy_process() with tasklist_lock held for writing, at the
 * last point where the fork can still fail.
 *
 * Return: 0, or -EAGAIN if the domain's task limit is reached.
 */
int hgroup_can_fork(struct task_struct *p)
{
	struct hgroup *hg = task_hgroup_locked(current);
	int ret;

	ret = hgroup_tasks_charge(hg->domain, 1);
	if (!ret)
		hgroup_task_init(p, hg);
	return ret;
}

/**
 * hgroup_exit - a thread is released
 * @p: the thread, being unhashed.
 * @group_dead: @p is the last thread of its process.
 *
 * Called from __unhash_process() under tasklist_lock.  The thread leaves
 * its domain's task count; the last thread takes the process out of its
 * process group and domain, and the last member frees the group's state.
 */
void hgroup_exit(struct task_struct *p, bool group_dead)
{
	struct hgroup *hg = task_hgroup_locked(p);

	hgroup_tasks_uncharge(hg->domain, 1);
	if (!group_dead)
		return;
	detach_pid(p, PIDTYPE_DOMAIN);
	RCU_INIT_POINTER(p->signal->hgroup, NULL);
	hgroup_put(hg);
}

/**
 * hgroup_exec - a non-leader thread takes over its process at exec
 * @old_leader: the former thread-group leader.
 * @new_leader: the thread that called execve().
 *
 * Called from de_thread() under tasklist_lock beside the transfer of the
 * other process-wide pid links.
 */
void hgroup_exec(struct task_struct *old_leader, struct task_struct *new_leader)
{
	transfer_pid(old_leader, new_leader, PIDTYPE_DOMAIN);
}

/**
 * hgroup_pgrp_prepare - get ready for a process group that may be made
 * @pid: the process setpgid() moves (in the caller's PID namespace), or 0
 *	for setsid().
 * @pgid: the group setpgid() moves it to, or 0 for setsid().
 *
 * Called by setpgid() and setsid() before they take tasklist_lock.  If
 * the call creates a group (@pid == @pgid) and the caller's group or
 * @pid's has HGROUP_FREEZE_NEW_PGRP, waits until that is lifted.  Then
 * allocates the state the new group may need.
 *
 * Return: the state, to pass to hgroup_pgrp_join() and then to
 * hgroup_pgrp_finish() in any case; or ERR_PTR(-EINTR) or
 * ERR_PTR(-ENOMEM), and then nothing is to be finished.
 */
struct hgroup *hgroup_pgrp_prepare(pid_t pid, pid_t pgid)
{
	struct hgroup *hg = kmem_cache_alloc(hgroup_cachep, GFP_KERNEL_ACCOUNT);
	int ret;

	if (!hg)
		return ERR_PTR(-ENOMEM);
	ret = hgroup_freeze_new_wait(pid, pgid);
	if (ret) {
		kmem_cache_free(hgroup_cachep, hg);
		return ERR_PTR(ret);
	}
	return hg;
}

/* Any member of @pgrp other than @p. */
static struct task_struct *hgroup_other_member(struct pid *pgrp,
					       struct task_struct *p)
{
	struct task_struct *t;

	hlist_for_each_entry(t, &pgrp->tasks[PIDTYPE_PGID],
			     pid_links[PIDTYPE_PGID])
		if (t != p)
			return t;
	return NULL;
}

/**
 * hgroup_pgrp_join - give a process the state of its (new) process group
 * @p: a process whose process group may just have changed.
 * @prealloc: state from hgroup_pgrp_prepare(); taken (and set to NULL)
 *	when @p's group is new.
 *
 * Called with tasklist_lock held for writing after any change of @p's
 * process group.  If the group has other members @p shares their state;
 * otherwise the group has just come into being and gets @prealloc, set up
 * from the group @p comes from.
 */
void hgroup_pgrp_join(struct task_struct *p, struct hgroup **prealloc)
{
	struct hgroup *old = task_hgroup_locked(p);
	struct pid *pgrp = task_pgrp(p);
	struct task_struct *t;
	struct hgroup *hg;

	if (old->pgrp == pgrp)
		return;

	t = hgroup_other_member(pgrp, p);
	if (t) {
		hg = hgroup_get(task_hgroup_locked(t));
		/* Sessions never span domains; setpgid() keeps to one. */
		WARN_ON_ONCE(hg->domain != old->domain);
	} else {
		hg = *prealloc;
		*prealloc = NULL;
		hgroup_init_state(hg, pgrp, old);
		atomic_long_inc(&hgroup_nr_pgrps);
	}
	rcu_assign_pointer(p->signal->hgroup, hg);
	hgroup_moved(p, old, hg);
	hgroup_put(old);
}

/**
 * hgroup_pgrp_finish - end what hgroup_pgrp_prepare() began
 * @prealloc: the state, or NULL if hgroup_pgrp_join() took it.
 */
void hgroup_pgrp_finish(struct hgroup *prealloc)
{
	hgroup_freeze_new_done();
	if (prealloc)
		kmem_cache_free(hgroup_cachep, prealloc);
}

static int __init hgroup_pgrp_init(void)
{
	hgroup_cachep = KMEM_CACHE(hgroup, SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
core_initcall(hgroup_pgrp_init);
