// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: per-process-group state and its lifecycle.
 *
 * A process group comes into being only in setpgid() and setsid(), and a
 * fork always joins its parent's group.  Those two calls allocate a state
 * object before taking tasklist_lock (hgroup_pgrp_prepare()), may be held
 * back under the lock by "freeze on new process group"
 * (hgroup_pgrp_check(), see freeze.c), install the state under the lock
 * if the group they move the process to has no other member
 * (hgroup_pgrp_join()), and free it afterwards if it was not needed
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
	hgroup_sched_release(hg);
	hgroup_domain_put(hg->domain);
	kmem_cache_free(hgroup_cachep, hg);
	atomic_long_dec(&hgroup_nr_pgrps);
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
	if (!hg || !refcount_dec_and_test(&hg->usage))
		return;
	/*
	 * No group of the domain is left: a reader that found the leader
	 * through the domain under RCU may use it until the grace period
	 * ends, see hgroup_domain::leader.
	 */
	if (hgroup_is_leader(hg))
		WRITE_ONCE(hg->domain->leader, NULL);
	call_rcu(&hg->rcu, hgroup_free_rcu);
}

/**
 * hgroup_alloc - allocate the state of a process group
 *
 * Called before taking tasklist_lock, by the calls that may make a
 * process group.  Pass it to hgroup_init_state() or hgroup_free_unused().
 *
 * Return: the state, not initialised, or NULL.
 */
struct hgroup *hgroup_alloc(void)
{
	return kmem_cache_alloc(hgroup_cachep, GFP_KERNEL_ACCOUNT);
}

/**
 * hgroup_free_unused - free a state hgroup_alloc() gave and nobody used
 * @hg: the state; may be NULL.
 */
void hgroup_free_unused(struct hgroup *hg)
{
	if (hg)
		kmem_cache_free(hgroup_cachep, hg);
}

/**
 * hgroup_init_state - initialise the state of a new process group
 * @hg: the new state.
 * @pgrp: the new process group.
 * @from: state of the group the creating process comes from.
 * @d: the domain the new group leads, or NULL.
 *
 * The new group is in @from's domain, under that domain's leader, or
 * leads the new domain @d (whose hgroup_domain::leader is @hg), which is
 * subordinate to @from's; either way it starts with @from's restrictions.
 * Called with tasklist_lock held for writing.
 */
void hgroup_init_state(struct hgroup *hg, struct pid *pgrp,
		       const struct hgroup *from, struct hgroup_domain *d)
{
	refcount_set(&hg->usage, 1);
	hg->nr_threads = 0;
	hg->joins = 0;
	hg->taken = 0;
	atomic_set(&hg->nr_frozen, 0);
	hg->pgrp = get_pid(pgrp);
	hg->domain = hgroup_domain_get(d ?: from->domain);
	hg->parent = hgroup_get(from->domain->leader);
	hg->owner = current_euid();
	hgroup_restrict_copy(hg, from);
	hgroup_sched_init_state(hg, from);
	atomic_long_inc(&hgroup_nr_pgrps);
}

/**
 * hgroup_set_group - move a process to another process group's state
 * @p: the process.
 * @old: the state it has.
 * @hg: the state it gets; the reference @p held to @old is the caller's.
 *
 * Called with tasklist_lock held for writing.  The counts of @p's threads
 * move along under @p's siglock, which a thread holds to enter or leave
 * the frozen count, so that they stay exact.  O(threads of @p), as the
 * checks of a move are.
 */
void hgroup_set_group(struct task_struct *p, struct hgroup *old,
		      struct hgroup *hg)
{
	struct sighand_struct *sighand;
	struct task_struct *t;
	int n = 0, frozen = 0;

	sighand = rcu_dereference_protected(p->sighand,
					    lockdep_is_held(&tasklist_lock));
	spin_lock(&sighand->siglock);
	for_each_thread(p, t) {
		n++;
		frozen += hgroup_task_frozen(t);
	}
	old->nr_threads -= n;
	atomic_sub(frozen, &old->nr_frozen);
	hg->nr_threads += n;
	hg->joins += n;
	atomic_add(frozen, &hg->nr_frozen);
	rcu_assign_pointer(p->signal->hgroup, hg);
	spin_unlock(&sighand->siglock);
}

