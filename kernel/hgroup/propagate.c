// SPDX-License-Identifier: GPL-2.0
/*
 * hgroups: the virtual signal.
 *
 * A restriction that lives in each task (its CPU affinity) is pushed to
 * every thread of a process group with task_work_add(TWA_SIGNAL): the
 * thread is woken like a signal would wake it and applies its group's
 * current restrictions to itself on its way back to user space.  Each
 * thread has one embedded callback; a pending bit keeps it from being
 * queued twice, and the callback always reads the newest state, so
 * changes in quick succession cost one application.
 *
 * Races with fork and setpgid() are closed by generations: a change bumps
 * hgroup::push_gen and a thread records in task_struct::hgroup_gen what
 * it applied.  A new thread, or a process moving to another group, is
 * checked against its group's generation with tasklist_lock held for
 * writing, which excludes a concurrent change and its walk.
 */

#include <linux/sched/task.h>
#include <linux/task_work.h>

#include "hgroup.h"

/**
 * hgroup_next_task - walk the threads of a process group
 * @hg: the process group.
 * @t: the thread reached so far, NULL to start.
 *
 * Called with tasklist_lock held; see the loops in freeze.c and propagate.c.
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

static void hgroup_work_fn(struct callback_head *head)
{
	clear_bit(HGROUP_TASK_WORK_QUEUED, &current->hgroup_flags);
	/* A change after this point queues the work again. */
	smp_mb__after_atomic();
	hgroup_apply_sets();
}

/* Send the virtual signal to @t. */
static void hgroup_kick(struct task_struct *t)
{
	if (t->flags & PF_KTHREAD ||
	    test_and_set_bit(HGROUP_TASK_WORK_QUEUED, &t->hgroup_flags))
		return;
	if (task_work_add(t, &t->hgroup_work, TWA_SIGNAL))
		clear_bit(HGROUP_TASK_WORK_QUEUED, &t->hgroup_flags);
}

/**
 * hgroup_push - make every thread of a group apply its restrictions
 * @hg: the group, whose hgroup::push_gen has just changed.
 *
 * Called with tasklist_lock held.
 */
void hgroup_push(struct hgroup *hg)
{
	struct task_struct *t;

	for (t = hgroup_next_task(hg, NULL); t;
	     t = hgroup_next_task(hg, t))
		hgroup_kick(t);
}

/**
 * hgroup_task_init - set up the hgroup state of a new thread
 * @p: the new thread, not yet running nor visible.
 * @hg: the process group it is joining.
 *
 * Called from copy_process() with tasklist_lock held for writing, after
 * ptrace_init_task() has cleared @p's job-control bits.  The thread's
 * affinity was copied from its creator, which may not have applied the
 * latest change yet.
 */
void hgroup_task_init(struct task_struct *p, struct hgroup *hg)
{
	p->hgroup_flags = 0;
	init_task_work(&p->hgroup_work, hgroup_work_fn);
	if (p->hgroup_gen != hg->push_gen)
		hgroup_kick(p);
	if (hg->freeze & HGROUP_FREEZE_ALL && !(p->flags & PF_KTHREAD)) {
		p->jobctl |= JOBCTL_TRAP_HGROUP;
		set_tsk_thread_flag(p, TIF_SIGPENDING);
	}
}

/**
 * hgroup_moved - a process has moved to another process group
 * @p: the process.
 * @from: the group it left.
 * @to: the group it joined.
 *
 * Called with tasklist_lock held for writing.
 */
void hgroup_moved(struct task_struct *p, const struct hgroup *from,
		  const struct hgroup *to)
{
	bool freeze = to->freeze & HGROUP_FREEZE_ALL;
	bool refreeze = (from->freeze ^ to->freeze) & HGROUP_FREEZE_ALL;
	struct task_struct *t;

	for_each_thread(p, t) {
		if (t->hgroup_gen != to->push_gen)
			hgroup_kick(t);
		if (refreeze)
			hgroup_freeze_task(t, freeze);
	}
}