/**
 * hgroup_next_task - walk the threads of a process group
 * @hg: the process group.
 * @t: the thread reached so far, NULL to start.
 *
 * Called with tasklist_lock held.
 *
 * Return: the thread after @t, every thread of every process of the
 * group in turn, or NULL after the last.
 */
struct task_struct *hgroup_next_task(struct hgroup *hg, struct task_struct *t)
{
	struct hlist_node *n;
	struct task_struct *p;

	lockdep_assert_held(&tasklist_lock);
	if (t) {
		p = __next_thread(t);
		if (p)
			return p;
		n = t->group_leader->pid_links[PIDTYPE_PGID].next;
	} else {
		n = hg->pgrp->tasks[PIDTYPE_PGID].first;
	}
	p = hlist_entry_safe(n, struct task_struct, pid_links[PIDTYPE_PGID]);
	return p ? list_first_entry(&p->signal->thread_head, struct task_struct,
				    thread_node) : NULL;
}

/**
 * hgroup_fork - a new task joins its creator's process group and domain
 * @p: the new thread or process, not yet running nor visible.
 *
 * Called from copy_process() under tasklist_lock, after the point where
 * the fork can fail and after ptrace_init_task() has reset @p's job
 * control state, so that a freeze set before or during the fork stays
 * set.  A new process is linked to its creator's domain and takes a
 * reference to its process group's state; every new task gets the
 * group's restrictions, and its task group.
 */
void hgroup_fork(struct task_struct *p)
{
	struct hgroup *hg = task_hgroup_locked(current);

	if (thread_group_leader(p)) {
		p->signal->pids[PIDTYPE_DOMAIN] = task_domain(current);
		if (hgroup_domain_linked(hg->domain))
			attach_pid(p, PIDTYPE_DOMAIN);
		RCU_INIT_POINTER(p->signal->hgroup, hgroup_get(hg));
		hgroup_mem_fork(p, hg->domain);
	}
	hg->nr_threads++;
	hg->joins++;
	hgroup_task_init(p, hg);
	hgroup_sched_fork(p);
}

/**
 * hgroup_can_fork - count a new thread in its domain
 * @p: the new thread or process, not yet running nor visible.
 *
 * Called from copy_process() with tasklist_lock held for writing, at the
 * last point where the fork can still fail.
 *
 * Return: 0, or -EAGAIN if the domain's task limit is reached.
 */
int hgroup_can_fork(struct task_struct *p)
{
	return hgroup_tasks_charge(task_hgroup_locked(current)->domain, 1);
}

/**
 * hgroup_exit - a thread is released
 * @p: the thread, being unhashed.
 * @group_dead: @p is the last thread of its process.
 *
 * Called from __unhash_process() under tasklist_lock and @p's siglock.
 * The thread leaves its group's and its domain's counts; the last thread
 * takes the process out of its process group and domain, and the last
 * member frees the group's state.
 */
void hgroup_exit(struct task_struct *p, bool group_dead)
{
	struct hgroup *hg = task_hgroup_locked(p);

	hg->nr_threads--;
	if (hgroup_task_frozen(p)) {
		clear_bit(HGROUP_TASK_FROZEN, &p->hgroup_flags);
		atomic_dec(&hg->nr_frozen);
	}
	hgroup_tasks_uncharge(hg->domain, 1);
	if (!group_dead)
		return;
	hgroup_member_left(hg);
	if (hgroup_domain_linked(hg->domain))
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
	if (hgroup_domain_linked(task_hgroup_locked(old_leader)->domain))
		transfer_pid(old_leader, new_leader, PIDTYPE_DOMAIN);
}

/**
 * hgroup_pgrp_prepare - get ready for a process group that may be made
 * @ctx: the call's context, set up here.
 * @may_make: the call may make a process group: setsid(), or setpgid()
 *	of a process into the group named by its own pid.
 *
 * Called by setpgid() and setsid() before they take tasklist_lock:
 * allocates the state the new group may need, so a setpgid() that joins
 * an existing group allocates nothing.  hgroup_pgrp_finish() must follow
 * if this succeeds.
 *
 * Return: 0 or -ENOMEM.
 */
int hgroup_pgrp_prepare(struct hgroup_pgrp_ctx *ctx, bool may_make)
{
	*ctx = (struct hgroup_pgrp_ctx) {
		.prealloc = may_make ? hgroup_alloc() : NULL,
	};
	return !may_make || ctx->prealloc ? 0 : -ENOMEM;
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
 * hgroup_pgrp_check - may the call make the process group it is about to?
 * @ctx: the call's context.
 * @p: the process moving to @pgrp.
 * @pgrp: the process group it moves to.
 *
 * Called by setpgid() and setsid() with tasklist_lock held for writing,
 * after every other check and before the move.  A move into an existing
 * group must not shed a restriction of @p's (hgroup_may_join()).  A call
 * that would make a group (no other process is in @pgrp) from a group
 * with "freeze on new process group", be it @p's or the caller's, is held
 * back.
 *
 * Return: 0, -EPERM for a move that would shed a restriction, an LSM's
 * errno for one it refuses, or -EAGAIN to drop the lock and let
 * hgroup_pgrp_finish() wait and restart the call.
 */
int hgroup_pgrp_check(struct hgroup_pgrp_ctx *ctx, struct task_struct *p,
		      struct pid *pgrp)
{
	struct hgroup *hg = task_hgroup_locked(p);
	struct hgroup *mine = task_hgroup_locked(current);
	struct task_struct *t;

	if (hg->pgrp == pgrp)
		return 0;
	t = hgroup_other_member(pgrp, p);
	if (t)
		return hgroup_may_join(p, hg, task_hgroup_locked(t));
	/* setpgid() makes a group only of its target's own pid. */
	if (WARN_ON_ONCE(!ctx->prealloc))
		return -ENOMEM;
	if (hgroup_blocks_new(hg))
		return hgroup_block_new(hg, &ctx->blocker, &ctx->seq);
	if (hgroup_blocks_new(mine))
		return hgroup_block_new(mine, &ctx->blocker, &ctx->seq);
	return 0;
}

/**
 * hgroup_pgrp_join - give a process the state of its (new) process group
 * @p: a process whose process group may just have changed.
 * @ctx: the call's context; its preallocated state is taken (and the
 *	pointer cleared) when @p's group is new.
 *
 * Called with tasklist_lock held for writing after any change of @p's
 * process group.  If the group has other members @p shares their state;
 * otherwise the group has just come into being and gets the preallocated
 * state, set up from the group @p comes from.
 */
void hgroup_pgrp_join(struct task_struct *p, struct hgroup_pgrp_ctx *ctx)
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
		hg = ctx->prealloc;
		ctx->prealloc = NULL;
		hgroup_init_state(hg, pgrp, old, NULL);
	}
	hgroup_set_group(p, old, hg);
	hgroup_moved(p, old, hg);
	hgroup_sched_join(ctx, p, old, hg, !t);
	hgroup_member_left(old);
	hgroup_put(old);
}

/**
 * hgroup_pgrp_finish - end what hgroup_pgrp_prepare() began
 * @ctx: the call's context.
 * @err: what the call would return.
 *
 * Called by setpgid() and setsid() after they dropped tasklist_lock.  A
 * process moved is moved into its new group's task group (sched.c).  If
 * hgroup_pgrp_check() held the call back, waits until the group that did
 * lifts its setting or loses a member, and has the call restarted.
 *
 * Return: @err, or what makes the call restart.
 */
int hgroup_pgrp_finish(struct hgroup_pgrp_ctx *ctx, int err)
{
	hgroup_free_unused(ctx->prealloc);
	hgroup_sched_finish(ctx);
	if (!ctx->blocker)
		return err;
	err = hgroup_wait_unblocked(ctx->blocker, ctx->seq);
	hgroup_put(ctx->blocker);
	return err;
}

static int __init hgroup_pgrp_init(void)
{
	hgroup_cachep = KMEM_CACHE(hgroup, SLAB_PANIC | SLAB_ACCOUNT);
	return 0;
}
core_initcall(hgroup_pgrp_init);
